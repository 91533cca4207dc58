/*
 * The report's MAINTAINERS health (in "Over all releases"): what
 * get_maintainer.pl --self-test would say of the two releases compared,
 * the code no maintained section covers over every release (a chart in
 * HTML, a table in Markdown), and where the uncovered code of the newer
 * release is.  From the census of each release and its health record.
 */
#include "report_internal.h"
#include "plots.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

#include <stdlib.h>
#include <string.h>

enum { SERIES_MD = 12, DIRS = 10 };

/* The census of every release up to the newer one. */
static int censuses(mev_section_census **out, const mev__report *r, size_t n, int *any)
{
	mev_section_census *c = calloc(n + 1, sizeof *c);
	int rc = 0;
	*any = 0;
	if (!c)
		return mev_error_oom();
	for (size_t i = 0; i < n && !rc; i++) {
		rc = mev_export_census(&c[i], r->store, mev_history_release(r->h, i)->tag);
		*any |= c[i].has_health;
	}
	*out = c;
	return rc;
}

/* MAINTAINERS files of the tree the release's script does not read: a row
 * only when one of the two releases has such files (a dash: not known). */
static void unread_row(mev__doc *d, const mev_section_census *a, const mev_section_census *b)
{
	if (a->unread_maintainers <= 0 && b->unread_maintainers <= 0)
		return;
	mev__doc_cell(d, "MAINTAINERS files of the tree its get_maintainer.pl does not read");
	for (int k = 0; k < 2; k++) {
		int64_t v = k ? b->unread_maintainers : a->unread_maintainers;
		if (v >= 0)
			mev__doc_cell_count(d, v);
		else
			mev__doc_cell(d, "\xe2\x80\x93");
	}
	if (a->unread_maintainers >= 0 && b->unread_maintainers >= 0)
		mev__doc_cell_change(d, a->unread_maintainers, b->unread_maintainers, 0, 1);
	else
		mev__doc_cell(d, "");
}

/* The two releases compared, side by side. */
static void compare_table(mev__doc *d, const mev__report *r, const mev_section_census *c)
{
	const mev_section_census *a = &c[r->ia], *b = &c[r->ib];
	const struct {
		const char *label;
		uint64_t va, vb;
		int health;   /* from the health record */
	} rows[] = {
		{ "F:, X: and N: lines that match no file", a->dead_patterns, b->dead_patterns, 1 },
		{ "\xe2\x80\xa6 that get_maintainer.pl --self-test reports", a->dead_self_test, b->dead_self_test, 1 },
		{ "Sections that cover no file", a->covers_nothing, b->covers_nothing, 0 },
		{ "Orphaned sections (S: Orphan)", a->orphan, b->orphan, 0 },
		{ "Obsolete sections (S: Obsolete)", a->obsolete, b->obsolete, 0 },
		{ "Lines only orphaned sections cover", a->orphan_only_lines, b->orphan_only_lines, 1 },
		{ "Lines only obsolete sections cover", a->obsolete_only_lines, b->obsolete_only_lines, 1 },
		{ "Repeated section titles", a->duplicate_titles, b->duplicate_titles, 1 },
		{ "Titles taken from comment lines", a->comment_titles, b->comment_titles, 0 },
	};
	const char *hdr[] = { "", r->a.rel->tag, r->b.rel->tag, "change" };
	mev__doc_table(d, hdr, "lrrr");
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		int ka = !rows[i].health || a->has_health, kb = !rows[i].health || b->has_health;
		mev__doc_cell(d, rows[i].label);
		if (ka)
			mev__doc_cell_count(d, (int64_t)rows[i].va);
		else
			mev__doc_cell(d, "\xe2\x80\x93");
		if (kb)
			mev__doc_cell_count(d, (int64_t)rows[i].vb);
		else
			mev__doc_cell(d, "\xe2\x80\x93");
		if (ka && kb)
			mev__doc_cell_change(d, (int64_t)rows[i].va, (int64_t)rows[i].vb, 0, 1);
		else
			mev__doc_cell(d, "");
	}
	if (!mev_release_reads_top_level_only(r->store)) /* else unread as asked */
		unread_row(d, a, b);
	mev__doc_table_end(d);
}

/* Releases shown in the series: those with sections, and the two compared. */
static int shown(const mev__report *r, size_t i)
{
	return mev_history_release(r->h, i)->sections || i == r->ia || i == r->ib;
}

/* The code no maintained section covers, over the releases (HTML chart). */
static void series_chart(mev__doc *d, const mev__report *r, const mev_section_census *c, size_t n)
{
	const char **labels = malloc((n + 1) * sizeof *labels);
	double *v = calloc(3 * (n + 1), sizeof *v);
	uint8_t *mark = calloc(n + 1, 1);
	size_t m = 0;
	if (labels && v && mark) {
		mev__plot_series s[3] = { { "no section covers it", v },
					   { "only orphaned sections cover it", v + n + 1 },
					   { "only obsolete sections cover it", v + 2 * (n + 1) } };
		for (size_t i = 0; i < n; i++) {
			if (!shown(r, i))
				continue;
			labels[m] = mev_history_release(r->h, i)->tag;
			v[m] = (double)mev_history_release(r->h, i)->uncovered_lines;
			v[n + 1 + m] = (double)c[i].orphan_only_lines;
			v[2 * (n + 1) + m] = (double)c[i].obsolete_only_lines;
			mark[m++] = i == r->ia || i == r->ib;
		}
		mev__plot_stacked(d->out, "Lines of code no maintained section covers, in every stored "
				  "release with sections (orphaned and obsolete: from releases walked "
				  "by maintevo since issue 12)", labels, m, s, 3, mark);
	}
	free(labels);
	free(v);
	free(mark);
}

