/*
 * Bridging short gaps: a lineage whose clusters vanish for at most `gap`
 * releases and come back continues across the gap (a bridge) instead of
 * dying and being born again (docs/tracking.md, "Gaps").  U-Boot v2021.10's
 * get_maintainer.pl read only the top-level MAINTAINERS, so some 700 board
 * sections are missing from that one release: without bridges, over 400
 * board lineages died at v2021.10 and were born again at v2022.01.
 *
 * The pair ra -> rb is linked first as always; then each cluster of rb
 * left without a predecessor (a birth) is compared with the clusters that
 * died in the pair after each of the `gap` releases before ra, on what
 * those two releases share, by the tracker's own rule for a link.
 */
#include "track_internal.h"
#include "maintevo/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A possible bridge: cluster a of the older release, born cluster b. */
typedef struct {
	uint32_t a, b;
	double sim, share;
} candidate;

typedef MEV_VEC(candidate) candidate_vec;

static int has_lineage(const mev__track_rel *r, uint32_t id)
{
	for (size_t c = 0; c < mev_clustering_count(r->cl); c++)
		if (r->lineage[c] == id)
			return 1;
	return 0;
}

static int died_after(const mev__track_rel *r, uint32_t id)
{
	for (size_t i = 0; i < r->ndied; i++)
		if (r->died[i] == id)
			return 1;
	return 0;
}

/* Most similar first; ties by the lower cluster numbers. */
static int candidate_cmp(const void *x, const void *y)
{
	const candidate *p = x, *q = y;
	if (p->sim != q->sim)
		return p->sim > q->sim ? -1 : 1;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return (p->b > q->b) - (p->b < q->b);
}

/* What release o and rb share: on files when both file tables are loaded,
 * else on section titles weighted by lines (as a pair is compared). */
static int gap_overlaps(mev__overlap_sums *acc, double *ca, double *cb, const mev__track_rel *o,
			const mev__track_rel *rb)
{
	mev__set_pair_vec sp = { 0 };
	mev__title_pair_vec tp = { 0 };
	int rc;
	if (o->fm && rb->fm) {
		if (!(rc = mev__set_pairs(&sp, o, rb)))
			rc = mev__overlaps_code(acc, ca, cb, o, rb, sp.v, sp.n);
	} else if (!(rc = mev__common_titles(&tp, o, rb))) {
		rc = mev__overlaps_titles(acc, ca, cb, o, rb, tp.v, tp.n, 1);
	}
	MEV_VEC_FREE(&sp);
	MEV_VEC_FREE(&tp);
	return rc;
}

/*
 * The candidates between older release o = older[g - 1] and rb: a cluster
 * of o whose lineage died after o and is in none of the releases between
 * (older[0 .. g - 2], ra), and a born cluster of rb (born[b]), linked by
 * the tracker's rule.
 */
static int candidates(candidate_vec *out, const mev__track_rel *o, const mev__track_rel *rb,
		      const mev__track_rel *const *between, size_t nbetween, const uint8_t *born,
		      const mev_track_params *tp)
{
	size_t na = mev_clustering_count(o->cl), nb = mev_clustering_count(rb->cl);
	double *ca = calloc(na + 1, sizeof *ca), *cb = calloc(nb + 1, sizeof *cb);
	mev__overlap_sums acc = MEV__OVERLAP_SUMS_INIT;
	int rc = ca && cb ? gap_overlaps(&acc, ca, cb, o, rb) : mev_error_oom();
	for (size_t i = 0; i < acc.v.n && !rc; i++) {
		const mev__overlap *v = &acc.v.v[i];
		uint32_t id = o->lineage[v->a];
		double u = ca[v->a] + cb[v->b] - v->w, sim = u > 0 ? v->w / u : 0;
		int gone = died_after(o, id);
		if (!born[v->b] || !gone || sim < tp->link - MEV__TRACK_EPS ||
		    (v->w < tp->match * ca[v->a] - MEV__TRACK_EPS && v->w < tp->match * cb[v->b] - MEV__TRACK_EPS))
			continue;
		for (size_t k = 0; k < nbetween && gone; k++)
			gone = !has_lineage(between[k], id);
		if (gone) {
			candidate c = { v->a, v->b, sim,
					o->cl_lines[v->a] ? v->wo / (double)o->cl_lines[v->a] : NAN };
			if (MEV_VEC_PUSH(out, c))
				rc = mev_error_oom();
		}
	}
	mev__overlap_sums_free(&acc);
	free(ca);
	free(cb);
	return rc;
}

