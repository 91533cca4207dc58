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
		axis_text(t, sizeof t, mev_history_release(m->h, m->rel[r])->tag);
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

/* Where band b runs between x0 and x1: samples (x, top, bottom) at each
 * node and each end of the stretches between (the ribbons that continue
 * it).  0 when the band breaks off before x1. */
typedef struct {
	double x, lo, hi;
} sample;

static size_t band_samples(const mev__chart_layout *l, const uint32_t *self, size_t b, size_t r,
			   double x1, sample *out, size_t max)
{
	const mev__chart_model *m = l->m;
	size_t nb = l->nband, k = 0;
	const mev__chart_cell *c = &l->cell[r * nb + b];
	out[k++] = (sample){ l->x[r], c->y, c->y + c->h };
	for (size_t q = r + 1; q < m->nrel && l->x[q - 1] + l->node_w / 2 < x1 && k + 3 <= max; q++) {
		const mev__chart_ribbon *rb;
		if (!self[q * nb + b])
			return 0;
		rb = &l->ribbons.v[self[q * nb + b] - 1];
		out[k++] = (sample){ l->x[q - 1] + l->node_w / 2, rb->y0a, rb->y0b };
		out[k++] = (sample){ l->x[q] - l->node_w / 2, rb->y1a, rb->y1b };
		c = &l->cell[q * nb + b];
		if (!c->v)
			return 0;
		out[k++] = (sample){ l->x[q], c->y, c->y + c->h };
	}
	return k;
}

static int overlaps_any(const mev__chart_layout *l, const mev__chart_box *bx)
{
	for (size_t i = 0; i < l->labels.n; i++)
		if (mev__chart_boxes_overlap(&l->labels.v[i].box, bx))
			return 1;
	return 0;
}

/* A label along band b from x0, on the straight line through the band's
 * middle at x0 and at x0 + w (bands slope as the stack below them grows):
 * its room (the least distance to the band's edges, times two; 0: none),
 * its centre at x0 (*y0) and its slope. */
static double label_fit(const mev__chart_layout *l, const uint32_t *self, size_t b, size_t r,
			double x0, double w, double need, double *y0, double *slope)
{
	sample sm[256];
	size_t n = band_samples(l, self, b, r, x0 + w, sm, 256);
	double c0, c1 = 0, room = INFINITY;
	int have1 = 0;
	if (!n)
		return 0;
	/* the middle at x0 (the node's) and at x0 + w (between the samples around it) */
	c0 = (sm[0].lo + sm[0].hi) / 2;
	for (size_t i = 1; i < n && !have1; i++)
		if (sm[i].x >= x0 + w) {
			double f = (x0 + w - sm[i - 1].x) / (sm[i].x - sm[i - 1].x + 1e-9);
			c1 = (sm[i - 1].lo + sm[i - 1].hi) / 2 * (1 - f) + (sm[i].lo + sm[i].hi) / 2 * f;
			have1 = 1;
		}
	if (!have1)
		c1 = (sm[n - 1].lo + sm[n - 1].hi) / 2;
	*slope = (c1 - c0) / w;
	if (fabs(*slope) > 0.45)
		return 0;
	for (size_t i = 0; i < n; i++) {
		double yc = c0 + *slope * (fmin(fmax(sm[i].x, x0), x0 + w) - x0);
		room = fmin(room, 2 * fmin(yc - sm[i].lo, sm[i].hi - yc));
	}
	*y0 = c0;
	return room >= need ? room : 0;
}

/* The box around a label of width w from (x0, y0) at that slope. */
static mev__chart_box label_box(const mev__chart_layout *l, double x0, double y0, double w, double slope)
{
	double y1 = y0 + slope * w, h = l->font * 0.6 * sqrt(1 + slope * slope);
	mev__chart_box bx = { x0, fmin(y0, y1) - h, x0 + w, fmax(y0, y1) + h };
	return bx;
}

/* Band b's label beside its node in model release r: the name its
 * lineage's cluster has there (names.c). */
