/*
 * The parts of the report, in order: title, headline numbers, subsystems
 * (splits, merges, births, deaths), sections (added, removed, renamed),
 * growers and shrinkers, the series over all releases.  Each part is
 * written once through the document layer, for Markdown and HTML alike;
 * the HTML adds the charts (chart.c).
 */
#include "report_internal.h"
#include "chart.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
	LIST_MAX = 60,     /* rows of a list before "... and N more" */
	TOP_N = 10,        /* growers and shrinkers */
	SERIES_MD = 12,    /* releases in the Markdown table of the series */
	LINEAGES = 15      /* lineages in the chart */
};

/* The title ("PROJECT: A → B") and what the report is about. */
static void part_title(mev__doc *d, const mev__report *r, const char *title)
{
	const char *ta = r->a.rel->tag, *tb = r->b.rel->tag;
	char da[16], db[16];
	size_t between = r->ib - r->ia - 1;
	mev__fmt_date(da, r->a.rel->time);
	mev__fmt_date(db, r->b.rel->time);
	if (d->fmt == MEV_REPORT_HTML) {
		fputs("<header>\n<h1>", d->out);
		mev__doc_text(d, title);
		fputs("</h1>\n<p class=\"sub\">", d->out);
	} else {
		fputs("# ", d->out);
		mev__doc_text(d, title);
		fputs("\n\n", d->out);
	}
	mev__doc_printf(d, "How the MAINTAINERS sections and the subsystems (clusters of sections that "
			"share code) changed from release %s (%s) to %s (%s)", ta, da, tb, db);
	if (between)
		mev__doc_printf(d, ", %zu release%s in between", between, between == 1 ? "" : "s");
	mev__doc_text(d, ". Lines are newline characters of every file in the tree; the lines of a "
		      "section or a subsystem are those of the files it covers, each file once.");
	if (r->h.clustered) {
		mev__doc_text(d, " Clustering: ");
		mev__doc_code(d, r->h.key);
		if (r->h.tracked) {
			mev__doc_text(d, "; tracking: ");
			mev__doc_code(d, r->h.tkey);
		}
		mev__doc_text(d, ".");
	}
	if (d->fmt == MEV_REPORT_HTML) {
		fputs("</p>\n<nav>", d->out);
		fputs("<a href=\"#at-a-glance\">At a glance</a> \xc2\xb7 "
		      "<a href=\"#subsystems\">Subsystems</a> \xc2\xb7 "
		      "<a href=\"#sections\">Sections</a> \xc2\xb7 "
		      "<a href=\"#largest-growers-and-shrinkers\">Growers and shrinkers</a> \xc2\xb7 "
		      "<a href=\"#over-all-releases\">Over all releases</a></nav>\n</header>\n", d->out);
	} else {
		fputs("\n\n", d->out);
	}
}

typedef struct {
	const char *label;
	int64_t a, b;
	int percent;  /* show the change in percent too */
	int worse;    /* which way is worse: 1 up, -1 down, 0 neither */
	int missing;  /* no value (not clustered) */
} headline;

