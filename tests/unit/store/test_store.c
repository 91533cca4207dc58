/* Tests of the store alone: values and their packing, transactions, tables, refusals. */
#include "test.h"
#include "maintevo/error.h"
#include "maintevo/store.h"
#include "codec.h"
#include "store_internal.h"
#include "util/buf.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *dir;

static mev_store *open_new(const char *name)
{
	char path[700];
	mev_store *s = NULL;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	CHECK_INT(mev_store_open(&s, path, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	return s;
}

static int put_cb(mev_store *s, void *ctx)
{
	const char *const *kv = ctx;
	for (; *kv; kv += 2) {
		int rc = mev_store_put(s, "things", kv[0], strlen(kv[0]), kv[1], strlen(kv[1]));
		if (rc)
			return rc;
	}
	return 0;
}

static int fail_cb(mev_store *s, void *ctx)
{
	(void)ctx;
	if (mev_store_put(s, "things", "doomed", 6, "x", 1))
		return MEV_ERROR;
	return mev_error_set(MEV_EINVAL, "changed my mind");
}

static int scan_cb(void *ctx, const void *key, size_t klen, const void *data, size_t len)
{
	mev_buf *seen = ctx;
	mev__buf_put(seen, key, klen);
	mev__buf_putc(seen, '=');
	mev__buf_put(seen, data, len);
	mev__buf_putc(seen, ';');
	return 0;
}

/* Generic values: put, get, scan by prefix, delete; writes need a transaction. */
static void test_values(void)
{
	mev_store *s = open_new("values");
	const char *kv[] = { "b/1", "one", "a/2", "two", "b/3", "three", NULL };
	mev_buf seen = MEV_BUF_INIT;
	void *data = NULL;
	size_t len = 0;

	CHECK_ERR(mev_store_put(s, "things", "k", 1, "v", 1), MEV_ESTORE, "outside a transaction");
	CHECK_INT(mev_store_get(&data, &len, s, "things", "b/1", 3), MEV_ENOTFOUND); /* no table yet */
	CHECK_INT(mev_store_write(s, put_cb, kv), 0);
	CHECK_INT(mev_store_get(&data, &len, s, "things", "b/3", 3), 0);
	CHECK(len == 5 && memcmp(data, "three", 5) == 0 && ((char *)data)[5] == '\0');
	free(data);
	CHECK_INT(mev_store_get(&data, &len, s, "things", "b/9", 3), MEV_ENOTFOUND);
	CHECK_INT(mev_store_scan(s, "things", "b/", 2, scan_cb, &seen), 0);
	CHECK_STR(seen.ptr, "b/1=one;b/3=three;");
	mev__buf_clear(&seen);
	CHECK_INT(mev_store_scan(s, "nothing", NULL, 0, scan_cb, &seen), 0); /* an absent table is empty */
	CHECK_INT(seen.len, 0);
	/* a failed unit of work leaves nothing behind */
	CHECK_ERR(mev_store_write(s, fail_cb, NULL), MEV_EINVAL, "changed my mind");
	CHECK_INT(mev_store_get(&data, &len, s, "things", "doomed", 6), MEV_ENOTFOUND);
	/* the same with begin and abort */
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_ERR(mev__store_begin(s), MEV_ESTORE, "already open");
	CHECK_INT(mev_store_delete(s, "things", "a/2", 3), 0);
	CHECK_INT(mev_store_get(&data, &len, s, "things", "a/2", 3), MEV_ENOTFOUND); /* seen inside */
	CHECK_ERR(mev_store_put(s, "things", "", 0, "v", 1), MEV_EINVAL, "1 to 511 bytes, not 0");
	{
		/* a key longer than any stored: refused, absent, nothing to delete */
		char k[600];
		memset(k, 'k', sizeof k);
		CHECK_ERR(mev_store_put(s, "things", k, 512, "v", 1), MEV_EINVAL, "not 512");
		CHECK_INT(mev_store_put(s, "things", k, 511, "v", 1), 0);
		CHECK_INT(mev_store_get(&data, &len, s, "things", k, 600), MEV_ENOTFOUND);
		CHECK_INT(mev_store_delete(s, "things", k, 600), 0);
		CHECK_INT(mev_store_get(&data, &len, s, "things", k, 511), 0);
		free(data);
	}
	mev__store_abort(s);
	CHECK_INT(mev_store_get(&data, &len, s, "things", "a/2", 3), 0);
	free(data);
	/* deleting for good; deleting what is absent is no error */
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_store_delete(s, "things", "a/2", 3), 0);
	CHECK_INT(mev_store_delete(s, "things", "a/2", 3), 0);
	CHECK_INT(mev_store_delete(s, "never", "a/2", 3), 0);
	CHECK_INT(mev__store_commit(s), 0);
	CHECK_INT(mev_store_get(&data, &len, s, "things", "a/2", 3), MEV_ENOTFOUND);
	mev__buf_free(&seen);
	mev_store_free(s);
	mev_store_free(NULL);
}

/* Records of a kind: packed with a checksum (refused when damaged), or raw. */
static void test_packing(void)
{
	mev_store *s = open_new("packing");
	mev_buf in = MEV_BUF_INIT;
	void *packed = NULL, *out = NULL;
	size_t plen = 0, olen = 0, stored = 0;
	char *p;

	for (int i = 0; i < 1000; i++)
		mev__buf_printf(&in, "row %d of a compressible record\n", i % 17);
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_store_put_record(&stored, s, "recs", 'X', 3, "k", 1, in.ptr, in.len), 0);
	CHECK(stored > 4 && stored < in.len);
	CHECK_INT(mev_store_put_record(&stored, s, "recs", MEV_STORE_RAW, 0, "raw", 3, "abc", 3), 0);
	CHECK_INT(stored, 3);
	CHECK_INT(mev__store_commit(s), 0);
	CHECK_INT(mev_store_get_record(&out, &olen, s, "recs", 'X', "k", 1), 0);
	CHECK(olen == in.len && memcmp(out, in.ptr, in.len) == 0);
	free(out);
	CHECK_INT(mev_store_get_record(&out, &olen, s, "recs", MEV_STORE_RAW, "raw", 3), 0);
	CHECK(olen == 3 && memcmp(out, "abc", 3) == 0);
	free(out);
	/* as stored: "MEV", the kind, a zstd frame */
	CHECK_INT(mev_store_get_record(&packed, &plen, s, "recs", MEV_STORE_RAW, "k", 1), 0);
	p = packed;
	CHECK(plen > 4 && memcmp(p, "MEVX", 4) == 0);
	CHECK_INT(mev_store_unpack(&out, &olen, 'X', packed, plen), 0);
	CHECK(olen == in.len);
	free(out);
	/* wrong kind, flipped bits, truncation, no frame: all refused */
	CHECK_ERR(mev_store_get_record(&out, &olen, s, "recs", 'Y', "k", 1), MEV_ECORRUPT, "bad header");
	CHECK_ERR(mev_store_get(&out, &olen, s, "recs", "k", 1), MEV_ECORRUPT, "kind 'V'");
	p[plen / 2] ^= 0x10;
	CHECK_ERR(mev_store_unpack(&out, &olen, 'X', packed, plen), MEV_ECORRUPT, "damaged");
	p[plen / 2] ^= 0x10;
	CHECK_INT(mev_store_unpack(&out, &olen, 'X', packed, plen - 3), MEV_ECORRUPT);
	CHECK_INT(mev_store_unpack(&out, &olen, 'X', "MEV", 3), MEV_ECORRUPT);
	CHECK_ERR(mev_store_unpack(&out, &olen, 'X', "MEVXnot zstd", 12), MEV_ECORRUPT, "not a zstd frame");
	CHECK(out == NULL);
	free(packed);
	/* the same bytes again (packed once, remembered), then others, then
	 * the same bytes as another kind, and at another level: each reads
	 * back as put, with its own kind, packed as it would be afresh */
	{
		const char *keys[5] = { "k2", "k3", "k4", "k5", "k6" };
		const char kinds[5] = { 'X', 'X', 'X', 'Y', 'Y' };
		const int levels[5] = { 3, 3, 3, 3, 19 };
		mev_buf other = MEV_BUF_INIT;
		size_t sz[5];
		mev__buf_printf(&other, "another record");
		CHECK_INT(mev__store_begin(s), 0);
		for (int i = 0; i < 5; i++) {
			const mev_buf *b = i == 2 ? &other : &in;
			CHECK_INT(mev_store_put_record(&sz[i], s, "recs", kinds[i], levels[i], keys[i], 2, b->ptr,
						       b->len), 0);
		}
		CHECK_INT(mev__store_commit(s), 0);
		CHECK(sz[0] == sz[1] && sz[1] != sz[2] && sz[3] == sz[0]);
		for (int i = 0; i < 5; i++) {
			const mev_buf *b = i == 2 ? &other : &in;
			CHECK_INT(mev_store_get_record(&out, &olen, s, "recs", kinds[i], keys[i], 2), 0);
			CHECK(out && olen == b->len && memcmp(out, b->ptr, olen) == 0);
			free(out);
			CHECK_INT(mev_store_get_record(&packed, &plen, s, "recs", MEV_STORE_RAW, keys[i], 2), 0);
			if (packed) {
				mev_buf fresh = MEV_BUF_INIT;
				void *cctx = NULL;
				CHECK_INT(mev__pack(&fresh, &cctx, kinds[i], b->ptr, b->len, levels[i]), 0);
				CHECK(plen == fresh.len && memcmp(packed, fresh.ptr, plen) == 0);
				mev__pack_free(&cctx);
				mev__buf_free(&fresh);
			}
			free(packed);
		}
		mev__buf_free(&other);
	}
	mev__buf_free(&in);
	mev_store_free(s);
}

