/* Commits through libgit2: ranges, headers, the paths a commit changes, .mailmap. */
#include "repo_internal.h"
#include "maintevo/commit.h"
#include "maintevo/error.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

static void oid_in(git_oid *g, const mev_oid *m) { memcpy(g->id, m->id, 20); }
static void oid_out(mev_oid *m, const git_oid *g) { memcpy(m->id, g->id, 20); }

int mev_repo_range(mev_oid **out, size_t *n, mev_repo *repo, const mev_oid *hide, size_t n_hide,
		   const mev_oid *tip)
{
	git_revwalk *w = NULL;
	git_oid id;
	MEV_VEC(mev_oid) v = { 0 };
	int rc = 0, g;

	*out = NULL;
	*n = 0;
	if (git_revwalk_new(&w, repo->git) < 0)
		return mev__repo_git_fail(MEV_EGIT, "cannot walk the history");
	git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	oid_in(&id, tip);
	if (git_revwalk_push(w, &id) < 0) {
		rc = mev__repo_git_fail(MEV_EGIT, "cannot walk the history");
		goto done;
	}
	for (size_t i = 0; i < n_hide; i++) {
		oid_in(&id, &hide[i]);
		if (git_revwalk_hide(w, &id) < 0) {
			rc = mev__repo_git_fail(MEV_EGIT, "cannot walk the history");
			goto done;
		}
	}
	while ((g = git_revwalk_next(&id, w)) == 0) {
		mev_oid m;
		oid_out(&m, &id);
		if (MEV_VEC_PUSH(&v, m)) {
			rc = mev_error_oom();
			goto done;
		}
	}
	if (g != GIT_ITEROVER)
		rc = mev__repo_git_fail(MEV_EGIT, "cannot walk the history");
done:
	git_revwalk_free(w);
	if (rc) {
		MEV_VEC_FREE(&v);
		return rc;
	}
	*out = v.v;
	*n = v.n;
	return 0;
}

static int sig_copy(mev_signature *s, const git_signature *g)
{
	s->name = strdup(g && g->name ? g->name : "");
	s->email = strdup(g && g->email ? g->email : "");
	s->time = g ? (int64_t)g->when.time : 0;
	s->offset = g ? g->when.offset : 0;
	return s->name && s->email ? 0 : mev_error_oom();
}

int mev_commit_read(mev_commit *out, mev_repo *repo, const mev_oid *id)
{
	git_commit *c = NULL;
	git_oid g;
	const char *msg;
	char hex[41];
	int rc = 0;

	memset(out, 0, sizeof *out);
	oid_in(&g, id);
	if (git_commit_lookup(&c, repo->git, &g) < 0) {
		mev_oid_fmt(hex, id);
		return mev__repo_git_fail(MEV_EGIT, hex);
	}
	out->id = *id;
	oid_out(&out->tree, git_commit_tree_id(c));
	out->n_parents = git_commit_parentcount(c);
	out->parents = calloc(out->n_parents + 1, sizeof *out->parents);
	if (!out->parents) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t i = 0; i < out->n_parents; i++)
		oid_out(&out->parents[i], git_commit_parent_id(c, (unsigned)i));
	if ((rc = sig_copy(&out->author, git_commit_author(c))) ||
	    (rc = sig_copy(&out->committer, git_commit_committer(c))))
		goto done;
	msg = git_commit_message_raw(c);
	out->message_len = msg ? strlen(msg) : 0;
	out->message = malloc(out->message_len + 1);
	if (!out->message) {
		rc = mev_error_oom();
		goto done;
	}
	memcpy(out->message, msg ? msg : "", out->message_len + 1);
done:
	git_commit_free(c);
	return rc;
}

void mev_commit_clear(mev_commit *c)
{
	if (!c)
		return;
	free(c->parents);
	free(c->author.name);
	free(c->author.email);
	free(c->committer.name);
	free(c->committer.email);
	free(c->message);
	memset(c, 0, sizeof *c);
}

/* --- the paths a commit changes ------------------------------------------------ */

