/*
 * Why an event happened (docs/tracking.md, "Causes"), from the store alone:
 * the MAINTAINERS changes of the sections of the clusters involved
 * (sections added, removed, renamed; F:/X:/N: lines added or removed) and
 * the code that appeared in them, vanished from them, moved between them
 * or changed size.  Neither: the clustering alone changed.
 *
 * The sections involved: those of a growth's or contraction's two clusters;
 * those of a born cluster (and the same sections in the older release), or
 * of a dead one; for a split or merge, the sections where its parts meet
 * (the parts: a split's successors, a merge's predecessors; a section is
 * at their border when it shares code with a section of another part in
 * either release), and sections added to or removed from the parts.
 * The code involved: the files those sections cover in either release.
 */
#include "cause_internal.h"
#include "maintevo/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE MEV__CAUSE_ABSENT

/* --- sections of the two releases ----------------------------------------------- */

/* The section of each change in both releases (NONE: absent). */
static int change_sections(mev__cause_pair *p, const mev_strmap *ta, const mev_strmap *tb)
{
	const mev__cause_in *in = p->in;
	p->ch_a = malloc((in->nch + 1) * sizeof *p->ch_a);
	p->ch_b = malloc((in->nch + 1) * sizeof *p->ch_b);
	if (!p->ch_a || !p->ch_b)
		return mev_error_oom();
	for (size_t k = 0; k < in->nch; k++) {
		const mev__change *x = &in->ch[k];
		int64_t i = x->kind == MEV_SECTION_ADDED ? -1 : mev__strmap_get(ta, x->section, strlen(x->section));
		int64_t j = -1;
		if (x->kind == MEV_SECTION_ADDED)
			j = mev__strmap_get(tb, x->section, strlen(x->section));
		else if (x->kind == MEV_SECTION_RENAMED)
			j = mev__strmap_get(tb, x->new_section, strlen(x->new_section));
		p->ch_a[k] = i < 0 ? NONE : (uint32_t)i;
		p->ch_b[k] = j < 0 ? NONE : (uint32_t)j;
	}
	return 0;
}

/* Titles to indices of a release's sections. */
static int title_index(mev_strmap *m, const mev__track_rel *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *t = mev__cause_title(r, (uint32_t)i);
		if (mev__strmap_put(m, t, strlen(t), (uint32_t)i))
			return mev_error_oom();
	}
	return 0;
}

/* a2b and b2a: the same title, or the new title of a renamed section. */
static int section_maps(mev__cause_pair *p)
{
	const mev__cause_in *in = p->in;
	int rc;
	p->nsa = mev_filemap_section_count(in->ra->sec);
	p->nsb = mev_filemap_section_count(in->rb->sec);
	p->a2b = malloc((p->nsa + 1) * sizeof *p->a2b);
	p->b2a = malloc((p->nsb + 1) * sizeof *p->b2a);
	if (!p->a2b || !p->b2a)
		return mev_error_oom();
	if ((rc = title_index(&p->ta, in->ra, p->nsa)) || (rc = title_index(&p->tb, in->rb, p->nsb)) ||
	    (rc = change_sections(p, &p->ta, &p->tb)))
		return rc;
	for (size_t j = 0; j < p->nsb; j++)
		p->b2a[j] = NONE;
	for (size_t i = 0; i < p->nsa; i++) {
		const char *t = mev__cause_title(in->ra, (uint32_t)i);
		int64_t j = mev__strmap_get(&p->tb, t, strlen(t));
		p->a2b[i] = j < 0 ? NONE : (uint32_t)j;
	}
	for (size_t k = 0; k < in->nch; k++)
		if (in->ch[k].kind == MEV_SECTION_RENAMED && p->ch_a[k] != NONE)
			p->a2b[p->ch_a[k]] = p->ch_b[k];
	for (size_t i = 0; i < p->nsa; i++)
		if (p->a2b[i] != NONE)
			p->b2a[p->a2b[i]] = (uint32_t)i;
	return 0;
}

