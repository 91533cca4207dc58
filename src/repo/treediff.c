/*
 * The entries that differ between two git trees, found the way git's own
 * diff-tree finds them: both trees read in git's entry order side by side,
 * subtrees whose ids are equal skipped without being read.  libgit2's
 * git_diff_tree_to_tree() builds iterators and a delta list for the same
 * answer at several times the cost (a third of `maintevo flow`'s time),
 * and even a git_tree costs an allocation per entry to parse; so trees are
 * read as raw objects (through libgit2's object database and its cache)
 * and their entries walked in place, as git does.
 */
#include "repo_internal.h"
#include "maintevo/error.h"
#include "util/buf.h"

#include <string.h>

typedef struct {
	git_repository *git;
	mev__tree_memo *memo;
	git_odb *odb;
	mev__tree_diff_fn fn;
	void *ctx;
	mev_buf path;
} differ;

/* libgit2's reading of a mode (git_tree_entry_filemode()): any x bit makes
 * an executable blob, an unknown mode a blob. */
static uint32_t normalize_mode(uint32_t m)
{
	if ((m & ~07777u) == GIT_FILEMODE_TREE)
		return GIT_FILEMODE_TREE;
	if (m & 0111)
		return GIT_FILEMODE_BLOB_EXECUTABLE;
	if ((m & ~07777u) == GIT_FILEMODE_COMMIT)
		return GIT_FILEMODE_COMMIT;
	if ((m & ~07777u) == GIT_FILEMODE_LINK)
		return GIT_FILEMODE_LINK;
	return GIT_FILEMODE_BLOB;
}

int mev__tree_entry_is_tree(const mev__tree_entry *e)
{
	return (e->raw_mode & 0170000u) == 0040000u;
}

/* The entry at *p of a raw tree ending at end ("<octal mode> <name>\0<20-byte
 * id>"), *p moved past it: 1, 0 at the end, MEV_ECORRUPT when malformed. */
static int next_entry(mev__tree_entry *e, const char **p, const char *end)
{
	const char *s = *p, *nul;
	uint32_t mode = 0;
	if (s == end)
		return 0;
	for (; s < end && *s != ' '; s++) {
		if (*s < '0' || *s > '7' || mode > 0777777u)
			return mev_error_set(MEV_ECORRUPT, "a tree entry with a bad mode");
		mode = mode * 8 + (uint32_t)(*s - '0');
	}
	if (s == end || !(nul = memchr(s + 1, '\0', (size_t)(end - s - 1))) || end - nul < 21)
		return mev_error_set(MEV_ECORRUPT, "a truncated tree entry");
	e->name = s + 1;
	e->name_len = (size_t)(nul - s - 1);
	e->raw_mode = mode;
	e->mode = normalize_mode(mode);
	e->id = (const git_oid *)(const void *)(nul + 1);
	*p = nul + 21;
	return 1;
}

/* git's order of tree entries: a tree sorts as its name followed by '/'. */
static int entry_cmp(const mev__tree_entry *a, const mev__tree_entry *b)
{
	size_t m = a->name_len < b->name_len ? a->name_len : b->name_len;
	int c = memcmp(a->name, b->name, m);
	unsigned char ca, cb;
	if (c)
		return c;
	ca = a->name_len > m ? (unsigned char)a->name[m] : mev__tree_entry_is_tree(a) ? '/' : 0;
	cb = b->name_len > m ? (unsigned char)b->name[m] : mev__tree_entry_is_tree(b) ? '/' : 0;
	return ca < cb ? -1 : ca > cb;
}

static int diff_trees(differ *d, git_odb_object *ot, git_odb_object *nt);

/* fn for the entry (or pair of entries) below the current path. */
static int leaf(differ *d, const mev__tree_entry *o, const mev__tree_entry *n)
{
	const mev__tree_entry *e = n ? n : o;
	size_t keep = d->path.len;
	int rc;
	if (mev__buf_put(&d->path, e->name, e->name_len) || mev__buf_puts(&d->path, ""))
		return mev_error_oom();
	rc = d->fn(d->ctx, d->path.ptr, d->path.len, o, n);
	d->path.len = keep;
	d->path.ptr[keep] = '\0';
	return rc;
}

