/* The clusters, events, lineages and section_changes tables: what cluster and track found. */
#include "export_internal.h"
#include "maintevo/chart.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

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

/* The rows of cluster k of release i, its sections in `rows` (room for all). */
static int cluster_rows(mev_table *w, const mev__export_ctx *x, size_t i, uint32_t k, cl_row *rows)
{
	const mev_history *h = x->h;
	const mev_clustering *c = mev_history_clustering(h, i);
	const char *tag = mev_history_release(h, i)->tag;
	uint32_t rs = mev_clustering_representative(c, k);
	const char *rep = mev_clustering_title(c, rs);
	int64_t lineage = mev_history_cluster_lineage(h, i, k);
	size_t ns = mev_clustering_section_count(c), n = 0;
	int rc = 0;
	for (uint32_t j = 0; j < ns; j++)
		if (mev_clustering_of(c, j) == k && j != rs) {
			cl_row r = { j, mev_clustering_section_lines(c, j), mev_clustering_title(c, j) };
			rows[1 + n++] = r;
		}
	/* the representative first: not always the largest (cluster.h) */
	rows[0] = (cl_row){ rs, mev_clustering_section_lines(c, rs), rep };
	mev__export_sort(rows + 1, n++, sizeof *rows, cl_row_cmp);
	for (size_t j = 0; j < n; j++) {
		mev_table_str(w, mev_history_release(h, i)->tag);
		mev_table_str(w, mev_history_cluster_key(h));
		mev_table_uint(w, k + 1);
		mev_table_str(w, rep);
		mev_table_str(w, rows[j].title);
		mev_table_uint(w, rows[j].lines);
		mev_table_uint(w, mev_clustering_size(c, k));
		mev_table_uint(w, mev_clustering_lines(c, k));
		mev_table_int_or_null(w, mev_history_cluster_code_lines(h, i, k));
		mev_table_int_or_null(w, lineage);
		mev_table_str_or_null(w, lineage >= 0 ? mev_history_lineage_name(h, i, k) : NULL);
		mev_table_str_or_null(w, mev_history_tracked(h) ? mev_history_track_key(h) : NULL);
		mev_table_str(w, mev__export_display(x, tag, rows[j].title, &rc));
		mev_table_str(w, mev__export_display(x, tag, rep, &rc));
		mev_table_end_row(w);
	}
	return rc;
}

/* Rows by cluster number, its representative first, then section lines
 * (largest first), then title. */
int mev__export_clusters(mev_table *w, const mev__export_ctx *x)
{
	const mev_history *h = x->h;
	size_t first, end;
	int rc = 0;
	mev__export_range(&first, &end, h, x->opt->release);
	for (size_t i = first; i < end && !rc; i++) {
		const mev_clustering *c = mev_history_clustering(h, i);
		cl_row *rows;
		if (!c)
			continue;
		if (!(rows = malloc((mev_clustering_section_count(c) + 1) * sizeof *rows)))
			return mev_error_oom();
		for (uint32_t k = 0; k < mev_clustering_count(c) && !rc; k++)
			rc = cluster_rows(w, x, i, k, rows);
		free(rows);
	}
	return rc;
}

/* The name of lineage `id` ("" when unknown). */
static const char *lineage_name(const mev_history *h, uint32_t id)
{
	return id >= 1 && id <= mev_history_lineages(h)->n ? mev_history_lineages(h)->v[id - 1].name
							   : "";
}

/* A release pair kept by --release, --from and --to (as mev_history_read_events()
 * limits them: version order, both ends included). */
static int pair_wanted(const mev_history *h, const mev_export_options *opt, const char *from,
		       const char *to)
{
	return (!opt->release || strcmp(to, opt->release) == 0) &&
	       (!opt->from || mev_history_find(h, from) >= mev_history_find(h, opt->from)) &&
	       (!opt->to || mev_history_find(h, to) <= mev_history_find(h, opt->to));
}

int mev__export_events(mev_table *w, const mev__export_ctx *x)
{
	const mev_history *h = x->h;
	int rc = 0;
	for (size_t i = 0; i < mev_history_events(h)->n && !rc; i++) {
		const mev_event *e = &mev_history_events(h)->v[i];
		if (!pair_wanted(h, x->opt, e->from_release, e->to_release))
			continue;
		mev_table_str(w, e->from_release);
		mev_table_str(w, e->to_release);
		mev_table_str(w, mev_event_name(e->kind));
		mev_table_uint(w, e->lineage);
		mev_table_str_or_null(w, e->from_cluster);
		mev_table_str_or_null(w, e->to_cluster);
		mev_table_num(w, e->similarity);
		mev_table_int_or_null(w, e->from_lines);
		mev_table_int_or_null(w, e->to_lines);
		mev_table_str(w, mev_history_cluster_key(h));
		mev_table_str_or_null(w, lineage_name(h, e->lineage));
		mev_table_int_or_null(w, e->from_lineage ? (int64_t)e->from_lineage : -1);
		mev_table_num(w, e->share);
		mev_table_str_or_null(w, e->partner);
		mev_table_int_or_null(w, e->partner_lineage ? (int64_t)e->partner_lineage : -1);
		mev_table_num(w, e->partner_share);
		mev_table_num(w, e->support);
		mev_table_str(w, mev_history_track_key(h));
		mev_table_str_or_null(w, mev__export_display(x, e->from_release, e->from_cluster, &rc));
		mev_table_str_or_null(w, mev__export_display(x, e->to_release, e->to_cluster, &rc));
		mev_table_str_or_null(w, e->cause_kind);
		mev_table_str_or_null(w, e->cause);
		mev_table_end_row(w);
	}
	return rc;
}

