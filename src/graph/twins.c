/* Twins: sections covering exactly the same files, kept as one class so that a dense graph stays small. */
/*
 * When many sections cover the same files (5,000 sections 'F: dir/'), the
 * graph is complete: n(n-1)/2 edges, all alike.  Such sections are twins:
 * each has the same edges as the others, weights included, to everyone
 * else and to each other (what two of them share is all each covers).  A
 * graph read from a store (mev_graph_from_source()) keeps, for a class of
 * at least MEV_GRAPH_TWINS_MIN twins, the edges of its representative
 * only (its first section in title order): what the clustering and the
 * tracker read is then the size of the graph's classes, not of its edges.
 * The whole graph is made again only when mev_graph_edges() asks (an
 * export).
 *
 * Twins are found in one pass over the edges: each section sums a hash of
 * every (neighbour, weights) of its closed neighbourhood (its own edge
 * included), which twins have alike; sections with the same sums, own
 * weights and degree are a class.
 */
#include "graph_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	uint64_t h1, h2;               /* sums over the closed neighbourhood */
	uint64_t lines, bytes, files;  /* the section's own edge */
	uint64_t deg;
	uint32_t s;
} sig;

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* The hash of an edge's weights, once per edge. */
static uint64_t weights_hash(const mev_edge *e)
{
	return mix(e->lines ^ mix(e->bytes ^ mix(e->files)));
}

static void add(sig *x, uint32_t other, uint64_t wh)
{
	uint64_t k = mix(other ^ wh);
	x->h1 += k;
	x->h2 += mix(k ^ 0x5851f42d4c957f2dULL);
	x->deg++;
}

static int sig_cmp(const void *x, const void *y)
{
	const sig *a = x, *b = y;
	const uint64_t ka[6] = { a->h1, a->h2, a->lines, a->bytes, a->files, a->deg };
	const uint64_t kb[6] = { b->h1, b->h2, b->lines, b->bytes, b->files, b->deg };
	for (int i = 0; i < 6; i++)
		if (ka[i] != kb[i])
			return ka[i] < kb[i] ? -1 : 1;
	return (a->s > b->s) - (a->s < b->s);
}

static int same_sig(const sig *a, const sig *b)
{
	return a->h1 == b->h1 && a->h2 == b->h2 && a->lines == b->lines && a->bytes == b->bytes &&
	       a->files == b->files && a->deg == b->deg;
}

void mev__twins_free(mev__twins *t)
{
	if (!t)
		return;
	free(t->rep);
	free(t->size);
	free(t->moff);
	free(t->mem);
	free(t->full);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

/* Per section: 1 when its edges are kept (not THE REST, unless kept). */
static uint8_t *kept_sections(const mev_filemap *fm, int keep_rest)
{
	size_t n = mev_filemap_section_count(fm);
	const mev_section_info *si = mev_filemap_sections(fm);
	uint8_t *k = malloc(n + 1);
	for (size_t s = 0; k && s < n; s++)
		k[s] = keep_rest || !si[s].is_rest;
	return k;
}

static int title_cmp(const void *x, const void *y, void *fm)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	const mev_section_info *s = mev_filemap_sections(fm);
	int c = strcmp(s[a].title, s[b].title);
	return c ? c : (a > b) - (a < b);
}

/* The classes of the sorted signatures v[0..m): *out, or NULL when none
 * has MEV_GRAPH_TWINS_MIN members. */
static int classes(mev__twins **out, const mev_filemap *fm, sig *v, size_t m)
{
	size_t n = mev_filemap_section_count(fm), nmem = 0;
	mev__twins *t;
	*out = NULL;
	for (size_t i = 0, j; i < m; i = j) {
		for (j = i + 1; j < m && same_sig(&v[i], &v[j]); j++)
			;
		if (j - i >= MEV_GRAPH_TWINS_MIN)
			nmem += j - i;
	}
	if (!nmem)
		return 0;
	if (!(t = calloc(1, sizeof *t)) || !(t->rep = malloc((n + 1) * sizeof *t->rep)) ||
	    !(t->size = malloc((n + 1) * sizeof *t->size)) ||
	    !(t->moff = calloc(n + 2, sizeof *t->moff)) || !(t->mem = malloc((nmem + 1) * sizeof *t->mem))) {
		mev__twins_free(t);
		return mev_error_oom();
	}
	pthread_mutex_init(&t->lock, NULL);
	for (uint32_t s = 0; s < n; s++) {
		t->rep[s] = s;
		t->size[s] = 1;
	}
	nmem = 0;
	for (size_t i = 0, j; i < m; i = j) {
		uint32_t *mem = t->mem + nmem;
		for (j = i + 1; j < m && same_sig(&v[i], &v[j]); j++)
			;
		if (j - i < MEV_GRAPH_TWINS_MIN)
			continue;
		for (size_t k = i; k < j; k++)
			mem[k - i] = v[k].s;
		qsort_r(mem, j - i, sizeof *mem, title_cmp, (void *)fm);
		for (size_t k = i; k < j; k++)
			t->rep[mem[k - i]] = mem[0];
		t->size[mem[0]] = (uint32_t)(j - i);
		t->moff[mem[0] + 1] = (uint32_t)(j - i);
		nmem += j - i;
	}
	/* members by representative: mem is in the order of the classes; put
	 * each class where its representative's offset says */
	{
		uint32_t *byrep = malloc((nmem + 1) * sizeof *byrep);
		if (!byrep) {
			mev__twins_free(t);
			return mev_error_oom();
		}
		for (size_t s = 0; s < n; s++)
			t->moff[s + 1] += t->moff[s];
		for (size_t k = 0; k < nmem;) {
			uint32_t r = t->mem[k], sz = t->size[r];
			memcpy(byrep + t->moff[r], t->mem + k, sz * sizeof *byrep);
			k += sz;
		}
		free(t->mem);
		t->mem = byrep;
	}
	*out = t;
	return 0;
}

