/*
 * File tables (record T of docs/store-format.md): a release's rows stored
 * whole, or as a delta against the table of the release before it; reading
 * one back applies the chain of deltas from the nearest whole table.
 */
#include "release_internal.h"
#include "maintevo/error.h"
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

/* A row while a chain of tables is applied, with section ids of its own release. */
typedef struct {
	char *path;
	uint32_t len;
	uint8_t kind;
	uint64_t lines, bytes;
	uint32_t *ids;
	uint32_t nids;
} row_tmp;

static void rows_free(row_tmp *rows, size_t n)
{
	for (size_t i = 0; rows && i < n; i++) {
		free(rows[i].path);
		free(rows[i].ids);
	}
	free(rows);
}

typedef MEV_VEC(uint32_t) id_vec;

/* Paths in table order: bytewise, a prefix first. */
static int path_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);
	return c ? c : alen < blen ? -1 : alen > blen;
}

/* Sets are short: insertion sort. */
static void sort_ids(uint32_t *v, size_t n)
{
	for (size_t a = 1; a < n; a++)
		for (size_t z = a; z > 0 && v[z - 1] > v[z]; z--) {
			uint32_t t = v[z];
			v[z] = v[z - 1];
			v[z - 1] = t;
		}
}

/* A path as the length it shares with the previous one and the rest. */
static int put_path(mev_buf *b, const char *prev, size_t plen, const char *path, size_t len)
{
	size_t k = 0;
	while (k < plen && k < len && prev[k] == path[k])
		k++;
	return mev__put_uv(b, k) || mev__put_str(b, path + k, len - k) ? MEV_ENOMEM : 0;
}

static const char *get_path(mev__record_reader *r, mev_buf *prev, size_t *len)
{
	uint64_t k = mev__get_uv(r);
	size_t sl;
	const char *suf = mev__get_str(r, &sl);
	if (r->bad || k > prev->len) {
		r->bad = 1;
		*len = 0;
		return "";
	}
	prev->len = (size_t)k;
	mev__buf_put(prev, suf, sl);
	*len = prev->len;
	return prev->ptr;
}

/* --- writing ---------------------------------------------------------------- */

/* the sets a list of rows uses, renumbered densely in first-use order */
static int put_sets_and_rows(mev_buf *b, const mev_filemap *fm, const uint32_t *which, size_t n)
{
	const mev_file_row *rows = mev_filemap_rows(fm);
	size_t nsets = mev_filemap_set_count(fm), used = 0;
	uint32_t *renum = malloc((nsets + 1) * sizeof *renum);
	uint32_t *order = malloc((nsets + 1) * sizeof *order);
	const char *prev = "";
	size_t plen = 0;
	int rc = 0;
	if (!renum || !order) {
		free(renum);
		free(order);
		return mev_error_oom();
	}
	for (size_t i = 0; i < nsets; i++)
		renum[i] = UINT32_MAX;
	for (size_t i = 0; i < n; i++) {
		uint32_t st = rows[which[i]].set;
		if (renum[st] == UINT32_MAX) {
			renum[st] = (uint32_t)used;
			order[used++] = st;
		}
	}
	rc |= mev__put_uv(b, used);
	for (size_t i = 0; i < used && !rc; i++) {
		const uint32_t *ids;
		size_t k = mev_filemap_set(&ids, fm, order[i]);
		rc |= mev__put_uv(b, k);
		for (size_t j = 0; j < k; j++)
			rc |= mev__put_uv(b, j ? ids[j] - ids[j - 1] : ids[j]);
	}
	rc |= mev__put_uv(b, n);
	for (size_t i = 0; i < n && !rc; i++) {
		const mev_file_row *r = &rows[which[i]];
		rc |= put_path(b, prev, plen, r->path, r->path_len);
		rc |= mev__put_uv(b, r->kind);
		rc |= mev__put_uv(b, r->lines);
		rc |= mev__put_uv(b, r->bytes);
		rc |= mev__put_uv(b, renum[r->set]);
		prev = r->path;
		plen = r->path_len;
	}
	free(renum);
	free(order);
	return rc ? mev_error_oom() : 0;
}

