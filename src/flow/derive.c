/*
 * A commit's MAINTAINERS set derived from its parent's without reading the
 * tree (docs/flow.md, "Cost"): the parent's files with the edited, added
 * or deleted ones, spliced onto a set parsed whole (splice.c) or parsed
 * again; the directory tests answered by the parent's set where nothing
 * below them changed, else by the commit's git tree.
 */
#include "context_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

/*
 * The directory test of a derived set.  The parent set's own tests still
 * hold in the commit's tree (no file was added or deleted below a path they
 * tested, or the commit would not be derived), so a regex the parent set
 * holds as it is answered "no", one it holds with a '/' the test added
 * answered "yes"; the rest are looked up in the commit's git tree.
 */
/* The flags of regex p in the dir test's two maps (-1: in neither). */
static int64_t known_flags(const mev__flow_dir_test *d, const char *p, size_t len)
{
	int64_t a = mev__strmap_get(&d->known, p, len);
	int64_t b = d->base_known ? mev__strmap_get(d->base_known, p, len) : -1;
	return a < 0 ? b : b < 0 ? a : (a | b);
}

int mev__flow_lazy_is_dir(void *ctx, const char *path, size_t len)
{
	mev__flow_dir_test *d = ctx;
	int k;
	int64_t v = known_flags(d, path, len);
	if (v >= 0 && !(v & KNOWN_RETEST))
		return 0;
	if (len + 1 < 4096) {
		char buf[4096];
		memcpy(buf, path, len);
		buf[len] = '/';
		v = known_flags(d, buf, len + 1);
		if (v >= 0 && !(v & KNOWN_RETEST) && (v & KNOWN_ADDED))
			return 1;
	}
	k = mev_commit_is_dir(d->repo, d->commit, path, len);
	if (k == 2) {
		d->whole = 1;
		return -1; /* stop: the set is read from the whole tree */
	}
	return k;
}

/* The F:/X: regexes of m into *known, as flags: KNOWN_ADDED the directory
 * test added the trailing '/', 2 the value had it, 4 no trailing '/'
 * (tested: no); KNOWN_RETEST is set later on paths to test again. */
static int known_dirs_of(mev_strmap *known, const mev_maint *m)
{
	const mev_field *f = mev_maint_fields(m);
	size_t n = mev_maint_field_count(m);
	for (size_t i = 0; i < n; i++) {
		size_t len, vl;
		uint32_t val;
		int64_t old;
		if ((f[i].type != 'F' && f[i].type != 'X') || !f[i].regex)
			continue;
		len = strlen(f[i].regex);
		vl = strlen(f[i].value);
		val = !len || f[i].regex[len - 1] != '/' ? 4 : vl && f[i].value[vl - 1] == '/' ? 2 : 1;
		if ((old = mev__strmap_get(known, f[i].regex, len)) >= 0)
			val |= (uint32_t)old;
		if (mev__strmap_put(known, f[i].regex, len, val))
			return mev_error_oom();
	}
	return 0;
}

/* The F:/X: regexes set p holds (known_dirs_of()) into d: those of the
 * set parsed whole (p, or its base), built once and kept with it, and a
 * spliced set's own.  A spliced set gives all of its base's: their
 * answers still hold, as its candidates'. */
static int known_dirs(mev__flow_dir_test *d, mev__flow_ctx *p)
{
	mev__flow_ctx *b = p->base ? p->base : p;
	int rc;
	if (!b->known_built) {
		if ((rc = known_dirs_of(&b->known, b->maint)))
			return rc;
		b->known_built = 1;
	}
	d->base_known = &b->known;
	return p->own ? known_dirs_of(&d->known, p->own) : 0;
}

