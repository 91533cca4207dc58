/*
 * Tracking a whole store: cluster what is not clustered yet, then walk the
 * releases in order and compute every pair whose stored result no longer
 * fits; then the lineages.
 *
 * Per release pair:
 *   1. items: the files present in both releases, weighted by the mean of
 *      their two line counts (or, without file tables, the section titles
 *      present in both, weighted by the mean of the sections' lines);
 *   2. for each cluster its common weight, for each pair of clusters the
 *      weight of the items both cover (overlap.c);
 *   3. mev__track_pair(): links, events, lineages (link.c);
 *   4. the sections added, removed and renamed (sections.c);
 *   5. the cause of every event (cause.c).
 * Results are stored per release (the pair ending there) with the
 * fingerprints of both clusterings, so a later run recomputes only what
 * changed, from the first changed release on.
 */
#include "track_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "cluster/cluster_shared.h"
#include "util/clock.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* --- a release as the tracker sees it ------------------------------------- */

static void rel_clear(mev__track_rel *r)
{
	mev_clustering_free(r->cl);
	mev_graph_free(r->g);
	mev_filemap_free(r->sec);
	mev_filemap_free(r->fm);
	free(r->cl_lines);
	free(r->reps);
	free(r->lineage);
	free(r->parent);
	mev_release_patterns_free(&r->pat);
	free(r->died);
	memset(r, 0, sizeof *r);
}

static int rel_load(mev__track_rel *r, mev_store *s, const mev_release *m, const mev_cluster_params *cp)
{
	uint64_t h[4];
	size_t k;
	int rc;
	memset(r, 0, sizeof *r);
	r->tag = m->tag;
	r->commit = m->commit;
	r->has_files = m->has_files;
	if ((rc = mev_release_load_graph(&r->sec, &r->g, s, m->tag, 0)) ||
	    (rc = mev__cluster_load_graph(&r->cl, s, cp, m->tag, r->g)))
		goto fail;
	k = mev_clustering_count(r->cl);
	r->cl_fp = mev_clustering_fingerprint(r->cl);
	h[0] = mev__graph_fingerprint(r->g);
	memcpy(&h[1], m->commit.id, 20);
	h[3] = (uint64_t)m->has_files;
	r->rel_fp = mev__hash_bytes(h, sizeof h);
	r->reps = calloc(k + 1, sizeof *r->reps);
	r->lineage = calloc(k + 1, sizeof *r->lineage);
	r->parent = calloc(k + 1, sizeof *r->parent);
	if (!r->reps || !r->lineage || !r->parent) {
		rc = mev_error_oom();
		goto fail;
	}
	for (uint32_t c = 0; c < k; c++)
		r->reps[c] = mev_clustering_title(r->cl, mev_clustering_representative(r->cl, c));
	return 0;
fail:
	rel_clear(r);
	return rc;
}

/* Load the file table of r when it has one and it is not loaded yet. */
static int need_files(mev_store *s, mev__track_rel *r)
{
	if (!r->has_files || r->fm)
		return 0;
	return mev_release_load_filemap(&r->fm, s, r->tag);
}

/* Read the patterns of r unless read already (none stored: pat_state -1). */
static int need_patterns(mev_store *s, mev__track_rel *r)
{
	int rc;
	if (r->pat_state)
		return 0;
	rc = mev_release_load_patterns(&r->pat, s, r->tag);
	r->pat_state = rc == MEV_ENOTFOUND ? -1 : 1;
	return rc == MEV_ENOTFOUND ? 0 : rc;
}

/* The cluster sizes of r, unless known: from its files, else its sections. */
static int cluster_lines(mev_store *s, mev__track_rel *r)
{
	int rc;
	if (r->cl_lines)
		return 0;
	if ((rc = need_files(s, r)))
		return rc;
	return mev__cluster_lines(r);
}

/*
 * Take the clusters of r's stored events record (lineages, parents, sizes)
 * when it fits r's clustering; 0 when it does not (then it is computed
 * again).
 */
