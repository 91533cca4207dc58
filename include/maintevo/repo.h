/* Read-only access to a git repository: revisions, trees, blobs. */
#ifndef MAINTEVO_REPO_H
#define MAINTEVO_REPO_H

#include <stddef.h>
#include <stdint.h>

/* A SHA-1 object id. */
typedef struct {
	unsigned char id[20];
} mev_oid;

/* Write the 40 hex digits and a NUL into out. */
void mev_oid_fmt(char out[41], const mev_oid *oid);
/* Parse 40 hex digits; returns 0 or MEV_EINVAL. */
int mev_oid_parse(mev_oid *out, const char *hex);
int mev_oid_equal(const mev_oid *a, const mev_oid *b);
int mev_oid_is_zero(const mev_oid *oid);

typedef struct mev_repo mev_repo;

/*
 * Open the repository at `path` (a work tree, a .git directory or a bare
 * repository).  Errors: MEV_ENOTFOUND when `path` is not a repository;
 * MEV_EGIT when it belongs to another user and git's safe.directory does
 * not name it (the hint gives the 'git config' command that does).
 */
int mev_repo_open(mev_repo **out, const char *path);
void mev_repo_free(mev_repo *repo);
/*
 * For commands that read whole trees of blobs (walk, graph, filemap):
 * bound what libgit2 keeps of the repositories this process opens, so
 * that the peak memory does not grow with the pack.  Process-wide; call
 * it after mev_repo_open().
 */
void mev_repo_bound_memory(void);
/* The path the repository was opened with. */
const char *mev_repo_path(const mev_repo *repo);
/* 1 for a shallow clone (git clone --depth, --shallow-since): its history
 * stops at the commits listed in .git/shallow. */
int mev_repo_is_shallow(const mev_repo *repo);
/* For a partial clone (git clone --filter), the remote git fetches the
 * objects it left out from ("origin"); NULL for a full clone. */
const char *mev_repo_promisor(const mev_repo *repo);

/*
 * Resolve `rev` (tag, branch, commit id, any git revision expression) to a
 * commit.  `time` (may be NULL) gets the committer time in seconds since the
 * epoch.  Errors: MEV_ENOTFOUND for an unknown revision, MEV_EINVAL when it
 * does not lead to a commit.
 */
int mev_repo_resolve(mev_oid *out, int64_t *time, mev_repo *repo, const char *rev);

/*
 * The commit branch `name` points at: refs/heads/NAME, else
 * refs/remotes/NAME ("origin/master"), or a full "refs/..." name.  `time`
 * (may be NULL) gets its committer time.  Errors: MEV_ENOTFOUND, with the
 * branches it may be a typo of, or a few of them, in the hint.
 */
int mev_repo_branch(mev_oid *out, int64_t *time, mev_repo *repo, const char *name);

/* A tag and the commit it leads to. */
typedef struct {
	char *name;          /* without "refs/tags/" */
	mev_oid commit;
	int64_t time;        /* committer time of the commit */
} mev_tag;

/* The tags mev_repo_tags() left out: how many, and the first few by name
 * (bytewise; names cut to 127 bytes), for a note that names them. */
#define MEV_TAGS_SKIPPED_NAMED 3
typedef struct {
	size_t n;
	char names[MEV_TAGS_SKIPPED_NAMED][128]; /* the first min(n, MEV_TAGS_SKIPPED_NAMED) */
} mev_tags_skipped;

/*
 * Every tag (lightweight or annotated) peeled to its commit: *out, *n of
 * them.  Tags that do not lead to a commit (a tree, a blob, a missing
 * object) are left out and counted in *skipped (may be NULL), which names
 * the first few.  Free with mev_tag_list_free().
 */
int mev_repo_tags(mev_tag **out, size_t *n, mev_tags_skipped *skipped, mev_repo *repo);
void mev_tag_list_free(mev_tag *tags, size_t n);

/*
 * The root commit reached by following first parents from `commit`.
 * MEV_ENOTFOUND when a shallow clone's history stops on the way (the
 * message names the commit, the hint says 'git fetch --unshallow');
 * MEV_EGIT when a commit cannot be read.
 */
int mev_repo_root(mev_oid *out, mev_repo *repo, const mev_oid *commit);
/* A commit and its committer time. */
typedef struct {
	mev_oid id;
	int64_t time;        /* seconds since the epoch */
} mev_commit_time;

