/*
 * The release walker.  Tags are chosen and put in version order; each
 * release not in the store yet is computed from the previous one: the tree
 * comes from a tree-to-tree diff, MAINTAINERS is parsed again only when its
 * files (or the script's rules, or the directories its patterns name)
 * changed, only added or modified files are read, and only paths a changed
 * section can reach are matched again.  Every release is one store
 * transaction: a walk killed at any moment leaves whole releases only.
 * A release is stored on a thread of its own while the next one is
 * computed (up to the point where that one needs the store), and the
 * next release's tree is diffed on another while its blobs are read.
 */
#include "maintevo/walk.h"
#include "maintevo/calendar.h"
#include "maintevo/error.h"
#include "maintevo/filemap.h"
#include "maintevo/match.h"
#include "maintevo/release.h"
#include "maintevo/repo.h"
#include "maintevo/store.h"
#include "maintevo/tags.h"
#include "util/buf.h"
#include "util/clock.h"
#include "walk_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

typedef mev__walk_state state;
typedef mev__walker walker;

/* Clear s, which the diff ahead may be reading. */
static void state_drop(walker *w, state *s)
{
	mev__walk_ahead_drop(&w->run.ahead);
	mev__walk_state_clear(s);
}

/* --- one release --------------------------------------------------------- */

/* A size the store knows and whose check holds; --rebuild trusts none. */
static int blob_lookup(void *ctx, const mev_oid *oid, uint64_t *lines, uint64_t *bytes)
{
	walker *w = ctx;
	int known;
	if (mev__walk_sizes_get(&w->cache.sizes, oid, lines, bytes))
		return 1; /* found or measured ahead: counted when taken */
	if (!w->opts.user->rebuild && w->run.writer.pending && w->cache.view) {
		/* the store is the writer's: its last commit through the view */
		mev_store_view_begin(w->cache.view);
		known = mev_release_blob_peek(lines, bytes, w->cache.view, oid);
		mev_store_view_end(w->cache.view);
		w->run.res->blobs_cached += known > 0;
		if (known >= 0)
			return known; /* a size written now is measured again */
		if (mev__walk_settle(w)) /* damaged: said and measured below */
			return 0;
	}
	known = w->opts.user->rebuild ? 0 : mev_release_blob_get(lines, bytes, w->run.store, oid);
	if (known < 0 && w->run.bad_blobs++ < 10)
		mev__walk_note(&w->opts, "%s: measuring it again%s", mev_error_message(),
			       w->run.bad_blobs == 10 ? " (further ones without a note)" : "");
	w->run.res->blobs_cached += known > 0;
	return known > 0;
}

static int blob_store(void *ctx, const mev_oid *oid, uint64_t lines, uint64_t bytes)
{
	walker *w = ctx;
	mev__blob_size b = { *oid, lines, bytes };
	/* the reading ahead is told of them too (mev__walk_ahead_start) */
	return MEV_VEC_PUSH(&w->run.blobs, b) || MEV_VEC_PUSH(&w->cache.measured, b) ? mev_error_oom() : 0;
}

/* The blob sizes read ahead: those measured are stored with the release. */
static int took_ahead(walker *w)
{
	const mev__walk_sizes *z = &w->cache.sizes;
	for (size_t k = z->known; k < z->v.n; k++)
		if (MEV_VEC_PUSH(&w->run.blobs, z->v.v[k]))
			return mev_error_oom();
	w->run.res->blobs_cached += z->known;
	w->run.res->blobs_read += z->v.n - z->known;
	w->run.res->bytes_read += z->bytes_read;
	return 0;
}

/* The releases after cur are made ready ahead, from cur's tree and, when
 * `known`, its rules and sources (else its MAINTAINERS are parsed again). */
static void ahead_start(walker *w, const state *cur, int known)
{
	if (w->run.ahead.running)
		mev__walk_ahead_note(&w->run.ahead, &w->cache.measured);
	else
		mev__walk_ahead_start(&w->run.ahead, w->opts.user->repo, cur->tree,
				      known ? &cur->rules : NULL, cur->src, cur->nsrc,
				      w->run.work + w->run.at + 1, w->run.nwork - w->run.at - 1,
				      &w->cache.measured);
}

