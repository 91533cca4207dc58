/* The tables of releases, sections and edges: a store's numbers release by release. */
#include "export_internal.h"
#include "maintevo/release.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int is_orphan(const char *status)
{
	return strncasecmp(status, "orphan", 6) == 0;
}

static int census_of(const mev_filemap *secs, const mev_graph *g, mev_section_census *c)
{
	const mev_section_info *si = mev_filemap_sections(secs);
	size_t n = mev_filemap_section_count(secs);
	mev_edge *self = NULL;
	int rc = mev__export_self_sizes(&self, g, n);
	if (rc)
		return rc;
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < n; i++) {
		if (si[i].is_rest)
			continue;
		c->sections++;
		c->no_maintainer += si[i].n_maintainers == 0;
		c->orphan += is_orphan(si[i].status);
		c->obsolete += mev__export_is_obsolete(si[i].status);
		/* an import knows no files: its sizes say it */
		c->covers_nothing += !self[i].files && !self[i].lines && !self[i].bytes;
		c->comment_titles += si[i].title_kind == MEV_TITLE_COMMENT;
	}
	free(self);
	return 0;
}

/* The numbers of the health record, when stored. */
static int census_health(mev_section_census *c, mev_store *s, const char *tag)
{
	mev_release_health h;
	int rc = mev_release_load_health(&h, s, tag);
	c->unread_maintainers = -1;
	if (rc == MEV_ENOTFOUND)
		return 0;
	if (rc)
		return rc;
	c->has_health = 1;
	c->dead_patterns = h.npatterns;
	for (size_t i = 0; i < h.npatterns; i++)
		c->dead_self_test += !h.patterns[i].prefix && h.patterns[i].type != 'N';
	for (size_t i = 0; i < h.nsections; i++)
		c->duplicate_titles += h.sections[i].duplicate;
	c->orphan_lines = h.orphan_lines;
	c->orphan_only_lines = h.orphan_only_lines;
	c->obsolete_lines = h.obsolete_lines;
	c->obsolete_only_lines = h.obsolete_only_lines;
	if (h.unread_known)
		c->unread_maintainers = (int64_t)h.nunread;
	mev_release_health_free(&h);
	return 0;
}

int mev_export_census(mev_section_census *out, mev_store *s, const char *tag)
{
	mev_filemap *secs = NULL;
	mev_graph *g = NULL;
	int rc = mev_release_load_graph(&secs, &g, s, tag, 0);
	if (!rc)
		rc = census_of(secs, g, out);
	if (!rc)
		rc = census_health(out, s, tag);
	mev_graph_free(g);
	mev_filemap_free(secs);
	return rc;
}

/* The first of the run of releases before i with i's commit. */
static const char *same_as(const mev_history *h, size_t i)
{
	size_t k = i;
	while (k > 0 && mev_oid_equal(&mev_history_release(h, k - 1)->commit,
				      &mev_history_release(h, i)->commit))
		k--;
	return mev_history_release(h, k)->tag;
}

/* The listed people's headline, stored by flow (headline.c): empty when not known. */
static void headline_columns(mev_table *w, const mev__export_headline *l)
{
	int64_t v[6] = { -1, -1, -1, -1, -1, -1 };
	if (l->known) {
		v[0] = (int64_t)l->addresses;
		v[1] = (int64_t)l->never_seen;
		v[2] = (int64_t)l->quiet[0];
		v[3] = (int64_t)l->gone[0];
		v[4] = (int64_t)l->quiet[1];
		v[5] = (int64_t)l->gone[1];
	}
	for (int k = 0; k < 6; k++)
		mev_table_int_or_null(w, v[k]);
}

