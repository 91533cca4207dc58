/* Tests of the store: codec, refusal of foreign stores, releases and deltas. */
#include "test.h"
#include "codec.h"
#include "maintevo/error.h"
#include "maintevo/store.h"

#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];

static void test_codec(void)
{
	mev_buf in = MEV_BUF_INIT, packed = MEV_BUF_INIT, out = MEV_BUF_INIT;
	mev_rd r;
	size_t l;
	for (int i = 0; i < 1000; i++) {
		mev_put_uv(&in, (uint64_t)i * 1000003u);
		mev_put_sv(&in, -i * 77);
	}
	mev_put_cstr(&in, "hello");
	mev_put_uv(&in, UINT64_MAX);
	CHECK_INT(mev_codec_pack(&packed, 'X', in.ptr, in.len, 3), 0);
	CHECK(packed.len < in.len);
	CHECK_INT(mev_codec_unpack(&out, 'X', packed.ptr, packed.len), 0);
	CHECK(out.len == in.len && memcmp(out.ptr, in.ptr, in.len) == 0);
	mev_rd_init(&r, out.ptr, out.len);
	for (int i = 0; i < 1000; i++) {
		CHECK(mev_get_uv(&r) == (uint64_t)i * 1000003u);
		CHECK(mev_get_sv(&r) == -i * 77);
	}
	CHECK(memcmp(mev_get_str(&r, &l), "hello", 5) == 0 && l == 5);
	CHECK(mev_get_uv(&r) == UINT64_MAX);
	CHECK(!r.bad);
	mev_get_uv(&r);
	CHECK(r.bad); /* read past the end */
	/* wrong kind, flipped bits, truncation: all refused */
	CHECK_INT(mev_codec_unpack(&out, 'Y', packed.ptr, packed.len), MEV_ECORRUPT);
	packed.ptr[packed.len / 2] ^= 0x10;
	CHECK_INT(mev_codec_unpack(&out, 'X', packed.ptr, packed.len), MEV_ECORRUPT);
	packed.ptr[packed.len / 2] ^= 0x10;
	CHECK_INT(mev_codec_unpack(&out, 'X', packed.ptr, packed.len - 3), MEV_ECORRUPT);
	CHECK_INT(mev_codec_unpack(&out, 'X', "MEV", 3), MEV_ECORRUPT);
	mev_buf_free(&in);
	mev_buf_free(&packed);
	mev_buf_free(&out);
}

/* A file map: n files a/<i> with section sets built from `shift`. */
static mev_filemap *make_fm(int n, int shift, int rename)
{
	mev_filemap *fm;
	mev_section_info si = { 0 };
	char title[32], path[32];
	mev_filemap_new(&fm);
	for (int s = 0; s < 5; s++) {
		snprintf(title, sizeof title, "SECTION %c%s", 'A' + s, rename && s == 2 ? " NEW" : "");
		si.title = title;
		si.status = "Maintained";
		si.n_maintainers = (uint32_t)s;
		si.is_rest = s == 4;
		mev_filemap_add_section(fm, &si);
	}
	for (int i = 0; i < n; i++) {
		uint32_t ids[2] = { (uint32_t)((i + shift) % 4), 4 }, set;
		snprintf(path, sizeof path, "a/%04d", i);
		mev_filemap_intern_set(&set, fm, ids, 2);
		mev_filemap_add_row(fm, path, strlen(path), 1, (uint64_t)i, (uint64_t)i * 10, set);
	}
	return fm;
}

static int same_fm(const mev_filemap *a, const mev_filemap *b)
{
	const mev_file_row *ra = mev_filemap_rows(a), *rb = mev_filemap_rows(b);
	if (mev_filemap_count(a) != mev_filemap_count(b))
		return 0;
	for (size_t i = 0; i < mev_filemap_count(a); i++) {
		const uint32_t *ia, *ib;
		size_t ka = mev_filemap_set(&ia, a, ra[i].set), kb = mev_filemap_set(&ib, b, rb[i].set);
		if (strcmp(ra[i].path, rb[i].path) || ra[i].lines != rb[i].lines || ka != kb)
			return 0;
		for (size_t k = 0; k < ka; k++)
			if (strcmp(mev_filemap_sections(a)[ia[k]].title, mev_filemap_sections(b)[ib[k]].title))
				return 0;
	}
	return 1;
}

