/*
 * Unit tests of MAINTAINERS discovery (src/dialect/rules.c, src/maintainers/maintainers_find.c):
 * which files each generation of get_maintainer.pl reads, in which order,
 * with which .get_maintainer.conf; on small repositories built here with
 * fixed identities and dates.  Skipped (77) without git.
 */
#include "test.h"
#include "maintevo/error.h"
#include "maintevo/maintainers.h"
#include "maintevo/repo.h"

#include <stdarg.h>
#include <stdint.h>

static char tmp_root[512];

#define GIT_ENV "GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent " \
	"GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.com " \
	"GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL=committer@example.com "
#define DATE1 "GIT_AUTHOR_DATE='2005-04-07T22:13:13 +0000' GIT_COMMITTER_DATE='2005-04-07T22:13:13 +0000' "
#define DATE2 "GIT_AUTHOR_DATE='2005-04-08T10:00:00 +0000' GIT_COMMITTER_DATE='2005-04-08T10:00:00 +0000' "

static const char *repo_path(const char *name)
{
	static char buf[4][640];
	static int k;
	k = (k + 1) % 4;
	snprintf(buf[k], sizeof buf[k], "%s/%s", tmp_root, name);
	return buf[k];
}

/* --- discovery: which MAINTAINERS files a tree's script reads ----------------- */

/* Script texts with the markers mev_rules_detect() looks for; written to
 * files with stdio (script_file()) and copied in by the shell. */
static const char *const script_current =
	"#!/usr/bin/env perl\n"
	"my $find_maintainer_files = 0;\n"
	"my $conf = which_conf(\".get_maintainer.conf\");\n"
	"\t\t'find-maintainer-files' => \\$find_maintainer_files,\n"
	"\t\t'mpath|maintainer-path=s' => \\$maintainer_path,\n"
	"sub read_all_maintainer_files {\n"
	"    my $path = \"${lk_path}MAINTAINERS\";\n"
	"    if ($find_maintainer_files) { find_maintainer_files(); }\n"
	"}\n"
	"\t} elsif (!(/^\\s*$/ || /^\\s*\\#/)) {\n";

static const char *const script_board =
	"#!/usr/bin/env perl\n"
	"my $conf = which_conf(\".get_maintainer.conf\");\n"
	"sub maint_wanted {\n"
	"    return unless $_ =~ /^MAINTAINERS/;\n"
	"}\n"
	"File::Find::find(\\&maint_wanted, \"${lk_path}board\");\n";

/* The path of a file holding `text` (written once per name). */
static const char *script_file(const char *name, const char *text)
{
	const char *p = repo_path(name);
	FILE *f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return p;
}

/*
 * uboot/: a U-Boot-like tree (board/, include/configs/) whose script takes
 * --find-maintainer-files --maintainer-path=. from .get_maintainer.conf:
 * every file named MAINTAINERS, a link to one included, a link to a
 * directory not followed, a directory named MAINTAINERS not read.
 */
static int build_uboot(void)
{
	const char *d = repo_path("uboot");
	return sh("mkdir -p '%s' && cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		  "mkdir -p scripts board/a board/b board/c board/f include/configs drivers doc/MAINTAINERS && "
		  "cp '%s' scripts/get_maintainer.pl && "
		  "printf '# options for this tree\\n--find-maintainer-files\\n--maintainer-path=.\\n' > .get_maintainer.conf && "
		  "printf 'TOP\\nM:\\tT <t@x>\\nF:\\t*\\n' > MAINTAINERS && "
		  "printf 'BOARD A\\nM:\\tA <a@x>\\nF:\\tboard/a/\\n' > board/a/MAINTAINERS && "
		  "printf 'BOARD B\\nM:\\tB <b@x>\\nF:\\tboard/b/\\n' > board/b/MAINTAINERS && "
		  "ln -s ../a/MAINTAINERS board/c/MAINTAINERS && "
		  "ln -s a board/e && "
		  "ln -s ../nowhere board/f/MAINTAINERS && "
		  "printf 'OLD\\nF:\\tx\\n' > board/b/MAINTAINERS.old && "
		  "printf 'DRIVERS\\nM:\\tD <d@x>\\nF:\\tdrivers/\\n' > drivers/MAINTAINERS && "
		  "printf 'NOT READ\\nF:\\tdoc/\\n' > doc/MAINTAINERS/x && "
		  "echo c > include/configs/board.h && "
		  "git add -A && " GIT_ENV DATE1 "git commit -q -m current && git tag current && "
		  "cp '%s' scripts/get_maintainer.pl && git add -A && "
		  GIT_ENV DATE2 "git commit -q -m board && git tag board",
		  d, d, script_file("current.pl", script_current), script_file("board.pl", script_board));
}

