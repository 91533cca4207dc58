/*
 * Unit tests of the matcher's "why" (mev_match_why) and of the per-line
 * use check (mev_match_pattern_use, and carried from one set of paths to
 * the next: mev_match_pattern_use_since): each rule with its verdict, then
 * the sections why says are in against mev_matcher_match() on random
 * patterns and paths; and a path as the script takes it
 * (mev_match_canonpath).
 */
#include "test.h"
#include "rng.h"
#include "maintevo/maintainers.h"
#include "maintevo/match.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdlib.h>


/* A parsed MAINTAINERS, its matcher and its lines as mev_match_why() takes them. */
typedef struct {
	mev_maint *maint;
	mev_matcher *m;
	mev_why_pattern *p;
	size_t n;
	mev_why_rule *rules;
	uint8_t *verdicts;
} fixture;

static int fixture_new(fixture *f, int utf8, const char *text)
{
	mev_maint_input in = { "MAINTAINERS", text, strlen(text) };
	mev_rules r;
	const mev_section *sec;
	const mev_field *fl;
	memset(f, 0, sizeof *f);
	mev_rules_default(&r, MEV_DIALECT_LINUX);
	r.utf8 = utf8 ? 1 : 0;
	CHECK_INT(mev_maint_parse(&f->maint, &r, &in, 1, NULL), 0);
	if (!f->maint)
		return -1;
	CHECK_INT(mev_matcher_new(&f->m, f->maint, 0), 0);
	sec = mev_maint_sections(f->maint);
	fl = mev_maint_fields(f->maint);
	f->p = calloc(mev_maint_field_count(f->maint) + 1, sizeof *f->p);
	f->rules = calloc(mev_maint_field_count(f->maint) + 1, sizeof *f->rules);
	f->verdicts = calloc(mev_maint_section_count(f->maint) + 1, 1);
	for (size_t s = 0; s < mev_maint_section_count(f->maint); s++)
		for (uint32_t k = 0; k < sec[s].field_count; k++) {
			const mev_field *x = &fl[sec[s].field_begin + k];
			if (x->type != 'F' && x->type != 'X' && x->type != 'N')
				continue;
			f->p[f->n].type = x->type;
			f->p[f->n].regex = x->regex;
			f->p[f->n++].section = (uint32_t)s;
		}
	return f->m ? 0 : -1;
}

static void fixture_free(fixture *f)
{
	mev_matcher_free(f->m);
	mev_maint_free(f->maint);
	free(f->p);
	free(f->rules);
	free(f->verdicts);
	memset(f, 0, sizeof *f);
}

/* "TITLE:verdict" of every section not out, then " | " and the rules of
 * its lines: "NET:in F=any-depth X=none". */
static const char *why(fixture *f, const char *path, int is_dir)
{
	static char out[1024];
	const mev_section *sec = mev_maint_sections(f->maint);
	size_t ns = mev_maint_section_count(f->maint), l = 0;
	out[0] = '\0';
	CHECK_INT(mev_match_why(f->rules, f->verdicts, f->p, f->n, (uint32_t)ns, 1, path, strlen(path),
				is_dir), 0);
	for (size_t s = 0; s < ns; s++) {
		if (f->verdicts[s] == MEV_WHY_OUT)
			continue;
		l += (size_t)snprintf(out + l, sizeof out - l, "%s%s:%s", l ? "; " : "", sec[s].title,
				      mev_why_verdict_name((mev_why_verdict)f->verdicts[s]));
		for (size_t i = 0; i < f->n; i++)
			if (f->p[i].section == s)
				l += (size_t)snprintf(out + l, sizeof out - l, " %c=%s", f->p[i].type,
						      mev_why_rule_name(f->rules[i]));
	}
	return out;
}

