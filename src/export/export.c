/* The tidy tables of a store: their columns, the options each takes, what each needs first. */
/*
 * The rows are written by release_tables.c, file_table.c and
 * cluster_tables.c, all through the one table writer (table.h), so the
 * three formats and the short commands always agree on columns and order.
 */
#include "export_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --- tables and their columns ----------------------------------------------- */

#define S MEV_COLUMN_STRING
#define I MEV_COLUMN_INTEGER
#define N MEV_COLUMN_NUMBER
#define D MEV_COLUMN_DATE

static const mev_column releases_cols[] = {
	{ "release", S }, { "position", I }, { "commit", S }, { "date", D }, { "files", I },
	{ "lines", I }, { "bytes", I }, { "sections", I }, { "sections_with_files", I },
	{ "sections_without_maintainer", I }, { "sections_orphan", I }, { "uncovered_files", I },
	{ "uncovered_lines", I }, { "edges", I }, { "notes", I }, { "maintainers_files", I },
	{ "clusters", I }, { "modularity", N }, { "reference_modularity", N },
	{ "clustering_step", S }, { "moved_sections", I }, { "rules_version", I }, { "rules", S },
	{ "sections_covering_nothing", I }, { "sections_obsolete", I }, { "comment_titles", I },
	{ "duplicate_titles", I }, { "patterns_matching_nothing", I }, { "orphan_lines", I },
	{ "obsolete_lines", I }, { "kind", S }, { "commit_date", D }, { "same_as", S },
	{ "maintainers_files_not_read", I }, { "listed_addresses", I }, { "listed_never_seen", I },
	{ "listed_quiet", I }, { "listed_gone", I }, { "listed_quiet_24", I }, { "listed_gone_24", I },
	{ NULL, S }
};
static const mev_column sections_cols[] = {
	{ "release", S }, { "section", S }, { "status", S }, { "maintainers", I },
	{ "reviewers", I }, { "lists", I }, { "trees", I }, { "patterns", I }, { "files", I },
	{ "lines", I }, { "bytes", I }, { "cluster", I }, { "representative", S },
	{ "lineage", I }, { "lineage_name", S }, { "display_name", S }, { "title_kind", S },
	{ "representative_display_name", S }, { NULL, S }
};
static const mev_column edges_cols[] = {
	{ "release", S }, { "from", S }, { "to", S }, { "lines", I }, { "bytes", I },
	{ "files", I }, { "from_display_name", S }, { "to_display_name", S }, { NULL, S }
};
static const mev_column clusters_cols[] = {
	{ "release", S }, { "method", S }, { "cluster", I }, { "representative", S },
	{ "section", S }, { "section_lines", I }, { "cluster_sections", I },
	{ "cluster_lines", I }, { "code_lines", I }, { "lineage", I }, { "lineage_name", S },
	{ "tracking", S }, { "display_name", S }, { "representative_display_name", S }, { NULL, S }
};
static const mev_column events_cols[] = {
	{ "from_release", S }, { "to_release", S }, { "event", S }, { "lineage", I },
	{ "from_cluster", S }, { "to_cluster", S }, { "similarity", N }, { "from_lines", I },
	{ "to_lines", I }, { "method", S }, { "lineage_name", S }, { "from_lineage", I },
	{ "share", N }, { "partner", S }, { "partner_lineage", I }, { "partner_share", N },
	{ "support", N }, { "tracking", S }, { "from_cluster_display_name", S },
	{ "to_cluster_display_name", S }, { "cause_kind", S }, { "cause", S }, { NULL, S }
};
static const mev_column lineages_cols[] = {
	{ "lineage", I }, { "name", S }, { "first_release", S }, { "last_release", S },
	{ "parent", I }, { "peak_lines", I }, { "releases", I }, { "method", S }, { "tracking", S },
	{ "display_name", S }, { "last_name", S }, { NULL, S }
};
static const mev_column files_cols[] = {
	{ "release", S }, { "path", S }, { "kind", S }, { "lines", I }, { "bytes", I },
	{ "section", S }, { "cluster", I }, { "representative", S }, { "lineage", I },
	{ "lineage_name", S }, { "display_name", S }, { "representative_display_name", S }, { NULL, S }
};
static const mev_column changes_cols[] = {
	{ "from_release", S }, { "to_release", S }, { "change", S }, { "section", S },
	{ "new_section", S }, { "lines", I }, { "coverage", N }, { "display_name", S },
	{ "new_display_name", S }, { NULL, S }
};