/* linux/: a MAINTAINERS/ directory (read: its non-dot entries). */
static int build_linux(void)
{
	const char *d = repo_path("linux");
	return sh("mkdir -p '%s' && cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		  "mkdir -p scripts MAINTAINERS/sub kernel && "
		  "cp '%s' scripts/get_maintainer.pl && "
		  "printf 'SEC B\\nF:\\tb/\\n' > MAINTAINERS/b && "
		  "printf 'SEC A\\nF:\\ta/\\n' > MAINTAINERS/a && "
		  "printf 'HIDDEN\\nF:\\th/\\n' > MAINTAINERS/.hidden && "
		  "printf 'SUB\\nF:\\ts/\\n' > MAINTAINERS/sub/c && "
		  "ln -s a MAINTAINERS/l && "
		  "echo k > kernel/x.c && "
		  "git add -A && " GIT_ENV DATE1 "git commit -q -m dir && git tag dir && "
		  "git rm -q -r MAINTAINERS && " GIT_ENV DATE2 "git commit -q -m none && git tag none",
		  d, d, script_file("current.pl", script_current));
}

static mev_maint *load_at(mev_repo *r, const char *rev, const mev_rules_options *opt, mev_rules *rules_out)
{
	mev_oid c;
	mev_tree *t = NULL;
	mev_rules rules;
	mev_maint *m = NULL;
	CHECK_INT(mev_repo_resolve(&c, NULL, r, rev), 0);
	CHECK_INT(mev_tree_load(&t, r, &c), 0);
	if (!t)
		return NULL;
	CHECK_INT(mev_rules_detect(&rules, r, t, opt), 0);
	CHECK_INT(mev_maint_load(&m, &rules, r, t), 0);
	if (rules_out)
		*rules_out = rules;
	mev_tree_free(t);
	return m;
}

static const char *file_list(const mev_maint *m)
{
	static char b[2048];
	b[0] = '\0';
	for (uint32_t i = 0; i < mev_maint_file_count(m); i++) {
		size_t l = strlen(b);
		snprintf(b + l, sizeof b - l, "%s%s", i ? "," : "", mev_maint_file(m, i));
	}
	return b;
}

static const char *title_list(const mev_maint *m)
{
	static char b[2048];
	b[0] = '\0';
	for (size_t i = 0; i < mev_maint_section_count(m); i++) {
		size_t l = strlen(b);
		snprintf(b + l, sizeof b - l, "%s%s", i ? "|" : "", mev_maint_sections(m)[i].title);
	}
	return b;
}

static int has_diag(const mev_maint *m, const char *what)
{
	for (size_t i = 0; i < mev_maint_diag_count(m); i++) {
		char buf[1024];
		mev_maint_diag_format(buf, sizeof buf, m, &mev_maint_diags(m)[i]);
		if (strstr(buf, what))
			return 1;
	}
	return 0;
}

