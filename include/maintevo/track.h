/* Following clusters from release to release: events, lineages, section changes. */
#ifndef MAINTEVO_TRACK_H
#define MAINTEVO_TRACK_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/cluster.h"
#include "maintevo/progress.h"
#include "maintevo/release.h"
#include "maintevo/store.h"

/*
 * Thresholds of the tracker (docs/tracking.md explains each and its
 * default against the published methods).  Start from mev_track_params_init().
 */
typedef struct {
	double link;     /* minimum Jaccard similarity of a link (default 0.1, Greene 2010) */
	double match;    /* share of a cluster's code that makes the other side its main
			    heir or origin (default 0.5, Asur 2007) */
	double growth;   /* relative change in lines that makes a continuation a growth
			    or a contraction (default 0.1) */
	double rename;   /* share of a vanished section's code a new title must cover to
			    count as its new name (default 0.8) */
	double absorb;   /* share of a cluster's code one newer cluster must receive for
			    an unlinked cluster to be absorbed by it (a merge), not to
			    die (default 0.5) */
	int gap;         /* releases a lineage may vanish for and still continue when
			    it comes back: a bridge instead of a death and a birth
			    (default 1; 0: none; at most MEV_TRACK_GAP_MAX) */
	int support_runs; /* perturbed runs that measure each event's support (default
			     10; 0: none) */
	double noise;    /* their perturbation: edge weights (and louvain/leiden's
			    resolution) scaled by a factor in [1 - noise, 1 + noise]
			    (default 0.05) */
} mev_track_params;

#define MEV_TRACK_GAP_MAX 5

void mev_track_params_init(mev_track_params *p);
/* MEV_EINVAL with a message when a threshold is outside (0, 1] (growth: > 0,
 * gap: 0 to MEV_TRACK_GAP_MAX). */
int mev_track_params_check(const mev_track_params *p);

/*
 * The canonical name of the thresholds events and lineages depend on, the
 * tracker's half of the key their results are stored under:
 * "link=0.1:match=0.5:growth=0.1:absorb=0.5:gap=1".  Written NUL-terminated into
 * out (`size` bytes; 128 always fits); returns its length.
 */
size_t mev_track_key(char *out, size_t size, const mev_track_params *p);

/*
 * The whole key of a tracking result: "<clustering key>/<tracker key>",
 * e.g. "walktrap:steps=4:top=1/link=0.1:match=0.5:growth=0.1:absorb=0.5:gap=1"
 * (256 bytes always fit).  tp NULL: the default thresholds.
 */
size_t mev_track_result_key(char *out, size_t size, const mev_cluster_params *cp,
			    const mev_track_params *tp);

/*
 * Read thresholds from text: a tracker key as mev_track_key() writes it, in
 * any order, missing fields keeping their values in *out.  Errors:
 * MEV_EINVAL naming the bad part.
 */
int mev_track_params_parse(mev_track_params *out, const char *text);

typedef enum {
	MEV_EVENT_BIRTH = 0,
	MEV_EVENT_DEATH,
	MEV_EVENT_CONTINUATION,
	MEV_EVENT_GROWTH,
	MEV_EVENT_CONTRACTION,
	MEV_EVENT_SPLIT,
	MEV_EVENT_MERGE,
	MEV_EVENT_BRIDGE,          /* a lineage that vanished for 1 to gap releases comes
				      back: from_release is the last release it was in */
	MEV_EVENT_KINDS
} mev_event_kind;

/* "birth", "death", ...; parse returns -1 when unknown. */
const char *mev_event_name(mev_event_kind k);
int mev_event_parse(const char *name);

/*
 * What made an event (docs/tracking.md, "Causes"): the MAINTAINERS changes
 * of the sections of the clusters involved and the code that appeared in
 * them, vanished from them or moved between them.  One item each.
 */
typedef enum {
	MEV_CAUSE_SECTION_ADDED = 0,  /* section (of to_release) added; lines: its lines */
	MEV_CAUSE_SECTION_REMOVED,    /* section (of from_release) removed; lines */
	MEV_CAUSE_SECTION_RENAMED,    /* section renamed to new_section; lines */
	MEV_CAUSE_PATTERN_ADDED,      /* field: value added to section (file:line in to_release) */
	MEV_CAUSE_PATTERN_REMOVED,    /* field: value removed from section (file:line in from_release) */
	MEV_CAUSE_FILE_APPEARED,      /* path, lines: new in to_release, in to_cluster */
	MEV_CAUSE_FILE_VANISHED,      /* path, old_lines: gone, was in from_cluster */
	MEV_CAUSE_FILE_MOVED,         /* path (old_path: its path before, when it moved in the
					 tree), old_lines -> lines: from from_cluster to to_cluster */
	MEV_CAUSE_FILE_CHANGED,       /* path: old_lines -> lines, in the same clusters */
	MEV_CAUSE_ITEM_KINDS
} mev_cause_item_kind;

