/*
 * The MAINTAINERS each commit's get_maintainer.pl reads, parsed once per set.
 *
 * A commit's context is its parent's when the change between them cannot
 * alter what the script reads (matters()): no MAINTAINERS file it reads
 * (or could find) changed, nor the script or .get_maintainer.conf, no
 * symbolic link on the way of its searched folder or of an F:/X: value
 * changed, and no file was added or deleted below a path that an F:/X:
 * line names without a trailing '/' (the script's directory test could
 * answer otherwise).  Anything else, and a parent never seen, is read from
 * its tree: the rules, the MAINTAINERS files and their blobs, and a parsed
 * set with the same rules and blobs is reused when its directory tests
 * still hold.
 *
 * Most new sets come from a commit that edits, adds or deletes
 * MAINTAINERS files (U-Boot: a board's).  Such a set is derived without
 * reading the tree (derive.c): spliced onto a set parsed whole where it
 * can be (splice.c), else the parent's files with the new blobs parsed
 * again; the directory tests are answered by the parent's set or by
 * looking the paths up in the commit's git tree (mev_commit_is_dir()).
 * Only when a symbolic link is on the way is the tree read whole after all.
 */
#include "context_internal.h"
#include "maintevo/error.h"
#include "util/text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int mev__flow_intern(uint32_t *id, mev__flow_strings *s, const char *p, size_t len)
{
	int added;
	if (mev__strmap_intern(&s->map, p, len, (uint32_t)s->v.n, id, &added))
		return mev_error_oom();
	if (added) {
		const char *c = mev__arena_strndup(&s->arena, p, len);
		if (!c || MEV_VEC_PUSH(&s->v, c))
			return mev_error_oom();
	}
	return 0;
}

void mev__flow_strings_free(mev__flow_strings *s)
{
	mev__strmap_free(&s->map);
	MEV_VEC_FREE(&s->v);
	mev__arena_free(&s->arena);
}

void mev__flow_ctx_discard(mev__flow_ctx *x)
{
	if (!x)
		return;
	if (x->base)
		x->base->pins--;
	mev_matcher_free(x->own_matcher);
	mev_maint_free(x->own);
	free(x->base_new);
	free(x->own_new);
	MEV_VEC_FREE(&x->hits);
	mev__strmap_free(&x->title_map);
	mev__strmap_free(&x->known);
	free(x->titles);
	free(x->key);
	mev_matcher_free(x->matcher);
	mev_maint_free(x->maint);
	free(x->m_off);
	free(x->r_off);
	free(x->t_off);
	free(x->m_ids);
	free(x->r_ids);
	free(x->t_ids);
	mev__strmap_free(&x->cand);
	mev_maint_sources_free(x->src, x->nsrc);
	mev__strmap_free(&x->src_paths);
	mev__strmap_free(&x->by_m);
	mev__strmap_free(&x->by_r);
	MEV_VEC_FREE(&x->m_lists);
	MEV_VEC_FREE(&x->r_lists);
	free(x->title_ids);
	free(x);
}

int mev__flow_env_rules(mev__flow_env *env, mev_repo *repo, const mev_identity *id)
{
	int d = mev_dialect_parse(id->dialect), rc;
	env->repo = repo;
	env->rules.dialect = d > 0 ? (mev_dialect)d : MEV_DIALECT_AUTO;
	env->rules.top_level_only = id->top_level_only;
	env->rules.files_as = NULL;
	if (!id->files_as[0])
		return 0;
	if ((rc = mev_rules_files_as(&env->files_as, repo, id->files_as, &env->rules)))
		return rc;
	env->rules.files_as = &env->files_as;
	return 0;
}

int mev__flow_contexts_new(mev__flow_contexts **out, mev__flow_env *env)
{
	*out = calloc(1, sizeof **out);
	if (!*out)
		return mev_error_oom();
	(*out)->env = env;
	if (mev_pattern_pool_new(&(*out)->pool)) {
		free(*out);
		*out = NULL;
		return mev_error_oom();
	}
	return 0;
}

