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

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

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
	{ "clusters", "integer" }, { NULL, NULL }
};
static const column sections_cols[] = {
	{ "release", "string" }, { "section", "string" }, { "status", "string" },
	{ "maintainers", "integer" }, { "reviewers", "integer" }, { "lists", "integer" },
	{ "trees", "integer" }, { "patterns", "integer" }, { "files", "integer" },
	{ "lines", "integer" }, { "bytes", "integer" }, { "cluster", "string" },
	{ "lineage", "integer" }, { NULL, NULL }
};
static const column edges_cols[] = {
	{ "release", "string" }, { "from", "string" }, { "to", "string" },
	{ "lines", "integer" }, { "bytes", "integer" }, { "files", "integer" }, { NULL, NULL }
};
static const column clusters_cols[] = {
	{ "release", "string" }, { "method", "string" }, { "cluster", "string" },
	{ "lineage", "integer" }, { "cluster_sections", "integer" },
	{ "cluster_lines", "integer" }, { "section", "string" }, { "section_lines", "integer" },
	{ NULL, NULL }
};
static const column events_cols[] = {
	{ "method", "string" }, { "from_release", "string" }, { "to_release", "string" },
	{ "event", "string" }, { "lineage", "integer" }, { "from_cluster", "string" },
	{ "to_cluster", "string" }, { "similarity", "number" }, { "from_lines", "integer" },
	{ "to_lines", "integer" }, { NULL, NULL }
};
static const column lineages_cols[] = {
	{ "method", "string" }, { "lineage", "integer" }, { "name", "string" },
	{ "first_release", "string" }, { "last_release", "string" }, { "parent", "integer" },
	{ "peak_lines", "integer" }, { "releases", "integer" }, { NULL, NULL }
};
static const column files_cols[] = {
	{ "release", "string" }, { "path", "string" }, { "kind", "string" },
	{ "lines", "integer" }, { "bytes", "integer" }, { "section", "string" },
	{ "cluster", "string" }, { "lineage", "integer" }, { NULL, NULL }
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

/* --- clusters of a release --------------------------------------------------- */

/*
 * What the clustering says about the sections of one release: cluster
 * (its representative's title) and lineage per section title.  Empty when
 * the release has no clustering for the method.
 */
typedef struct {
	mev_strmap index;              /* section title -> entry */
	MEV_VEC(const char *) cluster; /* per entry; borrowed from `data` */
	MEV_VEC(int64_t) lineage;      /* per entry, -1 when unknown */
	size_t nclusters;
	int clustered;
	void *data;                    /* whatever owns the strings */
} membership;

static void membership_free(membership *m)
{
	mev_strmap_free(&m->index);
	MEV_VEC_FREE(&m->cluster);
	MEV_VEC_FREE(&m->lineage);
	free(m->data);
	memset(m, 0, sizeof *m);
}

static int membership_load(mev_store *s, const char *tag, const char *method, membership *m)
{
	(void)s;
	(void)tag;
	(void)method;
	memset(m, 0, sizeof *m);
	return 0;
}

static const char *member_cluster(const membership *m, const char *title)
{
	int64_t k = m->clustered ? mev_strmap_get(&m->index, title, strlen(title)) : -1;
	return k < 0 ? NULL : m->cluster.v[k];
}

static int64_t member_lineage(const membership *m, const char *title)
{
	int64_t k = m->clustered ? mev_strmap_get(&m->index, title, strlen(title)) : -1;
	return k < 0 ? -1 : m->lineage.v[k];
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

/* The releases to export: all, or the one named (an error when unknown). */
static int pick_releases(mev_store *s, const char *only, mev_release **list, size_t *n,
			 size_t *first, size_t *end)
{
	int rc = mev_store_releases(s, list, n);
	if (rc)
		return rc;
	*first = 0;
	*end = *n;
	if (!only)
		return 0;
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*list)[i].tag, only) == 0) {
			*first = i;
			*end = i + 1;
			return 0;
		}
	rc = mev_error_set(MEV_ENOTFOUND, "release '%s' is not in store '%s'", only,
			   mev_store_dir(s));
	mev_error_hint("list the stored releases with 'maintevo releases --store %s'",
		       mev_store_dir(s));
	mev_release_list_free(*list, *n);
	*list = NULL;
	*n = 0;
	return rc;
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
	qsort(v, k, sizeof *v, title_index_cmp);
	*out = v;
	*n = k;
	return 0;
}

/* --- releases ------------------------------------------------------------------ */

