/*
 * Which MAINTAINERS files a release's get_maintainer.pl reads, and in what
 * order: one mode per generation of the script (mev_rules.discover).
 */
#include "maintainers_internal.h"
#include "maintevo/error.h"
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

static int push_path(mev__path_list *l, const char *p, size_t len)
{
	char *s = strndup(p, len);
	if (!s || MEV_VEC_PUSH(l, s)) {
		free(s);
		return mev_error_oom();
	}
	return 0;
}

static int is_kind(const mev_tree *t, const char *p, int kind)
{
	return mev_tree_stat(t, p, strlen(p)) == kind;
}

static const char *base_name(const mev_tree_file *f)
{
	const char *s = memrchr(f->path, '/', f->path_len);
	return s ? s + 1 : f->path;
}

/*
 * File::Find's order of two paths (no_chdir or not, links not followed): in each folder
 * the non-folders first, then each subfolder in turn, depth first.  Names
 * come in readdir() order, which depends on the file system; maintevo uses
 * byte order, the order `git ls-files` and most checkouts show.
 */
int mev_maint_find_order(const char *a, const char *b)
{
	for (;;) {
		const char *sa = strchr(a, '/'), *sb = strchr(b, '/');
		size_t la = sa ? (size_t)(sa - a) : strlen(a), lb = sb ? (size_t)(sb - b) : strlen(b);
		int c;
		if (!sa != !sb)
			return sa ? 1 : -1;   /* a file of this folder before any subfolder */
		c = memcmp(a, b, la < lb ? la : lb);
		if (c || la != lb || !sa)
			return c ? c : la < lb ? -1 : la > lb;
		a = sa + 1;
		b = sb + 1;
	}
}

int mev_maint_found_by_find(size_t *first, const mev_rules *r, const mev_maint_source *src,
			    size_t n, const char *path, size_t len)
{
	const char *dir, *slash = memrchr(path, '/', len), *base = slash ? slash + 1 : path;
	size_t dl, h = 0;
	int prefix = 0;
	*first = 0;
	if (r->discover == MEV_DISCOVER_SUBDIR) {
		/* ./MAINTAINERS, then File::Find of find_dir, known to have been
		 * entered (it is no link) only when it found something */
		*first = n && strcmp(src[0].path, "MAINTAINERS") == 0;
		if (!r->find_dir[0] || n < 2 || !*first)
			return 0;
		dir = r->find_dir;
		prefix = 1;
		h = 1;
	} else if ((r->discover == MEV_DISCOVER_DIR_FMF && r->find_files) ||
		   (r->discover == MEV_DISCOVER_PATH && r->find_files &&
		    (strcmp(r->mpath, ".") == 0 || strcmp(r->mpath, "./") == 0))) {
		dir = "";
		while (h < n && strncmp(src[h].path, "MAINTAINERS/", 12) == 0)
			h++; /* the ./MAINTAINERS folder's listing comes first */
	} else {
		return 0;
	}
	*first = h;
	dl = strlen(dir);
	if (!slash || (len >= 12 && memcmp(path, "MAINTAINERS/", 12) == 0))
		return 0; /* ./MAINTAINERS itself, or in its folder: not File::Find's */
	if (dl && (len <= dl || memcmp(path, dir, dl) != 0 || path[dl] != '/'))
		return 0;
	if ((size_t)(path + len - base) < 11 || memcmp(base, "MAINTAINERS", 11) != 0)
		return 0;
	return prefix || (size_t)(path + len - base) == 11;
}

static int find_order(const void *pa, const void *pb)
{
	return mev_maint_find_order(*(char *const *)pa, *(char *const *)pb);
}

/*
 * File::Find below `dir` ("" = root): the entries whose base name is
 * "MAINTAINERS" (exact) or starts with it (prefix), in File::Find's order.
 * Links are not followed into folders; a link to a file counts where the
 * script's -f test follows it (exact), and any link where the script opens
 * what it found (prefix: a link that leads nowhere is skipped with a note).
 */
static int find_files_named(mev__path_list *l, mev_maint *m, const mev_tree *t, const char *dir,
			    int prefix)
{
	size_t n = mev_tree_count(t), dl = strlen(dir), first = l->n;
	const mev_tree_file *fs = mev_tree_files(t);
	for (size_t i = 0; i < n; i++) {
		const mev_tree_file *f = &fs[i];
		const char *b = base_name(f);
		if (dl && (f->path_len <= dl || memcmp(f->path, dir, dl) || f->path[dl] != '/'))
			continue;
		if (prefix ? strncmp(b, "MAINTAINERS", 11) : strcmp(b, "MAINTAINERS"))
			continue;
		if (f->kind == MEV_KIND_LINK && !f->link_file) {
			if (prefix)
				mev__maint_diag_add(m, UINT32_MAX, 0,
						    "'%s' is a link to nothing readable; skipped", f->path);
			continue;
		}
		if (push_path(l, f->path, f->path_len))
			return MEV_ENOMEM;
	}
	if (l->n - first > 1) /* l->v may be NULL when nothing was found */
		qsort(l->v + first, l->n - first, sizeof *l->v, find_order);
	return 0;
}