static void blobs_clear(mev__flow_contexts *c)
{
	for (size_t i = 0; i < c->blobs.n; i++)
		free((char *)c->blobs.v[i].data);
	MEV_VEC_FREE(&c->blobs);
	mev__strmap_free(&c->blob_ids);
	memset(&c->blob_ids, 0, sizeof c->blob_ids);
	c->blob_bytes = 0;
}

/* The bytes of MAINTAINERS blob `oid`, read once (valid until blobs_clear()). */
static int blob_of(const mev_maint_input **out, mev__flow_contexts *c, const mev_oid *oid)
{
	int64_t v = mev__strmap_get(&c->blob_ids, (const char *)oid->id, 20);
	mev_maint_input b = { "", NULL, 0 };
	char *data;
	int rc;
	if (v >= 0) {
		*out = &c->blobs.v[v];
		return 0;
	}
	if ((rc = mev_repo_read_blob(&data, &b.len, c->env->repo, oid)))
		return rc;
	b.data = data;
	if (MEV_VEC_PUSH(&c->blobs, b) ||
	    mev__strmap_put(&c->blob_ids, (const char *)oid->id, 20, (uint32_t)(c->blobs.n - 1))) {
		free(data);
		return mev_error_oom();
	}
	c->blob_bytes += b.len;
	*out = &c->blobs.v[c->blobs.n - 1];
	return 0;
}

void mev__flow_contexts_free(mev__flow_contexts *c)
{
	if (!c)
		return;
	/* spliced sets first: they unpin their bases */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < c->ctxs.n; i++)
			if (c->ctxs.v[i] && (c->ctxs.v[i]->base == NULL) == pass) {
				mev__flow_ctx_discard(c->ctxs.v[i]);
				c->ctxs.v[i] = NULL;
			}
	MEV_VEC_FREE(&c->ctxs);
	MEV_VEC_FREE(&c->rules);
	mev__strmap_free(&c->states);
	mev__strmap_free(&c->plan_of);
	MEV_VEC_FREE(&c->plans);
	MEV_VEC_FREE(&c->edits);
	mev__buf_free(&c->edit_paths);
	mev_pattern_pool_free(c->pool); /* after the matchers that borrow from it */
	mev_tree_free(c->cursor);
	blobs_clear(c);
	free(c);
}

/* The lowercased address of an M:/R: value, interned; *id UINT32_MAX when none. */
static int person_id(uint32_t *id, mev__flow_strings *s, const char *v)
{
	mev__flow_span name, email;
	char buf[512];
	*id = UINT32_MAX;
	mev__flow_ident(&name, &email, v, strlen(v));
	if (!email.len || email.len >= sizeof buf)
		return 0;
	for (size_t i = 0; i < email.len; i++)
		buf[i] = (char)tolower((unsigned char)email.p[i]);
	return mev__flow_intern(id, s, buf, email.len);
}

int mev__flow_field_lists(uint32_t **off, uint32_t **ids, const mev_maint *m,
			  mev__flow_strings *s, char type)
{
	const mev_section *sec = mev_maint_sections(m);
	const mev_field *f = mev_maint_fields(m);
	size_t ns = mev_maint_section_count(m);
	MEV_VEC(uint32_t) v = { 0 };
	mev_buf url = MEV_BUF_INIT;
	int rc = 0;
	*off = calloc(ns + 1, sizeof **off);
	if (!*off)
		return mev_error_oom();
	for (size_t i = 0; i < ns && !rc; i++) {
		(*off)[i] = (uint32_t)v.n;
		for (uint32_t k = 0; k < sec[i].field_count && !rc; k++) {
			const mev_field *fl = &f[sec[i].field_begin + k];
			uint32_t id = UINT32_MAX;
			if (fl->type != type)
				continue;
			if (type == 'T')
				rc = mev__flow_tline(&url, fl->value, strlen(fl->value)) ? MEV_ENOMEM
				     : url.len ? mev__flow_intern(&id, s, url.ptr, url.len) : 0;
			else
				rc = person_id(&id, s, fl->value);
			if (!rc && id != UINT32_MAX && MEV_VEC_PUSH(&v, id))
				rc = mev_error_oom();
		}
	}
	(*off)[ns] = (uint32_t)v.n;
	*ids = v.v;
	mev__buf_free(&url);
	if (rc) {
		MEV_VEC_FREE(&v);
		*ids = NULL;
	}
	return rc;
}