static int export_releases(mev_store *s, const mev_export_options *opt, row_writer *w)
{
	mev_release *list = NULL;
	size_t n = 0, first, end;
	int rc = pick_releases(s, opt->release, &list, &n, &first, &end);
	for (size_t i = first; !rc && i < end; i++) {
		const mev_release *r = &list[i];
		mev_section_census c;
		membership m;
		char hex[41], date[32];
		if ((rc = mev_export_census(s, r->tag, &c)) ||
		    (rc = membership_load(s, r->tag, opt->method, &m)))
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
		rw_u64(w, c.no_maintainer);
		rw_u64(w, c.orphan);
		rw_u64(w, r->uncovered_files);
		rw_u64(w, r->uncovered_lines);
		rw_u64(w, r->edges);
		rw_u64(w, r->diags);
		rw_u64(w, r->maintainer_files);
		rw_i64_or_null(w, m.clustered ? (int64_t)m.nclusters : -1);
		rw_end_row(w);
		membership_free(&m);
	}
	mev_release_list_free(list, n);
	return rc;
}

/* --- sections and edges ---------------------------------------------------------- */

static int export_sections(mev_store *s, const mev_export_options *opt, row_writer *w)
{
	mev_release *list = NULL;
	size_t n = 0, first, end;
	int rc = pick_releases(s, opt->release, &list, &n, &first, &end);
	for (size_t i = first; !rc && i < end; i++) {
		mev_filemap *fm = NULL;
		mev_graph *g = NULL;
		mev_edge *sz = NULL;
		uint32_t *order = NULL;
		size_t k = 0;
		membership m = { 0 };
		if (!(rc = mev_store_load_graph(s, list[i].tag, opt->keep_rest, &fm, &g)) &&
		    !(rc = self_sizes(g, mev_filemap_section_count(fm), &sz)) &&
		    !(rc = sorted_sections(fm, opt->keep_rest, &order, &k)) &&
		    !(rc = membership_load(s, list[i].tag, opt->method, &m))) {
			const mev_section_info *si = mev_filemap_sections(fm);
			for (size_t j = 0; j < k; j++) {
				const mev_section_info *x = &si[order[j]];
				const char *cl = member_cluster(&m, x->title);
				rw_str(w, list[i].tag);
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
				rw_str_or_null(w, cl);
				rw_i64_or_null(w, member_lineage(&m, x->title));
				rw_end_row(w);
			}
		}
		membership_free(&m);
		free(order);
		free(sz);
		mev_graph_free(g);
		mev_filemap_free(fm);
	}
	mev_release_list_free(list, n);
	return rc;
}

