/* Tests of the clustering: parameters, methods, representatives, the store, igraph errors, workers
 * (the temporal method: test_cluster_temporal.c). */
#include "cluster_test.h"
#include "edge_array.h"
#include "cluster/cluster_internal.h"
#include "maintevo/cluster.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/store.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *dir;

/* Two dense groups joined by one thin edge, an isolated section, one that
 * covers nothing, and THE REST over everything. */
static const char *const two_groups_s[] = {
	"NET CORE=1000", "NET DRIVER A=400", "NET DRIVER B=300", "NET DRIVER C=300",
	"SOUND CORE=900", "SOUND CODEC X=500", "SOUND CODEC Y=500",
	"LONELY=50", "EMPTY=0", "THE REST=10000", NULL
};
static const char *const two_groups_e[] = {
	"NET CORE|NET DRIVER A=400", "NET CORE|NET DRIVER B=300", "NET CORE|NET DRIVER C=300",
	"NET DRIVER A|NET DRIVER B=100", "NET DRIVER B|NET DRIVER C=100", "NET DRIVER A|NET DRIVER C=100",
	"SOUND CORE|SOUND CODEC X=500", "SOUND CORE|SOUND CODEC Y=500", "SOUND CODEC X|SOUND CODEC Y=200",
	"NET DRIVER C|SOUND CODEC Y=5",
	"NET CORE|THE REST=1000", "SOUND CORE|THE REST=900", "LONELY|THE REST=50", NULL
};

static void test_params(void)
{
	mev_cluster_params p;
	char key[128];
	mev_cluster_params_init(&p);
	mev_cluster_key(key, sizeof key, &p);
	CHECK_STR(key, "temporal:res=1:seed=1:tol=0.97:top=1");
	p.method = MEV_CLUSTER_WALKTRAP;
	mev_cluster_key(key, sizeof key, &p);
	CHECK_STR(key, "walktrap:steps=4:top=1");
	p.method = MEV_CLUSTER_LEIDEN;
	p.smooth = 1;
	p.top_fraction = 0.2;
	mev_cluster_key(key, sizeof key, &p);
	CHECK_STR(key, "leiden:res=1:seed=1:top=0.2:smooth");
	p.method = MEV_CLUSTER_COMPONENTS;
	p.smooth = 0;
	mev_cluster_key(key, sizeof key, &p);
	CHECK_STR(key, "components:top=0.2");
	/* parse: names, keys, round trips, errors */
	CHECK_INT(mev_cluster_params_parse(&p, "louvain"), 0);
	CHECK_INT(p.method, MEV_CLUSTER_LOUVAIN);
	CHECK_INT(mev_cluster_params_parse(&p, "leiden:res=2.5:seed=7:top=0.5:smooth"), 0);
	CHECK(p.method == MEV_CLUSTER_LEIDEN && p.resolution == 2.5 && p.seed == 7 && p.top_fraction == 0.5 &&
	      p.smooth);
	mev_cluster_key(key, sizeof key, &p);
	CHECK_STR(key, "leiden:res=2.5:seed=7:top=0.5:smooth");
	CHECK_INT(mev_cluster_params_parse(&p, "walktrap:steps=6"), 0);
	CHECK_INT(p.steps, 6);
	CHECK_INT(mev_cluster_params_parse(&p, "temporal:tol=0.9:seed=3"), 0);
	CHECK(p.method == MEV_CLUSTER_TEMPORAL && p.tolerance == 0.9 && p.seed == 3 && p.resolution == 1);
	mev_cluster_key(key, sizeof key, &p);
	CHECK_STR(key, "temporal:res=1:seed=3:tol=0.9:top=1");
	CHECK_ERR(mev_cluster_params_parse(&p, "temporal:tol=0"), MEV_EINVAL, "tolerance must be in (0, 1], not 0");
	CHECK_ERR(mev_cluster_params_parse(&p, "temporal:tol=1.5"), MEV_EINVAL,
		  "tolerance must be in (0, 1], not 1.5");
	CHECK_ERR(mev_cluster_params_parse(&p, "temporal:smooth"), MEV_EINVAL,
		  "smoothing needs the leiden method, not temporal");
	CHECK(strstr(mev_error_hint_text(), "always starts from the previous release") != NULL);
	CHECK_ERR(mev_cluster_params_parse(&p, "spectral"), MEV_EINVAL,
		  "unknown clustering method in 'spectral'");
	CHECK_ERR(mev_cluster_params_parse(&p, "walktrap:steps=x"), MEV_EINVAL,
		  "cannot read 'steps' in clustering parameters 'walktrap:steps=x'");
	CHECK_ERR(mev_cluster_params_parse(&p, "walktrap:colour=red"), MEV_EINVAL,
		  "cannot read 'colour' in clustering parameters");
	/* smoothing is Leiden's */
	CHECK_ERR(mev_cluster_params_parse(&p, "walktrap:smooth"), MEV_EINVAL,
		  "smoothing needs the leiden method, not walktrap");
	CHECK_ERR(mev_cluster_params_parse(&p, "walktrap:top=0"), MEV_EINVAL,
		  "top fraction must be in (0, 1], not 0");
	CHECK_ERR(mev_cluster_params_parse(&p, ""), MEV_EINVAL, "unknown clustering method in ''");
	CHECK_INT(mev_cluster_method_parse("components"), MEV_CLUSTER_COMPONENTS);
	CHECK_INT(mev_cluster_method_parse("temporal"), MEV_CLUSTER_TEMPORAL);
	CHECK_INT(mev_cluster_method_parse("nope"), -1);
}