int mev__flow_candidates(mev_strmap *cand, const mev_maint *m)
{
	const mev_field *f = mev_maint_fields(m);
	size_t n = mev_maint_field_count(m);
	for (size_t i = 0; i < n; i++) {
		const char *v = f[i].value;
		size_t len = strlen(v), full = len;
		uint32_t answer;
		int64_t old;
		if (f[i].type != 'F' && f[i].type != 'X')
			continue;
		while (len && isspace((unsigned char)v[len - 1]))
			len--;
		if (!len || v[len - 1] == '/' || strpbrk(v, "*?.[{\\"))
			continue;
		/* what the test said of the value (its regex is the value then):
		 * CAND_DIR, CAND_NOT, or CAND_ASKED_OTHERWISE (white space after it) */
		answer = len != full ? CAND_OTHER : f[i].regex && f[i].regex[len] == '/' ? CAND_DIR : CAND_NOT;
		if ((old = mev__strmap_get(cand, v, len)) >= 0 && (uint32_t)old != answer)
			answer = CAND_OTHER;
		if (mev__strmap_put(cand, v, len, answer))
			return mev_error_oom();
	}
	return 0;
}

/* Parse the files src[0..n) of `tree` (as mev_maint_load() would find
 * them), their blobs read once for the run. */
int mev__flow_parse_set(mev_maint **out, mev__flow_contexts *c, const mev_rules *rules,
		     const mev_tree *tree, const mev_maint_source *src, size_t n)
{
	mev_maint_input *in = calloc(n + 1, sizeof *in);
	int rc = 0;
	if (!in)
		return mev_error_oom();
	if (c->blob_bytes > BLOB_CACHE)
		blobs_clear(c);
	for (size_t i = 0; i < n && !rc; i++) {
		const mev_maint_input *b = NULL;
		if ((rc = blob_of(&b, c, &src[i].oid)) == 0) {
			in[i].path = src[i].path;
			in[i].data = b->data;
			in[i].len = b->len;
		}
	}
	if (!rc)
		rc = mev_maint_parse(out, rules, in, n, tree);
	free(in);
	return rc;
}

/* Copy the sources src[0..n) into x, with a path index. */
int mev__flow_keep_sources(mev__flow_ctx *x, const mev_maint_source *src, size_t n)
{
	if (!(x->src = calloc(n + 1, sizeof *x->src)))
		return mev_error_oom();
	for (size_t i = 0; i < n; i++) {
		x->nsrc++;
		x->src[i].oid = src[i].oid;
		if (!(x->src[i].path = strdup(src[i].path)) ||
		    mev__strmap_put(&x->src_paths, src[i].path, strlen(src[i].path), (uint32_t)i))
			return mev_error_oom();
	}
	return 0;
}

