/*
 * What the report says, read from the store once for both formats: the two
 * releases and their sections, the section changes and cluster events
 * between them from the tracker, the growers and shrinkers, the largest
 * lineages over all releases.  Nothing here writes.
 */
#include "report_internal.h"
#include "maintevo/dialect.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
	SECTIONS_NAMED = 4 /* sections named per cluster in the event tables */
};

int mev__multi_step(const mev__report *r) { return r->ib - r->ia > 1; }

const char *mev__display(const mev__report *r, const char *release, const char *title)
{
	const char *d = title;
	if (title && r->names && mev_release_display(&d, r->names, release, title)) {
		mev_error_clear();
		d = title;
	}
	return d;
}

static int64_t sec_lines(const mev__side *s, uint32_t i) { return (int64_t)s->size[i].lines; }
static const char *sec_title(const mev__side *s, uint32_t i)
{
	return mev_filemap_sections(s->secs)[i].title;
}
static const char *sec_display(const mev__side *s, uint32_t i)
{
	return mev_filemap_sections(s->secs)[i].display;
}

static int side_load(mev__report *r, mev__side *s, size_t idx)
{
	const mev_section_info *si;
	const mev_clustering *c;
	const mev_edge *e;
	size_t nsec;
	int rc;
	s->r = idx;
	s->rel = mev_history_release(r->h, idx);
	c = mev_history_clustering(r->h, idx);
	s->clusters = c ? (int64_t)mev_clustering_count(c) : -1;
	if ((rc = mev_release_load_graph(&s->secs, &s->g, r->store, s->rel->tag, 0)))
		return rc;
	si = mev_filemap_sections(s->secs);
	nsec = mev_filemap_section_count(s->secs);
	if (!(s->size = calloc(nsec + 1, sizeof *s->size)))
		return mev_error_oom();
	e = mev_graph_edges(s->g);
	for (size_t i = 0; i < mev_graph_edge_count(s->g); i++)
		if (e[i].a == e[i].b)
			s->size[e[i].a] = e[i];
	for (size_t i = 0; i < nsec; i++) {
		if (si[i].is_rest)
			continue;
		s->census.sections++;
		s->census.no_maintainer += si[i].n_maintainers == 0;
		s->census.orphan += strncasecmp(si[i].status, "orphan", 6) == 0;
		if (mev__strmap_put(&s->by_title, si[i].title, strlen(si[i].title), (uint32_t)i))
			return MEV_ENOMEM;
	}
	return 0;
}

static void side_free(mev__side *s)
{
	free(s->size);
	mev_graph_free(s->g);
	mev_filemap_free(s->secs);
	mev__strmap_free(&s->by_title);
}

/*
 * Sections of the older release that are still there in the newer one:
 * same title, or renamed (step by step through the tracker's renames).  A
 * section removed on the way is not followed, even if its title returns.
 */
static int follow_sections(mev__report *r)
{
	const mev_section_info *sa = mev_filemap_sections(r->a.secs);
	size_t na = mev_filemap_section_count(r->a.secs), nb = mev_filemap_section_count(r->b.secs);
	mev_strmap cur = MEV_STRMAP_INIT; /* current title -> index in a, UINT32_MAX: gone */
	int rc = 0;
	for (size_t i = 0; i < na && !rc; i++)
		if (!sa[i].is_rest && mev__strmap_put(&cur, sa[i].title, strlen(sa[i].title), (uint32_t)i))
			rc = MEV_ENOMEM;
	for (size_t i = 0; i < r->changes.n && !rc; i++) {
		const mev_section_change *c = &r->changes.v[i];
		int64_t v = mev__strmap_get(&cur, c->section, strlen(c->section));
		if (c->kind == MEV_SECTION_ADDED || v < 0)
			continue;
		rc = mev__strmap_put(&cur, c->section, strlen(c->section), UINT32_MAX);
		if (!rc && c->kind == MEV_SECTION_RENAMED)
			rc = mev__strmap_put(&cur, c->new_section, strlen(c->new_section), (uint32_t)v);
	}
	for (size_t j = 0; j < nb && !rc; j++) {
		const char *t = sec_title(&r->b, (uint32_t)j);
		int64_t v = mev_filemap_sections(r->b.secs)[j].is_rest ? -1 : mev__strmap_get(&cur, t, strlen(t));
		mev__kept p = { (uint32_t)v, (uint32_t)j };
		if (v >= 0 && v != UINT32_MAX && MEV_VEC_PUSH(&r->kept, p))
			rc = mev_error_oom();
	}
	mev__strmap_free(&cur);
	return rc == MEV_ENOMEM ? mev_error_oom() : rc;
}

