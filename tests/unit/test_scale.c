/*
 * Costs that must stay near linear in the input (issue 9, point 9): the
 * overlap graph of many sections over the same files, checked against a
 * pair-by-pair reference; its size limit; the matching budget of a
 * runaway regex.  (Repeated titles: test_maintainers.c; many tags:
 * tests/cli/test_scale.sh.)
 */
#include "test.h"
#include "maintevo/filemap.h"
#include "maintevo/graph.h"
#include "maintevo/maintainers.h"
#include "maintevo/match.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "maintevo/walk.h"
#include "maintainers/maintainers_shared.h"
#include "util/buf.h"

#include <stdint.h>

static uint64_t rng_state;
static void rng_seed(uint64_t s) { rng_state = s * 0x9e3779b97f4a7c15ULL + 1; }
static size_t rng_below(size_t n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return n ? (size_t)(rng_state * 0x2545f4914f6cdd1dULL % n) : 0;
}

/* n sections "S<k>" (k counting down, so that title order is not index
 * order), the last one THE REST when `rest`. */
static mev_filemap *sections(int n, int rest)
{
	mev_filemap *fm = NULL;
	CHECK_INT(mev_filemap_new(&fm), 0);
	for (int s = 0; fm && s < n; s++) {
		char title[32];
		mev_section_info si = { 0 };
		snprintf(title, sizeof title, "S%05d", n - s);
		si.title = title;
		si.status = "";
		si.is_rest = rest && s == n - 1;
		CHECK_INT(mev_filemap_add_section(fm, &si), 0);
	}
	return fm;
}

/* --- the graph ------------------------------------------------------------- */

/* 1,000 sections over the same 20 files: the complete graph, n(n-1)/2
 * edges and n self edges, each of the 20 files' sizes, in title order. */
static void test_complete_graph(void)
{
	enum { N = 1000 };
	mev_filemap *fm = sections(N, 0);
	mev_graph *g = NULL;
	uint32_t ids[N], set;
	const mev_edge *e;
	size_t bad = 0;
	if (!fm)
		return;
	for (uint32_t i = 0; i < N; i++)
		ids[i] = i;
	CHECK_INT(mev_filemap_intern_set(&set, fm, ids, N), 0);
	for (int f = 0; f < 20; f++) {
		char path[16];
		snprintf(path, sizeof path, "dir/f%02d.c", f);
		CHECK_INT(mev_filemap_add_row(fm, path, strlen(path), MEV_KIND_FILE, 2, 14, set), 0);
	}
	CHECK_INT(mev_graph_build(&g, fm, NULL), 0);
	if (!g) {
		mev_filemap_free(fm);
		return;
	}
	CHECK_INT(mev_graph_edge_count(g), N * (N - 1) / 2 + N);
	e = mev_graph_edges(g);
	/* S00001 (section N - 1) first, with itself, then with S00002 ... */
	CHECK_INT(e[0].a, N - 1);
	CHECK_INT(e[0].b, N - 1);
	CHECK_INT(e[1].b, N - 2);
	for (size_t i = 0; i < mev_graph_edge_count(g); i++)
		bad += e[i].lines != 40 || e[i].bytes != 280 || e[i].files != 20 ||
		       (i && (e[i - 1].a < e[i].a || (e[i - 1].a == e[i].a && e[i - 1].b <= e[i].b)));
	CHECK_INT(bad, 0);
	mev_graph_free(g);
	mev_filemap_free(fm);
}

/* Random file maps: every edge as a pair-by-pair sum over the files gives
 * it (the way the graph was built before), and no other edge. */
