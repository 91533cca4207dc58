/*
 * The tracker: links the clusters of each release to those of the next by
 * the code both cover (lines of the files present in both releases, by
 * path), names the events (birth, death, continuation, growth,
 * contraction, split, merge), keeps lineage ids stable over the whole
 * history, and finds sections added, removed and renamed.
 *
 * Per release pair:
 *   1. items: the files present in both releases, weighted by the mean of
 *      their two line counts (or, without file tables, the section titles
 *      present in both, weighted by the mean of the sections' lines);
 *   2. for each cluster its common weight, for each pair of clusters the
 *      weight of the items both cover;
 *   3. mev__track_pair(): links, events, lineages.
 * Results are stored per release (the pair ending there) with the
 * fingerprints of both clusterings, so a later run recomputes only what
 * changed, from the first changed release on.
 */
#include "maintevo/track.h"
#include "maintevo/error.h"
#include "maintevo/tags.h"
#include "cluster_internal.h"
#include "track_internal.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "codec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * REC_VERSION is the record format; ALGORITHM is bumped whenever a change
 * of this file gives other results for the same clusters, so that stored
 * results of an older build are computed again.
 */
enum { REC_VERSION = 1, ALGORITHM = 2, MODE_FIRST = 0, MODE_CODE = 1, MODE_TITLES = 2 };

#define EPS 1e-12

/* --- names and parameters ------------------------------------------------- */

static const char *const event_names[] = { "birth", "death", "continuation", "growth",
					   "contraction", "split", "merge" };
static const char *const change_names[] = { "added", "removed", "renamed" };

const char *mev_event_name(mev_event_kind k)
{
	return (unsigned)k < MEV_EVENT_KINDS ? event_names[k] : "?";
}

int mev_event_parse(const char *name)
{
	for (int i = 0; i < MEV_EVENT_KINDS; i++)
		if (strcmp(name, event_names[i]) == 0)
			return i;
	return -1;
}

const char *mev_section_change_name(mev_section_change_kind k)
{
	return (unsigned)k < 3 ? change_names[k] : "?";
}

void mev_track_params_init(mev_track_params *p)
{
	p->link = 0.1;
	p->match = 0.5;
	p->growth = 0.1;
	p->rename = 0.8;
}

int mev_track_params_check(const mev_track_params *p)
{
	const struct { const char *name; double v; } t[] = {
		{ "link", p->link }, { "match", p->match }, { "rename", p->rename }
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		if (!(t[i].v > 0) || t[i].v > 1) {
			mev_error_set(MEV_EINVAL, "the %s threshold must be in (0, 1], not %g", t[i].name, t[i].v);
			mev_error_hint("see docs/tracking.md for what each threshold does");
			return MEV_EINVAL;
		}
	if (!(p->growth > 0) || p->growth > 1e6) {
		mev_error_set(MEV_EINVAL, "the growth threshold must be positive, not %g", p->growth);
		mev_error_hint("0.1 calls a change of 10%% in lines a growth or a contraction");
		return MEV_EINVAL;
	}
	return 0;
}

/* --- linking two releases --------------------------------------------------- */

static double jaccard(double w, double ca, double cb)
{
	double u = ca + cb - w;
	return u > 0 ? w / u : 0;
}

typedef MEV_VEC(mev__link) link_vec;

/* Is overlap x a better partner than y?  Higher similarity, then the same
 * representative, then the lower cluster numbers. */
static int better(const mev__pair_in *in, const mev__overlap *x, double jx, const mev__overlap *y,
		  double jy)
{
	int sx, sy;
	if (jx > jy + EPS)
		return 1;
	if (jy > jx + EPS)
		return 0;
	sx = strcmp(in->rep_a[x->a], in->rep_b[x->b]) == 0;
	sy = strcmp(in->rep_a[y->a], in->rep_b[y->b]) == 0;
	if (sx != sy)
		return sx;
	if (x->a != y->a)
		return x->a < y->a;
	return x->b < y->b;
}

/*
 * One pass of linking over `ov`: a pair is linked when its Jaccard is at
 * least p->link and one side is the other's best partner holding at least
 * p->match of that side's weight.  Only clusters with `open_a`/`open_b` set
 * take part (NULL: all).
 */
static int link_pass(const mev__pair_in *in, const mev_track_params *p, const mev__overlap *ov,
		     size_t nov, const double *ca, const double *cb, const uint8_t *open_a,
		     const uint8_t *open_b, link_vec *links)
{
	int64_t *best_a = malloc((in->na + 1) * sizeof *best_a);
	int64_t *best_b = malloc((in->nb + 1) * sizeof *best_b);
	double *j = malloc((nov + 1) * sizeof *j);
	int rc = 0;
	if (!best_a || !best_b || !j) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t i = 0; i < in->na; i++)
		best_a[i] = -1;
	for (size_t i = 0; i < in->nb; i++)
		best_b[i] = -1;
	for (size_t e = 0; e < nov; e++) {
		const mev__overlap *o = &ov[e];
		j[e] = -1;
		if ((open_a && !open_a[o->a]) || (open_b && !open_b[o->b]) || ca[o->a] <= 0 ||
		    cb[o->b] <= 0 || o->w <= 0)
			continue;
		j[e] = jaccard(o->w, ca[o->a], cb[o->b]);
		if (best_a[o->a] < 0 || better(in, o, j[e], &ov[best_a[o->a]], j[best_a[o->a]]))
			best_a[o->a] = (int64_t)e;
		if (best_b[o->b] < 0 || better(in, o, j[e], &ov[best_b[o->b]], j[best_b[o->b]]))
			best_b[o->b] = (int64_t)e;
	}
	for (size_t e = 0; e < nov; e++) {
		const mev__overlap *o = &ov[e];
		int heir, origin;
		if (j[e] < 0 || j[e] < p->link - EPS)
			continue;
		heir = best_a[o->a] == (int64_t)e && o->w >= p->match * ca[o->a] - EPS;
		origin = best_b[o->b] == (int64_t)e && o->w >= p->match * cb[o->b] - EPS;
		if (heir || origin) {
			mev__link l = { MEV_EVENT_CONTINUATION, o->a, o->b, j[e] };
			if (MEV_VEC_PUSH(links, l)) {
				rc = mev_error_oom();
				goto done;
			}
		}
	}
done:
	free(best_a);
	free(best_b);
	free(j);
	return rc;
}

static int link_cmp(const void *x, const void *y)
{
	const mev__link *a = x, *b = y;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	if (a->b != b->b)
		return a->b < b->b ? -1 : 1;
	return 0;
}

void mev__pair_out_free(mev__pair_out *o)
{
	free(o->links);
	free(o->lin_b);
	free(o->par_b);
	memset(o, 0, sizeof *o);
}