/* Make the birth of b in po a bridge from cluster a of o. */
static void make_bridge(mev__pair_out *po, const mev__track_rel *o, const candidate *c)
{
	for (size_t i = 0; i < po->nlinks; i++) {
		mev__link *l = &po->links[i];
		if (l->kind != MEV_EVENT_BIRTH || l->b != c->b)
			continue;
		l->kind = MEV_EVENT_BRIDGE;
		l->sim = c->sim;
		l->share = c->share;
		l->partner = MEV_CLUSTER_NONE;
		l->partner_share = NAN;
		l->gap_rel = o;
		l->gap_a = c->a;
		return;
	}
}

/* Lineage ids after bridging: a bridged cluster takes its old lineage, the
 * other new lineages of rb are numbered again from first_new, in order. */
static void renumber(mev__pair_out *po, const uint32_t *bridged, size_t nb, uint32_t first_new)
{
	uint32_t next = first_new;
	for (size_t b = 0; b < nb; b++) {
		if (bridged[b])
			po->lin_b[b] = bridged[b];
		else if (po->lin_b[b] >= first_new)
			po->lin_b[b] = next++;
	}
	po->next_lineage = next;
}

int mev__bridge(mev__pair_out *po, const mev__track_rel *ra, const mev__track_rel *rb,
		const mev__track_rel *const *older, size_t nolder, const mev_track_params *tp)
{
	size_t nb = mev_clustering_count(rb->cl), nbridged = 0;
	uint8_t *born = calloc(nb + 1, 1);
	uint32_t *bridged = calloc(nb + 1, sizeof *bridged);
	const mev__track_rel **between = calloc(nolder + 1, sizeof *between);
	candidate_vec cv = { 0 };
	int rc = born && bridged && between ? 0 : mev_error_oom();
	for (size_t i = 0; i < po->nlinks && !rc; i++)
		if (po->links[i].kind == MEV_EVENT_BIRTH)
			born[po->links[i].b] = 1;
	for (size_t g = 1; g <= nolder && !rc; g++) {
		const mev__track_rel *o = older[g - 1];
		uint8_t *taken = calloc(mev_clustering_count(o->cl) + 1, 1);
		/* the releases between o and rb: ra, and those between ra and o */
		between[0] = ra;
		for (size_t k = 1; k < g; k++)
			between[k] = older[k - 1];
		cv.n = 0;
		rc = taken ? candidates(&cv, o, rb, between, g, born, tp) : mev_error_oom();
		if (!rc && cv.n)
			qsort(cv.v, cv.n, sizeof *cv.v, candidate_cmp);
		for (size_t i = 0; i < cv.n && !rc; i++) {
			const candidate *c = &cv.v[i];
			if (!born[c->b] || taken[c->a])
				continue;
			born[c->b] = 0;
			taken[c->a] = 1;
			bridged[c->b] = o->lineage[c->a];
			make_bridge(po, o, c);
			nbridged++;
		}
		free(taken);
	}
	if (!rc && nbridged)
		renumber(po, bridged, nb, ra->next_lineage);
	MEV_VEC_FREE(&cv);
	free(born);
	free(bridged);
	free(between);
	return rc;
}

int mev__bridge_died(mev__track_rel *r, const void *data, size_t len, const char *tag)
{
	mev__events_rec rec;
	int rc = mev__events_rec_decode(&rec, data, len, tag);
	free(r->died);
	r->died = NULL;
	r->ndied = 0;
	if (!rc && !(r->died = calloc(rec.events.n + 1, sizeof *r->died)))
		rc = mev_error_oom();
	for (size_t i = 0; i < rec.events.n && !rc; i++)
		if (rec.events.v[i].kind == MEV_EVENT_DEATH)
			r->died[r->ndied++] = rec.events.v[i].lineage;
	mev__events_rec_free(&rec);
	return rc;
}
