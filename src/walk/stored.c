/* The stored releases a walk knows of, in version order (walk_internal.h). */
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
		mev__stored_rel e = { r[i].tag, r[i].commit, r[i].has_files, r[i].rules_version };
		r[i].tag = NULL;
		l->v[l->n++] = e;
	}
	mev_release_list_free(r, n);
	return rc;
}

void mev__stored_free(mev__stored_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].tag);
	free(l->v);
	memset(l, 0, sizeof *l);
}

size_t mev__stored_pos(const mev__stored_list *l, const char *tag)
{
	size_t lo = 0, hi = l->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (mev_tag_cmp(l->v[mid].tag, tag) < 0)
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
	mev__stored_rel e = { NULL, *commit, 1, rules_version };
	if (i < l->n && strcmp(l->v[i].tag, tag) == 0) {
		e.tag = l->v[i].tag;
		l->v[i] = e;
		return 0;
	}
	if (!(e.tag = strdup(tag)) || mev__vec_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v)) {
		free(e.tag);
		return mev_error_oom();
	}
	/* the walk goes in version order: mostly an append */
	memmove(&l->v[i + 1], &l->v[i], (l->n - i) * sizeof e);
	l->v[i] = e;
	l->n++;
	return 0;
}
