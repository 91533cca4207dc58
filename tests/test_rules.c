/*
 * Unit tests of the rules of a release's get_maintainer.pl and of the F:/X:
 * conversion they drive: dialect defaults, the glob conversion, Xen brace
 * lists, and the directory test on a real tree.
 */
#include "test.h"
#include "maint_test.h"
#include "maintevo/maintainers.h"
#include "maintevo/repo.h"

#include <stdarg.h>
#include <stdint.h>

/* --- a tiny git repository (for the directory test) ---------------------- */

static char repo_dir[512];

static int run_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int run_sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int st;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	st = system(cmd);
	return st == 0 ? 0 : -1;
}

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
	return run_sh("cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
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

int main(void)
{
	RUN(test_regex_conversion);
	RUN(test_directory_test);
	RUN(test_xen_braces);
	RUN(test_rules_default_and_dialects);
	return test_summary();
}
