/*
 * The next releases, ahead of the current one (walk_internal.h): a thread
 * of its own takes the walk's releases in turn, each diffed from the one
 * before (the tree it made last), the blobs it adds or changes looked up
 * (in what this walk read, in the store) or read, and its MAINTAINERS
 * prepared.  Up to AHEAD_DEPTH releases are kept ready while the current
 * one is matched and the one before it stored.  One release ahead was not
 * enough: the thread shared the cores with the release being matched and
 * the one being stored, and the main thread waited for it.  (A second
 * thread for the MAINTAINERS was slower still: one more on two cores.)
 * The main thread joins the reading when it comes to take a release not
 * ready yet, so the two cores share it.
 */
#include "walk_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

/* The measured sizes kept per generation: the older goes when the newer
 * is full.  What goes is almost surely in the store by then, where the
 * view finds it; keeping it is only a saving, never needed. */
enum { GEN_MAX = MEV__WALK_SIZES_KEPT / 2 };

static void gen_clear(mev__walk_gen *g)
{
	mev__strmap_free(&g->idx);
	MEV_VEC_FREE(&g->v);
	g->idx = (mev_strmap)MEV_STRMAP_INIT;
}

void mev__walk_sizes_clear(mev__walk_sizes *z)
{
	mev__strmap_free(&z->idx);
	MEV_VEC_FREE(&z->v);
	memset(z, 0, sizeof *z);
	z->idx = (mev_strmap)MEV_STRMAP_INIT;
}

int mev__walk_sizes_get(const mev__walk_sizes *z, const mev_oid *oid, uint64_t *lines,
			uint64_t *bytes)
{
	int64_t i = z->v.n ? mev__strmap_get(&z->idx, (const char *)oid->id, 20) : -1;
	if (i < 0 || (uint64_t)i >= z->v.n)
		return 0;
	*lines = z->v.v[i].lines;
	*bytes = z->v.v[i].bytes;
	return 1;
}

/* Sizes this walk measured: 1 and them, or 0. */
static int run_get(const mev__walk_ahead *a, const mev_oid *oid, uint64_t *lines, uint64_t *bytes)
{
	for (int k = 0; k < 2; k++) {
		const mev__walk_gen *g = &a->gen[k];
		int64_t i = g->v.n ? mev__strmap_get(&g->idx, (const char *)oid->id, 20) : -1;
		if (i >= 0) {
			*lines = g->v.v[i].lines;
			*bytes = g->v.v[i].bytes;
			return 1;
		}
	}
	return 0;
}

static int run_put(mev__walk_ahead *a, const mev__blob_size *b)
{
	mev__walk_gen *g = &a->gen[0];
	if (g->v.n >= GEN_MAX) {
		gen_clear(&a->gen[1]);
		a->gen[1] = *g;
		memset(g, 0, sizeof *g);
		g->idx = (mev_strmap)MEV_STRMAP_INIT;
	}
	if (MEV_VEC_PUSH(&g->v, *b) ||
	    mev__strmap_put(&g->idx, (const char *)b->oid.id, 20, (uint32_t)(g->v.n - 1)))
		return mev_error_oom();
	return 0;
}

/* z (the sizes of the added or changed blobs of s's tree) from what is
 * known, and the oids of the others into *todo, each once. */
static int look_up(mev__walk_ahead *a, const mev__walk_next *s, mev__walk_sizes *z,
		   mev__oid_vec *todo)
{
	const mev_tree_file *files = mev_tree_files(s->tree);
	size_t n = mev_tree_count(s->tree);
	int rc = 0;
	if (a->view)
		mev_store_view_begin(a->view);
	for (size_t i = 0; i < n && !rc; i++) {
		mev__blob_size b = { files[i].oid, 0, 0 };
		uint32_t got;
		int added;
		if (!s->changed[i])
			continue;
		if ((rc = mev__strmap_intern(&z->idx, (const char *)b.oid.id, 20, UINT32_MAX, &got,
					     &added)) || !added)
			continue;
		if (run_get(a, &b.oid, &b.lines, &b.bytes) ||
		    (a->view && mev_release_blob_peek(&b.lines, &b.bytes, a->view, &b.oid) > 0)) {
			if (MEV_VEC_PUSH(&z->v, b) ||
			    mev__strmap_put(&z->idx, (const char *)b.oid.id, 20, (uint32_t)(z->v.n - 1)))
				rc = mev_error_oom();
			z->known++;
		} else if (MEV_VEC_PUSH(todo, b.oid)) {
			rc = mev_error_oom();
		}
	}
	mev_store_view_end(a->view);
	return rc;
}

