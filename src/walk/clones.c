/*
 * The walk of clones that lack something (docs/walking.md, "Odd
 * repositories"): a partial clone must hold the blobs that decide a
 * release's result, a shallow clone the store's root commit.
 */
#include "walk_internal.h"
#include "maintevo/error.h"

#include <stdio.h>

int mev__walk_need_blobs(mev_repo *repo, const mev_tree *tree, const mev_maint_source *src,
			 size_t nsrc, const mev_maint_source *had, size_t nhad)
{
	/* all the places the script may read, whether or not it does */
	static const char *const rules[] = { "scripts/get_maintainer.pl", ".get_maintainer.conf",
					     ".scripts/.get_maintainer.conf" };
	mev_strmap before = MEV_STRMAP_INIT; /* the blobs of `had` */
	int rc = 0;
	for (size_t i = 0; i < sizeof rules / sizeof *rules && !rc; i++)
		rc = mev_tree_need(repo, tree, rules[i], "the rules of the release come from it");
	for (size_t i = 0; i < nhad && !rc; i++)
		if (mev__strmap_put(&before, (const char *)had[i].oid.id, sizeof had[i].oid.id, 1))
			rc = mev_error_oom();
	for (size_t i = 0; i < nsrc && !rc; i++)
		if (mev__strmap_get(&before, (const char *)src[i].oid.id, sizeof src[i].oid.id) < 0)
			rc = mev_tree_need(repo, tree, src[i].path, "it lists the sections");
	mev__strmap_free(&before);
	return rc;
}

int mev__walk_shallow_root(mev_repo *repo, const mev_oid *root, const char *path,
			   const char *store)
{
	char hex[41];
	if (!mev_repo_is_shallow(repo))
		return 0;
	mev_oid_fmt(hex, root);
	mev_error_set(MEV_ESTORE, "'%s' is a shallow clone without commit %.12s, the root of the "
		      "history in store '%s'", path, hex, store);
	mev_error_hint("fetch the whole history: 'git -C %s fetch --unshallow'", path);
	return MEV_ESTORE;
}

void mev__walk_missing_note(char *out, size_t size, const mev_repo *repo, const char *tag,
			    uint64_t n, const char *path)
{
	snprintf(out, size, "%s: %llu blob%s missing from the repository (%s), counted as 0 lines: "
		 "'%s'%s", tag, (unsigned long long)n, n == 1 ? "" : "s",
		 mev_repo_promisor(repo) ? "a partial clone; docs/walking.md says how to fetch them"
					 : "is it damaged? see 'git fsck'", path, n > 1 ? " and others" : "");
}