/* The parent's sources p->src with the plan's edits: *out, *nout of them. */
static int edited_sources(mev_maint_source **out, size_t *nout, const mev__flow_contexts *c,
			  const mev__flow_ctx *p, const mev_rules *r, const struct plan *pl)
{
	mev_maint_source *src = calloc(p->nsrc + pl->n + 1, sizeof *src);
	size_t n = 0;
	int rc = 0;
	*out = src;
	*nout = 0;
	if (!src)
		return mev_error_oom();
	for (size_t i = 0; i < p->nsrc; i++) {
		int drop = 0;
		src[n].oid = p->src[i].oid;
		for (uint32_t k = 0; k < pl->n; k++) {
			const struct edit *e = &c->edits.v[pl->first + k];
			if ((e->status == 'M' || e->status == 'D') && e->src == i) {
				drop = e->status == 'D';
				src[n].oid = e->oid;
			}
		}
		if (drop)
			continue;
		if (!(src[n].path = strdup(p->src[i].path)))
			return mev_error_oom();
		*nout = ++n;
	}
	for (uint32_t k = 0; k < pl->n && !rc; k++) {
		const struct edit *e = &c->edits.v[pl->first + k];
		const char *path = c->edit_paths.ptr + e->path;
		size_t at = n;
		if (e->status != 'A')
			continue;
		size_t first = 0;
		mev_maint_found_by_find(&first, r, src, n, path, strlen(path));
		for (size_t i = first; i < n; i++)
			if (mev_maint_find_order(src[i].path, path) > 0) {
				at = i;
				break;
			}
		memmove(&src[at + 1], &src[at], (n - at) * sizeof *src);
		src[at].oid = e->oid;
		*nout = ++n;
		if (!(src[at].path = strdup(path)))
			rc = mev_error_oom();
	}
	return rc;
}

/* The paths of the plan's 'T' edits, with and without a '/', to be tested
 * again in *known. */
static int mark_retests(mev_strmap *known, const mev__flow_contexts *c, const struct plan *pl)
{
	mev_buf b = MEV_BUF_INIT;
	int rc = 0;
	for (uint32_t k = 0; k < pl->n && !rc; k++) {
		const struct edit *e = &c->edits.v[pl->first + k];
		int64_t v;
		if (e->status != 'T')
			continue;
		mev__buf_clear(&b);
		if (mev__buf_puts(&b, c->edit_paths.ptr + e->path)) {
			rc = mev_error_oom();
			break;
		}
		for (int slash = 0; slash < 2 && !rc; slash++) {
			if (slash && mev__buf_putc(&b, '/')) {
				rc = mev_error_oom();
				break;
			}
			v = mev__strmap_get(known, b.ptr, b.len);
			if (mev__strmap_put(known, b.ptr, b.len, (uint32_t)(v >= 0 ? v : 0) | KNOWN_RETEST))
				rc = mev_error_oom();
		}
	}
	mev__buf_free(&b);
	return rc;
}

/*
 * The set of `commit` from its parent's set p and the plan's edits, without
 * the tree: *id, or *id UINT32_MAX when a directory test needs the whole
 * tree.
 */
int mev__flow_derive(uint32_t *id, mev__flow_contexts *c, const struct plan *pl,
		     const mev_oid *commit)
{
	mev__flow_ctx *p = c->ctxs.v[pl->from]; /* may be evicted by mev__flow_ctx_add() */
	mev_rules r = c->rules.v[pl->from];
	mev_maint_source *src = NULL;
	size_t n = 0;
	mev_buf key = MEV_BUF_INIT;
	mev__flow_ctx *x = NULL;
	mev_maint *maint = NULL;
	mev__flow_dir_test dt = { .repo = c->env->repo, .commit = commit };
	int rc;

	*id = UINT32_MAX;
	if ((rc = edited_sources(&src, &n, c, p, &r, pl)) || (rc = known_dirs(&dt, p)) ||
	    (rc = mark_retests(&dt.known, c, pl)))
		goto done;
	if ((rc = mev__flow_splice(id, c, p, &r, pl, src, n, &dt)) != 0 || *id != UINT32_MAX)
		goto done;
	if (dt.whole)
		goto done; /* a link on the way: the tree is read whole */
	c->env->parses++;
	if ((rc = mev__flow_sources_key(&key, src, n)) ||
	    (rc = mev__flow_parse_set(&maint, c, &r, NULL, src, n)))
		goto done;
	if ((rc = mev_maint_set_dirs(maint, mev__flow_lazy_is_dir, &dt))) {
		mev_maint_free(maint);
		if (dt.whole) {
			mev_error_clear();
			rc = 0;
		}
		goto done;
	}
	c->env->derived++;
	if ((rc = mev__flow_ctx_build(&x, c, maint, key.ptr, src, n)) == 0)
		rc = mev__flow_ctx_add(id, c, x, &r);
done:
	mev_maint_sources_free(src, n);
	mev__strmap_free(&dt.known);
	mev__buf_free(&key);
	return rc;
}

