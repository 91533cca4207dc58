/* Revisions and trees through libgit2 (src/git/ is the only module that talks to it; blobs: blobs.c). */
#include "repo_internal.h"
#include "maintevo/error.h"
#include "maintevo/suggest.h"
#include "util/buf.h"
#include "util/strmap.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEV_ASAN 1
#endif
#endif
#if (defined(__SANITIZE_ADDRESS__) || defined(MEV_ASAN)) && LIBGIT2_VER_MAJOR == 1 && \
	LIBGIT2_VER_MINOR < 6
/*
 * libgit2 before 1.6 leaks PCRE2's match data on each regex lookup in the
 * configuration that does not match (libgit2 pull request 6382), and opens
 * a repository of format version 1 (a partial clone) with such lookups:
 * LeakSanitizer is told to let these be.  It sees the frame of libgit2
 * only with ASAN_OPTIONS=fast_unwind_on_malloc=0 (libpcre2 has no frame
 * pointers), which the tests that open partial clones set.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:git_config_foreach_match\n"; }
#endif

int mev__repo_git_fail(int code, const char *what)
{
	const git_error *e = git_error_last();
	return mev_error_set(code, "%s: %s", what, e && e->message ? e->message : "libgit2 error");
}

void mev_oid_fmt(char out[41], const mev_oid *oid)
{
	static const char hex[] = "0123456789abcdef";
	for (int i = 0; i < 20; i++) {
		out[2 * i] = hex[oid->id[i] >> 4];
		out[2 * i + 1] = hex[oid->id[i] & 15];
	}
	out[40] = '\0';
}

int mev_oid_parse(mev_oid *out, const char *hex)
{
	for (int i = 0; i < 40; i++) {
		char c = hex[i];
		int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (v < 0)
			return mev_error_set(MEV_EINVAL, "'%.40s' is not an object id", hex);
		if (i & 1)
			out->id[i / 2] |= (unsigned char)v;
		else
			out->id[i / 2] = (unsigned char)(v << 4);
	}
	return 0;
}

int mev_oid_equal(const mev_oid *a, const mev_oid *b) { return memcmp(a->id, b->id, 20) == 0; }

int mev_oid_is_zero(const mev_oid *oid)
{
	static const mev_oid zero;
	return mev_oid_equal(oid, &zero);
}

int mev_repo_open(mev_repo **out, const char *path)
{
	mev_repo *r;
	int rc;
	git_libgit2_init();
	/* Objects are not hashed again as they are read (libgit2's default;
	 * git's readers never do): a quarter of a walk's CPU.  zlib's
	 * checksum still catches a damaged object. */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	*out = NULL;
	r = calloc(1, sizeof *r);
	if (!r || !(r->path = strdup(path))) {
		free(r);
		git_libgit2_shutdown();
		return mev_error_oom();
	}
	if ((rc = git_repository_open_ext(&r->git, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL)) < 0) {
		free(r->path);
		free(r);
		rc = mev__repo_open_failed(path, rc);
		git_libgit2_shutdown();
		return rc;
	}
	mev__repo_inspect(r);
	pthread_mutex_init(&r->lock, NULL);
	r->recent[0].idx = r->recent[1].idx = (mev_strmap)MEV_STRMAP_INIT;
	r->trees.gen[0].idx = r->trees.gen[1].idx = (mev_strmap)MEV_STRMAP_INIT;
	*out = r;
	return 0;
}

void mev_repo_free(mev_repo *repo)
{
	if (!repo)
		return;
	mev__tree_memo_free(&repo->trees);
	git_repository_free(repo->git);
	mev__repo_blobs_free(repo);
	pthread_mutex_destroy(&repo->lock);
	free(repo->path);
	free(repo);
	git_libgit2_shutdown();
}

const char *mev_repo_path(const mev_repo *repo) { return repo->path; }

