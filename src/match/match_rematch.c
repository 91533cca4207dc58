/*
 * Matching again only what a change of MAINTAINERS can move: the rematch
 * plan pairs the sections of two releases and keeps the patterns of the
 * changed ones, filed under their directories; a path none of them
 * matches keeps its sections (see include/maintevo/match.h).
 */
#include "maintevo/match.h"
#include "maintevo/error.h"
#include "match_internal.h"
#include "maintainers/maintainers_shared.h"
#include "util/buf.h"
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

struct mev_rematch {
	uint32_t *map;          /* old section -> new section or UINT32_MAX */
	size_t nold;
	int identical, all;
	mev_strmap keys;        /* directory prefixes of dirty F:/X: patterns */
	MEV_VEC(u32vec) below;  /* per key: those patterns (indexes in pats) */
	MEV_VEC(mev__pattern) pats;
	MEV_VEC(char *) musts;  /* literals of dirty N: patterns */
	mev__pattern_scratch *sc; /* for testing paths against pats */
	mev_buf *path, *upath;
	struct dir_keys *dir;   /* the keys along the folder of the path asked last */
};

/* The keys (their indexes) that are prefixes of folder `dir` ("a/b/"),
 * and where each ends: the paths come sorted, so a folder's files are
 * asked one after another, and their folder is looked up once (a lookup
 * per '/' of every path was a third of matching a release again). */
typedef struct {
	uint32_t end, at;
} dir_hit;

struct dir_keys {
	mev_buf dir;
	int known;
	MEV_VEC(dir_hit) v;
};

/* [title NUL] type regex NUL type regex NUL ... of the given types */
static int signature(mev_buf *b, const mev_maint *m, const mev_section *s, int with_title,
		     const char *types)
{
	const mev_field *f = mev_maint_fields(m);
	mev__buf_clear(b);
	if (with_title && mev__buf_put(b, s->title, strlen(s->title) + 1))
		return MEV_ENOMEM;
	if (!b->ptr && mev__buf_grow(b, 1))
		return MEV_ENOMEM;
	for (uint32_t k = 0; k < s->field_count; k++) {
		const mev_field *fl = &f[s->field_begin + k];
		if (!strchr(types, fl->type) || !fl->type || !fl->regex)
			continue;
		if (mev__buf_putc(b, fl->type) || mev__buf_put(b, fl->regex, strlen(fl->regex) + 1))
			return MEV_ENOMEM;
	}
	return 0;
}

/* File one changed pattern under what it can reach. */
static int add_dirty_field(mev_rematch *rm, const mev_field *fl, int utf8)
{
	char errbuf[128];
	mev__pattern p;
	const char *err;
	size_t off;
	if (rm->all)
		return 0;
	if (mev__pattern_compile(&p, fl->type, fl->regex, utf8, &err, &off, errbuf, sizeof errbuf))
		return MEV_ENOMEM;
	if (p.kind != MEV__PAT_NEVER) {
		if (fl->type == 'N') {
			if (p.must_len < 1) {
				rm->all = 1;
			} else {
				char *lit = strndup(p.must, p.must_len);
				if (!lit || MEV_VEC_PUSH(&rm->musts, lit)) {
					free(lit);
					mev__pattern_free(&p);
					return mev_error_oom();
				}
			}
		} else {
			/* kept, under the directory its literal prefix ends in */
			size_t kl = p.prefix_len;
			uint32_t at;
			int added;
			u32vec none = { 0 };
			while (kl && p.prefix[kl - 1] != '/')
				kl--;
			if (kl == 0) {
				rm->all = 1;
			} else if (mev__strmap_intern(&rm->keys, p.prefix, kl, (uint32_t)rm->below.n, &at,
						      &added) ||
				   (added && MEV_VEC_PUSH(&rm->below, none)) ||
				   MEV_VEC_PUSH(&rm->below.v[at], (uint32_t)rm->pats.n) ||
				   MEV_VEC_PUSH(&rm->pats, p)) {
				mev__pattern_free(&p);
				return mev_error_oom();
			} else {
				return 0;
			}
		}
	}
	mev__pattern_free(&p);
	return 0;
}

