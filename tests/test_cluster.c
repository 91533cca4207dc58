/* Tests of the clustering: parameters, methods, representatives, the store, igraph errors. */
#include "test.h"
#include "cluster_internal.h"
#include "maintevo/cluster.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/store.h"

#include <math.h>
#include <stdint.h>
#include <unistd.h>

static char dir[256];

/* A graph over named sections: self sizes and pair weights given as text. */
typedef struct {
	mev_filemap *fm;
	mev_graph *g;
} tgraph;

static int find(const mev_filemap *fm, const char *t)
{
	for (size_t i = 0; i < mev_filemap_section_count(fm); i++)
		if (strcmp(mev_filemap_sections(fm)[i].title, t) == 0)
			return (int)i;
	return -1;
}

/* sections: "TITLE=lines" ...; edges: "A|B=lines" ... (NULL-terminated) */
static tgraph make(const char *const *sections, const char *const *edges)
{
	tgraph t;
	mev_edge e[256];
	size_t n = 0;
	mev_graph_options go = { 1 };
	mev_filemap_new(&t.fm);
	for (size_t i = 0; sections[i]; i++) {
		char title[128];
		const char *eq = strchr(sections[i], '=');
		mev_section_info si = { 0 };
		snprintf(title, sizeof title, "%.*s", (int)(eq - sections[i]), sections[i]);
		si.title = title;
		si.status = "";
		si.is_rest = strcmp(title, "THE REST") == 0;
		mev_filemap_add_section(t.fm, &si);
		e[n].a = e[n].b = (uint32_t)i;
		e[n].lines = strtoull(eq + 1, NULL, 10);
		e[n].bytes = e[n].lines * 10;
		e[n].files = 1;
		n++;
	}
	for (size_t i = 0; edges && edges[i]; i++) {
		char a[128], b[128];
		const char *bar = strchr(edges[i], '|'), *eq = strchr(edges[i], '=');
		snprintf(a, sizeof a, "%.*s", (int)(bar - edges[i]), edges[i]);
		snprintf(b, sizeof b, "%.*s", (int)(eq - bar - 1), bar + 1);
		e[n].a = (uint32_t)find(t.fm, a);
		e[n].b = (uint32_t)find(t.fm, b);
		e[n].lines = strtoull(eq + 1, NULL, 10);
		e[n].bytes = e[n].lines * 10;
		e[n].files = 1;
		n++;
	}
	mev_graph_from_edges(&t.g, t.fm, e, n, &go);
	return t;
}

static void drop(tgraph *t)
{
	mev_graph_free(t->g);
	mev_filemap_free(t->fm);
}

static uint32_t cluster_of(const mev_clustering *c, const char *title)
{
	for (uint32_t i = 0; i < mev_clustering_section_count(c); i++)
		if (strcmp(mev_clustering_title(c, i), title) == 0)
			return mev_clustering_of(c, i);
	return 12345;
}

static const char *rep_of(const mev_clustering *c, const char *title)
{
	uint32_t k = cluster_of(c, title);
	return k < mev_clustering_count(c) ? mev_clustering_title(c, mev_clustering_representative(c, k)) : "";
}

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
	mev_cluster_key(&p, key, sizeof key);
	CHECK_STR(key, "walktrap:steps=4:top=1");
	p.method = MEV_CLUSTER_LEIDEN;
	p.smooth = 1;
	p.top_fraction = 0.2;
	mev_cluster_key(&p, key, sizeof key);
	CHECK_STR(key, "leiden:res=1:seed=1:top=0.2:smooth");
	p.method = MEV_CLUSTER_COMPONENTS;
	p.smooth = 0;
	mev_cluster_key(&p, key, sizeof key);
	CHECK_STR(key, "components:top=0.2");
	/* parse: names, keys, round trips, errors */
	CHECK_INT(mev_cluster_params_parse(&p, "louvain"), 0);
	CHECK_INT(p.method, MEV_CLUSTER_LOUVAIN);
	CHECK_INT(mev_cluster_params_parse(&p, "leiden:res=2.5:seed=7:top=0.5:smooth"), 0);
	CHECK(p.method == MEV_CLUSTER_LEIDEN && p.resolution == 2.5 && p.seed == 7 && p.top_fraction == 0.5 &&
	      p.smooth);
	mev_cluster_key(&p, key, sizeof key);
	CHECK_STR(key, "leiden:res=2.5:seed=7:top=0.5:smooth");
	CHECK_INT(mev_cluster_params_parse(&p, "walktrap:steps=6"), 0);
	CHECK_INT(p.steps, 6);
	CHECK_INT(mev_cluster_params_parse(&p, "spectral"), MEV_EINVAL);
	CHECK_INT(mev_cluster_params_parse(&p, "walktrap:steps=x"), MEV_EINVAL);
	CHECK_INT(mev_cluster_params_parse(&p, "walktrap:colour=red"), MEV_EINVAL);
	CHECK_INT(mev_cluster_params_parse(&p, "walktrap:smooth"), MEV_EINVAL); /* smoothing is Leiden's */
	CHECK(strstr(mev_error_message(), "leiden") != NULL);
	CHECK_INT(mev_cluster_params_parse(&p, "walktrap:top=0"), MEV_EINVAL);
	CHECK_INT(mev_cluster_params_parse(&p, ""), MEV_EINVAL);
	CHECK_INT(mev_cluster_method_parse("components"), MEV_CLUSTER_COMPONENTS);
	CHECK_INT(mev_cluster_method_parse("nope"), -1);
}

