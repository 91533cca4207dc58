/*
 * Unit tests of the git layer (MAINTAINERS discovery: test_maintainers_discover.c; reading
 * blobs: test_git_packs.c), on small
 * repositories built here with fixed identities and dates.  Skipped (77)
 * without git.
 */
#include "test.h"
#include "maintevo/error.h"
#include "maintevo/maintainers.h"
#include "maintevo/repo.h"
#include "git/repo_internal.h"
#include "util/buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repo_fixture.h"


static void test_oid(void)
{
	mev_oid a, b;
	char hex[41];
	memset(&a, 0, sizeof a);
	CHECK(mev_oid_is_zero(&a));
	CHECK_INT(mev_oid_parse(&a, "0123456789abcdefABCDEF0123456789abcdef01"), 0);
	mev_oid_fmt(hex, &a);
	CHECK_STR(hex, "0123456789abcdefabcdef0123456789abcdef01");
	CHECK(!mev_oid_is_zero(&a));
	CHECK_INT(mev_oid_parse(&b, hex), 0);
	CHECK(mev_oid_equal(&a, &b));
	b.id[19] ^= 1;
	CHECK(!mev_oid_equal(&a, &b));
	CHECK_ERR(mev_oid_parse(&b, "0123456789abcdefABCDEF0123456789abcdef0g"), MEV_EINVAL,
		  "is not an object id");
	/* short: stops at the NUL */
	CHECK_ERR(mev_oid_parse(&b, "0123"), MEV_EINVAL, "'0123' is not an object id");
}

static void test_open_errors(void)
{
	mev_repo *r = (mev_repo *)1;
	const char *empty = repo_path("not-a-repo");
	const char *missing = repo_path("does-not-exist");
	CHECK_INT(sh("mkdir -p '%s'", empty), 0);
	CHECK_ERR(mev_repo_open(&r, empty), MEV_ENOTFOUND, "not a git repository");
	CHECK(r == NULL);
	CHECK_INT(mev_error_code(), MEV_ENOTFOUND);
	CHECK(strstr(mev_error_message(), empty) != NULL);
	CHECK(mev_error_hint_text()[0] != '\0');
	r = (mev_repo *)1;
	CHECK_ERR(mev_repo_open(&r, missing), MEV_ENOTFOUND, "it does not exist");
	CHECK(r == NULL);
	CHECK(strstr(mev_error_message(), missing) != NULL);
	/* a subdirectory of a work tree is not a repository either (no search) */
	CHECK_ERR(mev_repo_open(&r, repo_path("main/dir")), MEV_ENOTFOUND, "not a git repository");
	mev_repo_free(NULL);
}

