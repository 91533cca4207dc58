/*
 * Tests of the overlap graph (its content through the accessors; the
 * writers are tested with the formats): vertex sizes, edge weights, THE
 * REST, order, the edge limit, graphs from stored edges, and the build
 * against a brute-force sum over random file maps.
 */
#include "edge_array.h"
#include "test.h"
#include "rng.h"
#include "maintevo/error.h"
#include "maintevo/filemap.h"
#include "maintevo/graph.h"

#include <stdint.h>

/* Add sections named by `titles` ("THE REST" is flagged), in that order. */
static void add_sections(mev_filemap *fm, const char *const *titles)
{
	for (size_t i = 0; titles[i]; i++) {
		mev_section_info si = { 0 };
		si.title = titles[i];
		si.status = "Maintained";
		si.is_rest = strcmp(titles[i], "THE REST") == 0;
		CHECK_INT(mev_filemap_add_section(fm, &si), 0);
	}
}

/* Index of the section titled t, or UINT32_MAX. */
static uint32_t sec(const mev_filemap *fm, const char *t)
{
	for (size_t i = 0; i < mev_filemap_section_count(fm); i++)
		if (strcmp(mev_filemap_sections(fm)[i].title, t) == 0)
			return (uint32_t)i;
	return UINT32_MAX;
}

/* A row covered by the sections named in `titles` ("A|B", "" for none). */
static void add_row(mev_filemap *fm, const char *path, uint64_t lines, uint64_t bytes, const char *titles)
{
	uint32_t ids[16], set, n = 0;
	char buf[256], *save = NULL;
	snprintf(buf, sizeof buf, "%s", titles);
	for (char *t = strtok_r(buf, "|", &save); t; t = strtok_r(NULL, "|", &save))
		ids[n++] = sec(fm, t);
	/* sorted ids */
	for (uint32_t i = 1; i < n; i++)
		for (uint32_t j = i; j > 0 && ids[j - 1] > ids[j]; j--) {
			uint32_t x = ids[j];
			ids[j] = ids[j - 1];
			ids[j - 1] = x;
		}
	CHECK_INT(mev_filemap_intern_set(&set, fm, ids, n), 0);
	CHECK_INT(mev_filemap_add_row(fm, path, strlen(path), MEV_KIND_FILE, lines, bytes, set), 0);
}

/*
 * Sections not in title order; a.c and b.c share a set (summed once),
 * d.c is THE REST's alone, e.c nobody's, EMPTY covers nothing and a set
 * is interned that no file has.
 */
static mev_filemap *small_fm(const char *const *titles)
{
	mev_filemap *fm = NULL;
	uint32_t unused;
	CHECK_INT(mev_filemap_new(&fm), 0);
	if (!fm)
		return NULL;
	add_sections(fm, titles);
	add_row(fm, "a.c", 10, 100, "ALPHA|ZED|THE REST");
	add_row(fm, "b.c", 20, 200, "ZED|ALPHA|THE REST");
	add_row(fm, "c.c", 5, 50, "ALPHA|MID|THE REST");
	add_row(fm, "d.c", 7, 70, "THE REST");
	add_row(fm, "e.c", 3, 30, "");
	add_row(fm, "f.c", 1, 11, "MID|ZED|ALPHA|THE REST");
	{
		uint32_t ids[2] = { sec(fm, "EMPTY"), sec(fm, "MID") };
		if (ids[0] > ids[1]) {
			uint32_t x = ids[0];
			ids[0] = ids[1];
			ids[1] = x;
		}
		CHECK_INT(mev_filemap_intern_set(&unused, fm, ids, 2), 0);
	}
	return fm;
}

static const char *const titles1[] = { "ZED", "ALPHA", "THE REST", "MID", "EMPTY", NULL };
static const char *const titles2[] = { "EMPTY", "THE REST", "MID", "ALPHA", "ZED", NULL };

