/*
 * One dialect for every release of a walk (docs/walking.md, the dialect
 * after the table of tags): with --dialect auto the walk reads every
 * release with the dialect HEAD's tree looks like, while 'filemap --repo
 * --rev TAG' guesses from TAG's own tree.  When the releases to walk look like
 * another dialect than HEAD, the store would differ from the repository
 * for them: the walk refuses, with what it found.
 */
#include "walk_internal.h"
#include "maintevo/error.h"

#include <stdio.h>
#include <string.h>

/* The dialect release t looks like; `d` when its tree cannot be read (a
 * partial clone lacking a symbolic link's blob): the walk of the release
 * says what is missing, in its own words. */
static mev_dialect guess_of(mev_repo *repo, const mev_tag *t, mev_dialect d)
{
	mev_tree *tree = NULL;
	if (mev_tree_load(&tree, repo, &t->commit)) {
		mev_error_clear();
		return d;
	}
	d = mev_dialect_guess(tree);
	mev_tree_free(tree);
	return d;
}

int mev__walk_check_dialects(const mev__walker *w, const mev_tag *const *work, size_t n)
{
	const mev_tag *ends[2] = { NULL, NULL }; /* the oldest and newest to walk */
	mev_dialect d = w->opts.dialect, seen[2];
	char found[600];
	size_t len = 0;
	int odd = 0;
	/* a dialect asked for, or the store's, is every release's by choice */
	if (w->opts.user->rules.dialect != MEV_DIALECT_AUTO || w->run.id.dialect[0] || !n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (!ends[0] || work[i]->time < ends[0]->time)
			ends[0] = work[i];
		if (!ends[1] || work[i]->time > ends[1]->time)
			ends[1] = work[i];
	}
	for (int k = 0; k < 2; k++) {
		seen[k] = guess_of(w->run.repo, ends[k], d);
		odd |= seen[k] != d;
	}
	if (!odd)
		return 0;
	len = (size_t)snprintf(found, sizeof found, "%s (HEAD)", mev_dialect_name(d));
	for (int k = 0; k < 2 && len < sizeof found; k++)
		if (seen[k] != d && (k == 0 || ends[1] != ends[0]))
			len += (size_t)snprintf(found + len, sizeof found - len, ", %s (%s, the %s to walk)",
						mev_dialect_name(seen[k]), ends[k]->name, k ? "newest" : "oldest");
	mev_error_set(MEV_EINVAL, "the releases of '%s' look like more than one dialect: %s; with "
		      "--dialect auto the walk would read them all as %s, and the store would differ from "
		      "'maintevo filemap --repo' for the others", w->opts.user->repo, found,
		      mev_dialect_name(d));
	mev_error_hint("name the dialect: --dialect %s reads every release as HEAD's (give filemap "
		       "--repo the same --dialect), or walk each part into a store of its own with --tags",
		       mev_dialect_name(d));
	return MEV_EINVAL;
}
