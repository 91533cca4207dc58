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

#include <stdlib.h>
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

/* A raw tree read: its bytes, and what holds them (the memo: neither). */
typedef struct {
	const char *data;
	size_t len;
	mev_buf own;
	git_odb_object *obj;
} raw_tree;

static int diff_trees(differ *d, const raw_tree *ot, const raw_tree *nt);

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

void mev__tree_memo_free(mev__tree_memo *m)
{
	mev__blob_gen_free(&m->gen[0]);
	mev__blob_gen_free(&m->gen[1]);
	if (m->rd) {
		mev__pack_reader_free(m->rd);
		free(m->rd);
		m->rd = NULL;
	}
}

static void raw_free(raw_tree *t)
{
	mev__buf_free(&t->own);
	git_odb_object_free(t->obj);
}

/* Keep t (of the new side) for the next diff: only a saving. */
static void keep_tree(mev__blob_gen *g, const git_oid *id, raw_tree *t)
{
	mev_buf b = t->own;
	if (!b.ptr && mev__buf_put(&b, t->data, t->len))
		return;
	if (MEV_VEC_PUSH(&g->v, b)) {
		if (!t->own.ptr)
			mev__buf_free(&b);
		return;
	}
	memset(&t->own, 0, sizeof t->own); /* the memo's now */
	t->data = b.ptr;
	if (mev__strmap_put(&g->idx, (const char *)id->id, 20, (uint32_t)(g->v.n - 1)))
		mev_error_clear();
}

/* The raw tree `id` (NULL: none) into *out: from the last diff's new
 * side, the packs or libgit2; one of the new side (`keep`) is kept for
 * the next diff. */
static int read_tree(raw_tree *out, differ *d, const git_oid *id, int keep)
{
	mev__blob_gen *last = d->memo ? &d->memo->gen[1] : NULL;
	const unsigned char *p;
	mev_oid oid;
	int64_t i;
	memset(out, 0, sizeof *out);
	if (!id)
		return 0;
	i = last && last->v.n ? mev__strmap_get(&last->idx, (const char *)id->id, 20) : -1;
	if (i >= 0) {
		out->data = last->v.v[i].ptr;
		out->len = last->v.v[i].len;
		return 0;
	}
	memcpy(oid.id, id->id, 20);
	if (d->memo && d->memo->rd && mev__pack_read_tree(d->memo->rd, &oid, &p, &out->len)) {
		if (mev__buf_put(&out->own, p, out->len) || mev__buf_grow(&out->own, 1))
			return mev_error_oom();
		out->data = out->own.ptr;
	} else {
		if (git_odb_read(&out->obj, d->odb, id) < 0)
			return mev__repo_git_fail(MEV_EGIT, "cannot read a tree");
		if (git_odb_object_type(out->obj) != GIT_OBJECT_TREE) {
			git_odb_object_free(out->obj);
			out->obj = NULL;
			return mev_error_set(MEV_ECORRUPT, "an object named as a tree is not one");
		}
		out->data = git_odb_object_data(out->obj);
		out->len = git_odb_object_size(out->obj);
	}
	if (keep && d->memo)
		keep_tree(&d->memo->gen[0], id, out);
	return 0;
}

/* Recurse into the subtree(s) named by o and/or n. */
static int descend(differ *d, const mev__tree_entry *o, const mev__tree_entry *n)
{
	const mev__tree_entry *e = n ? n : o;
	raw_tree a, b;
	size_t keep = d->path.len;
	int rc;
	memset(&b, 0, sizeof b);
	if ((rc = read_tree(&a, d, o ? o->id : NULL, 0)) || (rc = read_tree(&b, d, n ? n->id : NULL, 1)))
		goto done;
	if (mev__buf_put(&d->path, e->name, e->name_len) || mev__buf_putc(&d->path, '/')) {
		rc = mev_error_oom();
		goto done;
	}
	rc = diff_trees(d, o ? &a : NULL, n ? &b : NULL);
	d->path.len = keep;
	d->path.ptr[keep] = '\0';
done:
	raw_free(&a);
	raw_free(&b);
	return rc;
}