/* The graph's edges as "A-B:lines/bytes/files " in their order. */
static const char *edges_text(const mev_graph *g)
{
	static char out[2][2048];
	static int k;
	const mev_section_info *s = mev_filemap_sections(mev_graph_filemap(g));
	const mev_edge *e = mev_graph_edges(g);
	k ^= 1;
	out[k][0] = '\0';
	for (size_t i = 0; i < mev_graph_edge_count(g); i++) {
		size_t l = strlen(out[k]);
		snprintf(out[k] + l, sizeof out[k] - l, "%s-%s:%llu/%llu/%llu ", s[e[i].a].title, s[e[i].b].title,
			 (unsigned long long)e[i].lines, (unsigned long long)e[i].bytes,
			 (unsigned long long)e[i].files);
	}
	return out[k];
}

static const char *const expect_no_rest =
	"ALPHA-ALPHA:36/361/4 ALPHA-MID:6/61/2 ALPHA-ZED:31/311/3 EMPTY-EMPTY:0/0/0 "
	"MID-MID:6/61/2 MID-ZED:1/11/1 ZED-ZED:31/311/3 ";
static const char *const expect_rest =
	"ALPHA-ALPHA:36/361/4 ALPHA-MID:6/61/2 ALPHA-THE REST:36/361/4 ALPHA-ZED:31/311/3 "
	"EMPTY-EMPTY:0/0/0 MID-MID:6/61/2 MID-THE REST:6/61/2 MID-ZED:1/11/1 "
	"THE REST-THE REST:43/431/5 THE REST-ZED:31/311/3 ZED-ZED:31/311/3 ";

/* Self edges are what a section covers (also nothing); pairs what two
 * cover together; THE REST only when kept; in title order whatever the
 * order of the sections. */
static void test_build(void)
{
	mev_filemap *fm = small_fm(titles1), *fm2 = small_fm(titles2);
	mev_graph *g = NULL, *g2 = NULL, *gr = NULL;
	mev_graph_options keep = { 1 };
	const mev_edge *e;

	if (!fm || !fm2)
		return;
	CHECK_INT(mev_graph_build(&g, fm, NULL), 0);
	CHECK_INT(mev_graph_build(&gr, fm, &keep), 0);
	CHECK_INT(mev_graph_build(&g2, fm2, NULL), 0);
	if (!g || !gr || !g2)
		goto done;
	CHECK(mev_graph_filemap(g) == fm);
	CHECK_STR(edges_text(g), expect_no_rest);
	CHECK_STR(edges_text(gr), expect_rest);
	CHECK_STR(edges_text(g2), expect_no_rest);
	CHECK_INT(mev_graph_edge_count(g), 7);
	CHECK_INT(mev_graph_edge_count(gr), 11);
	/* an edge names its sections by index, the smaller title first */
	e = mev_graph_edges(g);
	CHECK(e[2].a == sec(fm, "ALPHA") && e[2].b == sec(fm, "ZED"));
	CHECK(mev_graph_edges(g2)[2].a == sec(fm2, "ALPHA") && mev_graph_edges(g2)[2].b == sec(fm2, "ZED"));
	CHECK(!mev_graph_has_section(g, sec(fm, "THE REST")));
	CHECK(mev_graph_has_section(gr, sec(fm, "THE REST")));
	CHECK(mev_graph_has_section(g, sec(fm, "EMPTY")));
	CHECK(!mev_graph_has_section(g, 5) && !mev_graph_has_section(gr, UINT32_MAX));
	/* the same input, the same bytes */
	mev_graph_free(g2);
	CHECK_INT(mev_graph_build(&g2, fm, NULL), 0);
	if (g2 && mev_graph_edge_count(g2) == mev_graph_edge_count(g))
		CHECK(memcmp(mev_graph_edges(g2), mev_graph_edges(g), 7 * sizeof(mev_edge)) == 0);
done:
	mev_graph_free(g);
	mev_graph_free(g2);
	mev_graph_free(gr);
	mev_filemap_free(fm);
	mev_filemap_free(fm2);
	mev_graph_free(NULL);
}

