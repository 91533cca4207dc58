/*
 * Unit tests of the rules of a release's get_maintainer.pl and of the F:/X:
 * conversion they drive: dialect defaults, the glob conversion, Xen brace
 * lists, the directory test on a real tree, and a small repository built
 * around QEMU's script (field letters and N: as that script reads them);
 * and of the table of dialects: names, aliases, display names, detection
 * order, release tags.
 */
#include "test.h"
#include "maint_test.h"
#include "maintevo/dialect.h"
#include "maintevo/maintainers.h"
#include "maintevo/match.h"
#include "maintevo/repo.h"

#include <stdarg.h>
#include <stdint.h>

/* --- a tiny git repository (for the directory test) ---------------------- */

static char repo_dir[512];

#define GIT_ENV "GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent " \
	"GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.com " \
	"GIT_AUTHOR_DATE='2005-04-07T22:13:13 +0000' " \
	"GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL=committer@example.com " \
	"GIT_COMMITTER_DATE='2005-04-07T22:13:13 +0000' "

static int have_git(void)
{
	return system("git --version >/dev/null 2>&1") == 0;
}

static int make_dir_repo(void)
{
	snprintf(repo_dir, sizeof repo_dir, "%s", test_tmpdir("maint"));
	return sh("cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		      "mkdir -p drivers/net drivers/net.d arch/arm && "
		      "echo a > drivers/net/a.c && echo x > drivers/net.d/x && "
		      "echo k > arch/arm/Kconfig && "
		      "ln -s drivers lnk && ln -s arch/arm/Kconfig flink && "
		      "git add -A && " GIT_ENV "git commit -q -m init", repo_dir);
}

/* --- the tests ------------------------------------------------------------ */

static void test_regex_conversion(void)
{
	mev_rules r = linux_rules();
	mev_maint *m = parse_text(&r,
		"T\n"
		"F:\tdrivers/net/*.c\n"
		"X:\tfoo?bar\n"
		"F:\tinclude/[ab]*.h\n"
		"F:\ta.b.c\n"
		"F:\tx/**/y\n"
		"F:\tp+q(r|s)\\.t\n"
		"N:\tfoo.*bar?\n"
		"K:\tkey.word*\n"
		"M:\tm.*\n");
	if (!m)
		return;
	CHECK_STR(regexes(m, 0), "F=drivers/net/.*\\.c;X=foo.bar;F=include/[ab].*\\.h;F=a\\.b\\.c;"
		  "F=x/.*.*/y;F=p+q(r|s)\\\\.t;N=foo.*bar?");
	/* values are kept as read */
	CHECK_STR(fields(m, 0), "F=drivers/net/*.c;X=foo?bar;F=include/[ab]*.h;F=a.b.c;F=x/**/y;"
		  "F=p+q(r|s)\\.t;N=foo.*bar?;K=key.word*;M=m.*");
	CHECK_INT(section(m, 0)->n_patterns, 7);
	{
		const mev_field *f = mev_maint_fields(m);
		CHECK(f[7].regex == NULL); /* K: is not a file pattern */
		CHECK(f[8].regex == NULL);
		CHECK(f[6].regex == f[6].value || strcmp(f[6].regex, f[6].value) == 0);
	}
	mev_maint_free(m);
}

