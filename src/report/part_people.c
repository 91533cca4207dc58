/* The report's "People" part: the subsystems whose bus factor fell to 1, whose maintainers left, or whose lines per maintainer doubled. */
#include "report_internal.h"
#include "maintevo/error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The workload rows of release `tag` by lineage (*l empty when the store
 * cannot give them: not tracked, imported, its repository gone). */
static int rows_of(mev_workload_list *l, const mev__report *r, const char *tag)
{
	mev_export_options o = { 0 };
	int rc;
	o.release = tag;
	o.history = r->h;
	rc = mev_export_workload(l, r->store, &o);
	if (rc && rc != MEV_ENOMEM) {
		mev_error_clear();
		rc = 0;
	}
	return rc;
}

static const mev_workload_row *find(const mev_workload_list *l, int64_t lineage)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].lineage == lineage)
			return &l->v[i];
	return NULL;
}

/* 1 when no maintainer of a is one of b (both sorted). */
static int none_shared(const mev_workload_row *a, const mev_workload_row *b)
{
	size_t i = 0, j = 0;
	while (i < a->maintainers && j < b->maintainers) {
		int c = strcmp(a->maintainer_keys[i], b->maintainer_keys[j]);
		if (!c)
			return 0;
		if (c < 0)
			i++;
		else
			j++;
	}
	return 1;
}

static void row(mev__doc *d, const mev_workload_row *b, const char *what, const char *before,
		const char *after)
{
	char id[32];
	snprintf(id, sizeof id, "%lld", (long long)b->lineage);
	mev__doc_cell(d, b->lineage_name ? b->lineage_name : "");
	mev__doc_cell(d, id);
	mev__doc_cell(d, what);
	mev__doc_cell(d, before);
	mev__doc_cell(d, after);
}

int mev__part_people(mev__doc *d, const mev__report *r)
{
	static const char *const hdr[] = { "Subsystem", "Lineage", "What changed", "Before", "After", NULL };
	mev_workload_list la = { 0 }, lb = { 0 };
	size_t shown = 0;
	int rc;
	if ((rc = rows_of(&la, r, r->a.rel->tag)) || (rc = rows_of(&lb, r, r->b.rel->tag)))
		goto done;
	if (!la.n || !lb.n)
		goto done; /* nothing to compare: no part */
	mev__doc_heading(d, 2, "People");
	mev__doc_para(d, NULL, "Subsystems (lineages in both releases) whose bus factor fell to 1, "
		      "whose maintainers all left, or whose lines per maintainer doubled; "
		      "'maintevo export workload' has every number, docs/schemas.md defines them.");
	for (size_t i = 0; i < lb.n; i++) {
		const mev_workload_row *b = &lb.v[i], *a = find(&la, b->lineage);
		char x[64], y[64];
		if (!a)
			continue;
		if (a->judged && b->judged && a->bus_factor > 1 && b->bus_factor == 1) {
			if (!shown++)
				mev__doc_table(d, hdr, "lrlll");
			snprintf(x, sizeof x, "%lld", (long long)a->bus_factor);
			snprintf(y, sizeof y, "1 (%s, %.0f%%)", b->top_committer,
				 100.0 * b->top_committer_share);
			row(d, b, "bus factor fell to 1", x, y);
		}
		if (a->maintainers && (!b->maintainers || none_shared(a, b))) {
			if (!shown++)
				mev__doc_table(d, hdr, "lrlll");
			snprintf(x, sizeof x, "%llu", (unsigned long long)a->maintainers);
			snprintf(y, sizeof y, "%llu%s", (unsigned long long)b->maintainers,
				 b->maintainers ? ", all new" : "");
			row(d, b, "maintainers all left", x, y);
		}
		if (!isnan(a->lines_per_maintainer) && !isnan(b->lines_per_maintainer) &&
		    a->lines_per_maintainer > 0 &&
		    b->lines_per_maintainer >= 2 * a->lines_per_maintainer) {
			if (!shown++)
				mev__doc_table(d, hdr, "lrlll");
			snprintf(x, sizeof x, "%.0f", a->lines_per_maintainer);
			snprintf(y, sizeof y, "%.0f", b->lines_per_maintainer);
			row(d, b, "lines per maintainer doubled", x, y);
		}
	}
	if (shown)
		mev__doc_table_end(d);
	else
		mev__doc_para(d, "note", "No subsystem's bus factor fell to 1, no subsystem lost all its "
			      "maintainers, and none doubled its lines per maintainer.");
done:
	mev_workload_list_free(&la);
	mev_workload_list_free(&lb);
	return rc;
}
