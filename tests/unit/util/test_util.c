/* Unit tests of src/util: buffers, vectors, the arena, the string map, text. */
#include "test.h"
#include "maintevo/suggest.h"
#include "maintevo/error.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "util/text.h"

#include <stdint.h>

/* A small deterministic generator (xorshift64*), one state per test. */
static uint64_t rng_state;
static void rng_seed(uint64_t s) { rng_state = s ? s : 0x9e3779b97f4a7c15ULL; }
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}
static size_t rng_below(size_t n) { return n ? (size_t)(rng() % n) : 0; }

static void test_buf_basic(void)
{
	mev_buf b = MEV_BUF_INIT;
	char *s;

	CHECK_INT(mev__buf_puts(&b, "hello"), 0);
	CHECK_INT(b.len, 5);
	CHECK_STR(b.ptr, "hello");
	CHECK(b.cap > b.len);
	CHECK_INT(mev__buf_putc(&b, ','), 0);
	CHECK_INT(mev__buf_put(&b, " world", 6), 0);
	CHECK_STR(b.ptr, "hello, world");
	CHECK_INT(b.len, 12);
	/* put of 0 bytes keeps the terminator */
	CHECK_INT(mev__buf_put(&b, NULL, 0), 0);
	CHECK_INT(b.len, 12);
	CHECK_INT(b.ptr[12], '\0');
	/* embedded NUL bytes are kept, the buffer stays terminated */
	CHECK_INT(mev__buf_put(&b, "a\0b", 3), 0);
	CHECK_INT(b.len, 15);
	CHECK(memcmp(b.ptr + 12, "a\0b", 4) == 0);

	mev__buf_clear(&b);
	CHECK_INT(b.len, 0);
	CHECK_STR(b.ptr, "");
	CHECK(b.cap > 0); /* clear keeps the storage */

	CHECK_INT(mev__buf_printf(&b, "%d-%s-%c", 42, "x", 'y'), 0);
	CHECK_STR(b.ptr, "42-x-y");
	/* printf appends, and grows past the first block */
	CHECK_INT(mev__buf_printf(&b, "%0300d", 7), 0);
	CHECK_INT(b.len, 306);
	CHECK_INT(b.ptr[305], '7');
	CHECK_INT(b.ptr[6], '0');
	CHECK_INT(b.ptr[306], '\0');

	s = mev__buf_detach(&b);
	CHECK(s != NULL);
	CHECK_INT(strlen(s), 306);
	CHECK(b.ptr == NULL);
	CHECK_INT(b.len, 0);
	CHECK_INT(b.cap, 0);
	free(s);

	/* detaching an empty buffer gives "" that the caller frees */
	s = mev__buf_detach(&b);
	CHECK_STR(s, "");
	free(s);

	mev__buf_free(&b);
	mev__buf_free(&b); /* twice is harmless */
	CHECK(b.ptr == NULL);
}

static void test_buf_growth(void)
{
	mev_buf b = MEV_BUF_INIT;
	/* many appends of every size: content must be exactly the concatenation */
	rng_seed(11);
	{
		size_t total = 0;
		unsigned char chunk[1000];
		uint64_t sum = 0, sum2 = 0;
		for (int i = 0; i < 2000; i++) {
			size_t n = rng_below(sizeof chunk);
			for (size_t k = 0; k < n; k++) {
				chunk[k] = (unsigned char)rng();
				sum = sum * 31 + chunk[k];
			}
			CHECK_INT(mev__buf_put(&b, chunk, n), 0);
			total += n;
		}
		CHECK_INT(b.len, total);
		CHECK(b.cap >= total + 1);
		for (size_t k = 0; k < b.len; k++)
			sum2 = sum2 * 31 + (unsigned char)b.ptr[k];
		CHECK(sum == sum2);
		CHECK_INT(b.ptr[b.len], '\0');
	}
	mev__buf_free(&b);

	/* mev__buf_grow reserves: no reallocation for the reserved bytes */
	CHECK_INT(mev__buf_grow(&b, 5000), 0);
	{
		char *before = b.ptr;
		CHECK(b.cap >= 5001);
		for (int i = 0; i < 5000; i++)
			CHECK_INT(mev__buf_putc(&b, 'x'), 0);
		CHECK(b.ptr == before);
		CHECK_INT(b.len, 5000);
	}
	mev__buf_free(&b);
}

