/*
 * Clones that lack something: shallow clones (history cut short), partial
 * clones (blobs left on the server), repositories of another user (which
 * git refuses).  What each lacks, and the message that says what to do.
 */
#include "repo_internal.h"
#include "maintevo/error.h"
#include <errno.h>

#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --- another user's repository ---------------------------------------------- */

/* The owner of the work tree, of its .git or of a bare repository at
 * `path` when that is not us; -1 when all are ours. */
static long foreign_owner(const char *path)
{
	static const char *const sub[] = { "", "/.git" };
	char p[PATH_MAX];
	struct stat st;
	for (int i = 0; i < 2; i++) {
		snprintf(p, sizeof p, "%s%s", path, sub[i]);
		if (stat(p, &st) == 0 && st.st_uid != geteuid())
			return (long)st.st_uid;
	}
	return -1;
}

/* The directory git's safe.directory must name: the work tree (the parent
 * of a .git directory passed), or a bare repository itself. */
static void safe_dir(char *out, size_t size, const char *path)
{
	char *real = realpath(path, NULL);
	const char *base = real ? strrchr(real, '/') : NULL;
	if (!real)
		snprintf(out, size, "%s", path);
	else if (base && base != real && strcmp(base, "/.git") == 0)
		snprintf(out, size, "%.*s", (int)(base - real), real);
	else
		snprintf(out, size, "%s", real);
	free(real);
}

static void user_name(char *out, size_t size, long uid)
{
	struct passwd *pw = uid >= 0 ? getpwuid((uid_t)uid) : NULL;
	if (pw)
		snprintf(out, size, "%s, uid %ld", pw->pw_name, uid);
	else
		snprintf(out, size, "uid %ld", uid);
}

int mev__repo_open_failed(const char *path, int git_rc)
{
	const git_error *e = git_error_last();
	const char *m = e && e->message ? e->message : "";
	struct stat st;
	/* libgit2 1.5 says "config value 'safe.directory' was not found" (and
	 * GIT_ENOTFOUND), later ones GIT_EOWNER and "not owned by current user" */
	if (git_rc == GIT_EOWNER || strstr(m, "safe.directory") || strstr(m, "not owned")) {
		char owner[128], me[128], safe[PATH_MAX];
		long uid = foreign_owner(path);
		if (uid >= 0)
			user_name(owner, sizeof owner, uid);
		else
			snprintf(owner, sizeof owner, "someone else");
		user_name(me, sizeof me, (long)geteuid());
		safe_dir(safe, sizeof safe, path);
		git_error_clear();
		mev_error_set(MEV_EGIT, "cannot open repository '%s': it belongs to another user (%s; you are "
			      "%s), and git refuses to read such a repository (\"dubious ownership\")", path,
			      owner, me);
		mev_error_hint("if you trust it, mark it safe: git config --global --add safe.directory %s",
			       safe);
		return MEV_EGIT;
	}
	git_error_clear();
	if (stat(path, &st) != 0 && errno == ENOENT)
		mev_error_set(MEV_ENOTFOUND, "cannot open repository '%s': it does not exist", path);
	else if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode))
		mev_error_set(MEV_ENOTFOUND, "cannot open repository '%s': it is a file, not a "
			      "directory", path);
	else if (access(path, R_OK | X_OK) != 0)
		mev_error_set(MEV_ENOTFOUND, "cannot open repository '%s': %s", path, strerror(errno));
	else
		mev_error_set(MEV_ENOTFOUND, "cannot open repository '%s': not a git repository", path);
	mev_error_hint("pass the directory of a git clone (or its .git directory) with --repo");
	return MEV_ENOTFOUND;
}

/* --- shallow and partial clones ------------------------------------------------- */