/* A context of the parsed set `maint` (taken over, also on failure). */
int mev__flow_ctx_build(mev__flow_ctx **out, mev__flow_contexts *c, mev_maint *maint,
		     const char *key, const mev_maint_source *src, size_t n)
{
	mev__flow_ctx *x = calloc(1, sizeof *x);
	const mev_section *sec;
	size_t ns;
	int rc;
	if (!x || !(x->key = strdup(key))) {
		free(x);
		mev_maint_free(maint);
		return mev_error_oom();
	}
	x->rest = UINT32_MAX;
	x->maint = maint;
	if ((rc = mev_matcher_new_pooled(&x->matcher, x->maint, 0, c->pool)) ||
	    (rc = mev__flow_field_lists(&x->m_off, &x->m_ids, maint, c->env->strings, 'M')) ||
	    (rc = mev__flow_field_lists(&x->r_off, &x->r_ids, maint, c->env->strings, 'R')) ||
	    (rc = mev__flow_field_lists(&x->t_off, &x->t_ids, maint, c->env->strings, 'T')) ||
	    (rc = mev__flow_candidates(&x->cand, maint)) || (rc = mev__flow_keep_sources(x, src, n)))
		goto fail;
	sec = mev_maint_sections(x->maint);
	x->nsec = (uint32_t)(ns = mev_maint_section_count(x->maint));
	x->apart = -1;
	x->title_ids = calloc(ns + 1, sizeof *x->title_ids);
	x->titles = malloc((ns + 1) * sizeof *x->titles);
	if (!x->title_ids || !x->titles) {
		rc = mev_error_oom();
		goto fail;
	}
	for (size_t i = 0; i < ns; i++) {
		x->titles[i] = sec[i].title;
		if (sec[i].is_rest)
			x->rest = (uint32_t)i;
	}
	x->stamp = UINT32_MAX;
	*out = x;
	return 0;
fail:
	mev__flow_ctx_discard(x);
	return rc;
}

/* Drop the least recently used sets when too many are kept (not one that
 * spliced sets stand on). */
static void evict(mev__flow_contexts *c)
{
	while (c->alive > KEEP_PARSED) {
		size_t best = SIZE_MAX;
		for (size_t i = 0; i < c->ctxs.n; i++)
			if (c->ctxs.v[i] && !c->ctxs.v[i]->pins &&
			    (best == SIZE_MAX || c->ctxs.v[i]->used < c->ctxs.v[best]->used))
				best = i;
		if (best == SIZE_MAX)
			return;
		mev__flow_ctx_discard(c->ctxs.v[best]);
		c->ctxs.v[best] = NULL;
		c->alive--;
	}
}

/* The key of a MAINTAINERS set: its files and blobs in reading order. */
int mev__flow_sources_key(mev_buf *key, const mev_maint_source *src, size_t n)
{
	char hex[41];
	mev__buf_clear(key);
	for (size_t i = 0; i < n; i++) {
		mev_oid_fmt(hex, &src[i].oid);
		if (mev__buf_printf(key, "%s %s\n", hex, src[i].path))
			return mev_error_oom();
	}
	return mev__buf_puts(key, "") ? mev_error_oom() : 0;
}

/* Keep the new context x (rules r) as *id. */
int mev__flow_ctx_add(uint32_t *id, mev__flow_contexts *c, mev__flow_ctx *x, const mev_rules *r)
{
	x->id = (uint32_t)c->ctxs.n;
	if (MEV_VEC_PUSH(&c->ctxs, x) || MEV_VEC_PUSH(&c->rules, *r)) {
		if (c->ctxs.n > x->id)
			c->ctxs.n--;
		mev__flow_ctx_discard(x);
		return mev_error_oom();
	}
	c->alive++;
	*id = x->id;
	x->used = ++c->clock;
	evict(c);
	return 0;
}

/* Read the tree of `commit` whole (from the last one read) and find or
 * parse its MAINTAINERS set. */
static int full_state(uint32_t *id, mev__flow_contexts *c, const mev_oid *commit)
{
	mev_tree *t = NULL;
	mev_rules r;
	mev_buf key = MEV_BUF_INIT;
	mev__flow_ctx *x = NULL;
	mev_maint *maint = NULL;
	mev_maint_source *src = NULL;
	size_t n = 0;
	int rc;

	c->env->full++;
	rc = c->cursor ? mev_tree_update(&t, NULL, NULL, c->env->repo, c->cursor, commit)
		       : mev_tree_load(&t, c->env->repo, commit);
	if (rc)
		return rc;
	mev_tree_free(c->cursor);
	c->cursor = t;
	memset(&r, 0, sizeof r);
	if ((rc = mev_rules_detect(&r, c->env->repo, t, &c->env->rules)) ||
	    (rc = mev_maint_sources(&src, &n, &r, t)) || (rc = mev__flow_sources_key(&key, src, n)))
		goto done;
	for (size_t i = 0; i < c->ctxs.n; i++) {
		mev__flow_ctx *o = c->ctxs.v[i];
		if (o && o->maint && memcmp(&c->rules.v[i], &r, sizeof r) == 0 &&
		    strcmp(o->key, key.ptr) == 0 &&
		    !mev_maint_dirs_changed(o->maint, t)) {
			*id = (uint32_t)i;
			goto done;
		}
	}
	c->env->parses++;
	if ((rc = mev__flow_parse_set(&maint, c, &r, t, src, n)) ||
	    (rc = mev__flow_ctx_build(&x, c, maint, key.ptr, src, n)))
		goto done;
	rc = mev__flow_ctx_add(id, c, x, &r);
done:
	mev_maint_sources_free(src, n);
	mev__buf_free(&key);
	return rc;
}

