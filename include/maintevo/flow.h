/* Patch flow: does each commit reach the tree through the people MAINTAINERS names? */
#ifndef MAINTEVO_FLOW_H
#define MAINTEVO_FLOW_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/commit.h"
#include "maintevo/maintainers.h"
#include "maintevo/progress.h"
#include "maintevo/repo.h"
#include "maintevo/store.h"

/* docs/flow.md defines every verdict; bit i of mev_flow_commit.verdicts is verdict i. */
typedef enum {
	MEV_FLOW_COMMITTER_IS_MAINTAINER = 0, /* committer is an M: of a section covering a touched file */
	MEV_FLOW_COMMITTER_IN_SUBSYSTEM,      /* ... of a section in the same cluster (read time) */
	MEV_FLOW_SIGNOFF_BY_MAINTAINER,       /* a Signed-off-by of such an M: */
	MEV_FLOW_REVIEWED_BY_LISTED,          /* an Acked-by/Reviewed-by of such an M: or R: */
	MEV_FLOW_VIA_LISTED_TREE,             /* brought in by a merge of such a section's T: tree */
	MEV_FLOW_VERDICTS
} mev_flow_verdict;

/* "committer_is_maintainer", ... ("" for an unknown one). */
const char *mev_flow_verdict_name(mev_flow_verdict v);

/* What covers the files a commit touches (its parent's MAINTAINERS). */
typedef enum {
	MEV_FLOW_COVERED = 0,  /* some section other than THE REST */
	MEV_FLOW_REST_ONLY,    /* only THE REST */
	MEV_FLOW_UNCOVERED     /* no section at all (no MAINTAINERS, or no pattern matches) */
} mev_flow_coverage;

/* "covered", "rest_only", "uncovered". */
const char *mev_flow_coverage_name(mev_flow_coverage c);

/* Trailers kept (case-insensitive keys). */
typedef enum {
	MEV_TRAILER_SIGNED_OFF = 0, MEV_TRAILER_ACKED, MEV_TRAILER_REVIEWED, MEV_TRAILER_TESTED,
	MEV_TRAILER_REPORTED, MEV_TRAILER_CO_DEVELOPED, MEV_TRAILER_LINK, MEV_TRAILER_KINDS
} mev_trailer_kind;

/* "Signed-off-by", ... */
const char *mev_trailer_name(mev_trailer_kind k);

typedef struct {
	uint8_t kind;        /* mev_trailer_kind */
	uint32_t value;      /* a person (index into people), or for Link a string */
} mev_flow_trailer;

/* One person of a release, after .mailmap: the key is the lowercased email. */
typedef struct {
	const char *name;    /* UTF-8 (other bytes read as ISO-8859-1) */
	const char *email;   /* lowercase; "" when none was given */
	uint32_t maintains;  /* sections of the release's MAINTAINERS with this M: */
	uint32_t reviews;    /* ... with this R: */
} mev_flow_person;

/* The merge on the first-parent line that brought commits in. */
typedef struct {
	mev_oid merge;       /* zero for route 0, "direct" */
	const char *tree;    /* the tree its subject names, normalised ("" when none) */
	const char *subject; /* its first line */
} mev_flow_route;

/* One judged (non-merge) commit. */
typedef struct {
	mev_oid id;
	uint32_t author, committer;   /* people */
	int64_t author_time, commit_time;
	uint32_t trailer_begin, trailer_count; /* into trailers */
	uint32_t path_begin, path_count;       /* into paths */
	uint32_t sections;            /* set of the sections covering touched files, THE REST left out */
	uint32_t committer_sections;  /* set of the sections (of the same MAINTAINERS) the committer is an M: of */
	uint32_t route;               /* into routes; 0: committed on the first-parent line */
	uint8_t coverage;             /* mev_flow_coverage */
	uint8_t verdicts;             /* bits by mev_flow_verdict; never COMMITTER_IN_SUBSYSTEM */
	uint8_t has_churn;
	uint32_t added, removed;      /* lines, with --churn */
} mev_flow_commit;

/* What 'maintevo flow' stored for one release: the commits of TAG that no
 * earlier release holds ('git log TAG --not HIDDEN...'). */
