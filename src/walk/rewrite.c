/*
 * History that changed under the stored releases (docs/walking.md, "A
 * branch rewritten, a tag moved or deleted"), settled before the releases
 * to walk are chosen:
 *
 * - a stored release whose tag the repository no longer has refuses the
 *   walk: a walk cannot tell a tag deleted upstream from a clone that
 *   lacks it (fetched without tags, a mirror of one branch), and dropping
 *   the release on the word of such a clone would empty the store;
 * - the snapshots of a rewritten branch (their commit no longer on its
 *   first-parent history, marked by mev__walk_snapshots) are walked again,
 *   said once with how many and from which period: a branch is followed,
 *   not a commit, and some branches are rewritten as a rule ('next');
 *   those whose period this walk no longer makes (--until moved back, the
 *   first commit dated later now) are dropped here, so that no snapshot of
 *   the old history stays beside the new ones.
 *
 * A tag moved to another commit is walked again in place (choose.c): its
 * name is still the repository's.
 */
#include "walk_internal.h"
#include "maintevo/error.h"
#include "maintevo/tags.h"
#include "util/strmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef mev__walker walker;

/* Up to three names of v[0..n), "a, b, c, ..." into out. */
static void some_names(char *out, size_t size, const char *const *v, size_t n)
{
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n && i < 3 && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%s", i ? ", " : "", v[i]);
	if (n > 3 && used < size)
		snprintf(out + used, size - used, ", ...");
}

/* The stored release tags the repository does not have any more. */
static int deleted_tags(walker *w, const mev_tag *tags, size_t ntags)
{
	const mev_walk_options *o = w->opts.user;
	mev_strmap have = MEV_STRMAP_INIT;
	const char **gone = malloc((w->run.stored.n + 1) * sizeof *gone);
	char names[512];
	size_t n = 0;
	int rc = gone ? 0 : mev_error_oom();
	for (size_t i = 0; i < ntags && !rc; i++)
		rc = mev__strmap_put(&have, tags[i].name, strlen(tags[i].name), 1);
	for (size_t i = 0; i < w->run.stored.n && !rc; i++) {
		const char *t = w->run.stored.v[i].tag;
		if (!mev_snapshot_parse(t, NULL, NULL) && mev__strmap_get(&have, t, strlen(t)) < 0)
			gone[n++] = t;
	}
	mev__strmap_free(&have);
	if (!rc && n) {
		some_names(names, sizeof names, (const char *const *)gone, n);
		rc = mev_error_set(MEV_ESTORE, "store '%s' holds %zu release%s whose tag%s gone from '%s' "
				   "(%s): deleted there, or this clone lacks %s", o->store, n, n == 1 ? "" : "s",
				   n == 1 ? " is" : "s are", o->repo, names, n == 1 ? "it" : "them");
		mev_error_hint("if the clone lacks tags, 'git -C %s fetch --tags' and walk again; if they were "
			       "deleted on purpose, 'maintevo walk --rebuild' walks the store again without "
			       "them (or walk into a new store)", o->repo);
	}
	free(gone);
	return rc;
}

typedef struct {
	walker *w;
	const char **drop;   /* oldest first: dropped newest first */
	size_t n;
} drop_ctx;

static int listed(const char *const *v, size_t n, const char *tag)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], tag) == 0)
			return 1;
	return 0;
}

/* One transaction: each release dropped with its repeats, the tables that
 * were deltas against it and stay stored whole first. */
static int drop_all(mev_store *s, void *ctx)
{
	drop_ctx *x = ctx;
	int rc = 0;
	(void)s;
	mev__walk_bases_begin(&x->w->cache.bases);
	for (size_t i = x->n; i-- > 0 && !rc;) {
		char **dep = NULL;
		size_t nd = 0;
		rc = mev__walk_bases_of(&dep, &nd, x->w, x->drop[i]);
		for (size_t k = 0; k < nd; k++) {
			if (!rc && !listed(x->drop, i, dep[k]))
				rc = mev__walk_reencode(x->w, dep[k], NULL, NULL);
			free(dep[k]);
		}
		free(dep);
		if (!rc && !(rc = mev_release_drop(x->w->run.store, x->drop[i])))
			rc = mev__walk_bases_gone(x->w, x->drop[i]);
	}
	return rc;
}

static int in_walk(const mev_tag *snaps, size_t n, const char *tag)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(snaps[i].name, tag) == 0)
			return 1;
	return 0;
}

/* The snapshots of a rewritten branch: said, and those of periods this
 * walk does not make dropped. */
static int rewritten_branch(walker *w, const mev_tag *snaps, size_t nsnaps)
{
	mev__stored_list *st = &w->run.stored;
	const char *first = NULL;
	const char **drop = malloc((st->n + 1) * sizeof *drop);
	char names[512];
	size_t gone = 0, ndrop = 0;
	int rc = drop ? 0 : mev_error_oom();
	for (size_t i = 0; i < st->n && !rc; i++) {
		if (!st->v[i].gone)
			continue;
		first = first ? first : st->v[i].tag;
		gone++;
		if (!in_walk(snaps, nsnaps, st->v[i].tag))
			drop[ndrop++] = st->v[i].tag;
	}
	if (!rc && gone) {
		some_names(names, sizeof names, (const char *const *)drop, ndrop);
		mev__walk_note(&w->opts, "branch '%s' was rewritten: %zu stored snapshot%s, from %s on, "
			       "hold%s commits no longer on it; walking %s again from %s%s%s%s",
			       w->opts.snap.branch, gone, gone == 1 ? "" : "s", first, gone == 1 ? "s" : "",
			       gone == 1 ? "it" : "them", first, ndrop ? " (dropped, their periods no longer "
			       "walked: " : "", names, ndrop ? ")" : "");
	}
	if (!rc && ndrop) {
		drop_ctx x = { w, drop, ndrop };
		if (!(rc = mev_store_write(w->run.store, drop_all, &x))) {
			mev__walk_bases_commit(&w->cache.bases);
			/* the list again, without them */
			mev__stored_list fresh = { 0 };
			fresh.ranks = (mev_strmap)MEV_STRMAP_INIT;
			if (!(rc = mev__stored_load(&fresh, w->run.store))) {
				for (size_t i = 0; i < fresh.n; i++) {
					const mev__stored_rel *old = mev__stored_find(st, fresh.v[i].tag);
					fresh.v[i].gone = old && old->gone;
				}
				free(drop);
				drop = NULL;
				mev__stored_free(st);
				*st = fresh;
			} else {
				mev__stored_free(&fresh);
			}
		}
	}
	free(drop);
	return rc;
}

int mev__walk_rewritten(walker *w, const mev_tag *tags, size_t ntags, const mev_tag *snaps, size_t nsnaps)
{
	int rc = deleted_tags(w, tags, ntags);
	if (!rc && w->opts.snap.branch)
		rc = rewritten_branch(w, snaps, nsnaps);
	return rc;
}
