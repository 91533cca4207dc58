/*
 * What the cluster module shares with the modules above it (the tracker):
 * the graph's fingerprint, the worker processes, and clustering under a
 * writer's lock the caller holds.  Internal: not part of the public API.
 */
#ifndef MEV_CLUSTER_SHARED_H
#define MEV_CLUSTER_SHARED_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/cluster.h"
#include "maintevo/graph.h"
#include "maintevo/progress.h"
#include "maintevo/store.h"
#include "util/buf.h"

/* A hash of a graph's sections and edges (equal graphs, equal hashes). */
uint64_t mev__graph_fingerprint(const mev_graph *g);

/* mev_cluster_load() with the release's graph g already read (the tracker
 * reads it anyway: a dense graph is not read twice). */
int mev__cluster_load_graph(mev_clustering **out, mev_store *s, const mev_cluster_params *p,
			    const char *tag, const mev_graph *g);

/* --- worker processes (workers.c) ------------------------------------------ */

/*
 * Jobs 0..njobs-1 computed in `workers` forked processes (job i in worker
 * i mod workers) and handed back to the calling process, which consumes
 * them one at a time, in the order they arrive.  The callbacks get `ctx`;
 * each worker has its own copy of everything (fork), so the start and work
 * callbacks may change their copy freely: the caller never sees it.
 *
 *   start(ctx)            in a worker, once, before its first job (open
 *                         what it reads: an LMDB handle must not cross fork)
 *   work(out, job, ctx)   in a worker: the bytes of job `job` into `out`
 *   finish(ctx)           in a worker, after its last job (may be NULL)
 *   done(job, data, len, ctx)  in the caller, per job: keep the bytes;
 *                         non-zero stops the pool and is returned
 *
 * A failing start or work ends its worker; its error message is sent back
 * and set in the caller (MEV_ERROR).  The stop flag ends the run after the
 * job in hand with MEV_EINTR.  On any error the pool closes the workers'
 * pipes (each ends at its next write) and waits for each worker it started:
 * it signals no process and waits for no other.  Workers end with _exit()
 * and never return into the caller's code.  Errors: those of the callbacks,
 * MEV_ERROR (a worker failed), MEV_EIO (pipe, poll), MEV_EINTR.
 */
typedef struct {
	size_t njobs;
	int workers;               /* processes, 1 to 64 (more are clamped) */
	int (*start)(void *ctx);
	int (*work)(mev_buf *out, size_t job, void *ctx);
	void (*finish)(void *ctx);
	int (*done)(size_t job, const void *data, size_t len, void *ctx);
	void *ctx;
	volatile int *stop;        /* may be NULL */
} mev__workers;

int mev__workers_run(const mev__workers *w);

/*
 * mev_cluster_store() for a caller that holds the store's writer's lock
 * (lockfd, closed in the worker processes; -1 when held elsewhere), so
 * that the releases it reads cannot change under it.
 */
int mev__cluster_run(mev_cluster_result *res, mev_store *s, const mev_cluster_params *p,
		     const mev_cluster_options *o, int lockfd);
/* Take the writer's lock of s's directory, waiting up to `wait` seconds
 * (pr->stop ends the wait; pr may be NULL). */
int mev__cluster_lock(int *lockfd, mev_store *s, const mev_progress *pr, double wait);

#endif
