/*
 * Inline SVG plots for the HTML report: bars, stacked areas and an alluvial
 * diagram.  Every plot is a <figure> with an <svg viewBox> that scales to
 * the page width; sizes below are in viewBox units (about pixels on a
 * laptop screen).  All text goes through mev_table_xml_str().
 */
#include "plots.h"
#include "maintevo/table.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
	"#ff9da7", "#9c755f", "#bab0ac", "#2f4b7c", "#8cd17d", "#d37295", "#a0cbe8",
	"#b6992d", "#499894", "#ffbe7d", "#6b6ecf",
};
enum { NPALETTE = sizeof palette / sizeof *palette };

const char *mev__plot_color(size_t i) { return palette[i % NPALETTE]; }

void mev__plot_short(char out[16], double v)
{
	double a = fabs(v);
	if (a >= 1e9)
		snprintf(out, 16, "%.3gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(out, 16, "%.3gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(out, 16, "%.3gk", v / 1e3);
	else
		snprintf(out, 16, "%.0f", v);
}

static void text(FILE *out, const char *s) { mev_table_xml_str(out, s, strlen(s)); }

/* At most `max` characters of UTF-8 text, with an ellipsis when cut. */
static void text_cut(FILE *out, const char *s, size_t max)
{
	size_t chars = 0, i = 0, len = strlen(s);
	while (i < len && chars < max) {
		i++;
		while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80)
			i++;
		chars++;
	}
	mev_table_xml_str(out, s, i);
	if (i < len)
		fputs("\xe2\x80\xa6", out); /* U+2026 … */
}

/* A round step giving about `want` ticks up to max; *top gets the axis end. */
static double nice_step(double max, int want, double *top)
{
	double raw, mag, step;
	if (max <= 0)
		max = 1;
	raw = max / want;
	mag = pow(10, floor(log10(raw)));
	step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
	if (step < 1)
		step = 1;
	*top = ceil(max / step) * step;
	return step;
}

static void figure_open(FILE *out, const char *caption, int w, int h)
{
	fputs("<figure class=\"chart\">\n<svg viewBox=\"0 0 ", out);
	fprintf(out, "%d %d\" role=\"img\" aria-label=\"", w, h);
	text(out, caption);
	fputs("\" xmlns=\"http://www.w3.org/2000/svg\">\n<title>", out);
	text(out, caption);
	fputs("</title>\n", out);
}

static void figure_close(FILE *out, const char *caption)
{
	fputs("</svg>\n<figcaption>", out);
	text(out, caption);
	fputs("</figcaption>\n</figure>\n", out);
}

/* Horizontal grid lines with labels on the left. */
static void y_axis(FILE *out, double x0, double x1, double y0, double h, double top, double step)
{
	char buf[16];
	for (double t = 0; t <= top + step / 2; t += step) {
		double y = y0 + h - t / top * h;
		fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x0, y,
			x1, y);
		mev__plot_short(buf, t);
		fprintf(out, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			x0 - 6, y + 4, buf);
	}
}

/*
 * Which x positions get a label: a rotated label needs about 15 units, so
 * labels are at least k slots apart.  Marked positions come first (newest
 * first), then the last position, then every k-th one from the end; a
 * candidate closer than k slots to a label already chosen is dropped.
 */
static void x_labels(FILE *out, const char *const *labels, size_t n, double x0, double slot,
		     double y, const uint8_t *mark)
{
	size_t k = (size_t)ceil(15.0 / slot), taken = 0;
	uint8_t *show = calloc(n + 1, 1);
	size_t *pos = malloc((n + 1) * sizeof *pos);
	if (!show || !pos)
		goto done;
	if (k < 1)
		k = 1;
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = n; i-- > 0;) {
			int want = pass == 0 ? mark && mark[i] : pass == 1 ? i + 1 == n : (n - 1 - i) % k == 0;
			size_t t;
			if (!want || show[i])
				continue;
			for (t = 0; t < taken; t++)
				if ((pos[t] > i ? pos[t] - i : i - pos[t]) < k)
					break;
			if (t < taken)
				continue;
			show[i] = 1;
			pos[taken++] = i;
		}
	for (size_t i = 0; i < n; i++) {
		if (!show[i])
			continue;
		fprintf(out, "<text class=\"xl%s\" transform=\"translate(%.1f %.1f) rotate(-45)\" "
			"text-anchor=\"end\">", mark && mark[i] ? " mark" : "", x0 + slot * (i + 0.5) + 4, y);
		text(out, labels[i]);
		fputs("</text>\n", out);
	}
