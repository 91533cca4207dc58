/* maintevo flow: judge the commits of every stored release not judged yet, one transaction each. */
#include "flow_internal.h"
#include "maintevo/calendar.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "util/clock.h"
#include "util/varint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
	const mev_flow_options *opt;
	mev_flow_result *res;
	mev_store *s;
	mev__flow_runner r;
	mev__flow_ahead *ahead;      /* the commits' changes, computed in a second thread */
	const char *tag, *prev;
	mev_oid commit, prev_commit;
	const mev_oid *hidden;       /* the commits its range hides (mev_flow_release.hidden) */
	size_t n_hidden;
	uint64_t earlier;            /* mev__flow_earlier() of the releases before it */
	size_t range;                /* the release's range in u->ahead */
	mev_range_cut cut;           /* what a shallow clone's cut left out of the range */
	int before;                  /* judging the history before the first release */
} run;

/* The release's .mailmap (none: nobody is mapped). */
static int load_mailmap(run *u)
{
	char *data = NULL;
	size_t len = 0;
	int rc = mev_commit_read_file(&data, &len, u->r.repo, &u->commit, ".mailmap");
	mev_mailmap_free(u->r.mm);
	u->r.mm = NULL;
	if (rc && rc != MEV_ENOTFOUND)
		return rc;
	mev_error_clear();
	rc = mev_mailmap_new(&u->r.mm, data, len);
	free(data);
	/* canonical ids depend on the mailmap: compute them again */
	for (size_t i = 0; i < u->r.canon.n; i++)
		u->r.canon.v[i] = UINT32_MAX;
	u->r.canon_done = 0;
	return rc;
}

/* The context of parent p, or NULL with a note when its MAINTAINERS cannot be read. */
static int parent_context(mev__flow_ctx **x, run *u, const mev_commit *c)
{
	char hex[41];
	int rc = mev__flow_context_of(x, u->r.ctxs, &c->parents[0]);
	if (rc == MEV_ENOMEM || rc == MEV_EINTR)
		return rc;
	if (rc) {
		*x = NULL;
		mev_oid_fmt(hex, &c->id);
		rc = mev__flow_note(&u->r, "commit %s: the MAINTAINERS of its parent cannot be read (%s): "
				    "judged as uncovered", hex, mev_error_message());
		mev_error_clear();
		return rc;
	}
	if (!(*x)->nsec) {
		mev_oid_fmt(hex, &c->id);
		rc = mev__flow_note(&u->r, "commit %s: its parent has no MAINTAINERS sections", hex);
	}
	return rc;
}

/* Judge one commit of the range (a merge only passes its state on), its
 * changes computed ahead (a->take). */
static int one_commit(run *u, const mev_commit *c, uint32_t route, mev__flow_ahead *a, size_t i)
{
	mev_change_list ch = { 0 };
	mev__flow_ctx *x = NULL;
	const mev_oid *parent = c->n_parents ? &c->parents[0] : NULL;
	char hex[41];
	int rc, no_churn = 0;

	rc = mev__flow_ahead_take(&ch, &no_churn, a, i);
	if (c->n_parents > 1) {
		u->r.b.merges++;
		if (!rc && !u->before)
			rc = mev__flow_inherit(u->r.ctxs, &c->id, parent, &ch);
		mev_change_list_free(&ch);
		return rc;
	}
	if (!rc && no_churn) {
		mev_oid_fmt(hex, &c->id);
		rc = mev__flow_note(&u->r, "commit %s: a blob is missing, no churn counted", hex);
	}
	if (rc)
		goto done;
	if (u->before) {
		/* the history before the first release: every commit by the first
		 * release's own MAINTAINERS (what its sections cover), no derivation */
		if ((rc = mev__flow_context_of(&x, u->r.ctxs, &u->commit)) && rc != MEV_ENOMEM) {
			x = NULL;
			mev_error_clear();
			rc = 0;
		}
		if (!rc)
			rc = mev__flow_judge(&u->r, c, route, x, &ch);
		u->res->before_commits += !rc;
		goto done;
	}
	if (!parent) {
		mev_oid_fmt(hex, &c->id);
		rc = mev__flow_note(&u->r, "commit %s: a root commit, no MAINTAINERS before it", hex);
	} else {
		rc = parent_context(&x, u, c);
	}
	if (!rc && ch.n >= 10000) {
		mev_oid_fmt(hex, &c->id);
		rc = mev__flow_note(&u->r, "commit %s: touches %zu files", hex, ch.n);
	}
	if (!rc)
		rc = mev__flow_inherit(u->r.ctxs, &c->id, parent, &ch);
	if (!rc)
		rc = mev__flow_judge(&u->r, c, route, x, &ch);
	u->res->commits += !rc;
done:
	mev_change_list_free(&ch);
	return rc;
}