typedef struct {
	git_repository *git;
	mev_arena *arena;
	MEV_VEC(mev_change) v;
	mev_buf path;
	unsigned flags;
	int rc;
} diff_ctx;

static int is_tree(const git_tree_entry *e) { return git_tree_entry_type(e) == GIT_OBJECT_TREE; }
static int is_blob(const git_tree_entry *e) { return git_tree_entry_type(e) == GIT_OBJECT_BLOB; }
static int is_link(const git_tree_entry *e)
{
	return e && git_tree_entry_filemode(e) == GIT_FILEMODE_LINK;
}

/* git's order of tree entries: a tree sorts as its name followed by '/'. */
static int entry_cmp(const git_tree_entry *a, const git_tree_entry *b)
{
	const char *na = git_tree_entry_name(a), *nb = git_tree_entry_name(b);
	size_t la = strlen(na), lb = strlen(nb), m = la < lb ? la : lb;
	int c = memcmp(na, nb, m);
	unsigned char ca, cb;
	if (c)
		return c;
	ca = la > m ? (unsigned char)na[m] : is_tree(a) ? '/' : 0;
	cb = lb > m ? (unsigned char)nb[m] : is_tree(b) ? '/' : 0;
	return ca < cb ? -1 : ca > cb;
}

/* Lines added and removed between two blobs (either may be absent). */
static int churn(mev_change *ch, diff_ctx *d, const git_tree_entry *o, const git_tree_entry *n)
{
	git_blob *ob = NULL, *nb = NULL;
	git_patch *p = NULL;
	size_t adds = 0, dels = 0;
	int rc = 0;
	if ((o && git_blob_lookup(&ob, d->git, git_tree_entry_id(o)) < 0) ||
	    (n && git_blob_lookup(&nb, d->git, git_tree_entry_id(n)) < 0)) {
		rc = mev__repo_git_fail(MEV_ENOTFOUND, "cannot read a blob to count its lines");
		goto done;
	}
	if (git_patch_from_blobs(&p, ob, NULL, nb, NULL, NULL) < 0 ||
	    git_patch_line_stats(NULL, &adds, &dels, p) < 0) {
		rc = mev__repo_git_fail(MEV_EGIT, "cannot count the lines changed");
		goto done;
	}
	ch->added = (uint32_t)adds;
	ch->removed = (uint32_t)dels;
done:
	git_patch_free(p);
	git_blob_free(ob);
	git_blob_free(nb);
	return rc;
}

static int emit(diff_ctx *d, const git_tree_entry *o, const git_tree_entry *n, char status)
{
	mev_change ch = { 0 };
	const char *name = git_tree_entry_name(n ? n : o);
	size_t keep = d->path.len;
	int rc;
	if (mev__buf_puts(&d->path, name))
		return mev_error_oom();
	ch.path = mev__arena_strndup(d->arena, d->path.ptr, d->path.len);
	d->path.len = keep;
	d->path.ptr[keep] = '\0';
	if (!ch.path)
		return mev_error_oom();
	ch.path_len = (uint32_t)strlen(ch.path);
	ch.status = status;
	ch.link = (uint8_t)(is_link(o) || is_link(n));
	if ((d->flags & MEV_CHANGES_CHURN) && !ch.link && (rc = churn(&ch, d, o, n)))
		return rc;
	return MEV_VEC_PUSH(&d->v, ch) ? mev_error_oom() : 0;
}

static int diff_trees(diff_ctx *d, const git_tree *ot, const git_tree *nt);

/* Recurse into the subtree(s) named by o and/or n. */
static int descend(diff_ctx *d, const git_tree_entry *o, const git_tree_entry *n)
{
	git_tree *a = NULL, *b = NULL;
	size_t keep = d->path.len;
	int rc = 0;
	if ((o && git_tree_lookup(&a, d->git, git_tree_entry_id(o)) < 0) ||
	    (n && git_tree_lookup(&b, d->git, git_tree_entry_id(n)) < 0)) {
		rc = mev__repo_git_fail(MEV_EGIT, "cannot read a tree");
		goto done;
	}
	if (mev__buf_puts(&d->path, git_tree_entry_name(n ? n : o)) || mev__buf_putc(&d->path, '/')) {
		rc = mev_error_oom();
		goto done;
	}
	rc = diff_trees(d, a, b);
	d->path.len = keep;
	d->path.ptr[keep] = '\0';
done:
	git_tree_free(a);
	git_tree_free(b);
	return rc;
}