static const mev__report *sort_report; /* qsort has no context argument */

int64_t mev__event_size(const mev_event *e)
{
	return e->kind == MEV_EVENT_DEATH ? e->from_lines : e->to_lines;
}

/* Births and deaths: largest first, then by name. */
static int by_event_size(const void *x, const void *y)
{
	const mev_event *p = *(const mev_event *const *)x, *q = *(const mev_event *const *)y;
	int64_t a = mev__event_size(p), b = mev__event_size(q);
	if (a != b)
		return a < b ? 1 : -1;
	return strcmp(p->kind == MEV_EVENT_DEATH ? p->from_cluster : p->to_cluster,
		      q->kind == MEV_EVENT_DEATH ? q->from_cluster : q->to_cluster);
}

/* Splits and merges: grouped by their single side (release, cluster), the
 * events of a group by size of the other side. */
static int by_group(const void *x, const void *y)
{
	const mev_event *p = *(const mev_event *const *)x, *q = *(const mev_event *const *)y;
	int c;
	if (p->kind != q->kind)
		return p->kind < q->kind ? -1 : 1;
	if (p->kind == MEV_EVENT_SPLIT) {
		if ((c = strcmp(p->from_release, q->from_release)) || (c = strcmp(p->from_cluster, q->from_cluster)))
			return c;
		if (p->to_lines != q->to_lines)
			return p->to_lines < q->to_lines ? 1 : -1;
		return strcmp(p->to_cluster, q->to_cluster);
	}
	if ((c = strcmp(p->to_release, q->to_release)) || (c = strcmp(p->to_cluster, q->to_cluster)))
		return c;
	if (p->from_lines != q->from_lines)
		return p->from_lines < q->from_lines ? 1 : -1;
	return strcmp(p->from_cluster, q->from_cluster);
}

static int by_group_size(const void *x, const void *y)
{
	const mev__move *p = x, *q = y;
	const mev_event *a = sort_report->moves.v[p->first], *b = sort_report->moves.v[q->first];
	int c;
	if (p->lines != q->lines)
		return p->lines < q->lines ? 1 : -1;
	if ((c = strcmp(a->from_release, b->from_release)))
		return c;
	return strcmp(p->kind == MEV_EVENT_SPLIT ? a->from_cluster : a->to_cluster,
		      q->kind == MEV_EVENT_SPLIT ? b->from_cluster : b->to_cluster);
}

/* Two events of one split (same cluster before) or one merge (same after). */
static int by_group_key_equal(const mev_event *p, const mev_event *q)
{
	if (p->kind != q->kind)
		return 0;
	if (p->kind == MEV_EVENT_SPLIT)
		return !strcmp(p->from_release, q->from_release) && !strcmp(p->from_cluster, q->from_cluster);
	return !strcmp(p->to_release, q->to_release) && !strcmp(p->to_cluster, q->to_cluster);
}

/* An event the report shows: continuations always, the others when their
 * support is min_support or more (NaN, not measured, compares false: kept). */
static int supported(const mev_event *e, double min_support)
{
	return e->kind == MEV_EVENT_CONTINUATION || !(e->support < min_support);
}

/* A birth, death, split or merge: what the report's "Subsystems" counts.
 * Growth and contraction are not: nearly every pair of a living project
 * has some, so they would not single out a pair worth reading. */
static int story_event(const mev_event *e)
{
	return e->kind == MEV_EVENT_BIRTH || e->kind == MEV_EVENT_DEATH || e->kind == MEV_EVENT_SPLIT ||
	       e->kind == MEV_EVENT_MERGE;
}

int mev_report_default_pair(size_t *from, size_t *to, mev_history *h, double min_support)
{
	size_t n = mev_history_release_count(h);
	int64_t best = -1;
	if (n < 2)
		return mev_error_set(MEV_ENOTFOUND, "the store holds %zu release%s; a report compares two",
				     n, n == 1 ? "" : "s");
	for (size_t i = 0; i < mev_history_events(h)->n; i++) {
		const mev_event *e = &mev_history_events(h)->v[i];
		int64_t f = mev_history_find(h, e->from_release), t = mev_history_find(h, e->to_release);
		/* in the report of the neighbours t-1, t (as collect_events reads a range) */
		if (story_event(e) && supported(e, min_support) && f >= 0 && t > 0 && f >= t - 1 && t > best)
			best = t;
	}
	*to = best > 0 ? (size_t)best : n - 1;
	*from = *to - 1;
	return 0;
}