static void test_releases(void)
{
	mev_store *s = NULL;
	mev_filemap *fm[20], *back = NULL, *secs = NULL;
	mev_graph *g[20], *gb = NULL;
	mev_graph_options go = { 1 };
	mev_store_identity id = { 0 }, id2;
	mev_release *list;
	size_t n;
	char tag[16], prev[16] = "";

	CHECK_INT(mev_store_open(&s, dir, MEV_STORE_READ), MEV_ENOTFOUND);
	CHECK_INT(mev_store_open(&s, dir, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	CHECK_INT(mev_store_get_identity(s, &id2), MEV_ENOTFOUND);
	CHECK_INT(mev_store_begin(s), 0);
	snprintf(id.repo, sizeof id.repo, "/somewhere");
	memset(id.root.id, 7, 20);
	snprintf(id.dialect, sizeof id.dialect, "linux");
	CHECK_INT(mev_store_set_identity(s, &id), 0);
	CHECK_INT(mev_store_commit(s), 0);
	/* 20 releases: more than one snapshot period of deltas */
	for (int r = 0; r < 20; r++) {
		mev_release_input in = { 0 };
		const char *notes[] = { "MAINTAINERS:3: a note" };
		fm[r] = make_fm(100 + r * 3, r / 3, r >= 10);
		mev_graph_build(&g[r], fm[r], &go);
		snprintf(tag, sizeof tag, "v1.%d", r);
		in.tag = tag;
		in.time = 1000 + r;
		in.diags = notes;
		in.ndiags = 1;
		CHECK_INT(mev_store_begin(s), 0);
		CHECK_INT(mev_store_put_release(s, &in, fm[r], g[r], r ? fm[r - 1] : NULL, r ? prev : NULL), 0);
		CHECK_INT(mev_store_commit(s), 0);
		snprintf(prev, sizeof prev, "%s", tag);
	}
	CHECK_INT(mev_store_releases(s, &list, &n), 0);
	CHECK_INT(n, 20);
	CHECK_STR(list[0].tag, "v1.0");
	CHECK_STR(list[2].tag, "v1.2");
	CHECK_STR(list[19].tag, "v1.19"); /* version order, not bytewise */
	CHECK(list[0].snapshot && !list[1].snapshot && list[16].snapshot);
	CHECK_INT(list[5].files, 115);
	CHECK_INT(list[5].sections, 4);
	mev_release_list_free(list, n);
	for (int r = 0; r < 20; r++) {
		snprintf(tag, sizeof tag, "v1.%d", r);
		CHECK_INT(mev_store_load_filemap(s, tag, &back), 0);
		CHECK(back && same_fm(back, fm[r]));
		mev_filemap_free(back);
		CHECK_INT(mev_store_load_graph(s, tag, 1, &secs, &gb), 0);
		CHECK_INT(mev_graph_edge_count(gb), mev_graph_edge_count(g[r]));
		mev_graph_free(gb);
		mev_filemap_free(secs);
	}
	{
		char **d;
		size_t nd;
		CHECK_INT(mev_store_load_diags(s, "v1.4", &d, &nd), 0);
		CHECK_INT(nd, 1);
		CHECK_STR(d[0], "MAINTAINERS:3: a note");
		mev_strings_free(d, nd);
	}
	CHECK_INT(mev_store_load_filemap(s, "v9.9", &back), MEV_ENOTFOUND);
	CHECK(mev_store_has_release(s, "v1.3", NULL));
	/* blob cache */
	{
		mev_oid o;
		uint64_t l = 0, b = 0;
		memset(o.id, 9, 20);
		CHECK(!mev_store_blob_get(s, &o, &l, &b));
		CHECK_INT(mev_store_blob_put(s, &o, 1, 2), MEV_ESTORE); /* no transaction */
		mev_store_begin(s);
		CHECK_INT(mev_store_blob_put(s, &o, 12345678901ULL, 42), 0);
		mev_store_commit(s);
		CHECK(mev_store_blob_get(s, &o, &l, &b) && l == 12345678901ULL && b == 42);
	}
	/* an aborted transaction leaves nothing */
	mev_store_begin(s);
	mev_store_delete_release(s, "v1.0");
	mev_store_abort(s);
	CHECK(mev_store_has_release(s, "v1.0", NULL));
	mev_store_close(s);
	/* identity survives */
	CHECK_INT(mev_store_open(&s, dir, MEV_STORE_READ), 0);
	CHECK_INT(mev_store_get_identity(s, &id2), 0);
	CHECK_STR(id2.repo, "/somewhere");
	CHECK_STR(id2.dialect, "linux");
	CHECK(id2.root.id[5] == 7);
	mev_store_close(s);
	for (int r = 0; r < 20; r++) {
		mev_graph_free(g[r]);
		mev_filemap_free(fm[r]);
	}
}

/* A release without sections (U-Boot before v2014.10): an empty graph,
 * stored and read back. */
static void test_no_sections(void)
{
	mev_store *s = NULL;
	mev_filemap *fm = NULL, *secs = NULL, *back = NULL;
	mev_graph *g = NULL, *gb = NULL;
	mev_release_input in = { 0 };
	char empty[300];
	uint32_t set = 1;
	snprintf(empty, sizeof empty, "%s-empty", dir);
	CHECK_INT(mev_filemap_new(&fm), 0);
	CHECK_INT(mev_filemap_intern_set(&set, fm, NULL, 0), 0);
	CHECK_INT(mev_filemap_add_row(fm, "Makefile", 8, MEV_KIND_FILE, 10, 100, set), 0);
	CHECK_INT(mev_graph_build(&g, fm, NULL), 0);
	CHECK_INT(mev_graph_edge_count(g), 0);
	CHECK_INT(mev_store_open(&s, empty, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	in.tag = "v2008.10";
	CHECK_INT(mev_store_begin(s), 0);
	CHECK_INT(mev_store_put_release(s, &in, fm, g, NULL, NULL), 0);
	CHECK_INT(mev_store_commit(s), 0);
	CHECK_INT(mev_store_load_graph(s, "v2008.10", 0, &secs, &gb), 0);
	CHECK(gb && mev_graph_edge_count(gb) == 0);
	CHECK_INT(mev_store_load_filemap(s, "v2008.10", &back), 0);
	CHECK(back && mev_filemap_count(back) == 1);
	mev_filemap_free(back);
	mev_graph_free(gb);
	mev_filemap_free(secs);
	mev_store_close(s);
	mev_graph_free(g);
	mev_filemap_free(fm);
}

static void test_refusals(void)
{
	mev_store *s = NULL;
	char other[300], path[400];
	FILE *f;
	snprintf(other, sizeof other, "%s-other", dir);
	mkdir(other, 0777);
	snprintf(path, sizeof path, "%s/notes.txt", other);
	f = fopen(path, "w");
	fputs("hello\n", f);
	fclose(f);
	CHECK_INT(mev_store_open(&s, other, MEV_STORE_WRITE | MEV_STORE_CREATE), MEV_ESTORE);
	CHECK(strstr(mev_error_message(), "not a maintevo store") != NULL);
	CHECK(mev_error_hint_text()[0] != '\0');
	CHECK_INT(mev_store_open(&s, path, MEV_STORE_READ), MEV_ESTORE);
	unlink(path);
	snprintf(path, sizeof path, "%s/data.mdb", other);
	f = fopen(path, "w");
	for (int i = 0; i < 20000; i++)
		fputc(i * 7 % 251, f);
	fclose(f);
	CHECK_INT(mev_store_open(&s, other, MEV_STORE_READ), MEV_ESTORE);
	CHECK(strstr(mev_error_message(), "not a maintevo store") != NULL);
	unlink(path);
	snprintf(path, sizeof path, "%s/lock.mdb", other);
	unlink(path);
	rmdir(other);
}

int main(void)
{
	char cmd[700];
	snprintf(dir, sizeof dir, "%s/mev-test-store.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	RUN(test_codec);
	RUN(test_releases);
	RUN(test_refusals);
	RUN(test_no_sections);
	snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s-empty'", dir, dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return test_summary();
}