static void part_headline(mev__doc *d, const mev__report *r)
{
	const mev_release *a = r->a.rel, *b = r->b.rel;
	const headline rows[] = {
		{ "Sections", (int64_t)a->sections, (int64_t)b->sections, 1, 0, 0 },
		{ "Sections that cover files", (int64_t)a->sections_with_files,
		  (int64_t)b->sections_with_files, 1, 0, 0 },
		{ "Subsystems (clusters of sections)", r->a.clusters, r->b.clusters, 1, 0,
		  r->a.clusters < 0 || r->b.clusters < 0 },
		{ "Files", (int64_t)a->files, (int64_t)b->files, 1, 0, 0 },
		{ "Lines", (int64_t)a->lines, (int64_t)b->lines, 1, 0, 0 },
		{ "Files no section covers", (int64_t)a->uncovered_files, (int64_t)b->uncovered_files, 1, 1, 0 },
		{ "Lines no section covers", (int64_t)a->uncovered_lines, (int64_t)b->uncovered_lines, 1, 1, 0 },
		{ "Sections without a maintainer (no M:)", (int64_t)r->a.census.no_maintainer,
		  (int64_t)r->b.census.no_maintainer, 0, 1, 0 },
		{ "Orphaned sections (S: Orphan)", (int64_t)r->a.census.orphan,
		  (int64_t)r->b.census.orphan, 0, 1, 0 },
		{ "Notes about MAINTAINERS content", (int64_t)a->diags, (int64_t)b->diags, 0, 1, 0 },
	};
	const char *hdr[] = { "", a->tag, b->tag, "change" };
	mev__doc_heading(d, 2, "At a glance");
	if (d->fmt == MEV_REPORT_HTML) {
		/* four cards for the eye; the table below has the same numbers */
		static const size_t pick[] = { 0, 2, 4, 6 };
		fputs("<div class=\"cards\">\n", d->out);
		for (size_t k = 0; k < sizeof pick / sizeof *pick; k++) {
			const headline *h = &rows[pick[k]];
			const char *cls = mev__change_class(h->b - h->a, h->worse);
			char v[32], dl[32];
			int64_t dlt = h->b - h->a;
			fputs("<div class=\"card\"><div class=\"k\">", d->out);
			mev__doc_text(d, h->label);
			if (h->missing) {
				fputs("</div><div class=\"v\">\xe2\x80\x93</div><div class=\"d\">not clustered</div></div>\n",
				      d->out);
				continue;
			}
			mev_table_count(v, h->b);
			mev_table_count(dl, dlt);
			fprintf(d->out, "</div><div class=\"v\">%s</div><div class=\"d %s\">", v,
				cls ? cls : "");
			if (dlt)
				fprintf(d->out, "%s%s", dlt > 0 ? "+" : "", dl);
			else
				fputs("unchanged", d->out);
			if (h->a > 0 && dlt)
				fprintf(d->out, " (%+.1f%%)", 100.0 * (double)dlt / (double)h->a);
			fputs(" since ", d->out);
			mev__doc_text(d, a->tag);
			fputs("</div></div>\n", d->out);
		}
		fputs("</div>\n", d->out);
	}
	mev__doc_table(d, hdr, "lrrr");
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		const headline *h = &rows[i];
		mev__doc_cell(d, h->label);
		if (h->missing) {
			mev__doc_cell(d, h->a < 0 ? "\xe2\x80\x93" : "");
			mev__doc_cell(d, h->b < 0 ? "\xe2\x80\x93" : "");
			mev__doc_cell(d, "");
			continue;
		}
		mev__doc_cell_count(d, h->a);
		mev__doc_cell_count(d, h->b);
		mev__doc_cell_change(d, h->a, h->b, h->percent, h->worse);
	}
	mev__doc_table_end(d);
}

/* "NAME" or, over several steps, "NAME (v1.2)". */
static void cell_cluster(mev__doc *d, const mev__report *r, const char *name, const char *release)
{
	mev_buf t = MEV_BUF_INIT;
	name = mev__display(r, release, name);
	if (mev__multi_step(r))
		mev__buf_printf(&t, "%s (%s)", name, release);
	else
		mev__buf_puts(&t, name);
	mev__doc_cell(d, t.ptr ? t.ptr : "");
	mev__buf_free(&t);
}

/* The alluvial chart: the largest splits and merges, each drawn on its own
 * as a little stack of flows from "before" to "after". */
