/*
 * The tracker's records: the events of a release pair (with the lineage of
 * every cluster), the section changes of a pair and the lineages, written and
 * read here only (docs/tracking.md, "What is stored").
 */
#include "track_internal.h"
#include "maintevo/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mev__event_params(uint64_t out[MEV__EVENT_PARAMS], const mev_track_params *p)
{
	out[0] = mev__f64_bits(p->link);
	out[1] = mev__f64_bits(p->match);
	out[2] = mev__f64_bits(p->growth);
	out[3] = mev__f64_bits(p->absorb);
	out[4] = (uint64_t)p->gap;
}

void mev__change_params(uint64_t out[MEV__CHANGE_PARAMS], const mev_track_params *p)
{
	out[0] = mev__f64_bits(p->rename);
}

/* --- keys ------------------------------------------------------------------ */

int mev__events_key(mev_buf *k, const mev_cluster_params *cp, const mev_track_params *tp,
		     const char *tag)
{
	char pk[256];
	size_t n = mev_track_result_key(pk, sizeof pk, cp, tp);
	mev__buf_clear(k);
	return mev__buf_put(k, pk, n + 1) || (tag && mev__buf_puts(k, tag)) ? mev_error_oom() : 0;
}

int mev__legacy_events_key(mev_buf *k, const mev_cluster_params *cp)
{
	char pk[128];
	size_t n = mev_cluster_key(pk, sizeof pk, cp);
	mev__buf_clear(k);
	return mev__buf_put(k, pk, n + 1) ? mev_error_oom() : 0;
}

int mev__sections_key(mev_buf *k, const mev_track_params *tp, const char *tag)
{
	char pk[64];
	int n = snprintf(pk, sizeof pk, "sections:rename=%g", tp->rename);
	mev__buf_clear(k);
	return mev__buf_put(k, pk, (size_t)n + 1) || (tag && mev__buf_puts(k, tag)) ? mev_error_oom()
											: 0;
}

int mev__lineages_key(mev_buf *k, const mev_cluster_params *cp, const mev_track_params *tp)
{
	int rc = mev__events_key(k, cp, tp, NULL);
	if (!rc)
		k->len--; /* the parameter key alone, without the NUL */
	return rc;
}

int mev__track_keys_init(mev__track_keys *k, const mev_cluster_params *cp, const mev_track_params *tp)
{
	mev_cluster_params cd;
	mev_track_params td;
	memset(k, 0, sizeof *k);
	if (!cp) {
		mev_cluster_params_init(&cd);
		cp = &cd;
	}
	if (!tp) {
		mev_track_params_init(&td);
		tp = &td;
	}
	k->support_runs = tp->support_runs;
	mev_track_result_key(k->result, sizeof k->result, cp, tp);
	if (mev__events_key(&k->events, cp, tp, NULL) || mev__support_key(&k->support, cp, tp, NULL) ||
	    mev__cause_key(&k->causes, cp, tp, NULL) || mev__sections_key(&k->sections, tp, NULL) ||
	    mev__lineages_key(&k->lineages, cp, tp)) {
		mev__track_keys_free(k);
		return MEV_ENOMEM;
	}
	return 0;
}

void mev__track_keys_free(mev__track_keys *k)
{
	mev__buf_free(&k->events);
	mev__buf_free(&k->support);
	mev__buf_free(&k->causes);
	mev__buf_free(&k->sections);
	mev__buf_free(&k->lineages);
}

/* --- the head of a pair's record ------------------------------------------- */

static int put_head(mev_buf *b, const char *from, uint64_t fp_from, uint64_t fp_to, const uint64_t *params,
		    size_t nparams)
{
	int rc = 0;
	rc |= mev__put_uv(b, MEV__TRACK_REC_VERSION);
	rc |= mev__put_uv(b, MEV__TRACK_ALGORITHM);
	rc |= mev__put_cstr(b, from);
	rc |= mev__put_uv(b, fp_from);
	rc |= mev__put_uv(b, fp_to);
	for (size_t i = 0; i < nparams; i++)
		rc |= mev__put_uv(b, params[i]);
	return rc;
}

int mev__rec_head_get(mev__rec_head *h, mev__record_reader *r, size_t nparams)
{
	size_t l;
	const char *p;
	memset(h, 0, sizeof *h);
	if (mev__get_uv(r) != MEV__TRACK_REC_VERSION)
		return -1;
	h->algorithm = mev__get_uv(r);
	p = mev__get_str(r, &l);
	if (l >= sizeof h->from)
		return -1;
	memcpy(h->from, p, l);
	h->from[l] = '\0';
	h->fp_from = mev__get_uv(r);
	h->fp_to = mev__get_uv(r);
	for (size_t i = 0; i < nparams; i++)
		h->params[i] = mev__get_uv(r);
	return r->bad ? -1 : 0;
}

