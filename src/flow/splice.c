/*
 * A commit's MAINTAINERS set spliced onto a set parsed whole (docs/flow.md,
 * "Cost").  Most new sets differ from their parent's in a file or two (a
 * board's MAINTAINERS in U-Boot, edited, added or deleted).  get_maintainer.pl
 * matches each section on its own lines, so such a set is the base's
 * sections of the files it still reads, and the other files parsed alone,
 * numbered in reading order as a whole parse would number them.  Matching
 * asks the base's matcher and the small one of the other files; nothing of
 * the base is parsed, compiled or indexed again.
 *
 * Only where the parts cannot tell from the whole: every section's lines
 * lie in its own file (no file begins with lines that join the section
 * before it), and no title is repeated across the parts or renumbered by
 * them ("TITLE #2": a title the base holds, or one that ends in " #<n>",
 * is parsed whole).  Sets spliced on a spliced set stand on the same base
 * until SPLICE_FILES files differ from it.
 */
#include "context_internal.h"
#include "maintevo/error.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Files a spliced set may read apart from its base before it is parsed whole. */
#define SPLICE_FILES 32
#define OWN_BIT 0x80000000u

int mev__flow_match(const uint32_t **ids, size_t *n, mev__flow_ctx *x, const char *path,
		    size_t len)
{
	const uint32_t *a, *b;
	size_t na, nb, i = 0, j = 0;
	int rc;
	if (!x->base)
		return mev_matcher_match(ids, n, x->matcher, path, len, 0);
	if ((rc = mev_matcher_match(&a, &na, x->base->matcher, path, len, 0)) ||
	    (rc = mev_matcher_match(&b, &nb, x->own_matcher, path, len, 0)))
		return rc;
	/* both sorted, and both numberings keep their order here */
	x->hits.n = 0;
	while (i < na || j < nb) {
		uint32_t v;
		if (i < na && x->base_new[a[i]] == UINT32_MAX) {
			i++;
			continue;
		}
		if (j < nb && (i == na || x->own_new[b[j]] < x->base_new[a[i]]))
			v = x->own_new[b[j++]];
		else
			v = x->base_new[a[i++]];
		if (MEV_VEC_PUSH(&x->hits, v))
			return mev_error_oom();
	}
	*ids = x->hits.v;
	*n = x->hits.n;
	return 0;
}

int64_t mev__flow_cand(const mev__flow_ctx *x, const char *p, size_t len)
{
	int64_t v = mev__strmap_get(&x->cand, p, len);
	return v >= 0 || !x->base ? v : mev__strmap_get(&x->base->cand, p, len);
}

/* The sections of file f of m: [*first, *end); sections are in file order. */
static void file_sections(uint32_t *first, uint32_t *end, const mev_maint *m, uint32_t f)
{
	const mev_section *s = mev_maint_sections(m);
	uint32_t lo = 0, hi = (uint32_t)mev_maint_section_count(m);
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (s[mid].file < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo < mev_maint_section_count(m) && s[lo].file == f)
		lo++;
	*end = lo;
}

/* 1 when every section's lines of m lie in the section's file. */
static int files_apart(const mev_maint *m)
{
	const mev_section *s = mev_maint_sections(m);
	const mev_field *f = mev_maint_fields(m);
	size_t ns = mev_maint_section_count(m);
	for (size_t i = 0; i < ns; i++)
		for (uint32_t k = 0; k < s[i].field_count; k++)
			if (f[s[i].field_begin + k].file != s[i].file)
				return 0;
	return 1;
}

/* 1 when title t ends in " #<digits>" (a repeat's form). */
static int repeat_form(const char *t)
{
	size_t n = strlen(t), d = n;
	while (d && isdigit((unsigned char)t[d - 1]))
		d--;
	return d < n && d >= 2 && t[d - 1] == '#' && t[d - 2] == ' ';
}

/* Base b ready to splice on: its title map, whether its files are apart. */
static int base_ready(mev__flow_ctx *b)
{
	if (b->apart < 0) {
		b->apart = files_apart(b->maint);
		for (uint32_t s = 0; s < b->nsec; s++)
			if (mev__strmap_put(&b->title_map, b->titles[s], strlen(b->titles[s]), s))
				return mev_error_oom();
	}
	return 0;
}

/*
 * Which files of src[0..n) the base b reads too, the same blob: from[i] its
 * index in b's sources, or UINT32_MAX (a file of own's: *k of them).  0 when
 * the base's files would be read in another order, or too many differ.
 */
