/* Shared by the files of src/walk/: the walker and its threads (storing, diffing ahead), clones that lack something, the stored releases the walk knows of. */
#ifndef MEV_WALK_INTERNAL_H
#define MEV_WALK_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "maintevo/filemap.h"
#include "maintevo/maintainers.h"
#include "maintevo/match.h"
#include "maintevo/release.h"
#include "maintevo/repo.h"
#include "maintevo/store.h"
#include "maintevo/tags.h"
#include "maintevo/calendar.h"
#include "maintevo/tags.h"
#include "maintevo/walk.h"
#include "util/buf.h"
#include "util/strmap.h"

/*
 * Besides the symbolic links (read with the tree), the files whose content
 * decides a release's result: the get_maintainer.pl and the
 * .get_maintainer.conf its rules come from, and its MAINTAINERS files
 * (src, nsrc).  MEV_ENOTFOUND, naming the file, when the repository lacks
 * one of them (a partial clone): the release is not computed.  A file
 * whose blob is one of had's (the release before's MAINTAINERS files) is
 * not looked for again: a walk looked for it then.
 */
int mev__walk_need_blobs(mev_repo *repo, const mev_tree *tree, const mev_maint_source *src,
			 size_t nsrc, const mev_maint_source *had, size_t nhad);

/* The store's root commit is not in `repo`: MEV_ESTORE, the message and
 * hint for a shallow clone (`path`: as given, `store`: the store's
 * directory), or 0 when it is not one. */
int mev__walk_shallow_root(mev_repo *repo, const mev_oid *root, const char *path,
			   const char *store);

/* The note about `n` blobs of release `tag` the repository lacks (counted
 * as 0 lines), `path` the first of them. */
void mev__walk_missing_note(char *out, size_t size, const mev_repo *repo, const char *tag,
			    uint64_t n, const char *path);

/* A stored release as the walk needs it. */
typedef struct {
	char *tag;
	mev_oid commit;
	int64_t time;        /* its commit's committer time */
	uint8_t has_files;
	uint32_t rules_version;
	uint32_t rank;       /* its place in the order of the store and the walk */
	uint8_t gone;        /* a snapshot whose commit is no longer on its branch
			      * (rewritten), set by mev__walk_snapshots */
} mev__stored_rel;

/*
 * The stored releases in the store's order (mev_release_order: tags by
 * version, snapshots by date, merged by date), loaded once and kept up to
 * date as the walk stores releases: finding a tag or its neighbours is a
 * binary search, not a listing of the store (which decodes every record:
 * a walk of n new tags cost O(n^2) that way).  The order is that of the
 * stored releases and the walk's together (mev__stored_order), by rank.
 */
typedef struct {
	mev__stored_rel *v;
	size_t n, cap;
	mev_strmap ranks;    /* name -> rank, for the stored and the walk's releases */
} mev__stored_list;

/* Load the releases of `s` (errors as mev_release_list()). */
int mev__stored_load(mev__stored_list *l, mev_store *s);
void mev__stored_free(mev__stored_list *l);
/* Rank the stored releases and the walk's work[0..n) together, and put
 * both in that order.  Errors: MEV_ENOMEM. */
int mev__stored_order(mev__stored_list *l, const mev_tag **work, size_t n);
/* The index of the first release not older than `tag` (l->n when none);
 * tag is stored or one of the walk's. */
size_t mev__stored_pos(const mev__stored_list *l, const char *tag);
/* The release `tag`, or NULL. */
const mev__stored_rel *mev__stored_find(const mev__stored_list *l, const char *tag);
/* `tag` (one of the walk's) is stored now (with its file table): added, or
 * updated in place.  Errors: MEV_ENOMEM. */
int mev__stored_put(mev__stored_list *l, const char *tag, const mev_oid *commit,
		    uint32_t rules_version);