static void test_directory_test(void)
{
	mev_rules r = linux_rules();
	const char *text =
		"T\n"
		"F:\tdrivers/net\n"       /* a directory: '/' added */
		"F:\tdrivers/net/\n"      /* already has it */
		"X:\tdrivers/net\n"       /* X: too */
		"F:\tdrivers/net.d\n"     /* converted to 'drivers/net\.d': not a directory */
		"F:\tdrivers/?\n"         /* 'drivers/.' is a directory: 'drivers/./' */
		"F:\t?\n"                 /* '.' : the root */
		"F:\tdrivers//net\n"      /* '//' is fine for stat(2) */
		"F:\tlnk\n"               /* link to a directory: followed */
		"F:\tlnk/net\n"
		"F:\tflink\n"             /* link to a file */
		"F:\tarch/arm/Kconfig\n"  /* a file */
		"F:\tarch/ar?\n"          /* 'arch/ar.': no such entry */
		"F:\tmissing\n"
		"F:\tdriver*\n";          /* 'driver.*': not a directory */
	mev_repo *repo = NULL;
	mev_tree *tree = NULL;
	mev_oid head;
	mev_maint *m;

	if (!have_git() || make_dir_repo() != 0) {
		fprintf(stderr, "skipping test_directory_test: cannot build a git repository\n");
		if (repo_dir[0])
			test_tmpdir_remove(repo_dir);
		return;
	}
	CHECK_INT(mev_repo_open(&repo, repo_dir), 0);
	if (!repo)
		goto done;
	CHECK_INT(mev_repo_resolve(&head, NULL, repo, "HEAD"), 0);
	CHECK_INT(mev_tree_load(&tree, repo, &head), 0);
	if (!tree)
		goto done;
	{
		mev_maint_input in = { "MAINTAINERS", text, strlen(text) };
		m = parse_files(&r, &in, 1, tree);
	}
	if (m) {
		CHECK_STR(regexes(m, 0),
			  "F=drivers/net/;F=drivers/net/;X=drivers/net/;F=drivers/net\\.d;"
			  "F=drivers/./;F=./;F=drivers//net/;F=lnk/;F=lnk/net/;F=flink;"
			  "F=arch/arm/Kconfig;F=arch/ar.;F=missing;F=driver.*");
		/* the values are untouched */
		CHECK_STR(mev_maint_fields(m)[0].value, "drivers/net");
		mev_maint_free(m);
	}
	/* without a tree nothing is a directory */
	m = parse_text(&r, text);
	if (m) {
		CHECK_STR(regexes(m, 0),
			  "F=drivers/net;F=drivers/net/;X=drivers/net;F=drivers/net\\.d;"
			  "F=drivers/.;F=.;F=drivers//net;F=lnk;F=lnk/net;F=flink;"
			  "F=arch/arm/Kconfig;F=arch/ar.;F=missing;F=driver.*");
		mev_maint_free(m);
	}
done:
	mev_tree_free(tree);
	mev_repo_free(repo);
	test_tmpdir_remove(repo_dir);
}

static void test_xen_braces(void)
{
	/* expected values computed by running the two substitutions of Xen's
	 * get_maintainer.pl and the glob conversion in perl */
	static const struct { const char *value, *regex; } cases[] = {
		{ "xen/{arch,common}/foo", "xen/(arch|common)/foo" },
		{ "xen/{a,b,c}/x.c", "xen/(a|b|c)/x\\.c" },
		{ "x{a,b}y{c,d}", "x(a|b)y(c|d)" },
		{ "tools/{libs,include}/*.h", "tools/(libs|include)/.*\\.h" },
		{ "xen/\\{a,b}/x", "xen/\\{a,b}/x" },   /* escaped: untouched */
		{ "{a,b}/x", "{a,b}/x" },               /* needs a character before '{' */
		{ "x/{,a}", "x/(|a)" },
		{ "x/{a,}", "x/(a|)" },
		{ "x/{a}", "x/{a}" },
		{ "x/{a,b", "x/{a,b" },
		{ "x{,,}", "x(||)" },
		{ "x{a,{b,c}}", "x(a|{b|c})" },
	};
	mev_rules r;
	mev_rules_default(&r, MEV_DIALECT_XEN);
	CHECK_INT(r.braces, 1);
	CHECK_INT(r.drop_comments, 0);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[256];
		mev_maint *m;
		snprintf(text, sizeof text, "XEN\nF:\t%s\nX:\t%s\n", cases[i].value, cases[i].value);
		m = parse_text(&r, text);
		if (!m)
			continue;
		CHECK_STR(mev_maint_fields(m)[0].regex, cases[i].regex);
		CHECK_STR(mev_maint_fields(m)[1].regex, cases[i].regex);
		CHECK_STR(mev_maint_fields(m)[0].value, cases[i].value);
		mev_maint_free(m);
	}
	/* without the brace rule the braces stay */
	{
		mev_rules l = linux_rules();
		mev_maint *m = parse_text(&l, "T\nF:\txen/{arch,common}/foo\n");
		if (m) {
			CHECK_STR(mev_maint_fields(m)[0].regex, "xen/{arch,common}/foo");
			mev_maint_free(m);
		}
	}
}

