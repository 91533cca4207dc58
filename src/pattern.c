/*
 * Compiling and matching get_maintainer.pl patterns.  Most F:/X: regexes are
 * made only of literal bytes, "\." , "." and ".*" (the script's glob
 * conversion); those run as a tiny glob program.  Everything else goes to
 * PCRE2, which follows Perl closely enough for these patterns.  Literal
 * prefixes (F/X) and required substrings (N) feed the matcher's index.
 */
#include "pattern.h"
#include "maintevo/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int is_meta(unsigned char c)
{
	return strchr("\\.[](){}|+?*^$", c) != NULL && c;
}

/* Try to express a converted F/X regex as a glob program. */
static int to_glob(mev_pattern *p, const char *re, size_t len, int utf8)
{
	uint16_t *ops = malloc((len + 1) * sizeof *ops);
	size_t n = 0;
	if (!ops)
		return mev_error_oom();
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)re[i];
		if (c == '\\' && i + 1 < len && re[i + 1] == '.') {
			ops[n++] = '.';
			i++;
		} else if (c == '.' && i + 1 < len && re[i + 1] == '*') {
			ops[n++] = MEV_OP_STAR;
			i++;
		} else if (c == '.') {
			ops[n++] = MEV_OP_ANY;
		} else if (is_meta(c) || (utf8 && c >= 0x80)) {
			free(ops);
			return 1; /* not a glob */
		} else {
			ops[n++] = c;
		}
	}
	p->ops = ops;
	p->nops = n;
	p->kind = MEV_PAT_GLOB;
	return 0;
}

/* Literal prefix of a PCRE-only F/X regex: conservative, "" when unsure. */
static size_t regex_prefix(const char *re, size_t len, char *out)
{
	size_t n = 0, i = 0;
	if (memchr(re, '|', len) || strstr(re, "(?") || strstr(re, "\\Q"))
		return 0;
	while (i < len) {
		unsigned char c = (unsigned char)re[i];
		size_t adv = 1;
		unsigned char lit;
		if (c == '\\' && i + 1 < len && !isalnum((unsigned char)re[i + 1]) &&
		    (unsigned char)re[i + 1] < 0x80) {
			lit = (unsigned char)re[i + 1];
			adv = 2;
		} else if (is_meta(c) || c >= 0x80) {
			break;
		} else {
			lit = c;
		}
		if (i + adv < len && strchr("?*+{", re[i + adv]))
			break; /* quantified: may be absent or repeated */
		out[n++] = (char)lit;
		i += adv;
	}
	return n;
}

/*
 * A literal that every match of an N: regex (Perl /x) must contain, or ""
 * when the regex is too clever for this scan: alternation, groups other
 * than lookarounds, \Q, inline flags, escapes with arguments, POSIX
 * classes.  White space and #-comments are
 * skipped as /x does; quantified atoms end a run.
 */