static const mev_column commits_cols[] = {
	{ "commit", S }, { "release", S }, { "author", S }, { "committer", S }, { "route", S },
	{ "tree", S }, { "sections", S }, { "committer_is_maintainer", I },
	{ "committer_in_subsystem", I }, { "signoff_by_maintainer", I }, { "reviewed_by_listed", I },
	{ "via_listed_tree", I }, { "coverage", S }, { "strange", I }, { "author_name", S },
	{ "committer_name", S }, { "author_date", D }, { "commit_date", D }, { "paths", I },
	{ "signed_off_by", S }, { "acked_by", S }, { "reviewed_by", S }, { "tested_by", S },
	{ "added", I }, { "removed", I }, { "integration_distance", I }, { NULL, S }
};
static const mev_column flow_cols[] = {
	{ "release", S }, { "level", S }, { "group", S }, { "detail", S }, { "cluster", I },
	{ "lineage", I }, { "lineage_name", S }, { "commits", I }, { "covered", I },
	{ "rest_only", I }, { "uncovered", I }, { "direct", I }, { "committer_is_maintainer", N },
	{ "committer_in_subsystem", N }, { "signoff_by_maintainer", N }, { "reviewed_by_listed", N },
	{ "via_listed_tree", N }, { "strange", N }, { "strange_commits", I },
	{ "distance_commits", I }, { "distance_mean", N }, { "distance_median", N },
	{ "no_path", I }, { NULL, S }
};
static const mev_column people_cols[] = {
	{ "release", S }, { "person", S }, { "name", S }, { "authored", I }, { "committed", I },
	{ "signed_off", I }, { "acked", I }, { "reviewed", I }, { "tested", I },
	{ "maintains", I }, { "reviews", I }, { "committed_as_maintainer", I },
	{ "committed_strange", I }, { NULL, S }
};
static const mev_column flows_cols[] = {
	{ "from_release", S }, { "to_release", S }, { "from_lineage", I }, { "to_lineage", I },
	{ "lines", I }, { "files", I }, { "sections", I }, { NULL, S }
};
static const mev_column health_cols[] = {
	{ "release", S }, { "check", S }, { "section", S }, { "display_name", S }, { "type", S },
	{ "value", S }, { "file", S }, { "line", I }, { "directory", S }, { "level", I },
	{ "files", I }, { "lines", I }, { "share", N }, { "self_test", I }, { NULL, S }
};
/* workload: the lineage form (the table's columns), and with the group column
 * of --by section and --by cluster before the lineage */
#define WORKLOAD_TAIL                                                                              \
	{ "lineage", I }, { "sections", I }, { "files", I }, { "lines", I }, { "maintainers", I },  \
	{ "reviewers", I }, { "lists", I }, { "commits", I }, { "authors", I },                      \
	{ "committers", I }, { "top_committer", S }, { "top_committer_share", N },                  \
	{ "top_author_share", N }, { "bus_factor", I }, { "lines_per_maintainer", N },              \
	{ "review_coverage", N }, { "cross_org_review", N }, { "absence_factor", I },               \
	{ "elephant_factor", I }, { NULL, S }
static const mev_column workload_cols[] = { { "release", S }, { "date", D }, WORKLOAD_TAIL };
static const mev_column workload_section_cols[] = { { "release", S }, { "date", D },
						     { "section", S }, WORKLOAD_TAIL };