/* The MAINTAINERS of cur, whose rules and sources are known: those parsed
 * ahead, or parsed here (pooled unless the thread ahead may be using the
 * pool now: `busy`). */
static int load_maint(walker *w, state *cur, mev__walk_prep *prep, int busy)
{
	if (prep->maint) {
		cur->maint = prep->maint;
		cur->matcher = prep->matcher;
		prep->maint = NULL;
		prep->matcher = NULL;
		return 0;
	}
	int rc = mev_maint_load(&cur->maint, &cur->rules, w->run.repo, cur->tree);
	if (!rc)
		rc = busy ? mev_matcher_new(&cur->matcher, cur->maint, 0)
			  : mev__walk_matcher(&cur->matcher, cur->maint, &w->cache.pool);
	return rc;
}

/* Build everything for `tag` from `prev` (or cold when prev->tree is NULL);
 * `next`, the release to walk after it (or NULL), has its tree diffed ahead. */
/* cur built again from scratch: a pattern ran out of its matching budget
 * when built from the release before (see compute). */
static int build_cold(walker *w, state *cur, mev_filemap_options *fo)
{
	int rc;
	mev_filemap_free(cur->fm);
	mev_matcher_free(cur->matcher);
	mev_maint_free(cur->maint);
	cur->fm = NULL;
	cur->matcher = NULL;
	cur->maint = NULL;
	if ((rc = mev_maint_load(&cur->maint, &cur->rules, w->run.repo, cur->tree)) ||
	    (rc = mev_matcher_new(&cur->matcher, cur->maint, 0)))
		return rc;
	return mev_filemap_build_ex(&cur->fm, w->run.repo, cur->tree, cur->maint, cur->matcher, NULL, fo);
}

