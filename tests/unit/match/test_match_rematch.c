/*
 * The matcher from one release to the next: the rematch plan (which paths
 * a change of MAINTAINERS can move between sections) and pattern pools
 * shared by the matchers of many releases.
 *
 * The plan's promise is checked as the walk relies on it: a path it does
 * not name keeps its old sections, renumbered, and that must equal what a
 * matcher built on the new MAINTAINERS says.  Fixed cases show that a
 * change is confined to the paths its patterns match (not every path of
 * their directory); random MAINTAINERS pairs test the promise at large.
 */
#include "test.h"
#include "rng.h"
#include "maintevo/maintainers.h"
#include "maintevo/match.h"
#include "util/buf.h"

#include <stdint.h>


static mev_maint *parse(const char *text)
{
	mev_rules r;
	mev_maint *m = NULL;
	mev_maint_input in = { "MAINTAINERS", text, strlen(text) };
	mev_rules_default(&r, MEV_DIALECT_LINUX);
	CHECK_INT(mev_maint_parse(&m, &r, &in, 1, NULL), 0);
	return m;
}

/* A release pair: both MAINTAINERS, their matchers, the plan. */
typedef struct {
	mev_maint *om, *nm;
	mev_matcher *o, *n;
	mev_rematch *rm;
} pair;

static int pair_new(pair *p, const char *old_text, const char *new_text)
{
	memset(p, 0, sizeof *p);
	if (!(p->om = parse(old_text)) || !(p->nm = parse(new_text)))
		return -1;
	CHECK_INT(mev_matcher_new(&p->o, p->om, 0), 0);
	CHECK_INT(mev_matcher_new(&p->n, p->nm, 0), 0);
	CHECK_INT(mev_rematch_new(&p->rm, p->om, p->nm), 0);
	return p->o && p->n && p->rm ? 0 : -1;
}

