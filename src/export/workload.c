/* The workload table: per release and group (lineage, section or cluster), its size, its people and who committed its work. */
/*
 * Sizes come from the release's file table, the M:/R:/L: people from its own
 * MAINTAINERS read through flow's roster (folded as flow folds people), the
 * commits from flow's stored records: a commit counts for a group when one
 * of the sections covering the files it touches (by its parent's
 * MAINTAINERS, THE REST left out) is, by title, one of the group's
 * sections in the release.  docs/schemas.md, "workload".
 */
#include "export_internal.h"
#include "maintevo/error.h"
#include "util/strmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int u64_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x < y) - (x > y);
}

/* The fewest of counts whose sum is more than half of all (strict) or at
 * least half; 0 when all are 0.  Sorts counts (descending). */
static uint64_t half_factor(uint64_t *counts, size_t n, int strict)
{
	uint64_t total = 0, sum = 0;
	for (size_t i = 0; i < n; i++)
		total += counts[i];
	if (!total)
		return 0;
	mev__export_sort(counts, n, sizeof *counts, u64_desc);
	for (size_t i = 0; i < n; i++) {
		sum += counts[i];
		if (strict ? sum * 2 > total : sum * 2 >= total)
			return i + 1;
	}
	return n; /* not reached: the sum of all is more than half */
}

uint64_t mev__export_bus_factor(uint64_t *counts, size_t n)
{
	return half_factor(counts, n, 1);
}

uint64_t mev__export_absence_factor(uint64_t *counts, size_t n)
{
	return half_factor(counts, n, 0);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One group of a release. */
typedef struct {
	int64_t key;              /* lineage or cluster; section: its index */
	const char *section;      /* --by section: the title */
	int64_t cluster, lineage;
	const char *lineage_name;
	MEV_VEC(const char *) mkeys; /* the maintainers (the roster's strings) */
	uint64_t sections, files, lines, maintainers, reviewers, lists;
	uint64_t commits, authors, committers;
	int64_t top_committer;    /* person of the flow record (-1: none) */
	uint64_t top_committed, top_authored, bus;
	uint64_t reviewed, cross_org; /* commits reviewed/acked by another; of those, across organisations */
	uint64_t absence, elephant;   /* CHAOSS factors of authors and their organisations */
} group;

typedef struct {
	const mev__export_ctx *x;
	size_t r;
	const mev_filemap *fm;
	MEV_VEC(group) g;
	int32_t *of_section;      /* per section of fm: its group (-1: none) */
	mev_strmap by_title;      /* title -> section of fm */
	mev_strmap seen;          /* "kind group key" already counted */
	mev_strmap orgs;          /* organisation -> its number in this release */
	uint32_t n_orgs;
} rel_groups;

static int64_t key_of(const rel_groups *rg, uint32_t sec, mev__export_member *m)
{
	const mev_section_info *si = mev_filemap_sections(rg->fm);
	*m = mev__export_member_of(rg->x->h, (int64_t)rg->r, si[sec].title);
	switch (rg->x->opt->by) {
	case MEV_WORKLOAD_BY_SECTION: return sec;
	case MEV_WORKLOAD_BY_CLUSTER: return m->cluster;
	default: return m->lineage;
	}
}

static int group_cmp(const void *pa, const void *pb)
{
	const group *a = pa, *b = pb;
	if (a->section && b->section)
		return strcmp(a->section, b->section);
	return (a->key > b->key) - (a->key < b->key);
}

/* The groups of the release's sections (THE REST left out), in their order. */
static int make_groups(rel_groups *rg)
{
	const mev_section_info *si = mev_filemap_sections(rg->fm);
	size_t ns = mev_filemap_section_count(rg->fm);
	mev_strmap idx = MEV_STRMAP_INIT;
	int rc = 0;
	if (!(rg->of_section = malloc((ns + 1) * sizeof *rg->of_section)))
		return mev_error_oom();
	for (size_t i = 0; i < ns && !rc; i++) {
		mev__export_member m;
		int64_t k;
		uint32_t pos;
		int added;
		rg->of_section[i] = -1;
		if (mev__strmap_put(&rg->by_title, si[i].title, strlen(si[i].title), (uint32_t)i))
			rc = mev_error_oom();
		if (rc || si[i].is_rest || (k = key_of(rg, (uint32_t)i, &m)) < 0)
			continue;
		if (mev__strmap_intern(&idx, (const char *)&k, sizeof k, (uint32_t)rg->g.n, &pos, &added))
			rc = mev_error_oom();
		else if (added) {
			group g = { 0 };
			g.key = k;
			g.section = rg->x->opt->by == MEV_WORKLOAD_BY_SECTION ? si[i].title : NULL;
			g.cluster = m.cluster;
			g.lineage = m.lineage;
			g.lineage_name = m.lineage_name;
			g.top_committer = -1;
			if (MEV_VEC_PUSH(&rg->g, g))
				rc = mev_error_oom();
		}
		if (!rc) {
			rg->g.v[pos].sections++;
			rg->of_section[i] = (int32_t)pos;
		}
	}
	mev__strmap_free(&idx);
	return rc;
}

/* 1 the first time (kind, group, what) is seen. */
static int first_time(rel_groups *rg, char kind, int32_t g, const void *what, size_t len)
{
	char key[600];
	uint32_t pos;
	int added;
	if (len > sizeof key - 8)
		len = sizeof key - 8;
	key[0] = kind;
	memcpy(key + 1, &g, 4);
	memcpy(key + 5, what, len);
	if (mev__strmap_intern(&rg->seen, key, len + 5, 0, &pos, &added))
		return mev_error_oom();
	return added;
}

/* Distinct groups of a set of sections of fm. */
static size_t groups_of(int32_t *out, size_t cap, const rel_groups *rg, const uint32_t *secs, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		int32_t g = rg->of_section[secs[i]];
		size_t j;
		for (j = 0; j < k && out[j] != g; j++)
			;
		if (g >= 0 && j == k && k < cap)
			out[k++] = g;
	}
	return k;
}