static int compute(walker *w, const mev_tag *tag, const mev_tag *next, state *prev, state *cur)
{
	const mev_walk_options *o = w->opts.user;
	uint8_t *changed = NULL;
	mev_rematch *rm = NULL;
	mev_filemap_stats st = { 0 };
	mev_blob_sizes sizes = { blob_lookup, blob_store, w };
	mev_filemap_options fo = { o->jobs, &st, o->abort_now, &sizes };
	mev_filemap_base base;
	mev__walk_prep prep = { 0 };
	int rc, reuse = 0, cold, early;

	memset(cur, 0, sizeof *cur);
	cur->commit = tag->commit;
	if (!(cur->tag = strdup(tag->name)))
		return mev_error_oom();
	mev__walk_sizes_clear(&w->cache.sizes);
	if (prev->tree && mev__walk_ahead_take(&w->run.ahead, &cur->tree, &changed, &w->cache.sizes,
					       &prep, prev->tree, &tag->commit))
		rc = took_ahead(w);
	else if (prev->tree) {
		/* the thread ahead does not run: the diffs are this thread's */
		mev_tree_delta *d = mev__walk_deltas_take(&w->cache.deltas, &tag->commit);
		rc = mev_tree_update_with(&cur->tree, &changed, NULL, w->run.repo, prev->tree,
					  &tag->commit, d);
		mev_tree_delta_free(d);
	}
	else
		rc = mev_tree_load(&cur->tree, w->run.repo, &tag->commit);
	if (rc)
		goto done;
	if (changed) {
		cur->since = *mev_tree_id(prev->tree);
		cur->changed = changed; /* for the health record, by the writer */
	}
	if (prep.ok) {
		cur->rules = prep.rules;
		cur->src = prep.src;
		cur->nsrc = prep.nsrc;
		prep.src = NULL;
		prep.nsrc = 0;
	}
	/* a cold release reads its whole tree with both cores first, unless
	 * read before the walk: the next one's blobs are looked up among them */
	early = prev->tree || w->run.preread;
	if (next && early)
		ahead_start(w, cur, prep.ok);
	if ((!prep.ok && ((rc = mev_rules_detect(&cur->rules, w->run.repo, cur->tree, &w->opts.rules)) ||
			  (rc = mev_maint_sources(&cur->src, &cur->nsrc, &cur->rules, cur->tree)))) ||
	    (rc = mev__walk_need_blobs(w->run.repo, cur->tree, cur->src, cur->nsrc, prev->src,
					  prev->nsrc)))
		goto done;
	/* a pattern that ran out of its matching budget matched some paths and
	 * not the later ones: which depends on what was matched, so such a
	 * release is computed from scratch, as a cold build computes it */
	cold = prev->matcher && mev_matcher_limit_hits(prev->matcher) > 0;
	reuse = !cold && prev->maint && memcmp(&prev->rules, &cur->rules, sizeof cur->rules) == 0 &&
		mev__walk_sources_equal(prev->src, prev->nsrc, cur->src, cur->nsrc) &&
		!mev_maint_dirs_changed(prev->maint, cur->tree);
	if (!reuse) {
		w->run.res->reparsed++;
		if ((rc = load_maint(w, cur, &prep, w->run.ahead.running)) ||
		    (rc = mev__walk_carry(&cur->maint, &cur->matcher, prev->maint,
					  w->run.ahead.running ? NULL : &w->cache.pool)))
			goto done;
		if (!cold && prev->maint && (rc = mev_rematch_new(&rm, prev->maint, cur->maint)))
			goto done;
	}
	/* the writer of the release before may still be reading prev: its
	 * objects are moved on (the writer has their pointers), not freed */
	if (reuse) {
		/* MAINTAINERS as before: keep the sections and the matcher */
		cur->maint = prev->maint;
		cur->matcher = prev->matcher;
		prev->maint = NULL;
		prev->matcher = NULL;
	}
	if (prev->tree && !cold) {
		base.fm = prev->fm;
		base.tree = prev->tree;
		base.changed = changed;
		base.rematch = reuse || (rm && mev_rematch_identical(rm)) ? NULL : rm;
	}
	rc = mev_filemap_build_ex(&cur->fm, w->run.repo, cur->tree, cur->maint, cur->matcher,
				  prev->tree && !cold ? &base : NULL, &fo);
	if (!rc && prev->tree && !cold && mev_matcher_limit_hits(cur->matcher) > 0 &&
	    !(rc = mev__walk_settle(w)) && /* cur may hold what the writer reads */
	    (rc = build_cold(w, cur, &fo)))
		goto done;
	if (!rc && next && !early)
		ahead_start(w, cur, 1);
	if (!rc && st.missing)
		mev__walk_missing_note(cur->missing, sizeof cur->missing, w->run.repo, tag->name, st.missing,
				       st.missing_path);
	if (!rc) {
		w->run.res->files += st.paths;
		w->run.res->blobs_read += st.blobs_read;
		w->run.res->bytes_read += st.bytes_read;
		w->run.res->rematched_paths += st.matched;
	}
done:
	mev__walk_prep_clear(&prep);
	mev_rematch_free(rm);
	if (rc) {
		rc = mev__walk_settle_after(w, rc); /* cur may hold what the writer reads */
		state_drop(w, cur);
	}
	return rc;
}