static void test_vec(void)
{
	MEV_VEC(uint32_t) v = { 0 };
	struct pair { int a; double d; };
	MEV_VEC(struct pair) w = { 0 };
	int bad = 0;

	for (uint32_t i = 0; i < 100000; i++)
		if (MEV_VEC_PUSH(&v, i * 3u) != 0)
			bad++;
	CHECK_INT(bad, 0);
	CHECK_INT(v.n, 100000);
	CHECK(v.cap >= v.n);
	for (uint32_t i = 0; i < v.n; i++)
		if (v.v[i] != i * 3u)
			bad++;
	CHECK_INT(bad, 0);
	MEV_VEC_FREE(&v);
	CHECK(v.v == NULL);
	CHECK_INT(v.n, 0);
	CHECK_INT(v.cap, 0);

	/* reserve then push: no reallocation within the reservation */
	CHECK_INT(MEV_VEC_RESERVE(&v, 1000), 0);
	CHECK(v.cap >= 1000);
	{
		uint32_t *before = v.v;
		for (uint32_t i = 0; i < 1000; i++)
			CHECK_INT(MEV_VEC_PUSH(&v, i), 0);
		CHECK(v.v == before);
	}
	/* reserving less than the capacity is a no-op */
	{
		size_t cap = v.cap;
		CHECK_INT(MEV_VEC_RESERVE(&v, 3), 0);
		CHECK_INT(v.cap, cap);
	}
	MEV_VEC_FREE(&v);

	/* structs */
	for (int i = 0; i < 77; i++) {
		struct pair e = { i, i / 2.0 };
		CHECK_INT(MEV_VEC_PUSH(&w, e), 0);
	}
	CHECK_INT(w.n, 77);
	CHECK_INT(w.v[76].a, 76);
	CHECK(w.v[76].d == 38.0);
	MEV_VEC_FREE(&w);
}

static void test_arena(void)
{
	mev_arena a = MEV_ARENA_INIT;
	enum { N = 20000 };
	char **ptrs = calloc(N, sizeof *ptrs);
	size_t *lens = calloc(N, sizeof *lens);
	int bad = 0;

	CHECK(ptrs && lens);
	if (!ptrs || !lens)
		return;
	rng_seed(5);
	for (int i = 0; i < N; i++) {
		size_t len = rng_below(i % 100 == 0 ? 3000 : 40);
		char tmp[3000];
		for (size_t k = 0; k < len; k++)
			tmp[k] = (char)('a' + (i + k) % 26);
		ptrs[i] = mev__arena_strndup(&a, tmp, len);
		lens[i] = len;
		if (!ptrs[i])
			bad++;
	}
	CHECK_INT(bad, 0);
	/* nothing was overwritten by later allocations */
	for (int i = 0; i < N; i++) {
		if (strlen(ptrs[i]) != lens[i])
			bad++;
		for (size_t k = 0; k < lens[i]; k++)
			if (ptrs[i][k] != (char)('a' + (i + k) % 26))
				bad++;
	}
	CHECK_INT(bad, 0);

	/* alignment is honoured after odd-sized allocations */
	for (int i = 0; i < 1000; i++) {
		size_t align = (size_t)1 << rng_below(5); /* 1..16 */
		void *p;
		mev__arena_alloc(&a, rng_below(13) + 1, 1);
		p = mev__arena_alloc(&a, 24, align);
		if (!p || ((uintptr_t)p & (align - 1)))
			bad++;
		else
			memset(p, 0xab, 24);
	}
	CHECK_INT(bad, 0);

	/* an allocation bigger than a block gets its own block */
	{
		char *big = mev__arena_alloc(&a, 200000, 8);
		char *after = mev__arena_strndup(&a, "after", 5);
		CHECK(big != NULL);
		if (big) {
			memset(big, 'z', 200000);
			CHECK_INT(big[199999], 'z');
		}
		CHECK_STR(after, "after");
	}
	/* strndup of zero bytes gives "" and stops at len, not at NUL */
	CHECK_STR(mev__arena_strndup(&a, "xyz", 0), "");
	{
		char *p = mev__arena_strndup(&a, "a\0c", 3);
		CHECK(p && p[0] == 'a' && p[1] == '\0' && p[2] == 'c' && p[3] == '\0');
	}
	mev__arena_free(&a);
	CHECK(a.head == NULL);
	mev__arena_free(&a); /* twice is harmless */
	/* usable again after free */
	CHECK_STR(mev__arena_strndup(&a, "again", 5), "again");
	mev__arena_free(&a);
	free(ptrs);
	free(lens);
}

