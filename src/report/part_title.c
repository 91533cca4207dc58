/* The report's title ("PROJECT: A → B"), what it is about and, in HTML, the links to its parts. */
#include "report_internal.h"

/* Why this pair, when the report picked it (no --from, no --to) for its
 * events rather than as the two newest releases (mev_report_default_pair). */
static void story_note(mev__doc *d, const mev__report *r)
{
	size_t newest = mev_history_release_count(r->h) - 1;
	if (r->opt->from || r->opt->to || r->ib == newest)
		return;
	mev__doc_printf(d, " %s to %s is the newest pair with events (subsystems born, died, split or "
			   "merged); %s is the newest release (name another pair with ",
			r->a.rel->tag, r->b.rel->tag, mev_history_release(r->h, newest)->tag);
	mev__doc_code(d, "--from");
	mev__doc_text(d, " and ");
	mev__doc_code(d, "--to");
	mev__doc_text(d, ").");
}

/* The title ("PROJECT: A → B") and what the report is about. */
int mev__part_title(mev__doc *d, const mev__report *r)
{
	const char *title = d->title;
	const char *ta = r->a.rel->tag, *tb = r->b.rel->tag;
	char da[16], db[16];
	size_t between = r->ib - r->ia - 1;
	mev__fmt_date(da, mev_release_date(r->a.rel));
	mev__fmt_date(db, mev_release_date(r->b.rel));
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
	mev__doc_text(d, ".");
	story_note(d, r);
	mev__doc_text(d, " Lines are newline characters of every file in the tree; the lines of a "
		      "section or a subsystem are those of the files it covers, each file once.");
	if (mev_history_clustered(r->h)) {
		mev__doc_text(d, " Clustering: ");
		mev__doc_code(d, mev_history_cluster_key(r->h));
		if (mev_history_tracked(r->h)) {
			mev__doc_text(d, "; tracking: ");
			mev__doc_code(d, mev_history_track_key(r->h));
		}
		mev__doc_text(d, ".");
	}
	if (d->fmt == MEV_REPORT_HTML) {
		fputs("</p>\n", d->out);
		mev__parts_nav(d);
		fputs("</header>\n", d->out);
	} else {
		fputs("\n\n", d->out);
	}
	return 0;
}
