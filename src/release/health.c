/*
 * The health of a release's MAINTAINERS (record H of docs/store-format.md,
 * table "health"), in the spirit of get_maintainer.pl --self-test: the
 * F:/X:/N: lines that match no path of the tree, where each section starts
 * and whether its title line repeats, the code of orphan and obsolete
 * sections, and the code no section covers by directory.  Computed when
 * the walk stores the release, which has the tree at hand.
 */
#include "release_internal.h"
#include "maintevo/error.h"
#include "maintevo/match.h"
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* 2 adds the MAINTAINERS files the release's script does not read; a
 * record of version 1 is still read (those files not known) */
enum { HEALTH_VERSION = 2 };

/* --- computing ---------------------------------------------------------------- */

typedef struct {
	const char *p;
	size_t len;
	size_t idx;
} span;

static int span_cmp(const void *x, const void *y)
{
	const span *a = x, *b = y;
	int c = memcmp(a->p, b->p, a->len < b->len ? a->len : b->len);
	return c ? c : (a->len > b->len) - (a->len < b->len);
}

int mev_release_memo_new(mev_release_memo **out)
{
	mev_release_memo *m = calloc(1, sizeof *m);
	*out = NULL;
	if (!m)
		return mev_error_oom();
	if (mev_match_use_memo_new(&m->use)) {
		free(m);
		return MEV_ENOMEM;
	}
	*out = m;
	return 0;
}

void mev_release_memo_free(mev_release_memo *m)
{
	if (!m)
		return;
	mev_match_use_memo_free(m->use);
	free(m);
}

/* Every path of the tree, a link to a directory as "path/" (as the
 * matcher takes it), sorted bytewise; *mem owns the "path/" copies;
 * span.idx is the file's index in the tree.  The tree is sorted already:
 * only the "path/" forms are sorted and merged in. */
static int tree_paths(span **out, size_t *n, char **mem, const mev_tree *t)
{
	const mev_tree_file *f = mev_tree_files(t);
	size_t nf = mev_tree_count(t), extra = 0, k = 0, nd = 0, a = 0, b = 0, o;
	span *v = malloc((nf + 1) * sizeof *v), *d;
	char *m;
	for (size_t i = 0; i < nf; i++)
		if (f[i].link_dir) {
			extra += f[i].path_len + 2;
			nd++;
		}
	m = malloc(extra + 1);
	d = malloc((nd + 1) * sizeof *d);
	if (!v || !m || !d) {
		free(v);
		free(m);
		free(d);
		return mev_error_oom();
	}
	/* the plain paths at the front of v, the "path/" forms in d */
	for (size_t i = 0; i < nf; i++) {
		if (!f[i].link_dir) {
			v[a++] = (span){ f[i].path, f[i].path_len, i };
			continue;
		}
		memcpy(m + k, f[i].path, f[i].path_len);
		m[k + f[i].path_len] = '/';
		d[b++] = (span){ m + k, f[i].path_len + 1, i };
		k += f[i].path_len + 2;
	}
	qsort(d, nd, sizeof *d, span_cmp);
	/* merged from the back, into the room the "path/" forms leave */
	o = nf;
	while (b > 0) {
		if (a > 0 && span_cmp(&v[a - 1], &d[b - 1]) > 0)
			v[--o] = v[--a];
		else
			v[--o] = d[--b];
	}
	free(d);
	*out = v;
	*n = nf;
	*mem = m;
	return 0;
}

/*
 * Which paths (in the order of sp) may be new to the memo: NULL when the
 * memo cannot be used (*fresh_mem then NULL too).  The memo's last tree is
 * this one (none), or the one `changed` is relative to (the changed files
 * and every link, whose "path/" form can change with the tree around it).
 */
static int fresh_paths(uint8_t **out, const mev_release_input *in, const span *sp, size_t np)
{
	const mev_release_memo *mm = in->memo;
	const mev_tree_file *f = mev_tree_files(in->tree);
	int same;
	uint8_t *v;
	*out = NULL;
	if (!mm || !mm->have)
		return 0;
	same = mev_oid_equal(&mm->tree, mev_tree_id(in->tree));
	if (!same && !(in->changed && in->since && mev_oid_equal(&mm->tree, in->since)))
		return 0;
	if (!(v = malloc(np + 1)))
		return mev_error_oom();
	for (size_t i = 0; i < np; i++)
		v[i] = !same && (in->changed[sp[i].idx] || f[sp[i].idx].kind == MEV_KIND_LINK);
	*out = v;
	return 0;
}