/* No rows, no sections; sums past 32 bits. */
static void test_edge_cases(void)
{
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	static const char *const t[] = { "A", "B", "THE REST", NULL };

	CHECK_INT(mev_filemap_new(&fm), 0);
	if (!fm)
		return;
	CHECK_INT(mev_graph_build(&g, fm, NULL), 0);
	CHECK(g && mev_graph_edge_count(g) == 0);
	mev_graph_free(g);
	g = NULL;
	add_sections(fm, t);
	CHECK_INT(mev_graph_build(&g, fm, NULL), 0);
	if (g)
		CHECK_STR(edges_text(g), "A-A:0/0/0 B-B:0/0/0 ");
	mev_graph_free(g);
	g = NULL;
	add_row(fm, "x", 3000000000ULL, 5000000000ULL, "A|B|THE REST");
	add_row(fm, "y", 3000000000ULL, 5000000000ULL, "B|A|THE REST");
	add_row(fm, "z", 1, 1, "THE REST");
	CHECK_INT(mev_graph_build(&g, fm, NULL), 0);
	if (g)
		CHECK_STR(edges_text(g), "A-A:6000000000/10000000000/2 A-B:6000000000/10000000000/2 "
			  "B-B:6000000000/10000000000/2 ");
	mev_graph_free(g);
	mev_filemap_free(fm);
}

/* More edges between sections than allowed: refused before any is made,
 * with the count; THE REST and self edges do not count. */
static void test_limit(void)
{
	mev_filemap *fm = small_fm(titles1);
	mev_graph *g = NULL;
	mev_graph_options keep = { 1 };
	if (!fm)
		return;
	/* ALPHA-MID, ALPHA-ZED, MID-ZED */
	CHECK_ERR(mev_graph_build_max(&g, fm, NULL, 2), MEV_ELIMIT,
		  "the overlap graph would have 3 edges between sections, more than the limit of 2");
	CHECK(strstr(mev_error_hint_text(), "How big a graph can be") != NULL);
	CHECK(g == NULL);
	CHECK_INT(mev_graph_build_max(&g, fm, NULL, 3), 0);
	CHECK(g && mev_graph_edge_count(g) == 7);
	mev_graph_free(g);
	/* with THE REST its three edges count */
	CHECK_ERR(mev_graph_build_max(&g, fm, &keep, 5), MEV_ELIMIT, "would have 6 edges between sections");
	CHECK_INT(mev_graph_build_max(&g, fm, &keep, 6), 0);
	mev_graph_free(g);
	CHECK_INT(mev_graph_build_max(&g, fm, &keep, 0) == MEV_ELIMIT, 1);
	mev_filemap_free(fm);
}

/* Stored edges in any order and orientation come back as the build made
 * them; THE REST's dropped unless kept; an unknown id is refused. */
