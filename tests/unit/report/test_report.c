/* Tests of the report's SVG charts and document layer: geometry read back from the SVG, escaping, tables. */
#include "test.h"
#include "report/plots.h"
#include "report/report_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* --- capturing output and reading SVG back ----------------------------------------- */

typedef struct {
	char *buf;
	size_t len;
	FILE *f;
} capture;

static FILE *capture_begin(capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	if (!c->f) {
		perror("open_memstream");
		exit(1);
	}
	return c->f;
}

/* The text written since capture_begin (malloc'ed, the caller frees it). */
static char *capture_end(capture *c)
{
	fclose(c->f);
	return c->buf;
}

/* A document of format fmt writing into c. */
static mev__doc doc_begin(capture *c, mev_report_format fmt)
{
	mev__doc d = { capture_begin(c), fmt, "", 0, NULL };
	return d;
}

/* The element starting at the next "<prefix" in s at or after *at (which
 * moves past it), or NULL. */
static const char *next_elem(const char **at, const char *prefix)
{
	const char *p = strstr(*at, prefix);
	if (p)
		*at = p + strlen(prefix);
	return p;
}

/* Attribute `name` of the element at tag, as a number (NAN when absent). */
static double num_attr(const char *tag, const char *name)
{
	const char *end = strchr(tag, '>');
	size_t n = strlen(name);
	for (const char *p = tag; p && p < end; p++) {
		p = strstr(p, name);
		if (!p || p >= end)
			break;
		if (p[-1] == ' ' && p[n] == '=' && p[n + 1] == '"')
			return strtod(p + n + 2, NULL);
	}
	return NAN;
}

/* The text content of the element at tag, up to the next '<' (static buffer). */
static const char *content(const char *tag)
{
	static char buf[256];
	const char *s = strchr(tag, '>'), *e;
	size_t n;
	if (!s)
		return "";
	s++;
	e = strchr(s, '<');
	n = e ? (size_t)(e - s) : strlen(s);
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
	return buf;
}

static int count(const char *s, const char *needle)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The text of the <title> inside the element at tag. */
static const char *title_of(const char *tag)
{
	const char *t = strstr(tag, "<title>");
	return t ? content(t) : "";
}

/* All numbers of a path's d attribute ("M1,2 L3,4 Z" -> 1 2 3 4), at most max. */
static size_t path_numbers(const char *tag, double *v, size_t max)
{
	const char *p = strstr(tag, " d=\""), *end;
	size_t n = 0;
	if (!p)
		return 0;
	p += 4;
	end = strchr(p, '"');
	while (p < end && n < max) {
		char *q;
		double x;
		if (!strchr("-0123456789.", *p)) {
			p++;
			continue;
		}
		x = strtod(p, &q);
		v[n++] = x;
		p = q;
	}
	return n;
}

/* Numbers in the SVG have one decimal: a and b, or the difference of two
 * such numbers, agree within 0.1. */
