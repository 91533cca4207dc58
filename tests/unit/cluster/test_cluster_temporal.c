/* Tests of the temporal clustering: same graph same partition, real changes seen, hysteresis, the modularity bound, the stored chain. */
#include "cluster_test.h"
#include "cluster/cluster_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/store.h"

#include <math.h>

static const char *dir;

/* --- generated graphs --------------------------------------------------- */

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)((rng_state >> 33) % n);
}

/*
 * groups x size sections "G<g> S<s>" with dense weighted edges inside a
 * group and a few thin ones between groups; group_of (may be NULL) moves
 * sections to other groups; `skip` leaves every skip-th section out (0:
 * none).  The same seed gives the same graph.
 */
static tgraph generate(uint64_t seed, int groups, int size, const int *group_of, int skip)
{
	int n = groups * size;
	mev_edge *e = calloc((size_t)(n * n + n + 1), sizeof *e);
	uint32_t *id = malloc((size_t)n * sizeof *id);
	size_t ne = 0;
	uint32_t k = 0;
	tgraph t;
	mev_graph_options go = { 1 };
	rng_state = seed;
	mev_filemap_new(&t.fm);
	for (int i = 0; i < n; i++) {
		char title[32];
		mev_section_info si = { 0 };
		id[i] = UINT32_MAX;
		if (skip && i % skip == skip - 1)
			continue;
		snprintf(title, sizeof title, "G%02d S%02d", i / size, i % size);
		si.title = title;
		si.status = "";
		mev_filemap_add_section(t.fm, &si);
		id[i] = k;
		e[ne].a = e[ne].b = k++;
		e[ne].lines = 100 + rnd(900);
		e[ne].files = 1;
		ne++;
	}
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			int gi = group_of ? group_of[i] : i / size, gj = group_of ? group_of[j] : j / size;
			uint32_t r = rnd(100), w = gi == gj ? (r < 60 ? 50 + rnd(100) : 0) : (r < 3 ? 5 + rnd(15) : 0);
			if (!w || id[i] == UINT32_MAX || id[j] == UINT32_MAX)
				continue;
			e[ne].a = id[i];
			e[ne].b = id[j];
			e[ne].lines = w;
			e[ne].files = 1;
			ne++;
		}
	mev_graph_from_edges(&t.g, t.fm, e, ne, &go);
	free(e);
	free(id);
	return t;
}

static mev_cluster_params temporal_params(void)
{
	mev_cluster_params p;
	mev_cluster_params_init(&p);
	CHECK_INT(p.method, MEV_CLUSTER_TEMPORAL); /* the default */
	return p;
}

static mev_clustering *run(const tgraph *t, const mev_cluster_params *p, const mev_clustering *prev)
{
	mev_clustering *c = NULL;
	CHECK_INT(mev_cluster_graph(&c, t->g, p, prev), 0);
	return c;
}

/* Modularity at least tol of the reference, which is the best of Leiden with seeds seed..seed+3. */
static void check_bound(const mev_clustering *c, const tgraph *t, const mev_cluster_params *p)
{
	mev_cluster_params lp = *p;
	double best = -1, q = mev_clustering_modularity(c), ref = mev_clustering_reference_modularity(c);
	lp.method = MEV_CLUSTER_LEIDEN;
	for (uint64_t s = 0; s < 4; s++) {
		mev_clustering *l = NULL;
		lp.seed = p->seed + s;
		CHECK_INT(mev_cluster_graph(&l, t->g, &lp, NULL), 0);
		if (l && mev_clustering_modularity(l) > best)
			best = mev_clustering_modularity(l);
		mev_clustering_free(l);
	}
	CHECK(fabs(ref - best) < 1e-9);
	CHECK(q >= p->tolerance * ref - 1e-12);
}

/* --- tests ------------------------------------------------------------------- */