void mev__repo_inspect(mev_repo *repo)
{
	git_config *cfg = NULL;
	git_config_iterator *it = NULL;
	git_config_entry *ent;
	git_buf b = { 0 };
	repo->shallow = git_repository_is_shallow(repo->git) == 1;
	repo->promisor[0] = '\0';
	if (git_repository_config_snapshot(&cfg, repo->git) < 0)
		goto done;
	/* the remote git fetches missing objects from: extensions.partialclone
	 * (git before 2.40 set it), or a remote.NAME.promisor that is true */
	if (git_config_get_string_buf(&b, cfg, "extensions.partialclone") == 0 && b.ptr && b.ptr[0]) {
		snprintf(repo->promisor, sizeof repo->promisor, "%s", b.ptr);
		goto done;
	}
	/* every entry, not a glob: libgit2 1.5 leaks on each regex mismatch */
	if (git_config_iterator_new(&it, cfg) < 0)
		goto done;
	while (git_config_next(&ent, it) == 0) {
		int on = 0;
		size_t n = strlen(ent->name);
		if (n > 16 && strncmp(ent->name, "remote.", 7) == 0 &&
		    strcmp(ent->name + n - 9, ".promisor") == 0 &&
		    git_config_parse_bool(&on, ent->value) == 0 && on) {
			snprintf(repo->promisor, sizeof repo->promisor, "%.*s", (int)(n - 16), ent->name + 7);
			break;
		}
	}
done:
	git_config_iterator_free(it);
	git_buf_dispose(&b);
	git_config_free(cfg);
	git_error_clear();
}

int mev_repo_is_shallow(const mev_repo *repo) { return repo->shallow; }

const char *mev_repo_promisor(const mev_repo *repo)
{
	return repo->promisor[0] ? repo->promisor : NULL;
}

int mev__repo_missing_blob(const mev_repo *repo, const mev_oid *oid, const char *what,
			   const char *why)
{
	char hex[41], blob[PATH_MAX + 80];
	const char *p = repo->path, *r = repo->promisor;
	mev_oid_fmt(hex, oid);
	git_error_clear();
	if (what)
		snprintf(blob, sizeof blob, "the blob of %s (%.12s)", what, hex);
	else
		snprintf(blob, sizeof blob, "blob %.12s", hex);
	if (r[0]) {
		mev_error_set(MEV_ENOTFOUND, "'%s' is a partial clone and lacks %s%s%s", p, blob,
			      why ? ": " : "", why ? why : "");
		mev_error_hint("let git fetch it: 'git -C %s cat-file -e %s'; or fetch every blob the "
			       "clone left out: 'git -C %s config --unset remote.%s.partialclonefilter && "
			       "git -C %s fetch --refetch %s'", p, hex, p, r, p, r);
	} else {
		mev_error_set(MEV_ENOTFOUND, "'%s' lacks %s, so the repository is damaged%s%s", p, blob,
			      why ? ": " : "", why ? why : "");
		mev_error_hint("'git -C %s fsck' lists what is missing; fetch it again or clone anew", p);
	}
	return MEV_ENOTFOUND;
}

int mev_tree_need(mev_repo *repo, const mev_tree *tree, const char *path, const char *why)
{
	char *real = NULL, what[PATH_MAX + 8];
	git_odb *odb = NULL;
	git_oid id;
	int64_t i;
	int ok;
	if (mev_tree_resolve(&real, tree, path, strlen(path)) != MEV_KIND_FILE) {
		free(real);
		return 0;
	}
	i = mev_tree_find(tree, real, strlen(real));
	free(real);
	if (i < 0)
		return 0;
	memcpy(id.id, mev_tree_files(tree)[i].oid.id, 20);
	if (git_repository_odb(&odb, repo->git) < 0)
		return mev__repo_git_fail(MEV_EGIT, "cannot open object database");
	ok = git_odb_exists(odb, &id);
	git_odb_free(odb);
	if (ok)
		return 0;
	snprintf(what, sizeof what, "'%s'", path);
	return mev__repo_missing_blob(repo, &mev_tree_files(tree)[i].oid, what, why);
}

/* --- history ------------------------------------------------------------------- */