/*
 * The title map of a delta: for each section of base, the index + 1 of the
 * section of fm with the same title (0: none).  *remap gets the indices
 * (UINT32_MAX: none).
 */
static int put_title_map(mev_buf *b, uint32_t **remap, const mev_filemap *fm,
			 const mev_filemap *base)
{
	const mev_section_info *secs = mev_filemap_sections(fm), *bs = mev_filemap_sections(base);
	size_t nsec = mev_filemap_section_count(fm), nb = mev_filemap_section_count(base);
	mev_strmap titles = MEV_STRMAP_INIT;
	int rc = 0;
	if (!(*remap = malloc((nb + 1) * sizeof **remap)))
		return mev_error_oom();
	for (size_t k = 0; k < nsec && !rc; k++)
		rc = mev__strmap_put(&titles, secs[k].title, strlen(secs[k].title), (uint32_t)k);
	rc |= mev__put_uv(b, nb);
	for (size_t k = 0; k < nb && !rc; k++) {
		int64_t v = mev__strmap_get(&titles, bs[k].title, strlen(bs[k].title));
		(*remap)[k] = v < 0 ? UINT32_MAX : (uint32_t)v;
		rc |= mev__put_uv(b, v < 0 ? 0 : (uint64_t)v + 1);
	}
	mev__strmap_free(&titles);
	return rc ? mev_error_oom() : 0;
}

/* 1 when a row of base is unchanged in fm: same kind and size, and its
 * sections, mapped by title, are the row's sections; else 0. */
static int same_row(const mev_filemap *base, const mev_file_row *br, const mev_filemap *fm,
		    const mev_file_row *nr, const uint32_t *remap, id_vec *mapped)
{
	const uint32_t *bid, *nid;
	size_t bk = mev_filemap_set(&bid, base, br->set), nk = mev_filemap_set(&nid, fm, nr->set);
	if (br->kind != nr->kind || br->lines != nr->lines || br->bytes != nr->bytes || bk != nk)
		return 0;
	if (MEV_VEC_RESERVE(mapped, bk))
		return mev_error_oom();
	for (size_t k = 0; k < bk; k++)
		if ((mapped->v[k] = remap[bid[k]]) == UINT32_MAX)
			return 0;
	/* the mapped ids, sorted, must be the new set */
	sort_ids(mapped->v, bk);
	return bk == 0 || memcmp(mapped->v, nid, bk * sizeof *nid) == 0;
}

/*
 * The delta of fm against base up to its rows: the title map and the
 * removed paths; which[] gets the rows of fm to store (added or changed),
 * found by merging the two path-sorted tables.
 */
static int encode_delta(mev_buf *b, uint32_t *which, size_t *nup, const mev_filemap *fm,
			const mev_filemap *base)
{
	const mev_file_row *rows = mev_filemap_rows(fm), *brows = mev_filemap_rows(base);
	size_t n = mev_filemap_count(fm), nbr = mev_filemap_count(base), i = 0, j = 0;
	size_t nrem = 0, plen = 0;
	mev_buf removed = MEV_BUF_INIT;
	id_vec mapped = { 0 };
	uint32_t *remap = NULL;
	const char *prev = "";
	int rc = put_title_map(b, &remap, fm, base);

	*nup = 0;
	while (!rc && (i < nbr || j < n)) {
		int c = i >= nbr ? 1 : j >= n ? -1 : path_cmp(brows[i].path, brows[i].path_len,
								 rows[j].path, rows[j].path_len);
		if (c < 0) { /* removed */
			rc = put_path(&removed, prev, plen, brows[i].path, brows[i].path_len);
			prev = brows[i].path;
			plen = brows[i].path_len;
			nrem++;
			i++;
		} else if (c > 0) { /* added */
			which[(*nup)++] = (uint32_t)j++;
		} else { /* the same path: stored again unless unchanged */
			int same = same_row(base, &brows[i], fm, &rows[j], remap, &mapped);
			if (same < 0)
				rc = same;
			else if (!same)
				which[(*nup)++] = (uint32_t)j;
			i++;
			j++;
		}
	}
	if (!rc && (mev__put_uv(b, nrem) || mev__buf_put(b, removed.ptr, removed.len)))
		rc = MEV_ENOMEM;
	mev__buf_free(&removed);
	MEV_VEC_FREE(&mapped);
	free(remap);
	return rc == MEV_ENOMEM ? mev_error_oom() : rc;
}