/* zstd files: one frame or several, cut short, too large, not zstd. */
static void test_decompress(void)
{
	mev_store *s = open_new("zst");
	mev_buf two = MEV_BUF_INIT;
	void *packed = NULL, *out = NULL;
	size_t plen = 0, olen = 0;

	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_store_put_record(NULL, s, "t", 'Z', 3, "k", 1, "hello, ", 7), 0);
	CHECK_INT(mev__store_commit(s), 0);
	CHECK_INT(mev_store_get_record(&packed, &plen, s, "t", MEV_STORE_RAW, "k", 1), 0);
	/* a packed value holds one zstd frame after its 4-byte header */
	mev__buf_put(&two, (char *)packed + 4, plen - 4);
	mev__buf_put(&two, (char *)packed + 4, plen - 4);
	CHECK_INT(mev_store_decompress(&out, &olen, two.ptr, two.len, 1 << 20, "two.zst"), 0);
	CHECK(olen == 14 && memcmp(out, "hello, hello, ", 14) == 0);
	free(out);
	CHECK_ERR(mev_store_decompress(&out, &olen, two.ptr, two.len - 2, 1 << 20, "cut.zst"), MEV_EINVAL,
		  "'cut.zst' ends in the middle of a zstd frame");
	CHECK_ERR(mev_store_decompress(&out, &olen, two.ptr, two.len, 10, "big.zst"), MEV_ELIMIT,
		  "'big.zst' decompresses to more than 10 bytes");
	CHECK_ERR(mev_store_decompress(&out, &olen, "plain text", 10, 1 << 20, "x.zst"), MEV_EINVAL,
		  "cannot decompress 'x.zst'");
	CHECK_INT(mev_store_decompress(&out, &olen, "", 0, 1 << 20, "empty.zst"), 0);
	CHECK(olen == 0 && out && ((char *)out)[0] == '\0');
	free(out);
	free(packed);
	mev__buf_free(&two);
	mev_store_free(s);
}