static int take_clusters(mev__track_rel *r, const void *data, size_t len)
{
	mev__events_rec rec;
	size_t k = mev_clustering_count(r->cl);
	int ok = mev__events_rec_decode(&rec, data, len, r->tag) == 0 && rec.clusters.n == k &&
		 (r->cl_lines = calloc(k + 1, sizeof *r->cl_lines)) != NULL;
	if (ok) {
		r->next_lineage = rec.next_lineage;
		for (size_t c = 0; c < k; c++) {
			r->lineage[c] = rec.clusters.v[c].lineage;
			r->parent[c] = rec.clusters.v[c].parent;
			r->cl_lines[c] = rec.clusters.v[c].lines;
		}
	}
	mev__events_rec_free(&rec);
	mev_error_clear();
	return ok;
}

/* --- one run ---------------------------------------------------------------- */

typedef struct {
	mev_store *s;
	const mev_cluster_params *cp;
	const mev_track_params *tp;
	const mev_progress *pr;            /* may be NULL */
	mev_track_result *res;
	uint64_t params[MEV__EVENT_PARAMS], rparams[MEV__CHANGE_PARAMS];
	mev__track_rel prev, cur;
	mev__track_rel older[MEV_TRACK_GAP_MAX]; /* the releases before prev, nearest
						    first, that a bridge may reach */
	size_t nolder;
	int have_prev;
	int dirty_ev, dirty_ch;            /* a pair was computed again: all after it too */
	mev_buf k, k2, k3, ev_val, ch_val, ca_val;
	mev_buf old_ev;                    /* the stored events record of the pair (or empty) */
	mev__cause_head ca_head;           /* what the causes of the pair are made from */
} run;

/* The causes of the events of po into r->ca_val (the head in r->ca_head,
 * its events hash set here). */
static int pair_causes(run *r, mev__track_rel *ra, mev__track_rel *rb, const mev__pair_out *po,
		       const mev__change_vec *ch, int code)
{
	mev__event_cause *c = NULL;
	mev__cause_in in = { ra, rb, po->links, po->nlinks, ch->v, ch->n, NULL, NULL, code };
	int rc;
	if ((rc = need_patterns(r->s, ra)) || (rc = need_patterns(r->s, rb)))
		return rc;
	in.pa = ra->pat_state > 0 ? &ra->pat : NULL;
	in.pb = rb->pat_state > 0 ? &rb->pat : NULL;
	r->ca_head.events_hash = mev__hash_bytes(r->ev_val.ptr, r->ev_val.len);
	if (!(rc = mev__causes(&c, &in)))
		rc = mev__encode_causes(&r->ca_val, &r->ca_head, c, po->nlinks);
	mev__causes_free(c, po->nlinks);
	r->res->caused += !rc;
	return rc;
}

/* Births of the pair ra -> rb that continue a lineage gone for at most
 * gap releases become bridges (bridge.c). */
static int bridge_births(run *r, mev__pair_out *po, const mev__track_rel *ra, const mev__track_rel *rb)
{
	const mev__track_rel *older[MEV_TRACK_GAP_MAX];
	int rc = 0;
	for (size_t g = 0; g < r->nolder && !rc; g++) {
		older[g] = &r->older[g];
		if (rb->has_files)
			rc = need_files(r->s, &r->older[g]);
	}
	return rc ? rc : mev__bridge(po, ra, rb, older, r->nolder, r->tp);
}

/* After the pair prev -> cur: prev learns which of its lineages died (from
 * the pair's events record) and joins the releases a bridge may reach;
 * cur becomes prev. */
static int next_release(run *r, const mev_buf *events)
{
	int rc = 0;
	if (r->have_prev && r->tp->gap > 0) {
		if ((rc = mev__bridge_died(&r->prev, events->ptr, events->len, r->cur.tag)))
			return rc;
		if (r->nolder == (size_t)r->tp->gap)
			rel_clear(&r->older[--r->nolder]);
		memmove(&r->older[1], &r->older[0], r->nolder * sizeof *r->older);
		r->older[0] = r->prev;
		r->nolder++;
	} else {
		rel_clear(&r->prev);
	}
	r->prev = r->cur;
	memset(&r->cur, 0, sizeof r->cur);
	r->have_prev = 1;
	return rc;
}

