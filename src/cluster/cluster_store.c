/*
 * Stored clusterings: the record of one release's clusters, reading it back,
 * and clustering every release of a store that needs it (in order for a
 * smoothed run, else in worker processes).
 */
#include "cluster_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "util/clock.h"
#include "util/varint.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * REC_VERSION is the record format (2 added the chain, the reference
 * modularity, the step and the moved sections at the end; 1 is still
 * read); ALGORITHM is bumped whenever a change of src/cluster/ gives other
 * clusters or representatives for the same input, so that stored
 * clusterings of an older build count as out of date (4: representatives
 * by their own lines, issue 40).
 */
enum { REC_VERSION = 2, ALGORITHM = 4 };

static int known_version(uint64_t v)
{
	return v == 1 || v == REC_VERSION;
}

/* Smoothed and temporal runs: each release from the one before. */
static int sequential(const mev_cluster_params *p)
{
	return p->smooth || p->method == MEV_CLUSTER_TEMPORAL;
}

/* --- the record ------------------------------------------------------------ */

/* key: "<parameter key>\0<tag>" */
static int make_key(mev_buf *k, const mev_cluster_params *p, const char *tag)
{
	char pk[128];
	size_t n = mev_cluster_key(pk, sizeof pk, p);
	mev__buf_clear(k);
	if (mev__buf_put(k, pk, n + 1) || mev__buf_puts(k, tag))
		return mev_error_oom();
	return 0;
}

static int encode(mev_buf *b, const mev_clustering *c)
{
	uint64_t bits, ref;
	int rc = 0;
	memcpy(&bits, &c->modularity, sizeof bits);
	memcpy(&ref, &c->reference, sizeof ref);
	rc |= mev__put_uv(b, REC_VERSION);
	rc |= mev__put_uv(b, ALGORITHM);
	rc |= mev__put_uv(b, c->graph_fp);
	rc |= mev__put_uv(b, c->nsec);
	rc |= mev__put_uv(b, bits);
	rc |= mev__put_uv(b, c->ncl);
	for (size_t i = 0; i < c->nsec && !rc; i++)
		rc |= mev__put_uv(b, c->member[i] == MEV_CLUSTER_NONE ? 0 : (uint64_t)c->member[i] + 1);
	for (size_t k = 0; k < c->ncl && !rc; k++)
		rc |= mev__put_uv(b, c->rep[k]);
	rc |= mev__put_uv(b, c->chain);
	rc |= mev__put_uv(b, ref);
	rc |= mev__put_uv(b, (uint64_t)c->step);
	rc |= mev__put_uv(b, c->moved);
	return rc ? mev_error_oom() : 0;
}

/* The stored record's graph fingerprint (0 when unreadable). */
static uint64_t record_fp(const void *data, size_t len)
{
	mev__record_reader r;
	mev__record_reader_init(&r, data, len);
	if (!known_version(mev__get_uv(&r)) || mev__get_uv(&r) != ALGORITHM)
		return 0;
	{
		uint64_t fp = mev__get_uv(&r);
		return r.bad ? 0 : fp;
	}
}

/* Fill the clustering `c` (made over the release's graph g) from a record. */
static int decode(mev_clustering *c, const mev_graph *g, const void *data, size_t len,
		  const char *tag)
{
	mev__record_reader r;
	uint64_t version, ns, ncl, bits;
	int rc;
	mev__record_reader_init(&r, data, len);
	if (!known_version(version = mev__get_uv(&r)))
		return mev_error_set(MEV_ECORRUPT, "clustering of '%s' has an unknown version", tag);
	(void)mev__get_uv(&r);
	(void)mev__get_uv(&r);
	ns = mev__get_uv(&r);
	bits = mev__get_uv(&r);
	ncl = mev__get_uv(&r);
	if (r.bad || ns != c->nsec || ncl > ns)
		return mev_error_set(MEV_ECORRUPT, "clustering of '%s' does not fit its release", tag);
	memcpy(&c->modularity, &bits, sizeof bits);
	for (size_t i = 0; i < c->nsec; i++) {
		uint64_t k = mev__get_uv(&r);
		c->member[i] = k == 0 || k > ncl ? MEV_CLUSTER_NONE : (uint32_t)(k - 1);
	}
	if (r.bad)
		return mev_error_set(MEV_ECORRUPT, "clustering of '%s' is damaged", tag);
	/* representatives and sizes follow from the membership */
	if ((rc = mev__clustering_rank(c, (size_t)ncl, g)))
		return rc;
	for (size_t k = 0; k < c->ncl; k++)
		if (mev__get_uv(&r) != c->rep[k] || r.bad)
			return mev_error_set(MEV_ECORRUPT, "clustering of '%s' is damaged", tag);
	if (version >= 2) {
		uint64_t step;
		c->chain = mev__get_uv(&r);
		bits = mev__get_uv(&r);
		memcpy(&c->reference, &bits, sizeof bits);
		step = mev__get_uv(&r);
		c->moved = (size_t)mev__get_uv(&r);
		if (r.bad || step > MEV_CLUSTER_STEP_INDEPENDENT)
			return mev_error_set(MEV_ECORRUPT, "clustering of '%s' is damaged", tag);
		c->step = (mev_cluster_step)step;
	}
	return 0;
}

