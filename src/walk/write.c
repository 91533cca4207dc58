/*
 * Storing a walked release (walk_internal.h): one transaction, on a
 * thread of its own while the walk computes the next release; the file
 * table of the stored release after it is re-encoded against it.
 */
#include "walk_internal.h"
#include "maintevo/error.h"
#include "maintevo/graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef mev__walk_state state;
typedef mev__walker walker;
typedef mev__blob_vec blob_vec;
typedef mev__release_write release_write;

void mev__walk_state_clear(state *s)
{
	free(s->tag);
	mev_tree_free(s->tree);
	mev_maint_free(s->maint);
	mev_matcher_free(s->matcher);
	mev_maint_sources_free(s->src, s->nsrc);
	mev_filemap_free(s->fm);
	free(s->changed);
	memset(s, 0, sizeof *s);
}

int mev__walk_settle(walker *w)
{
	int rc = mev__walk_async_wait(&w->run.writer);
	if (w->run.pending.w) {
		if (rc == MEV_ENOTFOUND)
			mev_error_prefix("%s", w->run.pending.tag->name);
		if (!rc) {
			w->run.res->reencoded += w->run.pending.succ != NULL;
			w->run.res->walked++;
			w->run.have_id = 1;
			w->run.id_dirty = 0;
		}
		free(w->run.pending_succ);
		w->run.pending_succ = NULL;
		memset(&w->run.pending, 0, sizeof w->run.pending);
	}
	mev__walk_state_clear(&w->run.retired);
	memset(&w->run.writing, 0, sizeof w->run.writing); /* the walk's state owns them */
	return rc;
}

int mev__walk_settle_after(walker *w, int rc)
{
	char msg[2048], hint[2048];
	if (!rc)
		return mev__walk_settle(w);
	snprintf(msg, sizeof msg, "%s", mev_error_message());
	snprintf(hint, sizeof hint, "%s", mev_error_hint_text());
	mev__walk_settle(w);
	mev_error_set(rc, "%s", msg);
	if (hint[0])
		mev_error_hint("%s", hint);
	return rc;
}

static int diag_texts(const mev_maint *m, const char *extra, char ***out, size_t *n)
{
	size_t k = mev_maint_diag_count(m);
	char buf[1024];
	*out = calloc(k + 2, sizeof **out);
	*n = 0;
	if (!*out)
		return mev_error_oom();
	for (size_t i = 0; i < k; i++) {
		mev_maint_diag_format(buf, sizeof buf, m, &mev_maint_diags(m)[i]);
		if (!((*out)[i] = strdup(buf)))
			return mev_error_oom();
		*n = i + 1;
	}
	if (extra && extra[0]) {
		if (!((*out)[k] = strdup(extra)))
			return mev_error_oom();
		*n = k + 1;
	}
	return 0;
}

int mev__walk_reencode(walker *w, const char *tag, const mev_filemap *base, const char *base_tag)
{
	mev_graph *g = NULL;
	mev_graph_options go = { 1 };
	mev_filemap *fm = NULL;
	mev_release *rel = NULL;
	char **diags = NULL;
	size_t nd = 0;
	mev_release_input in = { 0 };
	int rc;

	if ((rc = mev_release_find(&rel, w->run.store, tag)) ||
	    (rc = mev_release_load_filemap(&fm, w->run.store, tag)) ||
	    (rc = mev_release_load_diags(&diags, &nd, w->run.store, tag)) ||
	    (rc = mev_graph_build(&g, fm, &go)))
		goto done;
	in.tag = tag;
	in.commit = rel->commit;
	in.time = rel->time;
	in.maintainer_files = rel->maintainer_files;
	in.diags = (const char *const *)diags;
	in.ndiags = nd;
	in.rules_version = rel->rules_version;
	in.rules = rel->rules;
	if (!(rc = mev_release_put(w->run.store, &in, fm, g, base, base_tag)))
		rc = mev__walk_bases_written(w, tag);
done:
	mev_graph_free(g);
	mev_filemap_free(fm);
	mev_release_diags_free(diags, nd);
	mev_release_free(rel);
	return rc;
}

/*
 * `tag` is stored again (a tag moved, a branch rewritten): the releases
 * whose tables are deltas against its stored table are re-encoded against
 * its new one, `base` (tag `base_tag`: itself, or the release it now
 * repeats), before it is replaced; *done says whether `succ` was one.
 * Nothing to do for a release not stored yet, or stored as a repeat.
 */
