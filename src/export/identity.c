/* One person, many addresses: the identity fold of the activity index. */
/*
 * Flow keys a person by the address .mailmap leaves (mev__export_flow_person()).
 * Projects' .mailmap files miss many of a person's addresses: U-Boot's
 * Marek Vasut is listed as marex@denx.de and commits as
 * marek.vasut+usb@mailbox.org, marek.vasut+renesas@mailbox.org and
 * others.  The activity index (activity.c) keeps one id per address and
 * joins ids into persons here, by --fold (docs/people.md, "Identities"):
 *
 *   none       flow's keys as they are;
 *   addresses  addresses equal but for case and a "+tag" in the local part
 *              ("local+tag@domain" is "local@domain") are one person;
 *   names      (the default) also addresses seen under one full name: at
 *              least two words, compared without case and with runs of
 *              white space as one space, so that a handle ("root", "tom")
 *              never joins two people.
 *
 * The persons are a union-find forest over the ids (union by size, so a
 * find is a short walk and the index stays const when read), with a ring
 * of members per person to list its addresses.
 */
#include "export_internal.h"
#include "maintevo/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void mev__fold_free(mev__fold *f)
{
	MEV_VEC_FREE(&f->parent);
	MEV_VEC_FREE(&f->size);
	MEV_VEC_FREE(&f->next);
	mev__strmap_free(&f->by_address);
	mev__strmap_free(&f->by_name);
	mev__buf_free(&f->buf);
}

uint32_t mev__fold_root(const mev__fold *f, uint32_t id)
{
	while (f->parent.v[id] != id)
		id = f->parent.v[id];
	return id;
}

uint32_t mev__fold_next(const mev__fold *f, uint32_t id)
{
	return f->next.v[id];
}

/* Join the persons of ids x and y (the larger keeps its root). */
static void join(mev__fold *f, uint32_t x, uint32_t y)
{
	uint32_t rx = mev__fold_root(f, x), ry = mev__fold_root(f, y), t;
	if (rx == ry)
		return;
	if (f->size.v[rx] < f->size.v[ry] || (f->size.v[rx] == f->size.v[ry] && ry < rx)) {
		t = rx;
		rx = ry;
		ry = t;
	}
	f->parent.v[ry] = rx;
	f->size.v[rx] += f->size.v[ry];
	/* two rings become one by swapping one successor each */
	t = f->next.v[rx];
	f->next.v[rx] = f->next.v[ry];
	f->next.v[ry] = t;
}

/* Address `key` lowercased, with a "+tag" of its local part left out, into b. */
static int canon_address(mev_buf *b, const char *key)
{
	const char *at = strchr(key, '@'), *plus = at ? memchr(key, '+', (size_t)(at - key)) : NULL;
	mev__buf_clear(b);
	if (plus == key)
		plus = NULL; /* "+x@domain": no local part left to keep */
	for (const char *c = key; *c; c++) {
		if (plus && c == plus)
			c = at;
		if (mev__buf_putc(b, (char)tolower((unsigned char)*c)))
			return mev_error_oom();
	}
	return 0;
}

int mev__fold_same_address(mev__fold *f, const char *x, const char *y, int *same)
{
	mev_buf other = { 0 };
	int rc = canon_address(&f->buf, x);
	if (!rc && !(rc = canon_address(&other, y)))
		*same = f->buf.len == other.len && memcmp(f->buf.ptr, other.ptr, other.len) == 0;
	mev__buf_free(&other);
	return rc;
}

/* Name normalised into b (case, white space); 0 when it has fewer than two words. */
static int canon_name(mev_buf *b, const char *name, int *words)
{
	int space = 1;
	*words = 0;
	mev__buf_clear(b);
	for (const char *c = name; *c; c++) {
		if (isspace((unsigned char)*c)) {
			space = 1;
			continue;
		}
		if (space && ((*words)++ && mev__buf_putc(b, ' ')))
			return mev_error_oom();
		space = 0;
		if (mev__buf_putc(b, (char)tolower((unsigned char)*c)))
			return mev_error_oom();
	}
	return 0;
}

/* Join id to the first id filed under b's bytes in m (filing it when none is). */
static int join_by(mev__fold *f, mev_strmap *m, uint32_t id)
{
	uint32_t first;
	int added;
	if (mev__strmap_intern(m, f->buf.ptr ? f->buf.ptr : "", f->buf.len, id, &first, &added))
		return mev_error_oom();
	if (!added)
		join(f, first, id);
	return 0;
}

int mev__fold_add(mev__fold *f, uint32_t id, const char *key)
{
	int rc;
	if (MEV_VEC_PUSH(&f->parent, id) || MEV_VEC_PUSH(&f->size, 1) || MEV_VEC_PUSH(&f->next, id))
		return mev_error_oom();
	if (f->mode == MEV_EXPORT_FOLD_NONE || !strchr(key, '@'))
		return 0;
	if ((rc = canon_address(&f->buf, key)))
		return rc;
	return join_by(f, &f->by_address, id);
}

int mev__fold_name(mev__fold *f, uint32_t id, const char *name)
{
	int words, rc;
	if (f->mode != MEV_EXPORT_FOLD_NAMES)
		return 0;
	if ((rc = canon_name(&f->buf, name, &words)) || words < 2)
		return rc;
	return join_by(f, &f->by_name, id);
}

int64_t mev__fold_find(mev__fold *f, const mev_strmap *people, const char *addr)
{
	int64_t id = mev__strmap_get(people, addr, strlen(addr));
	if (id >= 0 || f->mode == MEV_EXPORT_FOLD_NONE || !strchr(addr, '@'))
		return id;
	if (canon_address(&f->buf, addr))
		return -1;
	return mev__strmap_get(&f->by_address, f->buf.ptr ? f->buf.ptr : "", f->buf.len);
}

int64_t mev__fold_find_name(mev__fold *f, const char *name)
{
	int words;
	if (f->mode != MEV_EXPORT_FOLD_NAMES || canon_name(&f->buf, name, &words) || words < 2)
		return -1;
	return mev__strmap_get(&f->by_name, f->buf.ptr ? f->buf.ptr : "", f->buf.len);
}

static const char *const fold_names[] = { "names", "addresses", "none" };

const char *mev_export_fold_name(mev_export_fold f)
{
	return (unsigned)f < 3 ? fold_names[f] : "";
}

int mev_export_fold_parse(const char *name)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(name, fold_names[i]) == 0)
			return i;
	return -1;
}
