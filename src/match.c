/*
 * Matching paths to sections.  get_maintainer.pl tries every pattern of
 * every section on every file; we index F:/X: patterns by the directory
 * part of their literal prefix, so a path only meets the patterns filed
 * under one of its ancestor directories, and prefilter N: regexes by a
 * literal they require (looked up by the byte pairs of the path).
 *
 * Per path: X: first (a hit excludes the section, N: included), then F:,
 * then N:, exactly the order of the script's get_maintainers().
 */
#include "maintevo/match.h"
#include "maintevo/error.h"
#include "maint_internal.h"
#include "pattern.h"
#include "util/buf.h"
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

typedef MEV_VEC(uint32_t) u32vec;

/*
 * What PCRE2 may spend (its match-limit units; about 5 ns each with JIT):
 * one match at most MATCH_LIMIT, each pattern at most PATTERN_BUDGET
 * beyond the first 1,000 units of each match (pattern.c) for as long as
 * the matcher lives, i.e. one MAINTAINERS version: a release, or the
 * releases of a walk that share it.  No N: pattern of Linux or U-Boot
 * spends any of it (docs/matching.md).
 */
enum { MATCH_LIMIT = 1000000, DEPTH_LIMIT = 10000 };
#define PATTERN_BUDGET 10000000ULL

struct mev_matcher {
	mev_maint *maint;
	unsigned flags;
	mev_pattern_pool *pool;   /* the patterns' owner (NULL: the matcher) */
	mev__pattern *pats;
	size_t npats;
	uint32_t nsections;
	/* index: directory prefix -> bucket with X: and F: pattern lists */
	mev_strmap keys;
	MEV_VEC(u32vec) bucket_x;
	MEV_VEC(u32vec) bucket_f;
	/* N: patterns: always tried, or filed under the first two bytes of
	 * their required literal (pair index 0..65535) */
	u32vec n_always;
	uint32_t *pair_head;  /* 65536 + 1 offsets into pair_pats */
	uint32_t *pair_pats;
	/* scratch */
	uint32_t *stamp_x, *stamp_in, *stamp_n, gen;
	u32vec result, cand_x, cand_f;
	mev_buf path, upath;
	mev__pattern_scratch *scratch;
	uint64_t limit_hits;
};

/* An F:, X: or N: line the script matches with (not an N: its script ignores). */
static int is_pattern(const mev_field *f)
{
	return (f->type == 'F' || f->type == 'X' || f->type == 'N') && f->regex;
}

static int add_to_bucket(mev_matcher *m, const char *key, size_t klen, uint32_t pat, int is_x)
{
	uint32_t b;
	int added;
	u32vec empty = { 0 };
	if (mev__strmap_intern(&m->keys, key, klen, (uint32_t)m->bucket_x.n, &b, &added))
		return MEV_ENOMEM;
	if (added && (MEV_VEC_PUSH(&m->bucket_x, empty) || MEV_VEC_PUSH(&m->bucket_f, empty)))
		return mev_error_oom();
	return MEV_VEC_PUSH(is_x ? &m->bucket_x.v[b] : &m->bucket_f.v[b], pat) ? mev_error_oom() : 0;
}