/* readdir(dir) minus dot files: the files directly inside `dir`. */
static int list_dir(mev__path_list *l, const mev_tree *t, const char *dir)
{
	size_t n = mev_tree_count(t), dl = strlen(dir);
	const mev_tree_file *fs = mev_tree_files(t);
	for (size_t i = 0; i < n; i++) {
		const mev_tree_file *f = &fs[i];
		const char *b;
		if (dl && (f->path_len <= dl || memcmp(f->path, dir, dl) || f->path[dl] != '/'))
			continue;
		b = f->path + (dl ? dl + 1 : 0);
		if (strchr(b, '/') || b[0] == '.')
			continue;
		if (f->kind == MEV_KIND_LINK && !f->link_file)
			continue;
		if (push_path(l, f->path, f->path_len))
			return MEV_ENOMEM;
	}
	return 0;
}

/* Normalise a --maintainer-path value to a tree path ("" = root). */
static char *tree_dir_path(const mev_tree *t, const char *p, int *kind)
{
	char *real = NULL;
	if (strcmp(p, ".") == 0 || strcmp(p, "./") == 0) {
		*kind = MEV_KIND_DIR;
		return strdup("");
	}
	*kind = mev_tree_resolve(&real, t, p, strlen(p));
	return real;
}

int mev__maint_discover(mev__path_list *l, mev_maint *m, const mev_tree *t)
{
	const mev_rules *r = &m->rules;
	int kind, rc = 0;
	char *dir;

	switch (r->discover) {
	case MEV_DISCOVER_TOP:
		if (is_kind(t, "MAINTAINERS", MEV_KIND_FILE))
			return push_path(l, "MAINTAINERS", 11);
		return mev__maint_diag_add(m, UINT32_MAX, 0, "no MAINTAINERS file at the top of the tree");
	case MEV_DISCOVER_SUBDIR:
		if (!is_kind(t, "MAINTAINERS", MEV_KIND_FILE))
			return mev__maint_diag_add(m, UINT32_MAX, 0,
				"no MAINTAINERS file at the top of the tree (this get_maintainer.pl stops there)");
		if (push_path(l, "MAINTAINERS", 11))
			return MEV_ENOMEM;
		/* File::Find does not enter a start folder that is a link */
		if (!r->find_dir[0] || !(dir = tree_dir_path(t, r->find_dir, &kind)))
			return 0;
		rc = kind == MEV_KIND_DIR && strcmp(dir, r->find_dir) == 0 ?
			find_files_named(l, m, t, r->find_dir, 1) : 0;
		free(dir);
		return rc;
	case MEV_DISCOVER_DIR_FMF:
		if (is_kind(t, "MAINTAINERS", MEV_KIND_DIR)) {
			dir = tree_dir_path(t, "MAINTAINERS", &kind);
			if (!dir || list_dir(l, t, dir)) {
				free(dir);
				return mev_error_oom();
			}
			free(dir);
		}
		if (r->find_files)
			return find_files_named(l, m, t, "", 0);
		if (is_kind(t, "MAINTAINERS", MEV_KIND_FILE))
			return push_path(l, "MAINTAINERS", 11);
		if (!l->n)
			return mev__maint_diag_add(m, UINT32_MAX, 0, "no MAINTAINERS file in the tree");
		return 0;
	default: {
		const char *path = r->mpath[0] ? r->mpath : "MAINTAINERS";
		if (path[0] == '/' || path[0] == '~')
			return mev__maint_diag_add(m, UINT32_MAX, 0,
				"maintainer path '%s' is outside the tree; no MAINTAINERS read", path);
		dir = tree_dir_path(t, path, &kind);
		if (kind == MEV_KIND_DIR) {
			rc = r->find_files ? find_files_named(l, m, t, dir, 0) : list_dir(l, t, dir);
			if (!rc && !l->n)
				rc = mev__maint_diag_add(m, UINT32_MAX, 0, "no MAINTAINERS files found in '%s'", path);
		} else if (kind == MEV_KIND_FILE) {
			rc = push_path(l, dir, strlen(dir));
		} else {
			rc = mev__maint_diag_add(m, UINT32_MAX, 0, "MAINTAINERS file not found ('%s')", path);
		}
		free(dir);
		return rc;
	}
	}
}

int mev_maint_unread(size_t **out, size_t *n, const mev_maint *m, const mev_tree *t)
{
	const mev_tree_file *f = mev_tree_files(t);
	mev_strmap read = MEV_STRMAP_INIT;
	MEV_VEC(size_t) unread = { 0 };
	int rc = 0;
	*out = NULL;
	*n = 0;
	for (uint32_t i = 0; i < mev_maint_file_count(m) && !rc; i++)
		rc = mev__strmap_put(&read, mev_maint_file(m, i), strlen(mev_maint_file(m, i)), i);
	for (size_t i = 0; i < mev_tree_count(t) && !rc; i++) {
		const char *b = base_name(&f[i]);
		if ((size_t)(f[i].path + f[i].path_len - b) != 11 || memcmp(b, "MAINTAINERS", 11) != 0 ||
		    (f[i].kind == MEV_KIND_LINK && !f[i].link_file))
			continue;
		if (mev__strmap_get(&read, f[i].path, f[i].path_len) < 0 && MEV_VEC_PUSH(&unread, i))
			rc = MEV_ENOMEM;
	}
	mev__strmap_free(&read);
	if (rc) {
		MEV_VEC_FREE(&unread);
		return mev_error_oom();
	}
	*out = unread.v;
	*n = unread.n;
	return 0;
}