/* Pass 1: the signature of every kept section; *count the kept edges. */
static int signatures(sig **out, size_t *m, uint64_t *count, const mev_filemap *fm,
		      const uint8_t *keep, mev_edge_source *src)
{
	size_t n = mev_filemap_section_count(fm);
	sig *v = calloc(n + 1, sizeof *v);
	mev_edge e, last = { 0, 0, 0, 0, 0 };
	uint64_t wh = weights_hash(&last);
	int r;
	*out = NULL;
	*count = 0;
	if (!v)
		return mev_error_oom();
	while ((r = src->next(src->ctx, &e)) > 0) {
		if (e.a >= n || e.b >= n) {
			free(v);
			return mev_error_set(MEV_EINVAL, "edge between unknown sections %u and %u", e.a, e.b);
		}
		if (!keep[e.a] || !keep[e.b])
			continue;
		(*count)++;
		/* the weights of the edge before are often these (twins' edges) */
		if (e.lines != last.lines || e.bytes != last.bytes || e.files != last.files) {
			last = e;
			wh = weights_hash(&e);
		}
		add(&v[e.a], e.b, wh);
		if (e.a == e.b) {
			v[e.a].lines = e.lines;
			v[e.a].bytes = e.bytes;
			v[e.a].files = e.files;
		} else {
			add(&v[e.b], e.a, wh);
		}
	}
	if (r < 0) {
		free(v);
		return r;
	}
	*m = 0;
	for (uint32_t s = 0; s < n; s++)
		if (keep[s] && v[s].deg) {
			v[s].s = s;
			v[*m] = v[s];
			(*m)++;
		}
	qsort(v, *m, sizeof *v, sig_cmp);
	*out = v;
	return 0;
}

/* The number of edges of the whole graph that the kept edges stand for. */
static uint64_t whole_count(const mev__twins *t, const mev_edge *e, size_t n)
{
	uint64_t c = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t a = t->size[e[i].a], b = t->size[e[i].b];
		c += e[i].a == e[i].b ? a + a * (a - 1) / 2 : a * b;
	}
	return c;
}

int mev_graph_from_source(mev_graph **out, const mev_filemap *fm, mev_edge_source *src,
			  const mev_graph_options *opt)
{
	uint8_t *keep = kept_sections(fm, opt && opt->keep_rest);
	mev__twins *t = NULL;
	mev_edge *edges = NULL, e;
	uint64_t count;
	size_t m = 0, k = 0, cap;
	sig *v = NULL;
	int rc, r;

	*out = NULL;
	if (!keep)
		return mev_error_oom();
	if ((rc = signatures(&v, &m, &count, fm, keep, src)) || (rc = classes(&t, fm, v, m)))
		goto done;
	src->rewind(src->ctx);
	/* pass 2: the edges, with twins those of the representatives only
	 * (their number known after: the array grows) */
	cap = t ? 1024 : count + 1;
	if (!(edges = malloc(cap * sizeof *edges))) {
		rc = mev_error_oom();
		goto done;
	}
	while ((r = src->next(src->ctx, &e)) > 0 && k < count) {
		if (!keep[e.a] || !keep[e.b])
			continue;
		if (t && (t->rep[e.a] != e.a || t->rep[e.b] != e.b))
			continue;
		if (k == cap) {
			mev_edge *more = realloc(edges, 2 * cap * sizeof *edges);
			if (!more) {
				rc = mev_error_oom();
				goto done;
			}
			edges = more;
			cap *= 2;
		}
		edges[k++] = e;
	}
	if (r < 0) {
		rc = r;
		goto done;
	}
	rc = mev_graph_adopt_edges(out, fm, edges, k, opt);
	edges = NULL;
	if (!rc && t) {
		size_t nk;
		const mev_edge *ke = mev_graph_kept_edges(*out, &nk);
		t->nfull = whole_count(t, ke, nk);
		(*out)->tw = t;
		t = NULL;
	}
done:
	free(keep);
	free(v);
	free(edges);
	mev__twins_free(t);
	return rc;
}

