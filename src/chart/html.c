/* The lineage chart as one self-contained page: the drawing, its data as JSON, the style and the script inline. */
#include "chart_internal.h"
#include "maintevo/json.h"
#include "maintevo/table.h"
#include "util/text.h"

#include <stdlib.h>
#include <string.h>

/* Per band and release: lines, files and sections (0: not alive). */
static void json_bands(mev_json *j, const mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	mev_json_newline(j);
	mev_json_key(j, "bands");
	mev_json_array(j);
	for (size_t b = 0; b < l->nband; b++) {
		mev_json_newline(j);
		mev_json_object(j);
		mev_json_key(j, "id");
		if (l->band_lin[b] == UINT32_MAX)
			mev_json_str(j, "other");
		else
			mev_json_uint(j, m->lin[l->band_lin[b]].id);
		mev_json_key(j, "color");
		mev_json_str(j, l->color[b]);
		for (int k = 0; k < MEV_CHART_MEASURES; k++) {
			mev_json_key(j, mev_chart_measure_name((mev_chart_measure)k));
			mev_json_array(j);
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
				mev_json_uint(j, v);
			}
			mev_json_end(j);
		}
		mev_json_end(j);
	}
	mev_json_end(j);
}

/*
 * The fields of each kind of record, in the order the writers below write
 * them (each list beside its writer).  The page carries the lists once
 * ("fields"), and chart.js reads a record's fields by these names only;
 * docs/schemas.md describes them.  A list whose last two names are a pair
 * (lineages: at, called; sections: start, end; paths: release, set)
 * repeats that pair to the end of the record.
 */
/* now: the name it holds for good at its last release ("": its stable
 * name); at, called: from release `at` on its cluster is called `called`,
 * where that changes (before the first pair: its stable name). */
static const char *const lineage_fields[] = {"id", "name", "parent", "first", "last", "band", "peak",
					     "now", "at", "called", NULL};

/* A lineage's names where they change (names.c): its first only when it
 * is not the stable name (a chart that starts after a rename). */
static void json_names(mev_json *j, const mev__chart_model *m, const mev__chart_lineage *lin)
{
	mev_json_str(j, lin->now ? lin->now : "");
	for (uint32_t i = lin->name0; i < lin->name0 + lin->nname; i++) {
		const mev__chart_name *n = &m->names.v[i];
		if (i == lin->name0 && n->name == lin->name)
			continue;
		mev_json_uint(j, n->rel);
		mev_json_str(j, n->name);
	}
}

/* Every lineage with a node; band: 1-based, 0: other. */
static void json_lineages(mev_json *j, const mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	mev_json_newline(j);
	mev_json_key(j, "lineages");
	mev_json_array(j);
	for (size_t i = 0; i < m->nlin; i++) {
		const mev__chart_lineage *lin = &m->lin[i];
		if (lin->first < 0)
			continue;
		mev_json_newline(j);
		mev_json_array(j);
		mev_json_uint(j, lin->id);
		mev_json_str(j, lin->name);
		mev_json_uint(j, lin->parent);
		mev_json_int(j, lin->first);
		mev_json_int(j, lin->last);
		mev_json_uint(j, lin->shown);
		mev_json_uint(j, lin->peak[l->measure]);
		json_names(j, m, lin);
		mev_json_end(j);
	}
	mev_json_end(j);
}

/* The band of lineage `id` (1-based, 0: other, or no lineage). */
static uint32_t band_of_id(const mev__chart_model *m, uint32_t id)
{
	return id && id <= m->max_id && m->lin_of_id[id] ? m->lin[m->lin_of_id[id] - 1].shown : 0;
}

/* release: the one it ends in; lines, sections, files: the flow's (what moved). */
static const char *const event_fields[] = {
	"kind", "release", "from_lineage", "to_lineage", "share", "from_lines", "to_lines", "support",
	"cause_kind", "cause", "lines", "sections", "files", "partner_lineage", NULL};

/* The events of the lineages drawn as bands. */
static void json_events(mev_json *j, const mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	mev_json_newline(j);
	mev_json_key(j, "events");
	mev_json_array(j);
	for (size_t i = 0; i < m->flows.n; i++) {
		const mev__chart_flow *f = &m->flows.v[i];
		const mev_event *e = &mev_history_events(m->h)->v[f->event];
		if (!band_of_id(m, f->from) && !band_of_id(m, f->to))
			continue;
		mev_json_newline(j);
		mev_json_array(j);
		mev_json_str(j, mev_event_name(e->kind));
		mev_json_uint(j, f->rel);
		mev_json_uint(j, f->from);
		mev_json_uint(j, f->to);
		mev_json_general(j, e->share, 4);
		mev_json_int(j, e->from_lines);
		mev_json_int(j, e->to_lines);
		mev_json_general(j, e->support, 4);
		mev_json_str(j, e->cause_kind ? e->cause_kind : "");
		mev_json_str(j, e->cause ? e->cause : "");
		mev_json_uint(j, f->v[MEV_CHART_LINES]);
		mev_json_uint(j, f->v[MEV_CHART_SECTIONS]);
		mev_json_int(j, f->files);
		mev_json_uint(j, e->partner_lineage);
		mev_json_end(j);
	}
	mev_json_end(j);
}