int mev__flow_context_of(mev__flow_ctx **out, mev__flow_contexts *c, const mev_oid *commit)
{
	int64_t v = mev__strmap_get(&c->states, (const char *)commit->id, 20);
	uint32_t id;
	int rc;
	if (v >= 0 && (uint32_t)v != STATE_DIRTY && c->ctxs.v[v]) {
		id = (uint32_t)v;
	} else {
		int64_t pl = mev__strmap_get(&c->plan_of, (const char *)commit->id, 20);
		id = UINT32_MAX;
		if (pl >= 0 && c->ctxs.v[c->plans.v[pl].from] &&
		    (rc = mev__flow_derive(&id, c, &c->plans.v[pl], commit)))
			return rc;
		if (id == UINT32_MAX && (rc = full_state(&id, c, commit)))
			return rc;
		if (mev__strmap_put(&c->states, (const char *)commit->id, 20, id))
			return mev_error_oom();
	}
	*out = c->ctxs.v[id];
	(*out)->used = ++c->clock;
	return 0;
}

/* 1 when the path of ch is below a path the directory test looked at. */
int mev__flow_below_tested(const mev__flow_ctx *x, const mev_change *ch)
{
	const char *p = ch->path, *e = p + ch->path_len, *s;
	for (s = p; (s = memchr(s, '/', (size_t)(e - s))) != NULL; s++)
		if (mev__flow_cand(x, p, (size_t)(s - p)) >= 0)
			return 1;
	return 0;
}

/* 1 when path[0..len) is `dir` or a folder above it. */
static int on_the_way(const char *path, size_t len, const char *dir)
{
	return strncmp(dir, path, len) == 0 && (dir[len] == '\0' || dir[len] == '/');
}

/* 1 when an F:/X: value of m is the link `path` or lies below it (the
 * directory test follows links). */
static int value_through(const mev_maint *m, const char *path, size_t len)
{
	const mev_field *f = mev_maint_fields(m);
	size_t n = mev_maint_field_count(m);
	for (size_t i = 0; i < n; i++)
		if ((f[i].type == 'F' || f[i].type == 'X') && on_the_way(path, len, f[i].value))
			return 1;
	return 0;
}

/* 1 when a link at ch's path may alter what get_maintainer.pl reads: the
 * folder it searches for MAINTAINERS files, or a path of the directory
 * test, lies through it. */
static int link_matters(const mev__flow_ctx *x, const mev_rules *r, const mev_change *ch)
{
	const char *p = ch->path;
	size_t len = ch->path_len;
	if ((r->find_dir[0] && on_the_way(p, len, r->find_dir)) ||
	    (r->mpath[0] && on_the_way(p, len, r->mpath)))
		return 1;
	if (x->base)
		return value_through(x->base->maint, p, len) || value_through(x->own, p, len);
	return value_through(x->maint, p, len);
}

/*
 * Whether the change at `path` may alter what get_maintainer.pl reads: 0
 * no, MATTERS_TESTED only as a file added or deleted below a path the
 * directory test looked at, MATTERS otherwise (a MAINTAINERS file, the
 * rules, a link on the way).  The script finds its files by their paths,
 * so a file it does not read, edited, changes nothing of what it reads;
 * and the oldest scripts read ./MAINTAINERS alone.
 */
