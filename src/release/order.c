/*
 * The order of a store's releases, by name: tags in version order,
 * snapshots by date, the two merged by date (mev_release_order()), for
 * readers that compare release names (ranges, pair records).
 */
#include "release_internal.h"
#include "maintevo/error.h"
#include "maintevo/tags.h"
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

struct mev_release_ranks {
	mev_release *v;      /* in the store's order */
	size_t n;
	int64_t *when;       /* the date each stands at in the merge */
	mev_strmap idx;      /* name -> index */
};

int64_t mev_release_date(const mev_release *r)
{
	int64_t end;
	return mev_snapshot_parse(r->tag, &end, NULL) ? end : r->time;
}

const char *mev_release_kind(const char *name)
{
	return mev_snapshot_parse(name, NULL, NULL) ? "snapshot" : "tag";
}

int mev_release_ranks_load(mev_release_ranks **out, mev_store *s)
{
	mev_release_ranks *r = calloc(1, sizeof *r);
	int rc;
	*out = NULL;
	if (!r)
		return mev_error_oom();
	r->idx = (mev_strmap)MEV_STRMAP_INIT;
	if ((rc = mev_release_list(&r->v, &r->n, s)))
		goto fail;
	if (!(r->when = malloc((r->n + 1) * sizeof *r->when))) {
		rc = mev_error_oom();
		goto fail;
	}
	for (size_t i = 0; i < r->n; i++) {
		int64_t end;
		if (mev_snapshot_parse(r->v[i].tag, &end, NULL))
			r->when[i] = end;
		else
			r->when[i] = i && r->when[i - 1] > r->v[i].time ? r->when[i - 1] : r->v[i].time;
		if ((rc = mev__strmap_put(&r->idx, r->v[i].tag, strlen(r->v[i].tag), (uint32_t)i)))
			goto fail;
	}
	*out = r;
	return 0;
fail:
	mev_release_ranks_free(r);
	return rc;
}

void mev_release_ranks_free(mev_release_ranks *r)
{
	if (!r)
		return;
	mev_release_list_free(r->v, r->n);
	free(r->when);
	mev__strmap_free(&r->idx);
	free(r);
}

int64_t mev_release_rank(const mev_release_ranks *r, const char *name)
{
	int64_t i = mev__strmap_get(&r->idx, name, strlen(name)), end, at = -1;
	if (i >= 0)
		return 2 * i;
	/* not stored: after the last release it would follow */
	if (mev_snapshot_parse(name, &end, NULL)) {
		for (size_t k = 0; k < r->n; k++)
			if (r->when[k] < end || (r->when[k] == end && (!mev_snapshot_parse(r->v[k].tag, NULL, NULL) ||
								      strcmp(r->v[k].tag, name) < 0)))
				at = (int64_t)k;
	} else {
		for (size_t k = 0; k < r->n; k++)
			if (!mev_snapshot_parse(r->v[k].tag, NULL, NULL) && mev_tag_cmp(r->v[k].tag, name) < 0)
				at = (int64_t)k;
	}
	return 2 * at + 1;
}

size_t mev_release_ranks_count(const mev_release_ranks *r)
{
	return r->n;
}

/* --- a range --from .. --to, checked the same way for every command ---------- */

static int64_t index_of(const mev_release *list, size_t n, const char *tag)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i].tag, tag) == 0)
			return (int64_t)i;
	return -1;
}

int mev_release_range(size_t *lo, size_t *hi, mev_store *s, const mev_release *list, size_t n,
		      const char *from, const char *to, int strict)
{
	int64_t a = 0, b = (int64_t)n - 1;
	*lo = 0;
	*hi = n ? n - 1 : 0;
	if (from && (a = index_of(list, n, from)) < 0)
		return mev_release_not_stored(s, from);
	if (to && (b = index_of(list, n, to)) < 0)
		return mev_release_not_stored(s, to);
	if (from && to && (a > b || (strict && a == b))) {
		if (a > b)
			mev_error_set(MEV_EINVAL, "--from '%s' comes after --to '%s': the range is reversed",
				      from, to);
		else
			mev_error_set(MEV_EINVAL, "--from and --to name the same release '%s': the range "
				      "needs two", from);
		mev_error_hint("releases are in version order, oldest first: see 'maintevo releases "
			       "--store %s'", mev_store_dir(s));
		return MEV_EINVAL;
	}
	*lo = (size_t)a;
	*hi = (size_t)b;
	return 0;
}