static void moves_chart(mev__doc *d, const mev__report *r)
{
	enum { GROUPS = 12 };
	MEV_VEC(mev__chart_node) nodes = { 0 };
	MEV_VEC(mev__chart_flow) flows = { 0 };
	MEV_VEC(int64_t) colors = { 0 }; /* lineage ids in order of first use */
	const char *cols[2];
	mev_buf cap = MEV_BUF_INIT, names = MEV_BUF_INIT;
	size_t ngroups = r->groups.n < GROUPS ? r->groups.n : GROUPS;
	MEV_VEC(size_t) name_at = { 0 }; /* offsets of node names in `names` */
	int bad = 0;

	cols[0] = mev__multi_step(r) ? "before" : r->a.rel->tag;
	cols[1] = mev__multi_step(r) ? "after" : r->b.rel->tag;
	for (size_t g = 0; g < ngroups && !bad; g++) {
		const mev__move *m = &r->groups.v[g];
		size_t single = nodes.n;
		for (size_t i = 0; i < m->n + 1 && !bad; i++) {
			/* node 0 of a group is its single side, then one per event */
			const mev_event *e = r->moves.v[m->first + (i ? i - 1 : 0)];
			int left = (m->kind == MEV_EVENT_SPLIT) == (i == 0);
			const char *rel = left ? e->from_release : e->to_release;
			const char *name = left ? e->from_cluster : e->to_cluster;
			int64_t ri = mev__history_find(&r->h, rel), k, lin = -1, ci;
			mev__chart_node nd = { NULL, left ? 0 : 1, (double)(left ? e->from_lines : e->to_lines), -1,
					      g };
			if (ri >= 0 && (k = mev__history_cluster_named(&r->h, (size_t)ri, name)) >= 0)
				lin = r->h.rel[ri].lineage[k];
			for (ci = 0; lin >= 0 && ci < (int64_t)colors.n; ci++)
				if (colors.v[ci] == lin)
					break;
			if (lin >= 0 && ci == (int64_t)colors.n)
				bad |= MEV_VEC_PUSH(&colors, lin);
			nd.color = lin >= 0 ? (int)ci : -1;
			bad |= MEV_VEC_PUSH(&name_at, names.len);
			if (mev__multi_step(r))
				bad |= mev__buf_printf(&names, "%s (%s)", mev__display(r, rel, name), rel);
			else
				bad |= mev__buf_puts(&names, mev__display(r, rel, name));
			bad |= mev__buf_putc(&names, 0);
			bad |= MEV_VEC_PUSH(&nodes, nd);
			if (i) {
				mev__chart_flow f = { left ? nodes.n - 1 : single, left ? single : nodes.n - 1,
						     mev__shared_lines(e) };
				bad |= MEV_VEC_PUSH(&flows, f);
			}
		}
		/* estimates may add up to more than the single side holds: scale */
		if (!bad) {
			double sum = 0, room = nodes.v[single].value;
			for (size_t f = flows.n - m->n; f < flows.n; f++)
				sum += flows.v[f].value;
			for (size_t f = flows.n - m->n; sum > room && f < flows.n; f++)
				flows.v[f].value *= room / sum;
		}
	}
	if (!bad) {
		for (size_t i = 0; i < nodes.n; i++)
			nodes.v[i].name = names.ptr + name_at.v[i];
		mev__buf_printf(&cap, "The %zu largest splits and merges %s (of %zu), by the code that "
			       "moved: bar heights are the subsystems' lines, band widths the code "
			       "they share (the older subsystem's lines in files the newer one "
			       "covers), all on one scale, so that bands add up and splits and "
			       "merges compare; a colour is a lineage", ngroups,
			       mev__multi_step(r) ? "in the range" : "between the two releases", r->groups.n);
		mev__chart_alluvial(d->out, cap.ptr ? cap.ptr : "", cols, 2, nodes.v, nodes.n, flows.v, flows.n);
	}
	MEV_VEC_FREE(&nodes);
	MEV_VEC_FREE(&flows);
	MEV_VEC_FREE(&colors);
	MEV_VEC_FREE(&name_at);
	mev__buf_free(&cap);
	mev__buf_free(&names);
}

