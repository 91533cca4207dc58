/*
 * Importing the study's published section graphs (CSV `from,to,lines,size`,
 * plain or zstd-compressed) as releases without file tables.
 */
#include "maintevo/import.h"
#include "maintevo/error.h"
#include "maintevo/store.h"
#include "maintevo/tags.h"
#include "maintevo/version.h"
#include "util/buf.h"
#include "util/strmap.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

enum { MAX_FILE = 1 << 30 };

/* --- reading a file, decompressing .zst ----------------------------------- */

static int read_file(const char *path, mev_buf *out)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;
	mev_buf_clear(out);
	if (!f)
		return mev_error_set(MEV_EIO, "cannot read '%s': %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (out->len + n > MAX_FILE) {
			fclose(f);
			return mev_error_set(MEV_ELIMIT, "'%s' is larger than 1 GiB", path);
		}
		if (mev_buf_put(out, chunk, n)) {
			fclose(f);
			return mev_error_oom();
		}
	}
	if (ferror(f)) {
		fclose(f);
		return mev_error_set(MEV_EIO, "cannot read '%s': %s", path, strerror(errno));
	}
	fclose(f);
	return 0;
}

/* Decompress every frame of `in` (the content size need not be known). */
static int unzstd(const char *path, const mev_buf *in, mev_buf *out)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in->ptr, in->len, 0 };
	size_t ret = 0;
	int rc = 0;
	mev_buf_clear(out);
	if (!ds)
		return mev_error_oom();
	while (ib.pos < ib.size) {
		ZSTD_outBuffer ob;
		if (mev_buf_grow(out, 1 << 20)) {
			rc = mev_error_oom();
			goto done;
		}
		ob.dst = out->ptr + out->len;
		ob.size = out->cap - out->len - 1;
		ob.pos = 0;
		ret = ZSTD_decompressStream(ds, &ob, &ib);
		if (ZSTD_isError(ret)) {
			rc = mev_error_set(MEV_EINVAL, "cannot decompress '%s': %s", path, ZSTD_getErrorName(ret));
			mev_error_hint("check the file with 'zstd -t %s'", path);
			goto done;
		}
		out->len += ob.pos;
		if (out->len > MAX_FILE) {
			rc = mev_error_set(MEV_ELIMIT, "'%s' decompresses to more than 1 GiB", path);
			goto done;
		}
		out->ptr[out->len] = '\0';
	}
	if (ret != 0) {
		rc = mev_error_set(MEV_EINVAL, "'%s' ends in the middle of a zstd frame", path);
		mev_error_hint("the file was cut short; fetch it again");
	}
done:
	ZSTD_freeDStream(ds);
	return rc;
}

/* --- CSV ------------------------------------------------------------------ */

typedef struct {
	const char *p, *end;
	size_t line;
} csv_rd;

/*
 * Read one record of up to `max` fields (RFC 4180: quoted fields, "" for a
 * quote, CRLF or LF).  Field texts go to `f` (each NUL-terminated).
 * Returns the number of fields, 0 at the end, -1 for a bad quote.
 */
static int csv_record(csv_rd *r, mev_buf *f, size_t *off, int max)
{
	int n = 0;
	mev_buf_clear(f);
	if (r->p >= r->end)
		return 0;
	r->line++;
	for (;;) {
		if (n < max)
			off[n] = f->len;
		if (r->p < r->end && *r->p == '"') {
			r->p++;
			for (;;) {
				if (r->p >= r->end)
					return -1;
				if (*r->p == '"') {
					if (r->p + 1 < r->end && r->p[1] == '"') {
						mev_buf_putc(f, '"');
						r->p += 2;
						continue;
					}
					r->p++;
					break;
				}
				if (*r->p == '\n')
					r->line++;
				mev_buf_putc(f, *r->p++);
			}
			if (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '\r')
				return -1;
		} else {
			while (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '\r')
				mev_buf_putc(f, *r->p++);
		}
		mev_buf_putc(f, '\0');
		n++;
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == '\r')
			r->p++;
		if (r->p < r->end && *r->p == '\n')
			r->p++;
		return n;
	}
}

