/*
 * Releases that repeat another ("aliases", record A): a snapshot of a
 * period with no new commit has the tree of the release before it, so it
 * stores only its name, its commit and time, and the release whose
 * records it reads (docs/store-format.md).  An alias is never the base of
 * a file table, and a release stored again with another commit takes its
 * aliases with it in the same transaction: an alias always reads a
 * release of its own commit.
 */
#include "release_internal.h"
#include "maintevo/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int decode(mev__alias *a, const void *val, size_t len)
{
	mev__record_reader r;
	size_t n;
	const char *p;
	memset(a, 0, sizeof *a);
	mev__record_reader_init(&r, val, len);
	p = mev__get_str(&r, &n);
	if (!r.bad && n < sizeof a->target) {
		memcpy(a->target, p, n);
		a->target[n] = '\0';
	} else {
		r.bad = 1;
	}
	mev__get_bytes(a->commit.id, &r, 20);
	a->time = mev__get_sv(&r);
	return r.bad || !a->target[0] ? mev_error_set(MEV_ECORRUPT, "an alias record is damaged") : 0;
}

int mev__alias_get(mev__alias *a, mev_store *s, const char *tag)
{
	void *val;
	size_t len;
	int rc = mev_store_get_record(&val, &len, s, MEV__ALIAS_TABLE, 'A', tag, strlen(tag));
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		return MEV_ENOTFOUND;
	}
	if (rc)
		return rc;
	rc = decode(a, val, len);
	free(val);
	if (rc)
		mev_error_prefix("release '%s'", tag);
	return rc;
}

const char *mev__release_resolve(char *buf, size_t size, mev_store *s, const char *tag)
{
	mev__alias a;
	if (mev__alias_get(&a, s, tag) != 0) {
		mev_error_clear();
		return tag;
	}
	snprintf(buf, size, "%s", a.target);
	return buf;
}

static int put_record(mev_store *s, const char *tag, const char *target, const mev_oid *commit,
		      int64_t time)
{
	mev_buf b = MEV_BUF_INIT;
	int rc = mev__put_cstr(&b, target) | mev__buf_put(&b, commit->id, 20) | mev__put_sv(&b, time);
	if (rc)
		rc = mev_error_oom();
	else
		rc = mev_store_put_record(NULL, s, MEV__ALIAS_TABLE, 'A', MEV__RELEASE_LEVEL, tag,
					  strlen(tag), b.ptr, b.len);
	mev__buf_free(&b);
	return rc;
}

/* The repeats of `tag`, which becomes a repeat of `target` itself: those
 * of its new commit repeat target now, the others (of the tree it had)
 * go with it, as when a release is stored again (mev__alias_drop_stale). */
typedef struct {
	const char *tag;
	MEV_VEC(mev__alias) v;
	MEV_VEC(char *) names;
} repeats_ctx;

static int repeats_cb(void *c, const char *tag, const mev__alias *a)
{
	repeats_ctx *x = c;
	char *t;
	if (a->damaged || strcmp(a->target, x->tag))
		return 0;
	if (!(t = strdup(tag)) || MEV_VEC_PUSH(&x->names, t)) {
		free(t);
		return mev_error_oom();
	}
	return MEV_VEC_PUSH(&x->v, *a) ? mev_error_oom() : 0;
}

static int move_repeats(mev_store *s, const char *tag, const char *target, const mev_oid *commit)
{
	repeats_ctx x = { tag, { 0 }, { 0 } };
	int rc = mev__alias_scan(s, repeats_cb, &x);
	for (size_t i = 0; i < x.names.n; i++) {
		if (!rc && i < x.v.n && mev_oid_equal(&x.v.v[i].commit, commit))
			rc = put_record(s, x.names.v[i], target, commit, x.v.v[i].time);
		else if (!rc)
			rc = mev_store_delete(s, MEV__ALIAS_TABLE, x.names.v[i], strlen(x.names.v[i]));
		free(x.names.v[i]);
	}
	MEV_VEC_FREE(&x.names);
	MEV_VEC_FREE(&x.v);
	return rc;
}

int mev_release_put_alias(mev_store *s, const char *tag, const char *target, const mev_oid *commit,
			  int64_t time)
{
	char real[MEV_RELEASE_TAG_MAX + 1];
	int rc;
	/* the release it repeats, never another alias */
	target = mev__release_resolve(real, sizeof real, s, target);
	if (strcmp(target, tag) == 0)
		return mev_error_set(MEV_EINVAL, "release '%s' cannot repeat itself", tag);
	if ((rc = move_repeats(s, tag, target, commit)) || (rc = mev_release_delete(s, tag)))
		return rc;
	return put_record(s, tag, target, commit, time);
}

int mev_release_is_alias(mev_store *s, const char *tag)
{
	mev__alias a;
	return mev__alias_get(&a, s, tag) == 0;
}

/* --- every alias ------------------------------------------------------------- */

typedef struct {
	int (*fn)(void *ctx, const char *tag, const mev__alias *a);
	void *ctx;
} scan_ctx;

static int scan_cb(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	scan_ctx *x = c;
	mev__alias a;
	char tag[MEV_RELEASE_TAG_MAX + 1];
	void *val = NULL;
	size_t n;
	int rc;
	if (klen >= sizeof tag)
		return mev_error_set(MEV_ECORRUPT, "an alias key is damaged");
	memcpy(tag, key, klen);
	tag[klen] = '\0';
	if ((rc = mev_store_unpack(&val, &n, 'A', data, len)) == 0)
		rc = decode(&a, val, n);
	free(val);
	if (rc) {
		mev_error_prefix("release '%s'", tag);
		memset(&a, 0, sizeof a);
		a.damaged = 1;
		mev_error_clear();
	}
	return x->fn(x->ctx, tag, &a);
}

int mev__alias_scan(mev_store *s, int (*fn)(void *ctx, const char *tag, const mev__alias *a), void *ctx)
{
	scan_ctx x = { fn, ctx };
	return mev_store_scan_raw(s, MEV__ALIAS_TABLE, NULL, 0, scan_cb, &x);
}

/* The aliases of `target` whose commit is not `commit`: their names. */
typedef struct {
	const char *target;
	const mev_oid *commit;
	MEV_VEC(char *) stale;
} stale_ctx;

static int stale_cb(void *c, const char *tag, const mev__alias *a)
{
	stale_ctx *x = c;
	char *t;
	if (a->damaged || strcmp(a->target, x->target) || (x->commit && mev_oid_equal(&a->commit, x->commit)))
		return 0;
	if (!(t = strdup(tag)) || MEV_VEC_PUSH(&x->stale, t)) {
		free(t);
		return mev_error_oom();
	}
	return 0;
}

int mev__alias_drop_stale(mev_store *s, const char *target, const mev_oid *commit)
{
	stale_ctx x = { target, commit, { 0 } };
	int rc = mev__alias_scan(s, stale_cb, &x);
	for (size_t i = 0; i < x.stale.n; i++) {
		if (!rc)
			rc = mev_store_delete(s, MEV__ALIAS_TABLE, x.stale.v[i], strlen(x.stale.v[i]));
		free(x.stale.v[i]);
	}
	MEV_VEC_FREE(&x.stale);
	return rc;
}
