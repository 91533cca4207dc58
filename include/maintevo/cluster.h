/* Clusters of sections: the subsystems of each release, found in its overlap graph. */
#ifndef MAINTEVO_CLUSTER_H
#define MAINTEVO_CLUSTER_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/graph.h"
#include "maintevo/progress.h"
#include "maintevo/store.h"

typedef enum {
	MEV_CLUSTER_WALKTRAP = 0, /* Pons & Latapy, cut at maximum modularity (the study's) */
	MEV_CLUSTER_LOUVAIN,      /* multilevel modularity optimisation */
	MEV_CLUSTER_LEIDEN,       /* Leiden, modularity objective */
	MEV_CLUSTER_COMPONENTS,   /* connected components */
	MEV_CLUSTER_TEMPORAL      /* each release from the previous one's clusters (the default) */
} mev_cluster_method;

/* "walktrap", "louvain", "leiden", "components", "temporal"; parse returns -1 when unknown. */
const char *mev_cluster_method_name(mev_cluster_method m);
int mev_cluster_method_parse(const char *name);

/* Everything a clustering depends on.  Start from mev_cluster_params_init(). */
typedef struct {
	mev_cluster_method method;
	int steps;            /* walktrap: length of the random walks (default 4) */
	double resolution;    /* louvain, leiden, temporal: modularity resolution (default 1) */
	uint64_t seed;        /* louvain, leiden, temporal: seed of igraph's RNG (default 1) */
	double top_fraction;  /* in (0, 1]: cluster only the largest sections (default 1) */
	int smooth;           /* leiden only: start from the previous release's clusters */
	double tolerance;     /* temporal: keep a partition whose modularity is at least this
			       * share of independent Leiden's (default 0.97), in (0, 1] */
} mev_cluster_params;

/* The defaults: temporal, resolution 1, seed 1, tolerance 0.97, top 1 (and
 * walktrap's 4 steps when the method is changed to walktrap). */
void mev_cluster_params_init(mev_cluster_params *p);

/* MEV_EINVAL with a message and hint when a value is out of range or
 * --smooth is asked of another method than leiden. */
int mev_cluster_params_check(const mev_cluster_params *p);

/*
 * The canonical name of a parameter set, used as the key of everything
 * stored for it: "temporal:res=1:seed=1:tol=0.97:top=1", "walktrap:steps=4:top=1",
 * "louvain:res=1:seed=1:top=1", "leiden:res=1:seed=1:top=0.2:smooth",
 * "components:top=1".  Parameters a
 * method does not use are left out.  Writes it NUL-terminated into out
 * (`size` bytes) and returns its length (the key is cut when it does not
 * fit, which 128 bytes always does).
 */
size_t mev_cluster_key(char *out, size_t size, const mev_cluster_params *p);

/*
 * Read a parameter set from text: a method name ("leiden": its defaults) or
 * a key as mev_cluster_key() writes it ("walktrap:steps=4:top=0.2"); fields
 * may come in any order, missing ones keep their defaults.  Errors:
 * MEV_EINVAL with a message naming the bad part.
 */
int mev_cluster_params_parse(mev_cluster_params *out, const char *text);

/* The cluster of a section left out of the clustering (THE REST, or a section
 * below the --top-fraction cut). */
#define MEV_CLUSTER_NONE UINT32_MAX

/*
 * One release's clusters.  Clusters are numbered 0..count-1 by decreasing
 * lines (the sum of their sections' own lines), ties by representative
 * title; the representative of a cluster is its largest section by lines
 * that is not an umbrella, ties by bytewise smallest title.  An umbrella
 * touches (shares lines with) at least half of its cluster's other
 * sections (2 or more), which together cover more than twice its lines,
 * and holds less than a tenth of theirs (DPDK's "Documentation (with
 * overlaps)"); a cluster of umbrellas only is named after its largest.
 */
typedef struct mev_clustering mev_clustering;

/*
 * Cluster the graph `g` (THE REST and self loops removed, weights = shared
 * lines, edges of zero lines dropped).  Vertices are all other sections in
 * bytewise title order, isolated ones included: each becomes a cluster of its
 * own.  With p->top_fraction < 1 only the sections whose lines exceed the
 * (1 - top_fraction) quantile (R's type 7, as the study's script) are kept.
 * With p->smooth, `prev` (the previous release's clustering, may be NULL)
 * gives Leiden its start: every section keeps the cluster of the section of
 * the same title there, new sections start alone.  The temporal method
 * starts from `prev` the same way, moves single sections only where that
 * gains clearly and the best independent partition does not keep them where
 * they are, and keeps the result when its modularity is at least
 * p->tolerance of the best of independent Leiden runs (seeds p->seed to
 * p->seed + 3); else it re-optimises from it, and else takes that best
 * independent partition (docs/tracking.md, "The temporal method").  The
 * same graph after a temporal clustering of it gives the same partition.
 * igraph's RNG is seeded from p->seed first, so the result depends on the
 * inputs only.
 * Errors: MEV_EINVAL (bad parameters), MEV_ERROR (igraph failed; the
 * message is igraph's), MEV_ENOMEM.
 */