/* start, end: the releases of each span of the section in the lineage. */
static const char *const section_fields[] = {"lineage", "title", "start", "end", NULL};

/* Sections of each lineage. */
static void json_sections(mev_json *j, const mev__chart_model *m)
{
	mev_json_newline(j);
	mev_json_key(j, "sections");
	mev_json_array(j);
	for (size_t i = 0; i < m->secs.n; i++) {
		const mev__chart_secrun *s = &m->secs.v[i];
		mev_json_newline(j);
		mev_json_array(j);
		mev_json_uint(j, m->lin[s->lineage].id);
		mev_json_str(j, s->title);
		for (size_t k = 0; k < s->span.n; k++)
			mev_json_uint(j, s->span.v[k]);
		mev_json_end(j);
	}
	mev_json_end(j);
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

/* dir: an index into "dirs"; release, set: from that release on, the
 * path's lineages are "sets"[set]. */
static const char *const path_fields[] = {"dir", "name", "release", "set", NULL};

/* Paths, shortened: "dirs" (each folder once), "sets" (each set of
 * lineage ids once), "paths" (one record each, path_fields). */
static int json_paths(mev_json *j, const mev__chart_model *m)
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
	mev_json_newline(j);
	mev_json_key(j, "dirs");
	mev_json_array(j);
	for (size_t p = 0; p < n; p++) {
		const char *slash = strrchr(m->paths.v[p], '/');
		size_t len = slash ? (size_t)(slash - m->paths.v[p]) + 1 : 0;
		int64_t d = intern(&dirs, &ndirs, m->paths.v[p], len, &added);
		if (d < 0)
			goto done;
		dir[p] = (uint32_t)d;
		if (added) {
			mev_json_newline(j);
			mev_json_strn(j, m->paths.v[p], len);
		}
	}
	mev_json_end(j);
	mev_json_newline(j);
	mev_json_key(j, "sets");
	mev_json_array(j);
	for (size_t i = 0; i < m->pathruns.n; i++) {
		const mev__chart_pathrun *r = &m->pathruns.v[i];
		int64_t k = intern(&sets, &nsets, r->n ? (const char *)(m->pool.v + r->off) : "",
				   r->n * sizeof *m->pool.v, &added);
		if (k < 0)
			goto done;
		set[i] = (uint32_t)k;
		if (added) {
			if (!k)
				mev_json_newline(j);
			mev_json_array(j);
			for (uint32_t x = 0; x < r->n; x++)
				mev_json_uint(j, m->pool.v[r->off + x]);
			mev_json_end(j);
		}
	}
	mev_json_end(j);
	mev_json_newline(j);
	mev_json_key(j, "paths");
	mev_json_array(j);
	for (size_t p = 0; p < n; p++) {
		const char *slash = strrchr(m->paths.v[p], '/');
		mev_json_newline(j);
		mev_json_array(j);
		mev_json_uint(j, dir[p]);
		mev_json_str(j, slash ? slash + 1 : m->paths.v[p]);
		for (uint32_t k = start[p]; k < start[p + 1]; k++) {
			mev_json_uint(j, m->pathruns.v[runs[k]].rel);
			mev_json_uint(j, set[runs[k]]);
		}
		mev_json_end(j);
	}
	mev_json_end(j);
	rc = 0;
done:
	mev__strmap_free(&dirs);
	mev__strmap_free(&sets);
	free(start), free(runs), free(dir), free(set), free(fill);
	return rc;
}

/* The releases: tags, x positions, dates. */
static void json_releases(mev_json *j, const mev__chart_layout *l)
{
	const mev__chart_model *m = l->m;
	mev_json_newline(j);
	mev_json_key(j, "releases");
	mev_json_array(j);
	for (size_t r = 0; r < m->nrel; r++)
		mev_json_str(j, mev_history_release(m->h, m->rel[r])->tag);
	mev_json_end(j);
	mev_json_newline(j);
	mev_json_key(j, "x");
	mev_json_array(j);
	for (size_t r = 0; r < m->nrel; r++)
		mev_json_fixed(j, l->x[r], 1);
	mev_json_end(j);
	mev_json_newline(j);
	mev_json_key(j, "dates");
	mev_json_array(j);
	for (size_t r = 0; r < m->nrel; r++)
		mev_json_int(j, mev_release_date(mev_history_release(m->h, m->rel[r])));
	mev_json_end(j);
}

