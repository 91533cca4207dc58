/* "At a glance": the headline numbers of both releases, as cards (HTML) and a table. */
#include "report_internal.h"
#include "maintevo/table.h"

typedef struct {
	const char *label;
	int64_t a, b;
	int percent;  /* show the change in percent too */
	int worse;    /* which way is worse: 1 up, -1 down, 0 neither */
	int missing;  /* no value (not clustered) */
} headline;

/* The listed people's headline, when the store has a flow ("Listed but quiet"). */
static void listed_rows(mev__doc *d, const mev__report *r)
{
	mev__listed_counts a, b;
	if (!r->listed_known)
		return;
	a = mev__listed_count(&r->listed_a);
	b = mev__listed_count(&r->listed_b);
	const headline rows[] = {
		{ "Listed M:/R: addresses (per section)", a.entries, b.entries, 0, 0, 0 },
		{ "Listed, never seen in the history", a.never_seen, b.never_seen, 0, 1, 0 },
		{ "Listed, quiet or gone (12 months)", a.quiet, b.quiet, 0, 1, 0 },
		{ "Sections orphaned in fact", a.orphaned, b.orphaned, 0, 1, 0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		mev__doc_cell(d, rows[i].label);
		mev__doc_cell_count(d, rows[i].a);
		mev__doc_cell_count(d, rows[i].b);
		mev__doc_cell_change(d, rows[i].a, rows[i].b, 0, rows[i].worse);
	}
}

int mev__part_glance(mev__doc *d, const mev__report *r)
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
	listed_rows(d, r);
	mev__doc_table_end(d);
	return 0;
}
