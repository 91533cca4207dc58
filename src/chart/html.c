/* The lineage chart as one self-contained page: the drawing, its data as JSON, the style and the script inline. */
#include "chart_internal.h"
#include "maintevo/table.h"
#include "util/text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void mev__chart_json_str(FILE *out, const char *s)
{
	mev_table_json_script_str(out, s, strlen(s));
}

static void num(FILE *out, double v)
{
	if (isnan(v))
		fputs("null", out);
	else
		fprintf(out, "%.4g", v);
}

static void band_key(FILE *out, const mev__chart_layout *l, size_t b)
{
	if (l->band_lin[b] == UINT32_MAX)
		fputs("\"other\"", out);
	else
		fprintf(out, "%u", (unsigned)l->m->lin[l->band_lin[b]].id);
}

/* Per band and release: lines, files and sections (0: not alive). */
static void json_bands(FILE *out, const mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	fputs(",\n\"bands\":[", out);
	for (size_t b = 0; b < l->nband; b++) {
		fputs(b ? ",\n{\"id\":" : "\n{\"id\":", out);
		band_key(out, l, b);
		fprintf(out, ",\"color\":\"%s\"", l->color[b]);
		for (int k = 0; k < MEV_CHART_MEASURES; k++) {
			fprintf(out, ",\"%s\":[", mev_chart_measure_name((mev_chart_measure)k));
			for (size_t r = 0; r < m->nrel; r++) {
				uint64_t v = 0;
				if (l->band_lin[b] != UINT32_MAX) {
					const mev__chart_node *n = mev__chart_node_of(m, r, l->band_lin[b]);
					v = n ? n->v[k] : 0;
				} else {
					for (size_t i = 0; i < m->nodes[r].n; i++)
						if (!m->lin[m->nodes[r].v[i].lineage].shown)
							v += m->nodes[r].v[i].v[k];
				}
				fprintf(out, r ? ",%llu" : "%llu", (unsigned long long)v);
			}
			fputs("]", out);
		}
		fputs("}", out);
	}
	fputs("]", out);
}

/* Every lineage with a node: id, name, parent, first, last, band (1-based, 0: other). */
static void json_lineages(FILE *out, const mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	int first = 1;
	fputs(",\n\"lineages\":[", out);
	for (size_t i = 0; i < m->nlin; i++) {
		const mev__chart_lineage *lin = &m->lin[i];
		if (lin->first < 0)
			continue;
		fprintf(out, "%s[%u,", first ? "\n" : ",\n", (unsigned)lin->id);
		mev__chart_json_str(out, lin->name);
		fprintf(out, ",%u,%d,%d,%u,%llu]", (unsigned)lin->parent, lin->first, lin->last,
			(unsigned)lin->shown, (unsigned long long)lin->peak[l->measure]);
		first = 0;
	}
	fputs("]", out);
}

/* The events of the lineages drawn as bands: kind, pair (the release it
 * ends in), from and to lineage, share, sizes, support, cause. */
static void json_events(FILE *out, const mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	int first = 1;
	fputs(",\n\"events\":[", out);
	for (size_t i = 0; i < m->flows.n; i++) {
		const mev__chart_flow *f = &m->flows.v[i];
		const mev_event *e = &mev_history_events(m->h)->v[f->event];
		uint32_t a = f->from && f->from <= m->max_id && m->lin_of_id[f->from] ?
			     m->lin[m->lin_of_id[f->from] - 1].shown : 0;
		uint32_t b = f->to && f->to <= m->max_id && m->lin_of_id[f->to] ?
			     m->lin[m->lin_of_id[f->to] - 1].shown : 0;
		if (!a && !b)
			continue;
		fprintf(out, "%s[\"%s\",%u,%u,%u,", first ? "\n" : ",\n", mev_event_name(e->kind),
			(unsigned)f->rel, (unsigned)f->from, (unsigned)f->to);
		num(out, e->share);
		fprintf(out, ",%lld,%lld,", (long long)e->from_lines, (long long)e->to_lines);
		num(out, e->support);
		fputs(",", out);
		mev__chart_json_str(out, e->cause_kind ? e->cause_kind : "");
		fputs(",", out);
		mev__chart_json_str(out, e->cause ? e->cause : "");
		fprintf(out, ",%llu,%llu,%lld,%u]", (unsigned long long)f->v[MEV_CHART_LINES],
			(unsigned long long)f->v[MEV_CHART_SECTIONS], (long long)f->files,
			(unsigned)e->partner_lineage);
		first = 0;
	}
	fputs("]", out);
}

