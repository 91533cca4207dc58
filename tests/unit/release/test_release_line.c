/*
 * Tests of the line of releases a walk takes (docs/walking.md, "One line of
 * releases"): which release tags are on a dialect's line of development and
 * which are maintenance releases of which line (mev_tag_line), and the
 * releases that go back in time in version order (mev_release_backward).
 */
#include "test.h"
#include "maintevo/dialect.h"
#include "maintevo/tags.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_name(mev_tag_kind k)
{
	return k == MEV_TAG_MAIN ? "main" : k == MEV_TAG_POINT ? "point" : "none";
}

/* Real tags of each project, their kind and line (with --rc where given). */
static void test_tag_lines(void)
{
	static const struct {
		mev_dialect d;
		const char *tag;
		int rc;
		mev_tag_kind kind;
		const char *line;
	} t[] = {
		{ MEV_DIALECT_XEN, "RELEASE-4.17.0", 0, MEV_TAG_MAIN, "4.17" },
		{ MEV_DIALECT_XEN, "RELEASE-4.17.3", 0, MEV_TAG_POINT, "4.17" },
		{ MEV_DIALECT_XEN, "RELEASE-2.0.0", 0, MEV_TAG_MAIN, "2.0" },
		{ MEV_DIALECT_XEN, "RELEASE-4.10.0-rc1", 1, MEV_TAG_MAIN, "4.10" },
		{ MEV_DIALECT_XEN, "RELEASE-4.10.0-rc1", 0, MEV_TAG_NONE, "" },
		{ MEV_DIALECT_XEN, "RELEASE-4.1.6.1", 0, MEV_TAG_NONE, "" },
		{ MEV_DIALECT_DPDK, "v20.11", 0, MEV_TAG_MAIN, "20.11" },
		{ MEV_DIALECT_DPDK, "v20.11.10", 0, MEV_TAG_POINT, "20.11" },
		{ MEV_DIALECT_DPDK, "v20.11.9-rc1", 1, MEV_TAG_POINT, "20.11" },
		{ MEV_DIALECT_DPDK, "v21.02-rc4", 1, MEV_TAG_MAIN, "21.02" },
		{ MEV_DIALECT_DPDK, "v2.2.0", 0, MEV_TAG_MAIN, "2.2" },
		{ MEV_DIALECT_DPDK, "v1.8.0", 0, MEV_TAG_NONE, "" },
		{ MEV_DIALECT_ZEPHYR, "v2.2.0", 0, MEV_TAG_MAIN, "2.2" },
		{ MEV_DIALECT_ZEPHYR, "v2.2.1", 0, MEV_TAG_POINT, "2.2" },
		{ MEV_DIALECT_ZEPHYR, "v1.14.2", 0, MEV_TAG_POINT, "1.14" },
		{ MEV_DIALECT_ZEPHYR, "v1.6.99", 0, MEV_TAG_NONE, "" },
		{ MEV_DIALECT_ZEPHYR, "zephyr-v2.2.0", 0, MEV_TAG_NONE, "" },
		{ MEV_DIALECT_LINUX, "v6.1", 0, MEV_TAG_MAIN, "6.1" },
		{ MEV_DIALECT_LINUX, "v6.1.12", 0, MEV_TAG_POINT, "6.1" },
		{ MEV_DIALECT_LINUX, "v6.1-rc3", 1, MEV_TAG_MAIN, "6.1" },
		{ MEV_DIALECT_LINUX, "v3.0", 0, MEV_TAG_MAIN, "3.0" },
		{ MEV_DIALECT_LINUX, "v2.6.39", 0, MEV_TAG_MAIN, "2.6.39" },
		{ MEV_DIALECT_LINUX, "v2.6.11", 0, MEV_TAG_MAIN, "2.6.11" },
		{ MEV_DIALECT_UBOOT, "v2023.07", 0, MEV_TAG_MAIN, "2023.07" },
		{ MEV_DIALECT_UBOOT, "v2023.07.02", 0, MEV_TAG_POINT, "2023.07" },
		{ MEV_DIALECT_UBOOT, "v2009.11.1", 0, MEV_TAG_POINT, "2009.11" },
		{ MEV_DIALECT_UBOOT, "v2023.07.01-dont-use", 0, MEV_TAG_NONE, "" },
		{ MEV_DIALECT_COREBOOT, "4.22", 0, MEV_TAG_MAIN, "4.22" },
		{ MEV_DIALECT_COREBOOT, "4.22.01", 0, MEV_TAG_POINT, "4.22" },
		{ MEV_DIALECT_COREBOOT, "4.8.1", 0, MEV_TAG_POINT, "4.8" },
		{ MEV_DIALECT_COREBOOT, "24.02", 0, MEV_TAG_MAIN, "24.02" },
		{ MEV_DIALECT_COREBOOT, "24.02.01", 0, MEV_TAG_POINT, "24.02" },
		{ MEV_DIALECT_OPTEE, "1.0.0", 0, MEV_TAG_MAIN, "1.0" },
		{ MEV_DIALECT_OPTEE, "1.0.1", 0, MEV_TAG_POINT, "1.0" },
		{ MEV_DIALECT_OPTEE, "4.10.0", 0, MEV_TAG_MAIN, "4.10" },
		{ MEV_DIALECT_EDK2, "edk2-stable202408", 0, MEV_TAG_MAIN, "202408" },
		{ MEV_DIALECT_EDK2, "edk2-stable202408.01", 0, MEV_TAG_POINT, "202408" },
		{ MEV_DIALECT_QEMU, "v8.2.0", 0, MEV_TAG_MAIN, "8.2" },
		{ MEV_DIALECT_QEMU, "v7.2.15", 0, MEV_TAG_POINT, "7.2" },
		{ MEV_DIALECT_QEMU, "v9.1.0-rc4", 1, MEV_TAG_MAIN, "9.1" },
		{ MEV_DIALECT_AUTO, "v6.1.5", 0, MEV_TAG_POINT, "6.1" },
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		char line[64] = "junk";
		mev_tag_kind k = mev_tag_line(line, sizeof line, t[i].d, t[i].tag, t[i].rc);
		if (k != t[i].kind || strcmp(line, t[i].line))
			fprintf(stderr, "%s as %s: %s line '%s'\n", t[i].tag, mev_dialect_name(t[i].d),
				kind_name(k), line);
		CHECK_INT(k, t[i].kind);
		CHECK_STR(line, t[i].line);
	}
	/* no buffer for the line: the kind alone */
	CHECK_INT(mev_tag_line(NULL, 0, MEV_DIALECT_DPDK, "v20.11.3", 0), MEV_TAG_POINT);
	/* a line longer than the buffer is cut, never overrun */
	{
		char small[4];
		CHECK_INT(mev_tag_line(small, sizeof small, MEV_DIALECT_DPDK, "v20.11.3", 0), MEV_TAG_POINT);
		CHECK_STR(small, "20.");
	}
}

