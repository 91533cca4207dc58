/* The lineage chart drawn as SVG: bands, ribbons, marks, labels, axis and legend. */
#include "chart_internal.h"
#include "maintevo/table.h"

#include <math.h>
#include <inttypes.h>
#include <string.h>

static void xml(FILE *out, const char *s)
{
	mev_table_xml_str(out, s, strlen(s));
}

/* What data-lineage says of band b (0-based): the lineage id, or "other". */
static void band_id(FILE *out, const mev__chart_layout *l, size_t b)
{
	if (l->band_lin[b] == UINT32_MAX)
		fputs("other", out);
	else
		fprintf(out, "%u", (unsigned)l->m->lin[l->band_lin[b]].id);
}

static void ribbon_d(FILE *out, const mev__chart_layout *l, const mev__chart_ribbon *rb)
{
	double x0 = l->x[rb->rel - 1] + l->node_w / 2, x1 = l->x[rb->rel] - l->node_w / 2;
	double xm = (x0 + x1) / 2;
	fprintf(out, "M%.1f %.2fC%.1f %.2f %.1f %.2f %.1f %.2fL%.1f %.2fC%.1f %.2f %.1f %.2f %.1f %.2fZ",
		x0, rb->y0a, xm, rb->y0a, xm, rb->y1a, x1, rb->y1a, x1, rb->y1b, xm, rb->y1b, xm,
		rb->y0b, x0, rb->y0b);
}

/* "CLOCK, now DEVICETREE REBASING SUBTREE": a lineage's stable name, and
 * the name it holds for good at its end when that differs ("now" when it
 * lives to the chart's last release, "later" when it ends before). */
static const char *now_word(const mev__chart_layout *l, uint32_t li)
{
	return (size_t)l->m->lin[li].last + 1 == l->m->nrel ? "now" : "later";
}

static void lineage_title(FILE *out, const mev__chart_layout *l, uint32_t li)
{
	const mev__chart_lineage *lin = &l->m->lin[li];
	xml(out, lin->name);
	if (lin->now) {
		fprintf(out, ", %s ", now_word(l, li));
		xml(out, lin->now);
	}
}

/* One path per band: its nodes and the ribbons that continue it. */
static void band_path(FILE *out, const mev__chart_layout *l, size_t b, int page)
{
	const mev__chart_model *m = l->m;
	size_t nb = l->nband;
	fprintf(out, "<path class=\"band\" data-lineage=\"");
	band_id(out, l, b);
	fprintf(out, "\" fill=\"%s\"", l->color[b]);
	if (page) {
		fputs(" tabindex=\"0\" role=\"button\" aria-label=\"", out);
		if (l->band_lin[b] == UINT32_MAX)
			fputs("other lineages", out);
		else
			lineage_title(out, l, l->band_lin[b]);
		fputs("\"", out);
	}
	fputs(" d=\"", out);
	for (size_t r = 0; r < m->nrel; r++) {
		const mev__chart_cell *c = &l->cell[r * nb + b];
		if (c->v)
			fprintf(out, "M%.1f %.2fh%.1fv%.2fh%.1fZ", l->x[r] - l->node_w / 2, c->y, l->node_w,
				c->h, -l->node_w);
	}
	for (size_t i = 0; i < l->ribbons.n; i++)
		if (l->ribbons.v[i].band_from == b + 1 && l->ribbons.v[i].band_to == b + 1)
			ribbon_d(out, l, &l->ribbons.v[i]);
	fputs("\"/>\n", out);
}

static void flows(FILE *out, const mev__chart_layout *l)
{
	fputs("<g class=\"flows\" fill-opacity=\"0.55\">\n", out);
	for (size_t i = 0; i < l->ribbons.n; i++) {
		const mev__chart_ribbon *rb = &l->ribbons.v[i];
		if (rb->band_from == rb->band_to)
			continue;
		fputs("<path class=\"flow\" data-from=\"", out);
		band_id(out, l, rb->band_from - 1);
		fputs("\" data-to=\"", out);
		band_id(out, l, rb->band_to - 1);
		fprintf(out, "\" data-release=\"%u\" fill=\"%s\" d=\"", (unsigned)rb->rel,
			l->color[rb->band_from - 1]);
		ribbon_d(out, l, rb);
		fputs("\"/>\n", out);
	}
	fputs("</g>\n", out);
}