/* The events of the range: births, deaths, and splits and merges grouped. */
static int collect_events(mev__report *r)
{
	for (size_t i = 0; i < mev_history_events(r->h)->n; i++) {
		const mev_event *e = &mev_history_events(r->h)->v[i];
		int64_t f = mev_history_find(r->h, e->from_release),
			t = mev_history_find(r->h, e->to_release);
		int rc = 0;
		if (f < 0 || t < 0)
			continue;
		/* a bridge spans releases; it meets the range when its gap does
		 * (its lineage vanished inside the range, or came back in it) */
		if (e->kind == MEV_EVENT_BRIDGE) {
			r->bridges += f < (int64_t)r->ib && t > (int64_t)r->ia;
			continue;
		}
		if (f < (int64_t)r->ia || t > (int64_t)r->ib)
			continue;
		if (!supported(e, r->opt->min_support)) {
			r->weak++;
			continue;
		}
		if (e->kind == MEV_EVENT_BIRTH)
			rc = MEV_VEC_PUSH(&r->births, e);
		else if (e->kind == MEV_EVENT_DEATH)
			rc = MEV_VEC_PUSH(&r->deaths, e);
		else if (e->kind == MEV_EVENT_SPLIT || e->kind == MEV_EVENT_MERGE)
			rc = MEV_VEC_PUSH(&r->moves, e);
		if (rc)
			return mev_error_oom();
	}
	mev__sort(r->births.v, r->births.n, sizeof *r->births.v, by_event_size);
	mev__sort(r->deaths.v, r->deaths.n, sizeof *r->deaths.v, by_event_size);
	mev__sort(r->moves.v, r->moves.n, sizeof *r->moves.v, by_group);
	for (size_t i = 0; i < r->moves.n;) {
		const mev_event *e = r->moves.v[i];
		mev__move m = { e->kind, i, 0, 0 };
		double moved = 0;
		/* what moved: the code of the parts that leave (a split) or join
		 * (a merge) the lineage that goes on, not of the lineage itself */
		for (; i < r->moves.n && by_group_key_equal(e, r->moves.v[i]); i++)
			if (!r->moves.v[i]->from_lineage || r->moves.v[i]->from_lineage != r->moves.v[i]->lineage)
				moved += mev__shared_lines(r->moves.v[i]);
		m.lines = (int64_t)llround(moved);
		m.n = i - m.first;
		if (MEV_VEC_PUSH(&r->groups, m))
			return mev_error_oom();
	}
	sort_report = r;
	mev__sort(r->groups.v, r->groups.n, sizeof *r->groups.v, by_group_size);
	return 0;
}

/* The project's name for the heading: the display name of the store's
 * dialect ("U-Boot"); an imported store's, or a name this build does not
 * know, gives "maintevo". */
static const char *dialect_project(const char *name)
{
	int d = mev_dialect_parse(name);
	const char *display = d > 0 ? mev_dialect_display((mev_dialect)d) : NULL;
	/* the stored name exactly, as written by a walk: not an alias */
	if (!display || strcmp(mev_dialect_name((mev_dialect)d), name) != 0)
		return "maintevo";
	return display;
}

static int find_release(mev__report *r, const char *tag, size_t *idx)
{
	int64_t i = mev_history_find(r->h, tag);
	if (i >= 0) {
		*idx = (size_t)i;
		return 0;
	}
	return mev_release_not_stored(r->store, tag);
}