typedef struct {
	const mev_flow_release *rel;
	mev_buf *rec;
	uint64_t earlier;
	int before;               /* the history before the first release: no index */
	const mev_range_cut *cut;
} put_ctx;

static int put_release(mev_store *s, void *vctx)
{
	put_ctx *p = vctx;
	mev_buf idx = MEV_BUF_INIT;
	int rc;
	if ((rc = mev__flow_index_encode(&idx, p->rel->prev, p->earlier, p->rel->hidden,
					 p->rel->n_hidden, &p->rel->commit))) {
		mev__buf_free(&idx);
		return rc;
	}
	rc = mev_store_put_record(NULL, s, p->before ? MEV_FLOW_BEFORE_TABLE : MEV_FLOW_TABLE, 'F', 6,
				  p->rel->tag, strlen(p->rel->tag), p->rec->ptr, p->rec->len);
	if (!rc && !p->before)
		rc = mev_store_put(s, MEV_FLOW_INDEX_TABLE, p->rel->tag, strlen(p->rel->tag), idx.ptr,
				   idx.len);
	/* a release first now (those before it dropped: a rewritten branch)
	 * has no range of its own any more */
	if (!rc && p->before && !(rc = mev_store_delete(s, MEV_FLOW_TABLE, p->rel->tag, strlen(p->rel->tag))))
		rc = mev_store_delete(s, MEV_FLOW_INDEX_TABLE, p->rel->tag, strlen(p->rel->tag));
	if (!rc)
		rc = mev__flow_cut_put(s, p->rel->tag, p->before, p->cut);
	mev__buf_free(&idx);
	return rc;
}

static int store_release(run *u)
{
	mev_flow_release rel;
	mev_buf rec = MEV_BUF_INIT;
	put_ctx p = { &rel, &rec, u->earlier, u->before, &u->cut };
	int rc;
	if (u->r.b.notes_dropped &&
	    (rc = mev__flow_note(&u->r, "%zu more notes left out", u->r.b.notes_dropped)))
		return rc;
	mev__flow_view(&rel, &u->r.b);
	rel.tag = (char *)u->tag;
	rel.prev = (char *)(u->prev ? u->prev : "");
	rel.commit = u->commit;
	rel.prev_commit = u->prev_commit;
	rel.hidden = (mev_oid *)u->hidden;
	rel.n_hidden = u->n_hidden;
	rel.churn = u->opt->churn;
	if (!(rc = mev__flow_encode(&rec, &rel)))
		rc = mev_store_write(u->s, put_release, &p);
	u->res->notes += rel.n_notes;
	mev__buf_free(&rec);
	return rc;
}

/*
 * libgit2's cache of parsed trees and commits: emptied whenever it holds
 * more than CACHE_TRIM, so that it never fills up to CACHE_MAX, where its
 * own eviction (a scan of its map for every object added) costs more than
 * reading the trees again.  U-Boot, 74,752 commits, CPU and peak memory by
 * limit without trimming: 8 MB 33.0 s, 422 MB; 128 MB 43.6 s, 694 MB;
 * 512 MB 53.6 s, 1.6 GB; trimmed at 64 MB 28.4 s, 351 MB (128 MB: 28.3 s,
 * 483 MB).  Xen (56,038 commits): 8 MB 8.6 s, 128 MB 4.8 s; trimmed at
 * 64 MB 3.5 s, 277 MB.
 */
#define CACHE_MAX ((size_t)512 << 20)
#define CACHE_TRIM ((size_t)64 << 20)

/* What the shallow clone's cut left out of the range: a note in the
 * release's record, and the run's count (mev_flow_result.cut_commits). */
static int note_cut(run *u)
{
	char day[11];
	mev__flow_ahead_cut(&u->cut, u->ahead, u->range);
	if (!u->cut.commits)
		return 0;
	u->res->cut_commits += u->cut.commits;
	if (u->cut.time > u->res->history_from)
		u->res->history_from = u->cut.time;
	if (u->cut.time == INT64_MIN)
		return mev__flow_note(&u->r, "%llu commits the shallow clone lacks: not judged",
				      (unsigned long long)u->cut.commits);
	mev_day_format(day, u->cut.time);
	return mev__flow_note(&u->r, "%llu commit%s at the shallow clone's cut not judged (the clone "
			      "lacks their parents): the history before %s is not whole",
			      (unsigned long long)u->cut.commits, u->cut.commits == 1 ? "" : "s", day);
}

