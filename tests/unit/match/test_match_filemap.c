/*
 * The file table of a release (match/filemap.c) on a small git tree: every
 * blob's lines, bytes and sections, symbolic links (to a directory: matched
 * as one), empty files, a last line without a newline; known blob sizes;
 * the incremental build against a cold one; building a file map by hand.
 */
#include "test.h"
#include "repo_fixture.h"
#include "maintevo/error.h"
#include "maintevo/filemap.h"
#include "maintevo/maintainers.h"
#include "maintevo/match.h"

#include <stdint.h>

/* Sections over main/ (repo_fixture.h); THE REST covers everything. */
static const char *const maint_text =
	"DIRS\n"
	"F:\tdir/\n"
	"\n"
	"LINKDIR\n"
	"F:\tlink-to-dir/\n"
	"\n"
	"MANY\n"
	"S:\tOdd Fixes\n"
	"F:\tmany/f00*\n"
	"X:\tmany/f005\n"
	"\n"
	"README\n"
	"F:\tREADME\n"
	"F:\tlink-*\n"
	"\n"
	"THE REST\n"
	"F:\t*\n"
	"F:\t*/\n";

static mev_maint *parse_maint(void)
{
	mev_rules r;
	mev_maint *m = NULL;
	mev_maint_input in = { "MAINTAINERS", maint_text, strlen(maint_text) };
	mev_rules_default(&r, MEV_DIALECT_LINUX);
	CHECK_INT(mev_maint_parse(&m, &r, &in, 1, NULL), 0);
	return m;
}

static const mev_file_row *row_of(const mev_filemap *fm, const char *path)
{
	size_t i = mev_filemap_lower_bound(fm, path, strlen(path));
	const mev_file_row *r = mev_filemap_rows(fm);
	if (i < mev_filemap_count(fm) && strcmp(r[i].path, path) == 0)
		return &r[i];
	return NULL;
}

/* A row as "kind lines/bytes A|B" (sections in index order; "-" when missing). */
static const char *row_text(const mev_filemap *fm, const char *path)
{
	static char out[4][256];
	static int k;
	const mev_file_row *r = row_of(fm, path);
	const uint32_t *ids;
	size_t n, l;
	k = (k + 1) % 4;
	if (!r)
		return "-";
	snprintf(out[k], sizeof out[k], "%s %llu/%llu ", r->kind == MEV_KIND_LINK ? "link" : "file",
		 (unsigned long long)r->lines, (unsigned long long)r->bytes);
	n = mev_filemap_set(&ids, fm, r->set);
	for (size_t i = 0; i < n; i++) {
		l = strlen(out[k]);
		snprintf(out[k] + l, sizeof out[k] - l, "%s%s", i ? "|" : "",
			 mev_filemap_sections(fm)[ids[i]].title);
	}
	return out[k];
}

