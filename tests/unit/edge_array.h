/* Stored edges read from an array: a mev_edge_source over mev_graph_edges()
 * (test_graph.c, test_cluster.c). */
#ifndef MEV_EDGE_ARRAY_H
#define MEV_EDGE_ARRAY_H

#include "maintevo/graph.h"

#include <stddef.h>

typedef struct {
	const mev_edge *e;
	size_t n, i;
} array_src;

static inline int array_next(void *ctx, mev_edge *e)
{
	array_src *a = ctx;
	if (a->i == a->n)
		return 0;
	*e = a->e[a->i++];
	return 1;
}

static inline void array_rewind(void *ctx)
{
	((array_src *)ctx)->i = 0;
}

#endif
