/*
 * What a walk takes: the store's identity checked against the options
 * (tag filters, dialect, the branch it follows), and the tags and
 * snapshots to walk, in the store's order.
 */
#include "walk_internal.h"
#include "maintevo/error.h"
#include "maintevo/calendar.h"
#include "maintevo/tags.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef mev__walker walker;

/* --- choosing tags ------------------------------------------------------ */

static void join_globs(char *out, size_t size, const char *const *g, size_t n)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n; i++)
		used += (size_t)snprintf(out + used, used < size ? size - used : 0, "%s%s", i ? "\n" : "", g[i]);
}

static int glob_any(const char *list, const char *tag)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", list);
	for (char *save = NULL, *g = strtok_r(buf, "\n", &save); g; g = strtok_r(NULL, "\n", &save))
		if (fnmatch(g, tag, 0) == 0)
			return 1;
	return 0;
}

/* Without --tags: a release on the line of development, or with --line on
 * that maintenance line (the release it starts from and its own). */
static int on_the_line(const walker *w, const char *tag)
{
	const mev_identity *id = &w->run.id;
	char line[sizeof id->line];
	mev_tag_kind k = mev_tag_line(line, sizeof line, w->opts.dialect, tag, id->rc);
	if (id->line[0])
		return k != MEV_TAG_NONE && strcmp(line, id->line) == 0;
	return k == MEV_TAG_MAIN;
}

int mev__walk_chosen(const walker *w, const char *tag)
{
	const mev_identity *id = &w->run.id;
	size_t blen;
	if (id->branch[0] && mev_snapshot_parse(tag, NULL, &blen))
		return blen == strlen(id->branch) && strncmp(tag, id->branch, blen) == 0;
	if (id->branch[0] && !id->tags_too)
		return 0;
	if (id->tags[0] ? !glob_any(id->tags, tag) : !on_the_line(w, tag))
		return 0;
	return !(id->exclude[0] && glob_any(id->exclude, tag));
}

/* A chosen tag too long for the keys of the store is left out with a
 * note naming it (docs/walking.md). */
static int too_long(const walker *w, const char *tag)
{
	size_t n = strlen(tag);
	if (n <= MEV_RELEASE_TAG_MAX)
		return 0;
	mev__walk_note(&w->opts, "tag '%.900s%s' left out: its name has %zu bytes, a release tag at most %d",
		       tag, n > 900 ? "..." : "", n, MEV_RELEASE_TAG_MAX);
	return 1;
}

/*
 * The dialect of a repository without a store: that of HEAD's tree (or of
 * its newest tag).  Guessed from the tree's listing, which needs no blob:
 * a partial clone with nothing checked out lacks HEAD's get_maintainer.pl,
 * and the first release that needs it says so (mev__walk_need_blobs,
 * docs/walking.md); the script's rules are every release's own concern.
 */
static int detect_dialect(mev_dialect *out, const walker *w, const mev_tag *tags, size_t n)
{
	mev_oid head;
	mev_tree *t = NULL;
	int rc;
	if (mev_repo_resolve(&head, NULL, w->run.repo, "HEAD") != 0) {
		size_t best = 0;
		if (!n) {
			*out = MEV_DIALECT_LINUX;
			mev_error_clear();
			return 0;
		}
		for (size_t i = 1; i < n; i++)
			if (tags[i].time > tags[best].time)
				best = i;
		head = tags[best].commit;
	}
	if ((rc = mev_tree_load(&t, w->run.repo, &head)))
		return rc;
	*out = mev_dialect_guess(t);
	mev_tree_free(t);
	return 0;
}

int mev__walk_dialect(mev_dialect *out, const walker *w, const mev_tag *tags, size_t n)
{
	const mev_identity *id = &w->run.id;
	if (w->opts.user->rules.dialect != MEV_DIALECT_AUTO)
		*out = w->opts.user->rules.dialect;
	else if (id->dialect[0] && mev_dialect_parse(id->dialect) > 0)
		*out = (mev_dialect)mev_dialect_parse(id->dialect);
	else
		return detect_dialect(out, w, tags, n);
	return 0;
}

/* --- identity ------------------------------------------------------------ */

