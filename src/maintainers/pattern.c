/*
 * Compiling and matching get_maintainer.pl patterns.  Most F:/X: regexes are
 * made only of literal bytes, "\." , "." and ".*" (the script's glob
 * conversion); those run as a tiny glob program.  Everything else goes to
 * PCRE2, which follows Perl closely enough for these patterns.  Literal
 * prefixes (F/X) and required substrings (N) feed the matcher's index.
 */
#include "maintainers_internal.h"
#include "maintevo/error.h"
#include "util/text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/* Glob program ops: a literal byte (0..255), any byte but '\n', or ".*". */
enum { OP_ANY = 256, OP_STAR = 257 };

/* The regex as PCRE2 runs it. */
struct mev__pattern_re {
	pcre2_code *byte;      /* byte semantics (compiled lazily for globs) */
	pcre2_code *uni;       /* Unicode semantics, for non-ASCII paths (utf8 rules) */
	uint32_t opts;         /* PCRE2 options of the byte form */
	uint8_t utf8;          /* the utf8 rules are in effect */
	uint8_t jit;           /* byte is JIT-compiled */
	char src[];            /* the pattern text (F/X: "^" + regex) */
};

struct mev__pattern_scratch {
	pcre2_match_data *md;
	pcre2_match_context *mc;
	uint32_t match_limit;   /* of one match */
	uint64_t budget;        /* of one pattern over all its matches (0: none) */
};

/* PCRE2's own match limit (its default), and the work a match may do
 * before it is charged to the pattern's budget. */
enum { PCRE2_LIMIT = 10000000, FREE_UNITS = 1000 };

static int is_meta(unsigned char c)
{
	return strchr("\\.[](){}|+?*^$", c) != NULL && c;
}

/* Try to express a converted F/X regex as a glob program. */
static int to_glob(mev__pattern *p, const char *re, size_t len, int utf8)
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
			ops[n++] = OP_STAR;
			i++;
		} else if (c == '.') {
			ops[n++] = OP_ANY;
		} else if (is_meta(c) || (utf8 && c >= 0x80)) {
			free(ops);
			return 1; /* not a glob */
		} else {
			ops[n++] = c;
		}
	}
	p->ops = ops;
	p->nops = n;
	p->kind = MEV__PAT_GLOB;
	return 0;
}

/* Literal prefix of a PCRE-only F/X regex: conservative, "" when unsure. */
static size_t prefix_scan(const char *re, size_t len, char *out);

static size_t regex_prefix(const char *re, size_t len, char *out)
{
	if (memchr(re, '|', len) || strstr(re, "(?") || strstr(re, "\\Q"))
		return 0;
	return prefix_scan(re, len, out);
}