static void test_resolve(void)
{
	mev_repo *r = NULL;
	mev_oid c1, c2, o;
	char h1[64], h2[64], hex[41];
	int64_t t = 0;

	CHECK_INT(sh_line(h1, sizeof h1, "git -C '%s' rev-parse 'v1^{commit}'", repo_path("main")), 0);
	CHECK_INT(sh_line(h2, sizeof h2, "git -C '%s' rev-parse HEAD", repo_path("main")), 0);
	CHECK_INT(strlen(h1), 40);
	CHECK(strcmp(h1, h2) != 0);
	CHECK_INT(mev_oid_parse(&c1, h1), 0);
	CHECK_INT(mev_oid_parse(&c2, h2), 0);

	CHECK_INT(mev_repo_open(&r, repo_path("main")), 0);
	if (!r)
		return;
	CHECK_STR(mev_repo_path(r), repo_path("main"));
	CHECK_INT(mev_repo_resolve(&o, &t, r, "v1"), 0); /* annotated tag: peeled */
	CHECK(mev_oid_equal(&o, &c1));
	CHECK_INT(t, TIME1);
	CHECK_INT(mev_repo_resolve(&o, NULL, r, "v1-light"), 0);
	CHECK(mev_oid_equal(&o, &c1));
	CHECK_INT(mev_repo_resolve(&o, &t, r, "HEAD"), 0);
	CHECK(mev_oid_equal(&o, &c2));
	CHECK_INT(t, TIME2);
	CHECK_INT(mev_repo_resolve(&o, NULL, r, "main"), 0);
	CHECK(mev_oid_equal(&o, &c2));
	CHECK_INT(mev_repo_resolve(&o, NULL, r, "HEAD~1"), 0);
	CHECK(mev_oid_equal(&o, &c1));
	CHECK_INT(mev_repo_resolve(&o, NULL, r, h1), 0);
	CHECK(mev_oid_equal(&o, &c1));
	CHECK_INT(mev_repo_resolve(&o, NULL, r, "refs/tags/v1"), 0);
	CHECK(mev_oid_equal(&o, &c1));
	mev_oid_fmt(hex, &o);
	CHECK_STR(hex, h1);

	CHECK_ERR(mev_repo_resolve(&o, NULL, r, "nope"), MEV_ENOTFOUND, "unknown revision 'nope'");
	CHECK(strstr(mev_error_message(), repo_path("main")) != NULL);
	CHECK_ERR(mev_repo_resolve(&o, NULL, r, "v2"), MEV_ENOTFOUND, "unknown revision 'v2'");
	CHECK_ERR(mev_repo_resolve(&o, NULL, r, "0000000000000000000000000000000000000000"),
		  MEV_ENOTFOUND, "unknown revision '0000000000000000000000000000000000000000'");
	/* a tree or a blob is not a commit */
	CHECK_ERR(mev_repo_resolve(&o, NULL, r, "HEAD^{tree}"), MEV_EINVAL,
		  "revision 'HEAD^{tree}' does not point at a commit");
	CHECK_ERR(mev_repo_resolve(&o, NULL, r, "HEAD:README"), MEV_EINVAL,
		  "revision 'HEAD:README' does not point at a commit");
	mev_repo_free(r);

	/* the .git directory opens too */
	CHECK_INT(mev_repo_open(&r, repo_path("main/.git")), 0);
	if (r) {
		CHECK_INT(mev_repo_resolve(&o, NULL, r, "v1"), 0);
		CHECK(mev_oid_equal(&o, &c1));
		mev_repo_free(r);
	}
}


