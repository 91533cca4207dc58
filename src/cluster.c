/*
 * Clustering the sections of a release with igraph, as the study did
 * (walktrap over the overlap graph, THE REST and self loops removed,
 * weights = shared lines, cut at maximum modularity), or with Louvain,
 * Leiden or connected components; and keeping the result in the store.
 *
 * igraph is used only here and in the tracker.  Its default error handler
 * aborts the process: every entry into igraph installs a handler that
 * records the message and returns, and the code is turned into MEV_ERROR.
 */
#include "maintevo/cluster.h"
#include "cluster_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/tags.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "util/varint.h"

#include <igraph.h>

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * REC_VERSION is the record format; ALGORITHM is bumped whenever a change
 * of this file gives other clusters for the same input, so that stored
 * clusterings of an older build count as out of date.
 */
enum { REC_VERSION = 1, ALGORITHM = 1, LEIDEN_MAX_ITERATIONS = 64 };

struct mev_clustering {
	size_t nsec;
	const char **titles;  /* in the arena */
	uint64_t *lines;      /* per section: its own lines */
	uint32_t *member;     /* per section: cluster or MEV_CLUSTER_NONE */
	size_t ncl;
	uint32_t *rep;        /* per cluster */
	uint64_t *cl_lines;
	uint32_t *cl_size;
	double modularity;
	uint64_t graph_fp;
	mev_arena arena;
};

/* --- parameters ------------------------------------------------------------ */

static const char *const method_names[] = { "walktrap", "louvain", "leiden", "components" };

const char *mev_cluster_method_name(mev_cluster_method m)
{
	return (unsigned)m < sizeof method_names / sizeof *method_names ? method_names[m] : "?";
}

int mev_cluster_method_parse(const char *name)
{
	for (size_t i = 0; i < sizeof method_names / sizeof *method_names; i++)
		if (strcmp(name, method_names[i]) == 0)
			return (int)i;
	return -1;
}

void mev_cluster_params_init(mev_cluster_params *p)
{
	memset(p, 0, sizeof *p);
	p->method = MEV_CLUSTER_WALKTRAP;
	p->steps = 4;
	p->resolution = 1.0;
	p->seed = 1;
	p->top_fraction = 1.0;
}

int mev_cluster_params_check(const mev_cluster_params *p)
{
	if ((unsigned)p->method > MEV_CLUSTER_COMPONENTS)
		return mev_error_set(MEV_EINVAL, "unknown clustering method %d", (int)p->method);
	if (p->steps < 1 || p->steps > 1000) {
		mev_error_set(MEV_EINVAL, "walktrap steps must be 1 to 1000, not %d", p->steps);
		mev_error_hint("the study used 4");
		return MEV_EINVAL;
	}
	if (!(p->resolution > 0) || p->resolution > 1e6) {
		mev_error_set(MEV_EINVAL, "resolution must be positive, not %g", p->resolution);
		mev_error_hint("1 is plain modularity; larger values give smaller clusters");
		return MEV_EINVAL;
	}
	if (!(p->top_fraction > 0) || p->top_fraction > 1) {
		mev_error_set(MEV_EINVAL, "top fraction must be in (0, 1], not %g", p->top_fraction);
		mev_error_hint("0.2 keeps the largest 20%% of the sections, as the study's figures");
		return MEV_EINVAL;
	}
	if (p->smooth && p->method != MEV_CLUSTER_LEIDEN) {
		mev_error_set(MEV_EINVAL, "smoothing needs the leiden method, not %s",
			      mev_cluster_method_name(p->method));
		mev_error_hint("use --method leiden --smooth (only Leiden starts from a given partition)");
		return MEV_EINVAL;
	}
	return 0;
}

size_t mev_cluster_key(const mev_cluster_params *p, char *out, size_t size)
{
	int n;
	switch (p->method) {
	case MEV_CLUSTER_WALKTRAP:
		n = snprintf(out, size, "walktrap:steps=%d:top=%g", p->steps, p->top_fraction);
		break;
	case MEV_CLUSTER_LOUVAIN:
	case MEV_CLUSTER_LEIDEN:
		n = snprintf(out, size, "%s:res=%g:seed=%llu:top=%g%s", mev_cluster_method_name(p->method),
			     p->resolution, (unsigned long long)p->seed, p->top_fraction,
			     p->smooth ? ":smooth" : "");
		break;
	default:
		n = snprintf(out, size, "components:top=%g", p->top_fraction);
		break;
	}
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size ? size - 1 : 0;
}

int mev_cluster_params_parse(mev_cluster_params *out, const char *text)
{
	char buf[256], *save = NULL, *f;
	int m, first = 1;
	mev_cluster_params_init(out);
	if (strlen(text) >= sizeof buf)
		return mev_error_set(MEV_EINVAL, "clustering parameters '%.40s...' are too long", text);
	snprintf(buf, sizeof buf, "%s", text);
	for (f = strtok_r(buf, ":", &save); f; f = strtok_r(NULL, ":", &save), first = 0) {
		char *eq = strchr(f, '='), *end = NULL;
		const char *v = eq ? eq + 1 : "";
		if (first) {
			if ((m = mev_cluster_method_parse(f)) < 0)
				goto bad_method;
			out->method = (mev_cluster_method)m;
			continue;
		}
		if (eq)
			*eq = '\0';
		errno = 0;
		if (strcmp(f, "steps") == 0)
			out->steps = (int)strtol(v, &end, 10);
		else if (strcmp(f, "res") == 0)
			out->resolution = strtod(v, &end);
		else if (strcmp(f, "seed") == 0)
			out->seed = strtoull(v, &end, 10);
		else if (strcmp(f, "top") == 0)
			out->top_fraction = strtod(v, &end);
		else if (strcmp(f, "smooth") == 0 && !eq) {
			out->smooth = 1;
			continue;
		}
		if (!eq || !end || end == v || *end || errno) {
			mev_error_set(MEV_EINVAL, "cannot read '%s' in clustering parameters '%s'", f, text);
			mev_error_hint("write a method (walktrap, louvain, leiden, components) or a key such "
				       "as walktrap:steps=4:top=1");
			return MEV_EINVAL;
		}
	}
	if (first)
		goto bad_method;
	return mev_cluster_params_check(out);
bad_method:
	mev_error_set(MEV_EINVAL, "unknown clustering method in '%s'", text);
	mev_error_hint("use walktrap, louvain, leiden or components");
	return MEV_EINVAL;
}

