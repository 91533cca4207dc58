/*
 * Record formats of the store: releases (headline numbers, sections, graph),
 * file tables (whole, or as a delta against the previous release), notes.
 * docs/store-format.md is the description; this file is the truth.
 */
#include "store_internal.h"
#include "codec.h"
#include "maintevo/error.h"
#include "maintevo/tags.h"
#include "util/strmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

enum { REC_VERSION = 1, SNAPSHOT_EVERY = 16 };

/* --- helpers --------------------------------------------------------------- */

typedef struct {
	uint64_t files, lines, bytes, sections, with_files, unc_files, unc_lines, edges;
} counts;

static void compute_counts(const mev_filemap *fm, const mev_graph *g, counts *c)
{
	const mev_file_row *rows = mev_filemap_rows(fm);
	const mev_section_info *secs = mev_filemap_sections(fm);
	size_t nrows = mev_filemap_count(fm), nsec = mev_filemap_section_count(fm);
	const mev_edge *e = mev_graph_edges(g);
	size_t ne = mev_graph_edge_count(g);
	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < nrows; i++) {
		const uint32_t *ids;
		size_t n = mev_filemap_set(&ids, fm, rows[i].set), k;
		c->files++;
		c->lines += rows[i].lines;
		c->bytes += rows[i].bytes;
		for (k = 0; k < n; k++)
			if (!secs[ids[k]].is_rest)
				break;
		if (k == n) {
			c->unc_files++;
			c->unc_lines += rows[i].lines;
		}
	}
	for (size_t i = 0; i < nsec; i++)
		c->sections += !secs[i].is_rest;
	for (size_t i = 0; i < ne; i++) {
		if (secs[e[i].a].is_rest || secs[e[i].b].is_rest)
			continue;
		if (e[i].a == e[i].b)
			c->with_files += e[i].files > 0;
		else
			c->edges++;
	}
}

static int put_sections(mev_buf *b, const mev_filemap *fm)
{
	const mev_section_info *s = mev_filemap_sections(fm);
	size_t n = mev_filemap_section_count(fm);
	int rc = mev_put_uv(b, n);
	for (size_t i = 0; i < n && !rc; i++) {
		rc |= mev_put_cstr(b, s[i].title);
		rc |= mev_put_cstr(b, s[i].status);
		rc |= mev_put_uv(b, s[i].n_maintainers);
		rc |= mev_put_uv(b, s[i].n_reviewers);
		rc |= mev_put_uv(b, s[i].n_lists);
		rc |= mev_put_uv(b, s[i].n_trees);
		rc |= mev_put_uv(b, s[i].n_patterns);
		rc |= mev_put_uv(b, s[i].is_rest);
	}
	return rc ? mev_error_oom() : 0;
}

static int get_sections(mev_rd *r, mev_filemap *fm)
{
	uint64_t n = mev_get_uv(r);
	mev_buf t = MEV_BUF_INIT, st = MEV_BUF_INIT;
	int rc = 0;
	for (uint64_t i = 0; i < n && !r->bad && !rc; i++) {
		mev_section_info si = { 0 };
		size_t l;
		const char *p = mev_get_str(r, &l);
		mev_buf_clear(&t);
		mev_buf_put(&t, p, l);
		p = mev_get_str(r, &l);
		mev_buf_clear(&st);
		mev_buf_put(&st, p, l);
		si.title = t.ptr ? t.ptr : "";
		si.status = st.ptr ? st.ptr : "";
		si.n_maintainers = (uint32_t)mev_get_uv(r);
		si.n_reviewers = (uint32_t)mev_get_uv(r);
		si.n_lists = (uint32_t)mev_get_uv(r);
		si.n_trees = (uint32_t)mev_get_uv(r);
		si.n_patterns = (uint32_t)mev_get_uv(r);
		si.is_rest = (uint8_t)mev_get_uv(r);
		if (!r->bad)
			rc = mev_filemap_add_section(fm, &si);
	}
	mev_buf_free(&t);
	mev_buf_free(&st);
	return rc;
}

/* --- release records --------------------------------------------------------- */

typedef struct {
	mev_release info;
	size_t sections_at;   /* offset of the section list in the record */
} release_head;

