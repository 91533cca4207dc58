/*
 * What two releases' clusters have in common: each cluster's size, and the
 * weight of the items (files by path, else section titles) both cover.
 */
#include "track_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

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
static int cluster_lines_from_files(mev__track_rel *r)
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
static int cluster_lines_from_sections(mev__track_rel *r)
{
	size_t k = mev_clustering_count(r->cl);
	free(r->cl_lines);
	if (!(r->cl_lines = calloc(k + 1, sizeof *r->cl_lines)))
		return mev_error_oom();
	for (uint32_t c = 0; c < k; c++)
		r->cl_lines[c] = mev_clustering_lines(r->cl, c);
	return 0;
}

int mev__cluster_lines(mev__track_rel *r)
{
	return r->has_files ? cluster_lines_from_files(r) : cluster_lines_from_sections(r);
}

int mev__overlap_sums_add(mev__overlap_sums *acc, uint32_t a, uint32_t b, double w, double wo, double wn)
{
	uint32_t key[2] = { a, b }, e;
	int added;
	if (mev__strmap_intern(&acc->idx, (const char *)key, sizeof key, (uint32_t)acc->v.n, &e, &added))
		return mev_error_oom();
	if (added) {
		mev__overlap o = { a, b, 0, 0, 0 };
		if (MEV_VEC_PUSH(&acc->v, o))
			return mev_error_oom();
	}
	acc->v.v[e].w += w;
	acc->v.v[e].wo += wo;
	acc->v.v[e].wn += wn;
	return 0;
}

void mev__overlap_sums_free(mev__overlap_sums *acc)
{
	mev__strmap_free(&acc->idx);
	MEV_VEC_FREE(&acc->v);
}

static int path_cmp(const mev_file_row *x, const mev_file_row *y)
{
	size_t m = x->path_len < y->path_len ? x->path_len : y->path_len;
	int c = memcmp(x->path, y->path, m);
	return c ? c : x->path_len < y->path_len ? -1 : x->path_len > y->path_len;
}

int mev__set_pairs(mev__set_pair_vec *out, const mev__track_rel *ra, const mev__track_rel *rb)
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
		if (mev__strmap_intern(&idx, (const char *)key, sizeof key, (uint32_t)out->n, &e, &added)) {
			rc = mev_error_oom();
			break;
		}
		if (added) {
			mev__set_pair p = { key[0], key[1], 0, 0, 0 };
			if (MEV_VEC_PUSH(out, p)) {
				rc = mev_error_oom();
				break;
			}
		}
		out->v[e].w += ((double)xa[i].lines + (double)xb[j].lines) / 2;
		out->v[e].old_lines += xa[i].lines;
		out->v[e].new_lines += xb[j].lines;
		i++;
		j++;
	}
	mev__strmap_free(&idx);
	return rc;
}

/* Overlaps on code: every common file adds its weight to each pair of
 * clusters covering it in the two releases. */
int mev__overlaps_code(mev__overlap_sums *acc, double *ca, double *cb, const mev__track_rel *ra,
		       const mev__track_rel *rb, const mev__set_pair *sp, size_t nsp)
{
	set_clusters sa = { 0 }, sb = { 0 };
	int rc;
	if ((rc = set_clusters_build(&sa, ra->fm, ra->cl)) || (rc = set_clusters_build(&sb, rb->fm, rb->cl)))
		goto done;
	for (size_t k = 0; k < nsp && !rc; k++) {
		const mev__set_pair *p = &sp[k];
		for (uint32_t x = sa.off[p->sa]; x < sa.off[p->sa + 1]; x++)
			ca[sa.ids[x]] += p->w;
		for (uint32_t y = sb.off[p->sb]; y < sb.off[p->sb + 1]; y++)
			cb[sb.ids[y]] += p->w;
		for (uint32_t x = sa.off[p->sa]; x < sa.off[p->sa + 1] && !rc; x++)
			for (uint32_t y = sb.off[p->sb]; y < sb.off[p->sb + 1] && !rc; y++)
				rc = mev__overlap_sums_add(acc, sa.ids[x], sb.ids[y], p->w, (double)p->old_lines,
						 (double)p->new_lines);
	}
done:
	set_clusters_free(&sa);
	set_clusters_free(&sb);
	return rc;
}

