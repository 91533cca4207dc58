/*
 * The igraph adapter: the overlap graph handed to igraph (THE REST and self
 * loops removed, weights = shared lines), walktrap cut at maximum
 * modularity as the study did, Louvain, Leiden or connected components,
 * and the temporal method's Leiden runs and choice between its steps (its
 * own local moves, in plain C: temporal.c).
 *
 * The only file that includes igraph.h.  igraph's default error handler
 * aborts the process: every entry into igraph installs a handler that
 * records the message and returns, and the code is turned into MEV_ERROR.
 * igraph keeps that handler, its RNG and its error stack in globals (not
 * built thread-safe), which is why several releases are clustered in
 * worker processes (workers.c), not threads.
 */
#include "cluster_internal.h"
#include "maintevo/error.h"
#include "util/strmap.h"

#include <igraph.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A change of this file that gives other clusters for the same input must
 * bump ALGORITHM in cluster_store.c, so that stored clusterings of an older
 * build count as out of date.
 */
enum { LEIDEN_MAX_ITERATIONS = 64 };

/* --- igraph errors -------------------------------------------------------- */

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

/* --- the graph handed to igraph ---------------------------------------- */

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

/* Sections made vertices: the chosen ones in title order (of a class of
 * twins, its representative: graph.h), with how many sections each is. */
typedef struct {
	uint32_t *sec;      /* vertex -> section */
	int64_t *vid;       /* section -> vertex or -1 */
	double *mult;       /* vertex -> sections it stands for (1 but for twins) */
	size_t n;
	igraph_vector_int_t edges;
	igraph_vector_t weights;
	int have_vectors;
} vgraph;

static void vgraph_free(vgraph *v)
{
	free(v->sec);
	free(v->vid);
	free(v->mult);
	if (v->have_vectors) {
		igraph_vector_int_destroy(&v->edges);
		igraph_vector_destroy(&v->weights);
	}
}

