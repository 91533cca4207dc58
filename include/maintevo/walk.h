/* The release walker: every release tag, in version order, into a store. */
#ifndef MAINTEVO_WALK_H
#define MAINTEVO_WALK_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/maintainers.h"
#include "maintevo/progress.h"

typedef struct {
	size_t index, total;     /* release being processed (1-based) of those to do */
	const char *tag;
	double files_per_second; /* files of the releases done so far / time */
	double eta_seconds;      /* for the rest, at the pace so far */
} mev_walk_progress;

typedef struct {
	const char *repo;        /* repository path */
	const char *store;       /* store directory */
	const char *const *tags; /* globs choosing the tags (NULL: the dialect's releases) */
	size_t ntags;
	const char *const *exclude;
	size_t nexclude;
	/* a maintenance line instead of the line of development (NULL):
	 * "20.11", the releases whose mev_tag_line() is that line */
	const char *line;
	int rc;                  /* include -rc tags */
	int jobs;                /* reader threads (0 = cores) */
	int rebuild;             /* forget what the store holds and start over */
	int verify;              /* also build every release cold and compare (slow) */
	double wait;             /* seconds to wait for another writer of the store (0: fail at once) */
	mev_rules_options rules;
	/* a release (tag or revision) whose script's MAINTAINERS file search every
	 * release is read with (walk --files-as; recorded in the store, which a
	 * later walk without it keeps; NULL: each release's own) */
	const char *files_as;
	/*
	 * Dated snapshots of a branch (docs/walking.md): for every period of
	 * `every` ("day", "week", "month", "quarter") from `since` to `until`
	 * (YYYY-MM-DD, UTC; NULL: from the branch's first commit, to now) the
	 * tree of the last commit on or before the period's end, stored as
	 * release "<branch>@YYYY-MM-DD".  NULL branch: the store's, if it has
	 * one.  With a branch, tags are walked too only when `tags_too`
	 * (a store that holds tags already keeps them).
	 */
	const char *branch;
	const char *every;
	const char *since, *until;
	int tags_too;
	int64_t now;             /* the time "now" is (0: the clock's): for tests */
	/*
	 * progress.stop: non-zero ends the walk after the current release, which
	 * is stored (res->stopped is set and the walk returns 0: run it again to
	 * go on); progress.progress(ctx, i, total, tag) before each release;
	 * progress.note(ctx, line) for each notice (tags moved or left out,
	 * missing blobs, releases without sections, ...).
	 */
	mev_progress progress;
	volatile int *abort_now; /* non-zero: stop at once (nothing half-written) */
	/* the richer report before each release (pace, ETA), with progress.ctx */
	void (*walk_progress)(void *ctx, const mev_walk_progress *p);
} mev_walk_options;

typedef struct {
	size_t tags;             /* tags in the repository */
	size_t candidates;       /* release tags chosen by the filters, and snapshots */
	size_t snapshots;        /* of the candidates: snapshots of the branch */
	size_t stored_before;    /* already in the store */
	size_t walked;           /* processed now */
	size_t inserted;         /* processed now, older than a stored release */
	size_t reencoded;        /* successors whose delta was redone */
	size_t verified;
	int stopped;             /* stopped early by *stop */
	uint64_t files;          /* files of the releases processed */
	uint64_t blobs_read, bytes_read, blobs_cached;
	uint64_t blobs_read_before; /* of blobs_read: read before the walk, in the packs' order */
	uint64_t reparsed, rematched_paths;
	double seconds;
} mev_walk_result;

/*
 * Walk the release tags of `opt->repo` into `opt->store`: only tags not
 * stored yet, each computed against the previous release (only changed
 * files are read and matched again).  Each release is committed to the
 * store on its own, so an interrupted walk resumes where it stopped.
 * Errors: as the repository and the store report them; MEV_EINTR when
 * stopped by *abort_now; MEV_ESTORE when the store belongs to another
 * repository or filter, holds an import, or another walk writes to it.
 */
int mev_walk(mev_walk_result *res, const mev_walk_options *opt);

#endif