static int reencode_dependents(walker *w, const char *tag, const mev_filemap *base, const char *base_tag,
			       const char *succ, int *done)
{
	mev_release *rel = NULL;
	char **dep = NULL;
	size_t n = 0;
	int rc;
	*done = 0;
	/* cheap tests first: most releases a walk stores are new ones (and a
	 * missing release's message would look for names like it) */
	if (mev_release_is_alias(w->run.store, tag) || !mev_release_has(NULL, w->run.store, tag))
		return 0;
	rc = mev_release_find(&rel, w->run.store, tag);
	if (!rc && rel->has_files)
		rc = mev__walk_bases_of(&dep, &n, w, tag);
	mev_release_free(rel);
	for (size_t i = 0; i < n; i++) {
		if (!rc)
			rc = mev__walk_reencode(w, dep[i], base, base_tag);
		*done |= succ && strcmp(dep[i], succ) == 0;
		free(dep[i]);
	}
	free(dep);
	return rc;
}

/* What the health record of rw's release is computed from. */
static void health_input(mev_release_input *in, const release_write *rw)
{
	const state *cur = rw->cur;
	in->tag = rw->tag->name;
	in->maint = cur->maint;
	in->tree = cur->tree;
	in->memo = rw->w->cache.memo;
	in->changed = cur->changed;
	in->since = cur->changed ? &cur->since : NULL;
}

static int health_encode(void *ctx)
{
	release_write *rw = ctx;
	return mev_release_health_encode(&rw->health_data, &rw->health_len, &rw->hin, rw->cur->fm);
}

/* The health record, once its thread is done (mev_release_input.health). */
static int health_wait(void *ctx, const void **data, size_t *len)
{
	release_write *rw = ctx;
	if (!rw->health_waited) {
		rw->health_rc = mev__walk_async_wait(&rw->health);
		rw->health_waited = 1;
	} else if (rw->health_rc) {
		return mev_error_set(rw->health_rc, "the health record of %s could not be computed",
				     rw->tag->name);
	}
	*data = rw->health_data;
	*len = rw->health_len;
	return rw->health_rc;
}

/* Put the release (and re-encode its stored successor) in one transaction:
 * the blob sizes measured for it, the identity with the first release. */
static int blob_cmp(const void *a, const void *b)
{
	return memcmp(((const mev__blob_size *)a)->oid.id, ((const mev__blob_size *)b)->oid.id, 20);
}

int mev__walk_put_sizes(mev_store *s, mev__blob_size *v, size_t n)
{
	int rc = 0;
	/* in key order: each insert lands next to the one before in the tree */
	if (n > 1) /* none at all: no vector either */
		qsort(v, n, sizeof *v, blob_cmp);
	for (size_t i = 0; i < n && !rc; i++)
		rc = mev_release_blob_put(s, &v[i].oid, v[i].lines, v[i].bytes);
	return rc;
}

static int store_release(mev_store *s, void *ctx)
{
	const release_write *rw = ctx;
	walker *w = rw->w;
	const state *prev = rw->prev, *cur = rw->cur;
	mev_graph *g = NULL;
	mev_graph_options go = { 1 };
	char **diags = NULL;
	size_t nd = 0;
	mev_release_input in = { 0 };
	char rules[1024];
	int rc, redone;

	mev__walk_bases_begin(&w->cache.bases);
	if ((rc = mev_graph_build(&g, cur->fm, &go)))
		mev_error_prefix("release %s", rw->tag->name);
	if (rc || (rc = diag_texts(cur->maint, cur->missing, &diags, &nd)))
		goto done;
	if ((rc = mev__walk_put_sizes(s, rw->blobs->v, rw->blobs->n)))
		goto done;
	in.tag = rw->tag->name;
	in.commit = rw->tag->commit;
	in.time = rw->tag->time;
	in.maintainer_files = mev_maint_file_count(cur->maint);
	in.diags = (const char *const *)diags;
	in.ndiags = nd;
	health_input(&in, rw);
	if (rw->health_on) {
		in.health = health_wait;
		in.health_ctx = (void *)rw;
	}
	mev_rules_describe(rules, sizeof rules, &cur->rules);
	in.rules_version = MEV_RULES_VERSION;
	in.rules = rules;
	if (rw->set_id && (rc = mev_release_identity_set(s, &w->run.id)))
		goto done;
	if (rw->same) {
		/* a period with no new commit: a repeat of the release before,
		 * which stays the base of its successor's table (and becomes
		 * that of the tables that were deltas against this one) */
		if (!(rc = reencode_dependents(w, in.tag, prev->fm, prev->tag, NULL, &redone)) &&
		    !(rc = mev_release_put_alias(s, in.tag, prev->tag, &in.commit, in.time)))
			rc = mev__walk_bases_gone(w, in.tag);
		goto done;
	}
	if ((rc = reencode_dependents(w, in.tag, cur->fm, in.tag, rw->succ, &redone)))
		goto done;
	/* the successor may be gone meanwhile: a repeat of a release stored
	 * again with another commit (a rewritten branch) goes with its tree */
	if (rw->succ && !redone && !mev_release_is_alias(s, rw->succ) && mev_release_has(NULL, s, rw->succ) &&
	    (rc = mev__walk_reencode(w, rw->succ, cur->fm, in.tag)))
		goto done;
	if (!(rc = mev_release_put(s, &in, cur->fm, g, prev->fm, prev->fm ? prev->tag : NULL)))
		rc = mev__walk_bases_written(w, in.tag);
done:
	mev_graph_free(g);
	mev_release_diags_free(diags, nd);
	return rc;
}

