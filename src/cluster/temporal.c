/* The temporal method's own steps: local moving with hysteresis, cutting clusters into connected pieces, counting moves. */
/*
 * Plain C over adjacency lists, no igraph: igraph.c builds the graph, runs
 * Leiden where the method needs it, and calls these.  Everything here is
 * deterministic (vertex order, then adjacency order), so the same graph
 * and the same start give the same partition.
 */
#include "cluster_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

/* Passes over all vertices before settling gives up: each move raises the
 * modularity by more than the margin, so real graphs need a few dozen. */
enum { MAX_ROUNDS = 1000 };

void mev__wgraph_free(mev__wgraph *g)
{
	free(g->off);
	free(g->adj);
	free(g->w);
	free(g->k);
	memset(g, 0, sizeof *g);
}

int mev__wgraph_init(mev__wgraph *g, size_t n, const uint32_t *ends, const double *w, size_t ne,
		     double gamma)
{
	size_t *fill;
	memset(g, 0, sizeof *g);
	g->n = n;
	g->gamma = gamma;
	g->off = calloc(n + 2, sizeof *g->off);
	g->adj = malloc((2 * ne + 1) * sizeof *g->adj);
	g->w = malloc((2 * ne + 1) * sizeof *g->w);
	g->k = calloc(n + 1, sizeof *g->k);
	fill = malloc((n + 1) * sizeof *fill);
	if (!g->off || !g->adj || !g->w || !g->k || !fill) {
		free(fill);
		mev__wgraph_free(g);
		return mev_error_oom();
	}
	for (size_t e = 0; e < ne; e++) {
		g->off[ends[2 * e] + 1]++;
		g->off[ends[2 * e + 1] + 1]++;
	}
	for (size_t v = 0; v < n; v++)
		g->off[v + 1] += g->off[v];
	memcpy(fill, g->off, n * sizeof *fill);
	for (size_t e = 0; e < ne; e++) {
		uint32_t a = ends[2 * e], b = ends[2 * e + 1];
		g->adj[fill[a]] = b;
		g->w[fill[a]++] = w[e];
		g->adj[fill[b]] = a;
		g->w[fill[b]++] = w[e];
		g->k[a] += w[e];
		g->k[b] += w[e];
		g->m += w[e];
	}
	free(fill);
	return 0;
}

/* The clusters while settling: strength and size per label, free labels. */
typedef struct {
	double *tot;
	uint32_t *size;
	uint32_t *free_labels;  /* a stack, smallest label on top */
	size_t nfree;
	double *kc;             /* per label: weight from the vertex in hand */
	uint32_t *touched;      /* labels with kc > 0 */
} clusters;

static void clusters_free(clusters *cl)
{
	free(cl->tot);
	free(cl->size);
	free(cl->free_labels);
	free(cl->kc);
	free(cl->touched);
}

static int clusters_init(clusters *cl, size_t n)
{
	memset(cl, 0, sizeof *cl);
	cl->tot = malloc((n + 1) * sizeof *cl->tot);
	cl->size = malloc((n + 1) * sizeof *cl->size);
	cl->free_labels = malloc((n + 1) * sizeof *cl->free_labels);
	cl->kc = calloc(n + 1, sizeof *cl->kc);
	cl->touched = malloc((n + 1) * sizeof *cl->touched);
	if (!cl->tot || !cl->size || !cl->free_labels || !cl->kc || !cl->touched) {
		clusters_free(cl);
		return mev_error_oom();
	}
	return 0;
}

static void clusters_count(clusters *cl, const uint32_t *label, const mev__wgraph *g)
{
	size_t n = g->n;
	memset(cl->tot, 0, n * sizeof *cl->tot);
	memset(cl->size, 0, n * sizeof *cl->size);
	for (size_t v = 0; v < n; v++) {
		cl->tot[label[v]] += g->k[v];
		cl->size[label[v]]++;
	}
	cl->nfree = 0;
	for (size_t k = n; k-- > 0;)
		if (!cl->size[k])
			cl->free_labels[cl->nfree++] = (uint32_t)k;
}

/* What moves: one vertex, or a unit of several (a piece of a cluster). */
typedef struct {
	const uint32_t *vs;      /* its vertices */
	size_t n;
	double k;                /* their strength */
	const uint32_t *unit;    /* with n > 1: unit[u] == id for the unit's vertices */
	uint32_t id;
	const uint32_t *within;  /* NULL, or only neighbours u with within[u] == within[vs[0]] */
} mover;