/* Which snapshots of a branch a walk takes (src/walk/snapshots.c). */
typedef struct {
	const char *branch;
	mev_every every;
	int64_t since, until; /* first seconds of days (UTC), 0: from the first commit, to now */
	int64_t now;
	int same_since;       /* since is the one the store's snapshots were taken from */
} mev__snap_plan;

/*
 * The snapshots of o->snap.branch, one per period that has a commit on or
 * before its end, from the period of the branch's first commit (its root)
 * to the period of --until or of now, whichever is earlier, oldest first
 * (when the branch did not move since the newest of them in `stored`, those
 * stored and the new periods, without reading the history), as tags named
 * "<branch>@YYYY-MM-DD" (free with mev_tag_list_free()).  Commits dated
 * before one they follow are noted (how many, which).  Errors:
 * MEV_ENOTFOUND for an unknown branch or a shallow clone's history that
 * stops after the first period, both with a hint; MEV_EGIT, MEV_ENOMEM.
 * The stored snapshots of the branch whose commit is no longer on its
 * first-parent history (a rewritten branch) are marked `gone` in `stored`.
 */
struct mev__walk_opts;
int mev__walk_snapshots(mev_tag **out, size_t *n, const struct mev__walk_opts *o, mev_repo *repo,
			mev__stored_list *stored);

/*
 * fn(ctx) run on a thread of its own, so that the caller can go on with
 * other work (the walk stores a release while it computes the next); when
 * no thread can be started, fn runs before _start returns.  _wait joins
 * the thread and returns fn's result, with its message and hint moved to
 * the calling thread; 0 when nothing is pending.  _join is _wait leaving
 * the calling thread's message as it is.
 */
typedef struct {
	pthread_t th;
	int pending, running;
	int (*fn)(void *ctx);
	void *ctx;
	int rc;
	char msg[2048], hint[2048]; /* as long as error.c keeps them */
} mev__walk_async;

void mev__walk_async_start(mev__walk_async *a, int (*fn)(void *ctx), void *ctx);
int mev__walk_async_wait(mev__walk_async *a);
int mev__walk_async_join(mev__walk_async *a);

/* Blob sizes measured for a release, written with it. */
typedef struct {
	mev_oid oid;
	uint64_t lines, bytes;
} mev__blob_size;

typedef MEV_VEC(mev__blob_size) mev__blob_vec;
typedef MEV_VEC(mev_oid) mev__oid_vec;

/* The sizes of the blobs a release adds or changes, by oid: v[0..known)
 * known before (the store, this walk), the rest measured for it. */
typedef struct {
	mev_strmap idx;      /* oid -> index in v (UINT32_MAX: not here) */
	mev__blob_vec v;
	size_t known;
	uint64_t bytes_read; /* of the measured ones */
} mev__walk_sizes;

void mev__walk_sizes_clear(mev__walk_sizes *z);
/* 1 and the sizes of blob oid, or 0 when z does not hold it. */
int mev__walk_sizes_get(const mev__walk_sizes *z, const mev_oid *oid, uint64_t *lines,
			uint64_t *bytes);

/* The most sizes the threads ahead keep in memory (two generations of
 * half as many), and so the most the reading before the walk hands them. */
enum { MEV__WALK_SIZES_KEPT = 1 << 20 };

/* Sizes measured by this walk, one generation of them. */
typedef struct {
	mev_strmap idx;      /* oid -> index in v */
	mev__blob_vec v;
} mev__walk_gen;

/*
 * The next release's MAINTAINERS as the thread ahead prepares them (ok):
 * its rules and sources and, when these differ from the release before's
 * (or those are not known), its sections and their matcher.
 */
typedef struct {
	int ok;
	mev_rules rules;
	mev_maint_source *src;
	size_t nsrc;
	mev_maint *maint;     /* NULL: as the release before's, not parsed */
	mev_matcher *matcher;
} mev__walk_prep;

void mev__walk_prep_clear(mev__walk_prep *p);
int mev__walk_sources_equal(const mev_maint_source *a, size_t na, const mev_maint_source *b,
			    size_t nb);
