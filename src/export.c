/*
 * Tidy tables (CSV, JSON, JSON Lines) and graphs (GraphML, JSON, DOT) read
 * back from a store.  Every table goes through one small row writer, so the
 * three formats always agree on columns and order.
 */
#include "maintevo/export.h"
#include "maintevo/error.h"
#include "maintevo/csv.h"
#include "maintevo/tags.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "history.h"

#include <math.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* qsort() that accepts an empty (possibly NULL) array. */
static void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* --- tables and their columns ----------------------------------------------- */

typedef struct {
	const char *name;
	const char *type; /* "string", "integer", "number", "date" */
} column;

static const column releases_cols[] = {
	{ "release", "string" }, { "position", "integer" }, { "commit", "string" },
	{ "date", "date" }, { "files", "integer" }, { "lines", "integer" },
	{ "bytes", "integer" }, { "sections", "integer" }, { "sections_with_files", "integer" },
	{ "sections_without_maintainer", "integer" }, { "sections_orphan", "integer" },
	{ "uncovered_files", "integer" }, { "uncovered_lines", "integer" },
	{ "edges", "integer" }, { "notes", "integer" }, { "maintainers_files", "integer" },
	{ "clusters", "integer" }, { "modularity", "number" }, { NULL, NULL }
};
static const column sections_cols[] = {
	{ "release", "string" }, { "section", "string" }, { "status", "string" },
	{ "maintainers", "integer" }, { "reviewers", "integer" }, { "lists", "integer" },
	{ "trees", "integer" }, { "patterns", "integer" }, { "files", "integer" },
	{ "lines", "integer" }, { "bytes", "integer" }, { "cluster", "integer" },
	{ "representative", "string" }, { "lineage", "integer" }, { NULL, NULL }
};
static const column edges_cols[] = {
	{ "release", "string" }, { "from", "string" }, { "to", "string" },
	{ "lines", "integer" }, { "bytes", "integer" }, { "files", "integer" }, { NULL, NULL }
};
static const column clusters_cols[] = {
	{ "release", "string" }, { "method", "string" }, { "cluster", "integer" },
	{ "representative", "string" }, { "section", "string" }, { "section_lines", "integer" },
	{ "cluster_sections", "integer" }, { "cluster_lines", "integer" },
	{ "code_lines", "integer" }, { "lineage", "integer" }, { NULL, NULL }
};
static const column events_cols[] = {
	{ "from_release", "string" }, { "to_release", "string" }, { "event", "string" },
	{ "lineage", "integer" }, { "from_cluster", "string" }, { "to_cluster", "string" },
	{ "similarity", "number" }, { "from_lines", "integer" }, { "to_lines", "integer" },
	{ "method", "string" }, { NULL, NULL }
};
static const column lineages_cols[] = {
	{ "lineage", "integer" }, { "name", "string" }, { "first_release", "string" },
	{ "last_release", "string" }, { "parent", "integer" }, { "peak_lines", "integer" },
	{ "releases", "integer" }, { "method", "string" }, { NULL, NULL }
};
static const column files_cols[] = {
	{ "release", "string" }, { "path", "string" }, { "kind", "string" },
	{ "lines", "integer" }, { "bytes", "integer" }, { "section", "string" },
	{ "cluster", "integer" }, { "representative", "string" }, { "lineage", "integer" },
	{ NULL, NULL }
};
static const column changes_cols[] = {
	{ "from_release", "string" }, { "to_release", "string" }, { "change", "string" },
	{ "section", "string" }, { "new_section", "string" }, { "lines", "integer" },
	{ "coverage", "number" }, { NULL, NULL }
};

static const struct {
	const char *name;
	const column *cols;
} tables[MEV_TABLE_COUNT] = {
	[MEV_TABLE_RELEASES] = { "releases", releases_cols },
	[MEV_TABLE_SECTIONS] = { "sections", sections_cols },
	[MEV_TABLE_EDGES] = { "edges", edges_cols },
	[MEV_TABLE_CLUSTERS] = { "clusters", clusters_cols },
	[MEV_TABLE_EVENTS] = { "events", events_cols },
	[MEV_TABLE_LINEAGES] = { "lineages", lineages_cols },
	[MEV_TABLE_FILES] = { "files", files_cols },
	[MEV_TABLE_SECTION_CHANGES] = { "section_changes", changes_cols },
};

const char *mev_table_name(mev_table t)
{
	return (unsigned)t < MEV_TABLE_COUNT ? tables[t].name : "";
}

int mev_table_parse(const char *name)
{
	for (int i = 0; i < MEV_TABLE_COUNT; i++)
		if (strcmp(name, tables[i].name) == 0)
			return i;
	if (strcmp(name, "section-changes") == 0)
		return MEV_TABLE_SECTION_CHANGES;
	return -1;
}

const char *mev_table_column(mev_table t, size_t i, const char **type)
{
	const column *c;
	if ((unsigned)t >= MEV_TABLE_COUNT)
		return NULL;
	c = tables[t].cols;
	for (size_t k = 0; k < i; k++)
		if (!c[k].name)
			return NULL;
	if (type)
		*type = c[i].type;
	return c[i].name;
}

int mev_export_format_parse(const char *name)
{
	if (strcmp(name, "csv") == 0)
		return MEV_EXPORT_CSV;
	if (strcmp(name, "json") == 0)
		return MEV_EXPORT_JSON;
	if (strcmp(name, "jsonl") == 0)
		return MEV_EXPORT_JSONL;
	return -1;
}

