/*
 * The cause of one event (docs/tracking.md, "Causes"): which clusters and
 * sections it involves, their MAINTAINERS changes, the files that touch
 * them, and what kind of cause that makes.
 */
#include "cause_internal.h"
#include "maintevo/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NONE MEV__CAUSE_ABSENT
/* The part of a section without a counterpart in the other release, and of
 * one whose counterpart is in a cluster outside the event. */
#define GONE (UINT32_MAX - 1)
#define OUTSIDE (UINT32_MAX - 2)
/* The mark of a loose section (1: involved). */
#define LOOSE 2

/* --- one event ---------------------------------------------------------------------- */

/* The clusters a file's row is in (at most 8), those of the event first. */
typedef struct {
	uint32_t c[8];
	size_t n;
	int involved;                     /* some of them is involved */
} covering;

static void clusters_of(covering *cv, const mev__track_rel *r, uint32_t row, const uint8_t *inv)
{
	const uint32_t *ids;
	size_t n;
	memset(cv, 0, sizeof *cv);
	if (row == NONE)
		return;
	n = mev_filemap_set(&ids, r->fm, mev_filemap_rows(r->fm)[row].set);
	for (size_t i = 0; i < n; i++) {
		uint32_t c = ids[i] < mev_clustering_section_count(r->cl) ? mev_clustering_of(r->cl, ids[i]) : NONE;
		size_t k = 0;
		if (c == MEV_CLUSTER_NONE)
			continue;
		while (k < cv->n && cv->c[k] != c)
			k++;
		if (k < cv->n || cv->n == 8)
			continue;
		if (inv[c]) {
			memmove(cv->c + 1, cv->c, cv->n * sizeof *cv->c);
			cv->c[0] = c;
			cv->involved = 1;
		} else {
			cv->c[cv->n] = c;
		}
		cv->n++;
	}
}

/* Whether the clusters covering a file before and after belong to other
 * lineages (the file moved between them); *from and *to get a cluster of
 * each side whose lineage the other lacks (or the first one). */
static int lineages_differ(const mev__cause_pair *p, const covering *a, const covering *b, uint32_t *from,
			   uint32_t *to)
{
	uint32_t la[8], lb[8];
	int differ = 0;
	*from = a->n ? a->c[0] : NONE;
	*to = b->n ? b->c[0] : NONE;
	for (size_t i = 0; i < a->n; i++)
		la[i] = p->in->ra->lineage[a->c[i]];
	for (size_t i = 0; i < b->n; i++)
		lb[i] = p->in->rb->lineage[b->c[i]];
	for (size_t i = a->n; i-- > 0;) {
		size_t j = 0;
		while (j < b->n && lb[j] != la[i])
			j++;
		if (j == b->n) {
			differ = 1;
			*from = a->c[i];
		}
	}
	for (size_t j = b->n; j-- > 0;) {
		size_t i = 0;
		while (i < a->n && la[i] != lb[j])
			i++;
		if (i == a->n) {
			differ = 1;
			*to = b->c[j];
		}
	}
	return differ;
}

/* A file of the event: its kind, its weight (lines that count for it). */
typedef struct {
	mev_cause_item_kind kind;
	uint64_t weight;
	const mev__file_change *f;
	const char *from, *to;            /* the clusters it is in (representatives; "": none) */
} efile;

static int efile_cmp(const void *x, const void *y)
{
	const efile *a = x, *b = y;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->weight != b->weight)
		return a->weight > b->weight ? -1 : 1;
	return a->f < b->f ? -1 : a->f > b->f;
}

/* Whether file f moved between lineages (efile e names the clusters). */
static int moved_between_lineages(efile *e, const mev__cause_pair *p, const covering *a, const covering *b)
{
	uint32_t from, to;
	if (!lineages_differ(p, a, b, &from, &to))
		return 0;
	e->from = from == NONE ? "" : p->in->ra->reps[from];
	e->to = to == NONE ? "" : p->in->rb->reps[to];
	return 1;
}

static uint32_t cl_of(const mev__track_rel *r, uint32_t s)
{
	return mev_clustering_of(r->cl, s);
}

/* The parts of a split or merge covering a file's row (at most 8; GONE and
 * OUTSIDE included), with a section of each (sec). */