typedef struct {
	char *tag, *prev;            /* prev: the release before it */
	mev_oid commit, prev_commit;
	mev_oid *hidden;             /* the earlier releases' commits hidden: those no other earlier
				      * one holds, sorted (prev_commit alone on a straight line) */
	size_t n_hidden;
	mev_flow_commit *commits;    /* in topological order, parents first */
	size_t n;
	mev_flow_person *people;
	size_t n_people;
	const char **strings;        /* titles, paths, trees, links */
	size_t n_strings;
	uint32_t *set_off, *set_ids; /* set i = strings set_ids[set_off[i] .. set_off[i+1]); set 0 empty */
	size_t n_sets;
	mev_flow_trailer *trailers;
	size_t n_trailers;
	uint32_t *paths;             /* string ids of the paths the commits touch */
	size_t n_paths;
	mev_flow_route *routes;      /* routes[0] is "direct" */
	size_t n_routes;
	uint64_t merges;             /* merge commits of the range (not judged) */
	const char **notes;          /* what could not be judged exactly, and why */
	size_t n_notes;
	int churn;                   /* computed with --churn */
	void *mem_;
} mev_flow_release;

/* Sorted string ids of set `set` into *ids; returns their number. */
size_t mev_flow_set(const uint32_t **ids, const mev_flow_release *r, uint32_t set);

void mev_flow_release_free(mev_flow_release *r);

/* The table 'maintevo flow' writes: one record per release, keyed by tag. */
#define MEV_FLOW_TABLE "flow"

/*
 * Read the stored flow of release `tag`.  MEV_ENOTFOUND (no message) when
 * 'maintevo flow' has not processed it; MEV_ECORRUPT when damaged.
 */
int mev_flow_load(mev_flow_release **out, mev_store *s, const char *tag);

/* The commits before the first release (reachable from it), judged by its
 * own MAINTAINERS, under the first release's tag: the history the
 * activity of the listed people starts from (docs/people.md). */
#define MEV_FLOW_BEFORE_TABLE "flowbefore"

/* Read the stored history before release `tag` (the first).  MEV_ENOTFOUND
 * (no message) when not stored; MEV_ECORRUPT when damaged. */
int mev_flow_load_before(mev_flow_release **out, mev_store *s, const char *tag);

/* What a shallow clone's cut left out of a range ('maintevo flow --repo'
 * of a shallow clone, docs/people.md): the commits whose parents the clone
 * lacks, not judged, and the latest of their times, before which the
 * history read is not whole.  Under the release's tag, or '^' and the
 * first release's tag for the history before it; absent when nothing was
 * left out. */
#define MEV_FLOW_CUT_TABLE "flowcut"

/* Read what the cut left out of the range of `tag` (before: of the history
 * before it, `tag` the first release) into *out: commits 0 and time
 * INT64_MIN when nothing.  Errors: MEV_ECORRUPT, the store's. */
int mev_flow_load_cut(mev_range_cut *out, mev_store *s, const char *tag, int before);

/* Beside each record, under the same key: the previous release it was
 * computed against and the rules it was judged by (a small value read by
 * every run). */
#define MEV_FLOW_INDEX_TABLE "flowindex"

/*
 * The rules commits are judged by, stored with each release: a release
 * judged by other rules is judged again.  1: the first; 2: a message ends
 * at git's "---" divider (docs/flow.md, "Trailers"); 3: a release's
 * commits are those no earlier release holds, not only the one before it
 * (a tag off the main line, then a tag its commits never reach).
 */
#define MEV_FLOW_RULES 3

/* 1 when the flow of `tag` is stored, judged by MEV_FLOW_RULES (*prev gets
 * the previous release it was computed against, malloc'ed), 0 when not or
 * by other rules; negative on errors. */
int mev_flow_stored(char **prev, mev_store *s, const char *tag);
/* 1 when the flow of `tag` is stored but judged by other rules than
 * MEV_FLOW_RULES ('maintevo flow' judges it again), 0 when not; negative on
 * errors. */
int mev_flow_outdated(mev_store *s, const char *tag);