static int fill_cb(mev_store *s, void *ctx)
{
	char key[16], val[4096];
	int *n = ctx;
	for (int i = 0; i < (int)sizeof val; i++)
		val[i] = (char)(i * 7919 % 251); /* incompressible enough */
	for (int i = 0; i < *n; i++) {
		int rc;
		snprintf(key, sizeof key, "k%06d", i);
		val[0] = (char)i;
		if ((rc = mev_store_put_record(NULL, s, "fill", MEV_STORE_RAW, 0, key, strlen(key), val,
					       sizeof val)))
			return rc;
	}
	return 0;
}

/* A small map fills up: mev_store_write grows it and does the work again. */
static void test_growth(void)
{
	mev_store *s;
	mev_store_stats st = { 0 };
	int n = 40;
	setenv("MEV_STORE_MAP_BYTES", "262144", 1);
	s = open_new("growth");
	unsetenv("MEV_STORE_MAP_BYTES");
	CHECK_INT(mev_store_write(s, fill_cb, &n), 0);
	CHECK_INT(mev_store_stats_get(&st, s), 0);
	CHECK(st.map_bytes > 262144);
	mev_store_stats_free(&st);
	mev_store_free(s);
}

/* The tables come from LMDB's catalogue, each with its sizes. */
static void test_stats(void)
{
	mev_store *s = open_new("stats");
	mev_store_stats st = { 0 };
	const char *kv[] = { "a", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "b", "bb", NULL };
	CHECK_INT(mev_store_write(s, put_cb, kv), 0);
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_store_put_record(NULL, s, "alpha", MEV_STORE_RAW, 0, "x", 1, "12345", 5), 0);
	CHECK_INT(mev__store_commit(s), 0);
	CHECK_INT(mev_store_stats_get(&st, s), 0);
	CHECK_INT(st.n, 3);
	if (st.n == 3) {
		CHECK_STR(st.v[0].name, "alpha");
		CHECK_INT(st.v[0].entries, 1);
		CHECK_INT(st.v[0].stored_bytes, 5);
		CHECK_INT(st.v[0].raw_bytes, 5);
		CHECK_STR(st.v[1].name, "meta"); /* the schema */
		CHECK_INT(st.v[1].entries, 1);
		CHECK_STR(st.v[2].name, "things");
		CHECK_INT(st.v[2].entries, 2);
		CHECK_INT(st.v[2].raw_bytes, 58);
		CHECK(st.v[2].stored_bytes > 8);
	}
	CHECK(st.file_bytes > 0 && st.used_bytes > 0 && st.map_bytes >= st.used_bytes);
	mev_store_stats_free(&st);
	mev_store_stats_free(NULL);
	mev_store_free(s);
}