static size_t parts_of(uint32_t *out, uint32_t *sec, const mev__track_rel *r, uint32_t row, const uint32_t *part,
		       size_t ns)
{
	const uint32_t *ids;
	size_t n, k = 0;
	if (row == NONE)
		return 0;
	n = mev_filemap_set(&ids, r->fm, mev_filemap_rows(r->fm)[row].set);
	for (size_t i = 0; i < n && k < 8; i++) {
		uint32_t x = ids[i] < ns ? part[ids[i]] : NONE;
		size_t j = 0;
		while (j < k && out[j] != x)
			j++;
		if (x != NONE && j == k) {
			sec[k] = ids[i];
			out[k++] = x;
		}
	}
	return k;
}

static int has(const uint32_t *y, size_t ny, uint32_t x)
{
	for (size_t j = 0; j < ny; j++)
		if (y[j] == x)
			return 1;
	return 0;
}

/* The index of the first of x[0..nx) not in y, or -1. */
static int first_not_in(const uint32_t *x, size_t nx, const uint32_t *y, size_t ny)
{
	for (size_t i = 0; i < nx; i++)
		if (!has(y, ny, x[i]))
			return (int)i;
	return -1;
}

/* The name of part label x, held by section s of the older (newer 0) or
 * newer release: its cluster's representative; for OUTSIDE, that of the
 * cluster its counterpart is in; NULL for GONE. */
static const char *part_name(const mev__cause_pair *p, int newer, uint32_t x, uint32_t s)
{
	const mev__track_rel *ra = p->in->ra, *rb = p->in->rb;
	if (x == GONE)
		return NULL;
	if (x == OUTSIDE) {
		uint32_t o = newer ? p->b2a[s] : p->a2b[s];
		uint32_t c = newer ? cl_of(ra, o) : cl_of(rb, o);
		return c == MEV_CLUSTER_NONE ? NULL : newer ? ra->reps[c] : rb->reps[c];
	}
	return p->split ? rb->reps[x] : ra->reps[x];
}

/* A split's or merge's file whose sections changed: moved when the parts
 * covering it changed; to: the part it reached (or, for a merge, from: the
 * part it left). */
static int moved_between_parts(efile *e, const mev__cause_pair *p, const mev__file_change *f)
{
	uint32_t pa[8], pb[8], sa[8], sb[8];
	size_t na = parts_of(pa, sa, p->in->ra, f->ra, p->part_a, p->nsa);
	size_t nb = parts_of(pb, sb, p->in->rb, f->rb, p->part_b, p->nsb);
	int same = na == nb, from, to;
	const char *name;
	for (size_t i = 0; same && i < na; i++)
		same = has(pb, nb, pa[i]);
	if (same)
		return 0;
	from = first_not_in(pa, na, pb, nb);
	to = first_not_in(pb, nb, pa, na);
	if (!p->split && from >= 0 && (name = part_name(p, 0, pa[from], sa[from])))
		e->from = name;
	if (to >= 0 && (name = part_name(p, 1, pb[to], sb[to])))
		e->to = name;
	return 1;
}

/* What file f is for the event (0: nothing); *touched grows by its weight. */
static int classify(efile *e, const mev__cause_pair *p, const mev__file_change *f, uint64_t *touched)
{
	const mev__track_rel *ra = p->in->ra, *rb = p->in->rb;
	covering a, b;
	uint64_t d = f->la > f->lb ? f->la - f->lb : f->lb - f->la;
	int ia = f->ra != NONE && p->seta[mev_filemap_rows(ra->fm)[f->ra].set];
	int ib = f->rb != NONE && p->setb[mev_filemap_rows(rb->fm)[f->rb].set];
	if (!ia && !ib)
		return 0;
	clusters_of(&a, ra, f->ra, p->oa);
	clusters_of(&b, rb, f->rb, p->nb);
	e->f = f;
	e->from = a.n ? ra->reps[a.c[0]] : "";
	e->to = b.n ? rb->reps[b.c[0]] : "";
	if (f->rb == NONE) {
		e->kind = MEV_CAUSE_FILE_VANISHED;
		e->weight = f->la;
	} else if (f->ra == NONE) {
		e->kind = MEV_CAUSE_FILE_APPEARED;
		e->weight = f->lb;
	} else if (f->cov && ((p->sm && moved_between_parts(e, p, f)) || moved_between_lineages(e, p, &a, &b))) {
		e->kind = MEV_CAUSE_FILE_MOVED;
		e->weight = f->la > f->lb ? f->la : f->lb;
	} else if (d) {
		e->kind = MEV_CAUSE_FILE_CHANGED;
		e->weight = d;
	} else {
		return 0;
	}
	*touched += e->weight;
	return 1;
}