static void test_walktrap(void)
{
	tgraph t = make(two_groups_s, two_groups_e);
	mev_cluster_params p;
	mev_clustering *c = NULL;
	mev_cluster_params_init(&p);
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

static void test_ties_and_top(void)
{
	/* equal sizes: the bytewise smallest title represents */
	static const char *const s[] = { "B SECTION=100", "A SECTION=100", "C SECTION=100", "THE REST=300", NULL };
	static const char *const e[] = { "A SECTION|B SECTION=50", "B SECTION|C SECTION=50",
					 "A SECTION|C SECTION=50", NULL };
	tgraph t = make(s, e);
	mev_cluster_params p;
	mev_clustering *c = NULL;
	mev_cluster_params_init(&p);
	CHECK_INT(mev_cluster_graph(&c, t.g, &p, NULL), 0);
	if (c) {
		CHECK_INT(mev_clustering_count(c), 1);
		CHECK_STR(rep_of(c, "C SECTION"), "A SECTION");
		mev_clustering_free(c);
	}
	drop(&t);

	/* --top-fraction: sections above the (1 - F) quantile (type 7) stay */
	t = make(two_groups_s, two_groups_e);
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

static int same_partition(const mev_clustering *a, const mev_clustering *b)
{
	if (mev_clustering_section_count(a) != mev_clustering_section_count(b))
		return 0;
	for (uint32_t i = 0; i < mev_clustering_section_count(a); i++)
		if (mev_clustering_of(a, i) != mev_clustering_of(b, i))
			return 0;
	return 1;
}

static void test_methods(void)
{
	tgraph t = make(two_groups_s, two_groups_e);
	for (int m = MEV_CLUSTER_LOUVAIN; m <= MEV_CLUSTER_COMPONENTS; m++) {
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
		mev_clustering_free(c);
	}
	drop(&t);
}

static void test_igraph_errors(void)
{
	/* igraph's default handler would abort the process here */
	CHECK_INT(mev__cluster_provoke_igraph_error(), MEV_ERROR);
	CHECK(strstr(mev_error_message(), "igraph") != NULL);
	CHECK(strstr(mev_error_message(), "weight") != NULL);
}

static void put(mev_store *s, const char *tag, const tgraph *t)
{
	mev_release_input in = { 0 };
	in.tag = tag;
	CHECK_INT(mev_store_begin(s), 0);
	CHECK_INT(mev_release_put_graph(s, &in, t->fm, t->g), 0);
	CHECK_INT(mev_store_commit(s), 0);
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
	CHECK_INT(mev_store_open(&s, dir, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	if (!s)
		return;
	put(s, "v1.0", &t);
	put(s, "v1.1", &u);
	put(s, "v1.10", &t);
	CHECK_INT(mev_cluster_load(&c, s, &p, "v1.0"), MEV_ENOTFOUND);
	CHECK(strstr(mev_error_hint_text(), "maintevo cluster") != NULL);
	/* serial, then with worker processes: the same records */
	o.jobs = 1;
	CHECK_INT(mev_cluster_store(s, &p, &o, &res), 0);
	CHECK_INT(res.clustered, 3);
	CHECK_INT(res.kept, 0);
	CHECK_INT(mev_cluster_store(s, &p, &o, &res), 0);
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
	CHECK_INT(mev_cluster_store(s, &p, &o, &res), 0);
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
	CHECK_INT(mev_cluster_load(&c, s, &p, "v1.0"), MEV_ENOTFOUND);
	CHECK(strstr(mev_error_message(), "out of date") != NULL);
	CHECK_INT(mev_cluster_store(s, &p, &o, &res), 0);
	CHECK_INT(res.clustered, 1);
	CHECK_INT(res.kept, 2);
	/* smoothing goes in order: a change redoes everything after it */
	p.method = MEV_CLUSTER_LEIDEN;
	p.smooth = 1;
	CHECK_INT(mev_cluster_store(s, &p, &o, &res), 0);
	CHECK_INT(res.clustered, 3);
	put(s, "v1.1", &t);
	CHECK_INT(mev_cluster_store(s, &p, &o, &res), 0);
	CHECK_INT(res.clustered, 2);
	CHECK_INT(res.kept, 1);
	mev_store_free(s);
	drop(&t);
	drop(&u);
}

int main(void)
{
	char cmd[300];
	snprintf(dir, sizeof dir, "%s/mev-test-cluster.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return 1;
	RUN(test_params);
	RUN(test_walktrap);
	RUN(test_ties_and_top);
	RUN(test_methods);
	RUN(test_smooth);
	RUN(test_empty);
	RUN(test_igraph_errors);
	RUN(test_store);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return test_summary();
}