static int encode_release(mev_buf *b, const mev_release_input *in, const counts *c,
			  int has_files, int snapshot, const char *base, const mev_filemap *fm,
			  const mev_graph *g, uint64_t table_stored, uint64_t table_raw)
{
	const mev_edge *e = mev_graph_edges(g);
	size_t ne = mev_graph_edge_count(g);
	int rc = 0;
	rc |= mev_put_uv(b, REC_VERSION);
	rc |= mev_put_cstr(b, in->tag);
	rc |= mev_buf_put(b, in->commit.id, 20);
	rc |= mev_put_sv(b, in->time);
	rc |= mev_put_uv(b, c->files);
	rc |= mev_put_uv(b, c->lines);
	rc |= mev_put_uv(b, c->bytes);
	rc |= mev_put_uv(b, c->sections);
	rc |= mev_put_uv(b, c->with_files);
	rc |= mev_put_uv(b, c->unc_files);
	rc |= mev_put_uv(b, c->unc_lines);
	rc |= mev_put_uv(b, c->edges);
	rc |= mev_put_uv(b, in->ndiags);
	rc |= mev_put_uv(b, in->maintainer_files);
	rc |= mev_put_uv(b, (uint64_t)has_files);
	rc |= mev_put_uv(b, (uint64_t)snapshot);
	rc |= mev_put_cstr(b, base ? base : "");
	rc |= mev_put_uv(b, table_stored);
	rc |= mev_put_uv(b, table_raw);
	if (rc)
		return mev_error_oom();
	if ((rc = put_sections(b, fm)))
		return rc;
	rc = mev_put_uv(b, ne);
	for (size_t i = 0; i < ne && !rc; i++) {
		rc |= mev_put_uv(b, e[i].a);
		rc |= mev_put_uv(b, e[i].b);
		rc |= mev_put_uv(b, e[i].lines);
		rc |= mev_put_uv(b, e[i].bytes);
		rc |= mev_put_uv(b, e[i].files);
	}
	return rc ? mev_error_oom() : 0;
}

static int decode_head(mev_rd *r, mev_release *m)
{
	size_t n;
	const char *p;
	memset(m, 0, sizeof *m);
	if (mev_get_uv(r) != REC_VERSION)
		return mev_error_set(MEV_ECORRUPT, "release record of an unknown version");
	p = mev_get_str(r, &n);
	m->tag = strndup(p, n);
	mev_get_bytes(r, m->commit.id, 20);
	m->time = mev_get_sv(r);
	m->files = mev_get_uv(r);
	m->lines = mev_get_uv(r);
	m->bytes = mev_get_uv(r);
	m->sections = mev_get_uv(r);
	m->sections_with_files = mev_get_uv(r);
	m->uncovered_files = mev_get_uv(r);
	m->uncovered_lines = mev_get_uv(r);
	m->edges = mev_get_uv(r);
	m->diags = mev_get_uv(r);
	m->maintainer_files = mev_get_uv(r);
	m->has_files = (uint8_t)mev_get_uv(r);
	m->snapshot = (uint8_t)mev_get_uv(r);
	p = mev_get_str(r, &n);
	m->base = strndup(p, n);
	m->stored_bytes = mev_get_uv(r);
	m->raw_bytes = mev_get_uv(r);
	if (r->bad || !m->tag || !m->base) {
		free(m->tag);
		free(m->base);
		m->tag = m->base = NULL;
		return r->bad ? mev_error_set(MEV_ECORRUPT, "a release record is damaged") : mev_error_oom();
	}
	return 0;
}

static int load_release_record(mev_store *s, const char *tag, mev_buf *val, size_t *stored)
{
	mev_buf raw = MEV_BUF_INIT;
	int rc = mev_store_raw_get(s, "releases", tag, strlen(tag), &raw, stored);
	if (rc == MEV_ENOTFOUND) {
		mev_error_set(MEV_ENOTFOUND, "release '%s' is not in store '%s'", tag, s->dir);
		mev_error_hint("list the stored releases with 'maintevo releases --store %s'", s->dir);
	} else if (!rc) {
		rc = mev_codec_unpack(val, 'R', raw.ptr, raw.len);
		if (rc)
			mev_error_prefix("release '%s'", tag);
	}
	mev_buf_free(&raw);
	return rc;
}

/* --- file tables ------------------------------------------------------------ */

static int put_path(mev_buf *b, const char *prev, size_t plen, const char *path, size_t len)
{
	size_t k = 0;
	while (k < plen && k < len && prev[k] == path[k])
		k++;
	return mev_put_uv(b, k) || mev_put_str(b, path + k, len - k) ? MEV_ENOMEM : 0;
}

static const char *get_path(mev_rd *r, mev_buf *prev, size_t *len)
{
	uint64_t k = mev_get_uv(r);
	size_t sl;
	const char *suf = mev_get_str(r, &sl);
	if (r->bad || k > prev->len) {
		r->bad = 1;
		*len = 0;
		return "";
	}
	prev->len = (size_t)k;
	mev_buf_put(prev, suf, sl);
	*len = prev->len;
	return prev->ptr;
}

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
	rc |= mev_put_uv(b, used);
	for (size_t i = 0; i < used && !rc; i++) {
		const uint32_t *ids;
		size_t k = mev_filemap_set(&ids, fm, order[i]);
		rc |= mev_put_uv(b, k);
		for (size_t j = 0; j < k; j++)
			rc |= mev_put_uv(b, j ? ids[j] - ids[j - 1] : ids[j]);
	}
	rc |= mev_put_uv(b, n);
	for (size_t i = 0; i < n && !rc; i++) {
		const mev_file_row *r = &rows[which[i]];
		rc |= put_path(b, prev, plen, r->path, r->path_len);
		rc |= mev_put_uv(b, r->kind);
		rc |= mev_put_uv(b, r->lines);
		rc |= mev_put_uv(b, r->bytes);
		rc |= mev_put_uv(b, renum[r->set]);
		prev = r->path;
		plen = r->path_len;
	}
	free(renum);
	free(order);
	return rc ? mev_error_oom() : 0;
}

