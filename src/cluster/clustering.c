/* One release's clusters: the object, its accessors, and its ranking of clusters and representatives. */
#include "cluster_internal.h"
#include "maintevo/error.h"
#include "util/strmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void mev_clustering_free(mev_clustering *c)
{
	if (!c)
		return;
	free(c->titles);
	free(c->lines);
	free(c->member);
	free(c->nbk);
	free(c->nbsk);
	free(c->rep);
	free(c->cl_lines);
	free(c->cl_size);
	mev__arena_free(&c->arena);
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

mev_cluster_step mev_clustering_step(const mev_clustering *c) { return c->step; }
size_t mev_clustering_moved(const mev_clustering *c) { return c->moved; }
double mev_clustering_reference_modularity(const mev_clustering *c) { return c->reference; }

const char *mev_cluster_step_name(mev_cluster_step s)
{
	static const char *const names[] = { "", "kept", "moved", "reoptimised", "independent" };
	return (unsigned)s < sizeof names / sizeof *names ? names[s] : "?";
}

uint64_t mev_clustering_fingerprint(const mev_clustering *c)
{
	uint64_t h[2];
	h[0] = c->graph_fp;
	h[1] = mev__hash_bytes(c->member, c->nsec * sizeof *c->member);
	return mev__hash_bytes(h, sizeof h);
}

static void sketch_edge(mev_clustering *c, uint32_t a, const char *other, double w)
{
	uint64_t h = mev__hash_bytes(other, strlen(other));
	c->nbk[a] += w;
	for (size_t d = 0; d < MEV__SKETCH; d++)
		c->nbsk[(size_t)a * MEV__SKETCH + d] += (h >> d) & 1 ? w : -w;
}

static void sketch_neighbourhoods(mev_clustering *c, const mev_section_info *secs, const mev_edge *e, size_t ne)
{
	for (size_t i = 0; i < ne; i++) {
		uint32_t a = e[i].a, b = e[i].b;
		if (a == b || secs[a].is_rest || secs[b].is_rest)
			continue;
		sketch_edge(c, a, c->titles[b], (double)e[i].lines);
		sketch_edge(c, b, c->titles[a], (double)e[i].lines);
	}
}

int mev__section_changed(const mev_clustering *c, uint32_t i, const mev_clustering *prev, uint32_t j)
{
	double dl = fabs((double)c->lines[i] - (double)prev->lines[j]), d2 = 0;
	double k = fmax(c->nbk[i], prev->nbk[j]);
	if (dl > MEV__CHANGE_TOL * (double)(c->lines[i] > prev->lines[j] ? c->lines[i] : prev->lines[j]))
		return 1;
	for (size_t d = 0; d < MEV__SKETCH; d++) {
		double x = c->nbsk[(size_t)i * MEV__SKETCH + d] - prev->nbsk[(size_t)j * MEV__SKETCH + d];
		d2 += x * x;
	}
	return sqrt(d2 / MEV__SKETCH) > MEV__CHANGE_TOL * k;
}

int mev__clustering_new(mev_clustering **out, const mev_graph *g)
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
	c->nbk = calloc(n + 1, sizeof *c->nbk);
	c->nbsk = calloc((n + 1) * MEV__SKETCH, sizeof *c->nbsk);
	if (!c->titles || !c->lines || !c->member || !c->nbk || !c->nbsk) {
		mev_clustering_free(c);
		return mev_error_oom();
	}
	for (size_t i = 0; i < n; i++) {
		c->member[i] = MEV_CLUSTER_NONE;
		if (!(c->titles[i] = mev__arena_strndup(&c->arena, secs[i].title, strlen(secs[i].title)))) {
			mev_clustering_free(c);
			return mev_error_oom();
		}
	}
	for (size_t i = 0; i < ne; i++)
		if (e[i].a == e[i].b)
			c->lines[e[i].a] = e[i].lines;
	sketch_neighbourhoods(c, secs, e, ne);
	c->modularity = NAN;
	c->reference = NAN;
	c->graph_fp = mev__graph_fingerprint(g);
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

/* Clusters by decreasing lines, ties by representative title (cluster.h). */
int mev__clustering_rank(mev_clustering *c, size_t nraw)
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

uint64_t mev__graph_fingerprint(const mev_graph *g)
{
	const mev_filemap *fm = mev_graph_filemap(g);
	const mev_section_info *secs = mev_filemap_sections(fm);
	const mev_edge *e = mev_graph_edges(g);
	size_t n = mev_filemap_section_count(fm), ne = mev_graph_edge_count(g);
	uint64_t h = mev__hash_bytes("mev-graph", 9);
	for (size_t i = 0; i < n; i++) {
		uint64_t x[2] = { h, mev__hash_bytes(secs[i].title, strlen(secs[i].title) + 1) ^ secs[i].is_rest };
		h = mev__hash_bytes(x, sizeof x);
	}
	/* THE REST is left out, so that a graph read with or without it agrees */
	for (size_t i = 0; i < ne; i++) {
		uint64_t x[4] = { h, ((uint64_t)e[i].a << 32) | e[i].b, e[i].lines, e[i].bytes };
		if (secs[e[i].a].is_rest || secs[e[i].b].is_rest)
			continue;
		h = mev__hash_bytes(x, sizeof x);
	}
	return h;
}