/* Every release still is one (mev_tag_is_release): the line only sorts them. */
static void test_lines_keep_releases(void)
{
	static const char *const tags[] = { "v20.11", "v20.11.10", "v2.2.0", "v1.2.3r0", "v21.02-rc1" };
	for (size_t i = 0; i < sizeof tags / sizeof *tags; i++)
		CHECK_INT(mev_tag_line(NULL, 0, MEV_DIALECT_DPDK, tags[i], 0) != MEV_TAG_NONE,
			  mev_tag_is_release(MEV_DIALECT_DPDK, tags[i], 0));
}

static int key_cmp(const void *a, const void *b)
{
	return mev_tag_cmp(((const mev_release_key *)a)->name, ((const mev_release_key *)b)->name);
}

/* DPDK as its repository has it (days since v20.11): the LTS releases of
 * 20.11 sit between v20.11 and v21.02 in version order and go on for three
 * years; every release tag goes back and forth, the line of development
 * and the line 20.11 each go forward. */
static void test_backward(void)
{
	static const struct {
		const char *tag;
		int day;
	} h[] = {
		{ "v20.11", 0 },      { "v20.11.1", 90 },   { "v20.11.2", 180 }, { "v20.11.10", 1100 },
		{ "v21.02", 80 },     { "v21.05", 175 },    { "v21.11", 360 },   { "v21.11.1", 400 },
		{ "v22.03", 480 },    { "v20.08", -90 },
	};
	size_t n = sizeof h / sizeof *h;
	mev_release_key all[16], main_line[16], line[16];
	size_t before[16], na = 0, nm = 0, nl = 0;
	for (size_t i = 0; i < n; i++) {
		char l[64];
		mev_release_key k = { h[i].tag, 1600000000 + (int64_t)h[i].day * 86400, i };
		mev_tag_kind kind = mev_tag_line(l, sizeof l, MEV_DIALECT_DPDK, h[i].tag, 0);
		all[na++] = k;
		if (kind == MEV_TAG_MAIN)
			main_line[nm++] = k;
		if (strcmp(l, "20.11") == 0)
			line[nl++] = k;
	}
	qsort(all, na, sizeof *all, key_cmp);
	qsort(main_line, nm, sizeof *main_line, key_cmp);
	qsort(line, nl, sizeof *line, key_cmp);
	/* v21.02 (day 80), v21.05, v21.11, v21.11.1 and v22.03 come after v20.11.10 (day 1100) */
	CHECK_INT(mev_release_backward(before, all, na), 5);
	CHECK_STR(all[5].name, "v21.02");
	CHECK_INT(before[5], 4);
	CHECK_STR(all[before[5]].name, "v20.11.10");
	CHECK(before[0] == SIZE_MAX && before[4] == SIZE_MAX);
	CHECK_INT(nm, 6);
	CHECK_INT(mev_release_backward(before, main_line, nm), 0);
	for (size_t i = 0; i < nm; i++)
		CHECK(before[i] == SIZE_MAX);
	CHECK_INT(nl, 4);
	CHECK_INT(mev_release_backward(before, line, nl), 0);
	/* one release dated before the one just before it; equal dates go forward */
	{
		mev_release_key v[] = { { "a1", 10, 0 }, { "a2", 20, 0 }, { "a3", 20, 0 }, { "a4", 15, 0 },
					{ "a5", 30, 0 } };
		CHECK_INT(mev_release_backward(before, v, 5), 1);
		CHECK_INT(before[3], 1); /* the first of the newest dates before it */
		CHECK(before[2] == SIZE_MAX && before[4] == SIZE_MAX);
	}
	CHECK_INT(mev_release_backward(before, all, 0), 0);
}

int main(void)
{
	RUN(test_tag_lines);
	RUN(test_lines_keep_releases);
	RUN(test_backward);
	return test_summary();
}