typedef struct {
	char *path;
	uint32_t len;
	uint8_t kind;
	uint64_t lines, bytes;
	uint32_t *ids;   /* section ids of this release */
	uint32_t nids;
} row_tmp;

static int read_sets(mev_rd *r, uint32_t nsec, uint32_t ***sets, uint32_t **sizes, size_t *nsets)
{
	uint64_t n = mev_get_uv(r);
	if (r->bad || n > (uint64_t)(r->end - r->p) + 1)
		return mev_error_set(MEV_ECORRUPT, "file table has a bad set count");
	*nsets = (size_t)n;
	*sets = calloc(n + 1, sizeof **sets);
	*sizes = calloc(n + 1, sizeof **sizes);
	if (!*sets || !*sizes)
		return mev_error_oom();
	for (uint64_t i = 0; i < n; i++) {
		uint64_t k = mev_get_uv(r), acc = 0;
		if (r->bad || k > nsec)
			return mev_error_set(MEV_ECORRUPT, "file table has a bad set");
		(*sets)[i] = malloc((k + 1) * sizeof ***sets);
		if (!(*sets)[i])
			return mev_error_oom();
		(*sizes)[i] = (uint32_t)k;
		for (uint64_t j = 0; j < k; j++) {
			acc += mev_get_uv(r);
			if (acc >= nsec)
				return mev_error_set(MEV_ECORRUPT, "file table names an unknown section");
			(*sets)[i][j] = (uint32_t)acc;
		}
	}
	return 0;
}

static void free_sets(uint32_t **sets, uint32_t *sizes, size_t n)
{
	for (size_t i = 0; sets && i < n; i++)
		free(sets[i]);
	free(sets);
	free(sizes);
}

/* Encode fm as a table: whole, or as changes against `base` matched by title. */
static int encode_table(mev_buf *b, const mev_filemap *fm, const mev_filemap *base, int *snapshot)
{
	const mev_file_row *rows = mev_filemap_rows(fm);
	const mev_section_info *secs = mev_filemap_sections(fm);
	size_t n = mev_filemap_count(fm), nsec = mev_filemap_section_count(fm);
	uint32_t *which = malloc((n + 1) * sizeof *which);
	uint32_t *remap = NULL;
	mev_strmap titles = MEV_STRMAP_INIT;
	size_t nup = 0;
	int rc = 0;

	if (!which)
		return mev_error_oom();
	rc |= mev_put_uv(b, REC_VERSION);
	rc |= mev_put_uv(b, base ? 1 : 0);
	rc |= mev_put_uv(b, nsec);
	if (!base) {
		for (size_t i = 0; i < n; i++)
			which[i] = (uint32_t)i;
		*snapshot = 1;
		rc = rc ? mev_error_oom() : put_sets_and_rows(b, fm, which, n);
		free(which);
		return rc;
	}
	/* delta: base section i -> section of fm with the same title */
	{
		const mev_section_info *bs = mev_filemap_sections(base);
		size_t nb = mev_filemap_section_count(base);
		const mev_file_row *brows = mev_filemap_rows(base);
		size_t nbr = mev_filemap_count(base), i = 0, j = 0;
		mev_buf removed = MEV_BUF_INIT;
		size_t nrem = 0;
		const char *prev = "";
		size_t plen = 0;
		uint32_t *mapped = malloc(64 * sizeof *mapped);
		size_t mcap = 64;

		remap = malloc((nb + 1) * sizeof *remap);
		if (!remap || !mapped) {
			free(mapped);
			rc = mev_error_oom();
			goto done;
		}
		for (size_t k = 0; k < nsec; k++)
			if (mev_strmap_put(&titles, secs[k].title, strlen(secs[k].title), (uint32_t)k)) {
				free(mapped);
				rc = MEV_ENOMEM;
				goto done;
			}
		rc |= mev_put_uv(b, nb);
		for (size_t k = 0; k < nb; k++) {
			int64_t v = mev_strmap_get(&titles, bs[k].title, strlen(bs[k].title));
			remap[k] = v < 0 ? UINT32_MAX : (uint32_t)v;
			rc |= mev_put_uv(b, v < 0 ? 0 : (uint64_t)v + 1);
		}
		/* merge the two path-sorted lists */
		while (i < nbr || j < n) {
			int c;
			if (i >= nbr)
				c = 1;
			else if (j >= n)
				c = -1;
			else {
				size_t m = brows[i].path_len < rows[j].path_len ? brows[i].path_len : rows[j].path_len;
				c = memcmp(brows[i].path, rows[j].path, m);
				if (!c)
					c = brows[i].path_len < rows[j].path_len ? -1 : brows[i].path_len > rows[j].path_len;
			}
			if (c < 0) { /* removed */
				rc |= put_path(&removed, prev, plen, brows[i].path, brows[i].path_len);
				prev = brows[i].path;
				plen = brows[i].path_len;
				nrem++;
				i++;
			} else if (c > 0) { /* added */
				which[nup++] = (uint32_t)j++;
			} else {
				/* same path: unchanged when everything maps over */
				const uint32_t *bid, *nid;
				size_t bk = mev_filemap_set(&bid, base, brows[i].set);
				size_t nk = mev_filemap_set(&nid, fm, rows[j].set);
				int same = brows[i].kind == rows[j].kind && brows[i].lines == rows[j].lines &&
					   brows[i].bytes == rows[j].bytes && bk == nk;
				if (same) {
					if (bk > mcap) {
						uint32_t *p = realloc(mapped, bk * sizeof *p);
						if (!p) {
							rc = mev_error_oom();
							break;
						}
						mapped = p;
						mcap = bk;
					}
					for (size_t k = 0; k < bk; k++) {
						mapped[k] = remap[bid[k]];
						if (mapped[k] == UINT32_MAX)
							same = 0;
					}
					/* the mapped ids, sorted, must be the new set */
					if (same) {
						for (size_t a = 1; a < bk; a++)
							for (size_t z = a; z > 0 && mapped[z - 1] > mapped[z]; z--) {
								uint32_t t = mapped[z];
								mapped[z] = mapped[z - 1];
								mapped[z - 1] = t;
							}
						same = memcmp(mapped, nid, bk * sizeof *nid) == 0;
					}
				}
				if (!same)
					which[nup++] = (uint32_t)j;
				i++;
				j++;
			}
		}
		free(mapped);
		rc |= mev_put_uv(b, nrem);
		rc |= mev_buf_put(b, removed.ptr, removed.len);
		mev_buf_free(&removed);
		if (!rc)
			rc = put_sets_and_rows(b, fm, which, nup);
		*snapshot = 0;
	}
done:
	mev_strmap_free(&titles);
	free(remap);
	free(which);
	return rc < 0 ? rc : (rc ? mev_error_oom() : 0);
}

