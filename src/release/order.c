/*
 * The order of releases by their names, in one place: tags in version order
 * (mev_tag_cmp()), snapshots by the day their names end in, the two merged
 * by date into the store's order (mev_release_order(), which the walk and
 * the release list follow); for readers that compare release names, the
 * ranks of a store's releases (ranges, pair records); the tags that go
 * back in time in version order (mev_release_backward()).  Which tags are
 * releases is each dialect's (mev_tag_is_release()); days are the
 * calendar's (maintevo/calendar.h).
 */
#include "release_internal.h"
#include "maintevo/calendar.h"
#include "maintevo/error.h"
#include "maintevo/tags.h"
#include "util/strmap.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* --- tags in version order, snapshot names ----------------------------------- */

/* A run of digits or of non-digits starting at *p; advances *p. */
static size_t run(const char **p, int *digits)
{
	const char *s = *p;
	*digits = isdigit((unsigned char)*s) != 0;
	while (**p && (isdigit((unsigned char)**p) != 0) == *digits)
		(*p)++;
	return (size_t)(*p - s);
}

int mev_tag_cmp(const char *a, const char *b)
{
	const char *pa = a, *pb = b;
	while (*pa && *pb) {
		const char *sa = pa, *sb = pb;
		int da, db;
		size_t la = run(&pa, &da), lb = run(&pb, &db);
		if (da && db) {
			while (la > 1 && *sa == '0') { sa++; la--; }
			while (lb > 1 && *sb == '0') { sb++; lb--; }
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = memcmp(sa, sb, la);
			if (c)
				return c < 0 ? -1 : 1;
		} else if (da != db) {
			return da ? 1 : -1;
		} else {
			size_t m = la < lb ? la : lb;
			int c = memcmp(sa, sb, m);
			if (c)
				return c < 0 ? -1 : 1;
			if (la != lb) {
				/* "-rc1" after a common prefix: the pre-release is older */
				const char *ra = sa + m, *rb = sb + m;
				if (la > lb)
					return *ra == '-' || *ra == '~' ? -1 : 1;
				return *rb == '-' || *rb == '~' ? 1 : -1;
			}
		}
	}
	if (*pa || *pb) {
		const char *rest = *pa ? pa : pb;
		int pre = *rest == '-' || *rest == '~';
		/* the longer one is newer (v6.1.1 > v6.1) unless it goes on with a pre-release */
		if (*pa)
			return pre ? -1 : 1;
		return pre ? 1 : -1;
	}
	return strcmp(a, b);
}

int mev_snapshot_parse(const char *name, int64_t *end, size_t *branch_len)
{
	const char *at = strrchr(name, '@');
	int64_t start;
	if (!at || at == name || !mev_day_scan(&start, at + 1))
		return 0;
	if (end)
		*end = start + 86399;
	if (branch_len)
		*branch_len = (size_t)(at - name);
	return 1;
}

/* --- the store's order ------------------------------------------------------- */

static int key_tag_cmp(const void *a, const void *b)
{
	return mev_tag_cmp(((const mev_release_key *)a)->name, ((const mev_release_key *)b)->name);
}

/* Snapshots by date, then name; v[i].time holds their dates here. */
static int key_date_cmp(const void *a, const void *b)
{
	const mev_release_key *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return strcmp(x->name, y->name);
}

int mev_release_order(mev_release_key *v, size_t n)
{
	mev_release_key *tags, *snaps;
	int64_t *when, *ctime;
	size_t nt = 0, ns = 0;
	if (n < 2)
		return 0;
	tags = malloc(n * sizeof *tags);
	snaps = malloc(n * sizeof *snaps);
	when = malloc(n * sizeof *when);
	ctime = malloc(n * sizeof *ctime);
	if (!tags || !snaps || !when || !ctime) {
		free(tags);
		free(snaps);
		free(when);
		free(ctime);
		return mev_error_oom();
	}
	for (size_t i = 0; i < n; i++) {
		int64_t end;
		if (mev_snapshot_parse(v[i].name, &end, NULL)) {
			snaps[ns] = v[i];
			snaps[ns].time = end; /* its date while sorting */
			snaps[ns++].index = i;
		} else {
			tags[nt++] = v[i];
		}
	}
	qsort(tags, nt, sizeof *tags, key_tag_cmp);
	qsort(snaps, ns, sizeof *snaps, key_date_cmp);
	/* a snapshot's own time and index back (index held its place in v) */
	for (size_t j = 0; j < ns; j++) {
		ctime[j] = v[snaps[j].index].time;
		snaps[j].index = v[snaps[j].index].index;
	}
	for (size_t i = 0; i < nt; i++)
		when[i] = i && when[i - 1] > tags[i].time ? when[i - 1] : tags[i].time;
	for (size_t i = 0, j = 0, k = 0; k < n; k++) {
		if (j == ns || (i < nt && when[i] <= snaps[j].time)) {
			v[k] = tags[i++];
		} else {
			v[k] = snaps[j];
			v[k].time = ctime[j++];
		}
	}
	free(tags);
	free(snaps);
	free(when);
	free(ctime);
	return 0;
}

size_t mev_release_backward(size_t *before, const mev_release_key *v, size_t n)
{
	size_t newest = 0, back = 0;
	for (size_t i = 0; i < n; i++) {
		before[i] = SIZE_MAX;
		if (i && v[i].time < v[newest].time) {
			before[i] = newest;
			back++;
		}
		if (v[i].time > v[newest].time)
			newest = i;
	}
	return back;
}

/* --- the ranks of a store's releases ----------------------------------------- */

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
