/* Patch flow aggregates: per release, section, subsystem and strange path; and per person. */
#include "export_internal.h"
#include "maintevo/error.h"
#include "util/strmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *mev_flow_level_name(mev_flow_level l)
{
	static const char *const names[] = { "release", "section", "subsystem", "path" };
	return (unsigned)l < 4 ? names[l] : "";
}

typedef MEV_VEC(mev_flow_group) group_vec;

typedef struct {
	group_vec *g;
	mev_arena *arena;
	mev_strmap idx;           /* level + name -> index into g */
	size_t base;              /* this release's first group */
} groups_ctx;

static int group_of(mev_flow_group **out, groups_ctx *gc, const char *release, int level,
		    const char *name, const char *detail)
{
	mev_buf key = MEV_BUF_INIT;
	uint32_t pos;
	int added, rc = 0;
	if (mev__buf_putc(&key, (char)('0' + level)) || mev__buf_puts(&key, name) ||
	    mev__buf_putc(&key, '\n') || mev__buf_puts(&key, detail ? detail : "")) {
		mev__buf_free(&key);
		return mev_error_oom();
	}
	if (mev__strmap_intern(&gc->idx, key.ptr, key.len, (uint32_t)gc->g->n, &pos, &added))
		rc = mev_error_oom();
	mev__buf_free(&key);
	if (rc)
		return rc;
	if (added) {
		mev_flow_group g = { 0 };
		g.release = release;
		g.level = (uint8_t)level;
		g.group = mev__arena_strndup(gc->arena, name, strlen(name));
		g.detail = mev__arena_strndup(gc->arena, detail ? detail : "", detail ? strlen(detail) : 0);
		g.cluster = g.lineage = -1;
		if (!g.group || !g.detail || MEV_VEC_PUSH(gc->g, g))
			return mev_error_oom();
	}
	*out = &gc->g->v[pos];
	return 0;
}

/* Count integration distance d (MEV__FLOW_DIST_*: none, no path) in g. */
static int tally_distance(mev_flow_group *g, int64_t d)
{
	g->no_path += d == MEV__FLOW_DIST_NO_PATH;
	if (d < 0)
		return 0;
	if ((uint64_t)d >= g->distance_len) {
		uint32_t *t = realloc(g->distance_count, ((size_t)d + 1) * sizeof *t);
		if (!t)
			return mev_error_oom();
		memset(t + g->distance_len, 0, ((size_t)d + 1 - g->distance_len) * sizeof *t);
		g->distance_count = t;
		g->distance_len = (uint32_t)d + 1;
	}
	g->distance_count[d]++;
	g->distance_commits++;
	g->distance_sum += (uint64_t)d;
	return 0;
}

static void tally(mev_flow_group *g, const mev_flow_commit *c, unsigned v, unsigned known, int strange)
{
	g->commits++;
	g->covered += c->coverage == MEV_FLOW_COVERED;
	g->rest_only += c->coverage == MEV_FLOW_REST_ONLY;
	g->uncovered += c->coverage == MEV_FLOW_UNCOVERED;
	g->direct += c->route == 0;
	g->strange += strange;
	for (int k = 0; k < MEV_FLOW_VERDICTS; k++) {
		g->known[k] += (known >> k) & 1;
		g->verdict[k] += (v >> k) & (known >> k) & 1;
	}
}

/* The groups of one commit: its sections, its subsystems, its strange path. */
static int commit_groups(groups_ctx *gc, const mev__export_ctx *x, mev__flow_rel *f,
			 const mev_flow_commit *c, mev_buf *b)
{
	const mev_flow_release *fr = f->fr;
	const mev_clustering *cl = mev_history_clustering(x->h, f->r);
	unsigned known, v = mev__export_flow_verdicts(&known, x, f, c);
	int st = mev__export_flow_strange(c), rc;
	int64_t dist;
	const uint32_t *ids;
	size_t n = mev_flow_set(&ids, fr, c->sections);
	mev_flow_group *g;
	int64_t seen[64];
	size_t nseen = 0;

	if ((rc = mev__export_flow_distance(&dist, x, f, c)))
		return rc;
	if ((rc = group_of(&g, gc, fr->tag, MEV_FLOW_LEVEL_RELEASE, "", NULL)))
		return rc;
	tally(g, c, v, known, st);
	if ((rc = tally_distance(g, dist)))
		return rc;
	for (size_t i = 0; i < n; i++) {
		int64_t k = mev__export_flow_cluster(x, f, ids[i]);
		size_t j;
		if ((rc = group_of(&g, gc, fr->tag, MEV_FLOW_LEVEL_SECTION, fr->strings[ids[i]], NULL)))
			return rc;
		tally(g, c, v, known, st);
		if ((rc = tally_distance(g, dist)))
			return rc;
		if (k < 0)
			continue;
		for (j = 0; j < nseen && seen[j] != k; j++)
			;
		if (j < nseen)
			continue;
		if (nseen < 64)
			seen[nseen++] = k;
		{
			mev__export_member m = mev__export_member_of(x->h, (int64_t)f->r, fr->strings[ids[i]]);
			const char *rep = mev_clustering_title(cl, mev_clustering_representative(cl, (uint32_t)k));
			if ((rc = group_of(&g, gc, fr->tag, MEV_FLOW_LEVEL_SUBSYSTEM, rep, NULL)))
				return rc;
			g->cluster = m.cluster;
			g->lineage = m.lineage;
			g->lineage_name = m.lineage_name;
			tally(g, c, v, known, st);
			if ((rc = tally_distance(g, dist)))
				return rc;
		}
	}
	if (st) {
		mev__buf_clear(b);
		for (size_t i = 0; i < n; i++)
			if ((i && mev__buf_puts(b, " | ")) || mev__buf_puts(b, fr->strings[ids[i]]))
				return mev_error_oom();
		if (mev__buf_puts(b, ""))
			return mev_error_oom();
		if ((rc = group_of(&g, gc, fr->tag, MEV_FLOW_LEVEL_PATH,
				   mev__export_flow_person(&fr->people[c->committer]), b->ptr)))
			return rc;
		tally(g, c, v, known, st);
		if ((rc = tally_distance(g, dist)))
			return rc;
	}
	return 0;
}