/* One writer at a time. */
static void test_lock(void)
{
	char path[700];
	int a = -1, b = -1;
	mev_store *s = open_new("locked");
	snprintf(path, sizeof path, "%s/locked", dir);
	CHECK_INT(mev_store_lock(&a, path), 0);
	/* the holder is named by its command line and pid (issue 32) */
	{
		char expect[200], rec[200], lock[800];
		int fd;
		ssize_t n;
		snprintf(expect, sizeof expect, "another maintevo command, 'test_store' (pid %ld), is "
			 "writing to store", (long)getpid());
		CHECK_ERR(mev_store_lock(&b, path), MEV_ESTORE, expect);
		CHECK_INT(b, -1);
		/* a record left by a process that is gone: the commands that write,
		 * flow among them */
		snprintf(lock, sizeof lock, "%s/walk.lock", path);
		fd = open(lock, O_RDWR);
		CHECK(fd >= 0);
		n = fd >= 0 ? pread(fd, rec, sizeof rec - 1, 0) : -1;
		CHECK(n > 0 && strncmp(rec, "pid ", 4) == 0);
		if (fd >= 0 && ftruncate(fd, 0) == 0 && pwrite(fd, "pid 2147483646\nmaintevo flow\n", 29, 0) == 29)
			CHECK_ERR(mev_store_lock(&b, path), MEV_ESTORE,
				  "another maintevo command (walk, import-pasta, cluster, track, flow or "
				  "store repair) is writing to store");
		if (fd >= 0)
			close(fd);
	}
	CHECK_INT(b, -1);
	close(a);
	CHECK_INT(mev_store_lock(&b, path), 0);
	close(b);
	/* waiting: for a writer that lets go after 0.2 s, in vain for one that does not */
	{
		volatile int stop = 1;
		int c = -1, pfd[2] = { -1, -1 };
		char byte = 0;
		pid_t pid;
		CHECK_INT(mev_store_lock(&a, path), 0);
		CHECK_ERR(mev_store_lock_wait(&b, path, 0.1, NULL), MEV_ESTORE, "still writes to store");
		CHECK_ERR(mev_store_lock_wait(&b, path, 10, &stop), MEV_EINTR, "interrupted while waiting");
		CHECK_INT(b, -1);
		fflush(NULL);
		CHECK_INT(pipe(pfd), 0);
		if ((pid = fork()) == 0) {
			/* the child takes the lock over (the parent lets go of its
			 * copy), says so and holds it for 0.2 s */
			int fd = -1;
			close(a);
			if (mev_store_lock_wait(&fd, path, 10, NULL) || write(pfd[1], "x", 1) != 1)
				_exit(1);
			usleep(200000);
			_exit(0);
		}
		close(a);
		CHECK_INT((int)read(pfd[0], &byte, 1), 1);
		close(pfd[0]);
		close(pfd[1]);
		CHECK_ERR(mev_store_lock(&c, path), MEV_ESTORE, "is writing to store");
		CHECK_INT(mev_store_lock_wait(&c, path, 10, NULL), 0);
		CHECK(c >= 0);
		if (c >= 0)
			close(c);
		if (pid > 0) {
			int st = 0;
			waitpid(pid, &st, 0);
			CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		}
	}
	mev_store_free(s);
}