/* The health record (a third to a half of the writer's work in a walk of
 * many small releases) is computed on a thread of its own while the rest
 * is encoded and put; once for all tries of the transaction, as the memo
 * it carries to the next release moves on. */
static int write_release(void *ctx)
{
	release_write *rw = ctx;
	int rc;
	memset(&rw->hin, 0, sizeof rw->hin);
	health_input(&rw->hin, rw);
	rw->health_on = rw->cur->maint && rw->cur->tree && rw->cur->fm;
	rw->health_waited = 0;
	rw->health_rc = 0;
	rw->health_data = NULL;
	rw->health_len = 0;
	if (rw->health_on)
		mev__walk_async_start(&rw->health, health_encode, rw);
	rc = mev_store_write(rw->w->run.store, store_release, rw);
	if (!rc)
		mev__walk_bases_commit(&rw->w->cache.bases);
	if (rw->health_on && !rw->health_waited)
		mev__walk_async_join(&rw->health);
	free(rw->health_data);
	rw->health_data = NULL;
	return rc;
}

int mev__walk_store_async(walker *w, const mev_tag *t, state *prev, state *cur, char *succ)
{
	blob_vec b;
	int rc, same;
	/* the release before is written: its blob sizes are in the store, and
	 * the states it read can be let go */
	if ((rc = mev__walk_settle(w))) {
		free(succ);
		return rc;
	}
	b = w->run.pending_blobs;
	if (!w->run.have_id) {
		if ((rc = mev_repo_root(&w->run.id.root, w->run.repo, &t->commit))) {
			free(succ);
			return rc;
		}
		if (!w->run.id.dialect[0])
			snprintf(w->run.id.dialect, sizeof w->run.id.dialect, "%s",
				 mev_dialect_name(w->opts.dialect));
	}
	/* cur is the commit of the release before, which is stored (a period
	 * with no new commit, a snapshot at a tag): every result is the same,
	 * and it is stored as a repeat of it */
	same = prev->tag && prev->fm && mev_oid_equal(&prev->commit, &cur->commit);
	/* of the state before, the writer needs the file table (its base) and tag */
	w->run.retired = *prev;
	mev_tree_free(w->run.retired.tree);
	mev_maint_free(w->run.retired.maint);
	mev_matcher_free(w->run.retired.matcher);
	mev_maint_sources_free(w->run.retired.src, w->run.retired.nsrc);
	w->run.retired.tree = NULL;
	w->run.retired.maint = NULL;
	w->run.retired.matcher = NULL;
	w->run.retired.src = NULL;
	w->run.retired.nsrc = 0;
	*prev = *cur;
	w->run.writing = *prev;
	w->run.pending_blobs = w->run.blobs;
	w->run.blobs = b;
	w->run.blobs.n = 0;
	w->run.pending = (release_write){ .w = w, .tag = t, .prev = &w->run.retired, .cur = &w->run.writing,
				      .succ = succ, .blobs = &w->run.pending_blobs,
				      .set_id = !w->run.have_id || w->run.id_dirty, .same = same };
	w->run.pending_succ = succ;
	mev__walk_async_start(&w->run.writer, write_release, &w->run.pending);
	return 0;
}