static int map_files(uint32_t *from, uint32_t *k, const mev__flow_ctx *b,
		     const mev_maint_source *src, size_t n)
{
	int64_t last = -1;
	*k = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t v = mev__strmap_get(&b->src_paths, src[i].path, strlen(src[i].path));
		from[i] = UINT32_MAX;
		if (v >= 0) {
			if (v <= last)
				return 0;
			last = v;
			if (memcmp(&b->src[v].oid, &src[i].oid, sizeof src[i].oid) == 0) {
				from[i] = (uint32_t)v;
				continue;
			}
		}
		if (++*k > SPLICE_FILES)
			return 0;
	}
	return 1;
}

/*
 * 1 when the titles of the parts are those of the whole: no own title is
 * one a base section still read holds, or has a repeat's form; no title of
 * a base section no longer read was repeated (its next would be renamed).
 */
static int titles_hold(const mev__flow_ctx *x, const mev_maint *own)
{
	const mev__flow_ctx *b = x->base;
	const mev_section *os = mev_maint_sections(own);
	size_t no = mev_maint_section_count(own);
	mev_buf t = MEV_BUF_INIT;
	int ok = 1;
	for (size_t o = 0; o < no && ok; o++) {
		int64_t s = mev__strmap_get(&b->title_map, os[o].title, strlen(os[o].title));
		if (repeat_form(os[o].title) || (s >= 0 && x->base_new[s] != UINT32_MAX))
			ok = 0;
	}
	for (uint32_t s = 0; s < b->nsec && ok; s++) {
		if (x->base_new[s] != UINT32_MAX)
			continue;
		mev__buf_clear(&t);
		if (repeat_form(b->titles[s]) || mev__buf_printf(&t, "%s #2", b->titles[s]) ||
		    mev__strmap_get(&b->title_map, t.ptr, t.len) >= 0)
			ok = 0;
	}
	mev__buf_free(&t);
	return ok;
}

/* 1 when own's sections (its files parsed alone) stand as they would in
 * the whole: each with a title line (but at the top of the first file read)
 * and its lines in its own file. */
static int own_apart(const mev_maint *own, int own_first)
{
	const mev_section *os = mev_maint_sections(own);
	size_t no = mev_maint_section_count(own);
	for (size_t o = 0; o < no; o++)
		if (!*os[o].raw_title && !(o == 0 && own_first && os[o].file == 0))
			return 0;
	return files_apart(own);
}

/*
 * Number x's sections in reading order: the base's of the files read from
 * it (from[]), own's of the others; their titles, THE REST, the origin of
 * each (a base section, or OWN_BIT | an own section) into *origin.
 */
static int number(mev__flow_ctx *x, uint32_t **origin, const uint32_t *from, size_t n)
{
	const mev__flow_ctx *b = x->base;
	const mev_section *os = mev_maint_sections(x->own);
	size_t no = mev_maint_section_count(x->own);
	uint32_t id = 0, j = 0;
	x->nsec = 0;
	x->base_new = malloc((b->nsec + 1) * sizeof *x->base_new);
	x->own_new = malloc((no + 1) * sizeof *x->own_new);
	*origin = malloc((b->nsec + no + 1) * sizeof **origin);
	x->titles = malloc((b->nsec + no + 1) * sizeof *x->titles);
	if (!x->base_new || !x->own_new || !*origin || !x->titles)
		return mev_error_oom();
	memset(x->base_new, 0xff, (b->nsec + 1) * sizeof *x->base_new);
	for (size_t i = 0; i < n; i++) {
		uint32_t s, e;
		int own = from[i] == UINT32_MAX;
		if (own)
			file_sections(&s, &e, x->own, j++);
		else
			file_sections(&s, &e, b->maint, from[i]);
		for (; s < e; s++, id++) {
			(*origin)[id] = own ? OWN_BIT | s : s;
			if (own)
				x->own_new[s] = id;
			else
				x->base_new[s] = id;
			x->titles[id] = own ? os[s].title : b->titles[s];
			if (own ? os[s].is_rest : s == b->rest)
				x->rest = id;
		}
	}
	x->nsec = id;
	return 0;
}