static int group_cmp(const void *pa, const void *pb)
{
	const mev_flow_group *a = pa, *b = pb;
	int c;
	if (a->level != b->level)
		return a->level - b->level;
	if (a->level == MEV_FLOW_LEVEL_PATH && a->strange != b->strange)
		return a->strange > b->strange ? -1 : 1;
	if ((c = strcmp(a->group, b->group)))
		return c;
	return strcmp(a->detail, b->detail);
}

static int build_groups(mev_flow_groups *out, const mev__export_ctx *x)
{
	group_vec g = { 0 };
	mev_arena *arena = calloc(1, sizeof *arena);
	mev_buf b = MEV_BUF_INIT;
	size_t first, end;
	int rc = 0;

	memset(out, 0, sizeof *out);
	if (!arena)
		return mev_error_oom();
	out->mem_ = arena;
	mev__export_range(&first, &end, x->h, x->opt->release);
	for (size_t r = first; !rc && r < end; r++) {
		mev__flow_rel f;
		groups_ctx gc = { &g, arena, MEV_STRMAP_INIT, g.n };
		if ((rc = mev__export_flow_load(&f, x, r)) == 0 && f.fr) {
			const char *tag = mev__arena_strndup(arena, f.fr->tag, strlen(f.fr->tag));
			out->releases++;
			out->clustered |= mev_history_clustering(x->h, r) != NULL;
			if (!tag)
				rc = mev_error_oom();
			for (size_t i = 0; !rc && i < f.fr->n; i++)
				rc = commit_groups(&gc, x, &f, &f.fr->commits[i], &b);
			for (size_t i = gc.base; !rc && i < g.n; i++)
				g.v[i].release = tag;
			if (!rc)
				mev__export_sort(g.v + gc.base, g.n - gc.base, sizeof *g.v, group_cmp);
		}
		mev__strmap_free(&gc.idx);
		mev__export_flow_free(&f);
	}
	mev__buf_free(&b);
	out->v = g.v;
	out->n = g.n;
	if (rc)
		mev_flow_groups_free(out);
	return rc;
}

void mev_flow_groups_free(mev_flow_groups *g)
{
	if (!g)
		return;
	for (size_t i = 0; g->v && i < g->n; i++)
		free(g->v[i].distance_count);
	free(g->v);
	if (g->mem_) {
		mev__arena_free(g->mem_);
		free(g->mem_);
	}
	memset(g, 0, sizeof *g);
}

static void share(mev_table *w, uint64_t k, uint64_t n)
{
	mev_table_num(w, n ? (double)k / (double)n : NAN);
}

/* The distance of rank k (0-based, smallest first) among g's. */
static uint32_t distance_at(const mev_flow_group *g, uint64_t k)
{
	uint32_t d = 0;
	for (uint64_t seen = g->distance_count[0]; seen <= k; seen += g->distance_count[++d])
		;
	return d;
}

/* distance_commits, distance_mean, distance_median, no_path. */
static void distance_cells(mev_table *w, const mev_flow_group *g)
{
	uint64_t n = g->distance_commits;
	mev_table_uint(w, n);
	mev_table_num(w, n ? (double)g->distance_sum / (double)n : NAN);
	mev_table_num(w, n ? (distance_at(g, (n - 1) / 2) + distance_at(g, n / 2)) / 2.0 : NAN);
	mev_table_uint(w, g->no_path);
}

