/*
 * "Subsystems": the clusters born, died, split and merged between the
 * releases, as tables and, in HTML, the alluvial plot of the largest
 * splits and merges (plots.c).
 */
#include "report_internal.h"
#include "plots.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	MEV_VEC(mev__plot_node) nodes = { 0 };
	MEV_VEC(mev__plot_flow) flows = { 0 };
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
			int64_t ri = mev_history_find(r->h, rel), k, lin = -1, ci;
			mev__plot_node nd = { NULL, left ? 0 : 1, (double)(left ? e->from_lines : e->to_lines), -1,
					      g };
			if (ri >= 0 && (k = mev_history_cluster_named(r->h, (size_t)ri, name)) >= 0)
				lin = mev_history_cluster_lineage(r->h, ri, k);
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
				mev__plot_flow f = { left ? nodes.n - 1 : single, left ? single : nodes.n - 1,
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
		mev__plot_alluvial(d->out, cap.ptr ? cap.ptr : "", cols, 2, nodes.v, nodes.n, flows.v, flows.n);
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

/* The cause of e, "" when none was computed. */
static const char *cause_of(const mev_event *e)
{
	return e->cause && e->cause[0] ? e->cause : "";
}

/* One row of a split or merge table: the events of group m (from its i-th
 * on) that share the i-th's cause, their clusters and numbers each listed in
 * the same order, "; " apart, and the cause once.  A group whose events
 * share one cause is one row, not the same long cause once per cluster. */
static void moves_row(mev__doc *d, const mev__report *r, const mev__move *m, size_t i)
{
	const mev_event *e = r->moves.v[m->first + i];
	int split = m->kind == MEV_EVENT_SPLIT;
	mev_buf who = MEV_BUF_INIT, lines = MEV_BUF_INIT, share = MEV_BUF_INIT, sup = MEV_BUF_INIT,
		secs = MEV_BUF_INIT, one = MEV_BUF_INIT;
	char n[32];
	int measured = 0;
	if (i == 0) {
		cell_cluster(d, r, split ? e->from_cluster : e->to_cluster, split ? e->from_release : e->to_release);
		mev__doc_cell_count(d, split ? e->from_lines : e->to_lines);
	} else {
		mev__doc_cell(d, "");
		mev__doc_cell(d, "");
	}
	for (size_t k = i; k < m->n; k++) {
		const mev_event *o = r->moves.v[m->first + k];
		const char *other = split ? o->to_cluster : o->from_cluster;
		const char *rel = split ? o->to_release : o->from_release;
		const char *sep = who.len ? "; " : "";
		if (strcmp(cause_of(o), cause_of(e)) != 0)
			continue;
		other = mev__display(r, rel, other);
		if (mev__multi_step(r))
			mev__buf_printf(&who, "%s%s (%s)", sep, other, rel);
		else
			mev__buf_printf(&who, "%s%s", sep, other);
		mev__buf_printf(&lines, "%s%s", sep, mev_table_count(n, split ? o->to_lines : o->from_lines));
		/* the share of the older side's code the newer side holds */
		mev__buf_printf(&share, "%s%.2f", sep, isnan(o->share) ? o->similarity : o->share);
		/* "-": not measured, so that the others keep their places */
		if (isnan(o->support))
			mev__buf_printf(&sup, "%s-", sep);
		else
			mev__buf_printf(&sup, "%s%.1f", sep, o->support), measured = 1;
		mev__cluster_sections(&one, r, rel, split ? o->to_cluster : o->from_cluster);
		mev__buf_printf(&secs, "%s%s", sep, one.ptr ? one.ptr : "");
	}
	mev__doc_cell(d, who.ptr ? who.ptr : "");
	mev__doc_cell(d, lines.ptr ? lines.ptr : "");
	mev__doc_cell(d, share.ptr ? share.ptr : "");
	mev__doc_cell(d, measured ? sup.ptr : "");
	mev__doc_cell(d, cause_of(e));
	mev__doc_cell(d, secs.ptr ? secs.ptr : "");
	mev_buf *bufs[] = { &who, &lines, &share, &sup, &secs, &one };
	for (size_t b = 0; b < sizeof bufs / sizeof *bufs; b++)
		mev__buf_free(bufs[b]);
}

/* Whether an event of group m before the i-th has the i-th's cause (its row
 * holds the i-th already). */
static int cause_shown(const mev__report *r, const mev__move *m, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(cause_of(r->moves.v[m->first + k]), cause_of(r->moves.v[m->first + i])))
			return 1;
	return 0;
}

static void moves_table(mev__doc *d, const mev__report *r, mev_event_kind kind)
{
	const char *split_hdr[] = { "subsystem before", "lines", "became", "lines", "share",
				    "support", "why", "its largest sections" };
	const char *merge_hdr[] = { "subsystem after", "lines", "came from", "lines", "share",
				    "support", "why", "its largest sections" };
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
		if (rows >= MEV__REPORT_LIST_MAX) {
			more++;
			continue;
		}
		for (size_t i = 0; i < m->n; i++)
			if (!cause_shown(r, m, i)) {
				moves_row(d, r, m, i);
				rows++;
			}
	}
	mev__doc_table_end(d);
	mev__doc_more(d, more, "maintevo export events");
}

/* The name of lineage id ("" when unknown). */
static const char *lineage_of(const mev__report *r, uint32_t id)
{
	return id >= 1 && id <= mev_history_lineages(r->h)->n
		       ? mev_history_lineages(r->h)->v[id - 1].name
		       : "";
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
	for (size_t i = 0; i < n && i < MEV__REPORT_LIST_MAX; i++) {
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
	mev__doc_more(d, n > MEV__REPORT_LIST_MAX ? n - MEV__REPORT_LIST_MAX : 0, "maintevo export events");
	mev__buf_free(&secs);
}

int mev__part_subsystems(mev__doc *d, const mev__report *r)
{
	size_t splits = 0, merges = 0;
	if (!mev_history_clustered(r->h)) {
		mev__doc_missing(d, "The releases are not clustered", "maintevo cluster");
		return 0;
	}
	if (!mev_history_tracked(r->h)) {
		mev__doc_missing(d, "Clusters are not followed across releases yet", "maintevo track");
		return 0;
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
	if (r->bridges)
		mev__doc_printf(d, " %zu vanished for a release or more and came back (bridged over "
				"the gap, neither died nor was born: the rows of 'maintevo events' "
				"whose event is bridge list %s).", r->bridges, r->bridges == 1 ? "it" : "them");
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
	return 0;
}