/* One side only: everything below it is added or deleted. */
static int one_side(differ *d, const mev__tree_entry *o, const mev__tree_entry *n)
{
	return mev__tree_entry_is_tree(o ? o : n) ? descend(d, o, n) : leaf(d, o, n);
}

static int diff_trees(differ *d, const raw_tree *ot, const raw_tree *nt)
{
	const char *op = ot ? ot->data : NULL, *oe = op ? op + ot->len : NULL;
	const char *np = nt ? nt->data : NULL, *ne = np ? np + nt->len : NULL;
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
	raw_tree a, b;
	int rc;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	if (git_repository_odb(&d.odb, git) < 0)
		return mev__repo_git_fail(MEV_EGIT, "cannot open the object database");
	if (memo) {
		mev__blob_gen_free(&memo->gen[0]);
		if (!memo->rd && memo->packs && (memo->rd = malloc(sizeof *memo->rd)))
			mev__pack_reader_init(memo->rd, memo->packs);
	}
	if (mev__buf_puts(&d.path, ""))
		rc = mev_error_oom();
	else if ((rc = read_tree(&a, &d, ot, 0)) == 0 && (rc = read_tree(&b, &d, nt, 1)) == 0)
		rc = diff_trees(&d, ot ? &a : NULL, nt ? &b : NULL);
	raw_free(&a);
	raw_free(&b);
	git_odb_free(d.odb);
	mev__buf_free(&d.path);
	if (memo) {
		/* this diff's new side is the next one's old side */
		mev__blob_gen_free(&memo->gen[1]);
		memo->gen[1] = memo->gen[0];
		memset(&memo->gen[0], 0, sizeof memo->gen[0]);
		memo->gen[0].idx = (mev_strmap)MEV_STRMAP_INIT;
	}
	return rc;
}

/* --- a diff recorded, to be replayed -------------------------------------- */

/* Per entry, in the diff's order: u8 sides (1: old, 2: new), per side its
 * raw mode (4 bytes) and id (20), u32 the path's length, the path and a
 * NUL. */
struct mev_tree_delta {
	mev_oid from, to, commit; /* the trees diffed; the commit of `to` */
	mev_buf rec;
	int rc;                   /* set when out of memory: the record is not whole */
};

static unsigned char *put_side(unsigned char *h, const mev__tree_entry *e)
{
	memcpy(h, &e->raw_mode, 4);
	memcpy(h + 4, e->id->id, 20);
	return h + 24;
}

/* Entry (o, n) at `path` appended to d's record. */
static void record(mev_tree_delta *d, const char *path, size_t len, const mev__tree_entry *o,
		   const mev__tree_entry *n)
{
	unsigned char head[1 + 2 * 24 + 4], *h = head;
	uint32_t l = (uint32_t)len;
	size_t at = d->rec.len;
	if (d->rc)
		return;
	*h++ = (unsigned char)((o ? 1 : 0) | (n ? 2 : 0));
	if (o)
		h = put_side(h, o);
	if (n)
		h = put_side(h, n);
	memcpy(h, &l, 4);
	h += 4;
	if (len > UINT32_MAX || mev__buf_put(&d->rec, head, (size_t)(h - head)) ||
	    mev__buf_put(&d->rec, path, len) || mev__buf_putc(&d->rec, '\0')) {
		d->rc = MEV_ENOMEM; /* not kept: the walk diffs this release itself */
		d->rec.len = at;
	}
}

static const unsigned char *get_side(mev__tree_entry *e, const unsigned char *p)
{
	memcpy(&e->raw_mode, p, 4);
	e->mode = normalize_mode(e->raw_mode);
	e->id = (const git_oid *)(const void *)(p + 4);
	return p + 24;
}

