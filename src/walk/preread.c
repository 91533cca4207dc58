/*
 * Before the releases are walked, every blob they add or change that the
 * store does not know is read, in the order of the packs (walk_internal.h):
 * read one release at a time, a file's versions come releases apart and
 * the delta bases one rebuilt are gone from the cache when the next needs
 * them; read from the end of each pack to its start, the versions of a
 * file follow each other (docs/performance.md, "Reading in the packs'
 * order").
 */
#include "walk_internal.h"
#include "maintevo/error.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Blobs per batch: read with both cores, then stored in one transaction. */
enum { BATCH = 1 << 15 };
/* The cache of delta bases meanwhile (64 MB in the walk). */
#define PREREAD_CACHE ((size_t)256 << 20)

typedef struct {
	mev_strmap seen;      /* every blob met */
	mev__oid_vec todo;    /* those the store lacks */
	mev_store_view *view;
} wanted;

static int stopping(const mev__walker *w)
{
	return w->opts.user->progress.stop && *w->opts.user->progress.stop;
}

static int want(void *ctx, const mev_oid *blob)
{
	wanted *c = ctx;
	uint64_t lines, bytes;
	uint32_t got;
	int added;
	if (mev__strmap_intern(&c->seen, (const char *)blob->id, 20, 0, &got, &added))
		return mev_error_oom();
	/* known, or damaged: the walk measures that one again and says so */
	if (!added || mev_release_blob_peek(&lines, &bytes, c->view, blob) != 0)
		return 0;
	return MEV_VEC_PUSH(&c->todo, *blob) ? mev_error_oom() : 0;
}

/* Sizes read, stored in one transaction by a thread of their own while
 * the next batch is read (a commit of 32,768 sizes took 17-34 ms, the
 * other core idle). */
typedef struct {
	mev_store *store;
	mev__blob_size *v;
	size_t n;
} batch;

static int put_batch(mev_store *s, void *ctx)
{
	batch *b = ctx;
	return mev__walk_put_sizes(s, b->v, b->n);
}

static int store_batch(void *ctx)
{
	batch *b = ctx;
	return mev_store_write(b->store, put_batch, b);
}

/* Read todo[0..n), which lie at places[0..n), into b (the blobs found). */
static int read_batch(mev__walker *w, const mev_oid *todo, const uint64_t *places, size_t n,
		      uint64_t *lines, uint64_t *bytes, batch *b)
{
	const mev_walk_options *o = w->opts.user;
	int rc = mev_repo_measure_at(lines, bytes, w->run.repo, todo, places, n, o->jobs, o->abort_now);
	b->n = 0;
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (lines[i] == UINT64_MAX)
			continue; /* missing: the release that has it says so */
		b->v[b->n++] = (mev__blob_size){ todo[i], lines[i], bytes[i] };
		w->run.res->blobs_read++;
		w->run.res->blobs_read_before++;
		w->run.res->bytes_read += bytes[i];
	}
	/* the threads ahead look them up in memory, not in the store (an
	 * LMDB lookup per blob was a seventh of their diffing), as many as
	 * they keep (a longer history's others are looked up in the store);
	 * a batch whose blobs are all missing (a partial clone) adds none,
	 * and the vector may still have no memory to copy to */
	if (b->n && w->cache.measured.n + b->n <= MEV__WALK_SIZES_KEPT &&
	    MEV_VEC_RESERVE(&w->cache.measured, w->cache.measured.n + b->n) == 0) {
		memcpy(w->cache.measured.v + w->cache.measured.n, b->v, b->n * sizeof *b->v);
		w->cache.measured.n += b->n;
	}
	return 0;
}

/* Read todo[0..n) (at places[0..n)) in batches, each stored while the
 * next is read. */