/* Sections of each lineage: lineage id, title, then [start, end] release pairs. */
static void json_sections(FILE *out, const mev__chart_model *m)
{
	fputs(",\n\"sections\":[", out);
	for (size_t i = 0; i < m->secs.n; i++) {
		const mev__chart_secrun *s = &m->secs.v[i];
		fprintf(out, "%s[%u,", i ? ",\n" : "\n", (unsigned)m->lin[s->lineage].id);
		mev__chart_json_str(out, s->title);
		for (size_t k = 0; k < s->span.n; k++)
			fprintf(out, ",%u", (unsigned)s->span.v[k]);
		fputs("]", out);
	}
	fputs("]", out);
}

/* The index of key in map (added at the end of list when new), or -1. */
static int64_t intern(mev_strmap *map, uint32_t *count, const char *key, size_t len, int *added)
{
	uint32_t v;
	if (mev__strmap_intern(map, key, len, *count, &v, added))
		return -1;
	*count += (uint32_t)*added;
	return v;
}

/* Paths, shortened: "dirs" (each folder once), "sets" (each set of
 * lineage ids once), "paths": [folder, file name, then (release, set)
 * where its lineages change]. */
static int json_paths(FILE *out, const mev__chart_model *m)
{
	size_t n = m->paths.n;
	uint32_t *start = calloc(n + 2, sizeof *start), *runs = malloc((m->pathruns.n + 1) * sizeof *runs);
	uint32_t *dir = malloc((n + 1) * sizeof *dir), *set = malloc((m->pathruns.n + 1) * sizeof *set);
	uint32_t *fill = calloc(n + 1, sizeof *fill), ndirs = 0, nsets = 0;
	mev_strmap dirs = MEV_STRMAP_INIT, sets = MEV_STRMAP_INIT;
	int rc = -1, added;
	if (!start || !runs || !dir || !set || !fill)
		goto done;
	for (size_t i = 0; i < m->pathruns.n; i++)
		start[m->pathruns.v[i].path + 1]++;
	for (size_t p = 0; p < n; p++)
		start[p + 1] += start[p];
	for (size_t i = 0; i < m->pathruns.n; i++) {
		uint32_t p = m->pathruns.v[i].path;
		runs[start[p] + fill[p]++] = (uint32_t)i;
	}
	fputs(",\n\"dirs\":[", out);
	for (size_t p = 0; p < n; p++) {
		const char *slash = strrchr(m->paths.v[p], '/');
		size_t len = slash ? (size_t)(slash - m->paths.v[p]) + 1 : 0;
		int64_t d = intern(&dirs, &ndirs, m->paths.v[p], len, &added);
		if (d < 0)
			goto done;
		dir[p] = (uint32_t)d;
		if (added) {
			char *t = strndup(m->paths.v[p], len);
			if (!t)
				goto done;
			fputs(d ? ",\n" : "\n", out);
			mev__chart_json_str(out, t);
			free(t);
		}
	}
	fputs("],\n\"sets\":[", out);
	for (size_t i = 0; i < m->pathruns.n; i++) {
		const mev__chart_pathrun *r = &m->pathruns.v[i];
		int64_t k = intern(&sets, &nsets, r->n ? (const char *)(m->pool.v + r->off) : "",
				   r->n * sizeof *m->pool.v, &added);
		if (k < 0)
			goto done;
		set[i] = (uint32_t)k;
		if (added) {
			fputs(k ? ",[" : "\n[", out);
			for (uint32_t j = 0; j < r->n; j++)
				fprintf(out, j ? ",%u" : "%u", (unsigned)m->pool.v[r->off + j]);
			fputs("]", out);
		}
	}
	fputs("],\n\"paths\":[", out);
	for (size_t p = 0; p < n; p++) {
		const char *slash = strrchr(m->paths.v[p], '/');
		fprintf(out, p ? ",\n[%u," : "\n[%u,", (unsigned)dir[p]);
		mev__chart_json_str(out, slash ? slash + 1 : m->paths.v[p]);
		for (uint32_t k = start[p]; k < start[p + 1]; k++)
			fprintf(out, ",%u,%u", (unsigned)m->pathruns.v[runs[k]].rel, (unsigned)set[runs[k]]);
		fputs("]", out);
	}
	fputs("]", out);
	rc = 0;
done:
	mev__strmap_free(&dirs);
	mev__strmap_free(&sets);
	free(start), free(runs), free(dir), free(set), free(fill);
	return rc;
}