static void test_walktrap(void)
{
	tgraph t = make(two_groups_s, two_groups_e);
	mev_cluster_params p;
	mev_clustering *c = NULL;
	mev_cluster_params_init(&p);
	p.method = MEV_CLUSTER_WALKTRAP;
	CHECK_INT(mev_cluster_graph(&c, t.g, &p, NULL), 0);
	if (!c)
		return;
	/* two groups, two singletons; THE REST out */
	CHECK_INT(mev_clustering_count(c), 4);
	CHECK(cluster_of(c, "NET CORE") == cluster_of(c, "NET DRIVER C"));
	CHECK(cluster_of(c, "SOUND CORE") == cluster_of(c, "SOUND CODEC Y"));
	CHECK(cluster_of(c, "NET CORE") != cluster_of(c, "SOUND CORE"));
	CHECK(cluster_of(c, "THE REST") == MEV_CLUSTER_NONE);
	CHECK(cluster_of(c, "EMPTY") != MEV_CLUSTER_NONE);
	/* numbered by lines, largest first; representatives are the largest sections */
	CHECK_INT(cluster_of(c, "NET CORE"), 0);
	CHECK_INT(mev_clustering_lines(c, 0), 2000);
	CHECK_INT(mev_clustering_size(c, 0), 4);
	CHECK_STR(rep_of(c, "NET DRIVER B"), "NET CORE");
	CHECK_STR(rep_of(c, "SOUND CODEC X"), "SOUND CORE");
	CHECK_INT(cluster_of(c, "LONELY"), 2);
	CHECK_INT(cluster_of(c, "EMPTY"), 3);
	CHECK(mev_clustering_modularity(c) > 0.3 && mev_clustering_modularity(c) < 1);
	mev_clustering_free(c);
	drop(&t);
}

/* The representative of the one cluster the method makes of sections s, edges e. */
static void check_rep(mev_cluster_method m, const char *const *s, const char *const *e, const char *member,
		      const char *rep)
{
	tgraph t = make(s, e);
	mev_cluster_params p;
	mev_clustering *c = NULL;
	mev_cluster_params_init(&p);
	p.method = m;
	CHECK_INT(mev_cluster_graph(&c, t.g, &p, NULL), 0);
	if (c) {
		CHECK_INT(mev_clustering_count(c), 1);
		CHECK_STR(rep_of(c, member), rep);
		mev_clustering_free(c);
	}
	drop(&t);
}

/* An umbrella (DPDK's "Documentation (with overlaps)") does not name its
 * cluster; a parent holding its children, or a section that is most of its
 * cluster, does. */