#define CHECK_NEAR(a, b) do { double a_ = (a), b_ = (b); if (!(fabs(a_ - b_) <= 0.101)) { \
	fprintf(stderr, "%s:%d: [%s] %s == %.3f, expected %s == %.3f\n", __FILE__, __LINE__, \
		test_current, #a, a_, #b, b_); test_failures++; } } while (0)

/* --- bar charts ------------------------------------------------------------------------ */

/* The plot of chart_bars: margins and size in viewBox units. */
enum { BARS_TOP = 24, BARS_LEFT = 56, BARS_PLOT_W = 888, BARS_PLOT_H = 200 };

/* Bars are to scale: height / value is the same for every bar, the axis
 * ends at the round number above the largest value, bars stand on one
 * baseline, are equally wide and evenly spaced. */
static void test_bars_scaled(void)
{
	const char *labels[] = { "v1", "v2", "v3", "v4", "v5" };
	const double values[] = { 7, 1234, 600, 0, 1400 };
	const uint8_t hl[] = { 0, 1, 0, 0, 0 };
	capture c;
	char *svg;
	const char *at, *e;
	double x0 = 0, w0 = 0;
	size_t i = 0;
	mev__plot_bars(capture_begin(&c), "sections", labels, values, hl, 5);
	svg = capture_end(&c);
	/* 1400 / 5 ticks = 280 a tick, rounded down to 200: the axis ends at 1400 */
	at = svg;
	while ((e = next_elem(&at, "<rect class=\"bar"))) {
		double x = num_attr(e, "x"), y = num_attr(e, "y"), w = num_attr(e, "width"),
		       h = num_attr(e, "height");
		CHECK(i < 5);
		if (i >= 5)
			break;
		CHECK_NEAR(h, values[i] / 1400 * BARS_PLOT_H);
		CHECK_NEAR(y + h, BARS_TOP + BARS_PLOT_H);
		CHECK_INT(strncmp(e, "<rect class=\"bar hl\"", 20) == 0, hl[i]);
		if (i == 0) {
			x0 = x;
			w0 = w;
			CHECK(x > BARS_LEFT && x < BARS_LEFT + BARS_PLOT_W / 5.0);
		} else {
			CHECK_NEAR(w, w0);
			CHECK_NEAR(x - x0, i * (BARS_PLOT_W / 5.0));
		}
		i++;
	}
	CHECK_INT(i, 5);
	/* the tallest bar fills the plot */
	CHECK(strstr(svg, "height=\"200.0\"><title>v5: 1400</title>") != NULL);
	free(svg);
}

/* The y axis: ticks at round steps from 0 to the axis end, evenly spaced,
 * labelled with short numbers, the end at the top of the plot. */
static void test_bars_ticks(void)
{
	static const struct {
		double max;
		const char *labels[10];
	} cases[] = {
		{ 40, { "0", "10", "20", "30", "40" } },
		{ 1234, { "0", "200", "400", "600", "800", "1000", "1200", "1400" } },
		{ 2000000, { "0", "500k", "1M", "1.5M", "2M" } },
		{ 3, { "0", "1", "2", "3" } },  /* steps are whole numbers */
		{ 0, { "0", "1" } },            /* nothing to show: an axis to 1 */
	};
	for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
		const char *labels[] = { "a" };
		capture c;
		char *svg;
		const char *at, *e;
		size_t n = 0, want = 0;
		double prev = 0, gap = 0;
		while (want < 10 && cases[k].labels[want])
			want++;
		mev__plot_bars(capture_begin(&c), "ticks", labels, &cases[k].max, NULL, 1);
		svg = capture_end(&c);
		at = svg;
		while ((e = next_elem(&at, "<text class=\"tick\""))) {
			double y = num_attr(e, "y") - 4; /* the label sits 4 below its line */
			if (n < want)
				CHECK_STR(content(e), cases[k].labels[n]);
			if (n == 0)
				CHECK_NEAR(y, BARS_TOP + BARS_PLOT_H);
			else if (n == 1)
				gap = prev - y;
			else
				CHECK_NEAR(prev - y, gap);
			prev = y;
			n++;
		}
		CHECK_INT(n, want);
		CHECK_NEAR(prev, BARS_TOP); /* the last tick ends the axis */
		CHECK_INT(count(svg, "<line class=\"grid\""), want);
		free(svg);
	}
}

/* No bars, or bars of nothing: a figure with an axis and no error. */
static void test_bars_empty(void)
{
	const char *labels[] = { "a", "b" };
	const double zeros[] = { 0, 0 };
	capture c;
	char *svg;
	const char *at, *e;
	mev__plot_bars(capture_begin(&c), "empty", NULL, NULL, NULL, 0);
	svg = capture_end(&c);
	CHECK(strncmp(svg, "<figure class=\"chart\">\n<svg viewBox=\"0 0 960 300\"", 49) == 0);
	CHECK_INT(count(svg, "<rect"), 0);
	CHECK_INT(count(svg, "<text class=\"xl"), 0);
	CHECK(strstr(svg, "</svg>\n<figcaption>empty</figcaption>\n</figure>\n") != NULL);
	free(svg);

	mev__plot_bars(capture_begin(&c), "zeros", labels, zeros, NULL, 2);
	svg = capture_end(&c);
	at = svg;
	CHECK_INT(count(svg, "<rect class=\"bar\""), 2);
	while ((e = next_elem(&at, "<rect class=\"bar\"")))
		CHECK_NEAR(num_attr(e, "height"), 0);
	free(svg);
}