int mev_repo_resolve(mev_oid *out, int64_t *time, mev_repo *repo, const char *rev)
{
	git_object *obj = NULL, *peeled = NULL;
	int rc = 0;
	if (git_revparse_single(&obj, repo->git, rev) < 0) {
		mev_error_set(MEV_ENOTFOUND, "unknown revision '%s' in '%s'", rev, repo->path);
		mev_error_hint("list the tags with 'git -C %s tag' or pass a commit id", repo->path);
		return MEV_ENOTFOUND;
	}
	if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0) {
		rc = mev_error_set(MEV_EINVAL, "revision '%s' does not point at a commit", rev);
		mev_error_hint("pass a tag or commit, not a tree or blob");
		goto done;
	}
	memcpy(out->id, git_object_id(peeled)->id, 20);
	if (time)
		*time = (int64_t)git_commit_time((git_commit *)peeled);
done:
	git_object_free(peeled);
	git_object_free(obj);
	return rc;
}

typedef struct {
	mev_repo *repo;
	MEV_VEC(mev_tag) list;
	mev_tags_skipped skipped;
	int rc;
} tags_ctx;

/* Count a tag left out, keeping the first names bytewise. */
static void skip_tag(mev_tags_skipped *sk, const char *name)
{
	size_t k = sk->n < MEV_TAGS_SKIPPED_NAMED ? sk->n : MEV_TAGS_SKIPPED_NAMED;
	char cut[sizeof sk->names[0]];
	snprintf(cut, sizeof cut, "%s", name);
	sk->n++;
	/* insert in order; the last falls off when all places are taken */
	while (k > 0 && strcmp(cut, sk->names[k - 1]) < 0) {
		if (k < MEV_TAGS_SKIPPED_NAMED)
			memcpy(sk->names[k], sk->names[k - 1], sizeof cut);
		k--;
	}
	if (k < MEV_TAGS_SKIPPED_NAMED)
		memcpy(sk->names[k], cut, sizeof cut);
}

static int tag_cb(const char *name, git_oid *oid, void *payload)
{
	tags_ctx *tc = payload;
	git_object *obj = NULL, *peeled = NULL;
	mev_tag t = { 0 };
	if (strncmp(name, "refs/tags/", 10) == 0)
		name += 10;
	if (git_object_lookup(&obj, tc->repo->git, oid, GIT_OBJECT_ANY) < 0 ||
	    git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0) {
		git_error_clear();
		skip_tag(&tc->skipped, name);
		goto done;
	}
	t.name = strdup(name);
	memcpy(t.commit.id, git_object_id(peeled)->id, 20);
	t.time = (int64_t)git_commit_time((git_commit *)peeled);
	if (!t.name || MEV_VEC_PUSH(&tc->list, t)) {
		free(t.name);
		tc->rc = mev_error_oom();
	}
done:
	git_object_free(peeled);
	git_object_free(obj);
	return tc->rc;
}

int mev_repo_tags(mev_tag **out, size_t *n, mev_tags_skipped *skipped, mev_repo *repo)
{
	tags_ctx tc;
	int rc;
	memset(&tc, 0, sizeof tc);
	tc.repo = repo;
	rc = git_tag_foreach(repo->git, tag_cb, &tc);
	if (rc < 0 && !tc.rc)
		tc.rc = mev__repo_git_fail(MEV_EGIT, "cannot list the tags");
	if (tc.rc) {
		mev_tag_list_free(tc.list.v, tc.list.n);
		return tc.rc;
	}
	*out = tc.list.v;
	*n = tc.list.n;
	if (skipped)
		*skipped = tc.skipped;
	return 0;
}

void mev_tag_list_free(mev_tag *tags, size_t n)
{
	for (size_t i = 0; tags && i < n; i++)
		free(tags[i].name);
	free(tags);
}

/* --- trees -------------------------------------------------------------- */

enum { NODE_DIR = 0xffffffffu, NODE_GITLINK = 0xfffffffeu };

typedef MEV_VEC(mev_tree_file) file_vec;

struct mev_tree {
	mev_oid tree_id;
	mev_arena arena;
	MEV_VEC(const char *) gitlinks;
	file_vec files;
	const char **targets; /* link target per file (NULL for regular files) */
	mev_strmap nodes;     /* path -> file index, NODE_DIR or NODE_GITLINK */
};

typedef struct {
	mev_tree *t;
	mev_buf path;
	int rc;
} walk_ctx;