static void test_from_edges(void)
{
	mev_filemap *fm = small_fm(titles1), *secs = NULL;
	mev_graph *g = NULL, *back = NULL;
	mev_graph_options keep = { 1 };
	mev_edge rev[16], *adopt;
	size_t n;
	static const char *const t[] = { "ZED", "ALPHA", "THE REST", "MID", "EMPTY", NULL };

	if (!fm || mev_graph_build(&g, fm, &keep) || !g)
		goto done;
	n = mev_graph_edge_count(g);
	CHECK(n <= 16);
	/* reversed, each pair turned round */
	for (size_t i = 0; i < n && n <= 16; i++) {
		mev_edge e = mev_graph_edges(g)[n - 1 - i];
		rev[i] = e;
		rev[i].a = e.b;
		rev[i].b = e.a;
	}
	/* over sections alone: a file map without rows */
	CHECK_INT(mev_filemap_new(&secs), 0);
	if (!secs)
		goto done;
	add_sections(secs, t);
	CHECK_INT(mev_graph_from_edges(&back, secs, rev, n, &keep), 0);
	if (back)
		CHECK_STR(edges_text(back), expect_rest);
	mev_graph_free(back);
	CHECK_INT(mev_graph_from_edges(&back, secs, rev, n, NULL), 0);
	if (back)
		CHECK_STR(edges_text(back), expect_no_rest);
	mev_graph_free(back);
	CHECK_INT(mev_graph_from_edges(&back, secs, NULL, 0, NULL), 0);
	CHECK(back && mev_graph_edge_count(back) == 0);
	mev_graph_free(back);
	rev[3].b = 5;
	CHECK_ERR(mev_graph_from_edges(&back, secs, rev, n, &keep), MEV_EINVAL,
		  "edge between unknown sections");
	CHECK(back == NULL);
	/* adopted: the graph owns the array (freed also on failure) */
	adopt = malloc(sizeof *adopt * 2);
	if (adopt) {
		mev_edge e1 = { 0, 1, 4, 5, 6 }, e2 = { 1, 1, 7, 8, 9 };
		adopt[0] = e1;
		adopt[1] = e2;
		CHECK_INT(mev_graph_adopt_edges(&back, secs, adopt, 2, NULL), 0);
		if (back) {
			CHECK_STR(edges_text(back), "ALPHA-ALPHA:7/8/9 ALPHA-ZED:4/5/6 ");
			CHECK(mev_graph_edges(back) == adopt);
		}
		mev_graph_free(back);
	}
	adopt = malloc(sizeof *adopt);
	if (adopt) {
		mev_edge e1 = { 9, 0, 1, 1, 1 };
		adopt[0] = e1;
		CHECK_ERR(mev_graph_adopt_edges(&back, secs, adopt, 1, NULL), MEV_EINVAL, "9 and 0");
	}
done:
	mev_graph_free(g);
	mev_filemap_free(secs);
	mev_filemap_free(fm);
}

/* --- random file maps against a brute-force sum ---------------------------- */

typedef struct {
	uint64_t l, b, f;
} sums;

/* Random sections (some THE REST, some sharing a title prefix) and files. */
static mev_filemap *random_fm(size_t nsec, size_t nfiles)
{
	mev_filemap *fm = NULL;
	char title[32], path[32];
	size_t rest = rng_below(nsec + 1);
	CHECK_INT(mev_filemap_new(&fm), 0);
	if (!fm)
		return NULL;
	for (size_t i = 0; i < nsec; i++) {
		mev_section_info si = { 0 };
		if (i == rest)
			snprintf(title, sizeof title, "THE REST");
		else
			snprintf(title, sizeof title, "S%zu%s", rng_below(1000), i % 3 ? "" : " X");
		/* titles are unique in a file map */
		if (i != rest && sec(fm, title) != UINT32_MAX)
			snprintf(title + strlen(title), sizeof title - strlen(title), "#%zu", i);
		si.title = title;
		si.status = "";
		si.is_rest = i == rest;
		CHECK_INT(mev_filemap_add_section(fm, &si), 0);
	}
	for (size_t i = 0; i < nfiles; i++) {
		uint32_t ids[8], n = 0, set;
		for (uint32_t s = 0; s < nsec && n < 8; s++)
			if (rng_below(nsec) < 2)
				ids[n++] = s;
		snprintf(path, sizeof path, "f%06zu", i);
		CHECK_INT(mev_filemap_intern_set(&set, fm, ids, n), 0);
		CHECK_INT(mev_filemap_add_row(fm, path, strlen(path), MEV_KIND_FILE, rng_below(500),
					      rng_below(20000), set), 0);
	}
	return fm;
}

