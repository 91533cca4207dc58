/*
 * Sections added, removed and renamed between two consecutive releases (they
 * do not depend on the clustering).  Sections are matched by title, their
 * key: a change of display name alone is no change.
 */
#include "track_internal.h"
#include "maintevo/error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define EPS MEV__TRACK_EPS

typedef struct {
	uint32_t r, n;     /* removed section (older), added section (newer) */
	double cov;
	uint64_t lines;    /* of r */
	double shared;     /* lines (in the older release) of the common files both cover */
} rename_cand;

/* Best coverage first; among equals (two sections merged into a new one)
 * the larger old section is the one renamed. */
static int cand_cmp(const void *x, const void *y)
{
	const rename_cand *a = x, *b = y;
	if (a->cov != b->cov)
		return a->cov > b->cov ? -1 : 1;
	if (a->lines != b->lines)
		return a->lines > b->lines ? -1 : 1;
	if (a->r != b->r)
		return a->r < b->r ? -1 : 1;
	return a->n < b->n ? -1 : a->n > b->n;
}

static int change_cmp(const void *x, const void *y)
{
	const mev__change *a = x, *b = y;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return strcmp(a->section, b->section);
}

/*
 * Without file tables a rename is guessed from what the two sections share
 * with the others, and that alone cannot tell apart two drivers of the same
 * size inside the same subsystem.  So the titles must also share a rare
 * word: letters and digits, two or more, case folded, found in at most
 * RARE_WORD section titles of the two releases ("EMULEX LPFC ..." and
 * "EMULEX/AVAGO LPFC ..." share EMULEX; two media drivers share only MEDIA
 * and DRIVER, which hundreds of titles hold).
 */
enum { RARE_WORD = 5 };

/* Calls fn for each word of a title (at most once per distinct word). */
static int each_word(const char *t, int (*fn)(void *ctx, const char *w, size_t n), void *ctx)
{
	char seen[64][32];
	int nseen = 0, rc = 0;
	while (*t && !rc) {
		char w[32];
		size_t n = 0;
		int dup = 0;
		while (*t && !((*t >= 'A' && *t <= 'Z') || (*t >= 'a' && *t <= 'z') || (*t >= '0' && *t <= '9')))
			t++;
		while ((*t >= 'A' && *t <= 'Z') || (*t >= 'a' && *t <= 'z') || (*t >= '0' && *t <= '9')) {
			if (n < sizeof w - 1)
				w[n++] = (char)(*t >= 'a' && *t <= 'z' ? *t - 32 : *t);
			t++;
		}
		w[n] = '\0';
		if (n < 2)
			continue;
		for (int i = 0; i < nseen && !dup; i++)
			dup = strcmp(seen[i], w) == 0;
		if (dup)
			continue;
		if (nseen < 64)
			memcpy(seen[nseen++], w, n + 1);
		rc = fn(ctx, w, n);
	}
	return rc;
}

static int count_word(void *ctx, const char *w, size_t n)
{
	mev_strmap *m = ctx;
	int64_t v = mev__strmap_get(m, w, n);
	return mev__strmap_put(m, w, n, v < 0 ? 1 : (uint32_t)v + 1) ? mev_error_oom() : 0;
}

/* In how many titles of the two releases each word occurs. */
static int count_words(mev_strmap *m, const mev__track_rel *ra, const mev__track_rel *rb)
{
	const mev__track_rel *r[2] = { ra, rb };
	mev_strmap both = MEV_STRMAP_INIT;
	int rc = 0;
	for (int k = 0; k < 2 && !rc; k++) {
		const mev_section_info *s = mev_filemap_sections(r[k]->sec);
		for (size_t i = 0; i < mev_filemap_section_count(r[k]->sec) && !rc; i++) {
			int added;
			uint32_t x;
			/* a title present in both releases counts once */
			if (mev__strmap_intern(&both, s[i].title, strlen(s[i].title), 0, &x, &added)) {
				rc = mev_error_oom();
				break;
			}
			if (added)
				rc = each_word(s[i].title, count_word, m);
		}
	}
	mev__strmap_free(&both);
	return rc;
}

typedef struct {
	const mev_strmap *counts;
	mev_strmap words;      /* the rare words of the first title */
	int found;
} rare_ctx;