static void test_rules_default_and_dialects(void)
{
	mev_rules r;
	mev_rules_default(&r, MEV_DIALECT_UBOOT);
	CHECK_INT(r.dialect, MEV_DIALECT_UBOOT);
	CHECK_INT(r.find_files, 1);
	CHECK_STR(r.mpath, ".");
	CHECK_INT(r.discover, MEV_DISCOVER_PATH);
	CHECK_INT(r.utf8, 0);
	mev_rules_default(&r, MEV_DIALECT_AUTO);
	CHECK_INT(r.dialect, MEV_DIALECT_LINUX);
	CHECK_INT(r.utf8, 1);
	CHECK_INT(r.drop_comments, 1);
	CHECK_INT(mev_dialect_parse("u-boot"), MEV_DIALECT_UBOOT);
	CHECK_INT(mev_dialect_parse("xen"), MEV_DIALECT_XEN);
	CHECK_INT(mev_dialect_parse("bsd"), -1);
	CHECK_STR(mev_dialect_name(MEV_DIALECT_QEMU), "qemu");
	/* NULL rules: the Linux defaults */
	{
		mev_maint *m = NULL;
		mev_maint_input in = { "M", "T\nF:\tx\n", 7 };
		CHECK_INT(mev_maint_parse(&m, NULL, &in, 1, NULL), 0);
		if (m) {
			CHECK_INT(mev_maint_rules(m)->dialect, MEV_DIALECT_LINUX);
			CHECK_INT(mev_maint_section_count(m), 1);
			mev_maint_free(m);
		}
		mev_maint_free(NULL);
	}
	/* no files at all */
	{
		mev_maint *m = NULL;
		CHECK_INT(mev_maint_parse(&m, NULL, NULL, 0, NULL), 0);
		if (m) {
			CHECK_INT(mev_maint_section_count(m), 0);
			mev_maint_free(m);
		}
	}
}

/* --- a repository built around QEMU's script ------------------------------- */

/*
 * The lines of QEMU's scripts/get_maintainer.pl (5.2 .. 10.2) that tell it
 * apart, as mev_rules_detect() reads them: any character before ':' starts
 * a field line, only blank lines are dropped, and get_maintainers() looks
 * at X: and F: lines only (no N:).
 */
static const char qemu_script[] =
	"#!/usr/bin/env perl\n"
	"my $conf = which_conf(\".get_maintainer.conf\");\n"
	"open (my $maint, '<', \"${lk_path}MAINTAINERS\")\n"
	"while (<$maint>) {\n"
	"    my $line = $_;\n"
	"    if ($line =~ m/^(.):\\s*(.*)/) {\n"
	"\tif ($type eq \"F\" || $type eq \"X\") {\n"
	"    } elsif (!/^(\\s)*$/) {\n"
	"\t\tif ($line =~ m/^(.):\\s*(.*)/) {\n"
	"\t\t    if ($type eq 'X') {\n"
	"\t\t\tif ($type eq 'F') {\n";

/* The same places in Linux's script (v4.x .. 6.12). */
static const char linux_script[] =
	"#!/usr/bin/env perl\n"
	"my $conf = which_conf(\".get_maintainer.conf\");\n"
	"\tif ($line =~ m/^([A-Z]):\\s*(.*)/) {\n"
	"\t} elsif (!(/^\\s*$/ || /^\\s*\\#/)) {\n"
	"\t\t    if ($type eq 'X') {\n"
	"\t\t\tif ($type eq 'F') {\n"
	"\t\t    } elsif ($type eq 'N') {\n";

/* QEMU's way of writing: a space after the colon, its catch-all section,
 * and the lines the two scripts read differently. */
static const char qemu_maintainers[] =
	"QEMU Maintainers\n================\n\n"
	"All patches CC here\nL: qemu-devel@nongnu.org\nF: *\nF: */\n\n"
	"ALPHA\nM: A <a@example.org>\nf: beta/\nF: alpha/\n1: one\nN: gamma\n"
	"# a comment line\n"
	"BETA\nM: B <b@example.org>\nF: beta/\n";

static int write_file(const char *dir, const char *path, const char *text)
{
	char p[1024];
	FILE *f;
	snprintf(p, sizeof p, "%s/%s", dir, path);
	if (!(f = fopen(p, "w")))
		return -1;
	fputs(text, f);
	return fclose(f);
}

static int make_qemu_repo(const char *d)
{
	return sh("cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		      "mkdir -p scripts alpha beta gamma && echo a > alpha/a.c && "
		      "echo b > beta/b.c && echo g > gamma/g.c && echo t > top.c && "
		      "echo q > qemu-options.hx", d) ||
	       write_file(d, "MAINTAINERS", qemu_maintainers) ||
	       write_file(d, "scripts/get_maintainer.pl", qemu_script) ||
	       sh("cd '%s' && git add -A && " GIT_ENV "git commit -q -m qemu && git tag qemu", d) ||
	       write_file(d, "scripts/get_maintainer.pl", linux_script) ||
	       sh("cd '%s' && git add -A && " GIT_ENV "git commit -q -m linux && git tag linux", d);
}