/* Read the blobs of todo, with the main thread when it comes to help. */
static int measure(mev__walk_ahead *a, mev__walk_sizes *z, const mev__oid_vec *todo)
{
	uint64_t *lines = malloc((todo->n ? todo->n : 1) * 2 * sizeof *lines), *bytes;
	mev_measure *m = NULL;
	int rc;
	if (!lines)
		return mev_error_oom();
	bytes = lines + (todo->n ? todo->n : 1);
	if ((rc = mev_measure_new(&m, a->main_repo, todo->v, todo->n, lines, bytes, a->stop))) {
		free(lines);
		return rc;
	}
	pthread_mutex_lock(&a->mu);
	a->measuring = m;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	mev_measure_work(m);
	pthread_mutex_lock(&a->mu);
	a->measuring = NULL;
	while (a->helpers)
		pthread_cond_wait(&a->cv, &a->mu);
	pthread_mutex_unlock(&a->mu);
	rc = mev_measure_end(m);
	for (size_t k = 0; k < todo->n && !rc; k++) {
		mev__blob_size b = { todo->v[k], lines[k], bytes[k] };
		if (lines[k] == UINT64_MAX)
			continue; /* missing: left to the file map, which says so */
		if (MEV_VEC_PUSH(&z->v, b) ||
		    mev__strmap_put(&z->idx, (const char *)b.oid.id, 20, (uint32_t)(z->v.n - 1)) ||
		    run_put(a, &b))
			rc = mev_error_oom();
		z->bytes_read += bytes[k];
	}
	free(lines);
	return rc;
}

void mev__walk_prep_clear(mev__walk_prep *p)
{
	mev_matcher_free(p->matcher);
	mev_maint_free(p->maint);
	mev_maint_sources_free(p->src, p->nsrc);
	memset(p, 0, sizeof *p);
}

int mev__walk_sources_equal(const mev_maint_source *a, size_t na, const mev_maint_source *b,
			    size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i].path, b[i].path) || !mev_oid_equal(&a[i].oid, &b[i].oid))
			return 0;
	return 1;
}

int mev__walk_matcher(mev_matcher **out, mev_maint *m, mev_pattern_pool **pool)
{
	if (mev_pattern_pool_count(*pool) > 2 * mev_maint_field_count(m) + 4096) {
		mev_pattern_pool *fresh;
		if (mev_pattern_pool_new(&fresh))
			return mev_error_oom();
		mev_pattern_pool_free(*pool);
		*pool = fresh;
	}
	return mev_matcher_new_pooled(out, m, 0, *pool);
}

int mev__walk_carry(mev_maint **maint, mev_matcher **matcher, const mev_maint *prev,
		    mev_pattern_pool **pool)
{
	mev_maint *keep = NULL;
	int rc = prev && mev_maint_unreadable(*maint) ? mev_maint_carry(&keep, prev, *maint) : 0;
	if (rc || !keep)
		return rc;
	mev_matcher_free(*matcher);
	mev_maint_free(*maint);
	*maint = keep;
	*matcher = NULL;
	return pool ? mev__walk_matcher(matcher, keep, pool) : mev_matcher_new(matcher, keep, 0);
}

static int sources_copy(mev_maint_source **out, const mev_maint_source *src, size_t n)
{
	mev_maint_source *c = calloc(n + 1, sizeof *c);
	*out = c;
	for (size_t i = 0; c && i < n; i++) {
		c[i].oid = src[i].oid;
		if (!(c[i].path = strdup(src[i].path))) {
			mev_maint_sources_free(c, i);
			*out = NULL;
			return mev_error_oom();
		}
	}
	return c ? 0 : mev_error_oom();
}

/* The release before the next to prepare: its rules and sources (a copy),
 * or none known. */
static void since_set(mev__walk_ahead *a, const mev_rules *rules, const mev_maint_source *src,
		      size_t nsrc)
{
	mev_maint_sources_free(a->since_src, a->since_nsrc);
	a->since_src = NULL;
	a->since_nsrc = 0;
	a->since_ok = 0;
	if (!rules)
		return;
	if (sources_copy(&a->since_src, src, nsrc)) {
		mev_error_clear(); /* only a saving */
		return;
	}
	a->since_ok = 1;
	a->since_rules = *rules;
	a->since_nsrc = nsrc;
}