/* The matcher of m, each distinct pattern compiled once in the walk
 * (*pool): the pool is dropped for a new one when it holds far more
 * patterns than a release uses (a matcher keeps the pool it came from). */
int mev__walk_matcher(mev_matcher **out, mev_maint *m, mev_pattern_pool **pool);
/* When *maint could not be read at all (Zephyr's bad YAML) and the release
 * before has sections (prev): *maint and *matcher become a copy of prev's
 * (the writer may still read prev) with a new matcher (pooled unless pool
 * is NULL).  Otherwise nothing changes. */
int mev__walk_carry(mev_maint **maint, mev_matcher **matcher, const mev_maint *prev,
		    mev_pattern_pool **pool);

/*
 * The diffs the reading before the walk made, recorded
 * (mev_repo_diff_record()) for the walk to replay instead of reading the
 * same trees a second time (U-Boot with candidates: 0.6 s of CPU): by the
 * commit diffed to, at most MEV__WALK_DELTAS_KEPT bytes of them (a longer
 * history's other releases are diffed again).  _take hands one over (the
 * caller frees it), or NULL: taken by the thread ahead, or by the main
 * thread while that does not run.
 */
enum { MEV__WALK_DELTAS_KEPT = 64 << 20 };
typedef struct {
	MEV_VEC(mev_tree_delta *) v;
	mev_strmap idx;       /* commit -> index in v */
	size_t bytes;
} mev__walk_deltas;

mev_tree_delta *mev__walk_deltas_take(mev__walk_deltas *d, const mev_oid *commit);
void mev__walk_deltas_clear(mev__walk_deltas *d);

/* A release prepared ahead: diffed from `old` (the tree of the release
 * before), the sizes of the blobs it adds or changes, its MAINTAINERS. */
typedef struct {
	mev_oid commit;
	const mev_tree *old;
	mev_tree *tree;
	uint8_t *changed;
	mev__walk_sizes sizes;
	mev__walk_prep prep;
	int failed;           /* the main thread computes it, and starts again after it */
} mev__walk_next;

/* Releases kept ready: with 2 the main thread waited a little more
 * (U-Boot with candidates 6.35 -> 6.24 s wall with 4, A/B medians of 5). */
enum { AHEAD_DEPTH = 4 };

/*
 * The next releases ahead (src/walk/ahead.c): a thread with a repository
 * handle of its own takes list[0..n) in turn, each diffed from the tree it
 * made before (the first from `base`), then the sizes of the blobs it adds
 * or changes: those this walk measured or read already, those the store
 * knows (`view`), and the others read through `main_repo`'s packs; then
 * its MAINTAINERS (mev__walk_prep, with `ro` and the walk's pattern pool,
 * which no other thread uses while it runs), parsed only when their rules
 * or sources differ from the release before's (`rules`, `src`, `nsrc`:
 * base's, or NULL when not known).  It keeps at most AHEAD_DEPTH releases
 * ready.  _init once (view: taken, NULL to trust the store with nothing;
 * help: the main thread joins the reading in _take).  _start begins
 * (dropping what runs; nothing when the repository at `path` cannot be
 * opened again); base and the trees taken must live until the release
 * after each is taken or dropped.  _note hands it the sizes the caller
 * measured itself (taken: *measured is emptied).  _take hands over the
 * tree, its changed flags (mev_tree_update), the sizes and the
 * MAINTAINERS of the next release
 * when it is `commit` diffed from `old`: 1; else 0 (all dropped), and the
 * caller diffs itself.  _drop stops the thread and forgets what it made;
 * _free also closes the handle and the view.
 */
