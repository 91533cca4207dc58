/* The report's "Listed but quiet" part: the listed people who do not do the work, and the sections that claim care nobody gives. */
/*
 * From the listed and listed_sections tables of both releases
 * (mev_export_listed_rows(), default --quiet-months), read once by
 * mev__listed_gather() for this part and the glance table.
 */
#include "report_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

enum { LISTED_TOP = 10 }; /* rows of the section and people tables */

static int rows_of(mev_listed_list *l, const mev__report *r, const char *tag)
{
	mev_export_options o = { 0 };
	int rc;
	o.release = tag;
	o.history = r->h;
	rc = mev_export_listed_rows(l, r->store, &o);
	if (rc && rc != MEV_ENOMEM) {
		/* no repository to read the rosters from: said as no flow is */
		mev_error_clear();
		mev_listed_list_free(l);
		rc = 0;
	}
	return rc;
}

int mev__listed_gather(mev__report *r)
{
	int rc;
	if ((rc = rows_of(&r->listed_a, r, r->a.rel->tag)) ||
	    (rc = rows_of(&r->listed_b, r, r->b.rel->tag)))
		return rc;
	r->listed_known = r->listed_a.n_sections > 0 && r->listed_b.n_sections > 0;
	return 0;
}

static int is(const char *state, const char *what)
{
	return state && strcmp(state, what) == 0;
}

mev__listed_counts mev__listed_count(const mev_listed_list *l)
{
	mev__listed_counts c = { 0, 0, 0, 0 };
	for (size_t i = 0; i < l->n; i++) {
		const char *st = l->v[i].state;
		c.entries += !is(st, "unknown");
		c.never_seen += is(st, "never_seen");
		c.quiet += is(st, "quiet") || is(st, "gone");
	}
	for (size_t i = 0; i < l->n_sections; i++)
		c.orphaned += l->sections[i].orphaned_in_fact;
	return c;
}

static void counts_table(mev__doc *d, const mev__report *r)
{
	mev__listed_counts a = mev__listed_count(&r->listed_a), b = mev__listed_count(&r->listed_b);
	const char *hdr[] = { "", r->a.rel->tag, r->b.rel->tag, "change", NULL };
	const struct { const char *label; int64_t a, b; } rows[] = {
		{ "Listed M:/R: addresses (per section)", a.entries, b.entries },
		{ "... never seen in the history", a.never_seen, b.never_seen },
		{ "... quiet or gone (nothing in the section for 12 months)", a.quiet, b.quiet },
		{ "Sections orphaned in fact (S: Maintained or Supported, no M: active)", a.orphaned,
		  b.orphaned },
	};
	mev__doc_table(d, hdr, "lrrr");
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		mev__doc_cell(d, rows[i].label);
		mev__doc_cell_count(d, rows[i].a);
		mev__doc_cell_count(d, rows[i].b);
		mev__doc_cell_change(d, rows[i].a, rows[i].b, 0, 1);
	}
	mev__doc_table_end(d);
}

static int by_lines(const void *pa, const void *pb)
{
	const mev_listed_section *p = *(const mev_listed_section *const *)pa;
	const mev_listed_section *q = *(const mev_listed_section *const *)pb;
	if (p->lines != q->lines)
		return p->lines > q->lines ? -1 : 1;
	return strcmp(p->section, q->section);
}