static void gen_clear(mev__tree_gen *g)
{
	for (size_t i = 0; i < g->v.n; i++)
		git_odb_object_free(g->v.v[i]);
	MEV_VEC_FREE(&g->v);
	mev__strmap_free(&g->idx);
	memset(g, 0, sizeof *g);
	g->idx = (mev_strmap)MEV_STRMAP_INIT;
}

void mev__tree_memo_free(mev__tree_memo *m)
{
	gen_clear(&m->gen[0]);
	gen_clear(&m->gen[1]);
}

/* The raw tree `id` (NULL: none) into *out; one of the new side (`keep`)
 * is kept for the next diff. */
static int read_tree(git_odb_object **out, differ *d, const git_oid *id, int keep)
{
	mev__tree_gen *last = d->memo ? &d->memo->gen[1] : NULL;
	int64_t i;
	*out = NULL;
	if (!id)
		return 0;
	i = last && last->v.n ? mev__strmap_get(&last->idx, (const char *)id->id, 20) : -1;
	if (i >= 0)
		return git_odb_object_dup(out, last->v.v[i]) < 0 ? mev_error_oom() : 0;
	if (git_odb_read(out, d->odb, id) < 0)
		return mev__repo_git_fail(MEV_EGIT, "cannot read a tree");
	if (git_odb_object_type(*out) != GIT_OBJECT_TREE) {
		git_odb_object_free(*out);
		*out = NULL;
		return mev_error_set(MEV_ECORRUPT, "an object named as a tree is not one");
	}
	if (keep && d->memo) {
		mev__tree_gen *g = &d->memo->gen[0];
		git_odb_object *c;
		/* only a saving: a tree not kept is read again */
		if (git_odb_object_dup(&c, *out) == 0 && MEV_VEC_PUSH(&g->v, c) == 0) {
			if (mev__strmap_put(&g->idx, (const char *)id->id, 20, (uint32_t)(g->v.n - 1)))
				mev_error_clear();
		} else if (c) {
			git_odb_object_free(c);
		}
	}
	return 0;
}

/* Recurse into the subtree(s) named by o and/or n. */
static int descend(differ *d, const mev__tree_entry *o, const mev__tree_entry *n)
{
	const mev__tree_entry *e = n ? n : o;
	git_odb_object *a = NULL, *b = NULL;
	size_t keep = d->path.len;
	int rc;
	if ((rc = read_tree(&a, d, o ? o->id : NULL, 0)) || (rc = read_tree(&b, d, n ? n->id : NULL, 1)))
		goto done;
	if (mev__buf_put(&d->path, e->name, e->name_len) || mev__buf_putc(&d->path, '/')) {
		rc = mev_error_oom();
		goto done;
	}
	rc = diff_trees(d, a, b);
	d->path.len = keep;
	d->path.ptr[keep] = '\0';
done:
	git_odb_object_free(a);
	git_odb_object_free(b);
	return rc;
}

/* One side only: everything below it is added or deleted. */
static int one_side(differ *d, const mev__tree_entry *o, const mev__tree_entry *n)
{
	return mev__tree_entry_is_tree(o ? o : n) ? descend(d, o, n) : leaf(d, o, n);
}

