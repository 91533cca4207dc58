/*
 * Linking the clusters of two consecutive releases: which pairs are linked,
 * what event each link is, and which lineage each newer cluster continues.
 */
#include "track_internal.h"
#include "maintevo/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPS MEV__TRACK_EPS

static double jaccard(double w, double ca, double cb)
{
	double u = ca + cb - w;
	return u > 0 ? w / u : 0;
}

typedef MEV_VEC(mev__link) link_vec;

/* Is overlap x a better partner than y?  Higher similarity, then the same
 * representative, then the lower cluster numbers. */
static int better(const mev__pair_in *in, const mev__overlap *x, double jx, const mev__overlap *y,
		  double jy)
{
	int sx, sy;
	if (jx > jy + EPS)
		return 1;
	if (jy > jx + EPS)
		return 0;
	sx = strcmp(in->rep_a[x->a], in->rep_b[x->b]) == 0;
	sy = strcmp(in->rep_a[y->a], in->rep_b[y->b]) == 0;
	if (sx != sy)
		return sx;
	if (x->a != y->a)
		return x->a < y->a;
	return x->b < y->b;
}

/*
 * Whether the second chance on titles may link a and b: not when a covered
 * code and b covers none.  A subsystem whose code all left the tree does
 * not live on in a section whose files are gone too (planted histories: a
 * two-file section over two subsystems that both die later kept the
 * lineage of one as a "contraction" to 0 lines, seeds 1 and 29 of 40).
 */
static int title_link_allowed(const mev__pair_in *in, uint32_t a, uint32_t b)
{
	return !(in->la[a] > 0 && in->lb[b] == 0);
}

/*
 * One pass of linking over `ov`: a pair is linked when its Jaccard is at
 * least p->link and one side is the other's best partner holding at least
 * p->match of that side's weight.  Only clusters with `open_a`/`open_b` set
 * take part (NULL: all); the second chance (titles) only pairs
 * title_link_allowed() lets through.
 */
static int link_pass(const mev__pair_in *in, const mev_track_params *p, const mev__overlap *ov,
		     size_t nov, const double *ca, const double *cb, const uint8_t *open_a,
		     const uint8_t *open_b, int titles, link_vec *links)
{
	int64_t *best_a = malloc((in->na + 1) * sizeof *best_a);
	int64_t *best_b = malloc((in->nb + 1) * sizeof *best_b);
	double *j = malloc((nov + 1) * sizeof *j);
	int rc = 0;
	if (!best_a || !best_b || !j) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t i = 0; i < in->na; i++)
		best_a[i] = -1;
	for (size_t i = 0; i < in->nb; i++)
		best_b[i] = -1;
	for (size_t e = 0; e < nov; e++) {
		const mev__overlap *o = &ov[e];
		j[e] = -1;
		if ((open_a && !open_a[o->a]) || (open_b && !open_b[o->b]) || ca[o->a] <= 0 ||
		    cb[o->b] <= 0 || o->w <= 0 || (titles && !title_link_allowed(in, o->a, o->b)))
			continue;
		j[e] = jaccard(o->w, ca[o->a], cb[o->b]);
		if (best_a[o->a] < 0 || better(in, o, j[e], &ov[best_a[o->a]], j[best_a[o->a]]))
			best_a[o->a] = (int64_t)e;
		if (best_b[o->b] < 0 || better(in, o, j[e], &ov[best_b[o->b]], j[best_b[o->b]]))
			best_b[o->b] = (int64_t)e;
	}
	for (size_t e = 0; e < nov; e++) {
		const mev__overlap *o = &ov[e];
		int heir, origin;
		if (j[e] < 0 || j[e] < p->link - EPS)
			continue;
		heir = best_a[o->a] == (int64_t)e && o->w >= p->match * ca[o->a] - EPS;
		origin = best_b[o->b] == (int64_t)e && o->w >= p->match * cb[o->b] - EPS;
		if (heir || origin) {
			mev__link l = { MEV_EVENT_CONTINUATION, o->a, o->b, j[e], 0, MEV_CLUSTER_NONE,
					NAN, NULL, 0 };
			if (MEV_VEC_PUSH(links, l)) {
				rc = mev_error_oom();
				goto done;
			}
		}
	}
