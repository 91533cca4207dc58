/*
 * The cache of delta bases the pack readers share (src/git/packread.c):
 * every base a reader rebuilds is kept, as git's readers keep them
 * (core.deltaBaseCacheLimit), the least recently used going first, and a
 * base is taken out of the cache when it is used.
 */
#include "packs_internal.h"

#include <stdlib.h>

/* The cache's lock spins before it sleeps: readers hold it for a few
 * hundred nanoseconds, and with a plain mutex the threads reading before a
 * walk spent a sixth of their CPU putting each other to sleep (futex). */
static void lock_init(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
	pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
}

int mev__pack_cache_init(mev__packs *ps)
{
	if (!(ps->bucket = calloc(CACHE_BUCKETS, sizeof *ps->bucket)))
		return -1;
	lock_init(&ps->lock);
	ps->limit = CACHE_LIMIT;
	return 0;
}

void mev__pack_cache_free(mev__packs *ps)
{
	for (mev__pack_base *e = ps->head, *n; e; e = n) {
		n = e->older;
		free(e->data);
		free(e);
	}
	if (ps->bucket)
		pthread_mutex_destroy(&ps->lock);
	free(ps->bucket);
}

static size_t slot(uint32_t pi, uint64_t off)
{
	uint64_t h = (off ^ (uint64_t)pi << 56) * 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 48) & (CACHE_BUCKETS - 1);
}

/* Unlink e from its bucket and the LRU list (lock held). */
static void unlink_entry(mev__packs *ps, mev__pack_base *e)
{
	mev__pack_base **pp = &ps->bucket[slot(e->pack, e->off)];
	while (*pp != e)
		pp = &(*pp)->next;
	*pp = e->next;
	if (e->newer)
		e->newer->older = e->older;
	else
		ps->head = e->older;
	if (e->older)
		e->older->newer = e->newer;
	else
		ps->tail = e->newer;
	ps->used -= e->len;
}

/* The base at (pi, off), taken out of the cache (the caller owns it), or NULL. */
mev__pack_base *mev__pack_cache_take(mev__packs *ps, uint32_t pi, uint64_t off)
{
	mev__pack_base *e;
	pthread_mutex_lock(&ps->lock);
	for (e = ps->bucket[slot(pi, off)]; e; e = e->next)
		if (e->pack == pi && e->off == off)
			break;
	if (e)
		unlink_entry(ps, e);
	pthread_mutex_unlock(&ps->lock);
	return e;
}

/* Under the lock: the least recently used bases unlinked until `room`
 * more bytes fit, as a list for free_entries() once the lock is let go. */
static mev__pack_base *evict(mev__packs *ps, size_t room)
{
	mev__pack_base *gone = NULL;
	while (ps->tail && ps->used + room > ps->limit) {
		mev__pack_base *old = ps->tail;
		unlink_entry(ps, old);
		old->next = gone;
		gone = old;
	}
	return gone;
}

static void free_entries(mev__pack_base *gone)
{
	while (gone) {
		mev__pack_base *next = gone->next;
		free(gone->data);
		free(gone);
		gone = next;
	}
}

/* Keep `data` (taken) as the base at (pi, off); the least recently used
 * go when the cache is full. */
void mev__pack_cache_put(mev__packs *ps, uint32_t pi, uint64_t off, unsigned char *data, size_t len,
			 int type)
{
	mev__pack_base *e, **b, *gone = NULL;
	if (len > CACHE_LIMIT / 8 || !(e = malloc(sizeof *e))) { /* a large one: not kept */
		free(data);
		return;
	}
	e->pack = pi;
	e->off = off;
	e->data = data;
	e->len = len;
	e->type = type;
	pthread_mutex_lock(&ps->lock);
	b = &ps->bucket[slot(pi, off)];
	for (mev__pack_base *x = *b; x; x = x->next)
		if (x->pack == pi && x->off == off) { /* another thread was first */
			pthread_mutex_unlock(&ps->lock);
			free(data);
			free(e);
			return;
		}
	gone = evict(ps, len); /* freed once the lock is let go */
	e->next = *b;
	*b = e;
	e->newer = NULL;
	e->older = ps->head;
	if (ps->head)
		ps->head->newer = e;
	else
		ps->tail = e;
	ps->head = e;
	ps->used += len;
	pthread_mutex_unlock(&ps->lock);
	free_entries(gone);
}

void mev__packs_cache_limit(mev__packs *ps, size_t bytes)
{
	mev__pack_base *gone;
	if (!ps)
		return;
	pthread_mutex_lock(&ps->lock);
	ps->limit = bytes ? bytes : CACHE_LIMIT;
	gone = evict(ps, 0);
	pthread_mutex_unlock(&ps->lock);
	free_entries(gone);
}