static void test_identical(void)
{
	mev_cluster_params p = temporal_params();
	tgraph g = generate(1, 6, 10, NULL, 0);
	int scrambled[60];
	tgraph other;
	mev_clustering *c1, *c2, *c3, *x, *y, *z;
	c1 = run(&g, &p, NULL);
	c2 = run(&g, &p, c1);
	c3 = run(&g, &p, c2);
	if (c1 && c2 && c3) {
		CHECK_INT(mev_clustering_step(c1), MEV_CLUSTER_STEP_INDEPENDENT);
		CHECK_INT(mev_clustering_count(c1), 6);
		/* the same graph from its own clusters: nothing moves, the same numbers */
		CHECK(same_partition(c1, c2) && same_partition(c2, c3));
		CHECK_INT(mev_clustering_step(c2), MEV_CLUSTER_STEP_KEPT);
		CHECK_INT(mev_clustering_moved(c2), 0);
		CHECK(mev_clustering_modularity(c2) == mev_clustering_modularity(c1));
		CHECK(mev_clustering_fingerprint(c2) == mev_clustering_fingerprint(c3));
	}
	/* from clusters that fit another graph: many sections move (single, in
	 * pieces, or by re-optimising), and then the clusters are kept as they are */
	for (int i = 0; i < 60; i++)
		scrambled[i] = (i * 7) % 6;
	other = generate(2, 6, 10, scrambled, 0);
	x = run(&other, &p, NULL);
	y = run(&g, &p, x);
	z = run(&g, &p, y);
	if (y && z) {
		CHECK(mev_clustering_step(y) != MEV_CLUSTER_STEP_KEPT);
		CHECK(mev_clustering_moved(y) > 20);
		CHECK_INT(mev_clustering_count(y), 6);
		check_bound(y, &g, &p);
		CHECK(same_partition(y, z));
		CHECK_INT(mev_clustering_step(z), MEV_CLUSTER_STEP_KEPT);
	}
	mev_clustering_free(c1);
	mev_clustering_free(c2);
	mev_clustering_free(c3);
	mev_clustering_free(x);
	mev_clustering_free(y);
	mev_clustering_free(z);
	drop(&g);
	drop(&other);
}

static void test_bridge(void)
{
	/* before: one subsystem; after: its lead no longer joins its two halves */
	static const char *const s1[] = { "G LEAD=1000", "G ONE=300", "G TWO=300", "G THREE=300", "G FOUR=300",
					  "H LEAD=800", "H ONE=300", NULL };
	static const char *const e1[] = { "G LEAD|G ONE=300", "G LEAD|G TWO=300", "G LEAD|G THREE=300",
					  "G LEAD|G FOUR=300", "G ONE|G TWO=100", "G THREE|G FOUR=100",
					  "G ONE|G THREE=100", "H LEAD|H ONE=300", NULL };
	static const char *const s2[] = { "G LEAD=600", "G ONE=300", "G TWO=300", "G THREE=300", "G FOUR=300",
					  "NEW LEAD=600", "H LEAD=800", "H ONE=300", NULL };
	static const char *const e2[] = { "G LEAD|G ONE=300", "G LEAD|G TWO=300", "G ONE|G TWO=100",
					  "NEW LEAD|G THREE=300", "NEW LEAD|G FOUR=300", "G THREE|G FOUR=100",
					  "H LEAD|H ONE=300", NULL };
	mev_cluster_params p = temporal_params();
	tgraph a = make(s1, e1), b = make(s2, e2);
	mev_clustering *ca = run(&a, &p, NULL), *cb = run(&b, &p, ca);
	if (ca && cb) {
		CHECK(cluster_of(ca, "G ONE") == cluster_of(ca, "G FOUR"));
		CHECK(cluster_of(cb, "G ONE") != cluster_of(cb, "G FOUR"));
		CHECK(cluster_of(cb, "NEW LEAD") == cluster_of(cb, "G FOUR"));
		CHECK_STR(rep_of(cb, "G THREE"), "NEW LEAD");
		CHECK(cluster_of(cb, "H LEAD") == cluster_of(cb, "H ONE"));
		/* G THREE and G FOUR left G's cluster (NEW LEAD was new: not counted) */
		CHECK_INT(mev_clustering_moved(cb), 2);
		check_bound(cb, &b, &p);
	}
	mev_clustering_free(ca);
	mev_clustering_free(cb);
	drop(&a);
	drop(&b);
}