done:
	free(show);
	free(pos);
}

void mev__plot_bars(FILE *out, const char *caption, const char *const *labels,
		    const double *values, const uint8_t *highlight, size_t n)
{
	const int W = 960, H = 300;
	const double ml = 56, mr = 16, mt = 24, mb = 76, pw = W - ml - mr, ph = H - mt - mb;
	double max = 0, top, step, slot;
	for (size_t i = 0; i < n; i++)
		if (values[i] > max)
			max = values[i];
	step = nice_step(max, 5, &top);
	slot = n ? pw / (double)n : pw;
	figure_open(out, caption, W, H);
	y_axis(out, ml, ml + pw, mt, ph, top, step);
	for (size_t i = 0; i < n; i++) {
		double h = values[i] / top * ph, bw = slot * 0.78 < 1 ? 1 : slot * 0.78;
		double x = ml + slot * i + (slot - bw) / 2;
		fprintf(out, "<rect class=\"bar%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
			"<title>", highlight && highlight[i] ? " hl" : "", x, mt + ph - h, bw, h);
		text(out, labels[i]);
		fprintf(out, ": %.0f</title></rect>\n", values[i]);
	}
	fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", ml,
		mt + ph, ml + pw, mt + ph);
	x_labels(out, labels, n, ml, slot, mt + ph + 14, highlight);
	figure_close(out, caption);
}

void mev__plot_stacked(FILE *out, const char *caption, const char *const *labels, size_t n,
		       const mev__plot_series *series, size_t nseries, const uint8_t *mark)
{
	const int W = 960;
	const double ml = 56, mt = 16, mb = 76, pw = 560, lx = ml + pw + 24, row = 21;
	double ph = nseries * row + 20 > 300 ? nseries * row + 20 : 300;
	int H = (int)(mt + ph + mb);
	double *cum = calloc(n + 1, sizeof *cum), max = 0, top, step, slot;
	char buf[16];
	if (!cum)
		return;
	for (size_t i = 0; i < n; i++) {
		double t = 0;
		for (size_t s = 0; s < nseries; s++)
			t += series[s].values[i];
		if (t > max)
			max = t;
	}
	step = nice_step(max, 5, &top);
	/* x positions are the centres of n slots, like the bar plot */
	slot = n ? pw / (double)n : pw;
	figure_open(out, caption, W, H);
	y_axis(out, ml, ml + pw, mt, ph, top, step);
	for (size_t s = 0; s < nseries; s++) {
		fprintf(out, "<path fill=\"%s\" stroke=\"#fff\" stroke-width=\"0.5\" d=\"", mev__plot_color(s));
		for (size_t i = 0; i < n; i++)
			fprintf(out, "%s%.1f,%.1f", i ? " L" : "M", ml + slot * (i + 0.5),
				mt + ph - (cum[i] + series[s].values[i]) / top * ph);
		for (size_t i = n; i-- > 0;)
			fprintf(out, " L%.1f,%.1f", ml + slot * (i + 0.5), mt + ph - cum[i] / top * ph);
		fputs(" Z\"><title>", out);
		text(out, series[s].name);
		fputs("</title></path>\n", out);
		for (size_t i = 0; i < n; i++)
			cum[i] += series[s].values[i];
	}
	for (size_t i = 0; mark && i < n; i++)
		if (mark[i])
			fprintf(out, "<line class=\"guide\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
				ml + slot * (i + 0.5), mt, ml + slot * (i + 0.5), mt + ph);
	fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", ml,
		mt + ph, ml + pw, mt + ph);
	x_labels(out, labels, n, ml, slot, mt + ph + 14, mark);
	/* the legend, top band first, with the value at the last position */
	fprintf(out, "<text class=\"lh\" x=\"%.1f\" y=\"%.1f\">lines at %s</text>\n", lx + 18, mt + 4,
		n ? "the last release" : "");
	for (size_t k = 0; k < nseries; k++) {
		size_t s = nseries - 1 - k;
		double y = mt + 16 + k * row;
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>", lx,
			y, mev__plot_color(s));
		fprintf(out, "<text class=\"lg\" x=\"%.1f\" y=\"%.1f\">", lx + 18, y + 10.5);
		text_cut(out, series[s].name, 36);
		mev__plot_short(buf, n ? series[s].values[n - 1] : 0);
		fprintf(out, "</text><text class=\"lg num\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			W - 4, y + 10.5, buf);
	}
	figure_close(out, caption);
	free(cum);
}