static void test_tree_load(void)
{
	static const struct { const char *path; int kind, link_dir, link_file; } expect[] = {
		{ "MAINTAINERS", MEV_KIND_FILE, 0, 0 },
		{ "README", MEV_KIND_FILE, 0, 0 },
		{ "abs", MEV_KIND_LINK, 0, 0 },
		{ "dangling", MEV_KIND_LINK, 0, 0 },
		{ "dir.c", MEV_KIND_FILE, 0, 0 },
		{ "dir/empty.txt", MEV_KIND_FILE, 0, 0 },
		{ "dir/file", MEV_KIND_FILE, 0, 0 },
		{ "dir/noeol", MEV_KIND_FILE, 0, 0 },
		{ "dir/sub/deep.c", MEV_KIND_FILE, 0, 0 },
		{ "dir/sub/up", MEV_KIND_LINK, 0, 1 },
		{ "dir/uplink", MEV_KIND_LINK, 1, 0 },
		{ "escape", MEV_KIND_LINK, 0, 0 },
		{ "link-to-dir", MEV_KIND_LINK, 1, 0 },
		{ "link-to-file", MEV_KIND_LINK, 0, 1 },
		{ "loop1", MEV_KIND_LINK, 0, 0 },
		{ "loop2", MEV_KIND_LINK, 0, 0 },
	};
	mev_repo *r = NULL;
	mev_tree *t1 = NULL, *t2 = NULL;
	mev_oid c;
	size_t n;
	const mev_tree_file *fs;

	CHECK_INT(mev_repo_open(&r, repo_path("main")), 0);
	if (!r)
		return;
	CHECK_INT(mev_repo_resolve(&c, NULL, r, "v1"), 0);
	CHECK_INT(mev_tree_load(&t1, r, &c), 0);
	if (!t1)
		goto done;
	n = mev_tree_count(t1);
	fs = mev_tree_files(t1);
	/* 16 listed above, 100 under many/, and 'self' */
	CHECK_INT(n, 117);
	for (size_t i = 1; i < n; i++) {
		size_t l = fs[i].path_len < fs[i - 1].path_len ? fs[i].path_len : fs[i - 1].path_len;
		int cmp = memcmp(fs[i - 1].path, fs[i].path, l);
		CHECK(cmp < 0 || (cmp == 0 && fs[i - 1].path_len < fs[i].path_len));
	}
	for (size_t i = 0; i < n; i++) {
		CHECK_INT(strlen(fs[i].path), fs[i].path_len);
		CHECK(fs[i].path[0] != '/' && fs[i].path[fs[i].path_len - 1] != '/');
		CHECK_INT(mev_tree_find(t1, fs[i].path, fs[i].path_len), (int64_t)i);
	}
	for (size_t i = 0; i < sizeof expect / sizeof *expect; i++) {
		const mev_tree_file *f = find_file(t1, expect[i].path);
		CHECK(f != NULL);
		if (!f) {
			fprintf(stderr, "missing %s\n", expect[i].path);
			continue;
		}
		CHECK_INT(f->kind, expect[i].kind);
		CHECK_INT(f->link_dir, expect[i].link_dir);
		CHECK_INT(f->link_file, expect[i].link_file);
	}
	/* the first entries, in bytewise order ("dir.c" < "dir/...") */
	CHECK_STR(fs[0].path, "MAINTAINERS");
	CHECK_STR(fs[1].path, "README");
	CHECK_STR(fs[4].path, "dir.c");
	CHECK_STR(fs[5].path, "dir/empty.txt");
	CHECK_STR(fs[n - 1].path, "self");
	/* directories are not listed; unknown paths are not found */
	CHECK_INT(mev_tree_find(t1, "dir", 3), -1);
	CHECK_INT(mev_tree_find(t1, "dir/sub", 7), -1);
	CHECK_INT(mev_tree_find(t1, "NEW", 3), -1);
	CHECK_INT(mev_tree_find(t1, "READM", 5), -1);

	/* the second commit has NEW */
	CHECK_INT(mev_repo_resolve(&c, NULL, r, "HEAD"), 0);
	CHECK_INT(mev_tree_load(&t2, r, &c), 0);
	if (t2) {
		CHECK_INT(mev_tree_count(t2), 118);
		CHECK(find_file(t2, "NEW") != NULL);
	}
	/* the oid of a blob is the one git has */
	{
		char h[64], hex[41];
		const mev_tree_file *f = find_file(t1, "dir/file");
		CHECK_INT(sh_line(h, sizeof h, "git -C '%s' rev-parse v1:dir/file", repo_path("main")), 0);
		if (f) {
			mev_oid_fmt(hex, &f->oid);
			CHECK_STR(hex, h);
		}
	}
done:
	mev_tree_free(t1);
	mev_tree_free(t2);
	mev_tree_free(NULL);
	mev_repo_free(r);
}

/* The kind stat(2) reports in the checked-out work tree. */
static int fs_kind(const char *path)
{
	struct stat st;
	char full[512];
	snprintf(full, sizeof full, "%s/%s", repo_path("main"), path);
	if (stat(full, &st) != 0)
		return 0;
	return S_ISDIR(st.st_mode) ? MEV_KIND_DIR : S_ISREG(st.st_mode) ? MEV_KIND_FILE : -1;
}

