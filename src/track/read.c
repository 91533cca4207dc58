/*
 * Reading the tracker's results back: events, section changes, lineages and
 * the lineage of every cluster of a release, as lists that own their strings.
 */
#include "track_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const event_names[] = { "birth", "death", "continuation", "growth",
					   "contraction", "split", "merge", "bridge" };
static const char *const change_names[] = { "added", "removed", "renamed" };

const char *mev_event_name(mev_event_kind k)
{
	return (unsigned)k < MEV_EVENT_KINDS ? event_names[k] : "?";
}

int mev_event_parse(const char *name)
{
	for (int i = 0; i < MEV_EVENT_KINDS; i++)
		if (strcmp(name, event_names[i]) == 0)
			return i;
	return -1;
}

const char *mev_section_change_name(mev_section_change_kind k)
{
	return (unsigned)k < 3 ? change_names[k] : "?";
}

/* --- the lists handed out ------------------------------------------------------ */

/* A list being read: items of `size` bytes and the arena of their strings. */
typedef struct {
	void *v;
	size_t n, cap, size;
	mev_arena *arena;
	int oom;
	const void *aux;          /* events: the support and cause records (events_aux) */
} list;

static int list_init(list *l, size_t size)
{
	memset(l, 0, sizeof *l);
	l->size = size;
	return (l->arena = calloc(1, sizeof *l->arena)) ? 0 : mev_error_oom();
}

/* A new zeroed item at the end, or NULL (l->oom set). */
static void *list_push(list *l)
{
	char *p;
	if (mev__vec_grow(&l->v, &l->cap, l->n + 1, l->size)) {
		l->oom = 1;
		return NULL;
	}
	p = (char *)l->v + l->n++ * l->size;
	memset(p, 0, l->size);
	return p;
}

static const char *list_str(list *l, const char *s, size_t len)
{
	char *p = mev__arena_strndup(l->arena, s, len);
	if (!p)
		l->oom = 1;
	return p ? p : "";
}

static void free_parts(void **v, size_t *n, void **mem)
{
	if (*mem) {
		mev__arena_free(*mem);
		free(*mem);
	}
	free(*v);
	*v = *mem = NULL;
	*n = 0;
}

/* Hand the list over (rc 0) or drop it; returns rc, or MEV_ENOMEM. */
static int list_finish(list *l, int rc, void **v, size_t *n, void **mem)
{
	if (!rc && l->oom)
		rc = mev_error_oom();
	if (rc) {
		free_parts(&l->v, &l->n, (void **)&l->arena);
		return rc;
	}
	*v = l->v;
	*n = l->n;
	*mem = l->arena;
	return 0;
}

void mev_event_list_free(mev_event_list *l)
{
	free_parts((void **)&l->v, &l->n, &l->mem_);
}

void mev_lineage_list_free(mev_lineage_list *l)
{
	free_parts((void **)&l->v, &l->n, &l->mem_);
}

void mev_section_change_list_free(mev_section_change_list *l)
{
	free_parts((void **)&l->v, &l->n, &l->mem_);
}

