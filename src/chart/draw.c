/* The lineage chart's entry points: options, the page or the SVG, the flows table. */
#include "chart_internal.h"
#include "maintevo/dialect.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

#include <stdlib.h>
#include <string.h>

static const char *const measures[] = { "lines", "files", "sections" };

int mev_chart_format_parse(const char *name)
{
	return !name ? -1 : strcmp(name, "html") == 0 ? MEV_CHART_HTML : strcmp(name, "svg") == 0 ? MEV_CHART_SVG : -1;
}

int mev_chart_x_parse(const char *name)
{
	return !name ? -1 : strcmp(name, "index") == 0 ? MEV_CHART_X_INDEX : strcmp(name, "date") == 0 ? MEV_CHART_X_DATE : -1;
}

int mev_chart_measure_parse(const char *name)
{
	for (int i = 0; name && i < MEV_CHART_MEASURES; i++)
		if (strcmp(name, measures[i]) == 0)
			return i;
	return -1;
}

const char *mev_chart_measure_name(mev_chart_measure m)
{
	return (unsigned)m < MEV_CHART_MEASURES ? measures[m] : "";
}

/* "Lineages of U-Boot": the project the store's dialect names. */
static void default_title(char *out, size_t size, mev_store *s)
{
	mev_identity id;
	const char *project = NULL;
	if (mev_release_identity_get(&id, s) == 0) {
		int d = mev_dialect_parse(id.dialect);
		if (d >= 0 && strcmp(mev_dialect_name((mev_dialect)d), id.dialect) == 0)
			project = mev_dialect_display((mev_dialect)d);
		else if (strcmp(id.dialect, MEV_IMPORT_DIALECT) == 0)
			project = "the imported releases";
	}
	mev_error_clear();
	snprintf(out, size, "Lineages of %s", project ? project : "the store's subsystems");
}

/* The model releases of the span to shade: both must be drawn. */
static void mark_span(mev__chart_layout *l, const mev__chart_model *m, const char *from,
		      const char *to)
{
	l->mark0 = l->mark1 = -1;
	if (!from || !to)
		return;
	for (size_t r = 0; r < m->nrel; r++) {
		if (strcmp(mev_history_release(m->h, m->rel[r])->tag, from) == 0)
			l->mark0 = (int64_t)r;
		if (strcmp(mev_history_release(m->h, m->rel[r])->tag, to) == 0)
			l->mark1 = (int64_t)r;
	}
	if (l->mark0 < 0 || l->mark1 < 0 || l->mark1 < l->mark0)
		l->mark0 = l->mark1 = -1;
}

int mev_chart_write(FILE *out, mev_store *s, const mev_chart_options *opt)
{
	mev__chart_model m;
	mev__chart_layout l;
	char title[256];
	int rc;
	memset(&l, 0, sizeof l);
	/* the page shows files and finds paths; the SVG needs the file tables
	 * only to measure by files (a few seconds less on 285 releases) */
	rc = mev__chart_model_load(&m, s, opt->history, opt->from, opt->to,
				   opt->format == MEV_CHART_HTML     ? MEV__CHART_PATHS
				   : opt->measure == MEV_CHART_FILES ? MEV__CHART_FILES
								     : 0);
	if (!rc && opt->measure == MEV_CHART_FILES && !m.has_files) {
		rc = mev_error_set(MEV_EINVAL, "the store has no file tables (imported releases): "
					       "no files to measure");
		mev_error_hint("use --measure lines or --measure sections");
	}
	if (!rc)
		rc = mev__chart_names_load(&m);
	if (!rc)
		rc = mev__chart_unread_load(&m, s);
	if (!rc)
		rc = mev__chart_layout_build(&l, &m, opt->measure, opt->x, opt->top);
	if (!rc)
		mark_span(&l, &m, opt->mark_from, opt->mark_to);
	if (!rc) {
		if (opt->title)
			snprintf(title, sizeof title, "%s", opt->title);
		else
			default_title(title, sizeof title, s);
		if (opt->format == MEV_CHART_SVG)
			mev__chart_svg(out, &l, title, 1, !opt->embedded);
		else if (mev__chart_html(out, &l, title, opt))
			rc = mev_error_oom();
		if (!rc && (fflush(out) || ferror(out)))
			rc = mev_error_write("chart");
	}
	mev__chart_layout_free(&l);
	mev__chart_model_free(&m);
	return rc;
}

int mev_chart_flows(mev_chart_flow_list *out, mev_store *s, mev_history *history)
{
	mev__chart_model m;
	mev_buf names = MEV_BUF_INIT;
	int rc;
	memset(out, 0, sizeof *out);
	rc = mev__chart_model_load(&m, s, history, NULL, NULL, MEV__CHART_FILES);
	if (rc == MEV_ENOTFOUND && m.h &&
	    (mev_history_release_count(m.h) == 0 || (mev_history_tracked(m.h) && m.nrel < 2))) {
		/* no release, or fewer than two tracked: no flows, no error (the table is empty) */
		mev_error_clear();
		rc = 0;
	}
	if (!rc && m.flows.n && !(out->v = calloc(m.flows.n, sizeof *out->v)))
		rc = mev_error_oom();
	/* the tags are copied once each into one block the list owns */
	for (size_t r = 0; !rc && r < m.nrel; r++)
		if (mev__buf_put(&names, mev_history_release(m.h, m.rel[r])->tag,
				 strlen(mev_history_release(m.h, m.rel[r])->tag) + 1))
			rc = mev_error_oom();
	if (!rc) {
		size_t *off = calloc(m.nrel + 1, sizeof *off);
		if (!off) {
			rc = mev_error_oom();
		} else {
			for (size_t r = 1; r < m.nrel; r++)
				off[r] = off[r - 1] +
					 strlen(mev_history_release(m.h, m.rel[r - 1])->tag) + 1;
			out->mem_ = mev__buf_detach(&names);
			for (size_t i = 0; i < m.flows.n; i++) {
				const mev__chart_flow *f = &m.flows.v[i];
				mev_chart_flow *o = &out->v[i];
				o->from_release = (const char *)out->mem_ + off[f->rel - 1];
				o->to_release = (const char *)out->mem_ + off[f->rel];
				o->from_lineage = f->from;
				o->to_lineage = f->to;
				o->lines = f->v[MEV_CHART_LINES];
				o->files = f->files;
				o->sections = f->v[MEV_CHART_SECTIONS];
			}
			out->n = m.flows.n;
			free(off);
		}
	}
	mev__buf_free(&names);
	mev__chart_model_free(&m);
	return rc;
}

void mev_chart_flow_list_free(mev_chart_flow_list *l)
{
	free(l->v);
	free(l->mem_);
	memset(l, 0, sizeof *l);
}