int mev__walk_check_dates(const mev__walk_opts *w, int every, int say)
{
	const mev_walk_options *o = w->user;
	const char *name[2] = { "--since", "--until" }, *text[2] = { o->since, o->until };
	int64_t t[2] = { 0, 0 }, now = o->now ? o->now : (int64_t)time(NULL);
	char today[11];
	mev_day_format(today, now);
	for (int i = 0; i < 2; i++) {
		if (!text[i])
			continue;
		if (mev_day_parse(&t[i], text[i]))
			return MEV_EINVAL;
		if (every >= 0 && !mev_period_in_calendar(t[i], (mev_every)every)) {
			mev_error_set(MEV_EINVAL, "%s %s: its %s ends after 9999-12-31, the last day a "
				      "snapshot's name can hold", name[i], text[i], mev_every_name((mev_every)every));
			mev_error_hint("snapshots are taken up to today (%s): leave %s out, or give a day "
				       "before it", today, name[i]);
			return MEV_EINVAL;
		}
	}
	if (o->since && t[0] > now) {
		mev_error_set(MEV_EINVAL, "--since %s is after today (%s): no period to snapshot has begun",
			      o->since, today);
		mev_error_hint("give a day up to today, or leave --since out to start from the branch's "
			       "first commit");
		return MEV_EINVAL;
	}
	if (say && o->until && t[1] > now)
		mev__walk_note(w, "--until %s is after today (%s): the snapshots stop at the %s of today "
			       "(periods to come are not stored)", o->until, today,
			       mev_every_name((mev_every)every));
	return 0;
}

/*
 * The branch a walk follows and how (options over the store's identity):
 * w->opts.snap, and w->run.id's branch fields as the store will keep
 * them.  A store of tags that gains a branch keeps its tags.
 */
static int snap_identity(walker *w)
{
	const mev_walk_options *o = w->opts.user;
	mev_identity *id = &w->run.id;
	mev__snap_plan *p = &w->opts.snap;
	int every = o->every ? mev_every_parse(o->every) : 0;
	int64_t since = 0, until = 0;
	if (every < 0) {
		mev_error_set(MEV_EINVAL, "--every '%s': a period is day, week, month or quarter", o->every);
		mev_error_hint("for example --branch master --every month");
		return MEV_EINVAL;
	}
	if ((o->since && mev_day_parse(&since, o->since)) || (o->until && mev_day_parse(&until, o->until)))
		return MEV_EINVAL;
	if (o->since && o->until && since > until) {
		mev_error_set(MEV_EINVAL, "--since %s is after --until %s", o->since, o->until);
		mev_error_hint("the first day comes first: --since %s --until %s", o->until, o->since);
		return MEV_EINVAL;
	}
	if (!o->branch && !id->branch[0]) {
		if (o->every || o->since || o->until || o->tags_too) {
			mev_error_set(MEV_EINVAL, "--every, --since, --until and --tags-too go with --branch%s",
				      w->run.have_id ? ", and this store follows no branch" : "");
			mev_error_hint("name the branch: --branch master --every month");
			return MEV_EINVAL;
		}
		return 0;
	}
	if (o->branch && id->branch[0] && strcmp(o->branch, id->branch)) {
		mev_error_set(MEV_ESTORE, "store '%s' follows branch '%s'; this walk asks for '%s'", o->store,
			      id->branch, o->branch);
		mev_error_hint("leave --branch out to go on with '%s', or use another store", id->branch);
		return MEV_ESTORE;
	}
	if (every && id->every && every != id->every) {
		mev_error_set(MEV_ESTORE, "store '%s' holds snapshots every %s; this walk asks for every %s",
			      o->store, mev_every_name((mev_every)id->every), o->every);
		mev_error_hint("leave --every out to go on as the store does, or use another store");
		return MEV_ESTORE;
	}
	if (!every && !id->every) {
		mev_error_set(MEV_EINVAL, "--branch %s needs --every: day, week, month or quarter", o->branch);
		mev_error_hint("for example --branch %s --every month", o->branch);
		return MEV_EINVAL;
	}
	if (!id->branch[0]) {
		snprintf(id->branch, sizeof id->branch, "%s", o->branch);
		id->every = every;
		/* a store of tags keeps walking them */
		id->tags_too = o->tags_too || w->run.have_id;
		w->run.id_dirty = w->run.have_id;
	}
	p->same_since = !o->since || since == id->since;
	if (o->since && since != id->since) {
		id->since = since;
		w->run.id_dirty = w->run.have_id;
	}
	if (o->tags_too && !id->tags_too) {
		id->tags_too = 1;
		w->run.id_dirty = w->run.have_id;
	}
	p->branch = id->branch;
	p->every = (mev_every)id->every;
	p->since = id->since;
	p->until = until;
	p->now = o->now ? o->now : (int64_t)time(NULL);
	return mev__walk_check_dates(&w->opts, p->every, 1);
}