/* The events of the pair ra -> rb: rb gets its lineages, r->ev_val the
 * record; *po the links (free with mev__pair_out_free()). */
static int pair_events(run *r, mev__pair_out *po, mev__track_rel *ra, mev__track_rel *rb,
		       const mev__set_pair_vec *sp, int code)
{
	size_t nb = mev_clustering_count(rb->cl);
	int rc = mev__pair_link(po, ra, rb, sp, code, r->tp);
	if (!rc && r->nolder)
		rc = bridge_births(r, po, ra, rb);
	if (rc)
		return rc;
	memcpy(rb->lineage, po->lin_b, nb * sizeof *rb->lineage);
	memcpy(rb->parent, po->par_b, nb * sizeof *rb->parent);
	rb->next_lineage = po->next_lineage;
	rc = mev__encode_events(&r->ev_val, ra, rb, r->tp, code ? MEV__TRACK_MODE_CODE : MEV__TRACK_MODE_TITLES,
				po);
	if (!rc && code)
		r->res->by_code++;
	else if (!rc)
		r->res->by_title++;
	return rc;
}

/* Compute the pair ra -> rb (ra NULL: rb is the first release) into
 * r->ev_val and r->ca_val (want_events: the events and their causes) and
 * r->ch_val (want_changes). */
static int compute_pair(run *r, mev__track_rel *ra, mev__track_rel *rb, int want_events,
			int want_changes)
{
	int code = ra && ra->has_files && rb->has_files;
	mev__set_pair_vec sp = { 0 };
	mev__change_vec ch = { 0 };
	mev__pair_out po = { 0 };
	int rc;

	if (code && ((rc = need_files(r->s, ra)) || (rc = need_files(r->s, rb))))
		return rc;
	if ((rc = cluster_lines(r->s, rb)) || (ra && (rc = cluster_lines(r->s, ra))))
		return rc;
	if (!ra) {
		/* the first release: every cluster starts a lineage */
		rb->next_lineage = 1;
		for (size_t c = 0; c < mev_clustering_count(rb->cl); c++) {
			rb->lineage[c] = rb->next_lineage++;
			rb->parent[c] = 0;
		}
		return want_events ? mev__encode_events(&r->ev_val, NULL, rb, r->tp, MEV__TRACK_MODE_FIRST,
							NULL)
				   : 0;
	}
	if (code && (rc = mev__set_pairs(&sp, ra, rb)))
		goto done;
	if (want_events && (rc = pair_events(r, &po, ra, rb, &sp, code)))
		goto done;
	/* the causes need the section changes, even when those are kept */
	if ((want_changes || want_events) &&
	    (rc = mev__section_changes(&ch, ra, rb, code ? sp.v : NULL, sp.n, r->tp)))
		goto done;
	if (want_changes && (rc = mev__encode_changes(&r->ch_val, ra, rb, r->tp, ch.v, ch.n)))
		goto done;
	if (want_events)
		rc = pair_causes(r, ra, rb, &po, &ch, code);
done:
	mev__pair_out_free(&po);
	MEV_VEC_FREE(&sp);
	MEV_VEC_FREE(&ch);
	return rc;
}

typedef struct {
	const char *table;
	const mev_buf *k[3], *v[3];        /* the records (k NULL: no more); all but the
					      first go to table "events" */
} put_ctx;

static int put_fn(mev_store *s, void *ctx)
{
	const put_ctx *p = ctx;
	int rc = 0;
	for (int i = 0; i < 3 && p->k[i] && !rc; i++)
		rc = mev_store_put(s, i ? "events" : p->table, p->k[i]->ptr, p->k[i]->len, p->v[i]->ptr,
				   p->v[i]->len);
	return rc;
}

/* Store one record in a transaction of its own. */
static int put_value(mev_store *s, const char *table, const mev_buf *k, const mev_buf *v)
{
	put_ctx p = { table, { k, NULL, NULL }, { v, NULL, NULL } };
	return mev_store_write(s, put_fn, &p);
}