/*
 * The name lineage l carries at its last release: the display name of the
 * representative of its cluster there, as clusters are named (NULL when
 * that release is not clustered as tracked).  Its stable name (l->name)
 * is the same name at its first release.
 */
static const char *last_name(const mev__export_ctx *x, const mev_lineage *l, int *rc)
{
	const mev_history *h = x->h;
	int64_t r = mev_history_find(h, l->last_release);
	int64_t k = r >= 0 ? mev_history_lineage_cluster(h, (size_t)r, l->id) : -1;
	const mev_clustering *c;
	if (k < 0)
		return NULL;
	c = mev_history_clustering(h, (size_t)r);
	return mev__export_display(x, l->last_release,
				   mev_clustering_title(c, mev_clustering_representative(c, (uint32_t)k)),
				   rc);
}

int mev__export_lineages(mev_table *w, const mev__export_ctx *x)
{
	const mev_history *h = x->h;
	int rc = 0;
	for (size_t i = 0; i < mev_history_lineages(h)->n && !rc; i++) {
		const mev_lineage *l = &mev_history_lineages(h)->v[i];
		mev_table_uint(w, l->id);
		mev_table_str(w, l->name);
		mev_table_str(w, l->first_release);
		mev_table_str(w, l->last_release);
		mev_table_int_or_null(w, l->parent ? (int64_t)l->parent : -1);
		mev_table_uint(w, l->peak_lines);
		mev_table_uint(w, l->releases);
		mev_table_str(w, mev_history_cluster_key(h));
		mev_table_str(w, mev_history_track_key(h));
		mev_table_str(w, l->name); /* named after a display name already */
		mev_table_str_or_null(w, last_name(x, l, &rc));
		mev_table_end_row(w);
	}
	return rc;
}

/* Read with --from and --to already (mev_export_table()); --release here. */
int mev__export_section_changes(mev_table *w, const mev__export_ctx *x)
{
	const mev_section_change_list *l = x->changes;
	int rc = 0;
	for (size_t i = 0; i < l->n && !rc; i++) {
		const mev_section_change *c = &l->v[i];
		if (!pair_wanted(x->h, x->opt, c->from_release, c->to_release))
			continue;
		mev_table_str(w, c->from_release);
		mev_table_str(w, c->to_release);
		mev_table_str(w, mev_section_change_name(c->kind));
		mev_table_str(w, c->section);
		mev_table_str_or_null(w, c->new_section);
		mev_table_uint(w, c->lines);
		mev_table_num(w, c->coverage);
		mev_table_str(w, mev__export_display(x, c->kind == MEV_SECTION_ADDED ? c->to_release
							  : c->from_release, c->section, &rc));
		mev_table_str_or_null(w, c->kind == MEV_SECTION_RENAMED
				      ? mev__export_display(x, c->to_release, c->new_section, &rc) : NULL);
		mev_table_end_row(w);
	}
	return rc;
}

/* The lineage chart's band segments (mev_chart_flows()); --release, --from
 * and --to as for events. */
int mev__export_flows(mev_table *w, const mev__export_ctx *x)
{
	mev_chart_flow_list fl = { 0 };
	int rc = mev_chart_flows(&fl, x->s, x->h);
	for (size_t i = 0; i < fl.n && !rc; i++) {
		const mev_chart_flow *f = &fl.v[i];
		if (!pair_wanted(x->h, x->opt, f->from_release, f->to_release))
			continue;
		mev_table_str(w, f->from_release);
		mev_table_str(w, f->to_release);
		mev_table_int_or_null(w, f->from_lineage ? (int64_t)f->from_lineage : -1);
		mev_table_int_or_null(w, f->to_lineage ? (int64_t)f->to_lineage : -1);
		mev_table_uint(w, f->lines);
		mev_table_int_or_null(w, f->files);
		mev_table_uint(w, f->sections);
		mev_table_end_row(w);
	}
	mev_chart_flow_list_free(&fl);
	return rc;
}