/* Record an entry of the tree t: a gitlink of t, or a blob added to *files. */
static int add_entry(mev_tree *t, file_vec *files, const char *path, size_t len, int gitlink,
		     int link, const unsigned char *id)
{
	mev_tree_file f = { 0 };
	const char *p = mev__arena_strndup(&t->arena, path, len);
	if (!p)
		return mev_error_oom();
	if (gitlink)
		return MEV_VEC_PUSH(&t->gitlinks, p) ? mev_error_oom() : 0;
	f.path = p;
	f.path_len = (uint32_t)len;
	f.kind = link ? MEV_KIND_LINK : MEV_KIND_FILE;
	memcpy(f.oid.id, id, 20);
	return MEV_VEC_PUSH(files, f) ? mev_error_oom() : 0;
}

static int walk_cb(const char *root, const git_tree_entry *e, void *payload)
{
	walk_ctx *w = payload;
	git_object_t type = git_tree_entry_type(e);
	if (type != GIT_OBJECT_COMMIT && type != GIT_OBJECT_BLOB)
		return 0;
	mev__buf_clear(&w->path);
	if (mev__buf_puts(&w->path, root) || mev__buf_puts(&w->path, git_tree_entry_name(e)) ||
	    add_entry(w->t, &w->t->files, w->path.ptr, w->path.len, type == GIT_OBJECT_COMMIT,
		      git_tree_entry_filemode(e) == GIT_FILEMODE_LINK, git_tree_entry_id(e)->id)) {
		w->rc = MEV_ENOMEM;
		return -1;
	}
	return 0;
}

static int bytes_cmp(const char *a, size_t la, const char *b, size_t lb)
{
	int c = memcmp(a, b, la < lb ? la : lb);
	return c ? c : (la > lb) - (la < lb);
}

static int path_cmp(const void *a, const void *b)
{
	const mev_tree_file *x = a, *y = b;
	return bytes_cmp(x->path, x->path_len, y->path, y->path_len);
}

static int slot_cmp(const void *a, const void *b)
{
	const mev_strmap_slot *const *x = a, *const *y = b;
	return bytes_cmp((*x)->key, (*x)->len, (*y)->key, (*y)->len);
}

/* Mark `path` and its ancestors as directories (stop at a known one). */
static int add_dirs(mev_tree *t, const char *path, size_t len)
{
	while (len) {
		const char *slash = memrchr(path, '/', len);
		size_t dl = slash ? (size_t)(slash - path) : 0;
		if (!dl)
			return 0;
		if (mev__strmap_get(&t->nodes, path, dl) >= 0)
			return 0;
		if (mev__strmap_put_ref(&t->nodes, path, dl, NODE_DIR)) /* path: t's */
			return MEV_ENOMEM;
		len = dl;
	}
	return 0;
}

/*
 * The lookup structures of a tree whose file list (sorted) and gitlinks are
 * set: path -> node, directories (the ancestors of files and gitlinks, as in
 * a checkout), link targets not known yet, and the link flags.
 */