/* Are the stored causes of the pair ending at r->cur made for its events
 * record (data), the two releases and their patterns as stored now?
 * r->ca_head gets what they must be made from. */
static int causes_kept(run *r, const void *data, size_t len)
{
	void *c = NULL;
	size_t clen = 0;
	int ok;
	r->ca_head.events_hash = mev__hash_bytes(data, len);
	if (mev__cause_key(&r->k, r->cp, r->tp, r->cur.tag))
		return 0;
	ok = mev_store_get(&c, &clen, r->s, "events", r->k.ptr, r->k.len) == 0 &&
	     mev__causes_fresh(c, clen, &r->ca_head);
	mev_error_clear();
	free(c);
	return ok;
}

/* Is the stored pair ending at r->cur still valid?  Events: the clusterings
 * and thresholds are the same (then cur takes its lineages from it), and
 * their causes were computed for them; section changes: the releases and
 * the rename threshold.  r->old_ev gets the stored events record. */
static int check_kept(run *r, int *ev_ok, int *ch_ok)
{
	const mev__track_rel *prev = r->have_prev ? &r->prev : NULL;
	void *data = NULL;
	size_t len = 0;
	int rc;
	mev__buf_clear(&r->old_ev);
	if (prev) {
		/* what the causes are made from, whether kept or computed now */
		r->ca_head.fp_from = prev->rel_fp;
		r->ca_head.fp_to = r->cur.rel_fp;
		r->ca_head.patterns = (unsigned)mev_release_has_patterns(r->s, prev->tag) |
				      (unsigned)mev_release_has_patterns(r->s, r->cur.tag) << 1;
	}
	if ((rc = mev__events_key(&r->k, r->cp, r->tp, r->cur.tag)))
		return rc;
	*ev_ok = !r->dirty_ev && mev__rec_fresh(&data, &len, r->s, &r->k, prev ? prev->tag : "",
						 prev ? prev->cl_fp : 0, r->cur.cl_fp, r->params,
						 MEV__EVENT_PARAMS);
	if (*ev_ok)
		*ev_ok = take_clusters(&r->cur, data, len);
	if (*ev_ok && mev__buf_put(&r->old_ev, data, len))
		rc = mev_error_oom();
	if (!rc && *ev_ok && prev)
		*ev_ok = causes_kept(r, data, len);
	free(data);
	data = NULL;
	*ch_ok = 1;
	if (rc || !prev)
		return rc;
	if ((rc = mev__sections_key(&r->k, r->tp, r->cur.tag)))
		return rc;
	*ch_ok = !r->dirty_ch && mev__rec_fresh(&data, &len, r->s, &r->k, prev->tag, prev->rel_fp,
						 r->cur.rel_fp, r->rparams, MEV__CHANGE_PARAMS);
	free(data);
	return 0;
}

/* Store the records of the pair ending at r->cur that were computed (its
 * events and their causes, its section changes) in one transaction: a
 * kill leaves all or none.  Events computed again only for their causes,
 * and the same as stored, change nothing after them. */
static int store_pair(run *r, int events, int changes)
{
	put_ctx p = { "events", { NULL, NULL, NULL }, { NULL, NULL, NULL } };
	int n = 0, rc;
	int same = events && r->old_ev.len == r->ev_val.len &&
		   memcmp(r->old_ev.ptr, r->ev_val.ptr, r->ev_val.len) == 0;
	r->dirty_ev |= events && !same;
	r->dirty_ch |= changes;
	if (events && !same) {
		if ((rc = mev__events_key(&r->k, r->cp, r->tp, r->cur.tag)))
			return rc;
		p.k[n] = &r->k;
		p.v[n++] = &r->ev_val;
	}
	if (events && r->have_prev) {
		if ((rc = mev__cause_key(&r->k3, r->cp, r->tp, r->cur.tag)))
			return rc;
		p.k[n] = &r->k3;
		p.v[n++] = &r->ca_val;
	}
	if (changes) {
		if ((rc = mev__sections_key(&r->k2, r->tp, r->cur.tag)))
			return rc;
		p.k[n] = &r->k2;
		p.v[n++] = &r->ch_val;
	}
	return n ? mev_store_write(r->s, put_fn, &p) : 0;
}