int mev__rec_fresh(void **data, size_t *len, mev_store *s, const mev_buf *k, const char *from,
		   uint64_t fp_from, uint64_t fp_to, const uint64_t *params, size_t nparams)
{
	mev__rec_head h;
	mev__record_reader r;
	*data = NULL;
	if (mev_store_get(data, len, s, "events", k->ptr, k->len))
		return 0;
	mev__record_reader_init(&r, *data, *len);
	if (mev__rec_head_get(&h, &r, nparams) || h.algorithm != MEV__TRACK_ALGORITHM ||
	    strcmp(h.from, from) || h.fp_from != fp_from || h.fp_to != fp_to)
		return 0;
	for (size_t i = 0; i < nparams; i++)
		if (h.params[i] != params[i])
			return 0;
	return 1;
}

/* --- events ------------------------------------------------------------------ */

/* What an event holds beyond its clusters: uv share bits, uv from
 * lineage, uv partner lineage, uv partner share bits, str partner. */
static int put_link_extra(mev_buf *b, const mev__track_rel *ra, const mev__track_rel *rb,
			  const mev__link *l, const mev__track_rel *fa, uint32_t a)
{
	int ha = a != MEV_CLUSTER_NONE, hp = l->partner != MEV_CLUSTER_NONE;
	/* a birth's partner is an older cluster, a death's a newer one */
	const mev__track_rel *pr = l->kind == MEV_EVENT_BIRTH ? ra : rb;
	int rc = mev__put_uv(b, mev__f64_bits(l->share));
	rc |= mev__put_uv(b, ha ? fa->lineage[a] : 0);
	rc |= mev__put_uv(b, hp ? pr->lineage[l->partner] : 0);
	rc |= mev__put_uv(b, mev__f64_bits(hp ? l->partner_share : NAN));
	rc |= mev__put_cstr(b, hp ? pr->reps[l->partner] : "");
	if (l->kind == MEV_EVENT_BRIDGE)
		rc |= mev__put_cstr(b, fa->tag);
	return rc;
}

/*
 * Events record (table "events", key "<result key>\0<tag>"): head (from
 * tag, clustering fingerprints, link/match/growth/absorb), uv mode, uv next
 * lineage, the clusters of the release (uv lineage, uv parent, uv lines,
 * str representative), the events (uv kind, uv from+1, uv to+1, uv
 * similarity bits, uv from_lines+1, uv to_lines+1, uv lineage, str from
 * representative, str to representative, then put_link_extra()).  A
 * bridge has no cluster of the older release: its from side is the
 * cluster of the release before the gap (from+1 is 0, the lines, lineage
 * and representative are that cluster's), and its tag ends the event.
 */
int mev__encode_events(mev_buf *b, const mev__track_rel *ra, const mev__track_rel *rb,
		       const mev_track_params *p, int mode, const mev__pair_out *po)
{
	uint64_t params[MEV__EVENT_PARAMS];
	size_t k = mev_clustering_count(rb->cl);
	int rc;
	mev__event_params(params, p);
	rc = put_head(b, ra ? ra->tag : "", ra ? ra->cl_fp : 0, rb->cl_fp, params, MEV__EVENT_PARAMS);
	rc |= mev__put_uv(b, (uint64_t)mode);
	rc |= mev__put_uv(b, rb->next_lineage);
	rc |= mev__put_uv(b, k);
	for (size_t c = 0; c < k && !rc; c++) {
		rc |= mev__put_uv(b, rb->lineage[c]);
		rc |= mev__put_uv(b, rb->parent[c]);
		rc |= mev__put_uv(b, rb->cl_lines[c]);
		rc |= mev__put_cstr(b, rb->reps[c]);
	}
	rc |= mev__put_uv(b, po ? po->nlinks : 0);
	for (size_t i = 0; po && i < po->nlinks && !rc; i++) {
		const mev__link *l = &po->links[i];
		/* the from side: a cluster of ra, or a bridge's before the gap */
		const mev__track_rel *fa = l->gap_rel ? l->gap_rel : ra;
		uint32_t a = l->gap_rel ? l->gap_a : l->a;
		int ha = a != MEV_CLUSTER_NONE, hb = l->b != MEV_CLUSTER_NONE;
		rc |= mev__put_uv(b, (uint64_t)l->kind);
		rc |= mev__put_uv(b, l->a != MEV_CLUSTER_NONE ? (uint64_t)l->a + 1 : 0);
		rc |= mev__put_uv(b, hb ? (uint64_t)l->b + 1 : 0);
		rc |= mev__put_uv(b, mev__f64_bits(l->sim));
		rc |= mev__put_uv(b, ha ? fa->cl_lines[a] + 1 : 0);
		rc |= mev__put_uv(b, hb ? rb->cl_lines[l->b] + 1 : 0);
		rc |= mev__put_uv(b, hb ? rb->lineage[l->b] : fa->lineage[a]);
		rc |= mev__put_cstr(b, ha ? fa->reps[a] : "");
		rc |= mev__put_cstr(b, hb ? rb->reps[l->b] : "");
		rc |= put_link_extra(b, ra, rb, l, fa, a);
	}
	return rc ? mev_error_oom() : 0;
}

