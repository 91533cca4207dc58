/* The lineage chart's layout: which lineages get a band, their order, where each node, ribbon and label goes. */
#include "chart_internal.h"
#include "maintevo/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 1400.0
#define HEIGHT 760.0
#define LEGEND 250.0
#define FONT 11.0
#define AXIS_FONT 10.0
#define MIN_H 0.8
#define LABEL_MAX 48

double mev__chart_text_width(const char *s, double font)
{
	/* a generous reckoning for the sans-serif faces browsers pick
	 * (DejaVu Sans is among the widest): better a label left out than
	 * two that overlap */
	double w = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		unsigned c = *p;
		if (c < 0x80) {
			w += c >= 'A' && c <= 'Z' ? 0.74 : c >= 'a' && c <= 'z' ? 0.62 :
			     c >= '0' && c <= '9' ? 0.64 : c == ' ' ? 0.33 : 0.5;
			p++;
			continue;
		}
		/* one code point: its lead byte says how long */
		size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
		w += n >= 3 && c >= 0xe1 ? 1.0 : 0.8;
		while (n-- && *p)
			p++;
	}
	return w * font;
}

int mev__chart_boxes_overlap(const mev__chart_box *a, const mev__chart_box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* A label's text: the name, cut at LABEL_MAX code points with an ellipsis. */
void mev__chart_label_text(char *out, size_t size, const char *name)
{
	size_t i = 0, cps = 0;
	while (name[i] && cps < LABEL_MAX && i + 8 < size) {
		size_t n = 1;
		while ((name[i + n] & 0xc0) == 0x80)
			n++;
		i += n;
		cps++;
	}
	memcpy(out, name, i);
	if (name[i])
		memcpy(out + i, "\xe2\x80\xa6", 3), i += 3;
	out[i] = 0;
	/* a label is one line: controls become spaces */
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = ' ';
}

size_t mev__chart_text_fit(char *t, size_t size, const char *tail, double font, double room)
{
	size_t n = strlen(t);
	while (n > 1 && (n + 4 + strlen(tail) > size ||
			 mev__chart_text_width(t, font) + mev__chart_text_width(tail, font) > room)) {
		do
			n--;
		while (n && ((unsigned char)t[n] & 0xc0) == 0x80);
		memcpy(t + n, "\xe2\x80\xa6", 4);
	}
	snprintf(t + strlen(t), size - strlen(t), "%s", tail);
	return n;
}

/* A colour per band, for the lineage's whole life: hues a golden angle
 * apart in band order, so that neighbours never look alike, lightness
 * alternating too; readable on white. */
static void color_of(char out[8], uint32_t band)
{
	double h = fmod(200.0 + band * 137.508, 360.0) / 60.0, s = 0.62, l = band % 2 ? 0.62 : 0.48;
	double c = (1 - fabs(2 * l - 1)) * s, x = c * (1 - fabs(fmod(h, 2) - 1)), mm = l - c / 2;
	double r = 0, g = 0, b = 0;
	switch ((int)h) {
	case 0: r = c, g = x; break;
	case 1: r = x, g = c; break;
	case 2: g = c, b = x; break;
	case 3: g = x, b = c; break;
	case 4: r = x, b = c; break;
	default: r = c, b = x; break;
	}
	snprintf(out, 8, "#%02x%02x%02x", (unsigned)lround((r + mm) * 255),
		 (unsigned)lround((g + mm) * 255), (unsigned)lround((b + mm) * 255));
}

/* --- which lineages, in which order ------------------------------------------ */

/* A lineage with what it is sorted by (qsort has no context argument in
 * C11, and a static one would make two charts at once race). */
typedef struct {
	uint64_t area;           /* in the chart's measure */
	int32_t first;           /* its first release */
	uint32_t id, li;         /* lineage id, lineage index */
} rank;

static int by_area(const void *a, const void *b)
{
	const rank *x = a, *y = b;
	if (x->area != y->area)
		return x->area < y->area ? 1 : -1;
	return (x->id > y->id) - (x->id < y->id);
}

static int by_birth(const void *a, const void *b)
{
	const rank *x = a, *y = b;
	if (x->first != y->first)
		return (x->first > y->first) - (x->first < y->first);
	return by_area(a, b);
}

/* The shown lineage a band sits next to: the one it split from, else the
 * one it merged into; 0 for none. */
static uint32_t anchor_of(const mev__chart_model *m, uint32_t li)
{
	const mev__chart_lineage *l = &m->lin[li];
	uint32_t cand[2] = { l->parent, l->into };
	for (int i = 0; i < 2; i++) {
		uint32_t id = cand[i], a;
		if (!id || id == l->id || id > m->max_id || !(a = m->lin_of_id[id]))
			continue;
		if (m->lin[a - 1].shown)
			return a;
	}
	return 0;
}

/* Depth first: band order after li, its children (by birth) right after it. */
static void place(mev__chart_layout *l, mev__chart_model *m, uint32_t li, const uint32_t *anchor,
		  const uint32_t *byb, size_t n, uint8_t *done, size_t *k)
{
	done[li] = 1;
	l->band_lin[(*k)++] = li;
	for (size_t i = 0; i < n; i++)
		if (!done[byb[i]] && anchor[byb[i]] == li + 1)
			place(l, m, byb[i], anchor, byb, n, done, k);
}

static int bands_pick(mev__chart_layout *l, mev__chart_model *m, int top)
{
	uint32_t *cand = malloc((m->nlin + 1) * sizeof *cand), *anchor = NULL;
	rank *rk = malloc((m->nlin + 1) * sizeof *rk);
	uint8_t *done = NULL;
	size_t n = 0, shown, k = 0;
	int other = 0;
	if (!cand || !rk) {
		free(cand), free(rk);
		return mev_error_oom();
	}
	for (size_t i = 0; i < m->nlin; i++) {
		const mev__chart_lineage *li = &m->lin[i];
		m->lin[i].shown = 0;
		if (li->first >= 0)
			rk[n++] = (rank){ li->area[l->measure], li->first, li->id, (uint32_t)i };
	}
	mev__sort(rk, n, sizeof *rk, by_area);
	shown = top < 0 ? MEV_CHART_TOP_DEFAULT : top == 0 ? n : (size_t)top;
	if (shown > n)
		shown = n;
	other = shown < n;
	mev__sort(rk, shown, sizeof *rk, by_birth);
	for (size_t i = 0; i < shown; i++) {
		cand[i] = rk[i].li;
		m->lin[cand[i]].shown = 1;
	}
	free(rk);
	anchor = calloc(m->nlin + 1, sizeof *anchor);
	done = calloc(m->nlin + 1, 1);
	l->nband = shown + (size_t)other;
	l->band_lin = calloc(l->nband + 1, sizeof *l->band_lin);
	l->color = calloc(l->nband + 1, sizeof *l->color);
	if (!anchor || !done || !l->band_lin || !l->color) {
		free(cand), free(anchor), free(done);
		return mev_error_oom();
	}
	for (size_t i = 0; i < shown; i++) {
		/* an anchor chain that comes back to itself is cut: the band is a root */
		uint32_t a = anchor_of(m, cand[i]), hops = 0;
		for (uint32_t b = a; b && hops <= shown; b = anchor_of(m, b - 1))
			hops++;
		anchor[cand[i]] = hops > shown ? 0 : a;
	}
	for (size_t i = 0; i < shown; i++)
		if (!anchor[cand[i]] && !done[cand[i]])
			place(l, m, cand[i], anchor, cand, shown, done, &k);
	for (size_t i = 0; i < shown; i++) /* what a cut cycle left */
		if (!done[cand[i]])
			place(l, m, cand[i], anchor, cand, shown, done, &k);
	for (size_t b = 0; b < shown; b++) {
		m->lin[l->band_lin[b]].shown = (uint32_t)b + 1;
		color_of(l->color[b], (uint32_t)b);
	}
	if (other) {
		l->band_lin[shown] = UINT32_MAX;
		l->other = (uint32_t)shown + 1;
		snprintf(l->color[shown], 8, "#b4b4b4");
	}
	free(cand), free(anchor), free(done);
	return 0;
}

/* The band (1-based) of lineage id, 0 for none. */
static uint32_t band_of_id(const mev__chart_layout *l, uint32_t id)
{
	const mev__chart_model *m = l->m;
	uint32_t li;
	if (!id || id > m->max_id || !(li = m->lin_of_id[id]))
		return 0;
	return m->lin[li - 1].shown ? m->lin[li - 1].shown : l->other;
}

/* --- where ----------------------------------------------------------------- */

static void xs_place(mev__chart_layout *l, mev_chart_x xmode)
{
	const mev__chart_model *m = l->m;
	size_t n = m->nrel;
	int64_t t0 = mev_release_date(mev_history_release(m->h, m->rel[0])), t1 = t0;
	for (size_t r = 0; r < n; r++) {
		int64_t t = mev_release_date(mev_history_release(m->h, m->rel[r]));
		t0 = t < t0 ? t : t0;
		t1 = t > t1 ? t : t1;
	}
	for (size_t r = 0; r < n; r++) {
		double f = (double)r / (double)(n - 1);
		if (xmode == MEV_CHART_X_DATE && t1 > t0)
			f = (double)(mev_release_date(mev_history_release(m->h, m->rel[r])) - t0) /
			    (double)(t1 - t0);
		l->x[r] = l->left + f * (l->right - l->left);
	}
	l->node_w = fmin(6.0, 0.25 * (l->right - l->left) / (double)(n - 1));
}

/* The cells: bands stacked at each release in band order, one scale for all. */
static void cells_place(mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	size_t nb = l->nband, maxalive = 1;
	double k = INFINITY, gap, plot = l->bottom - l->top;
	for (size_t r = 0; r < m->nrel; r++) {
		size_t alive = 0;
		for (size_t i = 0; i < m->nodes[r].n; i++) {
			const mev__chart_node *nd = &m->nodes[r].v[i];
			uint32_t b = m->lin[nd->lineage].shown ? m->lin[nd->lineage].shown : l->other;
			l->cell[r * nb + b - 1].v += nd->v[l->measure];
		}
		for (size_t b = 0; b < nb; b++)
			alive += l->cell[r * nb + b].v > 0;
		maxalive = alive > maxalive ? alive : maxalive;
	}
	gap = fmin(3.0, plot * 0.2 / (double)maxalive);
	for (size_t r = 0; r < m->nrel; r++) {
		uint64_t sum = 0;
		size_t alive = 0;
		for (size_t b = 0; b < nb; b++) {
			sum += l->cell[r * nb + b].v;
			alive += l->cell[r * nb + b].v > 0;
		}
		if (sum)
			k = fmin(k, (plot - gap * (double)(alive ? alive - 1 : 0) - MIN_H * (double)alive) /
					    (double)sum);
	}
	if (!isfinite(k) || k < 0)
		k = 0;
	for (size_t r = 0; r < m->nrel; r++) {
		double y = l->top;
		for (size_t b = 0; b < nb; b++) {
			mev__chart_cell *c = &l->cell[r * nb + b];
			if (!c->v)
				continue;
			c->y = y;
			c->h = fmax((double)c->v * k, MIN_H);
			y += c->h + gap;
		}
	}
}

static int ribbon_key_cmp(const void *a, const void *b)
{
	const mev__chart_ribbon *x = a, *y = b;
	if (x->rel != y->rel)
		return (x->rel > y->rel) - (x->rel < y->rel);
	if (x->band_from != y->band_from)
		return (x->band_from > y->band_from) - (x->band_from < y->band_from);
	return (x->band_to > y->band_to) - (x->band_to < y->band_to);
}

static int ribbon_in_cmp(const void *a, const void *b)
{
	const mev__chart_ribbon *x = *(const mev__chart_ribbon *const *)a;
	const mev__chart_ribbon *y = *(const mev__chart_ribbon *const *)b;
	if (x->band_to != y->band_to)
		return (x->band_to > y->band_to) - (x->band_to < y->band_to);
	return (x->band_from > y->band_from) - (x->band_from < y->band_from);
}

/* Slice each node among its ribbons: out by target order, in by source
 * order; ribbons that add up to more than the node are scaled to fit. */
static int ribbons_slice(mev__chart_layout *l, size_t r0, size_t r1)
{
	size_t nb = l->nband, n = r1 - r0;
	mev__chart_ribbon **in = malloc((n + 1) * sizeof *in);
	double k = 0;
	if (!in)
		return mev_error_oom();
	/* the scale: a node's height over its measure */
	for (size_t b = 0; b < nb && k == 0; b++)
		for (size_t r = 0; r < l->m->nrel && k == 0; r++)
			if (l->cell[r * nb + b].v && l->cell[r * nb + b].h > MIN_H)
				k = l->cell[r * nb + b].h / (double)l->cell[r * nb + b].v;
	for (size_t i = r0; i < r1;) {
		size_t j = i;
		uint64_t sum = 0;
		const mev__chart_cell *c = &l->cell[(l->ribbons.v[i].rel - 1) * nb + l->ribbons.v[i].band_from - 1];
		double y = c->y, f;
		while (j < r1 && l->ribbons.v[j].band_from == l->ribbons.v[i].band_from)
			sum += l->ribbons.v[j++].v;
		f = (double)sum * k > c->h && sum ? c->h / ((double)sum * k) : 1;
		for (; i < j; i++) {
			l->ribbons.v[i].y0a = y;
			y += fmax((double)l->ribbons.v[i].v * k * f, 0.4);
			l->ribbons.v[i].y0b = y;
		}
	}
	for (size_t i = 0; i < n; i++)
		in[i] = &l->ribbons.v[r0 + i];
	mev__sort(in, n, sizeof *in, ribbon_in_cmp);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		uint64_t sum = 0;
		const mev__chart_cell *c = &l->cell[in[i]->rel * nb + in[i]->band_to - 1];
		double y = c->y, f;
		while (j < n && in[j]->band_to == in[i]->band_to)
			sum += in[j++]->v;
		f = (double)sum * k > c->h && sum ? c->h / ((double)sum * k) : 1;
		for (; i < j; i++) {
			in[i]->y1a = y;
			y += fmax((double)in[i]->v * k * f, 0.4);
			in[i]->y1b = y;
		}
	}
	free(in);
	return 0;
}