/* The same as a table of the last releases (Markdown). */
static void series_table(mev__doc *d, const mev__report *r, const mev_section_census *c, size_t n)
{
	const char *hdr[] = { "release", "lines no section covers", "only orphaned sections",
			      "only obsolete sections", "F:/X:/N: lines matching no file" };
	size_t first = n > SERIES_MD ? n - SERIES_MD : 0;
	if (first > r->ia)
		first = r->ia;
	mev__doc_table(d, hdr, "trrrr");
	for (size_t i = first; i < n; i++) {
		if (!shown(r, i))
			continue;
		mev__doc_cell(d, mev_history_release(r->h, i)->tag);
		mev__doc_cell_count(d, (int64_t)mev_history_release(r->h, i)->uncovered_lines);
		if (!c[i].has_health) {
			for (int k = 0; k < 3; k++)
				mev__doc_cell(d, "\xe2\x80\x93");
			continue;
		}
		mev__doc_cell_count(d, (int64_t)c[i].orphan_only_lines);
		mev__doc_cell_count(d, (int64_t)c[i].obsolete_only_lines);
		mev__doc_cell_count(d, (int64_t)c[i].dead_patterns);
	}
	mev__doc_table_end(d);
	if (first)
		mev__doc_more(d, first, "maintevo releases");
}

static const mev_health_dir *sort_dirs;

static int by_uncovered(const void *x, const void *y)
{
	const mev_health_dir *a = &sort_dirs[*(const size_t *)x], *b = &sort_dirs[*(const size_t *)y];
	if (a->uncovered_lines != b->uncovered_lines)
		return a->uncovered_lines > b->uncovered_lines ? -1 : 1;
	return strcmp(a->dir, b->dir);
}

/* The top-level directories of the newer release with the most code no
 * section covers, each with its largest uncovered part one level down. */
static int where_table(mev__doc *d, const mev__report *r)
{
	const char *hdr[] = { "directory", "files", "lines no section covers", "share of its lines",
			      "the most of it in" };
	mev_release_health h;
	size_t *top = NULL, n = 0;
	int rc = mev_release_load_health(&h, r->store, r->b.rel->tag);
	if (rc)
		return rc == MEV_ENOTFOUND ? 0 : rc;
	if (!(top = malloc((h.ndirs + 1) * sizeof *top))) {
		mev_release_health_free(&h);
		return mev_error_oom();
	}
	for (size_t i = 0; i < h.ndirs; i++)
		if (h.dirs[i].level < 2 && h.dirs[i].uncovered_lines)
			top[n++] = i;
	sort_dirs = h.dirs;
	mev__sort(top, n, sizeof *top, by_uncovered);
	if (n) {
		mev__doc_para_begin(d, NULL);
		mev__doc_printf(d, "Where the code no section covers is in %s:", r->b.rel->tag);
		mev__doc_para_end(d, NULL);
		mev__doc_table(d, hdr, "lrrrl");
	}
	for (size_t k = 0; k < n && k < DIRS; k++) {
		const mev_health_dir *e = &h.dirs[top[k]], *best = NULL;
		char pct[32];
		for (size_t i = 0; i < h.ndirs; i++)
			if (h.dirs[i].level == 2 && !strncmp(h.dirs[i].dir, e->dir, strlen(e->dir)) &&
			    (!best || h.dirs[i].uncovered_lines > best->uncovered_lines))
				best = &h.dirs[i];
		snprintf(pct, sizeof pct, "%.1f%%", e->lines ? 100.0 * (double)e->uncovered_lines / (double)e->lines : 0);
		mev__doc_cell(d, strcmp(e->dir, ".") ? e->dir : "(top-level files)");
		mev__doc_cell_count(d, (int64_t)e->uncovered_files);
		mev__doc_cell_count(d, (int64_t)e->uncovered_lines);
		mev__doc_cell(d, pct);
		mev__doc_cell(d, best && e->level == 1 ? best->dir : "");
	}
	if (n) {
		mev__doc_table_end(d);
		mev__doc_more(d, n > DIRS ? n - DIRS : 0, "maintevo export health");
	}
	free(top);
	mev_release_health_free(&h);
	return 0;
}

int mev__part_health(mev__doc *d, const mev__report *r)
{
	mev_section_census *c = NULL;
	size_t n = r->ib + 1;
	int any = 0, rc;
	mev__doc_heading(d, 3, "MAINTAINERS health");
	if ((rc = censuses(&c, r, n, &any))) {
		free(c);
		return rc;
	}
	mev__doc_para(d, NULL, "In the spirit of get_maintainer.pl --self-test; "
		      "'maintevo export health' lists every finding with its file:line.");
	compare_table(d, r, c);
	if (!any) {
		mev__doc_missing(d, "Lines that match no file, orphaned code and where the uncovered code "
				 "is need the health a walk by this maintevo stores", "maintevo walk --rebuild");
	} else {
		if (d->fmt == MEV_REPORT_HTML)
			series_chart(d, r, c, n);
		else
			series_table(d, r, c, n);
		rc = where_table(d, r);
	}
	free(c);
	return rc;
}