static int note_rare(void *ctx, const char *w, size_t n)
{
	rare_ctx *rc = ctx;
	int64_t c = mev__strmap_get(rc->counts, w, n);
	if (c > 0 && c <= RARE_WORD && mev__strmap_put(&rc->words, w, n, 1))
		return mev_error_oom();
	return 0;
}

static int find_rare(void *ctx, const char *w, size_t n)
{
	rare_ctx *rc = ctx;
	rc->found |= mev__strmap_get(&rc->words, w, n) >= 0;
	return 0;
}

static int share_rare_word(const mev_strmap *counts, const char *a, const char *b)
{
	rare_ctx rc = { counts, MEV_STRMAP_INIT, 0 };
	if (each_word(a, note_rare, &rc) == 0)
		each_word(b, find_rare, &rc);
	mev__strmap_free(&rc.words);
	return rc.found;
}

/* The two releases' sections side by side: which went, which came (by title). */
typedef struct {
	const mev__track_rel *ra, *rb;
	const mev_section_info *sa, *sb;
	size_t na, nb;
	uint8_t *gone, *born;    /* per section of ra: removed; per section of rb: added */
	size_t ngone, nborn;
	uint64_t *born_lines;    /* with file tables, per added section: lines (in ra) of the
				    common files it covers */
} diff;

static int diff_titles(diff *d, const mev__track_rel *ra, const mev__track_rel *rb)
{
	mev_strmap ta = MEV_STRMAP_INIT, tb = MEV_STRMAP_INIT;
	int rc = 0;
	memset(d, 0, sizeof *d);
	d->ra = ra;
	d->rb = rb;
	d->sa = mev_filemap_sections(ra->sec);
	d->sb = mev_filemap_sections(rb->sec);
	d->na = mev_filemap_section_count(ra->sec);
	d->nb = mev_filemap_section_count(rb->sec);
	d->gone = calloc(d->na + 1, 1);
	d->born = calloc(d->nb + 1, 1);
	d->born_lines = calloc(d->nb + 1, sizeof *d->born_lines);
	if (!d->gone || !d->born || !d->born_lines)
		return mev_error_oom();
	for (size_t i = 0; i < d->na && !rc; i++)
		if (mev__strmap_put(&ta, d->sa[i].title, strlen(d->sa[i].title), (uint32_t)i))
			rc = mev_error_oom();
	for (size_t i = 0; i < d->nb && !rc; i++)
		if (mev__strmap_put(&tb, d->sb[i].title, strlen(d->sb[i].title), (uint32_t)i))
			rc = mev_error_oom();
	for (size_t i = 0; i < d->na && !rc; i++)
		if (!d->sa[i].is_rest && mev__strmap_get(&tb, d->sa[i].title, strlen(d->sa[i].title)) < 0)
			d->gone[i] = 1, d->ngone++;
	for (size_t i = 0; i < d->nb && !rc; i++)
		if (!d->sb[i].is_rest && mev__strmap_get(&ta, d->sb[i].title, strlen(d->sb[i].title)) < 0)
			d->born[i] = 1, d->nborn++;
	mev__strmap_free(&ta);
	mev__strmap_free(&tb);
	return rc;
}

static void diff_free(diff *d)
{
	free(d->gone);
	free(d->born);
	free(d->born_lines);
}

/* With file tables: per removed R and added N, the lines (in ra) of the
 * common files R covered in ra and N covers in rb. */
static int shared_code(mev__overlap_sums *acc, const diff *d, const mev__set_pair *sp, size_t nsp)
{
	int rc = 0;
	for (size_t k = 0; k < nsp && !rc; k++) {
		const uint32_t *ia, *ib;
		size_t ka = mev_filemap_set(&ia, d->ra->fm, sp[k].sa);
		size_t kb = mev_filemap_set(&ib, d->rb->fm, sp[k].sb);
		for (size_t y = 0; y < kb; y++)
			if (d->born[ib[y]])
				d->born_lines[ib[y]] += sp[k].old_lines;
		for (size_t x = 0; x < ka && !rc; x++)
			if (d->gone[ia[x]])
				for (size_t y = 0; y < kb && !rc; y++)
					if (d->born[ib[y]])
						rc = mev__overlap_sums_add(acc, ia[x], ib[y], (double)sp[k].old_lines, 0, 0);
	}
	return rc;
}