static int json_data(FILE *out, const mev__chart_layout *l, const char *title, const char *store)
{
	const mev__chart_model *m = l->m;
	fputs("{\"version\":1,\"title\":", out);
	mev__chart_json_str(out, title);
	fputs(",\"store\":", out);
	if (store)
		mev__chart_json_str(out, store);
	else
		fputs("null", out);
	fprintf(out, ",\"measure\":\"%s\",\"has_files\":%s,\"width\":%.0f,\"plot\":[%.1f,%.1f,%.1f,%.1f]",
		mev_chart_measure_name(l->measure), m->has_files ? "true" : "false", l->width, l->left,
		l->top, l->right, l->bottom);
	fputs(",\n\"releases\":[", out);
	for (size_t r = 0; r < m->nrel; r++) {
		fputs(r ? "," : "", out);
		mev__chart_json_str(out, mev_history_release(m->h, m->rel[r])->tag);
	}
	fputs("],\n\"x\":[", out);
	for (size_t r = 0; r < m->nrel; r++)
		fprintf(out, r ? ",%.1f" : "%.1f", l->x[r]);
	fputs("],\n\"dates\":[", out);
	for (size_t r = 0; r < m->nrel; r++)
		fprintf(out, r ? ",%lld" : "%lld",
			(long long)mev_release_date(mev_history_release(m->h, m->rel[r])));
	fputs("]", out);
	json_bands(out, l);
	json_lineages(out, l);
	json_events(out, l);
	json_sections(out, m);
	if (json_paths(out, m))
		return -1;
	fputs("}", out);
	return 0;
}

int mev__chart_html(FILE *out, const mev__chart_layout *l, const char *title, const char *store_path)
{
	fputs("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", out);
	mev_table_xml_str(out, title, strlen(title));
	fputs("</title>\n<style>\n", out);
	fwrite(mev__chart_css, 1, mev__chart_css_len, out);
	fputs("</style>\n</head>\n<body>\n<div id=\"maintevo-chart\">\n"
	      "<div class=\"mc-controls\">\n"
	      "<label>Find <input id=\"maintevo-chart-search\" type=\"search\" autocomplete=\"off\" "
	      "spellcheck=\"false\" placeholder=\"lineage, section or path\"></label>\n"
	      "<label>from <select id=\"maintevo-chart-from\"></select></label>\n"
	      "<label>to <select id=\"maintevo-chart-to\"></select></label>\n"
	      "<button id=\"maintevo-chart-reset\" type=\"button\">Whole history</button>\n"
	      "<span id=\"maintevo-chart-status\" role=\"status\"></span>\n"
	      "</div>\n<ul id=\"maintevo-chart-results\" hidden></ul>\n"
	      "<div class=\"mc-main\">\n<div class=\"mc-plot\">\n", out);
	mev__chart_svg(out, l, title, 0, 0);
	fputs("</div>\n<aside id=\"maintevo-chart-panel\" hidden tabindex=\"-1\" aria-live=\"polite\"></aside>\n"
	      "</div>\n<div id=\"maintevo-chart-tooltip\" role=\"tooltip\" hidden></div>\n</div>\n"
	      "<script type=\"application/json\" id=\"maintevo-chart-data\">", out);
	if (json_data(out, l, title, store_path))
		return -1;
	fputs("</script>\n<script>\n", out);
	fwrite(mev__chart_js, 1, mev__chart_js_len, out);
	fputs("</script>\n</body>\n</html>\n", out);
	return 0;
}