/* An event's support ("" when not measured). */
static void cell_support(mev__doc *d, const mev_event *e)
{
	char t[16] = "";
	if (!isnan(e->support))
		snprintf(t, sizeof t, "%.1f", e->support);
	mev__doc_cell(d, t);
}

static void moves_table(mev__doc *d, const mev__report *r, mev_event_kind kind)
{
	const char *split_hdr[] = { "subsystem before", "lines", "became", "lines", "share",
				    "support", "why", "its largest sections" };
	const char *merge_hdr[] = { "subsystem after", "lines", "came from", "lines", "share",
				    "support", "why", "its largest sections" };
	mev_buf secs = MEV_BUF_INIT;
	size_t rows = 0, groups = 0, more = 0;
	for (size_t g = 0; g < r->groups.n; g++)
		groups += r->groups.v[g].kind == kind;
	if (!groups)
		return;
	mev__doc_heading(d, 3, kind == MEV_EVENT_SPLIT ? "Splits" : "Merges");
	mev__doc_table(d, kind == MEV_EVENT_SPLIT ? split_hdr : merge_hdr, "lrlrrrll");
	for (size_t g = 0; g < r->groups.n; g++) {
		const mev__move *m = &r->groups.v[g];
		if (m->kind != kind)
			continue;
		if (rows >= LIST_MAX) {
			more++;
			continue;
		}
		for (size_t i = 0; i < m->n; i++, rows++) {
			const mev_event *e = r->moves.v[m->first + i];
			const char *one = kind == MEV_EVENT_SPLIT ? e->from_cluster : e->to_cluster;
			const char *one_rel = kind == MEV_EVENT_SPLIT ? e->from_release : e->to_release;
			const char *other = kind == MEV_EVENT_SPLIT ? e->to_cluster : e->from_cluster;
			const char *other_rel = kind == MEV_EVENT_SPLIT ? e->to_release : e->from_release;
			char sim[16];
			if (i == 0) {
				cell_cluster(d, r, one, one_rel);
				mev__doc_cell_count(d, kind == MEV_EVENT_SPLIT ? e->from_lines : e->to_lines);
			} else {
				mev__doc_cell(d, "");
				mev__doc_cell(d, "");
			}
			cell_cluster(d, r, other, other_rel);
			mev__doc_cell_count(d, kind == MEV_EVENT_SPLIT ? e->to_lines : e->from_lines);
			/* the share of the older side's code the newer side holds */
			snprintf(sim, sizeof sim, "%.2f", isnan(e->share) ? e->similarity : e->share);
			mev__doc_cell(d, sim);
			cell_support(d, e);
			mev__doc_cell(d, e->cause && e->cause[0] ? e->cause : "");
			mev__cluster_sections(&secs, r, other_rel, other);
			mev__doc_cell(d, secs.ptr ? secs.ptr : "");
		}
	}
	mev__doc_table_end(d);
	mev__doc_more(d, more, "maintevo export events");
	mev__buf_free(&secs);
}

/* The name of lineage id ("" when unknown). */
static const char *lineage_of(const mev__report *r, uint32_t id)
{
	return id >= 1 && id <= r->h.lineages.n ? r->h.lineages.v[id - 1].name : "";
}