static int build_index(mev_matcher *m)
{
	uint32_t *count;
	size_t total = 0;
	for (size_t i = 0; i < m->npats; i++) {
		mev__pattern *p = &m->pats[i];
		if (p->kind == MEV__PAT_NEVER || p->type == 'N')
			continue;
		{
			/* file under the directory part of the literal prefix and
			 * up to two more literal bytes (thousands of patterns can
			 * share one directory: configs/ in U-Boot) */
			size_t k = p->prefix_len, r;
			while (k && p->prefix[k - 1] != '/')
				k--;
			r = p->prefix_len - k;
			if (add_to_bucket(m, p->prefix, k + (r < 2 ? r : 2), (uint32_t)i, p->type == 'X'))
				return MEV_ENOMEM;
		}
	}
	count = calloc(65537, sizeof *count);
	m->pair_head = calloc(65537, sizeof *m->pair_head);
	if (!count || !m->pair_head) {
		free(count);
		return mev_error_oom();
	}
	for (size_t i = 0; i < m->npats; i++) {
		mev__pattern *p = &m->pats[i];
		if (p->type != 'N' || p->kind == MEV__PAT_NEVER)
			continue;
		if (p->must_len >= 2) {
			count[(unsigned char)p->must[0] << 8 | (unsigned char)p->must[1]]++;
			total++;
		} else if (MEV_VEC_PUSH(&m->n_always, (uint32_t)i)) {
			free(count);
			return mev_error_oom();
		}
	}
	for (size_t k = 0; k < 65536; k++)
		m->pair_head[k + 1] = m->pair_head[k] + count[k];
	m->pair_pats = malloc((total ? total : 1) * sizeof *m->pair_pats);
	if (!m->pair_pats) {
		free(count);
		return mev_error_oom();
	}
	memset(count, 0, 65537 * sizeof *count);
	for (size_t i = 0; i < m->npats; i++) {
		mev__pattern *p = &m->pats[i];
		unsigned k;
		if (p->type != 'N' || p->kind == MEV__PAT_NEVER || p->must_len < 2)
			continue;
		k = (unsigned char)p->must[0] << 8 | (unsigned char)p->must[1];
		m->pair_pats[m->pair_head[k] + count[k]++] = (uint32_t)i;
	}
	free(count);
	return 0;
}

/* One compiled pattern of a pool and what compiling it said. */
typedef struct {
	mev__pattern p;
	char *err;                /* NULL: valid */
	size_t off;
} pooled;

struct mev_pattern_pool {
	mev_strmap map;           /* type, utf8, regex -> index into v */
	MEV_VEC(pooled) v;
	mev_buf key;
};

int mev_pattern_pool_new(mev_pattern_pool **out)
{
	*out = calloc(1, sizeof **out);
	return *out ? 0 : mev_error_oom();
}

void mev_pattern_pool_free(mev_pattern_pool *pool)
{
	if (!pool)
		return;
	for (size_t i = 0; i < pool->v.n; i++) {
		mev__pattern_free(&pool->v.v[i].p);
		free(pool->v.v[i].err);
	}
	MEV_VEC_FREE(&pool->v);
	mev__strmap_free(&pool->map);
	mev__buf_free(&pool->key);
	free(pool);
}

/* mev__pattern_compile() through the pool: *p a shallow copy of its pattern. */
static int pool_compile(mev_pattern_pool *pool, mev__pattern *p, char type, const char *regex,
			int utf8, const char **err, size_t *off, char *errbuf, size_t errbuf_size)
{
	int64_t v;
	int rc;
	mev__buf_clear(&pool->key);
	if (mev__buf_putc(&pool->key, type) || mev__buf_putc(&pool->key, utf8 ? '1' : '0') ||
	    mev__buf_puts(&pool->key, regex))
		return mev_error_oom();
	if ((v = mev__strmap_get(&pool->map, pool->key.ptr, pool->key.len)) < 0) {
		pooled e = { 0 };
		if ((rc = mev__pattern_compile(&e.p, type, regex, utf8, err, off, errbuf,
					       errbuf_size))) {
			mev__pattern_free(&e.p);
			return rc;
		}
		e.off = *off;
		if ((*err && !(e.err = strdup(*err))) || MEV_VEC_PUSH(&pool->v, e)) {
			mev__pattern_free(&e.p);
			free(e.err);
			return mev_error_oom();
		}
		if (mev__strmap_put(&pool->map, pool->key.ptr, pool->key.len,
				    (uint32_t)(pool->v.n - 1))) {
			pool->v.n--;
			mev__pattern_free(&e.p);
			free(e.err);
			return mev_error_oom();
		}
		v = (int64_t)(pool->v.n - 1);
	}
	*p = pool->v.v[v].p;
	*err = pool->v.v[v].err;
	*off = pool->v.v[v].off;
	return 0;
}

int mev_matcher_new(mev_matcher **out, mev_maint *maint, unsigned flags)
{
	return mev_matcher_new_pooled(out, maint, flags, NULL);
}