/* Track release i of total (m): keep its stored pair or compute and store it. */
static int track_release(run *r, const mev_release *m, size_t i, size_t total)
{
	int ev_ok, ch_ok, rc;
	if ((rc = rel_load(&r->cur, r->s, m, r->cp)) || (rc = check_kept(r, &ev_ok, &ch_ok)))
		return rc;
	if (ev_ok && ch_ok) {
		r->res->kept++;
	} else {
		if (r->pr && r->pr->progress)
			r->pr->progress(r->pr->ctx, i + 1, total, r->cur.tag);
		mev__buf_clear(&r->ev_val);
		mev__buf_clear(&r->ch_val);
		mev__buf_clear(&r->ca_val);
		if ((rc = compute_pair(r, r->have_prev ? &r->prev : NULL, &r->cur, !ev_ok, !ch_ok)) ||
		    (rc = store_pair(r, !ev_ok, !ch_ok && r->have_prev)))
			return rc;
		r->res->tracked++;
	}
	return next_release(r, ev_ok ? &r->old_ev : &r->ev_val);
}

/* --- records of releases no longer tracked ----------------------------------- */

typedef struct {
	MEV_VEC(char *) keys;          /* NUL-terminated copies of the keys */
	size_t plen;
	const mev_strmap *chain;
} stale_ctx;

static int stale_cb(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	stale_ctx *sc = c;
	const char *tag = (const char *)key + sc->plen;
	char *k;
	(void)data;
	(void)len;
	if (mev__strmap_get(sc->chain, tag, klen - sc->plen) >= 0)
		return 0;
	if (!(k = malloc(klen + 1)))
		return mev_error_oom();
	memcpy(k, key, klen);
	k[klen] = '\0';
	if (MEV_VEC_PUSH(&sc->keys, k)) {
		free(k);
		return mev_error_oom();
	}
	return 0;
}

static int delete_stale(mev_store *s, void *ctx)
{
	const stale_ctx *sc = ctx;
	int rc = 0;
	for (size_t i = 0; i < sc->keys.n && !rc; i++) {
		/* the prefix holds a NUL: the key's length is past it */
		size_t kl = sc->plen + strlen(sc->keys.v[i] + sc->plen);
		rc = mev_store_delete(s, "events", sc->keys.v[i], kl);
	}
	return rc;
}

static int del_lineages(mev_store *s, void *ctx)
{
	const mev_buf *k = ctx;
	return mev_store_delete(s, "lineages", k->ptr, k->len);
}

/* Drop the lineages record under key k, if any. */
static int drop_lineages(mev_store *s, mev_buf *k)
{
	void *data = NULL;
	size_t len = 0;
	int rc = 0;
	if (mev_store_get(&data, &len, s, "lineages", k->ptr, k->len) == 0)
		rc = mev_store_write(s, del_lineages, k);
	else
		mev_error_clear();
	free(data);
	return rc;
}

/* Drop the stored records under prefix of releases not in the chain. */
static int drop_stale(mev_store *s, const mev_buf *prefix, const mev_strmap *chain)
{
	stale_ctx sc = { { 0 }, prefix->len, chain };
	int rc = mev_store_scan(s, "events", prefix->ptr, prefix->len, stale_cb, &sc);
	if (!rc && sc.keys.n)
		rc = mev_store_write(s, delete_stale, &sc);
	for (size_t i = 0; i < sc.keys.n; i++)
		free(sc.keys.v[i]);
	MEV_VEC_FREE(&sc.keys);
	return rc;
}

/* Records of maintevo before record version 2, which kept one result per
 * clustering under "<parameter key>\0<tag>", "sections\0<tag>" and
 * lineages "<parameter key>": computed again under the new keys, so the
 * old ones go. */
