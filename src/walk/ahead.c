/*
 * The next release's tree, diffed from the current one's on a thread of
 * its own while the current release's blobs are read (walk_internal.h).
 */
#include "walk_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

static int diff_ahead(void *ctx)
{
	mev__walk_ahead *a = ctx;
	return mev_tree_update(&a->tree, &a->changed, NULL, a->repo, a->old, &a->commit);
}

void mev__walk_ahead_start(mev__walk_ahead *a, const char *path, const mev_tree *old,
			   const mev_oid *commit)
{
	mev__walk_ahead_drop(a);
	/* a handle of its own: libgit2's repository is not shared between threads */
	if (!a->repo && mev_repo_open(&a->repo, path)) {
		mev_error_clear();
		a->repo = NULL;
		return;
	}
	a->old = old;
	a->commit = *commit;
	a->started = 1;
	mev__walk_async_start(&a->job, diff_ahead, a);
}

int mev__walk_ahead_take(mev__walk_ahead *a, mev_tree **tree, uint8_t **changed,
			 const mev_tree *old, const mev_oid *commit)
{
	int ok = a->started && a->old == old && mev_oid_equal(&a->commit, commit);
	if (!ok) {
		mev__walk_ahead_drop(a);
		return 0;
	}
	a->started = 0;
	if (mev__walk_async_join(&a->job))
		return 0; /* diffed again by the caller, which reports what fails */
	*tree = a->tree;
	*changed = a->changed;
	a->tree = NULL;
	a->changed = NULL;
	return 1;
}

void mev__walk_ahead_drop(mev__walk_ahead *a)
{
	if (a->started)
		mev__walk_async_join(&a->job);
	a->started = 0;
	mev_tree_free(a->tree);
	free(a->changed);
	a->tree = NULL;
	a->changed = NULL;
}

void mev__walk_ahead_free(mev__walk_ahead *a)
{
	mev__walk_ahead_drop(a);
	mev_repo_free(a->repo);
	a->repo = NULL;
}
