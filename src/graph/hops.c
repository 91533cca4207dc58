/*
 * Shortest paths in hops over the overlap graph: the integration distance
 * of patch flow (docs/flow.md).  The edges are laid out once per graph as
 * adjacency lists (compressed rows), so that each breadth-first search
 * from a set of sections costs the sections plus the edges it reaches.
 */
#include "graph_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

struct mev_graph_hops {
	const mev_graph *g;
	uint32_t nsec;
	uint32_t *off;   /* nsec + 1: section s's neighbours are adj[off[s] .. off[s + 1]) */
	uint32_t *adj;
	uint32_t *queue; /* nsec: the search's queue */
};

void mev_graph_hops_free(mev_graph_hops *h)
{
	if (!h)
		return;
	free(h->off);
	free(h->adj);
	free(h->queue);
	free(h);
}

/* The edges between two sections (self edges are sizes, not links). */
static int is_link(const mev_edge *e) { return e->a != e->b; }

int mev_graph_hops_new(mev_graph_hops **out, const mev_graph *g)
{
	mev_graph_hops *h = calloc(1, sizeof *h);
	size_t ne = mev_graph_edge_count(g), links = 0;
	const mev_edge *e = mev_graph_edges(g);

	*out = NULL;
	if (!h)
		return mev_error_oom();
	if (ne && !e) { /* the whole graph of twins could not be made */
		free(h);
		return mev_error_oom();
	}
	h->g = g;
	h->nsec = (uint32_t)mev_filemap_section_count(g->fm);
	h->off = calloc((size_t)h->nsec + 2, sizeof *h->off);
	h->queue = malloc(((size_t)h->nsec + 1) * sizeof *h->queue);
	for (size_t i = 0; i < ne; i++)
		links += is_link(&e[i]);
	h->adj = malloc((2 * links + 1) * sizeof *h->adj);
	if (!h->off || !h->queue || !h->adj) {
		mev_graph_hops_free(h);
		return mev_error_oom();
	}
	/* count each section's neighbours into off[s + 2], sum, then place
	 * them with off[s + 1] as the cursor: it ends at the row's end */
	for (size_t i = 0; i < ne; i++)
		if (is_link(&e[i])) {
			h->off[e[i].a + 2]++;
			h->off[e[i].b + 2]++;
		}
	for (uint32_t s = 2; s < h->nsec + 2; s++)
		h->off[s] += h->off[s - 1];
	for (size_t i = 0; i < ne; i++)
		if (is_link(&e[i])) {
			h->adj[h->off[e[i].a + 1]++] = e[i].b;
			h->adj[h->off[e[i].b + 1]++] = e[i].a;
		}
	*out = h;
	return 0;
}

int mev_graph_hops_from(uint32_t *dist, mev_graph_hops *h, const uint32_t *from, size_t n)
{
	size_t head = 0, tail = 0;
	for (uint32_t s = 0; s < h->nsec; s++)
		dist[s] = MEV_GRAPH_NO_PATH;
	for (size_t i = 0; i < n; i++) {
		uint32_t s = from[i];
		if (!mev_graph_has_section(h->g, s) || s >= h->nsec)
			continue;
		if (dist[s] != 0)
			h->queue[tail++] = s;
		dist[s] = 0;
	}
	while (head < tail) {
		uint32_t s = h->queue[head++];
		for (uint32_t k = h->off[s]; k < h->off[s + 1]; k++) {
			uint32_t t = h->adj[k];
			if (dist[t] == MEV_GRAPH_NO_PATH) {
				dist[t] = dist[s] + 1;
				h->queue[tail++] = t;
			}
		}
	}
	return 0;
}