/* The ribbons: the flows of each release pair summed per pair of bands. */
static int ribbons_place(mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	size_t nb = l->nband, w = 0;
	int rc = 0;
	for (size_t i = 0; i < m->flows.n && !rc; i++) {
		const mev__chart_flow *f = &m->flows.v[i];
		mev__chart_ribbon rb = { 0 };
		if (!f->from || !f->to || !f->v[l->measure])
			continue;
		rb.band_from = band_of_id(l, f->from);
		rb.band_to = band_of_id(l, f->to);
		rb.rel = f->rel;
		rb.v = f->v[l->measure];
		if (!rb.band_from || !rb.band_to || !l->cell[(f->rel - 1) * nb + rb.band_from - 1].v ||
		    !l->cell[f->rel * nb + rb.band_to - 1].v)
			continue;
		rc = MEV_VEC_PUSH(&l->ribbons, rb) ? mev_error_oom() : 0;
	}
	if (rc)
		return rc;
	mev__sort(l->ribbons.v, l->ribbons.n, sizeof *l->ribbons.v, ribbon_key_cmp);
	for (size_t i = 0; i < l->ribbons.n; i++) { /* one ribbon per pair of bands */
		if (w && ribbon_key_cmp(&l->ribbons.v[w - 1], &l->ribbons.v[i]) == 0)
			l->ribbons.v[w - 1].v += l->ribbons.v[i].v;
		else
			l->ribbons.v[w++] = l->ribbons.v[i];
	}
	l->ribbons.n = w;
	for (size_t i = 0; i < l->ribbons.n && !rc;) {
		size_t j = i;
		while (j < l->ribbons.n && l->ribbons.v[j].rel == l->ribbons.v[i].rel)
			j++;
		rc = ribbons_slice(l, i, j);
		i = j;
	}
	return rc;
}