static int drop_legacy(mev_store *s, const mev_cluster_params *cp)
{
	mev_strmap none = MEV_STRMAP_INIT;
	mev_buf k = MEV_BUF_INIT;
	int rc = mev__legacy_events_key(&k, cp);
	if (!rc)
		rc = drop_stale(s, &k, &none);
	if (!rc) {
		mev__buf_clear(&k);
		if (mev__buf_put(&k, "sections", 9))
			rc = mev_error_oom();
		else
			rc = drop_stale(s, &k, &none);
	}
	if (!rc && !(rc = mev__legacy_events_key(&k, cp))) {
		k.len--;
		rc = drop_lineages(s, &k);
	}
	mev__buf_free(&k);
	mev__strmap_free(&none);
	return rc;
}

/* The events and lineages of a maintevo before issue 40 for these
 * thresholds, whose key had no gap (its results had none bridged): they
 * cannot be read any more, so they go.  (Their support and cause records,
 * keyed by the events they measured, are left: nothing reads them.) */
static int drop_gapless(mev_store *s, const mev_cluster_params *cp, const mev_track_params *tp)
{
	mev_strmap none = MEV_STRMAP_INIT;
	mev_buf k = MEV_BUF_INIT;
	char key[256], *gap;
	int rc = 0;
	mev_track_result_key(key, sizeof key, cp, tp);
	if ((gap = strstr(key, ":gap=")) != NULL)
		*gap = '\0';
	if (mev__buf_put(&k, key, strlen(key) + 1))
		rc = mev_error_oom();
	if (!rc)
		rc = drop_stale(s, &k, &none);
	if (!rc) {
		k.len--;
		rc = drop_lineages(s, &k);
	}
	mev__buf_free(&k);
	mev__strmap_free(&none);
	return rc;
}

/* --- lineages ----------------------------------------------------------------- */

typedef MEV_VEC(mev_lineage) lineage_vec;

/*
 * The name of a lineage born at `tag` whose first cluster is represented by
 * rep: rep itself, or "rep (tag)" when an older lineage has that name (then
 * " #2", ... in the unlikely case that is taken too).  Names are given in
 * the order of birth and never change, so a longer history keeps them.
 */
static const char *lineage_name(mev_arena *names, mev_strmap *used, const char *rep, size_t len,
				const char *tag)
{
	char *name = mev__arena_strndup(names, rep, len);
	for (int k = 1; name && mev__strmap_get(used, name, strlen(name)) >= 0; k++) {
		size_t n = len + strlen(tag) + 32;
		char *alt = mev__arena_alloc(names, n, 1);
		if (!alt)
			return NULL;
		if (k == 1)
			snprintf(alt, n, "%.*s (%s)", (int)len, rep, tag);
		else
			snprintf(alt, n, "%.*s (%s) #%d", (int)len, rep, tag, k);
		name = alt;
	}
	if (name && mev__strmap_put(used, name, strlen(name), 1))
		return NULL;
	return name;
}

/* Add the clusters of one release's events record to the lineages. */
static int add_release(lineage_vec *v, mev_arena *names, mev_strmap *used, mev_release_names *disp,
		       const mev__events_rec *rec, const char *tag)
{
	for (size_t c = 0; c < rec->clusters.n; c++) {
		const mev__rec_cluster *x = &rec->clusters.v[c];
		mev_lineage *a;
		if (!x->lineage || x->lineage > v->n + rec->clusters.n + 1)
			return mev_error_set(MEV_ECORRUPT, "the events of '%s' are damaged", tag);
		while (v->n < x->lineage) {
			mev_lineage z = { (uint32_t)v->n + 1, NULL, NULL, NULL, 0, 0, 0 };
			if (MEV_VEC_PUSH(v, z))
				return mev_error_oom();
		}
		a = &v->v[x->lineage - 1];
		if (!a->first_release) {
			a->first_release = tag;
			a->parent = x->parent;
			/* named after the representative's display name (a U-Boot
			 * "#M: ..." title reads as its board) */
			const char *d = NULL;
			char *rep = mev__arena_strndup(names, x->rep, x->rep_len);
			int rc;
			if (!rep)
				return mev_error_oom();
			if ((rc = mev_release_display(&d, disp, tag, rep)))
				return rc;
			if (!(a->name = lineage_name(names, used, d, strlen(d), tag)))
				return mev_error_oom();
		}
		a->last_release = tag;
		a->releases++;
		if (x->lines > a->peak_lines)
			a->peak_lines = x->lines;
	}
	return 0;
}

