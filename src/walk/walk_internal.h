/* Shared by src/walk.c and src/walk/: the walk of clones that lack something. */
#ifndef MEV_WALK_INTERNAL_H
#define MEV_WALK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/maintainers.h"
#include "maintevo/repo.h"

/*
 * Besides the symbolic links (read with the tree), the files whose content
 * decides a release's result: the get_maintainer.pl and the
 * .get_maintainer.conf its rules come from, and its MAINTAINERS files
 * (src, nsrc).  MEV_ENOTFOUND, naming the file, when the repository lacks
 * one of them (a partial clone): the release is not computed.
 */
int mev__walk_need_blobs(mev_repo *repo, const mev_tree *tree, const mev_maint_source *src,
			 size_t nsrc);

/* The store's root commit is not in `repo`: MEV_ESTORE, the message and
 * hint for a shallow clone (`path`: as given, `store`: the store's
 * directory), or 0 when it is not one. */
int mev__walk_shallow_root(mev_repo *repo, const mev_oid *root, const char *path,
			   const char *store);

/* The note about `n` blobs of release `tag` the repository lacks (counted
 * as 0 lines), `path` the first of them. */
void mev__walk_missing_note(char *out, size_t size, const mev_repo *repo, const char *tag,
			    uint64_t n, const char *path);

#endif
