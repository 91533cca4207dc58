/* The overlap graph of one release: sections linked by the code they share. */
#ifndef MAINTEVO_GRAPH_H
#define MAINTEVO_GRAPH_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include "maintevo/filemap.h"
#include "maintevo/graphdoc.h"

/* An edge between sections a and b (a == b: the section's own size). */
typedef struct {
	uint32_t a, b;            /* section indices; title(a) <= title(b) bytewise */
	uint64_t lines, bytes, files;
} mev_edge;

typedef struct mev_graph mev_graph;

/* The most edges between two sections mev_graph_build() makes by default
 * (a complete graph of 10,000 sections, 1.6 GB of edges): a bigger graph
 * is refused with MEV_ELIMIT rather than running out of memory. */
#define MEV_GRAPH_MAX_EDGES 50000000ULL

typedef struct {
	int keep_rest;            /* keep THE REST (left out by default) */
} mev_graph_options;

/*
 * Sum, for every pair of sections, the lines, bytes and files both cover;
 * and for every section what it covers alone (a self edge, also for
 * sections that cover nothing).  Time: the sum over the distinct section
 * sets of the files of k(k+1)/2 (k: the set's sections), plus the edges;
 * memory: sizeof(mev_edge) (32 bytes) an edge, plus a few words a section
 * and a set member.  Errors: MEV_ENOMEM; MEV_ELIMIT when the graph would
 * have more than MEV_GRAPH_MAX_EDGES edges between sections (counted
 * before any is made).
 */
int mev_graph_build(mev_graph **out, const mev_filemap *fm, const mev_graph_options *opt);
/* The same with another limit than MEV_GRAPH_MAX_EDGES. */
int mev_graph_build_max(mev_graph **out, const mev_filemap *fm, const mev_graph_options *opt,
			uint64_t max_edges);
void mev_graph_free(mev_graph *g);

/*
 * A graph from stored edges (self edges included) over the sections of
 * `fm` (which may have no rows).  THE REST's edges are dropped unless
 * opt->keep_rest.  Errors: MEV_ENOMEM, MEV_EINVAL for an id out of range.
 */
int mev_graph_from_edges(mev_graph **out, const mev_filemap *fm, const mev_edge *edges,
			 size_t n, const mev_graph_options *opt);
/* The same taking `edges` (malloc'ed, n of them): the graph keeps the array
 * (no copy) and frees it, also on failure. */
int mev_graph_adopt_edges(mev_graph **out, const mev_filemap *fm, mev_edge *edges, size_t n,
			  const mev_graph_options *opt);

/*
 * Twins (issue 32, point 5): sections whose edges are all alike, weights
 * included, because they cover exactly the same files.  N of them make a
 * complete graph of N(N-1)/2 edges that say nothing more than one does,
 * so a graph read from a store keeps a class of at least
 * MEV_GRAPH_TWINS_MIN twins as its representative (its first section in
 * title order) and the class's size: mev_graph_kept_edges() has the
 * edges between representatives and the sections of no class, and a
 * member of a class has its representative's edges.  The clustering and
 * the tracker read those (they keep twins in one cluster); the whole
 * graph (mev_graph_edges()) is made from them when first asked for.
 * Fewer twins stay as they are, so graphs without a large class (every
 * real MAINTAINERS file seen so far) are read as before, edge for edge.
 */
#define MEV_GRAPH_TWINS_MIN 8

/* Edges read from somewhere twice: next() gives the next (1), says the end
 * (0) or fails (a negative MEV_E*); rewind() starts over. */
typedef struct {
	int (*next)(void *ctx, mev_edge *e);
	void (*rewind)(void *ctx);
	void *ctx;
} mev_edge_source;

/*
 * The graph of src's edges (stored ones, self edges included, in the
 * order of a built graph) over the sections of fm, its twins found and
 * kept as classes; THE REST's edges dropped unless opt->keep_rest.  Time:
 * two reads of the edges; memory: the kept edges.  Errors: MEV_ENOMEM,
 * MEV_EINVAL for an id out of range, src's.
 */
int mev_graph_from_source(mev_graph **out, const mev_filemap *fm, mev_edge_source *src,
			  const mev_graph_options *opt);
/* A graph like `like` (sections, THE REST, twins) with other weights: its
 * kept edges replaced by `edges` (malloc'ed, n, the same pairs; taken). */
int mev_graph_adopt_like(mev_graph **out, const mev_graph *like, mev_edge *edges, size_t n);
/* The edges kept (all of them for a graph without twins), *n of them. */
const mev_edge *mev_graph_kept_edges(const mev_graph *g, size_t *n);
/* The representative of section's class (section itself outside one), and
 * the class's size (1 outside one). */
uint32_t mev_graph_twin_rep(const mev_graph *g, uint32_t section);
uint32_t mev_graph_twin_count(const mev_graph *g, uint32_t section);
int mev_graph_has_twins(const mev_graph *g);

/* Edges sorted by (title(a), title(b)); self edges included.  With twins
 * the whole graph is made at the first call of either (under a lock; when
 * memory runs out, a count of 0 and NULL, the error set). */
size_t mev_graph_edge_count(const mev_graph *g);
const mev_edge *mev_graph_edges(const mev_graph *g);
const mev_filemap *mev_graph_filemap(const mev_graph *g);
/* 1 when the section is a vertex of the graph (not THE REST, unless kept). */
int mev_graph_has_section(const mev_graph *g, uint32_t section);

/*
 * Shortest paths in hops (every edge between two sections counts 1, its
 * weight aside): patch flow's integration distance (docs/flow.md).  Made
 * once per graph (its edges laid out as adjacency lists; with twins the
 * whole graph is made first), then one breadth-first search a call.
 * Errors: MEV_ENOMEM.  The graph must outlive it.
 */
typedef struct mev_graph_hops mev_graph_hops;
int mev_graph_hops_new(mev_graph_hops **out, const mev_graph *g);
void mev_graph_hops_free(mev_graph_hops *h);
/* No path (a distance of mev_graph_hops_from()). */
#define MEV_GRAPH_NO_PATH UINT32_MAX
/*
 * dist[s], for every section s of the graph's file map
 * (mev_filemap_section_count() of them): the fewest edges from any of
 * from[0..n) to s, 0 for those, MEV_GRAPH_NO_PATH when no path leads
 * there.  Sections that are no vertex of the graph (THE REST unless kept,
 * an index out of range) are not sources and are never reached.  Time: the
 * sections plus the edges reached.  Not for two threads at once.
 */
int mev_graph_hops_from(uint32_t *dist, mev_graph_hops *h, const uint32_t *from, size_t n);

/*
 * Write the graph in one of the graph formats (maintevo/graphdoc.h): CSV
 * "from,to,lines,bytes,files" (self rows included); GraphML (vertex
 * attributes name, lines, bytes, files, status, maintainers, vertices in
 * MAINTAINERS order with ids "n<section index>"; edge attributes lines,
 * bytes, files, weight; no self loops); JSON {"nodes":[...],"links":[...]}
 * (networkx node-link, nodes in title order); DOT named `name` (the
 * release; NULL: none), vertices in title order labelled with their
 * display names, the attributes of GraphML.  excel_safe: CSV text cells
 * safe for a spreadsheet (mev_table_excel_safe()).  Errors: MEV_ENOMEM,
 * MEV_EIO.
 */
int mev_graph_write(FILE *out, const mev_graph *g, mev_graph_format fmt, const char *name,
		    int excel_safe);

#endif
