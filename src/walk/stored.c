/* The stored releases a walk knows of, in the store's order (walk_internal.h). */
#include "walk_internal.h"
#include "maintevo/error.h"
#include "maintevo/tags.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

int mev__stored_load(mev__stored_list *l, mev_store *s)
{
	mev_release *r = NULL;
	size_t n = 0;
	int rc = mev_release_list(&r, &n, s);
	if (!rc)
		rc = mev__vec_grow((void **)&l->v, &l->cap, l->n + n + 1, sizeof *l->v);
	for (size_t i = 0; i < n && !rc; i++) {
		mev__stored_rel e = { r[i].tag, r[i].commit, r[i].time, r[i].has_files,
				      r[i].rules_version, (uint32_t)i, 0 };
		r[i].tag = NULL;
		l->v[l->n++] = e;
		rc = mev__strmap_put(&l->ranks, e.tag, strlen(e.tag), e.rank);
	}
	mev_release_list_free(r, n);
	return rc;
}

void mev__stored_free(mev__stored_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].tag);
	free(l->v);
	mev__strmap_free(&l->ranks);
	memset(l, 0, sizeof *l);
}

static uint32_t rank_of(const mev__stored_list *l, const char *tag)
{
	int64_t k = mev__strmap_get(&l->ranks, tag, strlen(tag));
	return k < 0 ? UINT32_MAX : (uint32_t)k;
}

static int rel_cmp(const void *a, const void *b)
{
	uint32_t x = ((const mev__stored_rel *)a)->rank, y = ((const mev__stored_rel *)b)->rank;
	return (x > y) - (x < y);
}

int mev__stored_order(mev__stored_list *l, const mev_tag **work, size_t n)
{
	mev_release_key *k = malloc((l->n + n + 1) * sizeof *k);
	size_t m = 0;
	int rc = 0;
	if (!k)
		return mev_error_oom();
	for (size_t i = 0; i < l->n; i++)
		k[m++] = (mev_release_key){ l->v[i].tag, l->v[i].time, i };
	for (size_t i = 0; i < n; i++)
		if (mev__strmap_get(&l->ranks, work[i]->name, strlen(work[i]->name)) < 0)
			k[m++] = (mev_release_key){ work[i]->name, work[i]->time, l->n + i };
	if (!(rc = mev_release_order(k, m)))
		for (size_t i = 0; i < m && !rc; i++)
			rc = mev__strmap_put(&l->ranks, k[i].name, strlen(k[i].name), (uint32_t)i);
	free(k);
	if (rc)
		return rc;
	for (size_t i = 0; i < l->n; i++)
		l->v[i].rank = rank_of(l, l->v[i].tag);
	qsort(l->v, l->n, sizeof *l->v, rel_cmp);
	/* work in the same order: an insertion sort by rank (work is mostly in order) */
	for (size_t i = 1; i < n; i++) {
		const mev_tag *t = work[i];
		uint32_t r = rank_of(l, t->name);
		size_t j = i;
		for (; j > 0 && rank_of(l, work[j - 1]->name) > r; j--)
			work[j] = work[j - 1];
		work[j] = t;
	}
	return 0;
}

size_t mev__stored_pos(const mev__stored_list *l, const char *tag)
{
	uint32_t r = rank_of(l, tag);
	size_t lo = 0, hi = l->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->v[mid].rank < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const mev__stored_rel *mev__stored_find(const mev__stored_list *l, const char *tag)
{
	size_t i = mev__stored_pos(l, tag);
	return i < l->n && strcmp(l->v[i].tag, tag) == 0 ? &l->v[i] : NULL;
}

int mev__stored_put(mev__stored_list *l, const char *tag, const mev_oid *commit,
		    uint32_t rules_version)
{
	size_t i = mev__stored_pos(l, tag);
	mev__stored_rel e = { NULL, *commit, 0, 1, rules_version, rank_of(l, tag), 0 };
	if (i < l->n && strcmp(l->v[i].tag, tag) == 0) {
		e.tag = l->v[i].tag;
		e.time = l->v[i].time;
		l->v[i] = e;
		return 0;
	}
	if (!(e.tag = strdup(tag)) || mev__vec_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v)) {
		free(e.tag);
		return mev_error_oom();
	}
	/* the walk goes in the store's order: mostly an append */
	memmove(&l->v[i + 1], &l->v[i], (l->n - i) * sizeof e);
	l->v[i] = e;
	l->n++;
	return 0;
}
