/* The report's "Patch flow" part: conformance per release, weakest subsystems, strange paths. */
#include "report_internal.h"
#include "plots.h"
#include "maintevo/error.h"
#include "maintevo/flow.h"

#include <stdlib.h>
#include <string.h>

enum {
	FLOW_SERIES_MD = 12, /* releases in the Markdown table */
	FLOW_TOP = 10,       /* rows of the subsystem and path tables */
	FLOW_MIN_COVERED = 10 /* a subsystem needs this many covered commits to be ranked */
};

static double share(uint64_t k, uint64_t n) { return n ? 100.0 * (double)k / (double)n : 0; }

static void cell_share(mev__doc *d, uint64_t k, uint64_t n)
{
	char buf[32];
	if (!n) {
		mev__doc_cell(d, "\xe2\x80\x93");
		return;
	}
	snprintf(buf, sizeof buf, "%.1f%%", share(k, n));
	mev__doc_cell(d, buf);
}

/* The release rows of releases up to the newer one compared. */
static size_t release_rows(const mev_flow_group **out, const mev_flow_groups *g, const mev__report *r)
{
	size_t n = 0;
	for (size_t i = 0; i < g->n; i++) {
		int64_t k = mev_history_find(r->h, g->v[i].release);
		if (g->v[i].level == MEV_FLOW_LEVEL_RELEASE && k >= 0 && (size_t)k <= r->ib)
			out[n++] = &g->v[i];
	}
	return n;
}

static void conformance_chart(mev__doc *d, const mev__report *r, const mev_flow_group **rel, size_t n)
{
	if (d->fmt == MEV_REPORT_HTML) {
		const char **labels = malloc((n + 1) * sizeof *labels);
		double *vals = malloc((n + 1) * sizeof *vals);
		uint8_t *hl = calloc(n + 1, 1);
		if (labels && vals && hl) {
			for (size_t i = 0; i < n; i++) {
				labels[i] = rel[i]->release;
				vals[i] = share(rel[i]->verdict[MEV_FLOW_COMMITTER_IS_MAINTAINER], rel[i]->covered);
				hl[i] = strcmp(rel[i]->release, r->a.rel->tag) == 0 ||
					strcmp(rel[i]->release, r->b.rel->tag) == 0;
			}
			mev__plot_bars(d->out, "Commits committed by an M: of a section they touch, in % of "
				       "the commits a section other than THE REST covers, per release",
				       labels, vals, hl, n);
		}
		free(labels);
		free(vals);
		free(hl);
	}
	{
		const char *hdr[] = { "release", "commits", "covered", "committer is M:",
				      "in subsystem", "signed off by M:", "reviewed by M:/R:",
				      "via T: tree", "strange" };
		size_t first = n > FLOW_SERIES_MD ? n - FLOW_SERIES_MD : 0;
		mev__doc_table(d, hdr, "trrrrrrrr");
		for (size_t i = first; i < n; i++) {
			const mev_flow_group *g = rel[i];
			mev__doc_cell(d, g->release);
			mev__doc_cell_count(d, (int64_t)g->commits);
			mev__doc_cell_count(d, (int64_t)g->covered);
			for (int k = 0; k < MEV_FLOW_VERDICTS; k++)
				cell_share(d, g->verdict[k], g->known[k]);
			cell_share(d, g->strange, g->covered);
		}
		mev__doc_table_end(d);
		if (first)
			mev__doc_more(d, first, "maintevo export flow");
	}
}

static int by_conformance(const void *pa, const void *pb)
{
	const mev_flow_group *a = *(const mev_flow_group *const *)pa, *b = *(const mev_flow_group *const *)pb;
	double x = share(a->verdict[0], a->covered), y = share(b->verdict[0], b->covered);
	if (x != y)
		return x < y ? -1 : 1;
	return strcmp(a->group, b->group);
}

/* The subsystems of the newer release with the lowest share of commits
 * committed by a maintainer of what they touch. */
