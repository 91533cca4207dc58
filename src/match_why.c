/*
 * Why a path is in a section or not, and which lines match no path at all:
 * the matcher's decisions spelled out line by line.  Every test runs the
 * compiled patterns of pattern.c through mev__pattern_match(), the very
 * call the matcher makes, so the answer is the matcher's (and the
 * script's); only the "prefix but not the depth" answer is asked for on
 * top, by handing the pattern its own '/' count.
 */
#include "maintevo/match.h"
#include "maintevo/error.h"
#include "pattern.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

/* The matcher's limits (match.c): the same budget, the same answers. */
enum { MATCH_LIMIT = 1000000, DEPTH_LIMIT = 10000 };
#define PATTERN_BUDGET 10000000ULL

const char *mev_why_rule_name(mev_why_rule r)
{
	static const char *const names[] = { "none", "depth", "same-depth", "any-depth",
					     "regex", "invalid", "budget" };
	return (unsigned)r < sizeof names / sizeof *names ? names[r] : "none";
}

const char *mev_why_verdict_name(mev_why_verdict v)
{
	static const char *const names[] = { "out", "near", "excluded", "in" };
	return (unsigned)v < sizeof names / sizeof *names ? names[v] : "out";
}

/* A path as mev__pattern_match() takes it, and the buffer of its UTF-8 form. */
typedef struct {
	mev__pattern_subject p;
	mev_buf u;
} subject;

static int subject_set(subject *sj, const char *s, size_t len)
{
	return mev__pattern_subject_set(&sj->p, &sj->u, s, len);
}

/* The pattern on the path, with the path's '/' count given as `slashes`:
 * 1, 0, or -1 when it ran out of its budget. */
static int run(mev__pattern *p, mev__pattern_scratch *sc, const subject *sj, uint32_t slashes)
{
	const mev__pattern_subject *q = &sj->p;
	return mev__pattern_match(p, sc, q->s, q->len, slashes, q->ascii, q->has_nl, q->u, q->ulen);
}

/* The rule of one compiled line on the path. */
static mev_why_rule rule_of(mev__pattern *p, mev__pattern_scratch *sc, const subject *sj)
{
	int r;
	if (p->kind == MEV__PAT_NEVER)
		return MEV_WHY_INVALID;
	if (p->type == 'N') {
		r = run(p, sc, sj, sj->p.slashes);
		return r < 0 ? MEV_WHY_BUDGET : r ? MEV_WHY_REGEX : MEV_WHY_NONE;
	}
	/* its own '/' count passes the depth test: what is left is the prefix */
	r = run(p, sc, sj, p->slashes);
	if (r <= 0)
		return r < 0 ? MEV_WHY_BUDGET : MEV_WHY_NONE;
	if (p->trailing)
		return MEV_WHY_ANY_DEPTH;
	return sj->p.slashes == p->slashes ? MEV_WHY_SAME_DEPTH : MEV_WHY_DEPTH;
}

static int compile(mev__pattern *pat, const mev_why_pattern *p, int utf8)
{
	char errbuf[256];
	const char *err;
	size_t off;
	if (!p->regex) {
		memset(pat, 0, sizeof *pat);
		pat->kind = MEV__PAT_NEVER;
		pat->type = (uint8_t)p->type;
		return 0;
	}
	return mev__pattern_compile(pat, p->type, p->regex, utf8, &err, &off, errbuf, sizeof errbuf);
}

/* The section verdicts from the line rules (match.c: X: first, then F:, N:). */
static void verdicts_of(uint8_t *verdicts, const mev_why_rule *rules, const mev_why_pattern *p,
			size_t n, uint32_t nsections)
{
	/* per section: bit 0 an F/N match, bit 1 an X match, bit 2 a near miss */
	memset(verdicts, 0, nsections);
	for (size_t i = 0; i < n; i++) {
		uint32_t s = p[i].section;
		if (s >= nsections)
			continue;
		if (MEV_WHY_MATCHES(rules[i]))
			verdicts[s] |= p[i].type == 'X' ? 2 : 1;
		else if (rules[i] == MEV_WHY_DEPTH)
			verdicts[s] |= 4;
	}
	for (uint32_t s = 0; s < nsections; s++) {
		uint8_t b = verdicts[s];
		verdicts[s] = (b & 1) ? ((b & 2) ? MEV_WHY_EXCLUDED : MEV_WHY_IN)
				      : (b & 6) ? MEV_WHY_NEAR : MEV_WHY_OUT;
	}
}