/* The graph equals the pairwise sums over the files, edge for edge. */
static void check_brute(const mev_filemap *fm, int keep_rest)
{
	size_t ns = mev_filemap_section_count(fm), nedges = 0;
	const mev_section_info *s = mev_filemap_sections(fm);
	const mev_file_row *rows = mev_filemap_rows(fm);
	sums *m = calloc(ns * ns + 1, sizeof *m);
	mev_graph_options o = { keep_rest };
	mev_graph *g = NULL;
	const mev_edge *e;

	CHECK_INT(mev_graph_build(&g, fm, &o), 0);
	if (!m || !g)
		goto done;
	for (size_t i = 0; i < mev_filemap_count(fm); i++) {
		const uint32_t *ids;
		size_t k = mev_filemap_set(&ids, fm, rows[i].set);
		for (size_t x = 0; x < k; x++)
			for (size_t y = 0; y < k; y++) {
				sums *c = &m[ids[x] * ns + ids[y]];
				c->l += rows[i].lines;
				c->b += rows[i].bytes;
				c->f++;
			}
	}
	for (size_t a = 0; a < ns; a++)
		for (size_t b = 0; b < ns; b++)
			if (strcmp(s[a].title, s[b].title) <= 0 && (keep_rest || (!s[a].is_rest && !s[b].is_rest)))
				nedges += a == b || m[a * ns + b].f > 0;
	CHECK_INT(mev_graph_edge_count(g), nedges);
	e = mev_graph_edges(g);
	for (size_t i = 0; i < mev_graph_edge_count(g); i++) {
		const sums *c = &m[e[i].a * ns + e[i].b];
		CHECK(e[i].lines == c->l && e[i].bytes == c->b && e[i].files == c->f);
		CHECK(strcmp(s[e[i].a].title, s[e[i].b].title) <= 0);
		CHECK(mev_graph_has_section(g, e[i].a) && mev_graph_has_section(g, e[i].b));
		if (i) {
			int c1 = strcmp(s[e[i - 1].a].title, s[e[i].a].title);
			CHECK(c1 < 0 || (c1 == 0 && strcmp(s[e[i - 1].b].title, s[e[i].b].title) < 0));
		}
	}
done:
	mev_graph_free(g);
	free(m);
}

static void test_random_vs_brute(void)
{
	rng_seed(31);
	for (int round = 0; round < 60; round++) {
		mev_filemap *fm = random_fm(1 + rng_below(40), rng_below(300));
		if (!fm)
			return;
		check_brute(fm, 0);
		check_brute(fm, 1);
		mev_filemap_free(fm);
	}
}

/* How many sections (kept ones) cover exactly the files section t covers. */
static size_t twins_of(const mev_filemap *fm, uint32_t t, int keep_rest)
{
	size_t nr = mev_filemap_count(fm), ns = mev_filemap_section_count(fm), same = 0;
	const mev_file_row *rows = mev_filemap_rows(fm);
	char *cov = calloc(ns * (nr + 1) + 1, 1);
	if (!cov)
		return 0;
	for (size_t i = 0; i < nr; i++) {
		const uint32_t *ids;
		size_t n = mev_filemap_set(&ids, fm, rows[i].set);
		for (size_t j = 0; j < n; j++)
			cov[ids[j] * (nr + 1) + i] = 1;
	}
	for (uint32_t x = 0; x < ns; x++)
		same += (keep_rest || !mev_filemap_sections(fm)[x].is_rest) &&
			memcmp(cov + (size_t)x * (nr + 1), cov + (size_t)t * (nr + 1), nr) == 0;
	free(cov);
	return same;
}

/*
 * Twins (issue 32, point 5): k sections covering exactly the same files,
 * among random others.  Read back from the whole graph's edges, a class of
 * at least MEV_GRAPH_TWINS_MIN is kept as its representative (fewer
 * edges), yet the graph the accessors give is the whole one, edge for edge
 * and in order; fewer twins are read as they are.
 */
