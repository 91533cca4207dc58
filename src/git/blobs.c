/*
 * Reading blobs: one (mev_repo_read_blob, with the blobs read lately kept)
 * and many in parallel (mev_repo_measure_blobs), through the pack reader
 * of src/git/packread.c and, for what it leaves, libgit2.
 */
#include "repo_internal.h"
#include "maintevo/error.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "util/text.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int mev__repo_packs(mev_repo *repo)
{
	char dir[4096];
	if (repo->packs_tried)
		return 0;
	/* the packs stay open, and their cache of delta bases filled, from
	 * one release of a walk to the next */
	repo->packs_tried = 1;
	snprintf(dir, sizeof dir, "%sobjects", git_repository_commondir(repo->git));
	return mev__packs_open(&repo->packs, dir) ? mev_error_oom() : 0;
}

int mev__repo_tree_memo(mev_repo *repo)
{
	int rc;
	pthread_mutex_lock(&repo->lock);
	rc = mev__repo_packs(repo);
	pthread_mutex_unlock(&repo->lock);
	repo->trees.packs = repo->packs;
	return rc;
}

/* Blobs kept in a generation of repo->recent: the newer one becomes the
 * older at this size; a blob larger than RECENT_MAX is not kept. */
enum { RECENT_GEN = 8 << 20, RECENT_MAX = 1 << 20 };

void mev__blob_gen_free(mev__blob_gen *g)
{
	for (size_t i = 0; i < g->v.n; i++)
		mev__buf_free(&g->v.v[i]);
	MEV_VEC_FREE(&g->v);
	mev__strmap_free(&g->idx);
	memset(g, 0, sizeof *g);
	g->idx = (mev_strmap)MEV_STRMAP_INIT;
}

/* Keep d[0..len) as blob `oid` in the newer generation (taken: *b is
 * emptied); not kept when out of memory. */
static void recent_put(mev_repo *repo, const mev_oid *oid, mev_buf *b)
{
	mev__blob_gen *g = &repo->recent[0];
	if (b->len > RECENT_MAX)
		return;
	if (g->bytes + b->len > RECENT_GEN) {
		mev__blob_gen_free(&repo->recent[1]);
		repo->recent[1] = *g;
		memset(g, 0, sizeof *g);
		g->idx = (mev_strmap)MEV_STRMAP_INIT;
	}
	if (MEV_VEC_PUSH(&g->v, *b))
		return;
	if (mev__strmap_put(&g->idx, (const char *)oid->id, 20, (uint32_t)(g->v.n - 1))) {
		g->v.n--;
		return;
	}
	g->bytes += b->len;
	memset(b, 0, sizeof *b);
}

/* Blob `oid` from repo->recent (moved to the newer generation) or through
 * the repository's pack reader: 1 (*data, *len), 0 when it leaves the blob
 * to libgit2, or an error. */
static int read_packed(char **data, size_t *len, mev_repo *repo, const mev_oid *oid)
{
	const unsigned char *d;
	mev_buf b = MEV_BUF_INIT;
	int rc = 0;
	pthread_mutex_lock(&repo->lock);
	for (int k = 0; k < 2 && !b.ptr; k++) {
		int64_t i = mev__strmap_get(&repo->recent[k].idx, (const char *)oid->id, 20);
		if (i >= 0 && repo->recent[k].v.v[i].ptr) {
			b = repo->recent[k].v.v[i];
			memset(&repo->recent[k].v.v[i], 0, sizeof b);
			repo->recent[k].bytes -= b.len;
		}
	}
	if (!b.ptr && !(rc = mev__repo_packs(repo)) && !repo->reader) {
		if ((repo->reader = malloc(sizeof *repo->reader)))
			mev__pack_reader_init(repo->reader, repo->packs);
		else
			rc = mev_error_oom();
	}
	if (!b.ptr && !rc && mev__pack_read_blob(repo->reader, oid, &d, len) &&
	    (mev__buf_put(&b, d, *len) || (*len == 0 && mev__buf_grow(&b, 1))))
		rc = mev_error_oom();
	if (!rc && b.ptr) {
		*len = b.len;
		if ((*data = malloc(b.len + 1))) {
			memcpy(*data, b.ptr, b.len);
			(*data)[b.len] = '\0';
			rc = 1;
			recent_put(repo, oid, &b);
		} else {
			rc = mev_error_oom();
		}
	}
	mev__buf_free(&b);
	pthread_mutex_unlock(&repo->lock);
	return rc;
}