static int weakest(mev__doc *d, const mev__report *r, const mev_flow_groups *g)
{
	const mev_flow_group **v = malloc((g->n + 1) * sizeof *v);
	size_t n = 0;
	if (!v)
		return mev_error_oom();
	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].level == MEV_FLOW_LEVEL_SUBSYSTEM && g->v[i].covered >= FLOW_MIN_COVERED &&
		    strcmp(g->v[i].release, r->b.rel->tag) == 0)
			v[n++] = &g->v[i];
	mev__sort(v, n, sizeof *v, by_conformance);
	if (!n) {
		mev__doc_para(d, "note", "No subsystem of this release has enough commits to rank "
			      "(at least 10 covered), or the release is not clustered ('maintevo cluster').");
	} else {
		const char *hdr[] = { "subsystem", "commits", "committer is M:", "in subsystem",
				      "signed off by M:", "strange" };
		mev__doc_table(d, hdr, "lrrrrr");
		for (size_t i = 0; i < n && i < FLOW_TOP; i++) {
			mev__doc_cell(d, mev__display(r, v[i]->release, v[i]->group));
			mev__doc_cell_count(d, (int64_t)v[i]->covered);
			cell_share(d, v[i]->verdict[0], v[i]->known[0]);
			cell_share(d, v[i]->verdict[1], v[i]->known[1]);
			cell_share(d, v[i]->verdict[2], v[i]->known[2]);
			cell_share(d, v[i]->strange, v[i]->covered);
		}
		mev__doc_table_end(d);
		mev__doc_more(d, n > FLOW_TOP ? n - FLOW_TOP : 0, "maintevo export flow");
	}
	free(v);
	return 0;
}

/* The strange paths of the newer release with the most commits. */
static void strange_paths(mev__doc *d, const mev__report *r, const mev_flow_groups *g)
{
	size_t n = 0, shown = 0;
	for (size_t i = 0; i < g->n; i++)
		n += g->v[i].level == MEV_FLOW_LEVEL_PATH && strcmp(g->v[i].release, r->b.rel->tag) == 0;
	if (!n) {
		mev__doc_para(d, "note", "No strange paths in this release.");
		return;
	}
	{
		const char *hdr[] = { "committer", "sections touched", "strange commits" };
		mev__doc_table(d, hdr, "llr");
		/* the groups come with the most strange commits first */
		for (size_t i = 0; i < g->n && shown < FLOW_TOP; i++) {
			const mev_flow_group *p = &g->v[i];
			if (p->level != MEV_FLOW_LEVEL_PATH || strcmp(p->release, r->b.rel->tag) != 0)
				continue;
			mev__doc_cell(d, p->group);
			mev__doc_cell(d, p->detail);
			mev__doc_cell_count(d, (int64_t)p->strange);
			shown++;
		}
		mev__doc_table_end(d);
		mev__doc_more(d, n - shown, "maintevo export flow");
	}
}

int mev__part_flow(mev__doc *d, const mev__report *r)
{
	mev_flow_groups g;
	const mev_flow_group **rel = NULL;
	size_t n;
	int rc = mev_export_flow_groups(&g, r->store, r->h, NULL);
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		return 0; /* 'maintevo flow' has not run: no part */
	}
	if (rc)
		return rc;
	if (!(rel = malloc((g.n + 1) * sizeof *rel))) {
		mev_flow_groups_free(&g);
		return mev_error_oom();
	}
	n = release_rows(rel, &g, r);
	mev__doc_heading(d, 2, "Patch flow");
	mev__doc_para(d, NULL, "Did each commit come through the people MAINTAINERS names for the "
		      "files it touches (its parent's MAINTAINERS, THE REST left out)? Shares of the "
		      "commits a section covers; docs/flow.md defines each verdict.");
	mev__doc_heading(d, 3, "Conformance per release");
	conformance_chart(d, r, rel, n);
	mev__doc_heading(d, 3, "Subsystems with the lowest conformance");
	rc = weakest(d, r, &g);
	mev__doc_heading(d, 3, "The largest strange paths");
	if (!rc)
		strange_paths(d, r, &g);
	free(rel);
	mev_flow_groups_free(&g);
	return rc;
}