/* --- reading ------------------------------------------------------------ */

static int load_with_graph(mev_clustering **out, mev_store *s, const mev_cluster_params *p,
			   const char *tag, const mev_graph *g)
{
	mev_buf k = MEV_BUF_INIT;
	void *data = NULL;
	size_t len = 0;
	mev_clustering *c = NULL;
	char pk[128];
	int rc;

	*out = NULL;
	mev_cluster_key(pk, sizeof pk, p);
	if ((rc = make_key(&k, p, tag)))
		goto done;
	rc = mev_store_get(&data, &len, s, "clusters", k.ptr, k.len);
	if (rc == MEV_ENOTFOUND) {
		mev_error_set(MEV_ENOTFOUND, "release '%s' is not clustered with %s", tag, pk);
		mev_error_hint("run 'maintevo cluster --store %s' with the same options first",
			       mev_store_dir(s));
		goto done;
	}
	if (rc || (rc = mev__clustering_new(&c, g)))
		goto done;
	if (record_fp(data, len) != c->graph_fp) {
		rc = mev_error_set(MEV_ENOTFOUND, "the clustering of '%s' (%s) is out of date: the release "
				   "changed since", tag, pk);
		mev_error_hint("run 'maintevo cluster --store %s' with the same options again",
			       mev_store_dir(s));
		goto done;
	}
	rc = decode(c, g, data, len, tag);
done:
	free(data);
	mev__buf_free(&k);
	if (rc)
		mev_clustering_free(c);
	else
		*out = c;
	return rc;
}

int mev__cluster_load_graph(mev_clustering **out, mev_store *s, const mev_cluster_params *p,
			    const char *tag, const mev_graph *g)
{
	int rc = mev_cluster_params_check(p);
	*out = NULL;
	return rc ? rc : load_with_graph(out, s, p, tag, g);
}

int mev_cluster_load(mev_clustering **out, mev_store *s, const mev_cluster_params *p,
		     const char *tag)
{
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	int rc;
	*out = NULL;
	if ((rc = mev_cluster_params_check(p)) || (rc = mev_release_load_graph(&fm, &g, s, tag, 0)))
		return rc;
	rc = load_with_graph(out, s, p, tag, g);
	mev_graph_free(g);
	mev_filemap_free(fm);
	return rc;
}

/* --- clustering a store ------------------------------------------------- */

/* One run of mev_cluster_store(). */
typedef struct {
	mev_store *s;
	const mev_cluster_params *p;
	const mev_cluster_options *o;
	mev_cluster_result *res;
	char **tags;          /* every release, in order */
	size_t n;
	size_t *todo;         /* releases to cluster (indexes into tags), in order */
	size_t ntodo;
	size_t got;           /* records stored from the workers */
	mev_buf key, val;
	mev_store *ws;        /* a worker's own read-only handle */
	int lockfd;           /* the writer's lock (-1: the caller's); workers close their copy */
} run;

static int stopped(const run *r)
{
	return r->o && r->o->progress.stop && *r->o->progress.stop;
}

static void progress(const run *r, size_t i, size_t total, const char *tag)
{
	if (r->o && r->o->progress.progress)
		r->o->progress.progress(r->o->progress.ctx, i, total, tag);
}

typedef struct {
	const void *key, *val;
	size_t klen, vlen;
} put_ctx;

static int put_fn(mev_store *s, void *ctx)
{
	const put_ctx *pc = ctx;
	return mev_store_put(s, "clusters", pc->key, pc->klen, pc->val, pc->vlen);
}

