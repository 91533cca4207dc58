/* Inside the library: what the tracker needs of the clustering module. */
#ifndef MEV_CLUSTER_INTERNAL_H
#define MEV_CLUSTER_INTERNAL_H

#include "maintevo/graph.h"

/* A hash of a graph's sections and edges (equal graphs, equal hashes). */
uint64_t mev__graph_fingerprint(const mev_graph *g);

#endif