/* Every pattern of a changed, added or removed section is dirty. */
static int add_dirty(mev_rematch *rm, const mev_maint *m, const mev_section *s)
{
	const mev_field *f = mev_maint_fields(m);
	int utf8 = (int)mev_maint_rules(m)->utf8 | (mev_maint_rules(m)->regex_patterns ? MEV__PAT_RAW : 0), rc = 0;
	for (uint32_t k = 0; k < s->field_count && !rc; k++) {
		const mev_field *fl = &f[s->field_begin + k];
		if (mev__match_is_pattern(fl))
			rc = add_dirty_field(rm, fl, utf8);
	}
	return rc;
}

static int regex_cmp(const void *a, const void *b)
{
	return strcmp((*(const mev_field *const *)a)->regex, (*(const mev_field *const *)b)->regex);
}

/* The fields of type t of a section, sorted by regex (caller frees). */
static const mev_field **sorted_fields(const mev_maint *m, const mev_section *s, char t, size_t *n)
{
	const mev_field *f = mev_maint_fields(m);
	const mev_field **v = malloc((s->field_count + 1) * sizeof *v);
	*n = 0;
	if (!v)
		return NULL;
	for (uint32_t k = 0; k < s->field_count; k++)
		if (f[s->field_begin + k].type == t && mev__match_is_pattern(&f[s->field_begin + k]))
			v[(*n)++] = &f[s->field_begin + k];
	qsort(v, *n, sizeof *v, regex_cmp);
	return v;
}

/*
 * A section kept its title but its patterns changed.  When its X: and N:
 * lines are the same, only the F: lines that came or went are dirty and the
 * section keeps its files elsewhere; otherwise all of it is dirty.
 * Returns 1 when the section can be mapped, 0 when not, < 0 on error.
 */
static int diff_fields(mev_rematch *rm, const mev_maint *om, const mev_section *os,
		       const mev_maint *nm, const mev_section *ns)
{
	size_t no[3], nn[3], i, j;
	const mev_field **o[3], **n[3];
	static const char types[3] = { 'X', 'N', 'F' };
	int utf8 = (int)mev_maint_rules(nm)->utf8 | (mev_maint_rules(nm)->regex_patterns ? MEV__PAT_RAW : 0), rc = 1;
	for (int t = 0; t < 3; t++) {
		o[t] = sorted_fields(om, os, types[t], &no[t]);
		n[t] = sorted_fields(nm, ns, types[t], &nn[t]);
	}
	for (int t = 0; t < 3; t++)
		if (!o[t] || !n[t]) {
			rc = mev_error_oom();
			goto done;
		}
	for (int t = 0; t < 2; t++) {
		if (no[t] != nn[t]) {
			rc = 0;
			goto done;
		}
		for (i = 0; i < no[t]; i++)
			if (strcmp(o[t][i]->regex, n[t][i]->regex)) {
				rc = 0;
				goto done;
			}
	}
	/* F: symmetric difference of the two sorted lists */
	i = j = 0;
	while (i < no[2] || j < nn[2]) {
		int c = i >= no[2] ? 1 : j >= nn[2] ? -1 : strcmp(o[2][i]->regex, n[2][j]->regex);
		int r = 0;
		if (c < 0)
			r = add_dirty_field(rm, o[2][i++], utf8);
		else if (c > 0)
			r = add_dirty_field(rm, n[2][j++], utf8);
		else
			i++, j++;
		if (r) {
			rc = r;
			goto done;
		}
	}
done:
	for (int t = 0; t < 3; t++) {
		free(o[t]);
		free(n[t]);
	}
	return rc;
}

static int same_rules(const mev_rules *a, const mev_rules *b)
{
	/* edk2's <default> fallback makes a path's sections depend on other
	 * sections' M: lines: no plan, everything is matched again */
	if (a->fallback || b->fallback)
		return 0;
	return a->any_type == b->any_type && a->utf8 == b->utf8 && a->braces == b->braces &&
	       a->regex_patterns == b->regex_patterns && a->dialect == b->dialect &&
	       a->drop_comments == b->drop_comments;
}

/*
 * Old and new sections are paired in three passes: same title and same
 * patterns (unchanged); same title (patterns changed: see diff_fields());
 * same patterns (renamed).  What is left was removed or added.
 */