/* The base of a repeated title: "X #2" -> length of "X". */
static size_t base_len(const char *t)
{
	size_t n = strlen(t), k = n;
	while (k > 0 && t[k - 1] >= '0' && t[k - 1] <= '9')
		k--;
	return k < n && k >= 2 && t[k - 1] == '#' && t[k - 2] == ' ' ? k - 2 : n;
}

typedef struct {
	uint32_t a, b;
	uint64_t lines;
} alias_pair;

typedef MEV_VEC(alias_pair) alias_vec;

static int alias_cmp(const void *x, const void *y)
{
	const alias_pair *p = x, *q = y;
	if (p->lines != q->lines)
		return p->lines > q->lines ? -1 : 1;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/* Old and new sections of one family (same base title) covering the same
 * file, with its lines, into *v; or (relink 0) mark in kept the old
 * sections whose mapped section still covers one of their files.  Per
 * file, the time of its two sets (inb marks the newer set), not of their
 * product: 5,000 sections over the same files are 5,000 marks a file. */
static int join_files(mev__cause_pair *p, uint8_t *kept, alias_vec *v, int relink)
{
	const mev_filemap *fa = p->in->ra->fm, *fb = p->in->rb->fm;
	const mev_file_row *xa = mev_filemap_rows(fa), *xb = mev_filemap_rows(fb);
	size_t na = mev_filemap_count(fa), nb = mev_filemap_count(fb), i = 0, j = 0;
	uint8_t *inb = relink ? NULL : calloc(p->nsb + 1, 1);
	if (!relink && !inb)
		return mev_error_oom();
	while (i < na && j < nb) {
		int c = mev__cause_path_cmp(&xa[i], &xb[j]);
		const uint32_t *ia, *ib;
		size_t n = c ? 0 : mev_filemap_set(&ia, fa, xa[i].set), m = c ? 0 : mev_filemap_set(&ib, fb, xb[j].set);
		if (!relink) {
			for (size_t l = 0; l < m; l++)
				if (ib[l] < p->nsb)
					inb[ib[l]] = 1;
			for (size_t k = 0; k < n; k++)
				if (ia[k] < p->nsa && p->a2b[ia[k]] != NONE && inb[p->a2b[ia[k]]])
					kept[ia[k]] = 1;
			for (size_t l = 0; l < m; l++)
				if (ib[l] < p->nsb)
					inb[ib[l]] = 0;
		}
		for (size_t k = 0; relink && k < n; k++) {
			const char *ta;
			size_t la;
			if (ia[k] >= p->nsa || p->a2b[ia[k]] != NONE)
				continue;
			ta = mev__cause_title(p->in->ra, ia[k]);
			la = base_len(ta);
			for (size_t l = 0; l < m; l++) {
				const char *tb;
				alias_pair x = { ia[k], ib[l], xa[i].lines + 1 };
				if (ib[l] >= p->nsb || p->b2a[ib[l]] != NONE)
					continue;
				tb = mev__cause_title(p->in->rb, ib[l]);
				if (la == base_len(tb) && !memcmp(ta, tb, la) && MEV_VEC_PUSH(v, x)) {
					free(inb);
					return mev_error_oom();
				}
			}
		}
		i += c <= 0;
		j += c >= 0;
	}
	free(inb);
	return 0;
}

/*
 * A repeated title ("X", "X #2", ...: numbered in reading order) can pass
 * to another section when an earlier one goes.  When the older section
 * with the title covered files and the newer one covers none of them,
 * they are unmapped; then each unmapped older section of a family maps
 * to the unmapped newer one of the family sharing most of its lines (a
 * renumbering, not a change).  Needs the file tables.
 */
static int unalias(mev__cause_pair *p)
{
	alias_vec v = { 0 };
	uint8_t *kept = calloc(p->nsa + 1, 1);
	size_t cut = 0;
	int rc = kept ? join_files(p, kept, &v, 0) : mev_error_oom();
	for (size_t s = 0; !rc && s < p->nsa; s++) {
		uint32_t b = p->a2b[s];
		const char *t = mev__cause_title(p->in->ra, (uint32_t)s);
		char two[512];
		if (b == NONE || kept[s] || !mev_clustering_section_lines(p->in->ra->cl, (uint32_t)s))
			continue;
		if (base_len(t) == strlen(t) && (snprintf(two, sizeof two, "%s #2", t) >= (int)sizeof two ||
						 (mev__strmap_get(&p->ta, two, strlen(two)) < 0 &&
						  mev__strmap_get(&p->tb, two, strlen(two)) < 0)))
			continue;
		p->a2b[s] = p->b2a[b] = NONE;
		cut++;
	}
	if (!rc && cut && !(rc = join_files(p, kept, &v, 1))) {
		qsort(v.v, v.n, sizeof *v.v, alias_cmp);
		for (size_t k = 0; k < v.n; k++)
			if (p->a2b[v.v[k].a] == NONE && p->b2a[v.v[k].b] == NONE) {
				p->a2b[v.v[k].a] = v.v[k].b;
				p->b2a[v.v[k].b] = v.v[k].a;
			}
	}
	free(v.v);
	free(kept);
	return rc;
}

const char *mev__cause_show(const void *ctx, int newer, const char *title)
{
	const mev__cause_pair *p = ctx;
	const mev__track_rel *r = newer ? p->in->rb : p->in->ra;
	int64_t i = mev__strmap_get(newer ? &p->tb : &p->ta, title, strlen(title));
	return i < 0 ? title : mev_filemap_sections(r->sec)[i].display;
}

/* --- pattern changes -------------------------------------------------------------- */

static int line_cmp(const void *x, const void *y)
{
	const mev_pattern_line *a = *(const mev_pattern_line *const *)x;
	const mev_pattern_line *b = *(const mev_pattern_line *const *)y;
	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	return strcmp(a->value, b->value);
}

static int push_pc(mev__cause_pair *p, int added, uint32_t sa, uint32_t sb, const mev_pattern_line *l)
{
	mev__pchange c = { added, sa, sb, l };
	return MEV_VEC_PUSH(&p->pc, c) ? mev_error_oom() : 0;
}

/* The lines of x missing from y (both sorted), pushed as changes. */
static int diff_lines(mev__cause_pair *p, const mev_pattern_line **x, size_t nx, const mev_pattern_line **y,
		      size_t ny, int added, uint32_t sa, uint32_t sb)
{
	size_t i = 0, j = 0;
	int rc = 0;
	while (i < nx && !rc) {
		int c = j < ny ? line_cmp(&x[i], &y[j]) : -1;
		if (c < 0)
			rc = push_pc(p, added, sa, sb, x[i++]);
		else if (c > 0)
			j++;
		else
			i++, j++;
	}
	return rc;
}

/* Lines removed from section sa (ra) and added to sb (rb), as a multiset
 * of (field, value): a line that only moved keeps no change. */
static int diff_section(mev__cause_pair *p, uint32_t sa, uint32_t sb)
{
	const mev_section_patterns *a = sa == NONE ? NULL
				      : mev_release_patterns_find(p->in->pa, mev__cause_title(p->in->ra, sa));
	const mev_section_patterns *b = sb == NONE ? NULL
				      : mev_release_patterns_find(p->in->pb, mev__cause_title(p->in->rb, sb));
	size_t na = a ? a->n : 0, nb = b ? b->n : 0, same = na == nb;
	const mev_pattern_line **x, **y;
	int rc;
	for (size_t k = 0; same && k < na; k++)
		same = a->v[k].type == b->v[k].type && strcmp(a->v[k].value, b->v[k].value) == 0;
	if (same)
		return 0;
	x = malloc((na + 1) * sizeof *x);
	y = malloc((nb + 1) * sizeof *y);
	if (!x || !y) {
		free(x);
		free(y);
		return mev_error_oom();
	}
	for (size_t k = 0; k < na; k++)
		x[k] = &a->v[k];
	for (size_t k = 0; k < nb; k++)
		y[k] = &b->v[k];
	qsort(x, na, sizeof *x, line_cmp);
	qsort(y, nb, sizeof *y, line_cmp);
	rc = diff_lines(p, x, na, y, nb, 0, sa, sb);
	if (!rc)
		rc = diff_lines(p, y, nb, x, na, 1, sa, sb);
	free(x);
	free(y);
	return rc;
}

static int pattern_changes(mev__cause_pair *p)
{
	int rc = 0;
	if (!p->in->pa || !p->in->pb)
		return 0;
	for (size_t j = 0; j < p->nsb && !rc; j++)
		rc = diff_section(p, p->b2a[j], (uint32_t)j);
	for (size_t i = 0; i < p->nsa && !rc; i++)
		if (p->a2b[i] == NONE)
			rc = diff_section(p, (uint32_t)i, NONE);
	return rc;
}

/* --- file changes ----------------------------------------------------------------- */

/* Do the sections of set sa (older release) map onto those of set sb? */
static int same_cover(const mev__cause_pair *p, uint32_t sa, uint32_t sb)
{
	const uint32_t *ia, *ib;
	size_t na = mev_filemap_set(&ia, p->in->ra->fm, sa), nb = mev_filemap_set(&ib, p->in->rb->fm, sb);
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++) {
		uint32_t m = ia[i] < p->nsa ? p->a2b[ia[i]] : NONE;
		size_t j = 0;
		while (j < nb && ib[j] != m)
			j++;
		if (m == NONE || j == nb)
			return 0;
	}
	return 1;
}

