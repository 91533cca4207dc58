/*
 * One piece of work on a thread of its own (walk_internal.h): the walk
 * stores a release while it computes the next one.
 */
#include "walk_internal.h"
#include "maintevo/error.h"

#include <stdio.h>
#include <string.h>

static void *run(void *arg)
{
	mev__walk_async *a = arg;
	a->rc = a->fn(a->ctx);
	if (a->rc) {
		/* the message is this thread's: keep it for the waiting one */
		snprintf(a->msg, sizeof a->msg, "%s", mev_error_message());
		snprintf(a->hint, sizeof a->hint, "%s", mev_error_hint_text());
	}
	return NULL;
}

void mev__walk_async_start(mev__walk_async *a, int (*fn)(void *ctx), void *ctx)
{
	memset(a, 0, sizeof *a);
	a->fn = fn;
	a->ctx = ctx;
	a->pending = 1;
	if (pthread_create(&a->th, NULL, run, a) == 0)
		a->running = 1;
	else
		run(a); /* no thread to be had: the work is done here and now */
}

int mev__walk_async_join(mev__walk_async *a)
{
	if (!a->pending)
		return 0;
	if (a->running)
		pthread_join(a->th, NULL);
	a->pending = a->running = 0;
	return a->rc;
}

int mev__walk_async_wait(mev__walk_async *a)
{
	int rc = mev__walk_async_join(a);
	if (!rc)
		return 0;
	mev_error_set(rc, "%s", a->msg);
	if (a->hint[0])
		mev_error_hint("%s", a->hint);
	return rc;
}