typedef struct {
	const char *repo;        /* the repository the store was walked from */
	const char *store;
	int churn;               /* count lines added and removed */
	int rebuild;             /* forget stored flows and compute them again */
	int whole_trees;         /* read every MAINTAINERS set from its whole tree (no derivation) */
	double wait;             /* seconds to wait for another writer of the store */
	mev_progress progress;   /* stop: ends after the current release (stored) */
	volatile int *abort_now; /* non-zero: stop at once */
} mev_flow_options;

typedef struct {
	size_t releases;         /* stored releases */
	size_t done_before;      /* whose flow was stored already */
	size_t computed;         /* processed now */
	uint64_t commits;        /* non-merge commits judged now */
	uint64_t before_commits; /* of the history before the first release (judged when not
				    stored yet, MEV_FLOW_BEFORE_TABLE) */
	uint64_t merges;
	uint64_t parses;         /* MAINTAINERS sets parsed */
	uint64_t derived;        /* of them, derived from a parent's set without its tree */
	uint64_t spliced;        /* of those, spliced onto a set parsed whole (only the
				    edited files parsed) */
	uint64_t full_states;    /* parents whose tree was read whole */
	uint64_t notes;
	uint64_t cut_commits;    /* commits a shallow clone's cut left out, not judged */
	int64_t history_from;    /* with cut_commits: the latest of their times, before which
				    the history read is not whole */
	int stopped;
	double seconds;
} mev_flow_result;

/*
 * For every stored release after the first whose flow is not stored yet
 * (or was computed against another previous release), judge the commits
 * reachable from it and not from the previous release and store them, one
 * write transaction per release.  Holds the store's writer's lock.
 * Errors: the repository's and the store's; MEV_ESTORE when the store was
 * not walked from a repository (an import) or another writer holds it;
 * MEV_EINTR when stopped by *abort_now.
 */
int mev_flow_run(mev_flow_result *res, const mev_flow_options *opt);

/* --- who a release's own MAINTAINERS names, folded as flow folds people ----------- */

/* One section of a release's own MAINTAINERS: its distinct M: and R: people
 * (each address lowercased, then through the release's .mailmap, as flow
 * folds a maintainer) and its distinct L: addresses (lowercased, not
 * folded: lists are not people), each sorted bytewise. */
typedef struct {
	const char *title;           /* the key, as the store's section titles */
	const char **maintainers, **reviewers, **lists;
	size_t n_maintainers, n_reviewers, n_lists;
	/* per entry of maintainers and reviewers: the name its first line
	 * gives ("Name <address>"), NULL when that line has none */
	const char **maintainer_names, **reviewer_names;
	/* the M: and R: entries that are no address (Zephyr's GitHub handles),
	 * trimmed and lowercased, distinct, sorted bytewise; flow judges by
	 * addresses only, so they are not people above */
	const char **maintainer_handles, **reviewer_handles;
	size_t n_maintainer_handles, n_reviewer_handles;
	int is_rest;                 /* THE REST */
} mev_flow_roster_section;

typedef struct {
	mev_flow_roster_section *v;
	size_t n;
	void *mem_;
} mev_flow_roster;

void mev_flow_roster_free(mev_flow_roster *r);

/* Reads rosters from the repository a store was walked from. */
typedef struct mev_flow_roster_reader mev_flow_roster_reader;

/*
 * A reader for store s (repo: the repository, NULL for the one the store
 * records).  Errors: MEV_ESTORE for a store that was not walked (an
 * import) or holds nothing; the repository's when it cannot be opened
 * (hint: --repo).
 */
int mev_flow_roster_reader_new(mev_flow_roster_reader **out, mev_store *s, const char *repo);
void mev_flow_roster_reader_free(mev_flow_roster_reader *rr);

/* The roster of the MAINTAINERS that `commit`'s get_maintainer.pl reads,
 * folded with the .mailmap of that commit, into *out (emptied first).
 * Errors: the repository's. */
int mev_flow_roster_read(mev_flow_roster *out, mev_flow_roster_reader *rr, const mev_oid *commit);

#endif