static int oid_cmp(const void *a, const void *b) { return git_oid_cmp(a, b); }

/* The commits where a shallow clone's history stops (.git/shallow),
 * sorted; *n = 0 for a full clone. */
static int shallow_cuts(git_oid **out, size_t *n, mev_repo *repo)
{
	char path[PATH_MAX], line[128];
	git_oid *v = NULL;
	size_t cap = 0;
	FILE *f;
	*out = NULL;
	*n = 0;
	snprintf(path, sizeof path, "%s/shallow", git_repository_commondir(repo->git));
	if (!repo->shallow || !(f = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof line, f)) {
		if (*n == cap) {
			git_oid *nv = realloc(v, (cap = cap ? 2 * cap : 16) * sizeof *v);
			if (!nv) {
				free(v);
				fclose(f);
				return mev_error_oom();
			}
			v = nv;
		}
		if (git_oid_fromstrn(&v[*n], line, 40) == 0)
			(*n)++;
	}
	fclose(f);
	git_error_clear();
	qsort(v, *n, sizeof *v, oid_cmp);
	*out = v;
	return 0;
}

/* 1 when the history stops at `c`: a cut of the shallow clone whose own
 * object names parents (a root commit is listed too when the cut fell on
 * it, but has none; libgit2 may or may not hide the cut parents). */
static int cut_here(const git_oid *cuts, size_t n, const git_commit *c)
{
	const char *head = git_commit_raw_header(c);
	if (!n || !head || (strncmp(head, "parent ", 7) && !strstr(head, "\nparent ")))
		return 0;
	return bsearch(git_commit_id(c), cuts, n, sizeof *cuts, oid_cmp) != NULL;
}

static int shallow_fail(mev_repo *repo, const git_commit *c)
{
	char hex[41];
	git_oid_tostr(hex, sizeof hex, git_commit_id(c));
	git_error_clear();
	mev_error_set(MEV_ENOTFOUND, "'%s' is a shallow clone: its history stops at commit %.12s, so the "
		      "root commit (which names the repository in a store) is not there", repo->path, hex);
	mev_error_hint("fetch the whole history: 'git -C %s fetch --unshallow' (or clone without --depth "
		       "and --shallow-since)", repo->path);
	return MEV_ENOTFOUND;
}

int mev_repo_root(mev_oid *out, mev_repo *repo, const mev_oid *commit)
{
	git_commit *c = NULL;
	git_oid id, *cuts = NULL;
	size_t ncuts = 0;
	int rc;
	memcpy(id.id, commit->id, 20);
	if ((rc = shallow_cuts(&cuts, &ncuts, repo)))
		return rc;
	if (git_commit_lookup(&c, repo->git, &id) < 0) {
		free(cuts);
		return mev__repo_git_fail(MEV_EGIT, "cannot read a commit");
	}
	for (;;) {
		git_commit *p = NULL;
		int cut = cut_here(cuts, ncuts, c);
		if (!cut && git_commit_parentcount(c) == 0)
			break;
		if (cut || git_commit_parent(&p, c, 0) < 0) {
			rc = repo->shallow ? shallow_fail(repo, c)
					   : mev__repo_git_fail(MEV_EGIT, "cannot read a parent commit");
			break;
		}
		git_commit_free(c);
		c = p;
	}
	if (!rc)
		memcpy(out->id, git_commit_id(c)->id, 20);
	git_commit_free(c);
	free(cuts);
	return rc;
}

int mev_repo_has_commit(mev_repo *repo, const mev_oid *commit)
{
	git_commit *c = NULL;
	git_oid id;
	memcpy(id.id, commit->id, 20);
	if (git_commit_lookup(&c, repo->git, &id) < 0) {
		git_error_clear();
		return 0;
	}
	git_commit_free(c);
	return 1;
}

/* --- a branch's first-parent history ------------------------------------------ */