static int one_release(run *u)
{
	const mev_commit *commits = NULL;
	size_t n = 0;
	uint32_t *route_of = NULL;
	mev__flow_ahead *a = u->ahead;
	mev__flow_ctx *x;
	int rc;

	mev__flow_builder_free(&u->r.b);
	if ((rc = mev__flow_builder_init(&u->r.b)))
		return rc;
	u->r.stamp++;
	if ((rc = load_mailmap(u)) || (rc = mev__flow_ahead_commits(&commits, &n, a, u->range)) ||
	    (rc = note_cut(u)))
		goto done;
	route_of = calloc(n + 1, sizeof *route_of);
	if (!route_of) {
		rc = mev_error_oom();
		goto done;
	}
	if ((rc = mev__flow_routes(route_of, &u->r, commits, n)))
		goto done;
	for (size_t i = 0; i < n && !rc; i++) {
		if (u->opt->abort_now && *u->opt->abort_now) {
			rc = mev_error_set(MEV_EINTR, "interrupted");
			goto done;
		}
		rc = one_commit(u, &commits[i], route_of[i], a, i);
		if (!rc)
			rc = mev_repo_trim_cache(u->r.repo, CACHE_TRIM);
	}
	if (rc)
		goto done;
	if (!u->before)
		u->res->merges += u->r.b.merges;
	/* the M: and R: counts of the people from the release's own MAINTAINERS */
	if (u->before)
		rc = 0;
	else if ((rc = mev__flow_context_of(&x, u->r.ctxs, &u->commit)) == 0)
		rc = mev__flow_workload(&u->r, x);
	else if (rc != MEV_ENOMEM) {
		rc = mev__flow_note(&u->r, "the MAINTAINERS of %s cannot be read (%s): no workload",
				    u->tag, mev_error_message());
		mev_error_clear();
	}
	if (!rc)
		rc = store_release(u);
done:
	free(route_of);
	return rc;
}

/* The repository holds the store's releases (mev_release_repo_holds()); a
 * shallow clone is left to need_release_commits(), which names the release
 * its cut leaves out and the day to fetch from. */
static int repo_holds(run *u, const char *repo)
{
	return mev_repo_is_shallow(u->r.repo) ? 0 : mev_release_repo_holds(u->r.repo, repo, u->s);
}

/* The store's identity: the repository and the rules it was walked with. */
static int setup(run *u, mev_identity *id)
{
	const char *repo = u->opt->repo;
	int rc = mev_release_identity_get(id, u->s);
	if (rc == MEV_ENOTFOUND) {
		mev_error_set(MEV_ESTORE, "store '%s' holds no walked release", mev_store_dir(u->s));
		mev_error_hint("run 'maintevo walk --repo PATH --store %s' first", mev_store_dir(u->s));
		return MEV_ESTORE;
	}
	if (rc)
		return rc;
	if (strcmp(id->dialect, MEV_IMPORT_DIALECT) == 0) {
		mev_error_set(MEV_ESTORE, "store '%s' holds imported graphs, not a history",
			      mev_store_dir(u->s));
		mev_error_hint("patch flow needs a store made by 'maintevo walk'");
		return MEV_ESTORE;
	}
	if (!repo || !*repo)
		repo = id->repo;
	if ((rc = mev_repo_open(&u->r.repo, repo)) || (rc = repo_holds(u, repo)))
		return rc;
	mev_commit_cache_limit(CACHE_MAX);
	if ((rc = mev__flow_env_rules(&u->r.env, u->r.repo, id)))
		return rc;
	u->r.env.strings = &u->r.strings;
	u->r.churn = u->opt->churn;
	u->r.env.whole_trees = u->opt->whole_trees;
	if ((rc = mev__flow_ahead_new(&u->ahead, repo, u->opt->churn, CACHE_TRIM)))
		return rc;
	return mev__flow_contexts_new(&u->r.ctxs, &u->r.env);
}

/*
 * What a run does with each release: plan.need[i] 1 to judge it, 2 to keep
 * its stored flow and write its index again (releases were added before
 * it, its range is the same), 0 to keep it; release i hides
 * plan.hide[off[i] .. off[i + 1]) (docs/flow.md, "What is judged").
 */