/* Compare a walked release with a cold build of the same commit. */
static int verify(walker *w, const mev_tag *tag, const state *cur)
{
	mev_tree *t = NULL;
	mev_rules r;
	mev_maint *m = NULL;
	mev_filemap *fm = NULL;
	const mev_walk_options *o = w->opts.user;
	mev_filemap_options fo = { o->jobs, NULL, o->abort_now, NULL };
	int rc;
	if ((rc = mev_tree_load(&t, w->run.repo, &tag->commit)) ||
	    (rc = mev_rules_detect(&r, w->run.repo, t, &w->opts.rules)) ||
	    (rc = mev_maint_load(&m, &r, w->run.repo, t)) ||
	    (rc = mev_filemap_build(&fm, w->run.repo, t, m, &fo)))
		goto done;
	{
		const mev_file_row *a = mev_filemap_rows(fm), *b = mev_filemap_rows(cur->fm);
		size_t n = mev_filemap_count(fm);
		const mev_section_info *sa = mev_filemap_sections(fm), *sb = mev_filemap_sections(cur->fm);
		if (n != mev_filemap_count(cur->fm) ||
		    mev_filemap_section_count(fm) != mev_filemap_section_count(cur->fm)) {
			rc = mev_error_set(MEV_ERROR, "verify %s: %zu files / %zu sections cold, %zu / %zu walked",
					   tag->name, n, mev_filemap_section_count(fm),
					   mev_filemap_count(cur->fm), mev_filemap_section_count(cur->fm));
			goto done;
		}
		for (size_t i = 0; i < mev_filemap_section_count(fm); i++)
			if (strcmp(sa[i].title, sb[i].title)) {
				rc = mev_error_set(MEV_ERROR, "verify %s: section %zu is '%s' cold, '%s' walked",
						   tag->name, i, sa[i].title, sb[i].title);
				goto done;
			}
		for (size_t i = 0; i < n; i++) {
			const uint32_t *ia, *ib;
			size_t ka = mev_filemap_set(&ia, fm, a[i].set), kb = mev_filemap_set(&ib, cur->fm, b[i].set);
			if (a[i].path_len != b[i].path_len || memcmp(a[i].path, b[i].path, a[i].path_len) ||
			    a[i].lines != b[i].lines || a[i].bytes != b[i].bytes || a[i].kind != b[i].kind ||
			    ka != kb || (ka && memcmp(ia, ib, ka * sizeof *ia))) {
				rc = mev_error_set(MEV_ERROR, "verify %s: '%s' differs between the walk and a cold build",
						   tag->name, a[i].path);
				goto done;
			}
		}
	}
	w->run.res->verified++;
done:
	mev_filemap_free(fm);
	mev_maint_free(m);
	mev_tree_free(t);
	return rc;
}

/* Load the state of a stored release (to continue from it). */
static int load_state(walker *w, const char *tag, const mev_oid *commit, state *s)
{
	int rc;
	memset(s, 0, sizeof *s);
	if (!(s->tag = strdup(tag)))
		return mev_error_oom();
	s->commit = *commit;
	if ((rc = mev_release_load_filemap(&s->fm, w->run.store, tag)) ||
	    (rc = mev_tree_load(&s->tree, w->run.repo, commit)) ||
	    (rc = mev_rules_detect(&s->rules, w->run.repo, s->tree, &w->opts.rules)) ||
	    (rc = mev_maint_sources(&s->src, &s->nsrc, &s->rules, s->tree)) ||
	    (rc = mev_maint_load(&s->maint, &s->rules, w->run.repo, s->tree)) ||
	    (rc = mev__walk_matcher(&s->matcher, s->maint, &w->cache.pool))) {
		mev__walk_state_clear(s);
		return rc;
	}
	if (mev_filemap_count(s->fm) != mev_tree_count(s->tree)) {
		mev__walk_state_clear(s);
		return mev_error_set(MEV_ECORRUPT, "stored release '%s' does not match its commit", tag);
	}
	return 0;
}

/* --- the walk -------------------------------------------------------------- */

typedef struct {
	mev_release *list;
	size_t n;
} release_list;

static int forget_releases(mev_store *s, void *ctx)
{
	const release_list *l = ctx;
	int rc = 0;
	for (size_t i = 0; i < l->n && !rc; i++)
		rc = mev_release_delete(s, l->list[i].tag);
	return rc;
}

/* Open the repository, list its tags (*tags, *ntags, *skipped), check
 * the globs; then open the store, take the writer's lock, check (or
 * forget, with --rebuild) whose history the store holds. */