/* --- the row writer ------------------------------------------------------------ */

/*
 * rw_begin(), then per row one rw_* call per column in order and
 * rw_end_row(), then rw_finish().  CSV: a header line, then the rows; JSON:
 * "[" objects "]"; JSON Lines: one object per line.  A missing value is an
 * empty CSV field and a JSON null.
 */
typedef struct {
	FILE *out;
	mev_export_format fmt;
	const column *cols;
	size_t col;
	uint64_t rows;
} row_writer;

static void rw_begin(row_writer *w, FILE *out, mev_export_format fmt, const column *cols)
{
	w->out = out;
	w->fmt = fmt;
	w->cols = cols;
	w->col = 0;
	w->rows = 0;
	if (fmt == MEV_EXPORT_CSV) {
		for (size_t i = 0; cols[i].name; i++) {
			if (i)
				putc(',', out);
			fputs(cols[i].name, out);
		}
		putc('\n', out);
	} else if (fmt == MEV_EXPORT_JSON) {
		putc('[', out);
	}
}

/* Start the next field: separators and, for JSON, the key. */
static void rw_field(row_writer *w)
{
	if (w->fmt == MEV_EXPORT_CSV) {
		if (w->col)
			putc(',', w->out);
	} else {
		if (w->col == 0)
			fputs(w->fmt == MEV_EXPORT_JSON ? (w->rows ? ",\n{" : "\n{") : "{", w->out);
		else
			fputs(", ", w->out);
		putc('"', w->out);
		fputs(w->cols[w->col].name, w->out);
		fputs("\": ", w->out);
	}
	w->col++;
}

static void rw_strn(row_writer *w, const char *s, size_t len)
{
	rw_field(w);
	if (w->fmt == MEV_EXPORT_CSV)
		mev_csv_field(w->out, s, len);
	else
		mev_json_str(w->out, s, len);
}

static void rw_str(row_writer *w, const char *s) { rw_strn(w, s, strlen(s)); }

static void rw_null(row_writer *w)
{
	rw_field(w);
	if (w->fmt != MEV_EXPORT_CSV)
		fputs("null", w->out);
}

/* A string column where "" means "no value" (JSON null). */
static void rw_str_or_null(row_writer *w, const char *s)
{
	if (s && *s)
		rw_str(w, s);
	else
		rw_null(w);
}

static void rw_u64(row_writer *w, uint64_t v)
{
	rw_field(w);
	fprintf(w->out, "%" PRIu64, v);
}

static void rw_i64_or_null(row_writer *w, int64_t v)
{
	if (v < 0) {
		rw_null(w);
		return;
	}
	rw_field(w);
	fprintf(w->out, "%" PRId64, v);
}

/* A number, or null (empty) when it is not one (NaN). */
static void rw_num(row_writer *w, double v)
{
	if (isnan(v)) {
		rw_null(w);
		return;
	}
	rw_field(w);
	fprintf(w->out, "%.6g", v);
}

static void rw_end_row(row_writer *w)
{
	if (w->fmt == MEV_EXPORT_CSV)
		putc('\n', w->out);
	else
		fputs(w->fmt == MEV_EXPORT_JSON ? "}" : "}\n", w->out);
	w->col = 0;
	w->rows++;
}

static int rw_finish(row_writer *w)
{
	if (w->fmt == MEV_EXPORT_JSON)
		fputs(w->rows ? "\n]\n" : "]\n", w->out);
	if (ferror(w->out))
		return mev_error_set(MEV_EIO, "cannot write the table");
	return 0;
}

/* --- clusters of a section ------------------------------------------------------- */

/* Cluster (1-based), representative and lineage of a section of release r:
 * NULL / -1 when the release is not clustered, not tracked or the section
 * is left out of the clustering. */
typedef struct {
	int64_t cluster;
	const char *representative;
	int64_t lineage;
} member;

static member member_of(const history *h, int64_t r, const char *title)
{
	member m = { -1, NULL, -1 };
	int64_t k = r >= 0 && title ? history_cluster_of(h, (size_t)r, title) : -1;
	if (k >= 0) {
		const mev_clustering *c = h->rel[r].c;
		m.cluster = k + 1;
		m.representative = mev_clustering_title(c, mev_clustering_representative(c, (uint32_t)k));
		m.lineage = h->rel[r].lineage[k];
	}
	return m;
}

static void rw_member(row_writer *w, const member *m)
{
	rw_i64_or_null(w, m->cluster);
	rw_str_or_null(w, m->representative);
	rw_i64_or_null(w, m->lineage);
}

/* --- helpers ------------------------------------------------------------------ */