static void test_tree_stat(void)
{
	static const struct { const char *path; int kind; const char *real; int like_fs; } cases[] = {
		{ "", 0, NULL, 0 },                        /* stat("") fails */
		{ ".", MEV_KIND_DIR, "", 1 },
		{ "./", MEV_KIND_DIR, "", 1 },
		{ "dir", MEV_KIND_DIR, "dir", 1 },
		{ "dir/", MEV_KIND_DIR, "dir", 1 },
		{ "dir//sub", MEV_KIND_DIR, "dir/sub", 1 },
		{ "dir/./sub", MEV_KIND_DIR, "dir/sub", 1 },
		{ "dir/sub/..", MEV_KIND_DIR, "dir", 1 },
		{ "dir/..", MEV_KIND_DIR, "", 1 },
		{ "dir/../README", MEV_KIND_FILE, "README", 1 },
		{ "..", 0, NULL, 0 },                      /* leaves the tree */
		{ "../main/README", 0, NULL, 0 },
		{ "dir/../..", 0, NULL, 0 },
		{ "README", MEV_KIND_FILE, "README", 1 },
		{ "./README", MEV_KIND_FILE, "README", 1 },
		{ "README/", 0, NULL, 1 },                 /* ENOTDIR */
		{ "README/.", 0, NULL, 1 },
		{ "dir/file/", 0, NULL, 1 },
		{ "dir/file/x", 0, NULL, 1 },
		{ "dir/missing", 0, NULL, 1 },
		{ "missing", 0, NULL, 1 },
		{ "link-to-dir", MEV_KIND_DIR, "dir", 1 },
		{ "link-to-dir/", MEV_KIND_DIR, "dir", 1 },
		{ "link-to-dir/file", MEV_KIND_FILE, "dir/file", 1 },
		{ "link-to-dir/sub/deep.c", MEV_KIND_FILE, "dir/sub/deep.c", 1 },
		{ "link-to-dir/..", MEV_KIND_DIR, "", 1 },   /* '..' of the target */
		{ "link-to-file", MEV_KIND_FILE, "README", 1 },
		{ "link-to-file/", 0, NULL, 1 },
		{ "dir/sub/up", MEV_KIND_FILE, "dir/file", 1 }, /* '..' in the target */
		{ "dir/uplink", MEV_KIND_DIR, "dir/sub", 1 },
		{ "dir/uplink/deep.c", MEV_KIND_FILE, "dir/sub/deep.c", 1 },
		{ "dir/uplink/up", MEV_KIND_FILE, "dir/file", 1 },
		{ "dir/uplink/../file", MEV_KIND_FILE, "dir/file", 1 },
		{ "link-to-dir/uplink/up", MEV_KIND_FILE, "dir/file", 1 },
		{ "dangling", 0, NULL, 1 },
		{ "dangling/", 0, NULL, 1 },
		{ "loop1", 0, NULL, 1 },                   /* ELOOP */
		{ "loop2/x", 0, NULL, 1 },
		{ "self", 0, NULL, 1 },
		{ "/etc", 0, NULL, 0 },                    /* absolute: outside */
		{ "/", 0, NULL, 0 },
		{ "abs", 0, NULL, 0 },                     /* link to an absolute path */
		{ "escape", 0, NULL, 1 },                  /* link leaving the tree */
		{ "many", MEV_KIND_DIR, "many", 1 },
		{ "many/f042", MEV_KIND_FILE, "many/f042", 1 },
	};
	mev_repo *r = NULL;
	mev_tree *t = NULL;

	if (!load_v1(&r, &t))
		return;
	CHECK_INT(sh("cd '%s' && git checkout -q v1 2>/dev/null", repo_path("main")), 0);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *p = cases[i].path;
		char *real = (char *)1;
		int k = mev_tree_stat(t, p, strlen(p));
		int k2 = mev_tree_resolve(&real, t, p, strlen(p));
		if (k != cases[i].kind)
			fprintf(stderr, "stat '%s': %d, expected %d\n", p, k, cases[i].kind);
		CHECK_INT(k, cases[i].kind);
		CHECK_INT(k2, k);
		if (cases[i].real) {
			CHECK_STR(real, cases[i].real);
		} else {
			CHECK(real == NULL);
		}
		free(real == (char *)1 ? NULL : real);
		/* the same answer as stat(2) in a checkout, where that is meaningful */
		if (cases[i].like_fs) {
			int fk = fs_kind(p);
			if (fk != cases[i].kind)
				fprintf(stderr, "stat(2) '%s': %d\n", p, fk);
			CHECK_INT(fk, cases[i].kind);
		}
	}
	/* the length is respected */
	CHECK_INT(mev_tree_stat(t, "dir/filexyz", 8), MEV_KIND_FILE);
	CHECK_INT(mev_tree_stat(t, "link-to-dir/file", 11), MEV_KIND_DIR);
	CHECK_INT(sh("cd '%s' && git checkout -q main 2>/dev/null", repo_path("main")), 0);
	mev_tree_free(t);
	mev_repo_free(r);
}


