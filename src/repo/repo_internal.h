/* Inside the repo module: the repository handle shared by src/repo.c and src/repo/. */
#ifndef MEV_REPO_INTERNAL_H
#define MEV_REPO_INTERNAL_H

#include <git2.h>
#include "maintevo/repo.h"

struct mev_repo {
	git_repository *git;
	char *path;
	int shallow;          /* a shallow clone: its history stops at .git/shallow */
	char promisor[64];    /* a partial clone: the remote it fetches missing objects from */
};

/* libgit2's last error as `code`, the message "what: libgit2's message". */
int mev__repo_git_fail(int code, const char *what);

/*
 * Why git_repository_open_ext() (which returned git_rc) could not open
 * `path`: a repository of another user that git refuses ("dubious
 * ownership", with the safe.directory hint), or not a repository.
 * Returns MEV_EGIT or MEV_ENOTFOUND with the message and hint set.
 */
int mev__repo_open_failed(const char *path, int git_rc);

/* Find out whether repo is a shallow or a partial clone (repo->shallow,
 * repo->promisor). */
void mev__repo_inspect(mev_repo *repo);

/*
 * The repository lacks blob `oid` of `what` (such as "symbolic link
 * 'docs/x'"; NULL: not known): MEV_ENOTFOUND, the message saying so (a partial clone, or
 * damage) and `why` it matters (NULL: not said), the hint how to fetch it.
 */
int mev__repo_missing_blob(const mev_repo *repo, const mev_oid *oid, const char *what,
			   const char *why);

/* An entry of a git tree, read in place from the raw object. */
typedef struct {
	const char *name;         /* not NUL-terminated */
	size_t name_len;
	uint32_t raw_mode;        /* as written */
	uint32_t mode;            /* as libgit2 reads it (git_tree_entry_filemode()) */
	const git_oid *id;
} mev__tree_entry;

/* 1 when e names a tree (its mode says a folder). */
int mev__tree_entry_is_tree(const mev__tree_entry *e);

/*
 * Called for each entry that is not a tree and differs between two trees:
 * `path` from the root, o the old entry (NULL: added), n the new one (NULL:
 * deleted); an entry that turns from a tree into something else or back is
 * deleted and added.  A non-zero return stops the diff and is returned.
 */
typedef int (*mev__tree_diff_fn)(void *ctx, const char *path, size_t len,
				 const mev__tree_entry *o, const mev__tree_entry *n);
/* Diff the trees ot and nt (either NULL: empty) as `git diff-tree -r` does,
 * skipping equal subtrees unread; fn in git's path order. */
int mev__tree_diff(git_repository *git, const git_oid *ot, const git_oid *nt,
		   mev__tree_diff_fn fn, void *ctx);

#endif