/* "section added", "pattern removed", "file moved", ... */
const char *mev_cause_item_name(mev_cause_item_kind k);

typedef struct {
	mev_cause_item_kind kind;
	const char *section;          /* sections and patterns: the title; files: "" */
	const char *new_section;      /* renamed: the new title; else "" */
	char field;                   /* patterns: 'F', 'X' or 'N'; else 0 */
	const char *value;            /* patterns: the line's value; else "" */
	const char *file;             /* patterns: the MAINTAINERS file; else "" */
	uint32_t line;                /* patterns: the line in it; else 0 */
	const char *path, *old_path;  /* files; old_path "" unless it moved in the tree */
	uint64_t lines, old_lines;    /* files: lines in to_release / from_release */
	const char *from_cluster, *to_cluster; /* files: representatives ("" none) */
} mev_cause_item;

/* Files counted by kind (index: kind - MEV_CAUSE_FILE_APPEARED). */
#define MEV_CAUSE_FILE_KINDS 4

/* The whole account of an event's cause, as 'maintevo explain' prints it. */
typedef struct {
	const mev_cause_item *v;      /* section changes, every pattern change, then the
					 largest files of each kind (largest first) */
	size_t n;
	uint64_t files[MEV_CAUSE_FILE_KINDS]; /* all files of each kind ... */
	uint64_t lines[MEV_CAUSE_FILE_KINDS]; /* ... and their lines (changed: the sum of
						 the differences) */
	uint64_t more_patterns;       /* pattern changes left out of v (beyond 1000) */
	double code_share;            /* the largest share of one involved cluster's lines
					 that the files touch (NaN: code not compared) */
	int patterns;                 /* 1: both releases' patterns were compared */
	int code;                     /* 1: both releases' files were compared */
} mev_cause;

/*
 * One link between a cluster of from_release and one of to_release (or a
 * birth or death: one side only).  A split into two is two events, one per
 * successor; a merge of two is two events, one per predecessor.
 */
typedef struct {
	const char *from_release, *to_release;
	mev_event_kind kind;
	uint32_t lineage;          /* of the to_cluster; of the from_cluster for a death */
	const char *from_cluster;  /* representative; "" for a birth */
	const char *to_cluster;    /* representative; "" for a death */
	double similarity;         /* Jaccard on common code (or titles); NaN for birth, death */
	int64_t from_lines, to_lines; /* cluster sizes; -1 for the missing side */
	double share;              /* a link: the share of from_cluster's code (lines) that
				      to_cluster holds; NaN for birth and death */
	uint32_t from_lineage;     /* lineage of from_cluster (0 for a birth) */
	/* Where the code of a death went, or where the code of a birth came
	 * from: the cluster of the other release holding the largest share of
	 * it ("" when none holds any), that share, and its lineage (0: none).
	 * Empty for links. */
	const char *partner;
	double partner_share;
	uint32_t partner_lineage;
	double support;            /* share of the perturbed runs that found this event
				      (mev_track_params.support_runs); NaN when not measured */
	/* Why it happened (split, merge, birth, death, and growth and
	 * contraction by more than 10%; docs/tracking.md "Causes"):
	 * "maintainers", "code", "maintainers+code", "none" (neither changed:
	 * the clustering alone did) or "unknown" (what is stored cannot tell);
	 * "" for other events, or when 'maintevo track' computed none. */
	const char *cause_kind;
	const char *cause;         /* in one sentence; "" when cause_kind is "" */
	const mev_cause *cause_detail; /* the whole account; NULL when cause_kind is "" */
} mev_event;

typedef struct {
	mev_event *v;
	size_t n;
	void *mem_;                /* owns the strings */
} mev_event_list;

/* A chain of clusters linked by continuations, splits kept by it, merges into it. */
typedef struct {
	uint32_t id;               /* 1, 2, ... in order of birth */
	const char *name;          /* its one name for its whole life: the representative of
				      its first cluster, with " (TAG)" (the release it was born
				      in) when an older lineage has that name already; unique */
	const char *first_release, *last_release;
	uint32_t parent;           /* lineage it split from (0: none) */
	uint64_t peak_lines;       /* largest cluster size over its releases */
	uint32_t releases;         /* releases in which it has a cluster */
} mev_lineage;