static void check_rows(const mev_filemap *fm, const mev_tree *t)
{
	const mev_file_row *rows = mev_filemap_rows(fm);
	const mev_tree_file *tf = mev_tree_files(t);
	const mev_section_info *si = mev_filemap_sections(fm);

	/* one row per blob of the tree, in its order */
	CHECK_INT(mev_filemap_count(fm), mev_tree_count(t));
	for (size_t i = 0; i < mev_filemap_count(fm) && i < mev_tree_count(t); i++) {
		CHECK_STR(rows[i].path, tf[i].path);
		CHECK_INT(rows[i].path_len, tf[i].path_len);
		CHECK_INT(rows[i].kind, tf[i].kind);
	}
	CHECK_INT(mev_filemap_section_count(fm), 5);
	CHECK_STR(si[2].title, "MANY");
	CHECK_STR(si[2].status, "Odd Fixes");
	CHECK_INT(si[2].n_patterns, 2);
	CHECK(si[4].is_rest && !si[0].is_rest);
	CHECK_STR(row_text(fm, "README"), "file 1/6 README|THE REST");
	CHECK_STR(row_text(fm, "dir/file"), "file 3/6 DIRS|THE REST");
	CHECK_STR(row_text(fm, "dir/sub/deep.c"), "file 2/8 DIRS|THE REST");
	CHECK_STR(row_text(fm, "dir.c"), "file 1/2 THE REST");
	/* an empty file; a last line without '\n' is not counted */
	CHECK_STR(row_text(fm, "dir/empty.txt"), "file 0/0 DIRS|THE REST");
	CHECK_STR(row_text(fm, "dir/noeol"), "file 1/3 DIRS|THE REST");
	/* a link is its target's text; to a directory it is matched as
	 * "link-to-dir/": LINKDIR, and not README's link-* (one '/' more than
	 * the pattern, get_maintainer.pl's rule), which the link to a file is in */
	CHECK_STR(row_text(fm, "link-to-dir"), "link 0/3 LINKDIR|THE REST");
	CHECK_STR(row_text(fm, "link-to-file"), "link 0/6 README|THE REST");
	CHECK_STR(row_text(fm, "dir/uplink"), "link 0/10 DIRS|THE REST");
	CHECK_STR(row_text(fm, "dangling"), "link 0/7 THE REST");
	CHECK_STR(row_text(fm, "self"), "link 0/4 THE REST");
	/* f00* but f005; f099 has 99 lines "lineJ\n" */
	CHECK_STR(row_text(fm, "many/f000"), "file 0/0 MANY|THE REST");
	CHECK_STR(row_text(fm, "many/f004"), "file 4/24 MANY|THE REST");
	CHECK_STR(row_text(fm, "many/f005"), "file 5/30 THE REST");
	CHECK_STR(row_text(fm, "many/f010"), "file 10/60 THE REST");
	CHECK_STR(row_text(fm, "many/f099"), "file 99/683 THE REST");
	CHECK_STR(row_text(fm, "NEW"), "-");
	/* the rows under a prefix start at its lower bound */
	CHECK_STR(rows[mev_filemap_lower_bound(fm, "many/", 5)].path, "many/f000");
	CHECK_STR(rows[mev_filemap_lower_bound(fm, "many/f1", 7)].path, "self");
	CHECK_INT(mev_filemap_lower_bound(fm, "zzz", 3), mev_filemap_count(fm));
	CHECK_INT(mev_filemap_lower_bound(fm, "", 0), 0);
}

/* Known blob sizes: README's is taken as told, every other blob measured and told. */
typedef struct {
	mev_oid readme;
	size_t lookups, stores;
} sizes_ctx;

static int sizes_lookup(void *c, const mev_oid *oid, uint64_t *lines, uint64_t *bytes)
{
	sizes_ctx *s = c;
	s->lookups++;
	if (!mev_oid_equal(oid, &s->readme))
		return 0;
	*lines = 42;
	*bytes = 4242;
	return 1;
}

static int sizes_store(void *c, const mev_oid *oid, uint64_t lines, uint64_t bytes)
{
	sizes_ctx *s = c;
	(void)lines;
	(void)bytes;
	CHECK(!mev_oid_equal(oid, &s->readme));
	s->stores++;
	return 0;
}

/* Distinct blobs of the tree (git dedups equal contents). */
static size_t distinct_blobs(const mev_tree *t)
{
	const mev_tree_file *f = mev_tree_files(t);
	size_t n = 0;
	for (size_t i = 0; i < mev_tree_count(t); i++) {
		size_t j = 0;
		while (j < i && !mev_oid_equal(&f[j].oid, &f[i].oid))
			j++;
		n += j == i;
	}
	return n;
}

static void test_build(void)
{
	mev_repo *r = NULL;
	mev_tree *t = NULL;
	mev_maint *m = parse_maint();
	mev_filemap *fm = NULL;
	mev_filemap_stats st;
	mev_filemap_options o = { 0 };
	mev_blob_sizes bs = { sizes_lookup, sizes_store, NULL };
	sizes_ctx sc = { { { 0 } }, 0, 0 };
	volatile int stop = 1;
	size_t blobs;

	if (!m || !load_v1(&r, &t))
		goto done;
	blobs = distinct_blobs(t);
	CHECK(blobs < mev_tree_count(t)); /* the empty blob, at least, is shared */
	memset(&st, 0, sizeof st);
	o.jobs = 2;
	o.stats = &st;
	CHECK_INT(mev_filemap_build(&fm, r, t, m, &o), 0);
	if (fm)
		check_rows(fm, t);
	CHECK_INT(st.paths, mev_tree_count(t));
	CHECK_INT(st.matched, mev_tree_count(t));
	CHECK_INT(st.blobs, blobs);
	CHECK_INT(st.blobs_read, blobs);
	CHECK_INT(st.missing, 0);
	mev_filemap_free(fm);
	fm = NULL;

	/* sizes known from earlier work are not read again */
	sc.readme = find_file(t, "README")->oid;
	bs.ctx = &sc;
	o.sizes = &bs;
	memset(&st, 0, sizeof st);
	CHECK_INT(mev_filemap_build(&fm, r, t, m, &o), 0);
	if (fm) {
		CHECK_STR(row_text(fm, "README"), "file 42/4242 README|THE REST");
		CHECK_STR(row_text(fm, "dir/file"), "file 3/6 DIRS|THE REST");
	}
	CHECK_INT(sc.lookups, blobs);
	CHECK_INT(sc.stores, blobs - 1);
	CHECK_INT(st.blobs_read, blobs - 1);
	mev_filemap_free(fm);
	fm = NULL;

	/* a stop while reading: nothing made */
	o.sizes = NULL;
	o.stop = &stop;
	CHECK_ERR(mev_filemap_build(&fm, r, t, m, &o), MEV_EINTR, "");
	CHECK(fm == NULL);
done:
	mev_filemap_free(fm);
	mev_tree_free(t);
	mev_repo_free(r);
	mev_maint_free(m);
}

