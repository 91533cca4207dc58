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
 * Compiled patterns kept for many matchers of similar MAINTAINERS sets
 * (patch flow builds thousands that differ in a file or two): each
 * distinct pattern is compiled once.  A matcher made with a pool borrows
 * from it (its matching budgets stay its own) and holds a reference to it:
 * _free drops the caller's, and the pool goes with the last matcher made
 * with it (which may be freed on another thread).  Making matchers with
 * one pool is not thread-safe.  It keeps every pattern it has seen
 * (_count of them): drop it for a new one when that grows too large.
 */
typedef struct mev_pattern_pool mev_pattern_pool;
int mev_pattern_pool_new(mev_pattern_pool **out);
void mev_pattern_pool_free(mev_pattern_pool *pool);
size_t mev_pattern_pool_count(const mev_pattern_pool *pool);
/* mev_matcher_new() with the patterns from `pool` (NULL: compiled anew). */
int mev_matcher_new_pooled(mev_matcher **out, mev_maint *maint, unsigned flags,
			   mev_pattern_pool *pool);

/*
 * The sections covering `path` (a tree path, no leading '/').  `is_dir` says
 * the path names a directory (a symbolic link to one): the script then
 * matches it as "path/".  *ids (sorted, owned by the matcher, valid until
 * the next call) gets the section indices and *n their number.  Not
 * thread-safe: one matcher per thread.  Errors: MEV_ENOMEM.
 */
int mev_matcher_match(const uint32_t **ids, size_t *n, mev_matcher *m, const char *path,
		      size_t len, int is_dir);

/*
 * A path as get_maintainer.pl takes its file argument (File::Spec's
 * canonpath): no "./", no repeated '/', no trailing '/' (*is_dir: there
 * was one, so the script matches it as a directory) into *out
 * (malloc'ed).  Errors: MEV_ENOMEM.
 */
int mev_match_canonpath(char **out, int *is_dir, const char *in);

/* Number of patterns disabled because they ran out of their matching
 * budget or past PCRE2's limits (each is also a diagnostic of `maint`). */
uint64_t mev_matcher_limit_hits(const mev_matcher *m);

/*
 * What changed between the sections of two releases, for matching only the
 * paths a change can affect.  A section is unchanged when its title and its
 * F:/X:/N: regexes are identical; every pattern of a changed, added or
 * removed section is "dirty" (when only its F: lines changed, just those),
 * and a path must be matched again when a dirty F:/X: pattern matches it
 * (filed under the directory part of its literal prefix, a pattern is
 * tried only on the paths below), or it holds the literal a dirty N:
 * regex requires.  Every other path keeps its sections, renumbered: its
 * membership of a section can change only through a pattern that matches
 * it in the old or the new release.
 */
typedef struct mev_rematch mev_rematch;

int mev_rematch_new(mev_rematch **out, const mev_maint *old_maint, const mev_maint *new_maint);
void mev_rematch_free(mev_rematch *rm);
/* 1 when nothing changed at all (same sections, same numbering). */
int mev_rematch_identical(const mev_rematch *rm);
/* 1 when `path` (matched as "path/" when is_dir) must be matched again.
 * One thread at a time: the plan keeps its scratch space. */
int mev_rematch_needed(const mev_rematch *rm, const char *path, size_t len, int is_dir);
/* The new index of an unchanged old section, or UINT32_MAX. */
uint32_t mev_rematch_map(const mev_rematch *rm, uint32_t old_section);

/* --- why a path is in a section or not ------------------------------------ */

/*
 * One F:, X: or N: line as the script matches with it: its type and its
 * regex (F/X: the value converted by the script's rules, '/' appended by
 * its directory test; N: the value).  `section` is the caller's number of
 * the section it belongs to (< nsections below).
 */
typedef struct {
	char type;                /* 'F', 'X' or 'N' */
	const char *regex;        /* NULL: a line the script ignores (no N: handling) */
	uint32_t section;
} mev_why_pattern;

/* The rule that decided what one line does with a path (file_match_pattern() for
 * F/X, m/$value/x for N). */