static int sizes(rel_groups *rg)
{
	const mev_file_row *rows = mev_filemap_rows(rg->fm);
	size_t cap = rg->g.n + 1;
	int32_t *gs = malloc(cap * sizeof *gs);
	if (!gs)
		return mev_error_oom();
	for (size_t i = 0; i < mev_filemap_count(rg->fm); i++) {
		const uint32_t *ids;
		size_t n = mev_filemap_set(&ids, rg->fm, rows[i].set);
		size_t k = groups_of(gs, cap, rg, ids, n);
		for (size_t j = 0; j < k; j++) {
			rg->g.v[gs[j]].files++;
			rg->g.v[gs[j]].lines += rows[i].lines;
		}
	}
	free(gs);
	return 0;
}

static int people(rel_groups *rg, const mev_flow_roster *ro)
{
	int rc = 0;
	for (size_t i = 0; i < ro->n && rc >= 0; i++) {
		const mev_flow_roster_section *s = &ro->v[i];
		int64_t sec = s->is_rest ? -1 : mev__strmap_get(&rg->by_title, s->title, strlen(s->title));
		int32_t g = sec >= 0 ? rg->of_section[sec] : -1;
		if (g < 0)
			continue;
		for (size_t k = 0; k < s->n_maintainers && rc >= 0; k++)
			if ((rc = first_time(rg, 'M', g, s->maintainers[k], strlen(s->maintainers[k]))) > 0) {
				rg->g.v[g].maintainers++;
				if (MEV_VEC_PUSH(&rg->g.v[g].mkeys, s->maintainers[k]))
					rc = mev_error_oom();
			}
		for (size_t k = 0; k < s->n_reviewers && rc >= 0; k++)
			if ((rc = first_time(rg, 'R', g, s->reviewers[k], strlen(s->reviewers[k]))) > 0)
				rg->g.v[g].reviewers++;
		for (size_t k = 0; k < s->n_lists && rc >= 0; k++)
			if ((rc = first_time(rg, 'L', g, s->lists[k], strlen(s->lists[k]))) > 0)
				rg->g.v[g].lists++;
	}
	return rc < 0 ? rc : 0;
}

/* (group, person) pairs of a role, with their commits. */
typedef struct {
	int32_t g;
	uint32_t person;
	uint64_t n;
} tally;