/* The key pairing a vanished file with an appeared one: its name (after
 * the last '/'), bytes and lines: a file moved in the tree unchanged. */
static int move_key(mev_buf *k, const mev_file_row *r)
{
	const char *name = r->path + r->path_len;
	while (name > r->path && name[-1] != '/')
		name--;
	uint64_t n[2] = { r->bytes, r->lines };
	mev__buf_clear(k);
	return mev__buf_put(k, n, sizeof n) || mev__buf_put(k, name, r->path_len - (size_t)(name - r->path))
		       ? mev_error_oom()
		       : 0;
}

/* Pair each appeared file with a vanished one of the same key (first come
 * in path order): they become one file that moved. */
static int pair_moves(mev__cause_pair *p)
{
	const mev_file_row *xa = mev_filemap_rows(p->in->ra->fm), *xb = mev_filemap_rows(p->in->rb->fm);
	mev_strmap gone = MEV_STRMAP_INIT;
	mev_buf k = MEV_BUF_INIT;
	size_t w = 0;
	int rc = 0;
	for (size_t i = 0; i < p->fc.n && !rc; i++) {
		const mev__file_change *f = &p->fc.v[i];
		if (f->rb == NONE && f->la > 0 && !(rc = move_key(&k, &xa[f->ra])))
			if (mev__strmap_get(&gone, k.ptr, k.len) < 0 &&
			    mev__strmap_put(&gone, k.ptr, k.len, (uint32_t)i))
				rc = mev_error_oom();
	}
	for (size_t i = 0; i < p->fc.n && !rc; i++) {
		mev__file_change *f = &p->fc.v[i];
		int64_t v;
		if (f->ra != NONE || f->lb == 0 || (rc = move_key(&k, &xb[f->rb])))
			continue;
		if ((v = mev__strmap_get(&gone, k.ptr, k.len)) < 0 || p->fc.v[v].rb != NONE)
			continue;
		/* the vanished entry takes the new row; the appeared one goes */
		p->fc.v[v].rb = f->rb;
		p->fc.v[v].lb = f->lb;
		p->fc.v[v].cov = 1;
		f->rb = NONE;
	}
	for (size_t i = 0; i < p->fc.n; i++)
		if (p->fc.v[i].ra != NONE || p->fc.v[i].rb != NONE)
			p->fc.v[w++] = p->fc.v[i];
	p->fc.n = w;
	mev__strmap_free(&gone);
	mev__buf_free(&k);
	return rc;
}