/* Gaps of the alluvial diagram: between the nodes of a column, and the
 * least height a node takes in its column (room for its label). */
static const double node_gap = 10, node_room = 16;

/*
 * The scale: one for every node and flow, so that bars and bands of
 * different splits and merges compare and flows add up; the largest group
 * fills 360 units (a small group may be thin: its label keeps its room,
 * node_room).  kn[i] gets the units per line of node i.  Returns -1 when
 * out of memory.
 */
static int alluvial_scales(double *kn, const mev__plot_node *nodes, size_t nnodes, size_t ncolumns)
{
	double *gtot, maxtot = 0;
	size_t ngroups = 0;
	for (size_t i = 0; i < nnodes; i++)
		if (nodes[i].group + 1 > ngroups)
			ngroups = nodes[i].group + 1;
	if (!(gtot = calloc(ngroups * (ncolumns + 1) + 1, sizeof *gtot)))
		return -1;
	for (size_t i = 0; i < nnodes; i++)
		if (nodes[i].column < ncolumns)
			gtot[nodes[i].group * (ncolumns + 1) + nodes[i].column] += nodes[i].value;
	for (size_t g = 0; g < ngroups; g++) {
		double *row = &gtot[g * (ncolumns + 1)];
		for (size_t c = 0; c < ncolumns; c++)
			if (row[c] > row[ncolumns])
				row[ncolumns] = row[c]; /* the group's size: its fullest column */
		if (row[ncolumns] > maxtot)
			maxtot = row[ncolumns];
	}
	for (size_t i = 0; i < nnodes; i++)
		kn[i] = maxtot > 0 ? 360 / maxtot : 0;
	free(gtot);
	return 0;
}

/*
 * Where the nodes go, group by group: every column starts a group at the
 * same height `top`, below the end of the previous group in all columns.
 * y[i] and h[i] get node i's top and height; returns the plot's height.
 */
static double alluvial_stack(double *y, double *h, const double *kn, const mev__plot_node *nodes,
			     size_t nnodes, size_t ncolumns, double top)
{
	const double mt = top;
	double ph;
	size_t g = 0;
	while (1) {
		size_t next = SIZE_MAX;
		double end = top;
		for (size_t i = 0; i < nnodes; i++)
			if (nodes[i].group > g && nodes[i].group < next)
				next = nodes[i].group;
		for (size_t c = 0; c < ncolumns; c++) {
			double at = top;
			for (size_t i = 0; i < nnodes; i++) {
				if (nodes[i].column != c || nodes[i].group != g)
					continue;
				h[i] = nodes[i].value * kn[i] < 3 ? 3 : nodes[i].value * kn[i];
				y[i] = at;
				at += (h[i] < node_room ? node_room : h[i]) + node_gap;
			}
			if (at > end)
				end = at;
		}
		if (end > top)
			top = end + node_gap; /* groups are further apart than nodes */
		if (next == SIZE_MAX)
			break;
		g = next;
	}
	ph = top - mt - 2 * node_gap;
	return ph < 0 ? 0 : ph;
}