static void test_discover_uboot(void)
{
	mev_repo *r = NULL;
	mev_rules rules;
	mev_rules_options opt = { MEV_DIALECT_AUTO, 0, NULL };
	mev_maint *m;

	CHECK_INT(build_uboot(), 0);
	CHECK_INT(mev_repo_open(&r, repo_path("uboot")), 0);
	if (!r)
		return;
	m = load_at(r, "current", &opt, &rules);
	CHECK_INT(rules.dialect, MEV_DIALECT_UBOOT);
	CHECK_INT(rules.has_script, 1);
	CHECK_INT(rules.discover, MEV_DISCOVER_PATH);
	CHECK_INT(rules.find_files, 1);
	CHECK_STR(rules.mpath, ".");
	CHECK_INT(rules.drop_comments, 1);
	CHECK_INT(rules.utf8, 0);
	CHECK_INT(rules.any_type, 0);
	if (m) {
		CHECK_STR(file_list(m), "MAINTAINERS,board/a/MAINTAINERS,board/b/MAINTAINERS,"
			  "board/c/MAINTAINERS,drivers/MAINTAINERS");
		CHECK_STR(title_list(m), "TOP|BOARD A|BOARD B|BOARD A #2|DRIVERS");
		if (mev_maint_section_count(m) > 3)
			CHECK_INT(mev_maint_sections(m)[3].file, 3);
		mev_maint_free(m);
	}

	/* --top-level-only */
	opt.top_level_only = 1;
	m = load_at(r, "current", &opt, &rules);
	CHECK_INT(rules.find_files, 0);
	CHECK_STR(rules.mpath, "");
	if (m) {
		CHECK_STR(file_list(m), "MAINTAINERS");
		CHECK_STR(title_list(m), "TOP");
		mev_maint_free(m);
	}

	/* the 2014-2017 script: ./MAINTAINERS plus board/ files named MAINTAINERS* */
	opt.top_level_only = 0;
	m = load_at(r, "board", &opt, &rules);
	CHECK_INT(rules.discover, MEV_DISCOVER_SUBDIR);
	CHECK_INT(rules.find_files, 0);
	if (m) {
		CHECK_STR(file_list(m), "MAINTAINERS,board/a/MAINTAINERS,board/b/MAINTAINERS,"
			  "board/b/MAINTAINERS.old,board/c/MAINTAINERS");
		CHECK(has_diag(m, "board/f/MAINTAINERS"));
		mev_maint_free(m);
	}

	/* --files-as: the 2014 tree's files found as the current script finds
	 * them, and the other way round; the rest of the rules stay the tree's */
	{
		mev_rules as;
		char text[1024];
		CHECK_INT(mev_rules_files_as(&as, r, "current", &opt), 0);
		CHECK_STR(as.files_as, "current");
		opt.files_as = &as;
		m = load_at(r, "board", &opt, &rules);
		CHECK_INT(rules.discover, MEV_DISCOVER_PATH);
		CHECK_INT(rules.find_files, 1);
		CHECK_STR(rules.files_as, "current");
		mev_rules_describe(text, sizeof text, &rules);
		CHECK(strstr(text, "as current finds them (--files-as)") != NULL);
		if (m) {
			CHECK_STR(file_list(m), "MAINTAINERS,board/a/MAINTAINERS,board/b/MAINTAINERS,"
				  "board/c/MAINTAINERS,drivers/MAINTAINERS");
			mev_maint_free(m);
		}
		/* the 2014 search also takes board/ names that start with MAINTAINERS */
		CHECK_INT(mev_rules_files_as(&as, r, "board", &opt), 0);
		m = load_at(r, "current", &opt, &rules);
		CHECK_INT(rules.discover, MEV_DISCOVER_SUBDIR);
		if (m) {
			CHECK_STR(file_list(m), "MAINTAINERS,board/a/MAINTAINERS,board/b/MAINTAINERS,"
				  "board/b/MAINTAINERS.old,board/c/MAINTAINERS");
			mev_maint_free(m);
		}
		CHECK_ERR(mev_rules_files_as(&as, r, "v0-none", &opt), MEV_ENOTFOUND,
			  "--files-as 'v0-none': unknown revision");
		opt.files_as = NULL;
	}

	/* forcing a dialect does not change what the script says */
	opt.dialect = MEV_DIALECT_LINUX;
	m = load_at(r, "current", &opt, &rules);
	CHECK_INT(rules.dialect, MEV_DIALECT_LINUX);
	CHECK_INT(rules.find_files, 1);
	mev_maint_free(m);
	mev_repo_free(r);
}

