/*
 * Dated snapshots of a branch (docs/walking.md, "Snapshots of a branch"):
 * the periods from the first to the last day asked for, and for each the
 * last commit of the branch's first-parent history on or before the
 * period's end, by committer date: the commit
 * 'git rev-list -1 --first-parent --before=END BRANCH' names.
 */
#include "walk_internal.h"
#include "maintevo/error.h"
#include "maintevo/calendar.h"
#include "maintevo/tags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
	int64_t time;
	size_t at;           /* index in the chain, oldest 0 */
} dated;

static int dated_cmp(const void *a, const void *b)
{
	const dated *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

/* The history stops at a shallow clone's cut: the periods before the cut
 * commit's day cannot be known (nor can the root commit a store is named
 * by). */
static int cut_fail(const char *repo, const char *branch, const mev_commit_time *c)
{
	char hex[41], day[11];
	mev_oid_fmt(hex, &c->id);
	mev_day_format(day, c->time);
	mev_error_set(MEV_ENOTFOUND, "'%s' is a shallow clone: the history of '%s' stops at commit %.12s "
		      "of %s; the snapshots up to then need the commits before it, which it lacks, and a "
		      "store needs the root commit", repo, branch, hex, day);
	mev_error_hint("fetch the whole history: 'git -C %s fetch --unshallow' (or clone without --depth "
		       "and --shallow-since)", repo);
	return MEV_ENOTFOUND;
}

/* The name of the snapshot of period ending at `end`. */
static int name_of(char **out, const char *branch, int64_t end)
{
	char day[11];
	size_t n = strlen(branch) + 12;
	mev_day_format(day, end);
	if (!(*out = malloc(n)))
		return mev_error_oom();
	snprintf(*out, n, "%s@%s", branch, day);
	return 0;
}

/* Room for one more in v. */
static int grow(mev_tag **v, size_t n, size_t *cap)
{
	mev_tag *nv;
	if (n < *cap)
		return 0;
	if (!(nv = realloc(*v, (*cap = *cap ? 2 * *cap : 64) * sizeof *nv)))
		return mev_error_oom();
	*v = nv;
	return 0;
}

/* The end of the last period snapshot: the period of --until, or of now
 * when --until is later or not given.  A period that has not begun holds
 * nothing a later walk would not take again (no future periods stored). */
static int64_t last_end(const mev__snap_plan *p)
{
	return mev_period_end(p->until && p->until < p->now ? p->until : p->now, p->every);
}

/* One of the branch's stored snapshots, as it is stored. */
static int is_ours(const mev__snap_plan *p, const char *name)
{
	size_t blen;
	return mev_snapshot_parse(name, NULL, &blen) && blen == strlen(p->branch) &&
	       strncmp(name, p->branch, blen) == 0;
}

/* The first second whose commits this walk has not seen yet: after the
 * newest stored snapshot's period, else from --since or the root. */
static int64_t news_from(const mev__snap_plan *p, const mev__stored_list *st, int64_t root)
{
	int64_t end;
	for (size_t i = st->n; i-- > 0;)
		if (is_ours(p, st->v[i].tag) && mev_snapshot_parse(st->v[i].tag, &end, NULL))
			return end + 1;
	return p->since > root ? p->since : root;
}

/*
 * The branch has not moved since the newest stored snapshot, which is at
 * its tip: every snapshot stored stays as it is (no commit was added), and
 * every period after it, up to now, has the tip too (the newest commit on
 * or before its end can only be the tip).  No history is read: a nightly
 * run with nothing new costs a lookup.  1 when that holds and *out, *n
 * are made; 0 to read the history.
 */
static int unmoved(mev_tag **out, size_t *n, const mev__snap_plan *p, const mev__stored_list *st,
		   const mev_oid *tip, int64_t tip_time)
{
	const mev__stored_rel *last = NULL;
	mev_tag *v = NULL;
	size_t cap = 0;
	int64_t end = 0, stop = last_end(p);
	for (size_t i = st->n; i-- > 0 && !last;)
		if (is_ours(p, st->v[i].tag))
			last = &st->v[i];
	if (!last || !p->same_since || !mev_oid_equal(&last->commit, tip))
		return 0;
	mev_snapshot_parse(last->tag, &end, NULL);
	for (size_t i = 0; i < st->n; i++) {
		if (!is_ours(p, st->v[i].tag))
			continue;
		if (grow(&v, *n, &cap) || !(v[*n].name = strdup(st->v[i].tag)))
			goto oom;
		v[*n].commit = st->v[i].commit;
		v[(*n)++].time = st->v[i].time;
	}
	for (end = mev_period_end(end + 1, p->every); end <= stop; end = mev_period_end(end + 1, p->every)) {
		if (grow(&v, *n, &cap) || name_of(&v[*n].name, p->branch, end))
			goto oom;
		v[*n].commit = *tip;
		v[(*n)++].time = tip_time;
	}
	*out = v;
	return 1;
oom:
	mev_tag_list_free(v, *n);
	*n = 0;
	return mev_error_oom();
}

static int oid_cmp(const void *a, const void *b)
{
	return memcmp(((const mev_oid *)a)->id, ((const mev_oid *)b)->id, 20);
}

/* Mark the stored snapshots of the branch whose commit is not on its
 * first-parent history now (chain[0..m)): the branch was rewritten under
 * them (docs/walking.md, "A branch rewritten, a tag moved or deleted"). */
static int mark_gone(const mev__snap_plan *p, mev__stored_list *st, const mev_commit_time *chain, size_t m)
{
	mev_oid *ids = malloc((m + 1) * sizeof *ids);
	if (!ids)
		return mev_error_oom();
	for (size_t i = 0; i < m; i++)
		ids[i] = chain[i].id;
	qsort(ids, m, sizeof *ids, oid_cmp);
	for (size_t i = 0; i < st->n; i++)
		st->v[i].gone = is_ours(p, st->v[i].tag) &&
				!bsearch(&st->v[i].commit, ids, m, sizeof *ids, oid_cmp);
	free(ids);
	return 0;
}

/*
 * Say which commits of the chain (oldest first) are dated before a commit
 * they follow, or after now: a clock set wrong.  The snapshots still take
 * what 'git rev-list --before' takes (docs/walking.md), so a period may
 * hold a commit from after it or a tree repeated for years; the user is
 * told how many such commits there are, and the first few.  Only those
 * that follow a commit dated from `from` on: older ones were said by the
 * walk that stored their periods (a nightly run would say U-Boot's eight
 * of 2012 every night), or lie before the periods asked for.
 */
static void note_dates(const mev__walk_opts *o, const mev_commit_time *chain, size_t m, int64_t from)
{
	char list[400] = "", hex[41], day[11], before[11];
	size_t count = 0, ahead = 0, len = 0;
	int64_t latest = INT64_MIN;
	for (size_t i = 0; i < m; i++) {
		int back = chain[i].time < latest && latest >= from;
		ahead += chain[i].time > o->snap.now;
		if (back && count++ < 4 && len < sizeof list) {
			mev_oid_fmt(hex, &chain[i].id);
			mev_day_format(day, chain[i].time);
			mev_day_format(before, latest);
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%.12s of %s after %s",
						count > 1 ? ", " : "", hex, day, before);
		}
		if (chain[i].time > latest)
			latest = chain[i].time;
	}
	if (count)
		mev__walk_note(o, "%zu commit%s of '%s' dated before the commit%s %s follow%s (%s%s): "
			       "a period's snapshot is the newest commit dated by the period's end, as "
			       "'git rev-list --before' names it, so such a commit stands in for the "
			       "periods from its date on and snapshots may repeat one tree for long", count, count == 1 ? "" : "s",
			       o->snap.branch, count == 1 ? "" : "s", count == 1 ? "it" : "they",
			       count == 1 ? "s" : "", list, count > 4 ? ", ..." : "");
	if (ahead)
		mev__walk_note(o, "%zu commit%s of '%s' dated after now: no snapshot holds %s yet", ahead,
			       ahead == 1 ? "" : "s", o->snap.branch, ahead == 1 ? "it" : "them");
}