static int open_walk(walker *w, mev_tag **tags, size_t *ntags, mev_tags_skipped *skipped)
{
	const mev_walk_options *o = w->opts.user;
	int rc;
	mev_oid tip;
	if ((rc = mev_repo_open(&w->run.repo, o->repo)))
		return rc;
	/* an unknown branch is said before a store is made for it */
	if (o->branch && (rc = mev_repo_branch(&tip, NULL, w->run.repo, o->branch)))
		return rc;
	/* so is a --files-as release the repository does not have */
	if (o->files_as && (rc = mev_repo_resolve(&tip, NULL, w->run.repo, o->files_as))) {
		mev_error_prefix("--files-as '%s'", o->files_as);
		return rc;
	}
	/* and dates no period can hold, or not begun */
	if ((rc = mev__walk_check_dates(&w->opts, o->every ? mev_every_parse(o->every) : -1, 0)))
		return rc;
	mev_repo_bound_memory();
	if ((rc = mev_repo_tags(tags, ntags, skipped, w->run.repo)) ||
	    (rc = mev__walk_check_globs(o, *tags, *ntags)) ||
	    (access(o->store, F_OK) != 0 && (rc = mev__walk_check_line(w, *tags, *ntags))))
		return rc;
	if ((rc = mev_store_open(&w->run.store, o->store, MEV_STORE_WRITE | MEV_STORE_CREATE)) ||
	    (rc = mev_store_lock_wait(&w->run.lockfd, o->store, o->wait, o->abort_now)))
		return rc;
	rc = mev_release_identity_get(&w->run.id, w->run.store);
	if (rc && rc != MEV_ENOTFOUND)
		return rc;
	w->run.have_id = rc == 0;
	if (w->run.have_id && strcmp(w->run.id.dialect, MEV_IMPORT_DIALECT) == 0) {
		mev_error_set(MEV_ESTORE, "store '%s' holds imported graphs (%s), not the walk of a "
			      "repository", o->store, w->run.id.repo);
		mev_error_hint("walk into a new store (--store NEWDIR)");
		return MEV_ESTORE;
	}
	if (o->rebuild && w->run.have_id) {
		release_list l;
		if ((rc = mev_release_list(&l.list, &l.n, w->run.store)))
			return rc;
		rc = mev_store_write(w->run.store, forget_releases, &l);
		mev_release_list_free(l.list, l.n);
		if (rc)
			return rc;
		w->run.have_id = 0;
		mev__walk_note(&w->opts, "--rebuild: forgot the %zu stored releases", l.n);
	}
	return mev__walk_check_identity(w);
}

/* The next release is read ahead, the sizes the store knows looked up
 * through a view of its own (--rebuild trusts none). */
static int start_ahead(walker *w)
{
	const mev_walk_options *o = w->opts.user;
	mev_store_view *view = NULL;
	int rc = o->rebuild ? 0 : mev_store_view_new(&view, w->run.store, "blobs");
	if (rc || (!o->rebuild && (rc = mev_store_view_new(&w->cache.view, w->run.store, "blobs")))) {
		mev_store_view_free(view);
		return rc;
	}
	mev__walk_ahead_init(&w->run.ahead, w->run.repo, view, o->abort_now);
	w->run.ahead.help = o->jobs != 1;
	w->run.ahead.ro = w->opts.rules;
	w->run.ahead.pool = &w->cache.pool;
	w->run.ahead.deltas = &w->cache.deltas;
	return 0;
}

/* Damaged releases, and those whose file table needs them, are dropped
 * first (a quick check: records, not chains rebuilt), so that this walk
 * computes them again. */
static int drop_damaged(walker *w)
{
	mev_release_check_result r;
	int rc = mev_release_repair(&r, w->run.store, 0);
	for (size_t i = 0; i < r.n && !rc; i++)
		if (r.v[i].tag)
			mev__walk_note(&w->opts, "release %s is damaged (%s: %s); walking it again",
				       r.v[i].tag, r.v[i].table, r.v[i].what);
	mev_release_check_free(&r);
	return rc;
}

/*
 * The stored releases around `t` (with file tables, chosen by the filters):
 * *prev becomes the state of the one before (loaded from the store unless it
 * is the one just walked; cleared when there is none, or when it cannot be
 * loaded: then `t` is computed from scratch), *succ (malloc'ed) the tag of
 * the one after, or NULL.
 */
