/*
 * Which stored table is a delta against which (walk_internal.h,
 * mev__walk_bases): read from the store once, when a release that has a
 * table is first stored again, then kept up to date by the writer, so
 * that finding the tables made against a release costs no reading of
 * every release record (a walk that stores again each of a few thousand
 * releases, after a change of the matching rules, would read them all
 * for each).  The changes of a transaction count once it is committed: a
 * transaction done again (the map grown) starts from what was committed.
 */
#include "walk_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

typedef mev__walker walker;

void mev__walk_bases_free(mev__walk_bases *b)
{
	mev_release_bases_free(b->v, b->n);
	mev_release_bases_free(b->pending.v, b->pending.n);
	memset(b, 0, sizeof *b);
}

void mev__walk_bases_begin(mev__walk_bases *b)
{
	if (b->open && b->loaded_now) {
		/* the last transaction was not committed, and the table was
		 * read inside it: what it read may be undone */
		mev_release_bases_free(b->v, b->n);
		b->v = NULL;
		b->n = b->cap = 0;
		b->loaded = 0;
	}
	mev_release_bases_free(b->pending.v, b->pending.n);
	memset(&b->pending, 0, sizeof b->pending);
	b->open = 1;
	b->loaded_now = 0;
}

/* The entry of `tag` among v[0..n), or n. */
static size_t find(const mev_release_base *v, size_t n, const char *tag)
{
	size_t i = 0;
	while (i < n && strcmp(v[i].tag, tag))
		i++;
	return i;
}

void mev__walk_bases_commit(mev__walk_bases *b)
{
	for (size_t k = 0; k < b->pending.n && b->loaded; k++) {
		mev_release_base *p = &b->pending.v[k];
		size_t i = find(b->v, b->n, p->tag);
		if (i < b->n && !p->base) {
			free(b->v[i].tag);
			free(b->v[i].base);
			b->v[i] = b->v[--b->n];
		} else if (i < b->n) {
			free(b->v[i].base);
			b->v[i].base = p->base;
			p->base = NULL;
		} else if (p->base) {
			if (b->n == b->cap) {
				mev_release_base *nv = realloc(b->v, (b->cap = b->cap ? 2 * b->cap : 64) * sizeof *nv);
				if (!nv) { /* read again when next needed */
					mev_release_bases_free(b->v, b->n);
					b->v = NULL;
					b->n = b->cap = 0;
					b->loaded = 0;
					continue;
				}
				b->v = nv;
			}
			b->v[b->n++] = *p;
			p->tag = p->base = NULL;
		}
	}
	mev_release_bases_free(b->pending.v, b->pending.n);
	memset(&b->pending, 0, sizeof b->pending);
	b->open = 0;
}

/* Record that `tag`'s table is now made against `base` (NULL: stored
 * whole, a repeat, or dropped). */
static int note(mev__walk_bases *b, const char *tag, const char *base)
{
	mev_release_base e = { strdup(tag), base ? strdup(base) : NULL };
	if (!e.tag || (base && !e.base) || MEV_VEC_PUSH(&b->pending, e)) {
		free(e.tag);
		free(e.base);
		return mev_error_oom();
	}
	return 0;
}

/* Nothing is noted before the table is read: reading it then reads the
 * transaction's own writes. */
int mev__walk_bases_gone(walker *w, const char *tag)
{
	return w->cache.bases.loaded ? note(&w->cache.bases, tag, NULL) : 0;
}

int mev__walk_bases_written(walker *w, const char *tag)
{
	mev_release *rel = NULL;
	int rc;
	if (!w->cache.bases.loaded)
		return 0;
	rc = mev_release_find(&rel, w->run.store, tag);
	if (!rc)
		rc = note(&w->cache.bases, tag, rel->has_files && !rel->snapshot ? rel->base : NULL);
	mev_release_free(rel);
	return rc;
}

int mev__walk_bases_of(char ***out, size_t *n, walker *w, const char *base)
{
	mev__walk_bases *b = &w->cache.bases;
	char **v;
	int rc = 0;
	*out = NULL;
	*n = 0;
	if (!b->loaded) {
		if ((rc = mev_release_bases(&b->v, &b->n, w->run.store)))
			return rc;
		b->cap = b->n;
		b->loaded = b->loaded_now = 1;
	}
	if (!(v = calloc(b->n + b->pending.n + 1, sizeof *v)))
		return mev_error_oom();
	/* as committed, then as this transaction changed it */
	for (size_t i = 0; i < b->n && !rc; i++) {
		size_t k = b->pending.n;
		while (k > 0 && strcmp(b->pending.v[k - 1].tag, b->v[i].tag))
			k--;
		const char *now = k ? b->pending.v[k - 1].base : b->v[i].base;
		if (now && strcmp(now, base) == 0 && !(v[(*n)++] = strdup(b->v[i].tag)))
			rc = mev_error_oom();
	}
	for (size_t k = 0; k < b->pending.n && !rc; k++) {
		const mev_release_base *p = &b->pending.v[k];
		int latest = find(b->pending.v + k + 1, b->pending.n - k - 1, p->tag) == b->pending.n - k - 1;
		if (latest && p->base && strcmp(p->base, base) == 0 && find(b->v, b->n, p->tag) == b->n &&
		    !(v[(*n)++] = strdup(p->tag)))
			rc = mev_error_oom();
	}
	if (rc) {
		for (size_t i = 0; i < *n; i++)
			free(v[i]);
		free(v);
		*n = 0;
		return rc;
	}
	*out = v;
	return 0;
}