static int vgraph_build(vgraph *v, const mev_graph *g, const mev_clustering *c, double top)
{
	const mev_filemap *fm = mev_graph_filemap(g);
	const mev_section_info *secs = mev_filemap_sections(fm);
	size_t n = c->nsec, ne;
	const mev_edge *e = mev_graph_kept_edges(g, &ne);
	double cut = -1;
	igraph_error_t err;

	memset(v, 0, sizeof *v);
	v->sec = malloc((n + 1) * sizeof *v->sec);
	v->vid = malloc((n + 1) * sizeof *v->vid);
	v->mult = malloc((n + 1) * sizeof *v->mult);
	if (!v->sec || !v->vid || !v->mult)
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
		if (!secs[i].is_rest && (cut < 0 || (double)c->lines[i] > cut) &&
		    mev_graph_twin_rep(g, (uint32_t)i) == i)
			v->sec[v->n++] = (uint32_t)i;
	}
	sort_titles = c->titles;
	qsort(v->sec, v->n, sizeof *v->sec, title_cmp);
	for (size_t i = 0; i < v->n; i++) {
		v->vid[v->sec[i]] = (int64_t)i;
		v->mult[i] = mev_graph_twin_count(g, v->sec[i]);
	}

	if ((err = igraph_vector_int_init(&v->edges, 0)) != IGRAPH_SUCCESS)
		return ig_fail(err, "allocating the edges");
	if ((err = igraph_vector_init(&v->weights, 0)) != IGRAPH_SUCCESS) {
		igraph_vector_int_destroy(&v->edges);
		return ig_fail(err, "allocating the weights");
	}
	v->have_vectors = 1;
	/* an edge of two representatives is the pairs of their classes; a
	 * class's own pairs are a loop (modularity counts them as inside) */
	for (size_t i = 0; i < ne; i++) {
		int64_t a = v->vid[e[i].a], b = v->vid[e[i].b];
		double w;
		if (!e[i].lines || a < 0 || b < 0)
			continue;
		w = e[i].a == e[i].b ? v->mult[a] * (v->mult[a] - 1) / 2 : v->mult[a] * v->mult[b];
		if (w == 0)
			continue;
		if ((err = igraph_vector_int_push_back(&v->edges, a)) != IGRAPH_SUCCESS ||
		    (err = igraph_vector_int_push_back(&v->edges, b)) != IGRAPH_SUCCESS ||
		    (err = igraph_vector_push_back(&v->weights, w * (igraph_real_t)e[i].lines)) !=
			    IGRAPH_SUCCESS)
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

/*
 * Each vertex in the cluster its title had in `prev`, new titles alone;
 * labels renumbered 0.. in vertex order.  *known: vertices whose title was
 * clustered in prev, and seen[i] (seen may be NULL) whether vertex i is one.
 */
static int project(uint32_t *lab, size_t *known, unsigned char *seen, const vgraph *v,
		   const mev_clustering *c, const mev_clustering *prev)
{
	mev_strmap titles = MEV_STRMAP_INIT;
	size_t next = prev ? prev->ncl : 0;
	int rc = 0;
	*known = 0;
	if (prev)
		for (uint32_t s = 0; s < prev->nsec; s++)
			if (prev->member[s] != MEV_CLUSTER_NONE &&
			    mev__strmap_put(&titles, prev->titles[s], strlen(prev->titles[s]), prev->member[s])) {
				rc = mev_error_oom();
				goto done;
			}
	for (size_t i = 0; i < v->n; i++) {
		const char *t = c->titles[v->sec[i]];
		int64_t k = prev ? mev__strmap_get(&titles, t, strlen(t)) : -1;
		*known += k >= 0;
		if (seen)
			seen[i] = k >= 0;
		lab[i] = k >= 0 ? (uint32_t)k : (uint32_t)next++;
	}
	rc = mev__relabel(lab, v->n, next);
done:
	mev__strmap_free(&titles);
	return rc;
}

/* Start of a smoothed run: each vertex in the cluster its title had before. */
static int start_membership(igraph_vector_int_t *m, const vgraph *v, const mev_clustering *c,
			    const mev_clustering *prev)
{
	uint32_t *lab = malloc((v->n + 1) * sizeof *lab);
	size_t known;
	int rc = lab ? project(lab, &known, NULL, v, c, prev) : mev_error_oom();
	for (size_t i = 0; !rc && i < v->n; i++)
		VECTOR(*m)[i] = (igraph_integer_t)lab[i];
	free(lab);
	return rc ? rc : split_disconnected(m, v);
}

/* --- the temporal method ---------------------------------------------------- */

/*
 * TEMPORAL_SEEDS Leiden runs (seeds p->seed, p->seed + 1, ...) give the
 * reference and the re-optimisations.  TEMPORAL_MARGIN is the hysteresis of
 * local moving: a section moves only when the target cluster beats its own
 * by this share of its strength (modularity terms: the gain exceeds
 * margin * k / m); docs/tracking.md has the measurements behind 0.3.
 */
enum { TEMPORAL_SEEDS = 4 };
#define TEMPORAL_MARGIN 0.3

typedef struct {
	const igraph_t *graph;
	const vgraph *v;
	const mev_cluster_params *p;
	igraph_vector_int_t *m;   /* scratch, sized v->n */
	mev__wgraph wg;
	double margin;
	mev__reference ref;       /* the reference's partition, once known */
} temporal_run;

/* Modularity of lab (made canonical first: the same partition, the same bits). */
static int temporal_q(double *q, const temporal_run *t, uint32_t *lab)
{
	igraph_error_t err;
	int rc = mev__relabel(lab, t->v->n, t->v->n);
	if (rc)
		return rc;
	for (size_t i = 0; i < t->v->n; i++)
		VECTOR(*t->m)[i] = (igraph_integer_t)lab[i];
	err = igraph_modularity(t->graph, t->m, &t->v->weights, t->p->resolution, 0, q);
	return err ? ig_fail(err, "modularity") : 0;
}

/* Leiden from start (NULL: every vertex alone), seeded, into out (settled
 * unless raw), its modularity into *q. */
static int temporal_leiden(uint32_t *out, double *q, temporal_run *t, const uint32_t *start,
			   uint64_t seed, int raw)
{
	size_t n = t->v->n;
	igraph_error_t err;
	int rc;
	for (size_t i = 0; i < n; i++)
		VECTOR(*t->m)[i] = (igraph_integer_t)(start ? start[i] : i);
	igraph_rng_seed(igraph_rng_default(), (igraph_uint_t)seed);
	if ((err = leiden(t->graph, &t->v->weights, t->p->resolution, t->m)))
		return ig_fail(err, "temporal: Leiden");
	for (size_t i = 0; i < n; i++) {
		igraph_integer_t k = VECTOR(*t->m)[i];
		if (k < 0 || (size_t)k >= n)
			return mev_error_set(MEV_ERROR, "igraph: Leiden gave cluster %lld to vertex %zu of %zu",
					     (long long)k, i, n);
		out[i] = (uint32_t)k;
	}
	if (!raw && (rc = mev__settle(out, &t->wg, t->margin, NULL, &t->ref)))
		return rc;
	return temporal_q(q, t, out);
}

/* The best of TEMPORAL_SEEDS Leiden runs from start into best (ties: the first). */
static int temporal_best(uint32_t *best, double *qbest, temporal_run *t, const uint32_t *start,
			 uint32_t *scratch, int raw)
{
	size_t n = t->v->n;
	int rc;
	*qbest = -INFINITY;
	for (uint64_t s = 0; s < TEMPORAL_SEEDS; s++) {
		double q;
		if ((rc = temporal_leiden(scratch, &q, t, start, t->p->seed + s, raw)))
			return rc;
		if (q > *qbest) {
			*qbest = q;
			memcpy(best, scratch, n * sizeof *best);
		}
	}
	return 0;
}

static int temporal_graph(mev__wgraph *wg, const vgraph *v, double gamma)
{
	size_t ne = (size_t)igraph_vector_size(&v->weights);
	uint32_t *ends = malloc((2 * ne + 1) * sizeof *ends);
	int rc;
	if (!ends)
		return mev_error_oom();
	for (size_t i = 0; i < 2 * ne; i++)
		ends[i] = (uint32_t)VECTOR(v->edges)[i];
	rc = mev__wgraph_init(wg, v->n, ends, VECTOR(v->weights), ne, gamma);
	free(ends);
	return rc;
}

/*
 * Which vertices may move when the previous release's clusters are
 * settled: those whose neighbourhood changed (mev__section_changed()) or
 * that are new,
 * and their neighbours.  Elsewhere nothing in the graph changed, and only
 * the total weight shifted the balance: no reason to move.  *changed_out:
 * only the vertices that changed or are new.
 */
static int active_vertices(unsigned char **out, unsigned char **changed_out, const temporal_run *t,
			   const mev_clustering *c, const mev_clustering *prev)
{
	mev_strmap at = MEV_STRMAP_INIT;
	size_t n = t->v->n;
	unsigned char *changed = calloc(n + 1, 1), *active = calloc(n + 1, 1);
	int rc = 0;
	*out = *changed_out = NULL;
	if (!changed || !active)
		rc = mev_error_oom();
	for (uint32_t s = 0; !rc && s < prev->nsec; s++)
		if (mev__strmap_put(&at, prev->titles[s], strlen(prev->titles[s]), s))
			rc = mev_error_oom();
	for (size_t i = 0; !rc && i < n; i++) {
		uint32_t sec = t->v->sec[i];
		int64_t ps = mev__strmap_get(&at, c->titles[sec], strlen(c->titles[sec]));
		changed[i] = ps < 0 || mev__section_changed(c, sec, prev, (uint32_t)ps);
	}
	for (size_t i = 0; !rc && i < n; i++) {
		active[i] = changed[i];
		for (size_t e = t->wg.off[i]; !active[i] && e < t->wg.off[i + 1]; e++)
			active[i] = changed[t->wg.adj[e]];
	}
	mev__strmap_free(&at);
	if (rc) {
		free(active);
		free(changed);
	} else {
		*out = active;
		*changed_out = changed;
	}
	return rc;
}

/*
 * After a re-optimisation (lab, from the settled clusters `from`): every
 * cluster of `from` none of whose vertices changed back as it was, the
 * rest as re-optimised, settled again (moves limited to the active
 * vertices); taken when its modularity still reaches floor.  So a
 * re-optimisation does not merge or split clusters whose code and
 * MAINTAINERS did not change.  scratch: n labels.
 */
static int keep_still(uint32_t *lab, double *q, temporal_run *t, const uint32_t *from, uint32_t *scratch,
		      const unsigned char *changed, const unsigned char *active, double floor)
{
	size_t n = t->v->n, still = 0;
	unsigned char *hot = calloc(n + 1, 1);
	double q2;
	int rc;
	if (!hot)
		return mev_error_oom();
	for (size_t i = 0; i < n; i++)
		hot[from[i]] |= changed[i];
	for (size_t i = 0; i < n; i++) {
		scratch[i] = hot[from[i]] ? lab[i] : (uint32_t)(n + from[i]);
		still += !hot[from[i]];
	}
	free(hot);
	if (!still)
		return 0;
	if ((rc = mev__relabel(scratch, n, 2 * n)) ||
	    (rc = mev__settle(scratch, &t->wg, t->margin, active, &t->ref)) ||
	    (rc = temporal_q(&q2, t, scratch)))
		return rc;
	if (q2 >= floor) {
		memcpy(lab, scratch, n * sizeof *lab);
		*q = q2;
	}
	return 0;
}

/*
 * The temporal method (cluster.h): the reference (best independent
 * Leiden), then the previous release's clusters settled, else Leiden from
 * them, else the reference's partition settled.  Every settling keeps a
 * section or piece in a cluster that the reference's partition keeps it
 * in (mev__settle()): moves that gain locally but lead away from the best
 * partition of the release are where the clusters drifted from it, and
 * what a re-optimisation later undid.  Fills c's step, moved and
 * reference; the partition goes into lab.  buf: scratch of 5 * v->n.
 */
static int temporal_steps(uint32_t *lab, temporal_run *t, mev_clustering *c, const mev_clustering *prev,
			  uint32_t *buf)
{
	uint32_t *ind = buf, *start = buf + t->v->n, *inc = buf + 2 * t->v->n, *tmp = buf + 3 * t->v->n;
	unsigned char *seen = (unsigned char *)(buf + 4 * t->v->n), *active = NULL, *changed = NULL;
	size_t n = t->v->n, known = 0;
	double qind, q, floor;
	int rc;
	if ((rc = temporal_best(ind, &qind, t, NULL, tmp, 1)))
		return rc;
	c->reference = qind;
	t->ref.label = ind;
	floor = qind - (1 - t->p->tolerance) * fabs(qind);
	if (prev && !isnan(prev->modularity) && (rc = project(start, &known, seen, t->v, c, prev)))
		return rc;
	if (known) {
		memcpy(lab, start, n * sizeof *lab);
		if ((prev->nbk && (rc = active_vertices(&active, &changed, t, c, prev))) ||
		    (rc = mev__settle(lab, &t->wg, t->margin, active, &t->ref)) || (rc = temporal_q(&q, t, lab)))
			goto done;
		if (q >= floor) {
			c->step = MEV_CLUSTER_STEP_MOVED;
		} else {
			memcpy(inc, lab, n * sizeof *lab);
			if ((rc = temporal_best(lab, &q, t, inc, tmp, 0)) ||
			    (active && (rc = keep_still(lab, &q, t, inc, tmp, changed, active, floor))))
				goto done;
			c->step = MEV_CLUSTER_STEP_REOPTIMISED;
		}
	}
	if (!known || q < floor) {
		memcpy(lab, ind, n * sizeof *lab);
		if ((rc = mev__settle(lab, &t->wg, t->margin, NULL, &t->ref)) || (rc = temporal_q(&q, t, lab)))
			goto done;
		c->step = MEV_CLUSTER_STEP_INDEPENDENT;
	}
	if (known && (rc = mev__moved(&c->moved, start, lab, seen, t->v->mult, n)))
		goto done;
	if (c->step == MEV_CLUSTER_STEP_MOVED && !c->moved)
		c->step = MEV_CLUSTER_STEP_KEPT;
done:
	free(active);
	free(changed);
	return rc;
}

static int temporal(igraph_vector_int_t *membership, const igraph_t *graph, const vgraph *v,
		    const mev_cluster_params *p, mev_clustering *c, const mev_clustering *prev)
{
	temporal_run t = { graph, v, p, membership, { 0 }, TEMPORAL_MARGIN, { NULL, NULL, NULL } };
	uint32_t *lab = malloc((v->n + 1) * sizeof *lab), *buf = malloc((5 * v->n + 1) * sizeof *buf);
	double *lines = malloc((v->n + 1) * sizeof *lines);
	int rc;
	if (!lab || !buf || !lines) {
		rc = mev_error_oom();
	} else if (!(rc = temporal_graph(&t.wg, v, p->resolution))) {
		for (size_t i = 0; i < v->n; i++)
			lines[i] = (double)c->lines[v->sec[i]];
		t.ref.lines = lines;
		t.ref.mult = v->mult;
		rc = temporal_steps(lab, &t, c, prev, buf);
	}
	for (size_t i = 0; !rc && i < v->n; i++)
		VECTOR(*membership)[i] = (igraph_integer_t)lab[i];
	mev__wgraph_free(&t.wg);
	free(lab);
	free(buf);
	free(lines);
	return rc;
}

/*
 * The partition of the vertices of v by p's method into `membership`
 * (sized v->n), and its modularity into *q.  Without edges every vertex is
 * alone (igraph would say the same) and *q is left alone.
 */
static int partition(igraph_vector_int_t *membership, double *q, const igraph_t *graph,
		     const vgraph *v, const mev_cluster_params *p, mev_clustering *c,
		     const mev_clustering *prev)
{
	igraph_matrix_int_t merges;
	igraph_vector_t modularity;
	igraph_error_t err = IGRAPH_SUCCESS;
	const char *what = mev_cluster_method_name(p->method);
	int rc;

	if (igraph_vector_size(&v->weights) == 0) {
		for (size_t i = 0; i < v->n; i++)
			VECTOR(*membership)[i] = (igraph_integer_t)i;
		return 0;
	}
	switch (p->method) {
	case MEV_CLUSTER_WALKTRAP:
		if ((err = igraph_matrix_int_init(&merges, 0, 0)))
			break;
		if ((err = igraph_vector_init(&modularity, 0)) == IGRAPH_SUCCESS) {
			err = igraph_community_walktrap(graph, &v->weights, p->steps, &merges, &modularity,
							membership);
			igraph_vector_destroy(&modularity);
		}
		igraph_matrix_int_destroy(&merges);
		break;
	case MEV_CLUSTER_LOUVAIN:
		err = igraph_community_multilevel(graph, &v->weights, p->resolution, membership, NULL, NULL);
		break;
	case MEV_CLUSTER_LEIDEN:
		if (p->smooth) {
			if ((rc = start_membership(membership, v, c, prev)))
				return rc;
		} else {
			for (size_t i = 0; i < v->n; i++)
				VECTOR(*membership)[i] = (igraph_integer_t)i;
		}
		err = leiden(graph, &v->weights, p->resolution, membership);
		break;
	case MEV_CLUSTER_TEMPORAL:
		if ((rc = temporal(membership, graph, v, p, c, prev)))
			return rc;
		break;
	default:
		what = "connected components";
		err = igraph_connected_components(graph, membership, NULL, NULL, IGRAPH_WEAK);
		break;
	}
	if (err)
		return ig_fail(err, what);
	err = igraph_modularity(graph, membership, &v->weights,
				p->method == MEV_CLUSTER_LOUVAIN || p->method == MEV_CLUSTER_LEIDEN ||
						p->method == MEV_CLUSTER_TEMPORAL
					? p->resolution : 1.0,
				0, q);
	return err ? ig_fail(err, "modularity") : 0;
}

/* The vertices' clusters as c->member's raw labels (< v->n). */
static int take_membership(mev_clustering *c, const igraph_vector_int_t *membership, const vgraph *v,
			   const mev_cluster_params *p, const mev_graph *g)
{
	for (size_t i = 0; i < v->n; i++) {
		igraph_integer_t k = VECTOR(*membership)[i];
		if (k < 0 || (size_t)k >= v->n)
			return mev_error_set(MEV_ERROR, "igraph: %s gave cluster %lld to vertex %zu of %zu",
					     mev_cluster_method_name(p->method), (long long)k, i, v->n);
		c->member[v->sec[i]] = (uint32_t)k;
	}
	/* twins: in their representative's cluster */
	for (uint32_t s = 0; s < c->nsec; s++)
		if (mev_graph_twin_rep(g, s) != s && v->vid[mev_graph_twin_rep(g, s)] >= 0)
			c->member[s] = c->member[mev_graph_twin_rep(g, s)];
	return 0;
}

int mev_cluster_graph(mev_clustering **out, const mev_graph *g, const mev_cluster_params *p,
		      const mev_clustering *prev)
{
	mev_clustering *c = NULL;
	vgraph v;
	igraph_t graph;
	igraph_vector_int_t membership;
	ig_handlers h;
	int have_graph = 0, have_m = 0, rc;
	igraph_error_t err;

	*out = NULL;
	memset(&v, 0, sizeof v);
	if ((rc = mev_cluster_params_check(p)) || (rc = mev__clustering_new(&c, g)))
		return rc;
	if ((p->smooth || p->method == MEV_CLUSTER_TEMPORAL) && prev)
		c->chain = mev_clustering_fingerprint(prev);
	ig_enter(&h, p->seed);
	if ((rc = vgraph_build(&v, g, c, p->top_fraction)) || !v.n)
		goto rank;
	if ((err = igraph_create(&graph, &v.edges, (igraph_integer_t)v.n, IGRAPH_UNDIRECTED))) {
		rc = ig_fail(err, "building the graph");
		goto done;
	}
	have_graph = 1;
	if ((err = igraph_vector_int_init(&membership, (igraph_integer_t)v.n))) {
		rc = ig_fail(err, "building the graph");
		goto done;
	}
	have_m = 1;
	if ((rc = partition(&membership, &c->modularity, &graph, &v, p, c, prev)) ||
	    (rc = take_membership(c, &membership, &v, p, g)))
		goto done;
rank:
	if (!rc)
		rc = mev__clustering_rank(c, v.n, g);
done:
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