typedef MEV_VEC(uint64_t) u64_vec;

/* The key (R, title) of what removed section R shared with the section `title`. */
static int neighbour_key(mev_buf *key, uint32_t r, const char *title)
{
	mev__buf_clear(key);
	return mev__buf_put(key, &r, sizeof r) || mev__buf_puts(key, title) ? mev_error_oom() : 0;
}

/* Without file tables, first: the lines each removed section R shared in
 * ra with each other section, by that section's title (w[nbr[(R, title)]]). */
static int removed_neighbours(mev_strmap *nbr, u64_vec *w, const diff *d)
{
	const mev_edge *ea = mev_graph_edges(d->ra->g);
	size_t nea = mev_graph_edge_count(d->ra->g);
	mev_buf key = MEV_BUF_INIT;
	int rc = 0;
	for (size_t e = 0; e < nea && !rc; e++) {
		for (int side = 0; side < 2 && !rc; side++) {
			uint32_t r = side ? ea[e].b : ea[e].a, o = side ? ea[e].a : ea[e].b, id;
			int added;
			if (ea[e].a == ea[e].b || !d->gone[r])
				continue;
			if ((rc = neighbour_key(&key, r, d->sa[o].title)))
				break;
			if (mev__strmap_intern(nbr, key.ptr, key.len, (uint32_t)w->n, &id, &added) ||
			    (added && MEV_VEC_PUSH(w, 0)))
				rc = mev_error_oom();
			else
				w->v[id] += ea[e].lines;
		}
	}
	mev__buf_free(&key);
	return rc;
}

/* ... then: what each added section N shares in rb with a section of the
 * same title, the smaller of the two, adds to (R, N). */
static int shared_neighbours(mev__overlap_sums *acc, const diff *d)
{
	const mev_edge *eb = mev_graph_edges(d->rb->g);
	size_t neb = mev_graph_edge_count(d->rb->g);
	mev_strmap nbr = MEV_STRMAP_INIT;
	u64_vec w = { 0 };
	mev_buf key = MEV_BUF_INIT;
	int rc = removed_neighbours(&nbr, &w, d);
	for (size_t e = 0; e < neb && !rc; e++) {
		for (int side = 0; side < 2 && !rc; side++) {
			uint32_t n = side ? eb[e].b : eb[e].a, o = side ? eb[e].a : eb[e].b;
			if (eb[e].a == eb[e].b || !d->born[n])
				continue;
			for (size_t r = 0; r < d->na && !rc; r++) {
				int64_t id;
				if (!d->gone[r])
					continue;
				if ((rc = neighbour_key(&key, (uint32_t)r, d->sb[o].title)))
					break;
				id = mev__strmap_get(&nbr, key.ptr, key.len);
				if (id >= 0) {
					uint64_t m = w.v[id] < eb[e].lines ? w.v[id] : eb[e].lines;
					if (m)
						rc = mev__overlap_sums_add(acc, (uint32_t)r, n, (double)m, 0, 0);
				}
			}
		}
	}
	mev__buf_free(&key);
	mev__strmap_free(&nbr);
	MEV_VEC_FREE(&w);
	return rc;
}

typedef MEV_VEC(rename_cand) cand_vec;

/* The pairs (R, N) where N covers at least p->rename of R's lines (and,
 * compared on titles, shares a rare word with it), best first. */
static int rename_candidates(cand_vec *out, const mev__overlap_sums *acc, const diff *d, int by_code,
			     const mev_track_params *p)
{
	mev_strmap words = MEV_STRMAP_INIT;
	int rc = 0;
	if (!by_code && acc->v.n && (rc = count_words(&words, d->ra, d->rb)))
		goto done;
	for (size_t k = 0; k < acc->v.n; k++) {
		const mev__overlap *o = &acc->v.v[k];
		uint64_t lines = mev_clustering_section_lines(d->ra->cl, o->a);
		double cov = lines ? o->w / (double)lines : 0;
		if (cov > 1)
			cov = 1;
		if (lines && cov >= p->rename - EPS &&
		    (by_code || share_rare_word(&words, d->sa[o->a].title, d->sb[o->b].title))) {
			rename_cand c = { o->a, o->b, cov, lines, o->w };
			if (MEV_VEC_PUSH(out, c)) {
				rc = mev_error_oom();
				goto done;
			}
		}
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, cand_cmp);
done:
	mev__strmap_free(&words);
	return rc;
}