static void band_text(const mev__chart_layout *l, size_t b, size_t r, char *out, size_t size)
{
	if (l->band_lin[b] == UINT32_MAX)
		snprintf(out, size, "other");
	else
		mev__chart_label_text(out, size, mev__chart_name_at(l->m, l->band_lin[b], r));
}

/* A label from x0 that runs past the plot's right edge: none, or (cut)
 * cut to fit when it keeps half its name and ten bytes or more; the share
 * of the name it keeps, 0: none. */
static double label_cut(const mev__chart_layout *l, char *text, size_t size, double x0, int cut)
{
	size_t len = strlen(text), n;
	if (x0 + mev__chart_text_width(text, l->font) <= l->right)
		return 1;
	if (!cut)
		return 0;
	n = mev__chart_text_fit(text, size, "", l->font, l->right - x0);
	return n >= 10 && 2 * n >= len ? (double)n / (double)len : 0;
}

/* Where band b's label has the most room (the room; 0: nowhere) into *lb:
 * at the releases where its cluster is called `name` (NULL: any), whole
 * or (cut) cut to fit when it must. */
static double label_search(const mev__chart_layout *l, const uint32_t *self, size_t b, double need,
			   const char *name, int cut, mev__chart_label *lb)
{
	const mev__chart_model *m = l->m;
	double best = 0, w;
	for (size_t r = 0; r < m->nrel; r++) {
		const mev__chart_cell *c = &l->cell[r * l->nband + b];
		double x0 = l->x[r] + l->node_w / 2 + 3, y0, slope, room, kept;
		mev__chart_box bx;
		char text[sizeof lb->text];
		if (!c->v || c->h < need || (name && strcmp(mev__chart_name_at(m, l->band_lin[b], r), name)))
			continue;
		band_text(l, b, r, text, sizeof text);
		if ((kept = label_cut(l, text, sizeof text, x0, cut)) <= 0)
			continue;
		w = mev__chart_text_width(text, l->font);
		room = label_fit(l, self, b, r, x0, w, need, &y0, &slope);
		/* a straight label reads better: a slope costs room; a cut one too */
		room = (room - fabs(slope) * 20) * kept;
		if (room <= best)
			continue;
		bx = label_box(l, x0, y0, w, slope);
		if (bx.y0 < l->top || bx.y1 > l->bottom || overlaps_any(l, &bx))
			continue;
		best = room;
		lb->rel = (uint32_t)r;
		lb->x = x0;
		lb->y = y0 + l->font * 0.36;
		lb->angle = atan(slope) * 180 / M_PI;
		lb->box = bx;
		memcpy(lb->text, text, sizeof text);
	}
	return best;
}

/* The name of band b where the band is roomiest: inside it when it is as
 * tall as the text (strict), else on its middle where it is at least a
 * few pixels tall, over its neighbours (the halo keeps it legible).  A
 * band is named first where its cluster has the name the lineage holds at
 * its end, as the legend says it (U-Boot's lineage 1533, born CLOCK, is
 * DEVICETREE REBASING SUBTREE where it is largest, v2024.07 on: a renamed
 * lineage's long name may be cut at the plot's edge); elsewhere only when
 * that finds no room. */
static int band_label(mev__chart_layout *l, const uint32_t *self, size_t b, int strict)
{
	mev__chart_label lb = { 0 };
	double need = strict ? l->font * 1.15 : 2.5;
	const mev__chart_lineage *lin = l->band_lin[b] == UINT32_MAX ? NULL : &l->m->lin[l->band_lin[b]];
	if (!(lin && label_search(l, self, b, need, lin->now ? lin->now : lin->name, lin->now != NULL, &lb) > 0) &&
	    label_search(l, self, b, need, NULL, 0, &lb) <= 0)
		return 0;
	lb.band = (uint32_t)b + 1;
	return MEV_VEC_PUSH(&l->labels, lb) ? mev_error_oom() : 0;
}

/* One release name below the axis (not yet checked against the others). */
static void axis_label(const mev__chart_layout *l, mev__chart_label *lb, size_t r, int rotated)
{
	double y = l->bottom + 6, w;
	memset(lb, 0, sizeof *lb);
	axis_text(lb->text, sizeof lb->text, mev_history_release(l->m->h, l->m->rel[r])->tag);
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