/* The lists of `type` of x: per section the base's (bo, bi) or own's. */
static int splice_type(uint32_t **xo, uint32_t **xi, mev__flow_ctx *x, const uint32_t *origin,
		       mev__flow_strings *str, char type, const uint32_t *bo, const uint32_t *bi)
{
	uint32_t *oo = NULL, *oi = NULL;
	size_t n = 0;
	int rc = mev__flow_field_lists(&oo, &oi, x->own, str, type);
	if (!rc) {
		size_t no = mev_maint_section_count(x->own);
		*xo = malloc((x->nsec + 1) * sizeof **xo);
		*xi = malloc((bo[x->base->nsec] + oo[no] + 1) * sizeof **xi);
		if (!*xo || !*xi)
			rc = mev_error_oom();
	}
	for (uint32_t s = 0; s < x->nsec && !rc; s++) {
		uint32_t o = origin[s] & ~OWN_BIT;
		int own = (origin[s] & OWN_BIT) != 0;
		const uint32_t *l = own ? oi + oo[o] : bi + bo[o];
		size_t len = own ? oo[o + 1] - oo[o] : bo[o + 1] - bo[o];
		(*xo)[s] = (uint32_t)n;
		if (len)
			memcpy(*xi + n, l, len * sizeof *l);
		n += len;
	}
	if (!rc)
		(*xo)[x->nsec] = (uint32_t)n;
	free(oo);
	free(oi);
	return rc;
}

/* Everything verdicts need of x but its matcher (own parsed and apart). */
static int splice_fields(mev__flow_ctx *x, mev__flow_strings *str, const uint32_t *from,
			 size_t n)
{
	const mev__flow_ctx *b = x->base;
	uint32_t *origin = NULL;
	int rc;
	if ((rc = number(x, &origin, from, n)))
		goto done;
	if (!titles_hold(x, x->own)) {
		rc = 1;
		goto done;
	}
	if ((rc = splice_type(&x->m_off, &x->m_ids, x, origin, str, 'M', b->m_off, b->m_ids)) ||
	    (rc = splice_type(&x->r_off, &x->r_ids, x, origin, str, 'R', b->r_off, b->r_ids)) ||
	    (rc = splice_type(&x->t_off, &x->t_ids, x, origin, str, 'T', b->t_off, b->t_ids)))
		goto done;
	if (!(x->title_ids = calloc(x->nsec + 1, sizeof *x->title_ids)))
		rc = mev_error_oom();
done:
	free(origin);
	return rc;
}

int mev__flow_splice(uint32_t *id, mev__flow_contexts *c, const mev__flow_ctx *p,
		     const mev_rules *r, const struct plan *pl, const mev_maint_source *src,
		     size_t n, mev__flow_dir_test *dt)
{
	mev__flow_ctx *b = p->base ? p->base : c->ctxs.v[p->id], *x; /* pinned below */
	mev_maint_source own[SPLICE_FILES];
	uint32_t *from, k;
	int rc;

	*id = UINT32_MAX;
	for (uint32_t i = 0; i < pl->n; i++)
		if (c->edits.v[pl->first + i].status == 'T')
			return 0; /* a directory test answers otherwise: base sections change */
	if ((rc = base_ready(b)) || !b->apart || mev_maint_file_count(b->maint) != b->nsrc)
		return rc;
	if (!(from = malloc((n + 1) * sizeof *from)))
		return mev_error_oom();
	if (!map_files(from, &k, b, src, n)) {
		free(from);
		return 0;
	}
	if (!(x = calloc(1, sizeof *x))) {
		free(from);
		return mev_error_oom();
	}
	x->base = b;
	b->pins++;
	x->rest = UINT32_MAX;
	x->stamp = UINT32_MAX;
	for (size_t i = 0, j = 0; i < n; i++)
		if (from[i] == UINT32_MAX)
			own[j++] = src[i];
	if ((rc = mev__flow_parse_set(&x->own, c, r, NULL, own, k)))
		goto done;
	if ((rc = mev_maint_set_dirs(x->own, mev__flow_lazy_is_dir, dt))) {
		if (dt->whole) {
			mev_error_clear();
			rc = 0;
		}
		goto done;
	}
	if (!own_apart(x->own, n && from[0] == UINT32_MAX) ||
	    (rc = splice_fields(x, c->env->strings, from, n)) == 1) {
		rc = 0; /* parsed whole */
		goto done;
	}
	if (rc || (rc = mev__flow_candidates(&x->cand, x->own)) ||
	    (rc = mev__flow_keep_sources(x, src, n)) ||
	    (rc = mev_matcher_new_pooled(&x->own_matcher, x->own, 0, c->pool)))
		goto done;
	free(from);
	c->env->parses++;
	c->env->derived++;
	c->env->spliced++;
	return mev__flow_ctx_add(id, c, x, r);
done:
	free(from);
	mev__flow_ctx_discard(x);
	return rc;
}