static int neighbours(walker *w, const mev_tag *t, state *prev, char **succ)
{
	const char *pred = NULL;
	mev_oid pred_commit;
	size_t at = mev__stored_pos(&w->run.stored, t->name);
	int rc = 0;

	*succ = NULL;
	for (size_t i = at; i < w->run.stored.n; i++) {
		const mev__stored_rel *r = &w->run.stored.v[i];
		if (r->has_files && strcmp(r->tag, t->name) && mev__walk_chosen(w, r->tag)) {
			if (!(*succ = strdup(r->tag)))
				return mev_error_oom();
			break;
		}
	}
	for (size_t i = at; i-- > 0;) {
		const mev__stored_rel *r = &w->run.stored.v[i];
		/* one built by older rules is no base (it is computed again too) */
		if (r->has_files && r->rules_version == MEV_RULES_VERSION && mev__walk_chosen(w, r->tag)) {
			pred = r->tag;
			pred_commit = r->commit;
			break;
		}
	}
	if (!rc && pred && (!prev->tag || strcmp(prev->tag, pred))) {
		if ((rc = mev__walk_settle(w))) {
			free(*succ);
			*succ = NULL;
			return rc;
		}
		state_drop(w, prev);
		if (load_state(w, pred, &pred_commit, prev)) {
			mev__walk_note(&w->opts, "cannot continue from stored %s (%s); computing %s from "
				       "scratch", pred, mev_error_message(), t->name);
			mev__walk_state_clear(prev);
		}
	} else if (!rc && !pred) {
		if ((rc = mev__walk_settle(w))) {
			free(*succ);
			*succ = NULL;
			return rc;
		}
		state_drop(w, prev);
	}
	return rc;
}

/* Say it when the release's script leaves MAINTAINERS files of its tree
 * unread (U-Boot v2021.10): their sections are not the release's, and the
 * subsystems they make seem to die and be born again.  Not with
 * --top-level-only, which asks for that. */
static void unread_note(walker *w, const char *tag, const state *cur)
{
	size_t *unread = NULL, n = 0;
	if (w->opts.rules.top_level_only || mev_maint_unread(&unread, &n, cur->maint, cur->tree)) {
		mev_error_clear();
		return;
	}
	if (n)
		mev__walk_note(&w->opts, "%s: its get_maintainer.pl reads %zu MAINTAINERS file%s and leaves "
			       "%zu of its tree unread ('%s'%s): their sections are not this release's "
			       "(maintevo export health lists them; walk --files-as REL reads them as "
			       "release REL does)", tag, mev_maint_file_count(cur->maint),
			       mev_maint_file_count(cur->maint) == 1 ? "" : "s", n,
			       mev_tree_files(cur->tree)[unread[0]].path, n > 1 ? ", ..." : "");
	free(unread);
}

/* Compute release `t`, store it (one transaction, on the writer thread)
 * and optionally verify it; on success *prev becomes its state. */
static int walk_one(walker *w, const mev_tag *t, const mev_tag *next, state *prev)
{
	state cur;
	char *succ = NULL;
	int rc;

	if ((rc = neighbours(w, t, prev, &succ)))
		return rc;
	if (succ)
		w->run.res->inserted++;
	if ((rc = compute(w, t, next, prev, &cur))) {
		free(succ);
		if (rc == MEV_ENOTFOUND) /* what the clone lacks: say which release needs it */
			mev_error_prefix("%s", t->name);
		return rc;
	}
	if ((rc = mev__stored_put(&w->run.stored, t->name, &t->commit, MEV_RULES_VERSION))) {
		free(succ);
		state_drop(w, &cur);
		return rc;
	}
	if (mev_maint_section_count(cur.maint) == 0)
		mev__walk_note(&w->opts, "%s: no MAINTAINERS sections; stored with zero sections", t->name);
	if (cur.missing[0])
		mev__walk_note(&w->opts, "%s", cur.missing);
	unread_note(w, t->name, &cur);
	if ((rc = mev__walk_store_async(w, t, prev, &cur, succ))) {
		state_drop(w, &cur);
		return rc;
	}
	if (w->opts.user->verify && ((rc = mev__walk_settle(w)) || (rc = verify(w, t, prev))))
		return rc;
	return 0;
}

/*
 * glibc gives a freed block over 128 kB-32 MB back to the kernel, and
 * trims the top of each thread's heap: a walk frees and allocates trees,
 * tables and sizes of about the same sizes release after release, and
 * each round trip cost page faults and TLB shootdowns on both cores
 * (U-Boot's walk with its candidates: 0.2 s of 7.5 s wall time).  The
 * memory is kept for the next release instead.
 */
static void keep_memory(void)
{
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_TOP_PAD, 64 << 20);
#endif
}