int mev_cluster_graph(mev_clustering **out, const mev_graph *g, const mev_cluster_params *p,
		      const mev_clustering *prev);
void mev_clustering_free(mev_clustering *c);

/* Sections of the release (THE REST included), in the release's order. */
size_t mev_clustering_section_count(const mev_clustering *c);
const char *mev_clustering_title(const mev_clustering *c, uint32_t section);
uint64_t mev_clustering_section_lines(const mev_clustering *c, uint32_t section);
/* The cluster of a section, or MEV_CLUSTER_NONE. */
uint32_t mev_clustering_of(const mev_clustering *c, uint32_t section);

size_t mev_clustering_count(const mev_clustering *c);
/* Section index of the representative of cluster k. */
uint32_t mev_clustering_representative(const mev_clustering *c, uint32_t k);
/* Sum of the lines of the sections of cluster k, and their number. */
uint64_t mev_clustering_lines(const mev_clustering *c, uint32_t k);
uint32_t mev_clustering_size(const mev_clustering *c, uint32_t k);
/* Newman's modularity of the partition over the clustered graph (weights =
 * lines; louvain and leiden at their resolution); NaN without edges. */
double mev_clustering_modularity(const mev_clustering *c);
/* A hash of the membership and of the graph it was computed on: equal
 * fingerprints mean equal clusterings of equal graphs. */
uint64_t mev_clustering_fingerprint(const mev_clustering *c);

/* What the temporal method did in a release (MEV_CLUSTER_STEP_NONE for the
 * other methods and for a release without edges). */
typedef enum {
	MEV_CLUSTER_STEP_NONE = 0,
	MEV_CLUSTER_STEP_KEPT,        /* the previous release's clusters, unchanged */
	MEV_CLUSTER_STEP_MOVED,       /* the previous clusters with single sections moved */
	MEV_CLUSTER_STEP_REOPTIMISED, /* Leiden started from them, the previous did not score */
	MEV_CLUSTER_STEP_INDEPENDENT  /* the best independent Leiden partition (first release, or
				       * nothing else scored) */
} mev_cluster_step;

/* "", "kept", "moved", "reoptimised", "independent". */
const char *mev_cluster_step_name(mev_cluster_step s);
mev_cluster_step mev_clustering_step(const mev_clustering *c);
/* Temporal: sections not in the cluster they started in (the previous
 * release's, by title; new sections start alone), under the one-to-one
 * matching of start and end clusters by most shared sections; 0 else. */
size_t mev_clustering_moved(const mev_clustering *c);
/* Temporal: the best modularity of independent Leiden on this release (the
 * reference of p->tolerance); NaN for the other methods and without edges. */
double mev_clustering_reference_modularity(const mev_clustering *c);

typedef struct {
	size_t releases;         /* releases in the store */
	size_t clustered;        /* clustered now */
	size_t kept;             /* already clustered with these parameters */
	size_t steps[MEV_CLUSTER_STEP_INDEPENDENT + 1]; /* temporal: releases clustered now, by step */
	double seconds;
} mev_cluster_result;

typedef struct {
	int jobs;                /* processes (0 = one per core); smooth and temporal runs use one */
	/* progress.stop: stop after the release in hand (MEV_EINTR);
	 * progress.progress: called per release with its tag; note: unused */
	mev_progress progress;
	double wait;             /* seconds to wait for another writer (0: fail at once) */
} mev_cluster_options;

/*
 * Cluster every release of the store that has no up-to-date clustering for
 * these parameters (none stored, or its release was walked again), and
 * store membership, representatives and modularity per release (table
 * "clusters", key "<parameter key>\0<tag>"), one write transaction per
 * release.  With p->smooth and the temporal method a release depends on the
 * one before: releases are clustered in order, in this process, and a
 * stored clustering counts as up to date only when it was computed from
 * the stored clustering of the release before (its record keeps that one's
 * fingerprint), so everything after a release clustered again is clustered
 * again.  Else, with opt->jobs > 1, releases are clustered in
 * worker processes (forked; this process writes the store), so a caller
 * with other threads running must set opt->jobs to 1.  `opt` may be NULL.  The store
 * must be open for writing.  The whole run holds the store's writer's lock
 * (mev_store_lock(), waiting up to opt->wait seconds for it), so no walk or
 * import changes the releases meanwhile.  Counts and time go to *res.
 * Errors: those of the store and of mev_cluster_graph(); MEV_ESTORE when
 * another writer holds the lock; MEV_EINTR when stopped.
 */
int mev_cluster_store(mev_cluster_result *res, mev_store *s, const mev_cluster_params *p,
		      const mev_cluster_options *opt);

/*
 * Read back the clustering of release `tag`.  Errors: MEV_ENOTFOUND when the
 * release was not clustered with these parameters, or was walked again
 * since (the hint says to run 'maintevo cluster'); MEV_ECORRUPT.
 */
int mev_cluster_load(mev_clustering **out, mev_store *s, const mev_cluster_params *p,
		     const char *tag);

#endif