/* --- what the event involves ------------------------------------------------------ */

/* Section s of the older (newer = 0) or newer release is involved, and its
 * counterpart in the other one; w: how much (the larger weight stays). */
static void mark(mev__cause_pair *p, int newer, uint32_t s, uint64_t w, uint8_t level)
{
	uint32_t o = newer ? p->b2a[s] : p->a2b[s];
	uint8_t *in = newer ? p->sb : p->sa, *io = newer ? p->sa : p->sb;
	uint64_t *ws = newer ? p->wb : p->wa, *wo = newer ? p->wa : p->wb;
	in[s] = in[s] > level ? in[s] : level;
	ws[s] = ws[s] > w ? ws[s] : w;
	if (o != NONE) {
		io[o] = io[o] > level ? io[o] : level;
		wo[o] = wo[o] > w ? wo[o] : w;
	}
}

/* The sections of cluster c, weighing their lines. */
static void mark_cluster(mev__cause_pair *p, int newer, uint32_t c)
{
	const mev__track_rel *r = newer ? p->in->rb : p->in->ra;
	size_t n = newer ? p->nsb : p->nsa;
	for (uint32_t s = 0; s < n; s++)
		if (cl_of(r, s) == c)
			mark(p, newer, s, mev_clustering_section_lines(r->cl, s), 1);
}

/* The part of a section of cluster c of one release whose counterpart in
 * the other is x (NONE: none) in cluster cx. */
static uint32_t part_of(const mev__cause_pair *p, int split, int newer, uint32_t c, uint32_t x, uint32_t cx)
{
	const uint8_t *other = newer ? p->oa : p->nb;
	if (x == NONE)
		return GONE;
	if (cx == MEV_CLUSTER_NONE || !other[cx])
		return OUTSIDE;
	return split == newer ? c : cx;
}

/* The part of every section of the event's clusters: a split's parts are
 * its successors, a merge's its predecessors (a section takes the part its
 * counterpart in the other release is in, or its own); GONE for a section
 * without a counterpart, OUTSIDE for one whose counterpart is in a cluster
 * outside the event; NONE for the sections of other clusters. */
static void parts(mev__cause_pair *p, int split)
{
	const mev__track_rel *ra = p->in->ra, *rb = p->in->rb;
	for (uint32_t s = 0; s < p->nsa; s++) {
		uint32_t c = cl_of(ra, s), y = p->a2b[s];
		p->part_a[s] = c == MEV_CLUSTER_NONE || !p->oa[c]
				       ? NONE
				       : part_of(p, split, 0, c, y, y == NONE ? MEV_CLUSTER_NONE : cl_of(rb, y));
	}
	for (uint32_t s = 0; s < p->nsb; s++) {
		uint32_t c = cl_of(rb, s), x = p->b2a[s];
		p->part_b[s] = c == MEV_CLUSTER_NONE || !p->nb[c]
				       ? NONE
				       : part_of(p, split, 1, c, x, x == NONE ? MEV_CLUSTER_NONE : cl_of(ra, x));
	}
}

/* The sections where the parts meet in one release's graph, weighing the
 * lines they share across (a section whose counterpart is outside the
 * event meets the parts too), and the "loose" ones, added or removed,
 * weighing their lines. */
static void borders(mev__cause_pair *p, int newer)
{
	const mev__track_rel *r = newer ? p->in->rb : p->in->ra;
	const uint32_t *part = newer ? p->part_b : p->part_a;
	size_t ns = newer ? p->nsb : p->nsa, ne = mev_graph_edge_count(r->g);
	const mev_edge *e = mev_graph_edges(r->g);
	for (size_t i = 0; i < ne; i++) {
		uint32_t x = e[i].a, y = e[i].b;
		if (x == y || x >= ns || y >= ns || part[x] == NONE || part[y] == NONE || part[x] == part[y])
			continue;
		mark(p, newer, x, e[i].lines, 1);
		mark(p, newer, y, e[i].lines, 1);
	}
	for (uint32_t s = 0; s < ns; s++)
		if (part[s] == GONE)
			mark(p, newer, s, mev_clustering_section_lines(r->cl, s), LOOSE);
}