static size_t regex_must(const char *re, size_t len, char *best)
{
	char run[4096];
	size_t rl = 0, bl = 0, i = 0;
	int depth = 0;
#define END_RUN() do { if (rl > bl) { memcpy(best, run, rl); bl = rl; } rl = 0; } while (0)
	/* The scans below take every escape for two bytes.  Give up on those
	 * with arguments (\x41, \101, \1, \c!, \o{..}, \p{L}, \g{1}, \k<n>,
	 * \N{..}), in classes too: their arguments are not the literals they
	 * look like ("41" is not required by \x41) and can hide a ']', '#' or
	 * ')' ("[\c]#]|x").  POSIX classes ("[[:alpha:])]") likewise end a
	 * class later than the scans think. */
	if (memmem(re, len, "[:", 2) || memmem(re, len, "[.", 2) || memmem(re, len, "[=", 2))
		return 0;
	for (size_t k = 0; k + 1 < len; k++) {
		if (re[k] != '\\')
			continue;
		if (re[k + 1] && (strchr("QxocNpPgk", re[k + 1]) || isdigit((unsigned char)re[k + 1])))
			return 0;
		/* a lone \E: PCRE2 would ignore it, but it is compiled as
		 * Perl does (see perl_letter_escapes); giving up stays safe */
		if (re[k + 1] == 'E')
			return 0;
		k++;
	}
	/* no top-level alternation or group we cannot see through */
	for (size_t k = 0; k < len; k++) {
		char c = re[k];
		if (c == '\\') {
			k++;
		} else if (c == '[') {
			k++;
			if (k < len && re[k] == '^')
				k++;
			if (k < len && re[k] == ']')
				k++;
			while (k < len && re[k] != ']') {
				if (re[k] == '\\')
					k++;
				k++;
			}
		} else if (c == '(') {
			if (!(k + 2 < len && re[k + 1] == '?' &&
			      (re[k + 2] == '=' || re[k + 2] == '!' ||
			       (re[k + 2] == '<' && k + 3 < len && (re[k + 3] == '=' || re[k + 3] == '!')))))
				if (depth == 0)
					return 0;
			depth++;
		} else if (c == ')') {
			if (--depth < 0)
				return 0; /* unbalanced: we misread something */
		} else if (c == '|' && depth == 0) {
			return 0;
		} else if (c == '#' && depth == 0) {
			break;
		}
	}
	while (i < len) {
		unsigned char c = (unsigned char)re[i];
		unsigned char lit = 0;
		int is_lit = 0;
		size_t adv = 1, j;
		if (isspace(c)) {
			i++;
			continue;
		}
		if (c == '#')
			break;
		if (c == '\\' && i + 1 < len) {
			unsigned char d = (unsigned char)re[i + 1];
			adv = 2;
			if (!isalnum(d) && d < 0x80) {
				lit = d;
				is_lit = 1;
			}
		} else if (c == '[') {
			j = i + 1;
			if (j < len && re[j] == '^')
				j++;
			if (j < len && re[j] == ']')
				j++;
			while (j < len && re[j] != ']') {
				if (re[j] == '\\')
					j++;
				j++;
			}
			adv = j + 1 - i;
		} else if (c == '(') {
			/* a lookaround: zero width, skip it whole */
			int d = 0;
			for (j = i; j < len; j++) {
				if (re[j] == '\\') {
					j++;
					continue;
				}
				if (re[j] == '[') {
					/* a ')' in a class does not close the lookaround:
					 * "(?![)]xyz)abc" does not require "xyz" */
					j++;
					if (j < len && re[j] == '^')
						j++;
					if (j < len && re[j] == ']')
						j++;
					while (j < len && re[j] != ']') {
						if (re[j] == '\\')
							j++;
						j++;
					}
					continue;
				}
				if (re[j] == '(')
					d++;
				else if (re[j] == ')' && --d == 0)
					break;
			}
			adv = j + 1 - i;
		} else if (is_meta(c) || c >= 0x80) {
			adv = 1;
		} else {
			lit = c;
			is_lit = 1;
		}
		i += adv;
		/* look for a quantifier after the atom (white space allowed in /x) */
		j = i;
		while (j < len && isspace((unsigned char)re[j]))
			j++;
		if (j < len && strchr("?*{", re[j])) {
			END_RUN();
			/* skip a {n,m} quantifier whole: its digits are not
			 * literals of the match ("x{2}" does not require "2") */
			if (re[j] == '{') {
				const char *close = memchr(re + j, '}', len - j);
				i = close ? (size_t)(close - re) + 1 : len;
			}
			continue;
		}
		if (j < len && re[j] == '+') {
			if (is_lit && rl < sizeof run)
				run[rl++] = (char)lit;
			END_RUN();
			i = j + 1;
			continue;
		}
		if (is_lit && rl < sizeof run)
			run[rl++] = (char)lit;
		else if (!is_lit)
			END_RUN();
	}
	END_RUN();
#undef END_RUN
	return bl;
}

/* Compile p->src (and its Unicode form under the utf8 rules); 0 on error. */
static int compile_re(mev_pattern *p, int *errcode, PCRE2_SIZE *off)
{
	size_t len = strlen(p->src);
	uint32_t opts = p->opts;
	/* Under the utf8 rules the script matches the decoded pattern, so a
	 * non-ASCII one has Unicode semantics on ASCII paths too: "fooé?"
	 * covers "foo" (checked with Linux 6.12's script).  Its "byte" form
	 * is then the Unicode one, which gives the same answers on ASCII. */
	if (p->utf8)
		for (size_t i = 0; i < len; i++)
			if ((unsigned char)p->src[i] >= 0x80) {
				opts |= PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF;
				break;
			}
	if (!p->re)
		p->re = pcre2_compile((PCRE2_SPTR)p->src, len, opts, errcode, off, NULL);
	if (p->re && p->utf8 && !p->re_uni)
		p->re_uni = pcre2_compile((PCRE2_SPTR)p->src, len,
					  p->opts | PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF,
					  errcode, off, NULL);
	return p->re && (!p->utf8 || p->re_uni);
}

