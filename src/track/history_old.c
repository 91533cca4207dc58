/* The read model chart, export and report use until they read through mev_history (see track_shared.h). */
#include "track_shared.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

#include <stdlib.h>
#include <string.h>

int64_t mev__history_find(const mev__history *h, const char *tag)
{
	/* releases are few (hundreds): a linear scan is fine */
	for (size_t i = 0; tag && i < h->n; i++)
		if (strcmp(h->list[i].tag, tag) == 0)
			return (int64_t)i;
	return -1;
}

int64_t mev__history_cluster_of(const mev__history *h, size_t r, const char *title)
{
	const mev__history_release *hr = &h->rel[r];
	int64_t sec;
	uint32_t k;
	if (!hr->c)
		return -1;
	sec = mev__strmap_get(&hr->by_title, title, strlen(title));
	if (sec < 0)
		return -1;
	k = mev_clustering_of(hr->c, (uint32_t)sec);
	return k == MEV_CLUSTER_NONE ? -1 : (int64_t)k;
}

int64_t mev__history_cluster_named(const mev__history *h, size_t r, const char *title)
{
	const mev__history_release *hr = &h->rel[r];
	int64_t sec = hr->c ? mev__strmap_get(&hr->by_title, title, strlen(title)) : -1;
	uint32_t k;
	if (sec < 0)
		return -1;
	k = mev_clustering_of(hr->c, (uint32_t)sec);
	if (k == MEV_CLUSTER_NONE || mev_clustering_representative(hr->c, k) != (uint32_t)sec)
		return -1;
	return (int64_t)k;
}

uint64_t mev__history_cluster_lines(const mev__history *h, size_t r, uint32_t k)
{
	const mev__history_release *hr = &h->rel[r];
	return hr->code && hr->code[k] >= 0 ? (uint64_t)hr->code[k] : mev_clustering_lines(hr->c, k);
}

const char *mev__history_lineage_name(const mev__history *h, size_t r, uint32_t k)
{
	const mev__history_release *hr = &h->rel[r];
	if (!hr->lineage || hr->lineage[k] < 0 || k >= hr->names.n || !hr->names.v[k].name)
		return "";
	return hr->names.v[k].name;
}

/* Read the clustering of release i (none stored is no error). */
static int load_release(mev__history *h, size_t i, mev_store *s, const mev_cluster_params *cp)
{
	mev__history_release *hr = &h->rel[i];
	size_t nc, ns;
	int rc = mev_cluster_load(&hr->c, s, cp, h->list[i].tag);
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		hr->c = NULL;
		return 0;
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
		if (mev__strmap_put(&hr->by_title, t, strlen(t), (uint32_t)k))
			return mev_error_oom();
	}
	return 0;
}

/* The lineage and code lines the tracker stored for each cluster of
 * release i, when they describe the clustering read. */
static int load_lineages(mev__history *h, size_t i, mev_store *s, const mev_cluster_params *cp,
			 const mev_track_params *tp)
{
	mev__history_release *hr = &h->rel[i];
	mev_tracked_cluster_list tc = { 0 };
	int rc = mev_track_clusters(&tc, s, cp, tp, h->list[i].tag);
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		return 0;
	}
	if (rc)
		return rc;
	if (tc.n == mev_clustering_count(hr->c) && tc.fingerprint == mev_clustering_fingerprint(hr->c))
		for (size_t k = 0; k < tc.n; k++) {
			hr->lineage[k] = tc.v[k].lineage;
			hr->code[k] = (int64_t)tc.v[k].code_lines;
		}
	hr->names = tc;
	return 0;
}

/* Events and lineages, when 'maintevo track' ran for these parameters. */
static int load_tracks(mev__history *h, mev_store *s, const mev_cluster_params *cp,
		       const mev_track_params *tp)
{
	int rc = mev_track_events(&h->events, s, cp, tp, NULL, NULL);
	if (!rc)
		rc = mev_track_lineages(&h->lineages, s, cp, tp);
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		mev_event_list_free(&h->events);
		mev_lineage_list_free(&h->lineages);
		return 0;
	}
	if (rc)
		return rc;
	h->tracked = 1;
	for (size_t i = 0; i < h->n && !rc; i++)
		if (h->rel[i].c)
			rc = load_lineages(h, i, s, cp, tp);
	return rc;
}

static int history_read(mev__history *h, mev_store *s, const mev_cluster_params *cp,
			const mev_track_params *tp, const char *only, unsigned need)
{
	int rc;
	if ((rc = mev_release_list(&h->list, &h->n, s)))
		return rc;
	if (only && mev__history_find(h, only) < 0)
		return mev_release_not_stored(s, only);
	if (!(h->rel = calloc(h->n + 1, sizeof *h->rel)))
		return mev_error_oom();
	/* a store without releases has nothing to cluster: its tables are empty */
	h->clustered = h->n == 0;
	for (size_t i = 0; i < h->n; i++)
		if ((need & MEV__HISTORY_CLUSTERS) && (!only || strcmp(only, h->list[i].tag) == 0) &&
		    (rc = load_release(h, i, s, cp)))
			return rc;
	if (!(need & MEV__HISTORY_TRACKS) || ((need & MEV__HISTORY_CLUSTERS) && !h->clustered))
		return 0;
	return load_tracks(h, s, cp, tp);
}

int mev__history_load(mev__history *h, mev_store *s, const mev_cluster_params *cp,
		      const mev_track_params *tp, const char *only, unsigned need)
{
	mev_cluster_params defaults;
	mev_track_params tdefaults;
	int rc;
	memset(h, 0, sizeof *h);
	if (!cp) {
		mev_cluster_params_init(&defaults);
		cp = &defaults;
	}
	if (!tp) {
		mev_track_params_init(&tdefaults);
		tp = &tdefaults;
	}
	mev_cluster_key(h->key, sizeof h->key, cp);
	mev_track_key(h->tkey, sizeof h->tkey, tp);
	/* the releases, their clusterings and the tracker's records from one
	 * snapshot, held until mev__history_free(): a walk or a track writing
	 * meanwhile is not seen half way, nor a release dropped (walk
	 * --rebuild) before the caller reads its graph */
	if ((rc = mev_store_read_begin(s)))
		return rc;
	if ((rc = history_read(h, s, cp, tp, only, need))) {
		/* what was read is let go: callers return at once */
		mev_store_read_end(s);
		mev__history_free(h);
	} else {
		h->snapshot = s;
	}
	return rc;
}

void mev__history_free(mev__history *h)
{
	for (size_t i = 0; h->rel && i < h->n; i++) {
		mev_clustering_free(h->rel[i].c);
		free(h->rel[i].lineage);
		free(h->rel[i].code);
		mev_tracked_cluster_list_free(&h->rel[i].names);
		mev__strmap_free(&h->rel[i].by_title);
	}
	free(h->rel);
	mev_event_list_free(&h->events);
	mev_lineage_list_free(&h->lineages);
	mev_release_list_free(h->list, h->n);
	mev_store_read_end(h->snapshot);
	memset(h, 0, sizeof *h);
}