/* --- igraph errors ------------------------------------------------------- */

static char ig_message[512];

static void on_igraph_error(const char *reason, const char *file, int line, igraph_error_t err)
{
	/* called once per level while the error travels up: keep the first */
	if (!ig_message[0])
		snprintf(ig_message, sizeof ig_message, "%s%s%s (at %s:%d)", reason && reason[0] ? reason : "",
			 reason && reason[0] ? ": " : "", igraph_strerror(err), file ? file : "?", line);
	IGRAPH_FINALLY_FREE();
}

static void on_igraph_warning(const char *reason, const char *file, int line)
{
	/* warnings are not errors, and the library never prints */
	(void)reason;
	(void)file;
	(void)line;
}

typedef struct {
	igraph_error_handler_t *error;
	igraph_warning_handler_t *warning;
} ig_handlers;

static void ig_enter(ig_handlers *h, uint64_t seed)
{
	ig_message[0] = '\0';
	h->error = igraph_set_error_handler(on_igraph_error);
	h->warning = igraph_set_warning_handler(on_igraph_warning);
	igraph_rng_seed(igraph_rng_default(), (igraph_uint_t)seed);
}

static void ig_leave(const ig_handlers *h)
{
	igraph_set_error_handler(h->error);
	igraph_set_warning_handler(h->warning);
}

static int ig_fail(igraph_error_t err, const char *what)
{
	if (err == IGRAPH_ENOMEM)
		return mev_error_oom();
	return mev_error_set(MEV_ERROR, "igraph: %s failed: %s", what,
			     ig_message[0] ? ig_message : igraph_strerror(err));
}

int mev__cluster_provoke_igraph_error(void)
{
	ig_handlers h;
	igraph_t g;
	igraph_vector_int_t e, m;
	igraph_vector_t w;
	igraph_matrix_int_t merges;
	igraph_vector_t q;
	igraph_integer_t odd[3] = { 0, 1, 2 }, ok[4] = { 0, 1, 1, 2 };
	igraph_error_t err;
	int rc = 0;

	ig_enter(&h, 1);
	igraph_vector_int_view(&e, odd, 3);
	if ((err = igraph_create(&g, &e, 3, IGRAPH_UNDIRECTED)) != IGRAPH_SUCCESS)
		rc = ig_fail(err, "creating a graph from 3 numbers");
	else
		igraph_destroy(&g);
	ig_message[0] = '\0';
	igraph_vector_int_view(&e, ok, 4);
	if (igraph_create(&g, &e, 3, IGRAPH_UNDIRECTED) == IGRAPH_SUCCESS) {
		igraph_vector_init(&w, 5); /* two edges, five weights */
		igraph_vector_int_init(&m, 0);
		igraph_matrix_int_init(&merges, 0, 0);
		igraph_vector_init(&q, 0);
		if ((err = igraph_community_walktrap(&g, &w, 4, &merges, &q, &m)) != IGRAPH_SUCCESS)
			rc = ig_fail(err, "walktrap with a bad weight vector");
		igraph_vector_destroy(&q);
		igraph_matrix_int_destroy(&merges);
		igraph_vector_int_destroy(&m);
		igraph_vector_destroy(&w);
		igraph_destroy(&g);
	}
	ig_leave(&h);
	return rc;
}

/* --- the clustering object ---------------------------------------------- */

void mev_clustering_free(mev_clustering *c)
{
	if (!c)
		return;
	free(c->titles);
	free(c->lines);
	free(c->member);
	free(c->rep);
	free(c->cl_lines);
	free(c->cl_size);
	mev_arena_free(&c->arena);
	free(c);
}

size_t mev_clustering_section_count(const mev_clustering *c) { return c->nsec; }
const char *mev_clustering_title(const mev_clustering *c, uint32_t s) { return c->titles[s]; }
uint64_t mev_clustering_section_lines(const mev_clustering *c, uint32_t s) { return c->lines[s]; }
uint32_t mev_clustering_of(const mev_clustering *c, uint32_t s) { return c->member[s]; }
size_t mev_clustering_count(const mev_clustering *c) { return c->ncl; }
uint32_t mev_clustering_representative(const mev_clustering *c, uint32_t k) { return c->rep[k]; }
uint64_t mev_clustering_lines(const mev_clustering *c, uint32_t k) { return c->cl_lines[k]; }
uint32_t mev_clustering_size(const mev_clustering *c, uint32_t k) { return c->cl_size[k]; }
double mev_clustering_modularity(const mev_clustering *c) { return c->modularity; }

uint64_t mev_clustering_fingerprint(const mev_clustering *c)
{
	uint64_t h[2];
	h[0] = c->graph_fp;
	h[1] = mev_hash_bytes(c->member, c->nsec * sizeof *c->member);
	return mev_hash_bytes(h, sizeof h);
}