static int largest_orphaned(mev__doc *d, const mev__report *r)
{
	static const char *const hdr[] = { "Section", "S:", "Lines", "M:", "quiet or gone",
					   "never seen", NULL };
	const mev_listed_list *l = &r->listed_b;
	const mev_listed_section **v = malloc((l->n_sections + 1) * sizeof *v);
	size_t n = 0;
	if (!v)
		return mev_error_oom();
	for (size_t i = 0; i < l->n_sections; i++)
		if (l->sections[i].orphaned_in_fact)
			v[n++] = &l->sections[i];
	if (!n) {
		mev__doc_para(d, "note", "No section claims care with none of its M: people active.");
		free(v);
		return 0;
	}
	qsort(v, n, sizeof *v, by_lines);
	mev__doc_table(d, hdr, "llrrrr");
	for (size_t i = 0; i < n && i < LISTED_TOP; i++) {
		mev__doc_cell(d, mev__display(r, r->b.rel->tag, v[i]->section));
		mev__doc_cell(d, v[i]->status ? v[i]->status : "");
		mev__doc_cell_count(d, (int64_t)v[i]->lines);
		mev__doc_cell_count(d, (int64_t)v[i]->maintainers);
		mev__doc_cell_count(d, (int64_t)(v[i]->maintainers_quiet + v[i]->maintainers_gone));
		mev__doc_cell_count(d, (int64_t)v[i]->maintainers_never_seen);
	}
	mev__doc_table_end(d);
	mev__doc_more(d, n > LISTED_TOP ? n - LISTED_TOP : 0, "maintevo export listed_sections");
	free(v);
	return 0;
}

/* The entry of a listed in section/role/entry, or NULL. */
static const mev_listed_row *find_entry(const mev_listed_list *l, const mev_listed_row *e)
{
	for (size_t i = 0; i < l->n; i++) {
		const mev_listed_row *f = &l->v[i];
		if (strcmp(f->entry, e->entry) == 0 && strcmp(f->section, e->section) == 0 &&
		    strcmp(f->role, e->role) == 0)
			return f;
	}
	return NULL;
}

/* The entries active at the older release and quiet or gone at the newer. */
static void went_quiet(mev__doc *d, const mev__report *r)
{
	static const char *const hdr[] = { "Person", "Section", "Role", "Last active there", "Now",
					   NULL };
	size_t n = 0;
	for (size_t i = 0; i < r->listed_b.n; i++) {
		const mev_listed_row *b = &r->listed_b.v[i], *a;
		char date[16] = "";
		if (!(is(b->state, "quiet") || is(b->state, "gone")) ||
		    !(a = find_entry(&r->listed_a, b)) || !is(a->state, "active"))
			continue;
		if (n++ >= LISTED_TOP)
			continue;
		if (n == 1)
			mev__doc_table(d, hdr, "lllll");
		if (b->last_active != INT64_MIN)
			mev__fmt_date(date, b->last_active);
		mev__doc_cell(d, b->name ? b->name : b->entry);
		mev__doc_cell(d, mev__display(r, r->b.rel->tag, b->section));
		mev__doc_cell(d, b->role);
		mev__doc_cell(d, date);
		mev__doc_cell(d, b->state);
	}
	if (!n) {
		mev__doc_para(d, "note", "Nobody listed in both releases went quiet between them.");
		return;
	}
	mev__doc_table_end(d);
	mev__doc_more(d, n > LISTED_TOP ? n - LISTED_TOP : 0, "maintevo export listed");
}

int mev__part_listed(mev__doc *d, const mev__report *r)
{
	mev__doc_heading(d, 2, "Listed but quiet");
	if (!r->listed_known) {
		mev__doc_missing(d, "The activity of the listed people needs the patch flow",
				 "maintevo flow");
		return 0;
	}
	mev__doc_para(d, NULL, "Are the people MAINTAINERS lists the ones doing the work? Each M:/R: "
		      "entry by its activity in the section's files (author, committer or trailer) "
		      "over the whole history up to the release; 'maintevo export listed' and "
		      "'listed_sections' have every row, docs/schemas.md defines them.");
	counts_table(d, r);
	mev__doc_heading(d, 3, "The largest sections orphaned in fact");
	{
		int rc = largest_orphaned(d, r);
		if (rc)
			return rc;
	}
	mev__doc_heading(d, 3, "Who went quiet in the pair");
	went_quiet(d, r);
	return 0;
}