static void births_table(mev__doc *d, const mev__report *r, int births)
{
	const char *hdr[] = { births ? "subsystem born" : "subsystem gone", births ? "in" : "after",
			      "lines", births ? "its code came from" : "its code went to", "lineage",
			      "support", "why", "sections" };
	const mev_event *const *v = births ? r->births.v : r->deaths.v;
	size_t n = births ? r->births.n : r->deaths.n;
	mev_buf secs = MEV_BUF_INIT;
	if (!n)
		return;
	mev__doc_heading(d, 3, births ? "Born" : "Died");
	mev__doc_table(d, hdr, "ltrllrll");
	for (size_t i = 0; i < n && i < LIST_MAX; i++) {
		const mev_event *e = v[i];
		const char *name = births ? e->to_cluster : e->from_cluster;
		const char *rel = births ? e->to_release : e->from_release;
		mev_buf p = MEV_BUF_INIT;
		mev__doc_cell(d, mev__display(r, rel, name));
		mev__doc_cell(d, rel);
		mev__doc_cell_count(d, mev__event_size(e));
		/* where the code went (or came from), so a death hides nothing */
		if (mev__event_size(e) <= 0)
			mev__buf_puts(&p, "(it covers no code)");
		else if (e->partner && e->partner[0])
			mev__buf_printf(&p, "%s (%.0f%%)%s",
					mev__display(r, births ? e->from_release : e->to_release, e->partner),
					100 * e->partner_share,
					e->partner_share >= 0.995 ? ""
					: births ? ", the rest new"
						 : ", the rest left the tree or is spread out");
		else
			mev__buf_puts(&p, births ? "new code only" : "the code left the tree");
		mev__doc_cell(d, p.ptr ? p.ptr : "");
		mev__buf_free(&p);
		mev__doc_cell(d, lineage_of(r, e->lineage));
		cell_support(d, e);
		mev__doc_cell(d, e->cause && e->cause[0] ? e->cause : "");
		mev__cluster_sections(&secs, r, rel, name);
		mev__doc_cell(d, secs.ptr ? secs.ptr : "");
	}
	mev__doc_table_end(d);
	mev__doc_more(d, n > LIST_MAX ? n - LIST_MAX : 0, "maintevo export events");
	mev__buf_free(&secs);
}

static void part_subsystems(mev__doc *d, const mev__report *r)
{
	size_t splits = 0, merges = 0;
	mev__doc_heading(d, 2, "Subsystems");
	if (!r->h.clustered) {
		mev__doc_missing(d, "The releases are not clustered", "maintevo cluster");
		return;
	}
	if (!r->h.tracked) {
		mev__doc_missing(d, "Clusters are not followed across releases yet", "maintevo track");
		return;
	}
	for (size_t g = 0; g < r->groups.n; g++) {
		if (r->groups.v[g].kind == MEV_EVENT_SPLIT)
			splits++;
		else
			merges++;
	}
	mev__doc_para_begin(d, NULL);
	mev__doc_printf(d, "%zu born, %zu died, %zu split, %zu merged", r->births.n, r->deaths.n, splits,
			merges);
	mev__doc_text(d, " (a subsystem is a cluster of sections; it is followed from release to release "
		      "by the code it covers).");
	if (r->weak)
		mev__doc_printf(d, " %zu event%s with a support below %g (found by fewer of the perturbed "
				"runs) %s left out: 'maintevo events' lists %s.", r->weak,
				r->weak == 1 ? "" : "s", r->opt->min_support, r->weak == 1 ? "is" : "are",
				r->weak == 1 ? "it" : "them");
	mev__doc_para_end(d, NULL);
	if (d->fmt == MEV_REPORT_HTML && r->groups.n)
		moves_chart(d, r);
	moves_table(d, r, MEV_EVENT_SPLIT);
	moves_table(d, r, MEV_EVENT_MERGE);
	births_table(d, r, 1);
	births_table(d, r, 0);
}

/* The table of the section changes of one kind (count: how many), largest
 * first; `cmd` lists them all. */