static int read_all(mev__walker *w, const mev_oid *todo, const uint64_t *places, size_t n)
{
	size_t m = n < BATCH ? n : BATCH;
	uint64_t *lines = malloc(2 * m * sizeof *lines);
	mev__blob_size *sizes = malloc(2 * m * sizeof *sizes);
	batch b[2] = { { w->run.store, sizes, 0 }, { w->run.store, sizes + m, 0 } };
	mev__walk_async job = { 0 };
	int rc = lines && sizes ? 0 : mev_error_oom(), k = 0;
	/* a stop asked for (Ctrl-C once) ends the reading after the batch at
	 * hand, which is kept; the walk then stops too */
	for (size_t at = 0; at < n && !rc && !stopping(w); at += m, k ^= 1) {
		rc = read_batch(w, todo + at, places + at, n - at < m ? n - at : m, lines, lines + m, &b[k]);
		if (!rc)
			rc = mev__walk_async_wait(&job); /* the batch before, stored */
		if (!rc && b[k].n)
			mev__walk_async_start(&job, store_batch, &b[k]);
	}
	if (rc)
		mev__walk_async_join(&job); /* its buffer goes; the message is rc's */
	else
		rc = mev__walk_async_wait(&job);
	free(lines);
	free(sizes);
	return rc;
}

/* --- the diffs kept for the walk ------------------------------------------ */

mev_tree_delta *mev__walk_deltas_take(mev__walk_deltas *d, const mev_oid *commit)
{
	int64_t i = d->v.n ? mev__strmap_get(&d->idx, (const char *)commit->id, 20) : -1;
	mev_tree_delta *x;
	if (i < 0)
		return NULL;
	x = d->v.v[i];
	d->v.v[i] = NULL; /* a release walked twice (inserted) is diffed again */
	return x;
}

void mev__walk_deltas_clear(mev__walk_deltas *d)
{
	for (size_t i = 0; i < d->v.n; i++)
		mev_tree_delta_free(d->v.v[i]);
	MEV_VEC_FREE(&d->v);
	mev__strmap_free(&d->idx);
	memset(d, 0, sizeof *d);
	d->idx = (mev_strmap)MEV_STRMAP_INIT;
}

/* Keep diff x within `limit` bytes (else it goes). */
static void deltas_keep(mev__walk_deltas *d, mev_tree_delta *x, size_t limit)
{
	size_t sz = mev_tree_delta_size(x);
	const mev_oid *commit;
	if (!x)
		return;
	commit = mev_tree_delta_commit(x);
	if (d->bytes + sz > limit || MEV_VEC_PUSH(&d->v, x) ||
	    mev__strmap_put(&d->idx, (const char *)commit->id, 20, (uint32_t)(d->v.n - 1))) {
		if (d->v.n && d->v.v[d->v.n - 1] == x)
			d->v.n--;
		mev_tree_delta_free(x);
		return;
	}
	d->bytes += sz;
}

/* --- what to read ------------------------------------------------------------ */

/* Releases work[from..to) diffed, each against the one before (the
 * first against `base`, NULL: none), through `repo`; the diffs recorded
 * into `deltas`, up to `limit` bytes. */
typedef struct {
	mev__walker *w;
	mev_repo *repo;
	const mev_tag *const *work;
	size_t from, to;
	const mev_oid *base;
	wanted c;
	mev__walk_deltas deltas;
	size_t limit;
	int rc;
} part;

static int collect_part(part *p)
{
	int rc = mev_store_view_new(&p->c.view, p->w->run.store, "blobs");
	if (!rc)
		mev_store_view_begin(p->c.view);
	for (size_t k = p->from; k < p->to && !rc && !stopping(p->w); k++) {
		const mev_oid *from = k > p->from ? &p->work[k - 1]->commit : p->base;
		if (p->w->opts.user->abort_now && *p->w->opts.user->abort_now)
			rc = mev_error_set(MEV_EINTR, "interrupted");
		else {
			mev_tree_delta *x = NULL;
			rc = mev_repo_diff_record(p->deltas.bytes < p->limit ? &x : NULL, p->repo, from,
						  &p->work[k]->commit, want, &p->c);
			deltas_keep(&p->deltas, x, p->limit);
		}
	}
	mev_store_view_end(p->c.view);
	mev_store_view_free(p->c.view);
	p->c.view = NULL;
	return rc;
}

static void *collect_thread(void *arg)
{
	part *p = arg;
	if ((p->rc = collect_part(p)))
		mev_error_clear(); /* the main thread diffs them again and says why */
	return NULL;
}

