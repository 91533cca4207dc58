/* Tests of release tag selection and version order. */
#include "test.h"
#include "maintevo/tags.h"

static void test_order(void)
{
	/* each list is in strictly increasing version order */
	static const char *const lists[][8] = {
		{ "v2.6.37", "v2.6.39", "v3.0", "v3.1", "v3.9", "v3.10", "v4.0", NULL },
		{ "v6.1-rc1", "v6.1-rc2", "v6.1-rc10", "v6.1", "v6.1.1", "v6.1.12", "v6.2-rc1", NULL },
		{ "v2013.10", "v2014.01", "v2014.10-rc1", "v2014.10", "v2024.01", "v2026.07", NULL },
		{ "RELEASE-4.9.0", "RELEASE-4.10.0-rc1", "RELEASE-4.10.0", "RELEASE-4.10.1", NULL },
		{ "v1.0", "v1.3-rc1", "v1.3", "v1.10", NULL },
		{ "4.8", "4.8.1", "4.9", "4.10", "4.22", "4.22.01", "24.02", NULL },
		{ "4.22.01", "24.02", "24.02.01", "24.05", "25.12", "26.03", NULL },
		{ "v2.0.0-rc3", "v2.0.0", "v2.2.0", "v16.04-rc1", "v16.04", "v20.11", "v20.11.10", NULL },
		{ "v20.11.9", "v20.11.10-rc1", "v20.11.10", "v21.02-rc1", "v21.02", "v21.11.1", NULL },
	};
	for (size_t l = 0; l < sizeof lists / sizeof *lists; l++)
		for (size_t i = 0; lists[l][i]; i++)
			for (size_t j = 0; lists[l][j]; j++) {
				int c = mev_tag_cmp(lists[l][i], lists[l][j]);
				int want = i < j ? -1 : i > j;
				if ((c < 0 ? -1 : c > 0) != want)
					fprintf(stderr, "order: %s vs %s gave %d\n", lists[l][i], lists[l][j], c);
				CHECK((c < 0 ? -1 : c > 0) == want);
			}
	/* leading zeros and ties are total */
	CHECK(mev_tag_cmp("v01.2", "v1.2") != 0);
	CHECK(mev_tag_cmp("v1.2", "v1.2") == 0);
}

static void test_release_patterns(void)
{
	CHECK(mev_tag_is_release(MEV_DIALECT_LINUX, "v6.1", 0));
	CHECK(mev_tag_is_release(MEV_DIALECT_LINUX, "v2.6.39", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_LINUX, "v6.1-rc3", 0));
	CHECK(mev_tag_is_release(MEV_DIALECT_LINUX, "v6.1-rc3", 1));
	CHECK(!mev_tag_is_release(MEV_DIALECT_LINUX, "v2.6.11.1", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_LINUX, "6.1", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_LINUX, "v6.1-foo", 1));
	CHECK(mev_tag_is_release(MEV_DIALECT_UBOOT, "v2024.01", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_UBOOT, "v2024.01-rc1", 0));
	CHECK(mev_tag_is_release(MEV_DIALECT_UBOOT, "v2024.01-rc1", 1));
	CHECK(!mev_tag_is_release(MEV_DIALECT_UBOOT, "v6.1", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_UBOOT, "u-boot-1.3.0", 0));
	CHECK(mev_tag_is_release(MEV_DIALECT_XEN, "RELEASE-4.22.0", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_XEN, "xen-RELEASE-4.14.5", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_XEN, "RELEASE-4.22", 0));
	CHECK(mev_tag_is_release(MEV_DIALECT_QEMU, "v8.2.0", 0));
	CHECK(!mev_tag_is_release(MEV_DIALECT_QEMU, "v8.2", 0));
}

int main(void)
{
	RUN(test_order);
	RUN(test_release_patterns);
	return test_summary();
}