static int file_changes(mev__cause_pair *p)
{
	const mev_filemap *fa = p->in->ra->fm, *fb = p->in->rb->fm;
	const mev_file_row *xa = mev_filemap_rows(fa), *xb = mev_filemap_rows(fb);
	size_t na = mev_filemap_count(fa), nb = mev_filemap_count(fb), i = 0, j = 0;
	int rc = 0;
	while ((i < na || j < nb) && !rc) {
		int c = i == na ? 1 : j == nb ? -1 : mev__cause_path_cmp(&xa[i], &xb[j]);
		mev__file_change f = { NONE, NONE, 0, 0, 0 };
		if (c <= 0) {
			f.ra = (uint32_t)i++;
			f.la = xa[f.ra].lines;
		}
		if (c >= 0) {
			f.rb = (uint32_t)j++;
			f.lb = xb[f.rb].lines;
		}
		if (!c) {
			f.cov = !same_cover(p, xa[f.ra].set, xb[f.rb].set);
			if (!f.cov && f.la == f.lb)
				continue;
		}
		if (MEV_VEC_PUSH(&p->fc, f))
			rc = mev_error_oom();
	}
	return rc ? rc : pair_moves(p);
}

void mev__causes_free(mev__event_cause *c, size_t n)
{
	for (size_t i = 0; c && i < n; i++) {
		free((void *)c[i].c.v);
		free(c[i].sentence);
	}
	free(c);
}