/* x labels: the highlighted ones always, the others only where they fit. */
static void test_bars_labels(void)
{
	enum { N = 200 };
	const char *labels[N];
	double values[N];
	uint8_t hl[N] = { 0 };
	char names[N][8];
	capture c;
	char *svg;
	for (size_t i = 0; i < N; i++) {
		snprintf(names[i], sizeof names[i], "r%zu", i);
		labels[i] = names[i];
		values[i] = (double)i;
	}
	hl[3] = hl[4] = hl[150] = 1;
	mev__plot_bars(capture_begin(&c), "many", labels, values, hl, N);
	svg = capture_end(&c);
	/* a slot is 888 / 200 = 4.44 units: a label every 4 slots at most */
	CHECK(count(svg, "<text class=\"xl") <= N / 4 + 1);
	CHECK(strstr(svg, ">r150</text>") != NULL);
	CHECK(strstr(svg, ">r199</text>") != NULL);
	CHECK(strstr(svg, "class=\"xl mark\"") != NULL);
	/* 3 and 4 are too close for two labels: the newer one wins */
	CHECK(strstr(svg, ">r4</text>") != NULL);
	CHECK(strstr(svg, ">r3</text>") == NULL);
	free(svg);
}

/* --- stacked areas ------------------------------------------------------------------- */

/* Every band lies on the one below: its lower edge is the running total of
 * the bands below, its upper edge that plus its own values, on one scale. */
static void test_stacked_geometry(void)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 4, 4 };
	const mev__plot_series s[] = { { "low", a }, { "high", b } };
	const char *labels[] = { "x", "y", "z" };
	const uint8_t mark[] = { 0, 1, 0 };
	/* plot: top 16, height 300, left 56, width 560; totals up to 7: step 1, axis end 7 */
	const double mt = 16, ph = 300, ml = 56, slot = 560 / 3.0, top = 7;
	const double below[2][3] = { { 0, 0, 0 }, { 1, 2, 3 } }, above[2][3] = { { 1, 2, 3 }, { 5, 6, 7 } };
	capture c;
	char *svg;
	const char *at, *e;
	size_t k = 0;
	mev__plot_stacked(capture_begin(&c), "areas", labels, 3, s, 2, mark);
	svg = capture_end(&c);
	at = svg;
	while ((e = next_elem(&at, "<path fill=")) && k < 2) {
		double v[32];
		size_t n = path_numbers(e, v, 32);
		CHECK_INT(n, 12); /* three points along the top, three back along the bottom */
		for (size_t i = 0; n == 12 && i < 3; i++) {
			CHECK_NEAR(v[2 * i], ml + slot * (i + 0.5));
			CHECK_NEAR(v[2 * i + 1], mt + ph - above[k][i] / top * ph);
			CHECK_NEAR(v[6 + 2 * (2 - i)], ml + slot * (i + 0.5));
			CHECK_NEAR(v[6 + 2 * (2 - i) + 1], mt + ph - below[k][i] / top * ph);
		}
		CHECK_STR(title_of(e), k == 0 ? "low" : "high");
		k++;
	}
	CHECK_INT(k, 2);
	/* one guide at the marked position */
	CHECK_INT(count(svg, "<line class=\"guide\""), 1);
	e = strstr(svg, "<line class=\"guide\"");
	CHECK(e != NULL);
	if (e)
		CHECK_NEAR(num_attr(e, "x1"), ml + slot * 1.5);
	/* the legend: top band first, with its last value */
	e = strstr(svg, "<text class=\"lg\"");
	CHECK(e && strcmp(content(e), "high") == 0);
	e = strstr(svg, "<text class=\"lg num\"");
	CHECK(e && strcmp(content(e), "4") == 0);
	free(svg);
}

/* Legend names are escaped and cut at 36 characters, not inside a UTF-8
 * sequence. */
static void test_stacked_legend_cut(void)
{
	char name[128] = "";
	const double v[] = { 5 };
	mev__plot_series s[] = { { name, v } };
	const char *labels[] = { "x" };
	capture c;
	char *svg, want[128] = "";
	const char *e;
	for (int i = 0; i < 40; i++)
		strcat(name, "\xc3\xa9"); /* é: two bytes */
	for (int i = 0; i < 36; i++)
		strcat(want, "\xc3\xa9");
	strcat(want, "\xe2\x80\xa6");
	mev__plot_stacked(capture_begin(&c), "cut", labels, 1, s, 1, NULL);
	svg = capture_end(&c);
	e = strstr(svg, "<text class=\"lg\"");
	CHECK(e && strcmp(content(e), want) == 0);
	free(svg);

	s[0].name = "A & <B>";
	mev__plot_stacked(capture_begin(&c), "cut", labels, 1, s, 1, NULL);
	svg = capture_end(&c);
	e = strstr(svg, "<text class=\"lg\"");
	CHECK(e && strcmp(content(e), "A &amp; &lt;B&gt;") == 0);
	CHECK(strstr(svg, "<B>") == NULL);
	free(svg);

	/* no series, no positions */
	mev__plot_stacked(capture_begin(&c), "none", NULL, 0, NULL, 0, NULL);
	svg = capture_end(&c);
	CHECK_INT(count(svg, "<path"), 0);
	CHECK(strstr(svg, "</figure>\n") != NULL);
	free(svg);
}