int mev__export_releases(mev_table *w, const mev__export_ctx *x)
{
	const mev_history *h = x->h;
	size_t first, end;
	mev__export_headline *listed = NULL;
	int rc = mev__export_headlines(&listed, x->s, h);
	mev__export_range(&first, &end, h, x->opt->release);
	for (size_t i = first; !rc && i < end; i++) {
		const mev_release *r = mev_history_release(h, i);
		const mev_clustering *c = mev_history_clustering(h, i);
		mev_section_census cs;
		char hex[41];
		if ((rc = mev_export_census(&cs, x->s, r->tag)))
			break;
		mev_oid_fmt(hex, &r->commit);
		mev_table_str(w, r->tag);
		mev_table_uint(w, i + 1);
		mev_table_str(w, hex);
		mev_table_date(w, mev_release_date(r));
		mev_table_uint(w, r->files);
		mev_table_uint(w, r->lines);
		mev_table_uint(w, r->bytes);
		mev_table_uint(w, r->sections);
		mev_table_uint(w, r->sections_with_files);
		mev_table_uint(w, cs.no_maintainer);
		mev_table_uint(w, cs.orphan);
		mev_table_uint(w, r->uncovered_files);
		mev_table_uint(w, r->uncovered_lines);
		mev_table_uint(w, r->edges);
		mev_table_uint(w, r->diags);
		mev_table_uint(w, r->maintainer_files);
		mev_table_int_or_null(w, c ? (int64_t)mev_clustering_count(c) : -1);
		mev_table_num(w, c ? mev_clustering_modularity(c) : NAN);
		mev_table_num(w, c ? mev_clustering_reference_modularity(c) : NAN);
		mev_table_str_or_null(w, c ? mev_cluster_step_name(mev_clustering_step(c)) : NULL);
		mev_table_int_or_null(w, c && mev_clustering_step(c) ? (int64_t)mev_clustering_moved(c) : -1);
		mev_table_uint(w, r->rules_version);
		mev_table_str(w, r->rules);
		mev_table_uint(w, cs.covers_nothing);
		mev_table_uint(w, cs.obsolete);
		mev_table_uint(w, cs.comment_titles);
		mev_table_int_or_null(w, cs.has_health ? (int64_t)cs.duplicate_titles : -1);
		mev_table_int_or_null(w, cs.has_health ? (int64_t)cs.dead_patterns : -1);
		mev_table_int_or_null(w, cs.has_health ? (int64_t)cs.orphan_lines : -1);
		mev_table_int_or_null(w, cs.has_health ? (int64_t)cs.obsolete_lines : -1);
		mev_table_str(w, mev_release_kind(r->tag));
		mev_table_date(w, r->time);
		/* a period without a new commit: the release before with the same commit */
		mev_table_str_or_null(w, i && mev_oid_equal(&mev_history_release(h, i - 1)->commit, &r->commit)
						 ? same_as(h, i) : NULL);
		mev_table_int_or_null(w, cs.unread_maintainers);
		headline_columns(w, &listed[i]);
		mev_table_end_row(w);
	}
	free(listed);
	return rc;
}

/* The section rows of release i: by title, with their own sizes. */
static int section_rows(mev_table *w, const mev__export_ctx *x, size_t i)
{
	const mev_history *h = x->h;
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	mev_edge *sz = NULL;
	uint32_t *order = NULL;
	size_t k = 0;
	int rc;
	if (!(rc = mev_release_load_graph(&fm, &g, x->s, mev_history_release(h, i)->tag,
					  x->opt->keep_rest)) &&
	    !(rc = mev__export_self_sizes(&sz, g, mev_filemap_section_count(fm))) &&
	    !(rc = mev__export_sorted_sections(&order, &k, fm, x->opt->keep_rest))) {
		const mev_section_info *si = mev_filemap_sections(fm);
		for (size_t j = 0; j < k; j++) {
			const mev_section_info *sec = &si[order[j]];
			mev__export_member m = mev__export_member_of(h, (int64_t)i, sec->title);
			mev_table_str(w, mev_history_release(h, i)->tag);
			mev_table_str(w, sec->title);
			mev_table_str_or_null(w, sec->status);
			mev_table_uint(w, sec->n_maintainers);
			mev_table_uint(w, sec->n_reviewers);
			mev_table_uint(w, sec->n_lists);
			mev_table_uint(w, sec->n_trees);
			mev_table_uint(w, sec->n_patterns);
			mev_table_uint(w, sz[order[j]].files);
			mev_table_uint(w, sz[order[j]].lines);
			mev_table_uint(w, sz[order[j]].bytes);
			mev__export_member_row(w, &m);
			mev_table_str(w, sec->display);
			mev_table_str(w, mev_title_kind_name((mev_title_kind)sec->title_kind));
			mev_table_str_or_null(w, mev__export_display(x, mev_history_release(h, i)->tag,
								     m.representative, &rc));
			mev_table_end_row(w);
		}
	}
	free(order);
	free(sz);
	mev_graph_free(g);
	mev_filemap_free(fm);
	return rc;
}

int mev__export_sections(mev_table *w, const mev__export_ctx *x)
{
	size_t first, end;
	int rc = 0;
	mev__export_range(&first, &end, x->h, x->opt->release);
	for (size_t i = first; !rc && i < end; i++)
		rc = section_rows(w, x, i);
	return rc;
}

int mev__export_edges(mev_table *w, const mev__export_ctx *x)
{
	const mev_history *h = x->h;
	size_t first, end;
	int rc = 0;
	mev__export_range(&first, &end, h, x->opt->release);
	for (size_t i = first; !rc && i < end; i++) {
		mev_filemap *fm = NULL;
		mev_graph *g = NULL;
		if (!(rc = mev_release_load_graph(&fm, &g, x->s, mev_history_release(h, i)->tag,
						  x->opt->keep_rest))) {
			const mev_section_info *si = mev_filemap_sections(fm);
			const mev_edge *e = mev_graph_edges(g);
			for (size_t j = 0; j < mev_graph_edge_count(g); j++) {
				if (e[j].a == e[j].b)
					continue;
				mev_table_str(w, mev_history_release(h, i)->tag);
				mev_table_str(w, si[e[j].a].title);
				mev_table_str(w, si[e[j].b].title);
				mev_table_uint(w, e[j].lines);
				mev_table_uint(w, e[j].bytes);
				mev_table_uint(w, e[j].files);
				mev_table_str(w, si[e[j].a].display);
				mev_table_str(w, si[e[j].b].display);
				mev_table_end_row(w);
			}
		}
		mev_graph_free(g);
		mev_filemap_free(fm);
	}
	return rc;
}
