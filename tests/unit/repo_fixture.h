/*
 * The repositories of test_git.c and test_git_packs.c: built with git in a
 * temporary folder (tmp_root), with fixed identities and dates.
 */
#ifndef MEV_TEST_REPO_FIXTURE_H
#define MEV_TEST_REPO_FIXTURE_H

#include "test.h"
#include "maintevo/repo.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEV_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(MEV_ASAN)
/* libgit2 1.5's leak on opening a partial clone is let be by the library's
 * suppression, which must see libgit2's frames (src/git/repo.c) */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "fast_unwind_on_malloc=0"; }
#endif

static char tmp_root[512];

#define GIT_ENV "GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent " \
	"GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.com " \
	"GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL=committer@example.com "
#define DATE1 "GIT_AUTHOR_DATE='2005-04-07T22:13:13 +0000' GIT_COMMITTER_DATE='2005-04-07T22:13:13 +0000' "
#define DATE2 "GIT_AUTHOR_DATE='2005-04-08T10:00:00 +0000' GIT_COMMITTER_DATE='2005-04-08T10:00:00 +0000' "
#define TIME1 1112911993
#define TIME2 1112954400

/* First line of a command's output (the 40 hex digits of rev-parse). */
static inline int sh_line(char *out, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static inline int sh_line(char *out, size_t size, const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	FILE *p;
	int ok;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	out[0] = '\0';
	p = popen(cmd, "r");
	if (!p)
		return -1;
	ok = fgets(out, (int)size, p) != NULL;
	pclose(p);
	out[strcspn(out, "\n")] = '\0';
	return ok ? 0 : -1;
}

static inline const char *repo_path(const char *name)
{
	static char buf[4][640];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", tmp_root, name);
	return buf[k];
}

/* --- the main fixture ------------------------------------------------------- */

/*
 * main/:
 *   README "hello\n"; MAINTAINERS; dir/file "a\nb\nc\n"; dir/empty.txt "";
 *   dir/noeol "x\ny"; dir/sub/deep.c; dir.c; many/f000..f099 (i lines each);
 *   link-to-dir -> dir; link-to-file -> README; dir/sub/up -> ../file;
 *   dir/uplink -> ../dir/sub; dangling -> nowhere; loop1 <-> loop2;
 *   self -> self; abs -> /etc; escape -> ../outside
 * commit 1 tagged v1 (annotated) and v1-light; commit 2 adds NEW on main.
 */
static inline int build_main(void)
{
	const char *d = repo_path("main");
	return sh("mkdir -p '%s' && cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		  "printf 'hello\\n' > README && "
		  "printf 'TOP\\nM:\\tA <a@x>\\nF:\\tdir/\\n' > MAINTAINERS && "
		  "mkdir -p dir/sub many && printf 'a\\nb\\nc\\n' > dir/file && : > dir/empty.txt && "
		  "printf 'x\\ny' > dir/noeol && printf 'int x;\\n\\n' > dir/sub/deep.c && "
		  "printf 'c\\n' > dir.c && "
		  "i=0; while [ $i -lt 100 ]; do f=$(printf 'many/f%%03d' $i); : > $f; "
		  "  j=0; while [ $j -lt $i ]; do echo line$j >> $f; j=$((j+1)); done; i=$((i+1)); done && "
		  "ln -s dir link-to-dir && ln -s README link-to-file && ln -s ../file dir/sub/up && "
		  "ln -s ../dir/sub dir/uplink && ln -s nowhere dangling && ln -s loop2 loop1 && "
		  "ln -s loop1 loop2 && ln -s self self && ln -s /etc abs && ln -s ../outside escape && "
		  "git add -A && " GIT_ENV DATE1 "git commit -q -m one && "
		  GIT_ENV DATE1 "git tag -a -m 'version 1' v1 && git tag v1-light && "
		  "printf 'new\\n' > NEW && git add NEW && " GIT_ENV DATE2 "git commit -q -m two",
		  d, d);
}

/* main/ at v1, its repository and tree: 1, or 0 (a check failed, both
 * NULL and nothing to free). */
static inline int load_v1(mev_repo **r, mev_tree **t)
{
	mev_oid c;
	*r = NULL;
	*t = NULL;
	CHECK_INT(mev_repo_open(r, repo_path("main")), 0);
	if (!*r)
		return 0;
	CHECK_INT(mev_repo_resolve(&c, NULL, *r, "v1"), 0);
	CHECK_INT(mev_tree_load(t, *r, &c), 0);
	if (!*t) {
		mev_repo_free(*r);
		*r = NULL;
		return 0;
	}
	return 1;
}

/* The start of a test program on main/ (its temporary folder named
 * `name`): TEST_SKIP without git, 1 when main/ cannot be built, else 0. */
static inline int fixture_start(const char *name)
{
	if (system("git --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "git not found: skipping\n");
		return TEST_SKIP;
	}
	snprintf(tmp_root, sizeof tmp_root, "%s", test_tmpdir(name));
	if (build_main() != 0) {
		fprintf(stderr, "cannot build the test repository\n");
		test_tmpdir_remove(tmp_root);
		return 1;
	}
	return 0;
}

static inline const mev_tree_file *find_file(const mev_tree *t, const char *path)
{
	int64_t i = mev_tree_find(t, path, strlen(path));
	return i >= 0 ? &mev_tree_files(t)[i] : NULL;
}

#endif
