/*
 * Unit tests of the MAINTAINERS files a release's script does not read,
 * kept in its health record (mev_release_health.unread): a tree with a
 * top-level MAINTAINERS, two board/x/MAINTAINERS files (one a link) and
 * names that only look alike, read by rules that take the top-level file
 * alone and by rules that search the whole tree; a record of version 1
 * (written before the count was kept) reads as "not known".
 */
#include "test.h"
#include "repo_fixture.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "store_internal.h"

#include <stdlib.h>
#include <string.h>

static int build_repo(const char *d)
{
	return sh("mkdir -p '%s' && cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		  "printf 'TOP\\nM:\\tT <t@x>\\nF:\\tcore/\\n' > MAINTAINERS && "
		  "mkdir -p core board/a board/b board/c doc && echo c > core/c.c && "
		  "printf 'BOARD A\\nM:\\tA <a@x>\\nF:\\tboard/a/\\n' > board/a/MAINTAINERS && "
		  "printf 'BOARD B\\nM:\\tB <b@x>\\nF:\\tboard/b/\\n' > board/b/real && "
		  "ln -s real board/b/MAINTAINERS && "
		  "echo x > board/c/MAINTAINERS.txt && echo y > doc/OLD_MAINTAINERS && "
		  "ln -s nowhere board/c/MAINTAINERS && "
		  "git add -A && " GIT_ENV DATE1 "git commit -q -m one && git tag v1",
		  d, d);
}

/* The health record of v1 read with rules `r` (discover, find_files,
 * mpath), stored and read back. */
static void put_and_load(mev_release_health *h, mev_repo *repo, mev_tree *t, const mev_rules *r,
			 const char *tag)
{
	mev_store *s = NULL;
	mev_maint *m = NULL;
	mev_filemap *fm = NULL;
	mev_release_input in = { 0 };
	void *data = NULL;
	size_t len = 0;
	CHECK_INT(mev_maint_load(&m, r, repo, t), 0);
	CHECK_INT(mev_filemap_build(&fm, repo, t, m, NULL), 0);
	in.tag = tag;
	in.maint = m;
	in.tree = t;
	CHECK_INT(mev_release_health_encode(&data, &len, &in, fm), 0);
	CHECK_INT(mev_store_open(&s, repo_path("store"), MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_store_put_record(NULL, s, "health", 'H', 3, tag, strlen(tag), data, len), 0);
	CHECK_INT(mev__store_commit(s), 0);
	CHECK_INT(mev_release_load_health(h, s, tag), 0);
	mev_store_free(s);
	mev_filemap_free(fm);
	mev_maint_free(m);
	free(data);
}

static void test_unread(void)
{
	mev_repo *repo = NULL;
	mev_tree *t = NULL;
	mev_oid c;
	mev_rules r;
	mev_release_health h;
	CHECK_INT(mev_repo_open(&repo, repo_path("repo")), 0);
	CHECK_INT(mev_repo_resolve(&c, NULL, repo, "v1"), 0);
	CHECK_INT(mev_tree_load(&t, repo, &c), 0);
	/* ./MAINTAINERS alone (U-Boot v2021.10): the board files are not read;
	 * a link to a file is one, a link to nothing and other names are not */
	mev_rules_default(&r, MEV_DIALECT_LINUX);
	r.discover = MEV_DISCOVER_PATH;
	r.find_files = 0;
	r.mpath[0] = '\0';
	put_and_load(&h, repo, t, &r, "top");
	CHECK_INT(h.unread_known, 1);
	CHECK_INT(h.nunread, 2);
	if (h.nunread == 2) {
		CHECK_STR(h.unread[0], "board/a/MAINTAINERS");
		CHECK_STR(h.unread[1], "board/b/MAINTAINERS");
	}
	mev_release_health_free(&h);
	/* every MAINTAINERS of the tree (U-Boot v2022.01's .get_maintainer.conf) */
	r.find_files = 1;
	snprintf(r.mpath, sizeof r.mpath, ".");
	put_and_load(&h, repo, t, &r, "all");
	CHECK_INT(h.unread_known, 1);
	CHECK_INT(h.nunread, 0);
	mev_release_health_free(&h);
	mev_tree_free(t);
	mev_repo_free(repo);
}

/* A record of version 1 (before issue 40) reads: the files are not known. */
static void test_version_1(void)
{
	static const char v1[] = "\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00";
	mev_store *s = NULL;
	mev_release_health h;
	CHECK_INT(mev_store_open(&s, repo_path("store"), MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_store_put_record(NULL, s, "health", 'H', 3, "old", 3, v1, sizeof v1 - 1), 0);
	CHECK_INT(mev_store_put_record(NULL, s, "health", 'H', 3, "new", 3, "\x03", 1), 0);
	CHECK_INT(mev__store_commit(s), 0);
	CHECK_INT(mev_release_load_health(&h, s, "old"), 0);
	CHECK_INT(h.unread_known, 0);
	CHECK_INT(h.nunread, 0);
	mev_release_health_free(&h);
	/* a version this maintevo does not know is refused, not guessed at */
	CHECK_ERR(mev_release_load_health(&h, s, "new"), MEV_ECORRUPT,
		  "health of 'new' is of an unknown version");
	mev_store_free(s);
}

int main(void)
{
	if (system("git --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "git not found: skipping\n");
		return TEST_SKIP;
	}
	snprintf(tmp_root, sizeof tmp_root, "%s", test_tmpdir("release_unread"));
	if (build_repo(repo_path("repo")) != 0) {
		fprintf(stderr, "cannot build the test repository\n");
		test_tmpdir_remove(tmp_root);
		return 1;
	}
	RUN(test_unread);
	RUN(test_version_1);
	test_tmpdir_remove(tmp_root);
	return test_summary();
}
