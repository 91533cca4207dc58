/* Inside the graph module: the graph's fields, shared by graph.c and twins.c. */
#ifndef MEV_GRAPH_INTERNAL_H
#define MEV_GRAPH_INTERNAL_H

#include <pthread.h>
#include "maintevo/graph.h"
#include "util/buf.h"

/* A graph's twins (twins.c): sections whose edges are the same, weights
 * included (they cover exactly the same files), in classes of at least
 * MEV_GRAPH_TWINS_MIN; NULL fields when the graph has none. */
typedef struct {
	uint32_t *rep;      /* per section: its class's representative (itself when alone) */
	uint32_t *size;     /* per section: its class's size when it represents one, else 1 */
	uint32_t *moff;     /* per section r: its members mem[moff[r]] .. mem[moff[r + 1]] */
	uint32_t *mem;      /* (a representative's, in title order; nobody else has any) */
	uint64_t nfull;     /* the edges of the whole graph */
	mev_edge *full;     /* the whole graph, made when mev_graph_edges() asks */
	int failed;         /* making it ran out of memory */
	pthread_mutex_t lock; /* around making it */
} mev__twins;

struct mev_graph {
	const mev_filemap *fm;
	int keep_rest;
	/* every edge; with twins, only those between representatives and the
	 * sections of no class (the others repeat them) */
	MEV_VEC(mev_edge) edges;
	mev__twins *tw;
};

/* Sort edges by (title(a), a, title(b), b): the order of a built graph. */
void mev__graph_sort(const mev_filemap *fm, mev_edge *e, size_t n);
void mev__twins_free(mev__twins *t);
/* The whole graph's edges of g, which has twins (made once, under the lock). */
const mev_edge *mev__twins_full(const mev_graph *g);

#endif