/* A clustering over the sections of g, every section unclustered. */
static int clustering_new(mev_clustering **out, const mev_graph *g)
{
	const mev_filemap *fm = mev_graph_filemap(g);
	const mev_section_info *secs = mev_filemap_sections(fm);
	const mev_edge *e = mev_graph_edges(g);
	size_t n = mev_filemap_section_count(fm), ne = mev_graph_edge_count(g);
	mev_clustering *c = calloc(1, sizeof *c);
	*out = NULL;
	if (!c)
		return mev_error_oom();
	c->nsec = n;
	c->titles = calloc(n + 1, sizeof *c->titles);
	c->lines = calloc(n + 1, sizeof *c->lines);
	c->member = malloc((n + 1) * sizeof *c->member);
	if (!c->titles || !c->lines || !c->member) {
		mev_clustering_free(c);
		return mev_error_oom();
	}
	for (size_t i = 0; i < n; i++) {
		c->member[i] = MEV_CLUSTER_NONE;
		if (!(c->titles[i] = mev_arena_strndup(&c->arena, secs[i].title, strlen(secs[i].title)))) {
			mev_clustering_free(c);
			return mev_error_oom();
		}
	}
	for (size_t i = 0; i < ne; i++)
		if (e[i].a == e[i].b)
			c->lines[e[i].a] = e[i].lines;
	c->modularity = NAN;
	*out = c;
	return 0;
}

typedef struct {
	uint64_t lines;
	uint32_t rep, size, old;
	const char *title;
} cl_tmp;

static int cl_cmp(const void *x, const void *y)
{
	const cl_tmp *a = x, *b = y;
	if (a->lines != b->lines)
		return a->lines > b->lines ? -1 : 1;
	return strcmp(a->title, b->title);
}

/*
 * From raw cluster labels (per section, MEV_CLUSTER_NONE for none, labels
 * < nraw) to ranked clusters with representatives.  Only c->member is read.
 */
static int clustering_rank(mev_clustering *c, size_t nraw)
{
	cl_tmp *t = calloc(nraw + 1, sizeof *t);
	uint32_t *rank = malloc((nraw + 1) * sizeof *rank);
	size_t used = 0;
	int rc = 0;
	if (!t || !rank) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t k = 0; k < nraw; k++)
		t[k].rep = MEV_CLUSTER_NONE;
	for (uint32_t s = 0; s < c->nsec; s++) {
		uint32_t k = c->member[s];
		cl_tmp *x;
		if (k == MEV_CLUSTER_NONE)
			continue;
		if (k >= nraw) {
			rc = mev_error_set(MEV_ECORRUPT, "cluster label %u out of range", k);
			goto done;
		}
		x = &t[k];
		x->lines += c->lines[s];
		x->size++;
		if (x->rep == MEV_CLUSTER_NONE || c->lines[s] > c->lines[x->rep] ||
		    (c->lines[s] == c->lines[x->rep] && strcmp(c->titles[s], c->titles[x->rep]) < 0))
			x->rep = s;
	}
	/* drop empty labels, sort the rest */
	for (size_t k = 0; k < nraw; k++)
		if (t[k].size) {
			t[used] = t[k];
			t[used].old = (uint32_t)k;
			t[used].title = c->titles[t[used].rep];
			used++;
		}
	qsort(t, used, sizeof *t, cl_cmp);
	for (size_t k = 0; k < nraw; k++)
		rank[k] = MEV_CLUSTER_NONE;
	free(c->rep);
	free(c->cl_lines);
	free(c->cl_size);
	c->rep = malloc((used + 1) * sizeof *c->rep);
	c->cl_lines = malloc((used + 1) * sizeof *c->cl_lines);
	c->cl_size = malloc((used + 1) * sizeof *c->cl_size);
	if (!c->rep || !c->cl_lines || !c->cl_size) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t k = 0; k < used; k++) {
		rank[t[k].old] = (uint32_t)k;
		c->rep[k] = t[k].rep;
		c->cl_lines[k] = t[k].lines;
		c->cl_size[k] = t[k].size;
	}
	c->ncl = used;
	for (uint32_t s = 0; s < c->nsec; s++)
		if (c->member[s] != MEV_CLUSTER_NONE)
			c->member[s] = rank[c->member[s]];
done:
	free(t);
	free(rank);
	return rc;
}

/* --- the graph handed to igraph ----------------------------------------- */

static const char *const *sort_titles; /* qsort has no context argument */

static int title_cmp(const void *x, const void *y)
{
	return strcmp(sort_titles[*(const uint32_t *)x], sort_titles[*(const uint32_t *)y]);
}