static int tally_cmp(const void *pa, const void *pb)
{
	const tally *a = pa, *b = pb;
	if (a->g != b->g)
		return a->g - b->g;
	return (a->person > b->person) - (a->person < b->person);
}

/* Sort and merge equal pairs. */
static size_t merge_tallies(tally *t, size_t n)
{
	size_t k = 0;
	mev__export_sort(t, n, sizeof *t, tally_cmp);
	for (size_t i = 0; i < n; i++) {
		if (k && t[k - 1].g == t[i].g && t[k - 1].person == t[i].person)
			t[k - 1].n++;
		else
			t[k++] = t[i];
	}
	return k;
}

/* Per group of the tallies: the distinct people, the top one (most
 * commits; a tie: the smallest key bytewise) and, for committers, the bus factor. */
static int roles(rel_groups *rg, const mev_flow_release *fr, tally *t, size_t n, int committers)
{
	MEV_VEC(uint64_t) counts = { 0 };
	for (size_t i = 0; i < n;) {
		group *g = &rg->g.v[t[i].g];
		int64_t top = -1;
		uint64_t topn = 0;
		size_t j;
		counts.n = 0;
		for (j = i; j < n && t[j].g == t[i].g; j++) {
			if (t[j].n > topn ||
			    (t[j].n == topn && strcmp(mev__export_flow_person(&fr->people[t[j].person]),
						      mev__export_flow_person(&fr->people[top])) < 0)) {
				top = t[j].person;
				topn = t[j].n;
			}
			if (committers && MEV_VEC_PUSH(&counts, t[j].n)) {
				MEV_VEC_FREE(&counts);
				return mev_error_oom();
			}
		}
		if (committers) {
			g->committers = j - i;
			g->top_committer = top;
			g->top_committed = topn;
			g->bus = mev__export_bus_factor(counts.v, counts.n);
		} else {
			g->authors = j - i;
			g->top_authored = topn;
		}
		i = j;
	}
	MEV_VEC_FREE(&counts);
	return 0;
}

/* Per group of the tallies (merged): the CHAOSS factor of its counts, into
 * the groups' absence (authors) or elephant (organisations) factor. */
static int factors(rel_groups *rg, const tally *t, size_t n, int orgs)
{
	MEV_VEC(uint64_t) counts = { 0 };
	for (size_t i = 0, j; i < n; i = j) {
		counts.n = 0;
		for (j = i; j < n && t[j].g == t[i].g; j++)
			if (MEV_VEC_PUSH(&counts, t[j].n)) {
				MEV_VEC_FREE(&counts);
				return mev_error_oom();
			}
		*(orgs ? &rg->g.v[t[i].g].elephant : &rg->g.v[t[i].g].absence) =
			mev__export_absence_factor(counts.v, counts.n);
	}
	MEV_VEC_FREE(&counts);
	return 0;
}

/* The number of organisation `org` in this release. */
static int org_number(rel_groups *rg, const char *org, uint32_t *num)
{
	int added;
	if (mev__strmap_intern(&rg->orgs, org, strlen(org), rg->n_orgs, num, &added))
		return mev_error_oom();
	rg->n_orgs += added != 0;
	return 0;
}

/* The review of commit c: *reviewed when someone other than its author
 * gave a Reviewed-by or Acked-by, *cross when one of them is of another
 * organisation than the author's (both at the commit's author date);
 * *org the author's organisation's number. */
static int review_of(rel_groups *rg, const mev_flow_release *fr, const mev_flow_commit *c,
		     uint32_t *org, int *reviewed, int *cross)
{
	const mev_export_orgs *orgs = rg->x->opt->orgs;
	const char *author = mev__export_flow_person(&fr->people[c->author]);
	const char *aorg = mev__export_org(orgs, author, c->author_time);
	*reviewed = *cross = 0;
	for (uint32_t i = 0; i < c->trailer_count; i++) {
		const mev_flow_trailer *t = &fr->trailers[c->trailer_begin + i];
		const char *who;
		if (t->kind != MEV_TRAILER_REVIEWED && t->kind != MEV_TRAILER_ACKED)
			continue;
		if (!strcmp(who = mev__export_flow_person(&fr->people[t->value]), author))
			continue;
		*reviewed = 1;
		*cross |= strcmp(mev__export_org(orgs, who, c->author_time), aorg) != 0;
	}
	return org_number(rg, aorg, org);
}