/* The cell of band b where name i starts when the band's name changes
 * for good there (names.c), else NULL. */
static const mev__chart_cell *renamed_at(const mev__chart_layout *l, size_t b, size_t i)
{
	const mev__chart_cell *c = &l->cell[(size_t)l->m->names.v[i].rel * l->nband + b];
	return mev__chart_name_changes(l->m, i) && c->v ? c : NULL;
}

/* Where a band's name changes for good: a ring at the left edge of the
 * first node with the new name. */
static void rename_marks(FILE *out, const mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	for (size_t b = 0; b < l->nband; b++) {
		const mev__chart_lineage *lin;
		if (l->band_lin[b] == UINT32_MAX)
			continue;
		lin = &m->lin[l->band_lin[b]];
		for (uint32_t i = lin->name0; i < lin->name0 + lin->nname; i++) {
			const mev__chart_name *n = &m->names.v[i];
			const mev__chart_cell *c = renamed_at(l, b, i);
			if (!c)
				continue;
			fprintf(out, "<circle class=\"rename\" data-lineage=\"%u\" data-release=\"%u\" "
				     "cx=\"%.1f\" cy=\"%.2f\" r=\"3\" fill=\"#fff\" stroke=\"#222\" "
				     "stroke-width=\"1.2\"/>\n",
				(unsigned)lin->id, (unsigned)n->rel, l->x[n->rel] - l->node_w / 2, c->y + c->h / 2);
		}
	}
}

/* Births (a dot where a band starts after the first release) and deaths
 * (a bar where it ends before the last). */
static void marks(FILE *out, const mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	size_t nb = l->nband;
	fputs("<g class=\"marks\">\n", out);
	for (size_t b = 0; b < nb; b++) {
		const mev__chart_lineage *lin;
		const mev__chart_cell *c;
		if (l->band_lin[b] == UINT32_MAX)
			continue;
		lin = &m->lin[l->band_lin[b]];
		if (lin->first > 0 && l->cell[(size_t)lin->first * nb + b].v) {
			c = &l->cell[(size_t)lin->first * nb + b];
			fprintf(out, "<circle class=\"birth\" data-lineage=\"%u\" cx=\"%.1f\" cy=\"%.2f\" r=\"2.6\" "
				     "fill=\"#222\" stroke=\"#fff\" stroke-width=\"0.8\"/>\n",
				(unsigned)lin->id, l->x[lin->first] - l->node_w / 2, c->y + c->h / 2);
		}
		if (lin->last >= 0 && (size_t)lin->last + 1 < m->nrel && l->cell[(size_t)lin->last * nb + b].v) {
			c = &l->cell[(size_t)lin->last * nb + b];
			fprintf(out, "<rect class=\"death\" data-lineage=\"%u\" x=\"%.1f\" y=\"%.2f\" "
				     "width=\"2\" height=\"%.2f\" fill=\"#222\"/>\n",
				(unsigned)lin->id, l->x[lin->last] + l->node_w / 2 - 1, c->y - 1, c->h + 2);
		}
	}
	rename_marks(out, l);
	fputs("</g>\n", out);
}