static int diff_trees(differ *d, git_odb_object *ot, git_odb_object *nt)
{
	const char *op = ot ? git_odb_object_data(ot) : NULL, *oe = op ? op + git_odb_object_size(ot) : NULL;
	const char *np = nt ? git_odb_object_data(nt) : NULL, *ne = np ? np + git_odb_object_size(nt) : NULL;
	mev__tree_entry o, n;
	int ho = op ? next_entry(&o, &op, oe) : 0, hn = np ? next_entry(&n, &np, ne) : 0, rc = 0;
	while (!rc && (ho > 0 || hn > 0)) {
		int c;
		if (ho < 0 || hn < 0)
			return ho < 0 ? ho : hn;
		c = ho <= 0 ? 1 : hn <= 0 ? -1 : entry_cmp(&o, &n);
		if (c < 0) {
			rc = one_side(d, &o, NULL);
			ho = next_entry(&o, &op, oe);
		} else if (c > 0) {
			rc = one_side(d, NULL, &n);
			hn = next_entry(&n, &np, ne);
		} else {
			int to = mev__tree_entry_is_tree(&o), tn = mev__tree_entry_is_tree(&n);
			if (git_oid_equal(o.id, n.id) && o.mode == n.mode)
				rc = 0;
			else if (to && tn)
				rc = descend(d, &o, &n);
			else if (!to && !tn)
				rc = leaf(d, &o, &n);
			else if ((rc = one_side(d, &o, NULL)) == 0)
				rc = one_side(d, NULL, &n);
			ho = next_entry(&o, &op, oe);
			hn = next_entry(&n, &np, ne);
		}
	}
	return rc ? rc : ho < 0 ? ho : hn < 0 ? hn : 0;
}

int mev__tree_diff(git_repository *git, mev__tree_memo *memo, const git_oid *ot,
		   const git_oid *nt, mev__tree_diff_fn fn, void *ctx)
{
	differ d = { git, memo, NULL, fn, ctx, MEV_BUF_INIT };
	git_odb_object *a = NULL, *b = NULL;
	int rc;
	if (git_repository_odb(&d.odb, git) < 0)
		return mev__repo_git_fail(MEV_EGIT, "cannot open the object database");
	if (memo)
		gen_clear(&memo->gen[0]);
	if (mev__buf_puts(&d.path, ""))
		rc = mev_error_oom();
	else if ((rc = read_tree(&a, &d, ot, 0)) == 0 && (rc = read_tree(&b, &d, nt, 1)) == 0)
		rc = diff_trees(&d, a, b);
	git_odb_object_free(a);
	git_odb_object_free(b);
	git_odb_free(d.odb);
	mev__buf_free(&d.path);
	if (memo) {
		/* this diff's new side is the next one's old side */
		gen_clear(&memo->gen[1]);
		memo->gen[1] = memo->gen[0];
		memset(&memo->gen[0], 0, sizeof memo->gen[0]);
		memo->gen[0].idx = (mev_strmap)MEV_STRMAP_INIT;
	}
	return rc;
}

typedef struct {
	int (*fn)(void *ctx, const mev_oid *blob);
	void *ctx;
} blobs_ctx;

static int blob_entry(void *ctx, const char *path, size_t len, const mev__tree_entry *o,
		      const mev__tree_entry *n)
{
	blobs_ctx *b = ctx;
	mev_oid id;
	(void)path;
	(void)len;
	(void)o;
	if (!n || n->mode == GIT_FILEMODE_COMMIT)
		return 0;
	memcpy(id.id, n->id->id, 20);
	return b->fn(b->ctx, &id);
}

/* The tree of commit c into *t.  Errors: MEV_EGIT. */
static int commit_tree(git_oid *t, git_repository *git, const mev_oid *c)
{
	git_commit *commit = NULL;
	git_oid id;
	memcpy(id.id, c->id, 20);
	if (git_commit_lookup(&commit, git, &id) < 0)
		return mev__repo_git_fail(MEV_EGIT, "cannot read the tree of the commit");
	git_oid_cpy(t, git_commit_tree_id(commit));
	git_commit_free(commit);
	return 0;
}

int mev_repo_diff_blobs(mev_repo *repo, const mev_oid *from, const mev_oid *to,
			int (*fn)(void *ctx, const mev_oid *blob), void *ctx)
{
	git_oid ot, nt;
	blobs_ctx b = { fn, ctx };
	int rc;
	if ((from && (rc = commit_tree(&ot, repo->git, from))) || (rc = commit_tree(&nt, repo->git, to)))
		return rc;
	return mev__tree_diff(repo->git, &repo->trees, from ? &ot : NULL, &nt, blob_entry, &b);
}