static const mev_column workload_cluster_cols[] = { { "release", S }, { "date", D },
						     { "cluster", I }, WORKLOAD_TAIL };
#undef WORKLOAD_TAIL
static const mev_column listed_cols[] = {
	{ "release", S }, { "date", D }, { "section", S }, { "entry", S }, { "name", S },
	{ "email", S }, { "role", S }, { "status", S }, { "last_active", D },
	{ "last_active_anywhere", D }, { "months_quiet", I }, { "state", S },
	{ "matched_by", S }, { "other_addresses", S }, { "history_from", D }, { NULL, S }
};
static const mev_column candidates_cols[] = {
	{ "release", S }, { "date", D }, { "section", S }, { "rank", I }, { "name", S },
	{ "email", S }, { "authored", I }, { "committed", I }, { "reviewed", I }, { "acked", I },
	{ "activity", I }, { "last_active", D }, { NULL, S }
};
static const mev_column listed_sections_cols[] = {
	{ "release", S }, { "date", D }, { "section", S }, { "status", S }, { "lines", I },
	{ "maintainers", I }, { "maintainers_active", I }, { "maintainers_quiet", I },
	{ "maintainers_gone", I }, { "maintainers_never_seen", I }, { "maintainers_unknown", I },
	{ "reviewers", I }, { "reviewers_active", I }, { "orphaned_in_fact", I }, { NULL, S }
};

#undef S
#undef I
#undef N
#undef D

/* Every table: its name, columns, what it reads besides the releases
 * (mev_history_read()), and its rows. */
static const struct {
	const char *name;
	const mev_column *cols;
	unsigned need;
	int (*rows)(mev_table *w, const mev__export_ctx *x);
} tables[MEV_EXPORT_TABLE_COUNT] = {
	[MEV_EXPORT_RELEASES] = { "releases", releases_cols, MEV_HISTORY_CLUSTERS,
				  mev__export_releases },
	[MEV_EXPORT_SECTIONS] = { "sections", sections_cols, MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS,
				  mev__export_sections },
	[MEV_EXPORT_EDGES] = { "edges", edges_cols, 0, mev__export_edges },
	[MEV_EXPORT_CLUSTERS] = { "clusters", clusters_cols, MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS,
				  mev__export_clusters },
	[MEV_EXPORT_EVENTS] = { "events", events_cols, MEV_HISTORY_TRACKS, mev__export_events },
	/* the clusterings too: a lineage's last_name is its cluster's name there */
	[MEV_EXPORT_LINEAGES] = { "lineages", lineages_cols, MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS,
				  mev__export_lineages },
	[MEV_EXPORT_FILES] = { "files", files_cols, MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS,
			       mev__export_files },
	[MEV_EXPORT_SECTION_CHANGES] = { "section_changes", changes_cols, 0,
					 mev__export_section_changes },
	[MEV_EXPORT_COMMITS] = { "commits", commits_cols, MEV_HISTORY_CLUSTERS, mev__export_commits },
	[MEV_EXPORT_FLOW] = { "flow", flow_cols, MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS,
			      mev__export_flow },
	[MEV_EXPORT_PEOPLE] = { "people", people_cols, 0, mev__export_people },
	[MEV_EXPORT_HEALTH] = { "health", health_cols, 0, mev__export_health },
	[MEV_EXPORT_FLOWS] = { "flows", flows_cols, MEV_HISTORY_TRACKS, mev__export_flows },
	[MEV_EXPORT_WORKLOAD] = { "workload", workload_cols, MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS,
				  mev__export_workload },
	[MEV_EXPORT_LISTED] = { "listed", listed_cols, 0, mev__export_listed },
	[MEV_EXPORT_CANDIDATES] = { "candidates", candidates_cols, 0, mev__export_candidates },
	[MEV_EXPORT_LISTED_SECTIONS] = { "listed_sections", listed_sections_cols, 0,
					 mev__export_listed_sections },
};