int mev__common_titles(mev__title_pair_vec *out, const mev__track_rel *ra, const mev__track_rel *rb)
{
	const mev_section_info *sa = mev_filemap_sections(ra->sec), *sb = mev_filemap_sections(rb->sec);
	size_t na = mev_filemap_section_count(ra->sec), nb = mev_filemap_section_count(rb->sec);
	mev_strmap idx = MEV_STRMAP_INIT;
	int rc = 0;
	for (size_t i = 0; i < nb && !rc; i++)
		if (!sb[i].is_rest && mev__strmap_put(&idx, sb[i].title, strlen(sb[i].title), (uint32_t)i))
			rc = mev_error_oom();
	for (size_t i = 0; i < na && !rc; i++) {
		int64_t j;
		if (sa[i].is_rest || (j = mev__strmap_get(&idx, sa[i].title, strlen(sa[i].title))) < 0)
			continue;
		{
			mev__title_pair t = { (uint32_t)i, (uint32_t)j };
			if (MEV_VEC_PUSH(out, t))
				rc = mev_error_oom();
		}
	}
	mev__strmap_free(&idx);
	return rc;
}

/* Overlaps on titles: weighted by the mean of the sections' lines, or by 1. */
int mev__overlaps_titles(mev__overlap_sums *acc, double *ca, double *cb, const mev__track_rel *ra,
			 const mev__track_rel *rb, const mev__title_pair *tp, size_t ntp, int by_lines)
{
	int rc = 0;
	for (size_t k = 0; k < ntp && !rc; k++) {
		uint32_t a = mev_clustering_of(ra->cl, tp[k].a), b = mev_clustering_of(rb->cl, tp[k].b);
		double wo = (double)mev_clustering_section_lines(ra->cl, tp[k].a);
		double wn = (double)mev_clustering_section_lines(rb->cl, tp[k].b);
		double w = by_lines ? (wo + wn) / 2 : 1.0;
		if (a != MEV_CLUSTER_NONE)
			ca[a] += w;
		if (b != MEV_CLUSTER_NONE)
			cb[b] += w;
		if (a != MEV_CLUSTER_NONE && b != MEV_CLUSTER_NONE)
			rc = mev__overlap_sums_add(acc, a, b, w, wo, wn);
	}
	return rc;
}

int mev__pair_link(mev__pair_out *po, const mev__track_rel *ra, const mev__track_rel *rb,
		   const mev__set_pair_vec *sp, int code, const mev_track_params *tp)
{
	size_t na = mev_clustering_count(ra->cl), nb = mev_clustering_count(rb->cl);
	double *ca = calloc(na + 1, sizeof *ca), *cb = calloc(nb + 1, sizeof *cb);
	double *ta = calloc(na + 1, sizeof *ta), *tb = calloc(nb + 1, sizeof *tb);
	mev__overlap_sums acc = MEV__OVERLAP_SUMS_INIT, tacc = MEV__OVERLAP_SUMS_INIT;
	mev__title_pair_vec tpv = { 0 };
	int rc;

	memset(po, 0, sizeof *po);
	if (!ca || !cb || !ta || !tb) {
		rc = mev_error_oom();
		goto done;
	}
	if ((rc = mev__common_titles(&tpv, ra, rb)))
		goto done;
	if (code)
		rc = mev__overlaps_code(&acc, ca, cb, ra, rb, sp->v, sp->n);
	else
		rc = mev__overlaps_titles(&acc, ca, cb, ra, rb, tpv.v, tpv.n, 1);
	if (rc || (rc = mev__overlaps_titles(&tacc, ta, tb, ra, rb, tpv.v, tpv.n, 0)))
		goto done;
	{
		mev__pair_in in = { na, nb, ca, cb, ra->cl_lines, rb->cl_lines, ra->reps, rb->reps,
				    acc.v.v, acc.v.n, ta, tb, tacc.v.v, tacc.v.n, ra->lineage,
				    ra->next_lineage };
		rc = mev__track_pair(po, &in, tp);
	}
done:
	mev__overlap_sums_free(&acc);
	mev__overlap_sums_free(&tacc);
	MEV_VEC_FREE(&tpv);
	free(ca);
	free(cb);
	free(ta);
	free(tb);
	return rc;
}
