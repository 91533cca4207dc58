/*
 * Who maintains what in a parsed MAINTAINERS set: per person (canonical
 * email id of the release), the sorted sections they are an M: or R: of,
 * built once per set and release (the canonical ids follow the release's
 * .mailmap).
 */
#include "flow_internal.h"
#include "maintevo/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Build ctx's person -> sections index (M:, or R: when rev) for release
 * `stamp`: per person a list "n, section ids..." in *lists. */
static int person_index1(mev__flow_ctx *x, const uint32_t *canon, int rev)
{
	size_t ns = x->nsec;
	mev_strmap *map = rev ? &x->by_r : &x->by_m;
	const uint32_t *off = rev ? x->r_off : x->m_off, *ids = rev ? x->r_ids : x->m_ids;
	uint64_t *pairs = malloc((off[ns] + 1) * sizeof *pairs);
	size_t np = 0;
	int rc = 0;
	if (!pairs)
		return mev_error_oom();
	mev__strmap_free(map);
	memset(map, 0, sizeof *map);
	if (rev)
		x->r_lists.n = 0;
	else
		x->m_lists.n = 0;
	for (size_t s = 0; s < ns; s++)
		for (uint32_t k = off[s]; k < off[s + 1]; k++)
			pairs[np++] = (uint64_t)canon[ids[k]] << 32 | (uint32_t)s;
	if (np > 1)
		qsort(pairs, np, sizeof *pairs, u64_cmp);
	for (size_t i = 0; i < np && !rc;) {
		uint32_t person = (uint32_t)(pairs[i] >> 32);
		size_t j = i, pos = rev ? x->r_lists.n : x->m_lists.n;
		char key[4];
		memcpy(key, &person, 4);
		rc = rev ? MEV_VEC_PUSH(&x->r_lists, 0) : MEV_VEC_PUSH(&x->m_lists, 0);
		for (; !rc && j < np && (uint32_t)(pairs[j] >> 32) == person; j++) {
			if (j > i && pairs[j] == pairs[j - 1])
				continue;
			rc = rev ? MEV_VEC_PUSH(&x->r_lists, (uint32_t)pairs[j])
				 : MEV_VEC_PUSH(&x->m_lists, (uint32_t)pairs[j]);
		}
		if (rc || mev__strmap_put(map, key, 4, (uint32_t)pos)) {
			rc = mev_error_oom();
			break;
		}
		if (rev)
			x->r_lists.v[pos] = (uint32_t)(x->r_lists.n - pos - 1);
		else
			x->m_lists.v[pos] = (uint32_t)(x->m_lists.n - pos - 1);
		i = j;
	}
	free(pairs);
	return rc;
}

int mev__flow_ctx_prepare(mev__flow_ctx *x, uint32_t stamp, const uint32_t *canon)
{
	int rc;
	if (x->stamp == stamp)
		return 0;
	if ((rc = person_index1(x, canon, 0)) || (rc = person_index1(x, canon, 1)))
		return rc;
	memset(x->title_ids, 0, (x->nsec + 1) * sizeof *x->title_ids);
	x->stamp = stamp;
	return 0;
}

size_t mev__flow_person_sections(const uint32_t **ids, const mev__flow_ctx *x, uint32_t person,
				 int reviewer)
{
	int64_t pos;
	char key[4];
	*ids = NULL;
	memcpy(key, &person, 4);
	pos = mev__strmap_get(reviewer ? &x->by_r : &x->by_m, key, 4);
	if (pos < 0)
		return 0;
	{
		const uint32_t *l = (reviewer ? x->r_lists.v : x->m_lists.v) + pos;
		*ids = l + 1;
		return l[0];
	}
}

int mev__flow_fold(uint32_t *id, mev__flow_strings *s, mev_buf *buf, const mev_mailmap *mm,
		   const char *raw)
{
	const char *name, *email;
	size_t len;
	mev_mailmap_resolve(&name, &email, mm, "", raw);
	len = strlen(email);
	mev__buf_clear(buf);
	for (size_t i = 0; i < len; i++)
		if (mev__buf_putc(buf, (char)tolower((unsigned char)email[i])))
			return mev_error_oom();
	return mev__flow_intern(id, s, buf->ptr ? buf->ptr : "", len);
}