typedef MEV_VEC(uint32_t) u32_vec;

/* The groups of commit c (those of the sections it touched that are in the
 * release) into gs[0..cap), their number into *k; secs is room to work in. */
static int commit_groups(size_t *k, int32_t *gs, size_t cap, const rel_groups *rg,
			 const mev_flow_release *fr, const mev_flow_commit *c, u32_vec *secs)
{
	const uint32_t *ids;
	size_t n = mev_flow_set(&ids, fr, c->sections);
	secs->n = 0;
	for (size_t j = 0; j < n; j++) {
		const char *t = fr->strings[ids[j]];
		int64_t s = mev__strmap_get(&rg->by_title, t, strlen(t));
		if (s >= 0 && MEV_VEC_PUSH(secs, (uint32_t)s))
			return mev_error_oom();
	}
	*k = groups_of(gs, cap, rg, secs->v, secs->n);
	return 0;
}

static int commits(rel_groups *rg, const mev_flow_release *fr)
{
	MEV_VEC(tally) au = { 0 }, co = { 0 }, og = { 0 };
	u32_vec secs = { 0 };
	size_t cap = rg->g.n + 1;
	int32_t *gs = malloc(cap * sizeof *gs);
	int rc = gs ? 0 : mev_error_oom();
	for (size_t i = 0; i < fr->n && !rc; i++) {
		const mev_flow_commit *c = &fr->commits[i];
		uint32_t org;
		int reviewed, cross;
		size_t k = 0;
		if ((rc = commit_groups(&k, gs, cap, rg, fr, c, &secs)) ||
		    (rc = review_of(rg, fr, c, &org, &reviewed, &cross)))
			break;
		for (size_t j = 0; j < k && !rc; j++) {
			tally a = { gs[j], c->author, 1 }, b = { gs[j], c->committer, 1 }, o = { gs[j], org, 1 };
			group *g = &rg->g.v[gs[j]];
			g->commits++;
			g->reviewed += reviewed != 0;
			g->cross_org += cross != 0;
			if (MEV_VEC_PUSH(&au, a) || MEV_VEC_PUSH(&co, b) || MEV_VEC_PUSH(&og, o))
				rc = mev_error_oom();
		}
	}
	if (!rc && !(rc = roles(rg, fr, au.v, au.n = merge_tallies(au.v, au.n), 0)) &&
	    !(rc = roles(rg, fr, co.v, merge_tallies(co.v, co.n), 1)) && !(rc = factors(rg, au.v, au.n, 0)))
		rc = factors(rg, og.v, merge_tallies(og.v, og.n), 1);
	MEV_VEC_FREE(&au);
	MEV_VEC_FREE(&co);
	MEV_VEC_FREE(&og);
	MEV_VEC_FREE(&secs);
	free(gs);
	return rc;
}

typedef MEV_VEC(mev_workload_row) row_vec;

static double ratio(uint64_t k, uint64_t n)
{
	return n ? (double)k / (double)n : NAN;
}

