/*
 * The report is its parts, in the order of this table: each part is one
 * file (part_<name>.c) with one function that writes it through the
 * document layer (document.c), for Markdown and HTML alike; the HTML adds
 * the plots (plots.c).  A part with a heading gets it here, and a link
 * in the HTML page's navigation when it has a nav label.  A new part or
 * plot: its file, and a row here.
 */
#include "report_internal.h"
#include "maintevo/error.h"

typedef struct {
	const char *name;          /* what the part is (for people reading this table) */
	const char *heading;       /* its level-2 heading, written before it (NULL: none,
				    * or one it writes itself) */
	const char *nav;           /* its link in the HTML navigation (NULL: none) */
	int (*write)(mev__doc *d, const mev__report *r);
} part;

static const part parts[] = {
	{ "title", NULL, NULL, mev__part_title },
	{ "glance", "At a glance", "At a glance", mev__part_glance },
	{ "subsystems", "Subsystems", "Subsystems", mev__part_subsystems },
	{ "sections", "Sections", "Sections", mev__part_sections },
	{ "movers", "Largest growers and shrinkers", "Growers and shrinkers", mev__part_movers },
	{ "history", "Over all releases", "Over all releases", mev__part_history },
	{ "health", NULL, NULL, mev__part_health },     /* under "Over all releases" */
	{ "lineages", "Lineage chart", "Lineage chart", mev__part_lineages },
	{ "flow", NULL, NULL, mev__part_flow },         /* its heading only when there is flow */
	{ "people", NULL, NULL, mev__part_people },     /* its heading only when the store can say */
	{ "listed", NULL, NULL, mev__part_listed },     /* its heading always; without flow a hint */
};

/* "<nav>" with a link to every part that has a nav label, "·" between them. */
void mev__parts_nav(mev__doc *d)
{
	int first = 1;
	fputs("<nav>", d->out);
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
		if (!parts[i].nav)
			continue;
		fputs(first ? "<a href=\"#" : " \xc2\xb7 <a href=\"#", d->out);
		first = 0;
		mev__doc_anchor(d, parts[i].heading);
		fputs("\">", d->out);
		mev__doc_text(d, parts[i].nav);
		fputs("</a>", d->out);
	}
	fputs("</nav>\n", d->out);
}

int mev_report_write(FILE *out, mev_store *s, const mev_report_options *opt)
{
	static const mev_report_options defaults = { 0 };
	mev__report r;
	mev__doc d = { out, MEV_REPORT_MD, "", 0, NULL };
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
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
		if (parts[i].heading)
			mev__doc_heading(&d, 2, parts[i].heading);
		if ((rc = parts[i].write(&d, &r)))
			goto done;
	}
	mev__doc_end(&d);
	if (ferror(out))
		rc = mev_error_write("report");
done:
	mev__buf_free(&title);
	mev__report_free(&r);
	return rc;
}