/* Lineages record (table "lineages", key "<result key>"), from the
 * clusters of every release's events record. */
static int write_lineages(mev_store *s, const mev_cluster_params *cp, const mev_track_params *tp,
			  const mev_release *const *chain, size_t n, mev_track_result *res)
{
	lineage_vec v = { 0 };
	mev_arena names = MEV_ARENA_INIT;
	mev_strmap used = MEV_STRMAP_INIT;
	mev_release_names *disp = NULL;
	mev_buf k = MEV_BUF_INIT, val = MEV_BUF_INIT;
	int rc = mev_release_names_new(&disp, s);
	for (size_t i = 0; i < n && !rc; i++) {
		void *data = NULL;
		size_t len = 0;
		mev__events_rec rec;
		if ((rc = mev__events_key(&k, cp, tp, chain[i]->tag)) ||
		    (rc = mev_store_get(&data, &len, s, "events", k.ptr, k.len)))
			break;
		if (!(rc = mev__events_rec_decode(&rec, data, len, chain[i]->tag)))
			rc = add_release(&v, &names, &used, disp, &rec, chain[i]->tag);
		mev__events_rec_free(&rec);
		free(data);
	}
	if (rc || (rc = mev__encode_lineages(&val, v.v, v.n)) || (rc = mev__lineages_key(&k, cp, tp)))
		goto done;
	rc = put_value(s, "lineages", &k, &val);
	res->lineages = v.n;
done:
	MEV_VEC_FREE(&v);
	mev_release_names_free(disp);
	mev__strmap_free(&used);
	mev__arena_free(&names);
	mev__buf_free(&k);
	mev__buf_free(&val);
	return rc;
}

/* --- the whole store ---------------------------------------------------------- */

/* Count the events and changes stored for the chain (for the summary). */
static int count_events(mev_track_result *res, mev_store *s, const mev_cluster_params *cp,
			const mev_track_params *tp)
{
	mev_event_list ev = { 0 };
	mev_section_change_list sc = { 0 };
	int rc = mev_track_events(&ev, s, cp, tp, NULL, NULL);
	if (!rc)
		for (size_t i = 0; i < ev.n; i++) {
			const mev_event *e = &ev.v[i];
			res->events[e->kind]++;
			res->no_change += (e->kind == MEV_EVENT_SPLIT || e->kind == MEV_EVENT_MERGE) &&
					  strcmp(e->cause_kind, "none") == 0;
		}
	if (!rc && !(rc = mev_track_section_changes(&sc, s, tp, NULL, NULL)))
		for (size_t i = 0; i < sc.n; i++)
			res->section_changes[sc.v[i].kind]++;
	mev_event_list_free(&ev);
	mev_section_change_list_free(&sc);
	return rc;
}

/* The releases tracked: those with sections, in version order (borrowed
 * from list), and their tags as a set. */
static int chain_of(const mev_release ***chain, size_t *nchain, mev_strmap *tags,
		    const mev_release *list, size_t n)
{
	*nchain = 0;
	if (!(*chain = calloc(n + 1, sizeof **chain)))
		return mev_error_oom();
	for (size_t i = 0; i < n; i++)
		if (list[i].sections > 0) {
			(*chain)[(*nchain)++] = &list[i];
			if (mev__strmap_put(tags, list[i].tag, strlen(list[i].tag), 1))
				return mev_error_oom();
		}
	return 0;
}

/* After the pairs: records of releases no longer tracked go, the lineages
 * are written again, the summary counted. */
