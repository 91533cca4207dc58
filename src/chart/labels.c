/* The lineage chart's labels: names inside the largest bands and release names on the axis, none overlapping. */
#include "chart_internal.h"
#include "maintevo/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AXIS_CHARS 24
#define PAD 2.0

/* The axis text of release r: the tag, cut to AXIS_CHARS bytes (whole code points). */
static void axis_text(char *out, size_t size, const char *tag)
{
	size_t n = strlen(tag);
	if (n > AXIS_CHARS)
		n = AXIS_CHARS;
	while (n && ((unsigned char)tag[n] & 0xc0) == 0x80)
		n--;
	if (n + 1 > size)
		n = size - 1;
	memcpy(out, tag, n);
	out[n] = 0;
	for (char *p = out; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = ' ';
}

/* Release names stand upright when they do not fit side by side. */
static int axis_rotated(const mev__chart_layout *l, double *widest)
{
	const mev__chart_model *m = l->m;
	double spacing = (l->right - l->left) / (double)(m->nrel - 1);
	*widest = 0;
	for (size_t r = 0; r < m->nrel; r++) {
		char t[64];
		axis_text(t, sizeof t, m->h.list[m->rel[r]].tag);
		*widest = fmax(*widest, mev__chart_text_width(t, l->axis_font));
	}
	return *widest + 8 > spacing;
}

double mev__chart_axis_room(const mev__chart_layout *l)
{
	double widest;
	if (axis_rotated(l, &widest))
		return fmin(widest, 160) + 16;
	return l->axis_font + 16;
}

/* The interval [lo, hi] of y a text may take between x0 and x1 inside band b:
 * inside every node it crosses and every stretch of the band between. */
static int band_room(const mev__chart_layout *l, const uint32_t *self, size_t b, size_t r, double x1,
		     double *lo, double *hi)
{
	const mev__chart_model *m = l->m;
	size_t nb = l->nband;
	const mev__chart_cell *c = &l->cell[r * nb + b];
	*lo = c->y;
	*hi = c->y + c->h;
	for (size_t q = r + 1; q < m->nrel && l->x[q - 1] + l->node_w / 2 < x1; q++) {
		const mev__chart_ribbon *rb;
		if (!self[q * nb + b])
			return 0;
		rb = &l->ribbons.v[self[q * nb + b] - 1];
		*lo = fmax(*lo, fmax(rb->y0a, rb->y1a));
		*hi = fmin(*hi, fmin(rb->y0b, rb->y1b));
		if (l->x[q] - l->node_w / 2 < x1) {
			c = &l->cell[q * nb + b];
			if (!c->v)
				return 0;
			*lo = fmax(*lo, c->y);
			*hi = fmin(*hi, c->y + c->h);
		}
	}
	return *hi > *lo;
}

static int overlaps_any(const mev__chart_layout *l, const mev__chart_box *bx)
{
	for (size_t i = 0; i < l->labels.n; i++)
		if (mev__chart_boxes_overlap(&l->labels.v[i].box, bx))
			return 1;
	return 0;
}

/* The name of band b where the band is roomiest: inside it when it is as
 * tall as the text (strict), else centred on it where it is at least
 * `need` tall, over its neighbours (the halo keeps it legible). */
static int band_label(mev__chart_layout *l, const uint32_t *self, size_t b, int strict)
{
	const mev__chart_model *m = l->m;
	mev__chart_label lb = { 0 };
	double w, best = 0, bx0 = 0, byc = 0;
	if (l->band_lin[b] == UINT32_MAX)
		snprintf(lb.text, sizeof lb.text, "other");
	else
		mev__chart_label_text(lb.text, sizeof lb.text, m->lin[l->band_lin[b]].name);
	w = mev__chart_text_width(lb.text, l->font);
	for (size_t r = 0; r < m->nrel; r++) {
		const mev__chart_cell *c = &l->cell[r * l->nband + b];
		double x0 = l->x[r] + l->node_w / 2 + 3, lo, hi;
		mev__chart_box bx;
		double need = strict ? l->font + 2 : 2.5;
		if (!c->v || c->h < need || x0 + w > l->right)
			continue;
		if (!band_room(l, self, b, r, x0 + w, &lo, &hi) || hi - lo < need || hi - lo <= best)
			continue;
		if ((lo + hi) / 2 - l->font * 0.6 < l->top || (lo + hi) / 2 + l->font * 0.6 > l->bottom)
			continue;
		bx.x0 = x0;
		bx.x1 = x0 + w;
		bx.y0 = (lo + hi) / 2 - l->font * 0.6;
		bx.y1 = (lo + hi) / 2 + l->font * 0.6;
		if (overlaps_any(l, &bx))
			continue;
		best = hi - lo;
		bx0 = x0;
		byc = (lo + hi) / 2;
	}
	if (best == 0)
		return 0;
	lb.band = (uint32_t)b + 1;
	lb.x = bx0;
	lb.y = byc + l->font * 0.36;
	lb.box.x0 = bx0;
	lb.box.x1 = bx0 + w;
	lb.box.y0 = byc - l->font * 0.6;
	lb.box.y1 = byc + l->font * 0.6;
	return MEV_VEC_PUSH(&l->labels, lb) ? mev_error_oom() : 0;
}

/* One release name below the axis (not yet checked against the others). */
static void axis_label(const mev__chart_layout *l, mev__chart_label *lb, size_t r, int rotated)
{
	double y = l->bottom + 6, w;
	memset(lb, 0, sizeof *lb);
	axis_text(lb->text, sizeof lb->text, l->m->h.list[l->m->rel[r]].tag);
	w = mev__chart_text_width(lb->text, l->axis_font);
	lb->rel = (uint32_t)r;
	lb->rotated = rotated;
	if (rotated) {
		/* turned -90 degrees and anchored at its end: it reads upwards,
		 * ending just below the plot */
		lb->x = l->x[r] + l->axis_font * 0.36;
		lb->y = y;
		lb->box = (mev__chart_box){ l->x[r] - l->axis_font * 0.6, y, l->x[r] + l->axis_font * 0.6, y + w };
	} else {
		lb->x = l->x[r];
		lb->y = y + l->axis_font;
		lb->box = (mev__chart_box){ l->x[r] - w / 2, y, l->x[r] + w / 2, y + l->axis_font * 1.3 };
	}
}

/* Release names thinned so that none overlaps: the first and last always. */
static int axis_labels(mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	double widest;
	int rotated = axis_rotated(l, &widest);
	size_t first = l->labels.n;
	for (size_t r = 0; r < m->nrel; r++) {
		mev__chart_label lb;
		mev__chart_box padded;
		axis_label(l, &lb, r, rotated);
		padded = lb.box;
		padded.x0 -= PAD;
		padded.x1 += PAD;
		if (l->labels.n > first && mev__chart_boxes_overlap(&l->labels.v[l->labels.n - 1].box, &padded)) {
			if (r + 1 < m->nrel)
				continue;
			/* the last release replaces the name before it (never the first) */
			while (l->labels.n > first + 1 &&
			       mev__chart_boxes_overlap(&l->labels.v[l->labels.n - 1].box, &padded))
				l->labels.n--;
			if (mev__chart_boxes_overlap(&l->labels.v[l->labels.n - 1].box, &padded))
				continue;
		}
		if (MEV_VEC_PUSH(&l->labels, lb))
			return mev_error_oom();
	}
	return 0;
}

int mev__chart_labels_place(mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	size_t nb = l->nband;
	uint32_t *self = calloc(m->nrel * nb + 1, sizeof *self), *order = NULL;
	int rc = 0;
	if (!self)
		return mev_error_oom();
	for (size_t i = 0; i < l->ribbons.n; i++) {
		const mev__chart_ribbon *rb = &l->ribbons.v[i];
		if (rb->band_from == rb->band_to)
			self[rb->rel * nb + rb->band_from - 1] = (uint32_t)i + 1;
	}
	/* the largest lineages first: they get the best places */
	if (!(order = malloc((nb + 1) * sizeof *order))) {
		free(self);
		return mev_error_oom();
	}
	for (size_t b = 0; b < nb; b++)
		order[b] = (uint32_t)b;
	for (size_t i = 1; i < nb; i++) { /* insertion sort by area: few bands, stable */
		uint32_t b = order[i];
		size_t j = i;
		uint64_t ab = l->band_lin[b] == UINT32_MAX ? 0 : m->lin[l->band_lin[b]].area[l->measure];
		while (j > 0) {
			uint32_t p = order[j - 1];
			uint64_t ap = l->band_lin[p] == UINT32_MAX ? 0 : m->lin[l->band_lin[p]].area[l->measure];
			if (ap >= ab)
				break;
			order[j] = p;
			j--;
		}
		order[j] = b;
	}
	for (size_t i = 0; i < nb && !rc; i++)
		rc = band_label(l, self, order[i], 1);
	for (size_t i = 0; i < nb && !rc; i++) {
		int has = 0;
		for (size_t k = 0; k < l->labels.n; k++)
			has |= l->labels.v[k].band == order[i] + 1;
		if (!has)
			rc = band_label(l, self, order[i], 0);
	}
	l->nband_labels = l->labels.n;
	if (!rc)
		rc = axis_labels(l);
	free(order);
	free(self);
	return rc;
}