static void test_discover_linux(void)
{
	mev_repo *r = NULL;
	mev_rules rules;
	mev_rules_options opt = { MEV_DIALECT_AUTO, 0, NULL };
	mev_maint *m;

	CHECK_INT(build_linux(), 0);
	CHECK_INT(mev_repo_open(&r, repo_path("linux")), 0);
	if (!r)
		return;
	m = load_at(r, "dir", &opt, &rules);
	CHECK_INT(rules.dialect, MEV_DIALECT_LINUX);
	CHECK_INT(rules.discover, MEV_DISCOVER_PATH);
	CHECK_INT(rules.find_files, 0);
	if (m) {
		/* readdir minus dot files; a link to a file is read, 'sub' is not */
		CHECK_STR(file_list(m), "MAINTAINERS/a,MAINTAINERS/b,MAINTAINERS/l");
		CHECK_STR(title_list(m), "SEC A|SEC B|SEC A #2");
		mev_maint_free(m);
	}
	/* no MAINTAINERS at all: zero sections and a diagnostic, not an error */
	m = load_at(r, "none", &opt, &rules);
	if (m) {
		CHECK_INT(mev_maint_section_count(m), 0);
		CHECK_INT(mev_maint_file_count(m), 0);
		CHECK(mev_maint_diag_count(m) >= 1);
		CHECK(has_diag(m, "MAINTAINERS file not found"));
		mev_maint_free(m);
	}
	/* the same with the old top-level-only rules */
	{
		mev_oid c;
		mev_tree *t = NULL;
		CHECK_INT(mev_repo_resolve(&c, NULL, r, "none"), 0);
		CHECK_INT(mev_tree_load(&t, r, &c), 0);
		if (t) {
			mev_rules_default(&rules, MEV_DIALECT_XEN);
			m = NULL;
			CHECK_INT(mev_maint_load(&m, &rules, r, t), 0);
			if (m) {
				CHECK_INT(mev_maint_section_count(m), 0);
				CHECK(has_diag(m, "no MAINTAINERS file at the top of the tree"));
				mev_maint_free(m);
			}
			mev_tree_free(t);
		}
	}
	mev_repo_free(r);
}

/* The 2017.11-2021.07 generation: its own $find_maintainer_files default. */
static const char *const script_fmf =
	"#!/usr/bin/env perl\n"
	"my $find_maintainer_files = 1;\n"
	"my $conf = which_conf(\".get_maintainer.conf\");\n"
	"\t\t'find-maintainer-files' => \\$find_maintainer_files,\n"
	"if (-d \"${lk_path}MAINTAINERS\") {\n"
	"\t} elsif (!(/^\\s*$/ || /^\\s*\\#/)) {\n";

/*
 * gen/: one tree, four scripts.  fmf1: default 1, every .../MAINTAINERS in
 * File::Find order (a/MAINTAINERS before a/B/MAINTAINERS, though a/B/ sorts
 * first bytewise).  fmf0: default 0 and a .get_maintainer.conf asking for
 * --maintainer-path this script does not know: ./MAINTAINERS only.
 * conf-dir: the current script, ./.get_maintainer.conf a folder (not read,
 * and .scripts/ not tried).  conf-scripts: the conf under .scripts/.
 */
static int build_generations(void)
{
	const char *d = repo_path("gen");
	const char *fmf = script_file("fmf.pl", script_fmf), *cur = script_file("current.pl", script_current);
	return sh("mkdir -p '%s' && cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		  "mkdir -p scripts a/B && cp '%s' scripts/get_maintainer.pl && "
		  "printf 'TOP\\nF:\\t*\\n' > MAINTAINERS && "
		  "printf 'A\\nF:\\ta/\\n' > a/MAINTAINERS && "
		  "printf 'B\\nF:\\ta/B/\\n' > a/B/MAINTAINERS && "
		  "git add -A && " GIT_ENV DATE1 "git commit -q -m fmf1 && git tag fmf1 && "
		  "sed -i 's/files = 1/files = 0/' scripts/get_maintainer.pl && "
		  "printf -- '--maintainer-path=a\\n' > .get_maintainer.conf && "
		  "git add -A && " GIT_ENV DATE1 "git commit -q -m fmf0 && git tag fmf0 && "
		  "cp '%s' scripts/get_maintainer.pl && rm .get_maintainer.conf && mkdir -p .get_maintainer.conf .scripts && "
		  "printf -- '--find-maintainer-files\\n' > .get_maintainer.conf/x && "
		  "printf -- '--find-maintainer-files\\n' > .scripts/.get_maintainer.conf && "
		  "git add -A && " GIT_ENV DATE2 "git commit -q -m conf-dir && git tag conf-dir && "
		  "git rm -q -r .get_maintainer.conf && "
		  GIT_ENV DATE2 "git commit -q -m conf-scripts && git tag conf-scripts",
		  d, d, fmf, cur);
}

