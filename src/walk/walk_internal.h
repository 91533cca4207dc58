/* Shared by the files of the walk: the stored releases it knows of. */
#ifndef MEV_WALK_INTERNAL_H
#define MEV_WALK_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/release.h"

/* A stored release as the walk needs it. */
typedef struct {
	char *tag;
	mev_oid commit;
	uint8_t has_files;
	uint32_t rules_version;
} mev__stored_rel;

/*
 * The stored releases in version order (mev_tag_cmp), loaded once and kept
 * up to date as the walk stores releases: finding a tag or its neighbours
 * is a binary search, not a listing of the store (which decodes every
 * record: a walk of n new tags cost O(n^2) that way).
 */
typedef struct {
	mev__stored_rel *v;
	size_t n, cap;
} mev__stored_list;

/* Load the releases of `s` (errors as mev_release_list()). */
int mev__stored_load(mev__stored_list *l, mev_store *s);
void mev__stored_free(mev__stored_list *l);
/* The index of the first release not older than `tag` (l->n when none). */
size_t mev__stored_pos(const mev__stored_list *l, const char *tag);
/* The release `tag`, or NULL. */
const mev__stored_rel *mev__stored_find(const mev__stored_list *l, const char *tag);
/* `tag` is stored now (with its file table): added, or updated in place.
 * Errors: MEV_ENOMEM. */
int mev__stored_put(mev__stored_list *l, const char *tag, const mev_oid *commit,
		    uint32_t rules_version);

#endif