done:
	free(best_a);
	free(best_b);
	free(j);
	return rc;
}

static int link_cmp(const void *x, const void *y)
{
	const mev__link *a = x, *b = y;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	if (a->b != b->b)
		return a->b < b->b ? -1 : 1;
	return 0;
}

void mev__pair_out_free(mev__pair_out *o)
{
	free(o->links);
	free(o->lin_b);
	free(o->par_b);
	memset(o, 0, sizeof *o);
}

/* The overlap of a and b in ov, or NULL (a linear search: links are few). */
static const mev__overlap *find_overlap(const mev__pair_in *in, uint32_t a, uint32_t b)
{
	for (size_t e = 0; e < in->nov; e++)
		if (in->ov[e].a == a && in->ov[e].b == b)
			return &in->ov[e];
	return NULL;
}

/* The share of a's lines that b holds (NaN when a has no lines). */
static double share_of(const mev__pair_in *in, uint32_t a, uint32_t b)
{
	const mev__overlap *o = find_overlap(in, a, b);
	if (!in->la[a])
		return NAN;
	return o ? o->wo / (double)in->la[a] : 0;
}

/*
 * For every cluster of one side, the cluster of the other side holding the
 * most of its lines: side 0 gives each older cluster its largest receiver
 * (by wo), side 1 each newer cluster its largest giver (by wn).  Ties: the
 * same representative, then the lower numbers.  -1: none.
 */
static void largest_partners(int64_t *best, const mev__pair_in *in, int side)
{
	size_t n = side ? in->nb : in->na;
	for (size_t i = 0; i < n; i++)
		best[i] = -1;
	for (size_t e = 0; e < in->nov; e++) {
		const mev__overlap *o = &in->ov[e];
		uint32_t me = side ? o->b : o->a;
		double w = side ? o->wn : o->wo;
		const mev__overlap *y;
		double wy;
		if (w <= 0)
			continue;
		if (best[me] < 0) {
			best[me] = (int64_t)e;
			continue;
		}
		y = &in->ov[best[me]];
		wy = side ? y->wn : y->wo;
		if (w > wy * (1 + EPS) || (!(wy > w * (1 + EPS)) && better(in, o, 0, y, 0)))
			best[me] = (int64_t)e;
	}
}

/*
 * Absorption: an older cluster left without a link whose largest receiver
 * holds at least p->absorb of its lines is linked to it (a merge into the
 * receiver when that has another predecessor).  Its code did not die.
 */
static int absorb(link_vec *links, const mev__pair_in *in, const mev_track_params *p,
		  const int64_t *recv, const uint8_t *open_a)
{
	for (uint32_t a = 0; a < in->na; a++) {
		const mev__overlap *o;
		if (!open_a[a] || recv[a] < 0 || !in->la[a])
			continue;
		o = &in->ov[recv[a]];
		if (o->wo >= p->absorb * (double)in->la[a] - EPS) {
			double u = in->ca[o->a] + in->cb[o->b] - o->w;
			mev__link l = { MEV_EVENT_CONTINUATION, o->a, o->b, u > 0 ? o->w / u : 0, 0,
					MEV_CLUSTER_NONE, NAN, NULL, 0 };
			if (MEV_VEC_PUSH(links, l))
				return mev_error_oom();
		}
	}
	return 0;
}

/*
 * Whether newer cluster b is mostly new code around its largest
 * predecessor a: a holds less than a tenth of b's lines (a subsystem may
 * grow tenfold in a release and stay itself) and less than the code no
 * older cluster held.  Then b is not a's continuation but a subsystem
 * formed around new code (U-Boot v2024.07: the 2.4 million lines of
 * dts/upstream around an 875-line board).  Only pairs linked on code count
 * (a link on titles alone keeps its lineage).
 */
