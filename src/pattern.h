/* One F:/X:/N: pattern compiled for fast, exact matching (internal). */
#ifndef MEV_PATTERN_H
#define MEV_PATTERN_H

#include <stddef.h>
#include <stdint.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

enum { MEV_PAT_GLOB = 1, MEV_PAT_PCRE = 2, MEV_PAT_NEVER = 3 };

/* Glob program ops: a literal byte (0..255), any byte but '\n', or ".*". */
enum { MEV_OP_ANY = 256, MEV_OP_STAR = 257 };

typedef struct {
	uint8_t kind;          /* MEV_PAT_* */
	uint8_t type;          /* 'F', 'X' or 'N' */
	uint8_t trailing;      /* F/X regex ends with '/': prefix rule, any depth */
	uint8_t limit_hit;     /* a match ran into the PCRE2 limits (reported once) */
	uint32_t slashes;      /* '/' count of the F/X regex (equal-slash rule) */
	uint32_t section;
	uint32_t field;        /* index of the field line (for messages) */
	uint16_t *ops;         /* MEV_PAT_GLOB program */
	size_t nops;
	char *src;             /* the PCRE2 pattern text (F/X: "^" + regex) */
	uint32_t opts;         /* its PCRE2 options */
	uint8_t utf8;
	pcre2_code *re;        /* byte semantics (compiled lazily for globs) */
	pcre2_code *re_uni;    /* Unicode semantics, for non-ASCII paths (utf8 rules) */
	int jit;
	char *prefix;          /* literal every match starts with (F/X), for the index */
	size_t prefix_len;
	char *must;            /* literal every match contains (N), for the prefilter */
	size_t must_len;
} mev_pattern;

/*
 * Compile the regex text of an F/X field (already converted by the script's
 * rules) or the value of an N field.  utf8: the script decodes MAINTAINERS.
 * On an invalid regex the pattern becomes MEV_PAT_NEVER and *err (static
 * string) says why, with *erroff the offset.  Returns MEV_ENOMEM on failure.
 */
int mev_pattern_compile(mev_pattern *p, char type, const char *regex, int utf8,
			const char **err, size_t *erroff, char *errbuf, size_t errbuf_size);
void mev_pattern_free(mev_pattern *p);

/*
 * Does the pattern match `path` the way get_maintainer.pl tests it?  For F/X
 * that is file_match_pattern() (anchored at the start, not at the end, with
 * the trailing-slash and equal-slash rules); for N it is m/$value/x.
 * `slashes` is the number of '/' in path, `ascii` whether it has no byte
 * >= 0x80, `has_nl` whether it contains '\n'.  Returns 1, 0, or -1 when
 * PCRE2 hit its match limit (treated as no match).
 */
int mev_pattern_match(mev_pattern *p, pcre2_match_data *md, pcre2_match_context *mc,
		      const char *path, size_t len, uint32_t slashes, int ascii, int has_nl,
		      const char *upath, size_t ulen);

/* The same with PCRE2 only: the reference the fast paths are tested against. */
int mev_pattern_match_pcre(mev_pattern *p, pcre2_match_data *md, pcre2_match_context *mc,
			   const char *path, size_t len, uint32_t slashes, int ascii,
			   const char *upath, size_t ulen);

#endif