/* The lines of m that match no path: uv n, per line str section, uv type,
 * str value, str file, uv line, uv prefix. */
static int put_patterns(mev_buf *b, const mev_maint *m, const mev_release_input *in)
{
	const mev_tree *t = in->tree;
	uint8_t *fresh = NULL;
	const mev_section *sec = mev_maint_sections(m);
	const mev_field *f = mev_maint_fields(m);
	size_t nf = mev_maint_field_count(m), n = 0, np = 0, dead = 0;
	mev_why_pattern *p = malloc((nf + 1) * sizeof *p);
	uint32_t *field = malloc((nf + 1) * sizeof *field);
	uint8_t *use = malloc(nf + 1);
	const char **paths = NULL;
	size_t *lens = NULL;
	span *sp = NULL;
	char *mem = NULL;
	int rc = p && field && use ? tree_paths(&sp, &np, &mem, t) : mev_error_oom();
	if (!rc && (!(paths = malloc((np + 1) * sizeof *paths)) || !(lens = malloc((np + 1) * sizeof *lens))))
		rc = mev_error_oom();
	for (size_t i = 0; !rc && i < np; i++) {
		paths[i] = sp[i].p;
		lens[i] = sp[i].len;
	}
	for (size_t s = 0; !rc && s < mev_maint_section_count(m); s++)
		for (uint32_t k = 0; k < sec[s].field_count; k++) {
			uint32_t fi = sec[s].field_begin + k;
			/* the lines the script matches with (not an N: it ignores) */
			if ((f[fi].type != 'F' && f[fi].type != 'X' && f[fi].type != 'N') || !f[fi].regex)
				continue;
			p[n].type = f[fi].type;
			p[n].regex = f[fi].regex;
			p[n].section = (uint32_t)s;
			field[n++] = fi;
		}
	if (!rc && in->memo) {
		if (!(rc = fresh_paths(&fresh, in, sp, np)))
			rc = mev_match_pattern_use_since(use, p, n, mev_maint_rules(m)->utf8 | (mev_maint_rules(m)->regex_patterns ? MEV_MATCH_RAW : 0), paths, lens, np,
							 fresh, in->memo->use);
		in->memo->have = !rc;
		in->memo->tree = *mev_tree_id(t);
	} else if (!rc) {
		rc = mev_match_pattern_use(use, p, n, mev_maint_rules(m)->utf8 | (mev_maint_rules(m)->regex_patterns ? MEV_MATCH_RAW : 0), paths, lens, np);
	}
	for (size_t i = 0; !rc && i < n; i++)
		dead += use[i] < 2;
	if (!rc)
		rc = mev__put_uv(b, dead);
	for (size_t i = 0; !rc && i < n; i++) {
		const mev_field *x = &f[field[i]];
		if (use[i] >= 2)
			continue;
		rc |= mev__put_cstr(b, sec[p[i].section].title);
		rc |= mev__put_uv(b, (uint8_t)x->type);
		rc |= mev__put_cstr(b, x->value);
		rc |= mev__put_cstr(b, mev_maint_file(m, x->file));
		rc |= mev__put_uv(b, x->line);
		rc |= mev__put_uv(b, use[i]);
		if (rc)
			rc = mev_error_oom();
	}
	free(p);
	free(field);
	free(use);
	free(paths);
	free(lens);
	free(sp);
	free(mem);
	free(fresh);
	return rc;
}

/* Every section: uv n, per section str title, str file, uv line, uv flags
 * (1: its title line repeats an earlier section's). */
static int put_sections(mev_buf *b, const mev_maint *m)
{
	const mev_section *sec = mev_maint_sections(m);
	mev_strmap seen = MEV_STRMAP_INIT;
	int rc = mev__put_uv(b, mev_maint_section_count(m));
	for (size_t i = 0; !rc && i < mev_maint_section_count(m); i++) {
		const char *raw = sec[i].raw_title ? sec[i].raw_title : "";
		uint32_t old;
		int added = 1;
		if (raw[0] && mev__strmap_intern(&seen, raw, strlen(raw), (uint32_t)i, &old, &added))
			rc = MEV_ENOMEM;
		rc |= mev__put_cstr(b, sec[i].title);
		rc |= mev__put_cstr(b, mev_maint_file(m, sec[i].file));
		rc |= mev__put_uv(b, sec[i].line);
		rc |= mev__put_uv(b, added ? 0 : 1);
	}
	mev__strmap_free(&seen);
	return rc ? mev_error_oom() : 0;
}

