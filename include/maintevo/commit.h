/* Commits of a repository: ranges, their metadata, the paths they change, .mailmap. */
#ifndef MAINTEVO_COMMIT_H
#define MAINTEVO_COMMIT_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/repo.h"

/*
 * The commits reachable from `tip` and from none of `hide` (n_hide of
 * them; may be 0), as 'git rev-list --topo-order --reverse HIDE..TIP'
 * lists them: every commit after its parents.  *out (malloc'ed, the
 * caller's) gets *n ids.  Errors: MEV_EGIT (a commit cannot be read: a
 * shallow clone's history ends, or damage), MEV_ENOMEM.
 */
int mev_repo_range(mev_oid **out, size_t *n, mev_repo *repo, const mev_oid *hide, size_t n_hide,
		   const mev_oid *tip);

/* What a range of a shallow clone left out at the cut. */
typedef struct {
	uint64_t commits;    /* commits of the range whose parents the clone lacks (listed in
			      * .git/shallow): what they changed cannot be known */
	int64_t time;        /* the latest author or committer time of those: the history
			      * is whole after it (INT64_MIN: none) */
} mev_range_cut;

/*
 * mev_repo_range(), in a shallow clone too: there the walk stops at the
 * cut, the commits at the cut are left out of *out and counted in *cut,
 * and hidden commits the clone lacks hide nothing (the commits before
 * them are not in the clone either); *out lists every commit after its
 * parents, though not in git's order of equal commits.  In a whole clone
 * it is mev_repo_range() and *cut says nothing was left out.
 */
int mev_repo_range_cut(mev_oid **out, size_t *n, mev_range_cut *cut, mev_repo *repo,
		       const mev_oid *hide, size_t n_hide, const mev_oid *tip);

/* 1 when `commit` descends from `ancestor` (is not it, and has it in its
 * history: 'git merge-base --is-ancestor ANCESTOR COMMIT' with the two
 * different), 0 when not; MEV_EGIT when a commit cannot be read. */
int mev_repo_descends(mev_repo *repo, const mev_oid *commit, const mev_oid *ancestor);

/* One person of a commit header (author or committer). */
typedef struct {
	char *name;          /* bytes as in the commit (not checked for UTF-8) */
	char *email;
	int64_t time;        /* seconds since the epoch */
	int offset;          /* minutes east of UTC */
} mev_signature;

/* What a commit holds besides its tree. */
typedef struct {
	mev_oid id;
	mev_oid tree;
	mev_oid *parents;    /* n_parents of them, in order */
	size_t n_parents;
	mev_signature author, committer;
	char *message;       /* the raw message, NUL-terminated (may hold other NULs) */
	size_t message_len;
} mev_commit;

/* Read commit `id` into *out (cleared first; free with mev_commit_clear(),
 * also after a failure).  Errors: MEV_EGIT when it cannot be read. */
int mev_commit_read(mev_commit *out, mev_repo *repo, const mev_oid *id);
void mev_commit_clear(mev_commit *c);

/* One path a commit changes against a parent. */
typedef struct {
	const char *path;    /* no leading '/', NUL-terminated */
	uint32_t path_len;
	char status;         /* 'A' added, 'D' deleted, 'M' modified (content or mode) */
	uint8_t link;        /* a symbolic link on either side */
	uint32_t added, removed; /* lines, when asked for (MEV_CHANGES_CHURN) */
	mev_oid oid;         /* the blob on the commit's side (zero when deleted) */
} mev_change;

typedef struct {
	mev_change *v;       /* sorted bytewise by path */
	size_t n;
	void *mem_;          /* owns the paths */
} mev_change_list;

enum {
	MEV_CHANGES_CHURN = 1  /* count the lines added and removed of every changed text blob */
};

/*
 * The files (blobs and symbolic links; submodules left out) that differ
 * between the trees of `parent` (NULL: the empty tree, for a root commit)
 * and `commit`, as 'git diff-tree -r --no-renames' lists them: a path
 * whose type changes between file and directory is deleted on one side
 * and added on the other.  Unchanged subtrees are skipped by id.  Free
 * with mev_change_list_free() (also after a failure).  Errors: MEV_EGIT,
 * MEV_ENOTFOUND (a blob is missing, with MEV_CHANGES_CHURN), MEV_ENOMEM.
 */
int mev_commit_changes(mev_change_list *out, mev_repo *repo, const mev_oid *parent,
		       const mev_oid *commit, unsigned flags);
void mev_change_list_free(mev_change_list *l);

/*
 * What `path` is in the tree of `commit`, without following symbolic
 * links: MEV_KIND_FILE, MEV_KIND_LINK, MEV_KIND_DIR, MEV_KIND_GITLINK, or 0
 * when absent.  Negative MEV_EGIT when the commit cannot be read.
 */
int mev_commit_path_kind(mev_repo *repo, const mev_oid *commit, const char *path);

/*
 * The script's directory test (Perl's -d) for path[0..len) in the tree of
 * `commit`, without reading the tree whole: 1 a directory (a submodule
 * too, as in a checkout), 0 not; 2 when the answer needs mev_tree_stat()
 * (a symbolic link on the way, a "." or ".." or empty component);
 * negative MEV_EGIT when a tree cannot be read.
 */
int mev_commit_is_dir(mev_repo *repo, const mev_oid *commit, const char *path, size_t len);

/* The bytes of the file `path` of the tree of `commit` into *data
 * (malloc'ed, NUL-terminated).  MEV_ENOTFOUND (no message) when the tree
 * has no such blob. */
int mev_commit_read_file(char **data, size_t *len, mev_repo *repo, const mev_oid *commit,
			 const char *path);

/*
 * Bound the memory libgit2 keeps of the commits and trees it has parsed
 * (process-wide; its default is 256 MB): less resident memory, at the cost
 * of reading again trees that are read more than once.  Trees of up to 1 MB
 * are cached (libgit2 keeps none over 4 kB by default).
 */
void mev_commit_cache_limit(size_t bytes);

/*
 * Empty libgit2's cache of parsed objects when it holds more than `bytes`,
 * by opening the repository again: once the cache is full, libgit2 evicts
 * by scanning its map from the start for every object it adds, which costs
 * more than reading the objects again.  No libgit2 object of repo may be
 * alive (call it between commits).  Errors: MEV_EGIT.
 */
int mev_repo_trim_cache(mev_repo *repo, size_t bytes);

/* A .mailmap: who is who. */
typedef struct mev_mailmap mev_mailmap;

/* Parse .mailmap content (git's format; NULL/0: an empty map).  As git,
 * a line it cannot parse is ignored, and a NUL byte ends its line.
 * Errors: MEV_EGIT, MEV_ENOMEM. */
int mev_mailmap_new(mev_mailmap **out, const char *data, size_t len);
void mev_mailmap_free(mev_mailmap *mm);
/*
 * The real name and email of `name` <`email`> as git's mailmap gives them
 * (either may stay as given).  The results point into mm or into the
 * arguments.  mm may be NULL (nothing changes).
 */
void mev_mailmap_resolve(const char **real_name, const char **real_email, const mev_mailmap *mm,
			 const char *name, const char *email);

#endif
