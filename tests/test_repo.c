/*
 * Unit tests of the git layer (MAINTAINERS discovery: test_discover.c), on small
 * repositories built here with fixed identities and dates.  Skipped (77)
 * without git.
 */
#include "test.h"
#include "maintevo/error.h"
#include "maintevo/maintainers.h"
#include "maintevo/repo.h"
#include "repo/repo_internal.h"
#include "util/buf.h"

#include <stdarg.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEV_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(MEV_ASAN)
/* libgit2 1.5's leak on opening a partial clone is let be by the library's
 * suppression, which must see libgit2's frames (src/repo.c) */
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

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[16384];
	va_list ap;
	int st;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	st = system(cmd);
	if (st != 0)
		fprintf(stderr, "command failed (%d): %s\n", st, cmd);
	return st == 0 ? 0 : -1;
}

/* First line of a command's output (the 40 hex digits of rev-parse). */
static int sh_line(char *out, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int sh_line(char *out, size_t size, const char *fmt, ...)
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

static const char *repo_path(const char *name)
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
static int build_main(void)
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

static const mev_tree_file *find_file(const mev_tree *t, const char *path)
{
	int64_t i = mev_tree_find(t, path, strlen(path));
	return i >= 0 ? &mev_tree_files(t)[i] : NULL;
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
	mev_oid c;

	CHECK_INT(mev_repo_open(&r, repo_path("main")), 0);
	if (!r)
		return;
	CHECK_INT(mev_repo_resolve(&c, NULL, r, "v1"), 0);
	CHECK_INT(mev_tree_load(&t, r, &c), 0);
	if (!t) {
		mev_repo_free(r);
		return;
	}
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


static void *measure_some(void *arg)
{
	mev_measure_work(arg);
	return NULL;
}

static void test_measure_blobs(void)
{
	mev_repo *r = NULL;
	mev_tree *t = NULL;
	mev_oid c;
	size_t n;
	mev_oid *oids;
	uint64_t *lines, *bytes;

	CHECK_INT(mev_repo_open(&r, repo_path("main")), 0);
	if (!r)
		return;
	CHECK_INT(mev_repo_resolve(&c, NULL, r, "v1"), 0);
	CHECK_INT(mev_tree_load(&t, r, &c), 0);
	if (!t) {
		mev_repo_free(r);
		return;
	}
	n = mev_tree_count(t);
	oids = calloc(n, sizeof *oids);
	lines = calloc(n, sizeof *lines);
	bytes = calloc(n, sizeof *bytes);
	for (size_t i = 0; i < n; i++)
		oids[i] = mev_tree_files(t)[i].oid;
	for (int jobs = 0; jobs <= 3; jobs++) {
		int bad = 0;
		memset(lines, 0xff, n * sizeof *lines);
		memset(bytes, 0xff, n * sizeof *bytes);
		CHECK_INT(mev_repo_measure_blobs(lines, bytes, r, oids, n, jobs, NULL), 0);
		for (size_t i = 0; i < n; i++) {
			const mev_tree_file *f = &mev_tree_files(t)[i];
			uint64_t el = UINT64_MAX, eb = UINT64_MAX;
			unsigned k;
			if (strcmp(f->path, "README") == 0)
				el = 1, eb = 6;
			else if (strcmp(f->path, "dir/file") == 0)
				el = 3, eb = 6;
			else if (strcmp(f->path, "dir/empty.txt") == 0)
				el = 0, eb = 0;
			else if (strcmp(f->path, "dir/noeol") == 0)
				el = 1, eb = 3;
			else if (strcmp(f->path, "dir/sub/deep.c") == 0)
				el = 2, eb = 8;
			else if (strcmp(f->path, "link-to-dir") == 0)
				el = 0, eb = 3; /* a link's blob is its target */
			else if (strcmp(f->path, "abs") == 0)
				el = 0, eb = 4;
			else if (sscanf(f->path, "many/f%u", &k) == 1) {
				/* "line0\n".."line<k-1>\n" */
				el = k;
				eb = 0;
				for (unsigned j = 0; j < k; j++)
					eb += (uint64_t)snprintf(NULL, 0, "line%u\n", j);
			}
			if (el == UINT64_MAX)
				continue;
			if (lines[i] != el || bytes[i] != eb) {
				if (bad++ < 5)
					fprintf(stderr, "jobs %d: %s: %llu lines %llu bytes, expected %llu %llu\n",
						jobs, f->path, (unsigned long long)lines[i],
						(unsigned long long)bytes[i], (unsigned long long)el,
						(unsigned long long)eb);
			}
		}
		CHECK_INT(bad, 0);
	}
	/* the same work shared by threads that join it late (as a walk's
	 * main thread joins the reading ahead): the same counts */
	{
		uint64_t *l2 = calloc(n, sizeof *l2), *b2 = calloc(n, sizeof *b2);
		mev_measure *m = NULL;
		pthread_t th[3];
		CHECK_INT(mev_measure_new(&m, r, oids, n, l2, b2, NULL), 0);
		for (int k = 0; k < 3; k++)
			CHECK(pthread_create(&th[k], NULL, measure_some, m) == 0);
		mev_measure_work(m);
		for (int k = 0; k < 3; k++)
			pthread_join(th[k], NULL);
		mev_measure_work(m); /* nothing left: returns at once */
		CHECK_INT(mev_measure_end(m), 0);
		CHECK(memcmp(l2, lines, n * sizeof *l2) == 0 && memcmp(b2, bytes, n * sizeof *b2) == 0);
		free(l2);
		free(b2);
	}
	/* reading one blob gives the same bytes */
	{
		char *data = NULL;
		size_t len = 0;
		const mev_tree_file *f = find_file(t, "dir/noeol");
		if (f) {
			CHECK_INT(mev_repo_read_blob(&data, &len, r, &f->oid), 0);
			CHECK_INT(len, 3);
			CHECK_STR(data, "x\ny");
			free(data);
		}
		f = find_file(t, "dir/sub/up");
		if (f) {
			CHECK_INT(mev_repo_read_blob(&data, &len, r, &f->oid), 0);
			CHECK_STR(data, "../file");
			free(data);
		}
	}
	/* nothing to do */
	CHECK_INT(mev_repo_measure_blobs(lines, bytes, r, oids, 0, 2, NULL), 0);
	/* a stop request */
	{
		volatile int stop = 1;
		CHECK_ERR(mev_repo_measure_blobs(lines, bytes, r, oids, n, 2, &stop), MEV_EINTR,
			  "interrupted");
	}
	/* an object that is not there (a partial clone): marked, not fatal */
	{
		mev_oid bad[40];
		for (int i = 0; i < 40; i++)
			bad[i] = oids[i];
		memset(&bad[35], 0x42, sizeof bad[35]);
		for (int jobs = 1; jobs <= 2; jobs++) {
			CHECK_INT(mev_repo_measure_blobs(lines, bytes, r, bad, 40, jobs, NULL), 0);
			CHECK(lines[35] == UINT64_MAX && bytes[35] == UINT64_MAX);
			CHECK(lines[34] != UINT64_MAX && lines[36] != UINT64_MAX);
		}
		{
			char *data = NULL;
			size_t len;
			CHECK_ERR(mev_repo_read_blob(&data, &len, r, &bad[35]), MEV_ENOTFOUND,
				  "lacks blob 424242424242, so the repository is damaged");
			CHECK(strstr(mev_error_hint_text(), "fsck") != NULL);
			CHECK(data == NULL);
		}
	}
	free(oids);
	free(lines);
	free(bytes);
	mev_tree_free(t);
	mev_repo_free(r);
}

/* --- blobs read from packs (src/repo/packread.c) ------------------------------ */

/* The content of blob `oid` of repository `name` as git prints it. */
static int cat_blob(mev_buf *out, const char *name, const mev_oid *oid)
{
	char cmd[1024], hex[41], buf[4096];
	size_t n;
	FILE *p;
	mev_oid_fmt(hex, oid);
	snprintf(cmd, sizeof cmd, "git -C '%s' cat-file blob %s", repo_path(name), hex);
	if (!(p = popen(cmd, "r")))
		return -1;
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		mev__buf_put(out, buf, n);
	return pclose(p) == 0 ? 0 : -1;
}

/* Every blob of repository `name` read by the pack reader (which must read
 * each: all are packed) and by libgit2: the same bytes.  Read twice, oldest
 * first, so that bases come from the reader's cache too.  The blobs' ids
 * are those `git rev-list --objects --all` lists, newest commit first. */
static void check_packed(const char *name, size_t min_blobs)
{
	char cmd[1024], line[256];
	mev_repo *r = NULL;
	mev__packs *ps = NULL;
	mev_oid oids[512];
	size_t n = 0, handled = 0, same = 0;
	FILE *p;
	snprintf(cmd, sizeof cmd, "cd '%s' && git rev-list --objects --all | cut -d' ' -f1 | "
		 "git cat-file --batch-check='%%(objecttype) %%(objectname)' | sed -n 's/^blob //p'",
		 repo_path(name));
	if (!(p = popen(cmd, "r")))
		return;
	while (n < 512 && fgets(line, sizeof line, p))
		if (mev_oid_parse(&oids[n], line) == 0)
			n++;
	pclose(p);
	CHECK(n >= min_blobs);
	CHECK_INT(mev_repo_open(&r, repo_path(name)), 0);
	if (!r)
		return;
	snprintf(cmd, sizeof cmd, "%sobjects", git_repository_commondir(r->git));
	CHECK_INT(mev__packs_open(&ps, cmd), 0);
	CHECK(mev__packs_count(ps) >= 1);
	for (int round = 0; round < 2; round++) {
		mev__pack_reader rd;
		mev__pack_reader_init(&rd, ps);
		for (size_t i = n; i-- > 0;) {
			const unsigned char *a = NULL;
			char *b = NULL;
			size_t la = 0, lb = 0;
			mev_buf g = MEV_BUF_INIT;
			handled += (size_t)mev__pack_read_blob(&rd, &oids[i], &a, &la);
			/* as git reads it, and through mev_repo_read_blob() (the
			 * second round from the blobs it keeps) */
			if (cat_blob(&g, name, &oids[i]) == 0 && a && la == g.len && (!la || !memcmp(a, g.ptr, la)) &&
			    a[la] == '\0' && mev_repo_read_blob(&b, &lb, r, &oids[i]) == 0 && lb == la &&
			    (!la || !memcmp(a, b, la)) && b[lb] == '\0')
				same++;
			free(b);
			mev__buf_free(&g);
		}
		mev__pack_reader_free(&rd);
	}
	CHECK_INT(handled, 2 * n);
	CHECK_INT(same, 2 * n);
	/* measured through the reader, as git counts them */
	{
		uint64_t lines[512], bytes[512];
		int bad = 0;
		CHECK_INT(mev_repo_measure_blobs(lines, bytes, r, oids, n, 2, NULL), 0);
		for (size_t i = 0; i < n; i++) {
			char hex[41], out[64];
			unsigned long long el = 0, eb = 0;
			mev_oid_fmt(hex, &oids[i]);
			sh_line(out, sizeof out, "cd '%s' && git cat-file blob %s | wc -lc", repo_path(name), hex);
			if (sscanf(out, "%llu %llu", &el, &eb) != 2 || lines[i] != el || bytes[i] != eb)
				bad++;
		}
		CHECK_INT(bad, 0);
	}
	mev__packs_free(ps);
	mev_repo_free(r);
}

/*
 * packed/: a file of 60 versions (each changes one line of 300, so that
 * each version is the best base of the next: chains 30 deep), one of 230 kB
 * in 8 versions (its stream read in more than one piece),
 * an empty file, all repacked into delta chains up to 50 deep, with offset
 * deltas, then with deltas naming their base by id; and a clone that
 * borrows its objects (`git clone --shared`: objects/info/alternates).
 */
static void test_packed_blobs(void)
{
	const char *d = repo_path("packed");
	char depth[64] = "";
	CHECK_INT(sh("mkdir -p '%s' && cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		     ": > empty && seq 1 300 | sed 's/^/line /' > grow.txt && git add -A && "
		     "i=0; while [ $i -lt 60 ]; do "
		     "  sed -i \"$(( (i * 7) %% 300 + 1 ))s/.*/changed in version $i/\" grow.txt && "
		     "  if [ $((i %% 8)) = 0 ]; then seq 1 40000 | sed \"s/^1$/v$i/\" > big.txt; fi && "
		     "  git add -A && " GIT_ENV DATE1 "git commit -q -m v$i; i=$((i+1)); done && "
		     "git repack -q -a -d -f --depth=50 --window=50 && git prune-packed",
		     d, d), 0);
	/* the chains are there: some object is a delta of depth >= 10 */
	sh_line(depth, sizeof depth, "cd '%s' && git verify-pack -v .git/objects/pack/*.idx | "
		"sed -n 's/^chain length = \\([0-9]*\\):.*/\\1/p' | sort -n | tail -1", d);
	CHECK(atoi(depth) >= 10);
	check_packed("packed", 60);
	CHECK_INT(sh("cd '%s' && git -c repack.useDeltaBaseOffset=false repack -q -a -d -f --depth=50 "
		     "--window=50", d), 0);
	check_packed("packed", 60);
	CHECK_INT(sh("cd '%s' && git clone -q --shared --bare '%s' packed-shared.git", tmp_root, d), 0);
	check_packed("packed-shared.git", 60);
}

/* --- clones that lack something --------------------------------------------- */

/* A shallow clone: its history stops at .git/shallow, and the root is
 * found only when the cut falls on it. */
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
	int rc;
	if (system("git --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "git not found: skipping\n");
		return TEST_SKIP;
	}
	snprintf(tmp_root, sizeof tmp_root, "%s", test_tmpdir("repo"));
	if (build_main() != 0) {
		fprintf(stderr, "cannot build the test repository\n");
		test_tmpdir_remove(tmp_root);
		return 1;
	}
	RUN(test_oid);
	RUN(test_open_errors);
	RUN(test_resolve);
	RUN(test_tree_load);
	RUN(test_tree_stat);
	RUN(test_measure_blobs);
	RUN(test_packed_blobs);
	RUN(test_shallow);
	RUN(test_partial);
	RUN(test_foreign_owner);
	rc = test_summary();
	test_tmpdir_remove(tmp_root);
	return rc;
}
