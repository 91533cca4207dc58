/*
 * Support of the events: how many of `support_runs` perturbed runs of the
 * same clustering and tracking find the same link (docs/tracking.md,
 * "Support").  Run r clusters every release's graph with each edge's lines
 * scaled by a factor in [1 - noise, 1 + noise] drawn from (r, the two
 * section titles) - the same factor in every release, so a run is one
 * consistent alternative history - with seed + r and (louvain, leiden) the
 * resolution scaled likewise, each release from the run's previous one
 * where the method starts from it; then links consecutive releases as the
 * tracker does.  An event is supported by a run when the run has the same
 * kind of link between the clusters holding the event's representatives
 * (births and deaths: the cluster holding the representative is born or
 * dies).  Stored per pair under "<result key>/support:runs=R:noise=X\0tag",
 * with a hash of the events record it belongs to.
 */
#include "track_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SUPPORT_REC_VERSION = 1 };

int mev__support_key(mev_buf *k, const mev_cluster_params *cp, const mev_track_params *tp, const char *tag)
{
	char pk[256], sk[96];
	size_t n = mev_track_result_key(pk, sizeof pk, cp, tp);
	int m = snprintf(sk, sizeof sk, "/support:runs=%d:noise=%g", tp->support_runs, tp->noise);
	mev__buf_clear(k);
	return mev__buf_put(k, pk, n) || mev__buf_put(k, sk, (size_t)m + 1) || (tag && mev__buf_puts(k, tag))
		       ? mev_error_oom()
		       : 0;
}

/* A number in [0, 1) from a run and two strings. */
static double draw(uint32_t run, const char *a, const char *b, uint64_t salt)
{
	uint64_t h[3] = { mev__hash_bytes(a, strlen(a)), mev__hash_bytes(b, strlen(b)),
			  ((uint64_t)run << 32) ^ salt };
	return (double)(mev__hash_bytes(h, sizeof h) >> 11) / 9007199254740992.0;
}

/* g with every edge between two sections scaled for run r. */
static int perturb(mev_graph **out, const mev_graph *g, uint32_t r, double noise)
{
	const mev_filemap *fm = mev_graph_filemap(g);
	const mev_section_info *si = mev_filemap_sections(fm);
	size_t n = mev_graph_edge_count(g);
	mev_edge *e = malloc((n + 1) * sizeof *e);
	mev_graph_options opt = { 0 };
	if (!e)
		return mev_error_oom();
	memcpy(e, mev_graph_edges(g), n * sizeof *e);
	for (size_t i = 0; i < n; i++)
		if (e[i].a != e[i].b && e[i].lines) {
			double f = 1 + noise * (2 * draw(r, si[e[i].a].title, si[e[i].b].title, 1) - 1);
			uint64_t l = (uint64_t)llround((double)e[i].lines * f);
			e[i].lines = l ? l : 1;
		}
	return mev_graph_adopt_edges(out, fm, e, n, &opt);
}

/* The parameters of run r. */
static mev_cluster_params run_params(const mev_cluster_params *cp, uint32_t r, double noise)
{
	mev_cluster_params p = *cp;
	p.seed = cp->seed + r;
	if (p.method == MEV_CLUSTER_LOUVAIN || p.method == MEV_CLUSTER_LEIDEN)
		p.resolution = cp->resolution * (1 + noise * (2 * draw(r, "resolution", "", 2) - 1));
	return p;
}

/* --- one release of every run ------------------------------------------------ */

typedef struct {
	const mev_release *rel;
	mev_filemap *sec, *fm;
	mev_graph *g;
	mev_strmap idx;           /* title -> section */
	mev_clustering **cl;      /* per run */
} srel;

static void srel_clear(srel *x, uint32_t runs)
{
	mev_filemap_free(x->sec);
	mev_filemap_free(x->fm);
	mev_graph_free(x->g);
	mev__strmap_free(&x->idx);
	for (uint32_t r = 0; x->cl && r < runs; r++)
		mev_clustering_free(x->cl[r]);
	free(x->cl);
	memset(x, 0, sizeof *x);
}

/* Load release m and cluster it in every run (prev: the runs' previous
 * release, or NULL). */
static int srel_load(srel *x, mev_store *s, const mev_release *m, const mev_cluster_params *cp,
		     const mev_track_params *tp, const srel *prev, int files)
{
	const mev_section_info *si;
	int rc;
	memset(x, 0, sizeof *x);
	x->rel = m;
	if ((rc = mev_release_load_graph(&x->sec, &x->g, s, m->tag, 0)) ||
	    (files && m->has_files && (rc = mev_release_load_filemap(&x->fm, s, m->tag))))
		return rc;
	if (!(x->cl = calloc((size_t)tp->support_runs + 1, sizeof *x->cl)))
		return mev_error_oom();
	si = mev_filemap_sections(x->sec);
	for (size_t i = 0; i < mev_filemap_section_count(x->sec); i++)
		if (mev__strmap_put(&x->idx, si[i].title, strlen(si[i].title), (uint32_t)i))
			return mev_error_oom();
	for (uint32_t r = 0; r < (uint32_t)tp->support_runs; r++) {
		mev_graph *pg = NULL;
		mev_cluster_params p = run_params(cp, r + 1, tp->noise);
		if ((rc = perturb(&pg, x->g, r + 1, tp->noise)))
			return rc;
		rc = mev_cluster_graph(&x->cl[r], pg, &p, prev && prev->cl ? prev->cl[r] : NULL);
		mev_graph_free(pg);
		if (rc)
			return rc;
	}
	return 0;
}

