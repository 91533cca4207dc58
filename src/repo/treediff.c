/*
 * The entries that differ between two git trees, found the way git's own
 * diff-tree finds them: both trees read in git's entry order side by side,
 * subtrees whose ids are equal skipped without being read.  libgit2's
 * git_diff_tree_to_tree() builds iterators and a delta list for the same
 * answer at several times the cost (a third of `maintevo flow`'s time).
 */
#include "repo_internal.h"
#include "maintevo/error.h"
#include "util/buf.h"

#include <string.h>

typedef struct {
	git_repository *git;
	mev__tree_diff_fn fn;
	void *ctx;
	mev_buf path;
} differ;

static int is_tree(const git_tree_entry *e) { return git_tree_entry_type(e) == GIT_OBJECT_TREE; }

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

static int diff_trees(differ *d, const git_tree *ot, const git_tree *nt);

/* fn for the entry (or pair of entries) named `name` below the current path. */
static int leaf(differ *d, const git_tree_entry *o, const git_tree_entry *n)
{
	size_t keep = d->path.len;
	int rc;
	if (mev__buf_puts(&d->path, git_tree_entry_name(n ? n : o)))
		return mev_error_oom();
	rc = d->fn(d->ctx, d->path.ptr, d->path.len, o, n);
	d->path.len = keep;
	d->path.ptr[keep] = '\0';
	return rc;
}

/* Recurse into the subtree(s) named by o and/or n. */
static int descend(differ *d, const git_tree_entry *o, const git_tree_entry *n)
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
static int one_side(differ *d, const git_tree_entry *o, const git_tree_entry *n)
{
	return is_tree(o ? o : n) ? descend(d, o, n) : leaf(d, o, n);
}

static int diff_trees(differ *d, const git_tree *ot, const git_tree *nt)
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
			else if (!is_tree(o) && !is_tree(n))
				rc = leaf(d, o, n);
			else if ((rc = one_side(d, o, NULL)) == 0)
				rc = one_side(d, NULL, n);
		}
	}
	return rc;
}

int mev__tree_diff(git_repository *git, const git_tree *ot, const git_tree *nt,
		   mev__tree_diff_fn fn, void *ctx)
{
	differ d = { git, fn, ctx, MEV_BUF_INIT };
	int rc = mev__buf_puts(&d.path, "") ? mev_error_oom() : diff_trees(&d, ot, nt);
	mev__buf_free(&d.path);
	return rc;
}