static int mostly_new(const mev__pair_in *in, uint32_t b, uint32_t a)
{
	double held = 0, from_a = 0;
	for (size_t i = 0; i < in->nov; i++)
		if (in->ov[i].b == b) {
			held += in->ov[i].wn;
			if (in->ov[i].a == a)
				from_a = in->ov[i].wn;
		}
	return from_a > 0 && from_a < 0.1 * (double)in->lb[b] && from_a < (double)in->lb[b] - held;
}

/* What each link is: merge, split, growth, contraction or continuation,
 * and the share of its older cluster's lines the newer one holds. */
static void kinds(mev__link *links, size_t nlinked, const mev__pair_in *in, const mev_track_params *p,
		  const uint32_t *nsucc, const uint32_t *npred)
{
	for (size_t i = 0; i < nlinked; i++) {
		mev__link *l = &links[i];
		double la = (double)in->la[l->a], lb = (double)in->lb[l->b];
		l->share = share_of(in, l->a, l->b);
		if (npred[l->b] >= 2)
			l->kind = MEV_EVENT_MERGE;
		else if (nsucc[l->a] >= 2)
			l->kind = MEV_EVENT_SPLIT;
		else if (lb >= (1 + p->growth) * la && lb > la)
			l->kind = MEV_EVENT_GROWTH;
		else if (la >= (1 + p->growth) * lb && la > lb)
			l->kind = MEV_EVENT_CONTRACTION;
		else
			l->kind = MEV_EVENT_CONTINUATION;
	}
}

/*
 * A death for every older cluster without a successor, naming its largest
 * receiver.  A cluster that covers no code is no subsystem: it is neither
 * born nor dies (its lineage starts or ends without an event).  Such a
 * cluster is a section whose files are all gone or never were, e.g. a
 * two-file section over two subsystems that both died, which stays behind
 * alone (planted histories, seeds 1 and 29 of 40).
 */
static int add_deaths(link_vec *links, const mev__pair_in *in, const uint32_t *nsucc, const int64_t *recv)
{
	for (uint32_t a = 0; a < in->na; a++)
		if (!nsucc[a] && in->la[a] > 0) {
			mev__link l = { MEV_EVENT_DEATH, a, MEV_CLUSTER_NONE, NAN, NAN, MEV_CLUSTER_NONE, 0, NULL, 0 };
			if (recv[a] >= 0) {
				l.partner = in->ov[recv[a]].b;
				l.partner_share = in->la[a] ? in->ov[recv[a]].wo / (double)in->la[a] : NAN;
			}
			if (MEV_VEC_PUSH(links, l))
				return mev_error_oom();
		}
	return 0;
}

