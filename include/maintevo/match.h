/* Which sections cover a path, exactly as the tree's get_maintainer.pl says. */
#ifndef MAINTEVO_MATCH_H
#define MAINTEVO_MATCH_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/maintainers.h"

typedef struct mev_matcher mev_matcher;

enum {
	MEV_MATCH_BRUTE = 1 /* no index, PCRE2 for every pattern: the reference */
};

/*
 * Compile the F:/X:/N: patterns of `maint` and index them.  Invalid regexes
 * are reported as diagnostics of `maint` and never match.  Errors: MEV_ENOMEM.
 */
int mev_matcher_new(mev_matcher **out, mev_maint *maint, unsigned flags);
void mev_matcher_free(mev_matcher *m);

/*
 * The sections covering `path` (a tree path, no leading '/').  `is_dir` says
 * the path names a directory (a symbolic link to one): the script then
 * matches it as "path/".  *ids (sorted, owned by the matcher, valid until
 * the next call) gets the section indices and *n their number.  Not
 * thread-safe: one matcher per thread.  Errors: MEV_ENOMEM.
 */
int mev_matcher_match(const uint32_t **ids, size_t *n, mev_matcher *m, const char *path,
		      size_t len, int is_dir);

/* Number of patterns disabled because they ran out of their matching
 * budget or past PCRE2's limits (each is also a diagnostic of `maint`). */
uint64_t mev_matcher_limit_hits(const mev_matcher *m);

/*
 * What changed between the sections of two releases, for matching only the
 * paths a change can affect.  A section is unchanged when its title and its
 * F:/X:/N: regexes are identical; every pattern of a changed, added or
 * removed section is "dirty", and a path must be matched again when a dirty
 * pattern could match it (it lies under the directory part of the
 * pattern's literal prefix, or holds the literal an N: regex requires).
 * Every other path keeps its sections, renumbered.
 */
typedef struct mev_rematch mev_rematch;

int mev_rematch_new(mev_rematch **out, const mev_maint *old_maint, const mev_maint *new_maint);
void mev_rematch_free(mev_rematch *rm);
/* 1 when nothing changed at all (same sections, same numbering). */
int mev_rematch_identical(const mev_rematch *rm);
/* 1 when `path` (matched as "path/" when is_dir) must be matched again. */
int mev_rematch_needed(const mev_rematch *rm, const char *path, size_t len, int is_dir);
/* The new index of an unchanged old section, or UINT32_MAX. */
uint32_t mev_rematch_map(const mev_rematch *rm, uint32_t old_section);

#endif
