/*
 * The paths each commit changes, computed ahead in a second thread: the tree
 * comparisons are a quarter of flow's work and need nothing the judging
 * does, so they run on the other core, with a repository handle of their
 * own (libgit2 objects are not shared between handles), in the order the
 * commits are judged.
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

struct mev__flow_ahead {
	mev_repo *repo;
	const mev_commit *commits;
	size_t n;
	int churn;
	size_t trim;
	slot *slots;
	pthread_t th;
	int started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	atomic_size_t done;   /* slots[0..done) are ready */
	atomic_int waiting;   /* the judging waits on cond: signal it */
	atomic_int stop;      /* the judging gave up: end early */
};

static void one(mev__flow_ahead *a, size_t i)
{
	const mev_commit *c = &a->commits[i];
	const mev_oid *parent = c->n_parents ? &c->parents[0] : NULL;
	unsigned flags = a->churn && c->n_parents <= 1 ? MEV_CHANGES_CHURN : 0;
	slot *s = &a->slots[i];
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
	if (s->rc) {
		s->msg = strdup(mev_error_message());
		s->hint = mev_error_hint_text()[0] ? strdup(mev_error_hint_text()) : NULL;
		mev_error_clear();
	}
}

static void *worker(void *arg)
{
	mev__flow_ahead *a = arg;
	for (size_t i = 0; i < a->n && !atomic_load(&a->stop); i++) {
		one(a, i);
		/* a lock and a signal only when the judging waits (seq_cst: it
		 * sets waiting before it looks at done again, under the lock) */
		atomic_store(&a->done, i + 1);
		if (atomic_load(&a->waiting)) {
			pthread_mutex_lock(&a->lock);
			pthread_cond_signal(&a->cond);
			pthread_mutex_unlock(&a->lock);
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

int mev__flow_ahead_start(mev__flow_ahead *a, const mev_commit *commits, size_t n)
{
	mev__flow_ahead_finish(a);
	if (!(a->slots = calloc(n + 1, sizeof *a->slots)))
		return mev_error_oom();
	a->commits = commits;
	a->n = n;
	atomic_store(&a->done, 0);
	atomic_store(&a->waiting, 0);
	atomic_store(&a->stop, 0);
	a->started = pthread_create(&a->th, NULL, worker, a) == 0;
	return 0;
}

int mev__flow_ahead_take(mev_change_list *ch, int *no_churn, mev__flow_ahead *a, size_t i)
{
	slot *s = &a->slots[i];
	if (a->started && atomic_load(&a->done) <= i) {
		pthread_mutex_lock(&a->lock);
		atomic_store(&a->waiting, 1);
		while (atomic_load(&a->done) <= i)
			pthread_cond_wait(&a->cond, &a->lock);
		atomic_store(&a->waiting, 0);
		pthread_mutex_unlock(&a->lock);
	} else if (!a->started) {
		one(a, i); /* no thread could be started: compute it here */
	}
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
	if (!a || !a->slots)
		return;
	if (a->started) {
		atomic_store(&a->stop, 1);
		pthread_join(a->th, NULL);
		a->started = 0;
	}
	for (size_t i = 0; i < a->n; i++) {
		mev_change_list_free(&a->slots[i].ch);
		free(a->slots[i].msg);
		free(a->slots[i].hint);
	}
	free(a->slots);
	a->slots = NULL;
	a->n = 0;
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
