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

/* The signs of title's hash, one per dimension of the sketch. */
static void signs(double *out, const char *title)
{
	uint64_t h = mev__hash_bytes(title, strlen(title));
	for (size_t d = 0; d < MEV__SKETCH; d++)
		out[d] = (h >> d) & 1 ? 1.0 : -1.0;
}

/* Section a's sketch gains w times the signs sg of its neighbours there
 * (one neighbour: +-w, as its edge; a class of twins: their sum). */
static void sketch_add(mev_clustering *c, uint32_t a, const double *sg, double count, double w)
{
	c->nbk[a] += w * count;
	for (size_t d = 0; d < MEV__SKETCH; d++)
		c->nbsk[(size_t)a * MEV__SKETCH + d] += w * sg[d];
}

/*
 * Each section's neighbourhood: every edge adds its lines to both ends,
 * signed by the other end's title.  With twins (graph.h) an edge of two
 * representatives stands for every pair of their classes: each end gains
 * the sum of the other class's signs, and each member of a class, from
 * its own class, the signs of the others.  Without, the sums are those of
 * the edges one by one, in the same order.
 */
static int sketch_neighbourhoods(mev_clustering *c, const mev_section_info *secs, const mev_graph *g)
{
	size_t ne, n = c->nsec;
	const mev_edge *e = mev_graph_kept_edges(g, &ne);
	double *sg = malloc((n + 1) * MEV__SKETCH * sizeof *sg), *own = NULL;
	if (!sg)
		return mev_error_oom();
	for (uint32_t s = 0; s < n; s++)
		signs(sg + (size_t)s * MEV__SKETCH, c->titles[s]);
	if (mev_graph_has_twins(g)) {
		/* a representative's signs: its whole class's */
		if (!(own = malloc((n + 1) * MEV__SKETCH * sizeof *own))) {
			free(sg);
			return mev_error_oom();
		}
		memcpy(own, sg, n * MEV__SKETCH * sizeof *own);
		for (uint32_t s = 0; s < n; s++) {
			uint32_t r = mev_graph_twin_rep(g, s);
			for (size_t d = 0; r != s && d < MEV__SKETCH; d++)
				sg[(size_t)r * MEV__SKETCH + d] += own[(size_t)s * MEV__SKETCH + d];
		}
	}
	for (size_t i = 0; i < ne; i++) {
		uint32_t a = e[i].a, b = e[i].b;
		if (a == b || secs[a].is_rest || secs[b].is_rest)
			continue;
		sketch_add(c, a, sg + (size_t)b * MEV__SKETCH, mev_graph_twin_count(g, b), (double)e[i].lines);
		sketch_add(c, b, sg + (size_t)a * MEV__SKETCH, mev_graph_twin_count(g, a), (double)e[i].lines);
	}
	/* a twin: from the other classes what its representative has, then
	 * from its own class the others' signs */
	for (uint32_t s = 0; own && s < n; s++) {
		uint32_t r = mev_graph_twin_rep(g, s);
		if (r == s)
			continue;
		c->nbk[s] = c->nbk[r];
		memcpy(c->nbsk + (size_t)s * MEV__SKETCH, c->nbsk + (size_t)r * MEV__SKETCH,
		       MEV__SKETCH * sizeof *c->nbsk);
	}
	for (uint32_t s = 0; own && s < n; s++) {
		uint32_t r = mev_graph_twin_rep(g, s), k = mev_graph_twin_count(g, s);
		double in[MEV__SKETCH];
		if (k < 2 || secs[s].is_rest)
			continue;
		for (size_t d = 0; d < MEV__SKETCH; d++)
			in[d] = sg[(size_t)r * MEV__SKETCH + d] - own[(size_t)s * MEV__SKETCH + d];
		sketch_add(c, s, in, k - 1, (double)c->lines[s]);
	}
	free(own);
	free(sg);
	return 0;
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
	size_t n = mev_filemap_section_count(fm), ne;
	const mev_edge *e = mev_graph_kept_edges(g, &ne);
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
	for (size_t i = 0; i < n; i++) /* a twin's lines: its representative's */
		c->lines[i] = c->lines[mev_graph_twin_rep(g, (uint32_t)i)];
	if (sketch_neighbourhoods(c, secs, g)) {
		mev_clustering_free(c);
		return mev_error_oom();
	}
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

/*
 * Which sections are umbrellas in their cluster: a section whose patterns
 * touch at least half of the cluster's other sections (of 2 or more),
 * which together cover more than twice its lines, and hold less than a
 * tenth of those, as DPDK's "Documentation (with overlaps)" (README and
 * doc/) touches the page of each of 160 drivers.  A section that holds
 * the others (U-Boot's ARM, MIPS, RENESAS BOARDS: their boards' files are
 * theirs too) or is most of the cluster's code (coreboot's LIBPAYLOAD
 * beside CBFSTOOL and LZ4 COMPRESSION) is not one.  From the
 * graph's kept edges (a store keeps no file sets with a graph); a twin
 * counts once per member of its class and is what its class's
 * representative is.  Labels are raw; *out is 0/1 per section.
 */
static int umbrellas(uint8_t **out, const mev_clustering *c, const uint32_t *size, const mev_graph *g)
{
	size_t ne, n = c->nsec;
	const mev_edge *e = mev_graph_kept_edges(g, &ne);
	uint64_t *acc = calloc(3 * n + 1, sizeof *acc), *deg = acc, *held = acc + n, *touched = acc + 2 * n;
	uint8_t *u = calloc(n + 1, 1);
	*out = u;
	if (!acc || !u) {
		free(acc);
		return mev_error_oom();
	}
	for (size_t i = 0; i < ne; i++)
		for (int end = 0; end < 2; end++) {
			uint32_t x = end ? e[i].b : e[i].a, y = end ? e[i].a : e[i].b;
			uint64_t m = mev_graph_twin_count(g, y);
			if (x == y || x >= n || y >= n || c->member[x] == MEV_CLUSTER_NONE ||
			    c->member[x] != c->member[y])
				continue;
			deg[x] += m;
			held[x] += m * e[i].lines;
			touched[x] += m * c->lines[y];
		}
	for (uint32_t s = 0; s < n; s++) {
		uint32_t r = mev_graph_twin_rep(g, s);
		uint64_t others = c->member[s] == MEV_CLUSTER_NONE ? 0 : size[c->member[s]] - 1;
		u[s] = others >= 2 && 2 * deg[r] >= others && 2 * c->lines[s] < touched[r] &&
		       10 * held[r] < touched[r];
	}
	free(acc);
	return 0;
}

/* Whether section a represents its cluster better than b (cluster.h): not
 * an umbrella, then more lines, then the bytewise smaller title. */
static int better_rep(const mev_clustering *c, const uint8_t *umbrella, uint32_t a, uint32_t b)
{
	if (umbrella[a] != umbrella[b])
		return umbrella[b];
	if (c->lines[a] != c->lines[b])
		return c->lines[a] > c->lines[b];
	return strcmp(c->titles[a], c->titles[b]) < 0;
}

/* Clusters by decreasing lines, ties by representative title (cluster.h). */
int mev__clustering_rank(mev_clustering *c, size_t nraw, const mev_graph *g)
{
	cl_tmp *t = calloc(nraw + 1, sizeof *t);
	uint32_t *rank = malloc((nraw + 1) * sizeof *rank), *size = calloc(nraw + 1, sizeof *size);
	uint8_t *umbrella = NULL;
	size_t used = 0;
	int rc = 0;
	if (!t || !rank || !size) {
		rc = mev_error_oom();
		goto done;
	}
	for (uint32_t s = 0; s < c->nsec; s++) {
		uint32_t k = c->member[s];
		if (k == MEV_CLUSTER_NONE)
			continue;
		if (k >= nraw) {
			rc = mev_error_set(MEV_ECORRUPT, "cluster label %u out of range", k);
			goto done;
		}
		size[k]++;
	}
	if ((rc = umbrellas(&umbrella, c, size, g)))
		goto done;
	for (size_t k = 0; k < nraw; k++)
		t[k].rep = MEV_CLUSTER_NONE;
	for (uint32_t s = 0; s < c->nsec; s++) {
		uint32_t k = c->member[s];
		cl_tmp *x;
		if (k == MEV_CLUSTER_NONE)
			continue;
		x = &t[k];
		x->lines += c->lines[s];
		x->size++;
		if (x->rep == MEV_CLUSTER_NONE || better_rep(c, umbrella, s, x->rep))
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
	free(size);
	free(umbrella);
	return rc;
}

uint64_t mev__graph_fingerprint(const mev_graph *g)
{
	const mev_filemap *fm = mev_graph_filemap(g);
	const mev_section_info *secs = mev_filemap_sections(fm);
	size_t n = mev_filemap_section_count(fm), ne;
	const mev_edge *e = mev_graph_kept_edges(g, &ne);
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
	/* with twins, the kept edges and the classes they stand for */
	for (size_t i = 0; mev_graph_has_twins(g) && i < n; i++) {
		uint64_t x[2] = { h, ((uint64_t)mev_graph_twin_rep(g, (uint32_t)i) << 32) | i };
		h = mev__hash_bytes(x, sizeof x);
	}
	return h;
}