static void check_twins(size_t k, int keep_rest)
{
	mev_filemap *fm = random_fm(1 + rng_below(30), rng_below(200));
	mev_graph_options o = { keep_rest };
	mev_graph *full = NULL, *g = NULL;
	size_t base, nk;
	uint32_t ids[64], set, n;
	if (!fm)
		return;
	base = mev_filemap_section_count(fm);
	for (size_t i = 0; i < k; i++) {
		mev_section_info si = { 0 };
		char title[32];
		snprintf(title, sizeof title, "TWIN %02zu", (i * 7) % k); /* not in index order */
		si.title = title;
		si.status = "";
		CHECK_INT(mev_filemap_add_section(fm, &si), 0);
	}
	for (size_t f = 0; f < 1 + rng_below(5); f++) {
		char path[32];
		n = 0;
		for (uint32_t x = 0; x < base && n < 4; x++)
			if (rng_below(base) < 2)
				ids[n++] = x;
		for (size_t i = 0; i < k; i++)
			ids[n++] = (uint32_t)(base + i);
		snprintf(path, sizeof path, "twins/f%zu", f);
		CHECK_INT(mev_filemap_intern_set(&set, fm, ids, n), 0);
		CHECK_INT(mev_filemap_add_row(fm, path, strlen(path), MEV_KIND_FILE, 1 + rng_below(100),
					      rng_below(5000), set), 0);
	}
	CHECK_INT(mev_graph_build(&full, fm, &o), 0);
	if (full) {
		array_src a = { mev_graph_edges(full), mev_graph_edge_count(full), 0 };
		mev_edge_source src = { array_next, array_rewind, &a };
		CHECK_INT(mev_graph_from_source(&g, fm, &src, &o), 0);
	}
	if (!full || !g)
		goto done;
	/* the twins: the planted ones, and random sections that happen to
	 * cover the same files (and no other) */
	k = twins_of(fm, (uint32_t)base, keep_rest);
	CHECK_INT(mev_graph_has_twins(g), k >= MEV_GRAPH_TWINS_MIN);
	CHECK_INT(mev_graph_twin_count(g, (uint32_t)base), k >= MEV_GRAPH_TWINS_MIN ? k : 1);
	for (size_t i = 1; i < MEV_GRAPH_TWINS_MIN - 1 && k >= MEV_GRAPH_TWINS_MIN; i++)
		CHECK_INT(mev_graph_twin_rep(g, (uint32_t)(base + i)), mev_graph_twin_rep(g, (uint32_t)base));
	mev_graph_kept_edges(g, &nk);
	CHECK(k >= MEV_GRAPH_TWINS_MIN ? nk + k * (k - 1) / 2 <= mev_graph_edge_count(full)
				       : nk == mev_graph_edge_count(full));
	CHECK_INT(mev_graph_edge_count(g), mev_graph_edge_count(full));
	CHECK(mev_graph_edges(g) != NULL &&
	      memcmp(mev_graph_edges(g), mev_graph_edges(full),
		     mev_graph_edge_count(full) * sizeof(mev_edge)) == 0);
	/* a copy with other weights keeps the classes */
	{
		mev_edge *w = malloc((nk + 1) * sizeof *w);
		mev_graph *like = NULL;
		if (w) {
			memcpy(w, mev_graph_kept_edges(g, &nk), nk * sizeof *w);
			CHECK_INT(mev_graph_adopt_like(&like, g, w, nk), 0);
			CHECK(like && mev_graph_edge_count(like) == mev_graph_edge_count(full));
			CHECK(like && mev_graph_twin_count(like, (uint32_t)base) == mev_graph_twin_count(g, (uint32_t)base));
			mev_graph_free(like);
		}
	}
done:
	mev_graph_free(g);
	mev_graph_free(full);
	mev_filemap_free(fm);
}

static void test_twins(void)
{
	rng_seed(47);
	for (int round = 0; round < 40; round++) {
		size_t k = round % 4 == 0 ? MEV_GRAPH_TWINS_MIN - 1 : MEV_GRAPH_TWINS_MIN + rng_below(30);
		check_twins(k, round % 2);
	}
}

