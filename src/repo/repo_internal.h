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

#endif