static int in_mover(const mover *mv, uint32_t u)
{
	return mv->n > 1 ? mv->unit[u] == mv->id : u == mv->vs[0];
}

/*
 * Whether mv may leave its cluster a under the reference partition
 * (mev__settle()): of the pairs of a vertex of mv and another vertex of a,
 * each weighing the smaller of their lines, those the reference keeps
 * apart weigh at least as much as those it keeps together.  A mover alone
 * in its cluster (a single section, or a whole cluster merging) has no
 * such pairs and may always go.
 */
static int may_leave(const uint32_t *label, const mev__wgraph *g, const mover *mv, uint32_t a,
		     const mev__reference *ref)
{
	double apart = 0;
	for (uint32_t u = 0; u < g->n; u++) {
		if (label[u] != a || in_mover(mv, u))
			continue;
		for (size_t i = 0; i < mv->n; i++) {
			uint32_t v = mv->vs[i];
			double w = ref->lines[v] < ref->lines[u] ? ref->lines[v] : ref->lines[u];
			if (ref->mult)
				w *= ref->mult[v] * ref->mult[u];
			apart += ref->label[v] == ref->label[u] ? -w : w;
		}
	}
	return apart >= 0;
}

/*
 * Where a mover would go: the label of the largest gain over staying, or
 * its own label when no gain exceeds margin * its strength, or when ref
 * (NULL: no reference) keeps it with its cluster.  The gain of
 * joining cluster C is kc[C] - gamma k tot[C] / 2m (times 1/m in
 * modularity), C without the mover; a cluster of its own gains 0.  Ties:
 * the first neighbouring cluster in vertex and adjacency order, a cluster
 * of its own last.
 */
static uint32_t best_move(clusters *cl, const uint32_t *label, const mev__wgraph *g, const mover *mv,
			  double margin, const mev__reference *ref)
{
	double f = g->gamma * mv->k / (2 * g->m), own, best = 0;
	uint32_t a = label[mv->vs[0]], to = a;
	size_t nt = 0;
	int have = 0;
	for (size_t i = 0; i < mv->n; i++) {
		uint32_t v = mv->vs[i];
		for (size_t e = g->off[v]; e < g->off[v + 1]; e++) {
			uint32_t u = g->adj[e], c = label[u];
			/* the mover's own vertices (a loop too) go with it */
			if (in_mover(mv, u) || (mv->within && mv->within[u] != mv->within[v]))
				continue;
			if (cl->kc[c] == 0)
				cl->touched[nt++] = c;
			cl->kc[c] += g->w[e];
		}
	}
	own = cl->kc[a] - f * (cl->tot[a] - mv->k);
	for (size_t i = 0; i < nt; i++) {
		uint32_t c = cl->touched[i];
		double gain = cl->kc[c] - f * cl->tot[c];
		if (c != a && (!have || gain > best)) {
			best = gain;
			to = c;
			have = 1;
		}
	}
	if (cl->size[a] > mv->n && cl->nfree && (!have || 0 > best)) {
		best = 0;
		to = cl->free_labels[cl->nfree - 1];
		have = 1;
	}
	for (size_t i = 0; i < nt; i++)
		cl->kc[cl->touched[i]] = 0;
	if (!have || best - own <= margin * mv->k)
		return a;
	return !ref || may_leave(label, g, mv, a, ref) ? to : a;
}

/* Move mv from its cluster to b. */
static void move_to(clusters *cl, uint32_t *label, const mover *mv, uint32_t b)
{
	uint32_t a = label[mv->vs[0]];
	if (cl->nfree && cl->free_labels[cl->nfree - 1] == b)
		cl->nfree--;
	cl->tot[a] -= mv->k;
	cl->tot[b] += mv->k;
	cl->size[b] += (uint32_t)mv->n;
	cl->size[a] -= (uint32_t)mv->n;
	if (!cl->size[a])
		cl->free_labels[cl->nfree++] = a;
	for (size_t i = 0; i < mv->n; i++)
		label[mv->vs[i]] = b;
}

/* One pass over the vertices (only towards neighbours of the same
 * `within` label when within is given; only active ones when active is
 * given; none out of a cluster that ref keeps it in); the number of moves. */