/* Read a table into a row list with ids of its own release. */
static int decode_table(mev_rd *r, row_tmp **rows, size_t *nrows, const row_tmp *base,
			size_t nbase, uint32_t *nsec_out, int *is_delta, char **base_tag_unused)
{
	uint32_t **sets = NULL, *sizes = NULL;
	size_t nsets = 0;
	uint64_t nsec;
	uint32_t *remap = NULL;
	uint64_t nb = 0;
	int rc = 0;
	(void)base_tag_unused;

	*rows = NULL;
	*nrows = 0;
	if (mev_get_uv(r) != REC_VERSION)
		return mev_error_set(MEV_ECORRUPT, "file table of an unknown version");
	*is_delta = (int)mev_get_uv(r);
	nsec = mev_get_uv(r);
	if (r->bad || nsec > UINT32_MAX)
		return mev_error_set(MEV_ECORRUPT, "file table is damaged");
	*nsec_out = (uint32_t)nsec;
	if (*is_delta) {
		if (!base)
			return mev_error_set(MEV_ECORRUPT, "file table delta without its base");
		nb = mev_get_uv(r);
		if (r->bad || nb > (uint64_t)(r->end - r->p))
			return mev_error_set(MEV_ECORRUPT, "file table is damaged");
		remap = malloc((nb + 1) * sizeof *remap);
		if (!remap)
			return mev_error_oom();
		for (uint64_t k = 0; k < nb; k++) {
			uint64_t v = mev_get_uv(r);
			remap[k] = v == 0 || v > nsec ? UINT32_MAX : (uint32_t)(v - 1);
		}
	}
	{
		/* removed paths (delta only) */
		mev_strmap removed = MEV_STRMAP_INIT;
		mev_buf prev = MEV_BUF_INIT;
		row_tmp *up = NULL;
		size_t nup = 0;
		if (*is_delta) {
			uint64_t nrem = mev_get_uv(r);
			for (uint64_t k = 0; k < nrem && !r->bad; k++) {
				size_t l;
				const char *p = get_path(r, &prev, &l);
				if (mev_strmap_put(&removed, p, l, 1)) {
					rc = MEV_ENOMEM;
					break;
				}
			}
		}
		if (!rc)
			rc = read_sets(r, (uint32_t)nsec, &sets, &sizes, &nsets);
		if (!rc) {
			uint64_t n = mev_get_uv(r);
			if (r->bad || n > (uint64_t)(r->end - r->p))
				rc = mev_error_set(MEV_ECORRUPT, "file table is damaged");
			else if (!(up = calloc(n + 1, sizeof *up)))
				rc = mev_error_oom();
			mev_buf_clear(&prev);
			for (uint64_t k = 0; !rc && k < n; k++) {
				size_t l;
				const char *p = get_path(r, &prev, &l);
				uint64_t st;
				up[k].path = strndup(p, l);
				up[k].len = (uint32_t)l;
				up[k].kind = (uint8_t)mev_get_uv(r);
				up[k].lines = mev_get_uv(r);
				up[k].bytes = mev_get_uv(r);
				st = mev_get_uv(r);
				if (r->bad || st >= nsets || !up[k].path) {
					rc = r->bad || st >= nsets ? mev_error_set(MEV_ECORRUPT, "file table is damaged")
								   : mev_error_oom();
					nup = k + 1;
					break;
				}
				up[k].nids = sizes[st];
				up[k].ids = malloc((sizes[st] + 1) * sizeof *up[k].ids);
				if (!up[k].ids) {
					rc = mev_error_oom();
					nup = k + 1;
					break;
				}
				memcpy(up[k].ids, sets[st], sizes[st] * sizeof *up[k].ids);
				nup = k + 1;
			}
		}
		if (!rc && r->bad)
			rc = mev_error_set(MEV_ECORRUPT, "file table is damaged");
		if (!rc && !*is_delta) {
			*rows = up;
			*nrows = nup;
			up = NULL;
		} else if (!rc) {
			/* merge base (minus removed, remapped) with the upserts */
			row_tmp *out = calloc(nbase + nup + 1, sizeof *out);
			size_t i = 0, j = 0, o = 0;
			if (!out)
				rc = mev_error_oom();
			while (!rc && (i < nbase || j < nup)) {
				int c;
				if (i < nbase && mev_strmap_get(&removed, base[i].path, base[i].len) >= 0) {
					i++;
					continue;
				}
				if (i >= nbase)
					c = 1;
				else if (j >= nup)
					c = -1;
				else {
					size_t m = base[i].len < up[j].len ? base[i].len : up[j].len;
					c = memcmp(base[i].path, up[j].path, m);
					if (!c)
						c = base[i].len < up[j].len ? -1 : base[i].len > up[j].len;
				}
				if (c > 0 || c == 0) {
					out[o++] = up[j];
					memset(&up[j], 0, sizeof up[j]);
					j++;
					if (c == 0)
						i++;
				} else {
					row_tmp t = base[i++];
					t.path = strndup(t.path, t.len);
					t.ids = malloc((t.nids + 1) * sizeof *t.ids);
					if (!t.path || !t.ids) {
						free(t.path);
						free(t.ids);
						rc = mev_error_oom();
						break;
					}
					for (uint32_t k = 0; k < t.nids; k++) {
						uint32_t id = base[i - 1].ids[k];
						t.ids[k] = id < nb ? remap[id] : UINT32_MAX;
						if (t.ids[k] == UINT32_MAX)
							rc = mev_error_set(MEV_ECORRUPT, "file table delta does not fit its base");
					}
					for (size_t a = 1; a < t.nids; a++)
						for (size_t z = a; z > 0 && t.ids[z - 1] > t.ids[z]; z--) {
							uint32_t x = t.ids[z];
							t.ids[z] = t.ids[z - 1];
							t.ids[z - 1] = x;
						}
					out[o++] = t;
				}
			}
			*rows = out;
			*nrows = o;
		}
		for (size_t k = 0; up && k < nup; k++) {
			free(up[k].path);
			free(up[k].ids);
		}
		free(up);
		mev_strmap_free(&removed);
		mev_buf_free(&prev);
	}
	free_sets(sets, sizes, nsets);
	free(remap);
	return rc;
}

