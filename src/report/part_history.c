/*
 * "Over all releases": the largest lineages and the sections of every
 * release up to the newer one, as plots (HTML, plots.c) or tables
 * (Markdown).  The MAINTAINERS health (part_health.c) follows.
 */
#include "report_internal.h"
#include "plots.h"
#include "maintevo/error.h"
#include "maintevo/table.h"

#include <inttypes.h>
#include <stdlib.h>

enum {
	SERIES_MD = 12,    /* releases in the Markdown table of the series */
	LINEAGES = 15      /* lineages in the chart */
};

/* The largest lineages as stacked areas, named "NAME [id]". */
static int lineage_svg(mev__doc *d, const mev__report *r, const mev__lineages *l, const mev__unread *u)
{
	const size_t first = l->first, n = l->nrel, top = l->n;
	mev__plot_series *s = malloc((top + 1) * sizeof *s);
	const char **labels = malloc((n + 1) * sizeof *labels);
	uint8_t *mark = calloc(n + 1, 1);
	mev_buf cap = MEV_BUF_INIT, names = MEV_BUF_INIT;
	MEV_VEC(size_t) name_at = { 0 };
	int rc = 0;
	if (s && labels && mark) {
		for (size_t i = 0; i < top; i++) {
			size_t at = names.len;
			if (mev__buf_printf(&names, "%s [%" PRId64 "]", l->v[i].name, l->v[i].id) ||
			    mev__buf_putc(&names, 0) || MEV_VEC_PUSH(&name_at, at))
				rc = mev_error_oom();
			s[i].values = l->v[i].lines;
		}
		for (size_t i = 0; !rc && i < top; i++)
			s[i].name = names.ptr + name_at.v[i];
		for (size_t i = 0; i < n; i++)
			labels[i] = mev__unread_tag(u, first + i, mev_history_release(r->h, first + i)->tag);
		if (r->ia >= first)
			mark[r->ia - first] = 1;
		mark[r->ib - first] = 1;
		mev__buf_printf(&cap, "Lines of the %zu largest subsystems (lineages, by their peak) "
			       "in every release from %s to %s, stacked (lines of the files they cover, "
			       "each once); a subsystem is named as its cluster in the last release it has "
			       "(its largest section that is not an umbrella), [n] is its lineage id; "
			       "dashed lines: the releases compared", top, mev_history_release(r->h, first)->tag, r->b.rel->tag);
		if (!rc)
			mev__plot_stacked(d->out, cap.ptr ? cap.ptr : "", labels, n, s, top, mark);
	} else {
		rc = mev_error_oom();
	}
	mev__buf_free(&cap);
	mev__buf_free(&names);
	MEV_VEC_FREE(&name_at);
	free(s);
	free(labels);
	free(mark);
	return rc;
}

/* The largest lineages as a table: their lines in both releases and at their peak. */
static void lineage_table(mev__doc *d, const mev__report *r, const mev__lineages *l)
{
	const char *hdr[] = { "lineage", "subsystem", r->a.rel->tag, r->b.rel->tag, "peak" };
	mev__doc_table(d, hdr, "rlrrr");
	for (size_t i = 0; i < l->n; i++) {
		mev__doc_cell_count(d, l->v[i].id);
		mev__doc_cell(d, l->v[i].name);
		if (r->ia >= l->first)
			mev__doc_cell_count(d, (int64_t)l->v[i].lines[r->ia - l->first]);
		else
			mev__doc_cell(d, "");
		mev__doc_cell_count(d, (int64_t)l->v[i].lines[r->ib - l->first]);
		mev__doc_cell_count(d, (int64_t)l->v[i].peak);
	}
	mev__doc_table_end(d);
}

/* The largest lineages over the releases up to the newer one (nothing when
 * none of them is clustered). */
static int lineage_chart(mev__doc *d, const mev__report *r, const mev__unread *u)
{
	mev__lineages l;
	int rc = mev__top_lineages(&l, r, LINEAGES);
	if (!rc && l.nrel) {
		if (d->fmt == MEV_REPORT_HTML)
			rc = lineage_svg(d, r, &l, u);
		else
			lineage_table(d, r, &l);
	}
	mev__lineages_free(&l);
	return rc;
}

