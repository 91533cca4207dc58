/*
 * The clusters and lineages of every stored release, put together from the
 * clustering and tracking APIs for export and report (internal).
 */
#ifndef MEV_HISTORY_H
#define MEV_HISTORY_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/cluster.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "maintevo/track.h"
#include "util/strmap.h"

typedef struct {
	mev_clustering *c;        /* NULL when the release is not clustered */
	int64_t *lineage;         /* per cluster: its lineage id, -1 when unknown */
	int64_t *code;            /* per cluster: lines of the files it covers, each
				   * once (the tracker's size); -1 when unknown */
	mev_tracked_cluster_list names; /* what the tracker stored (names[k].name: the
				   * lineage's name), when lineage[] is known */
	mev_strmap by_title;      /* section title -> section index of c */
} mev__history_release;

typedef struct {
	mev_release *list;        /* every stored release, in version order */
	size_t n;
	mev__history_release *rel; /* one per release */
	int clustered;            /* some release has a clustering */
	int tracked;              /* events and lineages were read */
	mev_event_list events;
	mev_lineage_list lineages;
	char key[128];            /* the clustering's parameter key */
	char tkey[160];           /* the tracker's thresholds (mev_track_key()) */
	mev_store *snapshot;      /* the store whose read snapshot is held */
} mev__history;

/* What mev__history_load() reads besides the releases. */
enum {
	MEV__HISTORY_CLUSTERS = 1, /* the clusterings */
	MEV__HISTORY_TRACKS = 2    /* events and lineages (with CLUSTERS: lineage per cluster) */
};

/*
 * Read the releases and, as `need` says, the clustering of each (all of
 * them, or only release `only` when not NULL) and, when 'maintevo track'
 * ran for these parameters, the events and lineages.  A release that is
 * not clustered, or a store that is not tracked, is not an error: the
 * fields stay empty.  The lineage and the code lines of each cluster are
 * those the tracker stored for it (mev_track_clusters()); they stay
 * unknown (-1) in a release the tracker did not see (no sections) or whose
 * clustering changed since it ran.  Everything comes from one read
 * snapshot, so a walk or a track writing meanwhile is seen before or after,
 * never half way; the snapshot is held until mev__history_free(), so that
 * the caller's further reads of s (graphs, file tables of the releases
 * listed) agree with it.  No write transaction may begin on s meanwhile.  A store without releases counts as clustered (and,
 * with nothing to track, as tracked): its tables are empty.  Errors: the
 * store's, MEV_ENOTFOUND for an unknown `only`; after one *h is empty
 * (freeing it again is harmless).
 */
int mev__history_load(mev__history *h, mev_store *s, const mev_cluster_params *cp,
		      const mev_track_params *tp, const char *only, unsigned need);
void mev__history_free(mev__history *h);

/* Index of release `tag`, or -1. */
int64_t mev__history_find(const mev__history *h, const char *tag);

/* The cluster (0-based) of the section titled `title` in release r, or -1. */
int64_t mev__history_cluster_of(const mev__history *h, size_t r, const char *title);

/* The cluster whose representative is `title` in release r, or -1. */
int64_t mev__history_cluster_named(const mev__history *h, size_t r, const char *title);

/* The name of the lineage of cluster k of release r ("" when unknown). */
const char *mev__history_lineage_name(const mev__history *h, size_t r, uint32_t k);

/* Lines of cluster k of release r: the lines of the files it covers, each
 * once, when tracked; else the sum of its sections' lines. */
uint64_t mev__history_cluster_lines(const mev__history *h, size_t r, uint32_t k);

#endif