/* --line names a line ("20.11") and goes without --tags, which choose
 * tags another way; nor does a store of --tags take one. */
static int line_option(const walker *w)
{
	const mev_walk_options *o = w->opts.user;
	if (!o->line)
		return 0;
	if (!o->line[0] || strlen(o->line) >= sizeof w->run.id.line) {
		mev_error_set(MEV_EINVAL, "--line '%.80s': a line is named by the release it starts from, "
			      "as its tag writes the numbers (20.11 for v20.11)", o->line);
		return MEV_EINVAL;
	}
	if (o->ntags || (w->run.have_id && w->run.id.tags[0])) {
		mev_error_set(MEV_EINVAL, "--line and --tags choose the tags two ways; give one");
		mev_error_hint("--tags GLOB walks the tags it matches, --line X.Y the maintenance line of "
			       "release X.Y");
		return MEV_EINVAL;
	}
	return 0;
}

int mev__walk_check_identity(walker *w)
{
	const mev_walk_options *o = w->opts.user;
	mev_identity *id = &w->run.id;
	char tags[512], exclude[512];
	int rc;
	join_globs(tags, sizeof tags, o->tags, o->ntags);
	join_globs(exclude, sizeof exclude, o->exclude, o->nexclude);
	if ((rc = line_option(w)) || (rc = snap_identity(w)))
		return rc;
	if (!w->run.have_id) {
		mev_identity keep = *id;
		memset(id, 0, sizeof *id);
		memcpy(id->branch, keep.branch, sizeof keep.branch);
		id->every = keep.every;
		id->since = keep.since;
		id->tags_too = keep.tags_too;
		id->schema = MEV_STORE_SCHEMA;
		snprintf(id->repo, sizeof id->repo, "%s", o->repo);
		memcpy(id->tags, tags, sizeof tags);
		memcpy(id->exclude, exclude, sizeof exclude);
		id->rc = o->rc;
		snprintf(id->line, sizeof id->line, "%s", o->line ? o->line : "");
		id->top_level_only = o->rules.top_level_only;
		if (o->files_as)
			snprintf(id->files_as, sizeof id->files_as, "%s", o->files_as);
		if (o->rules.dialect != MEV_DIALECT_AUTO)
			snprintf(id->dialect, sizeof id->dialect, "%s", mev_dialect_name(o->rules.dialect));
		return 0;
	}
	if (!mev_repo_has_commit(w->run.repo, &id->root)) {
		char hex[41];
		mev_oid_fmt(hex, &id->root);
		if (mev__walk_shallow_root(w->run.repo, &id->root, o->repo, o->store))
			return MEV_ESTORE;
		mev_error_set(MEV_ESTORE, "store '%s' holds the history of another repository ('%s'): "
			      "'%s' has no commit %.12s", o->store, id->repo, o->repo, hex);
		mev_error_hint("walk this repository into a new store, or pass the store's own repository");
		return MEV_ESTORE;
	}
#define DIFFERS(cond, what, stored) \
	if (cond) { \
		mev_error_set(MEV_ESTORE, "store '%s' was walked with %s '%s'; this walk asks for another", \
			      o->store, what, stored); \
		mev_error_hint("leave the option out to use the store's, use another store, or --rebuild"); \
		return MEV_ESTORE; \
	}
	DIFFERS(o->ntags && strcmp(tags, id->tags), "--tags", id->tags);
	DIFFERS(o->nexclude && strcmp(exclude, id->exclude), "--exclude", id->exclude);
	DIFFERS(o->rc && !id->rc, "rc tags", "left out");
	DIFFERS(o->line && strcmp(o->line, id->line), "--line", id->line[0] ? id->line :
		"(none: the line of development)");
	DIFFERS(o->rules.dialect != MEV_DIALECT_AUTO && id->dialect[0] &&
		strcmp(mev_dialect_name(o->rules.dialect), id->dialect), "--dialect", id->dialect);
	DIFFERS(o->rules.top_level_only && !id->top_level_only, "all MAINTAINERS files", "read");
	DIFFERS(o->files_as && strcmp(o->files_as, id->files_as), "--files-as",
		id->files_as[0] ? id->files_as : "(each release's own files)");
#undef DIFFERS
	return 0;
}

/* Releases computed again because older matching rules built them. */
typedef struct {
	size_t n;
	uint32_t version;
	const char *first;
} stale_count;

/* Whether candidate t (chosen) goes into work: not stored yet, moved
 * since, or built by older rules. */
