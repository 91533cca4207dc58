/*
 * Unit tests of mev_pathwhy (the model of 'explain PATH'): a small
 * repository whose MAINTAINERS has a line for each rule, explained from
 * git and from a store the release was put into.  Each path gets the
 * verdicts written down here, in the order they are shown, the same from
 * both sources, and agrees with the matcher and the walk; a stored link
 * to a directory is matched as one; the directory test's notes; the
 * store's errors.
 */
#include "test.h"
#include "repo_fixture.h"
#include "maintevo/error.h"
#include "maintevo/pathwhy.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "store_internal.h"

#include <stdlib.h>
#include <string.h>

/* The release: ALPHA takes dir/ at any depth, BETA dir/sub/ *.c but x.c
 * and only at its depth, GAMMA lib (a directory: the script adds the '/')
 * and any path holding "deep", DELTA lib.d (a directory, but the converted
 * text lib\.d is none), EPSILON lnk/ (lnk is a link to dir/sub). */
static int build_repo(const char *d)
{
	return sh("mkdir -p '%s' && cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		  "printf 'ALPHA\\nM:\\tA <a@x>\\nF:\\tdir/\\n\\n"
		  "BETA\\nM:\\tB <b@x>\\nF:\\tdir/sub/*.c\\nX:\\tdir/sub/x.c\\n\\n"
		  "GAMMA\\nM:\\tC <c@x>\\nF:\\tlib\\nN:\\tdeep\\n\\n"
		  "DELTA\\nM:\\tD <d@x>\\nF:\\tlib.d\\n\\n"
		  "EPSILON\\nM:\\tE <e@x>\\nF:\\tlnk/\\n' > MAINTAINERS && "
		  "mkdir -p dir/sub/more lib lib.d && echo a > dir/file && echo b > dir/sub/deep.c && "
		  "echo c > dir/sub/x.c && echo d > dir/sub/more/y.c && echo e > lib/a.c && "
		  "echo f > lib.d/b.c && ln -s dir/sub lnk && "
		  "git add -A && " GIT_ENV DATE1 "git commit -q -m one && git tag v1",
		  d, d);
}

/* The release read from git. */
typedef struct {
	mev_repo *repo;
	mev_tree *tree;
	mev_maint *maint;
} git_release;

static int git_load(git_release *g, const char *d)
{
	mev_oid c;
	mev_rules rules;
	memset(g, 0, sizeof *g);
	CHECK_INT(mev_repo_open(&g->repo, d), 0);
	CHECK_INT(mev_repo_resolve(&c, NULL, g->repo, "v1"), 0);
	CHECK_INT(mev_tree_load(&g->tree, g->repo, &c), 0);
	CHECK_INT(mev_rules_detect(&rules, g->repo, g->tree, NULL), 0);
	CHECK_INT(mev_maint_load(&g->maint, &rules, g->repo, g->tree), 0);
	return g->maint ? 0 : -1;
}

static void git_free(git_release *g)
{
	mev_maint_free(g->maint);
	mev_tree_free(g->tree);
	mev_repo_free(g->repo);
}

/* Release v1 put into a new store at `path` as a walk puts it: file table, graph, patterns. */
static void store_put(const char *path, git_release *g)
{
	mev_store *s = NULL;
	mev_filemap *fm = NULL;
	mev_graph *gr = NULL;
	mev_graph_options go = { 1 };
	mev_release_input in = { 0 };
	mev_identity id = { 0 };
	in.tag = "v1";
	in.maint = g->maint;
	in.tree = g->tree;
	snprintf(id.dialect, sizeof id.dialect, "linux");
	CHECK_INT(mev_store_open(&s, path, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	CHECK_INT(mev_filemap_build(&fm, g->repo, g->tree, g->maint, NULL), 0);
	CHECK_INT(mev_graph_build(&gr, fm, &go), 0);
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_release_identity_set(s, &id), 0);
	CHECK_INT(mev_release_put(s, &in, fm, gr, NULL, NULL), 0);
	CHECK_INT(mev__store_commit(s), 0);
	mev_graph_free(gr);
	mev_filemap_free(fm);
	mev_store_free(s);
}

/* What a path should get: canonical form, directory, exists, and the
 * shown sections as "in:TITLE excluded:TITLE near:TITLE ..." */
typedef struct {
	const char *path, *canonical;
	int is_dir, exists;
	size_t nin;
	const char *shown;
} expect;

static const expect cases[] = {
	{ "dir/sub/deep.c", "dir/sub/deep.c", 0, 1, 3, "in:ALPHA in:BETA in:GAMMA" },
	{ "./dir//sub/x.c", "dir/sub/x.c", 0, 1, 1, "in:ALPHA excluded:BETA" },
	{ "dir/sub/more/y.c", "dir/sub/more/y.c", 0, 1, 1, "in:ALPHA near:BETA" },
	{ "lib/", "lib", 1, 1, 1, "in:GAMMA" },
	{ "lib", "lib", 1, 1, 1, "in:GAMMA" },
	{ "lnk", "lnk", 1, 1, 1, "in:EPSILON" },
	{ "nowhere/deep", "nowhere/deep", 0, 0, 1, "in:GAMMA" },
	{ "nowhere", "nowhere", 0, 0, 0, "" },
};

/* The answer's shown sections in the form of expect.shown. */
static void shown_text(char *out, size_t size, const mev_pathwhy *pw, const mev_pathwhy_answer *a)
{
	size_t n, k = 0;
	const mev_pathwhy_section *sec = mev_pathwhy_sections(pw, &n);
	out[0] = '\0';
	for (size_t i = 0; i < a->nshown && k < size; i++) {
		uint32_t s = a->shown[i];
		k += (size_t)snprintf(out + k, size - k, "%s%s:%s", i ? " " : "",
				      mev_why_verdict_name((mev_why_verdict)a->verdicts[s]), sec[s].title);
	}
}

static void check_cases(mev_pathwhy *pw, const char *source)
{
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const expect *e = &cases[i];
		mev_pathwhy_answer a;
		char got[512];
		test_current = source;
		CHECK_INT(mev_pathwhy_explain(&a, pw, e->path), 0);
		shown_text(got, sizeof got, pw, &a);
		CHECK_STR(a.path, e->canonical);
		CHECK_INT(a.is_dir, e->is_dir);
		CHECK_INT(a.exists, e->exists);
		CHECK_STR(got, e->shown);
		CHECK_INT(a.nin, e->nin);
		CHECK_INT(a.disagrees, 0);
	}
}