/* Two groups and X between them, sharing `to_a` lines with A's lead and `to_b` with B's. */
static tgraph between(const char *to_a, const char *to_b)
{
	static const char *const s[] = { "A LEAD=900", "A ONE=300", "A TWO=300", "A THREE=300", "B LEAD=900",
					 "B ONE=300", "B TWO=300", "B THREE=300", "X=200", NULL };
	const char *e[] = { "A LEAD|A ONE=300", "A LEAD|A TWO=300", "A LEAD|A THREE=300", "A ONE|A TWO=200",
			    "A TWO|A THREE=200", "B LEAD|B ONE=300", "B LEAD|B TWO=300", "B LEAD|B THREE=300",
			    "B ONE|B TWO=200", "B TWO|B THREE=200", to_a, to_b, NULL };
	return make(s, e);
}

static void test_hysteresis(void)
{
	mev_cluster_params p = temporal_params(), lp = p;
	tgraph t0 = between("X|A LEAD=60", "X|B LEAD=40"), t1 = between("X|A LEAD=45", "X|B LEAD=55"),
	       t2 = between("X|A LEAD=20", "X|B LEAD=80");
	mev_clustering *c0 = run(&t0, &p, NULL), *c1 = run(&t1, &p, c0), *c2 = run(&t2, &p, c1), *l1;
	lp.method = MEV_CLUSTER_LEIDEN;
	l1 = run(&t1, &lp, NULL);
	if (c0 && c1 && c2 && l1) {
		CHECK(cluster_of(c0, "X") == cluster_of(c0, "A LEAD"));
		/* on its own, t1 puts X with B; from t0, X stays: 55 to 45 is no clear gain */
		CHECK(cluster_of(l1, "X") == cluster_of(l1, "B LEAD"));
		CHECK(cluster_of(c1, "X") == cluster_of(c1, "A LEAD"));
		CHECK_INT(mev_clustering_step(c1), MEV_CLUSTER_STEP_KEPT);
		check_bound(c1, &t1, &p);
		/* 80 to 20 is: X moves, alone */
		CHECK(cluster_of(c2, "X") == cluster_of(c2, "B LEAD"));
		CHECK_INT(mev_clustering_step(c2), MEV_CLUSTER_STEP_MOVED);
		CHECK_INT(mev_clustering_moved(c2), 1);
	}
	mev_clustering_free(c0);
	mev_clustering_free(c1);
	mev_clustering_free(c2);
	mev_clustering_free(l1);
	drop(&t0);
	drop(&t1);
	drop(&t2);
}

/*
 * mev__settle() with a reference partition: in A = {0, 1, 2}, B = {3, 4, 5},
 * section 2 shares 2 lines with A and 24 with B, so it leaves A for B under
 * the hysteresis; a reference that keeps 2 with 0 and 1 holds it in A, one
 * that puts it apart from them lets it go.  Section 6 starts alone: it has
 * no pairs in its own cluster, so it joins B whatever the reference says.
 */
static void settle_with(uint32_t *label, const uint32_t *ref_label)
{
	static const uint32_t ends[] = { 0, 1, 0, 2, 1, 2, 2, 3, 2, 4, 3, 4, 3, 5, 4, 5, 6, 3, 6, 4 };
	static const double w[] = { 10, 1, 1, 12, 12, 10, 10, 10, 40, 40 };
	static const double lines[] = { 100, 100, 100, 100, 100, 100, 100 };
	const uint32_t start[] = { 0, 0, 0, 1, 1, 1, 2 };
	mev__reference ref = { ref_label, lines, NULL };
	mev__wgraph g;
	memcpy(label, start, sizeof start);
	CHECK_INT(mev__wgraph_init(&g, 7, ends, w, 10, 1), 0);
	CHECK_INT(mev__settle(label, &g, 0.3, NULL, ref_label ? &ref : NULL), 0);
	mev__wgraph_free(&g);
}

static void test_reference(void)
{
	const uint32_t keeps[] = { 0, 0, 0, 1, 1, 1, 2 }, parts[] = { 0, 0, 1, 1, 1, 1, 2 };
	uint32_t label[7];
	settle_with(label, NULL);
	CHECK(label[2] == label[3] && label[2] != label[0]);
	CHECK(label[6] == label[3]);
	settle_with(label, keeps);
	CHECK(label[2] == label[0] && label[2] != label[3]);
	CHECK(label[6] == label[3]);
	settle_with(label, parts);
	CHECK(label[2] == label[3] && label[2] != label[0]);
	CHECK(label[6] == label[3]);
}

/* P and Q joined by `pq` lines, and (when `big`) ten unrelated pairs of
 * 3,000 lines each: the total weight grows 35-fold. */