int mev__track_pair(mev__pair_out *out, const mev__pair_in *in, const mev_track_params *p)
{
	link_vec links = { 0 };
	uint8_t *open_a = calloc(in->na + 1, 1), *open_b = calloc(in->nb + 1, 1);
	uint32_t *nsucc = calloc(in->na + 1, sizeof *nsucc), *npred = calloc(in->nb + 1, sizeof *npred);
	int64_t *big_succ = malloc((in->na + 1) * sizeof *big_succ);
	int64_t *big_pred = malloc((in->nb + 1) * sizeof *big_pred);
	int64_t *recv = malloc((in->na + 1) * sizeof *recv), *give = malloc((in->nb + 1) * sizeof *give);
	size_t nlinked;
	int rc = 0;

	memset(out, 0, sizeof *out);
	out->lin_b = calloc(in->nb + 1, sizeof *out->lin_b);
	out->par_b = calloc(in->nb + 1, sizeof *out->par_b);
	if (!open_a || !open_b || !nsucc || !npred || !big_succ || !big_pred || !out->lin_b ||
	    !out->par_b || !recv || !give) {
		rc = mev_error_oom();
		goto done;
	}
	/* 1. links on code; 2. a second chance on titles for the clusters left */
	if ((rc = link_pass(in, p, in->ov, in->nov, in->ca, in->cb, NULL, NULL, 0, &links)))
		goto done;
	memset(open_a, 1, in->na);
	memset(open_b, 1, in->nb);
	for (size_t i = 0; i < links.n; i++) {
		open_a[links.v[i].a] = 0;
		open_b[links.v[i].b] = 0;
	}
	if (in->ntov && (rc = link_pass(in, p, in->tov, in->ntov, in->ta, in->tb, open_a, open_b, 1,
					&links)))
		goto done;
	/* 3. absorption of the older clusters still without a link */
	for (size_t i = 0; i < links.n; i++)
		open_a[links.v[i].a] = 0;
	largest_partners(recv, in, 0);
	largest_partners(give, in, 1);
	if ((rc = absorb(&links, in, p, recv, open_a)))
		goto done;
	nlinked = links.n;
	/* 4. what each link is */
	for (size_t i = 0; i < in->na; i++)
		big_succ[i] = -1;
	for (size_t i = 0; i < in->nb; i++)
		big_pred[i] = -1;
	for (size_t i = 0; i < nlinked; i++) {
		const mev__link *l = &links.v[i];
		nsucc[l->a]++;
		npred[l->b]++;
		if (big_succ[l->a] < 0 || in->lb[l->b] > in->lb[links.v[big_succ[l->a]].b] ||
		    (in->lb[l->b] == in->lb[links.v[big_succ[l->a]].b] &&
		     strcmp(in->rep_b[l->b], in->rep_b[links.v[big_succ[l->a]].b]) < 0))
			big_succ[l->a] = (int64_t)i;
		if (big_pred[l->b] < 0 || in->la[l->a] > in->la[links.v[big_pred[l->b]].a] ||
		    (in->la[l->a] == in->la[links.v[big_pred[l->b]].a] &&
		     strcmp(in->rep_a[l->a], in->rep_a[links.v[big_pred[l->b]].a]) < 0))
			big_pred[l->b] = (int64_t)i;
	}
	kinds(links.v, nlinked, in, p, nsucc, npred);
	if ((rc = add_deaths(&links, in, nsucc, recv)))
		goto done;
	/* 5. lineages: a cluster continues the lineage of its largest predecessor
	 * when it is that predecessor's largest successor too and that
	 * predecessor holds no less of its code than is new; else it starts a
	 * new one, whose parent is the largest predecessor's lineage */
	out->next_lineage = in->next_lineage;
	for (uint32_t b = 0; b < in->nb; b++) {
		if (!npred[b] && !in->lb[b]) {
			out->lin_b[b] = out->next_lineage++;
			continue;
		}
		if (!npred[b]) {
			mev__link l = { MEV_EVENT_BIRTH, MEV_CLUSTER_NONE, b, NAN, NAN, MEV_CLUSTER_NONE, 0, NULL, 0 };
			if (give[b] >= 0) {
				l.partner = in->ov[give[b]].a;
				l.partner_share = in->lb[b] ? in->ov[give[b]].wn / (double)in->lb[b] : NAN;
			}
			if (MEV_VEC_PUSH(&links, l)) {
				rc = mev_error_oom();
				goto done;
			}
			out->lin_b[b] = out->next_lineage++;
			continue;
		}
		{
			uint32_t a = links.v[big_pred[b]].a;
			if (links.v[big_succ[a]].b == b && !mostly_new(in, b, a)) {
				out->lin_b[b] = in->lin_a[a];
			} else {
				out->lin_b[b] = out->next_lineage++;
				out->par_b[b] = in->lin_a[a];
			}
		}
	}
	if (links.n)
		qsort(links.v, links.n, sizeof *links.v, link_cmp);
	out->links = links.v;
	out->nlinks = links.n;
	links.v = NULL;
done:
	MEV_VEC_FREE(&links);
	free(open_a);
	free(open_b);
	free(nsucc);
	free(npred);
	free(big_succ);
	free(big_pred);
	free(recv);
	free(give);
	if (rc)
		mev__pair_out_free(out);
	return rc;
}