/*
 * Perl compiles the interpolated pattern of m@^$pattern@ and m/$value/x
 * without the string-level escapes \Q \E \L \U \l \u \F, and passes an
 * escaped letter it does not know through as that letter: "\Qa.b\E" is
 * "Qa.bE", "ab/\E{0}" is "ab/E{0}", "\i" is "i" (perl 5.36).  PCRE2 would
 * quote with \Q..\E, ignore a lone \E and reject the others, so those
 * backslashes are dropped (in place; an escaped backslash stays).  The
 * prefix and required-literal scans still see the backslash and stop.
 */
static void perl_letter_escapes(char *re)
{
	char *w = re;
	for (const char *r = re; *r; r++) {
		if (r[0] == '\\' && r[1] && strchr("EFIJLMOQTUYijlmquy", r[1]))
			continue; /* drop the backslash, the letter follows */
		*w++ = *r;
		if (r[0] == '\\' && r[1])
			*w++ = *++r;
	}
	*w = '\0';
}

int mev_pattern_compile(mev_pattern *p, char type, const char *regex, int utf8,
			const char **err, size_t *erroff, char *errbuf, size_t errbuf_size)
{
	size_t len = strlen(regex);
	char *anch = NULL;
	int errcode = 0, rc;
	PCRE2_SIZE off = 0;
	uint32_t opts;

	memset(p, 0, sizeof *p);
	p->type = (uint8_t)type;
	*err = NULL;
	if (type == 'F' || type == 'X') {
		p->trailing = len && regex[len - 1] == '/';
		for (size_t i = 0; i < len; i++)
			p->slashes += regex[i] == '/';
	}
	if ((type == 'F' || type == 'X') && (rc = to_glob(p, regex, len, utf8)) < 0)
		return rc;
	if (type == 'N') {
		anch = strdup(regex);
		opts = PCRE2_EXTENDED;
	} else {
		anch = malloc(len + 2);
		if (anch) {
			anch[0] = '^';
			memcpy(anch + 1, regex, len + 1);
		}
		opts = 0;
	}
	if (!anch)
		return mev_error_oom();
	perl_letter_escapes(anch);
	p->src = anch;
	p->opts = opts;
	p->utf8 = (uint8_t)utf8;
	/* A glob is a valid regex by construction: its PCRE2 form (used by the
	 * reference matcher and for paths with a newline) is compiled lazily.
	 * Anything else is compiled now, to report an invalid one. */
	if (p->kind != MEV_PAT_GLOB) {
		if (!compile_re(p, &errcode, &off)) {
			pcre2_get_error_message(errcode, (PCRE2_UCHAR *)errbuf, errbuf_size);
			*err = errbuf;
			*erroff = off > 0 && type != 'N' ? off - 1 : off;
			mev_pattern_free(p);
			p->kind = MEV_PAT_NEVER;
			p->type = (uint8_t)type;
			return 0;
		}
		/* N: patterns run on many paths: worth a JIT compile */
		if (type == 'N' && pcre2_jit_compile(p->re, PCRE2_JIT_COMPLETE) == 0)
			p->jit = 1;
		p->kind = MEV_PAT_PCRE;
	}

	if (type == 'N') {
		char *buf = malloc(len + 1);
		if (!buf)
			return mev_error_oom();
		p->must_len = regex_must(regex, len, buf);
		p->must = buf;
	} else {
		char *buf = malloc(len + 1);
		if (!buf)
			return mev_error_oom();
		if (p->kind == MEV_PAT_GLOB) {
			size_t n = 0;
			while (n < p->nops && p->ops[n] < 256) {
				buf[n] = (char)p->ops[n];
				n++;
			}
			p->prefix_len = n;
		} else {
			p->prefix_len = regex_prefix(regex, len, buf);
		}
		p->prefix = buf;
	}
	return 0;
}