int mev__track_pair(const mev__pair_in *in, const mev_track_params *p, mev__pair_out *out)
{
	link_vec links = { 0 };
	uint8_t *open_a = calloc(in->na + 1, 1), *open_b = calloc(in->nb + 1, 1);
	uint32_t *nsucc = calloc(in->na + 1, sizeof *nsucc), *npred = calloc(in->nb + 1, sizeof *npred);
	int64_t *big_succ = malloc((in->na + 1) * sizeof *big_succ);
	int64_t *big_pred = malloc((in->nb + 1) * sizeof *big_pred);
	size_t nlinked;
	int rc = 0;

	memset(out, 0, sizeof *out);
	out->lin_b = calloc(in->nb + 1, sizeof *out->lin_b);
	out->par_b = calloc(in->nb + 1, sizeof *out->par_b);
	if (!open_a || !open_b || !nsucc || !npred || !big_succ || !big_pred || !out->lin_b ||
	    !out->par_b) {
		rc = mev_error_oom();
		goto done;
	}
	/* 1. links on code; 2. a second chance on titles for the clusters left */
	if ((rc = link_pass(in, p, in->ov, in->nov, in->ca, in->cb, NULL, NULL, &links)))
		goto done;
	memset(open_a, 1, in->na);
	memset(open_b, 1, in->nb);
	for (size_t i = 0; i < links.n; i++) {
		open_a[links.v[i].a] = 0;
		open_b[links.v[i].b] = 0;
	}
	if (in->ntov && (rc = link_pass(in, p, in->tov, in->ntov, in->ta, in->tb, open_a, open_b,
					&links)))
		goto done;
	nlinked = links.n;
	/* 3. what each link is */
	for (size_t i = 0; i < in->na; i++)
		big_succ[i] = -1;
	for (size_t i = 0; i < in->nb; i++)
		big_pred[i] = -1;
	for (size_t i = 0; i < nlinked; i++) {
		const mev__link *l = &links.v[i];
		nsucc[l->a]++;
		npred[l->b]++;
		if (big_succ[l->a] < 0 || in->lb[l->b] > in->lb[links.v[big_succ[l->a]].b] ||
		    (in->lb[l->b] == in->lb[links.v[big_succ[l->a]].b] &&
		     strcmp(in->rep_b[l->b], in->rep_b[links.v[big_succ[l->a]].b]) < 0))
			big_succ[l->a] = (int64_t)i;
		if (big_pred[l->b] < 0 || in->la[l->a] > in->la[links.v[big_pred[l->b]].a] ||
		    (in->la[l->a] == in->la[links.v[big_pred[l->b]].a] &&
		     strcmp(in->rep_a[l->a], in->rep_a[links.v[big_pred[l->b]].a]) < 0))
			big_pred[l->b] = (int64_t)i;
	}
	for (size_t i = 0; i < nlinked; i++) {
		mev__link *l = &links.v[i];
		double la = (double)in->la[l->a], lb = (double)in->lb[l->b];
		if (npred[l->b] >= 2)
			l->kind = MEV_EVENT_MERGE;
		else if (nsucc[l->a] >= 2)
			l->kind = MEV_EVENT_SPLIT;
		else if (lb >= (1 + p->growth) * la && lb > la)
			l->kind = MEV_EVENT_GROWTH;
		else if (la >= (1 + p->growth) * lb && la > lb)
			l->kind = MEV_EVENT_CONTRACTION;
		else
			l->kind = MEV_EVENT_CONTINUATION;
	}
	for (uint32_t a = 0; a < in->na; a++)
		if (!nsucc[a]) {
			mev__link l = { MEV_EVENT_DEATH, a, MEV_CLUSTER_NONE, NAN };
			if (MEV_VEC_PUSH(&links, l)) {
				rc = mev_error_oom();
				goto done;
			}
		}
	/* 4. lineages: a cluster continues the lineage of its largest predecessor
	 * when it is that predecessor's largest successor too; else it starts a
	 * new one, whose parent is the largest predecessor's lineage */
	out->next_lineage = in->next_lineage;
	for (uint32_t b = 0; b < in->nb; b++) {
		if (!npred[b]) {
			mev__link l = { MEV_EVENT_BIRTH, MEV_CLUSTER_NONE, b, NAN };
			if (MEV_VEC_PUSH(&links, l)) {
				rc = mev_error_oom();
				goto done;
			}
			out->lin_b[b] = out->next_lineage++;
			continue;
		}
		{
			uint32_t a = links.v[big_pred[b]].a;
			if (links.v[big_succ[a]].b == b) {
				out->lin_b[b] = in->lin_a[a];
			} else {
				out->lin_b[b] = out->next_lineage++;
				out->par_b[b] = in->lin_a[a];
			}
		}
	}
	qsort(links.v, links.n, sizeof *links.v, link_cmp);
	out->links = links.v;
	out->nlinks = links.n;
	links.v = NULL;
done:
	MEV_VEC_FREE(&links);
	free(open_a);
	free(open_b);
	free(nsucc);
	free(npred);
	free(big_succ);
	free(big_pred);
	if (rc)
		mev__pair_out_free(out);
	return rc;
}

/* --- a release as the tracker sees it ------------------------------------- */

typedef struct {
	const char *tag;
	mev_oid commit;
	int has_files;
	mev_clustering *cl;
	uint64_t cl_fp;          /* clustering fingerprint */
	uint64_t rel_fp;         /* graph fingerprint and commit */
	mev_filemap *sec;        /* sections (no rows) and ... */
	mev_graph *g;            /* ... the graph, THE REST left out */
	mev_filemap *fm;         /* file table (loaded when needed) */
	uint64_t *cl_lines;      /* per cluster: lines covered (when computed) */
	const char **reps;       /* per cluster: representative title */
	uint32_t *lineage, *parent; /* per cluster */
	uint32_t next_lineage;   /* after this release */
} rel;

static void rel_clear(rel *r)
{
	mev_clustering_free(r->cl);
	mev_graph_free(r->g);
	mev_filemap_free(r->sec);
	mev_filemap_free(r->fm);
	free(r->cl_lines);
	free(r->reps);
	free(r->lineage);
	free(r->parent);
	memset(r, 0, sizeof *r);
}

static int rel_load(rel *r, mev_store *s, const mev_release *m, const mev_cluster_params *cp)
{
	uint64_t h[4];
	size_t k;
	int rc;
	memset(r, 0, sizeof *r);
	r->tag = m->tag;
	r->commit = m->commit;
	r->has_files = m->has_files;
	if ((rc = mev_store_load_graph(s, m->tag, 0, &r->sec, &r->g)) ||
	    (rc = mev_cluster_load(&r->cl, s, cp, m->tag)))
		goto fail;
	k = mev_clustering_count(r->cl);
	r->cl_fp = mev_clustering_fingerprint(r->cl);
	h[0] = mev__graph_fingerprint(r->g);
	memcpy(&h[1], m->commit.id, 20);
	h[3] = (uint64_t)m->has_files;
	r->rel_fp = mev_hash_bytes(h, sizeof h);
	r->reps = calloc(k + 1, sizeof *r->reps);
	r->lineage = calloc(k + 1, sizeof *r->lineage);
	r->parent = calloc(k + 1, sizeof *r->parent);
	if (!r->reps || !r->lineage || !r->parent) {
		rc = mev_error_oom();
		goto fail;
	}
	for (uint32_t c = 0; c < k; c++)
		r->reps[c] = mev_clustering_title(r->cl, mev_clustering_representative(r->cl, c));
	return 0;
fail:
	rel_clear(r);
	return rc;
}

/* For each section set of the file table: its clusters, distinct and sorted. */
typedef struct {
	uint32_t *off;   /* set -> [off[set], off[set+1]) in ids */
	uint32_t *ids;
} set_clusters;

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return a < b ? -1 : a > b;
}

static int set_clusters_build(set_clusters *sc, const mev_filemap *fm, const mev_clustering *cl)
{
	size_t nsets = mev_filemap_set_count(fm), total = 0;
	memset(sc, 0, sizeof *sc);
	for (uint32_t s = 0; s < nsets; s++) {
		const uint32_t *ids;
		total += mev_filemap_set(&ids, fm, s);
	}
	sc->off = malloc((nsets + 1) * sizeof *sc->off);
	sc->ids = malloc((total + 1) * sizeof *sc->ids);
	if (!sc->off || !sc->ids)
		return mev_error_oom();
	total = 0;
	for (uint32_t s = 0; s < nsets; s++) {
		const uint32_t *ids;
		size_t n = mev_filemap_set(&ids, fm, s), start = total;
		sc->off[s] = (uint32_t)total;
		for (size_t i = 0; i < n; i++) {
			uint32_t c = ids[i] < mev_clustering_section_count(cl) ? mev_clustering_of(cl, ids[i])
									       : MEV_CLUSTER_NONE;
			if (c != MEV_CLUSTER_NONE)
				sc->ids[total++] = c;
		}
		qsort(sc->ids + start, total - start, sizeof *sc->ids, u32_cmp);
		{
			size_t w = start;
			for (size_t i = start; i < total; i++)
				if (i == start || sc->ids[i] != sc->ids[w - 1])
					sc->ids[w++] = sc->ids[i];
			total = w;
		}
	}
	sc->off[nsets] = (uint32_t)total;
	return 0;
}

static void set_clusters_free(set_clusters *sc)
{
	free(sc->off);
	free(sc->ids);
}

/* Cluster sizes: each file's lines once per cluster covering it. */
static int cluster_lines_from_files(rel *r)
{
	size_t k = mev_clustering_count(r->cl);
	const mev_file_row *rows = mev_filemap_rows(r->fm);
	set_clusters sc;
	int rc;
	free(r->cl_lines);
	if (!(r->cl_lines = calloc(k + 1, sizeof *r->cl_lines)))
		return mev_error_oom();
	if ((rc = set_clusters_build(&sc, r->fm, r->cl)) == 0)
		for (size_t i = 0; i < mev_filemap_count(r->fm); i++)
			for (uint32_t j = sc.off[rows[i].set]; j < sc.off[rows[i].set + 1]; j++)
				r->cl_lines[sc.ids[j]] += rows[i].lines;
	set_clusters_free(&sc);
	return rc;
}

/* Without a file table: the sum of the sections' lines. */
static int cluster_lines_from_sections(rel *r)
{
	size_t k = mev_clustering_count(r->cl);
	free(r->cl_lines);
	if (!(r->cl_lines = calloc(k + 1, sizeof *r->cl_lines)))
		return mev_error_oom();
	for (uint32_t c = 0; c < k; c++)
		r->cl_lines[c] = mev_clustering_lines(r->cl, c);
	return 0;
}

/* --- overlaps -------------------------------------------------------------- */

/* Sparse accumulation of weights per (a, b). */
typedef struct {
	mev_strmap idx;
	MEV_VEC(mev__overlap) v;
} ov_acc;

static int ov_add(ov_acc *acc, uint32_t a, uint32_t b, double w)
{
	uint32_t key[2] = { a, b }, e;
	int added;
	if (mev_strmap_intern(&acc->idx, (const char *)key, sizeof key, (uint32_t)acc->v.n, &e, &added))
		return mev_error_oom();
	if (added) {
		mev__overlap o = { a, b, 0 };
		if (MEV_VEC_PUSH(&acc->v, o))
			return mev_error_oom();
	}
	acc->v.v[e].w += w;
	return 0;
}