/* --- hops: the integration distance's search ------------------------------------ */

/* The hops from the sections named in `from` ("A|B") to section `to`, as
 * text: "none" for no path. */
static const char *hops_text(mev_graph_hops *h, const mev_filemap *fm, const char *from,
			     const char *to)
{
	static char out[16];
	uint32_t ids[8], n = 0, dist[16];
	char buf[64], *save = NULL;
	snprintf(buf, sizeof buf, "%s", from);
	for (char *t = strtok_r(buf, "|", &save); t && n < 8; t = strtok_r(NULL, "|", &save))
		ids[n++] = sec(fm, t);
	CHECK_INT(mev_graph_hops_from(dist, h, ids, n), 0);
	if (dist[sec(fm, to)] == MEV_GRAPH_NO_PATH)
		return "none";
	snprintf(out, sizeof out, "%u", dist[sec(fm, to)]);
	return out;
}

/* A chain A-B-C-D, E linked to THE REST only, G alone, EMPTY with no file. */
static void test_hops(void)
{
	static const char *const titles[] = { "D", "C", "THE REST", "B", "A", "E", "G", "EMPTY", NULL };
	mev_filemap *fm = NULL;
	mev_graph *g = NULL, *gr = NULL;
	mev_graph_hops *h = NULL, *hr = NULL;
	mev_graph_options keep = { 1 };

	CHECK_INT(mev_filemap_new(&fm), 0);
	if (!fm)
		return;
	add_sections(fm, titles);
	add_row(fm, "a.c", 1, 1, "A|B");
	add_row(fm, "b.c", 1, 1, "B|C");
	add_row(fm, "b2.c", 1, 1, "B|C");
	add_row(fm, "c.c", 1, 1, "C|D");
	add_row(fm, "d.c", 1, 1, "D|THE REST");
	add_row(fm, "e.c", 1, 1, "THE REST|E");
	add_row(fm, "g.c", 1, 1, "G");
	CHECK_INT(mev_graph_build(&g, fm, NULL), 0);
	CHECK_INT(mev_graph_build(&gr, fm, &keep), 0);
	if (!g || !gr)
		goto done;
	CHECK_INT(mev_graph_hops_new(&h, g), 0);
	CHECK_INT(mev_graph_hops_new(&hr, gr), 0);
	if (!h || !hr)
		goto done;
	CHECK_STR(hops_text(h, fm, "A", "A"), "0");
	CHECK_STR(hops_text(h, fm, "A", "B"), "1");
	CHECK_STR(hops_text(h, fm, "A", "C"), "2");
	CHECK_STR(hops_text(h, fm, "A", "D"), "3");
	CHECK_STR(hops_text(h, fm, "D", "A"), "3");
	/* the nearest of several sources */
	CHECK_STR(hops_text(h, fm, "A|D", "C"), "1");
	CHECK_STR(hops_text(h, fm, "G|A", "G"), "0");
	/* no path: another component, a section with no file, no source */
	CHECK_STR(hops_text(h, fm, "A", "G"), "none");
	CHECK_STR(hops_text(h, fm, "A", "E"), "none");
	CHECK_STR(hops_text(h, fm, "A", "EMPTY"), "none");
	CHECK_STR(hops_text(h, fm, "EMPTY", "EMPTY"), "0");
	CHECK_STR(hops_text(h, fm, "", "A"), "none");
	/* THE REST is no vertex unless kept: neither a source nor a way through */
	CHECK_STR(hops_text(h, fm, "THE REST", "THE REST"), "none");
	CHECK_STR(hops_text(h, fm, "THE REST", "E"), "none");
	CHECK_STR(hops_text(hr, fm, "E", "D"), "2");
	CHECK_STR(hops_text(hr, fm, "E", "A"), "5");
	CHECK_STR(hops_text(hr, fm, "E", "G"), "none");
	{
		uint32_t bad = 99, dist[16];
		CHECK_INT(mev_graph_hops_from(dist, h, &bad, 1), 0);
		CHECK(dist[0] == MEV_GRAPH_NO_PATH);
	}
done:
	mev_graph_hops_free(h);
	mev_graph_hops_free(hr);
	mev_graph_hops_free(NULL);
	mev_graph_free(g);
	mev_graph_free(gr);
	mev_filemap_free(fm);
}