/* Encode fm as a table: whole, or as changes against `base` matched by title. */
static int encode_table(mev_buf *b, int *snapshot, const mev_filemap *fm, const mev_filemap *base)
{
	size_t n = mev_filemap_count(fm), nup = 0;
	uint32_t *which = malloc((n + 1) * sizeof *which);
	int rc = 0;
	if (!which)
		return mev_error_oom();
	if (mev__put_uv(b, MEV__RELEASE_VERSION) || mev__put_uv(b, base ? 1 : 0) ||
	    mev__put_uv(b, mev_filemap_section_count(fm))) {
		rc = mev_error_oom();
	} else if (!base) {
		for (size_t i = 0; i < n; i++)
			which[i] = (uint32_t)i;
		nup = n;
	} else {
		rc = encode_delta(b, which, &nup, fm, base);
	}
	if (!rc)
		rc = put_sets_and_rows(b, fm, which, nup);
	*snapshot = !base;
	free(which);
	return rc;
}

int mev__filetable_put(int *snapshot, uint64_t *stored, uint64_t *raw, mev_store *s,
		       const char *tag, const mev_filemap *fm, const mev_filemap *base)
{
	mev_buf b = MEV_BUF_INIT;
	size_t packed = 0;
	int rc = encode_table(&b, snapshot, fm, base);
	if (!rc)
		rc = mev_store_put_record(&packed, s, "tables", 'T', MEV__RELEASE_LEVEL, tag, strlen(tag),
					  b.ptr, b.len);
	if (!rc) {
		*stored += packed;
		*raw += b.len;
	}
	mev__buf_free(&b);
	return rc;
}

/* --- reading ---------------------------------------------------------------- */

/* A delta's title map: base section -> section here (UINT32_MAX: none). */
static int read_title_map(mev__record_reader *r, uint32_t **remap, uint64_t *nb, uint64_t nsec)
{
	*nb = mev__get_uv(r);
	if (r->bad || *nb > (uint64_t)(r->end - r->p))
		return mev_error_set(MEV_ECORRUPT, "file table is damaged");
	if (!(*remap = malloc((*nb + 1) * sizeof **remap)))
		return mev_error_oom();
	for (uint64_t k = 0; k < *nb; k++) {
		uint64_t v = mev__get_uv(r);
		(*remap)[k] = v == 0 || v > nsec ? UINT32_MAX : (uint32_t)(v - 1);
	}
	return 0;
}

/* A delta's removed paths, as keys of `removed`. */
static int read_removed(mev__record_reader *r, mev_strmap *removed)
{
	mev_buf prev = MEV_BUF_INIT;
	uint64_t nrem = mev__get_uv(r);
	int rc = 0;
	for (uint64_t k = 0; k < nrem && !r->bad && !rc; k++) {
		size_t l;
		const char *p = get_path(r, &prev, &l);
		if (mev__strmap_put(removed, p, l, 1))
			rc = mev_error_oom();
	}
	mev__buf_free(&prev);
	return rc;
}

static void free_sets(uint32_t **sets, uint32_t *sizes, size_t n)
{
	for (size_t i = 0; sets && i < n; i++)
		free(sets[i]);
	free(sets);
	free(sizes);
}