/* The MAINTAINERS of s's tree: its rules and sources, and its sections and
 * matcher unless the sources are the release before's.  What fails is left
 * to the main thread, which does the same and says why. */
static void prepare(mev__walk_ahead *a, mev__walk_next *s)
{
	mev__walk_prep *p = &s->prep;
	if (mev_rules_detect(&p->rules, a->repo, s->tree, &a->ro) ||
	    mev_maint_sources(&p->src, &p->nsrc, &p->rules, s->tree))
		goto fail;
	if (a->since_ok && !memcmp(&a->since_rules, &p->rules, sizeof p->rules) &&
	    mev__walk_sources_equal(a->since_src, a->since_nsrc, p->src, p->nsrc)) {
		p->ok = 1; /* as the release before: nothing parsed, nothing to copy */
		return;
	}
	if (mev_maint_load(&p->maint, &p->rules, a->repo, s->tree) ||
	    mev__walk_matcher(&p->matcher, p->maint, a->pool))
		goto fail;
	p->ok = 1;
	since_set(a, &p->rules, p->src, p->nsrc);
	return;
fail:
	mev__walk_prep_clear(p);
	mev_error_clear();
	since_set(a, NULL, NULL, 0);
}

/* Release s (its commit and old tree set) diffed and its blobs' sizes
 * found: its error, if any, is the main thread's to meet again. */
static int diff_next(mev__walk_ahead *a, mev__walk_next *s)
{
	mev__oid_vec todo = { 0 };
	mev_tree_delta *d = a->deltas ? mev__walk_deltas_take(a->deltas, &s->commit) : NULL;
	int rc = mev_tree_update_with(&s->tree, &s->changed, NULL, a->repo, s->old, &s->commit, d);
	mev_tree_delta_free(d);
	if (!rc && a->main_repo && !(rc = look_up(a, s, &s->sizes, &todo)))
		rc = measure(a, &s->sizes, &todo);
	MEV_VEC_FREE(&todo);
	mev_error_clear();
	return rc;
}

static void next_clear(mev__walk_next *s)
{
	mev_tree_free(s->tree);
	free(s->changed);
	mev__walk_sizes_clear(&s->sizes);
	mev__walk_prep_clear(&s->prep);
	memset(s, 0, sizeof *s);
	s->sizes.idx = (mev_strmap)MEV_STRMAP_INIT;
}

/* The sizes the main thread measured itself, for run_get. */
static void take_inbox(mev__walk_ahead *a)
{
	mev__blob_vec in;
	pthread_mutex_lock(&a->mu);
	in = a->inbox;
	memset(&a->inbox, 0, sizeof a->inbox);
	pthread_mutex_unlock(&a->mu);
	for (size_t k = 0; k < in.n; k++)
		if (run_put(a, &in.v[k])) {
			mev_error_clear(); /* only a saving */
			break;
		}
	MEV_VEC_FREE(&in);
}

/* The thread: each release diffed from the one before, then its
 * MAINTAINERS prepared. */