/* The release's groups as rows (strings copied into the arena). */
static int rows(row_vec *out, mev_arena *a, const rel_groups *rg, const mev_flow_release *fr)
{
	const mev_history *h = rg->x->h;
	const char *tag = mev__arena_strndup(a, mev_history_release(h, rg->r)->tag,
					     strlen(mev_history_release(h, rg->r)->tag));
	if (!tag)
		return mev_error_oom();
	for (size_t i = 0; i < rg->g.n; i++) {
		const group *g = &rg->g.v[i];
		int any = fr && g->commits;
		mev_workload_row w = { 0 };
		w.release = tag;
		w.date = mev_release_date(mev_history_release(h, rg->r));
		w.section = g->section ? mev__arena_strndup(a, g->section, strlen(g->section)) : NULL;
		w.cluster = g->cluster;
		w.lineage = g->lineage;
		if (g->lineage_name &&
		    !(w.lineage_name = mev__arena_strndup(a, g->lineage_name, strlen(g->lineage_name))))
			return mev_error_oom();
		if (!(w.maintainer_keys = mev__arena_alloc(a, (g->mkeys.n + 1) * sizeof(char *),
							   sizeof(char *))))
			return mev_error_oom();
		for (size_t k = 0; k < g->mkeys.n; k++)
			if (!(w.maintainer_keys[k] = mev__arena_strndup(a, g->mkeys.v[k], strlen(g->mkeys.v[k]))))
				return mev_error_oom();
		mev__export_sort(w.maintainer_keys, g->mkeys.n, sizeof(char *), str_cmp);
		w.sections = g->sections;
		w.files = g->files;
		w.lines = g->lines;
		w.maintainers = g->maintainers;
		w.reviewers = g->reviewers;
		w.lists = g->lists;
		w.judged = fr != NULL;
		w.commits = g->commits;
		w.authors = g->authors;
		w.committers = g->committers;
		if (any) {
			const char *p = mev__export_flow_person(&fr->people[g->top_committer]);
			if (!(w.top_committer = mev__arena_strndup(a, p, strlen(p))))
				return mev_error_oom();
		}
		w.top_committer_share = any ? ratio(g->top_committed, g->commits) : NAN;
		w.top_author_share = any ? ratio(g->top_authored, g->commits) : NAN;
		w.bus_factor = any ? (int64_t)g->bus : -1;
		w.review_coverage = any ? ratio(g->reviewed, g->commits) : NAN;
		w.cross_org_review = any ? ratio(g->cross_org, g->reviewed) : NAN;
		w.absence_factor = any ? (int64_t)g->absence : -1;
		w.elephant_factor = any ? (int64_t)g->elephant : -1;
		w.lines_per_maintainer = ratio(g->lines, g->maintainers);
		if ((g->section && !w.section) || MEV_VEC_PUSH(out, w))
			return mev_error_oom();
	}
	return 0;
}

static int one_release(row_vec *out, mev_arena *a, const mev__export_ctx *x, size_t r,
		       mev__rosters *q, size_t end)
{
	rel_groups rg = { 0 };
	mev_filemap *fm = NULL;
	mev_flow_roster ro = { 0 };
	mev__flow_rel f = { 0 };
	int rc;
	rg.x = x;
	rg.r = r;
	if ((rc = mev_release_load_filemap(&fm, x->s, mev_history_release(x->h, r)->tag)))
		return rc;
	rg.fm = fm;
	rc = mev__rosters_take(&ro, q, r);
	mev__rosters_ahead(q, r + 1, end);
	if (rc || (rc = make_groups(&rg)) || (rc = sizes(&rg)) || (rc = people(&rg, &ro)) ||
	    (rc = mev__export_flow_load(&f, x, r)) ||
	    (f.fr && (rc = commits(&rg, f.fr))))
		goto done;
	mev__export_sort(rg.g.v, rg.g.n, sizeof *rg.g.v, group_cmp);
	rc = rows(out, a, &rg, f.fr);
done:
	mev__export_flow_free(&f);
	mev_flow_roster_free(&ro);
	mev__strmap_free(&rg.by_title);
	mev__strmap_free(&rg.seen);
	mev__strmap_free(&rg.orgs);
	for (size_t i = 0; i < rg.g.n; i++)
		MEV_VEC_FREE(&rg.g.v[i].mkeys);
	MEV_VEC_FREE(&rg.g);
	free(rg.of_section);
	mev_filemap_free(fm);
	return rc;
}