/* A status that starts with `word`, any case (as sections_orphan counts). */
static int status_is(const char *status, const char *word)
{
	return status && strncasecmp(status, word, strlen(word)) == 0;
}

typedef struct {
	MEV_VEC(mev_health_dir) v;
	mev_strmap idx;
	MEV_VEC(char *) names;     /* owned copies of the directory names */
	int64_t last[3];           /* per level: the directory added to last (-1: none) */
} dirs;

/* Add a row of `lines` to directory d[0..len) of `level`.  The rows come
 * sorted, so a directory's rows mostly follow each other: the one of the
 * row before is tried before the index. */
static int dir_add(dirs *d, const char *name, size_t len, uint8_t level, uint64_t lines, int uncovered)
{
	int64_t i = d->last[level];
	mev_health_dir *e;
	if (i < 0 || strlen(d->names.v[i]) != len || memcmp(d->names.v[i], name, len))
		i = mev__strmap_get(&d->idx, name, len);
	if (i < 0) {
		mev_health_dir z = { 0 };
		char *c = malloc(len + 1);
		if (!c || MEV_VEC_PUSH(&d->names, c)) {
			free(c);
			return mev_error_oom();
		}
		if (MEV_VEC_PUSH(&d->v, z) || mev__strmap_put(&d->idx, name, len, (uint32_t)(d->v.n - 1)))
			return mev_error_oom();
		memcpy(c, name, len);
		c[len] = '\0';
		i = (int64_t)d->v.n - 1;
		d->v.v[i].dir = c;
		d->v.v[i].level = level;
	}
	d->last[level] = i;
	e = &d->v.v[i];
	e->files++;
	e->lines += lines;
	e->uncovered_files += uncovered != 0;
	e->uncovered_lines += uncovered ? lines : 0;
	return 0;
}

static int dir_cmp(const void *x, const void *y)
{
	return strcmp(((const mev_health_dir *)x)->dir, ((const mev_health_dir *)y)->dir);
}

/* Orphan and obsolete code, and the uncovered code by directory. */
static int put_code(mev_buf *b, const mev_filemap *fm)
{
	const mev_section_info *si = mev_filemap_sections(fm);
	const mev_file_row *rows = mev_filemap_rows(fm);
	uint64_t c[8] = { 0 };
	dirs d = { { 0 }, MEV_STRMAP_INIT, { 0 }, { -1, -1, -1 } };
	size_t kept = 0;
	int rc = 0;
	for (size_t i = 0; i < mev_filemap_count(fm) && !rc; i++) {
		const uint32_t *ids;
		size_t n = mev_filemap_set(&ids, fm, rows[i].set), named = 0, orphan = 0, obsolete = 0;
		const char *p = rows[i].path, *s1 = memchr(p, '/', rows[i].path_len), *s2;
		for (size_t k = 0; k < n; k++) {
			if (si[ids[k]].is_rest)
				continue;
			named++;
			orphan += status_is(si[ids[k]].status, "orphan");
			obsolete += status_is(si[ids[k]].status, "obsolete");
		}
		for (int w = 0; w < 2; w++) {
			size_t hits = w ? obsolete : orphan;
			c[4 * w] += hits > 0;
			c[4 * w + 1] += hits ? rows[i].lines : 0;
			c[4 * w + 2] += hits && hits == named;
			c[4 * w + 3] += hits && hits == named ? rows[i].lines : 0;
		}
		if (!s1) {
			rc = dir_add(&d, ".", 1, 0, rows[i].lines, !named);
			continue;
		}
		rc = dir_add(&d, p, (size_t)(s1 - p) + 1, 1, rows[i].lines, !named);
		s2 = memchr(s1 + 1, '/', rows[i].path_len - (size_t)(s1 + 1 - p));
		if (!rc && s2)
			rc = dir_add(&d, p, (size_t)(s2 - p) + 1, 2, rows[i].lines, !named);
	}
	if (!rc) {
		qsort(d.v.v, d.v.n, sizeof *d.v.v, dir_cmp);
		for (size_t i = 0; i < d.v.n; i++)
			kept += d.v.v[i].level < 2 || d.v.v[i].uncovered_files;
		rc = mev__put_uv(b, kept);
	}
	for (size_t i = 0; i < d.v.n && !rc; i++) {
		const mev_health_dir *e = &d.v.v[i];
		if (e->level == 2 && !e->uncovered_files)
			continue;
		rc |= mev__put_cstr(b, e->dir);
		rc |= mev__put_uv(b, e->level);
		rc |= mev__put_uv(b, e->files);
		rc |= mev__put_uv(b, e->lines);
		rc |= mev__put_uv(b, e->uncovered_files);
		rc |= mev__put_uv(b, e->uncovered_lines);
	}
	for (int k = 0; k < 8 && !rc; k++)
		rc = mev__put_uv(b, c[k]);
	for (size_t i = 0; i < d.names.n; i++)
		free(d.names.v[i]);
	MEV_VEC_FREE(&d.names);
	MEV_VEC_FREE(&d.v);
	mev__strmap_free(&d.idx);
	return rc ? mev_error_oom() : 0;
}