/* The literal bytes re[0..len) starts with, up to its first meta character. */
static size_t prefix_scan(const char *re, size_t len, char *out)
{
	size_t n = 0, i = 0;
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
 * The index of the ']' that closes the bracket class opening at re[k] (a
 * leading '^' and a leading ']' belong to the class; an escape is two
 * bytes), or len or more when it is not closed.
 */
static size_t class_close(const char *re, size_t len, size_t k)
{
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
	return k;
}

/*
 * The scans of regex_must() take every escape for two bytes.  Those with
 * arguments (\x41, \101, \1, \c!, \o{..}, \p{L}, \g{1}, \k<n>, \N{..}), in
 * classes too, break that: their arguments are not the literals they look
 * like ("41" is not required by \x41) and can hide a ']', '#' or ')'
 * ("[\c]#]|x").  POSIX classes ("[[:alpha:])]") likewise end a class later
 * than the scans think.  0 when the regex holds any of them.
 */
static int escapes_plain(const char *re, size_t len)
{
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
	return 1;
}

/* 1 when the regex has no top-level alternation and no group other than
 * lookarounds (those are zero width: the scan skips them whole). */
static int groups_plain(const char *re, size_t len)
{
	int depth = 0;
	for (size_t k = 0; k < len; k++) {
		char c = re[k];
		if (c == '\\') {
			k++;
		} else if (c == '[') {
			k = class_close(re, len, k);
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
	return 1;
}

/* The index of the ')' closing the lookaround that opens at re[i]. */
static size_t group_close(const char *re, size_t len, size_t i)
{
	int d = 0;
	size_t j;
	for (j = i; j < len; j++) {
		if (re[j] == '\\') {
			j++;
			continue;
		}
		if (re[j] == '[') {
			/* a ')' in a class does not close the lookaround:
			 * "(?![)]xyz)abc" does not require "xyz" */
			j = class_close(re, len, j);
			continue;
		}
		if (re[j] == '(')
			d++;
		else if (re[j] == ')' && --d == 0)
			break;
	}
	return j;
}

/*
 * The atom of a /x regex at re[i] (not white space, not '#'): returns its
 * length, and *lit its byte when it is a literal (*is_lit 1).
 */
static size_t next_atom(const char *re, size_t len, size_t i, int *is_lit, unsigned char *lit)
{
	unsigned char c = (unsigned char)re[i];
	*is_lit = 0;
	if (c == '\\' && i + 1 < len) {
		unsigned char d = (unsigned char)re[i + 1];
		if (!isalnum(d) && d < 0x80) {
			*lit = d;
			*is_lit = 1;
		}
		return 2;
	}
	if (c == '[')
		return class_close(re, len, i) + 1 - i;
	if (c == '(')
		return group_close(re, len, i) + 1 - i; /* a lookaround: zero width */
	if (is_meta(c) || c >= 0x80)
		return 1;
	*lit = c;
	*is_lit = 1;
	return 1;
}

/* The longest run of literals found so far. */
typedef struct {
	char run[4096];
	size_t rl;
	char *best;
	size_t bl;
} lit_runs;

static void end_run(lit_runs *r)
{
	if (r->rl > r->bl) {
		memcpy(r->best, r->run, r->rl);
		r->bl = r->rl;
	}
	r->rl = 0;
}

static void add_lit(lit_runs *r, unsigned char lit)
{
	if (r->rl < sizeof r->run)
		r->run[r->rl++] = (char)lit;
}

/*
 * A literal that every match of an N: regex (Perl /x) must contain, or ""
 * when the regex is too clever for this scan: alternation, groups other
 * than lookarounds, \Q, inline flags, escapes with arguments, POSIX
 * classes.  White space and #-comments are skipped as /x does; quantified
 * atoms end a run.
 */
static size_t regex_must(const char *re, size_t len, char *best)
{
	lit_runs r = { .best = best };
	size_t i = 0;

	if (!escapes_plain(re, len) || !groups_plain(re, len))
		return 0;
	while (i < len) {
		unsigned char c = (unsigned char)re[i], lit = 0;
		int is_lit;
		size_t j;
		if (isspace(c)) {
			i++;
			continue;
		}
		if (c == '#')
			break;
		i += next_atom(re, len, i, &is_lit, &lit);
		/* look for a quantifier after the atom (white space allowed in /x) */
		j = i;
		while (j < len && isspace((unsigned char)re[j]))
			j++;
		if (j < len && strchr("?*{", re[j])) {
			end_run(&r);
			/* skip a {n,m} quantifier whole: its digits are not
			 * literals of the match ("x{2}" does not require "2") */
			if (re[j] == '{') {
				const char *close = memchr(re + j, '}', len - j);
				i = close ? (size_t)(close - re) + 1 : len;
			}
			continue;
		}
		if (j < len && re[j] == '+') {
			if (is_lit)
				add_lit(&r, lit);
			end_run(&r);
			i = j + 1;
			continue;
		}
		if (is_lit)
			add_lit(&r, lit);
		else
			end_run(&r);
	}
	end_run(&r);
	return r.bl;
}

/* Compile re->src (and its Unicode form under the utf8 rules); 0 on error. */
static int compile_re(mev__pattern_re *re, int *errcode, PCRE2_SIZE *off)
{
	size_t len = strlen(re->src);
	uint32_t opts = re->opts;
	/* Under the utf8 rules the script matches the decoded pattern, so a
	 * non-ASCII one has Unicode semantics on ASCII paths too: "fooé?"
	 * covers "foo" (checked with Linux 6.12's script).  Its "byte" form
	 * is then the Unicode one, which gives the same answers on ASCII. */
	if (re->utf8)
		for (size_t i = 0; i < len; i++)
			if ((unsigned char)re->src[i] >= 0x80) {
				opts |= PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF;
				break;
			}
	if (!re->byte)
		re->byte = pcre2_compile((PCRE2_SPTR)re->src, len, opts, errcode, off, NULL);
	if (re->byte && re->utf8 && !re->uni)
		re->uni = pcre2_compile((PCRE2_SPTR)re->src, len,
					re->opts | PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF,
					errcode, off, NULL);
	return re->byte && (!re->utf8 || re->uni);
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

/* The PCRE2 form of a pattern: F/X "^" + regex, N the value under /x;
 * a raw one as it is. */
static mev__pattern_re *re_new(char type, const char *regex, size_t len, int utf8, int raw)
{
	int anchor = type != 'N' && !raw;
	mev__pattern_re *re = calloc(1, sizeof *re + len + 2);
	if (!re)
		return NULL;
	if (anchor)
		re->src[0] = '^';
	memcpy(re->src + anchor, regex, len + 1);
	perl_letter_escapes(re->src);
	re->opts = type == 'N' && !raw ? PCRE2_EXTENDED : 0;
	re->utf8 = (uint8_t)utf8;
	return re;
}

static void re_free(mev__pattern_re *re)
{
	if (!re)
		return;
	pcre2_code_free(re->byte);
	pcre2_code_free(re->uni);
	free(re);
}

/* The literal the index files the pattern under: F/X prefix, N required. */
static int index_literal(mev__pattern *p, const char *regex, size_t len)
{
	char *buf = malloc(len + 1);
	if (!buf)
		return mev_error_oom();
	if (p->raw) {
		/* searched: a literal prefix only when anchored, up to a lookahead */
		size_t n = 0;
		if (len && regex[0] == '^') {
			const char *la = strstr(regex, "(?!"), *lb = strstr(regex, "(?=");
			size_t cut = len - 1;
			if (la && (size_t)(la - regex) - 1 < cut)
				cut = (size_t)(la - regex) - 1;
			if (lb && (size_t)(lb - regex) - 1 < cut)
				cut = (size_t)(lb - regex) - 1;
			if (!memchr(regex, '|', len) && !memmem(regex, cut + 1, "(?", 2) &&
			    !memmem(regex, cut + 1, "\\Q", 2))
				n = prefix_scan(regex + 1, cut, buf);
		}
		p->prefix_len = n;
		p->prefix = buf;
		return 0;
	}
	if (p->type == 'N') {
		p->must_len = regex_must(regex, len, buf);
		p->must = buf;
		return 0;
	}
	if (p->kind == MEV__PAT_GLOB) {
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
	return 0;
}

int mev__pattern_compile(mev__pattern *p, char type, const char *regex, unsigned mode,
			 const char **err, size_t *erroff, char *errbuf, size_t errbuf_size)
{
	size_t len = strlen(regex);
	int errcode = 0, rc, utf8 = (mode & MEV__PAT_UTF8) != 0, raw = (mode & MEV__PAT_RAW) != 0;
	PCRE2_SIZE off = 0;

	memset(p, 0, sizeof *p);
	p->type = (uint8_t)type;
	p->raw = (uint8_t)raw;
	*err = NULL;
	if ((type == 'F' || type == 'X') && !raw) {
		p->trailing = len && regex[len - 1] == '/';
		for (size_t i = 0; i < len; i++)
			p->slashes += regex[i] == '/';
		if ((rc = to_glob(p, regex, len, utf8)) < 0)
			return rc;
	}
	/* a Zephyr glob: PCRE2 still compiled (the reference matcher's), the
	 * program used for the paths it is exact for */
	if ((type == 'F' || type == 'X') && raw &&
	    (rc = mev__segglob_compile(&p->ops, &p->nops, regex, len, utf8)) < 0)
		return rc;
	if (!(p->re = re_new(type, regex, len, utf8, raw)))
		return mev_error_oom();
	/* A glob is a valid regex by construction: its PCRE2 form (used by the
	 * reference matcher and for paths with a newline) is compiled lazily.
	 * Anything else is compiled now, to report an invalid one. */
	if (p->kind != MEV__PAT_GLOB) {
		if (!compile_re(p->re, &errcode, &off)) {
			pcre2_get_error_message(errcode, (PCRE2_UCHAR *)errbuf, errbuf_size);
			*err = errbuf;
			*erroff = off > 0 && type != 'N' && !raw ? off - 1 : off;
			mev__pattern_free(p);
			p->kind = MEV__PAT_NEVER;
			p->type = (uint8_t)type;
			p->raw = (uint8_t)raw;
			return 0;
		}
		/* N: patterns run on many paths: worth a JIT compile */
		if ((type == 'N' || raw) && pcre2_jit_compile(p->re->byte, PCRE2_JIT_COMPLETE) == 0)
			p->re->jit = 1;
		p->kind = MEV__PAT_PCRE;
	}
	return index_literal(p, regex, len);
}

int mev__pattern_subject_set(mev__pattern_subject *sj, mev_buf *ubuf, const char *s, size_t len)
{
	memset(sj, 0, sizeof *sj);
	sj->s = s;
	sj->len = len;
	sj->ascii = 1;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		sj->slashes += c == '/';
		sj->has_nl |= c == '\n';
		sj->ascii &= c < 0x80;
	}
	if (sj->ascii)
		return 0;
	mev__buf_clear(ubuf);
	if (mev__latin1_to_utf8(ubuf, s, len))
		return mev_error_oom();
	sj->u = ubuf->ptr;
	sj->ulen = ubuf->len;
	return 0;
}

void mev__pattern_free(mev__pattern *p)
{
	free(p->ops);
	free(p->prefix);
	free(p->must);
	re_free(p->re);
	p->ops = NULL;
	p->prefix = p->must = NULL;
	p->re = NULL;
}

int mev__pattern_scratch_new(mev__pattern_scratch **out, uint32_t match_limit,
			     uint32_t depth_limit, uint64_t budget)
{
	mev__pattern_scratch *sc = calloc(1, sizeof *sc);
	*out = NULL;
	if (!sc)
		return mev_error_oom();
	sc->md = pcre2_match_data_create(1, NULL);
	sc->mc = pcre2_match_context_create(NULL);
	if (!sc->md || !sc->mc) {
		mev__pattern_scratch_free(sc);
		return mev_error_oom();
	}
	sc->match_limit = match_limit ? match_limit : PCRE2_LIMIT;
	sc->budget = budget;
	if (depth_limit)
		pcre2_set_depth_limit(sc->mc, depth_limit);
	*out = sc;
	return 0;
}

void mev__pattern_scratch_free(mev__pattern_scratch *sc)
{
	if (!sc)
		return;
	pcre2_match_data_free(sc->md);
	pcre2_match_context_free(sc->mc);
	free(sc);
}

/* Fixed-length segment of a glob program at s (no '\n' in the path). */
static int seg_at(const uint16_t *ops, size_t n, const unsigned char *s)
{
	for (size_t i = 0; i < n; i++)
		if (ops[i] != OP_ANY && ops[i] != s[i])
			return 0;
	return 1;
}

/*
 * "^" + glob, no end anchor: the first segment must match at 0; every later
 * segment is searched leftmost after the previous one (fixed-length
 * segments make the leftmost choice optimal).
 */
static int glob_match(const mev__pattern *p, const unsigned char *s, size_t len)
{
	const uint16_t *ops = p->ops;
	size_t n = p->nops, i = 0, pos = 0;
	int first = 1;
	while (i < n) {
		size_t j = i;
		if (ops[i] == OP_STAR) {
			i++;
			first = 0;
			continue;
		}
		while (j < n && ops[j] != OP_STAR)
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

/* One PCRE2 run of at most `limit` units: 1, 0, or PCRE2's error. */
static int pcre_once(mev__pattern_re *re, mev__pattern_scratch *sc, const char *path, size_t len,
		     int ascii, const char *upath, size_t ulen, uint32_t limit)
{
	int r;
	pcre2_set_match_limit(sc->mc, limit);
	if (!ascii && re->uni)
		r = pcre2_match(re->uni, (PCRE2_SPTR)upath, ulen, 0, 0, sc->md, sc->mc);
	else if (re->jit)
		r = pcre2_jit_match(re->byte, (PCRE2_SPTR)path, len, 0, 0, sc->md, sc->mc);
	else
		r = pcre2_match(re->byte, (PCRE2_SPTR)path, len, 0, 0, sc->md, sc->mc);
	return r >= 0 ? 1 : r == PCRE2_ERROR_NOMATCH ? 0 : r;
}

/*
 * A PCRE2 match under the pattern's budget.  A run of up to FREE_UNITS
 * units (PCRE2's match limit) costs nothing; past that the match is run
 * again under limits ten times higher, each failed run charging the
 * pattern the units it spent.  A pattern whose charges reach the budget,
 * or whose match runs past the scratch's match limit (or into another
 * PCRE2 limit), is exhausted: -1 now, and no match from then on.  A real
 * pattern never comes near (docs/matching.md); a catastrophic one such as
 * "^(([a-z])+.)+[A-Z]([a-z])+$" is stopped after at most about 11 budgets'
 * work, plus FREE_UNITS a path.  All deterministic: units, not time.
 */
static int pcre_run(mev__pattern *p, mev__pattern_scratch *sc, const char *path, size_t len,
		    int ascii, const char *upath, size_t ulen)
{
	mev__pattern_re *re = p->re;
	uint64_t limit = sc->budget && FREE_UNITS < sc->match_limit ? FREE_UNITS : sc->match_limit;
	int errcode;
	PCRE2_SIZE off;
	if (!re->byte && !compile_re(re, &errcode, &off))
		return 0; /* cannot happen for a glob; be safe */
	for (;;) {
		int r = pcre_once(re, sc, path, len, ascii, upath, ulen, (uint32_t)limit);
		if (r >= 0)
			return r;
		p->spent += limit;
		if (r != PCRE2_ERROR_MATCHLIMIT || limit >= sc->match_limit || !sc->budget ||
		    p->spent >= sc->budget) {
			p->exhausted = 1;   /* Perl would grind on; we give up */
			return -1;
		}
		limit *= 10;
		if (limit > sc->match_limit)
			limit = sc->match_limit;
		if (limit > sc->budget - p->spent)
			limit = sc->budget - p->spent;
	}
}

int mev__pattern_match_pcre(mev__pattern *p, mev__pattern_scratch *sc, const char *path,
			    size_t len, uint32_t slashes, int ascii, const char *upath, size_t ulen)
{
	int r;
	if (p->kind == MEV__PAT_NEVER || p->exhausted)
		return 0;
	r = pcre_run(p, sc, path, len, ascii, upath, ulen);
	if (r <= 0 || p->type == 'N' || p->trailing || p->raw)
		return r;
	return slashes == p->slashes;
}

int mev__pattern_match(mev__pattern *p, mev__pattern_scratch *sc, const char *path, size_t len,
		       uint32_t slashes, int ascii, int has_nl, const char *upath, size_t ulen)
{
	/* Under the utf8 rules a path is read as ISO-8859-1, one character a
	 * byte, so the (ASCII-only) glob program is exact for any path. */
	if (p->kind == MEV__PAT_GLOB && !has_nl) {
		if (!p->trailing && slashes != p->slashes)
			return 0;
		return glob_match(p, (const unsigned char *)path, len);
	}
	if (p->kind == MEV__PAT_NEVER)
		return 0;
	if (p->raw && p->ops && !has_nl)
		return mev__segglob_match(p->ops, p->nops, (const unsigned char *)path, len);
	if ((p->type == 'F' || p->type == 'X') && !p->trailing && !p->raw && slashes != p->slashes)
		return 0;
	return mev__pattern_match_pcre(p, sc, path, len, slashes, ascii, upath, ulen);
}

/* --- substitution --------------------------------------------------------- */

int mev__pattern_subst(mev_buf *v, const char *re, const char *rep, int repeat)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
	pcre2_match_data *md;
	mev_buf out = MEV_BUF_INIT;
	int rc = 0;
	if (!code)
		return 0;
	md = pcre2_match_data_create_from_pattern(code, NULL);
	for (int round = 0; md && round < 10000; round++) {
		PCRE2_SIZE outlen;
		int n;
		if (!out.ptr && (rc = mev__buf_grow(&out, v->len * 2 + 64)))
			break;
		outlen = out.cap - 1;
		n = pcre2_substitute(code, (PCRE2_SPTR)v->ptr, v->len, 0,
				     PCRE2_SUBSTITUTE_GLOBAL | PCRE2_SUBSTITUTE_OVERFLOW_LENGTH |
				     PCRE2_SUBSTITUTE_UNSET_EMPTY,
				     md, NULL, (PCRE2_SPTR)rep, PCRE2_ZERO_TERMINATED,
				     (PCRE2_UCHAR *)out.ptr, &outlen);
		if (n == PCRE2_ERROR_NOMEMORY) {
			/* outlen now says how much room the result needs */
			if ((rc = mev__buf_grow(&out, outlen + 1)))
				break;
			round--;
			continue;
		}
		if (n <= 0)
			break;
		mev__buf_clear(v);
		if ((rc = mev__buf_put(v, out.ptr, outlen)) || !repeat)
			break;
	}
	mev__buf_free(&out);
	pcre2_match_data_free(md);
	pcre2_code_free(code);
	return rc;
}