static const char *const workload_by_names[] = { "lineage", "section", "cluster" };

const char *mev_workload_by_name(mev_workload_by b)
{
	return (unsigned)b < 3 ? workload_by_names[b] : "";
}

int mev_workload_by_parse(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(name, workload_by_names[i]) == 0)
			return i;
	return -1;
}

const mev_column *mev_export_workload_columns(mev_workload_by by)
{
	return by == MEV_WORKLOAD_BY_SECTION ? workload_section_cols
	       : by == MEV_WORKLOAD_BY_CLUSTER ? workload_cluster_cols : workload_cols;
}

const char *mev_export_table_name(mev_export_table_id t)
{
	return (unsigned)t < MEV_EXPORT_TABLE_COUNT ? tables[t].name : "";
}

int mev_export_table_parse(const char *name)
{
	for (int i = 0; i < MEV_EXPORT_TABLE_COUNT; i++)
		if (strcmp(name, tables[i].name) == 0)
			return i;
	if (strcmp(name, "section-changes") == 0)
		return MEV_EXPORT_SECTION_CHANGES;
	return -1;
}

const mev_column *mev_export_columns(mev_export_table_id t)
{
	return (unsigned)t < MEV_EXPORT_TABLE_COUNT ? tables[t].cols : NULL;
}

/* --- shared pieces -------------------------------------------------------------- */

void mev__export_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

mev__export_member mev__export_member_of(const mev_history *h, int64_t r, const char *title)
{
	mev__export_member m = { -1, NULL, -1, NULL };
	int64_t k = r >= 0 && title ? mev_history_cluster_of(h, (size_t)r, title) : -1;
	if (k >= 0) {
		const mev_clustering *c = mev_history_clustering(h, r);
		m.cluster = k + 1;
		m.representative = mev_clustering_title(c, mev_clustering_representative(c, (uint32_t)k));
		m.lineage = mev_history_cluster_lineage(h, r, k);
		m.lineage_name =
			m.lineage >= 0 ? mev_history_lineage_name(h, (size_t)r, (uint32_t)k) : NULL;
	}
	return m;
}

const char *mev__export_display(const mev__export_ctx *x, const char *tag, const char *title,
				int *rc)
{
	const char *d = title;
	int e;
	if (!title)
		return NULL;
	if ((e = mev_release_display(&d, x->names, tag, title)) && !*rc)
		*rc = e;
	return e ? title : d;
}

void mev__export_member_row(mev_table *w, const mev__export_member *m)
{
	mev_table_int_or_null(w, m->cluster);
	mev_table_str_or_null(w, m->representative);
	mev_table_int_or_null(w, m->lineage);
	mev_table_str_or_null(w, m->lineage_name);
}

void mev__export_range(size_t *first, size_t *end, const mev_history *h, const char *tag)
{
	int64_t r = mev_history_find(h, tag);
	*first = r >= 0 ? (size_t)r : 0;
	*end = r >= 0 ? (size_t)r + 1 : mev_history_release_count(h);
}

int mev__export_no_flow(mev_store *s, const mev_history *h, const char *tag)
{
	size_t first, end;
	int old = 0, rc;
	mev__export_range(&first, &end, h, tag);
	for (size_t i = first; i < end && !old; i++)
		if ((old = mev_flow_outdated(s, mev_history_release(h, i)->tag)) < 0)
			return old;
	if (old) {
		rc = mev_error_set(MEV_ENOTFOUND, "the patch flow of store '%s'%s%s was judged by an "
				   "older maintevo, by other rules", mev_store_dir(s),
				   tag ? " for " : "", tag ? tag : "");
		mev_error_hint("run 'maintevo flow --store %s' to judge it again (docs/flow.md, "
			       "\"What is judged\")", mev_store_dir(s));
		return rc;
	}
	rc = mev_error_set(MEV_ENOTFOUND, "store '%s' holds no patch flow%s%s", mev_store_dir(s),
			   tag ? " for " : "", tag ? tag : "");
	mev_error_hint("run 'maintevo flow --store %s' first (the first release has none)",
		       mev_store_dir(s));
	return rc;
}