static int read_sets(mev__record_reader *r, uint32_t nsec, uint32_t ***sets, uint32_t **sizes, size_t *nsets)
{
	uint64_t n = mev__get_uv(r);
	if (r->bad || n > (uint64_t)(r->end - r->p) + 1)
		return mev_error_set(MEV_ECORRUPT, "file table has a bad set count");
	*nsets = (size_t)n;
	*sets = calloc(n + 1, sizeof **sets);
	*sizes = calloc(n + 1, sizeof **sizes);
	if (!*sets || !*sizes)
		return mev_error_oom();
	for (uint64_t i = 0; i < n; i++) {
		uint64_t k = mev__get_uv(r), acc = 0;
		if (r->bad || k > nsec)
			return mev_error_set(MEV_ECORRUPT, "file table has a bad set");
		(*sets)[i] = malloc((k + 1) * sizeof ***sets);
		if (!(*sets)[i])
			return mev_error_oom();
		(*sizes)[i] = (uint32_t)k;
		for (uint64_t j = 0; j < k; j++) {
			acc += mev__get_uv(r);
			if (acc >= nsec)
				return mev_error_set(MEV_ECORRUPT, "file table names an unknown section");
			(*sets)[i][j] = (uint32_t)acc;
		}
	}
	return 0;
}

static int read_row(mev__record_reader *r, row_tmp *row, mev_buf *prev, uint32_t *const *sets,
		    const uint32_t *sizes, size_t nsets)
{
	size_t l;
	const char *p = get_path(r, prev, &l);
	uint64_t st;
	row->path = strndup(p, l);
	row->len = (uint32_t)l;
	row->kind = (uint8_t)mev__get_uv(r);
	row->lines = mev__get_uv(r);
	row->bytes = mev__get_uv(r);
	st = mev__get_uv(r);
	if (r->bad || st >= nsets)
		return mev_error_set(MEV_ECORRUPT, "file table is damaged");
	if (!row->path)
		return mev_error_oom();
	row->nids = sizes[st];
	if (!(row->ids = malloc((sizes[st] + 1) * sizeof *row->ids)))
		return mev_error_oom();
	memcpy(row->ids, sets[st], sizes[st] * sizeof *row->ids);
	return 0;
}

/* The sets and rows of a table, each row with the ids of its set. */
static int read_rows(mev__record_reader *r, row_tmp **out, size_t *nout, uint32_t nsec)
{
	uint32_t **sets = NULL, *sizes = NULL;
	size_t nsets = 0, nup = 0;
	mev_buf prev = MEV_BUF_INIT;
	row_tmp *up = NULL;
	uint64_t n;
	int rc = read_sets(r, nsec, &sets, &sizes, &nsets);
	if (rc)
		goto done;
	n = mev__get_uv(r);
	if (r->bad || n > (uint64_t)(r->end - r->p)) {
		rc = mev_error_set(MEV_ECORRUPT, "file table is damaged");
		goto done;
	}
	if (!(up = calloc(n + 1, sizeof *up))) {
		rc = mev_error_oom();
		goto done;
	}
	for (; nup < n && !rc; nup++)
		rc = read_row(r, &up[nup], &prev, sets, sizes, nsets);
	if (!rc && r->bad)
		rc = mev_error_set(MEV_ECORRUPT, "file table is damaged");
done:
	free_sets(sets, sizes, nsets);
	mev__buf_free(&prev);
	if (rc) {
		rows_free(up, nup);
		return rc;
	}
	*out = up;
	*nout = nup;
	return 0;
}

/* A row of the base carried into the delta's release: moved out of the
 * base (which is freed next: no copy of every path of every table of a
 * chain), its section ids renumbered and sorted. */
static int carry_row(row_tmp *t, row_tmp *b, const uint32_t *remap, uint64_t nb)
{
	int rc = 0;
	*t = *b;
	b->path = NULL;
	b->ids = NULL;
	for (uint32_t k = 0; k < t->nids; k++) {
		uint32_t id = t->ids[k];
		t->ids[k] = id < nb ? remap[id] : UINT32_MAX;
		if (t->ids[k] == UINT32_MAX)
			rc = mev_error_set(MEV_ECORRUPT, "file table delta does not fit its base");
	}
	sort_ids(t->ids, t->nids);
	return rc;
}

/* Apply a delta: the base's rows but the removed ones, renumbered, merged
 * with the delta's rows (both moved out of base[] and up[]), which win. */