/*
 * A change that matters as an edit of the set that x is (rules r): 1 when
 * added to the edits, 0 when the set must be read from the tree (a change
 * of the rules, of a link, of a file the script's discovery would not treat
 * as one more or one less of its files), negative on failure.
 */
int mev__flow_derivable_edit(mev__flow_contexts *c, const mev__flow_ctx *x, const mev_rules *r,
			     const mev_change *ch, const mev_oid *child)
{
	int64_t k = mev__strmap_get(&x->src_paths, ch->path, ch->path_len);
	struct edit e = { ch->status, k >= 0 ? (uint32_t)k : 0, 0, ch->oid };
	size_t first;

	if (ch->link)
		return 0;
	if (ch->status == 'M')
		return k < 0 ? 0 : MEV_VEC_PUSH(&c->edits, e) ? mev_error_oom() : 1;
	/* one file more or less for File::Find, in the modes whose files it
	 * all finds (mev_maint_found_by_find()); below a path the directory
	 * test looked at, asked again */
	if (!mev_maint_found_by_find(&first, r, x->src, x->nsrc, ch->path, ch->path_len))
		return 0;
	if (mev__flow_below_tested(x, ch)) {
		int t = mev__flow_retest(c, x, ch, child);
		if (t < 0)
			return t < -1 ? t : 0;
	}
	if (ch->status == 'D')
		return k < (int64_t)first ? 0 : MEV_VEC_PUSH(&c->edits, e) ? mev_error_oom() : 1;
	if (k >= 0)
		return 0;
	e.path = (uint32_t)c->edit_paths.len;
	if (mev__buf_put(&c->edit_paths, ch->path, ch->path_len + 1) || MEV_VEC_PUSH(&c->edits, e))
		return mev_error_oom();
	return 1;
}

/*
 * A file added or deleted below paths the directory test looked at (and
 * nothing else of what the script reads): ask the test again in the child's
 * tree.  0 when every answer is the parent's (the set stays), 1 when some
 * changed ('T' edits added: the set is derived), -1 when the whole tree
 * must answer (a link on the way, white space after a value).
 */
int mev__flow_retest(mev__flow_contexts *c, const mev__flow_ctx *x, const mev_change *ch,
		  const mev_oid *child)
{
	const char *p = ch->path, *e = p + ch->path_len, *s;
	int changed = 0;
	for (s = p; (s = memchr(s, '/', (size_t)(e - s))) != NULL; s++) {
		size_t len = (size_t)(s - p);
		int64_t was = mev__flow_cand(x, p, len);
		int k;
		struct edit ed = { 'T', 0, 0, { { 0 } } };
		if (was < 0)
			continue;
		if (was == CAND_OTHER)
			return -1;
		k = mev_commit_is_dir(c->env->repo, child, p, len);
		if (k < 0 || k == 2) {
			mev_error_clear();
			return -1;
		}
		if ((k ? CAND_DIR : CAND_NOT) == was)
			continue;
		ed.path = (uint32_t)c->edit_paths.len;
		if (mev__buf_put(&c->edit_paths, p, len) || mev__buf_putc(&c->edit_paths, '\0') ||
		    MEV_VEC_PUSH(&c->edits, ed))
			return mev_error_oom();
		changed = 1;
	}
	return changed;
}