typedef struct {
	mev_lineage *v;
	size_t n;
	void *mem_;
} mev_lineage_list;

typedef enum {
	MEV_SECTION_ADDED = 0,
	MEV_SECTION_REMOVED,
	MEV_SECTION_RENAMED
} mev_section_change_kind;

const char *mev_section_change_name(mev_section_change_kind k);

typedef struct {
	const char *from_release, *to_release;
	mev_section_change_kind kind;
	const char *section;       /* the title in from_release (added: in to_release) */
	const char *new_section;   /* renamed: the new title; else "" */
	uint64_t lines;            /* the section's lines (added: in to_release, else from_release) */
	double coverage;           /* renamed: share of the old code the new title covers; else NaN */
} mev_section_change;

typedef struct {
	mev_section_change *v;
	size_t n;
	void *mem_;
} mev_section_change_list;

/* What the tracker stored about one cluster of a release. */
typedef struct {
	uint32_t lineage;          /* the lineage it belongs to (mev_lineage.id) */
	uint32_t parent;           /* when the lineage starts here after a split: the
				      lineage it split from; else 0 */
	uint64_t code_lines;       /* its size as the tracker measured it: the lines of the
				      files it covers, each once (a store without file
				      tables: the sum of its sections' lines) */
	const char *name;          /* the lineage's name (mev_lineage.name) */
} mev_tracked_cluster;

typedef struct {
	mev_tracked_cluster *v;    /* by cluster number, as mev_cluster_load() numbers them */
	size_t n;
	uint64_t fingerprint;      /* mev_clustering_fingerprint() of the clustering tracked */
	void *mem_;                /* owns the names */
} mev_tracked_cluster_list;

/* Free what a list owns and leave it empty (a zeroed list is fine). */
void mev_event_list_free(mev_event_list *l);
void mev_lineage_list_free(mev_lineage_list *l);
void mev_section_change_list_free(mev_section_change_list *l);
void mev_tracked_cluster_list_free(mev_tracked_cluster_list *l);

typedef struct {
	size_t releases;           /* releases with sections, tracked in order */
	size_t tracked;            /* release pairs computed now */
	size_t kept;               /* pairs whose stored results were still valid */
	size_t by_code, by_title;  /* pairs compared on files / on section titles */
	size_t events[MEV_EVENT_KINDS]; /* over the whole history */
	size_t lineages;
	size_t section_changes[3];
	size_t no_change;          /* split and merge events whose cause is "none": no
				      MAINTAINERS or code change, the clustering alone */
	size_t caused;             /* pairs whose causes were computed now */
	size_t supported;          /* pairs whose support was computed now */
	double support_seconds;
	double cluster_seconds, seconds;
	mev_cluster_result cluster;
} mev_track_result;

typedef struct {
	int jobs;                  /* for clustering (see mev_cluster_options) */
	mev_progress progress;     /* stop flag (also for the clustering); progress before
				      each release pair computed, with the release's tag */
	double wait;               /* seconds to wait for another writer (0: fail at once) */
} mev_track_options;

/*
 * Cluster what is not clustered yet (mev_cluster_store()), then link the
 * clusters of every release with sections to those of the next one, and
 * store the events and the lineages (tables "events" and "lineages",
 * keyed by the parameter key; docs/store-format.md) and the section-level
 * changes.  Two consecutive releases are compared on the lines of the files
 * present in both (by path) when both have file tables, else on section
 * titles weighted by their lines.  Only pairs whose stored result no longer
 * fits (new or re-walked releases, other clusters or thresholds) are
 * computed again; lineage ids stay stable.  The whole run holds the
 * store's writer's lock (waiting up to opt->wait seconds for it), so the
 * releases it clusters are those it tracks: no walk or import adds or
 * drops one meanwhile.  The records of each pair are committed together,
 * so a run killed at any moment leaves whole pairs, and the next run goes
 * on from them.  A store with one release (or none) with sections has no
 * pairs: its first release starts the lineages.  *res gets the counts (also on
 * failure, as far as it got).  opt may be NULL.  Errors: those of the store
 * and of the clustering; MEV_ESTORE when another writer holds the lock;
 * MEV_EINVAL for bad thresholds; MEV_EINTR when *opt->progress.stop was set
 * (the pairs computed so far are kept).
 */