int mev__repo_read_blob(char **data, size_t *len, mev_repo *repo, const mev_oid *oid, const char *what,
			 const char *why)
{
	git_odb *odb = NULL;
	git_odb_object *o = NULL;
	git_oid id;
	char hex[41];
	int rc = read_packed(data, len, repo, oid);
	if (rc)
		return rc < 0 ? rc : 0;
	memcpy(id.id, oid->id, 20);
	if (git_repository_odb(&odb, repo->git) < 0)
		return mev__repo_git_fail(MEV_EGIT, "cannot open object database");
	if ((rc = git_odb_read(&o, odb, &id)) < 0) {
		mev_oid_fmt(hex, oid);
		rc = rc == GIT_ENOTFOUND ? mev__repo_missing_blob(repo, oid, what, why)
					 : mev__repo_git_fail(MEV_EGIT, hex);
		goto done;
	}
	*len = git_odb_object_size(o);
	if (!(*data = malloc(*len + 1))) {
		rc = mev_error_oom();
		goto done;
	}
	memcpy(*data, git_odb_object_data(o), *len);
	(*data)[*len] = '\0';
done:
	git_odb_object_free(o);
	git_odb_free(odb);
	return rc;
}

int mev_repo_read_blob(char **data, size_t *len, mev_repo *repo, const mev_oid *oid)
{
	return mev__repo_read_blob(data, len, repo, oid, NULL, NULL);
}

/* --- parallel blob measuring ------------------------------------------ */

struct mev_measure {
	const char *path;
	mev__packs *packs;
	const mev_oid *oids;
	const uint64_t *places; /* or NULL: found in the indexes */
	size_t n;
	uint64_t *lines, *bytes;
	atomic_size_t next;
	atomic_int failed;
	volatile int *stop;
	int rc;
	pthread_mutex_t lock;
	char msg[512];
};

enum { CHUNK = 32 };

/* Open a handle of the repository for one worker (what the packs do not
 * hold is read through it). */