int mev_walk(mev_walk_result *res, const mev_walk_options *o)
{
	walker w = { 0 };
	mev_tag *tags = NULL, *snaps = NULL;
	mev_tags_skipped skipped = { 0 };
	size_t ntags = 0, nwork = 0, nsnaps = 0;
	const mev_tag **work = NULL;
	state prev = { 0 };
	double t0 = mev__now(), tw;
	uint64_t files_done = 0;
	int rc;

	memset(res, 0, sizeof *res);
	keep_memory();
	w.opts.user = o;
	w.run.res = res;
	w.run.lockfd = -1;
	w.cache.deltas.idx = (mev_strmap)MEV_STRMAP_INIT;
	if ((rc = mev_release_memo_new(&w.cache.memo)) || (rc = mev_pattern_pool_new(&w.cache.pool)) ||
	    (rc = open_walk(&w, &tags, &ntags, &skipped)) || (rc = drop_damaged(&w)))
		goto done;
	res->tags = ntags + skipped.n;
	if (skipped.n) {
		char names[512];
		mev__walk_skipped_names(names, sizeof names, &skipped);
		mev__walk_note(&w.opts, "%zu tag%s that do%s not point at a commit left out: %s", skipped.n,
			       skipped.n == 1 ? "" : "s", skipped.n == 1 ? "es" : "", names);
	}
	if ((rc = mev__stored_load(&w.run.stored, w.run.store)))
		goto done;
	if ((w.opts.snap.branch &&
	     (rc = mev__walk_snapshots(&snaps, &nsnaps, &w.opts, w.run.repo, &w.run.stored))) ||
	    (rc = mev__walk_rewritten(&w, tags, ntags, snaps, nsnaps)))
		goto done;
	res->stored_before = w.run.stored.n;
	/* the views of the blob table begin after the reading before the walk
	 * (a table they do not find when they begin, they never see) */
	if ((rc = mev__walk_choose(&w, &work, &nwork, tags, ntags, snaps, nsnaps)) ||
	    (rc = mev__walk_check_dialects(&w, work, nwork)) ||
	    (rc = mev__walk_preread(&w, work, nwork)) || (rc = start_ahead(&w)))
		goto done;
	tw = mev__now();
	w.run.work = work;
	w.run.nwork = nwork;
	for (size_t k = 0; k < nwork; k++) {
		w.run.at = k;
		if (o->abort_now && *o->abort_now) {
			rc = mev_error_set(MEV_EINTR, "interrupted");
			goto done;
		}
		if (o->progress.stop && *o->progress.stop) {
			res->stopped = 1;
			break;
		}
		if (o->progress.progress)
			o->progress.progress(o->progress.ctx, k + 1, nwork, work[k]->name);
		if (o->walk_progress) {
			double el = mev__now() - tw;
			mev_walk_progress p = { k + 1, nwork, work[k]->name,
						el > 0 ? files_done / el : 0,
						k ? el / k * (nwork - k) : 0 };
			o->walk_progress(o->progress.ctx, &p);
		}
		if ((rc = walk_one(&w, work[k], k + 1 < nwork ? work[k + 1] : NULL, &prev)))
			goto done;
		files_done += mev_filemap_count(prev.fm);
	}
done:
	rc = mev__walk_settle_after(&w, rc);
	mev__walk_ahead_free(&w.run.ahead);
	mev__walk_deltas_clear(&w.cache.deltas);
	mev__walk_sizes_clear(&w.cache.sizes);
	mev_store_view_free(w.cache.view);
	mev__walk_bases_free(&w.cache.bases);
	res->seconds = mev__now() - t0;
	mev__walk_state_clear(&prev);
	free(work);
	MEV_VEC_FREE(&w.run.blobs);
	MEV_VEC_FREE(&w.cache.measured);
	MEV_VEC_FREE(&w.run.pending_blobs);
	mev__stored_free(&w.run.stored);
	mev_tag_list_free(tags, ntags);
	mev_tag_list_free(snaps, nsnaps);
	if (w.run.lockfd >= 0)
		close(w.run.lockfd);
	mev_store_free(w.run.store);
	mev_repo_free(w.run.repo);
	mev_release_memo_free(w.cache.memo);
	mev_pattern_pool_free(w.cache.pool);
	return rc;
}