/* ia and ib from --from and --to; with neither, mev_report_default_pair's. */
static int pick_releases(mev__report *r)
{
	int rc;
	if (mev_history_release_count(r->h) < 2) {
		rc = mev_error_set(MEV_ENOTFOUND,
				   "store '%s' holds %zu release%s; a report compares two",
				   mev_store_dir(r->store), mev_history_release_count(r->h),
				   mev_history_release_count(r->h) == 1 ? "" : "s");
		mev_error_hint("walk a repository with two release tags or more into it ('maintevo walk')");
		return rc;
	}
	if (!r->opt->from && !r->opt->to)
		return mev_report_default_pair(&r->ia, &r->ib, r->h, r->opt->min_support);
	r->ib = mev_history_release_count(r->h) - 1;
	if (r->opt->to && (rc = find_release(r, r->opt->to, &r->ib)))
		return rc;
	if (r->opt->from) {
		if ((rc = find_release(r, r->opt->from, &r->ia)))
			return rc;
	} else {
		if (r->ib == 0) {
			rc = mev_error_set(MEV_EINVAL, "release '%s' is the oldest stored: nothing to compare it with",
					   mev_history_release(r->h, r->ib)->tag);
			mev_error_hint("name an older release with --from, or a newer one with --to");
			return rc;
		}
		r->ia = r->ib - 1;
	}
	if (r->opt->from && r->opt->to) {
		size_t lo, hi; /* the same words as every command's */
		return mev_release_range(&lo, &hi, r->store, mev_history_releases(r->h),
					 mev_history_release_count(r->h), r->opt->from, r->opt->to, 1);
	}
	if (r->ia >= r->ib) {
		rc = mev_error_set(MEV_EINVAL, "--from '%s' is not older than --to '%s'",
				   mev_history_release(r->h, r->ia)->tag,
				   mev_history_release(r->h, r->ib)->tag);
		mev_error_hint("releases are in version order: see 'maintevo releases --store %s'",
			       mev_store_dir(r->store));
		return rc;
	}
	return 0;
}

int mev__report_gather(mev__report *r, mev_store *s, const mev_report_options *opt)
{
	mev_identity id;
	int rc;
	memset(r, 0, sizeof *r);
	r->store = s;
	r->opt = opt;
	if ((rc = mev_release_names_new(&r->names, s)))
		return rc;
	if ((rc = mev_history_use(&r->h, &r->own, s, opt->history, NULL,
				  MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS)))
		return rc;
	if ((rc = pick_releases(r)))
		return rc;
	r->project = r->opt->title;
	if (!r->project) {
		r->project = "maintevo";
		if (mev_release_identity_get(&id, r->store) == 0) {
			snprintf(r->project_buf, sizeof r->project_buf, "%s", dialect_project(id.dialect));
			r->project = r->project_buf;
		}
	}
	if ((rc = side_load(r, &r->a, r->ia)) || (rc = side_load(r, &r->b, r->ib)))
		return rc;
	rc = mev_history_read_section_changes(&r->changes, r->h, r->a.rel->tag, r->b.rel->tag);
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		memset(&r->changes, 0, sizeof r->changes);
	} else if (rc) {
		return rc;
	} else {
		r->changes_known = 1;
	}
	if ((rc = follow_sections(r)) || (rc = mev__listed_gather(r)))
		return rc;
	return mev_history_tracked(r->h) ? collect_events(r) : 0;
}

void mev__report_free(mev__report *r)
{
	if (!r)
		return;
	side_free(&r->a);
	side_free(&r->b);
	MEV_VEC_FREE(&r->kept);
	MEV_VEC_FREE(&r->births);
	MEV_VEC_FREE(&r->deaths);
	MEV_VEC_FREE(&r->moves);
	MEV_VEC_FREE(&r->groups);
	mev_section_change_list_free(&r->changes);
	mev_history_free(r->own);
	r->h = r->own = NULL;
	mev_release_names_free(r->names);
	r->names = NULL;
	mev_listed_list_free(&r->listed_a);
	mev_listed_list_free(&r->listed_b);
}

/* --- derived facts --------------------------------------------------------------------- */

/* A section and its lines, for naming the largest sections of a cluster. */
typedef struct {
	const char *title;
	uint64_t lines;
} named;

static int named_cmp(const void *x, const void *y)
{
	const named *a = x, *b = y;
	if (a->lines != b->lines)
		return a->lines < b->lines ? 1 : -1;
	return strcmp(a->title, b->title);
}