int mev__export_self_sizes(mev_edge **out, const mev_graph *g, size_t nsec)
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

void mev__export_sort_titles(uint32_t *ids, size_t n, const mev_filemap *fm)
{
	title_sort_fm = fm;
	mev__export_sort(ids, n, sizeof *ids, title_index_cmp);
}

int mev__export_sorted_sections(uint32_t **out, size_t *n, const mev_filemap *fm, int keep_rest)
{
	const mev_section_info *si = mev_filemap_sections(fm);
	size_t nsec = mev_filemap_section_count(fm), k = 0;
	uint32_t *v = malloc((nsec + 1) * sizeof *v);
	if (!v)
		return mev_error_oom();
	for (size_t i = 0; i < nsec; i++)
		if (keep_rest || !si[i].is_rest)
			v[k++] = (uint32_t)i;
	mev__export_sort_titles(v, k, fm);
	*out = v;
	*n = k;
	return 0;
}

/* --- one table -------------------------------------------------------------------- */

static int not_clustered(const mev_history *h, const char *release)
{
	int rc = release ? mev_error_set(MEV_ENOTFOUND, "release '%s' is not clustered with %s",
					 release, mev_history_cluster_key(h))
			 : mev_error_set(MEV_ENOTFOUND, "the store is not clustered with %s",
					 mev_history_cluster_key(h));
	mev_error_hint("run 'maintevo cluster' (with the same --method and options) first");
	return rc;
}

static int not_tracked(const mev_history *h)
{
	int rc = mev_error_set(MEV_ENOTFOUND, "the store is not tracked with %s/%s",
			       mev_history_cluster_key(h), mev_history_track_key(h));
	mev_error_hint("run 'maintevo track' (with the same --method, thresholds and options) first; "
		       "'maintevo store info' lists the results the store holds");
	return rc;
}

static int not_stored(mev_store *s, const char *tag)
{
	return mev_release_not_stored(s, tag);
}

/* The options that do not fit table t. */
static int check_options(mev_export_table_id t, const mev_export_options *opt)
{
	int rc;
	if (opt->path && t != MEV_EXPORT_FILES)
		return mev_error_set(MEV_EINVAL, "--path goes with the files table only");
	if ((opt->from || opt->to) && t != MEV_EXPORT_EVENTS && t != MEV_EXPORT_SECTION_CHANGES &&
	    t != MEV_EXPORT_FLOWS && t != MEV_EXPORT_WORKLOAD)
		return mev_error_set(MEV_EINVAL, "--from and --to go with the events, flows, "
				     "section_changes and workload tables only");
	if (opt->by && t != MEV_EXPORT_WORKLOAD)
		return mev_error_set(MEV_EINVAL, "--by goes with the workload table only");
	if (opt->repo && !mev__export_reads_roster(t))
		return mev_error_set(MEV_EINVAL, "--repo goes with the workload, listed, listed_sections "
				     "and candidates tables only");
	if (opt->orgs && t != MEV_EXPORT_WORKLOAD)
		return mev_error_set(MEV_EINVAL, "--orgs goes with the workload table only");
	if ((opt->quiet_months || opt->people || opt->fold) && t != MEV_EXPORT_LISTED &&
	    t != MEV_EXPORT_CANDIDATES && t != MEV_EXPORT_LISTED_SECTIONS)
		return mev_error_set(MEV_EINVAL, "%s goes with the listed, listed_sections and "
				     "candidates tables only",
				     opt->people ? "--people" : opt->fold ? "--fold" : "--quiet-months");
	if (opt->top && t != MEV_EXPORT_CANDIDATES)
		return mev_error_set(MEV_EINVAL, "--top goes with the candidates table only");
	if (t == MEV_EXPORT_FILES && !opt->release && !opt->path) {
		rc = mev_error_set(MEV_EINVAL, "the files table needs --release TAG or --path PATH");
		mev_error_hint("--release lists every file of one release, --path follows one file "
			       "or directory over all releases (or in --release)");
		return rc;
	}
	return 0;
}

