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
#include "cluster/cluster_shared.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

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

/* A number in [0, 1) from a run and two strings' hashes (mev__hash_bytes()
 * of each). */
static double draw_h(uint32_t run, uint64_t ha, uint64_t hb, uint64_t salt)
{
	uint64_t h[3] = { ha, hb, ((uint64_t)run << 32) ^ salt };
	return (double)(mev__hash_bytes(h, sizeof h) >> 11) / 9007199254740992.0;
}

/* A number in [0, 1) from a run and two strings. */
static double draw(uint32_t run, const char *a, const char *b, uint64_t salt)
{
	return draw_h(run, mev__hash_bytes(a, strlen(a)), mev__hash_bytes(b, strlen(b)), salt);
}

/*
 * g with every edge between two sections scaled for run r.  The edges
 * kept (graph.h: with twins, those of the representatives, each standing
 * for the pairs of two classes, scaled alike) and the titles' hashes once
 * per section: the time of the kept edges.
 */
static int perturb(mev_graph **out, const mev_graph *g, uint32_t r, double noise)
{
	const mev_filemap *fm = mev_graph_filemap(g);
	const mev_section_info *si = mev_filemap_sections(fm);
	size_t n, ns = mev_filemap_section_count(fm);
	const mev_edge *ke = mev_graph_kept_edges(g, &n);
	mev_edge *e = malloc((n + 1) * sizeof *e);
	uint64_t *th = malloc((ns + 1) * sizeof *th);
	if (!e || !th) {
		free(e);
		free(th);
		return mev_error_oom();
	}
	for (size_t i = 0; i < ns; i++)
		th[i] = mev__hash_bytes(si[i].title, strlen(si[i].title));
	memcpy(e, ke, n * sizeof *e);
	for (size_t i = 0; i < n; i++)
		if (e[i].a != e[i].b && e[i].lines) {
			double f = 1 + noise * (2 * draw_h(r, th[e[i].a], th[e[i].b], 1) - 1);
			uint64_t l = (uint64_t)llround((double)e[i].lines * f);
			e[i].lines = l ? l : 1;
		}
	free(th);
	return mev_graph_adopt_like(out, g, e, n);
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

/* --- one release of every run of a worker ------------------------------------- */

/* The runs a worker does: r = first, first + step, ... < runs (1-based
 * run numbers are r + 1). */
typedef struct {
	uint32_t first, step, runs;
} run_set;

typedef struct {
	const mev_release *rel;
	mev_filemap *sec, *fm;
	mev_graph *g;
	mev_strmap idx;           /* title -> section */
	mev_clustering **cl;      /* per run (NULL for runs of other workers) */
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

/* Load release m and cluster it in the worker's runs (prev: the runs'
 * previous release, or NULL). */
static int srel_load(srel *x, mev_store *s, const mev_release *m, const mev_cluster_params *cp,
		     const mev_track_params *tp, const run_set *rs, const srel *prev, int files)
{
	const mev_section_info *si;
	int rc;
	memset(x, 0, sizeof *x);
	x->rel = m;
	if ((rc = mev_release_load_graph(&x->sec, &x->g, s, m->tag, 0)) ||
	    (files && m->has_files && (rc = mev_release_load_filemap(&x->fm, s, m->tag))))
		return rc;
	if (!(x->cl = calloc((size_t)rs->runs + 1, sizeof *x->cl)))
		return mev_error_oom();
	si = mev_filemap_sections(x->sec);
	for (size_t i = 0; i < mev_filemap_section_count(x->sec); i++)
		if (mev__strmap_put(&x->idx, si[i].title, strlen(si[i].title), (uint32_t)i))
			return mev_error_oom();
	for (uint32_t r = rs->first; r < rs->runs; r += rs->step) {
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
	return mev__cluster_lines(v);
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

/* The class of an event: continuations, growths and contractions are one;
 * a bridge is found by a run in which its cluster is born in that pair
 * (the run links only consecutive releases). */
static int event_class(mev_event_kind k)
{
	if (k == MEV_EVENT_BRIDGE)
		return MEV_EVENT_BIRTH;
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
		if (ev->kind == MEV_EVENT_BIRTH || ev->kind == MEV_EVENT_BRIDGE)
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
	mev_store *s;              /* the caller's store; a worker opens its own (ws) */
	mev_store *ws;
	const mev_cluster_params *cp;
	const mev_track_params *tp;
	const mev_release *const *chain;
	size_t n, first, last;
	const uint8_t *need;       /* per release: the pair ending there needs support */
	int chained, workers;
	int lockfd;                /* the caller's writer's lock (closed in the workers) */
	uint32_t **hits;           /* in the caller: per release needing it, per event */
	size_t *nev;
	uint64_t *hash;
	mev_buf k, val;
} sctx;

/* The events record of the pair ending at tag, and the hash of its bytes. */
static int events_of(void **data, size_t *len, uint64_t *hash, sctx *c, mev_store *s, const char *tag)
{
	int rc = mev__events_key(&c->k, c->cp, c->tp, tag);
	if (!rc)
		rc = mev_store_get(data, len, s, "events", c->k.ptr, c->k.len);
	if (!rc && hash)
		*hash = mev__hash_bytes(*data, *len);
	return rc;
}

/* Is the stored support of the pair ending at tag made for events with
 * this hash? */
static int support_fresh(sctx *c, const char *tag, uint64_t hash)
{
	void *data = NULL;
	size_t len = 0;
	mev__record_reader r;
	int ok = 0;
	if (mev__support_key(&c->k, c->cp, c->tp, tag) == 0 &&
	    mev_store_get(&data, &len, c->s, "events", c->k.ptr, c->k.len) == 0) {
		mev__record_reader_init(&r, data, len);
		ok = mev__get_uv(&r) == SUPPORT_REC_VERSION && mev__get_uv(&r) == hash && !r.bad;
	}
	mev_error_clear();
	free(data);
	return ok;
}

/* In a worker: the hits of its runs on the pair xa -> xb, appended to out
 * (uv events, then uv hits each). */
static int pair_hits(mev_buf *out, sctx *c, const run_set *rs, const srel *xa, const srel *xb)
{
	void *data = NULL;
	size_t len = 0;
	mev__events_rec rec;
	mev__set_pair_vec sp = { 0 };
	int code = xa->fm && xb->fm, rc;
	uint32_t *hits = NULL;

	memset(&rec, 0, sizeof rec);
	if ((rc = events_of(&data, &len, NULL, c, c->ws, xb->rel->tag)) ||
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
	for (uint32_t r = rs->first; r < rs->runs && !rc; r += rs->step) {
		mev__track_rel va, vb;
		mev__pair_out po = { 0 };
		if (!(rc = view(&va, xa, r)) && !(rc = view(&vb, xb, r)) &&
		    !(rc = mev__pair_link(&po, &va, &vb, &sp, code, c->tp)))
			count_hits(hits, &rec, &po, xa, xb, r);
		mev__pair_out_free(&po);
		view_free(&va);
		view_free(&vb);
	}
	if (!rc) {
		int bad = mev__put_uv(out, rec.events.n);
		for (size_t e = 0; e < rec.events.n; e++)
			bad |= mev__put_uv(out, hits[e]);
		rc = bad ? mev_error_oom() : 0;
	}
done:
	free(hits);
	MEV_VEC_FREE(&sp);
	mev__events_rec_free(&rec);
	free(data);
	return rc;
}

static int worker_start(void *ctx)
{
	sctx *c = ctx;
	/* the writer's lock is the caller's: a worker left running after a
	 * kill -9 of the caller must not keep it (nor keep computing) */
	if (c->lockfd >= 0)
		close(c->lockfd);
	c->lockfd = -1;
#ifdef __linux__
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() == 1)
		_exit(1);
#endif
	return mev_store_open(&c->ws, mev_store_dir(c->s), MEV_STORE_READ);
}

static void worker_finish(void *ctx)
{
	(void)ctx; /* the worker's store handle goes with the process (_exit) */
}

/* In a worker: job j is the runs j, j + workers, ...: the hits of every
 * pair that needs them, in release order. */
static int worker_work(mev_buf *out, size_t j, void *ctx)
{
	sctx *c = ctx;
	run_set rs = { (uint32_t)j, (uint32_t)c->workers, (uint32_t)c->tp->support_runs };
	srel prev, cur;
	int rc = 0;
	memset(&prev, 0, sizeof prev);
	memset(&cur, 0, sizeof cur);
	mev__buf_clear(out);
	for (size_t i = c->chained ? 0 : c->first - 1; !rc && i <= c->last; i++) {
		/* a release is read with its files when a pair it is part of needs them */
		int files = c->need[i] || c->need[i + 1];
		if (!c->chained && !files) {
			srel_clear(&prev, rs.runs);
			continue;
		}
		if ((rc = srel_load(&cur, c->ws, c->chain[i], c->cp, c->tp, &rs, c->chained ? &prev : NULL,
				    files)))
			break;
		if (c->need[i] && prev.rel)
			rc = pair_hits(out, c, &rs, &prev, &cur);
		srel_clear(&prev, rs.runs);
		prev = cur;
		memset(&cur, 0, sizeof cur);
	}
	srel_clear(&prev, rs.runs);
	srel_clear(&cur, rs.runs);
	return rc;
}

/* In the caller: add a worker's hits. */
static int worker_done(size_t j, const void *data, size_t len, void *ctx)
{
	sctx *c = ctx;
	mev__record_reader r;
	(void)j;
	mev__record_reader_init(&r, data, len);
	for (size_t i = c->first; i <= c->last && !r.bad; i++) {
		uint64_t n;
		if (!c->need[i])
			continue;
		n = mev__get_uv(&r);
		if (n != c->nev[i])
			r.bad = 1;
		for (size_t e = 0; e < n && !r.bad; e++)
			c->hits[i][e] += (uint32_t)mev__get_uv(&r);
	}
	return r.bad ? mev_error_set(MEV_ECORRUPT, "a support worker sent damaged counts") : 0;
}

static int put_fn(mev_store *s, void *ctx)
{
	sctx *c = ctx;
	return mev_store_put(s, "events", c->k.ptr, c->k.len, c->val.ptr, c->val.len);
}

/* Store the support of the pair ending at release i. */
static int store_support(sctx *c, size_t i)
{
	int rc = mev__support_key(&c->k, c->cp, c->tp, c->chain[i]->tag);
	if (rc)
		return rc;
	mev__buf_clear(&c->val);
	rc = mev__put_uv(&c->val, SUPPORT_REC_VERSION) | mev__put_uv(&c->val, c->hash[i]) |
	     mev__put_uv(&c->val, c->nev[i]);
	for (size_t e = 0; e < c->nev[i]; e++)
		rc |= mev__put_uv(&c->val, c->hits[i][e]);
	return rc ? mev_error_oom() : mev_store_write(c->s, put_fn, c);
}

/* Which pairs need their support: need[i], their event counts and hashes. */
static int plan(sctx *c, uint8_t *need)
{
	int rc = 0;
	c->first = c->n;
	for (size_t i = 1; i < c->n && !rc; i++) {
		void *data = NULL;
		size_t len = 0;
		mev__events_rec rec;
		if ((rc = events_of(&data, &len, &c->hash[i], c, c->s, c->chain[i]->tag)))
			break;
		if (!support_fresh(c, c->chain[i]->tag, c->hash[i])) {
			memset(&rec, 0, sizeof rec);
			if (!(rc = mev__events_rec_decode(&rec, data, len, c->chain[i]->tag))) {
				need[i] = 1;
				c->nev[i] = rec.events.n;
				c->last = i;
				if (c->first == c->n)
					c->first = i;
				if (!(c->hits[i] = calloc(rec.events.n + 1, sizeof **c->hits)))
					rc = mev_error_oom();
			}
			mev__events_rec_free(&rec);
		}
		free(data);
	}
	return rc;
}

/* Whether the method clusters a release from the previous one's clusters:
 * then a run's releases are clustered in order from the first. */
static int uses_previous(const mev_cluster_params *cp)
{
	return cp->smooth || cp->method == MEV_CLUSTER_TEMPORAL;
}

int mev__track_support(size_t *computed, mev_store *s, const mev_cluster_params *cp,
		       const mev_track_params *tp, const mev_release *const *chain, size_t n, int jobs,
		       int lockfd, volatile int *stop)
{
	sctx c;
	uint8_t *need = calloc(n + 2, 1);
	int rc;

	*computed = 0;
	memset(&c, 0, sizeof c);
	c.s = s;
	c.cp = cp;
	c.tp = tp;
	c.chain = chain;
	c.n = n;
	c.need = need;
	c.chained = uses_previous(cp);
	c.lockfd = lockfd;
	c.hits = calloc(n + 1, sizeof *c.hits);
	c.nev = calloc(n + 1, sizeof *c.nev);
	c.hash = calloc(n + 1, sizeof *c.hash);
	if (!need || !c.hits || !c.nev || !c.hash)
		rc = mev_error_oom();
	else if (tp->support_runs <= 0 || n < 2)
		rc = 0;
	else if (!(rc = plan(&c, need)) && c.first < n) {
		mev__workers w = { 0 };
		c.workers = jobs < 1 ? 1 : jobs > tp->support_runs ? tp->support_runs : jobs;
		w.njobs = (size_t)c.workers;
		w.workers = c.workers;
		w.start = worker_start;
		w.work = worker_work;
		w.finish = worker_finish;
		w.done = worker_done;
		w.ctx = &c;
		w.stop = stop;
		rc = mev__workers_run(&w);
		for (size_t i = c.first; !rc && i <= c.last; i++)
			if (need[i] && !(rc = store_support(&c, i)))
				(*computed)++;
	}
	for (size_t i = 0; c.hits && i < n; i++)
		free(c.hits[i]);
	free(c.hits);
	free(c.nev);
	free(c.hash);
	mev__buf_free(&c.k);
	mev__buf_free(&c.val);
	free(need);
	return rc;
}
