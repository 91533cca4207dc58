/* The patch flow tables: commits with their verdicts, aggregates, people (docs/flow.md). */
#include "export_internal.h"
#include "maintevo/error.h"
#include "maintevo/flow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef mev__flow_rel flow_rel;

void mev__export_flow_free(flow_rel *f)
{
	mev_flow_release_free(f->fr);
	free(f->cluster);
	mev__export_flow_dist_free(f->dist);
	memset(f, 0, sizeof *f);
}

int mev__export_flow_load(flow_rel *f, const mev__export_ctx *x, size_t r)
{
	int rc;
	memset(f, 0, sizeof *f);
	f->r = r;
	rc = mev_flow_load(&f->fr, x->s, mev_history_release(x->h, r)->tag);
	if (rc == MEV_ENOTFOUND)
		return 0;
	if (rc)
		return rc;
	f->cluster = malloc((f->fr->n_strings + 1) * sizeof *f->cluster);
	if (!f->cluster)
		return mev_error_oom();
	for (size_t i = 0; i < f->fr->n_strings; i++)
		f->cluster[i] = -2;
	return 0;
}

int64_t mev__export_flow_cluster(const mev__export_ctx *x, flow_rel *f, uint32_t title)
{
	if (f->cluster[title] == -2)
		f->cluster[title] = mev_history_cluster_of(x->h, f->r, f->fr->strings[title]);
	return f->cluster[title];
}

/* committer_in_subsystem: 1, 0, or -1 when the release is not clustered
 * or the commit touches no section. */
static int in_subsystem(const mev__export_ctx *x, flow_rel *f, const mev_flow_commit *c)
{
	const uint32_t *a, *b;
	size_t na, nb;
	if (c->coverage != MEV_FLOW_COVERED || !mev_history_clustering(x->h, f->r))
		return -1;
	if (c->verdicts & (1u << MEV_FLOW_COMMITTER_IS_MAINTAINER))
		return 1;
	na = mev_flow_set(&a, f->fr, c->sections);
	nb = mev_flow_set(&b, f->fr, c->committer_sections);
	for (size_t i = 0; i < na; i++) {
		int64_t k = mev__export_flow_cluster(x, f, a[i]);
		for (size_t j = 0; k >= 0 && j < nb; j++)
			if (mev__export_flow_cluster(x, f, b[j]) == k)
				return 1;
	}
	return 0;
}

unsigned mev__export_flow_verdicts(unsigned *known, const mev__export_ctx *x, flow_rel *f,
			    const mev_flow_commit *c)
{
	unsigned v = c->verdicts & ~(1u << MEV_FLOW_COMMITTER_IN_SUBSYSTEM);
	int sub = in_subsystem(x, f, c);
	*known = 0;
	if (c->coverage != MEV_FLOW_COVERED)
		return 0;
	*known = ((1u << MEV_FLOW_VERDICTS) - 1) & ~(sub < 0 ? 1u << MEV_FLOW_COMMITTER_IN_SUBSYSTEM : 0);
	if (sub > 0)
		v |= 1u << MEV_FLOW_COMMITTER_IN_SUBSYSTEM;
	return v;
}

int mev__export_flow_strange(const mev_flow_commit *c)
{
	const unsigned any = 1u << MEV_FLOW_COMMITTER_IS_MAINTAINER | 1u << MEV_FLOW_SIGNOFF_BY_MAINTAINER |
			     1u << MEV_FLOW_REVIEWED_BY_LISTED | 1u << MEV_FLOW_VIA_LISTED_TREE;
	return c->coverage == MEV_FLOW_COVERED && !(c->verdicts & any);
}

const char *mev__export_flow_person(const mev_flow_person *p)
{
	return *p->email ? p->email : p->name;
}

/* The people of trailers of `kind`, joined with " | ". */
static int join_trailers(mev_buf *b, const mev_flow_release *fr, const mev_flow_commit *c,
			 unsigned kinds)
{
	mev__buf_clear(b);
	for (uint32_t k = 0; k < c->trailer_count; k++) {
		const mev_flow_trailer *t = &fr->trailers[c->trailer_begin + k];
		if (!(kinds & (1u << t->kind)))
			continue;
		if ((b->len && mev__buf_puts(b, " | ")) ||
		    mev__buf_puts(b, t->kind == MEV_TRAILER_LINK ? fr->strings[t->value]
							       : mev__export_flow_person(&fr->people[t->value])))
			return mev_error_oom();
	}
	return mev__buf_puts(b, "") ? mev_error_oom() : 0;
}

