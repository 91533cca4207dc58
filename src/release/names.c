/* The display names of stored releases' sections, read once per release as asked. */
#include "release_internal.h"
#include "maintevo/error.h"
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

/* One release read: its sections (NULL when not stored) by title. */
typedef struct {
	mev_filemap *secs;
	mev_strmap by_title;
} names_rel;

struct mev_release_names {
	mev_store *s;
	mev_strmap tags;           /* tag -> index in rel */
	MEV_VEC(names_rel) rel;
};

int mev_release_names_new(mev_release_names **out, mev_store *s)
{
	*out = calloc(1, sizeof **out);
	if (!*out)
		return mev_error_oom();
	(*out)->s = s;
	return 0;
}

void mev_release_names_free(mev_release_names *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->rel.n; i++) {
		mev_filemap_free(n->rel.v[i].secs);
		mev__strmap_free(&n->rel.v[i].by_title);
	}
	MEV_VEC_FREE(&n->rel);
	mev__strmap_free(&n->tags);
	free(n);
}

/* A title that may differ from its display name: an underline or a comment. */
static int may_differ(const char *title)
{
	while (*title == ' ' || *title == '\t')
		title++;
	return *title == '#' || *title == '-' || *title == '=';
}

/* Read the sections of `tag` into a new entry of n (none when not stored). */
static int read_release(names_rel **out, mev_release_names *n, const char *tag)
{
	names_rel e = { NULL, MEV_STRMAP_INIT };
	mev__record_reader r;
	void *rec = NULL;
	int rc;
	if ((rc = mev_store_read_begin(n->s)))
		return rc;
	rc = mev__release_sections(&e.secs, &r, &rec, n->s, tag);
	mev_store_read_end(n->s);
	free(rec);
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		rc = 0;
	}
	if (rc)
		return mev__release_damaged(n->s, rc, tag);
	if (e.secs) {
		const mev_section_info *si = mev_filemap_sections(e.secs);
		for (size_t i = 0; i < mev_filemap_section_count(e.secs) && !rc; i++)
			rc = mev__strmap_put(&e.by_title, si[i].title, strlen(si[i].title), (uint32_t)i);
	}
	if (rc || mev__strmap_put(&n->tags, tag, strlen(tag), (uint32_t)n->rel.n) ||
	    MEV_VEC_PUSH(&n->rel, e)) {
		mev_filemap_free(e.secs);
		mev__strmap_free(&e.by_title);
		return mev_error_oom();
	}
	*out = &n->rel.v[n->rel.n - 1];
	return 0;
}

int mev_release_display(const char **out, mev_release_names *n, const char *tag, const char *title)
{
	int64_t k;
	names_rel *e = NULL;
	int rc;
	*out = title;
	if (!may_differ(title))
		return 0;
	k = mev__strmap_get(&n->tags, tag, strlen(tag));
	if (k >= 0)
		e = &n->rel.v[k];
	else if ((rc = read_release(&e, n, tag)))
		return rc;
	if (e && e->secs && (k = mev__strmap_get(&e->by_title, title, strlen(title))) >= 0)
		*out = mev_filemap_sections(e->secs)[k].display;
	return 0;
}