static void test_umbrella(void)
{
	/* DOCS touches all three drivers (10 lines each of their 2,400), is
	 * less than half of them: an umbrella, the largest driver names */
	static const char *const us[] = { "DOCS=1100", "DRV A=1000", "DRV B=800", "DRV C=600", NULL };
	static const char *const ue[] = { "DOCS|DRV A=10", "DOCS|DRV B=10", "DOCS|DRV C=10", NULL };
	/* ARM holds its boards' files: no umbrella */
	static const char *const ps[] = { "ARM=1100", "BOARD X=500", "BOARD Y=400", "BOARD Z=300", NULL };
	static const char *const pe[] = { "ARM|BOARD X=500", "ARM|BOARD Y=400", "ARM|BOARD Z=300", NULL };
	/* LIB touches its two tools lightly but is most of the cluster */
	static const char *const ls[] = { "LIB=1000", "TOOL A=100", "TOOL B=90", NULL };
	static const char *const le[] = { "LIB|TOOL A=5", "LIB|TOOL B=5", NULL };
	/* umbrellas only (four sections each touching the three others by a
	 * line): the largest names, ties by the smallest title */
	static const char *const as[] = { "X=100", "W=100", "Y=100", "Z=90", NULL };
	static const char *const ae[] = { "W|X=1", "W|Y=1", "W|Z=1", "X|Y=1", "X|Z=1", "Y|Z=1", NULL };
	check_rep(MEV_CLUSTER_COMPONENTS, us, ue, "DRV C", "DRV A");
	check_rep(MEV_CLUSTER_COMPONENTS, ps, pe, "BOARD Z", "ARM");
	check_rep(MEV_CLUSTER_COMPONENTS, ls, le, "TOOL B", "LIB");
	check_rep(MEV_CLUSTER_COMPONENTS, as, ae, "Z", "W");
}

static void test_ties_and_top(void)
{
	/* equal sizes: the bytewise smallest title represents */
	static const char *const s[] = { "B SECTION=100", "A SECTION=100", "C SECTION=100", "THE REST=300", NULL };
	static const char *const e[] = { "A SECTION|B SECTION=50", "B SECTION|C SECTION=50",
					 "A SECTION|C SECTION=50", NULL };
	tgraph t = make(two_groups_s, two_groups_e);
	mev_cluster_params p;
	mev_clustering *c = NULL;
	check_rep(MEV_CLUSTER_WALKTRAP, s, e, "C SECTION", "A SECTION");

	/* --top-fraction: sections above the (1 - F) quantile (type 7) stay */
	mev_cluster_params_init(&p);
	p.method = MEV_CLUSTER_WALKTRAP;
	p.top_fraction = 0.5;
	CHECK_INT(mev_cluster_graph(&c, t.g, &p, NULL), 0);
	if (c) {
		/* 9 sizes 0..1000: the median is 400; strictly larger ones stay */
		CHECK(cluster_of(c, "NET CORE") != MEV_CLUSTER_NONE);
		CHECK(cluster_of(c, "SOUND CODEC X") != MEV_CLUSTER_NONE);
		CHECK(cluster_of(c, "NET DRIVER A") == MEV_CLUSTER_NONE);
		CHECK(cluster_of(c, "NET DRIVER B") == MEV_CLUSTER_NONE);
		CHECK(cluster_of(c, "LONELY") == MEV_CLUSTER_NONE);
		CHECK(cluster_of(c, "EMPTY") == MEV_CLUSTER_NONE);
		mev_clustering_free(c);
	}
	drop(&t);
}