static void test_shallow(void)
{
	const char *src = repo_path("main"), *cut = repo_path("shallow"), *root = repo_path("shallow-root");
	mev_repo *r = NULL;
	mev_oid head, one, got;
	char hex[41], msg[64];
	CHECK_INT(sh(GIT_ENV "git clone -q --depth 1 'file://%s' '%s' && " GIT_ENV "git clone -q "
		     "--depth 1 --branch v1 'file://%s' '%s' 2>/dev/null", src, cut, src, root), 0);
	CHECK_INT(mev_repo_open(&r, src), 0);
	CHECK_INT(mev_repo_is_shallow(r), 0);
	CHECK_INT(mev_repo_resolve(&one, NULL, r, "v1"), 0);
	CHECK_INT(mev_repo_resolve(&head, NULL, r, "HEAD"), 0);
	CHECK_INT(mev_repo_root(&got, r, &head), 0);
	CHECK(mev_oid_equal(&got, &one));
	mev_repo_free(r);

	CHECK_INT(mev_repo_open(&r, cut), 0);
	CHECK_INT(mev_repo_is_shallow(r), 1);
	CHECK(mev_repo_has_commit(r, &head) && !mev_repo_has_commit(r, &one));
	mev_oid_fmt(hex, &head);
	snprintf(msg, sizeof msg, "history stops at commit %.12s", hex);
	CHECK_ERR(mev_repo_root(&got, r, &head), MEV_ENOTFOUND, msg);
	CHECK(strstr(mev_error_message(), "is a shallow clone") != NULL);
	CHECK(strstr(mev_error_hint_text(), "fetch --unshallow") != NULL);
	mev_repo_free(r);

	/* cut at the root commit itself: it has no parents, the root is known */
	CHECK_INT(mev_repo_open(&r, root), 0);
	CHECK_INT(mev_repo_is_shallow(r), 1);
	CHECK_INT(mev_repo_root(&got, r, &one), 0);
	CHECK(mev_oid_equal(&got, &one));
	mev_repo_free(r);

	/* once unshallowed, the root is found */
	CHECK_INT(sh("cd '%s' && " GIT_ENV "git fetch -q --unshallow", cut), 0);
	CHECK_INT(mev_repo_open(&r, cut), 0);
	CHECK_INT(mev_repo_is_shallow(r), 0);
	CHECK_INT(mev_repo_root(&got, r, &head), 0);
	CHECK(mev_oid_equal(&got, &one));
	mev_repo_free(r);
}

/* A partial clone: a missing link target fails the tree, a missing file
 * that matters fails mev_tree_need, each naming the path and the fetch. */