int mev_repo_first_parents(mev_commit_time **out, size_t *n, int *cut, mev_repo *repo,
			   const mev_oid *tip)
{
	git_commit *c = NULL;
	git_oid id, *cuts = NULL;
	mev_commit_time *v = NULL;
	size_t ncuts = 0, cap = 0;
	int rc;
	*out = NULL;
	*n = 0;
	*cut = 0;
	memcpy(id.id, tip->id, 20);
	if ((rc = shallow_cuts(&cuts, &ncuts, repo)))
		return rc;
	if (git_commit_lookup(&c, repo->git, &id) < 0) {
		free(cuts);
		return mev__repo_git_fail(MEV_EGIT, "cannot read a commit");
	}
	for (;;) {
		git_commit *p = NULL;
		if (*n == cap) {
			mev_commit_time *nv = realloc(v, (cap = cap ? 2 * cap : 1024) * sizeof *v);
			if (!nv) {
				rc = mev_error_oom();
				break;
			}
			v = nv;
		}
		memcpy(v[*n].id.id, git_commit_id(c)->id, 20);
		v[(*n)++].time = (int64_t)git_commit_time(c);
		if (cut_here(cuts, ncuts, c)) {
			*cut = 1;
			git_error_clear();
			break;
		}
		if (git_commit_parentcount(c) == 0)
			break;
		if (git_commit_parent(&p, c, 0) < 0) {
			if (repo->shallow) {
				*cut = 1;
				git_error_clear();
			} else {
				rc = mev__repo_git_fail(MEV_EGIT, "cannot read a parent commit");
			}
			break;
		}
		git_commit_free(c);
		c = p;
	}
	git_commit_free(c);
	free(cuts);
	if (rc) {
		free(v);
		*n = 0;
		return rc;
	}
	*out = v;
	return 0;
}

/* --- a range in a shallow clone ------------------------------------------------ */

/*
 * libgit2 1.5 does not read .git/shallow: its revision walk asks for the
 * parents of a cut commit and fails with "object not found".  So a range
 * of a shallow clone is walked here, each cut commit taken as one without
 * parents.  A cut commit itself is left out and counted: what it changed
 * is a diff against a parent the clone lacks.
 */

typedef MEV_VEC(git_oid) oid_stack;

/* The parents to follow from commit `id` (none at a cut or when the
 * commit is missing) pushed on *st; 1 when id is a cut, with *time the
 * later of its author and committer times. */
static int follow(oid_stack *st, int *is_cut, int64_t *time, mev_repo *repo, const git_oid *cuts,
		  size_t ncuts, const git_oid *id)
{
	git_commit *c = NULL;
	int rc = 0;
	*is_cut = 0;
	if (git_commit_lookup(&c, repo->git, id) < 0) {
		git_error_clear(); /* beyond the cut */
		*is_cut = 1;
		*time = INT64_MIN;
		return 0;
	}
	if (cut_here(cuts, ncuts, c)) {
		int64_t a = (int64_t)git_commit_author(c)->when.time;
		int64_t m = (int64_t)git_commit_time(c);
		*is_cut = 1;
		*time = a > m ? a : m;
	} else {
		for (unsigned i = git_commit_parentcount(c); i-- > 0 && !rc;)
			rc = MEV_VEC_PUSH(st, *git_commit_parent_id(c, i)) ? mev_error_oom() : 0;
	}
	git_commit_free(c);
	return rc;
}

/* Every commit reachable from the hidden ones (stopping at cuts) into *seen. */
static int mark_hidden(mev_strmap *seen, mev_repo *repo, const git_oid *cuts, size_t ncuts,
		       const mev_oid *hide, size_t n_hide)
{
	oid_stack st = { 0 };
	int rc = 0;
	for (size_t i = 0; i < n_hide && !rc; i++)
		rc = MEV_VEC_PUSH(&st, *(const git_oid *)hide[i].id) ? mev_error_oom() : 0;
	while (st.n && !rc) {
		git_oid id = st.v[--st.n];
		int is_cut;
		int64_t t;
		if (mev__strmap_get(seen, (const char *)id.id, 20) >= 0)
			continue;
		if (!(rc = mev__strmap_put(seen, (const char *)id.id, 20, 0)))
			rc = follow(&st, &is_cut, &t, repo, cuts, ncuts, &id);
	}
	MEV_VEC_FREE(&st);
	return rc;
}