/* The tracker's view of run r of x (borrowed parts; free with view_free()). */
static int view(mev__track_rel *v, const srel *x, uint32_t r)
{
	size_t k = mev_clustering_count(x->cl[r]);
	int rc;
	memset(v, 0, sizeof *v);
	v->tag = x->rel->tag;
	v->has_files = x->rel->has_files && x->fm;
	v->cl = x->cl[r];
	v->sec = x->sec;
	v->g = x->g;
	v->fm = x->fm;
	v->reps = calloc(k + 1, sizeof *v->reps);
	v->lineage = calloc(k + 1, sizeof *v->lineage);
	v->parent = calloc(k + 1, sizeof *v->parent);
	if (!v->reps || !v->lineage || !v->parent)
		return mev_error_oom();
	for (uint32_t c = 0; c < k; c++) {
		v->reps[c] = mev_clustering_title(v->cl, mev_clustering_representative(v->cl, c));
		v->lineage[c] = c + 1;
	}
	v->next_lineage = (uint32_t)k + 1;
	rc = mev__cluster_lines(v);
	return rc;
}

static void view_free(mev__track_rel *v)
{
	free(v->cl_lines);
	free(v->reps);
	free(v->lineage);
	free(v->parent);
	memset(v, 0, sizeof *v);
}

/* --- matching the events in a run -------------------------------------------- */

/* The class of an event: continuations, growths and contractions are one. */
static int event_class(mev_event_kind k)
{
	return k == MEV_EVENT_GROWTH || k == MEV_EVENT_CONTRACTION ? MEV_EVENT_CONTINUATION : (int)k;
}

static int link_find(const mev__pair_out *po, uint32_t a, uint32_t b)
{
	size_t lo = 0, hi = po->nlinks;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const mev__link *l = &po->links[mid];
		if (l->a < a || (l->a == a && l->b < b))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < po->nlinks && po->links[lo].a == a && po->links[lo].b == b ? (int)po->links[lo].kind : -1;
}

/* The cluster of the section titled t in run r of x, or MEV_CLUSTER_NONE. */
static uint32_t cluster_of(const srel *x, uint32_t r, const char *t, size_t len)
{
	int64_t i = len ? mev__strmap_get(&x->idx, t, len) : -1;
	return i < 0 ? MEV_CLUSTER_NONE : mev_clustering_of(x->cl[r], (uint32_t)i);
}

/* Count, for every event of rec, the runs that have it (hits[e]). */
static void count_hits(uint32_t *hits, const mev__events_rec *rec, const mev__pair_out *po, const srel *xa,
		       const srel *xb, uint32_t r)
{
	for (size_t e = 0; e < rec->events.n; e++) {
		const mev__rec_event *ev = &rec->events.v[e];
		uint32_t a = cluster_of(xa, r, ev->from_rep, ev->from_len);
		uint32_t b = cluster_of(xb, r, ev->to_rep, ev->to_len);
		int k;
		if (ev->kind == MEV_EVENT_BIRTH)
			k = b == MEV_CLUSTER_NONE ? -1 : link_find(po, MEV_CLUSTER_NONE, b);
		else if (ev->kind == MEV_EVENT_DEATH)
			k = a == MEV_CLUSTER_NONE ? -1 : link_find(po, a, MEV_CLUSTER_NONE);
		else
			k = a == MEV_CLUSTER_NONE || b == MEV_CLUSTER_NONE ? -1 : link_find(po, a, b);
		if (k >= 0 && event_class((mev_event_kind)k) == event_class(ev->kind))
			hits[e]++;
	}
}

/* --- the pairs ------------------------------------------------------------------ */

typedef struct {
	mev_store *s;
	const mev_cluster_params *cp;
	const mev_track_params *tp;
	mev_buf k, val;
} sctx;

/* The events record of the pair ending at tag, and the hash of its bytes. */
static int events_of(void **data, size_t *len, uint64_t *hash, sctx *c, const char *tag)
{
	int rc = mev__events_key(&c->k, c->cp, c->tp, tag);
	if (!rc)
		rc = mev_store_get(data, len, c->s, "events", c->k.ptr, c->k.len);
	if (!rc)
		*hash = mev__hash_bytes(*data, *len);
	return rc;
}

/* Is the stored support of the pair ending at tag made for events with
 * this hash? */
static int support_fresh(sctx *c, const char *tag, uint64_t hash)
{
	void *data = NULL;
	size_t len = 0;
	mev__rd r;
	int ok = 0;
	if (mev__support_key(&c->k, c->cp, c->tp, tag) == 0 &&
	    mev_store_get(&data, &len, c->s, "events", c->k.ptr, c->k.len) == 0) {
		mev__rd_init(&r, data, len);
		ok = mev__get_uv(&r) == SUPPORT_REC_VERSION && mev__get_uv(&r) == hash && !r.bad;
	}
	mev_error_clear();
	free(data);
	return ok;
}

