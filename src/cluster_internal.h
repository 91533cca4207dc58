/* Inside the library: what the tracker needs of the clustering module. */
#ifndef MEV_CLUSTER_INTERNAL_H
#define MEV_CLUSTER_INTERNAL_H

#include "maintevo/graph.h"

/* A hash of a graph's sections and edges (equal graphs, equal hashes). */
uint64_t mev__graph_fingerprint(const mev_graph *g);

/*
 * For the tests: make igraph fail on purpose (an odd edge list, then
 * walktrap with weights of the wrong length) under maintevo's error
 * handler.  Returns the error of the last failure (MEV_ERROR, with igraph's
 * message), or 0 if igraph did not fail.  The process must survive.
 */
int mev__cluster_provoke_igraph_error(void);

#endif