static void fmt_date(char out[32], int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	gmtime_r(&tt, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int is_orphan(const char *status)
{
	return strncasecmp(status, "orphan", 6) == 0;
}

static void census_of(const mev_filemap *secs, mev_section_census *c)
{
	const mev_section_info *si = mev_filemap_sections(secs);
	size_t n = mev_filemap_section_count(secs);
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < n; i++) {
		if (si[i].is_rest)
			continue;
		c->sections++;
		c->no_maintainer += si[i].n_maintainers == 0;
		c->orphan += is_orphan(si[i].status);
	}
}

int mev_export_census(mev_store *s, const char *tag, mev_section_census *out)
{
	mev_filemap *secs = NULL;
	mev_graph *g = NULL;
	int rc = mev_store_load_graph(s, tag, 0, &secs, &g);
	if (!rc)
		census_of(secs, out);
	mev_graph_free(g);
	mev_filemap_free(secs);
	return rc;
}

/* The range of h's releases to export: all, or only `tag`. */
static void release_range(const history *h, const char *tag, size_t *first, size_t *end)
{
	int64_t r = history_find(h, tag);
	*first = r >= 0 ? (size_t)r : 0;
	*end = r >= 0 ? (size_t)r + 1 : h->n;
}

/* Own sizes of the sections (self edges), by section index. */
static int self_sizes(const mev_graph *g, size_t nsec, mev_edge **out)
{
	const mev_edge *e = mev_graph_edges(g);
	mev_edge *sz = calloc(nsec + 1, sizeof *sz);
	if (!sz)
		return mev_error_oom();
	for (size_t i = 0; i < mev_graph_edge_count(g); i++)
		if (e[i].a == e[i].b)
			sz[e[i].a] = e[i];
	*out = sz;
	return 0;
}

static const mev_filemap *title_sort_fm; /* qsort has no context argument */

static int title_index_cmp(const void *x, const void *y)
{
	const mev_section_info *s = mev_filemap_sections(title_sort_fm);
	return strcmp(s[*(const uint32_t *)x].title, s[*(const uint32_t *)y].title);
}

/* Section indices sorted by title (THE REST left out unless keep_rest). */
static int sorted_sections(const mev_filemap *fm, int keep_rest, uint32_t **out, size_t *n)
{
	const mev_section_info *si = mev_filemap_sections(fm);
	size_t nsec = mev_filemap_section_count(fm), k = 0;
	uint32_t *v = malloc((nsec + 1) * sizeof *v);
	if (!v)
		return mev_error_oom();
	for (size_t i = 0; i < nsec; i++)
		if (keep_rest || !si[i].is_rest)
			v[k++] = (uint32_t)i;
	title_sort_fm = fm;
	sort(v, k, sizeof *v, title_index_cmp);
	*out = v;
	*n = k;
	return 0;
}

/* --- releases ------------------------------------------------------------------ */

static int export_releases(mev_store *s, const history *h, const mev_export_options *opt,
			   row_writer *w)
{
	size_t first, end;
	int rc = 0;
	release_range(h, opt->release, &first, &end);
	for (size_t i = first; !rc && i < end; i++) {
		const mev_release *r = &h->list[i];
		const mev_clustering *c = h->rel[i].c;
		mev_section_census cs;
		char hex[41], date[32];
		if ((rc = mev_export_census(s, r->tag, &cs)))
			break;
		mev_oid_fmt(hex, &r->commit);
		fmt_date(date, r->time);
		rw_str(w, r->tag);
		rw_u64(w, i + 1);
		rw_str(w, hex);
		rw_str(w, date);
		rw_u64(w, r->files);
		rw_u64(w, r->lines);
		rw_u64(w, r->bytes);
		rw_u64(w, r->sections);
		rw_u64(w, r->sections_with_files);
		rw_u64(w, cs.no_maintainer);
		rw_u64(w, cs.orphan);
		rw_u64(w, r->uncovered_files);
		rw_u64(w, r->uncovered_lines);
		rw_u64(w, r->edges);
		rw_u64(w, r->diags);
		rw_u64(w, r->maintainer_files);
		rw_i64_or_null(w, c ? (int64_t)mev_clustering_count(c) : -1);
		rw_num(w, c ? mev_clustering_modularity(c) : NAN);
		rw_end_row(w);
	}
	return rc;
}

/* --- sections and edges ---------------------------------------------------------- */

static int export_sections(mev_store *s, const history *h, const mev_export_options *opt,
			   row_writer *w)
{
	size_t first, end;
	int rc = 0;
	release_range(h, opt->release, &first, &end);
	for (size_t i = first; !rc && i < end; i++) {
		mev_filemap *fm = NULL;
		mev_graph *g = NULL;
		mev_edge *sz = NULL;
		uint32_t *order = NULL;
		size_t k = 0;
		if (!(rc = mev_store_load_graph(s, h->list[i].tag, opt->keep_rest, &fm, &g)) &&
		    !(rc = self_sizes(g, mev_filemap_section_count(fm), &sz)) &&
		    !(rc = sorted_sections(fm, opt->keep_rest, &order, &k))) {
			const mev_section_info *si = mev_filemap_sections(fm);
			for (size_t j = 0; j < k; j++) {
				const mev_section_info *x = &si[order[j]];
				member m = member_of(h, (int64_t)i, x->title);
				rw_str(w, h->list[i].tag);
				rw_str(w, x->title);
				rw_str_or_null(w, x->status);
				rw_u64(w, x->n_maintainers);
				rw_u64(w, x->n_reviewers);
				rw_u64(w, x->n_lists);
				rw_u64(w, x->n_trees);
				rw_u64(w, x->n_patterns);
				rw_u64(w, sz[order[j]].files);
				rw_u64(w, sz[order[j]].lines);
				rw_u64(w, sz[order[j]].bytes);
				rw_member(w, &m);
				rw_end_row(w);
			}
		}
		free(order);
		free(sz);
		mev_graph_free(g);
		mev_filemap_free(fm);
	}
	return rc;
}

static int export_edges(mev_store *s, const history *h, const mev_export_options *opt,
			row_writer *w)
{
	size_t first, end;
	int rc = 0;
	release_range(h, opt->release, &first, &end);
	for (size_t i = first; !rc && i < end; i++) {
		mev_filemap *fm = NULL;
		mev_graph *g = NULL;
		if (!(rc = mev_store_load_graph(s, h->list[i].tag, opt->keep_rest, &fm, &g))) {
			const mev_section_info *si = mev_filemap_sections(fm);
			const mev_edge *e = mev_graph_edges(g);
			for (size_t j = 0; j < mev_graph_edge_count(g); j++) {
				if (e[j].a == e[j].b)
					continue;
				rw_str(w, h->list[i].tag);
				rw_str(w, si[e[j].a].title);
				rw_str(w, si[e[j].b].title);
				rw_u64(w, e[j].lines);
				rw_u64(w, e[j].bytes);
				rw_u64(w, e[j].files);
				rw_end_row(w);
			}
		}
		mev_graph_free(g);
		mev_filemap_free(fm);
	}
	return rc;
}

/* --- files ----------------------------------------------------------------------- */

/* The rows of one file: one per covering section (by title), or one with an
 * empty section when none covers it. */
static void file_rows(row_writer *w, const history *h, size_t r, const mev_filemap *fm,
		      const mev_file_row *row, int keep_rest)
{
	const mev_section_info *si = mev_filemap_sections(fm);
	const uint32_t *ids;
	size_t n = mev_filemap_set(&ids, fm, row->set), shown = 0, k = 0;
	uint32_t sorted[64], *v = n <= 64 ? sorted : malloc(n * sizeof *v);
	if (!v) { /* out of memory: the first 64 sections only */
		v = sorted;
		n = 64;
	}
	for (size_t i = 0; i < n; i++)
		if (keep_rest || !si[ids[i]].is_rest)
			v[k++] = ids[i];
	title_sort_fm = fm;
	sort(v, k, sizeof *v, title_index_cmp);
	do {
		const char *title = shown < k ? si[v[shown]].title : NULL;
		member m = member_of(h, (int64_t)r, title);
		rw_str(w, h->list[r].tag);
		rw_strn(w, row->path, row->path_len);
		rw_str(w, row->kind == MEV_KIND_LINK ? "link" : "file");
		rw_u64(w, row->lines);
		rw_u64(w, row->bytes);
		rw_str_or_null(w, title);
		rw_member(w, &m);
		rw_end_row(w);
	} while (++shown < k);
	if (v != sorted)
		free(v);
}

static const mev_file_row *find_row(const mev_filemap *fm, const char *path)
{
	const mev_file_row *rows = mev_filemap_rows(fm);
	size_t lo = 0, hi = mev_filemap_count(fm), len = strlen(path);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, m = rows[mid].path_len < len ? rows[mid].path_len : len;
		int c = memcmp(rows[mid].path, path, m);
		if (!c)
			c = rows[mid].path_len < len ? -1 : rows[mid].path_len > len;
		if (c == 0)
			return &rows[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int export_files(mev_store *s, const history *h, const mev_export_options *opt,
			row_writer *w)
{
	size_t first, end;
	int rc = 0;
	release_range(h, opt->release, &first, &end);
	for (size_t i = first; !rc && i < end; i++) {
		mev_filemap *fm = NULL;
		if (!h->list[i].has_files) {
			if (opt->release) {
				rc = mev_error_set(MEV_ENOTFOUND, "release '%s' has no file table "
						   "(it was imported as a graph)", h->list[i].tag);
				mev_error_hint("walk the repository with 'maintevo walk' to get file tables");
			}
			continue;
		}
		if ((rc = mev_store_load_filemap(s, h->list[i].tag, &fm)))
			break;
		if (opt->path) {
			const mev_file_row *row = find_row(fm, opt->path);
			if (row)
				file_rows(w, h, i, fm, row, opt->keep_rest);
		} else {
			const mev_file_row *rows = mev_filemap_rows(fm);
			for (size_t j = 0; j < mev_filemap_count(fm); j++)
				file_rows(w, h, i, fm, &rows[j], opt->keep_rest);
		}
		mev_filemap_free(fm);
	}
	return rc;
}

/* --- clusters, events, lineages, section changes ----------------------------------- */

typedef struct {
	uint32_t section;
	uint64_t lines;
	const char *title;
} cl_row;

static int cl_row_cmp(const void *x, const void *y)
{
	const cl_row *a = x, *b = y;
	if (a->lines != b->lines)
		return a->lines < b->lines ? 1 : -1;
	return strcmp(a->title, b->title);
}

static int not_clustered(const history *h)
{
	int rc = mev_error_set(MEV_ENOTFOUND, "the store is not clustered with %s", h->key);
	mev_error_hint("run 'maintevo cluster' (with the same --method and options) first");
	return rc;
}

static int not_tracked(const history *h)
{
	int rc = mev_error_set(MEV_ENOTFOUND, "the store is not tracked with %s", h->key);
	mev_error_hint("run 'maintevo track' (with the same --method and options) first");
	return rc;
}

/* Rows by cluster number, then section lines (largest first), then title. */
static int export_clusters(const history *h, const mev_export_options *opt, row_writer *w)
{
	size_t first, end;
	release_range(h, opt->release, &first, &end);
	for (size_t i = first; i < end; i++) {
		const mev_clustering *c = h->rel[i].c;
		size_t ns, n = 0;
		cl_row *rows;
		if (!c)
			continue;
		ns = mev_clustering_section_count(c);
		if (!(rows = malloc((ns + 1) * sizeof *rows)))
			return mev_error_oom();
		for (uint32_t k = 0; k < mev_clustering_count(c); k++) {
			n = 0;
			for (uint32_t j = 0; j < ns; j++)
				if (mev_clustering_of(c, j) == k) {
					cl_row x = { j, mev_clustering_section_lines(c, j), mev_clustering_title(c, j) };
					rows[n++] = x;
				}
			sort(rows, n, sizeof *rows, cl_row_cmp);
			for (size_t j = 0; j < n; j++) {
				rw_str(w, h->list[i].tag);
				rw_str(w, h->key);
				rw_u64(w, k + 1);
				rw_str(w, mev_clustering_title(c, mev_clustering_representative(c, k)));
				rw_str(w, rows[j].title);
				rw_u64(w, rows[j].lines);
				rw_u64(w, mev_clustering_size(c, k));
				rw_u64(w, mev_clustering_lines(c, k));
				rw_i64_or_null(w, h->rel[i].code[k]);
				rw_i64_or_null(w, h->rel[i].lineage[k]);
				rw_end_row(w);
			}
		}
		free(rows);
	}
	return 0;
}

static void export_events(const history *h, const mev_export_options *opt, row_writer *w)
{
	for (size_t i = 0; i < h->events.n; i++) {
		const mev_event *e = &h->events.v[i];
		if (opt->release && strcmp(e->to_release, opt->release) != 0)
			continue;
		rw_str(w, e->from_release);
		rw_str(w, e->to_release);
		rw_str(w, mev_event_name(e->kind));
		rw_u64(w, e->lineage);
		rw_str_or_null(w, e->from_cluster);
		rw_str_or_null(w, e->to_cluster);
		rw_num(w, e->similarity);
		rw_i64_or_null(w, e->from_lines);
		rw_i64_or_null(w, e->to_lines);
		rw_str(w, h->key);
		rw_end_row(w);
	}
}

static void export_lineages(const history *h, row_writer *w)
{
	for (size_t i = 0; i < h->lineages.n; i++) {
		const mev_lineage *l = &h->lineages.v[i];
		rw_u64(w, l->id);
		rw_str(w, l->name);
		rw_str(w, l->first_release);
		rw_str(w, l->last_release);
		rw_i64_or_null(w, l->parent ? (int64_t)l->parent : -1);
		rw_u64(w, l->peak_lines);
		rw_u64(w, l->releases);
		rw_str(w, h->key);
		rw_end_row(w);
	}
}

static void export_section_changes(const mev_section_change_list *l, const mev_export_options *opt,
				   row_writer *w)
{
	for (size_t i = 0; i < l->n; i++) {
		const mev_section_change *c = &l->v[i];
		if (opt->release && strcmp(c->to_release, opt->release) != 0)
			continue;
		rw_str(w, c->from_release);
		rw_str(w, c->to_release);
		rw_str(w, mev_section_change_name(c->kind));
		rw_str(w, c->section);
		rw_str_or_null(w, c->new_section);
		rw_u64(w, c->lines);
		rw_num(w, c->coverage);
		rw_end_row(w);
	}
}

int mev_export_table(mev_store *s, mev_table t, const mev_export_options *opt, FILE *out)
{
	static const mev_export_options defaults = { 0 };
	static const unsigned need[MEV_TABLE_COUNT] = {
		[MEV_TABLE_RELEASES] = HISTORY_CLUSTERS,
		[MEV_TABLE_SECTIONS] = HISTORY_CLUSTERS | HISTORY_TRACKS,
		[MEV_TABLE_CLUSTERS] = HISTORY_CLUSTERS | HISTORY_TRACKS,
		[MEV_TABLE_EVENTS] = HISTORY_TRACKS,
		[MEV_TABLE_LINEAGES] = HISTORY_TRACKS,
		[MEV_TABLE_FILES] = HISTORY_CLUSTERS | HISTORY_TRACKS,
	};
	mev_section_change_list changes = { 0 };
	history h;
	row_writer w;
	int rc;
	if (!opt)
		opt = &defaults;
	if ((unsigned)t >= MEV_TABLE_COUNT)
		return mev_error_set(MEV_EINVAL, "unknown table %d", (int)t);
	if (opt->path && t != MEV_TABLE_FILES)
		return mev_error_set(MEV_EINVAL, "--path goes with the files table only");
	if (t == MEV_TABLE_FILES && !opt->release == !opt->path) {
		rc = mev_error_set(MEV_EINVAL, "the files table needs --release TAG or --path PATH");
		mev_error_hint("--release lists every file of one release, --path follows one file "
			       "over all releases");
		return rc;
	}
	/* every table reads the releases (and clusters where they exist) */
	if ((rc = history_load(&h, s, opt->method, t == MEV_TABLE_EVENTS ? NULL : opt->release,
			       need[t])))
		goto done;
	/* what is missing is said before the header is written */
	if (t == MEV_TABLE_CLUSTERS && !h.clustered) {
		rc = not_clustered(&h);
		goto done;
	}
	if ((t == MEV_TABLE_EVENTS || t == MEV_TABLE_LINEAGES) && !h.tracked) {
		rc = not_tracked(&h);
		goto done;
	}
	if (t == MEV_TABLE_SECTION_CHANGES &&
	    (rc = mev_track_section_changes(s, NULL, opt->release, &changes)))
		goto done;
	rw_begin(&w, out, opt->format, tables[t].cols);
	switch (t) {
	case MEV_TABLE_RELEASES: rc = export_releases(s, &h, opt, &w); break;
	case MEV_TABLE_SECTIONS: rc = export_sections(s, &h, opt, &w); break;
	case MEV_TABLE_EDGES: rc = export_edges(s, &h, opt, &w); break;
	case MEV_TABLE_CLUSTERS: rc = export_clusters(&h, opt, &w); break;
	case MEV_TABLE_EVENTS: export_events(&h, opt, &w); break;
	case MEV_TABLE_LINEAGES: export_lineages(&h, &w); break;
	case MEV_TABLE_SECTION_CHANGES: export_section_changes(&changes, opt, &w); break;
	default: rc = export_files(s, &h, opt, &w); break;
	}
	if (!rc)
		rc = rw_finish(&w);
done:
	mev_section_change_list_free(&changes);
	history_free(&h);
	return rc;
}

/* --- graphs ------------------------------------------------------------------------ */

int mev_export_graph_format_parse(const char *name)
{
	if (strcmp(name, "graphml") == 0)
		return MEV_EXPORT_GRAPHML;
	if (strcmp(name, "json") == 0)
		return MEV_EXPORT_GRAPH_JSON;
	if (strcmp(name, "dot") == 0)
		return MEV_EXPORT_DOT;
	return -1;
}

/* A vertex or an edge of an exported graph, whatever its level. */
typedef struct {
	const char *name;
	const char *status;       /* sections only */
	member m;                 /* cluster, representative, lineage */
	uint64_t lines, bytes, files, maintainers, sections;
	int64_t code;             /* clusters: lines of their files, each once (-1: unknown) */
} gvertex;

typedef struct {
	uint32_t a, b;
	uint64_t lines, bytes, files;
} gedge;

typedef struct {
	MEV_VEC(gvertex) v;
	MEV_VEC(gedge) e;
	int meta;
} xgraph;

/* DOT quoted string: '"' and '\' escaped, newlines as \n, other control
 * bytes dropped (titles are UTF-8 already). */
static void dot_str(FILE *out, const char *s)
{
	putc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			putc('\\', out);
		if (*p == '\n')
			fputs("\\n", out);
		else if (*p >= 0x20 || *p == '\t')
			putc(*p, out);
	}
	putc('"', out);
}

static void xml_data(FILE *out, const char *key, const char *value)
{
	fprintf(out, "      <data key=\"%s\">", key);
	mev_xml_str(out, value, strlen(value));
	fputs("</data>\n", out);
}

static void write_graphml(const xgraph *g, FILE *out)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"\n"
	      "    xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
	      "    xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
	      "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n"
	      "  <key id=\"v_name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n"
	      "  <key id=\"v_lines\" for=\"node\" attr.name=\"lines\" attr.type=\"long\"/>\n"
	      "  <key id=\"v_bytes\" for=\"node\" attr.name=\"bytes\" attr.type=\"long\"/>\n"
	      "  <key id=\"v_files\" for=\"node\" attr.name=\"files\" attr.type=\"long\"/>\n",
	      out);
	if (g->meta)
		fputs("  <key id=\"v_sections\" for=\"node\" attr.name=\"sections\" attr.type=\"long\"/>\n"
		      "  <key id=\"v_code_lines\" for=\"node\" attr.name=\"code_lines\" attr.type=\"long\"/>\n",
		      out);
	else
		fputs("  <key id=\"v_status\" for=\"node\" attr.name=\"status\" attr.type=\"string\"/>\n"
		      "  <key id=\"v_maintainers\" for=\"node\" attr.name=\"maintainers\" attr.type=\"int\"/>\n",
		      out);
	fputs("  <key id=\"v_cluster\" for=\"node\" attr.name=\"cluster\" attr.type=\"long\"/>\n"
	      "  <key id=\"v_representative\" for=\"node\" attr.name=\"representative\" "
	      "attr.type=\"string\"/>\n"
	      "  <key id=\"v_lineage\" for=\"node\" attr.name=\"lineage\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_lines\" for=\"edge\" attr.name=\"lines\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_bytes\" for=\"edge\" attr.name=\"bytes\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_files\" for=\"edge\" attr.name=\"files\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_weight\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n",
	      out);
	fprintf(out, "  <graph id=\"%s\" edgedefault=\"undirected\">\n", g->meta ? "clusters" : "sections");
	for (size_t i = 0; i < g->v.n; i++) {
		const gvertex *v = &g->v.v[i];
		fprintf(out, "    <node id=\"n%zu\">\n", i);
		xml_data(out, "v_name", v->name);
		fprintf(out, "      <data key=\"v_lines\">%" PRIu64 "</data>\n"
			"      <data key=\"v_bytes\">%" PRIu64 "</data>\n"
			"      <data key=\"v_files\">%" PRIu64 "</data>\n", v->lines, v->bytes, v->files);
		if (g->meta) {
			fprintf(out, "      <data key=\"v_sections\">%" PRIu64 "</data>\n", v->sections);
			if (v->code >= 0)
				fprintf(out, "      <data key=\"v_code_lines\">%" PRId64 "</data>\n", v->code);
		} else {
			xml_data(out, "v_status", v->status);
			fprintf(out, "      <data key=\"v_maintainers\">%" PRIu64 "</data>\n", v->maintainers);
		}
		if (v->m.cluster >= 0)
			fprintf(out, "      <data key=\"v_cluster\">%" PRId64 "</data>\n", v->m.cluster);
		if (v->m.representative)
			xml_data(out, "v_representative", v->m.representative);
		if (v->m.lineage >= 0)
			fprintf(out, "      <data key=\"v_lineage\">%" PRId64 "</data>\n", v->m.lineage);
		fputs("    </node>\n", out);
	}
	for (size_t i = 0; i < g->e.n; i++) {
		const gedge *e = &g->e.v[i];
		fprintf(out, "    <edge source=\"n%u\" target=\"n%u\">\n"
			"      <data key=\"e_lines\">%" PRIu64 "</data>\n"
			"      <data key=\"e_bytes\">%" PRIu64 "</data>\n"
			"      <data key=\"e_files\">%" PRIu64 "</data>\n"
			"      <data key=\"e_weight\">%" PRIu64 "</data>\n    </edge>\n",
			e->a, e->b, e->lines, e->bytes, e->files, e->lines);
	}
	fputs("  </graph>\n</graphml>\n", out);
}