/* --- alluvial diagrams ------------------------------------------------------------- */

/* One split: node heights and flow widths on one scale (the group fills
 * 360 units), nodes stacked 10 apart, flows stacked where they leave. */
static void test_alluvial_split(void)
{
	const char *cols[] = { "before", "after" };
	const mev__plot_node nodes[] = {
		{ "ALL", 0, 100, 0, 0 }, { "BIG", 1, 60, 1, 0 }, { "SMALL", 1, 40, -1, 0 },
	};
	const mev__plot_flow flows[] = { { 0, 1, 60 }, { 0, 2, 40 } };
	const double k = 360 / 100.0, mt = 34;
	double h[3], y[3], fy[2], fw[2];
	capture c;
	char *svg;
	const char *at, *e;
	size_t n = 0;
	mev__plot_alluvial(capture_begin(&c), "moves", cols, 2, nodes, 3, flows, 2);
	svg = capture_end(&c);
	at = svg;
	while ((e = next_elem(&at, "<rect x=")) && n < 3) {
		h[n] = num_attr(e, "height");
		y[n] = num_attr(e, "y");
		n++;
	}
	CHECK_INT(n, 3);
	CHECK_NEAR(h[0], 100 * k);
	CHECK_NEAR(h[1], 60 * k);
	CHECK_NEAR(h[2], 40 * k);
	CHECK_NEAR(y[0], mt);
	CHECK_NEAR(y[1], mt);
	CHECK_NEAR(y[2], y[1] + h[1] + 10);
	at = svg;
	for (n = 0; n < 2 && (e = next_elem(&at, "<path class=\"flow\"")); n++) {
		double v[32];
		CHECK_INT(path_numbers(e, v, 32), 16);
		fy[n] = v[1];
		fw[n] = v[9] - v[7]; /* the bottom edge at the target minus its top */
		CHECK_NEAR(v[7], n == 0 ? y[1] : y[2]); /* a flow enters its target at the top */
	}
	CHECK_INT(n, 2);
	CHECK_NEAR(fw[0], 60 * k);
	CHECK_NEAR(fw[1], 40 * k);
	CHECK_NEAR(fy[0], y[0]);
	CHECK_NEAR(fy[1], y[0] + fw[0]);
	/* colours: palette index, grey for -1; column titles */
	CHECK(strstr(svg, "fill=\"#999\"><title>SMALL: 40 lines</title>") != NULL);
	CHECK(strstr(svg, ">before</text>") && strstr(svg, ">after</text>"));
	CHECK(strstr(svg, "<title>ALL \xe2\x86\x92 BIG: 60 lines</title>") != NULL);
	free(svg);
}

/* Two groups on one scale: bars and bands of both compare and add up. */
static void test_alluvial_groups(void)
{
	const char *cols[] = { "a", "b" };
	const mev__plot_node nodes[] = {
		{ "BIG", 0, 400, 0, 0 }, { "B1", 1, 400, 0, 0 },
		{ "SMALL", 0, 100, 1, 1 }, { "S1", 1, 50, 1, 1 }, { "S2", 1, 50, 1, 1 },
	};
	const mev__plot_flow flows[] = { { 0, 1, 400 }, { 2, 3, 50 }, { 2, 4, 50 } };
	double h[5], y[5];
	capture c;
	char *svg;
	const char *at, *e;
	size_t n = 0;
	mev__plot_alluvial(capture_begin(&c), "groups", cols, 2, nodes, 5, flows, 3);
	svg = capture_end(&c);
	at = svg;
	while ((e = next_elem(&at, "<rect x=")) && n < 5) {
		h[n] = num_attr(e, "height");
		y[n] = num_attr(e, "y");
		n++;
	}
	CHECK_INT(n, 5);
	/* one scale for all groups: the largest fills 360 units, the one of a
	 * quarter of its size a quarter of that */
	CHECK_NEAR(h[0], 360);
	CHECK_NEAR(h[2], 90);
	CHECK_NEAR(h[3], h[2] / 2);
	CHECK_NEAR(h[3] + h[4], h[2]);
	/* the second group starts below the first in both columns */
	CHECK_NEAR(y[2], y[0] + h[0] + 10 + 10);
	CHECK_NEAR(y[3], y[2]);
	free(svg);
}