static int changes_table(mev__doc *d, const mev__report *r, mev_section_change_kind kind, size_t count,
			 const char *cmd)
{
	static const char *const titles[] = { "Added", "Removed", "Renamed" };
	const char *plain[] = { "section", "status", "maintainers", "lines" };
	const char *ren[] = { "old title", "new title", "lines", "code kept" };
	const char *plain_m[] = { "section", "step", "lines" };
	const char *ren_m[] = { "old title", "new title", "step", "lines", "code kept" };
	int renamed = kind == MEV_SECTION_RENAMED, many = mev__multi_step(r), rc;
	const mev_section_change **v;
	mev_buf h = MEV_BUF_INIT;
	size_t m;
	if ((rc = mev__changes_of_kind(&v, &m, r, kind)))
		return rc;
	mev__buf_printf(&h, "%s (%zu)", titles[kind], count);
	mev__doc_heading(d, 3, h.ptr);
	if (renamed)
		mev__doc_table(d, many ? ren_m : ren, many ? "lltrr" : "llrr");
	else
		mev__doc_table(d, many ? plain_m : plain, many ? "ltr" : "llrr");
	for (size_t i = 0; i < m && i < LIST_MAX; i++) {
		const mev_section_change *c = v[i];
		mev__doc_cell(d, mev__display(r, kind == MEV_SECTION_ADDED ? c->to_release : c->from_release,
					      c->section));
		if (renamed)
			mev__doc_cell(d, mev__display(r, c->to_release, c->new_section));
		if (many) {
			mev__buf_clear(&h);
			mev__buf_printf(&h, "%s \xe2\x86\x92 %s", c->from_release, c->to_release);
			mev__doc_cell(d, h.ptr ? h.ptr : "");
		}
		if (!renamed && !many) {
			/* status and maintainers from the release the section is in */
			const mev__side *s = kind == MEV_SECTION_ADDED ? &r->b : &r->a;
			int64_t j = mev__strmap_get(&s->by_title, c->section, strlen(c->section));
			const mev_section_info *si = j >= 0 ? &mev_filemap_sections(s->secs)[j] : NULL;
			mev__doc_cell(d, si && si->status[0] ? si->status : "\xe2\x80\x93");
			if (si)
				mev__doc_cell_count(d, si->n_maintainers);
			else
				mev__doc_cell(d, "");
		}
		mev__doc_cell_count(d, (int64_t)c->lines);
		if (renamed) {
			char pc[16];
			snprintf(pc, sizeof pc, "%.0f%%", 100.0 * c->coverage);
			mev__doc_cell(d, pc);
		}
	}
	mev__doc_table_end(d);
	mev__doc_more(d, count > LIST_MAX ? count - LIST_MAX : 0, cmd);
	mev__buf_free(&h);
	free(v);
	return 0;
}

static int part_sections(mev__doc *d, const mev__report *r)
{
	static const mev_section_change_kind kinds[] = { MEV_SECTION_ADDED, MEV_SECTION_REMOVED,
							 MEV_SECTION_RENAMED };
	size_t count[3] = { 0, 0, 0 };
	char cmd[160];
	int rc = 0;
	mev__doc_heading(d, 2, "Sections");
	if (!r->changes_known) {
		mev__doc_missing(d, "Sections added, removed and renamed are found by the tracker",
				 "maintevo track");
		return 0;
	}
	for (size_t i = 0; i < r->changes.n; i++)
		count[r->changes.v[i].kind]++;
	mev__doc_para_begin(d, NULL);
	mev__doc_printf(d, "%zu added, %zu removed, %zu renamed", count[0], count[1], count[2]);
	mev__doc_text(d, " (renamed: a new title that covers most of the code of a vanished one).");
	mev__doc_para_end(d, NULL);
	if (mev__multi_step(r))
		snprintf(cmd, sizeof cmd, "maintevo export section_changes");
	else
		snprintf(cmd, sizeof cmd, "maintevo export section_changes --release %s", r->b.rel->tag);
	for (size_t k = 0; k < 3 && !rc; k++)
		if (count[kinds[k]])
			rc = changes_table(d, r, kinds[k], count[kinds[k]], cmd);
	return rc;
}

