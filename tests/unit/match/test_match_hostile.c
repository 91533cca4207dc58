/*
 * Hostile patterns (issue 38, 3b and 3c).  Zephyr's globs as programs
 * (src/maintainers/pattern_segglob.c): the same answers as PCRE2 on every
 * path, and a glob of thousands of '*' costs no more than its length (it
 * ran out of its matching budget after seconds a path, and matched
 * nothing more).  A long pattern in a warning is shortened in the middle:
 * the warning, shown cut at 1 KB, keeps its reason.
 */
#include "test.h"
#include "rng.h"
#include "maintevo/dialect.h"
#include "maintevo/maintainers.h"
#include "maintevo/match.h"
#include "dialect/dialect_shared.h"
#include "maintainers/maintainers_shared.h"
#include "util/buf.h"

#include <stdint.h>
#include <string.h>

/* The script's regex of a Zephyr glob, compiled as a walk compiles it. */
static int compile_glob(mev__pattern *p, char type, const char *glob)
{
	mev_buf re = MEV_BUF_INIT;
	const char *err;
	size_t off;
	char eb[128];
	int rc = mev__dialect_regex(MEV_DIALECT_ZEPHYR, &re, type, glob, strlen(glob));
	if (!rc)
		rc = mev__buf_putc(&re, '\0');
	if (!rc)
		rc = mev__pattern_compile(p, type, re.ptr, MEV__PAT_UTF8 | MEV__PAT_RAW, &err, &off, eb,
					  sizeof eb);
	mev__buf_free(&re);
	return rc;
}

/* The matcher's answer (program or PCRE2) and the reference's (PCRE2). */
static void both(mev__pattern *p, mev__pattern_scratch *sc, mev_buf *u, const char *path, int *fast,
		 int *ref)
{
	mev__pattern_subject sj;
	size_t len = strlen(path);
	CHECK_INT(mev__pattern_subject_set(&sj, u, path, len), 0);
	*fast = mev__pattern_match(p, sc, sj.s, sj.len, sj.slashes, sj.ascii, sj.has_nl, sj.u, sj.ulen);
	*ref = mev__pattern_match_pcre(p, sc, sj.s, sj.len, sj.slashes, sj.ascii, sj.u, sj.ulen);
}

static void random_text(char *out, size_t size, const char *const *pieces, size_t n, size_t most)
{
	size_t l = 0, k = rng_below(most + 1);
	out[0] = '\0';
	for (size_t i = 0; i < k; i++) {
		const char *pc = pieces[rng_below(n)];
		size_t pl = strlen(pc);
		if (l + pl + 1 >= size)
			break;
		memcpy(out + l, pc, pl + 1);
		l += pl;
	}
}

static void test_segglob_vs_pcre(void)
{
	static const char *const gp[] = { "a", "b", "/", ".", "*", "?", "**", "ab", "\xc3\xa9", "[ab]", "+" };
	static const char *const pp[] = { "a", "b", "/", ".", "ab", "aa", "\xe9", "\xc3\xa9", "\n", "ba" };
	mev__pattern_scratch *sc = NULL;
	mev_buf u = MEV_BUF_INIT;
	int bad = 0, programs = 0, hits = 0;
	CHECK_INT(mev__pattern_scratch_new(&sc, 0, 0, 0), 0);
	rng_seed(38);
	for (int it = 0; it < 4000; it++) {
		char glob[64], path[64];
		mev__pattern p;
		random_text(glob, sizeof glob, gp, sizeof gp / sizeof *gp, 7);
		if (compile_glob(&p, it % 3 ? 'F' : 'X', glob))
			continue;
		programs += p.ops != NULL;
		for (int k = 0; k < 30; k++) {
			int a, b;
			random_text(path, sizeof path, pp, sizeof pp / sizeof *pp, 8);
			both(&p, sc, &u, path, &a, &b);
			hits += b == 1;
			if (a != b && bad++ < 5)
				fprintf(stderr, "program/pcre differ: glob '%s' path '%s': %d vs %d\n", glob,
					path, a, b);
		}
		mev__pattern_free(&p);
	}
	CHECK_INT(bad, 0);
	CHECK(programs > 1500);
	CHECK(hits > 1000);
	mev__buf_free(&u);
	mev__pattern_scratch_free(sc);
}

