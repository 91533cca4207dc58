/*
 * What src/git/packread.c (the packs, their indexes, reading entries)
 * and src/git/packcache.c (the cache of delta bases the readers share)
 * both see.
 */
#ifndef MEV_REPO_PACKS_INTERNAL_H
#define MEV_REPO_PACKS_INTERNAL_H

#include "repo_internal.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* git's core.deltaBaseCacheLimit is 96 MB; the Linux walk's peak memory
 * (600 MB at most, docs/performance.md) leaves room for 64 (a walk's
 * reading before the releases, with nothing else held, takes more:
 * mev__packs_cache_limit). */
#define CACHE_LIMIT (64u << 20)
enum { CACHE_BUCKETS = 1 << 16 };
enum { OBJ_TREE = 2, OBJ_BLOB = 3, OBJ_OFS_DELTA = 6, OBJ_REF_DELTA = 7 };

typedef struct mev__pack {
	int fd;
	uint64_t size;                 /* of the .pack file */
	void *map;                     /* the .idx, mapped */
	size_t map_len;
	uint32_t n;                    /* objects */
	const unsigned char *fanout, *oids, *off32, *off64;
	size_t n64;
	uint64_t *starts;              /* where each entry starts, sorted: an
	                                * entry ends where the next one starts */
	/* In a pack of many objects, where a search begins (a binary search
	 * of the whole index or of starts was a cache miss a step, 20 of
	 * them in a pack of a million): by_name[k], the first object whose
	 * name begins with the 16 bits k; by_place[k], the first of starts
	 * at or after k << place_shift.  65,537 each, or NULL. */
	uint32_t *by_name, *by_place;
	unsigned place_shift;
} mev__pack;

/* A rebuilt object kept as the base of other deltas. */
typedef struct mev__pack_base {
	uint32_t pack;
	uint64_t off;
	unsigned char *data;
	size_t len;
	int type;
	struct mev__pack_base *newer, *older; /* least recently used at the tail */
	struct mev__pack_base *next;          /* in its bucket */
} mev__pack_base;

struct mev__packs {
	mev__pack *v;
	size_t n;
	pthread_mutex_t lock;          /* the cache's */
	mev__pack_base **bucket;
	mev__pack_base *head, *tail;
	size_t used, limit;
};

/* The cache (src/git/packcache.c).  _init: 0, or -1 out of memory;
 * _take: the base at (pi, off), taken out (the caller owns it and its
 * data), or NULL; _put: `data` (taken) kept as the base at (pi, off), the
 * least recently used going when the cache is full. */
int mev__pack_cache_init(mev__packs *ps);
void mev__pack_cache_free(mev__packs *ps);
mev__pack_base *mev__pack_cache_take(mev__packs *ps, uint32_t pi, uint64_t off);
void mev__pack_cache_put(mev__packs *ps, uint32_t pi, uint64_t off, unsigned char *data, size_t len,
			 int type);

#endif