/* Store one record in its own transaction. */
static int put_record(mev_store *s, const mev_buf *key, const void *val, size_t len)
{
	put_ctx pc = { key->ptr, val, key->len, len };
	return mev_store_write(s, put_fn, &pc);
}

/* Cluster release `tag` (its graph `g`) and encode the record. */
static int cluster_one(mev_buf *val, const mev_graph *g, const mev_cluster_params *p,
		       const mev_clustering *prev, mev_clustering **keep, const char *tag)
{
	mev_clustering *c = NULL;
	int rc = mev_cluster_graph(&c, g, p, prev);
	if (rc) {
		mev_error_prefix("clustering '%s'", tag);
		return rc;
	}
	mev__buf_clear(val);
	rc = encode(val, c);
	if (!rc && keep)
		*keep = c;
	else
		mev_clustering_free(c);
	return rc;
}

/*
 * A smoothed or temporal run at release i: a fresh record computed from
 * *prev (its chain: the fingerprint of the clustering it started from) is
 * read back (it starts the next release), else the release is clustered
 * from *prev and stored.  So a release clustered again makes the next one
 * out of date exactly when its clusters (or graph) came out different.
 */
static int sequential_one(run *r, size_t i, const mev_graph *g, const void *data, size_t len, int fresh,
			  mev_clustering **prev)
{
	mev_clustering *c = NULL;
	int rc;
	if (fresh) {
		if ((rc = mev__clustering_new(&c, g)) || (rc = decode(c, g, data, len, r->tags[i]))) {
			mev_clustering_free(c);
			return rc;
		}
		fresh = c->chain == (*prev ? mev_clustering_fingerprint(*prev) : 0);
	}
	if (fresh) {
		mev_clustering_free(*prev);
		*prev = c;
		r->res->kept++;
		return 0;
	}
	mev_clustering_free(c);
	c = NULL;
	progress(r, i + 1, r->n, r->tags[i]);
	if ((rc = cluster_one(&r->val, g, r->p, *prev, &c, r->tags[i])))
		return rc;
	mev_clustering_free(*prev);
	*prev = c;
	if ((rc = put_record(r->s, &r->key, r->val.ptr, r->val.len)))
		return rc;
	r->res->clustered++;
	r->res->steps[c->step]++;
	return 0;
}

/*
 * Which releases need clustering (r->todo); a smoothed or temporal run
 * clusters them here, in order, each from the one before.
 */
static int scan(run *r)
{
	mev_clustering *prev = NULL;
	int rc = 0;
	for (size_t i = 0; i < r->n && !rc; i++) {
		mev_filemap *fm = NULL;
		mev_graph *g = NULL;
		void *data = NULL;
		size_t len = 0;
		int fresh;
		if (stopped(r)) {
			rc = mev_error_set(MEV_EINTR, "interrupted");
			break;
		}
		if ((rc = mev_release_load_graph(&fm, &g, r->s, r->tags[i], 0)) ||
		    (rc = make_key(&r->key, r->p, r->tags[i])))
			goto next;
		rc = mev_store_get(&data, &len, r->s, "clusters", r->key.ptr, r->key.len);
		if (rc && rc != MEV_ENOTFOUND)
			goto next;
		fresh = !rc && record_fp(data, len) == mev__graph_fingerprint(g);
		rc = 0;
		if (sequential(r->p)) {
			rc = sequential_one(r, i, g, data, len, fresh, &prev);
		} else if (fresh) {
			r->res->kept++;
		} else {
			r->todo[r->ntodo++] = i;
		}
next:
		free(data);
		mev_graph_free(g);
		mev_filemap_free(fm);
	}
	mev_clustering_free(prev);
	return rc;
}

/* Cluster r->todo here, one after the other. */
static int cluster_serial(run *r)
{
	int rc = 0;
	for (size_t k = 0; k < r->ntodo && !rc; k++) {
		mev_filemap *fm = NULL;
		mev_graph *g = NULL;
		const char *tag = r->tags[r->todo[k]];
		if (stopped(r))
			return mev_error_set(MEV_EINTR, "interrupted");
		progress(r, k + 1, r->ntodo, tag);
		if (!(rc = mev_release_load_graph(&fm, &g, r->s, tag, 0)) &&
		    !(rc = cluster_one(&r->val, g, r->p, NULL, NULL, tag)) && !(rc = make_key(&r->key, r->p, tag)) &&
		    !(rc = put_record(r->s, &r->key, r->val.ptr, r->val.len)))
			r->res->clustered++;
		mev_graph_free(g);
		mev_filemap_free(fm);
	}
	return rc;
}