static void free_rows(row_tmp *rows, size_t n)
{
	for (size_t i = 0; rows && i < n; i++) {
		free(rows[i].path);
		free(rows[i].ids);
	}
	free(rows);
}

/* The chain of tables back to a snapshot, applied in order. */
static int load_rows(mev_store *s, const char *tag, row_tmp **rows, size_t *nrows, uint32_t *nsec)
{
	char *chain[4096];
	size_t depth = 0;
	mev_buf raw = MEV_BUF_INIT, val = MEV_BUF_INIT, rel = MEV_BUF_INIT;
	row_tmp *cur = NULL;
	size_t ncur = 0;
	int rc = 0;
	char *t = strdup(tag);

	*rows = NULL;
	*nrows = 0;
	/* walk back to the snapshot */
	while (t && depth < sizeof chain / sizeof *chain) {
		mev_release m;
		mev_rd r;
		chain[depth++] = t;
		if ((rc = load_release_record(s, t, &rel, NULL)))
			goto done;
		mev_rd_init(&r, rel.ptr, rel.len);
		if ((rc = decode_head(&r, &m)))
			goto done;
		if (!m.has_files) {
			free(m.tag);
			free(m.base);
			rc = mev_error_set(MEV_ENOTFOUND, "release '%s' has no file table (it was imported as a graph)", tag);
			goto done;
		}
		t = m.snapshot ? NULL : strdup(m.base);
		free(m.tag);
		free(m.base);
	}
	if (t) {
		free(t);
		rc = mev_error_set(MEV_ECORRUPT, "file table chain of '%s' is too long", tag);
		goto done;
	}
	while (depth) {
		char *tg = chain[--depth];
		row_tmp *next;
		size_t nnext;
		int is_delta;
		mev_rd r;
		if ((rc = mev_store_raw_get(s, "tables", tg, strlen(tg), &raw, NULL))) {
			if (rc == MEV_ENOTFOUND)
				rc = mev_error_set(MEV_ECORRUPT, "file table of '%s' is missing", tg);
			free(tg);
			goto done;
		}
		if ((rc = mev_codec_unpack(&val, 'T', raw.ptr, raw.len))) {
			mev_error_prefix("file table of '%s'", tg);
			free(tg);
			goto done;
		}
		mev_rd_init(&r, val.ptr, val.len);
		rc = decode_table(&r, &next, &nnext, cur, ncur, nsec, &is_delta, NULL);
		free(tg);
		free_rows(cur, ncur);
		cur = next;
		ncur = nnext;
		if (rc)
			goto done;
	}
	*rows = cur;
	*nrows = ncur;
	cur = NULL;
done:
	while (depth)
		free(chain[--depth]);
	free_rows(cur, ncur);
	mev_buf_free(&raw);
	mev_buf_free(&val);
	mev_buf_free(&rel);
	return rc;
}

