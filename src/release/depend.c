/*
 * The releases whose file table is a delta against another's: a release
 * whose table is replaced (stored again with another commit, or made a
 * repeat of the release before) takes them with it, re-encoded, in the
 * same transaction (docs/walking.md, "A branch rewritten, a tag moved or
 * deleted"), so that no table is ever decoded against a base it was not
 * made from.
 */
#include "release_internal.h"
#include "maintevo/error.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	mev_store *s;
	const char *base;
	MEV_VEC(char *) v;
} dep_ctx;

static int dep_cb(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	dep_ctx *x = c;
	char tag[MEV_RELEASE_TAG_MAX + 1], *t;
	mev_release m;
	int rc, hit;
	(void)data;
	(void)len;
	if (klen >= sizeof tag)
		return mev_error_set(MEV_ECORRUPT, "a release key is damaged");
	memcpy(tag, key, klen);
	tag[klen] = '\0';
	if ((rc = mev__release_get(&m, x->s, tag)))
		return rc;
	hit = m.has_files && !m.snapshot && strcmp(m.base, x->base) == 0;
	mev__release_clear(&m);
	if (!hit)
		return 0;
	if (!(t = strdup(tag)))
		return mev_error_oom();
	if (MEV_VEC_PUSH(&x->v, t)) {
		free(t);
		return mev_error_oom();
	}
	return 0;
}

int mev_release_dependents(char ***out, size_t *n, mev_store *s, const char *tag)
{
	dep_ctx x = { s, tag, { 0 } };
	int rc = mev_store_scan_raw(s, "releases", NULL, 0, dep_cb, &x);
	*out = NULL;
	*n = 0;
	if (rc) {
		for (size_t i = 0; i < x.v.n; i++)
			free(x.v.v[i]);
		MEV_VEC_FREE(&x.v);
		return rc;
	}
	*out = x.v.v;
	*n = x.v.n;
	return 0;
}

int mev_release_drop(mev_store *s, const char *tag)
{
	int rc = mev__alias_drop_stale(s, tag, NULL);
	return rc ? rc : mev_release_delete(s, tag);
}