typedef struct {
	uint8_t *need;
	uint64_t *earlier;
	mev__flow_index *idx;
	MEV_VEC(mev_oid) hide;
	size_t *off;
} plan;

/* The --repo given (none: 0) holds the store's releases (a flow with
 * nothing new reads no repository, and would take any). */
static int repo_given_holds(run *u)
{
	const char *repo = u->opt->repo;
	int rc;
	if (!repo || !*repo)
		return 0;
	if ((rc = mev_repo_open(&u->r.repo, repo)))
		return rc;
	return repo_holds(u, repo);
}

static void plan_free(plan *p, size_t n)
{
	for (size_t i = 0; p->idx && i < n; i++)
		mev__flow_index_clear(&p->idx[i]);
	free(p->idx);
	free(p->need);
	free(p->earlier);
	free(p->off);
	MEV_VEC_FREE(&p->hide);
}

static int same_oids(const mev_oid *a, size_t na, const mev_oid *b, size_t nb)
{
	return na == nb && (!na || memcmp(a, b, na * sizeof *a) == 0);
}

/*
 * Release i was judged at another commit: a tag moved, a branch rewritten.
 * An index stored before issue 38 does not keep the commit; the index of
 * the release after it does, in its fingerprint of the earlier releases:
 * when that changed while release i's own did not, release i's commit is
 * what changed.  The last release has no such witness and is judged again
 * (once: its index then keeps the commit).
 */
static int moved(const plan *p, const mev_release *list, size_t n, size_t i)
{
	const mev__flow_index *x = &p->idx[i], *next = &p->idx[i + 1];
	if (x->has_commit)
		return !mev_oid_equal(&x->commit, &list[i].commit);
	if (!x->prev)
		return 0; /* not stored: judged anyway */
	if (i + 1 >= n)
		return 1;
	return next->prev && strcmp(next->prev, list[i].tag) == 0 && x->earlier == p->earlier[i] &&
	       next->earlier != p->earlier[i + 1];
}

/* From the stored index alone: which releases are kept as they are
 * (need 0) and which must be looked at (need 1); *first is the first of
 * those (n when none). */
static int plan_read(plan *p, size_t *first, run *u, const mev_release *list, size_t n)
{
	uint64_t h = MEV__FLOW_EARLIER_INIT;
	*first = n;
	p->need = calloc(n + 1, 1);
	p->earlier = calloc(n + 1, sizeof *p->earlier);
	p->idx = calloc(n + 1, sizeof *p->idx);
	p->off = calloc(n + 2, sizeof *p->off);
	if (!p->need || !p->earlier || !p->idx || !p->off)
		return mev_error_oom();
	for (size_t i = 1; i < n; i++) {
		mev__flow_index *x = &p->idx[i];
		int has = mev__flow_index_read(x, u->s, list[i].tag);
		if (has < 0)
			return has;
		p->earlier[i] = h = mev__flow_earlier(h, &list[i - 1].commit);
		p->need[i] = u->opt->rebuild || !has || !x->rules_ok ||
			     strcmp(x->prev, list[i - 1].tag) != 0 || x->earlier != h;
	}
	/* the fingerprints of all are known: a release at another commit */
	for (size_t i = 1; i < n; i++) {
		p->need[i] = p->need[i] || moved(p, list, n, i);
		if (p->need[i] && *first == n)
			*first = i;
	}
	return 0;
}

/* The hidden commits of releases first .. n-1 (the repository open):
 * releases whose earlier ones changed but hide the same commits need no
 * judging again (need 2). */
static int plan_hidden(plan *p, run *u, const mev_release *list, size_t n, size_t first)
{
	mev_oid *set = NULL;
	size_t nset = 0;
	int rc = 0;
	/* the set release first hides: first - 1's (kept as stored) and first - 1 */
	if (first > 1) {
		const mev__flow_index *x = &p->idx[first - 1];
		if (!(set = malloc((x->n_hidden + 1) * sizeof *set)))
			return mev_error_oom();
		memcpy(set, x->hidden, x->n_hidden * sizeof *set);
		nset = x->n_hidden;
	}
	for (size_t i = first; i < n && !rc; i++) {
		const mev__flow_index *x = &p->idx[i];
		if ((rc = mev__flow_hidden_add(&set, &nset, u->r.repo, &list[i - 1].commit)))
			break;
		p->off[i] = p->hide.n;
		for (size_t k = 0; k < nset && !rc; k++)
			if (MEV_VEC_PUSH(&p->hide, set[k]))
				rc = mev_error_oom();
		p->off[i + 1] = p->hide.n;
		if (p->need[i] && !u->opt->rebuild && x->prev && x->rules_ok && !moved(p, list, n, i) &&
		    strcmp(x->prev, list[i - 1].tag) == 0 && same_oids(x->hidden, x->n_hidden, set, nset))
			p->need[i] = 2;
	}
	free(set);
	return rc;
}