typedef struct {
	int inited, help;
	mev_repo *repo, *main_repo;
	mev_store_view *view;
	volatile int *stop;
	mev_rules_options ro;
	mev_pattern_pool **pool;
	mev__walk_deltas *deltas;        /* the diffs recorded before the walk, or NULL */
	mev__walk_gen gen[2];            /* sizes measured: newer, older (the thread's) */
	/* the list and the thread's place in it */
	const mev_tree *base;
	const mev_tag *const *list;
	size_t n;
	int since_ok;                    /* the rules and sources of the release before */
	mev_rules since_rules;
	mev_maint_source *since_src;
	size_t since_nsrc;
	pthread_t th;
	int running;
	/* under mu */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int quit, ended;
	size_t made, taken;              /* releases made ready, handed over */
	mev__walk_next slot[AHEAD_DEPTH]; /* release i in slot[i % AHEAD_DEPTH] */
	mev__blob_vec inbox;             /* from _note */
	mev_measure *measuring;          /* the reading the main thread may join */
	int helpers;
} mev__walk_ahead;

void mev__walk_ahead_init(mev__walk_ahead *a, mev_repo *main_repo, mev_store_view *view,
			  volatile int *stop);
void mev__walk_ahead_start(mev__walk_ahead *a, const char *path, const mev_tree *base,
			   const mev_rules *rules, const mev_maint_source *src, size_t nsrc,
			   const mev_tag *const *list, size_t n, mev__blob_vec *measured);
void mev__walk_ahead_note(mev__walk_ahead *a, mev__blob_vec *measured);
int mev__walk_ahead_take(mev__walk_ahead *a, mev_tree **tree, uint8_t **changed,
			 mev__walk_sizes *sizes, mev__walk_prep *prep, const mev_tree *old,
			 const mev_oid *commit);
void mev__walk_ahead_drop(mev__walk_ahead *a);
void mev__walk_ahead_free(mev__walk_ahead *a);

/* --- the walker (src/walk/walk.c; storing a release: src/walk/write.c) --- */

/*
 * What the user asked, as the walk applies it (src/walk/opts.c): the
 * caller's options and what is settled of them once, before the first
 * release is walked: the branch's snapshots (mev__walk_check_identity,
 * against the store's identity) and the dialect with the rules options
 * every release is read with (mev__walk_opts_settle, from
 * mev__walk_choose).  Read-only from then on: what walks releases takes
 * it const.
 */
typedef struct mev__walk_opts {
	const mev_walk_options *user; /* as passed to mev_walk(), never written */
	mev__snap_plan snap;          /* the branch's snapshots, when snap.branch */
	mev_dialect dialect;          /* as asked, as stored, or detected */
	mev_rules_options rules;      /* user->rules with that dialect and the store's
				       * top_level_only and files_as: what mev_rules_detect() takes */
	mev_rules files_as;           /* the store's --files-as release's rules (rules.files_as
				       * points here), when it has one */
} mev__walk_opts;

/* The dialect and the rules options of every release: the user's rules
 * options with dialect `d` and the store's `top_level_only`.  Once, before
 * the first release is walked. */
void mev__walk_opts_settle(mev__walk_opts *o, mev_dialect d, int top_level_only);
/* With the store's --files-as release `rev`: its rules, which every release's
 * MAINTAINERS files are found by (after mev__walk_opts_settle).  Errors: as
 * mev_rules_files_as(). */
int mev__walk_opts_files_as(mev__walk_opts *o, mev_repo *repo, const char *rev);

/*
 * --since and --until (of w->user) against the calendar and the clock
 * (src/walk/choose.c): the period of kind `every` (-1: not known yet) that
 * holds each must end by 9999-12-31, the last day a snapshot's name can
 * hold; --since must not be after now.  When `say`, a note that an --until
 * after now stops at now's period (no period to come is stored).  Checked
 * before a store is made, and again with the store's period.  Errors:
 * MEV_EINVAL with a hint.
 */
int mev__walk_check_dates(const mev__walk_opts *w, int every, int say);

