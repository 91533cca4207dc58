/* Worker processes for independent jobs: fork, compute, send the bytes back on a pipe. */
#include "cluster_internal.h"
#include "maintevo/error.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Why processes and not threads: igraph keeps its RNG, its error handler
 * and its stack of things to free on error (IGRAPH_FINALLY) in globals
 * unless it is built thread-safe, and Debian's libigraph (0.10.2) is not
 * (igraph_threading.h: IGRAPH_THREAD_SAFE 0; the library has no TLS
 * segment).  Two threads in igraph at once would share one RNG (results
 * would depend on scheduling) and one error stack.  Forked workers each
 * have their own igraph; the price is a pipe per worker and a copy of the
 * record on the way back, small next to the clustering.
 *
 * Each worker sends, per job, "u32 job, u32 length, bytes", or on failure
 * "u32 UINT32_MAX, u32 length, message" and ends.  Only the calling process
 * writes to the store.
 *
 * What the pool owns: the processes it forked, each waited for exactly
 * once (waitpid on their pids only, never -1 or 0), and the read ends of
 * their pipes.  It signals no process, not even its own workers: a pid is
 * only safe to signal while unreaped, and a caller that ignores SIGCHLD
 * has the kernel reap (and recycle) it at any time.  To end the workers
 * early the pool closes their pipes: a worker's next write fails and it
 * leaves, after the job in hand.  A worker also leaves between jobs when
 * the stop flag is set (Ctrl-C reaches the workers too, and the caller's
 * handler sets their copy of the flag).  A worker leaves with _exit(): it
 * must not run the caller's atexit handlers nor flush the caller's stdio
 * buffers, which it shares after fork(); and it never closes the caller's
 * store handle (an LMDB environment belongs to the process that opened it).
 *
 * fork() copies only the calling thread: a caller with other threads that
 * may hold locks (malloc's) must not use more than one worker.
 */
enum { MAX_WORKERS = 64 };
#define WORKER_FAILED UINT32_MAX /* in place of a job number: a message follows */

typedef struct {
	pid_t pid;   /* 0: none (never started, or waited for) */
	int fd;      /* read end of its pipe; -1 when closed */
} worker;

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static int read_all(int fd, void *p, size_t n)
{
	char *c = p;
	while (n) {
		ssize_t r = read(fd, c, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

/* The body of worker `me` of `n`: never returns. */
static void worker_main(const mev__workers *w, int fd, size_t me, size_t n)
{
	mev_buf out = MEV_BUF_INIT;
	uint32_t hdr[2];
	int rc;

	/* a closed pipe (the owner is done with us) is a failed write, not a
	 * signal, whatever the caller installed */
	signal(SIGPIPE, SIG_IGN);
	rc = w->start ? w->start(w->ctx) : 0;
	for (size_t i = me; !rc && i < w->njobs && !(w->stop && *w->stop); i += n) {
		if ((rc = w->work(&out, i, w->ctx)))
			break;
		hdr[0] = (uint32_t)i;
		hdr[1] = (uint32_t)out.len;
		if (write_all(fd, hdr, sizeof hdr) || write_all(fd, out.ptr, out.len))
			_exit(3);
	}
	if (rc) {
		const char *m = mev_error_message();
		hdr[0] = WORKER_FAILED;
		hdr[1] = (uint32_t)strlen(m);
		if (write_all(fd, hdr, sizeof hdr) || write_all(fd, m, hdr[1]))
			_exit(3);
	}
	if (w->finish)
		w->finish(w->ctx);
	mev__buf_free(&out);
	_exit(rc ? 1 : 0);
}

/* Start up to n workers; *started says how many run (their pipes open). */
static int start_workers(worker *wk, size_t n, size_t *started, const mev__workers *w)
{
	*started = 0;
	for (size_t c = 0; c < n; c++) {
		int pf[2];
		pid_t pid;
		if (pipe(pf) != 0)
			return mev_error_set(MEV_EIO, "cannot create a pipe: %s", strerror(errno));
		if ((pid = fork()) < 0) {
			int e = errno;
			close(pf[0]);
			close(pf[1]);
			return mev_error_set(MEV_ERROR, "cannot start a worker process: %s", strerror(e));
		}
		if (pid == 0) {
			close(pf[0]);
			for (size_t k = 0; k < c; k++)
				close(wk[k].fd);
			worker_main(w, pf[1], c, n);
		}
		close(pf[1]);
		wk[c].pid = pid;
		wk[c].fd = pf[0];
		*started = c + 1;
	}
	return 0;
}

/* Read one message of worker c and hand a job's bytes to done(); *closed is
 * set when the worker has nothing more to say. */
static int receive(worker *c, const mev__workers *w, mev_buf *val, size_t *got, int *closed)
{
	uint32_t hdr[2];
	int rc;
	*closed = 0;
	if (read_all(c->fd, hdr, sizeof hdr)) {
		*closed = 1;
		return 0;
	}
	if (hdr[0] == WORKER_FAILED) {
		char msg[1024];
		size_t l = hdr[1] < sizeof msg - 1 ? hdr[1] : sizeof msg - 1;
		if (read_all(c->fd, msg, l))
			l = 0;
		msg[l] = '\0';
		return mev_error_set(MEV_ERROR, "%s", msg[0] ? msg : "a worker process failed");
	}
	if (hdr[0] >= w->njobs)
		return mev_error_set(MEV_ERROR, "a worker process sent garbage");
	val->len = 0;
	if (mev__buf_grow(val, hdr[1]))
		return mev_error_oom();
	if (read_all(c->fd, val->ptr, hdr[1]))
		return mev_error_set(MEV_ERROR, "a worker process stopped");
	val->len = hdr[1];
	if ((rc = w->done(hdr[0], val->ptr, val->len, w->ctx)))
		return rc;
	(*got)++;
	if (w->stop && *w->stop)
		return mev_error_set(MEV_EINTR, "interrupted");
	return 0;
}

/* Wait for the workers' messages until all pipes are closed or one fails. */
static int collect(worker *wk, size_t n, const mev__workers *w, size_t *got)
{
	struct pollfd pfd[MAX_WORKERS];
	mev_buf val = MEV_BUF_INIT;
	size_t open_fds = n;
	int rc = 0;

	while (open_fds && !rc) {
		for (size_t c = 0; c < n; c++) {
			pfd[c].fd = wk[c].fd;
			pfd[c].events = POLLIN;
			pfd[c].revents = 0;
		}
		if (poll(pfd, n, -1) < 0) {
			if (errno != EINTR)
				rc = mev_error_set(MEV_EIO, "waiting for the workers: %s", strerror(errno));
			else if (w->stop && *w->stop)
				rc = mev_error_set(MEV_EINTR, "interrupted");
			continue;
		}
		for (size_t c = 0; c < n && !rc; c++) {
			int closed;
			if (wk[c].fd < 0 || !(pfd[c].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			rc = receive(&wk[c], w, &val, got, &closed);
			if (closed) {
				close(wk[c].fd);
				wk[c].fd = -1;
				open_fds--;
			}
		}
	}
	mev__buf_free(&val);
	return rc;
}

/*
 * Close the pipes (which ends the workers still running at their next
 * write) and wait for each worker started.  A status we cannot see (the
 * caller ignores SIGCHLD, so the kernel reaped the worker: ECHILD) is no
 * failure: the jobs counted tell whether the work was done.
 */
static int reap(worker *wk, size_t n, int failed)
{
	int rc = 0;
	for (size_t c = 0; c < n; c++)
		if (wk[c].fd >= 0) {
			close(wk[c].fd);
			wk[c].fd = -1;
		}
	for (size_t c = 0; c < n; c++) {
		int st = 0;
		pid_t r;
		if (wk[c].pid <= 0)
			continue;
		while ((r = waitpid(wk[c].pid, &st, 0)) < 0 && errno == EINTR)
			;
		if (!failed && !rc && r == wk[c].pid && (!WIFEXITED(st) || WEXITSTATUS(st) != 0))
			rc = mev_error_set(MEV_ERROR, "a worker process failed");
		wk[c].pid = 0;
	}
	return rc;
}

int mev__workers_run(const mev__workers *w)
{
	worker wk[MAX_WORKERS];
	size_t n = w->workers < 1 ? 1 : (size_t)w->workers, started = 0, got = 0;
	int rc, rrc;

	if (n > MAX_WORKERS)
		n = MAX_WORKERS;
	if (n > w->njobs)
		n = w->njobs;
	if (!n)
		return 0;
	for (size_t c = 0; c < n; c++) {
		wk[c].pid = 0;
		wk[c].fd = -1;
	}
	rc = start_workers(wk, n, &started, w);
	if (!rc)
		rc = collect(wk, started, w, &got);
	rrc = reap(wk, started, rc != 0);
	if (!rc)
		rc = rrc;
	if (!rc && got != w->njobs)
		rc = w->stop && *w->stop ? mev_error_set(MEV_EINTR, "interrupted")
					 : mev_error_set(MEV_ERROR, "the workers computed %zu of %zu jobs",
							 got, w->njobs);
	return rc;
}