static int tree_finish(mev_tree *t, mev_repo *repo)
{
	size_t i, dir_len = 0;
	const char *dir = NULL;   /* the directory of the file before */
	int rc;
	/* about one directory for every eight files: grown once */
	if (mev__strmap_reserve(&t->nodes, t->files.n + t->files.n / 8 + t->gitlinks.n + 1))
		return mev_error_oom();
	if (!t->targets) {
		t->targets = calloc(t->files.n ? t->files.n : 1, sizeof *t->targets);
		if (!t->targets)
			return mev_error_oom();
	}
	for (i = 0; i < t->gitlinks.n; i++) {
		const char *g = t->gitlinks.v[i];
		if (mev__strmap_put_ref(&t->nodes, g, strlen(g), NODE_GITLINK) || add_dirs(t, g, strlen(g)))
			return mev_error_oom();
	}
	for (i = 0; i < t->files.n; i++) {
		mev_tree_file *f = &t->files.v[i];
		const char *slash = memrchr(f->path, '/', f->path_len);
		size_t dl = slash ? (size_t)(slash - f->path) : 0;
		if (mev__strmap_put_ref(&t->nodes, f->path, f->path_len, (uint32_t)i))
			return mev_error_oom();
		/* files are sorted: the directories of the one before are known */
		if (!(dir && dl == dir_len && memcmp(f->path, dir, dl) == 0) && add_dirs(t, f->path, f->path_len))
			return mev_error_oom();
		dir = f->path;
		dir_len = dl;
		if (f->kind == MEV_KIND_LINK && !t->targets[i]) {
			char *data, what[300];
			size_t len;
			snprintf(what, sizeof what, "symbolic link '%.*s'",
				 (int)(f->path_len < 256 ? f->path_len : 256), f->path);
			if ((rc = mev__repo_read_blob(&data, &len, repo, &f->oid, what,
					    "where it leads decides what the patterns match")))
				return rc;
			t->targets[i] = mev__arena_strndup(&t->arena, data, strnlen(data, len));
			free(data);
			if (!t->targets[i])
				return MEV_ENOMEM;
		}
	}
	for (i = 0; i < t->files.n; i++) {
		mev_tree_file *f = &t->files.v[i];
		if (f->kind == MEV_KIND_LINK) {
			int k = mev_tree_stat(t, f->path, f->path_len);
			f->link_dir = k == MEV_KIND_DIR;
			f->link_file = k == MEV_KIND_FILE;
		}
	}
	return 0;
}

int mev_tree_load(mev_tree **out, mev_repo *repo, const mev_oid *commit)
{
	git_commit *c = NULL;
	git_tree *gt = NULL;
	git_oid id;
	walk_ctx w = { 0 };
	mev_tree *t;
	int rc = 0;
	size_t i;

	*out = NULL;
	t = calloc(1, sizeof *t);
	if (!t)
		return mev_error_oom();
	memcpy(id.id, commit->id, 20);
	if (git_commit_lookup(&c, repo->git, &id) < 0 || git_commit_tree(&gt, c) < 0) {
		rc = mev__repo_git_fail(MEV_EGIT, "cannot read the tree of the commit");
		goto done;
	}
	memcpy(t->tree_id.id, git_tree_id(gt)->id, 20);
	w.t = t;
	if (git_tree_walk(gt, GIT_TREEWALK_PRE, walk_cb, &w) < 0) {
		rc = w.rc ? w.rc : mev__repo_git_fail(MEV_EGIT, "cannot walk the tree");
		goto done;
	}
	for (i = 1; i < t->files.n; i++)
		if (path_cmp(&t->files.v[i - 1], &t->files.v[i]) > 0)
			break;
	if (i < t->files.n)
		qsort(t->files.v, t->files.n, sizeof *t->files.v, path_cmp);
	rc = tree_finish(t, repo);
done:
	mev__buf_free(&w.path);
	git_tree_free(gt);
	git_commit_free(c);
	if (rc)
		mev_tree_free(t);
	else
		*out = t;
	return rc;
}

typedef struct {
	mev_tree *t;          /* the new tree */
	mev_strmap removed;   /* paths of old files and gitlinks that go */
	file_vec added;
	const mev_strmap_slot **gone; /* removed, sorted as the files: a merge, not a lookup each */
} diff_ctx;

/* An entry of the diff: the old path goes, the new entry comes. */
static int diff_entry_cb(void *payload, const char *path, size_t len, const mev__tree_entry *o,
			 const mev__tree_entry *n)
{
	diff_ctx *dc = payload;
	if ((o && mev__strmap_put(&dc->removed, path, len, 1)) ||
	    (n && add_entry(dc->t, &dc->added, path, len, n->mode == GIT_FILEMODE_COMMIT,
			    n->mode == GIT_FILEMODE_LINK, n->id->id)))
		return MEV_ENOMEM;
	return 0;
}

/*
 * The files of the new tree: the old ones the diff leaves, merged by path
 * with the added ones (room for all of them is reserved).  flags[i] marks
 * the added; *ndel gets the number of old files removed.
 */