/* The section sets of one file table holding an involved section. */
static void involved_sets(uint8_t *flag, const mev_filemap *fm, const uint8_t *sec, size_t ns)
{
	for (uint32_t k = 0; k < mev_filemap_set_count(fm); k++) {
		const uint32_t *ids;
		size_t n = mev_filemap_set(&ids, fm, k);
		flag[k] = 0;
		for (size_t i = 0; i < n && !flag[k]; i++)
			flag[k] = ids[i] < ns && sec[ids[i]];
	}
}

/* A split's or merge's section sets: those holding sections of two parts
 * (the code the parts share, or share with the outside) or a loose section. */
static void border_sets(uint8_t *flag, const mev_filemap *fm, const uint32_t *part, const uint8_t *mark,
			size_t ns)
{
	for (uint32_t k = 0; k < mev_filemap_set_count(fm); k++) {
		const uint32_t *ids;
		size_t n = mev_filemap_set(&ids, fm, k);
		uint32_t first = NONE;
		flag[k] = 0;
		for (size_t i = 0; i < n && !flag[k]; i++) {
			uint32_t x = ids[i] < ns ? part[ids[i]] : NONE;
			if (x == GONE || (ids[i] < ns && mark[ids[i]] == LOOSE))
				flag[k] = 1;
			else if (x != NONE && first != NONE && x != first)
				flag[k] = 1;
			else if (x != NONE)
				first = x;
		}
	}
}

/* Lines of the files of a file table in involved sets. */
static uint64_t involved_lines(const mev_filemap *fm, const uint8_t *flag)
{
	const mev_file_row *rows = mev_filemap_rows(fm);
	uint64_t sum = 0;
	for (size_t i = 0; i < mev_filemap_count(fm); i++)
		sum += flag[rows[i].set] ? rows[i].lines : 0;
	return sum;
}

/* The sections (and, with code, section sets) involved in link l. */
static void involve_sections(mev__cause_pair *p, const mev__link *l)
{
	int sm = l->kind == MEV_EVENT_SPLIT || l->kind == MEV_EVENT_MERGE;
	p->sm = sm;
	p->split = l->kind == MEV_EVENT_SPLIT;
	memset(p->sa, 0, p->nsa + 1);
	memset(p->sb, 0, p->nsb + 1);
	memset(p->wa, 0, (p->nsa + 1) * sizeof *p->wa);
	memset(p->wb, 0, (p->nsb + 1) * sizeof *p->wb);
	if (sm) {
		parts(p, l->kind == MEV_EVENT_SPLIT);
		borders(p, 0);
		borders(p, 1);
	} else {
		if (l->a != MEV_CLUSTER_NONE)
			mark_cluster(p, 0, l->a);
		if (l->b != MEV_CLUSTER_NONE)
			mark_cluster(p, 1, l->b);
	}
	if (p->in->code && sm) {
		border_sets(p->seta, p->in->ra->fm, p->part_a, p->sa, p->nsa);
		border_sets(p->setb, p->in->rb->fm, p->part_b, p->sb, p->nsb);
	} else if (p->in->code) {
		involved_sets(p->seta, p->in->ra->fm, p->sa, p->nsa);
		involved_sets(p->setb, p->in->rb->fm, p->sb, p->nsb);
	}
}

/* The clusters involved in link l (p->oa, p->nb: a split's cluster and its
 * successors, a merge's and its predecessors, a birth's or death's and its
 * partner, a growth's two); 0 when the event gets no cause. */