static mev_maint *load_rev(mev_repo *repo, const char *rev, mev_rules *rules)
{
	mev_oid c;
	mev_tree *t = NULL;
	mev_maint *m = NULL;
	CHECK_INT(mev_repo_resolve(&c, NULL, repo, rev), 0);
	CHECK_INT(mev_tree_load(&t, repo, &c), 0);
	if (!t)
		return NULL;
	CHECK_INT(mev_rules_detect(rules, repo, t, NULL), 0);
	CHECK_INT(mev_maint_load(&m, rules, repo, t), 0);
	mev_tree_free(t);
	return m;
}

static void test_qemu_script(void)
{
	static const char *const paths[] = { "alpha/a.c", "beta/b.c", "gamma/g.c", "top.c" };
	const char *d = test_tmpdir("qemu");
	mev_repo *repo = NULL;
	mev_rules r;
	mev_maint *m;

	if (!have_git() || make_qemu_repo(d) != 0) {
		fprintf(stderr, "skipping test_qemu_script: cannot build a git repository\n");
		test_tmpdir_remove(d);
		return;
	}
	CHECK_INT(mev_repo_open(&repo, d), 0);
	if (!repo)
		goto done;

	/* QEMU's script: 'f:' and '1:' are field lines the matching ignores,
	 * N: matches nothing, '#' lines are title lines */
	if ((m = load_rev(repo, "qemu", &r))) {
		CHECK_INT(r.dialect, MEV_DIALECT_QEMU);
		CHECK_INT(r.any_type, 1);
		CHECK_INT(r.no_n, 1);
		CHECK_INT(r.drop_comments, 0);
		CHECK_INT(r.discover, MEV_DISCOVER_TOP);
		CHECK_STR(titles(m), "All patches CC here|ALPHA|BETA");
		CHECK_STR(fields(m, 1), "M=A <a@example.org>;f=beta/;F=alpha/;1=one;N=gamma");
		CHECK_STR(regexes(m, 1), "F=alpha/");
		CHECK_INT(mev_maint_sections(m)[0].is_rest, 1);
		CHECK_STR(coverage(m, paths, 4), "alpha/a.c=All patches CC here,ALPHA;"
			  "beta/b.c=All patches CC here,BETA;gamma/g.c=All patches CC here;"
			  "top.c=All patches CC here");
		CHECK_DIAG(m, "MAINTAINERS:14:", "no N: handling", 1);
		CHECK_DIAG(m, "MAINTAINERS:11:", "unknown field type 'f:'", 1);
		CHECK_DIAG(m, "MAINTAINERS:15:", "not followed by fields", 1);
		CHECK_DIAG(m, "", "space instead of a tab", 0); /* the file's own way */
		mev_maint_free(m);
	}
	/* the same file under Linux's script: only A-Z letters, N: active,
	 * '#' lines dropped */
	if ((m = load_rev(repo, "linux", &r))) {
		CHECK_INT(r.any_type, 0);
		CHECK_INT(r.no_n, 0);
		CHECK_INT(r.drop_comments, 1);
		CHECK_STR(titles(m), "All patches CC here|ALPHA|f: beta/|1: one|BETA");
		CHECK_STR(coverage(m, paths, 4), "alpha/a.c=All patches CC here,f: beta/;"
			  "beta/b.c=All patches CC here,BETA;gamma/g.c=All patches CC here,1: one;"
			  "top.c=All patches CC here");
		mev_maint_free(m);
	}
	/* a tree without a script gets its dialect's current rules */
	{
		mev_rules q;
		mev_rules_default(&q, MEV_DIALECT_QEMU);
		CHECK_INT(q.any_type, 1);
		CHECK_INT(q.no_n, 1);
		CHECK_INT(q.drop_comments, 0);
		CHECK_INT(q.discover, MEV_DISCOVER_TOP);
		mev_rules_default(&q, MEV_DIALECT_LINUX);
		CHECK_INT(q.no_n, 0);
	}
done:
	mev_repo_free(repo);
	test_tmpdir_remove(d);
}

/* --- the table of dialects ----------------------------------------------- */

