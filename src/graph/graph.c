/*
 * The overlap graph.  Files with the same section set are summed once (the
 * set's weight); then, row by row in title order, each section a gathers
 * the weights of the sets it is in onto every section b of those sets that
 * comes after it (b >= a), in a dense accumulator, and emits its edges in
 * order.  No hash of pairs and no sort of edges: time is the sum over the
 * distinct sets of k(k+1)/2 (k: the set's sections) plus the edges, memory
 * the edges (sizeof(mev_edge) each) plus a few words per section and per
 * set member.
 */
#include "graph_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

static const mev_filemap *sort_fm; /* qsort has no context argument */

static int edge_cmp(const void *x, const void *y)
{
	const mev_edge *a = x, *b = y;
	const mev_section_info *s = mev_filemap_sections(sort_fm);
	int c = strcmp(s[a->a].title, s[b->a].title);
	return c ? c : strcmp(s[a->b].title, s[b->b].title);
}

/* Sections in title order (equal titles by index). */
static int section_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	const mev_section_info *s = mev_filemap_sections(sort_fm);
	int c = strcmp(s[a].title, s[b].title);
	return c ? c : (a > b) - (a < b);
}

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return (a > b) - (a < b);
}

/* (title(a), a, title(b), b): the order of the rows of a build, in which
 * sections of one title are ranked by index. */
static int edge_rank_cmp(const void *x, const void *y, void *fm)
{
	const mev_edge *a = x, *b = y;
	const mev_section_info *s = mev_filemap_sections(fm);
	int c = strcmp(s[a->a].title, s[b->a].title);
	if (c || a->a != b->a)
		return c ? c : (a->a > b->a) - (a->a < b->a);
	c = strcmp(s[a->b].title, s[b->b].title);
	return c ? c : (a->b > b->b) - (a->b < b->b);
}

void mev__graph_sort(const mev_filemap *fm, mev_edge *e, size_t n)
{
	if (n > 1)
		qsort_r(e, n, sizeof *e, edge_rank_cmp, (void *)fm);
}

/* Sort the edges unless they are in order already (stored graphs are). */
static void sort_edges(mev_graph *g)
{
	sort_fm = g->fm;
	for (size_t i = 1; i < g->edges.n; i++)
		if (edge_cmp(&g->edges.v[i - 1], &g->edges.v[i]) > 0) {
			qsort(g->edges.v, g->edges.n, sizeof *g->edges.v, edge_cmp);
			return;
		}
}

int mev_graph_has_section(const mev_graph *g, uint32_t section)
{
	return section < mev_filemap_section_count(g->fm) &&
	       (g->keep_rest || !mev_filemap_sections(g->fm)[section].is_rest);
}

/*
 * What the build works on: the kept sections by rank (title order), each
 * distinct set with files as the sorted ranks of its kept sections
 * (mem[off[i]] .. mem[off[i + 1]], weights w*[i]), and for each rank the
 * places it has in those sets (at[head[r]] .. at[head[r + 1]]: indices
 * into mem, set[] telling whose).
 */
typedef struct {
	uint32_t *order, *rank, nk;
	MEV_VEC(uint32_t) off, mem, set;
	MEV_VEC(uint64_t) wl, wb, wf;
	uint32_t *head, *at;
	uint64_t *al, *ab, *af;    /* the row's accumulator, by rank */
	uint32_t *mark, *touched;
} builder;

static void builder_free(builder *b)
{
	free(b->order), free(b->rank), free(b->head), free(b->at);
	free(b->al), free(b->ab), free(b->af), free(b->mark), free(b->touched);
	MEV_VEC_FREE(&b->off);
	MEV_VEC_FREE(&b->mem);
	MEV_VEC_FREE(&b->set);
	MEV_VEC_FREE(&b->wl);
	MEV_VEC_FREE(&b->wb);
	MEV_VEC_FREE(&b->wf);
}

/* The sets with files, their weights and members (ranks, sorted). */
static int collect_sets(builder *b, const mev_graph *g)
{
	const mev_filemap *fm = g->fm;
	const mev_file_row *rows = mev_filemap_rows(fm);
	size_t nsets = mev_filemap_set_count(fm);
	uint64_t *sl = calloc(nsets + 1, sizeof *sl), *sb = calloc(nsets + 1, sizeof *sb),
		 *sf = calloc(nsets + 1, sizeof *sf);
	int rc = sl && sb && sf ? MEV_VEC_PUSH(&b->off, 0) : mev_error_oom();
	for (size_t i = 0; !rc && i < mev_filemap_count(fm); i++) {
		sl[rows[i].set] += rows[i].lines;
		sb[rows[i].set] += rows[i].bytes;
		sf[rows[i].set]++;
	}
	for (uint32_t set = 1; !rc && set < nsets; set++) {
		const uint32_t *ids;
		size_t n = mev_filemap_set(&ids, fm, set), from = b->mem.n;
		if (!sf[set])
			continue;
		for (size_t i = 0; i < n && !rc; i++)
			if (mev_graph_has_section(g, ids[i]))
				rc = MEV_VEC_PUSH(&b->mem, b->rank[ids[i]]);
		if (rc || b->mem.n == from)
			continue;
		qsort(b->mem.v + from, b->mem.n - from, sizeof *b->mem.v, u32_cmp);
		rc = MEV_VEC_PUSH(&b->off, (uint32_t)b->mem.n);
		if (!rc)
			rc = MEV_VEC_PUSH(&b->wl, sl[set]);
		if (!rc)
			rc = MEV_VEC_PUSH(&b->wb, sb[set]);
		if (!rc)
			rc = MEV_VEC_PUSH(&b->wf, sf[set]);
	}
	free(sl), free(sb), free(sf);
	return rc;
}