static int involve(mev__cause_pair *p, const mev__link *l)
{
	const mev__cause_in *in = p->in;
	size_t na = mev_clustering_count(in->ra->cl), nb = mev_clustering_count(in->rb->cl);
	memset(p->oa, 0, na + 1);
	memset(p->nb, 0, nb + 1);
	switch (l->kind) {
	case MEV_EVENT_SPLIT:
	case MEV_EVENT_MERGE:
		for (size_t i = 0; i < in->nlinks; i++) {
			const mev__link *x = &in->links[i];
			if (x->a == MEV_CLUSTER_NONE || x->b == MEV_CLUSTER_NONE)
				continue;
			if (l->kind == MEV_EVENT_SPLIT ? x->a == l->a : x->b == l->b)
				p->oa[x->a] = p->nb[x->b] = 1;
		}
		break;
	case MEV_EVENT_BIRTH:
		p->nb[l->b] = 1;
		if (l->partner != MEV_CLUSTER_NONE)
			p->oa[l->partner] = 1;
		break;
	case MEV_EVENT_DEATH:
		p->oa[l->a] = 1;
		if (l->partner != MEV_CLUSTER_NONE)
			p->nb[l->partner] = 1;
		break;
	case MEV_EVENT_GROWTH:
	case MEV_EVENT_CONTRACTION: {
		double la = (double)in->ra->cl_lines[l->a], lb = (double)in->rb->cl_lines[l->b];
		if (!(lb > (1 + MEV__CAUSE_CHANGE) * la || la > (1 + MEV__CAUSE_CHANGE) * lb))
			return 0;
		p->oa[l->a] = p->nb[l->b] = 1;
		break;
	}
	default:
		return 0;
	}
	involve_sections(p, l);
	return 1;
}

typedef MEV_VEC(mev_cause_item) item_vec;

static int section_involved(const mev__cause_pair *p, uint32_t sa, uint32_t sb)
{
	return (sa != NONE && p->sa[sa]) || (sb != NONE && p->sb[sb]);
}

/* A pattern change of the event and how much its section weighs. */
typedef struct {
	uint64_t w;
	size_t k;
} ranked;