static size_t local_pass(clusters *cl, uint32_t *label, const mev__wgraph *g, double margin,
			 const uint32_t *within, const unsigned char *active, const mev__reference *ref)
{
	size_t moves = 0;
	for (size_t v = 0; v < g->n; v++) {
		uint32_t vs = (uint32_t)v, b;
		mover mv = { &vs, 1, g->k[v], NULL, 0, within };
		if (g->k[v] <= 0 || (active && !active[v]) ||
		    (b = best_move(cl, label, g, &mv, margin, ref)) == label[v])
			continue;
		move_to(cl, label, &mv, b);
		moves++;
	}
	return moves;
}

static uint32_t uf_find(uint32_t *up, uint32_t x)
{
	while (up[x] != x)
		x = up[x] = up[up[x]];
	return x;
}

/*
 * Cut every cluster into its connected pieces; the piece of the cluster's
 * smallest vertex keeps the label, the others take free labels.  The
 * number of pieces cut off (cl's counts must be fresh; they are not after).
 */
static size_t split_pieces(clusters *cl, uint32_t *label, const mev__wgraph *g, uint32_t *up,
			   int64_t *piece_label, int64_t *keeper)
{
	size_t n = g->n, cut = 0;
	for (size_t v = 0; v < n; v++) {
		up[v] = (uint32_t)v;
		piece_label[v] = keeper[v] = -1;
	}
	for (size_t v = 0; v < n; v++)
		for (size_t e = g->off[v]; e < g->off[v + 1]; e++) {
			uint32_t u = g->adj[e], a, b;
			if (u < v || label[u] != label[v])
				continue;
			a = uf_find(up, (uint32_t)v);
			b = uf_find(up, u);
			if (a != b)
				up[a > b ? a : b] = a < b ? a : b;
		}
	for (size_t v = 0; v < n; v++) {
		uint32_t r = uf_find(up, (uint32_t)v), l = label[v];
		if (piece_label[r] < 0) {
			if (keeper[l] < 0) {
				keeper[l] = r;
				piece_label[r] = l;
			} else {
				piece_label[r] = cl->free_labels[--cl->nfree];
				cut++;
			}
		}
		label[v] = (uint32_t)piece_label[r];
	}
	return cut;
}

/* Scratch of mev__settle(). */
typedef struct {
	clusters cl, subcl;     /* the clusters; the pieces of the refinement */
	uint32_t *sub;          /* per vertex: its piece */
	uint32_t *order, *start; /* vertices by piece; where each piece starts */
	uint32_t *up;
	int64_t *pl, *keeper;
} settle_ctx;

static void settle_free(settle_ctx *x)
{
	clusters_free(&x->cl);
	clusters_free(&x->subcl);
	free(x->sub);
	free(x->order);
	free(x->start);
	free(x->up);
	free(x->pl);
	free(x->keeper);
}

static int settle_init(settle_ctx *x, size_t n)
{
	memset(x, 0, sizeof *x);
	x->sub = malloc((n + 1) * sizeof *x->sub);
	x->order = malloc((n + 1) * sizeof *x->order);
	x->start = malloc((n + 2) * sizeof *x->start);
	x->up = malloc((n + 1) * sizeof *x->up);
	x->pl = malloc((n + 1) * sizeof *x->pl);
	x->keeper = malloc((n + 1) * sizeof *x->keeper);
	if (!x->sub || !x->order || !x->start || !x->up || !x->pl || !x->keeper ||
	    clusters_init(&x->cl, n) || clusters_init(&x->subcl, n)) {
		settle_free(x);
		return mev_error_oom();
	}
	return 0;
}

/*
 * Moves of whole pieces: each cluster refined as Leiden refines (local
 * moving from single vertices, inside the cluster only, no margin; pieces
 * connected), then each piece of two or more vertices, in the order of its
 * smallest vertex, moves to another cluster (a merge, when it is its whole
 * cluster) or to one of its own when that gains more than margin * its
 * strength, as a vertex does.  The number of moves; x->cl's counts must be
 * fresh, and stay so.
 */
static int any_active(const mover *mv, const unsigned char *active)
{
	for (size_t i = 0; active && i < mv->n; i++)
		if (active[mv->vs[i]])
			return 1;
	return !active;
}