static void ov_free(ov_acc *acc)
{
	mev_strmap_free(&acc->idx);
	MEV_VEC_FREE(&acc->v);
}

static int path_cmp(const mev_file_row *x, const mev_file_row *y)
{
	size_t m = x->path_len < y->path_len ? x->path_len : y->path_len;
	int c = memcmp(x->path, y->path, m);
	return c ? c : x->path_len < y->path_len ? -1 : x->path_len > y->path_len;
}

/* Per pair of section sets (older, newer): the files they share. */
typedef struct {
	uint32_t sa, sb;
	double w;          /* mean lines */
	uint64_t old_lines;
} set_pair;

typedef MEV_VEC(set_pair) set_pair_vec;

static int set_pairs(const rel *ra, const rel *rb, set_pair_vec *out)
{
	const mev_file_row *xa = mev_filemap_rows(ra->fm), *xb = mev_filemap_rows(rb->fm);
	size_t na = mev_filemap_count(ra->fm), nb = mev_filemap_count(rb->fm), i = 0, j = 0;
	mev_strmap idx = MEV_STRMAP_INIT;
	int rc = 0;
	while (i < na && j < nb) {
		int c = path_cmp(&xa[i], &xb[j]);
		uint32_t key[2], e;
		int added;
		if (c < 0) {
			i++;
			continue;
		}
		if (c > 0) {
			j++;
			continue;
		}
		key[0] = xa[i].set;
		key[1] = xb[j].set;
		if (mev_strmap_intern(&idx, (const char *)key, sizeof key, (uint32_t)out->n, &e, &added)) {
			rc = mev_error_oom();
			break;
		}
		if (added) {
			set_pair p = { key[0], key[1], 0, 0 };
			if (MEV_VEC_PUSH(out, p)) {
				rc = mev_error_oom();
				break;
			}
		}
		out->v[e].w += ((double)xa[i].lines + (double)xb[j].lines) / 2;
		out->v[e].old_lines += xa[i].lines;
		i++;
		j++;
	}
	mev_strmap_free(&idx);
	return rc;
}

/* Overlaps on code: every common file adds its weight to each pair of
 * clusters covering it in the two releases. */
static int overlaps_code(const rel *ra, const rel *rb, const set_pair *sp, size_t nsp, double *ca,
			 double *cb, ov_acc *acc)
{
	set_clusters sa = { 0 }, sb = { 0 };
	int rc;
	if ((rc = set_clusters_build(&sa, ra->fm, ra->cl)) || (rc = set_clusters_build(&sb, rb->fm, rb->cl)))
		goto done;
	for (size_t k = 0; k < nsp && !rc; k++) {
		const set_pair *p = &sp[k];
		for (uint32_t x = sa.off[p->sa]; x < sa.off[p->sa + 1]; x++)
			ca[sa.ids[x]] += p->w;
		for (uint32_t y = sb.off[p->sb]; y < sb.off[p->sb + 1]; y++)
			cb[sb.ids[y]] += p->w;
		for (uint32_t x = sa.off[p->sa]; x < sa.off[p->sa + 1] && !rc; x++)
			for (uint32_t y = sb.off[p->sb]; y < sb.off[p->sb + 1] && !rc; y++)
				rc = ov_add(acc, sa.ids[x], sb.ids[y], p->w);
	}
done:
	set_clusters_free(&sa);
	set_clusters_free(&sb);
	return rc;
}

/* Titles present in both releases (THE REST left out): index pairs. */
typedef struct {
	uint32_t a, b;
} title_pair;

typedef MEV_VEC(title_pair) title_pair_vec;

static int common_titles(const rel *ra, const rel *rb, title_pair_vec *out)
{
	const mev_section_info *sa = mev_filemap_sections(ra->sec), *sb = mev_filemap_sections(rb->sec);
	size_t na = mev_filemap_section_count(ra->sec), nb = mev_filemap_section_count(rb->sec);
	mev_strmap idx = MEV_STRMAP_INIT;
	int rc = 0;
	for (size_t i = 0; i < nb && !rc; i++)
		if (!sb[i].is_rest && mev_strmap_put(&idx, sb[i].title, strlen(sb[i].title), (uint32_t)i))
			rc = mev_error_oom();
	for (size_t i = 0; i < na && !rc; i++) {
		int64_t j;
		if (sa[i].is_rest || (j = mev_strmap_get(&idx, sa[i].title, strlen(sa[i].title))) < 0)
			continue;
		{
			title_pair t = { (uint32_t)i, (uint32_t)j };
			if (MEV_VEC_PUSH(out, t))
				rc = mev_error_oom();
		}
	}
	mev_strmap_free(&idx);
	return rc;
}

/* Overlaps on titles: weighted by the mean of the sections' lines, or by 1. */
static int overlaps_titles(const rel *ra, const rel *rb, const title_pair *tp, size_t ntp,
			   int by_lines, double *ca, double *cb, ov_acc *acc)
{
	int rc = 0;
	for (size_t k = 0; k < ntp && !rc; k++) {
		uint32_t a = mev_clustering_of(ra->cl, tp[k].a), b = mev_clustering_of(rb->cl, tp[k].b);
		double w = by_lines ? ((double)mev_clustering_section_lines(ra->cl, tp[k].a) +
				       (double)mev_clustering_section_lines(rb->cl, tp[k].b)) / 2
				    : 1.0;
		if (a != MEV_CLUSTER_NONE)
			ca[a] += w;
		if (b != MEV_CLUSTER_NONE)
			cb[b] += w;
		if (a != MEV_CLUSTER_NONE && b != MEV_CLUSTER_NONE)
			rc = ov_add(acc, a, b, w);
	}
	return rc;
}

/* --- section changes ------------------------------------------------------ */

typedef struct {
	mev_section_change_kind kind;
	const char *section, *new_section;
	uint64_t lines;
	double coverage;
} change;

typedef MEV_VEC(change) change_vec;

typedef struct {
	uint32_t r, n;     /* removed section (older), added section (newer) */
	double cov;
	uint64_t lines;    /* of r */
} rename_cand;

/* Best coverage first; among equals (two sections merged into a new one)
 * the larger old section is the one renamed. */
static int cand_cmp(const void *x, const void *y)
{
	const rename_cand *a = x, *b = y;
	if (a->cov != b->cov)
		return a->cov > b->cov ? -1 : 1;
	if (a->lines != b->lines)
		return a->lines > b->lines ? -1 : 1;
	if (a->r != b->r)
		return a->r < b->r ? -1 : 1;
	return a->n < b->n ? -1 : a->n > b->n;
}

static int change_cmp(const void *x, const void *y)
{
	const change *a = x, *b = y;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return strcmp(a->section, b->section);
}

/*
 * Without file tables a rename is guessed from what the two sections share
 * with the others, and that alone cannot tell apart two drivers of the same
 * size inside the same subsystem.  So the titles must also share a rare
 * word: letters and digits, two or more, case folded, found in at most
 * RARE_WORD section titles of the two releases ("EMULEX LPFC ..." and
 * "EMULEX/AVAGO LPFC ..." share EMULEX; two media drivers share only MEDIA
 * and DRIVER, which hundreds of titles hold).
 */
enum { RARE_WORD = 5 };

/* Calls fn for each word of a title (at most once per distinct word). */
static int each_word(const char *t, int (*fn)(void *ctx, const char *w, size_t n), void *ctx)
{
	char seen[64][32];
	int nseen = 0, rc = 0;
	while (*t && !rc) {
		char w[32];
		size_t n = 0;
		int dup = 0;
		while (*t && !((*t >= 'A' && *t <= 'Z') || (*t >= 'a' && *t <= 'z') || (*t >= '0' && *t <= '9')))
			t++;
		while ((*t >= 'A' && *t <= 'Z') || (*t >= 'a' && *t <= 'z') || (*t >= '0' && *t <= '9')) {
			if (n < sizeof w - 1)
				w[n++] = (char)(*t >= 'a' && *t <= 'z' ? *t - 32 : *t);
			t++;
		}
		w[n] = '\0';
		if (n < 2)
			continue;
		for (int i = 0; i < nseen && !dup; i++)
			dup = strcmp(seen[i], w) == 0;
		if (dup)
			continue;
		if (nseen < 64)
			memcpy(seen[nseen++], w, n + 1);
		rc = fn(ctx, w, n);
	}
	return rc;
}

static int count_word(void *ctx, const char *w, size_t n)
{
	mev_strmap *m = ctx;
	int64_t v = mev_strmap_get(m, w, n);
	return mev_strmap_put(m, w, n, v < 0 ? 1 : (uint32_t)v + 1) ? mev_error_oom() : 0;
}