static void test_refusals(void)
{
	mev_store *s = NULL;
	char other[700], path[800];
	FILE *f;
	snprintf(other, sizeof other, "%s/other", dir);
	CHECK_ERR(mev_store_open(&s, other, MEV_STORE_READ), MEV_ENOTFOUND, "no maintevo store at");
	mkdir(other, 0777);
	snprintf(path, sizeof path, "%s/notes.txt", other);
	f = fopen(path, "w");
	fputs("hello\n", f);
	fclose(f);
	CHECK_ERR(mev_store_open(&s, other, MEV_STORE_WRITE | MEV_STORE_CREATE), MEV_ESTORE,
		  "not a maintevo store");
	CHECK(mev_error_hint_text()[0] != '\0');
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_READ), MEV_ESTORE, "is not a directory");
	unlink(path);
	snprintf(path, sizeof path, "%s/data.mdb", other);
	f = fopen(path, "w");
	for (int i = 0; i < 20000; i++)
		fputc(i * 7 % 251, f);
	fclose(f);
	CHECK_ERR(mev_store_open(&s, other, MEV_STORE_READ), MEV_ESTORE, "not a maintevo store");
	CHECK(s == NULL);
}

/* A store of another schema is refused, with the way out in the hint. */
static void test_schema(void)
{
	char path[700];
	mev_store *s = open_new("schema");
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_store_put_record(NULL, s, "meta", MEV_STORE_RAW, 0, "schema", 6, "99", 2), 0);
	CHECK_INT(mev__store_commit(s), 0);
	mev_store_free(s);
	snprintf(path, sizeof path, "%s/schema", dir);
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_READ), MEV_ESTORE, "was written by schema 99, this build reads 1");
	CHECK(strstr(mev_error_hint_text(), "newer maintevo") != NULL);
	/* a read-only store refuses writes */
	CHECK_INT(mev__store_begin(s = open_new("ro")), 0);
	mev__store_abort(s);
	mev_store_free(s);
	snprintf(path, sizeof path, "%s/ro", dir);
	CHECK_INT(mev_store_open(&s, path, MEV_STORE_READ), 0);
	CHECK_ERR(mev__store_begin(s), MEV_ESTORE, "is open read-only");
	mev_store_free(s);
}

/* Read snapshots: reads inside a pair see the commit of its begin. */
static void test_snapshot(void)
{
	mev_store *s = open_new("snap"), *r = NULL;
	const char *one[] = { "k", "one", NULL }, *two[] = { "k", "two", NULL };
	char path[700];
	void *data = NULL;
	size_t len = 0;
	snprintf(path, sizeof path, "%s/snap", dir);
	CHECK_INT(mev_store_write(s, put_cb, one), 0);
	CHECK_INT(mev_store_open(&r, path, MEV_STORE_READ), 0);
	CHECK_INT(mev_store_read_begin(r), 0);
	CHECK_INT(mev_store_read_begin(r), 0); /* nested: the same snapshot */
	CHECK_INT(mev_store_write(s, put_cb, two), 0);
	CHECK_INT(mev_store_get(&data, &len, r, "things", "k", 1), 0);
	CHECK(len == 3 && memcmp(data, "one", 3) == 0);
	free(data);
	mev_store_read_end(r);
	CHECK_INT(mev_store_get(&data, &len, r, "things", "k", 1), 0);
	CHECK(len == 3 && memcmp(data, "one", 3) == 0); /* still the outer one */
	free(data);
	mev_store_read_end(r);
	CHECK_INT(mev_store_get(&data, &len, r, "things", "k", 1), 0);
	CHECK(len == 3 && memcmp(data, "two", 3) == 0);
	free(data);
	mev_store_read_end(r); /* without a begin: nothing */
	mev_store_read_end(NULL);
	/* no write while a snapshot is held; inside a write, a pair is a no-op */
	CHECK_INT(mev_store_read_begin(s), 0);
	CHECK_ERR(mev_store_write(s, put_cb, one), MEV_ESTORE, "while a read snapshot is held");
	mev_store_read_end(s);
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_store_read_begin(s), 0);
	CHECK_INT(mev_store_put(s, "things", "k", 1, "three", 5), 0);
	CHECK_INT(mev_store_get(&data, &len, s, "things", "k", 1), 0);
	CHECK(len == 5);
	free(data);
	mev_store_read_end(s);
	CHECK_INT(mev__store_commit(s), 0);
	mev_store_free(r);
	mev_store_free(s);
}

