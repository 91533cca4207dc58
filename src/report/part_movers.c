/* "Largest growers and shrinkers": subsystems and sections by their change in lines. */
#include "report_internal.h"

#include <stdlib.h>
#include <string.h>

enum { TOP_N = 10 }; /* growers and shrinkers */

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

int mev__part_movers(mev__doc *d, const mev__report *r)
{
	mev__mover *v = NULL, *lv = NULL;
	size_t nv = 0, nl = 0;
	mev_buf h = MEV_BUF_INIT;
	int rc;
	if ((rc = mev__section_movers(&v, &nv, r)) || (rc = mev__lineage_movers(&lv, &nl, r))) {
		free(v);
		return rc;
	}
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
