/* What the files of src/cluster/ share among themselves (private to the folder). */
#ifndef MEV_CLUSTER_INTERNAL_H
#define MEV_CLUSTER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/cluster.h"
#include "maintevo/graph.h"
#include "util/buf.h"
#include "cluster_shared.h"

/* --- the clustering object (clustering.c) ------------------------------- */

/* Only src/cluster/ looks inside; everyone else uses the accessors. */
struct mev_clustering {
	size_t nsec;
	const char **titles;  /* in the arena */
	uint64_t *lines;      /* per section: its own lines */
	uint32_t *member;     /* per section: cluster or MEV_CLUSTER_NONE */
	double *nbk;          /* per section: its strength (lines shared with other sections) */
	double *nbsk;         /* per section: MEV__SKETCH sums of its edges' lines, signed by neighbour title */
	size_t ncl;
	uint32_t *rep;        /* per cluster */
	uint64_t *cl_lines;
	uint32_t *cl_size;
	double modularity;
	uint64_t graph_fp;
	/* temporal: what was done, and the reference modularity */
	mev_cluster_step step;
	size_t moved;
	double reference;
	/* smooth and temporal: the fingerprint of the previous release's
	 * clustering it started from (0: none) */
	uint64_t chain;
	mev_arena arena;
};

/*
 * A clustering over the sections of g, every section unclustered, its own
 * lines taken from the self loops, its neighbourhood sketched (nbk, nbsk;
 * THE REST left out; mev__section_changed()), modularity and reference
 * NaN, graph_fp set, no step, no chain.
 */
int mev__clustering_new(mev_clustering **out, const mev_graph *g);

/*
 * From raw cluster labels in c->member (per section, MEV_CLUSTER_NONE for
 * none, labels < nraw) to ranked clusters with representatives (the order
 * cluster.h promises).  Only c->member, c->lines, c->titles and the kept
 * edges and twins of g (the graph c was made over: which lines are whose
 * own) are read.
 * Errors: MEV_ECORRUPT for a label >= nraw, MEV_ENOMEM.
 */
int mev__clustering_rank(mev_clustering *c, size_t nraw, const mev_graph *g);

/* Dimensions of a section's neighbourhood sketch; how much may change. */
enum { MEV__SKETCH = 8 };
#define MEV__CHANGE_TOL 0.05

/*
 * Whether section i of c differs materially from section j of prev (the
 * same title): its own lines by more than MEV__CHANGE_TOL of them, or its
 * edges: the lines it shares with each neighbour (by title), as a vector,
 * moved by more than MEV__CHANGE_TOL of its strength (estimated from the
 * random-sign sketches: |sketch difference| / sqrt(MEV__SKETCH)).
 */
int mev__section_changed(const mev_clustering *c, uint32_t i, const mev_clustering *prev, uint32_t j);

/* --- the temporal method's own steps (temporal.c) ---------------------------- */

/* A weighted undirected graph as adjacency lists (a loop, a class of
 * twins' pairs among themselves, is twice in its vertex's list; it counts
 * twice in k and once in m, as modularity counts it). */
typedef struct {
	size_t n;
	size_t *off;       /* neighbours of v: adj[off[v] .. off[v + 1]) */
	uint32_t *adj;
	double *w;         /* weight of each adj entry */
	double *k;         /* strength of each vertex */
	double m;          /* total weight, each edge once */
	double gamma;      /* resolution */
} mev__wgraph;

/* From ne edges ends[2i]--ends[2i+1] (< n) of weights w[i] > 0.  MEV_ENOMEM. */
int mev__wgraph_init(mev__wgraph *g, size_t n, const uint32_t *ends, const double *w, size_t ne,
		     double gamma);
void mev__wgraph_free(mev__wgraph *g);

/*
 * A reference partition for mev__settle(): each vertex's cluster in it
 * (labels compared for equality only) and its lines, the weight of its
 * pairs, and (mult: NULL for 1 each) how many sections it stands for
 * (a class of twins), which multiplies its pairs.
 */
typedef struct {
	const uint32_t *label;
	const double *lines;
	const double *mult;
} mev__reference;

/*
 * Deterministic local moving with hysteresis until nothing changes: in
 * vertex order, a vertex moves to the neighbouring cluster (or to a cluster
 * of its own) of the largest modularity gain, only when that gain exceeds
 * margin * its strength / m; clusters cut into connected pieces (the piece
 * of the smallest vertex keeps the label); again until neither changes
 * anything.  The result is a fixed point: settling it again changes
 * nothing.  `label` (labels < n) is changed in place.  `active` (NULL:
 * every vertex) limits the moves to movers with an active vertex: a
 * vertex or piece whose neighbourhood did not change since the previous
 * release stays where it is, however the rest of the graph shifts the
 * modularity (cutting a cluster into its connected pieces is not limited).
 * `ref` (NULL: none) keeps a vertex or piece in its cluster when the
 * reference partition keeps it there: when, of its pairs with the
 * cluster's other vertices, each weighing the smaller of the two's lines,
 * those together in the reference weigh more than those apart.
 * Errors: MEV_ENOMEM.
 */
int mev__settle(uint32_t *label, const mev__wgraph *g, double margin, const unsigned char *active,
		const mev__reference *ref);

/* Labels (any values < bound) renumbered 0.. by first appearance. MEV_ENOMEM. */
int mev__relabel(uint32_t *label, size_t n, size_t bound);

/* Vertices not in the cluster they started in, under the greedy one-to-one
 * matching of `from` and `to` clusters by shared vertices (labels < n),
 * counting only the vertices v with only[v] (only may be NULL: all), each
 * as mult[v] sections (mult may be NULL: 1 each). */
int mev__moved(size_t *out, const uint32_t *from, const uint32_t *to, const unsigned char *only,
	       const double *mult, size_t n);

/* --- igraph (igraph.c) ----------------------------------------------------- */

/*
 * For the tests: make igraph fail on purpose (an odd edge list, then
 * walktrap with weights of the wrong length) under maintevo's error
 * handler.  Returns the error of the last failure (MEV_ERROR, with igraph's
 * message), or 0 if igraph did not fail.  The process must survive.
 */
int mev__cluster_provoke_igraph_error(void);

#endif