/* Say which releases without sections the charts leave out. */
static void without_sections(mev__doc *d, const mev__report *r, size_t n)
{
	size_t none = 0, first = n, last = 0;
	for (size_t i = 0; i < n; i++)
		if (!mev_history_release(r->h, i)->sections) {
			none++;
			first = first < i ? first : i;
			last = i;
		}
	if (!none)
		return;
	mev__doc_para_begin(d, NULL);
	if (none == 1)
		mev__doc_printf(d, "Release %s has no MAINTAINERS sections (a board list or no file of "
				"the format): it is left out.", mev_history_release(r->h, first)->tag);
	else
		mev__doc_printf(d, "%zu releases (%s .. %s) have no MAINTAINERS sections (board lists, or "
				"no file of the format): they are left out.", none,
				mev_history_release(r->h, first)->tag, mev_history_release(r->h, last)->tag);
	mev__doc_para_end(d, NULL);
}

/* Sections per release over the stored releases with sections up to the
 * newer one. */
static void sections_chart(mev__doc *d, const mev__report *r, const mev__unread *u)
{
	size_t n = r->ib + 1;
	without_sections(d, r, n);
	if (d->fmt == MEV_REPORT_HTML) {
		const char **labels = malloc((n + 1) * sizeof *labels);
		double *vals = malloc((n + 1) * sizeof *vals);
		uint8_t *hl = calloc(n + 1, 1);
		if (labels && vals && hl) {
			char ca[32], cb[32];
			mev_buf cap = MEV_BUF_INIT;
			size_t m = 0;
			for (size_t i = 0; i < n; i++) {
				if (!mev_history_release(r->h, i)->sections && i != r->ia && i != r->ib)
					continue;
				labels[m] = mev__unread_tag(u, i, mev_history_release(r->h, i)->tag);
				vals[m] = (double)mev_history_release(r->h, i)->sections;
				hl[m++] = i == r->ia || i == r->ib;
			}
			n = m;
			mev_table_count(ca, (int64_t)r->a.rel->sections);
			mev_table_count(cb, (int64_t)r->b.rel->sections);
			mev__buf_printf(&cap, "MAINTAINERS sections (THE REST left out) in every stored release "
				       "up to %s; highlighted: the releases compared, %s (%s sections) and %s (%s)",
				       r->b.rel->tag, r->a.rel->tag, ca, r->b.rel->tag, cb);
			mev__plot_bars(d->out, cap.ptr ? cap.ptr : "", labels, vals, hl, n);
			mev__buf_free(&cap);
		}
		free(labels);
		free(vals);
		free(hl);
	} else {
		const char *hdr[] = { "release", "date", "sections", "subsystems", "files", "lines",
				      "lines no section covers" };
		size_t first = n > SERIES_MD ? n - SERIES_MD : 0;
		if (first > r->ia)
			first = r->ia;
		mev__doc_table(d, hdr, "ttrrrrr");
		for (size_t i = first; i < n; i++) {
			const mev_release *x = mev_history_release(r->h, i);
			const mev_clustering *c = mev_history_clustering(r->h, i);
			char date[16];
			if (!x->sections && i != r->ia && i != r->ib)
				continue;
			mev__fmt_date(date, mev_release_date(x));
			mev__doc_cell(d, mev__unread_tag(u, i, x->tag));
			mev__doc_cell(d, date);
			mev__doc_cell_count(d, (int64_t)x->sections);
			if (c)
				mev__doc_cell_count(d, (int64_t)mev_clustering_count(c));
			else
				mev__doc_cell(d, "\xe2\x80\x93");
			mev__doc_cell_count(d, (int64_t)x->files);
			mev__doc_cell_count(d, (int64_t)x->lines);
			mev__doc_cell_count(d, (int64_t)x->uncovered_lines);
		}
		mev__doc_table_end(d);
		if (first)
			mev__doc_more(d, first, "maintevo export releases");
	}
}

int mev__part_history(mev__doc *d, const mev__report *r)
{
	mev__unread u;
	int rc = mev__unread_read(&u, r, r->ib + 1);
	mev__doc_heading(d, 3, "The largest subsystems");
	if (!rc && !mev_history_tracked(r->h))
		mev__doc_missing(d, "Subsystems over time need clusters followed across releases",
				 "maintevo track");
	else if (!rc)
		rc = lineage_chart(d, r, &u);
	mev__doc_heading(d, 3, "Sections per release");
	if (!rc) {
		sections_chart(d, r, &u);
		mev__unread_legend(d, &u, r);
	}
	mev__unread_free(&u);
	return rc;
}