int mev_rematch_new(mev_rematch **out, const mev_maint *old_maint, const mev_maint *new_maint)
{
	mev_rematch *rm = calloc(1, sizeof *rm);
	const mev_section *os = mev_maint_sections(old_maint), *ns = mev_maint_sections(new_maint);
	size_t no = mev_maint_section_count(old_maint), nn = mev_maint_section_count(new_maint);
	mev_strmap full = MEV_STRMAP_INIT, titles = MEV_STRMAP_INIT, pats = MEV_STRMAP_INIT;
	mev_buf b = MEV_BUF_INIT;
	uint8_t *used = calloc(nn + 1, 1);
	int rc = 0;

	*out = NULL;
	if (!rm || !used || !(rm->map = malloc((no + 1) * sizeof *rm->map)) ||
	    !(rm->path = calloc(1, sizeof *rm->path)) || !(rm->upath = calloc(1, sizeof *rm->upath)) ||
	    !(rm->dir = calloc(1, sizeof *rm->dir))) {
		rc = mev_error_oom();
		goto done;
	}
	if ((rc = mev__pattern_scratch_new(&rm->sc, MATCH_LIMIT, DEPTH_LIMIT, PATTERN_BUDGET)))
		goto done;
	rm->nold = no;
	for (size_t i = 0; i < no; i++)
		rm->map[i] = UINT32_MAX;
	if (!same_rules(mev_maint_rules(old_maint), mev_maint_rules(new_maint)))
		rm->all = 1;
	for (size_t j = 0; j < nn; j++) {
		if ((rc = signature(&b, new_maint, &ns[j], 1, "FXN")) ||
		    (rc = mev__strmap_put(&full, b.ptr, b.len, (uint32_t)j)) ||
		    (rc = mev__strmap_put(&titles, ns[j].title, strlen(ns[j].title), (uint32_t)j)) ||
		    (rc = signature(&b, new_maint, &ns[j], 0, "FXN")) ||
		    (rc = mev__strmap_intern(&pats, b.ptr, b.len, (uint32_t)j, NULL, NULL)))
			goto done;
	}
	rm->identical = no == nn && !rm->all;
	/* pass 1: unchanged */
	for (size_t i = 0; i < no; i++) {
		int64_t j;
		if ((rc = signature(&b, old_maint, &os[i], 1, "FXN")))
			goto done;
		j = mev__strmap_get(&full, b.ptr, b.len);
		if (j >= 0 && !used[j]) {
			rm->map[i] = (uint32_t)j;
			used[j] = 1;
			if ((size_t)j != i)
				rm->identical = 0;
		} else {
			rm->identical = 0;
		}
	}
	/* pass 2: same title, other patterns */
	for (size_t i = 0; i < no; i++) {
		int64_t j;
		if (rm->map[i] != UINT32_MAX)
			continue;
		j = mev__strmap_get(&titles, os[i].title, strlen(os[i].title));
		if (j < 0 || used[j])
			continue;
		used[j] = 1;
		rc = diff_fields(rm, old_maint, &os[i], new_maint, &ns[j]);
		if (rc < 0)
			goto done;
		if (rc == 1) {
			rm->map[i] = (uint32_t)j;
		} else if ((rc = add_dirty(rm, old_maint, &os[i])) ||
			   (rc = add_dirty(rm, new_maint, &ns[j]))) {
			goto done;
		}
		rc = 0;
	}
	/* pass 3: renamed */
	for (size_t i = 0; i < no; i++) {
		int64_t j;
		if (rm->map[i] != UINT32_MAX)
			continue;
		if ((rc = signature(&b, old_maint, &os[i], 0, "FXN")))
			goto done;
		j = mev__strmap_get(&pats, b.ptr, b.len);
		if (j >= 0 && !used[j] && strcmp(ns[j].title, os[i].title) != 0 &&
		    mev__strmap_get(&titles, os[i].title, strlen(os[i].title)) < 0) {
			rm->map[i] = (uint32_t)j;
			used[j] = 1;
		}
	}
	for (size_t i = 0; i < no; i++)
		if (rm->map[i] == UINT32_MAX) {
			/* removed, unless pass 2 already made it dirty */
			int64_t j = mev__strmap_get(&titles, os[i].title, strlen(os[i].title));
			if (j >= 0 && used[j])
				continue;
			if ((rc = add_dirty(rm, old_maint, &os[i])))
				goto done;
		}
	for (size_t j = 0; j < nn; j++)
		if (!used[j] && (rc = add_dirty(rm, new_maint, &ns[j])))
			goto done;
done:
	mev__strmap_free(&full);
	mev__strmap_free(&titles);
	mev__strmap_free(&pats);
	mev__buf_free(&b);
	free(used);
	if (rc) {
		mev_rematch_free(rm);
		return rc;
	}
	*out = rm;
	return 0;
}

