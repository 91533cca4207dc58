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

int mev_repo_range_cut(mev_oid **out, size_t *n, mev_range_cut *cut, mev_repo *repo,
		       const mev_oid *hide, size_t n_hide, const mev_oid *tip)
{
	cut->commits = 0;
	cut->time = INT64_MIN;
	if (repo->shallow)
		return mev__repo_shallow_range(out, n, cut, repo, hide, n_hide, tip);
	return mev_repo_range(out, n, repo, hide, n_hide, tip);
}

int mev_repo_descends(mev_repo *repo, const mev_oid *commit, const mev_oid *ancestor)
{
	git_oid c, a;
	int rc;
	if (repo->shallow) /* libgit2 1.5 would ask for the parents of the cut */
		return mev__repo_shallow_descends(repo, commit, ancestor);
	oid_in(&c, commit);
	oid_in(&a, ancestor);
	rc = git_graph_descendant_of(repo->git, &c, &a);
	return rc < 0 ? mev__repo_git_fail(MEV_EGIT, "cannot compare two commits' histories") : rc;
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
	unsigned flags;
} diff_ctx;

static int is_link(const mev__tree_entry *e)
{
	return e && e->mode == GIT_FILEMODE_LINK;
}

/* Lines added and removed between two blobs (either may be absent). */
static int churn(mev_change *ch, diff_ctx *d, const mev__tree_entry *o, const mev__tree_entry *n)
{
	git_blob *ob = NULL, *nb = NULL;
	git_patch *p = NULL;
	size_t adds = 0, dels = 0;
	int rc = 0;
	if ((o && git_blob_lookup(&ob, d->git, o->id) < 0) ||
	    (n && git_blob_lookup(&nb, d->git, n->id) < 0)) {
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

/* A changed entry of the diff as a change (submodules left out). */
static int emit(void *ctx, const char *path, size_t len, const mev__tree_entry *o,
		const mev__tree_entry *n)
{
	diff_ctx *d = ctx;
	mev_change ch = { 0 };
	int rc;
	if (o && o->mode == GIT_FILEMODE_COMMIT)
		o = NULL; /* a gitlink (the diff gives no trees) */
	if (n && n->mode == GIT_FILEMODE_COMMIT)
		n = NULL;
	if (!o && !n)
		return 0;
	if (!(ch.path = mev__arena_strndup(d->arena, path, len)))
		return mev_error_oom();
	ch.path_len = (uint32_t)len;
	ch.status = o && n ? 'M' : o ? 'D' : 'A';
	ch.link = (uint8_t)(is_link(o) || is_link(n));
	if (n)
		oid_out(&ch.oid, n->id);
	if ((d->flags & MEV_CHANGES_CHURN) && !ch.link && (rc = churn(&ch, d, o, n)))
		return rc;
	return MEV_VEC_PUSH(&d->v, ch) ? mev_error_oom() : 0;
}

static int change_cmp(const void *a, const void *b)
{
	const mev_change *x = a, *y = b;
	size_t m = x->path_len < y->path_len ? x->path_len : y->path_len;
	int c = memcmp(x->path, y->path, m);
	return c ? c : (x->path_len > y->path_len) - (x->path_len < y->path_len);
}

static int commit_tree_id(git_oid *out, git_repository *git, const mev_oid *commit)
{
	git_commit *c = NULL;
	git_oid id;
	int rc = 0;
	oid_in(&id, commit);
	if (git_commit_lookup(&c, git, &id) < 0)
		rc = mev__repo_git_fail(MEV_EGIT, "cannot read the tree of a commit");
	else
		git_oid_cpy(out, git_commit_tree_id(c));
	git_commit_free(c);
	return rc;
}

static int commit_tree(git_tree **out, git_repository *git, const mev_oid *commit)
{
	git_oid id;
	int rc = commit_tree_id(&id, git, commit);
	if (!rc && git_tree_lookup(out, git, &id) < 0)
		rc = mev__repo_git_fail(MEV_EGIT, "cannot read the tree of a commit");
	return rc;
}

int mev_commit_changes(mev_change_list *out, mev_repo *repo, const mev_oid *parent,
		       const mev_oid *commit, unsigned flags)
{
	git_oid ot, nt;
	diff_ctx d = { 0 };
	int rc;

	memset(out, 0, sizeof *out);
	d.git = repo->git;
	d.flags = flags;
	d.arena = calloc(1, sizeof *d.arena);
	if (!d.arena)
		return mev_error_oom();
	out->mem_ = d.arena;
	if ((parent && (rc = commit_tree_id(&ot, repo->git, parent))) ||
	    (rc = commit_tree_id(&nt, repo->git, commit)))
		goto done;
	if ((rc = mev__tree_diff(repo->git, NULL, parent ? &ot : NULL, &nt, emit, &d)))
		goto done;
	if (d.v.n > 1)
		qsort(d.v.v, d.v.n, sizeof *d.v.v, change_cmp);
	out->v = d.v.v;
	out->n = d.v.n;
	d.v.v = NULL;
done:
	MEV_VEC_FREE(&d.v);
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

int mev_commit_is_dir(mev_repo *repo, const mev_oid *commit, const char *path, size_t len)
{
	git_tree *t = NULL;
	char name[256];
	size_t pos = 0;
	int rc, kind = 0;
	if (!len || path[0] == '/')
		return 2;
	if ((rc = commit_tree(&t, repo->git, commit)))
		return rc;
	for (;;) {
		const char *slash = memchr(path + pos, '/', len - pos);
		size_t e = slash ? (size_t)(slash - path) : len, cl = e - pos;
		const git_tree_entry *en;
		git_filemode_t m;
		if (!cl || cl >= sizeof name || (cl == 1 && path[pos] == '.') ||
		    (cl == 2 && path[pos] == '.' && path[pos + 1] == '.')) {
			kind = 2; /* "//", ".", ".." or a long name: resolve it in a whole tree */
			break;
		}
		memcpy(name, path + pos, cl);
		name[cl] = '\0';
		if (!(en = git_tree_entry_byname(t, name)))
			break; /* absent */
		m = git_tree_entry_filemode(en);
		if (m == GIT_FILEMODE_LINK) {
			kind = 2;
			break;
		}
		if (e == len) {
			kind = m == GIT_FILEMODE_TREE || m == GIT_FILEMODE_COMMIT;
			break;
		}
		if (m != GIT_FILEMODE_TREE)
			break; /* a file or a submodule with a path below it */
		{
			git_tree *sub = NULL;
			if (git_tree_lookup(&sub, repo->git, git_tree_entry_id(en)) < 0) {
				kind = mev__repo_git_fail(MEV_EGIT, "cannot read a tree");
				break;
			}
			git_tree_free(t);
			t = sub;
		}
		pos = e + 1;
		if (pos == len)
			break; /* a trailing '/' (the directory test never asks one) */
	}
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

int mev_repo_trim_cache(mev_repo *repo, size_t bytes)
{
	ssize_t used = 0, allowed = 0;
	git_repository *g = NULL;
	git_libgit2_opts(GIT_OPT_GET_CACHED_MEMORY, &used, &allowed);
	if (used <= (ssize_t)bytes)
		return 0;
	if (git_repository_open_ext(&g, repo->path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
		return mev__repo_git_fail(MEV_EGIT, "cannot open the repository again");
	mev__tree_memo_free(&repo->trees); /* read through the handle that goes */
	git_repository_free(repo->git);
	repo->git = g;
	return 0;
}

void mev_commit_cache_limit(size_t bytes)
{
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)bytes);
	/* trees over 4 kB (its default limit) are never cached: a large
	 * directory such as U-Boot's board/ would be inflated again for every
	 * path looked up below it */
	git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_TREE, (size_t)1 << 20);
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
 * windows: they cost it 5% more CPU.)  Blobs are read with pread() by
 * src/git/packread.c now, so the windows hold trees and commits; left
 * unbounded they still put U-Boot's walk at 662 MB instead of 513.
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

/*
 * .mailmap content without what follows a NUL byte on its line: git reads
 * a work tree's .mailmap line by line as C strings, so a NUL ends the line
 * for it (the lines after it still count), while libgit2
 * refuses the whole buffer ("cannot read .mailmap" for every release from
 * then on).  Following git keeps flow's folding the same as 'git log
 * --use-mailmap' (git ignores a line it cannot parse too, as libgit2 does).
 * A copy in *copy (NULL: data had no NUL and is used as it is).
 */
static int mailmap_without_nul(char **copy, size_t *copy_len, const char *data, size_t len)
{
	char *c;
	size_t n = 0;
	*copy = NULL;
	*copy_len = len;
	if (!memchr(data, '\0', len))
		return 0;
	if (!(c = malloc(len)))
		return mev_error_oom();
	for (size_t i = 0; i < len; i++) {
		if (data[i] == '\0')
			while (i + 1 < len && data[i + 1] != '\n')
				i++;
		else
			c[n++] = data[i];
	}
	*copy = c;
	*copy_len = n;
	return 0;
}

int mev_mailmap_new(mev_mailmap **out, const char *data, size_t len)
{
	mev_mailmap *m = calloc(1, sizeof *m);
	char *copy = NULL;
	int rc;
	*out = NULL;
	if (!m)
		return mev_error_oom();
	if (data && (rc = mailmap_without_nul(&copy, &len, data, len))) {
		free(m);
		return rc;
	}
	if ((data ? git_mailmap_from_buffer(&m->mm, copy ? copy : data, len) : git_mailmap_new(&m->mm)) <
	    0) {
		free(copy);
		free(m);
		return mev__repo_git_fail(MEV_EGIT, "cannot read .mailmap");
	}
	free(copy);
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