/* A zero id marks "emit the commit below on the stack": parents first. */
static int is_emit_mark(const git_oid *id)
{
	static const git_oid zero;
	return git_oid_equal(id, &zero);
}

int mev__repo_shallow_range(mev_oid **out, size_t *n, mev_range_cut *cut, mev_repo *repo,
			    const mev_oid *hide, size_t n_hide, const mev_oid *tip)
{
	mev_strmap seen = MEV_STRMAP_INIT;
	oid_stack st = { 0 };
	MEV_VEC(mev_oid) v = { 0 };
	git_oid *cuts = NULL, zero = { { 0 } };
	size_t ncuts = 0;
	int rc;
	if (!(rc = shallow_cuts(&cuts, &ncuts, repo)) &&
	    !(rc = mark_hidden(&seen, repo, cuts, ncuts, hide, n_hide)))
		rc = MEV_VEC_PUSH(&st, *(const git_oid *)tip->id) ? mev_error_oom() : 0;
	while (st.n && !rc) {
		git_oid id = st.v[--st.n];
		size_t mark;
		int is_cut;
		int64_t t;
		if (is_emit_mark(&id)) {
			mev_oid m;
			memcpy(m.id, st.v[--st.n].id, 20);
			rc = MEV_VEC_PUSH(&v, m) ? mev_error_oom() : 0;
			continue;
		}
		if (mev__strmap_get(&seen, (const char *)id.id, 20) >= 0)
			continue;
		if ((rc = mev__strmap_put(&seen, (const char *)id.id, 20, 0)))
			break;
		mark = st.n;
		if (MEV_VEC_PUSH(&st, id) || MEV_VEC_PUSH(&st, zero)) {
			rc = mev_error_oom();
			break;
		}
		if ((rc = follow(&st, &is_cut, &t, repo, cuts, ncuts, &id)) || !is_cut)
			continue;
		st.n = mark; /* a cut (or a commit the clone lacks): left out, counted */
		cut->commits++;
		if (t > cut->time)
			cut->time = t;
	}
	MEV_VEC_FREE(&st);
	mev__strmap_free(&seen);
	free(cuts);
	if (rc) {
		MEV_VEC_FREE(&v);
		return rc;
	}
	*out = v.v;
	*n = v.n;
	return 0;
}

int mev__repo_shallow_descends(mev_repo *repo, const mev_oid *commit, const mev_oid *ancestor)
{
	mev_strmap seen = MEV_STRMAP_INIT;
	oid_stack st = { 0 };
	git_oid *cuts = NULL;
	size_t ncuts = 0;
	int rc, found = 0;
	if (memcmp(commit->id, ancestor->id, 20) == 0)
		return 0; /* as git_graph_descendant_of(): not its own descendant */
	if (!(rc = shallow_cuts(&cuts, &ncuts, repo)))
		rc = MEV_VEC_PUSH(&st, *(const git_oid *)commit->id) ? mev_error_oom() : 0;
	while (st.n && !rc && !found) {
		git_oid id = st.v[--st.n];
		int is_cut;
		int64_t t;
		if (mev__strmap_get(&seen, (const char *)id.id, 20) >= 0)
			continue;
		found = memcmp(id.id, ancestor->id, 20) == 0;
		if (!found && !(rc = mev__strmap_put(&seen, (const char *)id.id, 20, 0)))
			rc = follow(&st, &is_cut, &t, repo, cuts, ncuts, &id);
	}
	MEV_VEC_FREE(&st);
	mev__strmap_free(&seen);
	free(cuts);
	return rc ? rc : found;
}