/* In a worker: its own read-only handle on the store.  It lets go of its
 * copy of the writer's lock, which would else outlive a killed caller. */
static int worker_start(void *ctx)
{
	run *r = ctx;
	if (r->lockfd >= 0)
		close(r->lockfd);
	r->lockfd = -1;
	return mev_store_open(&r->ws, mev_store_dir(r->s), MEV_STORE_READ);
}

/* In a worker: the record of job k. */
static int worker_work(mev_buf *out, size_t k, void *ctx)
{
	run *r = ctx;
	const char *tag = r->tags[r->todo[k]];
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	int rc = mev_release_load_graph(&fm, &g, r->ws, tag, 0);
	if (!rc)
		rc = cluster_one(out, g, r->p, NULL, NULL, tag);
	mev_graph_free(g);
	mev_filemap_free(fm);
	return rc;
}

static void worker_finish(void *ctx)
{
	run *r = ctx;
	mev_store_free(r->ws);
	r->ws = NULL;
}

/* Here: store what a worker sent. */
static int worker_done(size_t k, const void *data, size_t len, void *ctx)
{
	run *r = ctx;
	const char *tag = r->tags[r->todo[k]];
	int rc;
	if ((rc = make_key(&r->key, r->p, tag)) || (rc = put_record(r->s, &r->key, data, len)))
		return rc;
	r->res->clustered++;
	progress(r, ++r->got, r->ntodo, tag);
	return 0;
}

/* Cluster r->todo in `jobs` worker processes; this process writes. */
static int cluster_parallel(run *r, int jobs)
{
	mev__workers w = { 0 };
	w.njobs = r->ntodo;
	w.workers = jobs;
	w.start = worker_start;
	w.work = worker_work;
	w.finish = worker_finish;
	w.done = worker_done;
	w.ctx = r;
	w.stop = r->o ? r->o->progress.stop : NULL;
	return mev__workers_run(&w);
}

int mev__cluster_run(mev_cluster_result *res, mev_store *s, const mev_cluster_params *p,
		     const mev_cluster_options *o, int lockfd)
{
	mev_release *list = NULL;
	run r = { 0 };
	int rc, jobs = o && o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	double t0 = mev__now();

	memset(res, 0, sizeof *res);
	if ((rc = mev_cluster_params_check(p)) || (rc = mev_release_list(&list, &r.n, s)))
		return rc;
	r.s = s;
	r.p = p;
	r.o = o;
	r.res = res;
	r.lockfd = lockfd;
	res->releases = r.n;
	r.todo = malloc((r.n + 1) * sizeof *r.todo);
	r.tags = calloc(r.n + 1, sizeof *r.tags);
	if (!r.todo || !r.tags) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t i = 0; i < r.n; i++)
		r.tags[i] = list[i].tag;
	if ((rc = scan(&r)) || sequential(p) || !r.ntodo)
		goto done;
	if (jobs > 1 && r.ntodo > 1)
		rc = cluster_parallel(&r, jobs);
	else
		rc = cluster_serial(&r);
done:
	res->seconds = mev__now() - t0;
	mev__buf_free(&r.key);
	mev__buf_free(&r.val);
	free(r.todo);
	free(r.tags);
	mev_release_list_free(list, r.n);
	return rc;
}

int mev__cluster_lock(int *lockfd, mev_store *s, const mev_progress *pr, double wait)
{
	return mev_store_lock_wait(lockfd, mev_store_dir(s), wait, pr ? pr->stop : NULL);
}

int mev_cluster_store(mev_cluster_result *res, mev_store *s, const mev_cluster_params *p,
		      const mev_cluster_options *o)
{
	int lockfd = -1, rc;
	memset(res, 0, sizeof *res);
	if ((rc = mev_cluster_params_check(p)) ||
	    (rc = mev__cluster_lock(&lockfd, s, o ? &o->progress : NULL, o ? o->wait : 0)))
		return rc;
	rc = mev__cluster_run(res, s, p, o, lockfd);
	close(lockfd);
	return rc;
}
