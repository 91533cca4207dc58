/* Clusterings, events and lineages of a store read together (see history.h). */
#include "history.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

#include <stdlib.h>
#include <string.h>

static int release_index(const history *h, const char *tag, int64_t *out)
{
	*out = history_find(h, tag);
	return *out >= 0;
}

int64_t history_find(const history *h, const char *tag)
{
	/* releases are few (hundreds): a linear scan is fine */
	for (size_t i = 0; tag && i < h->n; i++)
		if (strcmp(h->list[i].tag, tag) == 0)
			return (int64_t)i;
	return -1;
}

int64_t history_cluster_of(const history *h, size_t r, const char *title)
{
	const history_release *hr = &h->rel[r];
	int64_t sec;
	uint32_t k;
	if (!hr->c)
		return -1;
	sec = mev_strmap_get(&hr->by_title, title, strlen(title));
	if (sec < 0)
		return -1;
	k = mev_clustering_of(hr->c, (uint32_t)sec);
	return k == MEV_CLUSTER_NONE ? -1 : (int64_t)k;
}

int64_t history_cluster_named(const history *h, size_t r, const char *title)
{
	const history_release *hr = &h->rel[r];
	int64_t sec = hr->c ? mev_strmap_get(&hr->by_title, title, strlen(title)) : -1;
	uint32_t k;
	if (sec < 0)
		return -1;
	k = mev_clustering_of(hr->c, (uint32_t)sec);
	if (k == MEV_CLUSTER_NONE || mev_clustering_representative(hr->c, k) != (uint32_t)sec)
		return -1;
	return (int64_t)k;
}

/*
 * The lineage of every cluster, by the rules of history_load(), weakest
 * first so that a stronger rule overwrites: 3. the oldest lineage among the
 * events leaving a cluster (a split gives new, higher ids to the smaller
 * successors, a merge carries the largest predecessor's); 2. a lineage is
 * named after its representative in its last release; 1. the event leading
 * into a cluster carries its lineage.
 */
static void assign_lineages(history *h)
{
	const mev_event *ev = h->events.v;
	int64_t r, k;
	for (size_t i = 0; i < h->events.n; i++) {
		int64_t *slot;
		if (!ev[i].from_cluster[0] || !release_index(h, ev[i].from_release, &r) ||
		    (k = history_cluster_named(h, (size_t)r, ev[i].from_cluster)) < 0)
			continue;
		slot = &h->rel[r].lineage[k];
		if (*slot < 0 || (int64_t)ev[i].lineage < *slot)
			*slot = ev[i].lineage;
		if (ev[i].from_lines >= 0)
			h->rel[r].code[k] = ev[i].from_lines;
	}
	for (size_t i = 0; i < h->lineages.n; i++) {
		const mev_lineage *l = &h->lineages.v[i];
		if (release_index(h, l->last_release, &r) &&
		    (k = history_cluster_named(h, (size_t)r, l->name)) >= 0)
			h->rel[r].lineage[k] = l->id;
	}
	for (size_t i = 0; i < h->events.n; i++)
		if (ev[i].to_cluster[0] && release_index(h, ev[i].to_release, &r) &&
		    (k = history_cluster_named(h, (size_t)r, ev[i].to_cluster)) >= 0) {
			h->rel[r].lineage[k] = ev[i].lineage;
			if (ev[i].to_lines >= 0)
				h->rel[r].code[k] = ev[i].to_lines;
		}
}

uint64_t history_cluster_lines(const history *h, size_t r, uint32_t k)
{
	const history_release *hr = &h->rel[r];
	return hr->code && hr->code[k] >= 0 ? (uint64_t)hr->code[k] : mev_clustering_lines(hr->c, k);
}

int history_load(history *h, mev_store *s, const mev_cluster_params *cp, const char *only,
		 unsigned need)
{
	mev_cluster_params defaults;
	int rc;
	memset(h, 0, sizeof *h);
	if (!cp) {
		mev_cluster_params_init(&defaults);
		cp = &defaults;
	}
	mev_cluster_key(cp, h->key, sizeof h->key);
	if ((rc = mev_release_list(&h->list, &h->n, s)))
		return rc;
	if (only && history_find(h, only) < 0) {
		rc = mev_error_set(MEV_ENOTFOUND, "release '%s' is not in store '%s'", only,
				   mev_store_dir(s));
		mev_error_hint("list the stored releases with 'maintevo releases --store %s'",
			       mev_store_dir(s));
		return rc;
	}
	if (!(h->rel = calloc(h->n + 1, sizeof *h->rel)))
		return mev_error_oom();
	for (size_t i = 0; i < h->n; i++) {
		history_release *hr = &h->rel[i];
		size_t nc, ns;
		if (!(need & HISTORY_CLUSTERS) || (only && strcmp(only, h->list[i].tag) != 0))
			continue;
		rc = mev_cluster_load(&hr->c, s, cp, h->list[i].tag);
		if (rc == MEV_ENOTFOUND) {
			mev_error_clear();
			hr->c = NULL;
			continue;
		}
		if (rc)
			return rc;
		h->clustered = 1;
		nc = mev_clustering_count(hr->c);
		ns = mev_clustering_section_count(hr->c);
		hr->lineage = malloc((nc + 1) * sizeof *hr->lineage);
		hr->code = malloc((nc + 1) * sizeof *hr->code);
		if (!hr->lineage || !hr->code)
			return mev_error_oom();
		for (size_t k = 0; k < nc; k++)
			hr->lineage[k] = hr->code[k] = -1;
		for (size_t k = 0; k < ns; k++) {
			const char *t = mev_clustering_title(hr->c, (uint32_t)k);
			if (mev_strmap_put(&hr->by_title, t, strlen(t), (uint32_t)k))
				return MEV_ENOMEM;
		}
	}
	if (!(need & HISTORY_TRACKS) || ((need & HISTORY_CLUSTERS) && !h->clustered))
		return 0;
	rc = mev_track_events(s, cp, NULL, NULL, &h->events);
	if (!rc)
		rc = mev_track_lineages(s, cp, &h->lineages);
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		mev_event_list_free(&h->events);
		mev_lineage_list_free(&h->lineages);
		memset(&h->events, 0, sizeof h->events);
		memset(&h->lineages, 0, sizeof h->lineages);
		return 0;
	}
	if (rc)
		return rc;
	h->tracked = 1;
	if (h->clustered)
		assign_lineages(h);
	return 0;
}

void history_free(history *h)
{
	for (size_t i = 0; h->rel && i < h->n; i++) {
		mev_clustering_free(h->rel[i].c);
		free(h->rel[i].lineage);
		free(h->rel[i].code);
		mev_strmap_free(&h->rel[i].by_title);
	}
	free(h->rel);
	mev_event_list_free(&h->events);
	mev_lineage_list_free(&h->lineages);
	mev_release_list_free(h->list, h->n);
	memset(h, 0, sizeof *h);
}