static const char *const text =
	"NET\n"
	"F:\tdrivers/net/\n"
	"X:\tdrivers/net/wireless/\n"
	"\n"
	"SERIAL8250\n"
	"F:\tdrivers/tty/serial/8250*\n"
	"\n"
	"ARM\n"
	"F:\tarch/arm/Kconfig\n"
	"\n"
	"STAGING\n"
	"F:\tstaging/\n"
	"X:\tstaging/bad/\n"
	"N:\tqcom\n"
	"\n"
	"BAD\n"
	"N:\t(unclosed\n"
	"\n"
	"XONLY\n"
	"F:\tlib/a.c\n"
	"X:\tdrivers/\n";

static void test_rules(void)
{
	fixture f;
	if (fixture_new(&f, 1, text))
		return;
	/* slash count: 8250* reaches 8250/8250_core.c as a prefix only */
	CHECK_STR(why(&f, "drivers/tty/serial/8250/8250_core.c", 0),
		  "SERIAL8250:near F=depth; XONLY:near F=none X=any-depth");
	CHECK_STR(why(&f, "drivers/tty/serial/8250_early.c", 0),
		  "SERIAL8250:in F=same-depth; XONLY:near F=none X=any-depth");
	/* no end anchor */
	CHECK_STR(why(&f, "arch/arm/Kconfig.debug", 0), "ARM:in F=same-depth");
	/* X: keeps the section out; an X: alone is a near miss */
	CHECK_STR(why(&f, "drivers/net/wireless/b.c", 0),
		  "NET:excluded F=any-depth X=any-depth; XONLY:near F=none X=any-depth");
	CHECK_STR(why(&f, "drivers/net/a.c", 0), "NET:in F=any-depth X=none; XONLY:near F=none X=any-depth");
	/* an X: hit disables N: too */
	CHECK_STR(why(&f, "staging/bad/qcom.c", 0), "STAGING:excluded F=any-depth X=any-depth N=regex");
	CHECK_STR(why(&f, "lib/qcom.c", 0), "STAGING:in F=none X=none N=regex");
	/* a directory is matched as "path/" */
	CHECK_STR(why(&f, "staging", 1), "STAGING:in F=any-depth X=none N=none");
	CHECK_STR(why(&f, "staging", 0), "");
	/* an invalid N: matches nothing, and says so */
	CHECK_INT(mev_match_why(f.rules, NULL, f.p, f.n, 0, 1, "x", 1, 0), 0);
	for (size_t i = 0; i < f.n; i++)
		if (f.p[i].type == 'N' && f.p[i].section == 4)
			CHECK_STR(mev_why_rule_name(f.rules[i]), "invalid");
	CHECK_STR(mev_why_verdict_name((mev_why_verdict)9), "out");
	fixture_free(&f);
}

static int path_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void test_use(void)
{
	fixture f;
	const char *paths[] = { "drivers/tty/serial/8250/8250_core.c", "drivers/net/a.c",
				"arch/arm/Kconfig.debug", "lib/zz.c", "staging/" };
	size_t n = sizeof paths / sizeof *paths, lens[8];
	uint8_t use[16];
	char got[128] = "";
	if (fixture_new(&f, 1, text))
		return;
	qsort(paths, n, sizeof *paths, path_cmp);
	for (size_t i = 0; i < n; i++)
		lens[i] = strlen(paths[i]);
	CHECK_INT(mev_match_pattern_use(use, f.p, f.n, 1, paths, lens, n), 0);
	for (size_t i = 0; i < f.n; i++)
		got[i] = (char)('0' + use[i]);
	got[f.n] = '\0';
	/* NET F, X; SERIAL8250 F (prefix only); ARM F; STAGING F, X, N; BAD N; XONLY F, X */
	CHECK_STR(got, "2012200002");
	/* no paths: nothing is used */
	CHECK_INT(mev_match_pattern_use(use, f.p, f.n, 1, paths, lens, 0), 0);
	for (size_t i = 0; i < f.n; i++)
		CHECK_INT(use[i], 0);
	fixture_free(&f);
}

/* --- randomised: why's sections == the matcher's ----------------------------- */