static int finish(run *r, const mev_release *const *chain, size_t nchain, const mev_strmap *tags)
{
	int rc;
	if ((rc = mev__events_key(&r->k, r->cp, r->tp, NULL)) || (rc = drop_stale(r->s, &r->k, tags)) ||
	    (rc = mev__sections_key(&r->k, r->tp, NULL)) || (rc = drop_stale(r->s, &r->k, tags)) ||
	    (rc = mev__support_key(&r->k, r->cp, r->tp, NULL)) || (rc = drop_stale(r->s, &r->k, tags)) ||
	    (rc = mev__cause_key(&r->k, r->cp, r->tp, NULL)) || (rc = drop_stale(r->s, &r->k, tags)) ||
	    (rc = drop_legacy(r->s, r->cp)) || (rc = drop_gapless(r->s, r->cp, r->tp)))
		return rc;
	if ((rc = write_lineages(r->s, r->cp, r->tp, chain, nchain, r->res)))
		return rc;
	return count_events(r->res, r->s, r->cp, r->tp);
}

/* The run itself, under the writer's lock (lockfd): cluster, then every
 * pair of the releases clustered now, then the lineages. */
static int track_locked(run *r, const mev_track_options *o, int lockfd)
{
	mev_cluster_options co = { 0 };
	mev_release *list = NULL;
	const mev_release **chain = NULL;
	size_t n = 0, nchain = 0;
	mev_strmap tags = MEV_STRMAP_INIT;
	double t0 = mev__now();
	int rc;

	if (o) {
		co.jobs = o->jobs;
		co.progress.stop = o->progress.stop;
	}
	if ((rc = mev__cluster_run(&r->res->cluster, r->s, r->cp, &co, lockfd)))
		return rc;
	r->res->cluster_seconds = mev__now() - t0;
	if ((rc = mev_release_list(&list, &n, r->s)) || (rc = chain_of(&chain, &nchain, &tags, list, n)))
		goto done;
	r->res->releases = nchain;
	for (size_t i = 0; i < nchain && !rc; i++) {
		if (r->pr && r->pr->stop && *r->pr->stop)
			rc = mev_error_set(MEV_EINTR, "interrupted");
		else
			rc = track_release(r, chain[i], i, nchain);
	}
	if (!rc)
		rc = finish(r, chain, nchain, &tags);
	if (!rc) {
		double t1 = mev__now();
		int jobs = o && o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
		rc = mev__track_support(&r->res->supported, r->s, r->cp, r->tp, chain, nchain, jobs,
					lockfd, r->pr ? r->pr->stop : NULL);
		r->res->support_seconds = mev__now() - t1;
	}
done:
	mev__strmap_free(&tags);
	free(chain);
	mev_release_list_free(list, n);
	return rc;
}

int mev_track_store(mev_track_result *res, mev_store *s, const mev_cluster_params *cp,
		    const mev_track_params *tp, const mev_track_options *o)
{
	run r;
	double t0 = mev__now();
	int lockfd = -1, rc;

	memset(&r, 0, sizeof r);
	r.s = s;
	r.cp = cp;
	r.tp = tp;
	r.pr = o ? &o->progress : NULL;
	r.res = res;
	memset(res, 0, sizeof *res);
	if ((rc = mev_cluster_params_check(cp)) || (rc = mev_track_params_check(tp)))
		return rc;
	mev__event_params(r.params, tp);
	mev__change_params(r.rparams, tp);
	/* one writer: the releases and clusterings read here stay as they are
	 * until the run ends (a walk meanwhile could add a release that has no
	 * clustering yet, or drop one) */
	if ((rc = mev__cluster_lock(&lockfd, s, r.pr, o ? o->wait : 0)))
		return rc;
	rc = track_locked(&r, o, lockfd);
	close(lockfd);
	res->seconds = mev__now() - t0;
	rel_clear(&r.prev);
	rel_clear(&r.cur);
	for (size_t g = 0; g < r.nolder; g++)
		rel_clear(&r.older[g]);
	mev__buf_free(&r.k);
	mev__buf_free(&r.k2);
	mev__buf_free(&r.k3);
	mev__buf_free(&r.ev_val);
	mev__buf_free(&r.ch_val);
	mev__buf_free(&r.ca_val);
	mev__buf_free(&r.old_ev);
	return rc;
}