int mev__export_flow(mev_table *w, const mev__export_ctx *x)
{
	mev_flow_groups gs;
	int rc = build_groups(&gs, x);
	for (size_t i = 0; !rc && i < gs.n; i++) {
		const mev_flow_group *g = &gs.v[i];
		mev_table_str(w, g->release);
		mev_table_str(w, mev_flow_level_name((mev_flow_level)g->level));
		mev_table_str_or_null(w, g->group);
		mev_table_str_or_null(w, g->detail);
		mev_table_int_or_null(w, g->cluster);
		mev_table_int_or_null(w, g->lineage);
		mev_table_str_or_null(w, g->lineage_name);
		mev_table_uint(w, g->commits);
		mev_table_uint(w, g->covered);
		mev_table_uint(w, g->rest_only);
		mev_table_uint(w, g->uncovered);
		mev_table_uint(w, g->direct);
		for (int k = 0; k < MEV_FLOW_VERDICTS; k++)
			share(w, g->verdict[k], g->known[k]);
		share(w, g->strange, g->covered);
		mev_table_uint(w, g->strange);
		distance_cells(w, g);
		mev_table_end_row(w);
	}
	mev_flow_groups_free(&gs);
	return rc;
}

/* --- people --------------------------------------------------------------------------- */

typedef struct {
	uint64_t authored, committed, signed_off, acked, reviewed, tested, as_maintainer, strange;
} person_counts;

static int people_rows(mev_table *w, const mev__export_ctx *x, mev__flow_rel *f)
{
	const mev_flow_release *fr = f->fr;
	person_counts *pc = calloc(fr->n_people + 1, sizeof *pc);
	uint32_t *order = malloc((fr->n_people + 1) * sizeof *order);
	if (!pc || !order) {
		free(pc);
		free(order);
		return mev_error_oom();
	}
	(void)x;
	for (size_t i = 0; i < fr->n; i++) {
		const mev_flow_commit *c = &fr->commits[i];
		pc[c->author].authored++;
		pc[c->committer].committed++;
		pc[c->committer].as_maintainer += (c->verdicts >> MEV_FLOW_COMMITTER_IS_MAINTAINER) & 1;
		pc[c->committer].strange += mev__export_flow_strange(c);
		for (uint32_t k = 0; k < c->trailer_count; k++) {
			const mev_flow_trailer *t = &fr->trailers[c->trailer_begin + k];
			switch (t->kind) {
			case MEV_TRAILER_SIGNED_OFF: pc[t->value].signed_off++; break;
			case MEV_TRAILER_ACKED: pc[t->value].acked++; break;
			case MEV_TRAILER_REVIEWED: pc[t->value].reviewed++; break;
			case MEV_TRAILER_TESTED: pc[t->value].tested++; break;
			default: break;
			}
		}
	}
	for (size_t i = 0; i < fr->n_people; i++)
		order[i] = (uint32_t)i;
	/* by key: bytewise */
	for (size_t i = 1; i < fr->n_people; i++)
		for (size_t j = i; j > 0 && strcmp(mev__export_flow_person(&fr->people[order[j - 1]]),
						   mev__export_flow_person(&fr->people[order[j]])) > 0; j--) {
			uint32_t t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (size_t k = 0; k < fr->n_people; k++) {
		const mev_flow_person *p = &fr->people[order[k]];
		const person_counts *c = &pc[order[k]];
		mev_table_str(w, fr->tag);
		mev_table_str(w, mev__export_flow_person(p));
		mev_table_str(w, p->name);
		mev_table_uint(w, c->authored);
		mev_table_uint(w, c->committed);
		mev_table_uint(w, c->signed_off);
		mev_table_uint(w, c->acked);
		mev_table_uint(w, c->reviewed);
		mev_table_uint(w, c->tested);
		mev_table_uint(w, p->maintains);
		mev_table_uint(w, p->reviews);
		mev_table_uint(w, c->as_maintainer);
		mev_table_uint(w, c->strange);
		mev_table_end_row(w);
	}
	free(pc);
	free(order);
	return 0;
}

int mev__export_people(mev_table *w, const mev__export_ctx *x)
{
	size_t first, end;
	int rc = 0;
	mev__export_range(&first, &end, x->h, x->opt->release);
	for (size_t r = first; !rc && r < end; r++) {
		mev__flow_rel f;
		if ((rc = mev__export_flow_load(&f, x, r)) == 0 && f.fr)
			rc = people_rows(w, x, &f);
		mev__export_flow_free(&f);
	}
	return rc;
}

int mev_export_flow_groups(mev_flow_groups *out, mev_store *s, mev_history *history,
			   const char *release)
{
	mev_export_options opt = { 0 };
	mev__export_ctx x = { s, NULL, &opt, NULL, NULL, NULL, 0, NULL, NULL, NULL };
	mev_history *h = NULL, *own = NULL;
	int rc;
	memset(out, 0, sizeof *out);
	opt.release = release;
	if ((rc = mev_history_use(&h, &own, s, history, release,
				  MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS)))
		return rc;
	x.h = h;
	rc = build_groups(out, &x);
	if (!rc && !out->releases) {
		rc = mev__export_no_flow(s, h, release);
		mev_flow_groups_free(out);
	}
	mev_history_free(own);
	return rc;
}