/* One side only: everything below it is added or deleted. */
static int one_side(diff_ctx *d, const git_tree_entry *o, const git_tree_entry *n)
{
	const git_tree_entry *e = o ? o : n;
	if (is_tree(e))
		return descend(d, o, n);
	if (is_blob(e))
		return emit(d, o, n, o ? 'D' : 'A');
	return 0; /* a submodule */
}

static int diff_trees(diff_ctx *d, const git_tree *ot, const git_tree *nt)
{
	size_t on = ot ? git_tree_entrycount(ot) : 0, nn = nt ? git_tree_entrycount(nt) : 0;
	size_t i = 0, j = 0;
	int rc = 0;
	while (!rc && (i < on || j < nn)) {
		const git_tree_entry *o = i < on ? git_tree_entry_byindex(ot, i) : NULL;
		const git_tree_entry *n = j < nn ? git_tree_entry_byindex(nt, j) : NULL;
		int c = !o ? 1 : !n ? -1 : entry_cmp(o, n);
		if (c < 0) {
			rc = one_side(d, o, NULL);
			i++;
		} else if (c > 0) {
			rc = one_side(d, NULL, n);
			j++;
		} else {
			i++;
			j++;
			if (git_oid_equal(git_tree_entry_id(o), git_tree_entry_id(n)) &&
			    git_tree_entry_filemode(o) == git_tree_entry_filemode(n))
				continue;
			if (is_tree(o) && is_tree(n))
				rc = descend(d, o, n);
			else if (is_blob(o) && is_blob(n))
				rc = emit(d, o, n, 'M');
			else if ((rc = one_side(d, o, NULL)) == 0)
				rc = one_side(d, NULL, n);
		}
	}
	return rc;
}

static int change_cmp(const void *a, const void *b)
{
	const mev_change *x = a, *y = b;
	size_t m = x->path_len < y->path_len ? x->path_len : y->path_len;
	int c = memcmp(x->path, y->path, m);
	return c ? c : (x->path_len > y->path_len) - (x->path_len < y->path_len);
}

static int commit_tree(git_tree **out, git_repository *git, const mev_oid *commit)
{
	git_commit *c = NULL;
	git_oid id;
	int rc = 0;
	oid_in(&id, commit);
	if (git_commit_lookup(&c, git, &id) < 0 || git_commit_tree(out, c) < 0)
		rc = mev__repo_git_fail(MEV_EGIT, "cannot read the tree of a commit");
	git_commit_free(c);
	return rc;
}

int mev_commit_changes(mev_change_list *out, mev_repo *repo, const mev_oid *parent,
		       const mev_oid *commit, unsigned flags)
{
	git_tree *ot = NULL, *nt = NULL;
	diff_ctx d = { 0 };
	int rc;

	memset(out, 0, sizeof *out);
	d.git = repo->git;
	d.flags = flags;
	d.arena = calloc(1, sizeof *d.arena);
	if (!d.arena)
		return mev_error_oom();
	out->mem_ = d.arena;
	if ((parent && (rc = commit_tree(&ot, repo->git, parent))) ||
	    (rc = commit_tree(&nt, repo->git, commit)))
		goto done;
	if (mev__buf_puts(&d.path, "")) {
		rc = mev_error_oom();
		goto done;
	}
	if ((rc = diff_trees(&d, ot, nt)))
		goto done;
	if (d.v.n > 1)
		qsort(d.v.v, d.v.n, sizeof *d.v.v, change_cmp);
	out->v = d.v.v;
	out->n = d.v.n;
	d.v.v = NULL;
done:
	MEV_VEC_FREE(&d.v);
	mev__buf_free(&d.path);
	git_tree_free(ot);
	git_tree_free(nt);
	return rc;
}