static void test_methods(void)
{
	tgraph t = make(two_groups_s, two_groups_e);
	for (int m = MEV_CLUSTER_LOUVAIN; m <= MEV_CLUSTER_TEMPORAL; m++) {
		mev_cluster_params p;
		mev_clustering *a = NULL, *b = NULL;
		mev_cluster_params_init(&p);
		p.method = (mev_cluster_method)m;
		CHECK_INT(mev_cluster_graph(&a, t.g, &p, NULL), 0);
		CHECK_INT(mev_cluster_graph(&b, t.g, &p, NULL), 0);
		if (a && b) {
			/* deterministic: the RNG is seeded from the parameters */
			CHECK(same_partition(a, b));
			CHECK(mev_clustering_fingerprint(a) == mev_clustering_fingerprint(b));
			CHECK(cluster_of(a, "NET CORE") == cluster_of(a, "NET DRIVER A"));
			CHECK(cluster_of(a, "THE REST") == MEV_CLUSTER_NONE);
			if (m == MEV_CLUSTER_COMPONENTS) {
				/* the thin edge joins the two groups */
				CHECK(cluster_of(a, "NET CORE") == cluster_of(a, "SOUND CORE"));
				CHECK_INT(mev_clustering_count(a), 3);
			} else {
				CHECK(cluster_of(a, "NET CORE") != cluster_of(a, "SOUND CORE"));
				CHECK_INT(mev_clustering_count(a), 4);
			}
		}
		mev_clustering_free(a);
		mev_clustering_free(b);
	}
	drop(&t);
}

/*
 * Twins (issue 32, point 5): two groups of 12 sections, each group
 * covering the same files (every pair shares all its lines), a thin edge
 * between them and a loner leaning on group A.  Read from the stored edges
 * each group is a class (graph.h); every method keeps a class in one
 * cluster, and the partition, its modularity and every section's lines
 * and neighbourhood are those of the whole graph's clustering.
 */
static void test_twins(void)
{
	enum { K = 12 };
	mev_edge e[2 * K + 1 + 2 * K * K + 4 * K];
	mev_filemap *fm = NULL;
	mev_graph *whole = NULL, *g = NULL;
	mev_graph_options go = { 0 };
	size_t n = 0;
	CHECK_INT(mev_filemap_new(&fm), 0);
	if (!fm)
		return;
	for (int i = 0; i < 2 * K + 1; i++) {
		mev_section_info si = { 0 };
		char title[32];
		snprintf(title, sizeof title, i < 2 * K ? "%c %02d" : "LONER", i < K ? 'A' : 'B', i % K);
		si.title = title;
		si.status = "";
		mev_filemap_add_section(fm, &si);
	}
	for (uint32_t a = 0; a < 2 * K + 1; a++)
		for (uint32_t b = a; b < 2 * K + 1; b++) {
			int ga = a / K, gb = b / K; /* 0: A, 1: B, 2: the loner */
			uint64_t l = ga == gb ? (ga == 2 ? 30 : 100) : ga + gb == 1 ? 1 : ga == 0 ? 20 : 0;
			if (!l)
				continue;
			e[n++] = (mev_edge){ a, b, l, 10 * l, 1 };
		}
	CHECK_INT(mev_graph_from_edges(&whole, fm, e, n, &go), 0);
	{
		array_src a = { mev_graph_edges(whole), mev_graph_edge_count(whole), 0 };
		mev_edge_source src = { array_next, array_rewind, &a };
		CHECK_INT(mev_graph_from_source(&g, fm, &src, &go), 0);
	}
	CHECK(g && mev_graph_has_twins(g) && mev_graph_twin_count(g, 5) == K);
	for (int m = MEV_CLUSTER_LOUVAIN; g && whole && m <= MEV_CLUSTER_TEMPORAL; m++) {
		mev_cluster_params p;
		mev_clustering *a = NULL, *b = NULL;
		mev_cluster_params_init(&p);
		p.method = (mev_cluster_method)m;
		CHECK_INT(mev_cluster_graph(&a, g, &p, NULL), 0);
		CHECK_INT(mev_cluster_graph(&b, whole, &p, NULL), 0);
		if (!a || !b)
			continue;
		for (int i = 1; i < K; i++) {
			CHECK_INT(mev_clustering_of(a, (uint32_t)i), mev_clustering_of(a, 0));
			CHECK_INT(mev_clustering_of(a, (uint32_t)(K + i)), mev_clustering_of(a, K));
		}
		CHECK(same_partition(a, b));
		if (m != MEV_CLUSTER_COMPONENTS && m != MEV_CLUSTER_WALKTRAP)
			CHECK(fabs(mev_clustering_modularity(a) - mev_clustering_modularity(b)) < 1e-9);
		for (uint32_t s = 0; s < 2 * K + 1; s++) {
			CHECK_INT(mev_clustering_section_lines(a, s), mev_clustering_section_lines(b, s));
			CHECK(!mev__section_changed(a, s, b, s));
		}
		mev_clustering_free(a);
		mev_clustering_free(b);
	}
	mev_graph_free(g);
	mev_graph_free(whole);
	mev_filemap_free(fm);
}