int mev_track_store(mev_track_result *res, mev_store *s, const mev_cluster_params *cp,
		    const mev_track_params *tp, const mev_track_options *opt);

/*
 * Read back the events of a parameter set, in release order, limited to
 * from_release >= from and to_release <= to (version order; NULL: no
 * limit).  Free *out with mev_event_list_free() (also after a failure).
 * Errors: MEV_ENOTFOUND when 'maintevo track' was not run for these
 * parameters or its results are out of date (the hint says to run it);
 * MEV_ECORRUPT.
 */
int mev_track_events(mev_event_list *out, mev_store *s, const mev_cluster_params *cp,
		     const mev_track_params *tp, const char *from, const char *to);
/* The lineages of a parameter set, by id.  Errors: as mev_track_events(). */
int mev_track_lineages(mev_lineage_list *out, mev_store *s, const mev_cluster_params *cp,
		       const mev_track_params *tp);
/* Sections added, removed and renamed between consecutive releases (they do
 * not depend on the clustering).  Errors: as mev_track_events(). */
int mev_track_section_changes(mev_section_change_list *out, mev_store *s, const mev_track_params *tp,
			      const char *from, const char *to);

/*
 * The lineage, parent and tracked size of every cluster of `release` for a
 * parameter set, as the last 'maintevo track' stored them: out->v[k] is
 * cluster k of mev_cluster_load(s, cp, release).  The clusters describe the
 * clustering whose fingerprint is out->fingerprint: compare it with
 * mev_clustering_fingerprint() of the clustering at hand (they differ when
 * the release was clustered again since).  Free *out with
 * mev_tracked_cluster_list_free().  Errors: MEV_ENOTFOUND when the release
 * was not tracked for these parameters (it has no sections, it is not in the
 * store, or 'maintevo track' was not run: the hint says to run it);
 * MEV_ECORRUPT.
 */
int mev_track_clusters(mev_tracked_cluster_list *out, mev_store *s, const mev_cluster_params *cp,
		       const mev_track_params *tp, const char *release);

/* --- the tracked history, read through one handle ------------------------------- */

/*
 * The tracked history of a store for one parameter set: its releases, the
 * clustering of each, the lineage of every cluster, the events (with their
 * support and causes), the lineages and the section changes.  Chart,
 * export, report and the commands that show tracked results read them
 * through it: the store keys are resolved once, when it opens, and every
 * read comes from one read snapshot of the store, taken then and held until
 * mev_history_free(), so a walk or a track writing meanwhile is seen before
 * or after, never half way, and the caller's further reads of the store
 * (graphs, file tables of the releases listed) agree with it.  No write
 * transaction may begin on the store while a handle is open.
 */
typedef struct mev_history mev_history;

/* What mev_history_open() and mev_history_read() read besides the releases. */
enum {
	MEV_HISTORY_CLUSTERS = 1, /* the clusterings */
	MEV_HISTORY_TRACKS = 2 /* events and lineages (with CLUSTERS: the lineage of
				     every cluster) */
};

/*
 * Open the history of store s for the clustering cp and the thresholds tp
 * (NULL: the defaults; both are copied): take the read snapshot, read the
 * releases, then what `need` says (mev_history_read(*out, only, need)).
 * Free with mev_history_free().  Errors: the store's; those of
 * mev_history_read(); on failure *out is NULL.
 */
int mev_history_open(mev_history **out, mev_store *s, const mev_cluster_params *cp,
		     const mev_track_params *tp, const char *only, unsigned need);

/*
 * Read, unless read already, the clustering of every release (only: of
 * release `only`) when need has MEV_HISTORY_CLUSTERS, and the events and
 * lineages when need has MEV_HISTORY_TRACKS and 'maintevo track' ran for
 * these parameters (with CLUSTERS: only when some release read is
 * clustered).  A release that is not clustered, or a store that is not
 * tracked, is not an error: its views stay empty (mev_history_clustered(),
 * mev_history_tracked() tell).  The lineage and the code lines of each
 * cluster are those the tracker stored for it (mev_track_clusters()); they
 * stay unknown in a release the tracker did not see (no sections) or whose
 * clustering changed since it ran.  Errors: the store's, MEV_ENOTFOUND
 * (mev_release_not_stored()) for an unknown `only`; what was read before
 * stays.
 */
int mev_history_read(mev_history *h, const char *only, unsigned need);