static void pair_free(pair *p)
{
	mev_rematch_free(p->rm);
	mev_matcher_free(p->o);
	mev_matcher_free(p->n);
	mev_maint_free(p->om);
	mev_maint_free(p->nm);
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/*
 * One path: 1 when the plan says to match it again, else 0 after checking
 * that its old sections, renumbered, are its new ones (as the file map
 * keeps them); a section that maps nowhere also sends it to be matched.
 */
static int check_path(pair *p, const char *path, int is_dir)
{
	const uint32_t *ids;
	uint32_t old[256];
	size_t n, nn;
	if (mev_rematch_needed(p->rm, path, strlen(path), is_dir))
		return 1;
	CHECK_INT(mev_matcher_match(&ids, &n, p->o, path, strlen(path), is_dir), 0);
	CHECK(n <= 256);
	for (size_t i = 0; i < n && i < 256; i++) {
		old[i] = mev_rematch_map(p->rm, ids[i]);
		if (old[i] == UINT32_MAX)
			return 1;
	}
	qsort(old, n, sizeof *old, u32_cmp);
	CHECK_INT(mev_matcher_match(&ids, &nn, p->n, path, strlen(path), is_dir), 0);
	if (nn != n || (n && memcmp(old, ids, n * sizeof *ids))) {
		fprintf(stderr, "  path '%s'%s kept %zu sections, a new matcher finds %zu\n", path,
			is_dir ? " (dir)" : "", n, nn);
		CHECK(!"a path the plan leaves alone changed its sections");
	}
	return 0;
}

static const char *const base_text =
	"NET\n"
	"F:\tdrivers/net/\n\n"
	"FOO DRIVER\n"
	"F:\tdrivers/net/foo*\n\n"
	"LIB\n"
	"F:\tlib/\n"
	"X:\tlib/a.c\n\n"
	"DTS\n"
	"F:\tarch/arm/dts/sun*\n\n";

/* An F: line added to a section: only the paths it matches move. */
static void test_added_line(void)
{
	pair p;
	if (pair_new(&p, base_text,
		     "NET\nF:\tdrivers/net/\n\n"
		     "FOO DRIVER\nF:\tdrivers/net/foo*\nF:\tdrivers/net/baz.c\n\n"
		     "LIB\nF:\tlib/\nX:\tlib/a.c\n\n"
		     "DTS\nF:\tarch/arm/dts/sun*\n\n") == 0) {
		CHECK_INT(mev_rematch_identical(p.rm), 0);
		CHECK_INT(check_path(&p, "drivers/net/baz.c", 0), 1);
		/* the same directory, not matched by the new line */
		CHECK_INT(check_path(&p, "drivers/net/bar.c", 0), 0);
		CHECK_INT(check_path(&p, "drivers/net/foo1.c", 0), 0);
		/* the equal-slash rule: a file deeper down is not matched */
		CHECK_INT(check_path(&p, "drivers/net/baz.c/x.c", 0), 0);
		CHECK_INT(check_path(&p, "lib/b.c", 0), 0);
		CHECK_INT(check_path(&p, "README", 0), 0);
	}
	pair_free(&p);
}

/* A section whose X: line changed is dirty as a whole: every path its F:
 * lines match, and nothing else. */
static void test_changed_exclusion(void)
{
	pair p;
	if (pair_new(&p, base_text,
		     "NET\nF:\tdrivers/net/\n\n"
		     "FOO DRIVER\nF:\tdrivers/net/foo*\n\n"
		     "LIB\nF:\tlib/\nX:\tlib/b.c\n\n"
		     "DTS\nF:\tarch/arm/dts/sun*\n\n") == 0) {
		CHECK_INT(check_path(&p, "lib/a.c", 0), 1);
		CHECK_INT(check_path(&p, "lib/b.c", 0), 1);
		CHECK_INT(check_path(&p, "lib/sub/c.c", 0), 1);
		CHECK_INT(check_path(&p, "drivers/net/foo1.c", 0), 0);
	}
	pair_free(&p);
}

/* A section removed, one added, one renamed; directories as "path/". */
static void test_sections_come_and_go(void)
{
	pair p;
	if (pair_new(&p, base_text,
		     "NETWORKING\nF:\tdrivers/net/\n\n"
		     "LIB\nF:\tlib/\nX:\tlib/a.c\n\n"
		     "DTS\nF:\tarch/arm/dts/sun*\n\n"
		     "BOARDS\nF:\tarch/arm/dts/rk3399-*\nF:\tarch/arm/dts/rk/\n\n") == 0) {
		/* FOO DRIVER went: its files are matched again */
		CHECK_INT(check_path(&p, "drivers/net/foo1.c", 0), 1);
		/* NET renamed NETWORKING with the same patterns: mapped */
		CHECK_INT(check_path(&p, "drivers/net/bar.c", 0), 0);
		CHECK_INT(check_path(&p, "arch/arm/dts/rk3399-evb.dts", 0), 1);
		CHECK_INT(check_path(&p, "arch/arm/dts/sun8i.dtsi", 0), 0);
		CHECK_INT(check_path(&p, "arch/arm/dts/imx6.dtsi", 0), 0);
		/* a link to a directory is matched as "arch/arm/dts/rk/" */
		CHECK_INT(check_path(&p, "arch/arm/dts/rk", 1), 1);
		CHECK_INT(check_path(&p, "arch/arm/dts/rk", 0), 0);
	}
	pair_free(&p);
}

/* A pattern without a directory could match anywhere at the top: every
 * path is matched again. */
static void test_top_level_pattern(void)
{
	pair p;
	if (pair_new(&p, base_text,
		     "NET\nF:\tdrivers/net/\nF:\tMakefile\n\n"
		     "FOO DRIVER\nF:\tdrivers/net/foo*\n\n"
		     "LIB\nF:\tlib/\nX:\tlib/a.c\n\n"
		     "DTS\nF:\tarch/arm/dts/sun*\n\n") == 0) {
		CHECK_INT(check_path(&p, "lib/b.c", 0), 1);
		CHECK_INT(check_path(&p, "drivers/net/foo1.c", 0), 1);
	}
	pair_free(&p);
}

/* --- random MAINTAINERS pairs ---------------------------------------------- */

static const char *const dirs[] = { "a/", "a/b/", "a/c/", "b/", "b/d/", "a/b/e/" };
static const char *const names[] = { "x.c", "y.c", "foo1.c", "foo2.h", "z", "fo", "x.c.orig" };

static void rand_pattern(mev_buf *b)
{
	const char *d = dirs[rng_below(6)];
	switch (rng_below(9)) {
	case 0: mev__buf_printf(b, "F:\t%s\n", d); break;
	case 1: mev__buf_printf(b, "F:\t%s*.c\n", d); break;
	case 2: mev__buf_printf(b, "F:\t%sfoo*\n", d); break;
	case 3: mev__buf_printf(b, "F:\t%s%s\n", d, names[rng_below(7)]); break;
	case 4: mev__buf_printf(b, "F:\t%s*/\n", d); break;
	case 5: mev__buf_printf(b, "X:\t%s%s\n", d, names[rng_below(7)]); break;
	case 6: mev__buf_printf(b, "X:\t%s\n", d); break;
	case 7: mev__buf_printf(b, "N:\t%s\n", rng_below(2) ? "foo" : "b/d"); break;
	default: mev__buf_printf(b, "F:\t%s?.c\n", d); break;
	}
}

typedef struct {
	char title[32];
	int npat;
	char pat[4][64];
} rsec;

static void rand_sections(rsec *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		mev_buf b = MEV_BUF_INIT;
		snprintf(s[i].title, sizeof s[i].title, "S%zu", i);
		s[i].npat = 1 + (int)rng_below(4);
		for (int k = 0; k < s[i].npat; k++) {
			mev__buf_clear(&b);
			rand_pattern(&b);
			snprintf(s[i].pat[k], sizeof s[i].pat[k], "%s", b.ptr);
		}
		mev__buf_free(&b);
	}
}