/* Write the index of the releases of need 2 again, in one transaction. */
typedef struct {
	const plan *p;
	const mev_release *list;
	size_t n;
} reindex_ctx;

static int put_reindex(mev_store *s, void *vctx)
{
	const reindex_ctx *c = vctx;
	mev_buf b = MEV_BUF_INIT;
	int rc = 0;
	for (size_t i = 1; i < c->n && !rc; i++) {
		const mev__flow_index *x = &c->p->idx[i];
		if (c->p->need[i] != 2)
			continue;
		b.len = 0;
		if (!(rc = mev__flow_index_encode(&b, x->prev, c->p->earlier[i], x->hidden, x->n_hidden,
						  &c->list[i].commit)))
			rc = mev_store_put(s, MEV_FLOW_INDEX_TABLE, c->list[i].tag,
					   strlen(c->list[i].tag), b.ptr, b.len);
	}
	mev__buf_free(&b);
	return rc;
}

/* 1 when the history before the first release is to be judged: not
 * stored, or --rebuild (docs/people.md: the activity before it). */
static int before_needed(run *u, const mev_release *list, size_t n)
{
	void *data = NULL;
	size_t len = 0;
	int rc;
	if (!n)
		return 0;
	if (u->opt->rebuild)
		return 1;
	/* only whether it is there: the record, not decoded */
	rc = mev_store_get_record(&data, &len, u->s, MEV_FLOW_BEFORE_TABLE, 'F', list[0].tag,
				  strlen(list[0].tag));
	free(data);
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		return 1;
	}
	return rc ? rc : 0;
}

/* Read the releases to judge ahead: their ranges, in order (first the
 * history before the first release when `before`: nothing hidden). */
static int start_ahead(run *u, const mev_release *list, size_t n, const plan *p, int before)
{
	mev_oid *cur = calloc(n + 1, sizeof *cur);
	size_t *off = calloc(n + 2, sizeof *off), k = 0;
	MEV_VEC(mev_oid) hide = { 0 };
	int rc = 0;
	if (!cur || !off)
		rc = mev_error_oom();
	if (!rc && before)
		cur[k++] = list[0].commit; /* off[1] = 0: hides nothing */
	for (size_t i = 1; i < n && !rc; i++)
		if (p->need[i] == 1) {
			for (size_t j = p->off[i]; j < p->off[i + 1] && !rc; j++)
				if (MEV_VEC_PUSH(&hide, p->hide.v[j]))
					rc = mev_error_oom();
			cur[k++] = list[i].commit;
			off[k] = hide.n;
		}
	if (!rc)
		rc = mev__flow_ahead_start(u->ahead, hide.v, off, cur, k);
	free(cur);
	free(off);
	MEV_VEC_FREE(&hide);
	return rc;
}

/*
 * Every release to judge must be in the clone: a shallow clone cut after a
 * release cannot give its MAINTAINERS or its commits.  Refused before
 * anything is judged, naming the oldest such release and the day to fetch
 * from, rather than libgit2's "object not found" half way.
 */
static int need_release_commits(run *u, const mev_release *list, size_t n, const plan *p, int before)
{
	char day[11], fetch_day[11], hex[41];
	for (size_t i = 0; i < n; i++) {
		if (!(i == 0 ? before : p->need[i] == 1) ||
		    mev_repo_has_commit(u->r.repo, &list[i].commit))
			continue;
		mev_oid_fmt(hex, &list[i].commit);
		if (!mev_repo_is_shallow(u->r.repo))
			return mev_error_set(MEV_ENOTFOUND, "the repository lacks commit %.12s of release "
					     "'%s'", hex, list[i].tag);
		mev_day_format(day, list[i].time);
		mev_day_format(fetch_day, list[i].time - 86400); /* --shallow-since keeps what is after */
		mev_error_set(MEV_ENOTFOUND, "the shallow clone lacks commit %.12s of release '%s' "
			      "(%s): its MAINTAINERS and commits cannot be read", hex, list[i].tag, day);
		mev_error_hint("fetch the history from before it: 'git fetch --shallow-since=%s' in "
			       "the clone (or --unshallow)", fetch_day);
		return MEV_ENOTFOUND;
	}
	return 0;
}