int mev__walk_snapshots(mev_tag **out, size_t *n, const mev__walk_opts *o, mev_repo *repo,
			mev__stored_list *stored)
{
	const mev__snap_plan *p = &o->snap;
	mev_commit_time *chain = NULL;
	dated *by = NULL;
	mev_tag *v = NULL;
	size_t m = 0, cap = 0;
	int cut = 0, rc;
	int64_t tip_time;
	mev_oid tip;
	*out = NULL;
	*n = 0;
	if ((rc = mev_repo_branch(&tip, &tip_time, repo, p->branch)))
		return rc;
	if ((rc = unmoved(out, n, p, stored, &tip, tip_time)))
		return rc < 0 ? rc : 0;
	if ((rc = mev_repo_first_parents(&chain, &m, &cut, repo, &tip)))
		return rc;
	if ((rc = mark_gone(p, stored, chain, m)) || !(by = malloc(m * sizeof *by))) {
		free(chain);
		return rc ? rc : mev_error_oom();
	}
	/* the chain oldest first, and by date */
	for (size_t i = 0; i < m / 2; i++) {
		mev_commit_time t = chain[i];
		chain[i] = chain[m - 1 - i];
		chain[m - 1 - i] = t;
	}
	note_dates(o, chain, m, news_from(p, stored, chain[0].time));
	for (size_t i = 0; i < m; i++)
		by[i] = (dated){ chain[i].time, i };
	qsort(by, m, sizeof *by, dated_cmp);
	{
		/* from the period of the branch's first commit (its root, not
		 * its oldest date: a commit dated before the root, a clock set
		 * wrong, would make snapshots of a time the branch had no
		 * commit), and never before 1970, which a name cannot hold */
		int64_t first = p->since > chain[0].time ? p->since : chain[0].time;
		int64_t stop = last_end(p);
		if (first < 0)
			first = 0;
		size_t k = 0, best = SIZE_MAX;
		if (cut && first < chain[0].time + 86400) {
			rc = cut_fail(mev_repo_path(repo), p->branch, &chain[0]);
			goto done;
		}
		for (int64_t end = mev_period_end(first, p->every); !rc && end <= stop;
		     end = mev_period_end(end + 1, p->every)) {
			/* the newest commit of the chain dated on or before end */
			for (; k < m && by[k].time <= end; k++)
				if (best == SIZE_MAX || by[k].at > best)
					best = by[k].at;
			if (best == SIZE_MAX)
				continue; /* no commit yet */
			if ((rc = grow(&v, *n, &cap)))
				break;
			v[*n].commit = chain[best].id;
			v[*n].time = chain[best].time;
			if (!(rc = name_of(&v[*n].name, p->branch, end)))
				(*n)++;
		}
	}
done:
	free(chain);
	free(by);
	if (rc) {
		mev_tag_list_free(v, *n);
		*n = 0;
		return rc;
	}
	*out = v;
	return 0;
}
