/*
 * Unit tests of the release walker (src/walk/walk.c): MAINTAINERS files that
 * appear and vanish in folders at several depths are found by the rule of
 * each release's script, in File::Find's order, and the incremental walk
 * reads them again; releases built by older matching rules are computed
 * again; the walk's threads hand their errors over.  On a small history
 * built here with git; skipped (77) without git.
 */
#include "test.h"
#include "maintevo/error.h"
#include "maintevo/filemap.h"
#include "maintevo/graph.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "maintevo/walk.h"
#include "walk/walk_internal.h"

#include <stdarg.h>
#include <sys/stat.h>

static const char *root;

#define GIT_ENV "GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent " \
	"GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.com " \
	"GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL=committer@example.com " \
	"GIT_AUTHOR_DATE='2005-04-07T22:13:13 +0000' GIT_COMMITTER_DATE='2005-04-07T22:13:13 +0000' "

/* Write `text` to root/repo/path, making its folders. */
static void put(const char *path, const char *text)
{
	char full[1024];
	FILE *f;
	snprintf(full, sizeof full, "%s/repo/%s", root, path);
	CHECK_INT(sh("mkdir -p \"$(dirname '%s')\"", full), 0);
	f = fopen(full, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int commit_tag(const char *tag)
{
	return sh("cd '%s/repo' && git add -A && " GIT_ENV "git commit -q -m %s && git tag %s", root, tag, tag);
}

/* The markers mev_rules_detect() reads in a get_maintainer.pl of today
 * (U-Boot 2021.10 on) and of 2014 (./MAINTAINERS plus board/). */
static const char script_path[] =
	"#!/usr/bin/perl\n"
	"my $find_maintainer_files = 0;\n"
	"my $conf = which_conf(\".get_maintainer.conf\");\n"
	"\t\t'find-maintainer-files' => \\$find_maintainer_files,\n"
	"\t\t'mpath|maintainer-path=s' => \\$maintainer_path,\n"
	"    my $path = \"${lk_path}MAINTAINERS\";\n"
	"\t} elsif (!(/^\\s*$/ || /^\\s*\\#/)) {\n";
static const char script_2014[] =
	"#!/usr/bin/perl\n"
	"my $conf = which_conf(\".get_maintainer.conf\");\n"
	"sub maint_wanted {\n"
	"    return unless $_ =~ /^MAINTAINERS/;\n"
	"    push(@maint_files, \"$File::Find::name\");\n"
	"}\n"
	"File::Find::find(\\&maint_wanted, \"${lk_path}board\");\n"
	"\t} elsif (!(/^\\s*$/ || /^\\s*\\#/)) {\n";

/*
 * v2020.01: ./MAINTAINERS only.  v2020.04: MAINTAINERS files appear at depths 1 to 3
 * (x/ and x/A/ both hold a section "X": File::Find reads x/MAINTAINERS
 * first, so x/f.c is covered by "X", not "X #2").  v2020.07: one vanishes, one
 * appears at depth 4 with only field lines (they join the last section of
 * board/b1/MAINTAINERS, which File::Find reads just before), and no other
 * file changes.  v2020.10: the 2014 script: ./MAINTAINERS
 * and board/ names starting with MAINTAINERS.
 */
static int build(void)
{
	if (sh("mkdir -p '%s/repo' && cd '%s/repo' && git -c init.defaultBranch=main init -q .", root, root))
		return 1;
	put("scripts/get_maintainer.pl", script_path);
	put(".get_maintainer.conf", "--find-maintainer-files --maintainer-path=.\n");
	put("MAINTAINERS", "THE REST\nM:\tR <r@x>\nF:\t*\nF:\t*/\n\nTOP\nM:\tT <t@x>\nF:\ttop.c\n");
	put("top.c", "a\n");
	put("board/b1/b.c", "b\nb\n");
	put("include/configs/c.h", "c\n");
	put("drivers/net/eth.c", "e\ne\ne\n");
	put("x/f.c", "f\n");
	put("x/A/g.c", "g\n");
	put("deep/a/b/c/d.c", "d\n");
	if (commit_tag("v2020.01"))
		return 1;
	put("drivers/net/MAINTAINERS", "NET\nM:\tN <n@x>\nF:\tdrivers/net/\n");
	put("x/MAINTAINERS", "X\nM:\tX <x@x>\nF:\tx/\n");
	put("x/A/MAINTAINERS", "X\nM:\tY <y@x>\nF:\tx/A/\n");
	put("board/b1/MAINTAINERS", "B1\nM:\tB <b@x>\nF:\tboard/b1/\n");
	put("board/b1/MAINTAINERS.old", "OLD B1\nM:\tO <o@x>\nF:\tboard/b1/b.c\n");
	if (commit_tag("v2020.04"))
		return 1;
	if (sh("cd '%s/repo' && git rm -q drivers/net/MAINTAINERS", root))
		return 1;
	put("deep/a/b/c/MAINTAINERS", "F:\tdeep/\n");
	if (commit_tag("v2020.07"))
		return 1;
	put("scripts/get_maintainer.pl", script_2014);
	return commit_tag("v2020.10");
}

/* The sections of `path` in the stored file table of `tag`, " | "-joined. */
static const char *sections_of(mev_store *s, const char *tag, const char *path)
{
	static char out[256];
	mev_filemap *fm = NULL;
	out[0] = '\0';
	CHECK_INT(mev_release_load_filemap(&fm, s, tag), 0);
	if (!fm)
		return "(none)";
	for (size_t i = 0; i < mev_filemap_count(fm); i++) {
		const mev_file_row *r = &mev_filemap_rows(fm)[i];
		const uint32_t *ids;
		size_t n;
		if (strcmp(r->path, path))
			continue;
		n = mev_filemap_set(&ids, fm, r->set);
		for (size_t k = 0; k < n; k++) {
			const mev_section_info *si = &mev_filemap_sections(fm)[ids[k]];
			size_t l = strlen(out);
			if (!si->is_rest)
				snprintf(out + l, sizeof out - l, "%s%s", l ? " | " : "", si->title);
		}
	}
	mev_filemap_free(fm);
	return out;
}

static mev_release *find(mev_store *s, const char *tag)
{
	mev_release *r = NULL;
	CHECK_INT(mev_release_find(&r, s, tag), 0);
	return r;
}

static int walk(mev_walk_result *res, int verify)
{
	char repo[600], store[600];
	mev_walk_options o = { 0 };
	snprintf(repo, sizeof repo, "%s/repo", root);
	snprintf(store, sizeof store, "%s/store", root);
	o.repo = repo;
	o.store = store;
	o.jobs = 2; /* both threads of the reading before the walk, and the help */
	o.verify = verify;
	return mev_walk(res, &o);
}

static mev_store *open_store(unsigned flags)
{
	char store[600];
	mev_store *s = NULL;
	snprintf(store, sizeof store, "%s/store", root);
	CHECK_INT(mev_store_open(&s, store, flags), 0);
	return s;
}

/* The blobs of the first tag's tree and those each later tag adds or
 * changes, each once, by `git ls-tree` and `git diff-tree`. */
static long distinct_blobs(const char *const *tags, size_t n)
{
	char cmd[2048], out[64] = "";
	size_t len;
	FILE *p;
	len = (size_t)snprintf(cmd, sizeof cmd, "cd '%s/repo' && { git ls-tree -r %s | "
			       "awk '$2 == \"blob\" { print $3 }'", root, tags[0]);
	for (size_t i = 1; i < n && len < sizeof cmd; i++)
		len += (size_t)snprintf(cmd + len, sizeof cmd - len, "; git diff-tree -r --no-renames %s %s | "
					"awk '$2 != \"160000\" && $5 != \"D\" { print $4 }'", tags[i - 1], tags[i]);
	if (len < sizeof cmd)
		snprintf(cmd + len, sizeof cmd - len, "; } | sort -u | wc -l");
	if (!(p = popen(cmd, "r")))
		return -1;
	if (!fgets(out, sizeof out, p))
		out[0] = '\0';
	pclose(p);
	return atol(out);
}

static void test_files_appear_and_vanish(void)
{
	mev_walk_result res;
	mev_store *s;
	mev_release *r;
	static const uint64_t nfiles[] = { 1, 5, 5, 3 };
	static const char *const tags[] = { "v2020.01", "v2020.04", "v2020.07", "v2020.10" };

	CHECK_INT(walk(&res, 1), 0);
	CHECK_INT(res.walked, 4);
	CHECK_INT(res.verified, 4);
	CHECK_INT(res.reparsed, 4);   /* the first cold, and each later one changed its files */
	/* read before the walk, each blob once: the first tree's and those the
	 * later releases add or change, as git lists them (the releases diffed
	 * in two halves, on two threads) */
	CHECK_INT(res.blobs_read, distinct_blobs(tags, 4));
	CHECK_INT(res.blobs_read_before, distinct_blobs(tags, 4));
	if (!(s = open_store(MEV_STORE_READ)))
		return;
	for (size_t i = 0; i < 4; i++) {
		if (!(r = find(s, tags[i])))
			continue;
		CHECK_INT(r->maintainer_files, nfiles[i]);
		CHECK_INT(r->rules_version, MEV_RULES_VERSION);
		CHECK(strstr(r->rules, i < 3 ? "every */MAINTAINERS below it, File::Find" :
			     "./MAINTAINERS, then board/**/MAINTAINERS*") != NULL);
		CHECK(i == 3 || strstr(r->rules, "[.get_maintainer.conf: --find-maintainer-files "
				       "--maintainer-path=.]") != NULL);
		mev_release_free(r);
	}
	CHECK_STR(sections_of(s, "v2020.01", "x/f.c"), "");
	CHECK_STR(sections_of(s, "v2020.04", "x/f.c"), "X");
	CHECK_STR(sections_of(s, "v2020.04", "x/A/g.c"), "X | X #2");
	CHECK_STR(sections_of(s, "v2020.04", "drivers/net/eth.c"), "NET");
	CHECK_STR(sections_of(s, "v2020.04", "board/b1/b.c"), "B1");   /* MAINTAINERS.old is not read */
	CHECK_STR(sections_of(s, "v2020.04", "deep/a/b/c/d.c"), "");
	CHECK_STR(sections_of(s, "v2020.07", "drivers/net/eth.c"), "");
	CHECK_STR(sections_of(s, "v2020.07", "deep/a/b/c/d.c"), "B1");   /* joined to board/b1/MAINTAINERS, read just before */
	CHECK_STR(sections_of(s, "v2020.07", "x/f.c"), "X");
	CHECK_STR(sections_of(s, "v2020.10", "board/b1/b.c"), "B1 | OLD B1");
	CHECK_STR(sections_of(s, "v2020.10", "x/f.c"), "");
	mev_store_free(s);
}

/* A release record of older rules: put back with rules_version 1. */
static int make_stale(mev_store *s, void *ctx)
{
	const char *tag = ctx;
	mev_release *r = NULL;
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	mev_graph_options go = { 1 };
	mev_release_input in = { 0 };
	int rc;
	if (!(rc = mev_release_find(&r, s, tag)) && !(rc = mev_release_load_filemap(&fm, s, tag)) &&
	    !(rc = mev_graph_build(&g, fm, &go))) {
		in.tag = tag;
		in.commit = r->commit;
		in.time = r->time;
		in.maintainer_files = r->maintainer_files;
		in.rules_version = 1;
		rc = mev_release_put(s, &in, fm, g, NULL, NULL);
	}
	mev_graph_free(g);
	mev_filemap_free(fm);
	mev_release_free(r);
	return rc;
}

static void test_older_rules_computed_again(void)
{
	mev_walk_result res;
	mev_store *s = open_store(MEV_STORE_WRITE);
	mev_release *r;
	if (!s)
		return;
	CHECK_INT(mev_store_write(s, make_stale, "v2020.07"), 0);
	if ((r = find(s, "v2020.07"))) {
		CHECK_INT(r->rules_version, 1);
		CHECK_STR(r->rules, "");
		mev_release_free(r);
	}
	mev_store_free(s);
	CHECK_INT(walk(&res, 1), 0);
	CHECK_INT(res.walked, 1);
	CHECK_INT(res.verified, 1);
	if (!(s = open_store(MEV_STORE_READ)))
		return;
	if ((r = find(s, "v2020.07"))) {
		CHECK_INT(r->rules_version, MEV_RULES_VERSION);
		CHECK_INT(r->maintainer_files, 5);
		mev_release_free(r);
	}
	CHECK_STR(sections_of(s, "v2020.07", "deep/a/b/c/d.c"), "B1");
	mev_store_free(s);
	CHECK_INT(walk(&res, 0), 0);   /* nothing left to do */
	CHECK_INT(res.walked, 0);
}

static int fail_with_hint(void *ctx)
{
	*(int *)ctx += 1;
	mev_error_set(MEV_EIO, "cannot write 'x': the disk is full");
	mev_error_hint("free some space");
	return MEV_EIO;
}

static int succeed(void *ctx)
{
	*(int *)ctx += 1;
	mev_error_set(MEV_EINVAL, "a message of the thread, not an error");
	return 0;
}

/* The store of a release runs on a thread of its own: its error, message
 * and hint reach the walk's thread; a join leaves that thread's message. */
static void test_async_hands_errors_over(void)
{
	mev__walk_async a;
	int calls = 0;
	CHECK_INT(mev__walk_async_wait(&(mev__walk_async){ 0 }), 0);
	mev__walk_async_start(&a, fail_with_hint, &calls);
	mev_error_set(MEV_ENOTFOUND, "the walk's own message");
	CHECK_ERR(mev__walk_async_wait(&a), MEV_EIO, "cannot write 'x': the disk is full");
	CHECK_STR(mev_error_hint_text(), "free some space");
	CHECK_INT(mev__walk_async_wait(&a), 0); /* nothing pending any more */
	mev__walk_async_start(&a, fail_with_hint, &calls);
	mev_error_set(MEV_ENOTFOUND, "the walk's own message");
	CHECK_INT(mev__walk_async_join(&a), MEV_EIO);
	CHECK_STR(mev_error_message(), "the walk's own message");
	mev__walk_async_start(&a, succeed, &calls);
	mev_error_clear();
	CHECK_INT(mev__walk_async_wait(&a), 0);
	CHECK_STR(mev_error_message(), "");
	CHECK_INT(calls, 3);
}

int main(void)
{
	if (system("git --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "SKIP: git is not installed\n");
		return TEST_SKIP;
	}
	RUN(test_async_hands_errors_over);
	root = test_tmpdir("walk");
	if (build()) {
		test_tmpdir_remove(root);
		return 1;
	}
	RUN(test_files_appear_and_vanish);
	RUN(test_older_rules_computed_again);
	test_tmpdir_remove(root);
	return test_summary();
}