/* Rank the kept sections, collect the sets, index the places of each rank. */
static int prepare(builder *b, const mev_graph *g)
{
	size_t nsec = mev_filemap_section_count(g->fm), nsets;
	int rc;
	b->order = malloc((nsec + 1) * sizeof *b->order);
	b->rank = malloc((nsec + 1) * sizeof *b->rank);
	if (!b->order || !b->rank)
		return mev_error_oom();
	for (uint32_t s = 0; s < nsec; s++)
		if (mev_graph_has_section(g, s))
			b->order[b->nk++] = s;
	sort_fm = g->fm;
	qsort(b->order, b->nk, sizeof *b->order, section_cmp);
	for (uint32_t r = 0; r < b->nk; r++)
		b->rank[b->order[r]] = r;
	if ((rc = collect_sets(b, g)))
		return rc;
	nsets = b->off.n - 1;
	b->head = calloc(b->nk + 2, sizeof *b->head);
	b->at = malloc((b->mem.n + 1) * sizeof *b->at);
	b->al = malloc((b->nk + 1) * sizeof *b->al);
	b->ab = malloc((b->nk + 1) * sizeof *b->ab);
	b->af = malloc((b->nk + 1) * sizeof *b->af);
	b->mark = calloc(b->nk + 1, sizeof *b->mark);
	b->touched = malloc((b->nk + 1) * sizeof *b->touched);
	if (!b->head || !b->at || !b->al || !b->ab || !b->af || !b->mark || !b->touched ||
	    MEV_VEC_RESERVE(&b->set, b->mem.n + 1))
		return mev_error_oom();
	for (size_t i = 0; i < nsets; i++)
		for (uint32_t j = b->off.v[i]; j < b->off.v[i + 1]; j++) {
			b->set.v[j] = (uint32_t)i;
			b->head[b->mem.v[j] + 2]++;
		}
	for (uint32_t r = 0; r < b->nk; r++)
		b->head[r + 2] += b->head[r + 1];
	for (uint32_t j = 0; j < b->mem.n; j++)
		b->at[b->head[b->mem.v[j] + 1]++] = j;
	return 0;
}

/* The edges of rank r (to itself and to ranks after it), in rank order;
 * *count grows by their number, and they are appended unless dry. */
static int row(builder *b, mev_graph *g, uint32_t r, uint64_t *count, int dry)
{
	size_t nt = 0;
	int sorted = 1;
	b->touched[nt++] = r;
	b->mark[r] = r + 1;
	b->al[r] = b->ab[r] = b->af[r] = 0;
	for (uint32_t k = b->head[r]; k < b->head[r + 1]; k++) {
		uint32_t j = b->at[k], set = b->set.v[j], end = b->off.v[set + 1];
		for (; j < end; j++) {
			uint32_t c = b->mem.v[j];
			if (b->mark[c] != r + 1) {
				b->mark[c] = r + 1;
				sorted &= c > b->touched[nt - 1];
				b->touched[nt++] = c;
				b->al[c] = b->ab[c] = b->af[c] = 0;
			}
			b->al[c] += b->wl.v[set];
			b->ab[c] += b->wb.v[set];
			b->af[c] += b->wf.v[set];
		}
	}
	*count += nt;
	if (dry)
		return 0;
	if (!sorted)
		qsort(b->touched, nt, sizeof *b->touched, u32_cmp);
	if (MEV_VEC_RESERVE(&g->edges, g->edges.n + nt))
		return MEV_ENOMEM;
	for (size_t i = 0; i < nt; i++) {
		uint32_t c = b->touched[i];
		mev_edge e = { b->order[r], b->order[c], b->al[c], b->ab[c], b->af[c] };
		g->edges.v[g->edges.n++] = e;
	}
	return 0;
}

/* Refuse a graph of more than `limit` edges between sections: counted (a
 * dry run of the rows) only when a bound from the set sizes exceeds it. */
