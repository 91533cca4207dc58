/*
 * Importing the study's published section graphs (CSV `from,to,lines,size`,
 * plain or zstd-compressed) as releases without file tables.
 */
#include "maintevo/import.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "maintevo/tags.h"
#include "maintevo/version.h"
#include "util/buf.h"
#include "util/clock.h"
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

enum { MAX_FILE = 1 << 30 };

/* --- reading a file, decompressing .zst ----------------------------------- */

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a > b && strcmp(s + a - b, suf) == 0;
}

static int read_file(const char *path, mev_buf *out)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;
	mev__buf_clear(out);
	if (!f)
		return mev_error_set(MEV_EIO, "cannot read '%s': %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (out->len + n > MAX_FILE) {
			fclose(f);
			return mev_error_set(MEV_ELIMIT, "'%s' is larger than 1 GiB", path);
		}
		if (mev__buf_put(out, chunk, n)) {
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

/* The text of a CSV file, decompressed when it is a .zst. */
static int read_text(const char *path, mev_buf *text)
{
	mev_buf raw = MEV_BUF_INIT;
	void *data;
	size_t len;
	int rc = read_file(path, ends_with(path, ".zst") ? &raw : text);
	if (rc || !ends_with(path, ".zst"))
		goto done;
	if ((rc = mev_store_decompress(&data, &len, raw.ptr, raw.len, MAX_FILE, path)))
		goto done;
	mev__buf_free(text);
	text->ptr = data;
	text->len = len;
	text->cap = len + 1;
done:
	mev__buf_free(&raw);
	return rc;
}

/* --- CSV ------------------------------------------------------------------ */

typedef struct {
	const char *p, *end;
	size_t line;             /* lines read (a quoted field may hold some) */
	size_t start;            /* the line the last record starts on */
} csv_rd;

/*
 * Read one record of up to `max` fields (RFC 4180: quoted fields, "" for a
 * quote, CRLF or LF).  Field texts go to `f` (each NUL-terminated).
 * Returns the number of fields, 0 at the end, -1 for a bad quote.
 */
static int csv_record(csv_rd *r, mev_buf *f, size_t *off, int max)
{
	int n = 0;
	mev__buf_clear(f);
	if (r->p >= r->end)
		return 0;
	r->start = ++r->line;
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
						mev__buf_putc(f, '"');
						r->p += 2;
						continue;
					}
					r->p++;
					break;
				}
				if (*r->p == '\n')
					r->line++;
				mev__buf_putc(f, *r->p++);
			}
			if (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '\r')
				return -1;
		} else {
			while (r->p < r->end && *r->p != ',' && *r->p != '\n' && *r->p != '\r')
				mev__buf_putc(f, *r->p++);
		}
		mev__buf_putc(f, '\0');
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
	if (mev__strmap_intern(ids, title, strlen(title), next, id, &added))
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

/* A release's graph being read: its sections, and an edge per pair. */
typedef struct {
	mev_filemap *fm;
	mev_strmap ids;          /* section title -> index */
	mev_strmap pairs;        /* (a, b) -> edge */
	MEV_VEC(mev_edge) edges;
} graph_rows;

static int bad_row(const char *path, size_t line, const char *what)
{
	mev_error_set(MEV_EINVAL, "%s:%zu: %s", path, line, what);
	mev_error_hint("each row is 'from,to,lines,size'");
	return MEV_EINVAL;
}

/* One row `from,to,lines,size` (fields f[off[0..3]]) added to the graph. */
static int add_row(graph_rows *gr, const char *path, size_t line, const mev_buf *f, const size_t *off)
{
	uint32_t a, b, key[2], e;
	uint64_t lines, bytes;
	int added, rc;
	if (parse_count(f->ptr + off[2], &lines) || parse_count(f->ptr + off[3], &bytes)) {
		mev_error_set(MEV_EINVAL, "%s:%zu: lines and size must be whole numbers, not '%s' and '%s'",
			      path, line, f->ptr + off[2], f->ptr + off[3]);
		mev_error_hint("each row is 'from,to,lines,size'");
		return MEV_EINVAL;
	}
	if (!f->ptr[off[0]] || !f->ptr[off[1]])
		return bad_row(path, line, "a section without a title");
	if ((rc = intern_section(gr->fm, &gr->ids, f->ptr + off[0], &a)) ||
	    (rc = intern_section(gr->fm, &gr->ids, f->ptr + off[1], &b)))
		return rc;
	key[0] = a < b ? a : b;
	key[1] = a < b ? b : a;
	if (mev__strmap_intern(&gr->pairs, (const char *)key, sizeof key, (uint32_t)gr->edges.n, &e, &added))
		return mev_error_oom();
	if (added) {
		mev_edge ed = { key[0], key[1], 0, 0, 0 };
		if (MEV_VEC_PUSH(&gr->edges, ed))
			return mev_error_oom();
	}
	/* a pair given twice counts twice, as R's simplify() sums it */
	gr->edges.v[e].lines += lines;
	gr->edges.v[e].bytes += bytes;
	return 0;
}

/* The rows of a CSV file after its header, then every section's own size
 * (zero when the file has no row for it). */
