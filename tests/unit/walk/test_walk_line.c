/*
 * Unit tests of the line a walk takes on a store walked before the default
 * became the line of development (docs/walking.md, "One line of
 * releases"): the store held maintenance releases too; a walk with the
 * new default keeps every stored release, says which ones its line leaves
 * out, and walks only the line's new tags, each computed from the release
 * before it on the line.  On a small history built here with git; skipped
 * (77) without git.
 */
#include "test.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "maintevo/walk.h"

#include <string.h>

static const char *root;
static char notes[4096];

#define GIT_ENV "GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent " \
	"GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.com " \
	"GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL=committer@example.com "

/* Change `file` in root/repo on the branch checked out, commit at `day`
 * (noon UTC) and tag it `tag`. */
static int release(const char *day, const char *tag, const char *file)
{
	return sh("cd '%s/repo' && mkdir -p \"$(dirname %s)\" && echo %s >> %s && git add -A && "
		  "GIT_AUTHOR_DATE=%sT12:00:00Z GIT_COMMITTER_DATE=%sT12:00:00Z " GIT_ENV
		  "git commit -q -m %s && git tag %s", root, file, tag, file, day, day, tag, tag);
}

/* v1.0, v1.1, v1.2 on main; v1.0.1 and v1.0.2 on maint, made beside them. */
static int build(void)
{
	if (sh("mkdir -p '%s/repo' && cd '%s/repo' && git -c init.defaultBranch=main init -q . && "
	       "printf 'CORE\\nM:\\tA <a@x>\\nF:\\tcore/\\n\\nDRV\\nM:\\tD <d@x>\\nF:\\tdrv/\\n' > MAINTAINERS",
	       root, root))
		return 1;
	return release("2020-01-01", "v1.0", "core/c.c") ||
	       sh("cd '%s/repo' && git checkout -q -b maint", root) ||
	       release("2020-02-15", "v1.0.1", "core/c.c") ||
	       sh("cd '%s/repo' && git checkout -q main", root) ||
	       release("2020-02-01", "v1.1", "drv/d.c") || release("2020-03-01", "v1.2", "drv/d.c") ||
	       sh("cd '%s/repo' && git checkout -q maint", root) ||
	       release("2020-04-01", "v1.0.2", "core/c.c") ||
	       sh("cd '%s/repo' && git checkout -q main", root);
}

static void note(void *ctx, const char *line)
{
	(void)ctx;
	snprintf(notes + strlen(notes), sizeof notes - strlen(notes), "%s\n", line);
}

static int walk(mev_walk_result *res, const char *glob, int verify)
{
	char repo[600], store[600];
	const char *tags[] = { glob };
	mev_walk_options o = { 0 };
	snprintf(repo, sizeof repo, "%s/repo", root);
	snprintf(store, sizeof store, "%s/store", root);
	o.repo = repo;
	o.store = store;
	o.tags = glob ? tags : NULL;
	o.ntags = glob ? 1 : 0;
	o.verify = verify;
	o.progress.note = note;
	notes[0] = '\0';
	return mev_walk(res, &o);
}

/* The identity of a store of the old default: no tag globs. */
static int forget_globs(mev_store *s, void *ctx)
{
	mev_identity id;
	int rc = mev_release_identity_get(&id, s);
	(void)ctx;
	id.tags[0] = '\0';
	return rc ? rc : mev_release_identity_set(s, &id);
}

static void test_old_store_kept(void)
{
	mev_walk_result res;
	mev_store *s = NULL;
	mev_release *list = NULL;
	size_t n = 0;
	char store[600];
	const char *want[] = { "v1.0", "v1.0.1", "v1.0.2", "v1.1", "v1.2", "v1.3" };
	/* the old default: every release tag, maintenance ones too */
	CHECK_INT(walk(&res, "v*", 0), 0);
	CHECK_INT(res.walked, 5);
	CHECK(strstr(notes, "2 releases go back in time") != NULL);
	CHECK(strstr(notes, "v1.1 of 2020-02-01 after v1.0.2 of 2020-04-01") != NULL);
	snprintf(store, sizeof store, "%s/store", root);
	CHECK_INT(mev_store_open(&s, store, MEV_STORE_WRITE), 0);
	if (!s)
		return;
	CHECK_INT(mev_store_write(s, forget_globs, NULL), 0);
	mev_store_free(s);
	s = NULL;

	/* a new release on the line: walked alone, from v1.2; nothing stored is lost */
	CHECK_INT(release("2020-05-01", "v1.3", "drv/d.c"), 0);
	CHECK_INT(walk(&res, NULL, 1), 0);
	CHECK_INT(res.walked, 1);
	CHECK_INT(res.verified, 1);
	CHECK_INT(res.stored_before, 5);
	CHECK_INT(res.candidates, 4);
	CHECK(strstr(notes, "the store holds 2 releases this walk's line leaves out (v1.0.1, v1.0.2)") != NULL);
	CHECK(strstr(notes, "kept, and tracked with the others") != NULL);
	CHECK(strstr(notes, "back in time") == NULL);
	CHECK_INT(mev_store_open(&s, store, MEV_STORE_READ), 0);
	if (!s)
		return;
	CHECK_INT(mev_release_list(&list, &n, s), 0);
	CHECK_INT(n, 6);
	for (size_t i = 0; i < n && i < 6; i++)
		CHECK_STR(list[i].tag, want[i]);
	mev_release_list_free(list, n);
	mev_store_free(s);

	/* nothing new: nothing walked, the note again (the store still holds them) */
	CHECK_INT(walk(&res, NULL, 0), 0);
	CHECK_INT(res.walked, 0);
	CHECK(strstr(notes, "leaves out (v1.0.1, v1.0.2)") != NULL);
}

int main(void)
{
	if (system("git --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "SKIP: git is not installed\n");
		return TEST_SKIP;
	}
	root = test_tmpdir("walk-line");
	if (build()) {
		test_tmpdir_remove(root);
		return 1;
	}
	RUN(test_old_store_kept);
	test_tmpdir_remove(root);
	return test_summary();
}