static void test_dialect_table(void)
{
	/* stores and tests keep these numbers */
	CHECK_INT(MEV_DIALECT_AUTO, 0);
	CHECK_INT(MEV_DIALECT_LINUX, 1);
	CHECK_INT(MEV_DIALECT_UBOOT, 2);
	CHECK_INT(MEV_DIALECT_XEN, 3);
	CHECK_INT(MEV_DIALECT_QEMU, 4);
	CHECK_INT(MEV_DIALECT_OPTEE, 5);
	CHECK_INT(MEV_DIALECT_EDK2, 6);
	CHECK_INT(MEV_DIALECT_ZEPHYR, 7);
	CHECK_INT(MEV_DIALECT_COREBOOT, 8);
	CHECK_INT(MEV_DIALECT_DPDK, 9);
	CHECK_INT(MEV_DIALECT_COUNT, 9);
	CHECK_INT(MEV_DIALECT_END, 10);
	for (int d = 1; d < MEV_DIALECT_END; d++) {
		const mev_dialect_info *in = mev_dialect_info_get((mev_dialect)d);
		CHECK(in != NULL);
		if (!in)
			continue;
		/* every name and alias parses back to its dialect, and no other has it */
		CHECK_STR(mev_dialect_name((mev_dialect)d), in->name);
		CHECK_INT(mev_dialect_parse(in->name), d);
		for (const char *const *a = in->aliases; a && *a; a++)
			CHECK_INT(mev_dialect_parse(*a), d);
		CHECK_STR(mev_dialect_display((mev_dialect)d), in->display);
		/* every text is there, without a full stop or a comma in a name */
		CHECK(in->display[0] && in->tags[0] && in->rc_tags[0] && in->files[0] && in->detect[0]);
		CHECK(!strpbrk(in->name, ",. \n"));
		CHECK(in->tags[strlen(in->tags) - 1] != '.');
		CHECK(in->detect[strlen(in->detect) - 1] != '.');
	}
	CHECK_STR(mev_dialect_name(MEV_DIALECT_AUTO), "auto");
	CHECK_STR(mev_dialect_name(MEV_DIALECT_END), "?");
	CHECK_STR(mev_dialect_name((mev_dialect)-1), "?");
	CHECK_INT(mev_dialect_parse("auto"), MEV_DIALECT_AUTO);
	CHECK_INT(mev_dialect_parse("U-Boot"), -1); /* names are exact */
	CHECK_INT(mev_dialect_parse(""), -1);
	CHECK(mev_dialect_info_get(MEV_DIALECT_AUTO) == NULL);
	CHECK(mev_dialect_info_get(MEV_DIALECT_END) == NULL);
	CHECK(mev_dialect_display(MEV_DIALECT_AUTO) == NULL);
	CHECK_STR(mev_dialect_display(MEV_DIALECT_LINUX), "Linux");
	CHECK_STR(mev_dialect_display(MEV_DIALECT_UBOOT), "U-Boot");
	CHECK_STR(mev_dialect_display(MEV_DIALECT_XEN), "Xen");
	CHECK_STR(mev_dialect_display(MEV_DIALECT_QEMU), "QEMU");
	CHECK_STR(mev_dialect_display(MEV_DIALECT_COREBOOT), "coreboot");
	CHECK_INT(mev_dialect_parse("coreboot"), MEV_DIALECT_COREBOOT);
	CHECK_STR(mev_dialect_display(MEV_DIALECT_DPDK), "DPDK");
	CHECK_INT(mev_dialect_parse("dpdk"), MEV_DIALECT_DPDK);
	CHECK_INT(mev_dialect_parse("linux"), MEV_DIALECT_LINUX);
	CHECK_INT(mev_dialect_parse("uboot"), MEV_DIALECT_UBOOT);
	CHECK_INT(mev_dialect_parse("qemu"), MEV_DIALECT_QEMU);
}