/* 5,000 '*' in one component: every top-level name, nothing deeper, and
 * no budget spent (PCRE2 ran out of it on the first path with a '/'). */
static void test_many_stars(void)
{
	static const char *const paths[] = { "a.c", "boards/x/b.c", "zephyr-env.sh", "kernel/k.c",
					     "MAINTAINERS.yml" };
	static const int want[] = { 1, 0, 1, 0, 1 };
	mev__pattern_scratch *sc = NULL;
	mev_buf u = MEV_BUF_INIT;
	mev__pattern p;
	char glob[5001], tail[5004];
	memset(glob, '*', 5000);
	glob[5000] = '\0';
	CHECK_INT(mev__pattern_scratch_new(&sc, 1000000, 0, 10000000), 0);
	CHECK_INT(compile_glob(&p, 'F', glob), 0);
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
		mev__pattern_subject sj;
		CHECK_INT(mev__pattern_subject_set(&sj, &u, paths[i], strlen(paths[i])), 0);
		CHECK_INT(mev__pattern_match(&p, sc, sj.s, sj.len, sj.slashes, sj.ascii, sj.has_nl, sj.u,
					     sj.ulen), want[i]);
	}
	CHECK_INT((int)p.exhausted, 0);
	CHECK(p.spent == 0);
	mev__pattern_free(&p);
	/* "*a" 2,500 times and a trailing '/': more letters than any name */
	for (int i = 0; i < 2500; i++)
		memcpy(tail + 2 * i, "*a", 2);
	memcpy(tail + 5000, "/", 2);
	CHECK_INT(compile_glob(&p, 'F', tail), 0);
	{
		mev__pattern_subject sj;
		const char *path = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab/c";
		CHECK_INT(mev__pattern_subject_set(&sj, &u, path, strlen(path)), 0);
		CHECK_INT(mev__pattern_match(&p, sc, sj.s, sj.len, sj.slashes, sj.ascii, sj.has_nl, sj.u,
					     sj.ulen), 0);
	}
	CHECK_INT((int)p.exhausted, 0);
	mev__pattern_free(&p);
	mev__buf_free(&u);
	mev__pattern_scratch_free(sc);
}

/* The warnings of an invalid and of a runaway pattern of 3,000 bytes, as
 * the command line shows them (1 KB): the reason is there. */
static void test_long_pattern_warning(void)
{
	char text[8192], buf[1024];
	size_t n = 0;
	mev_rules r;
	mev_maint *m = NULL;
	mev_matcher *mt = NULL;
	mev_maint_input in = { "MAINTAINERS", text, 0 };
	const uint32_t *ids;
	size_t k;
	const char *path = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!";
	int invalid = 0, budget = 0;
	n += (size_t)snprintf(text + n, sizeof text - n, "LONG\nM:\tA <a@b.c>\nN:\t(");
	for (int i = 0; i < 3000; i++)
		text[n++] = 'x';
	n += (size_t)snprintf(text + n, sizeof text - n, "\nN:\t(a|aa)+(a|aa)+(a|aa)+(a|aa)+$|");
	for (int i = 0; i < 3000; i++)
		text[n++] = 'z';
	text[n++] = '\n';
	text[n] = '\0';
	in.len = n;
	mev_rules_default(&r, MEV_DIALECT_LINUX);
	CHECK_INT(mev_maint_parse(&m, &r, &in, 1, NULL), 0);
	CHECK_INT(mev_matcher_new(&mt, m, 0), 0);
	CHECK_INT(mev_matcher_match(&ids, &k, mt, path, strlen(path), 0), 0);
	for (size_t i = 0; i < mev_maint_diag_count(m); i++) {
		mev_maint_diag_format(buf, sizeof buf, m, &mev_maint_diags(m)[i]);
		invalid += strstr(buf, "it matches nothing here, get_maintainer.pl would stop") != NULL &&
			   strstr(buf, "[...3001 bytes...]") != NULL;
		budget += strstr(buf, "disabled for the rest of this release") != NULL &&
			  strstr(buf, "[...3030 bytes...]") != NULL;
	}
	CHECK_INT(invalid, 1);
	CHECK_INT(budget, 1);
	mev_matcher_free(mt);
	mev_maint_free(m);
}

int main(void)
{
	RUN(test_segglob_vs_pcre);
	RUN(test_many_stars);
	RUN(test_long_pattern_warning);
	return test_summary();
}