int mev_matcher_new_pooled(mev_matcher **out, mev_maint *maint, unsigned flags,
			   mev_pattern_pool *pool)
{
	mev_matcher *m = calloc(1, sizeof *m);
	const mev_section *secs = mev_maint_sections(maint);
	const mev_field *fields = mev_maint_fields(maint);
	int utf8 = mev_maint_rules(maint)->utf8;
	size_t nsec = mev_maint_section_count(maint), np = 0;
	char errbuf[256];
	int rc = 0;

	*out = NULL;
	if (!m)
		return mev_error_oom();
	m->maint = maint;
	m->flags = flags;
	m->pool = pool;
	m->nsections = (uint32_t)nsec;
	for (size_t s = 0; s < nsec; s++)
		np += secs[s].n_patterns;
	m->pats = calloc(np ? np : 1, sizeof *m->pats);
	m->stamp_x = calloc(nsec + 1, sizeof *m->stamp_x);
	m->stamp_in = calloc(nsec + 1, sizeof *m->stamp_in);
	m->stamp_n = calloc(np + 1, sizeof *m->stamp_n);
	if (!m->pats || !m->stamp_x || !m->stamp_in || !m->stamp_n) {
		rc = mev_error_oom();
		goto fail;
	}
	/* Hostile patterns must not hang a walk: Perl has no such limit, so a
	 * pattern that runs out of its budget is reported and disabled. */
	if ((rc = mev__pattern_scratch_new(&m->scratch, MATCH_LIMIT, DEPTH_LIMIT, PATTERN_BUDGET)))
		goto fail;
	for (size_t s = 0; s < nsec; s++) {
		for (uint32_t k = 0; k < secs[s].field_count; k++) {
			uint32_t fi = secs[s].field_begin + k;
			const mev_field *f = &fields[fi];
			const char *err;
			size_t off;
			mev__pattern *p;
			if (!is_pattern(f))
				continue;
			p = &m->pats[m->npats++];
			rc = pool ? pool_compile(pool, p, f->type, f->regex, utf8, &err, &off, errbuf,
						 sizeof errbuf)
				  : mev__pattern_compile(p, f->type, f->regex, utf8, &err, &off, errbuf,
							 sizeof errbuf);
			if (rc)
				goto fail;
			p->section = (uint32_t)s;
			p->field = fi;
			if (err)
				mev__maint_diag_add(maint, f->file, f->line,
					"invalid %c: pattern '%s' (%s at offset %zu); it matches nothing here, get_maintainer.pl would stop",
					f->type, f->value, err, off);
		}
	}
	if (!(flags & MEV_MATCH_BRUTE) && (rc = build_index(m)))
		goto fail;
	*out = m;
	return 0;
fail:
	mev_matcher_free(m);
	return rc;
}

void mev_matcher_free(mev_matcher *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->npats && !m->pool; i++)
		mev__pattern_free(&m->pats[i]);
	free(m->pats);
	mev__strmap_free(&m->keys);
	for (size_t i = 0; i < m->bucket_x.n; i++) {
		MEV_VEC_FREE(&m->bucket_x.v[i]);
		MEV_VEC_FREE(&m->bucket_f.v[i]);
	}
	MEV_VEC_FREE(&m->bucket_x);
	MEV_VEC_FREE(&m->bucket_f);
	MEV_VEC_FREE(&m->n_always);
	free(m->pair_head);
	free(m->pair_pats);
	free(m->stamp_x);
	free(m->stamp_in);
	free(m->stamp_n);
	MEV_VEC_FREE(&m->result);
	MEV_VEC_FREE(&m->cand_x);
	MEV_VEC_FREE(&m->cand_f);
	mev__buf_free(&m->path);
	mev__buf_free(&m->upath);
	mev__pattern_scratch_free(m->scratch);
	free(m);
}

uint64_t mev_matcher_limit_hits(const mev_matcher *m) { return m->limit_hits; }

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

typedef mev__pattern_subject subject;

static int run(mev_matcher *m, mev__pattern *p, const subject *sj)
{
	int r = (m->flags & MEV_MATCH_BRUTE)
		? mev__pattern_match_pcre(p, m->scratch, sj->s, sj->len, sj->slashes, sj->ascii,
					  sj->u, sj->ulen)
		: mev__pattern_match(p, m->scratch, sj->s, sj->len, sj->slashes, sj->ascii, sj->has_nl,
				     sj->u, sj->ulen);
	if (r < 0) {
		/* once per pattern: exhausted, it is not run again */
		const mev_field *f = &mev_maint_fields(m->maint)[p->field];
		m->limit_hits++;
		mev__maint_diag_add(m->maint, f->file, f->line,
			"%c: pattern '%s' exceeded its matching budget (on '%.*s'); disabled for the "
			"rest of this release (it matches nothing more)", f->type, f->value,
			(int)sj->len, sj->s);
		return 0;
	}
	return r;
}