/* Everything table t needs that is missing, said before its header. */
static int check_needs(mev_store *s, mev_export_table_id t, const mev_history *h,
		       const mev_export_options *opt)
{
	size_t lo, hi;
	int rc = mev_release_range(&lo, &hi, s, mev_history_releases(h), mev_history_release_count(h),
				   opt->from, opt->to, 0);
	if (rc)
		return rc;
	if (t == MEV_EXPORT_CLUSTERS && !mev_history_clustered(h))
		return not_clustered(h, opt->release);
	if ((t == MEV_EXPORT_EVENTS || t == MEV_EXPORT_LINEAGES || t == MEV_EXPORT_FLOWS) &&
	    !mev_history_tracked(h))
		return not_tracked(h);
	if (t == MEV_EXPORT_WORKLOAD && opt->by == MEV_WORKLOAD_BY_LINEAGE && !mev_history_tracked(h))
		return not_tracked(h);
	if (t == MEV_EXPORT_WORKLOAD && opt->by == MEV_WORKLOAD_BY_CLUSTER && !mev_history_clustered(h))
		return not_clustered(h, opt->release);
	if (t == MEV_EXPORT_COMMITS || t == MEV_EXPORT_FLOW || t == MEV_EXPORT_PEOPLE ||
	    mev__export_reads_roster(t)) {
		/* workload, listed, candidates: releases without a flow have empty
		 * commit columns (or no activity); a store with none at all is an error */
		rc = mev__export_any_flow(s, h, mev__export_reads_roster(t) ? NULL : opt->release);
		return rc ? (rc < 0 ? rc : 0) : mev__export_no_flow(s, h, opt->release);
	}
	return 0;
}

/* The files of a path are written to memory first: a path that names
 * nothing is said before anything is written. */
typedef struct {
	FILE *f;
	char *buf;
	size_t len;
	char *canon;
	size_t rows;
} path_buffer;

static int path_begin(path_buffer *pb, mev__export_ctx *x, const mev_export_options *opt)
{
	int rc;
	memset(pb, 0, sizeof *pb);
	if (!opt->path)
		return 0;
	if ((rc = mev__export_canon_path(&pb->canon, &x->path_dir, opt->path)))
		return rc;
	x->path = pb->canon;
	x->path_rows = &pb->rows;
	if (!(pb->f = open_memstream(&pb->buf, &pb->len)))
		return mev_error_oom();
	return 0;
}

/* Copy what was written to out; MEV_ENOTFOUND with a did-you-mean when
 * the path named no file of any release. */
static int path_end(path_buffer *pb, int rc, FILE *out, mev_store *s, const mev_history *h,
		    const mev__export_ctx *x)
{
	if (pb->f && fclose(pb->f) && !rc)
		rc = mev_error_oom();
	pb->f = NULL;
	if (!rc && pb->canon && !pb->rows)
		rc = mev__export_no_path(s, h, x->opt ? x->opt->release : NULL, x->path, x->path_dir);
	if (!rc && pb->canon && pb->len && fwrite(pb->buf, 1, pb->len, out) != pb->len)
		rc = mev_error_write("table");
	free(pb->buf);
	free(pb->canon);
	return rc;
}