/* v1 -> HEAD (adds NEW): built on v1's file map it equals a cold build,
 * matching and reading only NEW. */
static void test_incremental(void)
{
	mev_repo *r = NULL;
	mev_tree *t1 = NULL, *t2 = NULL, *cold_t = NULL;
	mev_maint *m = parse_maint();
	mev_filemap *f1 = NULL, *f2 = NULL, *cold = NULL;
	mev_filemap_stats st;
	mev_filemap_options o = { 0 };
	mev_filemap_base base = { 0 };
	uint8_t *changed = NULL;
	size_t deleted = 9;
	mev_oid head;

	if (!m || !load_v1(&r, &t1))
		goto done;
	CHECK_INT(mev_repo_resolve(&head, NULL, r, "HEAD"), 0);
	CHECK_INT(mev_tree_update(&t2, &changed, &deleted, r, t1, &head), 0);
	CHECK_INT(mev_tree_load(&cold_t, r, &head), 0);
	CHECK_INT(mev_filemap_build(&f1, r, t1, m, NULL), 0);
	if (!t2 || !changed || !cold_t || !f1)
		goto done;
	CHECK_INT(deleted, 0);
	base.fm = f1;
	base.tree = t1;
	base.changed = changed;
	o.stats = &st;
	memset(&st, 0, sizeof st);
	CHECK_INT(mev_filemap_build_ex(&f2, r, t2, m, NULL, &base, &o), 0);
	CHECK_INT(mev_filemap_build(&cold, r, cold_t, m, NULL), 0);
	if (!f2 || !cold)
		goto done;
	CHECK_INT(st.matched, 1);
	CHECK_INT(st.blobs_read, 1);
	CHECK_INT(mev_filemap_count(f2), mev_filemap_count(cold));
	for (size_t i = 0; i < mev_filemap_count(cold) && i < mev_filemap_count(f2); i++) {
		const char *p = mev_filemap_rows(cold)[i].path;
		char a[256];
		snprintf(a, sizeof a, "%s", row_text(cold, p));
		CHECK_STR(row_text(f2, p), a);
	}
	CHECK_STR(row_text(f2, "NEW"), "file 1/4 THE REST");
	/* a base that does not fit its tree is refused */
	base.tree = t2;
	mev_filemap_free(f2);
	CHECK_ERR(mev_filemap_build_ex(&f2, r, t2, m, NULL, &base, NULL), MEV_EINVAL,
		  "the previous file map does not fit its tree");
done:
	free(changed);
	mev_filemap_free(f1);
	mev_filemap_free(f2);
	mev_filemap_free(cold);
	mev_tree_free(t1);
	mev_tree_free(t2);
	mev_tree_free(cold_t);
	mev_repo_free(r);
	mev_maint_free(m);
}