/*
 * The first-parent history of `tip`, newest first: *out[0] is tip, each
 * next one the first parent of the one before, down to a root commit.  In a
 * shallow clone whose history stops on the way, the list ends at the cut
 * (the last commit the clone has) and *cut is 1.  *out is malloc'ed (the
 * caller's).  Errors: MEV_EGIT when a commit cannot be read, MEV_ENOMEM.
 */
int mev_repo_first_parents(mev_commit_time **out, size_t *n, int *cut, mev_repo *repo,
			   const mev_oid *tip);

/* 1 when the repository holds the commit. */
int mev_repo_has_commit(mev_repo *repo, const mev_oid *commit);

/* Read a blob; *data is malloc'ed (NUL-terminated) and the caller's.
 * MEV_ENOTFOUND when the repository lacks it (a partial clone: the hint
 * says how to fetch it). */
int mev_repo_read_blob(char **data, size_t *len, mev_repo *repo, const mev_oid *oid);

/*
 * Count '\n' (into lines[i]) and bytes (into bytes[i]) of n blobs oids[i]
 * with `jobs` threads (0 = one per core).  Each thread opens its own handle
 * on the repository.  `stop`, when not NULL, is polled: a non-zero value
 * makes the call return MEV_EINTR.  A blob the repository lacks (a partial
 * clone) gets UINT64_MAX in both counts.
 */
int mev_repo_measure_blobs(uint64_t *lines, uint64_t *bytes, mev_repo *repo,
			   const mev_oid *oids, size_t n, int jobs, volatile int *stop);
/* The same with where each blob lies (mev_repo_read_order_at()): no
 * lookup in the packs' indexes. */
int mev_repo_measure_at(uint64_t *lines, uint64_t *bytes, mev_repo *repo, const mev_oid *oids,
			const uint64_t *places, size_t n, int jobs, volatile int *stop);

/*
 * The same work shared by threads that come and go: _new sets it up
 * (nothing is read yet; the arrays must live until _end), every thread
 * that calls _work reads blobs not taken by another until none is left,
 * and _end, called once no _work is running any more, returns what
 * failed first (MEV_EGIT, MEV_EINTR) and frees the job.  A walk reads the
 * next release's blobs this way on a thread of its own, and the main
 * thread joins in when it has nothing else to do.
 */
typedef struct mev_measure mev_measure;
int mev_measure_new(mev_measure **out, mev_repo *repo, const mev_oid *oids, size_t n,
		    uint64_t *lines, uint64_t *bytes, volatile int *stop);
void mev_measure_work(mev_measure *m);
int mev_measure_end(mev_measure *m);

/*
 * oids[0..n) put in the order that reads them fastest: by pack, from the
 * end of each pack to its start (git writes the newer versions of a file
 * first and makes the older ones deltas of them: read this way, a base
 * rebuilt for one blob is still in the cache for the next; U-Boot's
 * blobs of 54 releases take 4.3 instead of 5.4 s of CPU), then the
 * blobs in no pack as they came.  Errors: MEV_ENOMEM.
 */
int mev_repo_read_order(mev_repo *repo, mev_oid *oids, size_t n);
/* The same, places[i] (NULL: not asked) getting where oids[i] lies, for
 * mev_repo_measure_at(). */
int mev_repo_read_order_at(mev_repo *repo, mev_oid *oids, uint64_t *places, size_t n);

/* The most the packs' cache of delta bases may hold while reading many
 * blobs in that order (0: back to the usual 64 MB, what is over it freed
 * at once).  Read in pack order, a larger cache saves inflating: U-Boot's
 * 54 releases 3.8 s of CPU with 64 MB, 3.2 s with 128, 2.8 s with 256. */
void mev_repo_read_cache(mev_repo *repo, size_t bytes);

/*
 * fn(ctx, blob) for every blob (file or symbolic link, not a submodule) that
 * commit `to`'s tree adds or changes against commit `from`'s (NULL: every
 * blob of `to`), in git's path order; a non-zero return of fn stops the
 * diff and is returned.  Errors: MEV_EGIT.
 */
int mev_repo_diff_blobs(mev_repo *repo, const mev_oid *from, const mev_oid *to,
			int (*fn)(void *ctx, const mev_oid *blob), void *ctx);

