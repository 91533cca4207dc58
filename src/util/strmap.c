/* Open-addressing hash map from byte strings to uint32 values. */
#include "util/strmap.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

/* 64-bit FNV-1a folded with a final mix; fast enough for paths and titles. */
uint64_t mev__hash_bytes(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;
	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

uint64_t mev__strmap_hash(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)len * 0xc2b2ae3d27d4eb4fULL), w;
	for (; len >= 8; p += 8, len -= 8) {
		memcpy(&w, p, 8);
		h = (h ^ w) * 0x9fb21c651e98df25ULL;
		h ^= h >> 29;
	}
	if (len) {
		w = 0;
		memcpy(&w, p, len);
		h = (h ^ w) * 0x9fb21c651e98df25ULL;
		h ^= h >> 29;
	}
	return mix(h);
}

static mev_strmap_slot *find(const mev_strmap *m, const char *key, size_t len, uint64_t h)
{
	size_t mask = m->cap - 1, i = h & mask;
	for (;;) {
		mev_strmap_slot *s = &m->slots[i];
		if (!s->key)
			return s;
		/* len 0: key may be NULL (an empty id set), memcmp must not see it */
		if (s->hash == h && s->len == len && (len == 0 || memcmp(s->key, key, len) == 0))
			return s;
		i = (i + 1) & mask;
	}
}

/* Grow the table to `cap` slots (a power of two, more than it has). */
static int rehash_to(mev_strmap *m, size_t cap)
{
	size_t i;
	mev_strmap_slot *old = m->slots;
	size_t oldcap = m->cap;
	m->slots = calloc(cap, sizeof *m->slots);
	if (!m->slots) {
		m->slots = old;
		return mev_error_oom();
	}
	m->cap = cap;
	for (i = 0; i < oldcap; i++)
		if (old[i].key)
			*find(m, old[i].key, old[i].len, old[i].hash) = old[i];
	free(old);
	return 0;
}

static int rehash(mev_strmap *m)
{
	return rehash_to(m, m->cap ? m->cap * 2 : 64);
}

int mev__strmap_reserve(mev_strmap *m, size_t n)
{
	size_t cap = m->cap ? m->cap : 64;
	while (n * 4 > cap * 3)
		cap *= 2;
	return cap > m->cap ? rehash_to(m, cap) : 0;
}

int64_t mev__strmap_get_h(const mev_strmap *m, const char *key, size_t len, uint64_t h)
{
	const mev_strmap_slot *s;
	if (!m->cap)
		return -1;
	s = find(m, key, len, h);
	return s->key ? (int64_t)s->value : -1;
}

int64_t mev__strmap_get(const mev_strmap *m, const char *key, size_t len)
{
	return mev__strmap_get_h(m, key, len, mev__strmap_hash(key, len));
}

int mev__strmap_intern(mev_strmap *m, const char *key, size_t len, uint32_t value,
		      uint32_t *out, int *added)
{
	uint64_t h = mev__strmap_hash(key, len);
	mev_strmap_slot *s;
	if ((m->count + 1) * 4 > m->cap * 3 && rehash(m))
		return MEV_ENOMEM;
	s = find(m, key, len, h);
	if (s->key) {
		if (out)
			*out = s->value;
		if (added)
			*added = 0;
		return 0;
	}
	s->key = mev__arena_strndup(&m->keys, key, len);
	if (!s->key)
		return MEV_ENOMEM;
	s->hash = h;
	s->len = (uint32_t)len;
	s->value = value;
	m->count++;
	if (out)
		*out = value;
	if (added)
		*added = 1;
	return 0;
}

int mev__strmap_put_ref(mev_strmap *m, const char *key, size_t len, uint32_t value)
{
	uint64_t h = mev__strmap_hash(key, len);
	mev_strmap_slot *s;
	if ((m->count + 1) * 4 > m->cap * 3 && rehash(m))
		return MEV_ENOMEM;
	s = find(m, key, len, h);
	if (!s->key) {
		s->key = key;
		s->hash = h;
		s->len = (uint32_t)len;
		m->count++;
	}
	s->value = value;
	return 0;
}

int mev__strmap_put(mev_strmap *m, const char *key, size_t len, uint32_t value)
{
	int added;
	uint32_t old;
	int rc = mev__strmap_intern(m, key, len, value, &old, &added);
	if (rc)
		return rc;
	if (!added) {
		mev_strmap_slot *s = find(m, key, len, mev__strmap_hash(key, len));
		s->value = value;
	}
	return 0;
}

void mev__strmap_free(mev_strmap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->cap = m->count = 0;
	mev__arena_free(&m->keys);
}