static void labels(FILE *out, const mev__chart_layout *l)
{
	fprintf(out, "<g class=\"labels\" font-size=\"%.0f\" fill=\"#111\" stroke=\"#fff\" "
		     "stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\">\n", l->font);
	for (size_t i = 0; i < l->nband_labels; i++) {
		const mev__chart_label *lb = &l->labels.v[i];
		fputs("<text class=\"label\" data-lineage=\"", out);
		band_id(out, l, lb->band - 1);
		/* the release whose name it shows (names.c) */
		fprintf(out, "\" data-release=\"%u\" x=\"%.1f\" y=\"%.1f\"", (unsigned)lb->rel, lb->x, lb->y);
		if (fabs(lb->angle) >= 0.5)
			fprintf(out, " transform=\"rotate(%.1f %.1f %.1f)\"", lb->angle, lb->x, lb->y);
		fputs(">", out);
		xml(out, lb->text);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
	fprintf(out, "<g class=\"axis\" font-size=\"%.0f\" fill=\"#333\">\n", l->axis_font);
	fprintf(out, "<path d=\"M%.1f %.1fH%.1f\" stroke=\"#999\" stroke-width=\"1\"/>\n", l->left,
		l->bottom + 3, l->right);
	for (size_t i = l->nband_labels; i < l->labels.n; i++) {
		const mev__chart_label *lb = &l->labels.v[i];
		fprintf(out, "<path d=\"M%.1f %.1fv4\" stroke=\"#999\"/>", l->x[lb->rel], l->bottom + 1);
		fprintf(out, "<text data-release=\"%u\" x=\"%.1f\" y=\"%.1f\"", (unsigned)lb->rel, lb->x, lb->y);
		if (lb->rotated)
			fprintf(out, " text-anchor=\"end\" transform=\"rotate(-90 %.1f %.1f)\">", lb->x, lb->y);
		else
			fputs(" text-anchor=\"middle\">", out);
		xml(out, lb->text);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);
}

/* A renamed lineage's legend goes on below "CLOCK [1533],": "now DEVICETREE
 * REBASING SUBTREE" (one text element, read as one line); the height it takes. */
static double legend_now(FILE *out, const mev__chart_layout *l, uint32_t li, double x, double room)
{
	char t[200];
	snprintf(t, sizeof t, "%s %s", now_word(l, li), l->m->lin[li].now);
	for (char *p = t; *p; p++)
		if ((unsigned char)*p < 0x20)
			*p = ' ';
	mev__chart_text_fit(t, sizeof t, "", l->axis_font, room);
	fprintf(out, "<tspan class=\"now\" x=\"%.1f\" dy=\"12\"> ", x);
	xml(out, t);
	fputs("</tspan>", out);
	return 12;
}

/* What the ring means, in the legend when the chart draws one; the height it takes. */
static double legend_rename_key(FILE *out, const mev__chart_layout *l, double x, double y)
{
	const mev__chart_model *m = l->m;
	int drawn = 0;
	for (size_t b = 0; b < l->nband && !drawn; b++) {
		const mev__chart_lineage *lin = l->band_lin[b] == UINT32_MAX ? NULL : &m->lin[l->band_lin[b]];
		for (uint32_t i = 0; lin && i < lin->nname && !drawn; i++)
			drawn = renamed_at(l, b, lin->name0 + i) != NULL;
	}
	if (!drawn)
		return 0;
	fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#fff\" stroke=\"#222\" "
		     "stroke-width=\"1.2\"/><text x=\"%.1f\" y=\"%.1f\">renamed (for %d releases or "
		     "more)</text>\n", x + 5, y + 5, x + 14, y + 9, MEV__CHART_NAME_HOLDS);
	return 14;
}

/* The legend: a swatch and the name of each band, then what the marks mean. */
static void legend(FILE *out, const mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	double x = l->right + 28, y = l->top, room = l->width - x - 8;
	size_t shown = 0;
	fprintf(out, "<g class=\"legend\" font-size=\"%.0f\" fill=\"#222\">\n", l->axis_font);
	for (size_t b = 0; b < l->nband; b++) {
		char t[200], id[16] = "";
		if (y + 14 > l->bottom - 40) {
			fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">and %zu more</text>\n", x, y + 9,
				l->nband - b);
			y += 14;
			break;
		}
		if (l->band_lin[b] == UINT32_MAX) {
			size_t others = 0;
			for (size_t i = 0; i < m->nlin; i++)
				others += !m->lin[i].shown && m->lin[i].first >= 0;
			snprintf(t, sizeof t, "other (%zu lineages)", others);
		} else {
			mev__chart_label_text(t, sizeof t, m->lin[l->band_lin[b]].name);
			/* the id 'lineages' prints, as the report's charts write it */
			snprintf(id, sizeof id, " [%" PRIu32 "]%s", m->lin[l->band_lin[b]].id,
				 m->lin[l->band_lin[b]].now ? "," : "");
		}
		mev__chart_text_fit(t, sizeof t, id, l->axis_font, room - 16);
		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>", x, y,
			l->color[b]);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", x + 14, y + 9);
		xml(out, t);
		if (l->band_lin[b] != UINT32_MAX && m->lin[l->band_lin[b]].now)
			y += legend_now(out, l, l->band_lin[b], x + 14, room - 16);
		fputs("</text>\n", out);
		y += 14;
		shown++;
	}
	y += 8;
	fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\" fill=\"#222\"/><text x=\"%.1f\" y=\"%.1f\">"
		     "born (a band starts)</text>\n", x + 5, y + 5, x + 14, y + 9);
	y += 14;
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"2\" height=\"10\" fill=\"#222\"/><text x=\"%.1f\" "
		     "y=\"%.1f\">died (a band ends)</text>\n", x + 4, y, x + 14, y + 9);
	y += 14;
	y += legend_rename_key(out, l, x, y);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"#888\" "
		     "fill-opacity=\"0.55\"/><text x=\"%.1f\" y=\"%.1f\">code moving between "
		     "lineages</text>\n", x, y, x + 14, y + 9);
	y += 14;
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">height: %s</text>\n", x, y + 9,
		mev_chart_measure_name(l->measure));
	mev__chart_unread_legend(out, l, x, y + 14);
	fputs("</g>\n", out);
	(void)shown;
}