static void test_smooth(void)
{
	/* before: one subsystem; after: its two halves share nothing any more */
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
	tgraph a = make(s1, e1), b = make(s2, e2);
	mev_cluster_params p;
	mev_clustering *ca = NULL, *cb = NULL, *cc = NULL;
	mev_cluster_params_init(&p);
	p.method = MEV_CLUSTER_LEIDEN;
	p.smooth = 1;
	CHECK_INT(mev_cluster_graph(&ca, a.g, &p, NULL), 0);
	CHECK_INT(mev_cluster_graph(&cb, b.g, &p, ca), 0);
	if (ca && cb) {
		CHECK(cluster_of(ca, "G ONE") == cluster_of(ca, "G FOUR"));
		/* the split is seen although the start put them together */
		CHECK(cluster_of(cb, "G ONE") != cluster_of(cb, "G FOUR"));
		CHECK(cluster_of(cb, "NEW LEAD") == cluster_of(cb, "G FOUR"));
		CHECK_STR(rep_of(cb, "G THREE"), "NEW LEAD");
		/* the same graph again, from its own clusters: nothing moves */
		CHECK_INT(mev_cluster_graph(&cc, b.g, &p, cb), 0);
		if (cc)
			CHECK(same_partition(cb, cc));
	}
	mev_clustering_free(ca);
	mev_clustering_free(cb);
	mev_clustering_free(cc);
	drop(&a);
	drop(&b);
}

static void test_empty(void)
{
	static const char *const s[] = { "THE REST=100", NULL };
	static const char *const s2[] = { "ONE=10", "TWO=0", "THE REST=100", NULL };
	tgraph t = make(s, NULL);
	mev_cluster_params p;
	mev_clustering *c = NULL;
	mev_cluster_params_init(&p);
	CHECK_INT(mev_cluster_graph(&c, t.g, &p, NULL), 0);
	if (c) {
		CHECK_INT(mev_clustering_count(c), 0);
		mev_clustering_free(c);
	}
	drop(&t);
	/* no edges at all: singletons, NaN modularity */
	t = make(s2, NULL);
	CHECK_INT(mev_cluster_graph(&c, t.g, &p, NULL), 0);
	if (c) {
		CHECK_INT(mev_clustering_count(c), 2);
		CHECK(isnan(mev_clustering_modularity(c)));
		/* the default (temporal) did nothing of its own there */
		CHECK_INT(mev_clustering_step(c), MEV_CLUSTER_STEP_NONE);
		CHECK(isnan(mev_clustering_reference_modularity(c)));
		mev_clustering_free(c);
	}
	drop(&t);
}

static void test_igraph_errors(void)
{
	/* igraph's default handler would abort the process here */
	CHECK_ERR(mev__cluster_provoke_igraph_error(), MEV_ERROR,
		  "igraph: walktrap with a bad weight vector failed: ");
	/* then igraph's own words, from its first (innermost) report */
	CHECK(strstr(mev_error_message(), "weight vector length") != NULL);
	CHECK(strstr(mev_error_message(), " (at ") != NULL);
}

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