static void json_int_or_null(FILE *out, const char *key, int64_t v)
{
	if (v >= 0)
		fprintf(out, ", \"%s\": %" PRId64, key, v);
	else
		fprintf(out, ", \"%s\": null", key);
}

static void write_json(const xgraph *g, FILE *out)
{
	fprintf(out, "{\"directed\": false, \"multigraph\": false, \"graph\": {\"level\": \"%s\"},\n"
		" \"nodes\": [", g->meta ? "clusters" : "sections");
	for (size_t i = 0; i < g->v.n; i++) {
		const gvertex *v = &g->v.v[i];
		fputs(i ? ",\n  {\"id\": " : "\n  {\"id\": ", out);
		mev_json_str(out, v->name, strlen(v->name));
		fprintf(out, ", \"lines\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"files\": %" PRIu64,
			v->lines, v->bytes, v->files);
		if (g->meta) {
			fprintf(out, ", \"sections\": %" PRIu64, v->sections);
			json_int_or_null(out, "code_lines", v->code);
		} else {
			fputs(", \"status\": ", out);
			mev_json_str(out, v->status, strlen(v->status));
			fprintf(out, ", \"maintainers\": %" PRIu64, v->maintainers);
		}
		json_int_or_null(out, "cluster", v->m.cluster);
		fputs(", \"representative\": ", out);
		if (v->m.representative)
			mev_json_str(out, v->m.representative, strlen(v->m.representative));
		else
			fputs("null", out);
		json_int_or_null(out, "lineage", v->m.lineage);
		fputs("}", out);
	}
	fputs("\n ],\n \"links\": [", out);
	for (size_t i = 0; i < g->e.n; i++) {
		const gedge *e = &g->e.v[i];
		fputs(i ? ",\n  {\"source\": " : "\n  {\"source\": ", out);
		mev_json_str(out, g->v.v[e->a].name, strlen(g->v.v[e->a].name));
		fputs(", \"target\": ", out);
		mev_json_str(out, g->v.v[e->b].name, strlen(g->v.v[e->b].name));
		fprintf(out, ", \"lines\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"files\": %" PRIu64
			", \"weight\": %" PRIu64 "}", e->lines, e->bytes, e->files, e->lines);
	}
	fputs("\n ]\n}\n", out);
}