static int merge_files(mev_tree *t, uint8_t *flags, size_t *ndel, const mev_tree *old,
		       diff_ctx *dc)
{
	size_t i = 0, j = 0, del = 0, k = 0, ng = 0;
	const mev_strmap_slot **gone = dc->gone = malloc((dc->removed.count + 1) * sizeof *gone);
	if (!gone)
		return mev_error_oom();
	for (size_t s = 0; s < dc->removed.cap; s++)
		if (dc->removed.slots[s].key)
			gone[ng++] = &dc->removed.slots[s];
	qsort(gone, ng, sizeof *gone, slot_cmp);
	while (i < old->files.n || j < dc->added.n) {
		const mev_tree_file *of = i < old->files.n ? &old->files.v[i] : NULL;
		while (of && k < ng && bytes_cmp(gone[k]->key, gone[k]->len, of->path, of->path_len) < 0)
			k++;
		if (of && k < ng && bytes_cmp(gone[k]->key, gone[k]->len, of->path, of->path_len) == 0) {
			i++;
			del++;
			continue;
		}
		if (of && (j >= dc->added.n || path_cmp(of, &dc->added.v[j]) < 0)) {
			mev_tree_file f = *of;
			f.path = mev__arena_strndup(&t->arena, of->path, of->path_len);
			if (!f.path)
				return mev_error_oom();
			t->targets[t->files.n] = old->targets[i] ?
				mev__arena_strndup(&t->arena, old->targets[i], strlen(old->targets[i])) : NULL;
			t->files.v[t->files.n++] = f;
			i++;
		} else {
			flags[t->files.n] = 1;
			t->files.v[t->files.n++] = dc->added.v[j++];
		}
	}
	/* a modified file is both removed and added: not a deletion */
	for (j = 0; j < dc->added.n; j++)
		if (mev__strmap_get(&dc->removed, dc->added.v[j].path, dc->added.v[j].path_len) >= 0 && del)
			del--;
	*ndel = del;
	return 0;
}

int mev_tree_update(mev_tree **out, uint8_t **changed, size_t *deleted, mev_repo *repo,
		    const mev_tree *old, const mev_oid *commit)
{
	return mev_tree_update_with(out, changed, deleted, repo, old, commit, NULL);
}

/* The entries that differ between old's tree and commit's, for dc: replayed
 * from d when it is that diff's, else diffed; t->tree_id set. */
static int tree_changes(mev_tree *t, mev_repo *repo, const mev_tree *old, const mev_oid *commit,
			const mev_tree_delta *d, diff_ctx *dc)
{
	git_commit *c = NULL;
	git_oid id, ot;
	int rc;
	if (mev__tree_delta_matches(d, &old->tree_id, commit)) {
		t->tree_id = *mev__tree_delta_to(d);
		return mev__tree_delta_replay(d, diff_entry_cb, dc);
	}
	memcpy(id.id, commit->id, 20);
	if (git_commit_lookup(&c, repo->git, &id) < 0)
		return mev__repo_git_fail(MEV_EGIT, "cannot read the tree of the commit");
	memcpy(ot.id, old->tree_id.id, 20);
	memcpy(t->tree_id.id, git_commit_tree_id(c)->id, 20);
	if (!(rc = mev__repo_tree_memo(repo)))
		rc = mev__tree_diff(repo->git, &repo->trees, &ot, git_commit_tree_id(c), diff_entry_cb, dc);
	git_commit_free(c);
	return rc;
}