/*
 * Not a change at all, though the title (the key) changed: over the same
 * files (the common files both cover are all the old section's code and
 * all the new one covers),
 *  - a title that is not a name (a commented-out field line, an underline:
 *    mev_title_kind) replaced by a name: the same section, read under its
 *    name by a newer get_maintainer.pl (U-Boot v2017.11 stopped reading
 *    comment lines) or after its "#M:" line became an "M:" line;
 *  - a name replaced by a title that is not one but displays as that name
 *    (its "M:" line commented out, under "NAME").
 * Compared on titles alone (no file tables) it stays a rename.
 */
static int retitled(const diff *d, const rename_cand *c, int by_code)
{
	const mev_section_info *a = &d->sa[c->r], *b = &d->sb[c->n];
	if (!by_code || c->cov < 1 - EPS || c->shared + 0.5 < (double)d->born_lines[c->n])
		return 0;
	if (a->title_kind != MEV_TITLE_NAME && b->title_kind == MEV_TITLE_NAME)
		return 1;
	return a->title_kind == MEV_TITLE_NAME && b->title_kind != MEV_TITLE_NAME &&
	       strcmp(a->display, b->display) == 0;
}

/* The renames (each section in one at most, best candidates first), then
 * the sections removed and added that are not part of one. */
static int push_changes(mev__change_vec *out, const diff *d, const rename_cand *cand, size_t ncand,
			int by_code)
{
	uint8_t *used_a = calloc(d->na + 1, 1), *used_b = calloc(d->nb + 1, 1);
	int rc = 0;
	if (!used_a || !used_b) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t k = 0; k < ncand && !rc; k++) {
		mev__change c = { MEV_SECTION_RENAMED, d->sa[cand[k].r].title, d->sb[cand[k].n].title,
				  mev_clustering_section_lines(d->ra->cl, cand[k].r), cand[k].cov };
		if (used_a[cand[k].r] || used_b[cand[k].n])
			continue;
		used_a[cand[k].r] = used_b[cand[k].n] = 1;
		if (!retitled(d, &cand[k], by_code) && MEV_VEC_PUSH(out, c))
			rc = mev_error_oom();
	}
	for (size_t i = 0; i < d->na && !rc; i++)
		if (d->gone[i] && !used_a[i]) {
			mev__change c = { MEV_SECTION_REMOVED, d->sa[i].title, "",
					  mev_clustering_section_lines(d->ra->cl, (uint32_t)i), NAN };
			if (MEV_VEC_PUSH(out, c))
				rc = mev_error_oom();
		}
	for (size_t i = 0; i < d->nb && !rc; i++)
		if (d->born[i] && !used_b[i]) {
			mev__change c = { MEV_SECTION_ADDED, d->sb[i].title, "",
					  mev_clustering_section_lines(d->rb->cl, (uint32_t)i), NAN };
			if (MEV_VEC_PUSH(out, c))
				rc = mev_error_oom();
		}
done:
	free(used_a);
	free(used_b);
	return rc;
}

/*
 * A removed section R and an added section N are a rename when N covers at
 * least p->rename of R's lines: with file tables, the lines (in ra) of the
 * files both releases hold that R covered in ra and N covers in rb; without,
 * the lines R shared with each other section, matched by title to what N
 * shares with it.
 */
int mev__section_changes(mev__change_vec *out, const mev__track_rel *ra, const mev__track_rel *rb,
			 const mev__set_pair *sp, size_t nsp, const mev_track_params *p)
{
	diff d;
	mev__overlap_sums acc = MEV__OVERLAP_SUMS_INIT;
	cand_vec cand = { 0 };
	int rc;
	if ((rc = diff_titles(&d, ra, rb)))
		goto done;
	if (d.ngone && d.nborn)
		rc = sp ? shared_code(&acc, &d, sp, nsp) : shared_neighbours(&acc, &d);
	if (!rc && !(rc = rename_candidates(&cand, &acc, &d, sp != NULL, p)))
		rc = push_changes(out, &d, cand.v, cand.n, sp != NULL);
	if (!rc && out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, change_cmp);
done:
	diff_free(&d);
	mev__overlap_sums_free(&acc);
	MEV_VEC_FREE(&cand);
	return rc;
}