/* Hops from random sources equal those of Floyd-Warshall over the files. */
static void check_hops_brute(const mev_filemap *fm, int keep_rest)
{
	size_t ns = mev_filemap_section_count(fm), nf = mev_filemap_count(fm);
	const mev_section_info *s = mev_filemap_sections(fm);
	const mev_file_row *rows = mev_filemap_rows(fm);
	mev_graph_options opt = { keep_rest };
	mev_graph *g = NULL;
	mev_graph_hops *h = NULL;
	uint32_t *d = malloc(ns * ns * sizeof *d), *dist = malloc(ns * sizeof *dist), from[3];

	CHECK_INT(mev_graph_build(&g, fm, &opt), 0);
	if (g)
		CHECK_INT(mev_graph_hops_new(&h, g), 0);
	if (!d || !dist || !h)
		goto done;
	for (size_t i = 0; i < ns * ns; i++)
		d[i] = i % (ns + 1) == 0 ? 0 : MEV_GRAPH_NO_PATH;
	for (size_t r = 0; r < nf; r++) {
		const uint32_t *ids;
		size_t k = mev_filemap_set(&ids, fm, rows[r].set);
		for (size_t i = 0; i < k; i++)
			for (size_t j = 0; j < k; j++)
				if (i != j && (keep_rest || (!s[ids[i]].is_rest && !s[ids[j]].is_rest)))
					d[ids[i] * ns + ids[j]] = 1;
	}
	for (size_t m = 0; m < ns; m++)
		for (size_t i = 0; i < ns; i++)
			for (size_t j = 0; j < ns; j++)
				if (d[i * ns + m] != MEV_GRAPH_NO_PATH && d[m * ns + j] != MEV_GRAPH_NO_PATH &&
				    d[i * ns + m] + d[m * ns + j] < d[i * ns + j])
					d[i * ns + j] = d[i * ns + m] + d[m * ns + j];
	for (int round = 0; round < 20; round++) {
		size_t n = 1 + rng_below(3);
		for (size_t i = 0; i < n; i++)
			from[i] = (uint32_t)rng_below(ns);
		CHECK_INT(mev_graph_hops_from(dist, h, from, n), 0);
		for (size_t t = 0; t < ns; t++) {
			uint32_t best = MEV_GRAPH_NO_PATH;
			for (size_t i = 0; i < n; i++)
				if (mev_graph_has_section(g, from[i]) && mev_graph_has_section(g, (uint32_t)t) &&
				    d[from[i] * ns + t] < best)
					best = d[from[i] * ns + t];
			CHECK_INT(dist[t], best);
		}
	}
done:
	free(d);
	free(dist);
	mev_graph_hops_free(h);
	mev_graph_free(g);
}

static void test_hops_vs_brute(void)
{
	rng_seed(53);
	for (int round = 0; round < 30; round++) {
		mev_filemap *fm = random_fm(2 + rng_below(40), rng_below(60));
		if (!fm)
			return;
		check_hops_brute(fm, round % 2);
		mev_filemap_free(fm);
	}
}

int main(void)
{
	RUN(test_build);
	RUN(test_edge_cases);
	RUN(test_limit);
	RUN(test_from_edges);
	RUN(test_random_vs_brute);
	RUN(test_twins);
	RUN(test_hops);
	RUN(test_hops_vs_brute);
	return test_summary();
}