static int raw_cb(mev_store *s, void *ctx)
{
	const char *const *kv = ctx;
	return mev_store_put_record(NULL, s, "raw", MEV_STORE_RAW, 0, kv[0], strlen(kv[0]), kv[1],
				    strlen(kv[1]));
}

typedef struct {
	mev_store_view *v;
	char got[16]; /* what the view read, "" for nothing */
} view_job;

static void *view_read(void *arg)
{
	view_job *j = arg;
	const void *val;
	size_t len;
	j->got[0] = '\0';
	mev_store_view_begin(j->v);
	if (mev_store_view_get(&val, &len, j->v, "k", 1) && len < sizeof j->got) {
		memcpy(j->got, val, len);
		j->got[len] = '\0';
	}
	mev_store_view_end(j->v);
	return NULL;
}

/* A view, read by another thread while the store's own thread writes,
 * sees the last commit; a view of a table not there yet finds nothing. */
static void test_view(void)
{
	mev_store *s = open_new("view");
	const char *one[] = { "k", "one" }, *two[] = { "k", "two" };
	view_job j = { 0 };
	pthread_t th;
	CHECK_INT(mev_store_view_new(&j.v, s, "raw"), 0);
	CHECK(pthread_create(&th, NULL, view_read, &j) == 0);
	pthread_join(th, NULL);
	CHECK_STR(j.got, "");
	mev_store_view_free(j.v);
	CHECK_INT(mev_store_write(s, raw_cb, one), 0);
	CHECK_INT(mev_store_view_new(&j.v, s, "raw"), 0);
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(raw_cb(s, two), 0);
	CHECK(pthread_create(&th, NULL, view_read, &j) == 0);
	pthread_join(th, NULL);
	CHECK_STR(j.got, "one"); /* not "two": not committed yet */
	CHECK_INT(mev__store_commit(s), 0);
	CHECK(pthread_create(&th, NULL, view_read, &j) == 0);
	pthread_join(th, NULL);
	CHECK_STR(j.got, "two");
	/* the map grows (the writer waits for no view left open) */
	for (int k = 0; k < 3; k++)
		CHECK_INT(mev__store_grow(s), 0);
	CHECK(pthread_create(&th, NULL, view_read, &j) == 0);
	pthread_join(th, NULL);
	CHECK_STR(j.got, "two");
	mev_store_view_free(j.v);
	mev_store_view_end(NULL);
	mev_store_free(s);
}

/*
 * Many readers at once (issue 32, point 2): the reader table holds far
 * more than LMDB's 126 places (a nightly fan-out, a web front end); when
 * it is full, the error says so in words and a place let go is taken
 * again.  Each view holds a read transaction, hence a place.
 */
static void test_readers(void)
{
	enum { N = 300 };
	static mev_store_view *v[N];
	const char *kv[] = { "k", "v" };
	mev_store *s = open_new("readers");
	const void *val;
	void *data = NULL;
	size_t len = 0;
	int ok = 0;
	CHECK_INT(mev_store_write(s, raw_cb, kv), 0);
	for (int i = 0; i < N; i++) {
		v[i] = NULL;
		CHECK_INT(mev_store_view_new(&v[i], s, "raw"), 0);
		if (v[i])
			mev_store_view_begin(v[i]);
	}
	for (int i = 0; i < N; i++)
		ok += v[i] && mev_store_view_get(&val, &len, v[i], "k", 1);
	CHECK_INT(ok, N);
	/* and the store's own reads beside them */
	CHECK_INT(mev_store_get_record(&data, &len, s, "raw", MEV_STORE_RAW, "k", 1), 0);
	free(data);
	for (int i = 0; i < N; i++)
		mev_store_view_free(v[i]);
	mev_store_free(s);

	/* a table of 4 places, all taken */
	setenv("MEV_STORE_MAX_READERS", "4", 1);
	s = open_new("few");
	CHECK_INT(mev_store_write(s, raw_cb, kv), 0);
	for (int i = 0; i < 4; i++) {
		v[i] = NULL;
		CHECK_INT(mev_store_view_new(&v[i], s, "raw"), 0);
		if (v[i])
			mev_store_view_begin(v[i]);
	}
	data = NULL;
	CHECK_ERR(mev_store_get_record(&data, &len, s, "raw", MEV_STORE_RAW, "k", 1), MEV_ESTORE,
		  "has as many readers at once as it can hold (4): its reader table is full");
	CHECK(strstr(mev_error_hint_text(), "run fewer at once") != NULL);
	mev_store_view_free(v[0]);
	CHECK_INT(mev_store_get_record(&data, &len, s, "raw", MEV_STORE_RAW, "k", 1), 0);
	free(data);
	for (int i = 1; i < 4; i++)
		mev_store_view_free(v[i]);
	mev_store_free(s);
	unsetenv("MEV_STORE_MAX_READERS");
}