/* A file map made from stored parts: sets interned once, rows in path order. */
static void test_by_hand(void)
{
	mev_filemap *fm = NULL;
	mev_section_info si = { 0 };
	uint32_t s0, s1, s2, ab[2] = { 0, 1 }, ba[2] = { 1, 0 }, bad[1] = { 2 };
	const uint32_t *ids;

	CHECK_INT(mev_filemap_new(&fm), 0);
	if (!fm)
		return;
	si.title = "A";
	si.status = NULL;
	CHECK_INT(mev_filemap_add_section(fm, &si), 0);
	si.title = "B";
	si.display = "B (shown)";
	CHECK_INT(mev_filemap_add_section(fm, &si), 0);
	CHECK_STR(mev_filemap_sections(fm)[0].status, "");
	CHECK_STR(mev_filemap_sections(fm)[0].display, "A");
	CHECK_STR(mev_filemap_sections(fm)[1].display, "B (shown)");
	CHECK_INT(mev_filemap_set_count(fm), 1); /* the empty set */
	CHECK_INT(mev_filemap_intern_set(&s0, fm, NULL, 0), 0);
	CHECK_INT(mev_filemap_intern_set(&s1, fm, ab, 2), 0);
	CHECK_INT(mev_filemap_intern_set(&s2, fm, ab, 2), 0);
	CHECK(s0 == 0 && s1 == 1 && s2 == 1);
	CHECK_INT(mev_filemap_set_count(fm), 2);
	CHECK_INT(mev_filemap_set(&ids, fm, s1), 2);
	CHECK(ids[0] == 0 && ids[1] == 1);
	CHECK_INT(mev_filemap_set(&ids, fm, 7), 0);
	CHECK(ids == NULL);
	CHECK_ERR(mev_filemap_intern_set(&s2, fm, ba, 2), MEV_EINVAL, "bad section set");
	CHECK_ERR(mev_filemap_intern_set(&s2, fm, bad, 1), MEV_EINVAL, "bad section set");
	CHECK_INT(mev_filemap_add_row(fm, "a/b", 3, MEV_KIND_FILE, 1, 2, s1), 0);
	CHECK_INT(mev_filemap_add_row(fm, "a/bc", 4, MEV_KIND_LINK, 0, 5, s0), 0);
	CHECK_ERR(mev_filemap_add_row(fm, "a/bc", 4, MEV_KIND_FILE, 0, 0, s0), MEV_EINVAL,
		  "file rows out of order at 'a/bc'");
	CHECK_ERR(mev_filemap_add_row(fm, "a/a", 3, MEV_KIND_FILE, 0, 0, s0), MEV_EINVAL, "out of order at 'a/a'");
	CHECK_ERR(mev_filemap_add_row(fm, "b", 1, MEV_KIND_FILE, 0, 0, 2), MEV_EINVAL, "bad section set id 2");
	CHECK_INT(mev_filemap_count(fm), 2);
	CHECK_STR(row_text(fm, "a/b"), "file 1/2 A|B");
	CHECK_STR(row_text(fm, "a/bc"), "link 0/5 ");
	mev_filemap_free(fm);
	mev_filemap_free(NULL);
}

/* The rows a path names: its own file, or the files below it as a directory. */
static void test_path_rows(void)
{
	static const char *const paths[] = { "a", "a-x/f", "a.c", "a/b", "a/b/c", "a/bc", "b" };
	mev_filemap *fm = NULL;
	uint32_t s0;
	size_t first, end;
	CHECK_INT(mev_filemap_new(&fm), 0);
	if (!fm)
		return;
	CHECK_INT(mev_filemap_intern_set(&s0, fm, NULL, 0), 0);
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
		CHECK_INT(mev_filemap_add_row(fm, paths[i], strlen(paths[i]), MEV_KIND_FILE, 1, 1, s0), 0);
	CHECK_INT(mev_filemap_path_rows(&first, &end, fm, "a", 1, 0), 0); /* the file a */
	CHECK(first == 0 && end == 1);
	CHECK_INT(mev_filemap_path_rows(&first, &end, fm, "a", 1, 1), 1); /* a/: not a-x/, not a.c */
	CHECK(first == 3 && end == 6);
	CHECK_INT(mev_filemap_path_rows(&first, &end, fm, "a/b", 3, 0), 0);
	CHECK(first == 3 && end == 4);
	CHECK_INT(mev_filemap_path_rows(&first, &end, fm, "a/b", 3, 1), 1);
	CHECK(first == 4 && end == 5);
	CHECK_INT(mev_filemap_path_rows(&first, &end, fm, "a-x", 3, 0), 1);
	CHECK(first == 1 && end == 2);
	CHECK_INT(mev_filemap_path_rows(&first, &end, fm, "", 0, 0), 1); /* the root */
	CHECK(first == 0 && end == 7);
	CHECK_INT(mev_filemap_path_rows(&first, &end, fm, "a/b/c/d", 7, 0), 0);
	CHECK(first == end);
	CHECK_INT(mev_filemap_path_rows(&first, &end, fm, "c", 1, 1), 0);
	CHECK(first == end);
	mev_filemap_free(fm);
}

int main(void)
{
	int rc;
	RUN(test_by_hand);
	RUN(test_path_rows);
	if ((rc = fixture_start("filemap")) != 0)
		return rc == TEST_SKIP ? (test_failures ? 1 : TEST_SKIP) : 1;
	RUN(test_build);
	RUN(test_incremental);
	test_tmpdir_remove(tmp_root);
	return test_summary();
}
