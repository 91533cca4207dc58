/* Helpers of the clustering tests (test_cluster.c, test_cluster_temporal.c): small named graphs. */
#ifndef MEV_CLUSTER_TEST_H
#define MEV_CLUSTER_TEST_H

#include "test.h"
#include "maintevo/cluster.h"
#include "maintevo/graph.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A graph over named sections: self sizes and pair weights given as text. */
typedef struct {
	mev_filemap *fm;
	mev_graph *g;
} tgraph;

static inline int find(const mev_filemap *fm, const char *t)
{
	for (size_t i = 0; i < mev_filemap_section_count(fm); i++)
		if (strcmp(mev_filemap_sections(fm)[i].title, t) == 0)
			return (int)i;
	return -1;
}

/* sections: "TITLE=lines" ...; edges: "A|B=lines" ... (NULL-terminated) */
static inline tgraph make(const char *const *sections, const char *const *edges)
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

static inline void drop(tgraph *t)
{
	mev_graph_free(t->g);
	mev_filemap_free(t->fm);
}

static inline uint32_t cluster_of(const mev_clustering *c, const char *title)
{
	for (uint32_t i = 0; i < mev_clustering_section_count(c); i++)
		if (strcmp(mev_clustering_title(c, i), title) == 0)
			return mev_clustering_of(c, i);
	return 12345;
}

static inline const char *rep_of(const mev_clustering *c, const char *title)
{
	uint32_t k = cluster_of(c, title);
	return k < mev_clustering_count(c) ? mev_clustering_title(c, mev_clustering_representative(c, k)) : "";
}

static inline int same_partition(const mev_clustering *a, const mev_clustering *b)
{
	if (mev_clustering_section_count(a) != mev_clustering_section_count(b))
		return 0;
	for (uint32_t i = 0; i < mev_clustering_section_count(a); i++)
		if (mev_clustering_of(a, i) != mev_clustering_of(b, i))
			return 0;
	return 1;
}

#endif