static size_t unit_pass(settle_ctx *x, uint32_t *label, const mev__wgraph *g, double margin,
			const unsigned char *active, const mev__reference *ref)
{
	size_t n = g->n, moves = 0;
	for (size_t v = 0; v < n; v++)
		x->sub[v] = (uint32_t)v;
	clusters_count(&x->subcl, x->sub, g);
	for (int r = 0; r < MAX_ROUNDS && local_pass(&x->subcl, x->sub, g, 0, label, NULL, NULL); r++)
		;
	split_pieces(&x->subcl, x->sub, g, x->up, x->pl, x->keeper);
	/* vertices by piece (counting sort, stable: in vertex order) */
	memset(x->start, 0, (n + 2) * sizeof *x->start);
	for (size_t v = 0; v < n; v++)
		x->start[x->sub[v] + 2]++;
	for (size_t k = 0; k < n; k++)
		x->start[k + 2] += x->start[k + 1];
	for (size_t v = 0; v < n; v++)
		x->order[x->start[x->sub[v] + 1]++] = (uint32_t)v;
	for (size_t v = 0; v < n; v++) {
		uint32_t p = x->sub[v], b;
		mover mv = { x->order + x->start[p], x->start[p + 1] - x->start[p], 0, x->sub, p, NULL };
		if (mv.vs[0] != v || mv.n < 2 || !any_active(&mv, active))
			continue; /* seen from its first vertex; single vertices moved already */
		for (size_t i = 0; i < mv.n; i++)
			mv.k += g->k[mv.vs[i]];
		if ((b = best_move(&x->cl, label, g, &mv, margin, ref)) != label[v]) {
			move_to(&x->cl, label, &mv, b);
			moves++;
		}
	}
	return moves;
}

int mev__settle(uint32_t *label, const mev__wgraph *g, double margin, const unsigned char *active,
		const mev__reference *ref)
{
	settle_ctx x;
	int rc = settle_init(&x, g->n), rounds = 0;
	while (!rc && g->m > 0) {
		clusters_count(&x.cl, label, g);
		while (rounds++ < MAX_ROUNDS && local_pass(&x.cl, label, g, margin, NULL, active, ref))
			;
		if (rounds >= MAX_ROUNDS)
			break;
		/* a cluster cut in k pieces needs k - 1 free labels: a cluster of
		 * s >= k vertices leaves at least n - (clusters) >= k - 1 free */
		if (split_pieces(&x.cl, label, g, x.up, x.pl, x.keeper))
			continue;
		if (!unit_pass(&x, label, g, margin, active, ref))
			break;
	}
	if (!rc)
		settle_free(&x);
	return rc;
}

int mev__relabel(uint32_t *label, size_t n, size_t bound)
{
	int64_t *map = malloc((bound + 1) * sizeof *map);
	uint32_t next = 0;
	if (!map)
		return mev_error_oom();
	for (size_t k = 0; k < bound; k++)
		map[k] = -1;
	for (size_t v = 0; v < n; v++) {
		if (map[label[v]] < 0)
			map[label[v]] = next++;
		label[v] = (uint32_t)map[label[v]];
	}
	free(map);
	return 0;
}

typedef struct {
	uint32_t from, to, count;
} overlap;

static int overlap_cmp_pair(const void *x, const void *y)
{
	const overlap *a = x, *b = y;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->to < b->to ? -1 : a->to > b->to;
}

static int overlap_cmp_count(const void *x, const void *y)
{
	const overlap *a = x, *b = y;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return overlap_cmp_pair(x, y);
}

int mev__moved(size_t *out, const uint32_t *from, const uint32_t *to, const unsigned char *only,
	       const double *mult, size_t n)
{
	overlap *o = malloc((n + 1) * sizeof *o);
	unsigned char *used_from = calloc(n + 1, 1), *used_to = calloc(n + 1, 1);
	size_t no = 0, kept = 0, m = 0, total = 0;
	*out = 0;
	if (!o || !used_from || !used_to) {
		free(o);
		free(used_from);
		free(used_to);
		return mev_error_oom();
	}
	for (size_t v = 0; v < n; v++)
		if (!only || only[v]) {
			o[m].from = from[v];
			o[m].to = to[v];
			o[m++].count = mult ? (uint32_t)mult[v] : 1;
		}
	qsort(o, m, sizeof *o, overlap_cmp_pair);
	for (size_t v = 0; v < m; v++)
		if (no && o[no - 1].from == o[v].from && o[no - 1].to == o[v].to)
			o[no - 1].count++;
		else
			o[no++] = o[v];
	qsort(o, no, sizeof *o, overlap_cmp_count);
	for (size_t i = 0; i < no; i++)
		if (!used_from[o[i].from] && !used_to[o[i].to]) {
			used_from[o[i].from] = used_to[o[i].to] = 1;
			kept += o[i].count;
		}
	for (size_t i = 0; i < no; i++)
		total += o[i].count;
	*out = total - kept;
	free(o);
	free(used_from);
	free(used_to);
	return 0;
}
