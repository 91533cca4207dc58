/* How a long-running library call reports progress and is asked to stop. */
#ifndef MAINTEVO_PROGRESS_H
#define MAINTEVO_PROGRESS_H

#include <stddef.h>

/*
 * Handed to mev_walk(), mev_cluster_store(), mev_track_store() and
 * mev_import_pasta().  Every field may be zero.  *stop non-zero asks the
 * call to stop after the unit of work in hand (a release; it then returns
 * MEV_EINTR with everything done so far committed).  progress(ctx, i,
 * total, what) is called before unit i (1-based) of total; note(ctx, text)
 * carries one line of information (no newline) the caller may print.
 */
typedef struct {
	volatile int *stop;
	void (*progress)(void *ctx, size_t index, size_t total, const char *what);
	void (*note)(void *ctx, const char *text);
	void *ctx;
} mev_progress;

#endif