static void random_graph(uint64_t seed, int keep_rest)
{
	enum { NS = 40, NF = 300 };
	static uint64_t want[NS][NS][3];
	mev_filemap *fm = sections(NS, 1);
	mev_graph_options go = { keep_rest };
	mev_graph *g = NULL;
	size_t nedges = 0;
	rng_seed(seed);
	memset(want, 0, sizeof want);
	for (int f = 0; fm && f < NF; f++) {
		uint32_t ids[NS], set;
		size_t k = 0, big = rng_below(8) == 0;
		char path[16];
		uint64_t lines = rng_below(100), bytes = lines * 7 + rng_below(7);
		for (uint32_t s = 0; s < NS; s++)
			if (rng_below(big ? 2 : 12) == 0 || (s == NS - 1 && rng_below(2)))
				ids[k++] = s;
		CHECK_INT(mev_filemap_intern_set(&set, fm, ids, k), 0);
		snprintf(path, sizeof path, "f%04d", f);
		CHECK_INT(mev_filemap_add_row(fm, path, strlen(path), MEV_KIND_FILE, lines, bytes, set), 0);
		for (size_t i = 0; i < k; i++)
			for (size_t j = 0; j < k; j++) {
				want[ids[i]][ids[j]][0] += lines;
				want[ids[i]][ids[j]][1] += bytes;
				want[ids[i]][ids[j]][2]++;
			}
	}
	if (!fm || mev_graph_build(&g, fm, &go)) {
		CHECK(!"graph built");
		mev_filemap_free(fm);
		return;
	}
	for (size_t a = 0; a < NS; a++)
		for (size_t b = a; b < NS; b++)
			nedges += (keep_rest || (a != NS - 1 && b != NS - 1)) && (a == b || want[a][b][2]);
	CHECK_INT(mev_graph_edge_count(g), nedges);
	for (size_t i = 0; i < mev_graph_edge_count(g); i++) {
		const mev_edge *e = &mev_graph_edges(g)[i];
		const mev_section_info *s = mev_filemap_sections(fm);
		CHECK(strcmp(s[e->a].title, s[e->b].title) <= 0);
		CHECK(e->lines == want[e->a][e->b][0] && e->bytes == want[e->a][e->b][1] &&
		      e->files == want[e->a][e->b][2]);
		if (i)
			CHECK(strcmp(s[e[-1].a].title, s[e->a].title) < 0 ||
			      (e[-1].a == e->a && strcmp(s[e[-1].b].title, s[e->b].title) < 0));
	}
	mev_graph_free(g);
	mev_filemap_free(fm);
}

static void test_random_graphs(void)
{
	for (uint64_t seed = 1; seed <= 20; seed++)
		random_graph(seed, (int)(seed % 2));
}

/* A graph over the limit is refused before it is made, naming its size. */
static void test_graph_limit(void)
{
	enum { N = 100 };
	mev_filemap *fm = sections(N, 0);
	mev_graph *g = NULL;
	uint32_t ids[N], set;
	for (uint32_t i = 0; i < N; i++)
		ids[i] = i;
	if (!fm)
		return;
	CHECK_INT(mev_filemap_intern_set(&set, fm, ids, N), 0);
	CHECK_INT(mev_filemap_add_row(fm, "f", 1, MEV_KIND_FILE, 1, 1, set), 0);
	CHECK_INT(mev_filemap_add_row(fm, "g", 1, MEV_KIND_FILE, 1, 1, set), 0);
	CHECK_ERR(mev_graph_build_max(&g, fm, NULL, N * (N - 1) / 2 - 1), MEV_ELIMIT,
		  "the overlap graph would have 4950 edges between sections, more than the limit of 4949");
	CHECK(g == NULL);
	CHECK_INT(mev_graph_build_max(&g, fm, NULL, N * (N - 1) / 2), 0);
	CHECK_INT(g ? mev_graph_edge_count(g) : 0, N * (N - 1) / 2 + N);
	mev_graph_free(g);
	mev_filemap_free(fm);
}

/* --- the matching budget ---------------------------------------------------- */

/* Real patterns (Linux and U-Boot N: lines, regex F: forms) never spend
 * any of their budget, whatever the path. */