/* In how many titles of the two releases each word occurs. */
static int count_words(mev_strmap *m, const rel *ra, const rel *rb)
{
	const rel *r[2] = { ra, rb };
	mev_strmap both = MEV_STRMAP_INIT;
	int rc = 0;
	for (int k = 0; k < 2 && !rc; k++) {
		const mev_section_info *s = mev_filemap_sections(r[k]->sec);
		for (size_t i = 0; i < mev_filemap_section_count(r[k]->sec) && !rc; i++) {
			int added;
			uint32_t x;
			/* a title present in both releases counts once */
			if (mev_strmap_intern(&both, s[i].title, strlen(s[i].title), 0, &x, &added)) {
				rc = mev_error_oom();
				break;
			}
			if (added)
				rc = each_word(s[i].title, count_word, m);
		}
	}
	mev_strmap_free(&both);
	return rc;
}

typedef struct {
	const mev_strmap *counts;
	mev_strmap words;      /* the rare words of the first title */
	int found;
} rare_ctx;

static int note_rare(void *ctx, const char *w, size_t n)
{
	rare_ctx *rc = ctx;
	int64_t c = mev_strmap_get(rc->counts, w, n);
	if (c > 0 && c <= RARE_WORD && mev_strmap_put(&rc->words, w, n, 1))
		return mev_error_oom();
	return 0;
}

static int find_rare(void *ctx, const char *w, size_t n)
{
	rare_ctx *rc = ctx;
	rc->found |= mev_strmap_get(&rc->words, w, n) >= 0;
	return 0;
}

static int share_rare_word(const mev_strmap *counts, const char *a, const char *b)
{
	rare_ctx rc = { counts, MEV_STRMAP_INIT, 0 };
	if (each_word(a, note_rare, &rc) == 0)
		each_word(b, find_rare, &rc);
	mev_strmap_free(&rc.words);
	return rc.found;
}

/*
 * Sections added, removed and renamed from ra to rb.  A removed section R
 * and an added section N are a rename when N covers at least p->rename of
 * R's lines: with file tables, the lines (in ra) of the files both releases
 * hold that R covered in ra and N covers in rb; without, the lines R shared
 * with each other section, matched by title to what N shares with it.
 */
static int section_changes(const rel *ra, const rel *rb, const set_pair *sp, size_t nsp,
			   const mev_track_params *p, change_vec *out)
{
	const mev_section_info *sa = mev_filemap_sections(ra->sec), *sb = mev_filemap_sections(rb->sec);
	size_t na = mev_filemap_section_count(ra->sec), nb = mev_filemap_section_count(rb->sec);
	mev_strmap ta = MEV_STRMAP_INIT, tb = MEV_STRMAP_INIT;
	uint8_t *gone = calloc(na + 1, 1), *born = calloc(nb + 1, 1), *used_a = calloc(na + 1, 1),
		*used_b = calloc(nb + 1, 1);
	ov_acc acc = { MEV_STRMAP_INIT, { 0 } };
	MEV_VEC(rename_cand) cand = { 0 };
	mev_strmap words = MEV_STRMAP_INIT;
	int rc = 0, ngone = 0, nborn = 0;

	if (!gone || !born || !used_a || !used_b) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t i = 0; i < na && !rc; i++)
		if (mev_strmap_put(&ta, sa[i].title, strlen(sa[i].title), (uint32_t)i))
			rc = mev_error_oom();
	for (size_t i = 0; i < nb && !rc; i++)
		if (mev_strmap_put(&tb, sb[i].title, strlen(sb[i].title), (uint32_t)i))
			rc = mev_error_oom();
	if (rc)
		goto done;
	for (size_t i = 0; i < na; i++)
		if (!sa[i].is_rest && mev_strmap_get(&tb, sa[i].title, strlen(sa[i].title)) < 0)
			gone[i] = 1, ngone++;
	for (size_t i = 0; i < nb; i++)
		if (!sb[i].is_rest && mev_strmap_get(&ta, sb[i].title, strlen(sb[i].title)) < 0)
			born[i] = 1, nborn++;

	if (ngone && nborn && sp) {
		/* code: old lines of common files covered by R before and N after */
		for (size_t k = 0; k < nsp && !rc; k++) {
			const uint32_t *ia, *ib;
			size_t ka = mev_filemap_set(&ia, ra->fm, sp[k].sa), kb = mev_filemap_set(&ib, rb->fm, sp[k].sb);
			for (size_t x = 0; x < ka && !rc; x++)
				if (gone[ia[x]])
					for (size_t y = 0; y < kb && !rc; y++)
						if (born[ib[y]])
							rc = ov_add(&acc, ia[x], ib[y], (double)sp[k].old_lines);
		}
	} else if (ngone && nborn) {
		/* titles: what R shared with each other section, against what N shares */
		const mev_edge *ea = mev_graph_edges(ra->g), *eb = mev_graph_edges(rb->g);
		size_t nea = mev_graph_edge_count(ra->g), neb = mev_graph_edge_count(rb->g);
		mev_strmap nbr = MEV_STRMAP_INIT; /* (R, neighbour title) -> lines */
		MEV_VEC(uint64_t) w = { 0 };
		for (size_t e = 0; e < nea && !rc; e++) {
			for (int side = 0; side < 2 && !rc; side++) {
				uint32_t r = side ? ea[e].b : ea[e].a, o = side ? ea[e].a : ea[e].b;
				mev_buf key = MEV_BUF_INIT;
				uint32_t id;
				int added;
				if (ea[e].a == ea[e].b || !gone[r])
					continue;
				if (mev_buf_put(&key, &r, sizeof r) || mev_buf_puts(&key, sa[o].title) ||
				    mev_strmap_intern(&nbr, key.ptr, key.len, (uint32_t)w.n, &id, &added) ||
				    (added && MEV_VEC_PUSH(&w, 0)))
					rc = mev_error_oom();
				else
					w.v[id] += ea[e].lines;
				mev_buf_free(&key);
			}
		}
		for (size_t e = 0; e < neb && !rc; e++) {
			for (int side = 0; side < 2 && !rc; side++) {
				uint32_t n = side ? eb[e].b : eb[e].a, o = side ? eb[e].a : eb[e].b;
				if (eb[e].a == eb[e].b || !born[n])
					continue;
				for (size_t r = 0; r < na && !rc; r++) {
					mev_buf key = MEV_BUF_INIT;
					int64_t id;
					if (!gone[r])
						continue;
					{
						uint32_t r32 = (uint32_t)r;
						if (mev_buf_put(&key, &r32, sizeof r32) || mev_buf_puts(&key, sb[o].title)) {
							rc = mev_error_oom();
							mev_buf_free(&key);
							break;
						}
					}
					id = mev_strmap_get(&nbr, key.ptr, key.len);
					mev_buf_free(&key);
					if (id >= 0) {
						uint64_t m = w.v[id] < eb[e].lines ? w.v[id] : eb[e].lines;
						if (m)
							rc = ov_add(&acc, (uint32_t)r, n, (double)m);
					}
				}
			}
		}
		mev_strmap_free(&nbr);
		MEV_VEC_FREE(&w);
	}
	if (rc || (!sp && acc.v.n && (rc = count_words(&words, ra, rb))))
		goto done;
	for (size_t k = 0; k < acc.v.n; k++) {
		uint64_t lines = mev_clustering_section_lines(ra->cl, acc.v.v[k].a);
		double cov = lines ? acc.v.v[k].w / (double)lines : 0;
		if (cov > 1)
			cov = 1;
		if (lines && cov >= p->rename - EPS &&
		    (sp || share_rare_word(&words, sa[acc.v.v[k].a].title, sb[acc.v.v[k].b].title))) {
			rename_cand c = { acc.v.v[k].a, acc.v.v[k].b, cov, lines };
			if (MEV_VEC_PUSH(&cand, c)) {
				rc = mev_error_oom();
				goto done;
			}
		}
	}
	if (cand.n > 1)
		qsort(cand.v, cand.n, sizeof *cand.v, cand_cmp);
	for (size_t k = 0; k < cand.n; k++) {
		change c;
		if (used_a[cand.v[k].r] || used_b[cand.v[k].n])
			continue;
		used_a[cand.v[k].r] = used_b[cand.v[k].n] = 1;
		c.kind = MEV_SECTION_RENAMED;
		c.section = sa[cand.v[k].r].title;
		c.new_section = sb[cand.v[k].n].title;
		c.lines = mev_clustering_section_lines(ra->cl, cand.v[k].r);
		c.coverage = cand.v[k].cov;
		if (MEV_VEC_PUSH(out, c)) {
			rc = mev_error_oom();
			goto done;
		}
	}
	for (size_t i = 0; i < na; i++)
		if (gone[i] && !used_a[i]) {
			change c = { MEV_SECTION_REMOVED, sa[i].title, "", mev_clustering_section_lines(ra->cl, (uint32_t)i),
				     NAN };
			if (MEV_VEC_PUSH(out, c)) {
				rc = mev_error_oom();
				goto done;
			}
		}
	for (size_t i = 0; i < nb; i++)
		if (born[i] && !used_b[i]) {
			change c = { MEV_SECTION_ADDED, sb[i].title, "", mev_clustering_section_lines(rb->cl, (uint32_t)i),
				     NAN };
			if (MEV_VEC_PUSH(out, c)) {
				rc = mev_error_oom();
				goto done;
			}
		}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, change_cmp);