void mev_rematch_free(mev_rematch *rm)
{
	if (!rm)
		return;
	free(rm->map);
	mev__strmap_free(&rm->keys);
	for (size_t i = 0; i < rm->below.n; i++)
		MEV_VEC_FREE(&rm->below.v[i]);
	MEV_VEC_FREE(&rm->below);
	for (size_t i = 0; i < rm->pats.n; i++)
		mev__pattern_free(&rm->pats.v[i]);
	MEV_VEC_FREE(&rm->pats);
	mev__pattern_scratch_free(rm->sc);
	if (rm->path)
		mev__buf_free(rm->path);
	if (rm->upath)
		mev__buf_free(rm->upath);
	free(rm->path);
	free(rm->upath);
	if (rm->dir) {
		mev__buf_free(&rm->dir->dir);
		MEV_VEC_FREE(&rm->dir->v);
		free(rm->dir);
	}
	for (size_t i = 0; i < rm->musts.n; i++)
		free(rm->musts.v[i]);
	MEV_VEC_FREE(&rm->musts);
	free(rm);
}

int mev_rematch_identical(const mev_rematch *rm) { return rm->identical; }

uint32_t mev_rematch_map(const mev_rematch *rm, uint32_t old_section)
{
	return old_section < rm->nold ? rm->map[old_section] : UINT32_MAX;
}

int mev_rematch_needed(const mev_rematch *rm, const char *path, size_t len, int is_dir)
{
	if (rm->all)
		return 1;
	if (rm->keys.count) {
		/* the dirty patterns filed under an ancestor of the path as the
		 * matcher sees it ("path/" for a directory): a path none of them
		 * matches, before or after, is in the same sections as before */
		const char *s = path;
		size_t n = len;
		mev__pattern_subject sj;
		struct dir_keys *dk = rm->dir;
		const char *slash;
		size_t d;
		int have = 0;
		if (is_dir) {
			mev__buf_clear(rm->path);
			if (mev__buf_put(rm->path, path, len) || mev__buf_putc(rm->path, '/'))
				return 1;
			s = rm->path->ptr;
			n = rm->path->len;
		}
		slash = memrchr(s, '/', n);
		d = slash ? (size_t)(slash - s) + 1 : 0;
		if (!dk->known || dk->dir.len != d || (d && memcmp(dk->dir.ptr, s, d))) {
			dk->known = 0;
			dk->v.n = 0;
			mev__buf_clear(&dk->dir);
			if (mev__buf_put(&dk->dir, s, d))
				return 1;
			for (size_t k = 1; k <= d; k++) {
				int64_t at;
				if (s[k - 1] == '/' && (at = mev__strmap_get(&rm->keys, s, k)) >= 0 &&
				    MEV_VEC_PUSH(&dk->v, ((dir_hit){ (uint32_t)k, (uint32_t)at })))
					return 1;
			}
			dk->known = 1;
		}
		for (size_t h = 0; h < dk->v.n; h++) {
			size_t k = dk->v.v[h].end, at = dk->v.v[h].at;
			for (size_t i = 0; i < rm->below.v[at].n; i++) {
				mev__pattern *p = &rm->pats.v[rm->below.v[at].v[i]];
				/* the rest of its literal prefix first */
				if (p->prefix_len > n || memcmp(s + k, p->prefix + k, p->prefix_len - k))
					continue;
				if (!have && mev__pattern_subject_set(&sj, rm->upath, s, n))
					return 1;
				have = 1;
				if (mev__pattern_match(p, rm->sc, sj.s, sj.len, sj.slashes, sj.ascii, sj.has_nl,
						       sj.u, sj.ulen))
					return 1; /* a match, or out of budget: match again */
			}
		}
	}
	for (size_t i = 0; i < rm->musts.n; i++)
		if (memmem(path, len, rm->musts.v[i], strlen(rm->musts.v[i])) ||
		    (is_dir && strlen(rm->musts.v[i]) && rm->musts.v[i][strlen(rm->musts.v[i]) - 1] == '/'))
			return 1;
	return 0;
}