/* Each dialect's defaults, as its newest script reads (for trees without one). */
static void test_dialect_defaults(void)
{
	mev_rules r;
	mev_rules_default(&r, MEV_DIALECT_LINUX);
	CHECK_INT(r.discover, MEV_DISCOVER_PATH);
	CHECK_INT(r.utf8 + r.drop_comments, 2);
	CHECK_INT(r.braces + r.any_type + r.no_n + r.find_files, 0);
	mev_rules_default(&r, MEV_DIALECT_XEN);
	CHECK_INT(r.dialect, MEV_DIALECT_XEN);
	CHECK_INT(r.discover, MEV_DISCOVER_TOP);
	CHECK_INT(r.braces, 1);
	CHECK_INT(r.drop_comments + r.utf8 + r.any_type + r.no_n, 0);
	mev_rules_default(&r, MEV_DIALECT_QEMU);
	CHECK_INT(r.dialect, MEV_DIALECT_QEMU);
	CHECK_INT(r.discover, MEV_DISCOVER_TOP);
	CHECK_INT(r.any_type + r.no_n, 2);
	CHECK_INT(r.drop_comments + r.utf8 + r.braces, 0);
	CHECK_INT(r.regex_patterns + r.fallback, 0);
	/* get_maintainer.py: letters any character, no N:, anchored regexes */
	mev_rules_default(&r, MEV_DIALECT_OPTEE);
	CHECK_INT(r.discover, MEV_DISCOVER_TOP);
	CHECK_INT(r.any_type + r.no_n + r.utf8 + r.regex_patterns, 4);
	CHECK_INT(r.drop_comments + r.braces + r.fallback + r.no_dir_slash, 0);
	/* GetMaintainer.py of 2023-11 on: Maintainers.txt, no directory test */
	mev_rules_default(&r, MEV_DIALECT_EDK2);
	CHECK_INT(r.discover, MEV_DISCOVER_PATH);
	CHECK_STR(r.mpath, "Maintainers.txt");
	CHECK_INT(r.regex_patterns + r.no_dir_slash + r.fallback + r.no_n, 4);
	CHECK_INT(r.fallback_r + r.m_needs_addr + r.braces, 0);
	/* get_maintainer.py: MAINTAINERS.yml, whole-path globs, regexes */
	mev_rules_default(&r, MEV_DIALECT_ZEPHYR);
	CHECK_STR(r.mpath, "MAINTAINERS.yml");
	CHECK_INT(r.regex_patterns + r.utf8, 2);
	CHECK_INT(r.fallback + r.no_dir_slash + r.no_n + r.braces, 0);
	/* coreboot's script (the kernel's of 2017): ./MAINTAINERS, '#' lines kept */
	mev_rules_default(&r, MEV_DIALECT_COREBOOT);
	CHECK_INT(r.dialect, MEV_DIALECT_COREBOOT);
	CHECK_INT(r.discover, MEV_DISCOVER_TOP);
	CHECK_INT(r.drop_comments + r.utf8 + r.braces + r.any_type + r.no_n + r.find_files, 0);
	/* DPDK: the kernel's script (Linux 6.12), as devtools/get-maintainer.sh runs it */
	mev_rules_default(&r, MEV_DIALECT_DPDK);
	CHECK_INT(r.dialect, MEV_DIALECT_DPDK);
	CHECK_INT(r.discover, MEV_DISCOVER_PATH);
	CHECK_INT(r.utf8 + r.drop_comments, 2);
	CHECK_INT(r.braces + r.any_type + r.no_n + r.find_files, 0);
	CHECK_STR(r.mpath, "");
}

