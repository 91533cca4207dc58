/* The next release's roster read on a thread of its own while this one is written. */
/*
 * Reading a release's roster (flow's mev_flow_roster_read(): its tree from
 * git, its MAINTAINERS parsed) is most of the time of the listed,
 * candidates and workload tables, and needs nothing the rest of a release's
 * work gives.  So while the caller works on release r, the roster of the
 * next release it will ask for is read on a second thread.  The reader is
 * only ever used by one thread at a time and reads the releases in the same
 * order as without the thread, so the rows are the same; without a thread
 * to be had, the read is done when asked for.
 */
#include "export_internal.h"
#include "maintevo/error.h"

#include <stdio.h>
#include <string.h>

static void *read_ahead(void *arg)
{
	mev__rosters *q = arg;
	q->rc = mev_flow_roster_read(&q->ro, q->rr, &mev_history_release(q->h, q->r)->commit);
	if (q->rc) {
		/* the message is this thread's: keep it for the waiting one */
		snprintf(q->msg, sizeof q->msg, "%s", mev_error_message());
		snprintf(q->hint, sizeof q->hint, "%s", mev_error_hint_text());
	}
	return NULL;
}

void mev__rosters_init(mev__rosters *q, mev_flow_roster_reader *rr, const mev_history *h)
{
	memset(q, 0, sizeof *q);
	q->rr = rr;
	q->h = h;
}

void mev__rosters_ahead(mev__rosters *q, size_t r, size_t end)
{
	mev__rosters_drop(q);
	while (r < end && !mev_history_release(q->h, r)->has_files)
		r++;
	if (r >= end)
		return;
	q->r = r;
	q->pending = 1;
	q->running = pthread_create(&q->th, NULL, read_ahead, q) == 0;
	if (!q->running)
		q->pending = 0; /* read when asked for */
}

/* Wait for the read under way; its result is q's. */
static void join(mev__rosters *q)
{
	if (q->running)
		pthread_join(q->th, NULL);
	q->running = 0;
}

int mev__rosters_take(mev_flow_roster *out, mev__rosters *q, size_t r)
{
	int rc;
	join(q);
	if (!q->pending || q->r != r) {
		mev__rosters_drop(q);
		return mev_flow_roster_read(out, q->rr, &mev_history_release(q->h, r)->commit);
	}
	q->pending = 0;
	*out = q->ro;
	memset(&q->ro, 0, sizeof q->ro);
	if (!(rc = q->rc))
		return 0;
	mev_error_set(rc, "%s", q->msg);
	if (q->hint[0])
		mev_error_hint("%s", q->hint);
	return rc;
}

void mev__rosters_drop(mev__rosters *q)
{
	join(q);
	if (q->pending)
		mev_flow_roster_free(&q->ro);
	q->pending = 0;
}