static int export_edges(mev_store *s, const mev_export_options *opt, row_writer *w)
{
	mev_release *list = NULL;
	size_t n = 0, first, end;
	int rc = pick_releases(s, opt->release, &list, &n, &first, &end);
	for (size_t i = first; !rc && i < end; i++) {
		mev_filemap *fm = NULL;
		mev_graph *g = NULL;
		if (!(rc = mev_store_load_graph(s, list[i].tag, opt->keep_rest, &fm, &g))) {
			const mev_section_info *si = mev_filemap_sections(fm);
			const mev_edge *e = mev_graph_edges(g);
			for (size_t j = 0; j < mev_graph_edge_count(g); j++) {
				if (e[j].a == e[j].b)
					continue;
				rw_str(w, list[i].tag);
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
	mev_release_list_free(list, n);
	return rc;
}

/* --- files ----------------------------------------------------------------------- */

/* The rows of one file: one per covering section (by title), or one with an
 * empty section when none covers it. */
static void file_rows(row_writer *w, const char *tag, const mev_filemap *fm, const mev_file_row *r,
		      const membership *m, int keep_rest)
{
	const mev_section_info *si = mev_filemap_sections(fm);
	const uint32_t *ids;
	size_t n = mev_filemap_set(fm, r->set, &ids), shown = 0;
	uint32_t sorted[64], *v = n <= 64 ? sorted : malloc(n * sizeof *v);
	size_t k = 0;
	if (!v) {
		v = sorted;
		n = 64;
	}
	for (size_t i = 0; i < n; i++)
		if (keep_rest || !si[ids[i]].is_rest)
			v[k++] = ids[i];
	title_sort_fm = fm;
	qsort(v, k, sizeof *v, title_index_cmp);
	do {
		const char *title = shown < k ? si[v[shown]].title : NULL;
		rw_str(w, tag);
		rw_strn(w, r->path, r->path_len);
		rw_str(w, r->kind == MEV_KIND_LINK ? "link" : "file");
		rw_u64(w, r->lines);
		rw_u64(w, r->bytes);
		rw_str_or_null(w, title);
		rw_str_or_null(w, title ? member_cluster(m, title) : NULL);
		rw_i64_or_null(w, title ? member_lineage(m, title) : -1);
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

static int export_files(mev_store *s, const mev_export_options *opt, row_writer *w)
{
	mev_release *list = NULL;
	size_t n = 0, first, end;
	int rc;
	if (!opt->release == !opt->path) {
		rc = mev_error_set(MEV_EINVAL, "the files table needs --release TAG or --path PATH");
		mev_error_hint("--release lists every file of one release, --path follows one file "
			       "over all releases");
		return rc;
	}
	rc = pick_releases(s, opt->release, &list, &n, &first, &end);
	for (size_t i = first; !rc && i < end; i++) {
		mev_filemap *fm = NULL;
		membership m = { 0 };
		if (!list[i].has_files) {
			if (opt->release) {
				rc = mev_error_set(MEV_ENOTFOUND, "release '%s' has no file table "
						   "(it was imported as a graph)", list[i].tag);
				mev_error_hint("walk the repository with 'maintevo walk' to get file tables");
			}
			continue;
		}
		if (!(rc = mev_store_load_filemap(s, list[i].tag, &fm)) &&
		    !(rc = membership_load(s, list[i].tag, opt->method, &m))) {
			if (opt->path) {
				const mev_file_row *r = find_row(fm, opt->path);
				if (r)
					file_rows(w, list[i].tag, fm, r, &m, opt->keep_rest);
			} else {
				const mev_file_row *rows = mev_filemap_rows(fm);
				for (size_t j = 0; j < mev_filemap_count(fm); j++)
					file_rows(w, list[i].tag, fm, &rows[j], &m, opt->keep_rest);
			}
		}
		membership_free(&m);
		mev_filemap_free(fm);
	}
	mev_release_list_free(list, n);
	return rc;
}

/* --- clusters, events, lineages ------------------------------------------------------ */

static int not_tracked(const char *what)
{
	int rc = mev_error_set(MEV_ENOTFOUND, "this build cannot read %s yet", what);
	mev_error_hint("clustering and tracking come with 'maintevo cluster' and 'maintevo track'");
	return rc;
}

static int export_clusters(mev_store *s, const mev_export_options *opt, row_writer *w)
{
	(void)s;
	(void)opt;
	(void)w;
	return not_tracked("clusters");
}

static int export_events(mev_store *s, const mev_export_options *opt, row_writer *w)
{
	(void)s;
	(void)opt;
	(void)w;
	return not_tracked("events");
}

static int export_lineages(mev_store *s, const mev_export_options *opt, row_writer *w)
{
	(void)s;
	(void)opt;
	(void)w;
	return not_tracked("lineages");
}

int mev_export_table(mev_store *s, mev_table t, const mev_export_options *opt, FILE *out)
{
	static const mev_export_options defaults = { 0 };
	row_writer w;
	int rc;
	if (!opt)
		opt = &defaults;
	if ((unsigned)t >= MEV_TABLE_COUNT)
		return mev_error_set(MEV_EINVAL, "unknown table %d", (int)t);
	if (opt->path && t != MEV_TABLE_FILES)
		return mev_error_set(MEV_EINVAL, "--path goes with the files table only");
	rw_begin(&w, out, opt->format, tables[t].cols);
	switch (t) {
	case MEV_TABLE_RELEASES: rc = export_releases(s, opt, &w); break;
	case MEV_TABLE_SECTIONS: rc = export_sections(s, opt, &w); break;
	case MEV_TABLE_EDGES: rc = export_edges(s, opt, &w); break;
	case MEV_TABLE_CLUSTERS: rc = export_clusters(s, opt, &w); break;
	case MEV_TABLE_EVENTS: rc = export_events(s, opt, &w); break;
	case MEV_TABLE_LINEAGES: rc = export_lineages(s, opt, &w); break;
	default: rc = export_files(s, opt, &w); break;
	}
	if (rc)
		return rc;
	return rw_finish(&w);
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
	const char *status;       /* sections only ("" for clusters) */
	const char *cluster;      /* NULL when not clustered */
	int64_t lineage;          /* -1 when unknown */
	uint64_t lines, bytes, files, maintainers, sections;
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

/* DOT quoted string: escape '"' and '\', newlines as \n. */
static void dot_str(FILE *out, const char *s)
{
	/* titles are UTF-8 already; DOT has no escape for control bytes */
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

static void write_graphml(const xgraph *g, FILE *out)
{
	const char *kind = g->meta ? "cluster" : "section";
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
		fputs("  <key id=\"v_sections\" for=\"node\" attr.name=\"sections\" attr.type=\"long\"/>\n",
		      out);
	else
		fputs("  <key id=\"v_status\" for=\"node\" attr.name=\"status\" attr.type=\"string\"/>\n"
		      "  <key id=\"v_maintainers\" for=\"node\" attr.name=\"maintainers\" attr.type=\"int\"/>\n",
		      out);
	fputs("  <key id=\"v_cluster\" for=\"node\" attr.name=\"cluster\" attr.type=\"string\"/>\n"
	      "  <key id=\"v_lineage\" for=\"node\" attr.name=\"lineage\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_lines\" for=\"edge\" attr.name=\"lines\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_bytes\" for=\"edge\" attr.name=\"bytes\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_files\" for=\"edge\" attr.name=\"files\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_weight\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n",
	      out);
	fprintf(out, "  <graph id=\"%ss\" edgedefault=\"undirected\">\n", kind);
	for (size_t i = 0; i < g->v.n; i++) {
		const gvertex *v = &g->v.v[i];
		fprintf(out, "    <node id=\"n%zu\">\n      <data key=\"v_name\">", i);
		mev_xml_str(out, v->name, strlen(v->name));
		fprintf(out, "</data>\n      <data key=\"v_lines\">%" PRIu64 "</data>\n"
			"      <data key=\"v_bytes\">%" PRIu64 "</data>\n"
			"      <data key=\"v_files\">%" PRIu64 "</data>\n", v->lines, v->bytes, v->files);
		if (g->meta) {
			fprintf(out, "      <data key=\"v_sections\">%" PRIu64 "</data>\n", v->sections);
		} else {
			fputs("      <data key=\"v_status\">", out);
			mev_xml_str(out, v->status, strlen(v->status));
			fprintf(out, "</data>\n      <data key=\"v_maintainers\">%" PRIu64 "</data>\n",
				v->maintainers);
		}
		if (v->cluster) {
			fputs("      <data key=\"v_cluster\">", out);
			mev_xml_str(out, v->cluster, strlen(v->cluster));
			fputs("</data>\n", out);
		}
		if (v->lineage >= 0)
			fprintf(out, "      <data key=\"v_lineage\">%" PRId64 "</data>\n", v->lineage);
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

static void write_json(const xgraph *g, FILE *out)
{
	fputs("{\"directed\": false, \"multigraph\": false, \"graph\": {\"level\": ", out);
	fputs(g->meta ? "\"clusters\"" : "\"sections\"", out);
	fputs("},\n \"nodes\": [", out);
	for (size_t i = 0; i < g->v.n; i++) {
		const gvertex *v = &g->v.v[i];
		fputs(i ? ",\n  {\"id\": " : "\n  {\"id\": ", out);
		mev_json_str(out, v->name, strlen(v->name));
		fprintf(out, ", \"lines\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"files\": %" PRIu64,
			v->lines, v->bytes, v->files);
		if (g->meta) {
			fprintf(out, ", \"sections\": %" PRIu64, v->sections);
		} else {
			fputs(", \"status\": ", out);
			mev_json_str(out, v->status, strlen(v->status));
			fprintf(out, ", \"maintainers\": %" PRIu64, v->maintainers);
		}
		fputs(", \"cluster\": ", out);
		if (v->cluster)
			mev_json_str(out, v->cluster, strlen(v->cluster));
		else
			fputs("null", out);
		if (v->lineage >= 0)
			fprintf(out, ", \"lineage\": %" PRId64 "}", v->lineage);
		else
			fputs(", \"lineage\": null}", out);
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
		} else {
			fputs(", status=", out);
			dot_str(out, v->status);
			fprintf(out, ", maintainers=%" PRIu64, v->maintainers);
		}
		if (v->cluster) {
			fputs(", cluster=", out);
			dot_str(out, v->cluster);
		}
		if (v->lineage >= 0)
			fprintf(out, ", lineage=%" PRId64, v->lineage);
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
static int section_graph(const mev_filemap *fm, const mev_graph *g, const membership *m,
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
		gvertex v = { s->title, s->status, member_cluster(m, s->title),
			      member_lineage(m, s->title), sz[order[i]].lines, sz[order[i]].bytes,
			      sz[order[i]].files, s->n_maintainers, 1 };
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

static int meta_graph(const mev_filemap *fm, const mev_graph *g, const membership *m, xgraph *x)
{
	(void)fm;
	(void)g;
	(void)m;
	(void)x;
	return not_tracked("clusters");
}

int mev_export_graph(mev_store *s, const mev_export_graph_options *opt, FILE *out)
{
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	membership m = { 0 };
	xgraph x = { { 0 }, { 0 }, opt->meta };
	int rc;

	if (!opt->release)
		return mev_error_set(MEV_EINVAL, "a graph is of one release: name it");
	if ((rc = mev_store_load_graph(s, opt->release, opt->keep_rest && !opt->meta, &fm, &g)) ||
	    (rc = membership_load(s, opt->release, opt->method, &m)))
		goto done;
	if (opt->meta)
		rc = meta_graph(fm, g, &m, &x);
	else
		rc = section_graph(fm, g, &m, opt->keep_rest, &x);
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
	membership_free(&m);
	mev_graph_free(g);
	mev_filemap_free(fm);
	return rc;
}
