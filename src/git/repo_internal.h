/* Inside the git module: the repository handle shared by the files of src/git/. */
#ifndef MEV_REPO_INTERNAL_H
#define MEV_REPO_INTERNAL_H

#include <git2.h>
#include <pthread.h>
#include <zlib.h>
#include "maintevo/commit.h"
#include "maintevo/repo.h"
#include "util/strmap.h"

typedef struct mev__packs mev__packs;

/* Objects kept by id: blobs read lately (mev_repo_read_blob()), the
 * trees of a diff (mev__tree_memo). */
typedef struct {
	mev_strmap idx;       /* oid -> index in v */
	MEV_VEC(mev_buf) v;   /* len 0 and no ptr: moved to the newer generation */
	size_t bytes;
} mev__blob_gen;

/* Free what g holds; g is empty (and usable) again. */
void mev__blob_gen_free(mev__blob_gen *g);

/*
 * What a series of diffs keeps (mev_tree_update(), mev_repo_diff_blobs()):
 * the trees a diff read on its new side, for the next one (a walk diffs
 * release after release, and each diff's old side is the one before's new
 * side; libgit2 caches no tree over 4 kB), gen[0] the diff under way's,
 * gen[1] the last one's; and a reader of the repository's packs (`packs`,
 * set by the caller), through which the trees are read with the cache of
 * delta bases the blobs share (libgit2 took twice as long).
 */
typedef struct {
	mev__blob_gen gen[2];
	struct mev__packs *packs;
	struct mev__pack_reader *rd;
} mev__tree_memo;

void mev__tree_memo_free(mev__tree_memo *m);
/* repo->trees ready for a diff (its packs opened): 0, or MEV_ENOMEM. */
int mev__repo_tree_memo(mev_repo *repo);

struct mev_repo {
	git_repository *git;
	char *path;
	int shallow;          /* a shallow clone: its history stops at .git/shallow */
	char promisor[64];    /* a partial clone: the remote it fetches missing objects from */
	mev__packs *packs;    /* its packs, for reading blobs (opened at the first) */
	int packs_tried;
	pthread_mutex_t lock; /* of packs_tried, reader and recent */
	struct mev__pack_reader *reader; /* mev_repo_read_blob()'s */
	/* what mev_repo_read_blob() read lately, newer and older: a walk
	 * reads the same MAINTAINERS files, get_maintainer.pl and link
	 * targets release after release */
	mev__blob_gen recent[2];
	mev__tree_memo trees; /* of mev_tree_update(), mev_repo_diff_blobs() */
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
 * skipping equal subtrees unread; fn in git's path order.  memo (NULL:
 * none): the trees of the diff before, for one of a series. */
int mev__tree_diff(git_repository *git, mev__tree_memo *memo, const git_oid *ot,
		   const git_oid *nt, mev__tree_diff_fn fn, void *ctx);
/* A recorded diff (mev_repo_diff_record()): 1 when it is of the tree
 * `from` to commit `commit`'s; its new tree; fn for its entries again, in
 * their order (an entry's id points into d). */
int mev__tree_delta_matches(const mev_tree_delta *d, const mev_oid *from, const mev_oid *commit);
const mev_oid *mev__tree_delta_to(const mev_tree_delta *d);
int mev__tree_delta_replay(const mev_tree_delta *d, mev__tree_diff_fn fn, void *ctx);

/*
 * Blobs read from packs directly, keeping every delta base rebuilt as git
 * does (src/git/packread.c).  _open opens the packs of objects directory
 * `objects` and of its alternates (none is no error): 0, or -1 out of
 * memory.  A reader is one thread's; the packs and their cache of bases
 * are shared by the readers.
 */
int mev__packs_open(mev__packs **out, const char *objects);
void mev__packs_free(mev__packs *ps);
size_t mev__packs_count(const mev__packs *ps);
/* The most the cache of delta bases holds (0: the usual 64 MB); what
 * is over it goes now, the least recently used first. */
void mev__packs_cache_limit(mev__packs *ps, size_t bytes);
/* 1 and where oid lies (the pack's number, the offset in it), or 0. */
int mev__packs_where(const mev__packs *ps, const mev_oid *oid, uint32_t *pi, uint64_t *off);
/* The two as one number, the pack's number in the top 16 bits (offsets
 * in a pack are below 2^48); MEV__NOWHERE: in no pack. */
#define MEV__NOWHERE UINT64_MAX
/* repo->packs, opened at the first call (with repo->lock held): 0, or
 * MEV_ENOMEM. */
int mev__repo_packs(mev_repo *repo);
/* Read blob oid of `what`, needed for `why` (for the message; both may
 * be NULL): *data malloc'ed, with a NUL after its *len bytes. */
int mev__repo_read_blob(char **data, size_t *len, mev_repo *repo, const mev_oid *oid, const char *what,
			const char *why);
/* Free what src/git/blobs.c keeps in repo (packs, reader, recent blobs). */
void mev__repo_blobs_free(mev_repo *repo);

typedef struct mev__pack_reader {
	mev__packs *packs;
	z_stream z;
	int zok;
	unsigned char *buf;  /* bytes read from a pack */
	size_t cap, have, data_at;
	unsigned char *out;  /* the blob returned last, unless it is */
	size_t outcap;
	unsigned char *taken; /* a base taken from the cache */
	struct mev__pack_link *chain; /* the deltas being applied */
	size_t nchain;
} mev__pack_reader;

void mev__pack_reader_init(mev__pack_reader *r, mev__packs *ps);
void mev__pack_reader_free(mev__pack_reader *r);
/*
 * Blob `oid` read whole from a pack: 1 and *data (the reader's, valid
 * until its next read, with a NUL after its *len bytes); 0 when this reader leaves it to libgit2 (not in
 * a pack, not a blob, or not read here for any other reason, damage
 * included: libgit2 says what is wrong).
 */
int mev__pack_read_blob(mev__pack_reader *r, const mev_oid *oid, const unsigned char **data,
			size_t *len);
/* The blob at `place` (mev_repo_read_order_at()), as mev__pack_read_blob(). */
int mev__pack_read_blob_at(mev__pack_reader *r, uint64_t place, const unsigned char **data, size_t *len);
/* The same for a tree (the raw object: its entries as git writes them). */
int mev__pack_read_tree(mev__pack_reader *r, const mev_oid *oid, const unsigned char **data,
			size_t *len);

/* mev_repo_range_cut() in a shallow clone (repo->shallow), which libgit2's
 * revision walk cannot do: each cut commit read as one without parents. */
/* mev_repo_descends() in a shallow clone: found by walking back from
 * commit, each cut commit read as one without parents. */
int mev__repo_shallow_descends(mev_repo *repo, const mev_oid *commit, const mev_oid *ancestor);
int mev__repo_shallow_range(mev_oid **out, size_t *n, mev_range_cut *cut, mev_repo *repo,
			    const mev_oid *hide, size_t n_hide, const mev_oid *tip);

#endif
