/* Inside the tracker: linking the clusters of two releases (exposed for the unit tests). */
#ifndef MEV_TRACK_INTERNAL_H
#define MEV_TRACK_INTERNAL_H

#include "maintevo/track.h"

/* Common weight of cluster a of the older and cluster b of the newer release. */
typedef struct {
	uint32_t a, b;
	double w;
} mev__overlap;

typedef struct {
	size_t na, nb;                 /* clusters of the older and the newer release */
	const double *ca, *cb;         /* weight of each cluster's items present in both */
	const uint64_t *la, *lb;       /* cluster sizes in lines */
	const char *const *rep_a, *const *rep_b; /* representatives (for ties) */
	const mev__overlap *ov;        /* overlaps on code (or titles weighted by lines) */
	size_t nov;
	const double *ta, *tb;         /* second chance: number of titles present in both */
	const mev__overlap *tov;       /* overlaps in titles (count) */
	size_t ntov;
	const uint32_t *lin_a;         /* lineage of each cluster of the older release */
	uint32_t next_lineage;         /* first unused lineage id */
} mev__pair_in;

typedef struct {
	mev_event_kind kind;
	uint32_t a, b;                 /* MEV_CLUSTER_NONE for the missing side */
	double sim;
} mev__link;

typedef struct {
	mev__link *links;              /* sorted by (a, b), missing sides last */
	size_t nlinks;
	uint32_t *lin_b, *par_b;       /* per cluster of the newer release */
	uint32_t next_lineage;
} mev__pair_out;

/*
 * Link two releases' clusters: a pair is linked when its Jaccard similarity
 * is at least p->link and one is the other's most similar partner holding at
 * least p->match of its weight.  Clusters with no link by code get a second
 * chance on section titles.  Then events and lineages (see
 * docs/tracking.md).  Errors: MEV_ENOMEM.
 */
int mev__track_pair(const mev__pair_in *in, const mev_track_params *p, mev__pair_out *out);
void mev__pair_out_free(mev__pair_out *o);

#endif