static int title_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int join_sections(mev_buf *b, const mev_flow_release *fr, uint32_t set)
{
	const uint32_t *ids;
	size_t n = mev_flow_set(&ids, fr, set);
	const char **t = malloc((n + 1) * sizeof *t);
	int rc = 0;
	if (!t)
		return mev_error_oom();
	for (size_t i = 0; i < n; i++)
		t[i] = fr->strings[ids[i]];
	mev__export_sort(t, n, sizeof *t, title_cmp);
	mev__buf_clear(b);
	for (size_t i = 0; i < n && !rc; i++)
		if ((i && mev__buf_puts(b, " | ")) || mev__buf_puts(b, t[i]))
			rc = mev_error_oom();
	if (!rc && mev__buf_puts(b, ""))
		rc = mev_error_oom();
	free(t);
	return rc;
}

static void verdict_cells(mev_table *w, unsigned v, unsigned known)
{
	for (int k = 0; k < MEV_FLOW_VERDICTS; k++)
		mev_table_int_or_null(w, known & (1u << k) ? (int64_t)((v >> k) & 1) : -1);
}

static int commit_row(mev_table *w, const mev__export_ctx *x, flow_rel *f, const mev_flow_commit *c,
		      mev_buf *b)
{
	const mev_flow_release *fr = f->fr;
	unsigned known, v = mev__export_flow_verdicts(&known, x, f, c);
	char hex[41];
	int rc;
	mev_oid_fmt(hex, &c->id);
	mev_table_str(w, hex);
	mev_table_str(w, fr->tag);
	mev_table_str(w, mev__export_flow_person(&fr->people[c->author]));
	mev_table_str(w, mev__export_flow_person(&fr->people[c->committer]));
	if (c->route)
		mev_oid_fmt(hex, &fr->routes[c->route].merge);
	mev_table_str(w, c->route ? hex : "direct");
	mev_table_str_or_null(w, fr->routes[c->route].tree);
	if ((rc = join_sections(b, fr, c->sections)))
		return rc;
	mev_table_str_or_null(w, b->ptr);
	verdict_cells(w, v, known);
	mev_table_str(w, mev_flow_coverage_name((mev_flow_coverage)c->coverage));
	mev_table_int_or_null(w, c->coverage == MEV_FLOW_COVERED ? mev__export_flow_strange(c) : -1);
	mev_table_str(w, fr->people[c->author].name);
	mev_table_str(w, fr->people[c->committer].name);
	mev_table_date(w, c->author_time);
	mev_table_date(w, c->commit_time);
	mev_table_uint(w, c->path_count);
	for (int k = 0; k < 4; k++) {
		static const unsigned kinds[4] = {
			1u << MEV_TRAILER_SIGNED_OFF, 1u << MEV_TRAILER_ACKED, 1u << MEV_TRAILER_REVIEWED,
			1u << MEV_TRAILER_TESTED
		};
		if ((rc = join_trailers(b, fr, c, kinds[k])))
			return rc;
		mev_table_str_or_null(w, b->ptr);
	}
	mev_table_int_or_null(w, c->has_churn ? (int64_t)c->added : -1);
	mev_table_int_or_null(w, c->has_churn ? (int64_t)c->removed : -1);
	{
		int64_t d;
		if ((rc = mev__export_flow_distance(&d, x, f, c)))
			return rc;
		mev_table_int_or_null(w, d);
	}
	mev_table_end_row(w);
	return 0;
}

int mev__export_commits(mev_table *w, const mev__export_ctx *x)
{
	size_t first, end;
	mev_buf b = MEV_BUF_INIT;
	int rc = 0;
	mev__export_range(&first, &end, x->h, x->opt->release);
	for (size_t r = first; !rc && r < end; r++) {
		flow_rel f;
		if ((rc = mev__export_flow_load(&f, x, r)) == 0 && f.fr)
			for (size_t i = 0; !rc && i < f.fr->n; i++)
				rc = commit_row(w, x, &f, &f.fr->commits[i], &b);
		mev__export_flow_free(&f);
	}
	mev__buf_free(&b);
	return rc;
}