/* Room reserved: the keys go in without the table growing, and are found. */
static void test_strmap_reserve(void)
{
	mev_strmap r = MEV_STRMAP_INIT;
	size_t cap;
	int wrong = 0;
	CHECK_INT(mev__strmap_reserve(&r, 1000), 0);
	cap = r.cap;
	CHECK(cap >= 1334 && cap <= 4096);
	CHECK_INT(mev__strmap_reserve(&r, 10), 0); /* never shrinks */
	CHECK_INT(r.cap, cap);
	for (int i = 0; i < 1000; i++) {
		char k[32];
		int kn = snprintf(k, sizeof k, "k%d", i);
		wrong += mev__strmap_put(&r, k, (size_t)kn, (uint32_t)i) != 0;
	}
	CHECK_INT(r.cap, cap);
	for (int i = 0; i < 1000; i++) {
		char k[32];
		int kn = snprintf(k, sizeof k, "k%d", i);
		wrong += mev__strmap_get(&r, k, (size_t)kn) != i;
	}
	CHECK_INT(wrong, 0);
	mev__strmap_free(&r);
}

static void test_strmap(void)
{
	mev_strmap m = MEV_STRMAP_INIT;
	enum { N = 50000 };
	char key[64];
	int bad = 0;
	size_t caps_seen = 0, last_cap = 0;

	CHECK_INT(mev__strmap_get(&m, "x", 1), -1); /* empty map */
	for (uint32_t i = 0; i < N; i++) {
		int n = snprintf(key, sizeof key, "drivers/net/eth%u.c", i);
		if (mev__strmap_put(&m, key, (size_t)n, i * 7))
			bad++;
		if (m.cap != last_cap) {
			caps_seen++;
			last_cap = m.cap;
		}
	}
	CHECK_INT(bad, 0);
	CHECK_INT(m.count, N);
	CHECK(caps_seen >= 10); /* 64 -> 128 -> ... : many rehashes happened */
	CHECK(m.count * 4 <= m.cap * 3);
	for (uint32_t i = 0; i < N; i++) {
		int n = snprintf(key, sizeof key, "drivers/net/eth%u.c", i);
		if (mev__strmap_get(&m, key, (size_t)n) != (int64_t)i * 7)
			bad++;
		if (mev__strmap_get_h(&m, key, (size_t)n, mev__strmap_hash(key, (size_t)n)) != (int64_t)i * 7)
			bad++;
	}
	CHECK_INT(bad, 0);
	/* absent keys, including prefixes and extensions of present ones */
	CHECK_INT(mev__strmap_get(&m, "drivers/net/eth1.", 17), -1);
	CHECK_INT(mev__strmap_get(&m, "drivers/net/eth1.cx", 19), -1);
	CHECK_INT(mev__strmap_get(&m, "drivers/net/eth50000.c", 22), -1);
	CHECK_INT(mev__strmap_get(&m, "", 0), -1);

	/* put overwrites without adding */
	CHECK_INT(mev__strmap_put(&m, "drivers/net/eth5.c", 18, 123456), 0);
	CHECK_INT(mev__strmap_get(&m, "drivers/net/eth5.c", 18), 123456);
	CHECK_INT(m.count, N);

	/* intern: keeps the old value and says whether it added */
	{
		uint32_t out = 0;
		int added = -1;
		CHECK_INT(mev__strmap_intern(&m, "drivers/net/eth6.c", 18, 999, &out, &added), 0);
		CHECK_INT(out, 42);
		CHECK_INT(added, 0);
		CHECK_INT(mev__strmap_get(&m, "drivers/net/eth6.c", 18), 42);
		CHECK_INT(mev__strmap_intern(&m, "new key", 7, 999, &out, &added), 0);
		CHECK_INT(out, 999);
		CHECK_INT(added, 1);
		CHECK_INT(m.count, N + 1);
		/* NULL out/added are allowed */
		CHECK_INT(mev__strmap_intern(&m, "new key", 7, 5, NULL, NULL), 0);
		CHECK_INT(mev__strmap_get(&m, "new key", 7), 999);
	}

	/* the empty key and keys with NUL bytes are ordinary keys */
	CHECK_INT(mev__strmap_put(&m, "", 0, 1), 0);
	CHECK_INT(mev__strmap_put(&m, "a\0b", 3, 2), 0);
	CHECK_INT(mev__strmap_put(&m, "a\0c", 3, 3), 0);
	CHECK_INT(mev__strmap_put(&m, "a", 1, 4), 0);
	CHECK_INT(mev__strmap_get(&m, "", 0), 1);
	CHECK_INT(mev__strmap_get(&m, "a\0b", 3), 2);
	CHECK_INT(mev__strmap_get(&m, "a\0c", 3), 3);
	CHECK_INT(mev__strmap_get(&m, "a", 1), 4);
	CHECK_INT(mev__strmap_get(&m, "a\0", 2), -1);

	/* a NULL key of length 0 is the empty key (a matcher's empty result
	 * set is handed over as NULL, 0) */
	{
		uint32_t out = 0;
		int added = -1;
		CHECK_INT(mev__strmap_get(&m, NULL, 0), 1);
		CHECK_INT(mev__strmap_intern(&m, NULL, 0, 9, &out, &added), 0);
		CHECK_INT(out, 1);
		CHECK_INT(added, 0);
		CHECK_INT(mev__strmap_put(&m, NULL, 0, 5), 0);
		CHECK_INT(mev__strmap_get(&m, "", 0), 5);
	}

	/* keys are copied: the caller's buffer may change */
	{
		char tmp[8] = "mutable";
		CHECK_INT(mev__strmap_put(&m, tmp, 7, 77), 0);
		memcpy(tmp, "XXXXXXX", 7);
		CHECK_INT(mev__strmap_get(&m, "mutable", 7), 77);
		CHECK_INT(mev__strmap_get(&m, tmp, 7), -1);
	}
	/* stored keys are NUL-terminated copies with the right length */
	{
		size_t seen = 0;
		for (size_t i = 0; i < m.cap; i++) {
			const mev_strmap_slot *s = &m.slots[i];
			if (!s->key)
				continue;
			seen++;
			if (s->key[s->len] != '\0' || s->hash != mev__strmap_hash(s->key, s->len))
				bad++;
		}
		CHECK_INT(seen, m.count);
		CHECK_INT(bad, 0);
	}
	mev__strmap_free(&m);
	CHECK_INT(m.count, 0);
	CHECK_INT(mev__strmap_get(&m, "a", 1), -1);
	mev__strmap_free(&m);

	/* the hash depends on every byte and on the length */
	CHECK(mev__hash_bytes("ab", 2) != mev__hash_bytes("ba", 2));
	CHECK(mev__hash_bytes("a", 1) != mev__hash_bytes("a\0", 2));
	CHECK(mev__hash_bytes("", 0) == mev__hash_bytes("xyz", 0));
}