static int include(mev_matcher *m, uint32_t sec)
{
	if (m->stamp_x[sec] == m->gen || m->stamp_in[sec] == m->gen)
		return 0;
	m->stamp_in[sec] = m->gen;
	return MEV_VEC_PUSH(&m->result, sec) ? mev_error_oom() : 0;
}

static int match_brute(mev_matcher *m, const subject *sj)
{
	for (size_t i = 0; i < m->npats; i++)
		if (m->pats[i].type == 'X' && m->stamp_x[m->pats[i].section] != m->gen &&
		    run(m, &m->pats[i], sj))
			m->stamp_x[m->pats[i].section] = m->gen;
	for (size_t i = 0; i < m->npats; i++) {
		mev__pattern *p = &m->pats[i];
		if (p->type == 'X' || m->stamp_x[p->section] == m->gen || m->stamp_in[p->section] == m->gen)
			continue;
		if (run(m, p, sj) && include(m, p->section))
			return MEV_ENOMEM;
	}
	return 0;
}

static int match_indexed(mev_matcher *m, const subject *sj)
{
	const char *s = sj->s;
	size_t len = sj->len;
	uint64_t h;

	m->cand_x.n = m->cand_f.n = 0;
	/* ancestors "", "a/", "a/b/", ... (and "path/" itself for directories),
	 * each alone and with the next one and two bytes of the path */
	for (size_t k = 0; k <= len; k++) {
		if (k && s[k - 1] != '/')
			continue;
		for (size_t e = k; e <= k + 2 && e <= len; e++) {
			int64_t b;
			u32vec *bx, *bf;
			if (e > k && s[e - 1] == '/')
				break;
			h = mev__strmap_hash(s, e);
			b = mev__strmap_get_h(&m->keys, s, e, h);
			if (b < 0)
				continue;
			bx = &m->bucket_x.v[b];
			bf = &m->bucket_f.v[b];
			for (size_t i = 0; i < bx->n; i++)
				if (MEV_VEC_PUSH(&m->cand_x, bx->v[i]))
					return mev_error_oom();
			for (size_t i = 0; i < bf->n; i++)
				if (MEV_VEC_PUSH(&m->cand_f, bf->v[i]))
					return mev_error_oom();
		}
	}
	for (size_t i = 0; i < m->cand_x.n; i++) {
		mev__pattern *p = &m->pats[m->cand_x.v[i]];
		if (m->stamp_x[p->section] != m->gen && run(m, p, sj))
			m->stamp_x[p->section] = m->gen;
	}
	for (size_t i = 0; i < m->cand_f.n; i++) {
		mev__pattern *p = &m->pats[m->cand_f.v[i]];
		if (m->stamp_x[p->section] == m->gen || m->stamp_in[p->section] == m->gen)
			continue;
		if (run(m, p, sj) && include(m, p->section))
			return MEV_ENOMEM;
	}
	/* N: the ones whose literal starts at some byte pair of the path */
	for (size_t i = 0; i + 1 < len; i++) {
		unsigned k = (unsigned char)s[i] << 8 | (unsigned char)s[i + 1];
		for (uint32_t j = m->pair_head[k]; j < m->pair_head[k + 1]; j++) {
			uint32_t pi = m->pair_pats[j];
			mev__pattern *p = &m->pats[pi];
			if (m->stamp_n[pi] == m->gen)
				continue;
			if (p->must_len > len - i || memcmp(s + i, p->must, p->must_len))
				continue;
			m->stamp_n[pi] = m->gen;
			if (m->stamp_x[p->section] == m->gen || m->stamp_in[p->section] == m->gen)
				continue;
			if (run(m, p, sj) && include(m, p->section))
				return MEV_ENOMEM;
		}
	}
	for (size_t i = 0; i < m->n_always.n; i++) {
		mev__pattern *p = &m->pats[m->n_always.v[i]];
		if (m->stamp_x[p->section] == m->gen || m->stamp_in[p->section] == m->gen)
			continue;
		if (run(m, p, sj) && include(m, p->section))
			return MEV_ENOMEM;
	}
	return 0;
}

