/* Shared by the matcher (src/match/match.c) and its rematch plans
 * (src/match/match_rematch.c). */
#ifndef MEV_MATCH_INTERNAL_H
#define MEV_MATCH_INTERNAL_H

#include "maintevo/maintainers.h"
#include "util/buf.h"

#include <stdint.h>

typedef MEV_VEC(uint32_t) u32vec;

/*
 * What PCRE2 may spend (its match-limit units; about 5 ns each with JIT):
 * one match at most MATCH_LIMIT, each pattern at most PATTERN_BUDGET
 * beyond the first 1,000 units of each match (pattern.c) for as long as
 * the matcher lives, i.e. one MAINTAINERS version: a release, or the
 * releases of a walk that share it.  No N: pattern of Linux or U-Boot
 * spends any of it (docs/matching.md).
 */
enum { MATCH_LIMIT = 1000000, DEPTH_LIMIT = 10000 };
#define PATTERN_BUDGET 10000000ULL

/* An F:, X: or N: line the script matches with (not an N: its script ignores). */
static inline int mev__match_is_pattern(const mev_field *f)
{
	return (f->type == 'F' || f->type == 'X' || f->type == 'N') && f->regex;
}

#endif