static void test_partial(void)
{
	const char *src = repo_path("main"), *p = repo_path("partial");
	mev_repo *r = NULL;
	mev_tree *t = NULL;
	mev_oid one;
	CHECK_INT(sh("cd '%s' && git config uploadpack.allowFilter true && " GIT_ENV "git clone -q "
		     "--no-checkout --filter=blob:none 'file://%s' '%s'", src, src, p), 0);
	CHECK_INT(mev_repo_open(&r, p), 0);
	CHECK_STR(mev_repo_promisor(r), "origin");
	CHECK_INT(mev_repo_is_shallow(r), 0);
	CHECK_INT(mev_repo_resolve(&one, NULL, r, "v1"), 0);
	CHECK_ERR(mev_tree_load(&t, r, &one), MEV_ENOTFOUND,
		  "is a partial clone and lacks the blob of symbolic link '");
	CHECK(strstr(mev_error_message(), "where it leads decides") != NULL);
	CHECK(strstr(mev_error_hint_text(), "cat-file -e ") != NULL);
	CHECK(strstr(mev_error_hint_text(), "config --unset remote.origin.partialclonefilter") != NULL);
	CHECK(strstr(mev_error_hint_text(), "fetch --refetch origin") != NULL);
	CHECK(t == NULL);
	/* fetch the link targets (git fetches a missing object when asked) */
	CHECK_INT(sh("cd '%s' && git ls-tree -r v1 | awk '$1 == \"120000\" { print $3 }' | "
		     "while read o; do " GIT_ENV "git cat-file -e $o || exit 1; done", p), 0);
	CHECK_INT(mev_tree_load(&t, r, &one), 0);
	CHECK_ERR(mev_tree_need(r, t, "MAINTAINERS", "it lists the sections"), MEV_ENOTFOUND,
		  "lacks the blob of 'MAINTAINERS' (");
	CHECK(strstr(mev_error_message(), "): it lists the sections") != NULL);
	CHECK_ERR(mev_tree_need(r, t, "link-to-file", NULL), MEV_ENOTFOUND, "blob of 'link-to-file'");
	CHECK_INT(mev_tree_need(r, t, "no/such/file", "x"), 0);
	CHECK_INT(mev_tree_need(r, t, "dir", "x"), 0);
	CHECK_INT(sh("cd '%s' && " GIT_ENV "git cat-file -e v1:MAINTAINERS", p), 0);
	CHECK_INT(mev_tree_need(r, t, "MAINTAINERS", "it lists the sections"), 0);
	mev_tree_free(t);
	mev_repo_free(r);
}

/* A repository of another user: refused as git refuses it, the hint names
 * the directory for safe.directory; once named, it opens (root only). */
static void test_foreign_owner(void)
{
	const char *src = repo_path("main"), *o = repo_path("owned"), *home = repo_path("home");
	char *real, hint[1200], *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	mev_repo *r = NULL;
	if (geteuid() != 0) {
		fprintf(stderr, "test_foreign_owner: not root, skipped\n");
		free(old_home);
		return;
	}
	CHECK_INT(sh("cp -a '%s' '%s' && chown -R 12345 '%s' && mkdir -p '%s'", src, o, o, home), 0);
	setenv("HOME", home, 1);
	unsetenv("XDG_CONFIG_HOME");
	real = realpath(o, NULL);
	snprintf(hint, sizeof hint, "git config --global --add safe.directory %s", real ? real : o);
	CHECK_ERR(mev_repo_open(&r, o), MEV_EGIT, "belongs to another user (uid 12345; you are root");
	CHECK(strstr(mev_error_message(), "dubious ownership") != NULL);
	CHECK_STR(strstr(mev_error_hint_text(), "git config"), hint);
	CHECK(r == NULL);
	/* its .git directory: the work tree is what safe.directory names */
	CHECK_ERR(mev_repo_open(&r, repo_path("owned/.git")), MEV_EGIT, "dubious ownership");
	CHECK_STR(strstr(mev_error_hint_text(), "git config"), hint);
	CHECK_INT(sh("HOME='%s' %s", home, strstr(hint, "git config")), 0);
	CHECK_INT(mev_repo_open(&r, o), 0);
	mev_repo_free(r);
	if (old_home)
		setenv("HOME", old_home, 1);
	else
		unsetenv("HOME");
	free(old_home);
	free(real);
}

int main(void)
{
	int rc = fixture_start("repo");
	if (rc)
		return rc;
	RUN(test_oid);
	RUN(test_open_errors);
	RUN(test_resolve);
	RUN(test_tree_load);
	RUN(test_tree_stat);
	RUN(test_shallow);
	RUN(test_partial);
	RUN(test_foreign_owner);
	rc = test_summary();
	test_tmpdir_remove(tmp_root);
	return rc;
}