/* The MAINTAINERS files of the tree that its script does not read
 * (mev_maint_unread): their sections are missing from the release, and
 * readers say so (docs/walking.md). */
static int put_unread(mev_buf *b, const mev_maint *m, const mev_tree *t)
{
	const mev_tree_file *f = mev_tree_files(t);
	size_t *unread = NULL, n = 0;
	int rc = mev_maint_unread(&unread, &n, m, t);
	if (!rc)
		rc = mev__put_uv(b, n) ? mev_error_oom() : 0;
	for (size_t k = 0; k < n && !rc; k++)
		rc = mev__put_str(b, f[unread[k]].path, f[unread[k]].path_len) ? mev_error_oom() : 0;
	free(unread);
	return rc;
}

int mev_release_health_encode(void **data, size_t *len, const mev_release_input *in,
			      const mev_filemap *fm)
{
	const mev_maint *m = in->maint;
	mev_buf b = MEV_BUF_INIT;
	int rc = mev__put_uv(&b, HEALTH_VERSION) ? mev_error_oom() : 0;
	if (!rc)
		rc = put_patterns(&b, m, in);
	if (!rc)
		rc = put_sections(&b, m);
	if (!rc)
		rc = put_code(&b, fm);
	if (!rc)
		rc = put_unread(&b, m, in->tree);
	*len = b.len;
	*data = rc ? NULL : mev__buf_detach(&b);
	mev__buf_free(&b);
	return rc ? rc : *data ? 0 : mev_error_oom();
}

int mev__health_put(uint64_t *stored, uint64_t *raw, mev_store *s, const mev_release_input *in,
		    const mev_filemap *fm)
{
	const void *data = NULL;
	void *own = NULL;
	size_t len = 0, packed = 0;
	int rc = in->health ? in->health(in->health_ctx, &data, &len)
			    : mev_release_health_encode(&own, &len, in, fm);
	if (own)
		data = own;
	if (!rc)
		rc = mev_store_put_record(&packed, s, "health", 'H', MEV__RELEASE_LEVEL, in->tag,
					  strlen(in->tag), data, len);
	if (!rc) {
		*stored += packed;
		*raw += len;
	}
	free(own);
	return rc;
}

/* --- reading ------------------------------------------------------------------ */

static const char *str(mev_arena *a, mev__record_reader *r, int *oom)
{
	size_t l;
	const char *p = mev__get_str(r, &l);
	char *c = r->bad ? NULL : mev__arena_strndup(a, p, l);
	if (!c && !r->bad)
		*oom = 1;
	return c ? c : "";
}

/* n items of `size` bytes, n checked against what is left of the record. */
static void *items(mev_arena *a, mev__record_reader *r, size_t *n, size_t size, int *oom)
{
	uint64_t k = mev__get_uv(r);
	void *v;
	if (r->bad || k > (uint64_t)(r->end - r->p)) {
		r->bad = 1;
		return NULL;
	}
	if (!(v = mev__arena_alloc(a, (k + 1) * size, sizeof(void *))))
		*oom = 1;
	else
		memset(v, 0, (k + 1) * size);
	*n = v ? (size_t)k : 0;
	return v;
}

