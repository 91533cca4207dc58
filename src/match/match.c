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
#include "match_internal.h"
#include "maintainers/maintainers_shared.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "util/text.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* A pattern or a path in a message: a long one shortened in the middle, so
 * that the message (cut at 1 KB where it is shown) keeps its reason. */
enum { MEV_QUOTED = 256 };
static const char *quoted(char *out, const char *s, size_t len)
{
	return mev__text_middle(out, MEV_QUOTED, s, len);
}

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
	/* edk2 (mev_rules.fallback): the sections of the path "<default>",
	 * added when a path's own name no maintainer */
	u32vec fallback;
	int no_dir_slash;
};

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
	atomic_size_t refs;       /* its owner's and one per matcher made with it */
};

int mev_pattern_pool_new(mev_pattern_pool **out)
{
	if (!(*out = calloc(1, sizeof **out)))
		return mev_error_oom();
	atomic_init(&(*out)->refs, 1);
	return 0;
}

size_t mev_pattern_pool_count(const mev_pattern_pool *pool) { return pool->v.n; }

void mev_pattern_pool_free(mev_pattern_pool *pool)
{
	if (!pool || atomic_fetch_sub(&pool->refs, 1) > 1)
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
			unsigned utf8, const char **err, size_t *off, char *errbuf, size_t errbuf_size)
{
	int64_t v;
	int rc;
	mev__buf_clear(&pool->key);
	if (mev__buf_putc(&pool->key, type) || mev__buf_putc(&pool->key, (char)('0' + utf8)) ||
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

static int match_path(mev_matcher *m, const char *path, size_t len, int is_dir);

/*
 * edk2's get_maintainers(): a path whose sections name no maintainer (no
 * M:, or no M: nor R: for the scripts before 2023-11) gets those of the
 * (nonexistent) path "<default>" as well, looked up without a fallback.
 */
static int fallback_set(mev_matcher *m, const mev_rules *r)
{
	int rc = match_path(m, "<default>", 9, 0);
	(void)r;
	for (size_t i = 0; !rc && i < m->result.n; i++)
		if (MEV_VEC_PUSH(&m->fallback, m->result.v[i]))
			rc = mev_error_oom();
	return rc;
}

/* Add the fallback sections when the path's own name no maintainer. */
static int add_fallback(mev_matcher *m)
{
	const mev_section *secs = mev_maint_sections(m->maint);
	int fallback_r = mev_maint_rules(m->maint)->fallback_r;
	for (size_t i = 0; i < m->result.n; i++) {
		const mev_section *s = &secs[m->result.v[i]];
		if (s->n_maintainers || (fallback_r && s->n_reviewers))
			return 0;
	}
	for (size_t i = 0; i < m->fallback.n; i++)
		if (m->stamp_in[m->fallback.v[i]] != m->gen) {
			m->stamp_in[m->fallback.v[i]] = m->gen;
			if (MEV_VEC_PUSH(&m->result, m->fallback.v[i]))
				return mev_error_oom();
		}
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
	const mev_rules *rules = mev_maint_rules(maint);
	unsigned utf8 = rules->utf8 | (rules->regex_patterns ? MEV__PAT_RAW : 0);
	size_t nsec = mev_maint_section_count(maint), np = 0;
	char errbuf[256], value[MEV_QUOTED];
	int rc = 0;

	*out = NULL;
	if (!m)
		return mev_error_oom();
	m->maint = maint;
	m->flags = flags;
	m->pool = pool;
	if (pool)
		atomic_fetch_add(&pool->refs, 1);
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
			if (!mev__match_is_pattern(f))
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
					f->type, quoted(value, f->value, strlen(f->value)), err, off);
		}
	}
	if (!(flags & MEV_MATCH_BRUTE) && (rc = build_index(m)))
		goto fail;
	m->no_dir_slash = rules->no_dir_slash;
	if (rules->fallback && (rc = fallback_set(m, rules)))
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
	MEV_VEC_FREE(&m->fallback);
	MEV_VEC_FREE(&m->cand_x);
	MEV_VEC_FREE(&m->cand_f);
	mev__buf_free(&m->path);
	mev__buf_free(&m->upath);
	mev__pattern_scratch_free(m->scratch);
	mev_pattern_pool_free(m->pool);
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
		char value[MEV_QUOTED], path[MEV_QUOTED];
		m->limit_hits++;
		mev__maint_diag_add(m->maint, f->file, f->line,
			"%c: pattern '%s' exceeded its matching budget (on '%s'); disabled for the "
			"rest of this release (it matches nothing more)", f->type,
			quoted(value, f->value, strlen(f->value)), quoted(path, sj->s, sj->len));
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

/* The sections of one path, unsorted, in m->result. */
static int match_path(mev_matcher *m, const char *path, size_t len, int is_dir)
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
	return (m->flags & MEV_MATCH_BRUTE) ? match_brute(m, &sj) : match_indexed(m, &sj);
}

int mev_match_canonpath(char **out, int *is_dir, const char *in)
{
	size_t len = strlen(in), k = 0;
	char *p = malloc(len + 2);
	if (!p)
		return mev_error_oom();
	*is_dir = len && in[len - 1] == '/';
	for (size_t i = 0; i < len;) {
		size_t j = i;
		while (j < len && in[j] != '/')
			j++;
		if (!(j == i || (j - i == 1 && in[i] == '.'))) { /* not "" (a '/' repeated), not "." */
			if (k)
				p[k++] = '/';
			memcpy(p + k, in + i, j - i);
			k += j - i;
		}
		i = j + 1;
	}
	p[k] = '\0';
	*out = p;
	return 0;
}

int mev_matcher_match(const uint32_t **ids, size_t *n, mev_matcher *m, const char *path,
		      size_t len, int is_dir)
{
	int rc = match_path(m, path, len, is_dir && !m->no_dir_slash);
	if (!rc && m->fallback.n)
		rc = add_fallback(m);
	if (rc)
		return rc;
	if (m->result.n > 1)
		qsort(m->result.v, m->result.n, sizeof *m->result.v, u32_cmp);
	*ids = m->result.v;
	*n = m->result.n;
	return 0;
}