/* The edge (x, y) oriented by title (rank). */
static mev_edge oriented(const mev_section_info *s, uint32_t x, uint32_t y, const mev_edge *w)
{
	int c = strcmp(s[x].title, s[y].title);
	mev_edge e = *w;
	if (c > 0 || (c == 0 && x > y)) {
		uint32_t tmp = x;
		x = y;
		y = tmp;
	}
	e.a = x;
	e.b = y;
	return e;
}

/* The whole graph: every pair of members of the classes of each kept edge. */
static int make_full(mev__twins *t, const mev_graph *g)
{
	const mev_section_info *s = mev_filemap_sections(g->fm);
	uint64_t k = 0;
	if (!(t->full = malloc((t->nfull + 1) * sizeof *t->full)))
		return mev_error_oom();
	for (size_t i = 0; i < g->edges.n; i++) {
		const mev_edge *w = &g->edges.v[i];
		uint32_t one_a = w->a, one_b = w->b;
		const uint32_t *ma = t->size[w->a] > 1 ? t->mem + t->moff[w->a] : &one_a;
		const uint32_t *mb = t->size[w->b] > 1 ? t->mem + t->moff[w->b] : &one_b;
		uint32_t na = t->size[w->a], nb = t->size[w->b];
		if (w->a == w->b) {
			for (uint32_t x = 0; x < na; x++)
				for (uint32_t y = x; y < na; y++)
					t->full[k++] = oriented(s, ma[x], ma[y], w);
		} else {
			for (uint32_t x = 0; x < na; x++)
				for (uint32_t y = 0; y < nb; y++)
					t->full[k++] = oriented(s, ma[x], mb[y], w);
		}
	}
	mev__graph_sort(g->fm, t->full, (size_t)k);
	return 0;
}

const mev_edge *mev__twins_full(const mev_graph *g)
{
	mev__twins *t = g->tw;
	pthread_mutex_lock(&t->lock);
	if (!t->full && !t->failed && make_full(t, g))
		t->failed = 1; /* out of memory: no edges (mev_graph_edge_count() 0, the error set) */
	pthread_mutex_unlock(&t->lock);
	return t->full;
}

uint32_t mev_graph_twin_rep(const mev_graph *g, uint32_t section)
{
	return g->tw ? g->tw->rep[section] : section;
}

uint32_t mev_graph_twin_count(const mev_graph *g, uint32_t section)
{
	return g->tw ? g->tw->size[g->tw->rep[section]] : 1;
}

int mev_graph_has_twins(const mev_graph *g)
{
	return g->tw != NULL;
}

int mev_graph_adopt_like(mev_graph **out, const mev_graph *like, mev_edge *edges, size_t n)
{
	mev_graph_options go = { like->keep_rest };
	size_t ns = mev_filemap_section_count(like->fm);
	const mev__twins *lt = like->tw;
	mev__twins *t;
	int rc = mev_graph_adopt_edges(out, like->fm, edges, n, &go);
	if (rc || !lt)
		return rc;
	if (!(t = calloc(1, sizeof *t)) || !(t->rep = malloc((ns + 1) * sizeof *t->rep)) ||
	    !(t->size = malloc((ns + 1) * sizeof *t->size)) ||
	    !(t->moff = malloc((ns + 2) * sizeof *t->moff)) ||
	    !(t->mem = malloc(((size_t)lt->moff[ns] + 1) * sizeof *t->mem))) {
		mev__twins_free(t);
		mev_graph_free(*out);
		*out = NULL;
		return mev_error_oom();
	}
	pthread_mutex_init(&t->lock, NULL);
	memcpy(t->rep, lt->rep, ns * sizeof *t->rep);
	memcpy(t->size, lt->size, ns * sizeof *t->size);
	memcpy(t->moff, lt->moff, (ns + 1) * sizeof *t->moff);
	memcpy(t->mem, lt->mem, (size_t)lt->moff[ns] * sizeof *t->mem);
	t->nfull = whole_count(t, (*out)->edges.v, (*out)->edges.n);
	(*out)->tw = t;
	return 0;
}