static tgraph still(const char *pq, int big)
{
	static const char *const s0[] = { "P1=600", "P2=300", "Q1=600", "Q2=300", NULL };
	static const char *const s1[] = { "P1=600", "P2=300", "Q1=600", "Q2=300", "C0=3000", "D0=3000",
					  "C1=3000", "D1=3000", "C2=3000", "D2=3000", "C3=3000", "D3=3000",
					  "C4=3000", "D4=3000", "C5=3000", "D5=3000", "C6=3000", "D6=3000",
					  "C7=3000", "D7=3000", "C8=3000", "D8=3000", "C9=3000", "D9=3000", NULL };
	const char *e[] = { "P1|P2=300", "Q1|Q2=300", pq, "C0|D0=3000", "C1|D1=3000", "C2|D2=3000",
			    "C3|D3=3000", "C4|D4=3000", "C5|D5=3000", "C6|D6=3000", "C7|D7=3000",
			    "C8|D8=3000", "C9|D9=3000", NULL };
	if (!big)
		e[3] = NULL;
	return make(big ? s1 : s0, e);
}

static void test_still(void)
{
	/* Alone, P and Q are two clusters; beside much more code, modularity
	 * would join them (its resolution limit), though nothing in or next to
	 * them changed: the temporal method leaves them apart.  When the lines
	 * they share do change, they may join. */
	mev_cluster_params p = temporal_params(), lp = p;
	tgraph t0 = still("P1|Q1=280", 0), t1 = still("P1|Q1=280", 1), t2 = still("P1|Q1=320", 1);
	mev_clustering *c0 = run(&t0, &p, NULL), *c1 = run(&t1, &p, c0), *c2 = run(&t2, &p, c0), *l1;
	lp.method = MEV_CLUSTER_LEIDEN;
	l1 = run(&t1, &lp, NULL);
	if (c0 && c1 && c2 && l1) {
		CHECK(cluster_of(c0, "P1") != cluster_of(c0, "Q1"));
		CHECK(cluster_of(l1, "P1") == cluster_of(l1, "Q1"));
		CHECK(cluster_of(c1, "P1") != cluster_of(c1, "Q1"));
		CHECK(cluster_of(c1, "P1") == cluster_of(c1, "P2"));
		CHECK_INT(mev_clustering_step(c1), MEV_CLUSTER_STEP_KEPT);
		check_bound(c1, &t1, &p);
		CHECK(cluster_of(c2, "P1") == cluster_of(c2, "Q1"));
	}
	mev_clustering_free(c0);
	mev_clustering_free(c1);
	mev_clustering_free(c2);
	mev_clustering_free(l1);
	drop(&t0);
	drop(&t1);
	drop(&t2);
}

/* A history of generated graphs: noise, sections leaving, groups merging. */
static tgraph history_graph(int i)
{
	static int merged[80];
	for (int s = 0; s < 80; s++)
		merged[s] = s / 10 == 7 ? 6 : s / 10; /* group 7 joins group 6 */
	return generate(100 + (uint64_t)i, 8, 10, i >= 4 ? merged : NULL, i == 2 || i == 3 ? 7 : 0);
}

static void test_bound_and_determinism(void)
{
	static const double tols[] = { 0.97, 1.0 };
	for (size_t k = 0; k < 2; k++) {
		mev_cluster_params p = temporal_params();
		mev_clustering *a = NULL, *b = NULL;
		p.tolerance = tols[k];
		for (int i = 0; i < 7; i++) {
			tgraph t = history_graph(i);
			mev_clustering *na = run(&t, &p, a), *nb = run(&t, &p, b);
			if (na && nb) {
				check_bound(na, &t, &p);
				CHECK(mev_clustering_fingerprint(na) == mev_clustering_fingerprint(nb));
				CHECK(mev_clustering_step(na) == mev_clustering_step(nb));
			}
			mev_clustering_free(a);
			mev_clustering_free(b);
			a = na;
			b = nb;
			drop(&t);
		}
		mev_clustering_free(a);
		mev_clustering_free(b);
	}
}

/* --- the store -------------------------------------------------------------- */

typedef struct {
	const char *tag;
	const tgraph *t;
} put_ctx;

