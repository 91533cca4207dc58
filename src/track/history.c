/*
 * The tracked history of a store read through one handle (mev_history,
 * track.h): the releases, their clusterings, the lineage of every cluster,
 * the events and the lineages, read from one snapshot with keys made once.
 */
#include "track_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

#include <stdlib.h>
#include <string.h>

/* One release: its clustering and what the tracker stored for its clusters. */
typedef struct {
	int read; /* its clustering was read (c may still be NULL) */
	mev_clustering *c; /* NULL when the release is not clustered */
	int64_t *lineage; /* per cluster: its lineage id, -1 when unknown */
	int64_t *code; /* per cluster: lines of the files it covers, each
				   * once (the tracker's size); -1 when unknown */
	mev_tracked_cluster_list names; /* what the tracker stored (names[k].name: the
				   * lineage's name), when lineage[] is known */
	mev_strmap by_title; /* section title -> section index of c */
} history_release;

struct mev_history {
	mev_store *s; /* whose read snapshot is held */
	mev_cluster_params cp;
	mev__track_keys keys;
	char key[128]; /* the clustering's parameter key */
	char tkey[160]; /* the tracker's thresholds (mev_track_key()) */
	mev_release *list; /* every stored release, in version order */
	size_t n;
	history_release *rel; /* one per release */
	int clustered; /* some release read has a clustering */
	int tracks_read; /* events and lineages were asked for */
	int tracked; /* ... and read */
	mev_event_list events;
	mev_lineage_list lineages;
};

/* --- the views ------------------------------------------------------------- */

mev_store *mev_history_store(const mev_history *h)
{
	return h->s;
}

const char *mev_history_cluster_key(const mev_history *h)
{
	return h->key;
}

const char *mev_history_track_key(const mev_history *h)
{
	return h->tkey;
}

size_t mev_history_release_count(const mev_history *h)
{
	return h->n;
}

const mev_release *mev_history_releases(const mev_history *h)
{
	return h->list;
}

const mev_release *mev_history_release(const mev_history *h, size_t r)
{
	return &h->list[r];
}

int64_t mev_history_find(const mev_history *h, const char *tag)
{
	/* releases are few (hundreds): a linear scan is fine */
	for (size_t i = 0; tag && i < h->n; i++)
		if (strcmp(h->list[i].tag, tag) == 0)
			return (int64_t)i;
	return -1;
}

int mev_history_clustered(const mev_history *h)
{
	return h->clustered;
}

const mev_clustering *mev_history_clustering(const mev_history *h, size_t r)
{
	return h->rel[r].c;
}

