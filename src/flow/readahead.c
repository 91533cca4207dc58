/*
 * Each release's commits and the paths each commit changes, read ahead in
 * a second thread: reading the commits and comparing their trees are about
 * half of flow's work and need nothing the judging does, so they run on
 * the other core, with a repository handle of their own (libgit2 objects
 * are not shared between handles), in the order the commits are judged.
 * The thread reads the next release while this one is judged, never more
 * than one release ahead (two buffers).
 */
#include "flow_internal.h"
#include "maintevo/error.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	mev_change_list ch;
	int rc;               /* of computing ch */
	uint8_t no_churn;     /* churn dropped: a blob is missing */
	char *msg, *hint;     /* the error of rc */
} slot;

/* One release: its commits, then their changes. */
typedef struct {
	mev_commit *commits;
	size_t n;
	slot *slots;
	int rc;               /* of reading the commits */
	mev_range_cut cut;    /* what a shallow clone's cut left out of it */
	char *msg, *hint;
	atomic_int listed;    /* commits (or rc) ready */
	atomic_size_t done;   /* slots[0..done) are ready */
} range;

struct mev__flow_ahead {
	mev_repo *repo;
	int churn;
	size_t trim;
	mev_oid *hide, *cur;  /* range r: cur[r] ^hide[hide_off[r] .. hide_off[r + 1]) */
	size_t *hide_off;
	size_t nranges;
	range buf[2];         /* range r in buf[r & 1] */
	atomic_size_t judged; /* the range the judging asked for last, + 1 */
	pthread_t th;
	int started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	atomic_int waiting;   /* a thread waits on cond: broadcast */
	atomic_int stop;      /* the judging gave up: end early */
};

static void keep_error(char **msg, char **hint)
{
	*msg = strdup(mev_error_message());
	*hint = mev_error_hint_text()[0] ? strdup(mev_error_hint_text()) : NULL;
	mev_error_clear();
}

static void one(mev__flow_ahead *a, range *g, size_t i)
{
	const mev_commit *c = &g->commits[i];
	const mev_oid *parent = c->n_parents ? &c->parents[0] : NULL;
	unsigned flags = a->churn && c->n_parents <= 1 ? MEV_CHANGES_CHURN : 0;
	slot *s = &g->slots[i];
	s->rc = mev_commit_changes(&s->ch, a->repo, parent, &c->id, flags);
	if (s->rc == MEV_ENOTFOUND && flags) {
		/* a blob is missing: the paths without churn */
		mev_change_list_free(&s->ch);
		mev_error_clear();
		s->no_churn = 1;
		s->rc = mev_commit_changes(&s->ch, a->repo, parent, &c->id, 0);
	}
	if (!s->rc)
		s->rc = mev_repo_trim_cache(a->repo, a->trim);
	if (s->rc)
		keep_error(&s->msg, &s->hint);
}

/* The commits of range r (git log CUR --not HIDE..., topological, parents
 * first) into g, read whole. */
static int read_range(mev__flow_ahead *a, range *g, size_t r)
{
	mev_oid *ids = NULL;
	size_t n = 0;
	int rc = mev_repo_range_cut(&ids, &n, &g->cut, a->repo, a->hide + a->hide_off[r],
				    a->hide_off[r + 1] - a->hide_off[r], &a->cur[r]);
	if (rc)
		return rc;
	g->commits = calloc(n + 1, sizeof *g->commits);
	g->slots = calloc(n + 1, sizeof *g->slots);
	if (!g->commits || !g->slots) {
		free(ids);
		return mev_error_oom();
	}
	for (size_t i = 0; i < n && !rc; i++, g->n++)
		rc = mev_commit_read(&g->commits[i], a->repo, &ids[i]);
	free(ids);
	return rc;
}

static void range_free(range *g)
{
	for (size_t i = 0; i < g->n; i++) {
		mev_commit_clear(&g->commits[i]);
		if (g->slots) {
			mev_change_list_free(&g->slots[i].ch);
			free(g->slots[i].msg);
			free(g->slots[i].hint);
		}
	}
	free(g->commits);
	free(g->slots);
	free(g->msg);
	free(g->hint);
	memset(g, 0, sizeof *g);
}

/* Wake the other thread if it waits (seq_cst: a waiter sets `waiting`
 * before it looks at the state again, under the lock). */
static void wake(mev__flow_ahead *a)
{
	if (atomic_load(&a->waiting)) {
		pthread_mutex_lock(&a->lock);
		pthread_cond_broadcast(&a->cond);
		pthread_mutex_unlock(&a->lock);
	}
}

/* Wait until ready(a, arg) holds (or the judging stops, for the thread). */
static void wait_for(mev__flow_ahead *a, int (*ready)(mev__flow_ahead *, size_t), size_t arg)
{
	if (ready(a, arg))
		return;
	pthread_mutex_lock(&a->lock);
	atomic_fetch_add(&a->waiting, 1);
	while (!ready(a, arg))
		pthread_cond_wait(&a->cond, &a->lock);
	atomic_fetch_sub(&a->waiting, 1);
	pthread_mutex_unlock(&a->lock);
}

/* The thread may fill buffer r & 1: the judging is done with range r - 2. */
static int buffer_free(mev__flow_ahead *a, size_t r)
{
	return atomic_load(&a->stop) || r <= atomic_load(&a->judged);
}