/* The TOP_N largest growers (grow) or shrinkers of v (sorted by change). */
static void movers_table(mev__doc *d, const mev__report *r, const char *what, const mev__mover *v, size_t n,
			 int grow)
{
	const char *hdr[] = { what, r->a.rel->tag, r->b.rel->tag, "change" };
	size_t shown = 0;
	mev__doc_table(d, hdr, "lrrr");
	for (size_t i = 0; i < n && shown < TOP_N; i++) {
		const mev__mover *m = grow ? &v[i] : &v[n - 1 - i];
		mev_buf t = MEV_BUF_INIT;
		if (grow ? m->b <= m->a : m->b >= m->a)
			break;
		if (m->was && strcmp(m->was, m->name) != 0)
			mev__buf_printf(&t, "%s (was %s)", m->name, m->was);
		else
			mev__buf_puts(&t, m->name);
		mev__doc_cell(d, t.ptr ? t.ptr : "");
		mev__doc_cell_count(d, m->a);
		mev__doc_cell_count(d, m->b);
		mev__doc_cell_change(d, m->a, m->b, 1, 0);
		mev__buf_free(&t);
		shown++;
	}
	if (!shown) {
		mev__doc_cell(d, grow ? "(none grew)" : "(none shrank)");
		mev__doc_cell(d, "");
		mev__doc_cell(d, "");
		mev__doc_cell(d, "");
	}
	mev__doc_table_end(d);
}

static int part_movers(mev__doc *d, const mev__report *r)
{
	mev__mover *v = NULL, *lv = NULL;
	size_t nv = 0, nl = 0;
	mev_buf h = MEV_BUF_INIT;
	int rc;
	if ((rc = mev__section_movers(&v, &nv, r)) || (rc = mev__lineage_movers(&lv, &nl, r))) {
		free(v);
		return rc;
	}
	mev__doc_heading(d, 2, "Largest growers and shrinkers");
	mev__doc_para(d, NULL, "By the change in lines: subsystems of the same lineage in both releases, "
		      "sections present in both (renamed ones included).");
	if (nl) {
		mev__buf_printf(&h, "Subsystems that grew most (top %d)", TOP_N);
		mev__doc_heading(d, 3, h.ptr);
		movers_table(d, r, "subsystem", lv, nl, 1);
		mev__buf_clear(&h);
		mev__buf_printf(&h, "Subsystems that shrank most (top %d)", TOP_N);
		mev__doc_heading(d, 3, h.ptr);
		movers_table(d, r, "subsystem", lv, nl, 0);
		mev__buf_clear(&h);
	}
	mev__buf_printf(&h, "Sections that grew most (top %d)", TOP_N);
	mev__doc_heading(d, 3, h.ptr);
	movers_table(d, r, "section", v, nv, 1);
	mev__buf_clear(&h);
	mev__buf_printf(&h, "Sections that shrank most (top %d)", TOP_N);
	mev__doc_heading(d, 3, h.ptr);
	movers_table(d, r, "section", v, nv, 0);
	mev__buf_free(&h);
	free(lv);
	free(v);
	return 0;
}