static int wanted(walker *w, const mev_tag *t, int snapshot, stale_count *st)
{
	const mev__stored_rel *rel = mev__stored_find(&w->run.stored, t->name);
	if (!rel)
		return 1;
	if (!mev_oid_equal(&rel->commit, &t->commit)) {
		if (snapshot) {
			if (!rel->gone) /* a rewritten branch's are said at once (rewrite.c) */
				mev__walk_note(&w->opts, "snapshot %s: the branch has commits in its period "
					       "since it was stored; walking it again", t->name);
		} else {
			mev__walk_note(&w->opts, "tag %s moved since it was stored; walking it again",
				       t->name);
		}
		return 1;
	}
	if (rel->rules_version != MEV_RULES_VERSION) {
		st->version = rel->rules_version;
		st->first = st->first ? st->first : rel->tag;
		st->n++;
		return 1;
	}
	return 0;
}

/*
 * The releases to walk, in the store's order, into work[]: the release
 * tags the filters choose and the branch's snapshots, those not stored yet
 * (or moved since).  The dialect is settled on the way: as asked, as
 * stored, or detected.
 */
int mev__walk_choose(walker *w, const mev_tag ***work, size_t *nwork, mev_tag *tags, size_t ntags,
		     mev_tag *snaps, size_t nsnaps)
{
	const mev_walk_options *o = w->opts.user;
	const mev_identity *id = &w->run.id;
	mev_walk_result *res = w->run.res;
	stale_count st = { 0 };
	mev_release_key *chosen = NULL; /* the tags chosen, index 1 when walked now */
	size_t named_like = 0;
	int rc, with_tags = !id->branch[0] || id->tags_too;
	mev_dialect dialect;
	if ((rc = mev__walk_dialect(&dialect, w, tags, ntags)))
		return rc;
	/* the identity is settled (mev__walk_check_identity): so are the
	 * rules options of every release */
	mev__walk_opts_settle(&w->opts, dialect, id->top_level_only);
	if (id->files_as[0] && (rc = mev__walk_opts_files_as(&w->opts, w->run.repo, id->files_as)))
		return rc;
	*nwork = 0;
	if (!(*work = calloc(ntags + nsnaps + 1, sizeof **work)) ||
	    !(chosen = malloc((ntags + 1) * sizeof *chosen)))
		return mev_error_oom();
	for (size_t i = 0; i < ntags && with_tags; i++) {
		if (!mev__walk_chosen(w, tags[i].name) || too_long(w, tags[i].name))
			continue;
		if (mev_snapshot_parse(tags[i].name, NULL, NULL)) {
			if (named_like++ < 3)
				mev__walk_note(&w->opts, "tag '%s' left out: a release named "
					       "<branch>@YYYY-MM-DD is a snapshot", tags[i].name);
			continue;
		}
		chosen[res->candidates++] = (mev_release_key){ tags[i].name, tags[i].time, 0 };
		if (wanted(w, &tags[i], 0, &st)) {
			(*work)[(*nwork)++] = &tags[i];
			chosen[res->candidates - 1].index = 1;
		}
	}
	rc = with_tags ? mev__walk_say_backward(w, chosen, res->candidates) : 0;
	free(chosen);
	if (rc)
		return rc;
	if (with_tags)
		mev__walk_say_off_line(w);
	if (with_tags && id->line[0] && !res->candidates)
		return mev__walk_line_missing(w->opts.user->repo, dialect, id->line, tags, ntags);
	for (size_t i = 0; i < nsnaps; i++) {
		if (too_long(w, snaps[i].name))
			continue;
		res->candidates++;
		res->snapshots++;
		if (wanted(w, &snaps[i], 1, &st))
			(*work)[(*nwork)++] = &snaps[i];
	}
	if (st.n)
		mev__walk_note(&w->opts, "%zu stored release%s (%s first) built by older matching rules "
			       "(version %u, now %u): computed again", st.n, st.n == 1 ? "" : "s", st.first,
			       st.version, MEV_RULES_VERSION);
	if (!res->candidates && !id->branch[0])
		mev__walk_note(&w->opts, "no release tags chosen in '%s' (dialect %s%s); see --tags", o->repo,
		     mev_dialect_name(w->opts.dialect), id->tags[0] ? ", --tags given" : "");
	else if (!res->snapshots && id->branch[0])
		mev__walk_note(&w->opts, "no snapshots of '%s' chosen: it has no commit up to the end of "
			       "the last period asked for (see --since, --until)", id->branch);
	return mev__stored_order(&w->run.stored, *work, *nwork);
}