static void *worker(void *arg)
{
	mev__flow_ahead *a = arg;
	for (size_t r = 0; r < a->nranges && !atomic_load(&a->stop); r++) {
		range *g = &a->buf[r & 1];
		wait_for(a, buffer_free, r);
		if (atomic_load(&a->stop))
			break;
		size_t n;
		if ((g->rc = read_range(a, g, r)))
			keep_error(&g->msg, &g->hint);
		n = g->rc ? 0 : g->n; /* the judging frees g once it has the last one */
		atomic_store(&g->listed, 1);
		wake(a);
		for (size_t i = 0; i < n && !atomic_load(&a->stop); i++) {
			one(a, g, i);
			atomic_store(&g->done, i + 1);
			wake(a);
		}
	}
	return NULL;
}

int mev__flow_ahead_new(mev__flow_ahead **out, const char *repo_path, int churn, size_t trim)
{
	mev__flow_ahead *a = calloc(1, sizeof *a);
	int rc;
	*out = NULL;
	if (!a)
		return mev_error_oom();
	if ((rc = mev_repo_open(&a->repo, repo_path))) {
		free(a);
		return rc;
	}
	a->churn = churn;
	a->trim = trim;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->cond, NULL);
	*out = a;
	return 0;
}

int mev__flow_ahead_start(mev__flow_ahead *a, const mev_oid *hide, const size_t *hide_off,
			  const mev_oid *cur, size_t n)
{
	mev__flow_ahead_finish(a);
	a->hide = malloc((hide_off[n] + 1) * sizeof *a->hide);
	a->hide_off = malloc((n + 1) * sizeof *a->hide_off);
	a->cur = malloc((n + 1) * sizeof *a->cur);
	if (!a->hide || !a->hide_off || !a->cur)
		return mev_error_oom();
	if (hide_off[n]) /* the history before the first release hides nothing: hide may be NULL */
		memcpy(a->hide, hide, hide_off[n] * sizeof *hide);
	memcpy(a->hide_off, hide_off, (n + 1) * sizeof *hide_off);
	if (n)
		memcpy(a->cur, cur, n * sizeof *cur);
	a->nranges = n;
	atomic_store(&a->judged, 0);
	atomic_store(&a->stop, 0);
	a->started = pthread_create(&a->th, NULL, worker, a) == 0;
	return 0;
}

static int is_listed(mev__flow_ahead *a, size_t r)
{
	return atomic_load(&a->buf[r & 1].listed);
}

/* Range r in this thread, when no thread could be started. */
static int read_here(mev__flow_ahead *a, range *g, size_t r)
{
	if ((g->rc = read_range(a, g, r)))
		keep_error(&g->msg, &g->hint);
	for (size_t i = 0; !g->rc && i < g->n; i++)
		one(a, g, i);
	atomic_store(&g->done, g->n);
	atomic_store(&g->listed, 1);
	return g->rc;
}

int mev__flow_ahead_commits(const mev_commit **commits, size_t *n, mev__flow_ahead *a, size_t r)
{
	range *g = &a->buf[r & 1];
	*commits = NULL;
	*n = 0;
	if (r)
		range_free(&a->buf[(r - 1) & 1]); /* judged: the thread may fill it */
	atomic_store(&a->judged, r + 1);
	if (a->started) {
		wake(a);
		wait_for(a, is_listed, r);
	} else {
		read_here(a, g, r);
	}
	if (g->rc) {
		mev_error_set(g->rc, "%s", g->msg ? g->msg : "cannot read the commits of a release");
		if (g->hint)
			mev_error_hint("%s", g->hint);
		return g->rc;
	}
	*commits = g->commits;
	*n = g->n;
	return 0;
}

void mev__flow_ahead_cut(mev_range_cut *cut, const mev__flow_ahead *a, size_t r)
{
	*cut = a->buf[r & 1].cut;
}

static int is_done(mev__flow_ahead *a, size_t i)
{
	range *g = &a->buf[(atomic_load(&a->judged) - 1) & 1];
	return atomic_load(&g->done) > i;
}

int mev__flow_ahead_take(mev_change_list *ch, int *no_churn, mev__flow_ahead *a, size_t i)
{
	range *g = &a->buf[(atomic_load(&a->judged) - 1) & 1];
	slot *s = &g->slots[i];
	wait_for(a, is_done, i);
	*ch = s->ch;
	*no_churn = s->no_churn;
	memset(&s->ch, 0, sizeof s->ch);
	if (s->rc) {
		mev_error_set(s->rc, "%s", s->msg ? s->msg : "cannot compare the trees of a commit");
		if (s->hint)
			mev_error_hint("%s", s->hint);
	}
	return s->rc;
}

void mev__flow_ahead_finish(mev__flow_ahead *a)
{
	if (!a)
		return;
	if (a->started) {
		atomic_store(&a->stop, 1);
		pthread_mutex_lock(&a->lock);
		pthread_cond_broadcast(&a->cond);
		pthread_mutex_unlock(&a->lock);
		pthread_join(a->th, NULL);
		a->started = 0;
	}
	range_free(&a->buf[0]);
	range_free(&a->buf[1]);
	free(a->hide);
	free(a->hide_off);
	free(a->cur);
	a->hide = a->cur = NULL;
	a->hide_off = NULL;
	a->nranges = 0;
}

void mev__flow_ahead_free(mev__flow_ahead *a)
{
	if (!a)
		return;
	mev__flow_ahead_finish(a);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->cond);
	mev_repo_free(a->repo);
	free(a);
}