static int read_rows(graph_rows *gr, const char *path, const mev_buf *text)
{
	csv_rd r = { text->ptr, text->ptr + text->len, 0, 0 };
	mev_buf f = MEV_BUF_INIT;
	size_t off[8];
	int n, rc = 0;

	n = csv_record(&r, &f, off, 8);
	if (n < 4 || strcmp(f.ptr + off[0], "from") || strcmp(f.ptr + off[1], "to") ||
	    strcmp(f.ptr + off[2], "lines") || strcmp(f.ptr + off[3], "size")) {
		rc = mev_error_set(MEV_EINVAL, "%s:1: the header is not 'from,to,lines,size'", path);
		mev_error_hint("import-pasta reads the study's section_graph CSVs");
		goto done;
	}
	while (!rc && (n = csv_record(&r, &f, off, 8)) != 0) {
		if (n == 1 && !f.ptr[off[0]])
			continue; /* an empty line */
		if (n < 4)
			rc = bad_row(path, r.start, n < 0 ? "a quoted field does not end" : "fewer than 4 fields");
		else
			rc = add_row(gr, path, r.start, &f, off);
	}
	for (uint32_t i = 0; !rc && i < mev_filemap_section_count(gr->fm); i++) {
		uint32_t key[2] = { i, i };
		mev_edge ed = { i, i, 0, 0, 0 };
		if (mev__strmap_get(&gr->pairs, (const char *)key, sizeof key) < 0 && MEV_VEC_PUSH(&gr->edges, ed))
			rc = mev_error_oom();
	}
	if (!rc && !mev_filemap_section_count(gr->fm)) {
		rc = mev_error_set(MEV_EINVAL, "%s: no rows", path);
		mev_error_hint("each row is 'from,to,lines,size'");
	}
done:
	mev__buf_free(&f);
	return rc;
}

typedef struct {
	const mev_release_input *in;
	const mev_filemap *fm;
	const mev_graph *g;
} release_write;

static int write_release(mev_store *s, void *ctx)
{
	const release_write *rw = ctx;
	return mev_release_put_graph(s, rw->in, rw->fm, rw->g);
}

static int import_one(mev_store *s, const char *path, const char *tag, const mev_buf *text,
		      mev_import_result *res)
{
	graph_rows gr = { NULL, MEV_STRMAP_INIT, MEV_STRMAP_INIT, { 0 } };
	mev_graph *g = NULL;
	mev_graph_options go = { 1 };
	mev_release_input in = { 0 };
	release_write rw = { &in, NULL, NULL };
	int rc;

	in.tag = tag;
	if ((rc = mev_filemap_new(&gr.fm)) || (rc = read_rows(&gr, path, text)) ||
	    (rc = mev_graph_from_edges(&g, gr.fm, gr.edges.v, gr.edges.n, &go)))
		goto done;
	rw.fm = gr.fm;
	rw.g = g;
	if ((rc = mev_store_write(s, write_release, &rw)))
		goto done;
	res->sections += mev_filemap_section_count(gr.fm);
	res->edges += gr.edges.n;
done:
	MEV_VEC_FREE(&gr.edges);
	mev__strmap_free(&gr.ids);
	mev__strmap_free(&gr.pairs);
	mev_graph_free(g);
	mev_filemap_free(gr.fm);
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

static int write_identity(mev_store *s, void *ctx)
{
	return mev_release_identity_set(s, ctx);
}

/* A new store gets an identity saying it was imported; a walked one is refused. */
static int check_identity(mev_store *s, const char *store_dir, const char *csv_dir)
{
	mev_identity id;
	int rc = mev_release_identity_get(&id, s);
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
	return mev_store_write(s, write_identity, &id);
}

int mev_import_pasta(mev_import_result *res, const char *store_dir, const char *csv_dir,
		     const mev_progress *pr)
{
	csv_file *files = NULL;
	size_t n = 0;
	mev_store *s = NULL;
	mev_buf text = MEV_BUF_INIT;
	int lockfd = -1, rc;
	double t0 = mev__now();

	memset(res, 0, sizeof *res);
	if ((rc = list_csvs(csv_dir, &files, &n)))
		return rc;
	res->files = n;
	if ((rc = mev_store_open(&s, store_dir, MEV_STORE_WRITE | MEV_STORE_CREATE)) ||
	    (rc = mev_store_lock(&lockfd, store_dir)) || (rc = check_identity(s, store_dir, csv_dir)))
		goto done;
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		int existed;
		if (pr && pr->stop && *pr->stop) {
			rc = mev_error_set(MEV_EINTR, "interrupted after %zu of %zu releases", i, n);
			goto done;
		}
		if (pr && pr->progress)
			pr->progress(pr->ctx, i + 1, n, files[i].tag);
		snprintf(path, sizeof path, "%s/%s", csv_dir, files[i].name);
		if ((rc = read_text(path, &text)))
			goto done;
		existed = mev_release_has(NULL, s, files[i].tag);
		if ((rc = import_one(s, path, files[i].tag, &text, res)))
			goto done;
		res->imported++;
		res->replaced += existed != 0;
	}
done:
	res->seconds = mev__now() - t0;
	for (size_t i = 0; i < n; i++) {
		free(files[i].name);
		free(files[i].tag);
	}
	free(files);
	mev__buf_free(&text);
	if (lockfd >= 0)
		close(lockfd);
	mev_store_free(s);
	return rc;
}