/* --- public: releases ------------------------------------------------------- */

static int put_release_common(mev_store *s, const mev_release_input *in, const mev_filemap *fm,
			      const mev_graph *g, int has_files, const mev_filemap *base,
			      const char *base_tag, const counts *c)
{
	mev_buf rec = MEV_BUF_INIT, packed = MEV_BUF_INIT, table = MEV_BUF_INIT, tpacked = MEV_BUF_INIT;
	int snapshot = 1, rc = 0;
	uint64_t tstored = 0, traw = 0;
	size_t tl = strlen(in->tag);

	if (has_files) {
		if ((rc = encode_table(&table, fm, base, &snapshot)))
			goto done;
		if ((rc = mev_codec_pack(&tpacked, 'T', table.ptr, table.len, 6)))
			goto done;
		if ((rc = mev_store_raw_put(s, "tables", in->tag, tl, tpacked.ptr, tpacked.len)))
			goto done;
		tstored = tpacked.len;
		traw = table.len;
	} else {
		if ((rc = mev_store_raw_delete(s, "tables", in->tag, tl)))
			goto done;
	}
	/* the notes */
	mev_buf_clear(&table);
	rc = mev_put_uv(&table, in->ndiags);
	for (size_t i = 0; i < in->ndiags && !rc; i++)
		rc = mev_put_cstr(&table, in->diags[i]);
	if (rc || (rc = mev_codec_pack(&tpacked, 'D', table.ptr, table.len, 6)) ||
	    (rc = mev_store_raw_put(s, "diags", in->tag, tl, tpacked.ptr, tpacked.len)))
		goto done;
	tstored += tpacked.len;
	traw += table.len;
	if ((rc = encode_release(&rec, in, c, has_files, snapshot, base_tag, fm, g, tstored, traw)))
		goto done;
	if ((rc = mev_codec_pack(&packed, 'R', rec.ptr, rec.len, 6)))
		goto done;
	rc = mev_store_raw_put(s, "releases", in->tag, tl, packed.ptr, packed.len);
done:
	mev_buf_free(&rec);
	mev_buf_free(&packed);
	mev_buf_free(&table);
	mev_buf_free(&tpacked);
	return rc;
}

int mev_store_put_release(mev_store *s, const mev_release_input *in, const mev_filemap *fm,
			  const mev_graph *g, const mev_filemap *base, const char *base_tag)
{
	counts c;
	compute_counts(fm, g, &c);
	/* a periodic snapshot keeps read-back chains short */
	if (base) {
		size_t depth = 0;
		char *t = strdup(base_tag);
		while (t && depth < SNAPSHOT_EVERY) {
			mev_buf rel = MEV_BUF_INIT;
			mev_release m;
			mev_rd r;
			depth++;
			if (load_release_record(s, t, &rel, NULL)) {
				mev_buf_free(&rel);
				free(t);
				t = NULL;
				depth = SNAPSHOT_EVERY;
				break;
			}
			mev_rd_init(&r, rel.ptr, rel.len);
			free(t);
			t = NULL;
			if (decode_head(&r, &m)) {
				mev_buf_free(&rel);
				break;
			}
			mev_buf_free(&rel);
			if (!m.snapshot)
				t = strdup(m.base);
			free(m.tag);
			free(m.base);
		}
		free(t);
		if (depth >= SNAPSHOT_EVERY)
			base = NULL;
	}
	return put_release_common(s, in, fm, g, 1, base, base ? base_tag : NULL, &c);
}

int mev_store_put_graph_release(mev_store *s, const mev_release_input *in,
				const mev_filemap *sections, const mev_graph *g)
{
	counts c;
	compute_counts(sections, g, &c);
	/* no file table: the sizes come from the graph (THE REST covers all) */
	{
		const mev_section_info *secs = mev_filemap_sections(sections);
		const mev_edge *e = mev_graph_edges(g);
		for (size_t i = 0; i < mev_graph_edge_count(g); i++)
			if (e[i].a == e[i].b && secs[e[i].a].is_rest) {
				c.files = e[i].files;
				c.lines = e[i].lines;
				c.bytes = e[i].bytes;
			}
	}
	return put_release_common(s, in, sections, g, 0, NULL, NULL, &c);
}