static int worker_odb(git_repository **git, git_odb **odb, const char *path)
{
	if (git_repository_open_ext(git, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0 ||
	    git_repository_odb(odb, *git) < 0)
		return mev__repo_git_fail(MEV_EGIT, "cannot open repository");
	return 0;
}

void mev_measure_work(mev_measure *job)
{
	git_repository *git = NULL;
	git_odb *odb = NULL;
	mev__pack_reader rd;
	int rc = 0;
	mev__pack_reader_init(&rd, job->packs);
	for (;;) {
		size_t i = atomic_fetch_add(&job->next, CHUNK), end;
		if (i >= job->n || atomic_load(&job->failed))
			break;
		if (job->stop && *job->stop) {
			rc = mev_error_set(MEV_EINTR, "interrupted");
			break;
		}
		end = i + CHUNK < job->n ? i + CHUNK : job->n;
		for (; i < end; i++) {
			git_odb_object *o = NULL;
			git_oid id;
			const unsigned char *data;
			size_t len;
			if (job->places ? mev__pack_read_blob_at(&rd, job->places[i], &data, &len)
					: mev__pack_read_blob(&rd, &job->oids[i], &data, &len)) {
				job->bytes[i] = len;
				job->lines[i] = mev__count_newlines(data, len);
				continue;
			}
			if (!odb && (rc = worker_odb(&git, &odb, job->path)))
				goto done;
			memcpy(id.id, job->oids[i].id, 20);
			int r = git_odb_read(&o, odb, &id);
			if (r == GIT_ENOTFOUND) {
				/* a partial or damaged clone: say so, do not stop */
				git_error_clear();
				job->lines[i] = job->bytes[i] = UINT64_MAX;
				continue;
			}
			if (r < 0) {
				char hex[41];
				mev_oid_fmt(hex, &job->oids[i]);
				rc = mev__repo_git_fail(MEV_EGIT, hex);
				goto done;
			}
			job->bytes[i] = git_odb_object_size(o);
			job->lines[i] = mev__count_newlines(git_odb_object_data(o), git_odb_object_size(o));
			git_odb_object_free(o);
		}
	}
done:
	if (rc) {
		pthread_mutex_lock(&job->lock);
		if (!atomic_exchange(&job->failed, 1)) {
			job->rc = rc;
			snprintf(job->msg, sizeof job->msg, "%s", mev_error_message());
		}
		pthread_mutex_unlock(&job->lock);
	}
	mev__pack_reader_free(&rd);
	git_odb_free(odb);
	git_repository_free(git);
}

int mev_measure_new(mev_measure **out, mev_repo *repo, const mev_oid *oids, size_t n,
		    uint64_t *lines, uint64_t *bytes, volatile int *stop)
{
	mev_measure *job;
	int rc;
	*out = NULL;
	pthread_mutex_lock(&repo->lock);
	rc = mev__repo_packs(repo);
	pthread_mutex_unlock(&repo->lock);
	if (rc)
		return rc;
	if (!(job = calloc(1, sizeof *job)))
		return mev_error_oom();
	job->path = git_repository_path(repo->git);
	job->packs = repo->packs;
	job->oids = oids;
	job->n = n;
	job->lines = lines;
	job->bytes = bytes;
	job->stop = stop;
	atomic_init(&job->next, 0);
	atomic_init(&job->failed, 0);
	pthread_mutex_init(&job->lock, NULL);
	*out = job;
	return 0;
}

int mev_measure_end(mev_measure *job)
{
	int rc;
	if (!job)
		return 0;
	rc = job->rc ? mev_error_set(job->rc, "%s", job->msg) : 0;
	pthread_mutex_destroy(&job->lock);
	free(job);
	return rc;
}

static void *measure_thread(void *arg)
{
	mev_measure_work(arg);
	return NULL;
}

int mev_repo_measure_blobs(uint64_t *lines, uint64_t *bytes, mev_repo *repo,
			   const mev_oid *oids, size_t n, int jobs, volatile int *stop)
{
	return mev_repo_measure_at(lines, bytes, repo, oids, NULL, n, jobs, stop);
}

int mev_repo_measure_at(uint64_t *lines, uint64_t *bytes, mev_repo *repo, const mev_oid *oids,
			const uint64_t *places, size_t n, int jobs, volatile int *stop)
{
	mev_measure *job;
	pthread_t th[64];
	int started = 0;
	int rc = mev_measure_new(&job, repo, oids, n, lines, bytes, stop);
	if (rc)
		return rc;
	job->places = places;
	if (jobs <= 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = c > 0 ? (int)c : 1;
	}
	if (jobs > 64)
		jobs = 64;
	if ((size_t)jobs > n / CHUNK + 1)
		jobs = (int)(n / CHUNK + 1);
	for (int t = 1; t < jobs; t++)
		if (pthread_create(&th[started], NULL, measure_thread, job) == 0)
			started++;
	mev_measure_work(job); /* the calling thread works too */
	for (int t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	return mev_measure_end(job);
}

void mev__repo_blobs_free(mev_repo *repo)
{
	if (repo->reader) {
		mev__pack_reader_free(repo->reader);
		free(repo->reader);
	}
	mev__blob_gen_free(&repo->recent[0]);
	mev__blob_gen_free(&repo->recent[1]);
	mev__packs_free(repo->packs);
}

typedef struct {
	uint64_t off;
	uint32_t pack;
	uint32_t at;      /* its place in the list (objects in no pack keep their order) */
	mev_oid oid;
} placed;

static int placed_cmp(const void *x, const void *y)
{
	const placed *a = x, *b = y;
	if (a->pack != b->pack)
		return a->pack < b->pack ? -1 : 1;
	if (a->off != b->off)
		return a->off > b->off ? -1 : 1; /* from the end of the pack */
	return a->at < b->at ? -1 : a->at > b->at;
}

/* Where each of a range of blobs lies (a lookup in the pack index each:
 * memory latency, so the halves of a long list go to two threads). */
typedef struct {
	const mev__packs *packs;
	const mev_oid *oids;
	placed *v;
	size_t from, to;
} placing;

static void *place(void *arg)
{
	placing *p = arg;
	for (size_t i = p->from; i < p->to; i++) {
		p->v[i].oid = p->oids[i];
		p->v[i].at = (uint32_t)i;
		if (!mev__packs_where(p->packs, &p->oids[i], &p->v[i].pack, &p->v[i].off)) {
			p->v[i].pack = UINT32_MAX;
			p->v[i].off = 0;
		}
	}
	return NULL;
}

int mev_repo_read_order(mev_repo *repo, mev_oid *oids, size_t n)
{
	return mev_repo_read_order_at(repo, oids, NULL, n);
}

int mev_repo_read_order_at(mev_repo *repo, mev_oid *oids, uint64_t *places, size_t n)
{
	placed *v;
	placing a, b;
	pthread_t th;
	int rc, two;
	pthread_mutex_lock(&repo->lock);
	rc = mev__repo_packs(repo);
	pthread_mutex_unlock(&repo->lock);
	if (rc || n < 1)
		return rc;
	if (!(v = malloc(n * sizeof *v)))
		return mev_error_oom();
	a = (placing){ repo->packs, oids, v, 0, n >= 65536 ? n / 2 : n };
	b = (placing){ repo->packs, oids, v, a.to, n };
	two = b.from < n && pthread_create(&th, NULL, place, &b) == 0;
	place(&a);
	if (two)
		pthread_join(th, NULL);
	else
		place(&b);
	qsort(v, n, sizeof *v, placed_cmp);
	for (size_t i = 0; i < n; i++) {
		oids[i] = v[i].oid;
		if (places)
			places[i] = v[i].pack == UINT32_MAX ? MEV__NOWHERE : (uint64_t)v[i].pack << 48 | v[i].off;
	}
	free(v);
	return 0;
}

void mev_repo_read_cache(mev_repo *repo, size_t bytes)
{
	pthread_mutex_lock(&repo->lock);
	if (!mev__repo_packs(repo))
		mev__packs_cache_limit(repo->packs, bytes);
	pthread_mutex_unlock(&repo->lock);
}