static void test_store(void)
{
	static const char *const s2[] = { "NET CORE=1000", "NET DRIVER A=400", "THE REST=1400", NULL };
	static const char *const e2[] = { "NET CORE|NET DRIVER A=400", NULL };
	tgraph t = make(two_groups_s, two_groups_e), u = make(s2, e2);
	mev_store *s = NULL;
	mev_cluster_params p;
	mev_cluster_result res;
	mev_cluster_options o = { 0 };
	mev_clustering *c = NULL, *d = NULL;

	mev_cluster_params_init(&p);
	p.method = MEV_CLUSTER_WALKTRAP;
	CHECK_INT(mev_store_open(&s, dir, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	if (!s)
		return;
	put(s, "v1.0", &t);
	put(s, "v1.1", &u);
	put(s, "v1.10", &t);
	CHECK_ERR(mev_cluster_load(&c, s, &p, "v1.0"), MEV_ENOTFOUND,
		  "release 'v1.0' is not clustered with walktrap:steps=4:top=1");
	CHECK(strstr(mev_error_hint_text(), "maintevo cluster") != NULL);
	/* serial, then with worker processes: the same records */
	o.jobs = 1;
	CHECK_INT(mev_cluster_store(&res, s, &p, &o), 0);
	CHECK_INT(res.clustered, 3);
	CHECK_INT(res.kept, 0);
	CHECK_INT(mev_cluster_store(&res, s, &p, &o), 0);
	CHECK_INT(res.clustered, 0);
	CHECK_INT(res.kept, 3);
	CHECK_INT(mev_cluster_load(&c, s, &p, "v1.0"), 0);
	CHECK_INT(mev_cluster_graph(&d, t.g, &p, NULL), 0);
	if (c && d) {
		CHECK(same_partition(c, d));
		CHECK(mev_clustering_fingerprint(c) == mev_clustering_fingerprint(d));
		CHECK_STR(rep_of(c, "NET DRIVER B"), "NET CORE");
		CHECK(fabs(mev_clustering_modularity(c) - mev_clustering_modularity(d)) < 1e-12);
	}
	mev_clustering_free(c);
	mev_clustering_free(d);
	c = d = NULL;
	p.method = MEV_CLUSTER_LOUVAIN;
	o.jobs = 2;
	CHECK_INT(mev_cluster_store(&res, s, &p, &o), 0);
	CHECK_INT(res.clustered, 3);
	CHECK_INT(mev_cluster_load(&c, s, &p, "v1.10"), 0);
	CHECK_INT(mev_cluster_graph(&d, t.g, &p, NULL), 0);
	if (c && d)
		CHECK(same_partition(c, d));
	mev_clustering_free(c);
	mev_clustering_free(d);
	c = d = NULL;
	/* a release stored again with another graph is out of date */
	put(s, "v1.0", &u);
	CHECK_ERR(mev_cluster_load(&c, s, &p, "v1.0"), MEV_ENOTFOUND,
		  "the clustering of 'v1.0' (louvain:res=1:seed=1:top=1) is out of date");
	CHECK_INT(mev_cluster_store(&res, s, &p, &o), 0);
	CHECK_INT(res.clustered, 1);
	CHECK_INT(res.kept, 2);
	/* smoothing goes in order: a change redoes everything after it */
	p.method = MEV_CLUSTER_LEIDEN;
	p.smooth = 1;
	CHECK_INT(mev_cluster_store(&res, s, &p, &o), 0);
	CHECK_INT(res.clustered, 3);
	put(s, "v1.1", &t);
	CHECK_INT(mev_cluster_store(&res, s, &p, &o), 0);
	CHECK_INT(res.clustered, 2);
	CHECK_INT(res.kept, 1);
	mev_store_free(s);
	drop(&t);
	drop(&u);
}

/* --- the worker pool ------------------------------------------------------ */

enum { NJOBS = 50 };

typedef struct {
	int in_worker;        /* set by start(): only in the workers' copies */
	size_t fail_at;       /* work() fails at this job (NJOBS: never) */
	size_t refuse_at;     /* done() fails at this job (NJOBS: never) */
	size_t stop_after;    /* done() sets the stop flag after this many (0: never) */
	volatile int stop;
	size_t ndone;
	int seen[NJOBS];
	int bad;
} pool_ctx;

static int pool_start(void *ctx)
{
	((pool_ctx *)ctx)->in_worker = 1;
	return 0;
}

static int pool_work(mev_buf *out, size_t job, void *ctx)
{
	pool_ctx *c = ctx;
	if (job == c->fail_at)
		return mev_error_set(MEV_EINVAL, "job %zu cannot be done", job);
	mev__buf_clear(out);
	return mev__buf_printf(out, "job %zu in a worker: %d", job, c->in_worker) ? mev_error_oom() : 0;
}

static int pool_done(size_t job, const void *data, size_t len, void *ctx)
{
	pool_ctx *c = ctx;
	char want[64];
	snprintf(want, sizeof want, "job %zu in a worker: 1", job);
	if (job >= NJOBS || len != strlen(want) || memcmp(data, want, len) != 0)
		c->bad++;
	else
		c->seen[job]++;
	if (job == c->refuse_at)
		return mev_error_set(MEV_EIO, "cannot keep job %zu", job);
	if (++c->ndone == c->stop_after)
		c->stop = 1;
	return 0;
}

static int run_pool(pool_ctx *c, int workers)
{
	mev__workers w = { 0 };
	w.njobs = NJOBS;
	w.workers = workers;
	w.start = pool_start;
	w.work = pool_work;
	w.done = pool_done;
	w.ctx = c;
	w.stop = &c->stop;
	return mev__workers_run(&w);
}

static void pool_init(pool_ctx *c)
{
	memset(c, 0, sizeof *c);
	c->fail_at = c->refuse_at = NJOBS;
}

/* The pool waited for every worker it started: no child is left. */
static int no_children(void)
{
	return waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD;
}

static void test_workers(void)
{
	static const int workers[] = { 1, 2, 3, 7, 49, 64, 70 }; /* 70: clamped to 64 */
	pool_ctx c;
	int once = 1;
	for (size_t i = 0; i < sizeof workers / sizeof *workers; i++) {
		pool_init(&c);
		CHECK_INT(run_pool(&c, workers[i]), 0);
		CHECK_INT(c.ndone, NJOBS);
		CHECK_INT(c.bad, 0);
		CHECK_INT(c.in_worker, 0); /* the workers' state stays theirs */
		for (size_t k = 0; k < NJOBS; k++)
			once &= c.seen[k] == 1;
	}
	CHECK(once);
	CHECK(no_children());
	/* the caller ignores SIGCHLD: the kernel reaps the workers, which is fine */
	signal(SIGCHLD, SIG_IGN);
	pool_init(&c);
	CHECK_INT(run_pool(&c, 4), 0);
	CHECK_INT(c.ndone, NJOBS);
	signal(SIGCHLD, SIG_DFL);
}

static void test_workers_fail(void)
{
	pool_ctx c;
	/* a worker's error comes back with its message */
	pool_init(&c);
	c.fail_at = 7;
	CHECK_ERR(run_pool(&c, 3), MEV_ERROR, "job 7 cannot be done");
	CHECK(no_children());
	/* the caller refuses a result: the pool ends and says why */
	pool_init(&c);
	c.refuse_at = 20;
	CHECK_ERR(run_pool(&c, 3), MEV_EIO, "cannot keep job 20");
	CHECK(c.ndone < NJOBS);
	CHECK(no_children());
	/* stopped after the job in hand */
	pool_init(&c);
	c.stop_after = 5;
	CHECK_ERR(run_pool(&c, 3), MEV_EINTR, "interrupted");
	CHECK_INT(c.ndone, 5);
	CHECK(no_children());
}

static void test_workers_own_only(void)
{
	pool_ctx c;
	pid_t other = fork();
	int st;
	if (other == 0) {
		pause();
		_exit(0);
	}
	CHECK(other > 0);
	if (other <= 0)
		return;
	/* a failed run ends and waits for its own workers only */
	pool_init(&c);
	c.fail_at = 3;
	CHECK_ERR(run_pool(&c, 4), MEV_ERROR, "job 3 cannot be done");
	pool_init(&c);
	CHECK_INT(run_pool(&c, 4), 0);
	CHECK_INT(waitpid(other, &st, WNOHANG), 0); /* still running, not reaped */
	kill(other, SIGKILL);
	CHECK_INT(waitpid(other, &st, 0), other);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	CHECK(no_children());
}

int main(void)
{
	dir = test_tmpdir("cluster");
	RUN(test_params);
	RUN(test_walktrap);
	RUN(test_ties_and_top);
	RUN(test_umbrella);
	RUN(test_methods);
	RUN(test_twins);
	RUN(test_smooth);
	RUN(test_empty);
	RUN(test_igraph_errors);
	RUN(test_store);
	RUN(test_workers);
	RUN(test_workers_fail);
	RUN(test_workers_own_only);
	test_tmpdir_remove(dir);
	return test_summary();
}