/* The largest lineages as stacked areas, named "NAME [id]". */
static int lineage_svg(mev__doc *d, const mev__report *r, const mev__lineages *l)
{
	const size_t first = l->first, n = l->nrel, top = l->n;
	mev__chart_series *s = malloc((top + 1) * sizeof *s);
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
			labels[i] = r->h.list[first + i].tag;
		if (r->ia >= first)
			mark[r->ia - first] = 1;
		mark[r->ib - first] = 1;
		mev__buf_printf(&cap, "Lines of the %zu largest subsystems (lineages, by their peak) "
			       "in every release from %s to %s, stacked (lines of the files they cover, "
			       "each once); a subsystem is named after its largest section in the last "
			       "release it has, [n] is its lineage id; dashed lines: the releases "
			       "compared", top, r->h.list[first].tag, r->b.rel->tag);
		if (!rc)
			mev__chart_stacked(d->out, cap.ptr ? cap.ptr : "", labels, n, s, top, mark);
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
static int lineage_chart(mev__doc *d, const mev__report *r)
{
	mev__lineages l;
	int rc = mev__top_lineages(&l, r, LINEAGES);
	if (!rc && l.nrel) {
		if (d->fmt == MEV_REPORT_HTML)
			rc = lineage_svg(d, r, &l);
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
		if (!r->h.list[i].sections) {
			none++;
			first = first < i ? first : i;
			last = i;
		}
	if (!none)
		return;
	mev__doc_para_begin(d, NULL);
	if (none == 1)
		mev__doc_printf(d, "Release %s has no MAINTAINERS sections (a board list or no file of "
				"the format): it is left out.", r->h.list[first].tag);
	else
		mev__doc_printf(d, "%zu releases (%s .. %s) have no MAINTAINERS sections (board lists, or "
				"no file of the format): they are left out.", none, r->h.list[first].tag,
				r->h.list[last].tag);
	mev__doc_para_end(d, NULL);
}

/* Sections per release over the stored releases with sections up to the
 * newer one. */
static void sections_chart(mev__doc *d, const mev__report *r)
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
				if (!r->h.list[i].sections && i != r->ia && i != r->ib)
					continue;
				labels[m] = r->h.list[i].tag;
				vals[m] = (double)r->h.list[i].sections;
				hl[m++] = i == r->ia || i == r->ib;
			}
			n = m;
			mev_table_count(ca, (int64_t)r->a.rel->sections);
			mev_table_count(cb, (int64_t)r->b.rel->sections);
			mev__buf_printf(&cap, "MAINTAINERS sections (THE REST left out) in every stored release "
				       "up to %s; highlighted: the releases compared, %s (%s sections) and %s (%s)",
				       r->b.rel->tag, r->a.rel->tag, ca, r->b.rel->tag, cb);
			mev__chart_bars(d->out, cap.ptr ? cap.ptr : "", labels, vals, hl, n);
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
			const mev_release *x = &r->h.list[i];
			char date[16];
			if (!x->sections && i != r->ia && i != r->ib)
				continue;
			mev__fmt_date(date, x->time);
			mev__doc_cell(d, x->tag);
			mev__doc_cell(d, date);
			mev__doc_cell_count(d, (int64_t)x->sections);
			if (r->h.rel[i].c)
				mev__doc_cell_count(d, (int64_t)mev_clustering_count(r->h.rel[i].c));
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

static int part_history(mev__doc *d, const mev__report *r)
{
	int rc = 0;
	mev__doc_heading(d, 2, "Over all releases");
	mev__doc_heading(d, 3, "The largest subsystems");
	if (!r->h.tracked)
		mev__doc_missing(d, "Subsystems over time need clusters followed across releases",
				 "maintevo track");
	else
		rc = lineage_chart(d, r);
	mev__doc_heading(d, 3, "Sections per release");
	sections_chart(d, r);
	if (!rc)
		rc = mev__part_health(d, r);
	return rc;
}

int mev_report_write(FILE *out, mev_store *s, const mev_report_options *opt)
{
	static const mev_report_options defaults = { 0 };
	mev__report r;
	mev__doc d = { out, MEV_REPORT_MD, "", 0 };
	mev_buf title = MEV_BUF_INIT;
	int rc;
	if (!opt)
		opt = &defaults;
	d.fmt = opt->format;
	if ((rc = mev__report_gather(&r, s, opt)))
		goto done;
	if (mev__buf_printf(&title, "%s: %s \xe2\x86\x92 %s", r.project, r.a.rel->tag, r.b.rel->tag)) {
		rc = mev_error_oom();
		goto done;
	}
	mev__doc_begin(&d, title.ptr);
	part_title(&d, &r, title.ptr);
	part_headline(&d, &r);
	part_subsystems(&d, &r);
	if ((rc = part_sections(&d, &r)) || (rc = part_movers(&d, &r)) || (rc = part_history(&d, &r)) ||
	    (rc = mev__part_flow(&d, &r)))
		goto done;
	mev__doc_end(&d);
	if (ferror(out))
		rc = mev_error_set(MEV_EIO, "cannot write the report");
done:
	mev__buf_free(&title);
	mev__report_free(&r);
	return rc;
}