int mev_store_delete_release(mev_store *s, const char *tag)
{
	size_t l = strlen(tag);
	int rc = mev_store_raw_delete(s, "releases", tag, l);
	if (!rc)
		rc = mev_store_raw_delete(s, "tables", tag, l);
	if (!rc)
		rc = mev_store_raw_delete(s, "diags", tag, l);
	return rc;
}

int mev_store_load_filemap(mev_store *s, const char *tag, mev_filemap **out)
{
	row_tmp *rows = NULL;
	size_t n = 0;
	uint32_t nsec = 0;
	mev_buf rel = MEV_BUF_INIT;
	mev_filemap *fm = NULL;
	mev_release m;
	mev_rd r;
	int rc;

	*out = NULL;
	if ((rc = load_release_record(s, tag, &rel, NULL)))
		return rc;
	mev_rd_init(&r, rel.ptr, rel.len);
	if ((rc = decode_head(&r, &m)))
		goto done;
	free(m.tag);
	free(m.base);
	if ((rc = mev_filemap_new(&fm)) || (rc = get_sections(&r, fm)))
		goto done;
	if (r.bad) {
		rc = mev_error_set(MEV_ECORRUPT, "release record of '%s' is damaged", tag);
		goto done;
	}
	if ((rc = load_rows(s, tag, &rows, &n, &nsec)))
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
	free_rows(rows, n);
	mev_buf_free(&rel);
	if (rc)
		mev_filemap_free(fm);
	else
		*out = fm;
	return rc;
}

int mev_store_load_graph(mev_store *s, const char *tag, int keep_rest, mev_filemap **sections,
			 mev_graph **g)
{
	mev_buf rel = MEV_BUF_INIT;
	mev_filemap *fm = NULL;
	mev_edge *edges = NULL;
	mev_graph_options go = { keep_rest };
	mev_release m;
	mev_rd r;
	uint64_t ne;
	int rc;

	*sections = NULL;
	*g = NULL;
	if ((rc = load_release_record(s, tag, &rel, NULL)))
		return rc;
	mev_rd_init(&r, rel.ptr, rel.len);
	if ((rc = decode_head(&r, &m)))
		goto done;
	free(m.tag);
	free(m.base);
	if ((rc = mev_filemap_new(&fm)) || (rc = get_sections(&r, fm)))
		goto done;
	ne = mev_get_uv(&r);
	if (r.bad || ne > (uint64_t)(r.end - r.p)) {
		rc = mev_error_set(MEV_ECORRUPT, "release record of '%s' is damaged", tag);
		goto done;
	}
	edges = malloc((ne + 1) * sizeof *edges);
	if (!edges) {
		rc = mev_error_oom();
		goto done;
	}
	for (uint64_t i = 0; i < ne; i++) {
		edges[i].a = (uint32_t)mev_get_uv(&r);
		edges[i].b = (uint32_t)mev_get_uv(&r);
		edges[i].lines = mev_get_uv(&r);
		edges[i].bytes = mev_get_uv(&r);
		edges[i].files = mev_get_uv(&r);
	}
	if (r.bad) {
		rc = mev_error_set(MEV_ECORRUPT, "release record of '%s' is damaged", tag);
		goto done;
	}
	rc = mev_graph_from_edges(g, fm, edges, (size_t)ne, &go);
	if (rc == MEV_EINVAL)
		rc = mev_error_set(MEV_ECORRUPT, "graph of '%s' is damaged", tag);
done:
	free(edges);
	mev_buf_free(&rel);
	if (rc) {
		mev_filemap_free(fm);
		return rc;
	}
	*sections = fm;
	return 0;
}

int mev_store_load_diags(mev_store *s, const char *tag, char ***out, size_t *n)
{
	mev_buf raw = MEV_BUF_INIT, val = MEV_BUF_INIT;
	mev_rd r;
	uint64_t k;
	int rc = mev_store_raw_get(s, "diags", tag, strlen(tag), &raw, NULL);
	*out = NULL;
	*n = 0;
	if (rc == MEV_ENOTFOUND)
		rc = 0;
	if (rc || !raw.len)
		goto done;
	if ((rc = mev_codec_unpack(&val, 'D', raw.ptr, raw.len)))
		goto done;
	mev_rd_init(&r, val.ptr, val.len);
	k = mev_get_uv(&r);
	if (r.bad || k > val.len) {
		rc = mev_error_set(MEV_ECORRUPT, "notes of '%s' are damaged", tag);
		goto done;
	}
	*out = calloc(k + 1, sizeof **out);
	if (!*out) {
		rc = mev_error_oom();
		goto done;
	}
	for (uint64_t i = 0; i < k; i++) {
		size_t l;
		const char *p = mev_get_str(&r, &l);
		(*out)[i] = strndup(p, l);
	}
	*n = (size_t)k;
done:
	mev_buf_free(&raw);
	mev_buf_free(&val);
	return rc;
}

