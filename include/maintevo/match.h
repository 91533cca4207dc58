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
 * the next call) gets the section indices.  Not thread-safe: one matcher
 * per thread.  Errors: MEV_ENOMEM.
 */
int mev_matcher_match(mev_matcher *m, const char *path, size_t len, int is_dir,
		      const uint32_t **ids, size_t *n);

/* Number of matches given up because PCRE2 hit its limits. */
uint64_t mev_matcher_limit_hits(const mev_matcher *m);

#endif