/* Nothing to draw: a figure of the margins' height; names escaped. */
static void test_alluvial_empty_and_escaped(void)
{
	const char *cols[] = { "<old>", "\"new\"" };
	const mev__plot_node nodes[] = { { "A&B", 0, 10, 0, 0 }, { "<C>", 1, 10, 0, 0 } };
	const mev__plot_flow flows[] = { { 0, 1, 10 } };
	capture c;
	char *svg;
	mev__plot_alluvial(capture_begin(&c), "none", cols, 2, NULL, 0, NULL, 0);
	svg = capture_end(&c);
	CHECK(strstr(svg, "viewBox=\"0 0 960 46\"") != NULL); /* 34 above, 12 below */
	CHECK_INT(count(svg, "<rect"), 0);
	free(svg);

	mev__plot_alluvial(capture_begin(&c), "a \"quoted\" <caption> & more", cols, 2, nodes, 2, flows, 1);
	svg = capture_end(&c);
	CHECK(strstr(svg, "aria-label=\"a &quot;quoted&quot; &lt;caption&gt; &amp; more\"") != NULL);
	CHECK(strstr(svg, "<title>a &quot;quoted&quot; &lt;caption&gt; &amp; more</title>") != NULL);
	CHECK(strstr(svg, ">&lt;old&gt;</text>") && strstr(svg, ">&quot;new&quot;</text>"));
	CHECK(strstr(svg, "<title>A&amp;B \xe2\x86\x92 &lt;C&gt;: 10 lines</title>") != NULL);
	CHECK(strstr(svg, "<C>") == NULL && strstr(svg, "A&B") == NULL);
	free(svg);
}

static void test_chart_short(void)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		{ 0, "0" }, { 999, "999" }, { 9999, "9999" }, { 12345, "12.3k" }, { 350000, "350k" },
		{ 1500000, "1.5M" }, { 2.5e9, "2.5G" }, { -20000, "-20k" }, { 0.4, "0" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char buf[16];
		mev__plot_short(buf, cases[i].v);
		CHECK_STR(buf, cases[i].want);
	}
	CHECK_STR(mev__plot_color(0), mev__plot_color(18)); /* the palette cycles */
	CHECK(strcmp(mev__plot_color(0), mev__plot_color(1)) != 0);
}

/* --- the document layer ------------------------------------------------------------- */

static void test_doc_table(void)
{
	const char *hdr[] = { "name", "a|b", "n" };
	capture c;
	mev__doc d;
	char *out;

	d = doc_begin(&c, MEV_REPORT_MD);
	mev__doc_table(&d, hdr, "ltr");
	mev__doc_cell(&d, "x | y");
	mev__doc_cell(&d, "v1.0");
	mev__doc_cell_count(&d, 1234567);
	mev__doc_cell(&d, "");
	mev__doc_cell(&d, "line\nbreak");
	mev__doc_cell_count(&d, -5);
	mev__doc_table_end(&d);
	out = capture_end(&c);
	CHECK_STR(out, "| name | a\\|b | n |\n"
		       "|:--|:--|--:|\n"
		       "| x \\| y | v1.0 | 1,234,567 |\n"
		       "|  | line break | -5 |\n"
		       "\n");
	free(out);

	d = doc_begin(&c, MEV_REPORT_HTML);
	mev__doc_table(&d, hdr, "ltr");
	mev__doc_cell(&d, "x | y");
	mev__doc_cell(&d, "v1.0");
	mev__doc_cell_count(&d, 1234567);
	mev__doc_table_end(&d);
	out = capture_end(&c);
	/* in a box that scrolls it when it is still wider than the page */
	CHECK_STR(out, "<div class=\"table\"><table>\n<thead><tr><th>name</th><th>a|b</th><th class=\"n\">n</th></tr></thead>\n"
		       "<tbody>\n<tr><td>x | y</td><td class=\"t\">v1.0</td><td class=\"n\">1,234,567</td></tr>\n"
		       "</tbody>\n</table></div>\n");
	free(out);
}