/* The clusters part of an events record. */
static int decode_clusters(mev__events_rec *out, mev__record_reader *r)
{
	uint64_t k = mev__get_uv(r);
	if (r->bad || k > (uint64_t)(r->end - r->p)) {
		r->bad = 1;
		return 0;
	}
	if (MEV_VEC_RESERVE(&out->clusters, k + 1))
		return mev_error_oom();
	for (uint64_t c = 0; c < k && !r->bad; c++) {
		mev__rec_cluster *x = &out->clusters.v[out->clusters.n++];
		x->lineage = (uint32_t)mev__get_uv(r);
		x->parent = (uint32_t)mev__get_uv(r);
		x->lines = mev__get_uv(r);
		x->rep = mev__get_str(r, &x->rep_len);
	}
	return 0;
}

/* The events part of an events record. */
static int decode_events(mev__events_rec *out, mev__record_reader *r)
{
	uint64_t n = mev__get_uv(r);
	if (r->bad || n > (uint64_t)(r->end - r->p)) {
		r->bad = 1;
		return 0;
	}
	if (MEV_VEC_RESERVE(&out->events, n + 1))
		return mev_error_oom();
	for (uint64_t e = 0; e < n && !r->bad; e++) {
		mev__rec_event *x = &out->events.v[out->events.n++];
		uint64_t fl, tl;
		x->kind = (mev_event_kind)mev__get_uv(r);
		(void)mev__get_uv(r); /* from + 1, to + 1: the representatives say it */
		(void)mev__get_uv(r);
		x->sim = mev__bits_f64(mev__get_uv(r));
		fl = mev__get_uv(r);
		tl = mev__get_uv(r);
		x->from_lines = fl ? (int64_t)(fl - 1) : -1;
		x->to_lines = tl ? (int64_t)(tl - 1) : -1;
		x->lineage = (uint32_t)mev__get_uv(r);
		x->from_rep = mev__get_str(r, &x->from_len);
		x->to_rep = mev__get_str(r, &x->to_len);
		x->share = mev__bits_f64(mev__get_uv(r));
		x->from_lineage = (uint32_t)mev__get_uv(r);
		x->partner_lineage = (uint32_t)mev__get_uv(r);
		x->partner_share = mev__bits_f64(mev__get_uv(r));
		x->partner = mev__get_str(r, &x->partner_len);
		if (x->kind == MEV_EVENT_BRIDGE)
			x->gap_from = mev__get_str(r, &x->gap_from_len);
		if ((unsigned)x->kind >= MEV_EVENT_KINDS)
			r->bad = 1;
	}
	return 0;
}

int mev__events_rec_decode(mev__events_rec *out, const void *data, size_t len, const char *tag)
{
	mev__record_reader r;
	int rc;
	memset(out, 0, sizeof *out);
	mev__record_reader_init(&r, data, len);
	if (mev__rec_head_get(&out->head, &r, MEV__EVENT_PARAMS) == 0) {
		out->mode = mev__get_uv(&r);
		out->next_lineage = (uint32_t)mev__get_uv(&r);
		if ((rc = decode_clusters(out, &r)) || (!r.bad && (rc = decode_events(out, &r))))
			return rc;
	} else {
		r.bad = 1;
	}
	if (r.bad)
		return mev_error_set(MEV_ECORRUPT, "the events of '%s' are damaged", tag);
	return 0;
}

void mev__events_rec_free(mev__events_rec *r)
{
	MEV_VEC_FREE(&r->clusters);
	MEV_VEC_FREE(&r->events);
}

/* --- section changes -------------------------------------------------------- */

/* Section changes record (key "sections:rename=R\0<tag>"): head (from tag, release
 * fingerprints, rename), uv n, per change uv kind, str section, str new
 * section, uv lines, uv coverage bits. */