static int ranked_cmp(const void *x, const void *y)
{
	const ranked *a = x, *b = y;
	if (a->w != b->w)
		return a->w > b->w ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

/* The pattern changes of the involved sections, those of the sections that
 * weigh the most first (MEV__CAUSE_KEEP_PATTERNS at most). */
static int pattern_items(item_vec *v, mev_cause *c, const mev__cause_pair *p)
{
	ranked *r = malloc((p->pc.n + 1) * sizeof *r);
	size_t n = 0;
	if (!r)
		return mev_error_oom();
	for (size_t k = 0; k < p->pc.n; k++) {
		const mev__pchange *x = &p->pc.v[k];
		uint64_t wa = x->sa != NONE && p->sa[x->sa] ? p->wa[x->sa] : 0;
		uint64_t wb = x->sb != NONE && p->sb[x->sb] ? p->wb[x->sb] : 0;
		if (section_involved(p, x->sa, x->sb))
			r[n++] = (ranked){ wa > wb ? wa : wb, k };
	}
	qsort(r, n, sizeof *r, ranked_cmp);
	for (size_t i = 0; i < n; i++) {
		const mev__pchange *x = &p->pc.v[r[i].k];
		mev_cause_item it = { 0 };
		if (v->n >= MEV__CAUSE_KEEP_PATTERNS) {
			c->more_patterns++;
			continue;
		}
		it.kind = x->added ? MEV_CAUSE_PATTERN_ADDED : MEV_CAUSE_PATTERN_REMOVED;
		it.section = x->added ? mev__cause_title(p->in->rb, x->sb) : mev__cause_title(p->in->ra, x->sa);
		it.field = x->line->type;
		it.value = x->line->value;
		it.file = x->line->file;
		it.line = x->line->line;
		if (MEV_VEC_PUSH(v, it)) {
			free(r);
			return mev_error_oom();
		}
	}
	free(r);
	return 0;
}

/* The section changes and pattern changes of the involved sections. */
static int maintainers_items(item_vec *v, mev_cause *c, const mev__cause_pair *p)
{
	const mev__cause_in *in = p->in;
	for (size_t k = 0; k < in->nch; k++) {
		const mev__change *x = &in->ch[k];
		mev_cause_item it = { 0 };
		if (!section_involved(p, p->ch_a[k], p->ch_b[k]))
			continue;
		it.kind = x->kind == MEV_SECTION_ADDED ? MEV_CAUSE_SECTION_ADDED
			  : x->kind == MEV_SECTION_REMOVED ? MEV_CAUSE_SECTION_REMOVED
							   : MEV_CAUSE_SECTION_RENAMED;
		it.section = x->section;
		it.new_section = x->new_section ? x->new_section : "";
		it.lines = x->lines;
		if (MEV_VEC_PUSH(v, it))
			return mev_error_oom();
	}
	return pattern_items(v, c, p);
}

/* The files of the event, largest first per kind (MEV__CAUSE_KEEP_FILES of each), and
 * the share of the involved sections' lines they touch. */
static int code_items(item_vec *v, mev_cause *c, const mev__cause_pair *p)
{
	const mev__cause_in *in = p->in;
	MEV_VEC(efile) ef = { 0 };
	size_t kept[MEV_CAUSE_FILE_KINDS] = { 0 };
	uint64_t touched = 0, la = involved_lines(in->ra->fm, p->seta), lb = involved_lines(in->rb->fm, p->setb);
	for (size_t i = 0; i < p->fc.n; i++) {
		efile e;
		if (classify(&e, p, &p->fc.v[i], &touched) && MEV_VEC_PUSH(&ef, e)) {
			MEV_VEC_FREE(&ef);
			return mev_error_oom();
		}
	}
	if (ef.n) /* an empty vector has no buffer: qsort must not see NULL */
		qsort(ef.v, ef.n, sizeof *ef.v, efile_cmp);
	c->code_share = la > lb ? (double)touched / (double)la : lb ? (double)touched / (double)lb : 0;
	for (size_t i = 0; i < ef.n; i++) {
		const efile *e = &ef.v[i];
		size_t x = e->kind - MEV_CAUSE_FILE_APPEARED;
		const mev_file_row *ra = e->f->ra == NONE ? NULL : &mev_filemap_rows(in->ra->fm)[e->f->ra];
		const mev_file_row *rb = e->f->rb == NONE ? NULL : &mev_filemap_rows(in->rb->fm)[e->f->rb];
		mev_cause_item it = { 0 };
		c->files[x]++;
		c->lines[x] += e->weight;
		if (kept[x]++ >= MEV__CAUSE_KEEP_FILES)
			continue;
		it.kind = e->kind;
		it.path = rb ? rb->path : ra->path;
		it.old_path = ra && rb && mev__cause_path_cmp(ra, rb) ? ra->path : "";
		it.lines = e->f->lb;
		it.old_lines = e->f->la;
		it.from_cluster = e->from;
		it.to_cluster = e->to;
		if (MEV_VEC_PUSH(v, it)) {
			MEV_VEC_FREE(&ef);
			return mev_error_oom();
		}
	}
	MEV_VEC_FREE(&ef);
	return 0;
}

static int cause_kind(const mev_cause *c, size_t nmaint, int code)
{
	int maint = nmaint > 0 || c->more_patterns > 0;
	if (maint && code)
		return MEV__CAUSE_BOTH;
	if (maint)
		return MEV__CAUSE_MAINTAINERS;
	if (code)
		return MEV__CAUSE_CODE;
	return c->code && c->patterns ? MEV__CAUSE_NONE : MEV__CAUSE_UNKNOWN;
}

/* The cause of link l into *ec. */
int mev__cause_event(mev__event_cause *ec, mev__cause_pair *p, const mev__link *l)
{
	item_vec v = { 0 };
	size_t nmaint;
	int rc;
	if (!(ec->wanted = involve(p, l)))
		return 0;
	ec->c.patterns = p->in->pa && p->in->pb;
	ec->c.code = p->in->code;
	ec->c.code_share = NAN;
	if ((rc = maintainers_items(&v, &ec->c, p)))
		goto fail;
	nmaint = v.n;
	if (p->in->code && (rc = code_items(&v, &ec->c, p)))
		goto fail;
	ec->c.v = v.v;
	ec->c.n = v.n;
	ec->code_counts = ec->c.code && (ec->c.files[MEV_CAUSE_FILE_MOVED - MEV_CAUSE_FILE_APPEARED] > 0 ||
					 ec->c.code_share >= MEV__CAUSE_CODE_SHARE);
	ec->kind = cause_kind(&ec->c, nmaint, ec->code_counts);
	return mev__cause_sentence(&ec->sentence, ec, mev__cause_show, p);
fail:
	MEV_VEC_FREE(&v);
	return rc;
}