/*
 * For a reader handed a handle in its options, or none: *h = given, with
 * mev_history_read(given, only, need) done; given NULL, a handle of the
 * store s for the default parameters, opened as mev_history_open() does,
 * in *h and *own (for the reader to free; NULL when given).  given must
 * read s.  Errors: as mev_history_open().
 */
int mev_history_use(mev_history **h, mev_history **own, mev_store *s, mev_history *given,
		    const char *only, unsigned need);

/* Let the snapshot go and free everything the views gave (NULL is fine). */
void mev_history_free(mev_history *h);

/* The store it reads, and the keys of its parameters: the clustering's
 * (mev_cluster_key()) and the tracker's (mev_track_key()). */
mev_store *mev_history_store(const mev_history *h);
const char *mev_history_cluster_key(const mev_history *h);
const char *mev_history_track_key(const mev_history *h);

/* Releases: every stored release, in version order (index r below). */
size_t mev_history_release_count(const mev_history *h);
const mev_release *mev_history_releases(const mev_history *h);
const mev_release *mev_history_release(const mev_history *h, size_t r);
/* Index of release `tag` (NULL: none), or -1. */
int64_t mev_history_find(const mev_history *h, const char *tag);

/* Clusters.  Whether some release read has a clustering (a store without
 * releases counts as clustered: its tables are empty). */
int mev_history_clustered(const mev_history *h);
/* The clustering of release r; NULL when not read or not clustered. */
const mev_clustering *mev_history_clustering(const mev_history *h, size_t r);
/* The cluster (0-based) of the section titled `title` in release r, or -1. */
int64_t mev_history_cluster_of(const mev_history *h, size_t r, const char *title);
/* The cluster whose representative is `title` in release r, or -1. */
int64_t mev_history_cluster_named(const mev_history *h, size_t r, const char *title);
/* The lineage id of cluster k of release r; -1 when unknown (not tracked). */
int64_t mev_history_cluster_lineage(const mev_history *h, size_t r, uint32_t k);
/* The cluster of lineage `lineage` in release r (the first, by number), or
 * -1 when the lineage has none there or the release is not tracked.  The
 * lineage's sections in r are those s of the clustering with
 * mev_clustering_of(c, s) == that cluster. */
int64_t mev_history_lineage_cluster(const mev_history *h, size_t r, uint32_t lineage);
/* The name of the lineage of cluster k of release r ("" when unknown). */
const char *mev_history_lineage_name(const mev_history *h, size_t r, uint32_t k);
/* Lines of cluster k of release r: the lines of the files it covers, each
 * once, when tracked; else the sum of its sections' lines. */
uint64_t mev_history_cluster_lines(const mev_history *h, size_t r, uint32_t k);
/* The lines of cluster k of release r as the tracker measured them
 * (mev_tracked_cluster.code_lines); -1 when unknown. */
int64_t mev_history_cluster_code_lines(const mev_history *h, size_t r, uint32_t k);

/* Tracks.  Whether the events and the lineages were read (the store is
 * tracked for these parameters); the views are empty lists when not. */
int mev_history_tracked(const mev_history *h);
/* Every event in release order, with its support and cause. */
const mev_event_list *mev_history_events(const mev_history *h);
/* The lineages, by id (v[id - 1]). */
const mev_lineage_list *mev_history_lineages(const mev_history *h);

/*
 * Lists of their own, read from the handle's snapshot with its keys, for
 * a reader that wants a range, or an error when the store is not tracked
 * (the views above are empty then).  Free each with its _free() (also
 * after a failure).
 *
 * The events of pairs from_release >= from and to_release <= to (version
 * order; NULL: no limit).  Errors: as mev_track_events().
 */
int mev_history_read_events(mev_event_list *out, const mev_history *h, const char *from,
			    const char *to);
/* The lineages, by id.  Errors: as mev_track_lineages(). */
int mev_history_read_lineages(mev_lineage_list *out, const mev_history *h);
/* Sections added, removed and renamed between consecutive releases, from
 * >= from to <= to.  Errors: as mev_track_section_changes(). */
int mev_history_read_section_changes(mev_section_change_list *out, const mev_history *h,
				     const char *from, const char *to);

/*
 * The tracking results a store holds, one per key: out->v[i].name is the
 * result key (mev_track_result_key()), out->v[i].releases the number of
 * its lineages; the other fields are empty.  Free with
 * mev_lineage_list_free().  Errors: the store's.
 */
int mev_track_results(mev_lineage_list *out, mev_store *s);

#endif