int mev__encode_changes(mev_buf *b, const mev__track_rel *ra, const mev__track_rel *rb,
			const mev_track_params *p, const mev__change *c, size_t n)
{
	uint64_t params[MEV__CHANGE_PARAMS];
	int rc;
	mev__change_params(params, p);
	rc = put_head(b, ra->tag, ra->rel_fp, rb->rel_fp, params, MEV__CHANGE_PARAMS);
	rc |= mev__put_uv(b, n);
	for (size_t i = 0; i < n && !rc; i++) {
		rc |= mev__put_uv(b, (uint64_t)c[i].kind);
		rc |= mev__put_cstr(b, c[i].section);
		rc |= mev__put_cstr(b, c[i].new_section);
		rc |= mev__put_uv(b, c[i].lines);
		rc |= mev__put_uv(b, mev__f64_bits(c[i].coverage));
	}
	return rc ? mev_error_oom() : 0;
}

int mev__changes_rec_decode(mev__changes_rec *out, const void *data, size_t len, const char *tag)
{
	mev__record_reader r;
	uint64_t n;
	memset(out, 0, sizeof *out);
	mev__record_reader_init(&r, data, len);
	if (mev__rec_head_get(&out->head, &r, MEV__CHANGE_PARAMS))
		r.bad = 1;
	n = mev__get_uv(&r);
	if (r.bad || n > len)
		return mev_error_set(MEV_ECORRUPT, "the section changes of '%s' are damaged", tag);
	if (MEV_VEC_RESERVE(&out->changes, n + 1))
		return mev_error_oom();
	for (uint64_t k = 0; k < n && !r.bad; k++) {
		mev__rec_change *c = &out->changes.v[out->changes.n++];
		c->kind = (mev_section_change_kind)mev__get_uv(&r);
		c->section = mev__get_str(&r, &c->section_len);
		c->new_section = mev__get_str(&r, &c->new_len);
		c->lines = mev__get_uv(&r);
		c->coverage = mev__bits_f64(mev__get_uv(&r));
		if ((unsigned)c->kind > MEV_SECTION_RENAMED)
			r.bad = 1;
	}
	if (r.bad)
		return mev_error_set(MEV_ECORRUPT, "the section changes of '%s' are damaged", tag);
	return 0;
}

void mev__changes_rec_free(mev__changes_rec *r)
{
	MEV_VEC_FREE(&r->changes);
}

/* --- lineages --------------------------------------------------------------- */

int mev__encode_lineages(mev_buf *b, const mev_lineage *lin, size_t n)
{
	int rc = 0;
	rc |= mev__put_uv(b, MEV__TRACK_REC_VERSION);
	rc |= mev__put_uv(b, n);
	for (size_t i = 0; i < n && !rc; i++) {
		const mev_lineage *a = &lin[i];
		rc |= mev__put_uv(b, i + 1);
		rc |= mev__put_cstr(b, a->name ? a->name : "");
		rc |= mev__put_cstr(b, a->first_release ? a->first_release : "");
		rc |= mev__put_cstr(b, a->last_release ? a->last_release : "");
		rc |= mev__put_uv(b, a->parent);
		rc |= mev__put_uv(b, a->peak_lines);
		rc |= mev__put_uv(b, a->releases);
	}
	return rc ? mev_error_oom() : 0;
}

static const char *arena_str(mev_arena *a, const char *s, size_t l, int *oom)
{
	char *p = mev__arena_strndup(a, s, l);
	if (!p)
		*oom = 1;
	return p ? p : "";
}

int mev__lineages_decode(mev_lineage **out, size_t *n, mev_arena *arena, const void *data,
			 size_t len, const char *key)
{
	mev__record_reader r;
	uint64_t count;
	int oom = 0;
	*out = NULL;
	*n = 0;
	mev__record_reader_init(&r, data, len);
	if (mev__get_uv(&r) != MEV__TRACK_REC_VERSION)
		return mev_error_set(MEV_ECORRUPT, "the lineages of %s are of an unknown version", key);
	count = mev__get_uv(&r);
	if (r.bad || count > len)
		return mev_error_set(MEV_ECORRUPT, "the lineages of %s are damaged", key);
	if (!(*out = calloc(count + 1, sizeof **out)))
		return mev_error_oom();
	for (uint64_t i = 0; i < count && !r.bad; i++) {
		mev_lineage *l = &(*out)[i];
		size_t sl;
		const char *p;
		l->id = (uint32_t)mev__get_uv(&r);
		p = mev__get_str(&r, &sl);
		l->name = arena_str(arena, p, sl, &oom);
		p = mev__get_str(&r, &sl);
		l->first_release = arena_str(arena, p, sl, &oom);
		p = mev__get_str(&r, &sl);
		l->last_release = arena_str(arena, p, sl, &oom);
		l->parent = (uint32_t)mev__get_uv(&r);
		l->peak_lines = mev__get_uv(&r);
		l->releases = (uint32_t)mev__get_uv(&r);
	}
	*n = (size_t)count;
	if (r.bad)
		return mev_error_set(MEV_ECORRUPT, "the lineages of %s are damaged", key);
	return oom ? mev_error_oom() : 0;
}