static void write_dot(const xgraph *g, const char *tag, FILE *out)
{
	fputs("graph ", out);
	dot_str(out, tag);
	fputs(" {\n", out);
	for (size_t i = 0; i < g->v.n; i++) {
		const gvertex *v = &g->v.v[i];
		fprintf(out, "  n%zu [label=", i);
		dot_str(out, v->name);
		fprintf(out, ", lines=%" PRIu64 ", bytes=%" PRIu64 ", files=%" PRIu64, v->lines,
			v->bytes, v->files);
		if (g->meta) {
			fprintf(out, ", sections=%" PRIu64, v->sections);
			if (v->code >= 0)
				fprintf(out, ", code_lines=%" PRId64, v->code);
		} else {
			fputs(", status=", out);
			dot_str(out, v->status);
			fprintf(out, ", maintainers=%" PRIu64, v->maintainers);
		}
		if (v->m.cluster >= 0)
			fprintf(out, ", cluster=%" PRId64, v->m.cluster);
		if (v->m.representative) {
			fputs(", representative=", out);
			dot_str(out, v->m.representative);
		}
		if (v->m.lineage >= 0)
			fprintf(out, ", lineage=%" PRId64, v->m.lineage);
		fputs("];\n", out);
	}
	for (size_t i = 0; i < g->e.n; i++) {
		const gedge *e = &g->e.v[i];
		fprintf(out, "  n%u -- n%u [lines=%" PRIu64 ", bytes=%" PRIu64 ", files=%" PRIu64
			", weight=%" PRIu64 "];\n", e->a, e->b, e->lines, e->bytes, e->files, e->lines);
	}
	fputs("}\n", out);
}