static void test_discover_generations(void)
{
	mev_repo *r = NULL;
	mev_rules rules;
	mev_rules_options opt = { MEV_DIALECT_AUTO, 0, NULL };
	mev_maint *m;
	char desc[1024];

	CHECK_INT(build_generations(), 0);
	CHECK_INT(mev_repo_open(&r, repo_path("gen")), 0);
	if (!r)
		return;
	if ((m = load_at(r, "fmf1", &opt, &rules))) {
		CHECK_INT(rules.discover, MEV_DISCOVER_DIR_FMF);
		CHECK_INT(rules.find_files, 1);
		CHECK_STR(file_list(m), "MAINTAINERS,a/MAINTAINERS,a/B/MAINTAINERS");
		mev_maint_free(m);
	}
	if ((m = load_at(r, "fmf0", &opt, &rules))) {
		CHECK_INT(rules.find_files, 0);
		CHECK_STR(rules.mpath, "");
		CHECK_STR(rules.conf, "");
		CHECK_STR(file_list(m), "MAINTAINERS");
		mev_maint_free(m);
	}
	if ((m = load_at(r, "conf-dir", &opt, &rules))) {
		CHECK_INT(rules.discover, MEV_DISCOVER_PATH);
		CHECK_INT(rules.find_files, 0);
		CHECK_STR(file_list(m), "MAINTAINERS");
		mev_maint_free(m);
	}
	if ((m = load_at(r, "conf-scripts", &opt, &rules))) {
		CHECK_INT(rules.find_files, 1);
		CHECK_STR(rules.conf, "--find-maintainer-files");
		/* below ./MAINTAINERS, a file: the file itself */
		CHECK_STR(file_list(m), "MAINTAINERS");
		mev_rules_describe(desc, sizeof desc, &rules);
		CHECK_STR(desc, "linux: files ./MAINTAINERS (every */MAINTAINERS below it, File::Find) "
			  "[.get_maintainer.conf: --find-maintainer-files]; fields [A-Z], N: off; "
			  "# lines skipped; bytes");
		mev_maint_free(m);
	}
	mev_repo_free(r);
}

/* Which added or deleted files only join or leave File::Find's part. */
static void test_found_by_find(void)
{
	mev_rules r;
	size_t first = 99;
	mev_maint_source sub[] = { { "MAINTAINERS", { { 0 } } }, { "board/a/MAINTAINERS", { { 0 } } } };
	mev_maint_source fmf[] = { { "MAINTAINERS/x", { { 0 } } }, { "MAINTAINERS", { { 0 } } },
				   { "b/MAINTAINERS", { { 0 } } } };
#define FOUND(src, n, p) mev_maint_found_by_find(&first, &r, src, n, p, strlen(p))
	memset(&r, 0, sizeof r);
	r.discover = MEV_DISCOVER_SUBDIR;
	snprintf(r.find_dir, sizeof r.find_dir, "board");
	CHECK_INT(FOUND(sub, 2, "board/c/MAINTAINERS.old"), 1); /* names starting so */
	CHECK_INT(first, 1);
	CHECK_INT(FOUND(sub, 2, "lib/MAINTAINERS"), 0);         /* outside the folder */
	CHECK_INT(FOUND(sub, 1, "board/c/MAINTAINERS"), 0);     /* folder not known entered */
	r.discover = MEV_DISCOVER_DIR_FMF;
	r.find_files = 1;
	CHECK_INT(FOUND(fmf, 3, "c/d/MAINTAINERS"), 1);
	CHECK_INT(first, 1);                                    /* after the folder's listing */
	CHECK_INT(FOUND(fmf, 3, "c/MAINTAINERS.old"), 0);       /* exact names only */
	CHECK_INT(FOUND(fmf, 3, "MAINTAINERS"), 0);             /* ./MAINTAINERS itself */
	CHECK_INT(FOUND(fmf, 3, "MAINTAINERS/y/MAINTAINERS"), 0);
	r.find_files = 0;
	CHECK_INT(FOUND(fmf, 3, "c/d/MAINTAINERS"), 0);         /* only ./MAINTAINERS read */
	r.discover = MEV_DISCOVER_PATH;
	r.find_files = 1;
	snprintf(r.mpath, sizeof r.mpath, ".");
	CHECK_INT(FOUND(fmf + 1, 2, "c/MAINTAINERS"), 1);
	snprintf(r.mpath, sizeof r.mpath, "MAINTAINERS");
	CHECK_INT(FOUND(fmf + 1, 2, "c/MAINTAINERS"), 0);
#undef FOUND
}

int main(void)
{
	int rc;
	if (system("git --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "git not found: skipping\n");
		return TEST_SKIP;
	}
	snprintf(tmp_root, sizeof tmp_root, "%s", test_tmpdir("discover"));
	RUN(test_discover_uboot);
	RUN(test_discover_linux);
	RUN(test_discover_generations);
	RUN(test_found_by_find);
	rc = test_summary();
	test_tmpdir_remove(tmp_root);
	return rc;
}