static const char *const fx_pieces[] = {
	"a", "b", "/", ".", "*", "?", "[ab]", "x/", "ab/", "a*/", "c", "/", "/", "a", "b",
	"\xc3\xa9", "\xe9", "(a|b)", " ", "#",
};
static const char *const n_atoms[] = {
	"a", "b", "ab", "ba", "x", "/", "\\.", ".", "[ab]", "[^/]", "a+", "b?", "(?<!b)",
	"(a|b)", "\xc3\xa9", "\xe9", "$", "^", "(unclosed",
};
static const char *const path_pieces[] = {
	"a", "b", "/", ".", "x/", "ab/", "c", "\xc3\xa9", "\xe9", "a/", "b/", "ab", "ba", " ", "#",
};

static void rand_value(mev_buf *b, const char *const *pieces, size_t np, size_t maxn)
{
	size_t n = 1 + rng_below(maxn);
	for (size_t i = 0; i < n; i++)
		mev__buf_puts(b, pieces[rng_below(np)]);
}

/* nsec random sections S0, S1, ... of 1-3 F:/X:/N: lines each into t
 * (F:/X: values of up to fx_max pieces). */
static void rand_sections(mev_buf *t, size_t nsec, size_t fx_max)
{
	for (size_t s = 0; s < nsec; s++) {
		mev__buf_printf(t, "S%zu\n", s);
		for (size_t k = 0, np = 1 + rng_below(3); k < np; k++) {
			unsigned r = (unsigned)rng_below(20);
			char type = r < 10 ? 'F' : r < 14 ? 'X' : 'N';
			mev__buf_printf(t, "%c:\t", type);
			if (type == 'N')
				rand_value(t, n_atoms, sizeof n_atoms / sizeof *n_atoms, 3);
			else
				rand_value(t, fx_pieces, sizeof fx_pieces / sizeof *fx_pieces, fx_max);
			mev__buf_puts(t, "\n");
		}
		mev__buf_puts(t, "\n");
	}
}

static void random_round(uint64_t seed, int utf8)
{
	mev_buf t = MEV_BUF_INIT;
	fixture f;
	size_t nsec = 80, in = 0;
	int mismatches = 0;
	rng_seed(seed);
	rand_sections(&t, nsec, 6);
	if (fixture_new(&f, utf8, t.ptr) == 0) {
		for (int i = 0; i < 1500; i++) {
			mev_buf p = MEV_BUF_INIT;
			const uint32_t *ids;
			size_t n = 0, k = 0;
			int is_dir = rng_below(5) == 0;
			rand_value(&p, path_pieces, sizeof path_pieces / sizeof *path_pieces, 8);
			CHECK_INT(mev_match_why(f.rules, f.verdicts, f.p, f.n, (uint32_t)nsec, utf8, p.ptr,
						p.len, is_dir), 0);
			CHECK_INT(mev_matcher_match(&ids, &n, f.m, p.ptr, p.len, is_dir), 0);
			for (size_t s = 0; s < nsec; s++) {
				int want = k < n && ids[k] == s;
				k += want;
				in += want;
				if (want != (f.verdicts[s] == MEV_WHY_IN) && mismatches++ < 5)
					fprintf(stderr, "seed %llu: '%s'%s section S%zu: matcher %d, why %s\n",
						(unsigned long long)seed, p.ptr, is_dir ? " (dir)" : "", s, want,
						mev_why_verdict_name((mev_why_verdict)f.verdicts[s]));
			}
			mev__buf_free(&p);
		}
		CHECK_INT(mismatches, 0);
		CHECK(in > 500); /* the patterns do match things */
	}
	fixture_free(&f);
	mev__buf_free(&t);
}

static void test_random(void)
{
	for (uint64_t seed = 1; seed <= 6; seed++)
		random_round(seed, (int)(seed % 2));
}

/* --- randomised: the use check carried from release to release ---------------- */

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * mev_match_pattern_use_since() over 40 sets of paths, each the last with
 * some paths gone and some new (marked fresh, with some old ones too), ==
 * mev_match_pattern_use() on each set.  The lines include a catastrophic
 * N: regex, whose matches spend its budget (never carried on), and the
 * paths long runs of letters for it.
 */