void mev_change_list_free(mev_change_list *l)
{
	if (!l)
		return;
	free(l->v);
	if (l->mem_) {
		mev__arena_free(l->mem_);
		free(l->mem_);
	}
	memset(l, 0, sizeof *l);
}

int mev_commit_path_kind(mev_repo *repo, const mev_oid *commit, const char *path)
{
	git_tree *t = NULL;
	git_tree_entry *e = NULL;
	int rc, kind = 0;
	if ((rc = commit_tree(&t, repo->git, commit)))
		return rc;
	if (git_tree_entry_bypath(&e, t, path) == 0) {
		git_filemode_t m = git_tree_entry_filemode(e);
		kind = m == GIT_FILEMODE_TREE ? MEV_KIND_DIR : m == GIT_FILEMODE_LINK ? MEV_KIND_LINK
		       : m == GIT_FILEMODE_COMMIT ? MEV_KIND_GITLINK : MEV_KIND_FILE;
	}
	git_tree_entry_free(e);
	git_tree_free(t);
	return kind;
}

int mev_commit_read_file(char **data, size_t *len, mev_repo *repo, const mev_oid *commit,
			 const char *path)
{
	git_tree *t = NULL;
	git_tree_entry *e = NULL;
	mev_oid blob;
	int rc;
	*data = NULL;
	*len = 0;
	if ((rc = commit_tree(&t, repo->git, commit)))
		return rc;
	if (git_tree_entry_bypath(&e, t, path) != 0 || git_tree_entry_type(e) != GIT_OBJECT_BLOB) {
		git_error_clear();
		rc = MEV_ENOTFOUND;
		goto done;
	}
	oid_out(&blob, git_tree_entry_id(e));
	rc = mev_repo_read_blob(data, len, repo, &blob);
done:
	git_tree_entry_free(e);
	git_tree_free(t);
	return rc;
}

void mev_commit_cache_limit(size_t bytes)
{
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)bytes);
}

/*
 * libgit2 maps pack files in windows of 1 GiB, up to 8 GiB, and every page
 * a read touched stays in the resident set: reading the five Linux
 * releases' blobs mapped 363 MB of their 371 MB pack, more than half of
 * the walk's 640 MB peak.  Windows of 64 MB, at most 256 MB of them (320
 * MB left the walk at 540-580 MB, with its threads).  The price: U-Boot's
 * walk (a 387 MB pack) maps windows again and faults their pages in: 2.5
 * times the page faults, about +1 s system time of 12 s CPU (+0.7 s with
 * 320 MB).  The object cache (256 MB, one per repository
 * handle) holds the parsed trees of every release diffed; a walk reads
 * those of the last release again: 64 MB keeps them (16 MB made U-Boot's
 * walk with candidates parse them again: 1.5 s more CPU of 27).  (The
 * patch flow reads commits across the history and keeps libgit2's
 * windows: they cost it 5% more CPU.)
 */
void mev_repo_bound_memory(void)
{
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, (size_t)64 << 20);
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, (size_t)256 << 20);
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)64 << 20);
}

/* --- .mailmap ------------------------------------------------------------------ */

struct mev_mailmap {
	git_mailmap *mm;
};

int mev_mailmap_new(mev_mailmap **out, const char *data, size_t len)
{
	mev_mailmap *m = calloc(1, sizeof *m);
	*out = NULL;
	if (!m)
		return mev_error_oom();
	if ((data ? git_mailmap_from_buffer(&m->mm, data, len) : git_mailmap_new(&m->mm)) < 0) {
		free(m);
		return mev__repo_git_fail(MEV_EGIT, "cannot read .mailmap");
	}
	*out = m;
	return 0;
}

void mev_mailmap_free(mev_mailmap *mm)
{
	if (!mm)
		return;
	git_mailmap_free(mm->mm);
	free(mm);
}

void mev_mailmap_resolve(const char **real_name, const char **real_email, const mev_mailmap *mm,
			 const char *name, const char *email)
{
	*real_name = name;
	*real_email = email;
	if (mm && git_mailmap_resolve(real_name, real_email, mm->mm, name, email) < 0) {
		git_error_clear();
		*real_name = name;
		*real_email = email;
	}
}