static int u64_cmp(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* R's quantile(x, p, type = 7). */
static double quantile7(uint64_t *x, size_t n, double p)
{
	double h, lo;
	size_t i;
	if (!n)
		return 0;
	qsort(x, n, sizeof *x, u64_cmp);
	h = (double)(n - 1) * p;
	i = (size_t)floor(h);
	lo = (double)x[i];
	return i + 1 < n ? lo + (h - (double)i) * ((double)x[i + 1] - lo) : lo;
}

/* Sections made vertices: the chosen ones in title order. */
typedef struct {
	uint32_t *sec;      /* vertex -> section */
	int64_t *vid;       /* section -> vertex or -1 */
	size_t n;
	igraph_vector_int_t edges;
	igraph_vector_t weights;
	int have_vectors;
} vgraph;

static void vgraph_free(vgraph *v)
{
	free(v->sec);
	free(v->vid);
	if (v->have_vectors) {
		igraph_vector_int_destroy(&v->edges);
		igraph_vector_destroy(&v->weights);
	}
}

static int vgraph_build(vgraph *v, const mev_graph *g, const mev_clustering *c, double top)
{
	const mev_filemap *fm = mev_graph_filemap(g);
	const mev_section_info *secs = mev_filemap_sections(fm);
	const mev_edge *e = mev_graph_edges(g);
	size_t n = c->nsec, ne = mev_graph_edge_count(g);
	double cut = -1;
	igraph_error_t err;

	memset(v, 0, sizeof *v);
	v->sec = malloc((n + 1) * sizeof *v->sec);
	v->vid = malloc((n + 1) * sizeof *v->vid);
	if (!v->sec || !v->vid)
		return mev_error_oom();
	if (top < 1) {
		uint64_t *x = malloc((n + 1) * sizeof *x);
		size_t m = 0;
		if (!x)
			return mev_error_oom();
		for (size_t i = 0; i < n; i++)
			if (!secs[i].is_rest)
				x[m++] = c->lines[i];
		cut = quantile7(x, m, 1 - top);
		free(x);
	}
	for (size_t i = 0; i < n; i++) {
		v->vid[i] = -1;
		if (!secs[i].is_rest && (cut < 0 || (double)c->lines[i] > cut))
			v->sec[v->n++] = (uint32_t)i;
	}
	sort_titles = c->titles;
	qsort(v->sec, v->n, sizeof *v->sec, title_cmp);
	for (size_t i = 0; i < v->n; i++)
		v->vid[v->sec[i]] = (int64_t)i;

	if ((err = igraph_vector_int_init(&v->edges, 0)) != IGRAPH_SUCCESS)
		return ig_fail(err, "allocating the edges");
	if ((err = igraph_vector_init(&v->weights, 0)) != IGRAPH_SUCCESS) {
		igraph_vector_int_destroy(&v->edges);
		return ig_fail(err, "allocating the weights");
	}
	v->have_vectors = 1;
	for (size_t i = 0; i < ne; i++) {
		int64_t a = v->vid[e[i].a], b = v->vid[e[i].b];
		if (e[i].a == e[i].b || !e[i].lines || a < 0 || b < 0)
			continue;
		if ((err = igraph_vector_int_push_back(&v->edges, a)) != IGRAPH_SUCCESS ||
		    (err = igraph_vector_int_push_back(&v->edges, b)) != IGRAPH_SUCCESS ||
		    (err = igraph_vector_push_back(&v->weights, (igraph_real_t)e[i].lines)) != IGRAPH_SUCCESS)
			return ig_fail(err, "adding an edge");
	}
	return 0;
}

/* Leiden with the modularity objective, from `membership`, until stable. */
static igraph_error_t leiden(const igraph_t *graph, const igraph_vector_t *w, double resolution,
			     igraph_vector_int_t *membership)
{
	igraph_vector_t strength;
	igraph_vector_int_t before;
	igraph_real_t total = igraph_vector_sum(w);
	igraph_error_t err;

	IGRAPH_CHECK(igraph_vector_init(&strength, 0));
	IGRAPH_FINALLY(igraph_vector_destroy, &strength);
	IGRAPH_CHECK(igraph_vector_int_init(&before, 0));
	IGRAPH_FINALLY(igraph_vector_int_destroy, &before);
	IGRAPH_CHECK(igraph_strength(graph, &strength, igraph_vss_all(), IGRAPH_ALL, IGRAPH_LOOPS, w));
	/*
	 * igraph 0.10.2 stops a run with n_iterations < 0 after the first
	 * iteration that changes something (fixed in 0.10.14): iterate here, one
	 * at a time, until an iteration leaves the partition as it was.
	 */
	for (int it = 0; it < LEIDEN_MAX_ITERATIONS; it++) {
		IGRAPH_CHECK(igraph_vector_int_update(&before, membership));
		err = igraph_community_leiden(graph, w, &strength, resolution / (2 * total), 0.01, 1, 1,
					      membership, NULL, NULL);
		if (err != IGRAPH_SUCCESS)
			IGRAPH_ERROR("Leiden failed", err);
		IGRAPH_CHECK(igraph_reindex_membership(&before, NULL, NULL));
		if (igraph_vector_int_all_e(&before, membership))
			break;
	}
	igraph_vector_int_destroy(&before);
	igraph_vector_destroy(&strength);
	IGRAPH_FINALLY_CLEAN(2);
	return IGRAPH_SUCCESS;
}

static uint32_t uf_find(uint32_t *up, uint32_t x)
{
	while (up[x] != x)
		x = up[x] = up[up[x]];
	return x;
}

/*
 * Cut every cluster of the start partition into its connected pieces in
 * the current graph, and renumber the labels densely.  Leiden never makes
 * a disconnected cluster, but igraph's (0.10) keeps one it is given: a
 * subsystem that split since the previous release would stay one cluster.
 */
static int split_disconnected(igraph_vector_int_t *m, const vgraph *v)
{
	size_t n = v->n, ne = (size_t)igraph_vector_int_size(&v->edges) / 2;
	uint32_t *up = malloc((n + 1) * sizeof *up);
	int64_t *label = malloc((n + 1) * sizeof *label);
	igraph_integer_t next = 0;
	if (!up || !label) {
		free(up);
		free(label);
		return mev_error_oom();
	}
	for (size_t i = 0; i < n; i++) {
		up[i] = (uint32_t)i;
		label[i] = -1;
	}
	for (size_t e = 0; e < ne; e++) {
		uint32_t a = (uint32_t)VECTOR(v->edges)[2 * e], b = (uint32_t)VECTOR(v->edges)[2 * e + 1];
		if (VECTOR(*m)[a] == VECTOR(*m)[b]) {
			a = uf_find(up, a);
			b = uf_find(up, b);
			if (a != b)
				up[a > b ? a : b] = a < b ? a : b;
		}
	}
	/* a piece is named by its smallest vertex; labels in order of appearance */
	for (size_t i = 0; i < n; i++) {
		uint32_t r = uf_find(up, (uint32_t)i);
		if (label[r] < 0)
			label[r] = next++;
		VECTOR(*m)[i] = (igraph_integer_t)label[r];
	}
	free(up);
	free(label);
	return 0;
}

/* Start of a smoothed run: each vertex in the cluster its title had before. */
static int start_membership(igraph_vector_int_t *m, const vgraph *v, const mev_clustering *c,
			    const mev_clustering *prev)
{
	mev_strmap titles = MEV_STRMAP_INIT;
	size_t next = prev ? prev->ncl : 0;
	int rc = 0;
	if (prev)
		for (uint32_t s = 0; s < prev->nsec; s++)
			if (prev->member[s] != MEV_CLUSTER_NONE &&
			    mev_strmap_put(&titles, prev->titles[s], strlen(prev->titles[s]), prev->member[s])) {
				rc = mev_error_oom();
				goto done;
			}
	for (size_t i = 0; i < v->n; i++) {
		const char *t = c->titles[v->sec[i]];
		int64_t k = prev ? mev_strmap_get(&titles, t, strlen(t)) : -1;
		VECTOR(*m)[i] = k >= 0 ? (igraph_integer_t)k : (igraph_integer_t)next++;
	}
	rc = split_disconnected(m, v);
done:
	mev_strmap_free(&titles);
	return rc;
}

uint64_t mev__graph_fingerprint(const mev_graph *g)
{
	const mev_filemap *fm = mev_graph_filemap(g);
	const mev_section_info *secs = mev_filemap_sections(fm);
	const mev_edge *e = mev_graph_edges(g);
	size_t n = mev_filemap_section_count(fm), ne = mev_graph_edge_count(g);
	uint64_t h = mev_hash_bytes("mev-graph", 9);
	for (size_t i = 0; i < n; i++) {
		uint64_t x[2] = { h, mev_hash_bytes(secs[i].title, strlen(secs[i].title) + 1) ^ secs[i].is_rest };
		h = mev_hash_bytes(x, sizeof x);
	}
	/* THE REST is left out, so that a graph read with or without it agrees */
	for (size_t i = 0; i < ne; i++) {
		uint64_t x[4] = { h, ((uint64_t)e[i].a << 32) | e[i].b, e[i].lines, e[i].bytes };
		if (secs[e[i].a].is_rest || secs[e[i].b].is_rest)
			continue;
		h = mev_hash_bytes(x, sizeof x);
	}
	return h;
}

int mev_cluster_graph(mev_clustering **out, const mev_graph *g, const mev_cluster_params *p,
		      const mev_clustering *prev)
{
	mev_clustering *c = NULL;
	vgraph v;
	igraph_t graph;
	igraph_vector_int_t membership;
	igraph_matrix_int_t merges;
	igraph_vector_t modularity;
	ig_handlers h;
	int have_graph = 0, have_m = 0, have_wt = 0, rc;
	igraph_error_t err = IGRAPH_SUCCESS;
	const char *what = "";

	*out = NULL;
	memset(&v, 0, sizeof v);
	if ((rc = mev_cluster_params_check(p)) || (rc = clustering_new(&c, g)))
		return rc;
	c->graph_fp = mev__graph_fingerprint(g);
	ig_enter(&h, p->seed);
	if ((rc = vgraph_build(&v, g, c, p->top_fraction)))
		goto done;
	if (!v.n)
		goto rank;
	what = "building the graph";
	if ((err = igraph_create(&graph, &v.edges, (igraph_integer_t)v.n, IGRAPH_UNDIRECTED)))
		goto ig_error;
	have_graph = 1;
	if ((err = igraph_vector_int_init(&membership, (igraph_integer_t)v.n)))
		goto ig_error;
	have_m = 1;
	if (igraph_vector_size(&v.weights) == 0) {
		/* no edges: every section alone (igraph would say the same) */
		for (size_t i = 0; i < v.n; i++)
			VECTOR(membership)[i] = (igraph_integer_t)i;
	} else {
		switch (p->method) {
		case MEV_CLUSTER_WALKTRAP:
			what = "walktrap";
			if ((err = igraph_matrix_int_init(&merges, 0, 0)))
				goto ig_error;
			if ((err = igraph_vector_init(&modularity, 0))) {
				igraph_matrix_int_destroy(&merges);
				goto ig_error;
			}
			have_wt = 1;
			err = igraph_community_walktrap(&graph, &v.weights, p->steps, &merges, &modularity,
							&membership);
			break;
		case MEV_CLUSTER_LOUVAIN:
			what = "louvain";
			err = igraph_community_multilevel(&graph, &v.weights, p->resolution, &membership, NULL,
							  NULL);
			break;
		case MEV_CLUSTER_LEIDEN:
			what = "leiden";
			if (p->smooth) {
				if ((rc = start_membership(&membership, &v, c, prev)))
					goto done;
			} else {
				for (size_t i = 0; i < v.n; i++)
					VECTOR(membership)[i] = (igraph_integer_t)i;
			}
			err = leiden(&graph, &v.weights, p->resolution, &membership);
			break;
		default:
			what = "connected components";
			err = igraph_connected_components(&graph, &membership, NULL, NULL, IGRAPH_WEAK);
			break;
		}
		if (err)
			goto ig_error;
		what = "modularity";
		err = igraph_modularity(&graph, &membership, &v.weights,
					p->method == MEV_CLUSTER_LOUVAIN || p->method == MEV_CLUSTER_LEIDEN
						? p->resolution : 1.0,
					0, &c->modularity);
		if (err)
			goto ig_error;
	}
	for (size_t i = 0; i < v.n; i++) {
		igraph_integer_t k = VECTOR(membership)[i];
		if (k < 0 || (size_t)k >= v.n) {
			rc = mev_error_set(MEV_ERROR, "igraph: %s gave cluster %lld to vertex %zu of %zu", what,
					   (long long)k, i, v.n);
			goto done;
		}
		c->member[v.sec[i]] = (uint32_t)k;
	}
rank:
	rc = clustering_rank(c, v.n);
	goto done;
ig_error:
	rc = ig_fail(err, what);
done:
	if (have_wt) {
		igraph_matrix_int_destroy(&merges);
		igraph_vector_destroy(&modularity);
	}
	if (have_m)
		igraph_vector_int_destroy(&membership);
	if (have_graph)
		igraph_destroy(&graph);
	vgraph_free(&v);
	ig_leave(&h);
	if (rc)
		mev_clustering_free(c);
	else
		*out = c;
	return rc;
}

/* --- stored clusterings ------------------------------------------------- */

/* key: "<parameter key>\0<tag>" */
static int make_key(mev_buf *k, const mev_cluster_params *p, const char *tag)
{
	char pk[128];
	size_t n = mev_cluster_key(p, pk, sizeof pk);
	mev_buf_clear(k);
	if (mev_buf_put(k, pk, n + 1) || mev_buf_puts(k, tag))
		return mev_error_oom();
	return 0;
}

static int encode(mev_buf *b, const mev_clustering *c)
{
	uint64_t bits;
	int rc = 0;
	memcpy(&bits, &c->modularity, sizeof bits);
	rc |= mev__put_uv(b, REC_VERSION);
	rc |= mev__put_uv(b, ALGORITHM);
	rc |= mev__put_uv(b, c->graph_fp);
	rc |= mev__put_uv(b, c->nsec);
	rc |= mev__put_uv(b, bits);
	rc |= mev__put_uv(b, c->ncl);
	for (size_t i = 0; i < c->nsec && !rc; i++)
		rc |= mev__put_uv(b, c->member[i] == MEV_CLUSTER_NONE ? 0 : (uint64_t)c->member[i] + 1);
	for (size_t k = 0; k < c->ncl && !rc; k++)
		rc |= mev__put_uv(b, c->rep[k]);
	return rc ? mev_error_oom() : 0;
}

/* The stored record's graph fingerprint (0 when unreadable). */
static uint64_t record_fp(const void *data, size_t len)
{
	mev__rd r;
	mev__rd_init(&r, data, len);
	if (mev__get_uv(&r) != REC_VERSION || mev__get_uv(&r) != ALGORITHM)
		return 0;
	{
		uint64_t fp = mev__get_uv(&r);
		return r.bad ? 0 : fp;
	}
}

/* Fill the clustering `c` (made over the release's graph) from a record. */
static int decode(mev_clustering *c, const void *data, size_t len, const char *tag)
{
	mev__rd r;
	uint64_t ns, ncl, bits;
	int rc;
	mev__rd_init(&r, data, len);
	if (mev__get_uv(&r) != REC_VERSION)
		return mev_error_set(MEV_ECORRUPT, "clustering of '%s' has an unknown version", tag);
	(void)mev__get_uv(&r);
	(void)mev__get_uv(&r);
	ns = mev__get_uv(&r);
	bits = mev__get_uv(&r);
	ncl = mev__get_uv(&r);
	if (r.bad || ns != c->nsec || ncl > ns)
		return mev_error_set(MEV_ECORRUPT, "clustering of '%s' does not fit its release", tag);
	memcpy(&c->modularity, &bits, sizeof bits);
	for (size_t i = 0; i < c->nsec; i++) {
		uint64_t k = mev__get_uv(&r);
		c->member[i] = k == 0 || k > ncl ? MEV_CLUSTER_NONE : (uint32_t)(k - 1);
	}
	if (r.bad)
		return mev_error_set(MEV_ECORRUPT, "clustering of '%s' is damaged", tag);
	/* representatives and sizes follow from the membership */
	if ((rc = clustering_rank(c, (size_t)ncl)))
		return rc;
	for (size_t k = 0; k < c->ncl; k++)
		if (mev__get_uv(&r) != c->rep[k] || r.bad)
			return mev_error_set(MEV_ECORRUPT, "clustering of '%s' is damaged", tag);
	return 0;
}

static int load_with_graph(mev_clustering **out, mev_store *s, const mev_cluster_params *p,
			   const char *tag, const mev_graph *g)
{
	mev_buf k = MEV_BUF_INIT;
	void *data = NULL;
	size_t len = 0;
	mev_clustering *c = NULL;
	char pk[128];
	int rc;

	*out = NULL;
	mev_cluster_key(p, pk, sizeof pk);
	if ((rc = make_key(&k, p, tag)))
		goto done;
	rc = mev_store_get(&data, &len, s, "clusters", k.ptr, k.len);
	if (rc == MEV_ENOTFOUND) {
		mev_error_set(MEV_ENOTFOUND, "release '%s' is not clustered with %s", tag, pk);
		mev_error_hint("run 'maintevo cluster --store %s' with the same options first",
			       mev_store_dir(s));
		goto done;
	}
	if (rc || (rc = clustering_new(&c, g)))
		goto done;
	c->graph_fp = mev__graph_fingerprint(g);
	if (record_fp(data, len) != c->graph_fp) {
		rc = mev_error_set(MEV_ENOTFOUND, "the clustering of '%s' (%s) is out of date: the release "
				   "changed since", tag, pk);
		mev_error_hint("run 'maintevo cluster --store %s' with the same options again",
			       mev_store_dir(s));
		goto done;
	}
	rc = decode(c, data, len, tag);
done:
	free(data);
	mev_buf_free(&k);
	if (rc)
		mev_clustering_free(c);
	else
		*out = c;
	return rc;
}

int mev_cluster_load(mev_clustering **out, mev_store *s, const mev_cluster_params *p,
		     const char *tag)
{
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	int rc;
	*out = NULL;
	if ((rc = mev_cluster_params_check(p)) || (rc = mev_release_load_graph(&fm, &g, s, tag, 0)))
		return rc;
	rc = load_with_graph(out, s, p, tag, g);
	mev_graph_free(g);
	mev_filemap_free(fm);
	return rc;
}

/* Store one record in its own transaction (growing the map when full). */
static int put_record(mev_store *s, const mev_buf *key, const mev_buf *val)
{
	int rc = 0;
	for (int attempt = 0; attempt < 3; attempt++) {
		if ((rc = mev_store_begin(s)))
			return rc;
		rc = mev_store_put(s, "clusters", key->ptr, key->len, val->ptr, val->len);
		if (!rc)
			return mev_store_commit(s);
		mev_store_abort(s);
		if (rc != MEV_ELIMIT || (rc = mev_store_grow(s)))
			return rc;
		rc = MEV_ELIMIT;
	}
	return rc;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Cluster release `tag` (its graph `g`) and encode the record. */
static int cluster_one(mev_buf *val, const mev_graph *g, const mev_cluster_params *p,
		       const mev_clustering *prev, mev_clustering **keep, const char *tag)
{
	mev_clustering *c = NULL;
	int rc = mev_cluster_graph(&c, g, p, prev);
	if (rc) {
		mev_error_prefix("clustering '%s'", tag);
		return rc;
	}
	mev_buf_clear(val);
	rc = encode(val, c);
	if (!rc && keep)
		*keep = c;
	else
		mev_clustering_free(c);
	return rc;
}

/*
 * Worker processes for independent releases: igraph is not thread-safe, so
 * the releases are dealt to forked children (release i to child i mod n),
 * each with its own read-only handle on the store (an LMDB environment must
 * not be used across fork()).  A child sends, per release, "u32 index,
 * u32 length, record" on its pipe, or index UINT32_MAX and a message on
 * failure; the parent writes the records.
 */
static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int read_all(int fd, void *p, size_t n)
{
	char *c = p;
	while (n) {
		ssize_t r = read(fd, c, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

static void child_run(int fd, const char *dir, const mev_cluster_params *p, char **tags,
		      const size_t *todo, size_t ntodo, size_t me, size_t nchild)
{
	mev_store *s = NULL;
	mev_buf val = MEV_BUF_INIT;
	int rc = mev_store_open(&s, dir, MEV_STORE_READ);
	for (size_t i = me; !rc && i < ntodo; i += nchild) {
		mev_filemap *fm = NULL;
		mev_graph *g = NULL;
		uint32_t hdr[2];
		rc = mev_release_load_graph(&fm, &g, s, tags[todo[i]], 0);
		if (!rc)
			rc = cluster_one(&val, g, p, NULL, NULL, tags[todo[i]]);
		mev_graph_free(g);
		mev_filemap_free(fm);
		if (rc)
			break;
		hdr[0] = (uint32_t)i;
		hdr[1] = (uint32_t)val.len;
		if (write_all(fd, hdr, sizeof hdr) || write_all(fd, val.ptr, val.len))
			_exit(3);
	}
	if (rc) {
		const char *m = mev_error_message();
		uint32_t hdr[2] = { UINT32_MAX, (uint32_t)strlen(m) };
		if (write_all(fd, hdr, sizeof hdr) || write_all(fd, m, hdr[1]))
			_exit(3);
	}
	mev_buf_free(&val);
	mev_store_free(s);
	_exit(rc ? 1 : 0);
}

static int run_children(mev_store *s, const mev_cluster_params *p, char **tags, const size_t *todo,
			size_t ntodo, int jobs, const mev_cluster_options *o, mev_cluster_result *res)
{
	pid_t pid[64];
	int fd[64];
	size_t n = (size_t)jobs, open_fds = 0, got = 0;
	mev_buf key = MEV_BUF_INIT, val = MEV_BUF_INIT;
	char msg[1024] = "";
	int rc = 0;

	if (n > 64)
		n = 64;
	if (n > ntodo)
		n = ntodo;
	fflush(NULL);
	for (size_t c = 0; c < n; c++) {
		int pf[2];
		if (pipe(pf) != 0) {
			rc = mev_error_set(MEV_EIO, "cannot create a pipe: %s", strerror(errno));
			n = c;
			break;
		}
		pid[c] = fork();
		if (pid[c] < 0) {
			rc = mev_error_set(MEV_ERROR, "cannot start a worker process: %s", strerror(errno));
			close(pf[0]);
			close(pf[1]);
			n = c;
			break;
		}
		if (pid[c] == 0) {
			close(pf[0]);
			for (size_t k = 0; k < c; k++)
				close(fd[k]);
			child_run(pf[1], mev_store_dir(s), p, tags, todo, ntodo, c, n);
		}
		close(pf[1]);
		fd[c] = pf[0];
		open_fds++;
	}
	while (open_fds && !rc) {
		struct pollfd pfd[64];
		for (size_t c = 0; c < n; c++) {
			pfd[c].fd = fd[c];
			pfd[c].events = POLLIN;
			pfd[c].revents = 0;
		}
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			rc = mev_error_set(MEV_EIO, "waiting for the workers: %s", strerror(errno));
			break;
		}
		for (size_t c = 0; c < n && !rc; c++) {
			uint32_t hdr[2];
			if (fd[c] < 0 || !(pfd[c].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (read_all(fd[c], hdr, sizeof hdr)) {
				close(fd[c]);
				fd[c] = -1;
				open_fds--;
				continue;
			}
			if (hdr[0] == UINT32_MAX) {
				size_t l = hdr[1] < sizeof msg - 1 ? hdr[1] : sizeof msg - 1;
				if (read_all(fd[c], msg, l))
					l = 0;
				msg[l] = '\0';
				rc = mev_error_set(MEV_ERROR, "%s", msg[0] ? msg : "a worker process failed");
				break;
			}
			if (hdr[0] >= ntodo || mev_buf_grow(&val, hdr[1])) {
				rc = hdr[0] >= ntodo ? mev_error_set(MEV_ERROR, "a worker process sent garbage")
						     : mev_error_oom();
				break;
			}
			val.len = 0;
			if (read_all(fd[c], val.ptr, hdr[1])) {
				rc = mev_error_set(MEV_ERROR, "a worker process stopped");
				break;
			}
			val.len = hdr[1];
			if ((rc = make_key(&key, p, tags[todo[hdr[0]]])) || (rc = put_record(s, &key, &val)))
				break;
			res->clustered++;
			got++;
			if (o && o->progress)
				o->progress(o->ctx, got, ntodo, tags[todo[hdr[0]]]);
			if (o && o->stop && *o->stop) {
				rc = mev_error_set(MEV_EINTR, "interrupted");
				break;
			}
		}
	}
	for (size_t c = 0; c < n; c++) {
		int st;
		if (fd[c] >= 0)
			close(fd[c]);
		if (rc)
			kill(pid[c], SIGTERM);
		while (waitpid(pid[c], &st, 0) < 0 && errno == EINTR)
			;
		if (!rc && (!WIFEXITED(st) || WEXITSTATUS(st) != 0))
			rc = mev_error_set(MEV_ERROR, "a worker process failed");
	}
	if (!rc && got != ntodo)
		rc = mev_error_set(MEV_ERROR, "the workers clustered %zu of %zu releases", got, ntodo);
	mev_buf_free(&key);
	mev_buf_free(&val);
	return rc;
}

int mev_cluster_store(mev_store *s, const mev_cluster_params *p, const mev_cluster_options *o,
		      mev_cluster_result *res)
{
	mev_release *list = NULL;
	size_t n = 0, ntodo = 0;
	size_t *todo = NULL;
	char **tags = NULL;
	mev_clustering *prev = NULL;
	mev_buf key = MEV_BUF_INIT, val = MEV_BUF_INIT;
	int rc, dirty = 0, jobs = o && o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	double t0 = now();

	memset(res, 0, sizeof *res);
	if ((rc = mev_cluster_params_check(p)) || (rc = mev_release_list(&list, &n, s)))
		return rc;
	res->releases = n;
	todo = malloc((n + 1) * sizeof *todo);
	tags = calloc(n + 1, sizeof *tags);
	if (!todo || !tags) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		tags[i] = list[i].tag;
	/* which releases need clustering; a smoothed run does them in order */
	for (size_t i = 0; i < n && !rc; i++) {
		mev_filemap *fm = NULL;
		mev_graph *g = NULL;
		void *data = NULL;
		size_t len = 0;
		int fresh;
		if (o && o->stop && *o->stop) {
			rc = mev_error_set(MEV_EINTR, "interrupted");
			break;
		}
		if ((rc = mev_release_load_graph(&fm, &g, s, tags[i], 0)) || (rc = make_key(&key, p, tags[i])))
			goto next;
		rc = mev_store_get(&data, &len, s, "clusters", key.ptr, key.len);
		if (rc && rc != MEV_ENOTFOUND)
			goto next;
		fresh = !rc && !dirty && record_fp(data, len) == mev__graph_fingerprint(g);
		rc = 0;
		if (!p->smooth) {
			if (fresh)
				res->kept++;
			else
				todo[ntodo++] = i;
			goto next;
		}
		if (fresh) {
			mev_clustering *c = NULL;
			if ((rc = clustering_new(&c, g)))
				goto next;
			c->graph_fp = mev__graph_fingerprint(g);
			if ((rc = decode(c, data, len, tags[i]))) {
				mev_clustering_free(c);
				goto next;
			}
			mev_clustering_free(prev);
			prev = c;
			res->kept++;
		} else {
			mev_clustering *c = NULL;
			dirty = 1;
			if (o && o->progress)
				o->progress(o->ctx, i + 1, n, tags[i]);
			if ((rc = cluster_one(&val, g, p, prev, &c, tags[i])))
				goto next;
			mev_clustering_free(prev);
			prev = c;
			if ((rc = put_record(s, &key, &val)))
				goto next;
			res->clustered++;
		}
next:
		free(data);
		mev_graph_free(g);
		mev_filemap_free(fm);
	}
	if (rc || p->smooth || !ntodo)
		goto done;
	if (jobs > 1 && ntodo > 1) {
		rc = run_children(s, p, tags, todo, ntodo, jobs, o, res);
		goto done;
	}
	for (size_t k = 0; k < ntodo && !rc; k++) {
		mev_filemap *fm = NULL;
		mev_graph *g = NULL;
		const char *tag = tags[todo[k]];
		if (o && o->stop && *o->stop) {
			rc = mev_error_set(MEV_EINTR, "interrupted");
			break;
		}
		if (o && o->progress)
			o->progress(o->ctx, k + 1, ntodo, tag);
		if (!(rc = mev_release_load_graph(&fm, &g, s, tag, 0)) &&
		    !(rc = cluster_one(&val, g, p, NULL, NULL, tag)) && !(rc = make_key(&key, p, tag)) &&
		    !(rc = put_record(s, &key, &val)))
			res->clustered++;
		mev_graph_free(g);
		mev_filemap_free(fm);
	}
done:
	res->seconds = now() - t0;
	mev_clustering_free(prev);
	mev_buf_free(&key);
	mev_buf_free(&val);
	free(todo);
	free(tags);
	mev_release_list_free(list, n);
	return rc;
}