static int merge_rows(row_tmp **out, size_t *nout, row_tmp *base, size_t nbase, row_tmp *up,
		      size_t nup, const mev_strmap *removed, const uint32_t *remap, uint64_t nb)
{
	row_tmp *o = calloc(nbase + nup + 1, sizeof *o);
	size_t i = 0, j = 0, k = 0;
	int rc = 0;
	if (!o)
		return mev_error_oom();
	while (!rc && (i < nbase || j < nup)) {
		int c;
		if (i < nbase && mev__strmap_get(removed, base[i].path, base[i].len) >= 0) {
			i++;
			continue;
		}
		c = i >= nbase ? 1 : j >= nup ? -1 : path_cmp(base[i].path, base[i].len, up[j].path, up[j].len);
		if (c >= 0) {
			o[k++] = up[j];
			memset(&up[j], 0, sizeof up[j]);
			j++;
			i += c == 0;
		} else {
			rc = carry_row(&o[k++], &base[i++], remap, nb);
		}
	}
	if (rc) {
		rows_free(o, k);
		return rc;
	}
	*out = o;
	*nout = k;
	return 0;
}

/* Read a table into a row list with ids of its own release; a delta applies
 * to base (its rows moved out: only freeing is left), or, with parse_only,
 * is read but not applied (no rows). */
static int decode_table(row_tmp **rows, size_t *nrows, uint32_t *nsec_out, mev__record_reader *r,
			row_tmp *base, size_t nbase, int parse_only)
{
	mev_strmap removed = MEV_STRMAP_INIT;
	uint32_t *remap = NULL;
	row_tmp *up = NULL;
	size_t nup = 0;
	uint64_t nsec, nb = 0;
	int is_delta, rc;

	*rows = NULL;
	*nrows = 0;
	if (mev__get_uv(r) != MEV__RELEASE_VERSION)
		return mev_error_set(MEV_ECORRUPT, "file table of an unknown version");
	is_delta = mev__get_uv(r) != 0;
	nsec = mev__get_uv(r);
	if (r->bad || nsec > UINT32_MAX)
		return mev_error_set(MEV_ECORRUPT, "file table is damaged");
	*nsec_out = (uint32_t)nsec;
	if (is_delta && !base && !parse_only)
		return mev_error_set(MEV_ECORRUPT, "file table delta without its base");
	if (is_delta && ((rc = read_title_map(r, &remap, &nb, nsec)) || (rc = read_removed(r, &removed))))
		goto done;
	if ((rc = read_rows(r, &up, &nup, (uint32_t)nsec)) || (is_delta && parse_only))
		goto done;
	if (is_delta) {
		rc = merge_rows(rows, nrows, base, nbase, up, nup, &removed, remap, nb);
	} else {
		*rows = up;
		*nrows = nup;
		up = NULL;
		nup = 0;
	}
done:
	rows_free(up, nup);
	mev__strmap_free(&removed);
	free(remap);
	return rc;
}

/* The tags of the chain of tables that ends at `tag`, back to its whole table. */
static int chain_back(char **chain, size_t *depth, size_t max, mev_store *s, const char *tag)
{
	char *t = strdup(tag);
	int rc;
	*depth = 0;
	while (t && *depth < max) {
		mev_release m;
		chain[(*depth)++] = t;
		if ((rc = mev__release_get(&m, s, t)))
			return rc;
		if (!m.has_files) {
			mev__release_clear(&m);
			return mev_error_set(MEV_ENOTFOUND, "release '%s' has no file table (it was imported as a graph)", tag);
		}
		t = m.snapshot ? NULL : strdup(m.base);
		mev__release_clear(&m);
	}
	if (t) {
		free(t);
		return mev_error_set(MEV_ECORRUPT, "file table chain of '%s' is too long", tag);
	}
	return 0;
}