int mev_matcher_match(const uint32_t **ids, size_t *n, mev_matcher *m, const char *path,
		      size_t len, int is_dir)
{
	subject sj;
	int rc;

	mev__buf_clear(&m->path);
	if (mev__buf_put(&m->path, path, len) || (is_dir && mev__buf_putc(&m->path, '/')))
		return MEV_ENOMEM;
	if ((rc = mev__pattern_subject_set(&sj, &m->upath, m->path.ptr, m->path.len)))
		return rc;
	if (++m->gen == 0) { /* wrapped: reset the stamps */
		size_t nsec = m->nsections;
		memset(m->stamp_x, 0, (nsec + 1) * sizeof *m->stamp_x);
		memset(m->stamp_in, 0, (nsec + 1) * sizeof *m->stamp_in);
		memset(m->stamp_n, 0, (m->npats + 1) * sizeof *m->stamp_n);
		m->gen = 1;
	}
	m->result.n = 0;
	rc = (m->flags & MEV_MATCH_BRUTE) ? match_brute(m, &sj) : match_indexed(m, &sj);
	if (rc)
		return rc;
	if (m->result.n > 1)
		qsort(m->result.v, m->result.n, sizeof *m->result.v, u32_cmp);
	*ids = m->result.v;
	*n = m->result.n;
	return 0;
}

/* --- incremental matching ------------------------------------------------- */

struct mev_rematch {
	uint32_t *map;          /* old section -> new section or UINT32_MAX */
	size_t nold;
	int identical, all;
	mev_strmap keys;        /* directory prefixes of dirty F:/X: patterns */
	MEV_VEC(char *) musts;  /* literals of dirty N: patterns */
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
			size_t kl = p.prefix_len;
			while (kl && p.prefix[kl - 1] != '/')
				kl--;
			if (mev__strmap_put(&rm->keys, p.prefix, kl, 1)) {
				mev__pattern_free(&p);
				return MEV_ENOMEM;
			}
			if (kl == 0)
				rm->all = 1;
		}
	}
	mev__pattern_free(&p);
	return 0;
}

/* Every pattern of a changed, added or removed section is dirty. */
static int add_dirty(mev_rematch *rm, const mev_maint *m, const mev_section *s)
{
	const mev_field *f = mev_maint_fields(m);
	int utf8 = mev_maint_rules(m)->utf8, rc = 0;
	for (uint32_t k = 0; k < s->field_count && !rc; k++) {
		const mev_field *fl = &f[s->field_begin + k];
		if (is_pattern(fl))
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
		if (f[s->field_begin + k].type == t && is_pattern(&f[s->field_begin + k]))
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
	int utf8 = mev_maint_rules(nm)->utf8, rc = 1;
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
	return a->any_type == b->any_type && a->utf8 == b->utf8 && a->braces == b->braces &&
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
	if (!rm || !used || !(rm->map = malloc((no + 1) * sizeof *rm->map))) {
		rc = mev_error_oom();
		goto done;
	}
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
		/* the ancestors of path (and "path/" itself for a directory) */
		for (size_t k = 1; k <= len; k++)
			if (path[k - 1] == '/' && mev__strmap_get(&rm->keys, path, k) >= 0)
				return 1;
		if (is_dir) {
			int hit;
			char *p = malloc(len + 2);
			if (!p)
				return 1;
			memcpy(p, path, len);
			p[len] = '/';
			hit = mev__strmap_get(&rm->keys, p, len + 1) >= 0;
			free(p);
			if (hit)
				return 1;
		}
	}
	for (size_t i = 0; i < rm->musts.n; i++)
		if (memmem(path, len, rm->musts.v[i], strlen(rm->musts.v[i])) ||
		    (is_dir && strlen(rm->musts.v[i]) && rm->musts.v[i][strlen(rm->musts.v[i]) - 1] == '/'))
			return 1;
	return 0;
}