/* A creation killed half-way leaves data.mdb.new.PID and its -lock: the
 * next creation in the folder removes them (issue 32, point 4); those of
 * a process still alive stay. */
static void test_stale_new(void)
{
	char path[700], f[800], live[800];
	mev_store *s = NULL;
	snprintf(path, sizeof path, "%s/stale", dir);
	CHECK_INT(mkdir(path, 0777), 0);
	snprintf(f, sizeof f, "%s/data.mdb.new.2147483646", path);
	close(open(f, O_CREAT | O_WRONLY, 0666));
	snprintf(f, sizeof f, "%s/data.mdb.new.2147483646-lock", path);
	close(open(f, O_CREAT | O_WRONLY, 0666));
	snprintf(live, sizeof live, "%s/data.mdb.new.1", path); /* init: alive */
	close(open(live, O_CREAT | O_WRONLY, 0666));
	CHECK_INT(mev_store_open(&s, path, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	CHECK(access(f, F_OK) != 0);
	f[strlen(f) - 5] = '\0';
	CHECK(access(f, F_OK) != 0);
	CHECK(access(live, F_OK) == 0);
	mev_store_free(s);
}

/* A store with a few tables, values on overflow pages among them, closed. */
static void make_store(const char *path)
{
	mev_store *s = NULL;
	int n = 300;
	const char *kv[] = { "a", "1", "b", "2", NULL };
	CHECK_INT(mev_store_open(&s, path, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	CHECK_INT(mev_store_write(s, fill_cb, &n), 0);
	CHECK_INT(mev_store_write(s, put_cb, kv), 0);
	mev_store_free(s);
}

static long file_size(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

/* Add `add` to the last page of both meta pages of data.mdb (LMDB 0.9,
 * 64-bit): the file then ends before its last page, as it does when LMDB
 * freed the last pages in the commit that took them. */
static void move_last_page(const char *data, uint64_t add)
{
	int fd = open(data, O_RDWR);
	for (int m = 0; m < 2 && fd >= 0; m++) {
		uint64_t last;
		off_t off = (off_t)m * 4096 + 16 + 24 + 2 * 48;
		CHECK(pread(fd, &last, 8, off) == 8);
		last += add;
		CHECK(pwrite(fd, &last, 8, off) == 8);
	}
	CHECK(fd >= 0);
	close(fd);
}

/*
 * Damaged or foreign data files are refused before LMDB maps them (issue
 * 9, point 5): cut short (a SIGBUS at the first read before), empty (taken
 * for a new environment), a FIFO (a hang), another program's LMDB with a
 * key 'meta' (MDB_INCOMPATIBLE).  A file that only ends before pages no
 * tree reaches is whole.
 */
static void test_datafile(void)
{
	char path[700], data[800], cmd[2000];
	mev_store *s = NULL;
	void *v = NULL;
	size_t len = 0;
	long size;
	snprintf(path, sizeof path, "%s/df", dir);
	snprintf(data, sizeof data, "%s/data.mdb", path);
	make_store(path);
	CHECK_INT(mev__store_check_datafile(path, 1), 0); /* every reachable page is there */
	size = file_size(data);
	/* the last pages freed, never written: still whole, and readable */
	move_last_page(data, 3);
	CHECK_INT(mev__store_check_datafile(path, 0), 0);
	CHECK_INT(mev_store_open(&s, path, MEV_STORE_READ), 0);
	CHECK_INT(mev_store_get(&v, &len, s, "things", "b", 1), 0);
	free(v);
	mev_store_free(s);
	move_last_page(data, (uint64_t)-3);
	/* cut short: at half, at one page, inside a meta page */
	CHECK_INT(truncate(data, size / 2), 0);
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_READ), MEV_ECORRUPT, "data.mdb' is cut short at");
	CHECK(strstr(mev_error_hint_text(), "restore it from a backup") != NULL);
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_WRITE | MEV_STORE_CREATE), MEV_ECORRUPT, "cut short");
	CHECK_INT(truncate(data, 4096), 0);
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_READ), MEV_ECORRUPT, "page 1 (a meta page) is not all there");
	CHECK_INT(truncate(data, 100), 0);
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_READ), MEV_ECORRUPT, "page 0 (a meta page)");
	/* empty: refused, not made a new store */
	CHECK_INT(truncate(data, 0), 0);
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_READ), MEV_ECORRUPT, "data.mdb' is empty");
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_WRITE | MEV_STORE_CREATE), MEV_ECORRUPT, "is empty");
	CHECK_INT(file_size(data), 0);
	/* not a regular file */
	unlink(data);
	CHECK_INT(mkfifo(data, 0666), 0);
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_READ), MEV_ESTORE, "data.mdb' is a FIFO, not a regular file");
	CHECK(mev_error_hint_text()[0] != '\0');
	unlink(data);
	CHECK_INT(mkdir(data, 0777), 0);
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_READ), MEV_ESTORE, "is a directory, not a regular file");
	rmdir(data);
	snprintf(cmd, sizeof cmd, "%s/lock.mdb", path);
	unlink(cmd);
	CHECK_INT(mkfifo(cmd, 0666), 0);
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_WRITE | MEV_STORE_CREATE), MEV_ESTORE,
		  "lock.mdb' is a FIFO");
	unlink(cmd);
	/* a creation cut short leaves its own file, which is no other content */
	snprintf(cmd, sizeof cmd, "%s/data.mdb.new.99999", path);
	CHECK(fclose(fopen(cmd, "w")) == 0);
	CHECK_INT(mev_store_open(&s, path, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	mev_store_free(s);
}

/* Another program's LMDB, whose catalogue has a key 'meta'. */
static void test_foreign(void)
{
	char path[700];
	MDB_env *env = NULL;
	MDB_txn *txn = NULL;
	MDB_dbi dbi;
	MDB_val k = { 4, "meta" }, v = { 5, "hello" }, ks = { 6, "schema" }, vs = { 3, "abc" };
	mev_store *s = NULL;
	snprintf(path, sizeof path, "%s/foreign", dir);
	mkdir(path, 0777);
	CHECK_INT(mdb_env_create(&env), 0);
	mdb_env_set_maxdbs(env, 4);
	CHECK_INT(mdb_env_open(env, path, 0, 0666), 0);
	CHECK_INT(mdb_txn_begin(env, NULL, 0, &txn), 0);
	CHECK_INT(mdb_dbi_open(txn, NULL, 0, &dbi), 0);
	CHECK_INT(mdb_put(txn, dbi, &k, &v, 0), 0);
	CHECK_INT(mdb_txn_commit(txn), 0);
	mdb_env_close(env);
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_READ), MEV_ESTORE,
		  "is another program's LMDB database (its key 'meta' holds a value, not a table)");
	CHECK(strstr(mev_error_hint_text(), "choose another directory") != NULL);
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_WRITE | MEV_STORE_CREATE), MEV_ESTORE, "another program's");
	/* a table 'meta' whose schema is not a number */
	snprintf(path, sizeof path, "%s/foreign2", dir);
	mkdir(path, 0777);
	CHECK_INT(mdb_env_create(&env), 0);
	mdb_env_set_maxdbs(env, 4);
	CHECK_INT(mdb_env_open(env, path, 0, 0666), 0);
	CHECK_INT(mdb_txn_begin(env, NULL, 0, &txn), 0);
	CHECK_INT(mdb_dbi_open(txn, "meta", MDB_CREATE, &dbi), 0);
	CHECK_INT(mdb_put(txn, dbi, &ks, &vs, 0), 0);
	CHECK_INT(mdb_txn_commit(txn), 0);
	mdb_env_close(env);
	CHECK_ERR(mev_store_open(&s, path, MEV_STORE_READ), MEV_ESTORE, "its meta/schema is not a schema number");
}

int main(void)
{
	dir = test_tmpdir("store");
	RUN(test_values);
	RUN(test_packing);
	RUN(test_decompress);
	RUN(test_growth);
	RUN(test_stats);
	RUN(test_lock);
	RUN(test_refusals);
	RUN(test_schema);
	RUN(test_snapshot);
	RUN(test_view);
	RUN(test_readers);
	RUN(test_stale_new);
	RUN(test_datafile);
	RUN(test_foreign);
	test_tmpdir_remove(dir);
	return test_summary();
}