static void *run_ahead(void *arg)
{
	mev__walk_ahead *a = arg;
	const mev_tree *old = a->base;
	for (size_t i = 0; i < a->n; i++) {
		mev__walk_next *s = &a->slot[i % AHEAD_DEPTH];
		int rc;
		pthread_mutex_lock(&a->mu);
		while (!a->quit && a->made - a->taken >= AHEAD_DEPTH)
			pthread_cond_wait(&a->cv, &a->mu);
		pthread_mutex_unlock(&a->mu);
		if (a->quit || (a->stop && *a->stop))
			break;
		take_inbox(a);
		next_clear(s);
		s->commit = a->list[i]->commit;
		s->old = old;
		rc = diff_next(a, s);
		s->failed = rc != 0;
		if (!rc)
			prepare(a, s);
		/* the main thread's once taken: freed only after the next is */
		old = s->tree;
		pthread_mutex_lock(&a->mu);
		a->made++;
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
		if (rc)
			break; /* the main thread diffs it, and starts again after it */
	}
	pthread_mutex_lock(&a->mu);
	a->ended = 1;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

void mev__walk_ahead_init(mev__walk_ahead *a, mev_repo *main_repo, mev_store_view *view,
			  volatile int *stop)
{
	memset(a, 0, sizeof *a);
	a->main_repo = main_repo;
	a->view = view;
	a->stop = stop;
	for (int k = 0; k < AHEAD_DEPTH; k++)
		a->slot[k].sizes.idx = (mev_strmap)MEV_STRMAP_INIT;
	a->gen[0].idx = a->gen[1].idx = (mev_strmap)MEV_STRMAP_INIT;
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	a->inited = 1;
}

void mev__walk_ahead_start(mev__walk_ahead *a, const char *path, const mev_tree *base,
			   const mev_rules *rules, const mev_maint_source *src, size_t nsrc,
			   const mev_tag *const *list, size_t n, mev__blob_vec *measured)
{
	mev__walk_ahead_drop(a);
	mev__walk_ahead_note(a, measured);
	/* a handle of its own: libgit2's repository is not shared between threads */
	if (!n)
		return;
	if (!a->repo && mev_repo_open(&a->repo, path)) {
		mev_error_clear();
		return;
	}
	since_set(a, rules, src, nsrc);
	a->base = base;
	a->list = list;
	a->n = n;
	a->made = a->taken = 0;
	a->quit = a->ended = 0;
	if (pthread_create(&a->th, NULL, run_ahead, a) == 0)
		a->running = 1;
}

void mev__walk_ahead_note(mev__walk_ahead *a, mev__blob_vec *measured)
{
	pthread_mutex_lock(&a->mu);
	if (!a->inbox.n) { /* handed over whole (the sizes read before the walk) */
		mev__blob_vec t = a->inbox;
		a->inbox = *measured;
		*measured = t;
	} else if (MEV_VEC_RESERVE(&a->inbox, a->inbox.n + measured->n) == 0) {
		memcpy(a->inbox.v + a->inbox.n, measured->v, measured->n * sizeof *measured->v);
		a->inbox.n += measured->n;
	} /* else: only a saving */
	measured->n = 0;
	pthread_mutex_unlock(&a->mu);
}

/* Wait (under a->mu) until the next release is made or the thread has
 * ended, reading the blobs with it meanwhile if it reads them now. */
static void wait_next(mev__walk_ahead *a)
{
	while (a->made == a->taken && !a->ended) {
		mev_measure *m = a->help ? a->measuring : NULL;
		if (!m) {
			pthread_cond_wait(&a->cv, &a->mu);
			continue;
		}
		a->helpers++;
		pthread_mutex_unlock(&a->mu);
		mev_measure_work(m);
		pthread_mutex_lock(&a->mu);
		a->helpers--;
		pthread_cond_broadcast(&a->cv);
	}
}

int mev__walk_ahead_take(mev__walk_ahead *a, mev_tree **tree, uint8_t **changed,
			 mev__walk_sizes *sizes, mev__walk_prep *prep, const mev_tree *old,
			 const mev_oid *commit)
{
	mev__walk_next *s;
	if (!a->running)
		return 0;
	pthread_mutex_lock(&a->mu);
	wait_next(a);
	s = a->made > a->taken ? &a->slot[a->taken % AHEAD_DEPTH] : NULL;
	if (!s || s->failed || s->old != old || !mev_oid_equal(&s->commit, commit)) {
		pthread_mutex_unlock(&a->mu);
		mev__walk_ahead_drop(a);
		return 0; /* diffed by the caller, which reports what fails */
	}
	*tree = s->tree;
	*changed = s->changed;
	mev__walk_sizes_clear(sizes);
	*sizes = s->sizes;
	*prep = s->prep;
	s->tree = NULL;
	s->changed = NULL;
	memset(&s->prep, 0, sizeof s->prep);
	memset(&s->sizes, 0, sizeof s->sizes);
	s->sizes.idx = (mev_strmap)MEV_STRMAP_INIT;
	a->taken++;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	return 1;
}

void mev__walk_ahead_drop(mev__walk_ahead *a)
{
	if (a->running) {
		pthread_mutex_lock(&a->mu);
		a->quit = 1;
		pthread_cond_broadcast(&a->cv);
		pthread_mutex_unlock(&a->mu);
		pthread_join(a->th, NULL);
		a->running = 0;
	}
	for (int k = 0; k < AHEAD_DEPTH; k++)
		next_clear(&a->slot[k]);
	a->made = a->taken = 0;
	since_set(a, NULL, NULL, 0);
}

void mev__walk_ahead_free(mev__walk_ahead *a)
{
	if (!a->inited)
		return;
	mev__walk_ahead_drop(a);
	mev_repo_free(a->repo);
	a->repo = NULL;
	gen_clear(&a->gen[0]);
	gen_clear(&a->gen[1]);
	MEV_VEC_FREE(&a->inbox);
	mev_store_view_free(a->view);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	a->inited = 0;
}