int mev__chart_layout_build(mev__chart_layout *l, mev__chart_model *m, mev_chart_measure measure,
			    mev_chart_x xmode, int top)
{
	int rc;
	memset(l, 0, sizeof *l);
	l->m = m;
	l->measure = measure;
	l->width = WIDTH;
	l->height = HEIGHT;
	l->font = FONT;
	l->axis_font = AXIS_FONT;
	if ((rc = bands_pick(l, m, top)))
		return rc;
	l->x = calloc(m->nrel + 1, sizeof *l->x);
	l->cell = calloc(m->nrel * l->nband + 1, sizeof *l->cell);
	if (!l->x || !l->cell)
		return mev_error_oom();
	/* the plot: a heading above, the legend right, the release names below */
	l->left = 14;
	l->right = WIDTH - LEGEND;
	l->top = 44;
	l->bottom = HEIGHT - mev__chart_axis_room(l);
	xs_place(l, xmode);
	cells_place(l);
	if ((rc = ribbons_place(l)))
		return rc;
	return mev__chart_labels_place(l);
}

void mev__chart_layout_free(mev__chart_layout *l)
{
	free(l->band_lin);
	free(l->color);
	free(l->x);
	free(l->cell);
	MEV_VEC_FREE(&l->ribbons);
	MEV_VEC_FREE(&l->labels);
	memset(l, 0, sizeof *l);
}