/* One table of a chain applied to the rows so far (*rows, replaced). */
static int apply_table(row_tmp **rows, size_t *nrows, uint32_t *nsec, mev_store *s, const char *tag)
{
	void *val = NULL;
	size_t len;
	row_tmp *next = NULL;
	size_t nnext = 0;
	mev__record_reader r;
	int rc = mev_store_get_record(&val, &len, s, "tables", 'T', tag, strlen(tag));
	if (rc == MEV_ENOTFOUND)
		return mev_error_set(MEV_ECORRUPT, "file table of '%s' is missing", tag);
	if (rc) {
		mev_error_prefix("file table of '%s'", tag);
		return rc;
	}
	mev__record_reader_init(&r, val, len);
	if ((rc = decode_table(&next, &nnext, nsec, &r, *rows, *nrows, 0)))
		mev_error_prefix("file table of '%s'", tag);
	free(val);
	rows_free(*rows, *nrows);
	*rows = next;
	*nrows = nnext;
	return rc;
}

int mev__filetable_check(mev_store *s, const char *tag, size_t nsec)
{
	void *val = NULL;
	size_t len, n = 0;
	row_tmp *rows = NULL;
	uint32_t ns = 0;
	mev__record_reader r;
	int rc = mev_store_get_record(&val, &len, s, "tables", 'T', tag, strlen(tag));
	if (rc == MEV_ENOTFOUND)
		return mev_error_set(MEV_ECORRUPT, "file table of '%s' is missing", tag);
	if (!rc) {
		mev__record_reader_init(&r, val, len);
		rc = decode_table(&rows, &n, &ns, &r, NULL, 0, 1);
		if (!rc && ns != nsec)
			rc = mev_error_set(MEV_ECORRUPT, "it does not fit its release (%u sections, not %zu)",
					   ns, nsec);
		rows_free(rows, n);
		free(val);
	}
	if (rc)
		mev_error_prefix("file table of '%s'", tag);
	return rc;
}

/* The rows of `tag`: the chain of tables back to a whole one, applied in order. */
static int load_rows(row_tmp **rows, size_t *nrows, uint32_t *nsec, mev_store *s, const char *tag)
{
	char *chain[4096];
	size_t depth = 0;
	row_tmp *cur = NULL;
	size_t ncur = 0;
	int rc = chain_back(chain, &depth, sizeof chain / sizeof *chain, s, tag);

	*rows = NULL;
	*nrows = 0;
	for (size_t k = depth; k > 0 && !rc; k--)
		rc = apply_table(&cur, &ncur, nsec, s, chain[k - 1]);
	while (depth)
		free(chain[--depth]);
	if (rc) {
		rows_free(cur, ncur);
		return rc;
	}
	*rows = cur;
	*nrows = ncur;
	return 0;
}

int mev_release_load_filemap(mev_filemap **out, mev_store *s, const char *tag)
{
	row_tmp *rows = NULL;
	size_t n = 0;
	uint32_t nsec = 0;
	mev_filemap *fm = NULL;
	void *rec = NULL;
	mev__record_reader r;
	int rc;

	char real[MEV_RELEASE_TAG_MAX + 1];

	*out = NULL;
	/* the record and every table of its chain from one commit: a walk
	 * re-encoding them meanwhile is seen before or after, never half */
	if ((rc = mev_store_read_begin(s)))
		return rc;
	/* a repeat reads the tables of the release it repeats */
	tag = mev__release_resolve(real, sizeof real, s, tag);
	if (!(rc = mev__release_sections(&fm, &r, &rec, s, tag)))
		rc = load_rows(&rows, &n, &nsec, s, tag);
	mev_store_read_end(s);
	if (rc)
		goto done;
	if (nsec != mev_filemap_section_count(fm)) {
		rc = mev_error_set(MEV_ECORRUPT, "file table of '%s' does not fit its release", tag);
		goto done;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		uint32_t set;
		rc = mev_filemap_intern_set(&set, fm, rows[i].ids, rows[i].nids);
		if (!rc)
			rc = mev_filemap_add_row(fm, rows[i].path, rows[i].len, rows[i].kind, rows[i].lines,
						 rows[i].bytes, set);
	}
	if (rc == MEV_EINVAL)
		rc = mev_error_set(MEV_ECORRUPT, "file table of '%s' is damaged: %s", tag, mev_error_message());
done:
	rows_free(rows, n);
	free(rec);
	if (rc)
		mev_filemap_free(fm);
	else
		*out = fm;
	return mev__release_damaged(s, rc, tag);
}