static int check_size(builder *b, mev_graph *g, uint64_t limit)
{
	uint64_t bound = 0, count = 0;
	for (size_t i = 0; i + 1 < b->off.n && bound <= limit; i++) {
		uint64_t k = b->off.v[i + 1] - b->off.v[i];
		bound += k * (k - 1) / 2;
	}
	if (bound <= limit)
		return 0;
	for (uint32_t r = 0; r < b->nk; r++)
		row(b, g, r, &count, 1);
	memset(b->mark, 0, (b->nk + 1) * sizeof *b->mark);
	if (count - b->nk <= limit)
		return 0;
	mev_error_set(MEV_ELIMIT, "the overlap graph would have %llu edges between sections, more "
		      "than the limit of %llu", (unsigned long long)(count - b->nk),
		      (unsigned long long)limit);
	mev_error_hint("that many sections share the same files pairwise (docs/walking.md, "
		       "'How big a graph can be')");
	return MEV_ELIMIT;
}

int mev_graph_build(mev_graph **out, const mev_filemap *fm, const mev_graph_options *opt)
{
	return mev_graph_build_max(out, fm, opt, MEV_GRAPH_MAX_EDGES);
}

int mev_graph_build_max(mev_graph **out, const mev_filemap *fm, const mev_graph_options *opt,
			uint64_t max_edges)
{
	mev_graph *g = calloc(1, sizeof *g);
	builder b = { 0 };
	uint64_t count = 0;
	int rc;

	*out = NULL;
	if (!g)
		return mev_error_oom();
	g->fm = fm;
	g->keep_rest = opt && opt->keep_rest;
	if (!(rc = prepare(&b, g)))
		rc = check_size(&b, g, max_edges);
	for (uint32_t r = 0; !rc && r < b.nk; r++)
		if (row(&b, g, r, &count, 0))
			rc = mev_error_oom();
	builder_free(&b);
	if (rc) {
		mev_graph_free(g);
		return rc;
	}
	if (g->edges.n && g->edges.n < g->edges.cap) {
		mev_edge *v = realloc(g->edges.v, g->edges.n * sizeof *v);
		if (v) {
			g->edges.v = v;
			g->edges.cap = g->edges.n;
		}
	}
	*out = g;
	return 0;
}

int mev_graph_adopt_edges(mev_graph **out, const mev_filemap *fm, mev_edge *edges, size_t n,
			  const mev_graph_options *opt)
{
	mev_graph *g = calloc(1, sizeof *g);
	const mev_section_info *secs = mev_filemap_sections(fm);
	size_t nsec = mev_filemap_section_count(fm), k = 0;
	*out = NULL;
	if (!g) {
		free(edges);
		return mev_error_oom();
	}
	g->fm = fm;
	g->keep_rest = opt && opt->keep_rest;
	g->edges.v = edges;
	g->edges.cap = n;
	/* in place: what is kept moves down, oriented by title */
	for (size_t i = 0; i < n; i++) {
		mev_edge e = edges[i];
		if (e.a >= nsec || e.b >= nsec) {
			mev_graph_free(g);
			return mev_error_set(MEV_EINVAL, "edge between unknown sections %u and %u", e.a, e.b);
		}
		if (!mev_graph_has_section(g, e.a) || !mev_graph_has_section(g, e.b))
			continue;
		if (strcmp(secs[e.a].title, secs[e.b].title) > 0) {
			uint32_t t = e.a;
			e.a = e.b;
			e.b = t;
		}
		edges[k++] = e;
	}
	g->edges.n = k;
	sort_edges(g);
	*out = g;
	return 0;
}

int mev_graph_from_edges(mev_graph **out, const mev_filemap *fm, const mev_edge *edges,
			 size_t n, const mev_graph_options *opt)
{
	mev_edge *copy = malloc((n + 1) * sizeof *copy);
	*out = NULL;
	if (!copy)
		return mev_error_oom();
	if (n)
		memcpy(copy, edges, n * sizeof *copy);
	return mev_graph_adopt_edges(out, fm, copy, n, opt);
}

void mev_graph_free(mev_graph *g)
{
	if (!g)
		return;
	MEV_VEC_FREE(&g->edges);
	mev__twins_free(g->tw);
	free(g);
}

size_t mev_graph_edge_count(const mev_graph *g)
{
	/* with twins the whole graph too: its count and its edges agree, also
	 * when memory runs out (0, and NULL) */
	if (g->tw)
		return mev__twins_full(g) ? (size_t)g->tw->nfull : 0;
	return g->edges.n;
}

const mev_edge *mev_graph_edges(const mev_graph *g)
{
	return g->tw ? mev__twins_full(g) : g->edges.v;
}

const mev_filemap *mev_graph_filemap(const mev_graph *g) { return g->fm; }

const mev_edge *mev_graph_kept_edges(const mev_graph *g, size_t *n)
{
	*n = g->edges.n;
	return g->edges.v;
}