/* Independent reference: decode per RFC 3629. */
static int utf8_ref(const unsigned char *s, size_t len)
{
	size_t i = 0;
	while (i < len) {
		unsigned c = s[i], need;
		uint32_t cp, min;
		if (c < 0x80) {
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0) {
			need = 1;
			cp = c & 0x1f;
			min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			need = 2;
			cp = c & 0x0f;
			min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			need = 3;
			cp = c & 0x07;
			min = 0x10000;
		} else {
			return 0;
		}
		if (len - i <= need)
			return 0;
		for (unsigned k = 1; k <= need; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += need + 1;
	}
	return 1;
}

static void test_utf8_valid(void)
{
	static const struct { const char *s; size_t len; int ok; } cases[] = {
		{ "", 0, 1 },
		{ "plain ascii/path.c", 18, 1 },
		{ "a\0b", 3, 1 },                    /* NUL is ASCII */
		{ "\xc3\xa9", 2, 1 },                /* é */
		{ "caf\xc3\xa9/x", 7, 1 },
		{ "\xe2\x82\xac", 3, 1 },            /* € */
		{ "\xf0\x9f\x98\x80", 4, 1 },        /* U+1F600 */
		{ "\xf4\x8f\xbf\xbf", 4, 1 },        /* U+10FFFF, the last */
		{ "\xed\x9f\xbf", 3, 1 },            /* U+D7FF, before the surrogates */
		{ "\xee\x80\x80", 3, 1 },            /* U+E000, after them */
		{ "\xc2\x80", 2, 1 },                /* U+0080, smallest 2-byte */
		{ "\xe0\xa0\x80", 3, 1 },            /* U+0800, smallest 3-byte */
		{ "\xf0\x90\x80\x80", 4, 1 },        /* U+10000, smallest 4-byte */
		/* overlong forms */
		{ "\xc0\x80", 2, 0 },
		{ "\xc0\xaf", 2, 0 },
		{ "\xc1\xbf", 2, 0 },
		{ "\xe0\x80\x80", 3, 0 },
		{ "\xe0\x9f\xbf", 3, 0 },
		{ "\xf0\x80\x80\x80", 4, 0 },
		{ "\xf0\x8f\xbf\xbf", 4, 0 },
		/* surrogates */
		{ "\xed\xa0\x80", 3, 0 },
		{ "\xed\xbf\xbf", 3, 0 },
		{ "\xed\xb0\x80", 3, 0 },
		/* beyond U+10FFFF and bytes that never occur */
		{ "\xf4\x90\x80\x80", 4, 0 },
		{ "\xf5\x80\x80\x80", 4, 0 },
		{ "\xf8\x88\x80\x80\x80", 5, 0 },
		{ "\xfe", 1, 0 },
		{ "\xff", 1, 0 },
		/* truncated sequences, at the end and in the middle */
		{ "\xc3", 1, 0 },
		{ "abc\xc3", 4, 0 },
		{ "\xe2\x82", 2, 0 },
		{ "\xf0\x9f\x98", 3, 0 },
		{ "\xe2\x82x", 3, 0 },
		{ "\xf0\x9f\x98x", 4, 0 },
		/* lone continuation bytes, ISO-8859-1 text */
		{ "\x80", 1, 0 },
		{ "\xbf", 1, 0 },
		{ "caf\xe9", 4, 0 },
		{ "CAF\xc9 DRIVER", 11, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		int got = mev__utf8_valid(cases[i].s, cases[i].len);
		if (got != cases[i].ok)
			fprintf(stderr, "utf8 case %zu: got %d\n", i, got);
		CHECK_INT(got, cases[i].ok);
		CHECK_INT(utf8_ref((const unsigned char *)cases[i].s, cases[i].len), cases[i].ok);
	}
	/* the length is respected: a valid prefix of an invalid buffer */
	CHECK_INT(mev__utf8_valid("ab\xff", 2), 1);
	CHECK_INT(mev__utf8_valid("\xc3\xa9\xc3", 2), 1);

	/* random short strings biased towards lead/continuation bytes */
	{
		static const unsigned char pool[] = { 'a', 0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf,
						      0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xed, 0xee, 0xef,
						      0xf0, 0xf1, 0xf4, 0xf5, 0xff };
		unsigned char s[8];
		int bad = 0, valid = 0;
		rng_seed(77);
		for (int it = 0; it < 300000; it++) {
			size_t len = rng_below(7);
			int a, b;
			for (size_t k = 0; k < len; k++)
				s[k] = pool[rng_below(sizeof pool)];
			a = mev__utf8_valid((const char *)s, len);
			b = utf8_ref(s, len);
			valid += b;
			if (a != b && bad++ < 5)
				fprintf(stderr, "utf8 mismatch len %zu: %02x %02x %02x %02x ours %d ref %d\n",
					len, s[0], s[1], s[2], s[3], a, b);
		}
		CHECK_INT(bad, 0);
		CHECK(valid > 1000); /* the pool does produce valid sequences */
	}
	/* every code point encoded: valid */
	{
		int bad = 0;
		for (uint32_t cp = 0; cp <= 0x10ffff; cp += (cp < 0x11000 ? 1 : 97)) {
			unsigned char s[4];
			size_t n;
			if (cp >= 0xd800 && cp <= 0xdfff)
				continue;
			if (cp < 0x80) {
				s[0] = (unsigned char)cp;
				n = 1;
			} else if (cp < 0x800) {
				s[0] = (unsigned char)(0xc0 | cp >> 6);
				s[1] = (unsigned char)(0x80 | (cp & 0x3f));
				n = 2;
			} else if (cp < 0x10000) {
				s[0] = (unsigned char)(0xe0 | cp >> 12);
				s[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
				s[2] = (unsigned char)(0x80 | (cp & 0x3f));
				n = 3;
			} else {
				s[0] = (unsigned char)(0xf0 | cp >> 18);
				s[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
				s[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
				s[3] = (unsigned char)(0x80 | (cp & 0x3f));
				n = 4;
			}
			if (!mev__utf8_valid((const char *)s, n))
				bad++;
		}
		CHECK_INT(bad, 0);
	}
}

static void test_latin1(void)
{
	mev_buf b = MEV_BUF_INIT;
	unsigned char all[256];
	int bad = 0;

	CHECK_INT(mev__latin1_to_utf8(&b, "caf\xe9", 4), 0);
	CHECK_STR(b.ptr, "caf\xc3\xa9");
	/* appends */
	CHECK_INT(mev__latin1_to_utf8(&b, " \xc9\xff\x80", 4), 0);
	CHECK_STR(b.ptr, "caf\xc3\xa9 \xc3\x89\xc3\xbf\xc2\x80");
	CHECK_INT(b.len, 12);
	mev__buf_clear(&b);
	CHECK_INT(mev__latin1_to_utf8(&b, "", 0), 0);
	CHECK_STR(b.ptr, "");

	/* every byte: ASCII unchanged, the rest as two bytes, valid UTF-8 */
	for (int i = 0; i < 256; i++)
		all[i] = (unsigned char)i;
	mev__buf_clear(&b);
	CHECK_INT(mev__latin1_to_utf8(&b, (const char *)all, 256), 0);
	CHECK_INT(b.len, 128 + 2 * 128);
	CHECK_INT(mev__utf8_valid(b.ptr, b.len), 1);
	for (int i = 0; i < 128; i++)
		if ((unsigned char)b.ptr[i] != i)
			bad++;
	for (int i = 128; i < 256; i++) {
		const unsigned char *p = (const unsigned char *)b.ptr + 128 + 2 * (i - 128);
		if (((p[0] & 0x1f) << 6 | (p[1] & 0x3f)) != i)
			bad++;
	}
	CHECK_INT(bad, 0);
	CHECK_INT(b.ptr[b.len], '\0');

	/* mev__to_utf8: valid UTF-8 untouched, anything else read as ISO-8859-1 */
	mev__buf_clear(&b);
	CHECK_INT(mev__to_utf8(&b, "caf\xc3\xa9", 5), 0);
	CHECK_STR(b.ptr, "caf\xc3\xa9");
	mev__buf_clear(&b);
	CHECK_INT(mev__to_utf8(&b, "caf\xc3\xa9\xe9", 6), 0);
	CHECK_STR(b.ptr, "caf\xc3\x83\xc2\xa9\xc3\xa9");
	mev__buf_clear(&b);
	CHECK_INT(mev__to_utf8(&b, "a\xed\xa0\x80", 4), 0); /* a surrogate: not UTF-8 */
	CHECK_STR(b.ptr, "a\xc3\xad\xc2\xa0\xc2\x80");
	mev__buf_free(&b);
}

static uint64_t naive_newlines(const unsigned char *p, size_t len)
{
	uint64_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += p[i] == '\n';
	return n;
}

static void test_count_newlines(void)
{
	enum { MAX = 4096 };
	unsigned char *buf = malloc(MAX + 16);
	int bad = 0;

	CHECK(buf != NULL);
	if (!buf)
		return;
	CHECK_INT(mev__count_newlines("", 0), 0);
	CHECK_INT(mev__count_newlines("\n", 1), 1);
	CHECK_INT(mev__count_newlines("a\nb\n\nc", 6), 3);
	CHECK_INT(mev__count_newlines("\n\n\n\n\n\n\n\n\n", 9), 9);
	/* near-misses of the SWAR trick: bytes one bit away from '\n' */
	CHECK_INT(mev__count_newlines("\x0b\x09\x8a\x0e\x1a\x4a\x2a\x08", 8), 0);
	CHECK_INT(mev__count_newlines("\x0b\n\x8a\n\x0a\x0b\xff\x00\x0a", 9), 4);
	/* a full word of each byte value */
	for (int c = 0; c < 256; c++) {
		memset(buf, c, 64);
		if (mev__count_newlines(buf, 64) != (c == '\n' ? 64u : 0u))
			bad++;
	}
	CHECK_INT(bad, 0);
	/* nothing but newlines, past the 255 vectors or words a lane holds */
	{
		enum { LONG = 3 * 255 * 16 + 7 };
		char *nl = malloc(LONG);
		CHECK(nl != NULL);
		if (nl) {
			memset(nl, '\n', LONG);
			CHECK_INT(mev__count_newlines(nl, LONG), LONG);
			CHECK_INT(mev__count_newlines(nl + 1, LONG - 1), LONG - 1);
			free(nl);
		}
	}

	/* random buffers: random lengths, random (unaligned) start, random density */
	rng_seed(2024);
	for (int it = 0; it < 20000; it++) {
		size_t off = rng_below(16);
		size_t len = it < 200 ? (size_t)it : rng_below(it % 10 == 0 ? MAX : 80);
		unsigned density = (unsigned)rng_below(6);
		for (size_t k = 0; k < len; k++) {
			uint64_t r = rng();
			unsigned char c;
			switch (density) {
			case 0: c = (unsigned char)r; break;                     /* uniform */
			case 1: c = r % 3 == 0 ? '\n' : (unsigned char)(r >> 8); break;
			case 2: c = (unsigned char)('\n' ^ (1u << (r >> 8) % 8)); /* near misses */
				if (r % 5 == 0) c = '\n';
				break;
			case 3: c = (r & 1) ? '\n' : 0x8a; break;
			case 4: c = (unsigned char)(r % 2 ? 0xff : 0x00); if (r % 7 == 0) c = '\n'; break;
			default: c = '\n'; break;
			}
			buf[off + k] = c;
		}
		if (mev__count_newlines(buf + off, len) != naive_newlines(buf + off, len)) {
			if (bad++ < 5)
				fprintf(stderr, "newline count mismatch: off %zu len %zu density %u\n",
					off, len, density);
		}
	}
	CHECK_INT(bad, 0);

	/* a large buffer */
	{
		size_t len = 3 * 1024 * 1024 + 5;
		unsigned char *big = malloc(len);
		CHECK(big != NULL);
		if (big) {
			for (size_t k = 0; k < len; k++)
				big[k] = (k * 2654435761u >> 7) % 61 == 0 ? '\n' : (unsigned char)(k * 7);
			CHECK_INT(mev__count_newlines(big, len), naive_newlines(big, len));
			CHECK_INT(mev__count_newlines(big + 3, len - 3), naive_newlines(big + 3, len - 3));
			free(big);
		}
	}
	free(buf);
}

static void test_error(void)
{
	mev_error_clear();
	CHECK_STR(mev_error_message(), "");
	CHECK_INT(mev_error_code(), 0);
	CHECK_INT(mev_error_set(MEV_EINVAL, "bad value '%s'", "x"), MEV_EINVAL);
	CHECK_STR(mev_error_message(), "bad value 'x'");
	CHECK_INT(mev_error_code(), MEV_EINVAL);
	mev_error_hint("try %d", 2);
	CHECK_STR(mev_error_hint_text(), "try 2");
	mev_error_prefix("reading '%s'", "f");
	CHECK_STR(mev_error_message(), "reading 'f': bad value 'x'");
	/* a new error clears the hint */
	CHECK_INT(mev_error_oom(), MEV_ENOMEM);
	CHECK_STR(mev_error_message(), "out of memory");
	CHECK_STR(mev_error_hint_text(), "");
	mev_error_clear();
	CHECK_STR(mev_error_message(), "");
}

/* Edit distance and "did you mean": typos found, far words not. */
static void test_suggest(void)
{
	static const char *const cmds[] = { "walk", "cluster", "clusters", "graph", "export" };
	static const char *const tags[] = { "v2023.07", "v2023.10", "v2024.01" };
	char longer[600];
	CHECK_INT(mev_edit_distance("", ""), 0);
	CHECK_INT(mev_edit_distance("walk", ""), 4);
	CHECK_INT(mev_edit_distance("walkk", "walk"), 1);
	CHECK_INT(mev_edit_distance("grpah", "graph"), 1);    /* a swap is one edit */
	CHECK_INT(mev_edit_distance("WALK", "walk"), 0);      /* ASCII case ignored */
	CHECK_INT(mev_edit_distance("kitten", "sitting"), 3);
	CHECK_INT(mev_edit_distance("2023.10", "v2023.10"), 1);
	CHECK_STR(mev_suggest("clsuter", cmds, 5), "cluster");
	CHECK_STR(mev_suggest("exprot", cmds, 5), "export");
	CHECK(mev_suggest("cluster", cmds, 5) == NULL);      /* exact: nothing to suggest */
	CHECK(mev_suggest("frobnicate", cmds, 5) == NULL);
	CHECK(mev_suggest("xx", cmds, 5) == NULL);
	CHECK(mev_suggest("x", cmds, 0) == NULL);
	CHECK_STR(mev_suggest("2023.10", tags, 3), "v2023.10");
	CHECK_STR(mev_suggest("v2023.7", tags, 3), "v2023.07");
	CHECK(mev_suggest("v1.0", tags, 3) == NULL);
	memset(longer, 'a', sizeof longer - 1);
	longer[sizeof longer - 1] = 0;
	CHECK(mev_edit_distance(longer, "a") == SIZE_MAX);
	CHECK_INT(mev_edit_distance(longer, longer), 0);
	/* the capped, case-sensitive form (did-you-mean for paths and titles) */
	CHECK_INT(mev_edit_distance_n("Drivers", 7, "drivers", 7, 3, 0), 1);
	CHECK_INT(mev_edit_distance_n("Drivers", 7, "drivers", 7, 3, 1), 0);
	CHECK_INT(mev_edit_distance_n("drivers/net", 11, "drivers/nte", 11, 2, 0), 1);
	CHECK_INT(mev_edit_distance_n("kitten", 6, "sitting", 7, 2, 0), 3); /* past the cap: cap + 1 */
	CHECK_INT(mev_edit_distance_n("ab", 2, "abcdef", 6, 2, 0), 3);
}

/* The few closest of many: by distance, first offered first, each once, case kept. */
static void test_suggestions(void)
{
	static const char *const paths[] = { "drivers/nte/", "Drivers/net/", "drivers/net/",
					     "drivers/net/", "drivers/", "drivers/nets/", "fs/" };
	mev_suggestions sg;
	mev_suggestions_init(&sg, "drivers/net/");
	CHECK_INT(sg.cap, 4);
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
		mev_suggestions_add(&sg, paths[i], strlen(paths[i]));
	CHECK_INT(sg.n, 3);                       /* the word itself is no suggestion */
	CHECK_STR(sg.best[0], "drivers/nte/");    /* 1 edit, offered first */
	CHECK_STR(sg.best[1], "Drivers/net/");    /* 1 edit: case matters */
	CHECK_STR(sg.best[2], "drivers/nets/");   /* 1 edit; "drivers/" (4) fell out */
	mev_error_set(MEV_ENOTFOUND, "no such path");
	mev_suggestions_hint(&sg, "never shown");
	CHECK_STR(mev_error_hint_text(),
		  "did you mean 'drivers/nte/', 'Drivers/net/' or 'drivers/nets/'?");
	mev_suggestions_init(&sg, "ab");
	mev_suggestions_add(&sg, "abcdef", 3);    /* only len bytes: "abc" */
	mev_suggestions_add(&sg, "xyz", 3);
	CHECK_INT(sg.n, 1);
	CHECK_STR(sg.best[0], "abc");
	mev_error_set(MEV_ENOTFOUND, "no such path");
	mev_suggestions_hint(&sg, NULL);
	CHECK_STR(mev_error_hint_text(), "did you mean 'abc'?");
	mev_suggestions_init(&sg, "zzzzzz");
	mev_suggestions_add(&sg, "abc", 3);
	mev_error_set(MEV_ENOTFOUND, "no such path");
	mev_suggestions_hint(&sg, "see the list");
	CHECK_STR(mev_error_hint_text(), "see the list");
}

int main(void)
{
	RUN(test_buf_basic);
	RUN(test_buf_growth);
	RUN(test_vec);
	RUN(test_arena);
	RUN(test_strmap);
	RUN(test_strmap_reserve);
	RUN(test_utf8_valid);
	RUN(test_latin1);
	RUN(test_count_newlines);
	RUN(test_error);
	RUN(test_suggest);
	RUN(test_suggestions);
	return test_summary();
}