static void random_use_round(uint64_t seed, int utf8)
{
	static const char *const pieces[] = { "a", "b", "/", ".", "x/", "ab/", "c", "\xe9", "a/", "b/",
					      "ab", "ba", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "Q" };
	mev_buf t = MEV_BUF_INIT;
	mev_match_use_memo *memo = NULL;
	fixture f;
	enum { POOL = 400 };
	char *pool[POOL];
	uint8_t on[POOL] = { 0 };
	int bad = 0;
	rng_seed(seed);
	rand_sections(&t, 60, 4);
	mev__buf_puts(&t, "SLOW\nN:\t^(([a-z])+.)+[A-Z]([a-z])+$\nF:\ta\n");
	for (size_t i = 0; i < POOL; i++) {
		mev_buf p = MEV_BUF_INIT;
		rand_value(&p, pieces, sizeof pieces / sizeof *pieces, 6);
		pool[i] = p.ptr;
		on[i] = rng_below(2);
	}
	qsort(pool, POOL, sizeof *pool, str_cmp);
	for (size_t i = 1; i < POOL; i++) /* the paths of a set are distinct */
		if (strcmp(pool[i - 1], pool[i]) == 0)
			on[i] = 2;
	CHECK_INT(mev_match_use_memo_new(&memo), 0);
	if (memo && fixture_new(&f, utf8, t.ptr) == 0) {
		uint8_t *want = calloc(f.n + 1, 1), *got = calloc(f.n + 1, 1);
		for (int round = 0; round < 40; round++) {
			const char *paths[POOL];
			size_t lens[POOL], n = 0;
			uint8_t fresh[POOL], was[POOL];
			memcpy(was, on, sizeof was);
			for (int k = 0; k < 25; k++) {
				size_t i = rng_below(POOL);
				on[i] = on[i] == 2 ? 2 : !on[i];
			}
			for (size_t i = 0; i < POOL; i++)
				if (on[i] == 1) {
					paths[n] = pool[i];
					lens[n] = strlen(pool[i]);
					fresh[n++] = was[i] != 1 || rng_below(10) == 0;
				}
			CHECK_INT(mev_match_pattern_use(want, f.p, f.n, utf8, paths, lens, n), 0);
			CHECK_INT(mev_match_pattern_use_since(got, f.p, f.n, utf8, paths, lens, n,
							      round % 13 == 0 ? NULL : fresh, memo), 0);
			for (size_t i = 0; i < f.n; i++)
				if (want[i] != got[i] && bad++ < 5)
					fprintf(stderr, "seed %llu round %d: line %zu '%s': %d, carried %d\n",
						(unsigned long long)seed, round, i, f.p[i].regex ? f.p[i].regex : "",
						want[i], got[i]);
		}
		CHECK_INT(bad, 0);
		free(want);
		free(got);
	}
	fixture_free(&f);
	mev_match_use_memo_free(memo);
	for (size_t i = 0; i < POOL; i++)
		free(pool[i]);
	mev__buf_free(&t);
}

static void test_use_carried(void)
{
	for (uint64_t seed = 1; seed <= 6; seed++)
		random_use_round(seed, (int)(seed % 2));
}

/* A path as the script takes its file argument (canonpath). */
static void test_canonpath(void)
{
	static const struct {
		const char *in, *out;
		int is_dir;
	} cases[] = {
		{ "drivers/net/a.c", "drivers/net/a.c", 0 }, { "./drivers//net/", "drivers/net", 1 },
		{ "a/./b/.", "a/b", 0 }, { "a/.b/..", "a/.b/..", 0 }, { "", "", 0 }, { ".", "", 0 },
		{ "/", "", 1 }, { "//a//", "a", 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *out = NULL;
		int is_dir = -1;
		CHECK_INT(mev_match_canonpath(&out, &is_dir, cases[i].in), 0);
		CHECK_STR(out, cases[i].out);
		CHECK_INT(is_dir, cases[i].is_dir);
		free(out);
	}
}

int main(void)
{
	RUN(test_rules);
	RUN(test_use);
	RUN(test_canonpath);
	RUN(test_random);
	RUN(test_use_carried);
	return test_summary();
}