static int parse_count(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;
	if (!*s || *s == '-')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

/* --- one release ---------------------------------------------------------- */

static int intern_section(mev_filemap *fm, mev_strmap *ids, const char *title, uint32_t *id)
{
	int added;
	uint32_t next = (uint32_t)mev_filemap_section_count(fm);
	if (mev_strmap_intern(ids, title, strlen(title), next, id, &added))
		return mev_error_oom();
	if (added) {
		mev_section_info si = { 0 };
		si.title = title;
		si.status = "";
		si.is_rest = strcmp(title, "THE REST") == 0;
		return mev_filemap_add_section(fm, &si);
	}
	return 0;
}

static int import_one(mev_store *s, const char *path, const char *tag, const mev_buf *text,
		      mev_import_result *res)
{
	csv_rd r = { text->ptr, text->ptr + text->len, 0 };
	mev_buf f = MEV_BUF_INIT;
	size_t off[8];
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	mev_strmap ids = MEV_STRMAP_INIT, pairs = MEV_STRMAP_INIT;
	MEV_VEC(mev_edge) edges = { 0 };
	mev_graph_options go = { 1 };
	mev_release_input in = { 0 };
	int n, rc = 0;

	if ((rc = mev_filemap_new(&fm)))
		goto done;
	n = csv_record(&r, &f, off, 8);
	if (n < 4 || strcmp(f.ptr + off[0], "from") || strcmp(f.ptr + off[1], "to") ||
	    strcmp(f.ptr + off[2], "lines") || strcmp(f.ptr + off[3], "size")) {
		rc = mev_error_set(MEV_EINVAL, "%s:1: the header is not 'from,to,lines,size'", path);
		mev_error_hint("import-pasta reads the study's section_graph CSVs");
		goto done;
	}
	while ((n = csv_record(&r, &f, off, 8)) != 0) {
		uint32_t a, b, key[2], e;
		uint64_t lines, bytes;
		int added;
		if (n == 1 && !f.ptr[off[0]])
			continue; /* an empty line */
		if (n < 4) {
			rc = mev_error_set(MEV_EINVAL, "%s:%zu: %s", path, r.line,
					   n < 0 ? "a quoted field does not end" : "fewer than 4 fields");
			mev_error_hint("each row is 'from,to,lines,size'");
			goto done;
		}
		if (parse_count(f.ptr + off[2], &lines) || parse_count(f.ptr + off[3], &bytes)) {
			rc = mev_error_set(MEV_EINVAL, "%s:%zu: lines and size must be whole numbers, not '%s' "
					   "and '%s'", path, r.line, f.ptr + off[2], f.ptr + off[3]);
			mev_error_hint("each row is 'from,to,lines,size'");
			goto done;
		}
		if (!f.ptr[off[0]] || !f.ptr[off[1]]) {
			rc = mev_error_set(MEV_EINVAL, "%s:%zu: a section without a title", path, r.line);
			mev_error_hint("each row is 'from,to,lines,size'");
			goto done;
		}
		if ((rc = intern_section(fm, &ids, f.ptr + off[0], &a)) ||
		    (rc = intern_section(fm, &ids, f.ptr + off[1], &b)))
			goto done;
		if (a > b) {
			uint32_t t = a;
			a = b;
			b = t;
		}
		key[0] = a;
		key[1] = b;
		if (mev_strmap_intern(&pairs, (const char *)key, sizeof key, (uint32_t)edges.n, &e, &added)) {
			rc = mev_error_oom();
			goto done;
		}
		if (added) {
			mev_edge ed = { a, b, 0, 0, 0 };
			if (MEV_VEC_PUSH(&edges, ed)) {
				rc = mev_error_oom();
				goto done;
			}
		}
		/* a pair given twice counts twice, as R's simplify() sums it */
		edges.v[e].lines += lines;
		edges.v[e].bytes += bytes;
	}
	/* every section has its own size, zero when the file has no row for it */
	for (uint32_t i = 0; i < mev_filemap_section_count(fm); i++) {
		uint32_t key[2] = { i, i };
		if (mev_strmap_get(&pairs, (const char *)key, sizeof key) < 0) {
			mev_edge ed = { i, i, 0, 0, 0 };
			if (MEV_VEC_PUSH(&edges, ed)) {
				rc = mev_error_oom();
				goto done;
			}
		}
	}
	if (!mev_filemap_section_count(fm)) {
		rc = mev_error_set(MEV_EINVAL, "%s: no rows", path);
		mev_error_hint("each row is 'from,to,lines,size'");
		goto done;
	}
	if ((rc = mev_graph_from_edges(&g, fm, edges.v, edges.n, &go)))
		goto done;
	in.tag = tag;
	for (int attempt = 0; attempt < 3; attempt++) {
		if ((rc = mev_store_begin(s)))
			break;
		rc = mev_store_put_graph_release(s, &in, fm, g);
		if (!rc) {
			rc = mev_store_commit(s);
			break;
		}
		mev_store_abort(s);
		if (rc != MEV_ELIMIT || (rc = mev_store_grow(s)))
			break;
		rc = MEV_ELIMIT;
	}
	if (!rc) {
		res->sections += mev_filemap_section_count(fm);
		res->edges += edges.n;
	}
done:
	MEV_VEC_FREE(&edges);
	mev_strmap_free(&ids);
	mev_strmap_free(&pairs);
	mev_graph_free(g);
	mev_filemap_free(fm);
	mev_buf_free(&f);
	return rc;
}

/* --- the directory -------------------------------------------------------- */

typedef struct {
	char *tag;
	char *name;
} csv_file;

static int file_cmp(const void *x, const void *y)
{
	return mev_tag_cmp(((const csv_file *)x)->tag, ((const csv_file *)y)->tag);
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a > b && strcmp(s + a - b, suf) == 0;
}

static int list_csvs(const char *dir, csv_file **out, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	MEV_VEC(csv_file) v = { 0 };
	int rc = 0;
	*out = NULL;
	*n = 0;
	if (!d) {
		mev_error_set(errno == ENOENT ? MEV_ENOTFOUND : MEV_EIO, "cannot open directory '%s': %s", dir,
			      strerror(errno));
		mev_error_hint("give the directory that holds one TAG.csv or TAG.csv.zst per release");
		return mev_error_code();
	}
	while ((e = readdir(d))) {
		const char *suf = ends_with(e->d_name, ".csv.zst") ? ".csv.zst"
				  : ends_with(e->d_name, ".csv") ? ".csv" : NULL;
		csv_file f;
		if (!suf || e->d_name[0] == '.')
			continue;
		f.name = strdup(e->d_name);
		f.tag = strndup(e->d_name, strlen(e->d_name) - strlen(suf));
		if (!f.name || !f.tag || MEV_VEC_PUSH(&v, f)) {
			free(f.name);
			free(f.tag);
			rc = mev_error_oom();
			break;
		}
	}
	closedir(d);
	if (!rc && v.n > 1) {
		qsort(v.v, v.n, sizeof *v.v, file_cmp);
		for (size_t i = 1; i < v.n && !rc; i++)
			if (strcmp(v.v[i].tag, v.v[i - 1].tag) == 0) {
				rc = mev_error_set(MEV_EINVAL, "'%s' holds both '%s' and '%s'", dir, v.v[i - 1].name,
						   v.v[i].name);
				mev_error_hint("keep one file per release");
			}
	}
	if (!rc && !v.n) {
		char sub[4096];
		struct stat st;
		snprintf(sub, sizeof sub, "%s/section_graph", dir);
		rc = mev_error_set(MEV_ENOTFOUND, "no TAG.csv or TAG.csv.zst files in '%s'", dir);
		if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			mev_error_hint("the graphs are in its section_graph/ directory: import '%s'", sub);
		else
			mev_error_hint("give the directory that holds one TAG.csv or TAG.csv.zst per release");
	}
	if (rc) {
		for (size_t i = 0; i < v.n; i++) {
			free(v.v[i].name);
			free(v.v[i].tag);
		}
		MEV_VEC_FREE(&v);
		return rc;
	}
	*out = v.v;
	*n = v.n;
	return 0;
}

/* A new store gets an identity saying it was imported; a walked one is refused. */
static int check_identity(mev_store *s, const char *store_dir, const char *csv_dir)
{
	mev_store_identity id;
	int rc = mev_store_get_identity(s, &id);
	if (rc == 0) {
		if (strcmp(id.dialect, MEV_IMPORT_DIALECT) == 0)
			return 0;
		mev_error_set(MEV_ESTORE, "store '%s' holds releases walked from repository '%s'", store_dir,
			      id.repo);
		mev_error_hint("import into a new store (--store NEWDIR)");
		return MEV_ESTORE;
	}
	if (rc != MEV_ENOTFOUND)
		return rc;
	mev_error_clear();
	memset(&id, 0, sizeof id);
	id.schema = MEV_STORE_SCHEMA;
	snprintf(id.repo, sizeof id.repo, "import-pasta %s", csv_dir);
	snprintf(id.dialect, sizeof id.dialect, "%s", MEV_IMPORT_DIALECT);
	id.created = (int64_t)time(NULL);
	snprintf(id.version, sizeof id.version, "%s", mev_version());
	if ((rc = mev_store_begin(s)))
		return rc;
	if ((rc = mev_store_set_identity(s, &id)) || (rc = mev_store_commit(s))) {
		mev_store_abort(s);
		return rc;
	}
	return 0;
}

int mev_import_pasta(const char *store_dir, const char *csv_dir, const mev_import_options *o,
		     mev_import_result *res)
{
	csv_file *files = NULL;
	size_t n = 0;
	mev_store *s = NULL;
	mev_buf raw = MEV_BUF_INIT, text = MEV_BUF_INIT;
	int lockfd = -1, rc;
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	memset(res, 0, sizeof *res);
	if ((rc = list_csvs(csv_dir, &files, &n)))
		return rc;
	res->files = n;
	if ((rc = mev_store_open(&s, store_dir, MEV_STORE_WRITE | MEV_STORE_CREATE)) ||
	    (rc = mev_store_lock(store_dir, &lockfd)) || (rc = check_identity(s, store_dir, csv_dir)))
		goto done;
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		int existed;
		if (o && o->stop && *o->stop) {
			rc = mev_error_set(MEV_EINTR, "interrupted after %zu of %zu releases", i, n);
			goto done;
		}
		if (o && o->progress)
			o->progress(o->ctx, i + 1, n, files[i].tag);
		snprintf(path, sizeof path, "%s/%s", csv_dir, files[i].name);
		if ((rc = read_file(path, &raw)))
			goto done;
		if (ends_with(files[i].name, ".zst")) {
			if ((rc = unzstd(path, &raw, &text)))
				goto done;
		} else {
			mev_buf t = raw;
			raw = text;
			text = t;
		}
		existed = mev_store_has_release(s, files[i].tag, NULL);
		if ((rc = import_one(s, path, files[i].tag, &text, res)))
			goto done;
		res->imported++;
		res->replaced += existed != 0;
	}
done:
	clock_gettime(CLOCK_MONOTONIC, &t1);
	res->seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	for (size_t i = 0; i < n; i++) {
		free(files[i].name);
		free(files[i].tag);
	}
	free(files);
	mev_buf_free(&raw);
	mev_buf_free(&text);
	if (lockfd >= 0)
		close(lockfd);
	mev_store_close(s);
	return rc;
}