/* The line with value `value`, or SIZE_MAX. */
static size_t line_of(const mev_pathwhy *pw, const char *value)
{
	size_t n;
	const mev_pathwhy_line *l = mev_pathwhy_lines(pw, &n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(l[i].value, value) == 0)
			return i;
	return SIZE_MAX;
}

static void check_dir_test(const mev_pathwhy *pw)
{
	size_t lib = line_of(pw, "lib"), libd = line_of(pw, "lib.d"), deep = line_of(pw, "deep");
	size_t any = line_of(pw, "dir/");
	CHECK(lib != SIZE_MAX && libd != SIZE_MAX && deep != SIZE_MAX && any != SIZE_MAX);
	if (lib == SIZE_MAX || libd == SIZE_MAX || deep == SIZE_MAX || any == SIZE_MAX)
		return;
	CHECK_INT(mev_pathwhy_dir_test(pw, lib), MEV_PATHWHY_DIR_ADDED);
	CHECK_INT(mev_pathwhy_dir_test(pw, libd), MEV_PATHWHY_DIR_MISSED);
	CHECK_INT(mev_pathwhy_dir_test(pw, deep), MEV_PATHWHY_DIR_NONE);
	CHECK_INT(mev_pathwhy_dir_test(pw, any), MEV_PATHWHY_DIR_NONE);
}

static void test_pathwhy(void)
{
	git_release g;
	mev_pathwhy *pw = NULL;
	mev_store *s = NULL;
	if (git_load(&g, repo_path("repo")) == 0) {
		CHECK_INT(mev_pathwhy_from_git(&pw, g.maint, g.tree), 0);
		if (pw) {
			CHECK_STR(mev_pathwhy_script(pw), "scripts/get_maintainer.pl");
			check_cases(pw, "from git");
			check_dir_test(pw);
		}
		mev_pathwhy_free(pw);
		pw = NULL;
		store_put(repo_path("store"), &g);
	}
	git_free(&g);
	/* from the store, with the repository gone */
	CHECK_INT(sh("rm -rf '%s'", repo_path("repo")), 0);
	CHECK_INT(mev_store_open(&s, repo_path("store"), MEV_STORE_READ), 0);
	CHECK_INT(mev_pathwhy_from_store(&pw, s, "v1"), 0);
	mev_store_free(s);
	if (pw) {
		CHECK_STR(mev_pathwhy_script(pw), "scripts/get_maintainer.pl");
		check_cases(pw, "from the store");
		check_dir_test(pw);
	}
	mev_pathwhy_free(pw);
}

static void test_store_errors(void)
{
	mev_store *s = NULL;
	mev_pathwhy *pw = (mev_pathwhy *)&s;
	CHECK_INT(mev_store_open(&s, repo_path("store"), MEV_STORE_READ), 0);
	CHECK_ERR(mev_pathwhy_from_store(&pw, s, "v9"), MEV_ENOTFOUND, "release 'v9' is not in store");
	CHECK(pw == NULL);
	mev_store_free(s);
}

int main(void)
{
	if (system("git --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "git not found: skipping\n");
		return TEST_SKIP;
	}
	snprintf(tmp_root, sizeof tmp_root, "%s", test_tmpdir("release_pathwhy"));
	if (build_repo(repo_path("repo")) != 0) {
		fprintf(stderr, "cannot build the test repository\n");
		test_tmpdir_remove(tmp_root);
		return 1;
	}
	RUN(test_pathwhy);
	RUN(test_store_errors);
	test_tmpdir_remove(tmp_root);
	return test_summary();
}