/*
 * With --dialect auto and no dialect in the store: the oldest and the
 * newest of work[0..n) look like the dialect HEAD does (w->opts.dialect,
 * settled): 0; else MEV_EINVAL naming what each looks like, with a hint
 * (src/walk/dialects.c).  A tree that cannot be read is not judged.
 */
struct mev__walker;
int mev__walk_check_dialects(const struct mev__walker *w, const mev_tag *const *work, size_t n);

/* A notice through the caller's progress.note (the user's callback): any
 * file of the walk may give one (src/walk/opts.c). */
void mev__walk_note(const mev__walk_opts *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* What is kept of the previous release while walking. */
typedef struct {
	char *tag;
	mev_oid commit;
	mev_tree *tree;
	mev_rules rules;
	mev_maint *maint;
	mev_matcher *matcher;
	mev_maint_source *src;
	size_t nsrc;
	mev_filemap *fm;
	uint8_t *changed;    /* per file of tree: added or modified since tree `since` */
	mev_oid since;
	char missing[512];   /* a note about blobs the repository lacks */
} mev__walk_state;

/* What one release's transaction writes. */
typedef struct mev__walker mev__walker;
typedef struct {
	mev__walker *w;
	const mev_tag *tag;
	const mev__walk_state *prev, *cur;
	const char *succ;    /* the stored release after it, or NULL */
	mev__blob_vec *blobs; /* the blob sizes measured for it (the writer sorts them) */
	int set_id;          /* the first release: the store's identity with it */
	int same;            /* the commit of the release before: stored as a repeat of it */
	/* its health record, encoded on a thread of its own meanwhile */
	mev_release_input hin;
	mev__walk_async health;
	int health_on, health_rc, health_waited;
	void *health_data;
	size_t health_len;
} mev__release_write;

/*
 * The walk's state: what it opened, where it is, what it stores.  Written
 * by the main thread as the walk goes (open_walk, the choice, each
 * release), but for what the writer thread reads of the release it stores
 * (pending, writing, retired: not changed until mev__walk_settle) and the
 * thread ahead's own state (ahead: through its calls only).
 */
typedef struct {
	mev_walk_result *res; /* the caller's, counted as the walk goes */
	mev_repo *repo;
	mev_store *store;
	int lockfd;          /* the writer's lock, -1 when not taken */
	mev_identity id;     /* the store's: read by open_walk, checked and completed by
			      * mev__walk_check_identity, its root and dialect set with
			      * the first release stored */
	int have_id;         /* the store has it (a release is stored) */
	int id_dirty;        /* the identity changed (a branch added): written with the next release */
	mev__stored_list stored; /* the stored releases, and each walked one once stored */
	const mev_tag *const *work; /* the releases to walk, work[at] now */
	size_t nwork, at;
	mev__blob_vec blobs; /* the sizes measured for the current release, stored with it */
	size_t bad_blobs;    /* damaged blob sizes met */
	int preread;         /* the blobs were read before the walk */
	/* the release being stored while the next is computed: its write,
	 * the state its file table is a delta against (freed once written),
	 * its tag and blob sizes */
	mev__walk_async writer;
	mev__release_write pending;
	mev__walk_state retired;
	char *pending_succ;
	mev__blob_vec pending_blobs;
	mev__walk_state writing; /* what the writer reads of the release it stores: the
				  * pointers of the walk's state then (the walk moves
				  * them on, and frees nothing, until it settles) */
	mev__walk_ahead ahead; /* the next releases' trees, blob sizes and MAINTAINERS */
} mev__walk_run;

/*
 * What the walk keeps so as not to read or build a thing twice, and who
 * writes each: deltas, the reading before the walk (each then taken once,
 * by the thread ahead or the main thread); sizes, the main thread, with
 * what the thread ahead hands over; measured, the main thread (the
 * reading before the walk, the blobs it reads itself), emptied into the
 * thread ahead; view, opened by start_ahead and read by the main thread
 * while the writer holds the store; memo, the writer's health record,
 * from one release to the next; pool, the main thread, or the thread
 * ahead while it runs.
 */
/* Which stored table is a delta against which, the writer's (src/walk/bases.c). */
typedef struct {
	mev_release_base *v;     /* as committed, when loaded */
	size_t n, cap;
	int loaded;
	int loaded_now;          /* read inside the transaction that is open */
	int open;                /* a transaction began and was not committed */
	MEV_VEC(mev_release_base) pending; /* the open transaction's changes (base NULL: none) */
} mev__walk_bases;

typedef struct {
	mev_store_view *view;    /* blob sizes while the writer works (the store is its) */
	mev__walk_deltas deltas; /* the diffs of the reading before the walk */
	mev__walk_sizes sizes;   /* the current release's, from ahead */
	mev__blob_vec measured;  /* sizes measured here, not ahead: for ahead */
	mev_release_memo *memo;  /* the writer's, from one release to the next */
	mev_pattern_pool *pool;  /* the patterns of the releases' matchers */
	mev__walk_bases bases;   /* the writer's: which table is a delta against which */
} mev__walk_caches;

struct mev__walker {
	mev__walk_opts opts;     /* what the user asked: read-only once settled */
	mev__walk_run run;       /* the walk's state */
	mev__walk_caches cache;  /* what it keeps so as not to read again */
};

void mev__walk_state_clear(mev__walk_state *s);

/* --- what a walk takes (src/walk/choose.c) --- */

/* Whether release `tag` (a tag or a snapshot) is one the store's filters
 * and branch choose. */
int mev__walk_chosen(const mev__walker *w, const char *tag);
/* Check the options against the store's identity (or make a new store's):
 * MEV_ESTORE for another repository or other filters, MEV_EINVAL for bad
 * snapshot options; w->opts.snap set when the walk follows a branch. */
int mev__walk_check_identity(mev__walker *w);
/* The dialect of the walk: as asked, as stored, or detected from the
 * repository's HEAD (or newest of tags[0..n)). */
int mev__walk_dialect(mev_dialect *out, const mev__walker *w, const mev_tag *tags, size_t n);
/*
 * Which stored table is a delta against which (src/walk/bases.c), in the
 * writer's transactions: begin at the start of each (a transaction done
 * again starts from what was committed), commit once it is.  *out (n
 * names, free each and the array) are the releases whose tables are made
 * against `base` now; _written reads back the release just written,
 * _gone records one dropped or made a repeat.
 */
void mev__walk_bases_begin(mev__walk_bases *b);
void mev__walk_bases_commit(mev__walk_bases *b);
void mev__walk_bases_free(mev__walk_bases *b);
int mev__walk_bases_of(char ***out, size_t *n, mev__walker *w, const char *base);
int mev__walk_bases_written(mev__walker *w, const char *tag);
int mev__walk_bases_gone(mev__walker *w, const char *tag);

/*
 * The stored release `tag` re-encoded, in the writer's transaction: its
 * file table becomes a delta against `base` (tag `base_tag`; NULL: whole).
 * Its graph is rebuilt on its file table, the stored one being over the
 * stored sections (src/walk/write.c).
 */
int mev__walk_reencode(mev__walker *w, const char *tag, const mev_filemap *base, const char *base_tag);

/*
 * What changed in the repository under the stored releases, before the
 * releases to walk are chosen (src/walk/rewrite.c, docs/walking.md "A
 * branch rewritten, a tag moved or deleted"): a stored release tag the
 * repository no longer has refuses the walk, with a hint (MEV_ESTORE); the
 * snapshots of a rewritten branch (marked `gone`) are walked again, said
 * in one note, and those whose period this walk no longer makes are
 * dropped, in one transaction, with the tables that were deltas against
 * them re-encoded.  `snaps` are the walk's snapshots.
 */
int mev__walk_rewritten(mev__walker *w, const mev_tag *tags, size_t ntags, const mev_tag *snaps,
			size_t nsnaps);

/* The tags[0..ntags) and snapshots[0..nsnaps) to walk, in the store's
 * order, into *work (calloc'ed); the dialect is settled on the way. */
int mev__walk_choose(mev__walker *w, const mev_tag ***work, size_t *nwork, mev_tag *tags,
		     size_t ntags, mev_tag *snaps, size_t nsnaps);

/* --- the line a walk takes, said where it does not go forward (src/walk/line.c) --- */

/* A note naming the chosen[0..n) (tags, sorted here into version order;
 * index non-zero: walked now) that this walk takes and that are dated
 * before a release before them in version order.  Errors: MEV_ENOMEM. */
int mev__walk_say_backward(const mev__walker *w, mev_release_key *chosen, size_t n);
/* A note naming the stored tags the walk's line leaves out (kept). */
void mev__walk_say_off_line(const mev__walker *w);
/* MEV_ENOTFOUND, its message naming the lines of tags[0..ntags) (of
 * repository repo, dialect d) that have maintenance releases: --line
 * `want` chose none of them. */
int mev__walk_line_missing(const char *repo, mev_dialect d, const char *want, const mev_tag *tags,
			   size_t ntags);
/* Before a new store is made: the user's --line, if any, names a line of
 * tags[0..ntags) (in the dialect asked for or detected), else
 * mev__walk_line_missing()'s error. */
int mev__walk_check_line(const mev__walker *w, const mev_tag *tags, size_t ntags);

/*
 * Wait for the release being stored, if any: once written it counts as
 * walked and the state its file table is a delta against is freed.  The
 * store is the writer's until this returns; of the states of the last two
 * releases nothing may be freed or changed in place meanwhile (pointers
 * may move: the writer reads a copy of them, w->run.writing).  _after:
 * the same after a failure `rc`, whose message is the one kept.
 */
int mev__walk_settle(mev__walker *w);
int mev__walk_settle_after(mev__walker *w, int rc);

/*
 * Store release t, whose state is *cur, on the writer thread: *cur becomes
 * *prev, and the state before it (its file table's base) waits in
 * w->run.retired until written.  `succ` (malloc'ed, taken) is the stored
 * release after it, or NULL.  The first release of a store names the
 * history by its root commit, found here: the writer does not read the
 * repository.
 */
int mev__walk_store_async(mev__walker *w, const mev_tag *t, mev__walk_state *prev,
			  mev__walk_state *cur, char *succ);

/*
 * Before the walk (src/walk/preread.c): the sizes of every blob the
 * releases of work[0..nwork) add or change, against the stored release
 * before the first and then each other, that the store does not know,
 * read in the packs' order (mev_repo_read_order) with the walk's threads
 * and stored in batches, each committed (an interrupted walk keeps them).
 * A blob it cannot read is left to the walk, which says why; the diffs
 * are kept in w->cache.deltas.  Nothing with --rebuild.  Errors: MEV_ENOMEM,
 * MEV_EINTR, the store's.
 */
int mev__walk_preread(mev__walker *w, const mev_tag *const *work, size_t nwork);

/* Store the blob sizes v[0..n) (sorted here, by blob id, so that each
 * insert lands beside the one before) in the write transaction of s. */
int mev__walk_put_sizes(mev_store *s, mev__blob_size *v, size_t n);

/*
 * Before the store is made (globs.c): a --tags or --exclude glob of o
 * that does not parse (a '[' never closed: fnmatch() would take it for a
 * plain '[' and match nothing) is MEV_EINVAL, a --tags glob that matches
 * none of the n tags MEV_ENOTFOUND, each with a message and hint.
 */
int mev__walk_check_globs(const mev_walk_options *o, const mev_tag *tags, size_t n);
/* "a, b, c and 4 more": the tags mev_repo_tags() left out, into out. */
void mev__walk_skipped_names(char *out, size_t size, const mev_tags_skipped *sk);

#endif