/* Each dialect's release tags, and AUTO taking the fallback's (Linux's). */
static void test_dialect_release_tags(void)
{
	static const struct {
		mev_dialect d;
		const char *tag;
		int release, rc; /* without --rc, with it */
	} t[] = {
		{ MEV_DIALECT_LINUX, "v6.12", 1, 1 },       { MEV_DIALECT_LINUX, "v6.12.3-rc1", 0, 1 },
		{ MEV_DIALECT_LINUX, "v2024.01", 0, 0 },    { MEV_DIALECT_UBOOT, "v2024.10", 1, 1 },
		{ MEV_DIALECT_UBOOT, "v2024.1", 0, 0 },     { MEV_DIALECT_UBOOT, "v2024.10-rc12", 0, 1 },
		{ MEV_DIALECT_XEN, "RELEASE-4.19.0", 1, 1 }, { MEV_DIALECT_XEN, "RELEASE-4.19.0-rc3", 0, 1 },
		{ MEV_DIALECT_XEN, "v4.19.0", 0, 0 },       { MEV_DIALECT_QEMU, "v9.1.0", 1, 1 },
		{ MEV_DIALECT_QEMU, "v9.1.0-rc4", 0, 1 },   { MEV_DIALECT_QEMU, "v9.1.0-rc", 0, 0 },
		{ MEV_DIALECT_QEMU, "v9.1", 0, 0 },         { MEV_DIALECT_OPTEE, "4.10.0", 1, 1 },
		{ MEV_DIALECT_OPTEE, "4.10.0-rc1", 0, 1 },  { MEV_DIALECT_OPTEE, "20160825-for-lmg", 0, 0 },
		{ MEV_DIALECT_OPTEE, "v4.10.0", 0, 0 },     { MEV_DIALECT_EDK2, "edk2-stable202605", 1, 1 },
		{ MEV_DIALECT_EDK2, "edk2-stable202408.01", 1, 1 },
		{ MEV_DIALECT_EDK2, "edk2-stable202108-rc0", 0, 1 },
		{ MEV_DIALECT_EDK2, "edk2-stable20260", 0, 0 }, { MEV_DIALECT_EDK2, "vUDK2018", 0, 0 },
		{ MEV_DIALECT_ZEPHYR, "v2.6.0", 1, 1 },     { MEV_DIALECT_ZEPHYR, "v2.6.0-rc3", 0, 1 },
		{ MEV_DIALECT_ZEPHYR, "zephyr-v2.6.0", 0, 0 }, { MEV_DIALECT_ZEPHYR, "v2.6", 0, 0 },
		{ MEV_DIALECT_AUTO, "v6.1", 1, 1 },
		{ MEV_DIALECT_AUTO, "v6.1-rc1", 0, 1 },     { MEV_DIALECT_AUTO, "v2024.01", 0, 0 },
		{ MEV_DIALECT_COREBOOT, "4.1", 1, 1 },      { MEV_DIALECT_COREBOOT, "4.22.01", 1, 1 },
		{ MEV_DIALECT_COREBOOT, "4.8.1", 1, 1 },    { MEV_DIALECT_COREBOOT, "24.02", 1, 1 },
		{ MEV_DIALECT_COREBOOT, "24.02.01", 1, 1 }, { MEV_DIALECT_COREBOOT, "2.0.0", 0, 0 },
		{ MEV_DIALECT_COREBOOT, "4.1-rc1", 0, 0 },  { MEV_DIALECT_COREBOOT, "v4.1", 0, 0 },
		{ MEV_DIALECT_COREBOOT, "19.02", 0, 0 },    { MEV_DIALECT_COREBOOT, "24.2", 0, 0 },
		{ MEV_DIALECT_COREBOOT, "4.", 0, 0 },       { MEV_DIALECT_COREBOOT, "4.22.", 0, 0 },
		{ MEV_DIALECT_LINUX, "4.22", 0, 0 },        { MEV_DIALECT_QEMU, "24.02.01", 0, 0 },
		{ MEV_DIALECT_DPDK, "v2.0.0", 1, 1 },       { MEV_DIALECT_DPDK, "v2.2.0-rc4", 0, 1 },
		{ MEV_DIALECT_DPDK, "v16.04", 1, 1 },       { MEV_DIALECT_DPDK, "v26.07-rc4", 0, 1 },
		{ MEV_DIALECT_DPDK, "v20.11.10", 1, 1 },    { MEV_DIALECT_DPDK, "v20.11.9-rc1", 0, 1 },
		{ MEV_DIALECT_DPDK, "v1.8.0", 0, 0 },       { MEV_DIALECT_DPDK, "v1.2.3r0", 0, 0 },
		{ MEV_DIALECT_DPDK, "v15.11", 0, 0 },       { MEV_DIALECT_DPDK, "v2.0", 0, 0 },
		{ MEV_DIALECT_DPDK, "20.11", 0, 0 },        { MEV_DIALECT_DPDK, "v20.11.", 0, 0 },
		{ MEV_DIALECT_DPDK, "v20.11.1234", 0, 0 },  { MEV_DIALECT_LINUX, "v20.11", 1, 1 },
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		if (mev_tag_is_release(t[i].d, t[i].tag, 0) != t[i].release ||
		    mev_tag_is_release(t[i].d, t[i].tag, 1) != t[i].rc)
			fprintf(stderr, "%s as %s\n", t[i].tag, mev_dialect_name(t[i].d));
		CHECK_INT(mev_tag_is_release(t[i].d, t[i].tag, 0), t[i].release);
		CHECK_INT(mev_tag_is_release(t[i].d, t[i].tag, 1), t[i].rc);
	}
}

/*
 * --dialect auto on trees that look like one project, two, or none: U-Boot
 * is tried first, then Xen, QEMU, coreboot, DPDK, and Linux takes the rest.  Each
 * tag's tree holds the paths listed (a name ending in '/' a folder).
 */