static void test_real_patterns_spend_nothing(void)
{
	static const char *const n[] = {
		"meson", "bcm[9]?63158", "sun[x456789]i", "\\bmeson", "(?:^|/)tegra", "[^a-z]k3",
		"atmel|at91|sama5", "rockchip|rk[0-9]{4}", "\\b(?:stm32|stpmic1)", "fsl|imx[0-9]?|mxs",
		"^.*/mach-[^/]*/.*\\.c$", "(?i)qcom|msm8916",
	};
	static const char *const parts[] = {
		"drivers/", "arch/arm/", "dts/", "mach-", "include/", "tegra", "meson-", "imx8mq-",
		"board/", "rockchip/", "rk3399-", "evb", "_defconfig", ".c", ".h", "-u-boot.dtsi", "x",
	};
	mev__pattern_scratch *sc = NULL;
	CHECK_INT(mev__pattern_scratch_new(&sc, 1000000, 10000, 10000000), 0);
	rng_seed(7);
	for (size_t i = 0; sc && i < sizeof n / sizeof *n; i++) {
		mev__pattern p;
		const char *err;
		size_t off;
		char eb[128];
		CHECK_INT(mev__pattern_compile(&p, 'N', n[i], 1, &err, &off, eb, sizeof eb), 0);
		CHECK(err == NULL);
		for (int k = 0; k < 3000; k++) {
			char path[512] = "";
			for (size_t m = 1 + rng_below(20); m; m--)
				strcat(path, parts[rng_below(sizeof parts / sizeof *parts)]);
			CHECK(mev__pattern_match(&p, sc, path, strlen(path), 0, 1, 0, path, strlen(path)) >= 0);
		}
		CHECK_INT(p.spent, 0);
		CHECK_INT(p.exhausted, 0);
		mev__pattern_free(&p);
	}
	mev__pattern_scratch_free(sc);
}

/*
 * A runaway N: regex that stays under the match limit on each path but
 * costs tens of thousands of PCRE2 units on every one of thousands: it
 * runs out of its budget once, is reported once (file:line, the path) and
 * matches nothing from then on; the rest of the section matches on.
 */
static void test_budget_runs_out(void)
{
	mev_rules r;
	mev_maint *m = NULL;
	mev_matcher *mt = NULL;
	const char *text = "SLOW\nF:\tkeep/\nN:\t(a+)+$\n";
	mev_maint_input in = { "MAINTAINERS", text, strlen(text) };
	int before = 0, after = 0, kept = 0, out_at = -1;
	mev_rules_default(&r, MEV_DIALECT_LINUX);
	CHECK_INT(mev_maint_parse(&m, &r, &in, 1, NULL), 0);
	if (!m || mev_matcher_new(&mt, m, 0)) {
		CHECK(!"matcher made");
		mev_maint_free(m);
		return;
	}
	for (int i = 0; i < 3000; i++) {
		char path[64];
		const uint32_t *ids;
		size_t n = 0;
		/* 14 a's then '!': about 33,000 units, no match */
		snprintf(path, sizeof path, "d%04d/aaaaaaaaaaaaaa!", i);
		CHECK_INT(mev_matcher_match(&ids, &n, mt, path, strlen(path), 0), 0);
		if (out_at < 0 && mev_matcher_limit_hits(mt))
			out_at = i;
		/* "d/aa" matches while the pattern runs */
		CHECK_INT(mev_matcher_match(&ids, &n, mt, "d/aa", 4, 0), 0);
		*(out_at < 0 ? &before : &after) += n == 1;
		CHECK_INT(mev_matcher_match(&ids, &n, mt, "keep/aa", 7, 0), 0);
		kept += n == 1;
	}
	CHECK_INT(mev_matcher_limit_hits(mt), 1);
	/* 11,000 units charged a path (the runs under 1,000 and 10,000 that
	 * failed) of a budget of 10,000,000: out at about the 900th */
	CHECK(out_at > 300 && out_at < 2000);
	CHECK_INT(before, out_at);
	CHECK_INT(after, 0);
	CHECK_INT(kept, 3000);
	CHECK_INT(mev_maint_diag_count(m), 1);
	if (mev_maint_diag_count(m) == 1) {
		char buf[512], want[256];
		mev_maint_diag_format(buf, sizeof buf, m, &mev_maint_diags(m)[0]);
		snprintf(want, sizeof want, "MAINTAINERS:3: N: pattern '(a+)+$' exceeded its matching "
			 "budget (on 'd%04d/aaaaaaaaaaaaaa!'); disabled for the rest of this release "
			 "(it matches nothing more)", out_at);
		CHECK_STR(buf, want);
	}
	mev_matcher_free(mt);
	mev_maint_free(m);
}