/* The rows of x's releases into *out. */
static int build(mev_workload_list *out, const mev__export_ctx *x)
{
	const mev_history *h = x->h;
	const mev_export_options *opt = x->opt;
	int64_t from = opt->from ? mev_history_find(h, opt->from) : 0;
	int64_t to = opt->to ? mev_history_find(h, opt->to) : (int64_t)mev_history_release_count(h) - 1;
	mev_arena *a = calloc(1, sizeof *a);
	row_vec v = { 0 };
	mev__rosters q;
	size_t first, end;
	int rc = 0;
	memset(out, 0, sizeof *out);
	if (!a)
		return mev_error_oom();
	out->mem_ = a;
	mev__export_range(&first, &end, h, opt->release);
	if ((int64_t)first < from)
		first = (size_t)from;
	if (to + 1 < (int64_t)end)
		end = to < 0 ? 0 : (size_t)(to + 1);
	mev__rosters_init(&q, x->roster, h);
	mev__rosters_ahead(&q, first, end);
	for (size_t r = first; !rc && r < end; r++)
		if (mev_history_release(h, r)->has_files)
			rc = one_release(&v, a, x, r, &q, end);
	mev__rosters_drop(&q);
	out->v = v.v;
	out->n = v.n;
	if (rc)
		mev_workload_list_free(out);
	return rc;
}

void mev_workload_list_free(mev_workload_list *l)
{
	if (!l)
		return;
	free(l->v);
	if (l->mem_) {
		mev__arena_free(l->mem_);
		free(l->mem_);
	}
	memset(l, 0, sizeof *l);
}

int mev__export_workload(mev_table *w, const mev__export_ctx *x)
{
	mev_workload_list l;
	int rc = build(&l, x);
	for (size_t i = 0; !rc && i < l.n; i++) {
		const mev_workload_row *r = &l.v[i];
		mev_table_str(w, r->release);
		mev_table_date(w, r->date);
		if (x->opt->by == MEV_WORKLOAD_BY_SECTION)
			mev_table_str(w, r->section);
		else if (x->opt->by == MEV_WORKLOAD_BY_CLUSTER)
			mev_table_int_or_null(w, r->cluster);
		mev_table_int_or_null(w, r->lineage);
		mev_table_uint(w, r->sections);
		mev_table_uint(w, r->files);
		mev_table_uint(w, r->lines);
		mev_table_uint(w, r->maintainers);
		mev_table_uint(w, r->reviewers);
		mev_table_uint(w, r->lists);
		if (r->judged) {
			mev_table_uint(w, r->commits);
			mev_table_uint(w, r->authors);
			mev_table_uint(w, r->committers);
		} else {
			mev_table_null(w);
			mev_table_null(w);
			mev_table_null(w);
		}
		mev_table_str_or_null(w, r->top_committer);
		mev_table_num(w, r->top_committer_share);
		mev_table_num(w, r->top_author_share);
		mev_table_int_or_null(w, r->bus_factor);
		mev_table_num(w, r->lines_per_maintainer);
		mev_table_num(w, r->review_coverage);
		mev_table_num(w, r->cross_org_review);
		mev_table_int_or_null(w, r->absence_factor);
		mev_table_int_or_null(w, r->elephant_factor);
		mev_table_end_row(w);
	}
	mev_workload_list_free(&l);
	return rc;
}

int mev_export_workload(mev_workload_list *out, mev_store *s, const mev_export_options *opt)
{
	static const mev_export_options defaults = { 0 };
	mev__export_ctx x = { s, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL };
	mev_history *h = NULL, *own = NULL;
	int rc;
	memset(out, 0, sizeof *out);
	if (!opt)
		opt = &defaults;
	x.opt = opt;
	if ((rc = mev_history_use(&h, &own, s, opt->history, opt->release,
				  MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS)))
		return rc;
	x.h = h;
	if ((rc = mev__export_check_release(s, h, opt)))
		goto done;
	/* a release of its own not clustered is not tracked, whatever else of
	 * the history was read before (mev_history_read()) */
	if (opt->by == MEV_WORKLOAD_BY_LINEAGE &&
	    (!mev_history_tracked(h) ||
	     (opt->release && !mev_history_clustering(h, (size_t)mev_history_find(h, opt->release))))) {
		rc = mev_error_set(MEV_ENOTFOUND, "the store is not tracked with %s/%s",
				   mev_history_cluster_key(h), mev_history_track_key(h));
		mev_error_hint("run 'maintevo track' first");
		goto done;
	}
	if (!(rc = mev_flow_roster_reader_new(&x.roster, s, opt->repo)))
		rc = build(out, &x);
done:
	mev_flow_roster_reader_free(x.roster);
	mev_history_free(own);
	return rc;
}