done:
	mev_strmap_free(&ta);
	mev_strmap_free(&tb);
	mev_strmap_free(&words);
	ov_free(&acc);
	MEV_VEC_FREE(&cand);
	free(gone);
	free(born);
	free(used_a);
	free(used_b);
	return rc;
}

/* --- records --------------------------------------------------------------- */

static uint64_t dbits(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

static double bitsd(uint64_t u)
{
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

static int events_key(mev_buf *k, const mev_cluster_params *cp, const char *tag)
{
	char pk[128];
	size_t n = mev_cluster_key(cp, pk, sizeof pk);
	mev_buf_clear(k);
	return mev_buf_put(k, pk, n + 1) || (tag && mev_buf_puts(k, tag)) ? mev_error_oom() : 0;
}

static int sections_key(mev_buf *k, const char *tag)
{
	mev_buf_clear(k);
	return mev_buf_put(k, "sections", 9) || (tag && mev_buf_puts(k, tag)) ? mev_error_oom() : 0;
}

/* The head of a stored pair: what it was computed from. */
typedef struct {
	uint64_t algorithm;
	char from[256];
	uint64_t fp_from, fp_to;
	uint64_t params[3];
	uint32_t next_lineage;
	size_t ncl;
} ev_head;

static int put_head(mev_buf *b, const char *from, uint64_t fp_from, uint64_t fp_to, const uint64_t *params,
		    size_t nparams)
{
	int rc = 0;
	rc |= mev_put_uv(b, REC_VERSION);
	rc |= mev_put_uv(b, ALGORITHM);
	rc |= mev_put_cstr(b, from);
	rc |= mev_put_uv(b, fp_from);
	rc |= mev_put_uv(b, fp_to);
	for (size_t i = 0; i < nparams; i++)
		rc |= mev_put_uv(b, params[i]);
	return rc;
}

static int get_head(mev_rd *r, ev_head *h, size_t nparams)
{
	size_t l;
	const char *p;
	memset(h, 0, sizeof *h);
	if (mev_get_uv(r) != REC_VERSION)
		return -1;
	h->algorithm = mev_get_uv(r);
	p = mev_get_str(r, &l);
	if (l >= sizeof h->from)
		return -1;
	memcpy(h->from, p, l);
	h->from[l] = '\0';
	h->fp_from = mev_get_uv(r);
	h->fp_to = mev_get_uv(r);
	for (size_t i = 0; i < nparams; i++)
		h->params[i] = mev_get_uv(r);
	return r->bad ? -1 : 0;
}

/*
 * Events record (table "events", key "<parameter key>\0<tag>"): head (from
 * tag, clustering fingerprints, link/match/growth), uv mode, uv next
 * lineage, the clusters of the release (uv lineage, uv parent, uv lines,
 * str representative), the events (uv kind, uv from+1, uv to+1, uv
 * similarity bits, uv from_lines+1, uv to_lines+1, uv lineage, str from
 * representative, str to representative).
 */
static int encode_events(mev_buf *b, const rel *ra, const rel *rb, const mev_track_params *p, int mode,
			 const mev__pair_out *po)
{
	uint64_t params[3] = { dbits(p->link), dbits(p->match), dbits(p->growth) };
	size_t k = mev_clustering_count(rb->cl);
	int rc = put_head(b, ra ? ra->tag : "", ra ? ra->cl_fp : 0, rb->cl_fp, params, 3);
	rc |= mev_put_uv(b, (uint64_t)mode);
	rc |= mev_put_uv(b, rb->next_lineage);
	rc |= mev_put_uv(b, k);
	for (size_t c = 0; c < k && !rc; c++) {
		rc |= mev_put_uv(b, rb->lineage[c]);
		rc |= mev_put_uv(b, rb->parent[c]);
		rc |= mev_put_uv(b, rb->cl_lines[c]);
		rc |= mev_put_cstr(b, rb->reps[c]);
	}
	rc |= mev_put_uv(b, po ? po->nlinks : 0);
	for (size_t i = 0; po && i < po->nlinks && !rc; i++) {
		const mev__link *l = &po->links[i];
		int ha = l->a != MEV_CLUSTER_NONE, hb = l->b != MEV_CLUSTER_NONE;
		rc |= mev_put_uv(b, (uint64_t)l->kind);
		rc |= mev_put_uv(b, ha ? (uint64_t)l->a + 1 : 0);
		rc |= mev_put_uv(b, hb ? (uint64_t)l->b + 1 : 0);
		rc |= mev_put_uv(b, dbits(l->sim));
		rc |= mev_put_uv(b, ha ? ra->cl_lines[l->a] + 1 : 0);
		rc |= mev_put_uv(b, hb ? rb->cl_lines[l->b] + 1 : 0);
		rc |= mev_put_uv(b, hb ? rb->lineage[l->b] : ra->lineage[l->a]);
		rc |= mev_put_cstr(b, ha ? ra->reps[l->a] : "");
		rc |= mev_put_cstr(b, hb ? rb->reps[l->b] : "");
	}
	return rc ? mev_error_oom() : 0;
}

/* Section changes record (key "sections\0<tag>"): head (from tag, release
 * fingerprints, rename), uv n, per change uv kind, str section, str new
 * section, uv lines, uv coverage bits. */
static int encode_changes(mev_buf *b, const rel *ra, const rel *rb, const mev_track_params *p,
			  const change *c, size_t n)
{
	uint64_t params[1] = { dbits(p->rename) };
	int rc = put_head(b, ra->tag, ra->rel_fp, rb->rel_fp, params, 1);
	rc |= mev_put_uv(b, n);
	for (size_t i = 0; i < n && !rc; i++) {
		rc |= mev_put_uv(b, (uint64_t)c[i].kind);
		rc |= mev_put_cstr(b, c[i].section);
		rc |= mev_put_cstr(b, c[i].new_section);
		rc |= mev_put_uv(b, c[i].lines);
		rc |= mev_put_uv(b, dbits(c[i].coverage));
	}
	return rc ? mev_error_oom() : 0;
}

/* Read the clusters of a stored events record into rb (lineages, lines). */
static int decode_clusters(rel *rb, const void *data, size_t len)
{
	mev_rd r;
	ev_head h;
	uint64_t k;
	mev_rd_init(&r, data, len);
	if (get_head(&r, &h, 3))
		return -1;
	(void)mev_get_uv(&r);
	rb->next_lineage = (uint32_t)mev_get_uv(&r);
	k = mev_get_uv(&r);
	if (r.bad || k != mev_clustering_count(rb->cl))
		return -1;
	free(rb->cl_lines);
	if (!(rb->cl_lines = calloc(k + 1, sizeof *rb->cl_lines)))
		return -1;
	for (size_t c = 0; c < k; c++) {
		size_t l;
		rb->lineage[c] = (uint32_t)mev_get_uv(&r);
		rb->parent[c] = (uint32_t)mev_get_uv(&r);
		rb->cl_lines[c] = mev_get_uv(&r);
		(void)mev_get_str(&r, &l);
	}
	return r.bad ? -1 : 0;
}

static int put_value(mev_store *s, const char *table, const mev_buf *k, const mev_buf *v)
{
	int rc = 0;
	for (int attempt = 0; attempt < 3; attempt++) {
		if ((rc = mev_store_begin(s)))
			return rc;
		rc = mev_store_put_value(s, table, k->ptr, k->len, v->ptr, v->len);
		if (!rc)
			return mev_store_commit(s);
		mev_store_abort(s);
		if (rc != MEV_ELIMIT || (rc = mev_store_grow(s)))
			return rc;
		rc = MEV_ELIMIT;
	}
	return rc;
}

/* Is the stored record under key k computed from these inputs? */
static int fresh(mev_store *s, const char *table, const mev_buf *k, const char *from, uint64_t fp_from,
		 uint64_t fp_to, const uint64_t *params, size_t nparams, void **data, size_t *len)
{
	ev_head h;
	mev_rd r;
	*data = NULL;
	if (mev_store_get_value(s, table, k->ptr, k->len, data, len))
		return 0;
	mev_rd_init(&r, *data, *len);
	if (get_head(&r, &h, nparams) || h.algorithm != ALGORITHM || strcmp(h.from, from) ||
	    h.fp_from != fp_from || h.fp_to != fp_to)
		return 0;
	for (size_t i = 0; i < nparams; i++)
		if (h.params[i] != params[i])
			return 0;
	return 1;
}

/* --- tracking a whole store ------------------------------------------------ */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Load the file table of r when it has one and it is not loaded yet. */
static int need_files(mev_store *s, rel *r)
{
	if (!r->has_files || r->fm)
		return 0;
	return mev_store_load_filemap(s, r->tag, &r->fm);
}

/* The cluster sizes of r, unless known: from its files, else its sections. */
static int cluster_lines(mev_store *s, rel *r)
{
	int rc;
	if (r->cl_lines)
		return 0;
	if (!r->has_files)
		return cluster_lines_from_sections(r);
	if ((rc = need_files(s, r)))
		return rc;
	return cluster_lines_from_files(r);
}

/* Compute the pair ra -> rb (ra NULL: rb is the first release). */
static int compute_pair(mev_store *s, rel *ra, rel *rb, const mev_track_params *p, int want_events,
			int want_changes, mev_track_result *res, mev_buf *ev_val, mev_buf *ch_val)
{
	size_t na = ra ? mev_clustering_count(ra->cl) : 0, nb = mev_clustering_count(rb->cl);
	int code = ra && ra->has_files && rb->has_files;
	double *ca = calloc(na + 1, sizeof *ca), *cb = calloc(nb + 1, sizeof *cb);
	double *ta = calloc(na + 1, sizeof *ta), *tb = calloc(nb + 1, sizeof *tb);
	ov_acc acc = { MEV_STRMAP_INIT, { 0 } }, tacc = { MEV_STRMAP_INIT, { 0 } };
	set_pair_vec sp = { 0 };
	title_pair_vec tp = { 0 };
	change_vec ch = { 0 };
	mev__pair_out po = { 0 };
	int rc = 0;

	if (!ca || !cb || !ta || !tb) {
		rc = mev_error_oom();
		goto done;
	}
	if (code && ((rc = need_files(s, ra)) || (rc = need_files(s, rb))))
		goto done;
	if ((rc = cluster_lines(s, rb)) || (ra && (rc = cluster_lines(s, ra))))
		goto done;
	if (!ra) {
		/* the first release: every cluster starts a lineage */
		rb->next_lineage = 1;
		for (size_t c = 0; c < nb; c++) {
			rb->lineage[c] = rb->next_lineage++;
			rb->parent[c] = 0;
		}
		if (want_events)
			rc = encode_events(ev_val, NULL, rb, p, MODE_FIRST, NULL);
		goto done;
	}
	if (code && (rc = set_pairs(ra, rb, &sp)))
		goto done;
	if (want_events) {
		mev__pair_in in = { 0 };
		if ((rc = common_titles(ra, rb, &tp)))
			goto done;
		if (code)
			rc = overlaps_code(ra, rb, sp.v, sp.n, ca, cb, &acc);
		else
			rc = overlaps_titles(ra, rb, tp.v, tp.n, 1, ca, cb, &acc);
		if (rc || (rc = overlaps_titles(ra, rb, tp.v, tp.n, 0, ta, tb, &tacc)))
			goto done;
		in.na = na;
		in.nb = nb;
		in.ca = ca;
		in.cb = cb;
		in.la = ra->cl_lines;
		in.lb = rb->cl_lines;
		in.rep_a = ra->reps;
		in.rep_b = rb->reps;
		in.ov = acc.v.v;
		in.nov = acc.v.n;
		in.ta = ta;
		in.tb = tb;
		in.tov = tacc.v.v;
		in.ntov = tacc.v.n;
		in.lin_a = ra->lineage;
		in.next_lineage = ra->next_lineage;
		if ((rc = mev__track_pair(&in, p, &po)))
			goto done;
		memcpy(rb->lineage, po.lin_b, nb * sizeof *rb->lineage);
		memcpy(rb->parent, po.par_b, nb * sizeof *rb->parent);
		rb->next_lineage = po.next_lineage;
		if ((rc = encode_events(ev_val, ra, rb, p, code ? MODE_CODE : MODE_TITLES, &po)))
			goto done;
		if (code)
			res->by_code++;
		else
			res->by_title++;
	}
	if (want_changes) {
		if ((rc = section_changes(ra, rb, code ? sp.v : NULL, sp.n, p, &ch)))
			goto done;
		rc = encode_changes(ch_val, ra, rb, p, ch.v, ch.n);
	}
done:
	mev__pair_out_free(&po);
	ov_free(&acc);
	ov_free(&tacc);
	MEV_VEC_FREE(&sp);
	MEV_VEC_FREE(&tp);
	MEV_VEC_FREE(&ch);
	free(ca);
	free(cb);
	free(ta);
	free(tb);
	return rc;
}

/* Drop stored records (under prefix) for releases no longer in the chain. */
typedef struct {
	MEV_VEC(char *) keys;
	size_t plen;
	const mev_strmap *chain;
} stale_ctx;

static int stale_cb(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	stale_ctx *sc = c;
	const char *tag = (const char *)key + sc->plen;
	size_t tl = klen - sc->plen;
	(void)data;
	(void)len;
	if (mev_strmap_get(sc->chain, tag, tl) >= 0)
		return 0;
	{
		char *k = malloc(klen + 1);
		if (!k)
			return mev_error_oom();
		memcpy(k, key, klen);
		k[klen] = '\0';
		if (MEV_VEC_PUSH(&sc->keys, k)) {
			free(k);
			return mev_error_oom();
		}
	}
	return 0;
}

static int drop_stale(mev_store *s, const char *table, const mev_buf *prefix, const mev_strmap *chain)
{
	stale_ctx sc = { { 0 }, prefix->len, chain };
	int rc = mev_store_scan(s, table, prefix->ptr, prefix->len, stale_cb, &sc);
	if (!rc && sc.keys.n) {
		if (!(rc = mev_store_begin(s))) {
			for (size_t i = 0; i < sc.keys.n && !rc; i++) {
				size_t kl = prefix->len + strlen(sc.keys.v[i] + prefix->len);
				rc = mev_store_delete_value(s, table, sc.keys.v[i], kl);
			}
			if (rc)
				mev_store_abort(s);
			else
				rc = mev_store_commit(s);
		}
	}
	for (size_t i = 0; i < sc.keys.n; i++)
		free(sc.keys.v[i]);
	MEV_VEC_FREE(&sc.keys);
	return rc;
}

/* Lineages record (table "lineages", key "<parameter key>"): uv n, per
 * lineage uv id, str name, str first, str last, uv parent, uv peak, uv
 * releases. */
typedef struct {
	char *name;
	const char *first, *last;
	uint32_t parent, releases;
	uint64_t peak;
} lin_acc;

static int write_lineages(mev_store *s, const mev_cluster_params *cp, size_t n,
			  const mev_release *const *chain, mev_track_result *res)
{
	MEV_VEC(lin_acc) v = { 0 };
	mev_buf k = MEV_BUF_INIT, val = MEV_BUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		void *data = NULL;
		size_t len = 0;
		mev_rd r;
		ev_head h;
		uint64_t ncl;
		if ((rc = events_key(&k, cp, chain[i]->tag)) ||
		    (rc = mev_store_get_value(s, "events", k.ptr, k.len, &data, &len)))
			break;
		mev_rd_init(&r, data, len);
		if (get_head(&r, &h, 3))
			r.bad = 1;
		(void)mev_get_uv(&r);
		(void)mev_get_uv(&r);
		ncl = mev_get_uv(&r);
		for (uint64_t c = 0; c < ncl && !r.bad && !rc; c++) {
			uint32_t id = (uint32_t)mev_get_uv(&r), parent = (uint32_t)mev_get_uv(&r);
			uint64_t lines = mev_get_uv(&r);
			size_t l;
			const char *rep = mev_get_str(&r, &l);
			lin_acc *a;
			if (r.bad || !id || id > v.n + ncl + 1) {
				r.bad = 1;
				break;
			}
			while (v.n < id && !rc) {
				lin_acc z = { NULL, NULL, NULL, 0, 0, 0 };
				if (MEV_VEC_PUSH(&v, z))
					rc = mev_error_oom();
			}
			if (rc)
				break;
			a = &v.v[id - 1];
			if (!a->first) {
				a->first = chain[i]->tag;
				a->parent = parent;
			}
			a->last = chain[i]->tag;
			a->releases++;
			if (lines > a->peak)
				a->peak = lines;
			/* the name: the representative in the lineage's last release */
			free(a->name);
			if (!(a->name = strndup(rep, l)))
				rc = mev_error_oom();
		}
		free(data);
		if (r.bad && !rc)
			rc = mev_error_set(MEV_ECORRUPT, "the events of '%s' are damaged", chain[i]->tag);
	}
	if (rc)
		goto done;
	rc |= mev_put_uv(&val, REC_VERSION);
	rc |= mev_put_uv(&val, v.n);
	for (size_t i = 0; i < v.n && !rc; i++) {
		const lin_acc *a = &v.v[i];
		rc |= mev_put_uv(&val, i + 1);
		rc |= mev_put_cstr(&val, a->name ? a->name : "");
		rc |= mev_put_cstr(&val, a->first ? a->first : "");
		rc |= mev_put_cstr(&val, a->last ? a->last : "");
		rc |= mev_put_uv(&val, a->parent);
		rc |= mev_put_uv(&val, a->peak);
		rc |= mev_put_uv(&val, a->releases);
	}
	if (rc) {
		rc = mev_error_oom();
		goto done;
	}
	if ((rc = events_key(&k, cp, NULL)))
		goto done;
	k.len--; /* the key is the parameter key alone, without the NUL */
	rc = put_value(s, "lineages", &k, &val);
	res->lineages = v.n;
done:
	for (size_t i = 0; i < v.n; i++)
		free(v.v[i].name);
	MEV_VEC_FREE(&v);
	mev_buf_free(&k);
	mev_buf_free(&val);
	return rc;
}

/* Count the events and changes stored for the chain (for the summary). */
static int count_events(mev_store *s, const mev_cluster_params *cp, mev_track_result *res)
{
	mev_event_list ev = { 0 };
	mev_section_change_list sc = { 0 };
	int rc = mev_track_events(s, cp, NULL, NULL, &ev);
	if (!rc)
		for (size_t i = 0; i < ev.n; i++)
			res->events[ev.v[i].kind]++;
	if (!rc && !(rc = mev_track_section_changes(s, NULL, NULL, &sc)))
		for (size_t i = 0; i < sc.n; i++)
			res->section_changes[sc.v[i].kind]++;
	mev_event_list_free(&ev);
	mev_section_change_list_free(&sc);
	return rc;
}

int mev_track_store(mev_store *s, const mev_cluster_params *cp, const mev_track_params *tp,
		    const mev_track_options *o, mev_track_result *res)
{
	mev_cluster_options co = { 0 };
	mev_release *list = NULL;
	const mev_release **chain = NULL;
	size_t n = 0, nchain = 0;
	rel prev = { 0 }, cur = { 0 };
	int have_prev = 0, dirty_ev = 0, dirty_ch = 0, rc;
	mev_buf k = MEV_BUF_INIT, ev_val = MEV_BUF_INIT, ch_val = MEV_BUF_INIT;
	mev_strmap in_chain = MEV_STRMAP_INIT;
	uint64_t params[3] = { dbits(tp->link), dbits(tp->match), dbits(tp->growth) };
	uint64_t rparams[1] = { dbits(tp->rename) };
	double t0 = now();

	memset(res, 0, sizeof *res);
	if ((rc = mev_cluster_params_check(cp)) || (rc = mev_track_params_check(tp)))
		return rc;
	if (o) {
		co.jobs = o->jobs;
		co.stop = o->stop;
	}
	if ((rc = mev_cluster_store(s, cp, &co, &res->cluster)))
		return rc;
	res->cluster_seconds = now() - t0;
	if ((rc = mev_store_releases(s, &list, &n)))
		return rc;
	if (!(chain = calloc(n + 1, sizeof *chain))) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		if (list[i].sections > 0) {
			chain[nchain++] = &list[i];
			if (mev_strmap_put(&in_chain, list[i].tag, strlen(list[i].tag), 1)) {
				rc = mev_error_oom();
				goto done;
			}
		}
	res->releases = nchain;
	for (size_t i = 0; i < nchain; i++) {
		void *evd = NULL, *chd = NULL;
		size_t evl = 0, chl = 0;
		int ev_ok, ch_ok;
		if (o && o->stop && *o->stop) {
			rc = mev_error_set(MEV_EINTR, "interrupted");
			goto done;
		}
		if ((rc = rel_load(&cur, s, chain[i], cp)))
			goto done;
		if ((rc = events_key(&k, cp, cur.tag)))
			goto done;
		ev_ok = !dirty_ev && fresh(s, "events", &k, have_prev ? prev.tag : "", have_prev ? prev.cl_fp : 0,
					   cur.cl_fp, params, 3, &evd, &evl);
		if (ev_ok && decode_clusters(&cur, evd, evl))
			ev_ok = 0;
		free(evd);
		ch_ok = 1;
		if (have_prev) {
			mev_buf ck = MEV_BUF_INIT;
			if ((rc = sections_key(&ck, cur.tag))) {
				mev_buf_free(&ck);
				goto done;
			}
			ch_ok = !dirty_ch && fresh(s, "events", &ck, prev.tag, prev.rel_fp, cur.rel_fp, rparams, 1,
						   &chd, &chl);
			free(chd);
			mev_buf_free(&ck);
		}
		if (ev_ok && ch_ok) {
			res->kept++;
		} else {
			if (o && o->progress)
				o->progress(o->ctx, i + 1, nchain, cur.tag);
			mev_buf_clear(&ev_val);
			mev_buf_clear(&ch_val);
			if ((rc = compute_pair(s, have_prev ? &prev : NULL, &cur, tp, !ev_ok, !ch_ok, res, &ev_val,
					       &ch_val)))
				goto done;
			if (!ev_ok) {
				dirty_ev = 1;
				if ((rc = put_value(s, "events", &k, &ev_val)))
					goto done;
			}
			if (!ch_ok && have_prev) {
				dirty_ch = 1;
				if ((rc = sections_key(&k, cur.tag)) || (rc = put_value(s, "events", &k, &ch_val)))
					goto done;
			}
			res->tracked++;
		}
		if (have_prev)
			rel_clear(&prev);
		prev = cur;
		memset(&cur, 0, sizeof cur);
		have_prev = 1;
	}
	/* records of releases no longer tracked go */
	if ((rc = events_key(&k, cp, NULL)) || (rc = drop_stale(s, "events", &k, &in_chain)) ||
	    (rc = sections_key(&k, NULL)) || (rc = drop_stale(s, "events", &k, &in_chain)))
		goto done;
	if ((rc = write_lineages(s, cp, nchain, chain, res)))
		goto done;
	rc = count_events(s, cp, res);
	if (rc == MEV_ENOTFOUND && !nchain) {
		mev_error_clear();
		rc = 0;
	}
done:
	res->seconds = now() - t0;
	if (have_prev)
		rel_clear(&prev);
	rel_clear(&cur);
	mev_strmap_free(&in_chain);
	mev_buf_free(&k);
	mev_buf_free(&ev_val);
	mev_buf_free(&ch_val);
	free(chain);
	mev_release_list_free(list, n);
	return rc;
}

/* --- reading back ----------------------------------------------------------- */

typedef struct {
	char *to;
	void *data;
	size_t len;
} rec;

typedef struct {
	MEV_VEC(rec) v;
	size_t plen;
} rec_ctx;

static int rec_cb(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	rec_ctx *rc = c;
	rec r;
	r.to = strndup((const char *)key + rc->plen, klen - rc->plen);
	r.data = malloc(len + 1);
	r.len = len;
	if (!r.to || !r.data) {
		free(r.to);
		free(r.data);
		return mev_error_oom();
	}
	memcpy(r.data, data, len);
	if (MEV_VEC_PUSH(&rc->v, r)) {
		free(r.to);
		free(r.data);
		return mev_error_oom();
	}
	return 0;
}

static int rec_cmp(const void *x, const void *y)
{
	return mev_tag_cmp(((const rec *)x)->to, ((const rec *)y)->to);
}

static void recs_free(rec_ctx *rc)
{
	for (size_t i = 0; i < rc->v.n; i++) {
		free(rc->v.v[i].to);
		free(rc->v.v[i].data);
	}
	MEV_VEC_FREE(&rc->v);
}

/* All records under a prefix, in release order, checked to form a chain. */
static int read_chain(mev_store *s, const mev_buf *prefix, size_t nparams, const char *what,
		      const char *key, rec_ctx *out)
{
	int rc;
	memset(out, 0, sizeof *out);
	out->plen = prefix->len;
	if ((rc = mev_store_scan(s, "events", prefix->ptr, prefix->len, rec_cb, out)))
		return rc;
	if (!out->v.n) {
		mev_error_set(MEV_ENOTFOUND, "store '%s' has no %s%s%s", mev_store_dir(s), what,
			      key ? " for " : "", key ? key : "");
		mev_error_hint("run 'maintevo track --store %s'%s first", mev_store_dir(s),
			       key ? " with the same clustering options" : "");
		return MEV_ENOTFOUND;
	}
	qsort(out->v.v, out->v.n, sizeof *out->v.v, rec_cmp);
	for (size_t i = 0; i < out->v.n; i++) {
		mev_rd r;
		ev_head h;
		mev_rd_init(&r, out->v.v[i].data, out->v.v[i].len);
		if (get_head(&r, &h, nparams))
			return mev_error_set(MEV_ECORRUPT, "the %s of '%s' are damaged", what, out->v.v[i].to);
		/* the first events record starts the chain; change records link pairs */
		if (i ? strcmp(h.from, out->v.v[i - 1].to) != 0
		      : (nparams == 3 && h.from[0] != '\0')) {
			mev_error_set(MEV_ENOTFOUND, "the %s in store '%s' are out of date (releases were "
				      "added or walked again since)", what, mev_store_dir(s));
			mev_error_hint("run 'maintevo track --store %s'%s again", mev_store_dir(s),
				       key ? " with the same clustering options" : "");
			return MEV_ENOTFOUND;
		}
	}
	return 0;
}

static int in_range(const char *from, const char *to, const char *lo, const char *hi)
{
	return (!lo || mev_tag_cmp(from, lo) >= 0) && (!hi || mev_tag_cmp(to, hi) <= 0);
}

void mev_event_list_free(mev_event_list *l)
{
	if (l->mem_) {
		mev_arena_free(l->mem_);
		free(l->mem_);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

void mev_lineage_list_free(mev_lineage_list *l)
{
	if (l->mem_) {
		mev_arena_free(l->mem_);
		free(l->mem_);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

void mev_section_change_list_free(mev_section_change_list *l)
{
	if (l->mem_) {
		mev_arena_free(l->mem_);
		free(l->mem_);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

static const char *arena_str(mev_arena *a, const char *s, size_t l, int *bad)
{
	char *p = mev_arena_strndup(a, s, l);
	if (!p)
		*bad = 1;
	return p ? p : "";
}

int mev_track_events(mev_store *s, const mev_cluster_params *cp, const char *from, const char *to,
		     mev_event_list *out)
{
	mev_buf prefix = MEV_BUF_INIT;
	rec_ctx rc_ = { { 0 }, 0 };
	MEV_VEC(mev_event) v = { 0 };
	mev_arena *arena = calloc(1, sizeof *arena);
	char pk[128];
	int rc, oom = 0;

	memset(out, 0, sizeof *out);
	mev_cluster_key(cp, pk, sizeof pk);
	if (!arena)
		return mev_error_oom();
	if ((rc = events_key(&prefix, cp, NULL)) || (rc = read_chain(s, &prefix, 3, "events", pk, &rc_)))
		goto done;
	for (size_t i = 0; i < rc_.v.n && !rc; i++) {
		mev_rd r;
		ev_head h;
		uint64_t ncl, nev;
		const char *tto, *tfrom;
		mev_rd_init(&r, rc_.v.v[i].data, rc_.v.v[i].len);
		get_head(&r, &h, 3);
		if (!h.from[0] || !in_range(h.from, rc_.v.v[i].to, from, to))
			continue;
		tfrom = arena_str(arena, h.from, strlen(h.from), &oom);
		tto = arena_str(arena, rc_.v.v[i].to, strlen(rc_.v.v[i].to), &oom);
		(void)mev_get_uv(&r);
		(void)mev_get_uv(&r);
		ncl = mev_get_uv(&r);
		for (uint64_t c = 0; c < ncl && !r.bad; c++) {
			size_t l;
			mev_get_uv(&r);
			mev_get_uv(&r);
			mev_get_uv(&r);
			mev_get_str(&r, &l);
		}
		nev = mev_get_uv(&r);
		for (uint64_t e = 0; e < nev && !r.bad; e++) {
			mev_event ev;
			size_t l;
			const char *p;
			uint64_t fl, tl;
			ev.from_release = tfrom;
			ev.to_release = tto;
			ev.kind = (mev_event_kind)mev_get_uv(&r);
			(void)mev_get_uv(&r);
			(void)mev_get_uv(&r);
			ev.similarity = bitsd(mev_get_uv(&r));
			fl = mev_get_uv(&r);
			tl = mev_get_uv(&r);
			ev.from_lines = fl ? (int64_t)(fl - 1) : -1;
			ev.to_lines = tl ? (int64_t)(tl - 1) : -1;
			ev.lineage = (uint32_t)mev_get_uv(&r);
			p = mev_get_str(&r, &l);
			ev.from_cluster = arena_str(arena, p, l, &oom);
			p = mev_get_str(&r, &l);
			ev.to_cluster = arena_str(arena, p, l, &oom);
			if ((unsigned)ev.kind >= MEV_EVENT_KINDS)
				r.bad = 1;
			if (!r.bad && MEV_VEC_PUSH(&v, ev))
				oom = 1;
		}
		if (r.bad)
			rc = mev_error_set(MEV_ECORRUPT, "the events of '%s' are damaged", rc_.v.v[i].to);
		else if (oom)
			rc = mev_error_oom();
	}
done:
	recs_free(&rc_);
	mev_buf_free(&prefix);
	if (rc) {
		MEV_VEC_FREE(&v);
		mev_arena_free(arena);
		free(arena);
		return rc;
	}
	out->v = v.v;
	out->n = v.n;
	out->mem_ = arena;
	return 0;
}

int mev_track_lineages(mev_store *s, const mev_cluster_params *cp, mev_lineage_list *out)
{
	mev_buf k = MEV_BUF_INIT;
	void *data = NULL;
	size_t len = 0;
	mev_arena *arena = calloc(1, sizeof *arena);
	char pk[128];
	mev_rd r;
	uint64_t n;
	int rc, oom = 0;

	memset(out, 0, sizeof *out);
	mev_cluster_key(cp, pk, sizeof pk);
	if (!arena)
		return mev_error_oom();
	if ((rc = events_key(&k, cp, NULL)))
		goto done;
	k.len--;
	rc = mev_store_get_value(s, "lineages", k.ptr, k.len, &data, &len);
	if (rc == MEV_ENOTFOUND) {
		mev_error_set(MEV_ENOTFOUND, "store '%s' has no lineages for %s", mev_store_dir(s), pk);
		mev_error_hint("run 'maintevo track --store %s' with the same clustering options first",
			       mev_store_dir(s));
	}
	if (rc)
		goto done;
	mev_rd_init(&r, data, len);
	if (mev_get_uv(&r) != REC_VERSION) {
		rc = mev_error_set(MEV_ECORRUPT, "the lineages of %s are of an unknown version", pk);
		goto done;
	}
	n = mev_get_uv(&r);
	if (r.bad || n > len) {
		rc = mev_error_set(MEV_ECORRUPT, "the lineages of %s are damaged", pk);
		goto done;
	}
	out->v = calloc(n + 1, sizeof *out->v);
	if (!out->v) {
		rc = mev_error_oom();
		goto done;
	}
	for (uint64_t i = 0; i < n && !r.bad; i++) {
		mev_lineage *l = &out->v[i];
		size_t sl;
		const char *p;
		l->id = (uint32_t)mev_get_uv(&r);
		p = mev_get_str(&r, &sl);
		l->name = arena_str(arena, p, sl, &oom);
		p = mev_get_str(&r, &sl);
		l->first_release = arena_str(arena, p, sl, &oom);
		p = mev_get_str(&r, &sl);
		l->last_release = arena_str(arena, p, sl, &oom);
		l->parent = (uint32_t)mev_get_uv(&r);
		l->peak_lines = mev_get_uv(&r);
		l->releases = (uint32_t)mev_get_uv(&r);
	}
	out->n = (size_t)n;
	if (r.bad)
		rc = mev_error_set(MEV_ECORRUPT, "the lineages of %s are damaged", pk);
	else if (oom)
		rc = mev_error_oom();
done:
	free(data);
	mev_buf_free(&k);
	out->mem_ = arena;
	if (rc)
		mev_lineage_list_free(out);
	return rc;
}

int mev_track_section_changes(mev_store *s, const char *from, const char *to,
			      mev_section_change_list *out)
{
	mev_buf prefix = MEV_BUF_INIT;
	rec_ctx rc_ = { { 0 }, 0 };
	MEV_VEC(mev_section_change) v = { 0 };
	mev_arena *arena = calloc(1, sizeof *arena);
	int rc, oom = 0;

	memset(out, 0, sizeof *out);
	if (!arena)
		return mev_error_oom();
	if ((rc = sections_key(&prefix, NULL)) ||
	    (rc = read_chain(s, &prefix, 1, "section changes", NULL, &rc_)))
		goto done;
	for (size_t i = 0; i < rc_.v.n && !rc; i++) {
		mev_rd r;
		ev_head h;
		uint64_t n;
		const char *tfrom, *tto;
		mev_rd_init(&r, rc_.v.v[i].data, rc_.v.v[i].len);
		get_head(&r, &h, 1);
		if (!in_range(h.from, rc_.v.v[i].to, from, to))
			continue;
		tfrom = arena_str(arena, h.from, strlen(h.from), &oom);
		tto = arena_str(arena, rc_.v.v[i].to, strlen(rc_.v.v[i].to), &oom);
		n = mev_get_uv(&r);
		for (uint64_t k = 0; k < n && !r.bad; k++) {
			mev_section_change c;
			size_t l;
			const char *p;
			c.from_release = tfrom;
			c.to_release = tto;
			c.kind = (mev_section_change_kind)mev_get_uv(&r);
			p = mev_get_str(&r, &l);
			c.section = arena_str(arena, p, l, &oom);
			p = mev_get_str(&r, &l);
			c.new_section = arena_str(arena, p, l, &oom);
			c.lines = mev_get_uv(&r);
			c.coverage = bitsd(mev_get_uv(&r));
			if ((unsigned)c.kind > MEV_SECTION_RENAMED)
				r.bad = 1;
			if (!r.bad && MEV_VEC_PUSH(&v, c))
				oom = 1;
		}
		if (r.bad)
			rc = mev_error_set(MEV_ECORRUPT, "the section changes of '%s' are damaged", rc_.v.v[i].to);
		else if (oom)
			rc = mev_error_oom();
	}
done:
	recs_free(&rc_);
	mev_buf_free(&prefix);
	if (rc) {
		MEV_VEC_FREE(&v);
		mev_arena_free(arena);
		free(arena);
		return rc;
	}
	out->v = v.v;
	out->n = v.n;
	out->mem_ = arena;
	return 0;
}