int mev_export_table(FILE *out, mev_store *s, mev_export_table_id t,
		     const mev_export_options *opt)
{
	static const mev_export_options defaults = { 0 };
	mev_section_change_list changes = { 0 };
	mev__export_ctx x = { s, NULL, NULL, &changes, NULL, NULL, 0, NULL, NULL, NULL };
	mev_table *w = NULL;
	path_buffer pb;
	mev_history *h = NULL, *own = NULL;
	int rc;
	if (!opt)
		opt = &defaults;
	if ((unsigned)t >= MEV_EXPORT_TABLE_COUNT)
		return mev_error_set(MEV_EINVAL, "unknown table %d", (int)t);
	memset(&pb, 0, sizeof pb);
	if ((rc = check_options(t, opt)) || (rc = path_begin(&pb, &x, opt)) ||
	    (rc = mev_release_names_new(&x.names, s)))
		goto done;
	x.opt = opt;
	/* every table reads the releases (and clusters where they exist); the
	 * events filter --release themselves, and the lineages, one row each
	 * for the whole history, need the clustering of every release */
	if ((rc = mev_history_use(&h, &own, s, opt->history,
				  t == MEV_EXPORT_EVENTS || t == MEV_EXPORT_LINEAGES ? NULL : opt->release,
				  tables[t].need)) ||
	    (rc = check_needs(s, t, h, opt)))
		goto done;
	x.h = h;
	if (mev__export_reads_roster(t) && (rc = mev_flow_roster_reader_new(&x.roster, s, opt->repo)))
		goto done;
	if (opt->people && (rc = mev__export_handles_read(&x.people, opt->people)))
		goto done;
	if (t == MEV_EXPORT_SECTION_CHANGES &&
	    (rc = mev_history_read_section_changes(&changes, h, opt->from,
						   opt->to ? opt->to : opt->release)))
		goto done;
	if ((rc = mev_table_new(&w, pb.f ? pb.f : out, opt->format,
				t == MEV_EXPORT_WORKLOAD ? mev_export_workload_columns(opt->by)
							 : tables[t].cols)))
		goto done;
	if (pb.f)
		mev_table_escape_controls(w, isatty(fileno(out)));
	mev_table_excel_safe(w, opt->excel_safe);
	if (!(rc = tables[t].rows(w, &x)))
		rc = mev_table_finish(w);
done:
	mev_table_free(w);
	mev_flow_roster_reader_free(x.roster);
	mev__export_handles_free(x.people);
	rc = path_end(&pb, rc, out, s, h, &x);
	mev_section_change_list_free(&changes);
	mev_history_free(own);
	mev_release_names_free(x.names);
	return rc;
}

int mev__export_any_flow(mev_store *s, const mev_history *h, const char *tag)
{
	size_t first, end;
	mev__export_range(&first, &end, h, tag);
	for (size_t i = first; i < end; i++) {
		char *prev = NULL;
		int rc = mev_flow_stored(&prev, s, mev_history_release(h, i)->tag);
		free(prev);
		if (rc)
			return rc;
	}
	return 0;
}

/* --- for the SQLite export (sqlite.c) -------------------------------------------- */

int mev__export_reads_roster(mev_export_table_id t)
{
	return t == MEV_EXPORT_WORKLOAD || t == MEV_EXPORT_LISTED || t == MEV_EXPORT_CANDIDATES ||
	       t == MEV_EXPORT_LISTED_SECTIONS;
}

int mev__export_rows(mev_table *w, const mev__export_ctx *x, mev_export_table_id t)
{
	return tables[t].rows(w, x);
}

int mev__export_ready(const mev_history *h, mev_export_table_id t)
{
	if (t == MEV_EXPORT_CLUSTERS)
		return mev_history_clustered(h);
	if (t == MEV_EXPORT_EVENTS || t == MEV_EXPORT_LINEAGES || t == MEV_EXPORT_FLOWS)
		return mev_history_tracked(h);
	return 1;
}

int mev__export_check_release(mev_store *s, const mev_history *h, const mev_export_options *opt)
{
	size_t lo, hi;
	if (opt->release && mev_history_find(h, opt->release) < 0)
		return not_stored(s, opt->release);
	return mev_release_range(&lo, &hi, s, mev_history_releases(h), mev_history_release_count(h),
				 opt->from, opt->to, 0);
}