/*
 * A diff between two commits' trees recorded (every entry that differs,
 * both sides), for mev_tree_update_with() to replay instead of reading
 * the trees again.
 */
typedef struct mev_tree_delta mev_tree_delta;
/* mev_repo_diff_blobs() that also records the diff into *rec (NULL: not
 * asked, `from` NULL, or out of memory: nothing is lost but the saving). */
int mev_repo_diff_record(mev_tree_delta **rec, mev_repo *repo, const mev_oid *from, const mev_oid *to,
			 int (*fn)(void *ctx, const mev_oid *blob), void *ctx);
/* The commit diffed to; the bytes it holds. */
const mev_oid *mev_tree_delta_commit(const mev_tree_delta *d);
size_t mev_tree_delta_size(const mev_tree_delta *d);
void mev_tree_delta_free(mev_tree_delta *d);

/* What a tree entry is. */
enum {
	MEV_KIND_FILE = 1,   /* regular or executable blob */
	MEV_KIND_LINK = 2,   /* symbolic link (blob holding the target) */
	MEV_KIND_DIR = 3,
	MEV_KIND_GITLINK = 4 /* submodule commit */
};

/* One blob of a tree (files and symbolic links; never trees or submodules). */
typedef struct {
	const char *path;   /* relative to the root, no leading or trailing '/' */
	uint32_t path_len;
	uint8_t kind;       /* MEV_KIND_FILE or MEV_KIND_LINK */
	uint8_t link_dir;   /* a link that resolves to a directory in this tree */
	uint8_t link_file;  /* a link that resolves to a file in this tree */
	mev_oid oid;
} mev_tree_file;

typedef struct mev_tree mev_tree;

/* List the tree of `commit`: every blob, sorted bytewise by path.  The
 * targets of symbolic links are read: MEV_ENOTFOUND, naming the link, when
 * a partial clone lacks one. */
int mev_tree_load(mev_tree **out, mev_repo *repo, const mev_oid *commit);

/*
 * The tree of `commit` built from `old` and a tree-to-tree diff (unchanged
 * subtrees are skipped by id).  *changed (malloc'ed, one flag per file of
 * the new tree; `changed` may be NULL) marks files added or modified since
 * `old`; *deleted (may be NULL) gets the number of files removed.
 */
int mev_tree_update(mev_tree **out, uint8_t **changed, size_t *deleted, mev_repo *repo,
		    const mev_tree *old, const mev_oid *commit);
/* The same, the diff replayed from `d` when it was recorded from old's
 * tree to commit's (else, or d NULL, diffed). */
int mev_tree_update_with(mev_tree **out, uint8_t **changed, size_t *deleted, mev_repo *repo,
			 const mev_tree *old, const mev_oid *commit, const mev_tree_delta *d);
void mev_tree_free(mev_tree *tree);
size_t mev_tree_count(const mev_tree *tree);
/* The id of the git tree it lists. */
const mev_oid *mev_tree_id(const mev_tree *tree);
/* The files, sorted by path; valid as long as the tree. */
const mev_tree_file *mev_tree_files(const mev_tree *tree);
/* Index of the file at `path`, or -1. */
int64_t mev_tree_find(const mev_tree *tree, const char *path, size_t len);

/*
 * What `path` names in the tree once symbolic links are followed, as stat(2)
 * would see it in a checkout: MEV_KIND_FILE, MEV_KIND_DIR (submodules and the
 * root count as directories) or 0 when it does not exist, leaves the tree, or
 * loops.  Handles "", ".", ".." and repeated '/' like the kernel does.
 */
int mev_tree_stat(const mev_tree *tree, const char *path, size_t len);

/*
 * Check that the file at `path` (links followed) can be read: 0 when its
 * blob is in the repository or when the tree has no such file;
 * MEV_ENOTFOUND when the repository lacks it (a partial clone, or damage),
 * the message naming `path` and saying `why` it is needed (may be NULL),
 * the hint how to fetch it.
 */
int mev_tree_need(mev_repo *repo, const mev_tree *tree, const char *path, const char *why);

/* Like mev_tree_stat(); when `real` is not NULL it gets the path reached
 * (malloc'ed; NULL when the result is 0). */
int mev_tree_resolve(char **real, const mev_tree *tree, const char *path, size_t len);

#endif