void mev__plot_alluvial(FILE *out, const char *caption, const char *const *column_titles,
			size_t ncolumns, const mev__plot_node *nodes, size_t nnodes,
			const mev__plot_flow *flows, size_t nflows)
{
	const int W = 960;
	const double mt = 34, mb = 12, nw = 14, lw = 280, rw = 280;
	double *y = calloc(nnodes + 1, sizeof *y), *h = calloc(nnodes + 1, sizeof *h);
	double *out_off = calloc(nnodes + 1, sizeof *out_off), *in_off = calloc(nnodes + 1, sizeof *in_off);
	double *colx = calloc(ncolumns + 1, sizeof *colx), ph;
	double *kn = calloc(nnodes + 1, sizeof *kn);
	int H;
	if (!y || !h || !out_off || !in_off || !colx || !kn || alluvial_scales(kn, nodes, nnodes, ncolumns))
		goto done;
	for (size_t c = 0; c < ncolumns; c++)
		colx[c] = ncolumns > 1 ? lw + (W - lw - rw - nw) * (double)c / (double)(ncolumns - 1)
				       : (W - nw) / 2.0;
	ph = alluvial_stack(y, h, kn, nodes, nnodes, ncolumns, mt);
	H = (int)(mt + ph + mb);
	figure_open(out, caption, W, H);
	for (size_t c = 0; c < ncolumns; c++) {
		fprintf(out, "<text class=\"colt\" x=\"%.1f\" y=\"16\" text-anchor=\"middle\">",
			colx[c] + nw / 2);
		text(out, column_titles[c]);
		fputs("</text>\n", out);
	}
	/* flows first, so the bars are drawn over their ends */
	for (size_t f = 0; f < nflows; f++) {
		size_t a = flows[f].from, b = flows[f].to;
		double w, x1, x2, xm, y1, y2;
		const char *col;
		if (a >= nnodes || b >= nnodes)
			continue;
		w = flows[f].value * kn[a];
		if (w < 1)
			w = 1;
		x1 = colx[nodes[a].column] + nw;
		x2 = colx[nodes[b].column];
		xm = (x1 + x2) / 2;
		y1 = y[a] + out_off[a];
		y2 = y[b] + in_off[b];
		out_off[a] += w;
		in_off[b] += w;
		col = nodes[a].color >= 0 ? mev__plot_color((size_t)nodes[a].color) : "#bbb";
		fprintf(out, "<path class=\"flow\" fill=\"%s\" d=\"M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f "
			"L%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f Z\"><title>", col, x1, y1, xm, y1, xm, y2,
			x2, y2, x2, y2 + w, xm, y2 + w, xm, y1 + w, x1, y1 + w);
		text(out, nodes[a].name);
		fputs(" \xe2\x86\x92 ", out); /* → */
		text(out, nodes[b].name);
		fprintf(out, ": %.0f lines</title></path>\n", flows[f].value);
	}
	for (size_t i = 0; i < nnodes; i++) {
		const char *col = nodes[i].color >= 0 ? mev__plot_color((size_t)nodes[i].color) : "#999";
		double x = colx[nodes[i].column];
		int left = nodes[i].column == 0 && ncolumns > 1;
		char buf[16];
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
			x, y[i], nw, h[i], col);
		text(out, nodes[i].name);
		fprintf(out, ": %.0f lines</title></rect>\n", nodes[i].value);
		mev__plot_short(buf, nodes[i].value);
		fprintf(out, "<text class=\"nl\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
			left ? x - 6 : x + nw + 6, y[i] + (h[i] < node_room ? node_room : h[i]) / 2 + 4,
			left ? "end" : "start");
		text_cut(out, nodes[i].name, 28);
		fprintf(out, " <tspan class=\"num\">%s</tspan></text>\n", buf);
	}
	figure_close(out, caption);
done:
	free(y);
	free(h);
	free(out_off);
	free(in_off);
	free(colx);
	free(kn);
}
