/*
 * Unit tests of reading blobs (src/git/blobs.c, src/git/packread.c,
 * src/git/packcache.c):
 * counting lines with threads, the packs read by maintevo's own reader
 * against git cat-file.  Skipped (77) without git.
 */
#include "test.h"
#include "maintevo/error.h"
#include "maintevo/repo.h"
#include "git/packs_internal.h"
#include "util/buf.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "repo_fixture.h"

static void *measure_some(void *arg)
{
	mev_measure_work(arg);
	return NULL;
}

/* The blob ids of t's files, in its order (*n of them; the caller frees). */
static mev_oid *tree_oids(const mev_tree *t, size_t *n)
{
	mev_oid *v;
	*n = mev_tree_count(t);
	if ((v = calloc(*n + 1, sizeof *v)))
		for (size_t i = 0; i < *n; i++)
			v[i] = mev_tree_files(t)[i].oid;
	return v;
}

static void test_measure_blobs(void)
{
	mev_repo *r = NULL;
	mev_tree *t = NULL;
	size_t n;
	mev_oid *oids;
	uint64_t *lines, *bytes;

	if (!load_v1(&r, &t))
		return;
	oids = tree_oids(t, &n);
	lines = calloc(n, sizeof *lines);
	bytes = calloc(n, sizeof *bytes);
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

/* --- blobs read from packs (src/git/packread.c) ------------------------------ */

/* The same work shared by threads that join it late (as a walk's main
 * thread joins the reading ahead): the counts of mev_repo_measure_blobs. */
static void test_measure_shared(void)
{
	mev_repo *r = NULL;
	mev_tree *t = NULL;
	mev_oid *oids;
	uint64_t *lines, *bytes, *l2, *b2;
	mev_measure *m = NULL;
	pthread_t th[3];
	size_t n;
	if (!load_v1(&r, &t))
		return;
	oids = tree_oids(t, &n);
	lines = calloc(n, sizeof *lines);
	bytes = calloc(n, sizeof *bytes);
	l2 = calloc(n, sizeof *l2);
	b2 = calloc(n, sizeof *b2);
	CHECK_INT(mev_repo_measure_blobs(lines, bytes, r, oids, n, 1, NULL), 0);
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
	free(lines);
	free(bytes);
	free(oids);
	mev_tree_free(t);
	mev_repo_free(r);
}

/* The content of blob `oid` of repository `name` as git prints it. */
static int cat_object(mev_buf *out, const char *name, const char *type, const mev_oid *oid)
{
	char cmd[1024], hex[41], buf[4096];
	size_t n;
	FILE *p;
	mev_oid_fmt(hex, oid);
	snprintf(cmd, sizeof cmd, "git -C '%s' cat-file %s %s", repo_path(name), type, hex);
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
			if (cat_object(&g, name, "blob", &oids[i]) == 0 && a && la == g.len && (!la || !memcmp(a, g.ptr, la)) &&
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

/* Object ids printed by a shell command, one per line (at most max). */
static size_t oids_of(mev_oid *v, size_t max, const char *fmt, const char *dir)
{
	char cmd[1024], line[256];
	size_t n = 0;
	FILE *p;
	snprintf(cmd, sizeof cmd, fmt, dir);
	if (!(p = popen(cmd, "r")))
		return 0;
	while (n < max && fgets(line, sizeof line, p))
		if (mev_oid_parse(&v[n], line) == 0)
			n++;
	pclose(p);
	return n;
}

typedef struct {
	mev_oid v[512];
	size_t n;
} oid_list;

static int add_oid(void *ctx, const mev_oid *blob)
{
	oid_list *l = ctx;
	if (l->n < 512)
		l->v[l->n++] = *blob;
	return 0;
}

static int oid_cmp(const void *a, const void *b) { return memcmp(a, b, sizeof(mev_oid)); }

/* The same ids, whatever the order (both sorted in place). */
static int same_set(mev_oid *a, size_t na, mev_oid *b, size_t nb)
{
	qsort(a, na, sizeof *a, oid_cmp);
	qsort(b, nb, sizeof *b, oid_cmp);
	return na == nb && (!na || !memcmp(a, b, na * sizeof *a));
}

/* What the walk reads before walking: the blobs two commits' trees differ
 * by, as `git diff-tree -r` lists them (every blob of a tree against
 * none), put in the packs' order: from the end of the pack to its start,
 * as `git show-index` places them. */
static void test_diff_and_read_order(void)
{
	const char *d = repo_path("packed");
	mev_repo *r = NULL;
	mev_oid from, to, want[512];
	oid_list got = { .n = 0 };
	size_t nw;
	CHECK_INT(mev_repo_open(&r, d), 0);
	if (!r)
		return;
	CHECK_INT(mev_repo_resolve(&from, NULL, r, "HEAD~10"), 0);
	CHECK_INT(mev_repo_resolve(&to, NULL, r, "HEAD"), 0);
	CHECK_INT(mev_repo_diff_blobs(r, &from, &to, add_oid, &got), 0);
	nw = oids_of(want, 512, "cd '%s' && git diff-tree -r --no-renames HEAD~10 HEAD | "
		     "awk '$5 != \"D\" { print $4 }'", d);
	CHECK(nw >= 2);
	CHECK(same_set(got.v, got.n, want, nw));
	got.n = 0;
	CHECK_INT(mev_repo_diff_blobs(r, NULL, &to, add_oid, &got), 0);
	nw = oids_of(want, 512, "cd '%s' && git ls-tree -r HEAD | awk '{ print $3 }'", d);
	CHECK_INT(nw, 3);
	CHECK(same_set(got.v, got.n, want, nw));
	/* every blob of the history, ordered, then as show-index places them */
	nw = oids_of(want, 512, "cd '%s' && git rev-list --objects --all | cut -d' ' -f1 | "
		     "git cat-file --batch-check='%%(objecttype) %%(objectname)' | sed -n 's/^blob //p'", d);
	CHECK(nw >= 60);
	CHECK_INT(mev_repo_read_order(r, want, nw), 0);
	{
		oid_list by_place = { .n = 0 };
		by_place.n = oids_of(by_place.v, 512, "cd '%s' && cat .git/objects/pack/*.idx | git show-index | "
				     "sort -k1,1nr | cut -d' ' -f2 | git cat-file --batch-check='%%(objecttype) "
				     "%%(objectname)' | sed -n 's/^blob //p'", d);
		CHECK_INT(by_place.n, nw);
		CHECK(by_place.n == nw && !memcmp(by_place.v, want, nw * sizeof *want));
	}
	/* with their places: the same order, and read at them the same
	 * counts as looked up by name (a blob in no pack, as libgit2 reads it) */
	{
		mev_oid again[513];
		uint64_t places[513], l1[513], b1[513], l2[513], b2[513];
		int same = 0;
		memcpy(again, want, nw * sizeof *want);
		CHECK_INT(mev_repo_read_order_at(r, again, places, nw), 0);
		CHECK(!memcmp(again, want, nw * sizeof *want));
		memset(&again[nw], 0xab, sizeof again[nw]); /* in no pack, and not in the repository */
		places[nw] = MEV__NOWHERE;
		CHECK_INT(mev_repo_measure_blobs(l1, b1, r, again, nw + 1, 2, NULL), 0);
		CHECK_INT(mev_repo_measure_at(l2, b2, r, again, places, nw + 1, 2, NULL), 0);
		for (size_t i = 0; i <= nw; i++)
			same += l1[i] == l2[i] && b1[i] == b2[i] && (i < nw || l2[i] == UINT64_MAX);
		CHECK_INT(same, (int)nw + 1);
		/* each place read by the pack reader itself, not left to libgit2 */
		{
			char dir[4096];
			mev__packs *ps = NULL;
			mev__pack_reader ra, rb;
			same = 0;
			snprintf(dir, sizeof dir, "%sobjects", git_repository_commondir(r->git));
			CHECK_INT(mev__packs_open(&ps, dir), 0);
			mev__pack_reader_init(&ra, ps);
			mev__pack_reader_init(&rb, ps);
			for (size_t i = 0; i < nw; i++) {
				const unsigned char *x, *y;
				size_t lx, ly;
				same += mev__pack_read_blob_at(&ra, places[i], &x, &lx) &&
					mev__pack_read_blob(&rb, &again[i], &y, &ly) && lx == ly && !memcmp(x, y, lx);
			}
			CHECK_INT(same, (int)nw);
			mev__pack_reader_free(&ra);
			mev__pack_reader_free(&rb);
			mev__packs_free(ps);
		}
	}
	mev_repo_free(r);
}

/*
 * nested/: 30 commits of files in folders three deep (files changed, added
 * and deleted, a folder dropped and back), repacked into delta chains.  A
 * series of diffs, each commit against the one before, as a walk makes
 * them (the new side's trees kept for the next diff, trees read through
 * the pack reader) lists what `git diff-tree -r` lists for each pair; and
 * the pack reader reads every tree as git does.
 */
static void test_diff_series(void)
{
	const char *d = repo_path("nested");
	mev_repo *r = NULL;
	mev__packs *ps = NULL;
	mev__pack_reader rd;
	char cmd[1024];
	mev_oid trees[512];
	size_t nt, same = 0;
	int bad = 0;
	CHECK_INT(sh("mkdir -p '%s' && cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		     "i=0; while [ $i -lt 30 ]; do "
		     "  mkdir -p a/b/c a/x top && seq 1 $((i * 5 + 20)) > a/b/c/f$((i %% 7)).txt && "
		     "  echo $i > a/x/n$((i %% 3)) && seq $i 200 > top/t.txt && "
		     "  if [ $((i %% 5)) = 4 ]; then rm -rf a/x; fi && "
		     "  if [ $((i %% 6)) = 5 ]; then rm -f a/b/c/f$(( (i + 3) %% 7 )).txt; fi && "
		     "  git add -A && " GIT_ENV DATE1 "git commit -q -m c$i; i=$((i+1)); done && "
		     "git repack -q -a -d -f --depth=50 --window=50 && git prune-packed", d, d), 0);
	CHECK_INT(mev_repo_open(&r, d), 0);
	if (!r)
		return;
	for (int k = 29; k > 0; k--) {
		mev_oid from, to, want[512];
		oid_list got = { .n = 0 };
		char rev[32];
		size_t nw;
		snprintf(rev, sizeof rev, "HEAD~%d", k);
		CHECK_INT(mev_repo_resolve(&from, NULL, r, rev), 0);
		snprintf(rev, sizeof rev, "HEAD~%d", k - 1);
		CHECK_INT(mev_repo_resolve(&to, NULL, r, rev), 0);
		CHECK_INT(mev_repo_diff_blobs(r, &from, &to, add_oid, &got), 0);
		snprintf(cmd, sizeof cmd, "cd '%%s' && git diff-tree -r --no-renames HEAD~%d HEAD~%d | "
			 "awk '$5 != \"D\" { print $4 }'", k, k - 1);
		nw = oids_of(want, 512, cmd, d);
		bad += !same_set(got.v, got.n, want, nw);
	}
	CHECK_INT(bad, 0);
	/* every tree of the history, read by the pack reader */
	nt = oids_of(trees, 512, "cd '%s' && git rev-list --objects --all | cut -d' ' -f1 | "
		     "git cat-file --batch-check='%%(objecttype) %%(objectname)' | sed -n 's/^tree //p'", d);
	CHECK(nt >= 60);
	snprintf(cmd, sizeof cmd, "%sobjects", git_repository_commondir(r->git));
	CHECK_INT(mev__packs_open(&ps, cmd), 0);
	mev__pack_reader_init(&rd, ps);
	for (size_t i = nt; i-- > 0;) {
		const unsigned char *a = NULL;
		size_t la = 0;
		mev_buf g = MEV_BUF_INIT;
		if (mev__pack_read_tree(&rd, &trees[i], &a, &la) && cat_object(&g, "nested", "tree", &trees[i]) == 0 &&
		    la == g.len && (!la || !memcmp(a, g.ptr, la)))
			same++;
		mev__buf_free(&g);
	}
	CHECK_INT(same, nt);
	mev__pack_reader_free(&rd);
	mev__packs_free(ps);
	mev_repo_free(r);
}

static int count_blob(void *ctx, const mev_oid *blob)
{
	(void)blob;
	(*(size_t *)ctx)++;
	return 0;
}

/* Trees a and b list the same files (paths, ids, kinds, where links lead),
 * with the same changed flags; gitlinks and folders stat the same. */
static int same_tree(const mev_tree *a, const uint8_t *ca, const mev_tree *b, const uint8_t *cb)
{
	const mev_tree_file *x = mev_tree_files(a), *y = mev_tree_files(b);
	static const char *const probe[] = { "sub", "link", "a", "a/f", "b", "link/inner" };
	if (!mev_oid_equal(mev_tree_id(a), mev_tree_id(b)) || mev_tree_count(a) != mev_tree_count(b))
		return 0;
	for (size_t i = 0; i < mev_tree_count(a); i++)
		if (x[i].path_len != y[i].path_len || memcmp(x[i].path, y[i].path, x[i].path_len) ||
		    !mev_oid_equal(&x[i].oid, &y[i].oid) || x[i].kind != y[i].kind ||
		    x[i].link_dir != y[i].link_dir || x[i].link_file != y[i].link_file || ca[i] != cb[i])
			return 0;
	for (size_t k = 0; k < sizeof probe / sizeof *probe; k++)
		if (mev_tree_stat(a, probe[k], strlen(probe[k])) != mev_tree_stat(b, probe[k], strlen(probe[k])))
			return 0;
	return 1;
}

/*
 * A diff recorded while reading (mev_repo_diff_record) and replayed
 * (mev_tree_update_with) builds the very tree a diff builds: files
 * modified, deleted, added, made executable; a symbolic link that
 * becomes a folder and back; a file that becomes a folder; a submodule
 * added; a folder removed whole.  A record of another diff is not used.
 */
static void test_diff_replayed(void)
{
	const char *d = repo_path("replay");
	mev_repo *r = NULL;
	mev_tree *old = NULL;
	mev_oid c[6];
	int same = 0, other = 0;
	CHECK_INT(sh("mkdir -p '%s' && cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		     "mkdir a && echo f > a/f && echo g > a/g && ln -s a link && echo x > x.sh && "
		     "git add -A && " GIT_ENV DATE1 "git commit -q -m c0 && "
		     "chmod +x x.sh && echo f2 > a/f && rm a/g && echo h > a/h && "
		     "git add -A && " GIT_ENV DATE1 "git commit -q -m c1 && "
		     "rm link && mkdir link && echo i > link/inner && rm a/f && mkdir a/f && echo j > a/f/j && "
		     "git add -A && " GIT_ENV DATE1 "git commit -q -m c2 && "
		     "git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),sub && "
		     "rm -r link && ln -s a/h link && git add -A link && " GIT_ENV DATE1 "git commit -q -m c3 && "
		     "git rm -q -r a && mkdir b && echo k > b/k && git add -A && " GIT_ENV DATE1 "git commit -q -m c4 && "
		     "echo k2 > b/k && git add -A && " GIT_ENV DATE1 "git commit -q -m c5 && "
		     "git repack -q -a -d && git prune-packed", d, d), 0);
	CHECK_INT(mev_repo_open(&r, d), 0);
	if (!r)
		return;
	for (int k = 0; k < 6; k++) {
		char rev[32];
		snprintf(rev, sizeof rev, "HEAD~%d", 5 - k);
		CHECK_INT(mev_repo_resolve(&c[k], NULL, r, rev), 0);
	}
	{
		mev_tree_delta *none = (mev_tree_delta *)1;
		size_t n = 0;
		CHECK_INT(mev_repo_diff_record(&none, r, NULL, &c[0], count_blob, &n), 0);
		CHECK(none == NULL && n == 4);
	}
	CHECK_INT(mev_tree_load(&old, r, &c[0]), 0);
	for (int k = 1; k < 6 && old; k++) {
		mev_tree_delta *rec = NULL;
		mev_tree *t1 = NULL, *t2 = NULL, *t3 = NULL, *t4 = NULL, *older = NULL;
		uint8_t *c1 = NULL, *c2 = NULL, *c3 = NULL, *c4 = NULL;
		size_t d1 = 0, d2 = 0, n = 0;
		CHECK_INT(mev_repo_diff_record(&rec, r, &c[k - 1], &c[k], count_blob, &n), 0);
		CHECK(rec != NULL && mev_oid_equal(mev_tree_delta_commit(rec), &c[k]));
		CHECK_INT(mev_tree_update(&t1, &c1, &d1, r, old, &c[k]), 0);
		CHECK_INT(mev_tree_update_with(&t2, &c2, &d2, r, old, &c[k], rec), 0);
		same += t1 && t2 && d1 == d2 && same_tree(t1, c1, t2, c2);
		/* the record of c[k-1] -> c[k], asked for c[k-2] -> c[k]: diffed */
		if (k >= 2 && mev_tree_load(&older, r, &c[k - 2]) == 0) {
			CHECK_INT(mev_tree_update(&t3, &c3, NULL, r, older, &c[k]), 0);
			CHECK_INT(mev_tree_update_with(&t4, &c4, NULL, r, older, &c[k], rec), 0);
			other += t3 && t4 && same_tree(t3, c3, t4, c4);
		}
		mev_tree_delta_free(rec);
		mev_tree_free(t1);
		mev_tree_free(t3);
		mev_tree_free(t4);
		mev_tree_free(older);
		free(c1);
		free(c2);
		free(c3);
		free(c4);
		mev_tree_free(old);
		old = t2;
	}
	CHECK_INT(same, 5);
	CHECK_INT(other, 4);
	mev_tree_free(old);
	mev_repo_free(r);
}

/*
 * A pack of 70,000 objects (git fast-import's, each blob a delta of the
 * one before): its searches begin in the buckets of 16 bits (by_name,
 * by_place), and every blob read back equals what was written.  The blob
 * of number i is 30 common lines and "blob i".
 */
static void blob_text(mev_buf *b, int i)
{
	b->len = 0;
	for (int k = 0; k < 30; k++)
		mev__buf_printf(b, "common line %d\n", k);
	mev__buf_printf(b, "blob %d\n", i);
}

static void test_many_objects(void)
{
	const char *d = repo_path("many");
	enum { N = 70000 };
	char path[4096];
	mev__packs *ps = NULL;
	mev__pack_reader rd;
	mev_buf want = MEV_BUF_INIT;
	size_t tried = 0, same = 0;
	CHECK_INT(sh("mkdir -p '%s' && cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		     "awk 'BEGIN { for (i = 0; i < %d; i++) { d = \"\"; "
		     "for (k = 0; k < 30; k++) d = d \"common line \" k \"\\n\"; d = d \"blob \" i \"\\n\"; "
		     "printf \"blob\\nmark :%%d\\ndata %%d\\n%%s\\n\", i + 1, length(d), d } }' | "
		     GIT_ENV "git fast-import --quiet", d, d, N), 0);
	snprintf(path, sizeof path, "%s/.git/objects", d);
	CHECK_INT(mev__packs_open(&ps, path), 0);
	if (!ps)
		return;
	CHECK_INT(mev__packs_count(ps), 1);
	CHECK(ps->n == 1 && ps->v[0].n >= N && ps->v[0].by_name && ps->v[0].by_place);
	mev__pack_reader_init(&rd, ps);
	for (int i = 0; i < N; i += i < 50 || i > N - 50 ? 1 : 97) {
		git_oid id;
		mev_oid oid;
		const unsigned char *data = NULL;
		size_t len = 0;
		blob_text(&want, i);
		git_odb_hash(&id, want.ptr, want.len, GIT_OBJECT_BLOB);
		memcpy(oid.id, id.id, 20);
		tried++;
		if (mev__pack_read_blob(&rd, &oid, &data, &len) && len == want.len && !memcmp(data, want.ptr, len))
			same++;
	}
	CHECK_INT(same, tried);
	/* a name the pack lacks, in a bucket it has names in */
	{
		mev_oid none;
		const unsigned char *data = NULL;
		size_t len = 0;
		uint32_t pi;
		uint64_t off;
		memcpy(none.id, ps->v[0].oids, 20);
		none.id[19] ^= 1;
		CHECK_INT(mev__packs_where(ps, &none, &pi, &off), 0);
		CHECK_INT(mev__pack_read_blob(&rd, &none, &data, &len), 0);
	}
	mev__pack_reader_free(&rd);
	mev__packs_free(ps);
	mev__buf_free(&want);
}

int main(void)
{
	int rc = fixture_start("packs");
	if (rc)
		return rc;
	RUN(test_measure_blobs);
	RUN(test_measure_shared);
	RUN(test_packed_blobs);
	RUN(test_diff_and_read_order);
	RUN(test_diff_series);
	RUN(test_diff_replayed);
	RUN(test_many_objects);
	rc = test_summary();
	test_tmpdir_remove(tmp_root);
	return rc;
}
