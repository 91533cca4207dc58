/*
 * Patch flow's integration distance (docs/flow.md): the hops in the
 * release's overlap graph from the sections the committer is an M: of to
 * the sections the commit touches.  The graph is read once per release and
 * searched once per distinct set of committer's sections (the record
 * interns sets, so a set's id is the cache key): U-Boot has a thousand
 * sections a release and thousands of commits, but few committers.
 */
#include "export_internal.h"
#include "maintevo/error.h"
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

struct mev__flow_dist {
	int missing;              /* the release's graph is not stored */
	mev_filemap *fm;
	mev_graph *g;
	mev_graph_hops *hops;
	mev_strmap by_title;      /* title -> section of fm */
	uint32_t *sec_of;         /* per string id of the record: section + 1, 0 none,
				     UINT32_MAX not looked up yet */
	uint32_t **dist;          /* per set of the record: the hops from it (NULL: not yet) */
	size_t n_sets;
};

void mev__export_flow_dist_free(mev__flow_dist *d)
{
	if (!d)
		return;
	for (size_t i = 0; d->dist && i < d->n_sets; i++)
		free(d->dist[i]);
	free(d->dist);
	free(d->sec_of);
	mev__strmap_free(&d->by_title);
	mev_graph_hops_free(d->hops);
	mev_graph_free(d->g);
	mev_filemap_free(d->fm);
	free(d);
}

/* The release's graph (without THE REST, as 'maintevo graph' writes it),
 * its search and its titles; d->missing when the store has no graph of it. */
static int dist_open(mev__flow_dist **out, const mev__export_ctx *x, const mev_flow_release *fr)
{
	mev__flow_dist *d = calloc(1, sizeof *d);
	const mev_section_info *s;
	size_t ns;
	int rc;
	if (!d)
		return mev_error_oom();
	*out = d;
	rc = mev_release_load_graph(&d->fm, &d->g, x->s, fr->tag, 0);
	if (rc == MEV_ENOTFOUND) {
		d->missing = 1;
		return 0;
	}
	if (rc || (rc = mev_graph_hops_new(&d->hops, d->g)))
		return rc;
	d->n_sets = fr->n_sets;
	d->dist = calloc(fr->n_sets + 1, sizeof *d->dist);
	d->sec_of = malloc((fr->n_strings + 1) * sizeof *d->sec_of);
	if (!d->dist || !d->sec_of)
		return mev_error_oom();
	memset(d->sec_of, 0xff, (fr->n_strings + 1) * sizeof *d->sec_of);
	s = mev_filemap_sections(d->fm);
	ns = mev_filemap_section_count(d->fm);
	for (size_t i = 0; i < ns; i++)
		if (mev__strmap_put_ref(&d->by_title, s[i].title, strlen(s[i].title), (uint32_t)i))
			return mev_error_oom();
	return 0;
}

/* The section of the graph titled like string `title` of the record, or
 * UINT32_MAX when the release has none so titled. */
static uint32_t section_of(mev__flow_dist *d, const mev_flow_release *fr, uint32_t title)
{
	if (d->sec_of[title] == UINT32_MAX) {
		int64_t i = mev__strmap_get(&d->by_title, fr->strings[title], strlen(fr->strings[title]));
		d->sec_of[title] = i < 0 ? 0 : (uint32_t)i + 1;
	}
	return d->sec_of[title] - 1; /* 0 - 1: UINT32_MAX */
}

/* The hops from the sections of record set `set` (searched the first time). */
static int hops_from(const uint32_t **out, mev__flow_dist *d, const mev_flow_release *fr,
		     uint32_t set)
{
	const uint32_t *ids;
	size_t n = mev_flow_set(&ids, fr, set), k = 0;
	uint32_t *from;
	int rc;
	if (d->dist[set]) {
		*out = d->dist[set];
		return 0;
	}
	from = malloc((n + 1) * sizeof *from);
	d->dist[set] = malloc((mev_filemap_section_count(d->fm) + 1) * sizeof **d->dist);
	if (!from || !d->dist[set]) {
		free(from);
		return mev_error_oom();
	}
	for (size_t i = 0; i < n; i++)
		if ((from[k] = section_of(d, fr, ids[i])) != UINT32_MAX)
			k++;
	rc = mev_graph_hops_from(d->dist[set], d->hops, from, k);
	free(from);
	*out = d->dist[set];
	return rc;
}

int mev__export_flow_distance(int64_t *out, const mev__export_ctx *x, mev__flow_rel *f,
			      const mev_flow_commit *c)
{
	const mev_flow_release *fr = f->fr;
	const uint32_t *touched, *own, *dist = NULL;
	size_t nt = mev_flow_set(&touched, fr, c->sections);
	size_t no = mev_flow_set(&own, fr, c->committer_sections);
	uint32_t best = MEV_GRAPH_NO_PATH;
	int rc;

	*out = MEV__FLOW_DIST_NONE;
	if (!nt || !no)
		return 0;
	/* committer_is_maintainer: an M: of a touched section, even one the
	 * release's graph lacks (renamed by the release) */
	if (c->verdicts & (1u << MEV_FLOW_COMMITTER_IS_MAINTAINER)) {
		*out = 0;
		return 0;
	}
	if (!f->dist && (rc = dist_open(&f->dist, x, fr)))
		return rc;
	if (f->dist->missing)
		return 0;
	if ((rc = hops_from(&dist, f->dist, fr, c->committer_sections)))
		return rc;
	for (size_t i = 0; i < nt; i++) {
		uint32_t s = section_of(f->dist, fr, touched[i]);
		if (s != UINT32_MAX && dist[s] < best)
			best = dist[s];
	}
	*out = best == MEV_GRAPH_NO_PATH ? MEV__FLOW_DIST_NO_PATH : (int64_t)best;
	return 0;
}