void mev_strings_free(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

typedef struct {
	MEV_VEC(mev_release) list;
	mev_buf val;
	int rc;
} list_ctx;

static int list_cb(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	list_ctx *lc = c;
	mev_release m;
	mev_rd r;
	int rc = mev_codec_unpack(&lc->val, 'R', data, len);
	(void)key;
	(void)klen;
	if (rc)
		return rc;
	mev_rd_init(&r, lc->val.ptr, lc->val.len);
	if ((rc = decode_head(&r, &m)))
		return rc;
	m.stored_bytes += len;
	m.raw_bytes += lc->val.len;
	if (MEV_VEC_PUSH(&lc->list, m)) {
		free(m.tag);
		free(m.base);
		return mev_error_oom();
	}
	return 0;
}

static int release_cmp(const void *a, const void *b)
{
	return mev_tag_cmp(((const mev_release *)a)->tag, ((const mev_release *)b)->tag);
}

int mev_store_releases(mev_store *s, mev_release **out, size_t *n)
{
	list_ctx lc = { { 0 }, MEV_BUF_INIT, 0 };
	int rc = mev_store_raw_scan(s, "releases", NULL, 0, list_cb, &lc);
	mev_buf_free(&lc.val);
	if (rc) {
		mev_release_list_free(lc.list.v, lc.list.n);
		return rc;
	}
	if (lc.list.n > 1)
		qsort(lc.list.v, lc.list.n, sizeof *lc.list.v, release_cmp);
	*out = lc.list.v;
	*n = lc.list.n;
	return 0;
}

void mev_release_list_free(mev_release *list, size_t n)
{
	for (size_t i = 0; list && i < n; i++) {
		free(list[i].tag);
		free(list[i].base);
	}
	free(list);
}

int mev_store_has_release(mev_store *s, const char *tag, mev_oid *commit)
{
	mev_buf rel = MEV_BUF_INIT;
	mev_release m;
	mev_rd r;
	int found = 0;
	if (mev_store_raw_get(s, "releases", tag, strlen(tag), &rel, NULL) == 0) {
		mev_buf val = MEV_BUF_INIT;
		if (mev_codec_unpack(&val, 'R', rel.ptr, rel.len) == 0) {
			mev_rd_init(&r, val.ptr, val.len);
			if (decode_head(&r, &m) == 0) {
				found = 1;
				if (commit)
					*commit = m.commit;
				free(m.tag);
				free(m.base);
			}
		}
		mev_buf_free(&val);
	}
	mev_buf_free(&rel);
	return found;
}

typedef struct {
	uint64_t n, stored, raw;
	mev_buf val;
	char kind;
} size_ctx;

static int size_cb(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	size_ctx *sc = c;
	const char *p = data;
	(void)key;
	(void)klen;
	sc->n++;
	sc->stored += len;
	if (len > 4 && memcmp(p, "MEV", 3) == 0) {
		/* the frame header holds the raw size: no need to decompress */
		unsigned long long sz = ZSTD_getFrameContentSize(p + 4, len - 4);
		if (sz < (1ULL << 40))
			sc->raw += sz;
	} else {
		sc->raw += len;
	}
	return 0;
}

int mev_store_stats_get(mev_store *s, mev_store_stats *out)
{
	MDB_envinfo info;
	MDB_stat st;
	size_ctx rel = { 0 }, tab = { 0 }, blobs = { 0 }, other = { 0 };
	static const char *const others[] = { "diags", "clusters", "events", "lineages", "meta" };
	int rc;
	memset(out, 0, sizeof *out);
	mdb_env_info(s->env, &info);
	mdb_env_stat(s->env, &st);
	out->map_bytes = info.me_mapsize;
	out->used_bytes = (info.me_last_pgno + 1) * (uint64_t)st.ms_psize;
	{
		char path[4096];
		FILE *f;
		snprintf(path, sizeof path, "%s/data.mdb", s->dir);
		f = fopen(path, "rb");
		if (f) {
			fseek(f, 0, SEEK_END);
			out->file_bytes = (uint64_t)ftell(f);
			fclose(f);
		}
	}
	if ((rc = mev_store_raw_scan(s, "releases", NULL, 0, size_cb, &rel)) ||
	    (rc = mev_store_raw_scan(s, "tables", NULL, 0, size_cb, &tab)) ||
	    (rc = mev_store_raw_scan(s, "blobs", NULL, 0, size_cb, &blobs)))
		return rc;
	for (size_t i = 0; i < sizeof others / sizeof *others; i++)
		if ((rc = mev_store_raw_scan(s, others[i], NULL, 0, size_cb, &other)))
			return rc;
	out->releases = rel.n;
	out->release_bytes = rel.stored;
	out->release_raw = rel.raw;
	out->table_bytes = tab.stored;
	out->table_raw = tab.raw;
	out->blobs = blobs.n;
	out->other_bytes = other.stored + blobs.stored;
	out->other_raw = other.raw + blobs.raw;
	{
		mev_release *list;
		size_t n;
		if ((rc = mev_store_releases(s, &list, &n)))
			return rc;
		for (size_t i = 0; i < n; i++)
			out->snapshots += list[i].has_files && list[i].snapshot;
		mev_release_list_free(list, n);
	}
	return 0;
}