/* The shaded span of releases (a report's pair), behind the bands. */
static void mark(FILE *out, const mev__chart_layout *l)
{
	double x0, x1;
	if (l->mark0 < 0 || l->mark1 < 0)
		return;
	x0 = l->x[l->mark0] - 2 * l->node_w;
	x1 = l->x[l->mark1] + 2 * l->node_w;
	fprintf(out, "<rect class=\"mark\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		     "fill=\"#ffd54f\" fill-opacity=\"0.45\"/>\n", x0, l->top - 4, x1 - x0,
		l->bottom - l->top + 8);
}

void mev__chart_svg(FILE *out, const mev__chart_layout *l, const char *title, int standalone,
		    int xml_decl)
{
	const mev__chart_model *m = l->m;
	size_t lineages = 0;
	for (size_t i = 0; i < m->nlin; i++)
		lineages += m->lin[i].first >= 0;
	if (xml_decl)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"maintevo-chart-svg\" "
		     "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		     "font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\">\n",
		l->width, l->height, l->width, l->height);
	fputs("<title>", out);
	xml(out, title);
	fputs("</title>\n", out);
	fprintf(out, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n", l->width, l->height);
	fputs("<text class=\"heading\" x=\"14\" y=\"20\" font-size=\"16\" font-weight=\"bold\" fill=\"#111\">", out);
	xml(out, title);
	fputs("</text>\n", out);
	fputs("<text class=\"subheading\" x=\"14\" y=\"36\" font-size=\"11\" fill=\"#555\">", out);
	fprintf(out, "%zu releases, ", m->nrel);
	xml(out, mev_history_release(m->h, m->rel[0])->tag);
	fputs(" to ", out);
	xml(out, mev_history_release(m->h, m->rel[m->nrel - 1])->tag);
	fprintf(out, "; band height: %s; ", mev_chart_measure_name(l->measure));
	if (l->other)
		fprintf(out, "the %zu largest of %zu lineages, the rest as \"other\"", l->nband - 1, lineages);
	else
		fprintf(out, "all %zu lineages", lineages);
	if (l->mark0 >= 0 && l->mark1 >= 0) {
		fputs("; shaded: ", out);
		xml(out, mev_history_release(m->h, m->rel[l->mark0])->tag);
		fputs(" \xe2\x86\x92 ", out);
		xml(out, mev_history_release(m->h, m->rel[l->mark1])->tag);
	}
	fputs("</text>\n", out);
	/* the plot clipped to its area, in a group the page scales along x to zoom */
	fprintf(out, "<clipPath id=\"maintevo-chart-clip\"><rect x=\"%.1f\" y=\"0\" width=\"%.1f\" "
		     "height=\"%.0f\"/></clipPath>\n", l->left - l->node_w, l->right - l->left + 2 * l->node_w,
		l->height);
	fputs("<g clip-path=\"url(#maintevo-chart-clip)\"><g id=\"maintevo-chart-plot\">\n", out);
	mark(out, l);
	fputs("<g class=\"bands\">\n", out);
	for (size_t b = 0; b < l->nband; b++)
		band_path(out, l, b, !standalone);
	fputs("</g>\n", out);
	flows(out, l);
	fputs("</g></g>\n", out);
	marks(out, l);
	mev__chart_unread_marks(out, l, !standalone);
	labels(out, l);
	legend(out, l);
	fputs("</svg>\n", out);
}
