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
#include "maintainers/maintainers_shared.h"
#include "util/buf.h"
#include "util/strmap.h"

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
	if (p->type == 'N' || p->raw) {
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

/* How line `pat` fares on the paths: 0, 1 or 2 (mev_match_pattern_use()).
 * *wit (may be NULL) gets the path that decided it (for 2 the first that
 * matches, for 1 the first with the prefix), npaths for 0; *free_ (may be
 * NULL) whether every match stayed within the free units (no budget spent,
 * none ran out: then the answer is the same over any order of paths). */
static int use_of(mev__pattern *pat, mev__pattern_scratch *sc, subject *sj,
		  const char *const *paths, const size_t *lens, size_t npaths, size_t *wit, int *free_)
{
	size_t i = 0, plen = pat->type == 'N' ? 0 : pat->prefix_len, w = npaths;
	int best = 0, fr = 1;
	if (pat->kind == MEV__PAT_NEVER)
		goto done;
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
		if (MEV_WHY_MATCHES(r)) {
			best = 2;
			w = i;
		} else if (r == MEV_WHY_DEPTH) {
			if (!best)
				w = i;
			best = 1;
		} else if (r == MEV_WHY_BUDGET) {
			fr = 0;
			break;
		}
	}
done:
	if (wit)
		*wit = w;
	if (free_)
		*free_ = fr && !pat->spent && !pat->exhausted;
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
		u = use_of(&pat, sc, &sj, paths, lens, npaths, NULL, NULL);
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

/* --- the same, release after release ------------------------------------------- */

/* What a line (by type, the utf8 rules and regex) found the last time. */
typedef struct {
	uint8_t use;
	uint8_t keep;            /* every match was free: the answer can be carried on */
	char *witness;           /* the path that decided `use` (1, 2), as use_of() says */
	size_t wlen;
	char *prefix, *must;     /* the compiled line's literals (prefix_len 0: none) */
	size_t plen, mlen;
} memo_line;

struct mev_match_use_memo {
	mev_strmap idx;          /* key -> index in v */
	MEV_VEC(memo_line) v;
};

int mev_match_use_memo_new(mev_match_use_memo **out)
{
	*out = calloc(1, sizeof **out);
	if (!*out)
		return mev_error_oom();
	(*out)->idx = (mev_strmap)MEV_STRMAP_INIT;
	return 0;
}

static void memo_clear(mev_match_use_memo *m)
{
	for (size_t i = 0; i < m->v.n; i++) {
		free(m->v.v[i].witness);
		free(m->v.v[i].prefix);
		free(m->v.v[i].must);
	}
	MEV_VEC_FREE(&m->v);
	mev__strmap_free(&m->idx);
	m->idx = (mev_strmap)MEV_STRMAP_INIT;
}

void mev_match_use_memo_free(mev_match_use_memo *m)
{
	if (!m)
		return;
	memo_clear(m);
	free(m);
}

static char *dup_bytes(const char *s, size_t n)
{
	char *c = malloc(n + 1);
	if (c) {
		memcpy(c, s, n);
		c[n] = '\0';
	}
	return c;
}

/* Is `key` one of the sorted paths? */
static int has_path(const char *const *paths, const size_t *lens, size_t n, const char *key, size_t klen)
{
	size_t i = lower_bound(paths, lens, n, key, klen);
	return i < n && lens[i] == klen && memcmp(paths[i], key, klen) == 0;
}

/*
 * Line e's answer over all paths from its answer over the old ones (those
 * not `fresh`, which the last call saw) and a look at the fresh ones: the
 * old paths still give e->use when its witness is still there (0 needs
 * none), so only fresh paths can raise it.  use_of() stops at the first
 * match in path order, so for 2 only the fresh paths before the witness
 * count.  1 with *u set and e updated, 0 when the line must be tried on
 * all paths again (a match that was not free), -1 out of memory.
 */
static int carry(uint8_t *u, memo_line *e, const mev_why_pattern *p, int utf8, mev__pattern_scratch *sc,
		 subject *sj, const char *const *fp, const size_t *fl, size_t nf)
{
	size_t i = 0, end = nf, w;
	int best, fr, rc;
	mev__pattern pat;
	if (e->plen)
		i = lower_bound(fp, fl, nf, e->prefix, e->plen);
	if (e->use == 2)
		end = lower_bound(fp, fl, nf, e->witness, e->wlen);
	/* nothing fresh in the range: no need to compile the line */
	for (; i < end; i++) {
		if (e->plen && (fl[i] < e->plen || memcmp(fp[i], e->prefix, e->plen)))
			i = end;
		else if (!e->mlen || memmem(fp[i], fl[i], e->must, e->mlen))
			break;
	}
	if (i >= end) {
		*u = e->use;
		return 1;
	}
	if ((rc = compile(&pat, p, utf8)))
		return -1;
	best = use_of(&pat, sc, sj, fp + i, fl + i, end - i, &w, &fr);
	mev__pattern_free(&pat);
	if (best < 0)
		return -1;
	if (!fr)
		return 0;
	if (best > e->use || (best == 2 && e->use == 2)) {
		char *c = dup_bytes(fp[i + w], fl[i + w]);
		if (!c)
			return -1;
		free(e->witness);
		e->witness = c;
		e->wlen = fl[i + w];
		e->use = (uint8_t)best;
	}
	*u = e->use;
	return 1;
}

/* Line p tried on all paths, its answer kept in e. */
static int full(uint8_t *u, memo_line *e, const mev_why_pattern *p, int utf8, mev__pattern_scratch *sc,
		subject *sj, const char *const *paths, const size_t *lens, size_t npaths)
{
	mev__pattern pat;
	size_t w;
	int best, fr;
	if (compile(&pat, p, utf8))
		return -1;
	best = use_of(&pat, sc, sj, paths, lens, npaths, &w, &fr);
	memset(e, 0, sizeof *e);
	if (best >= 0) {
		e->use = (uint8_t)best;
		e->keep = (uint8_t)fr;
		if ((best && !(e->witness = dup_bytes(paths[w], lens[w]))) ||
		    (pat.prefix_len && pat.type != 'N' && !(e->prefix = dup_bytes(pat.prefix, pat.prefix_len))) ||
		    (pat.type == 'N' && pat.must_len && !(e->must = dup_bytes(pat.must, pat.must_len))))
			best = -1;
		e->wlen = best > 0 ? lens[w] : 0;
		e->plen = e->prefix ? pat.prefix_len : 0;
		e->mlen = e->must ? pat.must_len : 0;
	}
	mev__pattern_free(&pat);
	*u = (uint8_t)(best > 0 ? best : 0);
	return best < 0 ? -1 : 0;
}

int mev_match_pattern_use_since(uint8_t *use, const mev_why_pattern *p, size_t n, int utf8,
				const char *const *paths, const size_t *lens, size_t npaths,
				const uint8_t *fresh, mev_match_use_memo *memo)
{
	mev__pattern_scratch *sc = NULL;
	mev_match_use_memo next = { MEV_STRMAP_INIT, { 0 } };
	const char **fp = NULL;
	size_t *fl = NULL, nf = 0;
	mev_buf key = MEV_BUF_INIT;
	subject sj = { 0 };
	int rc;
	if ((rc = mev__pattern_scratch_new(&sc, MATCH_LIMIT, DEPTH_LIMIT, PATTERN_BUDGET)))
		return rc;
	if (fresh) {
		fp = malloc((npaths + 1) * sizeof *fp);
		fl = malloc((npaths + 1) * sizeof *fl);
		if (!fp || !fl)
			rc = mev_error_oom();
		for (size_t i = 0; !rc && i < npaths; i++)
			if (fresh[i]) {
				fp[nf] = paths[i];
				fl[nf++] = lens[i];
			}
	}
	for (size_t i = 0; i < n && !rc; i++) {
		memo_line e = { 0 }, *old;
		int64_t k;
		int done = 0;
		if (!p[i].regex) {
			use[i] = 0; /* never matches */
			continue;
		}
		key.len = 0;
		if (mev__buf_putc(&key, p[i].type) || mev__buf_putc(&key, (char)('0' + utf8)) ||
		    mev__buf_put(&key, p[i].regex, strlen(p[i].regex))) {
			rc = mev_error_oom();
			break;
		}
		/* a line repeated in this release: the same answer */
		if ((k = mev__strmap_get(&next.idx, key.ptr, key.len)) >= 0) {
			use[i] = next.v.v[k].use;
			continue;
		}
		if (fresh && (k = mev__strmap_get(&memo->idx, key.ptr, key.len)) >= 0 &&
		    (old = &memo->v.v[k])->keep &&
		    (!old->use || has_path(paths, lens, npaths, old->witness, old->wlen))) {
			e = *old;
			memset(old, 0, sizeof *old); /* moved */
			done = carry(&use[i], &e, &p[i], utf8, sc, &sj, fp, fl, nf);
			if (done < 0) {
				rc = mev_error_oom();
			} else if (!done) {
				free(e.witness);
				free(e.prefix);
				free(e.must);
				memset(&e, 0, sizeof e);
			}
		}
		if (!rc && !done && full(&use[i], &e, &p[i], utf8, sc, &sj, paths, lens, npaths))
			rc = mev_error_oom();
		if (!rc && (MEV_VEC_PUSH(&next.v, e) ||
			    mev__strmap_put(&next.idx, key.ptr, key.len, (uint32_t)(next.v.n - 1))))
			rc = mev_error_oom();
		if (rc) {
			free(e.witness);
			free(e.prefix);
			free(e.must);
		}
	}
	memo_clear(memo);
	if (rc)
		memo_clear(&next);
	else
		*memo = next;
	free(fp);
	free(fl);
	mev__buf_free(&key);
	mev__buf_free(&sj.u);
	mev__pattern_scratch_free(sc);
	return rc;
}