int mev__tree_delta_replay(const mev_tree_delta *d, mev__tree_diff_fn fn, void *ctx)
{
	const unsigned char *p = (const unsigned char *)d->rec.ptr, *end = p + d->rec.len;
	int rc = 0;
	while (!rc && p < end) {
		mev__tree_entry o, n;
		unsigned sides = *p++;
		uint32_t len;
		const char *path, *slash;
		if (sides & 1)
			p = get_side(&o, p);
		if (sides & 2)
			p = get_side(&n, p);
		memcpy(&len, p, 4);
		path = (const char *)p + 4;
		p += 4 + (size_t)len + 1;
		slash = memrchr(path, '/', len);
		o.name = n.name = slash ? slash + 1 : path;
		o.name_len = n.name_len = len - (size_t)(o.name - path);
		rc = fn(ctx, path, len, sides & 1 ? &o : NULL, sides & 2 ? &n : NULL);
	}
	return rc;
}

int mev__tree_delta_matches(const mev_tree_delta *d, const mev_oid *from, const mev_oid *commit)
{
	return d && !d->rc && mev_oid_equal(&d->from, from) && mev_oid_equal(&d->commit, commit);
}

const mev_oid *mev__tree_delta_to(const mev_tree_delta *d) { return &d->to; }

const mev_oid *mev_tree_delta_commit(const mev_tree_delta *d) { return &d->commit; }

size_t mev_tree_delta_size(const mev_tree_delta *d)
{
	return d ? sizeof *d + d->rec.cap : 0;
}

void mev_tree_delta_free(mev_tree_delta *d)
{
	if (!d)
		return;
	mev__buf_free(&d->rec);
	free(d);
}

/* --- the blobs of a diff ---------------------------------------------------- */

typedef struct {
	int (*fn)(void *ctx, const mev_oid *blob);
	void *ctx;
	mev_tree_delta *rec;
} blobs_ctx;

static int blob_entry(void *ctx, const char *path, size_t len, const mev__tree_entry *o,
		      const mev__tree_entry *n)
{
	blobs_ctx *b = ctx;
	mev_oid id;
	if (b->rec)
		record(b->rec, path, len, o, n);
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

int mev_repo_diff_record(mev_tree_delta **rec, mev_repo *repo, const mev_oid *from, const mev_oid *to,
			 int (*fn)(void *ctx, const mev_oid *blob), void *ctx)
{
	git_oid ot, nt;
	blobs_ctx b = { fn, ctx, NULL };
	int rc;
	if (rec)
		*rec = NULL;
	if ((from && (rc = commit_tree(&ot, repo->git, from))) || (rc = commit_tree(&nt, repo->git, to)) ||
	    (rc = mev__repo_tree_memo(repo)))
		return rc;
	if (rec && from && (b.rec = calloc(1, sizeof *b.rec))) {
		memcpy(b.rec->from.id, ot.id, 20);
		memcpy(b.rec->to.id, nt.id, 20);
		b.rec->commit = *to;
	}
	rc = mev__tree_diff(repo->git, &repo->trees, from ? &ot : NULL, &nt, blob_entry, &b);
	if (rc || (b.rec && b.rec->rc)) {
		mev_tree_delta_free(b.rec);
		b.rec = NULL;
	} else if (b.rec && b.rec->rec.cap > b.rec->rec.len + 256) {
		char *fit = realloc(b.rec->rec.ptr, b.rec->rec.len + 1); /* kept a while: no slack */
		if (fit) {
			b.rec->rec.ptr = fit;
			b.rec->rec.cap = b.rec->rec.len + 1;
		}
	}
	if (rec)
		*rec = b.rec;
	return rc;
}

int mev_repo_diff_blobs(mev_repo *repo, const mev_oid *from, const mev_oid *to,
			int (*fn)(void *ctx, const mev_oid *blob), void *ctx)
{
	return mev_repo_diff_record(NULL, repo, from, to, fn, ctx);
}
