/* The tests' random numbers: xorshift64*, seeded for a repeatable run
 * (test_match.c, test_match_why.c, test_match_rematch.c). */
#ifndef MEV_TEST_RNG_H
#define MEV_TEST_RNG_H

#include <stddef.h>
#include <stdint.h>

static uint64_t rng_state;
static inline void rng_seed(uint64_t s) { rng_state = s * 0x9e3779b97f4a7c15ULL + 1; }
static inline uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}
static inline size_t rng_below(size_t n) { return n ? (size_t)(rng() % n) : 0; }

#endif
