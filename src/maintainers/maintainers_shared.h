/*
 * What the maintainers module shares with the modules above it (the
 * matcher): one F:/X:/N: pattern compiled for fast, exact matching, and
 * the diagnostics a matcher adds to its MAINTAINERS.  Internal: not part
 * of the public API in include/maintevo/.
 */
#ifndef MEV_MAINTAINERS_SHARED_H
#define MEV_MAINTAINERS_SHARED_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/maintainers.h"
#include "util/buf.h"

/* PCRE2 lives in pattern.c only: these two are opaque everywhere else. */
typedef struct mev__pattern_re mev__pattern_re;           /* a compiled regex */
typedef struct mev__pattern_scratch mev__pattern_scratch; /* per-thread match state */

enum { MEV__PAT_GLOB = 1, MEV__PAT_PCRE = 2, MEV__PAT_NEVER = 3 };

/* How mev__pattern_compile() reads a regex: the script decodes its file as
 * UTF-8; the regex is whole, searched in the path as it is (a dialect's
 * own script, mev_rules.regex_patterns: no "^" added, no /x, no
 * trailing-'/' or equal-'/' rule). */
enum { MEV__PAT_UTF8 = 1, MEV__PAT_RAW = 2 };

typedef struct {
	uint8_t kind;          /* MEV__PAT_* */
	uint8_t type;          /* 'F', 'X' or 'N' */
	uint8_t trailing;      /* F/X regex ends with '/': prefix rule, any depth */
	uint8_t exhausted;     /* ran out of its matching budget: matches nothing more */
	uint8_t raw;           /* MEV__PAT_RAW: a whole regex, searched */
	uint32_t slashes;      /* '/' count of the F/X regex (equal-slash rule) */
	uint32_t section;
	uint32_t field;        /* index of the field line (for messages) */
	uint16_t *ops;         /* MEV__PAT_GLOB program */
	size_t nops;
	mev__pattern_re *re;   /* the PCRE2 form (compiled lazily for globs) */
	char *prefix;          /* literal every match starts with (F/X), for the index */
	size_t prefix_len;
	char *must;            /* literal every match contains (N), for the prefilter */
	size_t must_len;
	uint64_t spent;        /* PCRE2 units charged to its budget */
} mev__pattern;

/*
 * Compile the regex text of an F/X field (already converted by the script's
 * rules) or the value of an N field.  utf8: the script decodes MAINTAINERS.
 * On an invalid regex the pattern becomes MEV__PAT_NEVER and *err (pointing
 * into errbuf) says why, with *erroff the offset.  Returns MEV_ENOMEM on
 * failure; free the pattern with mev__pattern_free() in every case.
 */
int mev__pattern_compile(mev__pattern *p, char type, const char *regex, unsigned mode,
			 const char **err, size_t *erroff, char *errbuf, size_t errbuf_size);
void mev__pattern_free(mev__pattern *p);

/*
 * What a thread needs to run PCRE2 matches.  match_limit and depth_limit
 * bound the work of one match (0: PCRE2's default); budget, when not 0,
 * that of each pattern over all the matches it runs with this scratch
 * (PCRE2 match-limit units; see pcre_run() in pattern.c for how they are
 * charged).  Errors: MEV_ENOMEM.
 */
int mev__pattern_scratch_new(mev__pattern_scratch **out, uint32_t match_limit,
			     uint32_t depth_limit, uint64_t budget);
void mev__pattern_scratch_free(mev__pattern_scratch *sc);

/*
 * Does the pattern match `path` the way get_maintainer.pl tests it?  For F/X
 * that is file_match_pattern() (anchored at the start, not at the end, with
 * the trailing-slash and equal-slash rules); for N it is m/$value/x.
 * `slashes` is the number of '/' in path, `ascii` whether it has no byte
 * >= 0x80, `has_nl` whether it contains '\n'; upath is path read as
 * ISO-8859-1, in UTF-8 (used when !ascii).  Returns 1, 0, or -1 when the
 * pattern ran out of its budget or past the scratch's limits on this path
 * (no match): it is exhausted then, and matches nothing from then on.
 */
int mev__pattern_match(mev__pattern *p, mev__pattern_scratch *sc, const char *path, size_t len,
		       uint32_t slashes, int ascii, int has_nl, const char *upath, size_t ulen);

/* A path as mev__pattern_match() takes it. */
typedef struct {
	const char *s;
	size_t len;
	uint32_t slashes;      /* '/' count */
	int ascii, has_nl;     /* no byte >= 0x80; holds a '\n' */
	const char *u;         /* when not ASCII: the path read as ISO-8859-1, in UTF-8 */
	size_t ulen;
} mev__pattern_subject;

/* *sj for path s[0..len) (borrowed), its UTF-8 form (when not ASCII) in
 * *ubuf.  Errors: MEV_ENOMEM. */
int mev__pattern_subject_set(mev__pattern_subject *sj, mev_buf *ubuf, const char *s, size_t len);

/* The same with PCRE2 only: the reference the fast paths are tested against. */
int mev__pattern_match_pcre(mev__pattern *p, mev__pattern_scratch *sc, const char *path,
			    size_t len, uint32_t slashes, int ascii, const char *upath, size_t ulen);

/*
 * Perl's s/re/rep/g on v, in place (rep uses $1..$9); with `repeat`, again
 * until nothing matches.  `re` is a fixed regex of the program: an invalid
 * one changes nothing.  Errors: MEV_ENOMEM.
 */
int mev__pattern_subst(mev_buf *v, const char *re, const char *rep, int repeat);

/* Add a diagnostic about file `file` (or UINT32_MAX), line `line` (or 0). */
int mev__maint_diag_add(mev_maint *m, uint32_t file, uint32_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