/* The per-section and per-set arrays of p. */
static int pair_alloc(mev__cause_pair *p)
{
	const mev__cause_in *in = p->in;
	size_t na = mev_clustering_count(in->ra->cl), nb = mev_clustering_count(in->rb->cl);
	p->oa = calloc(na + 1, 1);
	p->nb = calloc(nb + 1, 1);
	p->sa = calloc(p->nsa + 1, 1);
	p->sb = calloc(p->nsb + 1, 1);
	p->wa = calloc(p->nsa + 1, sizeof *p->wa);
	p->wb = calloc(p->nsb + 1, sizeof *p->wb);
	p->part_a = calloc(p->nsa + 1, sizeof *p->part_a);
	p->part_b = calloc(p->nsb + 1, sizeof *p->part_b);
	if (in->code) {
		p->seta = calloc(mev_filemap_set_count(in->ra->fm) + 1, 1);
		p->setb = calloc(mev_filemap_set_count(in->rb->fm) + 1, 1);
	}
	if (!p->oa || !p->nb || !p->sa || !p->sb || !p->wa || !p->wb || !p->part_a || !p->part_b ||
	    (in->code && (!p->seta || !p->setb)))
		return mev_error_oom();
	return 0;
}

static void pair_free(mev__cause_pair *p)
{
	free(p->a2b);
	free(p->b2a);
	free(p->ch_a);
	free(p->ch_b);
	mev__strmap_free(&p->ta);
	mev__strmap_free(&p->tb);
	MEV_VEC_FREE(&p->pc);
	MEV_VEC_FREE(&p->fc);
	free(p->oa);
	free(p->nb);
	free(p->sa);
	free(p->sb);
	free(p->wa);
	free(p->wb);
	free(p->seta);
	free(p->setb);
	free(p->part_a);
	free(p->part_b);
}

int mev__causes(mev__event_cause **out, const mev__cause_in *in)
{
	mev__cause_pair p;
	int rc;
	memset(&p, 0, sizeof p);
	p.in = in;
	if (!(*out = calloc(in->nlinks + 1, sizeof **out)))
		return mev_error_oom();
	if ((rc = section_maps(&p)) || (in->code && (rc = unalias(&p))) || (rc = pair_alloc(&p)) ||
	    (rc = pattern_changes(&p)) ||
	    (in->code && (rc = file_changes(&p))))
		goto done;
	for (size_t i = 0; i < in->nlinks && !rc; i++)
		rc = mev__cause_event(&(*out)[i], &p, &in->links[i]);
done:
	if (rc) {
		mev__causes_free(*out, in->nlinks);
		*out = NULL;
	}
	pair_free(&p);
	return rc;
}