int mev_match_why(mev_why_rule *rules, uint8_t *verdicts, const mev_why_pattern *p, size_t n,
		  uint32_t nsections, int utf8, const char *path, size_t len, int is_dir)
{
	mev__pattern_scratch *sc = NULL;
	mev_buf b = MEV_BUF_INIT;
	subject sj = { 0 };
	int rc;
	if ((rc = mev__pattern_scratch_new(&sc, MATCH_LIMIT, DEPTH_LIMIT, PATTERN_BUDGET)))
		return rc;
	if (mev__buf_put(&b, path, len) || (is_dir && mev__buf_putc(&b, '/')) ||
	    (b.len == 0 && mev__buf_grow(&b, 1))) {
		rc = mev_error_oom();
		goto done;
	}
	if ((rc = subject_set(&sj, b.ptr, b.len)))
		goto done;
	for (size_t i = 0; i < n && !rc; i++) {
		mev__pattern pat;
		if ((rc = compile(&pat, &p[i], utf8)))
			break;
		rules[i] = rule_of(&pat, sc, &sj);
		mev__pattern_free(&pat);
	}
	if (!rc && verdicts)
		verdicts_of(verdicts, rules, p, n, nsections);
done:
	mev__buf_free(&sj.u);
	mev__buf_free(&b);
	mev__pattern_scratch_free(sc);
	return rc;
}

/* The first of the sorted paths that is >= key (bytewise, shorter first). */
static size_t lower_bound(const char *const *paths, const size_t *lens, size_t n, const char *key,
			  size_t klen)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, m = lens[mid] < klen ? lens[mid] : klen;
		int c = memcmp(paths[mid], key, m);
		if (c < 0 || (c == 0 && lens[mid] < klen))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* How line `pat` fares on the paths: 0, 1 or 2 (mev_match_pattern_use()). */
static int use_of(mev__pattern *pat, mev__pattern_scratch *sc, subject *sj,
		  const char *const *paths, const size_t *lens, size_t npaths)
{
	size_t i = 0, plen = pat->type == 'N' ? 0 : pat->prefix_len;
	int best = 0;
	if (pat->kind == MEV__PAT_NEVER)
		return 0;
	/* every match starts with the literal prefix: only that range is tried */
	if (plen)
		i = lower_bound(paths, lens, npaths, pat->prefix, plen);
	for (; i < npaths && best < 2; i++) {
		mev_why_rule r;
		if (plen && (lens[i] < plen || memcmp(paths[i], pat->prefix, plen)))
			break;
		if (pat->type == 'N' && pat->must_len &&
		    !memmem(paths[i], lens[i], pat->must, pat->must_len))
			continue;
		if (subject_set(sj, paths[i], lens[i]))
			return -1;
		r = rule_of(pat, sc, sj);
		if (MEV_WHY_MATCHES(r))
			best = 2;
		else if (r == MEV_WHY_DEPTH)
			best = 1;
		else if (r == MEV_WHY_BUDGET)
			break;
	}
	return best;
}

int mev_match_pattern_use(uint8_t *use, const mev_why_pattern *p, size_t n, int utf8,
			  const char *const *paths, const size_t *lens, size_t npaths)
{
	mev__pattern_scratch *sc = NULL;
	subject sj = { 0 };
	int rc;
	if ((rc = mev__pattern_scratch_new(&sc, MATCH_LIMIT, DEPTH_LIMIT, PATTERN_BUDGET)))
		return rc;
	for (size_t i = 0; i < n && !rc; i++) {
		mev__pattern pat;
		int u;
		if ((rc = compile(&pat, &p[i], utf8)))
			break;
		u = use_of(&pat, sc, &sj, paths, lens, npaths);
		mev__pattern_free(&pat);
		if (u < 0)
			rc = mev_error_oom();
		else
			use[i] = (uint8_t)u;
	}
	mev__buf_free(&sj.u);
	mev__pattern_scratch_free(sc);
	return rc;
}