/* The section graph with cluster attributes; vertices in title order. */
static int section_graph(const mev_filemap *fm, const mev_graph *g, const history *h, int64_t r,
			 int keep_rest, xgraph *x)
{
	const mev_section_info *si = mev_filemap_sections(fm);
	size_t nsec = mev_filemap_section_count(fm), k = 0;
	const mev_edge *e = mev_graph_edges(g);
	uint32_t *order = NULL, *vid = malloc((nsec + 1) * sizeof *vid);
	mev_edge *sz = NULL;
	int rc;
	if (!vid)
		return mev_error_oom();
	if ((rc = self_sizes(g, nsec, &sz)) || (rc = sorted_sections(fm, keep_rest, &order, &k)))
		goto done;
	for (size_t i = 0; i < k; i++) {
		const mev_section_info *s = &si[order[i]];
		gvertex v = { s->title, s->status, member_of(h, r, s->title), sz[order[i]].lines,
			      sz[order[i]].bytes, sz[order[i]].files, s->n_maintainers, 1, -1 };
		vid[order[i]] = (uint32_t)i;
		if (MEV_VEC_PUSH(&x->v, v)) {
			rc = mev_error_oom();
			goto done;
		}
	}
	for (size_t i = 0; i < mev_graph_edge_count(g); i++) {
		gedge ge = { vid[e[i].a], vid[e[i].b], e[i].lines, e[i].bytes, e[i].files };
		if (e[i].a == e[i].b)
			continue;
		if (MEV_VEC_PUSH(&x->e, ge)) {
			rc = mev_error_oom();
			goto done;
		}
	}
done:
	free(order);
	free(sz);
	free(vid);
	return rc;
}

