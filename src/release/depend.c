/*
 * Which release's table each delta table is made against: a release whose
 * table is replaced (stored again with another commit, or made a repeat
 * of the release before) takes the tables made against it with it,
 * re-encoded, in the same transaction (docs/walking.md, "A branch
 * rewritten, a tag moved or deleted"), so that no table is ever decoded
 * against a base it was not made from.
 */
#include "release_internal.h"
#include "maintevo/error.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	mev_store *s;
	MEV_VEC(mev_release_base) v;
} base_ctx;

static int base_cb(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	base_ctx *x = c;
	char tag[MEV_RELEASE_TAG_MAX + 1];
	mev_release m;
	mev_release_base b = { NULL, NULL };
	int rc;
	(void)data;
	(void)len;
	if (klen >= sizeof tag)
		return mev_error_set(MEV_ECORRUPT, "a release key is damaged");
	memcpy(tag, key, klen);
	tag[klen] = '\0';
	if ((rc = mev__release_get(&m, x->s, tag)))
		return rc;
	if (m.has_files && !m.snapshot && (!(b.tag = strdup(tag)) || !(b.base = strdup(m.base)) ||
					   MEV_VEC_PUSH(&x->v, b))) {
		free(b.tag);
		free(b.base);
		rc = mev_error_oom();
	}
	mev__release_clear(&m);
	return rc;
}

int mev_release_bases(mev_release_base **out, size_t *n, mev_store *s)
{
	base_ctx x = { s, { 0 } };
	int rc = mev_store_scan_raw(s, "releases", NULL, 0, base_cb, &x);
	*out = NULL;
	*n = 0;
	if (rc) {
		mev_release_bases_free(x.v.v, x.v.n);
		return rc;
	}
	*out = x.v.v;
	*n = x.v.n;
	return 0;
}

void mev_release_bases_free(mev_release_base *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].tag);
		free(v[i].base);
	}
	free(v);
}

int mev_release_drop(mev_store *s, const char *tag)
{
	int rc = mev__alias_drop_stale(s, tag, NULL);
	return rc ? rc : mev_release_delete(s, tag);
}