int mev_tree_update_with(mev_tree **out, uint8_t **changed, size_t *deleted, mev_repo *repo,
			 const mev_tree *old, const mev_oid *commit, const mev_tree_delta *d)
{
	diff_ctx dc = { 0 };
	mev_tree *t = calloc(1, sizeof *t);
	uint8_t *flags = NULL;
	size_t i, ndel = 0;
	int rc = 0;

	*out = NULL;
	if (changed)
		*changed = NULL;
	if (!t)
		return mev_error_oom();
	dc.t = t;
	if ((rc = tree_changes(t, repo, old, commit, d, &dc)))
		goto done;
	if (dc.added.n > 1)
		qsort(dc.added.v, dc.added.n, sizeof *dc.added.v, path_cmp);
	/* old gitlinks that stay */
	for (i = 0; i < old->gitlinks.n; i++) {
		const char *g = old->gitlinks.v[i];
		if (mev__strmap_get(&dc.removed, g, strlen(g)) < 0) {
			const char *cp = mev__arena_strndup(&t->arena, g, strlen(g));
			if (!cp || MEV_VEC_PUSH(&t->gitlinks, cp)) {
				rc = mev_error_oom();
				goto done;
			}
		}
	}
	/* merge the old files that stay with the added ones */
	if ((rc = MEV_VEC_RESERVE(&t->files, old->files.n + dc.added.n + 1)))
		goto done;
	t->targets = calloc(old->files.n + dc.added.n + 1, sizeof *t->targets);
	flags = calloc(old->files.n + dc.added.n + 1, 1);
	if (!t->targets || !flags) {
		rc = mev_error_oom();
		goto done;
	}
	if ((rc = merge_files(t, flags, &ndel, old, &dc)))
		goto done;
	if ((rc = tree_finish(t, repo)))
		goto done;
done:
	mev__strmap_free(&dc.removed);
	free(dc.gone);
	MEV_VEC_FREE(&dc.added);
	if (rc) {
		free(flags);
		mev_tree_free(t);
		return rc;
	}
	if (deleted)
		*deleted = ndel;
	if (changed)
		*changed = flags;
	else
		free(flags);
	*out = t;
	return 0;
}

void mev_tree_free(mev_tree *t)
{
	if (!t)
		return;
	MEV_VEC_FREE(&t->files);
	MEV_VEC_FREE(&t->gitlinks);
	free(t->targets);
	mev__strmap_free(&t->nodes);
	mev__arena_free(&t->arena);
	free(t);
}

size_t mev_tree_count(const mev_tree *t) { return t->files.n; }

const mev_oid *mev_tree_id(const mev_tree *t) { return &t->tree_id; }
const mev_tree_file *mev_tree_files(const mev_tree *t) { return t->files.v; }

int64_t mev_tree_find(const mev_tree *t, const char *path, size_t len)
{
	int64_t v = mev__strmap_get(&t->nodes, path, len);
	return v >= 0 && (uint32_t)v < t->files.n ? v : -1;
}

/*
 * Path resolution as the kernel does it for stat(2), inside the tree: the
 * remaining path is a string that link targets get spliced into; `cur` is the
 * directory reached so far.  ".." goes to the physical parent; leaving the
 * root, absolute targets and more than 40 links give 0.
 */
int mev_tree_stat(const mev_tree *t, const char *path, size_t len)
{
	return mev_tree_resolve(NULL, t, path, len);
}

int mev_tree_resolve(char **real, const mev_tree *t, const char *path, size_t len)
{
	mev_buf rem = MEV_BUF_INIT, cur = MEV_BUF_INIT, next = MEV_BUF_INIT;
	int links = 0, kind = 0, cur_kind = MEV_KIND_DIR;
	size_t pos = 0;

	if (mev__buf_put(&rem, path, len) || mev__buf_put(&cur, "", 0))
		goto done;
	if (len == 0 || path[0] == '/')
		goto done; /* stat("") fails; absolute paths leave the tree */
	for (;;) {
		size_t s, e;
		int64_t v;
		while (pos < rem.len && rem.ptr[pos] == '/')
			pos++;
		if (pos >= rem.len) {
			kind = cur_kind;
			break;
		}
		if (cur_kind == MEV_KIND_GITLINK)
			goto done; /* an empty directory: nothing below it */
		s = pos;
		e = s;
		while (e < rem.len && rem.ptr[e] != '/')
			e++;
		pos = e;
		if (e - s == 1 && rem.ptr[s] == '.')
			continue;
		if (e - s == 2 && rem.ptr[s] == '.' && rem.ptr[s + 1] == '.') {
			char *slash;
			if (cur.len == 0)
				goto done; /* above the root */
			slash = memrchr(cur.ptr, '/', cur.len);
			cur.len = slash ? (size_t)(slash - cur.ptr) : 0;
			cur.ptr[cur.len] = '\0';
			cur_kind = MEV_KIND_DIR;
			continue;
		}
		{
			size_t keep = cur.len;
			if (cur.len && mev__buf_putc(&cur, '/'))
				goto done;
			if (mev__buf_put(&cur, rem.ptr + s, e - s))
				goto done;
			v = mev__strmap_get(&t->nodes, cur.ptr, cur.len);
			if (v < 0)
				goto done;
			if ((uint32_t)v == NODE_DIR) {
				cur_kind = MEV_KIND_DIR;
				continue;
			}
			if ((uint32_t)v == NODE_GITLINK) {
				cur_kind = MEV_KIND_GITLINK;
				continue;
			}
			if (t->files.v[v].kind == MEV_KIND_FILE) {
				/* a file must be the last component, with no '/' after it */
				if (pos < rem.len)
					goto done;
				kind = MEV_KIND_FILE;
				break;
			}
			/* a symbolic link: continue from its directory with the target */
			if (++links > 40)
				goto done;
			{
				const char *tg = t->targets[v];
				if (!tg || tg[0] == '/')
					goto done;
				mev__buf_clear(&next);
				if (mev__buf_puts(&next, tg) ||
				    mev__buf_put(&next, rem.ptr + pos, rem.len - pos))
					goto done;
				mev__buf_clear(&rem);
				if (mev__buf_put(&rem, next.ptr, next.len))
					goto done;
				pos = 0;
				cur.len = keep;
				cur.ptr[keep] = '\0';
				cur_kind = MEV_KIND_DIR;
			}
		}
	}
done:
	if (real)
		*real = kind ? mev__buf_detach(&cur) : NULL;
	mev__buf_free(&rem);
	mev__buf_free(&cur);
	mev__buf_free(&next);
	if (kind == MEV_KIND_GITLINK)
		kind = MEV_KIND_DIR;
	return kind;
}