enum { MATTERS = 1, MATTERS_TESTED = 2 };
static int matters(const mev__flow_ctx *x, const mev_rules *r, const mev_change *ch)
{
	const char *p = ch->path, *e = p + ch->path_len, *s;
	int named = 0;
	if (mev_dialect_script(r->dialect) && strcmp(p, mev_dialect_script(r->dialect)) == 0)
		return MATTERS;
	/* a MAINTAINERS file or folder anywhere, a .get_maintainer.conf */
	for (s = p; s < e;) {
		const char *slash = memchr(s, '/', (size_t)(e - s));
		size_t cl = slash ? (size_t)(slash - s) : (size_t)(e - s);
		if (cl == 20 && memcmp(s, ".get_maintainer.conf", 20) == 0)
			return MATTERS;
		named |= cl >= 11 && memcmp(s, "MAINTAINERS", 11) == 0;
		s = slash ? slash + 1 : e;
	}
	if (r->mpath[0] && strcmp(r->mpath, ".") != 0 &&
	    strncmp(p, r->mpath, strlen(r->mpath)) == 0)
		named = 1;
	if (ch->link && (named || link_matters(x, r, ch)))
		return MATTERS;
	if (named && !ch->link &&
	    !(ch->status == 'M' && mev__strmap_get(&x->src_paths, p, ch->path_len) < 0) &&
	    !(r->discover == MEV_DISCOVER_TOP && strcmp(p, "MAINTAINERS") != 0))
		return MATTERS;
	return ch->status != 'M' && mev__flow_below_tested(x, ch) ? MATTERS_TESTED : 0;
}

int mev__flow_inherit(mev__flow_contexts *c, const mev_oid *child, const mev_oid *parent,
		      const mev_change_list *changes)
{
	int64_t v = -1;
	uint32_t state = STATE_DIRTY;
	size_t first = c->edits.n, first_path = c->edit_paths.len;
	int derivable = 1;
	if (parent) {
		/* the parent's set now (a merge's first parent may not have one
		 * yet): then the child's set is the same or derived from it */
		mev__flow_ctx *px;
		int rc = mev__flow_context_of(&px, c, parent);
		if (rc == MEV_ENOMEM || rc == MEV_EINTR)
			return rc;
		if (rc)
			mev_error_clear(); /* the child's own reading will say why */
		else
			v = px->id;
	}
	if (v >= 0) {
		const mev__flow_ctx *x = c->ctxs.v[v];
		state = (uint32_t)v;
		for (size_t i = 0; i < changes->n; i++) {
			const mev_change *ch = &changes->v[i];
			int why = matters(x, &c->rules.v[v], ch), k;
			if (!why)
				continue;
			if (why == MATTERS_TESTED && derivable) {
				if ((k = mev__flow_retest(c, x, ch, child)) < -1)
					return k;
				if (k == 0)
					continue; /* the same answers: the same set */
				state = STATE_DIRTY;
				if (k < 0)
					derivable = 0;
				continue;
			}
			state = STATE_DIRTY;
			if (why == MATTERS_TESTED)
				continue; /* not derivable already: nothing to ask */
			if ((derivable = mev__flow_derivable_edit(c, x, &c->rules.v[v], ch, child)) <= 0) {
				if (derivable < 0)
					return derivable;
				break;
			}
		}
		if (state == STATE_DIRTY && derivable && !c->env->whole_trees) {
			struct plan pl = { (uint32_t)v, (uint32_t)first, (uint32_t)(c->edits.n - first) };
			if (MEV_VEC_PUSH(&c->plans, pl) ||
			    mev__strmap_put(&c->plan_of, (const char *)child->id, 20,
					    (uint32_t)(c->plans.n - 1)))
				return mev_error_oom();
			first = c->edits.n;
			first_path = c->edit_paths.len;
		}
	}
	c->edits.n = first; /* the edits of a set that is not derived */
	c->edit_paths.len = first_path;
	return mev__strmap_put(&c->states, (const char *)child->id, 20, state) ? mev_error_oom() : 0;
}