static int put_fn(mev_store *s, void *ctx)
{
	const put_ctx *pc = ctx;
	mev_release_input in = { 0 };
	in.tag = pc->tag;
	return mev_release_put_graph(s, &in, pc->t->fm, pc->t->g);
}

static void put(mev_store *s, const char *tag, const tgraph *t)
{
	put_ctx pc = { tag, t };
	CHECK_INT(mev_store_write(s, put_fn, &pc), 0);
}

static volatile int stop_flag;

static void stop_after_first(void *ctx, size_t i, size_t total, const char *what)
{
	(void)ctx;
	(void)total;
	(void)what;
	if (i >= 1)
		stop_flag = 1;
}

/* The stored clusterings of tags[0..3] are those of the chain t[0..3] in
 * memory (t[1] replaced by v2 when given). */
static void check_stored(mev_store *s, const mev_cluster_params *p, const tgraph *t,
			 const char *const *tags, const tgraph *v2)
{
	mev_clustering *mem = NULL;
	for (int i = 0; i < 4; i++) {
		mev_clustering *c = NULL, *n = run(i == 1 && v2 ? v2 : &t[i], p, mem);
		CHECK_INT(mev_cluster_load(&c, s, p, tags[i]), 0);
		if (c && n) {
			CHECK(same_partition(c, n));
			CHECK(mev_clustering_fingerprint(c) == mev_clustering_fingerprint(n));
			CHECK(mev_clustering_step(c) == mev_clustering_step(n));
			CHECK(mev_clustering_moved(c) == mev_clustering_moved(n));
			CHECK(mev_clustering_reference_modularity(c) == mev_clustering_reference_modularity(n));
		}
		mev_clustering_free(c);
		mev_clustering_free(mem);
		mem = n;
	}
	mev_clustering_free(mem);
}

static void test_store_chain(void)
{
	static const char *const tags[] = { "v1", "v2", "v3", "v4" };
	mev_cluster_params p = temporal_params();
	mev_cluster_result res;
	mev_cluster_options o = { 0 };
	mev_store *s = NULL;
	tgraph t[4], other = generate(7, 4, 6, NULL, 0);
	CHECK_INT(mev_store_open(&s, dir, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	if (!s)
		return;
	for (int i = 0; i < 4; i++) {
		t[i] = history_graph(i + 2);
		put(s, tags[i], &t[i]);
	}
	CHECK_INT(mev_cluster_store(&res, s, &p, &o), 0);
	CHECK_INT(res.clustered, 4);
	CHECK_INT(res.steps[MEV_CLUSTER_STEP_INDEPENDENT] >= 1, 1);
	check_stored(s, &p, t, tags, NULL);
	CHECK_INT(mev_cluster_store(&res, s, &p, &o), 0);
	CHECK_INT(res.kept, 4);
	/* an earlier release walked again: it, and the next one (whose start
	 * changed), and the one after when that one's clusters changed */
	put(s, "v2", &other);
	CHECK_INT(mev_cluster_store(&res, s, &p, &o), 0);
	CHECK(res.clustered >= 2 && res.kept >= 1 && res.clustered + res.kept == 4);
	check_stored(s, &p, t, tags, &other);
	/* interrupted after v2: v3 was clustered from the other v2, and its
	 * record says so (the chain), so the next run clusters it again */
	put(s, "v2", &t[1]);
	o.progress.progress = stop_after_first;
	o.progress.stop = &stop_flag;
	CHECK_ERR(mev_cluster_store(&res, s, &p, &o), MEV_EINTR, "interrupted");
	CHECK_INT(res.clustered, 1);
	o.progress.progress = NULL;
	stop_flag = 0;
	CHECK_INT(mev_cluster_store(&res, s, &p, &o), 0);
	CHECK(res.clustered >= 1 && res.kept >= 2 && res.clustered + res.kept == 4);
	check_stored(s, &p, t, tags, NULL);
	mev_store_free(s);
	for (int i = 0; i < 4; i++)
		drop(&t[i]);
	drop(&other);
}

int main(void)
{
	dir = test_tmpdir("temporal");
	RUN(test_identical);
	RUN(test_bridge);
	RUN(test_hysteresis);
	RUN(test_still);
	RUN(test_reference);
	RUN(test_bound_and_determinism);
	RUN(test_store_chain);
	test_tmpdir_remove(dir);
	return test_summary();
}