static void part_free(part *p)
{
	mev__strmap_free(&p->c.seen);
	MEV_VEC_FREE(&p->c.todo);
	mev__walk_deltas_clear(&p->deltas);
}

/*
 * The blobs to read, each once: the releases diffed in two halves, the
 * second on a thread with a repository handle of its own, its blobs then
 * added to the first's unless met there.  (The trees are read with the
 * pack reader; read by libgit2 on both threads, ThreadSanitizer saw
 * libgit2 1.5, which shares a repository's packs between handles, free
 * memory under one thread that the other was copying.)
 */
static int collect(mev__oid_vec *todo, mev__walker *w, const mev_tag *const *work, size_t nwork)
{
	size_t before = mev__stored_pos(&w->run.stored, work[0]->name), mid = nwork;
	const mev_oid *base = before ? &w->run.stored.v[before - 1].commit : NULL;
	part a = { w, w->run.repo, work, 0, nwork, base, { MEV_STRMAP_INIT, { 0 }, NULL },
		   { { 0 }, MEV_STRMAP_INIT, 0 }, MEV__WALK_DELTAS_KEPT, 0 }, b = a;
	pthread_t th;
	int two = 0, rc;
	if (nwork >= 4 && w->opts.user->jobs != 1 && mev_repo_open(&b.repo, w->opts.user->repo) == 0) {
		mid = nwork / 2;
		a.to = b.from = mid;
		a.limit = b.limit = MEV__WALK_DELTAS_KEPT / 2;
		b.base = &work[mid - 1]->commit;
		two = pthread_create(&th, NULL, collect_thread, &b) == 0;
	}
	mev_error_clear();
	if (!two && mid < nwork) {
		mev_repo_free(b.repo);
		a.to = nwork;
	}
	rc = collect_part(&a);
	if (two) {
		pthread_join(th, NULL);
		mev_repo_free(b.repo);
		if (!rc && b.rc) { /* again, here, for the message */
			part_free(&b);
			b.c.seen = (mev_strmap)MEV_STRMAP_INIT;
			b.limit = 0;
			b.repo = w->run.repo;
			rc = collect_part(&b);
		}
		for (size_t i = 0; i < b.c.todo.n && !rc; i++)
			if (mev__strmap_get(&a.c.seen, (const char *)b.c.todo.v[i].id, 20) < 0 &&
			    MEV_VEC_PUSH(&a.c.todo, b.c.todo.v[i]))
				rc = mev_error_oom();
		for (size_t i = 0; i < b.deltas.v.n; i++) {
			deltas_keep(&a.deltas, b.deltas.v.v[i], MEV__WALK_DELTAS_KEPT);
			b.deltas.v.v[i] = NULL;
		}
		part_free(&b);
	}
	mev__strmap_free(&a.c.seen);
	*todo = a.c.todo;
	w->cache.deltas = a.deltas;
	return rc;
}

int mev__walk_preread(mev__walker *w, const mev_tag *const *work, size_t nwork)
{
	mev__oid_vec todo = { 0 };
	uint64_t *places = NULL;
	int rc;
	if (w->opts.user->rebuild || !nwork)
		return 0; /* a rebuild trusts no size stored: it measures them itself */
	rc = collect(&todo, w, work, nwork);
	if (!rc && todo.n >= 100000)
		mev__walk_note(&w->opts, "reading the %zu blobs the %zu releases add or change, in the "
			       "packs' order, before walking them", todo.n, nwork);
	if (!rc && todo.n && !(places = malloc(todo.n * sizeof *places)))
		rc = mev_error_oom();
	if (!rc && todo.n && !(rc = mev_repo_read_order_at(w->run.repo, todo.v, places, todo.n))) {
		/* nothing else is held yet: the bases may take what the
		 * releases' trees and tables take later */
		mev_repo_read_cache(w->run.repo, PREREAD_CACHE);
		rc = read_all(w, todo.v, places, todo.n);
	}
	free(places);
	mev_repo_read_cache(w->run.repo, 0);
	MEV_VEC_FREE(&todo);
	w->run.preread = !rc;
	if (rc == MEV_EGIT) {
		/* only a saving: the walk meets the same object and says so */
		mev_error_clear();
		rc = 0;
	}
	return rc;
}
