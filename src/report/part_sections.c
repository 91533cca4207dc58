/* "Sections": the MAINTAINERS sections added, removed and renamed between the releases. */
#include "report_internal.h"

#include <stdlib.h>
#include <string.h>

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
	for (size_t i = 0; i < m && i < MEV__REPORT_LIST_MAX; i++) {
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
	mev__doc_more(d, count > MEV__REPORT_LIST_MAX ? count - MEV__REPORT_LIST_MAX : 0, cmd);
	mev__buf_free(&h);
	free(v);
	return 0;
}

int mev__part_sections(mev__doc *d, const mev__report *r)
{
	static const mev_section_change_kind kinds[] = { MEV_SECTION_ADDED, MEV_SECTION_REMOVED,
							 MEV_SECTION_RENAMED };
	size_t count[3] = { 0, 0, 0 };
	char cmd[160];
	int rc = 0;
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
