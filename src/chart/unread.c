/*
 * The releases whose own get_maintainer.pl leaves MAINTAINERS files of
 * their tree unread (U-Boot v2021.10 reads ./MAINTAINERS alone while
 * board/ holds 511 more): the bands of those files' sections end before
 * such a release and start again after it.  The chart marks the release
 * with a small triangle at the top of the plot, whose tooltip says why, and a
 * legend line.  From each release's health record.
 */
#include "chart_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int mev__chart_unread_load(mev__chart_model *m, mev_store *s)
{
	if (mev_release_reads_top_level_only(s))
		return 0; /* every release leaves them unread, as asked: no mark says more */
	if (!(m->unread = malloc((m->nrel + 1) * sizeof *m->unread)))
		return mev_error_oom();
	for (size_t r = 0; r < m->nrel; r++) {
		mev_release_health h;
		int rc = mev_release_load_health(&h, s, mev_history_release(m->h, m->rel[r])->tag);
		m->unread[r] = rc == 0 && h.unread_known ? (int64_t)h.nunread : -1;
		mev_release_health_free(&h);
		if (rc && rc != MEV_ENOTFOUND)
			return rc;
		mev_error_clear();
	}
	return 0;
}

size_t mev__chart_unread_count(const mev__chart_layout *l)
{
	size_t n = 0;
	for (size_t r = 0; l->m->unread && r < l->m->nrel; r++)
		n += l->m->unread[r] > 0;
	return n;
}

/* The triangle of a mark, pointing down, its tip at (x, y). */
static void triangle(FILE *out, double x, double y)
{
	fprintf(out, "d=\"M%.1f %.1fl-5 -8h10Z\" fill=\"#c62828\" stroke=\"#fff\" stroke-width=\"0.8\"", x, y);
}

void mev__chart_unread_marks(FILE *out, const mev__chart_layout *l, int page)
{
	const mev__chart_model *m = l->m;
	if (!mev__chart_unread_count(l))
		return;
	fputs("<g class=\"unread\">\n", out);
	for (size_t r = 0; r < m->nrel; r++) {
		const char *tag = mev_history_release(m->h, m->rel[r])->tag;
		char why[512];
		if (m->unread[r] <= 0)
			continue;
		snprintf(why, sizeof why, "%s: its own get_maintainer.pl does not read %" PRId64
			 " MAINTAINERS file%s of its tree, so their sections are missing from this "
			 "release only: the bands they make end before it and start again after it",
			 tag, m->unread[r], m->unread[r] == 1 ? "" : "s");
		fprintf(out, "<path class=\"unread-mark\" data-release=\"%zu\" data-unread=\"%" PRId64 "\" ",
			r, m->unread[r]);
		triangle(out, l->x[r], l->top + 8); /* on the plot's top edge: the heading is above */
		if (page) {
			fputs(" tabindex=\"0\" role=\"img\" aria-label=\"", out);
			mev_table_xml_str(out, why, strlen(why));
			fputs("\"", out);
		}
		fputs("><title>", out);
		mev_table_xml_str(out, why, strlen(why));
		fputs("</title></path>\n", out);
	}
	fputs("</g>\n", out);
}

double mev__chart_unread_legend(FILE *out, const mev__chart_layout *l, double x, double y)
{
	if (!mev__chart_unread_count(l))
		return y;
	fputs("<path ", out);
	triangle(out, x + 5, y + 10);
	fprintf(out, "/><text x=\"%.1f\" y=\"%.1f\">its script leaves MAINTAINERS</text>\n", x + 14, y + 9);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">files unread (their bands pause)</text>\n", x + 14,
		y + 23);
	return y + 28;
}