void mev_pattern_free(mev_pattern *p)
{
	free(p->ops);
	free(p->prefix);
	free(p->must);
	free(p->src);
	p->src = NULL;
	pcre2_code_free(p->re);
	pcre2_code_free(p->re_uni);
	p->ops = NULL;
	p->prefix = p->must = NULL;
	p->re = p->re_uni = NULL;
}

/* Fixed-length segment of a glob program at s (no '\n' in the path). */
static int seg_at(const uint16_t *ops, size_t n, const unsigned char *s)
{
	for (size_t i = 0; i < n; i++)
		if (ops[i] != MEV_OP_ANY && ops[i] != s[i])
			return 0;
	return 1;
}

/*
 * "^" + glob, no end anchor: the first segment must match at 0; every later
 * segment is searched leftmost after the previous one (fixed-length
 * segments make the leftmost choice optimal).
 */
static int glob_match(const mev_pattern *p, const unsigned char *s, size_t len)
{
	const uint16_t *ops = p->ops;
	size_t n = p->nops, i = 0, pos = 0;
	int first = 1;
	while (i < n) {
		size_t j = i;
		if (ops[i] == MEV_OP_STAR) {
			i++;
			first = 0;
			continue;
		}
		while (j < n && ops[j] != MEV_OP_STAR)
			j++;
		if (first) {
			if (len < j - i || !seg_at(ops + i, j - i, s))
				return 0;
			pos = j - i;
		} else {
			size_t sl = j - i, q;
			if (len < sl)
				return 0;
			for (q = pos; q + sl <= len; q++)
				if (seg_at(ops + i, sl, s + q))
					break;
			if (q + sl > len)
				return 0;
			pos = q + sl;
		}
		first = 0;
		i = j;
	}
	return 1;
}

static int pcre_run(mev_pattern *p, pcre2_match_data *md, pcre2_match_context *mc,
		    const char *path, size_t len, int ascii, const char *upath, size_t ulen)
{
	int r, errcode;
	PCRE2_SIZE off;
	if (!p->re && !compile_re(p, &errcode, &off))
		return 0; /* cannot happen for a glob; be safe */
	if (!ascii && p->re_uni)
		r = pcre2_match(p->re_uni, (PCRE2_SPTR)upath, ulen, 0, 0, md, mc);
	else if (p->jit)
		r = pcre2_jit_match(p->re, (PCRE2_SPTR)path, len, 0, 0, md, mc);
	else
		r = pcre2_match(p->re, (PCRE2_SPTR)path, len, 0, 0, md, mc);
	if (r >= 0)
		return 1;
	if (r == PCRE2_ERROR_NOMATCH)
		return 0;
	return -1; /* match or depth limit: Perl would grind on; we give up */
}

int mev_pattern_match_pcre(mev_pattern *p, pcre2_match_data *md, pcre2_match_context *mc,
			   const char *path, size_t len, uint32_t slashes, int ascii,
			   const char *upath, size_t ulen)
{
	int r;
	if (p->kind == MEV_PAT_NEVER)
		return 0;
	r = pcre_run(p, md, mc, path, len, ascii, upath, ulen);
	if (r <= 0 || p->type == 'N' || p->trailing)
		return r;
	return slashes == p->slashes;
}

int mev_pattern_match(mev_pattern *p, pcre2_match_data *md, pcre2_match_context *mc,
		      const char *path, size_t len, uint32_t slashes, int ascii, int has_nl,
		      const char *upath, size_t ulen)
{
	/* Under the utf8 rules a path is read as ISO-8859-1, one character a
	 * byte, so the (ASCII-only) glob program is exact for any path. */
	if (p->kind == MEV_PAT_GLOB && !has_nl) {
		if (!p->trailing && slashes != p->slashes)
			return 0;
		return glob_match(p, (const unsigned char *)path, len);
	}
	if (p->kind == MEV_PAT_NEVER)
		return 0;
	if ((p->type == 'F' || p->type == 'X') && !p->trailing && slashes != p->slashes)
		return 0;
	return mev_pattern_match_pcre(p, md, mc, path, len, slashes, ascii, upath, ulen);
}