void mev__cluster_sections(mev_buf *out, const mev__report *r, const char *release, const char *rep)
{
	int64_t ri = mev_history_find(r->h, release), k;
	const mev_clustering *c;
	named *v;
	size_t n = 0, ns;
	mev__buf_clear(out);
	if (ri < 0 || (k = mev_history_cluster_named(r->h, (size_t)ri, rep)) < 0)
		return;
	c = mev_history_clustering(r->h, ri);
	ns = mev_clustering_section_count(c);
	if (!(v = malloc((ns + 1) * sizeof *v)))
		return;
	for (uint32_t j = 0; j < ns; j++)
		if (mev_clustering_of(c, j) == (uint32_t)k) {
			named x = { mev__display(r, release, mev_clustering_title(c, j)),
				    mev_clustering_section_lines(c, j) };
			v[n++] = x;
		}
	mev__sort(v, n, sizeof *v, named_cmp);
	for (size_t j = 0; j < n && j < SECTIONS_NAMED; j++)
		mev__buf_printf(out, "%s%s", j ? ", " : "", v[j].title);
	if (n > SECTIONS_NAMED)
		mev__buf_printf(out, " and %zu more", n - SECTIONS_NAMED);
	free(v);
}

/* The Jaccard similarity J = |A & B| / |A | B| of the two clusters' code
 * gives |A & B| = J (|A| + |B|) / (1 + J), at most the smaller size. */
double mev__shared_lines(const mev_event *e)
{
	double a = (double)e->from_lines, b = (double)e->to_lines, j = e->similarity, s;
	double m = a < b ? a : b;
	if (!isnan(e->share)) /* measured: the older cluster's lines the newer one covers */
		return e->share * a;
	if (isnan(j))
		return m;
	s = j * (a + b) / (1 + j);
	return s > m ? m : s < 0 ? 0 : s;
}

static int change_cmp(const void *x, const void *y)
{
	const mev_section_change *a = *(const mev_section_change *const *)x;
	const mev_section_change *b = *(const mev_section_change *const *)y;
	int c;
	if (a->lines != b->lines)
		return a->lines < b->lines ? 1 : -1;
	if ((c = strcmp(a->section, b->section)))
		return c;
	return strcmp(a->to_release, b->to_release);
}

int mev__changes_of_kind(const mev_section_change ***out, size_t *n, const mev__report *r,
			 mev_section_change_kind kind)
{
	const mev_section_change **v;
	size_t m = 0;
	*out = NULL;
	*n = 0;
	if (!(v = malloc((r->changes.n + 1) * sizeof *v)))
		return mev_error_oom();
	for (size_t i = 0; i < r->changes.n; i++)
		if (r->changes.v[i].kind == kind)
			v[m++] = &r->changes.v[i];
	mev__sort(v, m, sizeof *v, change_cmp);
	*out = v;
	*n = m;
	return 0;
}

static int mover_cmp(const void *x, const void *y)
{
	const mev__mover *p = x, *q = y;
	int64_t dp = p->b - p->a, dq = q->b - q->a;
	if (dp != dq)
		return dp < dq ? 1 : -1;
	return strcmp(p->name, q->name);
}

int mev__section_movers(mev__mover **out, size_t *n, const mev__report *r)
{
	mev__mover *v = malloc((r->kept.n + 1) * sizeof *v);
	*out = NULL;
	*n = 0;
	if (!v)
		return mev_error_oom();
	for (size_t i = 0; i < r->kept.n; i++) {
		const mev__kept *p = &r->kept.v[i];
		mev__mover m = { sec_display(&r->b, p->b), sec_display(&r->a, p->a), sec_lines(&r->a, p->a),
				 sec_lines(&r->b, p->b) };
		v[i] = m;
	}
	mev__sort(v, r->kept.n, sizeof *v, mover_cmp);
	*out = v;
	*n = r->kept.n;
	return 0;
}

int mev__lineage_movers(mev__mover **out, size_t *n, const mev__report *r)
{
	const mev_clustering *ca = mev_history_clustering(r->h, r->ia),
			     *cb = mev_history_clustering(r->h, r->ib);
	size_t na, k = 0;
	mev__mover *v;
	*out = NULL;
	*n = 0;
	if (!ca || !cb || !mev_history_tracked(r->h))
		return 0;
	na = mev_clustering_count(ca);
	if (!(v = malloc((na + 1) * sizeof *v)))
		return mev_error_oom();
	for (uint32_t i = 0; i < na; i++) {
		int64_t lin = mev_history_cluster_lineage(r->h, r->ia, i);
		int64_t j = lin >= 0 ? mev_history_lineage_cluster(r->h, r->ib, (uint32_t)lin) : -1;
		if (j >= 0) {
			mev__mover m = { mev__display(r, r->b.rel->tag,
					 mev_clustering_title(cb, mev_clustering_representative(cb, (uint32_t)j))),
					 mev__display(r, r->a.rel->tag,
					 mev_clustering_title(ca, mev_clustering_representative(ca, i))),
					 (int64_t)mev_history_cluster_lines(r->h, r->ia, i),
					 (int64_t)mev_history_cluster_lines(r->h, r->ib, (uint32_t)j) };
			v[k++] = m;
		}
	}
	mev__sort(v, k, sizeof *v, mover_cmp);
	*out = v;
	*n = k;
	return 0;
}