/* Changes: sign, thousands, percent of the old value, coloured by which
 * way is worse. */
static void test_doc_change(void)
{
	static const struct {
		int64_t from, to;
		int percent, worse;
		const char *html;
	} cases[] = {
		{ 100, 150, 1, 1, "<td class=\"n bad\">+50 (+50.0%)</td>" },
		{ 100, 150, 1, -1, "<td class=\"n good\">+50 (+50.0%)</td>" },
		{ 100, 150, 1, 0, "<td class=\"n\">+50 (+50.0%)</td>" },
		{ 2000, 0, 1, 1, "<td class=\"n good\">-2,000 (-100.0%)</td>" },
		{ 0, 5, 1, 0, "<td class=\"n\">+5</td>" },     /* no percent of nothing */
		{ 3, 4, 0, 0, "<td class=\"n\">+1</td>" },
		{ 7, 7, 1, 1, "<td class=\"n\">0</td>" },      /* unchanged: neither colour */
		{ 3000, 3001, 1, 0, "<td class=\"n\">+1 (+0.0%)</td>" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *hdr[] = { "change" };
		capture c;
		mev__doc d = doc_begin(&c, MEV_REPORT_HTML);
		char *out, want[128];
		mev__doc_table(&d, hdr, "r");
		mev__doc_cell_change(&d, cases[i].from, cases[i].to, cases[i].percent, cases[i].worse);
		out = capture_end(&c);
		snprintf(want, sizeof want, "<tr>%s</tr>\n", cases[i].html);
		CHECK(strstr(out, want) != NULL);
		if (!strstr(out, want))
			fprintf(stderr, "  case %zu: %s\n", i, out);
		free(out);
	}
}

/* Text escaping: every markup character in HTML; in Markdown those that
 * would make markup, '&' only before an entity, '_' only at a word's edge. */
static void test_doc_escaping(void)
{
	static const struct {
		const char *in, *md, *html;
	} cases[] = {
		{ "A & B_C", "A & B_C", "A &amp; B_C" },
		{ "<script>alert(\"x\")</script>", "\\<script\\>alert(\"x\")\\</script\\>",
		  "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" },
		{ "_x_ &amp; &#1;", "\\_x\\_ \\&amp; \\&#1;", "_x_ &amp;amp; &amp;#1;" },
		{ "*b* [l](u) `c` a|b \\", "\\*b\\* \\[l\\](u) \\`c\\` a\\|b \\\\",
		  "*b* [l](u) `c` a|b \\" },
		{ "two\nlines", "two lines", "two\nlines" },
		{ "it's", "it's", "it&apos;s" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		for (int f = 0; f < 2; f++) {
			capture c;
			mev__doc d = doc_begin(&c, f ? MEV_REPORT_HTML : MEV_REPORT_MD);
			char *out;
			mev__doc_text(&d, cases[i].in);
			out = capture_end(&c);
			CHECK_STR(out, f ? cases[i].html : cases[i].md);
			free(out);
		}
	}
}

static void test_doc_blocks(void)
{
	capture c;
	mev__doc d;
	char *out;

	d = doc_begin(&c, MEV_REPORT_HTML);
	mev__doc_heading(&d, 2, "Sections per release");
	mev__doc_heading(&d, 3, "A <b>");
	mev__doc_para(&d, NULL, "x & y");
	mev__doc_more(&d, 0, "nothing");
	mev__doc_more(&d, 12, "maintevo export events");
	mev__doc_missing(&d, "Not tracked", "maintevo track");
	out = capture_end(&c);
	CHECK_STR(out, "<h2 id=\"sections-per-release\">Sections per release</h2>\n"
		       "<h3>A &lt;b&gt;</h3>\n"
		       "<p>x &amp; y</p>\n"
		       "<p class=\"note\">\xe2\x80\xa6 and 12 more; all of them: "
		       "<code>maintevo export events</code></p>\n"
		       "<p class=\"note\">Not tracked: run <code>maintevo track</code> on the store first "
		       "(with the same clustering options).</p>\n");
	free(out);

	d = doc_begin(&c, MEV_REPORT_MD);
	mev__doc_heading(&d, 2, "Sections per release");
	mev__doc_heading(&d, 3, "A <b>");
	mev__doc_para(&d, NULL, "x & y");
	mev__doc_more(&d, 0, "nothing");
	mev__doc_more(&d, 12, "maintevo export events");
	out = capture_end(&c);
	CHECK_STR(out, "## Sections per release\n\n"
		       "### A \\<b\\>\n\n"
		       "x & y\n\n"
		       "_\xe2\x80\xa6 and 12 more; all of them: `maintevo export events`_\n\n");
	free(out);

	/* the page: title escaped, a footer; nothing around the Markdown */
	d = doc_begin(&c, MEV_REPORT_HTML);
	mev__doc_begin(&d, "P & Q: v1 \xe2\x86\x92 v2");
	mev__doc_end(&d);
	out = capture_end(&c);
	CHECK(strncmp(out, "<!DOCTYPE html>\n", 16) == 0);
	CHECK(strstr(out, "<title>P &amp; Q: v1 \xe2\x86\x92 v2</title>") != NULL);
	CHECK(strstr(out, "</footer>\n</main>\n</body>\n</html>\n") != NULL);
	free(out);
	d = doc_begin(&c, MEV_REPORT_MD);
	mev__doc_begin(&d, "P & Q");
	out = capture_end(&c);
	CHECK_STR(out, "");
	free(out);
}

static void test_formats(void)
{
	static const struct {
		int64_t v;
		const char *want;
	} counts[] = {
		{ 0, "0" }, { 999, "999" }, { 1000, "1,000" }, { -1234, "-1,234" }, { 123456, "123,456" },
		{ INT64_MAX, "9,223,372,036,854,775,807" },
	};
	char buf[32], date[16];
	for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
		mev_table_count(buf, counts[i].v);
		CHECK_STR(buf, counts[i].want);
	}
	mev__fmt_date(date, 1577880000);
	CHECK_STR(date, "2020-01-01");
	mev__fmt_date(date, 0);
	CHECK_STR(date, "1970-01-01");
	CHECK_INT(mev_report_format_parse("md"), MEV_REPORT_MD);
	CHECK_INT(mev_report_format_parse("markdown"), MEV_REPORT_MD);
	CHECK_INT(mev_report_format_parse("html"), MEV_REPORT_HTML);
	CHECK_INT(mev_report_format_parse("HTML"), -1);
	CHECK_INT(mev_report_format_parse(""), -1);
	CHECK(mev__change_class(0, 1) == NULL);
	CHECK(mev__change_class(5, 0) == NULL);
	CHECK_STR(mev__change_class(-5, -1), "bad");
	CHECK_STR(mev__change_class(-5, 1), "good");
}

/* The flow width of a split or merge: the measured share of the older
 * side, else estimated from the similarity of its two sides. */
static void test_shared_lines(void)
{
	mev_event e;
	memset(&e, 0, sizeof e);
	e.from_lines = 100;
	e.share = 0.45;
	CHECK_NEAR(mev__shared_lines(&e), 45);
	e.share = NAN; /* a store tracked before the share was kept */
	e.to_lines = 60;
	e.similarity = 0.6; /* |A & B| = 0.6 * 160 / 1.6 = 60: B inside A */
	CHECK_NEAR(mev__shared_lines(&e), 60);
	e.similarity = 0.25; /* 0.25 * 160 / 1.25 = 32 */
	CHECK_NEAR(mev__shared_lines(&e), 32);
	e.similarity = 1; /* more than the smaller side holds: cut */
	CHECK_NEAR(mev__shared_lines(&e), 60);
	e.similarity = NAN; /* unknown: the smaller side */
	CHECK_NEAR(mev__shared_lines(&e), 60);
	e.kind = MEV_EVENT_DEATH;
	CHECK_INT(mev__event_size(&e), 100);
	e.kind = MEV_EVENT_BIRTH;
	CHECK_INT(mev__event_size(&e), 60);
}

int main(void)
{
	RUN(test_bars_scaled);
	RUN(test_bars_ticks);
	RUN(test_bars_empty);
	RUN(test_bars_labels);
	RUN(test_stacked_geometry);
	RUN(test_stacked_legend_cut);
	RUN(test_alluvial_split);
	RUN(test_alluvial_groups);
	RUN(test_alluvial_empty_and_escaped);
	RUN(test_chart_short);
	RUN(test_doc_table);
	RUN(test_doc_change);
	RUN(test_doc_escaping);
	RUN(test_doc_blocks);
	RUN(test_formats);
	RUN(test_shared_lines);
	return test_summary();
}