typedef enum {
	MEV_WHY_NONE = 0,         /* the regex does not match the start of the path (F/X)
				     or anywhere in it (N) */
	MEV_WHY_DEPTH,            /* F/X without a trailing '/': the regex matches the start
				     of the path, but the path has another number of '/':
				     no match (the near miss) */
	MEV_WHY_SAME_DEPTH,       /* F/X without a trailing '/': matches the start, and the
				     path has as many '/' as the pattern: a match */
	MEV_WHY_ANY_DEPTH,        /* F/X ending in '/': matches the start, at any depth */
	MEV_WHY_REGEX,            /* N: the regex is found in the path */
	MEV_WHY_INVALID,          /* the regex does not compile, or the script ignores the
				     line: it matches nothing */
	MEV_WHY_BUDGET            /* PCRE2 gave up (its limits): counted as no match */
} mev_why_rule;

/* Or'ed into the `utf8` argument of the functions below: the lines are a
 * dialect's whole regexes, searched in the path (mev_rules.regex_patterns);
 * their rule is then MEV_WHY_REGEX or MEV_WHY_NONE. */
#define MEV_MATCH_RAW 2

/* 1 when the rule is a match. */
#define MEV_WHY_MATCHES(r) ((r) == MEV_WHY_SAME_DEPTH || (r) == MEV_WHY_ANY_DEPTH || (r) == MEV_WHY_REGEX)

/* What a section does with a path, from the rules of its lines. */
typedef enum {
	MEV_WHY_OUT = 0,          /* no line comes near */
	MEV_WHY_NEAR,             /* no match, but an F:/X: line matches the start of the
				     path at another depth, or only an X: line matches */
	MEV_WHY_EXCLUDED,         /* an F:/N: line matches, and an X: line too: kept out
				     (an X: hit disables the section's N: lines as well) */
	MEV_WHY_IN                /* an F:/N: line matches and no X: line does */
} mev_why_verdict;

/* "none", "depth", "same-depth", "any-depth", "regex", "invalid", "budget". */
const char *mev_why_rule_name(mev_why_rule r);
/* "out", "near", "excluded", "in". */
const char *mev_why_verdict_name(mev_why_verdict v);

/*
 * Why each of the n lines p[] matches `path` or not (rules[i]), and what
 * each of the nsections sections does with it (verdicts[k]), deciding
 * exactly as mev_matcher_match() does: the same compiled patterns, the
 * same rules (its sections are those with verdict MEV_WHY_IN).  `is_dir`:
 * the path names a directory (a link to one), matched as "path/"; utf8:
 * the script decodes MAINTAINERS (mev_rules.utf8).  Errors: MEV_ENOMEM.
 */
int mev_match_why(mev_why_rule *rules, uint8_t *verdicts, const mev_why_pattern *p, size_t n,
		  uint32_t nsections, int utf8, const char *path, size_t len, int is_dir);

/*
 * Which lines match some path of a release, for get_maintainer.pl
 * --self-test's "no file matches" check: use[i] is 0 when no path has
 * line i's regex as a prefix (what the self-test reports: F/X lines; an N:
 * line when its regex is found in no path), 1 when some path has it as a
 * prefix but none matches it by file_match_pattern()'s depth rule (the
 * self-test passes it, yet it covers nothing), 2 when some path matches.
 * `paths` are sorted bytewise (a directory given as "dir/" is matched as
 * one); lens their lengths.  Errors: MEV_ENOMEM.
 */
int mev_match_pattern_use(uint8_t *use, const mev_why_pattern *p, size_t n, int utf8,
			  const char *const *paths, const size_t *lens, size_t npaths);

/*
 * The same answers for the releases of a walk, one after the other, with
 * less work: `memo` keeps what the last call found for each line (by its
 * type, the utf8 rules and its regex) and the path that decided it.  A
 * line seen last time is tried only on the paths marked in `fresh` (per
 * path: 1 when it may not have been among the last call's paths), as long
 * as the path that decided its answer is still there and its matches all
 * stayed within the free units of its budget; any other line is tried on
 * all paths.  fresh NULL: every path is fresh (the memo is not used, only
 * filled).  Errors: MEV_ENOMEM (the memo is emptied).
 */
typedef struct mev_match_use_memo mev_match_use_memo;

int mev_match_use_memo_new(mev_match_use_memo **out);
void mev_match_use_memo_free(mev_match_use_memo *m);
int mev_match_pattern_use_since(uint8_t *use, const mev_why_pattern *p, size_t n, int utf8,
				const char *const *paths, const size_t *lens, size_t npaths,
				const uint8_t *fresh, mev_match_use_memo *memo);

#endif