static int decode(mev_release_health *h, mev_arena *a, mev__record_reader *r, uint64_t version)
{
	int oom = 0;
	uint64_t *c[8] = { &h->orphan_files, &h->orphan_lines, &h->orphan_only_files, &h->orphan_only_lines,
			   &h->obsolete_files, &h->obsolete_lines, &h->obsolete_only_files,
			   &h->obsolete_only_lines };
	h->patterns = items(a, r, &h->npatterns, sizeof *h->patterns, &oom);
	for (size_t i = 0; i < h->npatterns && !r->bad && !oom; i++) {
		mev_health_pattern *p = &h->patterns[i];
		uint64_t type;
		p->section = str(a, r, &oom);
		type = mev__get_uv(r);
		p->type = (char)type;
		p->value = str(a, r, &oom);
		p->file = str(a, r, &oom);
		p->line = (uint32_t)mev__get_uv(r);
		p->prefix = (uint8_t)mev__get_uv(r);
		if (type != 'F' && type != 'X' && type != 'N')
			r->bad = 1;
	}
	h->sections = items(a, r, &h->nsections, sizeof *h->sections, &oom);
	for (size_t i = 0; i < h->nsections && !r->bad && !oom; i++) {
		h->sections[i].title = str(a, r, &oom);
		h->sections[i].file = str(a, r, &oom);
		h->sections[i].line = (uint32_t)mev__get_uv(r);
		h->sections[i].duplicate = (uint8_t)mev__get_uv(r);
	}
	h->dirs = items(a, r, &h->ndirs, sizeof *h->dirs, &oom);
	for (size_t i = 0; i < h->ndirs && !r->bad && !oom; i++) {
		mev_health_dir *d = &h->dirs[i];
		d->dir = str(a, r, &oom);
		d->level = (uint8_t)mev__get_uv(r);
		d->files = mev__get_uv(r);
		d->lines = mev__get_uv(r);
		d->uncovered_files = mev__get_uv(r);
		d->uncovered_lines = mev__get_uv(r);
	}
	for (int k = 0; k < 8; k++)
		*c[k] = mev__get_uv(r);
	if (version >= 2) {
		h->unread_known = 1;
		h->unread = items(a, r, &h->nunread, sizeof *h->unread, &oom);
		for (size_t i = 0; i < h->nunread && !r->bad && !oom; i++)
			h->unread[i] = str(a, r, &oom);
	}
	return oom ? mev_error_oom() : 0;
}

int mev_release_load_health(mev_release_health *out, mev_store *s, const char *tag)
{
	void *val = NULL;
	size_t len = 0;
	mev_arena *a;
	mev__record_reader r;
	char real[MEV_RELEASE_TAG_MAX + 1];
	const char *key = mev__release_resolve(real, sizeof real, s, tag);
	int rc = mev_store_get_record(&val, &len, s, "health", 'H', key, strlen(key));
	memset(out, 0, sizeof *out);
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		return MEV_ENOTFOUND;
	}
	if (rc) {
		mev_error_prefix("health of '%s'", tag);
	} else if (!(a = calloc(1, sizeof *a))) {
		rc = mev_error_oom();
	} else {
		uint64_t version;
		out->mem_ = a;
		mev__record_reader_init(&r, val, len);
		if ((version = mev__get_uv(&r)) < 1 || version > HEALTH_VERSION)
			rc = mev_error_set(MEV_ECORRUPT, "health of '%s' is of an unknown version", tag);
		else if (!(rc = decode(out, a, &r, version)) && (r.bad || r.p != r.end))
			rc = mev_error_set(MEV_ECORRUPT, "health of '%s' is damaged", tag);
	}
	free(val);
	if (rc)
		mev_release_health_free(out);
	return mev__release_damaged(s, rc, tag);
}

void mev_release_health_free(mev_release_health *h)
{
	if (!h)
		return;
	if (h->mem_) {
		mev__arena_free(h->mem_);
		free(h->mem_);
	}
	memset(h, 0, sizeof *h);
}