/* The names of the branches (local, then remote-tracking), for a hint. */
static void branch_hint(mev_repo *repo, const char *name)
{
	git_branch_iterator *it = NULL;
	git_reference *ref;
	git_branch_t type;
	mev_suggestions sg;
	char some[256] = "";
	size_t n = 0, used = 0;
	mev_suggestions_init(&sg, name);
	if (git_branch_iterator_new(&it, repo->git, GIT_BRANCH_ALL) == 0) {
		while (git_branch_next(&ref, &type, it) == 0) {
			const char *b = NULL;
			if (git_branch_name(&b, ref) == 0 && b) {
				mev_suggestions_add(&sg, b, strlen(b));
				if (n++ < 5 && used < sizeof some)
					used += (size_t)snprintf(some + used, sizeof some - used, "%s'%s'",
								 n > 1 ? ", " : "", b);
			}
			git_reference_free(ref);
		}
		git_branch_iterator_free(it);
	}
	git_error_clear();
	if (n) {
		char hint[512];
		snprintf(hint, sizeof hint, "its branches: %s%s (git -C %s branch -a)", some,
			 n > 5 ? ", ..." : "", repo->path);
		mev_suggestions_hint(&sg, hint);
	} else
		mev_error_hint("the repository has no branches: clone it with them, or walk its tags");
}

int mev_repo_branch(mev_oid *out, int64_t *time, mev_repo *repo, const char *name)
{
	static const char *const where[] = { "refs/heads/", "refs/remotes/", "" };
	char ref[1024];
	for (size_t i = 0; i < sizeof where / sizeof *where; i++) {
		git_reference *r = NULL;
		git_object *peeled = NULL;
		int ok;
		if (!where[i][0] && strncmp(name, "refs/", 5) != 0)
			break;
		snprintf(ref, sizeof ref, "%s%s", where[i], name);
		if (git_reference_lookup(&r, repo->git, ref) < 0)
			continue;
		ok = git_reference_peel(&peeled, r, GIT_OBJECT_COMMIT) == 0;
		git_reference_free(r);
		if (!ok)
			continue;
		memcpy(out->id, git_object_id(peeled)->id, 20);
		if (time)
			*time = (int64_t)git_commit_time((git_commit *)peeled);
		git_object_free(peeled);
		return 0;
	}
	git_error_clear();
	mev_error_set(MEV_ENOTFOUND, "no branch '%s' in '%s'", name, repo->path);
	branch_hint(repo, name);
	return MEV_ENOTFOUND;
}