/* people: name ("" when not known), entry (as listed); listed: per
 * section record (its index in "sections"), person (index in "people") and
 * role, from `release` on they are `state` with their last activity in the
 * section on day `last_day` (days since 1970; null: none); state "": not
 * listed from there on.  The last three repeat to the end of the record. */
static const char *const people_fields[] = {"name", "entry", NULL};
static const char *const listed_fields[] = {"section", "person", "role", "release", "state",
					    "last_day", NULL};

/* The plot area, in the drawing's coordinates. */
static const char *const plot_fields[] = {"left", "top", "right", "bottom", NULL};

static void json_field_list(mev_json *j, const char *kind, const char *const *names)
{
	mev_json_key(j, kind);
	mev_json_array(j);
	for (size_t i = 0; names[i]; i++)
		mev_json_str(j, names[i]);
	mev_json_end(j);
}

/* "fields": the names of the records' fields, by kind of record. */
static void json_fields(mev_json *j, int people)
{
	mev_json_newline(j);
	mev_json_key(j, "fields");
	mev_json_object(j);
	json_field_list(j, "plot", plot_fields);
	json_field_list(j, "lineages", lineage_fields);
	json_field_list(j, "events", event_fields);
	json_field_list(j, "sections", section_fields);
	json_field_list(j, "paths", path_fields);
	if (people) {
		json_field_list(j, "people", people_fields);
		json_field_list(j, "listed", listed_fields);
	}
	mev_json_end(j);
}

/* The page's data, read by chart.js: escaped for the <script> element it sits in. */
static int json_data(FILE *out, const mev__chart_layout *l, const char *title,
		     const mev_chart_options *opt)
{
	mev_json j;
	mev_json_init(&j, out, 1);
	mev_json_object(&j);
	mev_json_key(&j, "version");
	mev_json_uint(&j, 1);
	mev_json_key(&j, "title");
	mev_json_str(&j, title);
	mev_json_key(&j, "store");
	mev_json_str(&j, opt->store_path);
	mev_json_key(&j, "measure");
	mev_json_str(&j, mev_chart_measure_name(l->measure));
	mev_json_key(&j, "has_files");
	mev_json_bool(&j, l->m->has_files);
	mev_json_key(&j, "width");
	mev_json_fixed(&j, l->width, 0);
	mev_json_key(&j, "plot");
	mev_json_array(&j);
	mev_json_fixed(&j, l->left, 1);
	mev_json_fixed(&j, l->top, 1);
	mev_json_fixed(&j, l->right, 1);
	mev_json_fixed(&j, l->bottom, 1);
	mev_json_end(&j);
	json_fields(&j, opt->people != NULL);
	json_releases(&j, l);
	json_bands(&j, l);
	json_lineages(&j, l);
	json_events(&j, l);
	json_sections(&j, l->m);
	if (json_paths(&j, l->m) || (opt->people && mev__chart_json_people(&j, l->m, opt)))
		return -1;
	mev_json_end(&j);
	return 0;
}

int mev__chart_html(FILE *out, const mev__chart_layout *l, const char *title,
		    const mev_chart_options *opt)
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
	      "spellcheck=\"false\" placeholder=\"lineage, section or path\" "
	      "aria-controls=\"maintevo-chart-results\"></label>\n"
	      "<label>from <select id=\"maintevo-chart-from\"></select></label>\n"
	      "<label>to <select id=\"maintevo-chart-to\"></select></label>\n"
	      "<button id=\"maintevo-chart-reset\" type=\"button\">Whole history</button>\n"
	      "<span id=\"maintevo-chart-status\" role=\"status\" aria-live=\"polite\" aria-atomic=\"true\"></span>\n"
	      "</div>\n<ul id=\"maintevo-chart-results\" role=\"listbox\" aria-label=\"lineages found\" hidden></ul>\n"
	      "<div class=\"mc-main\">\n<div class=\"mc-plot\">\n", out);
	mev__chart_svg(out, l, title, 0, 0);
	fputs("</div>\n<aside id=\"maintevo-chart-panel\" hidden tabindex=\"-1\" "
	      "aria-labelledby=\"maintevo-chart-panel-heading\"></aside>\n"
	      "</div>\n<div id=\"maintevo-chart-tooltip\" role=\"tooltip\" hidden></div>\n</div>\n"
	      "<script type=\"application/json\" id=\"maintevo-chart-data\">", out);
	if (json_data(out, l, title, opt))
		return -1;
	fputs("</script>\n<script>\n", out);
	fwrite(mev__chart_js, 1, mev__chart_js_len, out);
	fputs("</script>\n</body>\n</html>\n", out);
	return 0;
}