static int series_cmp(const void *x, const void *y)
{
	const mev__lineage_series *a = x, *b = y;
	if (a->peak != b->peak)
		return a->peak < b->peak ? 1 : -1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* One past the largest lineage id of the lineages and of the clusters of
 * releases first..ib. */
static size_t lineage_ids(const mev__report *r, size_t first)
{
	size_t nid = 0;
	for (size_t i = 0; i < mev_history_lineages(r->h)->n; i++)
		if ((int64_t)mev_history_lineages(r->h)->v[i].id + 1 > (int64_t)nid)
			nid = mev_history_lineages(r->h)->v[i].id + 1;
	for (size_t ri = first; ri <= r->ib; ri++)
		for (size_t k = 0; mev_history_clustering(r->h, ri) &&
				   k < mev_clustering_count(mev_history_clustering(r->h, ri));
		     k++)
			if (mev_history_cluster_lineage(r->h, ri, k) + 1 > (int64_t)nid)
				nid = (size_t)mev_history_cluster_lineage(r->h, ri, k) + 1;
	return nid;
}

/*
 * The peaks of every lineage first (the array is indexed by lineage id
 * until sorted), then the series of the largest only: slot[id] is the place
 * of lineage id among them, -1 for the others.
 */
int mev__top_lineages(mev__lineages *out, const mev__report *r, size_t max)
{
	size_t first = 0, n, nid, top;
	mev__lineage_series *all;
	int64_t *slot;
	memset(out, 0, sizeof *out);
	/* the releases that have clusters, up to the newer one */
	while (first <= r->ib && !(mev_history_clustering(r->h, first) &&
				   mev_clustering_count(mev_history_clustering(r->h, first))))
		first++;
	if (first > r->ib)
		return 0;
	n = r->ib - first + 1;
	nid = lineage_ids(r, first);
	all = calloc(nid + 1, sizeof *all);
	slot = malloc((nid + 1) * sizeof *slot);
	out->first = first;
	out->nrel = n;
	out->v = all;
	if (!all || !slot) {
		free(slot);
		return mev_error_oom();
	}
	for (size_t ri = first; ri <= r->ib; ri++) {
		const mev_clustering *c = mev_history_clustering(r->h, ri);
		for (uint32_t k = 0; c && k < mev_clustering_count(c); k++) {
			int64_t lin = mev_history_cluster_lineage(r->h, ri, k);
			if (lin < 0)
				continue;
			all[lin].id = lin;
			if (mev_history_cluster_lines(r->h, ri, k) > all[lin].peak)
				all[lin].peak = mev_history_cluster_lines(r->h, ri, k);
			all[lin].name = mev__display(
				r, mev_history_release(r->h, ri)->tag,
				mev_clustering_title(c, mev_clustering_representative(c, k)));
		}
	}
	mev__sort(all, nid, sizeof *all, series_cmp);
	for (size_t i = 0; i < nid; i++)
		slot[i] = -1;
	for (top = 0; top < max && top < nid && all[top].peak; top++) {
		slot[all[top].id] = (int64_t)top;
		out->n = top + 1;
		if (!(all[top].lines = calloc(n + 1, sizeof *all[top].lines))) {
			free(slot);
			return mev_error_oom();
		}
	}
	for (size_t ri = first; ri <= r->ib; ri++) {
		const mev_clustering *c = mev_history_clustering(r->h, ri);
		for (uint32_t k = 0; c && k < mev_clustering_count(c); k++) {
			int64_t lin = mev_history_cluster_lineage(r->h, ri, k);
			if (lin >= 0 && slot[lin] >= 0)
				all[slot[lin]].lines[ri - first] =
					(double)mev_history_cluster_lines(r->h, ri, k);
		}
	}
	free(slot);
	return 0;
}

void mev__lineages_free(mev__lineages *l)
{
	if (!l)
		return;
	for (size_t i = 0; l->v && i < l->n; i++)
		free(l->v[i].lines);
	free(l->v);
	memset(l, 0, sizeof *l);
}