void mev_tracked_cluster_list_free(mev_tracked_cluster_list *l)
{
	if (l->mem_) {
		mev__arena_free(l->mem_);
		free(l->mem_);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* --- the chain of pair records ---------------------------------------------------- */

typedef struct {
	char *to;
	void *data;
	size_t len;
	int64_t rank;        /* of `to` in the store's order */
} raw_rec;

typedef struct {
	MEV_VEC(raw_rec) v;
	size_t plen;
} rec_vec;

static int rec_cb(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	rec_vec *rv = c;
	raw_rec r;
	r.to = strndup((const char *)key + rv->plen, klen - rv->plen);
	r.data = malloc(len + 1);
	r.len = len;
	if (!r.to || !r.data || MEV_VEC_PUSH(&rv->v, r)) {
		free(r.to);
		free(r.data);
		return mev_error_oom();
	}
	memcpy(r.data, data, len);
	return 0;
}

static int rec_cmp(const void *x, const void *y)
{
	const raw_rec *a = x, *b = y;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	return strcmp(a->to, b->to);
}

static void recs_free(rec_vec *rv)
{
	for (size_t i = 0; i < rv->v.n; i++) {
		free(rv->v.v[i].to);
		free(rv->v.v[i].data);
	}
	MEV_VEC_FREE(&rv->v);
}

/* Whether the store has at most `most` releases with sections: then it
 * has nothing to track (none) or no pairs (one), and no records is an
 * empty result, not a store 'maintevo track' has to see first. */
static int few_releases(int *few, mev_store *s, size_t most)
{
	mev_release *rels = NULL;
	size_t n = 0, with = 0;
	int rc = mev_release_list(&rels, &n, s);
	for (size_t i = 0; !rc && i < n; i++)
		with += rels[i].sections > 0;
	*few = !rc && with <= most;
	mev_release_list_free(rels, n);
	return rc;
}

/* Each pair record's body is read by one of these (from, to: the pair). */
typedef int (*rec_fn)(list *out, const char *from, const char *to, const void *data, size_t len);

/* The records under a prefix, in release order: they must exist (unless
 * the store has no release with sections, or for section changes one) and
 * form a chain (the first events record starts it, each record links to
 * the previous one). */
static int load_chain(rec_vec *rv, mev_store *s, const mev_buf *prefix, int events, const char *what,
		      const char *key, const mev_release_ranks *ranks)
{
	int few = 0, rc;
	rv->plen = prefix->len;
	if ((rc = mev_store_scan(s, "events", prefix->ptr, prefix->len, rec_cb, rv)))
		return rc;
	if (!rv->v.n && (rc = few_releases(&few, s, events ? 0 : 1)))
		return rc;
	if (!rv->v.n && few)
		return 0;
	if (!rv->v.n) {
		mev_error_set(MEV_ENOTFOUND, "store '%s' has no %s%s%s", mev_store_dir(s), what,
			      key ? " for " : "", key ? key : "");
		mev_error_hint("run 'maintevo track --store %s'%s first", mev_store_dir(s),
			       key ? " with the same clustering options and thresholds" : "");
		return MEV_ENOTFOUND;
	}
	/* in the store's order; a release no longer stored last (out of date) */
	for (size_t i = 0; i < rv->v.n; i++) {
		int64_t k = mev_release_rank(ranks, rv->v.v[i].to);
		rv->v.v[i].rank = k >= 0 && k % 2 == 0 ? k : INT64_MAX;
	}
	qsort(rv->v.v, rv->v.n, sizeof *rv->v.v, rec_cmp);
	for (size_t i = 0; i < rv->v.n; i++) {
		mev__record_reader r;
		mev__rec_head h;
		mev__record_reader_init(&r, rv->v.v[i].data, rv->v.v[i].len);
		if (mev__rec_head_get(&h, &r, events ? MEV__EVENT_PARAMS : MEV__CHANGE_PARAMS))
			return mev_error_set(MEV_ECORRUPT, "the %s of '%s' are damaged", what, rv->v.v[i].to);
		if (i ? strcmp(h.from, rv->v.v[i - 1].to) != 0 : (events && h.from[0] != '\0')) {
			mev_error_set(MEV_ENOTFOUND, "the %s in store '%s' are out of date (releases were "
				      "added or walked again since)", what, mev_store_dir(s));
			mev_error_hint("run 'maintevo track --store %s'%s again (or, while one runs, wait "
				       "for it to finish)", mev_store_dir(s),
				       key ? " with the same clustering options and thresholds" : "");
			return MEV_ENOTFOUND;
		}
	}
	return 0;
}

static int in_range(const mev_release_ranks *r, const char *from, const char *to, const char *lo,
		    const char *hi)
{
	return (!lo || mev_release_rank(r, from) >= mev_release_rank(r, lo)) &&
	       (!hi || mev_release_rank(r, to) <= mev_release_rank(r, hi));
}

/* Records read beside the chain: those under `prefix`, into *recs. */
typedef struct {
	rec_vec *recs;
	const mev_buf *prefix;
} aux_scan;

/*
 * The one reader of the pair records: checks the chain under `prefix`
 * (events records: key names the parameter key; what: for messages), then
 * hands each pair from_release >= lo, to_release <= hi (NULL: no limit) to
 * fn, in release order.  The first release's events record is no pair.
 * The naux records of aux are read from the same snapshot.
 */
static int read_chain(list *out, mev_store *s, const mev_buf *prefix, int events, const char *what,
		      const char *key, const char *lo, const char *hi, rec_fn fn, const aux_scan *aux,
		      size_t naux)
{
	rec_vec rv = { { 0 }, 0 };
	mev_release_ranks *ranks = NULL;
	int rc;
	if (lo && hi) {
		/* a reversed range is refused, as every command refuses it */
		mev_release *rels = NULL;
		size_t n = 0, a, b;
		if (!(rc = mev_release_list(&rels, &n, s)))
			rc = mev_release_range(&a, &b, s, rels, n, lo, hi, 0);
		mev_release_list_free(rels, n);
		if (rc)
			return rc;
	}
	if ((rc = mev_store_read_begin(s)))
		return rc;
	/* the records, the releases, the support and the causes from one snapshot */
	if (!(rc = mev_release_ranks_load(&ranks, s)))
		rc = load_chain(&rv, s, prefix, events, what, key, ranks);
	for (size_t i = 0; i < naux && !rc; i++) {
		aux[i].recs->plen = aux[i].prefix->len;
		rc = mev_store_scan(s, "events", aux[i].prefix->ptr, aux[i].prefix->len, rec_cb, aux[i].recs);
	}
	mev_store_read_end(s);
	for (size_t i = 0; i < rv.v.n && !rc; i++) {
		mev__record_reader r;
		mev__rec_head h;
		mev__record_reader_init(&r, rv.v.v[i].data, rv.v.v[i].len);
		mev__rec_head_get(&h, &r, events ? MEV__EVENT_PARAMS : MEV__CHANGE_PARAMS);
		if (h.from[0] && in_range(ranks, h.from, rv.v.v[i].to, lo, hi))
			rc = fn(out, h.from, rv.v.v[i].to, rv.v.v[i].data, rv.v.v[i].len);
	}
	mev_release_ranks_free(ranks);
	recs_free(&rv);
	return rc;
}

/* --- events ------------------------------------------------------------------------ */

/* The support records read with the events, the runs they count, and the
 * cause records. */
typedef struct {
	const rec_vec *recs;
	int runs;
	const rec_vec *causes;
} events_aux;

/* The support of the nev events of the pair ending at `to` whose record is
 * data: hits over runs from the support record made for exactly this
 * record (malloc'ed); NULL when there is none (not computed, or computed
 * for other events: their support is NaN). */
static double *support_of(const list *out, const char *to, const void *data, size_t len, size_t nev)
{
	const events_aux *sm = out->aux;
	double *v = NULL;
	for (size_t i = 0; sm && sm->runs > 0 && i < sm->recs->v.n; i++) {
		const raw_rec *x = &sm->recs->v.v[i];
		mev__record_reader r;
		if (strcmp(x->to, to) != 0)
			continue;
		mev__record_reader_init(&r, x->data, x->len);
		if (mev__get_uv(&r) != 1 || mev__get_uv(&r) != mev__hash_bytes(data, len) ||
		    mev__get_uv(&r) != nev || !(v = malloc((nev + 1) * sizeof *v)))
			return NULL;
		for (size_t e = 0; e < nev; e++)
			v[e] = (double)mev__get_uv(&r) / sm->runs;
		if (r.bad) {
			free(v);
			return NULL;
		}
		return v;
	}
	return NULL;
}

/* The causes of the pair ending at `to` whose events record is data (*n
 * 0: none stored for exactly this record). */
static int causes_of(mev__read_cause **c, size_t *n, list *out, const char *to, const void *data,
		     size_t len)
{
	const events_aux *ea = out->aux;
	*c = NULL;
	*n = 0;
	for (size_t i = 0; ea && i < ea->causes->v.n; i++) {
		const raw_rec *x = &ea->causes->v.v[i];
		int rc;
		if (strcmp(x->to, to) != 0)
			continue;
		rc = mev__causes_decode(c, n, out->arena, x->data, x->len, mev__hash_bytes(data, len), to);
		return rc > 0 ? 0 : rc;
	}
	return 0;
}

static int add_events(list *out, const char *from, const char *to, const void *data, size_t len)
{
	mev__events_rec rec;
	mev__read_cause *causes = NULL;
	size_t ncauses = 0;
	int rc = mev__events_rec_decode(&rec, data, len, to);
	const char *f = list_str(out, from, strlen(from)), *t = list_str(out, to, strlen(to));
	double *sup = rc ? NULL : support_of(out, to, data, len, rec.events.n);
	if (!rc && (rc = causes_of(&causes, &ncauses, out, to, data, len)) == 0 && ncauses != rec.events.n)
		ncauses = 0;   /* made for other events: none */
	for (size_t i = 0; i < rec.events.n && !rc; i++) {
		const mev__rec_event *x = &rec.events.v[i];
		mev_event *e = list_push(out);
		if (!e)
			break;
		/* a bridge comes from the release before the gap */
		e->from_release = x->kind == MEV_EVENT_BRIDGE ? list_str(out, x->gap_from, x->gap_from_len) : f;
		e->to_release = t;
		e->kind = x->kind;
		e->lineage = x->lineage;
		e->from_cluster = list_str(out, x->from_rep, x->from_len);
		e->to_cluster = list_str(out, x->to_rep, x->to_len);
		e->similarity = x->sim;
		e->from_lines = x->from_lines;
		e->to_lines = x->to_lines;
		e->share = x->share;
		e->from_lineage = x->from_lineage;
		e->partner = list_str(out, x->partner, x->partner_len);
		e->partner_share = x->partner_share;
		e->partner_lineage = x->partner_lineage;
		e->support = sup ? sup[i] : NAN;
		e->cause_kind = i < ncauses ? causes[i].kind : "";
		e->cause = i < ncauses && causes[i].sentence ? causes[i].sentence : "";
		e->cause_detail = i < ncauses && e->cause_kind[0] ? causes[i].detail : NULL;
	}
	free(sup);
	free(causes);
	mev__events_rec_free(&rec);
	return rc;
}

/* A bridge as a death it undoes sees it: the release before the gap and
 * the lineage. */
typedef struct {
	const char *from;
	uint32_t lineage;
} gap_start;

static int add_bridges(list *out, const char *from, const char *to, const void *data, size_t len)
{
	mev__events_rec rec;
	int rc = mev__events_rec_decode(&rec, data, len, to);
	(void)from;
	for (size_t i = 0; i < rec.events.n && !rc; i++) {
		const mev__rec_event *x = &rec.events.v[i];
		gap_start *g;
		if (x->kind != MEV_EVENT_BRIDGE)
			continue;
		if (!(g = list_push(out)))
			break;
		g->from = list_str(out, x->gap_from, x->gap_from_len);
		g->lineage = x->lineage;
	}
	mev__events_rec_free(&rec);
	return rc;
}

/* The events read are those of the pairs from `from` on; a bridge among
 * them from a release before `from` goes too (its from_release is the
 * release before the gap, as every reader's range compares). */
static int drop_bridges_before(list *l, mev_store *s, const char *from)
{
	mev_event *v = l->v;
	mev_release_ranks *ranks = NULL;
	size_t n = 0;
	int rc = mev_release_ranks_load(&ranks, s);
	int64_t lo = rc ? 0 : mev_release_rank(ranks, from);
	for (size_t i = 0; i < l->n && !rc; i++)
		if (v[i].kind != MEV_EVENT_BRIDGE || mev_release_rank(ranks, v[i].from_release) >= lo)
			v[n++] = v[i];
	if (!rc)
		l->n = n;
	mev_release_ranks_free(ranks);
	return rc;
}

/*
 * A death whose lineage a later bridge continues is no death: the lineage
 * only vanished for a while, and the bridge (from the same release) says
 * so.  Such deaths of the events read (l, pairs from `from` on) are
 * dropped; the bridges are looked for up to the last release, also past
 * the range read.
 */
static int drop_bridged_deaths(list *l, mev_store *s, const mev__track_keys *k, const char *from)
{
	mev_event *v = l->v;
	list b;
	size_t n = 0;
	int rc, deaths = 0;
	if (from && (rc = drop_bridges_before(l, s, from)))
		return rc;
	for (size_t i = 0; i < l->n; i++)
		deaths |= v[i].kind == MEV_EVENT_DEATH;
	if (!deaths || (rc = list_init(&b, sizeof(gap_start))) != 0)
		return deaths ? rc : 0;
	rc = read_chain(&b, s, &k->events, 1, "events", k->result, from, NULL, add_bridges, NULL, 0);
	if (!rc && b.oom)
		rc = mev_error_oom();
	for (size_t i = 0; i < l->n && !rc; i++) {
		const gap_start *g = b.v;
		int bridged = 0;
		for (size_t j = 0; v[i].kind == MEV_EVENT_DEATH && j < b.n && !bridged; j++)
			bridged = g[j].lineage == v[i].lineage && strcmp(g[j].from, v[i].from_release) == 0;
		if (!bridged)
			v[n++] = v[i];
	}
	if (!rc)
		l->n = n;
	free_parts(&b.v, &b.n, (void **)&b.arena);
	return rc;
}

/* The public readers read on the keys of one parameter set, made for one
 * read: *out zeroed, then keys_end(&k, the read's result). */
static int keys_begin(mev__track_keys *k, void *out, size_t size, const mev_cluster_params *cp,
		      const mev_track_params *tp)
{
	memset(out, 0, size);
	return mev__track_keys_init(k, cp, tp);
}

static int keys_end(mev__track_keys *k, int rc)
{
	mev__track_keys_free(k);
	return rc;
}

int mev__read_events(mev_event_list *out, mev_store *s, const mev__track_keys *k, const char *from,
		     const char *to)
{
	rec_vec sup = { { 0 }, 0 }, cau = { { 0 }, 0 };
	aux_scan aux[2] = { { &sup, &k->support }, { &cau, &k->causes } };
	events_aux sm = { &sup, k->support_runs, &cau };
	list l;
	int rc;

	memset(out, 0, sizeof *out);
	if ((rc = list_init(&l, sizeof *out->v)))
		return rc;
	l.aux = &sm;
	rc = read_chain(&l, s, &k->events, 1, "events", k->result, from, to, add_events, aux, 2);
	if (!rc)
		rc = drop_bridged_deaths(&l, s, k, from);
	recs_free(&sup);
	recs_free(&cau);
	return list_finish(&l, rc, (void **)&out->v, &out->n, &out->mem_);
}

int mev_track_events(mev_event_list *out, mev_store *s, const mev_cluster_params *cp,
		     const mev_track_params *tp, const char *from, const char *to)
{
	mev__track_keys k;
	int rc = keys_begin(&k, out, sizeof *out, cp, tp);
	return keys_end(&k, rc ? rc : mev__read_events(out, s, &k, from, to));
}

/* --- section changes ------------------------------------------------------------- */

static int add_changes(list *out, const char *from, const char *to, const void *data, size_t len)
{
	mev__changes_rec rec;
	int rc = mev__changes_rec_decode(&rec, data, len, to);
	const char *f = list_str(out, from, strlen(from)), *t = list_str(out, to, strlen(to));
	for (size_t i = 0; i < rec.changes.n && !rc; i++) {
		const mev__rec_change *x = &rec.changes.v[i];
		mev_section_change *c = list_push(out);
		if (!c)
			break;
		c->from_release = f;
		c->to_release = t;
		c->kind = x->kind;
		c->section = list_str(out, x->section, x->section_len);
		c->new_section = list_str(out, x->new_section, x->new_len);
		c->lines = x->lines;
		c->coverage = x->coverage;
	}
	mev__changes_rec_free(&rec);
	return rc;
}

int mev__read_section_changes(mev_section_change_list *out, mev_store *s, const mev__track_keys *k,
			      const char *from, const char *to)
{
	list l;
	int rc;

	memset(out, 0, sizeof *out);
	if ((rc = list_init(&l, sizeof *out->v)))
		return rc;
	rc = read_chain(&l, s, &k->sections, 0, "section changes", NULL, from, to, add_changes, NULL,
			0);
	return list_finish(&l, rc, (void **)&out->v, &out->n, &out->mem_);
}

int mev_track_section_changes(mev_section_change_list *out, mev_store *s, const mev_track_params *tp,
			      const char *from, const char *to)
{
	mev__track_keys k;
	int rc = keys_begin(&k, out, sizeof *out, NULL, tp);
	return keys_end(&k, rc ? rc : mev__read_section_changes(out, s, &k, from, to));
}

/* --- lineages ---------------------------------------------------------------------- */

int mev__read_lineages(mev_lineage_list *out, mev_store *s, const mev__track_keys *k)
{
	void *data = NULL;
	size_t len = 0;
	list l;
	int rc;

	memset(out, 0, sizeof *out);
	if ((rc = list_init(&l, sizeof *out->v)))
		return rc;
	if (!(rc = mev_store_read_begin(s))) {
		int few = 0;
		rc = mev_store_get(&data, &len, s, "lineages", k->lineages.ptr, k->lineages.len);
		/* no release with sections: no lineages, tracked or not */
		if (rc == MEV_ENOTFOUND && !few_releases(&few, s, 0) && few)
			rc = 0;
		mev_store_read_end(s);
	}
	if (rc == MEV_ENOTFOUND) {
		mev_error_set(MEV_ENOTFOUND, "store '%s' has no lineages for %s", mev_store_dir(s),
			      k->result);
		mev_error_hint("run 'maintevo track --store %s' with the same clustering options and "
			       "thresholds first", mev_store_dir(s));
	}
	if (!rc && data) {
		mev_lineage *v = NULL;
		rc = mev__lineages_decode(&v, &l.n, l.arena, data, len, k->result);
		l.v = v;
	}
	free(data);
	return list_finish(&l, rc, (void **)&out->v, &out->n, &out->mem_);
}

int mev_track_lineages(mev_lineage_list *out, mev_store *s, const mev_cluster_params *cp,
		       const mev_track_params *tp)
{
	mev__track_keys k;
	int rc = keys_begin(&k, out, sizeof *out, cp, tp);
	return keys_end(&k, rc ? rc : mev__read_lineages(out, s, &k));
}

/* --- the clusters of a release ------------------------------------------------------ */

/* The names of the lineages of a result, by id (names[id - 1]; strings in
 * *arena, or those of `known` when given); an absent lineages record leaves
 * them all "". */
static int lineage_names(const char ***names, size_t *n, mev_arena *arena, mev_store *s,
			 const mev__track_keys *k, const mev_lineage_list *known)
{
	mev_lineage *v = NULL;
	void *data = NULL;
	size_t len = 0, nv = known ? known->n : 0;
	int rc = 0;
	*names = NULL;
	*n = 0;
	if (!known && (rc = mev_store_get(&data, &len, s, "lineages", k->lineages.ptr,
					  k->lineages.len)) == MEV_ENOTFOUND) {
		mev_error_clear();
		rc = 0;
	}
	if (!rc && data)
		rc = mev__lineages_decode(&v, &nv, arena, data, len, k->result);
	if (!rc && !(*names = calloc(nv + 1, sizeof **names)))
		rc = mev_error_oom();
	for (size_t i = 0; !rc && i < nv; i++)
		(*names)[i] = known ? known->v[i].name : v[i].name;
	if (!rc)
		*n = nv;
	free(v);
	free(data);
	return rc;
}

int mev__read_clusters(mev_tracked_cluster_list *out, mev_store *s, const mev__track_keys *k,
		       const mev_lineage_list *known, const char *release)
{
	mev_buf key = MEV_BUF_INIT;
	void *data = NULL;
	size_t len = 0, nnames = 0;
	mev__events_rec rec = { 0 };
	mev_arena *arena = calloc(1, sizeof *arena);
	const char **names = NULL;
	int rc;

	memset(out, 0, sizeof *out);
	if (!arena)
		return mev_error_oom();
	out->mem_ = arena;
	if (mev__buf_put(&key, k->events.ptr, k->events.len) || mev__buf_puts(&key, release))
		rc = mev_error_oom();
	else
		rc = mev_store_get(&data, &len, s, "events", key.ptr, key.len);
	if (rc == MEV_ENOTFOUND) {
		mev_error_set(MEV_ENOTFOUND, "release '%s' of store '%s' is not tracked for %s",
			      release, mev_store_dir(s), k->result);
		mev_error_hint("run 'maintevo track --store %s' with the same clustering options first",
			       mev_store_dir(s));
	}
	if (rc || (rc = mev__events_rec_decode(&rec, data, len, release)) ||
	    (rc = lineage_names(&names, &nnames, arena, s, k, known)))
		goto done;
	if (!(out->v = calloc(rec.clusters.n + 1, sizeof *out->v))) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t c = 0; c < rec.clusters.n; c++) {
		uint32_t id = rec.clusters.v[c].lineage;
		out->v[c].lineage = id;
		out->v[c].parent = rec.clusters.v[c].parent;
		out->v[c].code_lines = rec.clusters.v[c].lines;
		out->v[c].name = id >= 1 && id <= nnames ? names[id - 1] : "";
	}
	out->n = rec.clusters.n;
	out->fingerprint = rec.head.fp_to;
done:
	free(names);
	mev__events_rec_free(&rec);
	free(data);
	mev__buf_free(&key);
	if (rc)
		mev_tracked_cluster_list_free(out);
	return rc;
}

int mev_track_clusters(mev_tracked_cluster_list *out, mev_store *s, const mev_cluster_params *cp,
		       const mev_track_params *tp, const char *release)
{
	mev__track_keys k;
	int rc = keys_begin(&k, out, sizeof *out, cp, tp);
	return keys_end(&k, rc ? rc : mev__read_clusters(out, s, &k, NULL, release));
}

/* --- the results a store holds --------------------------------------------------------- */

typedef struct {
	mev_lineage_list *out;
	list *l;
} keys_ctx;

static int key_cb(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	keys_ctx *kc = c;
	mev_lineage *x = list_push(kc->l);
	mev_lineage *v = NULL;
	size_t n = 0;
	mev_arena tmp = MEV_ARENA_INIT;
	char name[300];
	if (!x)
		return mev_error_oom();
	snprintf(name, sizeof name, "%.*s", (int)(klen < 299 ? klen : 299), (const char *)key);
	x->name = list_str(kc->l, key, klen);
	/* the count of lineages; a damaged record counts 0 (store check names it) */
	if (mev__lineages_decode(&v, &n, &tmp, data, len, name) == 0)
		x->releases = (uint32_t)n;
	else
		mev_error_clear();
	free(v);
	mev__arena_free(&tmp);
	return 0;
}

int mev_track_results(mev_lineage_list *out, mev_store *s)
{
	list l;
	keys_ctx kc = { out, &l };
	int rc;
	memset(out, 0, sizeof *out);
	if ((rc = list_init(&l, sizeof *out->v)))
		return rc;
	rc = mev_store_scan(s, "lineages", "", 0, key_cb, &kc);
	return list_finish(&l, rc, (void **)&out->v, &out->n, &out->mem_);
}