static int put_fn(mev_store *s, void *ctx)
{
	sctx *c = ctx;
	return mev_store_put(s, "events", c->k.ptr, c->k.len, c->val.ptr, c->val.len);
}

/* Support of the pair xa -> xb, stored. */
static int pair_support(sctx *c, const srel *xa, const srel *xb)
{
	void *data = NULL;
	size_t len = 0;
	uint64_t hash = 0;
	mev__events_rec rec;
	mev__set_pair_vec sp = { 0 };
	int code = xa->fm && xb->fm, rc;
	uint32_t *hits = NULL;

	memset(&rec, 0, sizeof rec);
	if ((rc = events_of(&data, &len, &hash, c, xb->rel->tag)) ||
	    (rc = mev__events_rec_decode(&rec, data, len, xb->rel->tag)))
		goto done;
	if (!(hits = calloc(rec.events.n + 1, sizeof *hits))) {
		rc = mev_error_oom();
		goto done;
	}
	if (code) {
		mev__track_rel va = { 0 }, vb = { 0 };
		va.fm = xa->fm;
		vb.fm = xb->fm;
		if ((rc = mev__set_pairs(&sp, &va, &vb)))
			goto done;
	}
	for (uint32_t r = 0; r < (uint32_t)c->tp->support_runs && !rc; r++) {
		mev__track_rel va, vb;
		mev__pair_out po = { 0 };
		if (!(rc = view(&va, xa, r)) && !(rc = view(&vb, xb, r)) &&
		    !(rc = mev__pair_link(&po, &va, &vb, &sp, code, c->tp)))
			count_hits(hits, &rec, &po, xa, xb, r);
		mev__pair_out_free(&po);
		view_free(&va);
		view_free(&vb);
	}
	if (rc || (rc = mev__support_key(&c->k, c->cp, c->tp, xb->rel->tag)))
		goto done;
	mev__buf_clear(&c->val);
	rc = mev__put_uv(&c->val, SUPPORT_REC_VERSION) | mev__put_uv(&c->val, hash) |
	     mev__put_uv(&c->val, rec.events.n);
	for (size_t e = 0; e < rec.events.n; e++)
		rc |= mev__put_uv(&c->val, hits[e]);
	rc = rc ? mev_error_oom() : mev_store_write(c->s, put_fn, c);
done:
	free(hits);
	MEV_VEC_FREE(&sp);
	mev__events_rec_free(&rec);
	free(data);
	return rc;
}

/* Whether the method clusters a release from the previous one's clusters:
 * then a run's releases are clustered in order from the first. */
static int uses_previous(const mev_cluster_params *cp)
{
	return cp->smooth;
}

int mev__track_support(size_t *computed, mev_store *s, const mev_cluster_params *cp,
		       const mev_track_params *tp, const mev_release *const *chain, size_t n,
		       const volatile int *stop)
{
	sctx c = { s, cp, tp, MEV_BUF_INIT, MEV_BUF_INIT };
	uint8_t *need = calloc(n + 2, 1);
	srel prev, cur;
	size_t last = 0, first = n;
	int chained = uses_previous(cp), rc = 0;

	*computed = 0;
	memset(&prev, 0, sizeof prev);
	memset(&cur, 0, sizeof cur);
	if (!need)
		return mev_error_oom();
	/* which pairs need their support computed */
	for (size_t i = 1; i < n && !rc && tp->support_runs > 0; i++) {
		void *data = NULL;
		size_t len = 0;
		uint64_t hash = 0;
		if ((rc = events_of(&data, &len, &hash, &c, chain[i]->tag)))
			break;
		free(data);
		if (!support_fresh(&c, chain[i]->tag, hash)) {
			need[i] = 1;
			last = i;
			if (first == n)
				first = i;
		}
	}
	for (size_t i = chained ? 0 : first - 1; !rc && first < n && i <= last; i++) {
		/* a release is read with its files when a pair it is part of needs them */
		int files = need[i] || need[i + 1];
		if (stop && *stop) {
			rc = mev_error_set(MEV_EINTR, "interrupted");
			break;
		}
		if (!chained && !files) {
			srel_clear(&prev, (uint32_t)tp->support_runs);
			continue;
		}
		if ((rc = srel_load(&cur, s, chain[i], cp, tp, chained ? &prev : NULL, files)))
			break;
		if (need[i] && prev.rel && !(rc = pair_support(&c, &prev, &cur)))
			(*computed)++;
		srel_clear(&prev, (uint32_t)tp->support_runs);
		prev = cur;
		memset(&cur, 0, sizeof cur);
	}
	srel_clear(&prev, (uint32_t)tp->support_runs);
	srel_clear(&cur, (uint32_t)tp->support_runs);
	mev__buf_free(&c.k);
	mev__buf_free(&c.val);
	free(need);
	return rc;
}