/* One of: a line replaced, dropped or added; a section renamed, dropped or
 * added; or nothing. */
static void mutate(rsec *s, size_t *n)
{
	size_t i = rng_below(*n);
	mev_buf b = MEV_BUF_INIT;
	rand_pattern(&b);
	switch (rng_below(7)) {
	case 0: snprintf(s[i].pat[rng_below((size_t)s[i].npat)], 64, "%s", b.ptr); break;
	case 1: if (s[i].npat > 1) s[i].npat--; break;
	case 2: if (s[i].npat < 4) snprintf(s[i].pat[s[i].npat++], 64, "%s", b.ptr); break;
	case 3: snprintf(s[i].title, sizeof s[i].title, "R%zu", i); break;
	case 4: if (*n > 1) { s[i] = s[*n - 1]; (*n)--; } break;
	case 5: rand_sections(&s[*n], 1); snprintf(s[*n].title, 32, "N%zu", *n); (*n)++; break;
	default: break;
	}
	mev__buf_free(&b);
}

static void render(mev_buf *b, const rsec *s, size_t n)
{
	mev__buf_clear(b);
	for (size_t i = 0; i < n; i++) {
		mev__buf_printf(b, "%s\n", s[i].title);
		for (int k = 0; k < s[i].npat; k++)
			mev__buf_puts(b, s[i].pat[k]);
		mev__buf_puts(b, "\n");
	}
}

static void test_random_pairs(void)
{
	size_t kept = 0, again = 0;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		rsec s[40];
		size_t n = 8 + rng_below(8), changes;
		mev_buf a = MEV_BUF_INIT, b = MEV_BUF_INIT;
		pair p;
		rng_seed(seed);
		rand_sections(s, n);
		render(&a, s, n);
		changes = 1 + rng_below(3);
		for (size_t k = 0; k < changes && n < 36; k++)
			mutate(s, &n);
		render(&b, s, n);
		if (pair_new(&p, a.ptr, b.ptr) == 0)
			for (size_t d = 0; d < 6; d++)
				for (size_t f = 0; f < 7; f++) {
					char path[64];
					int r;
					snprintf(path, sizeof path, "%s%s", dirs[d], names[f]);
					r = check_path(&p, path, f == 4 && rng_below(2));
					kept += r == 0;
					again += r == 1;
				}
		pair_free(&p);
		mev__buf_free(&a);
		mev__buf_free(&b);
	}
	/* the plan must leave most paths alone, or it tests nothing */
	CHECK(kept > again);
	CHECK(again > 0);
}

/* --- pattern pools --------------------------------------------------------- */

/* A matcher keeps its pool: the pool dropped first, the matcher still
 * matches (under ASan: without reading freed memory). */
static void test_pool_outlived(void)
{
	mev_pattern_pool *pool = NULL;
	mev_maint *m1 = parse(base_text), *m2 = parse(base_text);
	mev_matcher *a = NULL, *b = NULL;
	const uint32_t *ids;
	size_t n = 0;
	CHECK_INT(mev_pattern_pool_new(&pool), 0);
	if (pool && m1 && m2) {
		CHECK_INT(mev_matcher_new_pooled(&a, m1, 0, pool), 0);
		CHECK_INT(mev_matcher_new_pooled(&b, m2, 0, pool), 0);
		/* one compile per distinct pattern: the second matcher adds none */
		CHECK_INT(mev_pattern_pool_count(pool), 5);
		mev_pattern_pool_free(pool);
		mev_matcher_free(a);
		if (b) {
			CHECK_INT(mev_matcher_match(&ids, &n, b, "drivers/net/foo1.c", 18, 0), 0);
			CHECK_INT(n, 2);
		}
		mev_matcher_free(b);
	}
	mev_maint_free(m1);
	mev_maint_free(m2);
}

int main(void)
{
	RUN(test_added_line);
	RUN(test_changed_exclusion);
	RUN(test_sections_come_and_go);
	RUN(test_top_level_pattern);
	RUN(test_random_pairs);
	RUN(test_pool_outlived);
	return test_summary();
}
