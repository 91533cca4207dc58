/*
 * The next release, ahead of the current one (walk_internal.h): its tree
 * diffed from the current one's, then the blobs it adds or changes looked
 * up (in the store, in what this walk measured) or read, on a thread of
 * its own while the current release is matched and the one before it
 * stored.  The main thread joins the reading when it comes to take the
 * release early, so the two cores share it.
 */
#include "walk_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

/* The measured sizes kept per generation: the older goes when the newer
 * is full.  What goes is almost surely in the store by then, where the
 * view finds it; keeping it is only a saving, never needed. */
enum { GEN_MAX = 1 << 19 };

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

/* z (the sizes of a->tree's added or changed blobs) from what is known,
 * and the oids of the others into *todo, each once. */
static int look_up(mev__walk_ahead *a, mev__walk_sizes *z, mev__oid_vec *todo)
{
	const mev_tree_file *files = mev_tree_files(a->tree);
	size_t n = mev_tree_count(a->tree);
	int rc = 0;
	if (a->view)
		mev_store_view_begin(a->view);
	for (size_t i = 0; i < n && !rc; i++) {
		mev__blob_size b = { files[i].oid, 0, 0 };
		uint32_t got;
		int added;
		if (!a->changed[i])
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

static int ahead_body(mev__walk_ahead *a)
{
	mev__oid_vec todo = { 0 };
	int rc = mev_tree_update(&a->tree, &a->changed, NULL, a->repo, a->old, &a->commit);
	if (!rc && a->main_repo && !(rc = look_up(a, &a->sizes, &todo)))
		rc = measure(a, &a->sizes, &todo);
	MEV_VEC_FREE(&todo);
	return rc;
}

static int run_ahead(void *ctx)
{
	mev__walk_ahead *a = ctx;
	int rc = ahead_body(a);
	pthread_mutex_lock(&a->mu);
	a->done = 1;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	return rc;
}

void mev__walk_ahead_init(mev__walk_ahead *a, mev_repo *main_repo, mev_store_view *view,
			  volatile int *stop)
{
	memset(a, 0, sizeof *a);
	a->main_repo = main_repo;
	a->view = view;
	a->stop = stop;
	a->sizes.idx = (mev_strmap)MEV_STRMAP_INIT;
	a->gen[0].idx = a->gen[1].idx = (mev_strmap)MEV_STRMAP_INIT;
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	a->inited = 1;
}

void mev__walk_ahead_start(mev__walk_ahead *a, const char *path, const mev_tree *old,
			   const mev_oid *commit, const mev__blob_vec *measured)
{
	mev__walk_ahead_drop(a);
	for (size_t k = 0; k < measured->n; k++)
		if (run_put(a, &measured->v[k])) {
			mev_error_clear(); /* only a saving */
			break;
		}
	/* a handle of its own: libgit2's repository is not shared between threads */
	if (!a->repo && mev_repo_open(&a->repo, path)) {
		mev_error_clear();
		a->repo = NULL;
		return;
	}
	a->old = old;
	a->commit = *commit;
	a->started = 1;
	a->done = 0;
	mev__walk_async_start(&a->job, run_ahead, a);
}

/* Read the blobs with the ahead thread, if it reads them now or is
 * about to. */
static void help(mev__walk_ahead *a)
{
	mev_measure *m;
	pthread_mutex_lock(&a->mu);
	while (!a->done && !a->measuring)
		pthread_cond_wait(&a->cv, &a->mu);
	m = a->measuring;
	if (m)
		a->helpers++;
	pthread_mutex_unlock(&a->mu);
	if (!m)
		return;
	mev_measure_work(m);
	pthread_mutex_lock(&a->mu);
	a->helpers--;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
}

int mev__walk_ahead_take(mev__walk_ahead *a, mev_tree **tree, uint8_t **changed,
			 mev__walk_sizes *sizes, const mev_tree *old, const mev_oid *commit)
{
	int ok = a->started && a->old == old && mev_oid_equal(&a->commit, commit);
	if (!ok) {
		mev__walk_ahead_drop(a);
		return 0;
	}
	if (a->help)
		help(a);
	a->started = 0;
	if (mev__walk_async_join(&a->job)) {
		mev__walk_sizes_clear(&a->sizes);
		return 0; /* diffed again by the caller, which reports what fails */
	}
	*tree = a->tree;
	*changed = a->changed;
	mev__walk_sizes_clear(sizes);
	*sizes = a->sizes;
	a->tree = NULL;
	a->changed = NULL;
	memset(&a->sizes, 0, sizeof a->sizes);
	a->sizes.idx = (mev_strmap)MEV_STRMAP_INIT;
	return 1;
}

void mev__walk_ahead_drop(mev__walk_ahead *a)
{
	if (a->started)
		mev__walk_async_join(&a->job);
	a->started = 0;
	mev_tree_free(a->tree);
	free(a->changed);
	a->tree = NULL;
	a->changed = NULL;
	mev__walk_sizes_clear(&a->sizes);
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
	mev_store_view_free(a->view);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv);
	a->inited = 0;
}