/* Judge the history before the first release (range 0 of u->ahead). */
static int judge_before(run *u, const mev_release *list)
{
	int rc;
	u->before = 1;
	u->tag = list[0].tag;
	u->prev = NULL;
	u->commit = list[0].commit;
	memset(&u->prev_commit, 0, sizeof u->prev_commit);
	u->hidden = NULL;
	u->n_hidden = 0;
	u->earlier = 0;
	rc = one_release(u);
	u->before = 0;
	u->range++;
	return rc;
}

static int flow_locked(run *u)
{
	mev_release *list = NULL;
	size_t n = 0, first, todo = 0, done = 0, reindex = 0;
	mev_identity id;
	plan p = { 0 };
	int rc, before;

	if ((rc = mev_release_list(&list, &n, u->s)))
		return rc;
	u->res->releases = n;
	if ((rc = plan_read(&p, &first, u, list, n)))
		goto done;
	if ((before = before_needed(u, list, n)) < 0) {
		rc = before;
		goto done;
	}
	if (first == n && !before) {
		u->res->done_before = n ? n - 1 : 0;
		/* nothing new: no repository read, but a --repo given is checked
		 * as every command taking one checks it */
		rc = repo_given_holds(u);
		goto done;
	}
	if ((rc = setup(u, &id)) || (rc = plan_hidden(&p, u, list, n, first)))
		goto done;
	for (size_t i = 1; i < n; i++) {
		u->res->done_before += p.need[i] != 1;
		todo += p.need[i] == 1;
		reindex += p.need[i] == 2;
	}
	if (reindex) {
		reindex_ctx c = { &p, list, n };
		if ((rc = mev_store_write(u->s, put_reindex, &c)))
			goto done;
	}
	if ((!todo && !before) || (rc = need_release_commits(u, list, n, &p, before)) ||
	    (rc = start_ahead(u, list, n, &p, before)))
		goto done;
	if (before && (rc = judge_before(u, list)))
		goto done;
	for (size_t i = 1; i < n && !rc; i++) {
		const mev_progress *pr = &u->opt->progress;
		if (p.need[i] != 1)
			continue;
		if (pr->stop && *pr->stop) {
			u->res->stopped = 1;
			break;
		}
		if (pr->progress)
			pr->progress(pr->ctx, ++done, todo, list[i].tag);
		u->tag = list[i].tag;
		u->prev = list[i - 1].tag;
		u->commit = list[i].commit;
		u->prev_commit = list[i - 1].commit;
		u->hidden = p.hide.v + p.off[i];
		u->n_hidden = p.off[i + 1] - p.off[i];
		u->earlier = p.earlier[i];
		if ((rc = one_release(u)) == 0)
			u->res->computed++;
		u->range++;
	}
	mev__flow_ahead_finish(u->ahead);
done:
	plan_free(&p, n);
	mev_release_list_free(list, n);
	return rc;
}

int mev_flow_run(mev_flow_result *res, const mev_flow_options *opt)
{
	run u;
	double t0 = mev__now();
	int lockfd = -1, rc;

	memset(&u, 0, sizeof u);
	memset(res, 0, sizeof *res);
	u.opt = opt;
	u.res = res;
	if ((rc = mev_store_open(&u.s, opt->store, MEV_STORE_WRITE)))
		return rc;
	if ((rc = mev_store_lock_wait(&lockfd, opt->store, opt->wait, opt->progress.stop)))
		goto done;
	rc = flow_locked(&u);
	close(lockfd);
	res->parses = u.r.env.parses;
	res->derived = u.r.env.derived;
	res->spliced = u.r.env.spliced;
	res->full_states = u.r.env.full;
done:
	res->seconds = mev__now() - t0;
	mev__flow_builder_free(&u.r.b);
	mev__flow_contexts_free(u.r.ctxs);
	mev__flow_strings_free(&u.r.strings);
	mev_mailmap_free(u.r.mm);
	MEV_VEC_FREE(&u.r.canon);
	MEV_VEC_FREE(&u.r.scratch);
	mev__buf_free(&u.r.buf);
	mev__buf_free(&u.r.env.note);
	mev__flow_ahead_free(u.ahead);
	mev_repo_free(u.r.repo);
	mev_store_free(u.s);
	return rc;
}