static int gedge_cmp(const void *x, const void *y)
{
	const gedge *a = x, *b = y;
	return a->a != b->a ? (a->a < b->a ? -1 : 1) : a->b != b->b ? (a->b < b->b ? -1 : 1) : 0;
}

/*
 * The cluster graph: a vertex per cluster (in cluster order, largest
 * first) with the sums of its sections' own sizes, an edge per pair of
 * clusters whose sections share files, summing those section edges.
 */
static int meta_graph(const mev_filemap *fm, const mev_graph *g, const history *h, int64_t r,
		      xgraph *x)
{
	const mev_clustering *c = r >= 0 ? h->rel[r].c : NULL;
	const mev_section_info *si = mev_filemap_sections(fm);
	const mev_edge *e = mev_graph_edges(g);
	size_t nc, nsec = mev_filemap_section_count(fm);
	int64_t *cl = malloc((nsec + 1) * sizeof *cl);
	mev_strmap pairs = MEV_STRMAP_INIT;
	int rc = 0;
	if (!cl)
		return mev_error_oom();
	if (!c) {
		rc = mev_error_set(MEV_ENOTFOUND, "release '%s' is not clustered with %s", h->list[r].tag,
				   h->key);
		mev_error_hint("run 'maintevo cluster' (with the same --method and options) first");
		goto done;
	}
	nc = mev_clustering_count(c);
	for (uint32_t k = 0; k < nc; k++) {
		const char *rep = mev_clustering_title(c, mev_clustering_representative(c, k));
		gvertex v = { rep, "", { k + 1, rep, h->rel[r].lineage[k] }, mev_clustering_lines(c, k),
			      0, 0, 0, mev_clustering_size(c, k), h->rel[r].code[k] };
		if (MEV_VEC_PUSH(&x->v, v)) {
			rc = mev_error_oom();
			goto done;
		}
	}
	for (size_t i = 0; i < nsec; i++)
		cl[i] = history_cluster_of(h, (size_t)r, si[i].title);
	for (size_t i = 0; i < mev_graph_edge_count(g); i++) {
		int64_t a = cl[e[i].a], b = cl[e[i].b];
		uint32_t key[2], at;
		int fresh;
		if (a < 0 || b < 0)
			continue;
		if (e[i].a == e[i].b) {
			x->v.v[a].bytes += e[i].bytes;
			x->v.v[a].files += e[i].files;
			continue;
		}
		if (a == b)
			continue;
		key[0] = (uint32_t)(a < b ? a : b);
		key[1] = (uint32_t)(a < b ? b : a);
		if (mev_strmap_intern(&pairs, (const char *)key, sizeof key, (uint32_t)x->e.n, &at,
				      &fresh)) {
			rc = MEV_ENOMEM;
			goto done;
		}
		if (fresh) {
			gedge ge = { key[0], key[1], 0, 0, 0 };
			if (MEV_VEC_PUSH(&x->e, ge)) {
				rc = mev_error_oom();
				goto done;
			}
		}
		x->e.v[at].lines += e[i].lines;
		x->e.v[at].bytes += e[i].bytes;
		x->e.v[at].files += e[i].files;
	}
	sort(x->e.v, x->e.n, sizeof *x->e.v, gedge_cmp);
done:
	mev_strmap_free(&pairs);
	free(cl);
	return rc;
}