#define GIT "GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent " \
	"GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.com GIT_COMMITTER_NAME=C " \
	"GIT_COMMITTER_EMAIL=c@example.com GIT_AUTHOR_DATE='2005-04-07T22:13:13 +0000' " \
	"GIT_COMMITTER_DATE='2005-04-07T22:13:13 +0000' git"

/* The note goes into the stored notes of the release, and of the next one,
 * whose MAINTAINERS is the same: a release after one where a pattern ran
 * out is computed from scratch (MAINTAINERS parsed again), so that it is
 * exactly what a cold build gives (--verify). */
static void test_budget_note_stored(void)
{
	const char *root = test_tmpdir("scale");
	char cmd[4096], repo[600], store[600];
	mev_walk_options o = { 0 };
	mev_walk_result res;
	mev_store *s = NULL;
	snprintf(repo, sizeof repo, "%s/repo", root);
	snprintf(store, sizeof store, "%s/store", root);
	snprintf(cmd, sizeof cmd, "cd '%s' && " GIT " init -q repo && cd repo && mkdir d keep && "
		 "printf 'SLOW\\nS:\\tMaintained\\nF:\\tkeep/\\nN:\\t(a+)+$\\n' >MAINTAINERS && "
		 ": >keep/a.c && : >d/aaaaaaaaaaaaaaaaaaaaaaaaa! && : >d/aa && " GIT " add -A && "
		 GIT " commit -qm 1 && " GIT " tag v1.0 && : >e.c && " GIT " add -A && "
		 GIT " commit -qm 2 && " GIT " tag v1.1", root);
	CHECK_INT(system(cmd), 0);
	o.repo = repo;
	o.store = store;
	o.jobs = 1;
	o.verify = 1;
	CHECK_INT(mev_walk(&res, &o), 0);
	CHECK_INT(res.walked, 2);
	CHECK_INT(res.verified, 2);
	CHECK_INT(res.reparsed, 2);
	CHECK_INT(mev_store_open(&s, store, MEV_STORE_READ), 0);
	for (int k = 0; s && k < 2; k++) {
		char **d = NULL;
		size_t n = 0;
		CHECK_INT(mev_release_load_diags(&d, &n, s, k ? "v1.1" : "v1.0"), 0);
		CHECK_INT(n, 1);
		if (n == 1)
			CHECK_STR(d[0], "MAINTAINERS:4: N: pattern '(a+)+$' exceeded its matching budget "
				  "(on 'd/aaaaaaaaaaaaaaaaaaaaaaaaa!'); disabled for the rest of this "
				  "release (it matches nothing more)");
		mev_release_diags_free(d, n);
	}
	mev_store_free(s);
	test_tmpdir_remove(root);
}

int main(void)
{
	RUN(test_complete_graph);
	RUN(test_random_graphs);
	RUN(test_graph_limit);
	RUN(test_real_patterns_spend_nothing);
	RUN(test_budget_runs_out);
	if (system("git --version >/dev/null 2>&1") == 0)
		RUN(test_budget_note_stored);
	else
		fprintf(stderr, "git is not installed: the walk's notes are not checked\n");
	return test_summary();
}
