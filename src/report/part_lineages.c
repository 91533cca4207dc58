/*
 * "Lineage chart": every lineage over every release as one alluvial
 * picture (src/chart/), the span of the two releases compared shaded.
 * HTML gets the drawing inline (an SVG, no script: the report stays a page
 * that runs nothing); Markdown names the command that draws it.
 */
#include "report_internal.h"
#include "maintevo/chart.h"
#include "maintevo/error.h"

int mev__part_lineages(mev__doc *d, const mev__report *r)
{
	mev_chart_options co = { 0 };
	if (!mev_history_tracked(r->h)) {
		mev__doc_missing(d, "The lineage chart needs clusters followed across releases",
				 "maintevo track");
		return 0;
	}
	if (d->fmt != MEV_REPORT_HTML) {
		mev__doc_para_begin(d, NULL);
		mev__doc_text(d, "Every subsystem over every release, with its splits and merges: ");
		mev__doc_code(d, "maintevo chart --store STORE -o chart.html");
		mev__doc_text(d, " (an interactive page) or ");
		mev__doc_code(d, "--format svg");
		mev__doc_text(d, " (for print).");
		mev__doc_para_end(d, NULL);
		return 0;
	}
	co.format = MEV_CHART_SVG;
	co.top = -1;
	co.history = r->h;
	co.mark_from = r->a.rel->tag;
	co.mark_to = r->b.rel->tag;
	co.embedded = 1;
	fputs("<figure class=\"chart lineages\">\n", d->out);
	if (mev_chart_write(d->out, r->store, &co)) {
		/* fewer than two tracked releases: a note, not a failure (nothing
		 * was written: the chart is drawn only once it is laid out) */
		if (mev_error_code() != MEV_ENOTFOUND)
			return mev_error_code();
		mev_error_clear();
		fputs("</figure>\n", d->out);
		mev__doc_missing(d, "The lineage chart needs two tracked releases or more",
				 "maintevo track");
		return 0;
	}
	fputs("<figcaption>", d->out);
	mev__doc_printf(d, "Every lineage (a subsystem followed over releases) from the first release "
			   "to the last, as tall as the lines of code it covers; ribbons: code moving "
			   "between lineages (splits, merges); shaded: %s to %s, the releases this "
			   "report compares.  The interactive version: ",
			r->a.rel->tag, r->b.rel->tag);
	mev__doc_code(d, "maintevo chart --store STORE -o chart.html");
	fputs("</figcaption>\n</figure>\n", d->out);
	return 0;
}