int64_t mev_history_cluster_of(const mev_history *h, size_t r, const char *title)
{
	const history_release *hr = &h->rel[r];
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

int64_t mev_history_cluster_named(const mev_history *h, size_t r, const char *title)
{
	const history_release *hr = &h->rel[r];
	int64_t sec = hr->c ? mev__strmap_get(&hr->by_title, title, strlen(title)) : -1;
	uint32_t k;
	if (sec < 0)
		return -1;
	k = mev_clustering_of(hr->c, (uint32_t)sec);
	if (k == MEV_CLUSTER_NONE || mev_clustering_representative(hr->c, k) != (uint32_t)sec)
		return -1;
	return (int64_t)k;
}

int64_t mev_history_cluster_lineage(const mev_history *h, size_t r, uint32_t k)
{
	const history_release *hr = &h->rel[r];
	return hr->lineage ? hr->lineage[k] : -1;
}

int64_t mev_history_lineage_cluster(const mev_history *h, size_t r, uint32_t lineage)
{
	const history_release *hr = &h->rel[r];
	for (size_t k = 0; hr->lineage && k < mev_clustering_count(hr->c); k++)
		if (hr->lineage[k] == (int64_t)lineage)
			return (int64_t)k;
	return -1;
}

uint64_t mev_history_cluster_lines(const mev_history *h, size_t r, uint32_t k)
{
	const history_release *hr = &h->rel[r];
	return hr->code && hr->code[k] >= 0 ? (uint64_t)hr->code[k] : mev_clustering_lines(hr->c, k);
}

int64_t mev_history_cluster_code_lines(const mev_history *h, size_t r, uint32_t k)
{
	const history_release *hr = &h->rel[r];
	return hr->code ? hr->code[k] : -1;
}

const char *mev_history_lineage_name(const mev_history *h, size_t r, uint32_t k)
{
	const history_release *hr = &h->rel[r];
	if (!hr->lineage || hr->lineage[k] < 0 || k >= hr->names.n || !hr->names.v[k].name)
		return "";
	return hr->names.v[k].name;
}

int mev_history_tracked(const mev_history *h)
{
	return h->tracked;
}

const mev_event_list *mev_history_events(const mev_history *h)
{
	return &h->events;
}

const mev_lineage_list *mev_history_lineages(const mev_history *h)
{
	return &h->lineages;
}

int mev_history_read_events(mev_event_list *out, const mev_history *h, const char *from, const char *to)
{
	return mev__read_events(out, h->s, &h->keys, from, to);
}

int mev_history_read_lineages(mev_lineage_list *out, const mev_history *h)
{
	return mev__read_lineages(out, h->s, &h->keys);
}

int mev_history_read_section_changes(mev_section_change_list *out, const mev_history *h,
				     const char *from, const char *to)
{
	return mev__read_section_changes(out, h->s, &h->keys, from, to);
}

/* --- reading --------------------------------------------------------------- */

/* The lineage and code lines the tracker stored for each cluster of
 * release i, when they describe the clustering read. */
static int load_lineages(mev_history *h, size_t i)
{
	history_release *hr = &h->rel[i];
	mev_tracked_cluster_list tc = { 0 };
	int rc = mev__read_clusters(&tc, h->s, &h->keys, &h->lineages, h->list[i].tag);
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

/* Read the clustering of release i (none stored is no error), and the
 * lineage of its clusters when the tracks are read. */
static int load_release(mev_history *h, size_t i)
{
	history_release *hr = &h->rel[i];
	size_t nc, ns;
	int rc;
	if (hr->read)
		return 0;
	hr->read = 1;
	rc = mev_cluster_load(&hr->c, h->s, &h->cp, h->list[i].tag);
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
	return h->tracked ? load_lineages(h, i) : 0;
}

/* Events and lineages, when 'maintevo track' ran for these parameters. */
static int load_tracks(mev_history *h)
{
	int rc = mev__read_events(&h->events, h->s, &h->keys, NULL, NULL);
	h->tracks_read = 1;
	if (!rc)
		rc = mev__read_lineages(&h->lineages, h->s, &h->keys);
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
			rc = load_lineages(h, i);
	return rc;
}

int mev_history_read(mev_history *h, const char *only, unsigned need)
{
	int rc;
	if (only && mev_history_find(h, only) < 0)
		return mev_release_not_stored(h->s, only);
	for (size_t i = 0; i < h->n; i++)
		if ((need & MEV_HISTORY_CLUSTERS) && (!only || strcmp(only, h->list[i].tag) == 0) &&
		    (rc = load_release(h, i)))
			return rc;
	if (!(need & MEV_HISTORY_TRACKS) || h->tracks_read ||
	    ((need & MEV_HISTORY_CLUSTERS) && !h->clustered))
		return 0;
	return load_tracks(h);
}

static int history_open(mev_history *h, mev_store *s, const mev_track_params *tp)
{
	int rc;
	mev_cluster_key(h->key, sizeof h->key, &h->cp);
	mev_track_key(h->tkey, sizeof h->tkey, tp);
	if ((rc = mev__track_keys_init(&h->keys, &h->cp, tp)))
		return rc;
	/* the releases, their clusterings and the tracker's records from one
	 * snapshot, held until mev_history_free(): a walk or a track writing
	 * meanwhile is not seen half way, nor a release dropped (walk
	 * --rebuild) before the caller reads its graph */
	if ((rc = mev_store_read_begin(s)))
		return rc;
	h->s = s;
	if ((rc = mev_release_list(&h->list, &h->n, s)))
		return rc;
	if (!(h->rel = calloc(h->n + 1, sizeof *h->rel)))
		return mev_error_oom();
	/* a store without releases has nothing to cluster: its tables are empty */
	h->clustered = h->n == 0;
	return 0;
}

int mev_history_open(mev_history **out, mev_store *s, const mev_cluster_params *cp,
		     const mev_track_params *tp, const char *only, unsigned need)
{
	mev_history *h = calloc(1, sizeof *h);
	mev_track_params tdefaults;
	int rc;
	*out = NULL;
	if (!h)
		return mev_error_oom();
	if (cp)
		h->cp = *cp;
	else
		mev_cluster_params_init(&h->cp);
	if (!tp) {
		mev_track_params_init(&tdefaults);
		tp = &tdefaults;
	}
	if ((rc = history_open(h, s, tp)) || (rc = mev_history_read(h, only, need))) {
		/* what was read is let go: callers return at once */
		mev_history_free(h);
		return rc;
	}
	*out = h;
	return 0;
}

int mev_history_use(mev_history **h, mev_history **own, mev_store *s, mev_history *given,
		    const char *only, unsigned need)
{
	int rc;
	*own = NULL;
	*h = given;
	if (given)
		return mev_history_read(given, only, need);
	rc = mev_history_open(own, s, NULL, NULL, only, need);
	*h = *own;
	return rc;
}

void mev_history_free(mev_history *h)
{
	if (!h)
		return;
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
	mev__track_keys_free(&h->keys);
	mev_store_read_end(h->s);
	free(h);
}
