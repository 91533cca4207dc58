/* A hash map from byte strings to 32-bit values (internal). */
#ifndef MEV_UTIL_STRMAP_H
#define MEV_UTIL_STRMAP_H

#include <stddef.h>
#include <stdint.h>
#include "util/buf.h"

typedef struct {
	uint64_t hash;
	const char *key; /* copied into the map's arena, NUL-terminated (but see
			  * mev__strmap_put_ref) */
	uint32_t len;
	uint32_t value;
} mev_strmap_slot;

typedef struct {
	mev_strmap_slot *slots;
	size_t cap, count;
	mev_arena keys;
} mev_strmap;

#define MEV_STRMAP_INIT { NULL, 0, 0, MEV_ARENA_INIT }

uint64_t mev__hash_bytes(const void *data, size_t len);
/* The hash the map files its keys by: 8 bytes at a time, so a few times
 * faster than mev__hash_bytes on paths (whose values are stored by some
 * records, so it stays as it is). */
uint64_t mev__strmap_hash(const void *data, size_t len);

/* Value for `key`, or -1 when absent. */
int64_t mev__strmap_get(const mev_strmap *m, const char *key, size_t len);
/* Same, with a precomputed mev__strmap_hash(key, len). */
int64_t mev__strmap_get_h(const mev_strmap *m, const char *key, size_t len, uint64_t h);
/* Room for n keys in all without growing.  Errors: MEV_ENOMEM. */
int mev__strmap_reserve(mev_strmap *m, size_t n);
/* Insert or overwrite.  The key is copied. */
int mev__strmap_put(mev_strmap *m, const char *key, size_t len, uint32_t value);
/* The same without copying the key: key[0..len) must outlive the map (a
 * tree's index of the paths it holds); such a key is not NUL-terminated. */
int mev__strmap_put_ref(mev_strmap *m, const char *key, size_t len, uint32_t value);
/* Insert when absent; *out gets the value stored (old or new), *added 1/0. */
int mev__strmap_intern(mev_strmap *m, const char *key, size_t len, uint32_t value,
		      uint32_t *out, int *added);
void mev__strmap_free(mev_strmap *m);

#endif