static void test_dialect_guess(void)
{
	static const struct {
		const char *tag, *paths;
		mev_dialect want;
	} t[] = {
		{ "plain", "Makefile kernel/", MEV_DIALECT_LINUX },
		{ "uboot", "board/ include/configs/", MEV_DIALECT_UBOOT },
		{ "board-only", "board/ include/", MEV_DIALECT_LINUX },
		{ "xen", "xen/common/", MEV_DIALECT_XEN },
		{ "xen-tools", "xen/ tools/", MEV_DIALECT_XEN },
		{ "linux-xen", "xen/ tools/ Kbuild", MEV_DIALECT_LINUX },
		{ "qemu", "qemu-options.hx", MEV_DIALECT_QEMU },
		{ "qemu-hw", "hw/ target/", MEV_DIALECT_QEMU },
		{ "qemu-dir", "qemu-options.hx/", MEV_DIALECT_LINUX },
		{ "uboot-first", "xen/common/ qemu-options.hx board/ include/configs/", MEV_DIALECT_UBOOT },
		{ "xen-before-qemu", "qemu-options.hx xen/common/", MEV_DIALECT_XEN },
		{ "optee", "core/arch/arm/ ta/ mk/ lib/", MEV_DIALECT_OPTEE },
		{ "optee-core-only", "core/arch/ lib/ drivers/", MEV_DIALECT_LINUX },
		{ "edk2", "MdePkg/ BaseTools/ OvmfPkg/ Maintainers.txt", MEV_DIALECT_EDK2 },
		{ "edk2-tools-only", "BaseTools/ tools/", MEV_DIALECT_LINUX },
		{ "zephyr", "zephyr-env.sh boards/ kernel/ subsys/", MEV_DIALECT_ZEPHYR },
		{ "zephyr-west", "west.yml boards/ kernel/", MEV_DIALECT_ZEPHYR },
		{ "zephyr-dirs", "boards/ subsys/ drivers/", MEV_DIALECT_ZEPHYR },
		{ "zephyr-boards-only", "boards/ drivers/ kernel/", MEV_DIALECT_LINUX },
		{ "coreboot", "src/mainboard/ src/northbridge/ util/", MEV_DIALECT_COREBOOT },
		{ "mainboard-only", "src/mainboard/ util/", MEV_DIALECT_LINUX },
		{ "qemu-before-coreboot", "src/mainboard/ src/northbridge/ hw/ target/", MEV_DIALECT_QEMU },
		{ "dpdk", "app/test-pmd/ lib/eal/ drivers/net/", MEV_DIALECT_DPDK },
		{ "dpdk-old", "app/test-pmd/ lib/librte_eal/", MEV_DIALECT_DPDK },
		{ "testpmd-only", "app/test-pmd/ drivers/", MEV_DIALECT_LINUX },
		{ "linux-app", "app/ lib/ kernel/ Kbuild", MEV_DIALECT_LINUX },
		{ "coreboot-before-dpdk", "app/test-pmd/ lib/ src/mainboard/ src/northbridge/", MEV_DIALECT_COREBOOT },
	};
	const char *d;
	mev_repo *repo = NULL;

	if (!have_git()) {
		fprintf(stderr, "skipping test_dialect_guess: no git\n");
		return;
	}
	d = test_tmpdir("guess");
	if (sh("cd '%s' && git -c init.defaultBranch=main init -q .", d))
		goto done;
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		/* a folder gets a file ("x") to exist in git */
		if (sh("cd '%s' && git rm -rqf --ignore-unmatch . && for p in %s; do "
		       "case $p in */) mkdir -p \"$p\" && echo x > \"$p/x\" ;; "
		       "*) mkdir -p \"$(dirname \"$p\")\" && echo x > \"$p\" ;; esac; done && "
		       "git add -A && " GIT_ENV "git commit -q -m %s && git tag %s",
		       d, t[i].paths, t[i].tag, t[i].tag))
			goto done;
	CHECK_INT(mev_repo_open(&repo, d), 0);
	for (size_t i = 0; repo && i < sizeof t / sizeof *t; i++) {
		mev_oid c;
		mev_tree *tree = NULL;
		CHECK_INT(mev_repo_resolve(&c, NULL, repo, t[i].tag), 0);
		CHECK_INT(mev_tree_load(&tree, repo, &c), 0);
		if (!tree)
			continue;
		if (mev_dialect_guess(tree) != t[i].want)
			fprintf(stderr, "guess: tree '%s'\n", t[i].tag);
		CHECK_INT(mev_dialect_guess(tree), t[i].want);
		mev_tree_free(tree);
	}
done:
	mev_repo_free(repo);
	test_tmpdir_remove(d);
}

int main(void)
{
	RUN(test_regex_conversion);
	RUN(test_directory_test);
	RUN(test_xen_braces);
	RUN(test_rules_default_and_dialects);
	RUN(test_qemu_script);
	RUN(test_dialect_table);
	RUN(test_dialect_defaults);
	RUN(test_dialect_release_tags);
	RUN(test_dialect_guess);
	return test_summary();
}