int mev_export_graph(mev_store *s, const mev_export_graph_options *opt, FILE *out)
{
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	history h;
	xgraph x = { { 0 }, { 0 }, opt->meta };
	int64_t r;
	int rc;

	if (!opt->release)
		return mev_error_set(MEV_EINVAL, "a graph is of one release: name it");
	if ((rc = history_load(&h, s, opt->method, opt->release, HISTORY_CLUSTERS | HISTORY_TRACKS)) ||
	    (rc = mev_store_load_graph(s, opt->release, opt->keep_rest && !opt->meta, &fm, &g)))
		goto done;
	r = history_find(&h, opt->release);
	if (opt->meta)
		rc = meta_graph(fm, g, &h, r, &x);
	else
		rc = section_graph(fm, g, &h, r, opt->keep_rest, &x);
	if (rc)
		goto done;
	switch (opt->format) {
	case MEV_EXPORT_GRAPH_JSON: write_json(&x, out); break;
	case MEV_EXPORT_DOT: write_dot(&x, opt->release, out); break;
	default: write_graphml(&x, out); break;
	}
	if (ferror(out))
		rc = mev_error_set(MEV_EIO, "cannot write the graph");
done:
	MEV_VEC_FREE(&x.v);
	MEV_VEC_FREE(&x.e);
	history_free(&h);
	mev_graph_free(g);
	mev_filemap_free(fm);
	return rc;
}
