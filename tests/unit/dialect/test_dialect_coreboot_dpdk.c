/*
 * Planted trees of two dialects with what they do differently: coreboot
 * (its script in util/scripts/, comment lines kept: a '#' line inside a
 * section starts a new one; the 2015 scripts' \C field letter) and DPDK
 * (no script of its own: the kernel's, group headings underlined with
 * '---' or '===', one space after the field letter).
 */
#include "test.h"
#include "maint_test.h"
#include "maintevo/dialect.h"
#include "maintevo/maintainers.h"
#include "maintevo/match.h"
#include "maintevo/repo.h"
#include "util/buf.h"

#include <stdint.h>

#define GIT_ENV "GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent " \
	"GIT_AUTHOR_NAME='A U Thor' GIT_AUTHOR_EMAIL=author@example.com " \
	"GIT_AUTHOR_DATE='2005-04-07T22:13:13 +0000' " \
	"GIT_COMMITTER_NAME='C O Mitter' GIT_COMMITTER_EMAIL=committer@example.com " \
	"GIT_COMMITTER_DATE='2005-04-07T22:13:13 +0000' "

static int have_git(void)
{
	return system("git --version >/dev/null 2>&1") == 0;
}

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

/* The display names of all sections: "A|B|C". */
static const char *displays(const mev_maint *m)
{
	static char b[2048];
	b[0] = '\0';
	for (size_t i = 0; i < mev_maint_section_count(m); i++) {
		size_t l = strlen(b);
		snprintf(b + l, sizeof b - l, "%s%s", i ? "|" : "", mev_maint_sections(m)[i].display);
	}
	return b;
}

/* The release at rev read with the rules detected (dialect d, or auto). */
static mev_maint *load_rev(mev_repo *repo, const char *rev, mev_dialect d, mev_rules *rules)
{
	mev_rules_options ro = { d, 0, NULL };
	mev_oid c;
	mev_tree *t = NULL;
	mev_maint *m = NULL;
	CHECK_INT(mev_repo_resolve(&c, NULL, repo, rev), 0);
	CHECK_INT(mev_tree_load(&t, repo, &c), 0);
	if (!t)
		return NULL;
	CHECK_INT(mev_rules_detect(rules, repo, t, &ro), 0);
	CHECK_INT(mev_maint_load(&m, rules, repo, t), 0);
	mev_tree_free(t);
	return m;
}

/* --- coreboot ------------------------------------------------------------- */

/*
 * The lines of coreboot's util/scripts/get_maintainer.pl that
 * mev_rules_detect() reads: the 2015 copy (coreboot 4.1 .. 4.5) takes any
 * byte before ':' (\C), the 2017 one (4.6 on) only A-Z; both keep '#'
 * lines (only blank lines are dropped) and read ./MAINTAINERS alone.
 */
#define CB_SCRIPT(letter) \
	"#!/usr/bin/env perl\n" \
	"my $conf = which_conf(\".get_maintainer.conf\");\n" \
	"open (my $maint, '<', \"${lk_path}MAINTAINERS\")\n" \
	"    if ($line =~ m/^(" letter "):\\s*(.*)/) {\n" \
	"    } elsif (!/^(\\s)*$/) {\n" \
	"\t\t    if ($type eq 'X') {\n" \
	"\t\t\tif ($type eq 'F') {\n" \
	"\t\t\t} elsif ($type eq 'N') {\n"

static const char cb_maintainers[] =
	"Maintainers List\n"
	"################################################################################\n"
	"# Mainboards\n"
	"################################################################################\n"
	"\n"
	"ASUS MAINBOARDS\n"
	"M:\tA <a@example.org>\n"
	"S:\tMaintained\n"
	"F:\tsrc/mainboard/asus/\n"
	"# the KGPE-D16 port has its own maintainer\n"
	"F:\tsrc/mainboard/asus/kgpe-d16/\n"
	"X:\tsrc/mainboard/asus/kgpe-d16/acpi/\n"
	"\n"
	"LENOVO MAINBOARDS\n"
	"M:\tB <b@example.org>\n"
	"f:\tsrc/ec/\n"
	"F:\tsrc/mainboard/lenovo/\n"
	"N:\tthinkpad\n"
	"\n"
	"THE REST\n"
	"M:\tC <c@example.org>\n"
	"F:\t*\n"
	"F:\t*/\n";

static int make_coreboot_repo(const char *d)
{
	return sh("cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		      "mkdir -p util/scripts src/mainboard/asus/kgpe-d16/acpi src/mainboard/lenovo "
		      "src/northbridge/intel src/ec/thinkpad && "
		      "echo a > src/mainboard/asus/kgpe-d16/acpi/dsdt.asl && "
		      "echo b > src/mainboard/asus/kgpe-d16/romstage.c && "
		      "echo c > src/mainboard/asus/Kconfig && echo d > src/mainboard/lenovo/x.c && "
		      "echo e > src/northbridge/intel/n.c && echo f > src/ec/thinkpad/ec.c", d) ||
	       write_file(d, "MAINTAINERS", cb_maintainers) ||
	       write_file(d, "util/scripts/get_maintainer.pl", CB_SCRIPT("\\C")) ||
	       sh("cd '%s' && git add -A && " GIT_ENV "git commit -q -m 4.1 && git tag 4.1", d) ||
	       write_file(d, "util/scripts/get_maintainer.pl", CB_SCRIPT("[A-Z]")) ||
	       sh("cd '%s' && git add -A && " GIT_ENV "git commit -q -m 4.6 && git tag 4.6 && "
		  "git rm -q util/scripts/get_maintainer.pl && " GIT_ENV "git commit -q -m none && "
		  "git tag none", d);
}

static void test_coreboot_tree(void)
{
	static const char *const paths[] = {
		"src/mainboard/asus/kgpe-d16/acpi/dsdt.asl", "src/mainboard/asus/kgpe-d16/romstage.c",
		"src/mainboard/asus/Kconfig", "src/ec/thinkpad/ec.c", "src/northbridge/intel/n.c",
	};
	const char *d = test_tmpdir("coreboot");
	mev_repo *repo = NULL;
	mev_rules r;
	mev_maint *m;

	if (!have_git() || make_coreboot_repo(d) != 0) {
		fprintf(stderr, "skipping test_coreboot_tree: cannot build a git repository\n");
		test_tmpdir_remove(d);
		return;
	}
	CHECK_INT(mev_repo_open(&repo, d), 0);
	if (!repo)
		goto done;

	/* the 2017 script: the '#' line inside ASUS MAINBOARDS is the title
	 * of the two fields after it, a section of its own, so its X: keeps
	 * the ACPI folder out of that section only; 'f:' is no field line */
	if ((m = load_rev(repo, "4.6", MEV_DIALECT_AUTO, &r))) {
		CHECK_INT(r.dialect, MEV_DIALECT_COREBOOT);
		CHECK_INT(r.has_script, 1);
		CHECK_INT(r.any_type + r.drop_comments + r.utf8 + r.no_n, 0);
		CHECK_INT(r.discover, MEV_DISCOVER_TOP);
		CHECK_STR(titles(m), "ASUS MAINBOARDS|# the KGPE-D16 port has its own maintainer|"
			  "LENOVO MAINBOARDS|f:\tsrc/ec/|THE REST");
		CHECK_STR(fields(m, 1), "F=src/mainboard/asus/kgpe-d16/;X=src/mainboard/asus/kgpe-d16/acpi/");
		CHECK_INT(mev_maint_sections(m)[4].is_rest, 1);
		CHECK_STR(coverage(m, paths, 5),
			  "src/mainboard/asus/kgpe-d16/acpi/dsdt.asl=ASUS MAINBOARDS,THE REST;"
			  "src/mainboard/asus/kgpe-d16/romstage.c=ASUS MAINBOARDS,"
			  "# the KGPE-D16 port has its own maintainer,THE REST;"
			  "src/mainboard/asus/Kconfig=ASUS MAINBOARDS,THE REST;"
			  "src/ec/thinkpad/ec.c=f:\tsrc/ec/,THE REST;"
			  "src/northbridge/intel/n.c=THE REST");
		/* every title is a name, shown as it is */
		CHECK_STR(displays(m), titles(m));
		CHECK_DIAG(m, "MAINTAINERS:10:", "comment line kept as a possible section title", 1);
		CHECK_DIAG(m, "MAINTAINERS:16:", "lowercase field 'f:' is not a field", 1);
		mev_maint_free(m);
	}
	/* the 2015 script (\C): 'f:' is a field line of LENOVO MAINBOARDS
	 * (matching nothing), whose N: takes the thinkpad EC */
	if ((m = load_rev(repo, "4.1", MEV_DIALECT_AUTO, &r))) {
		CHECK_INT(r.any_type, 1);
		CHECK_INT(r.drop_comments, 0);
		CHECK_STR(titles(m), "ASUS MAINBOARDS|# the KGPE-D16 port has its own maintainer|"
			  "LENOVO MAINBOARDS|THE REST");
		CHECK_STR(coverage(m, paths + 3, 1), "src/ec/thinkpad/ec.c=LENOVO MAINBOARDS,THE REST");
		CHECK_DIAG(m, "MAINTAINERS:16:", "unknown field type 'f:'", 1);
		mev_maint_free(m);
	}
	/* the same file read by Linux's rules: the comment is dropped, the
	 * section stays whole and its X: keeps the ACPI folder out of it */
	{
		mev_rules l = linux_rules();
		if ((m = parse_text(&l, cb_maintainers))) {
			CHECK_STR(titles(m), "ASUS MAINBOARDS|LENOVO MAINBOARDS|f:\tsrc/ec/|THE REST");
			mev_maint_free(m);
		}
	}
	/* a coreboot tree without the script: its dialect's newest rules */
	if ((m = load_rev(repo, "none", MEV_DIALECT_COREBOOT, &r))) {
		CHECK_INT(r.has_script, 0);
		CHECK_INT(r.any_type + r.drop_comments, 0);
		CHECK_STR(titles(m), "ASUS MAINBOARDS|# the KGPE-D16 port has its own maintainer|"
			  "LENOVO MAINBOARDS|f:\tsrc/ec/|THE REST");
		mev_maint_free(m);
	}
	CHECK_STR(mev_dialect_script(MEV_DIALECT_COREBOOT), "util/scripts/get_maintainer.pl");
	CHECK_STR(mev_dialect_script(MEV_DIALECT_LINUX), "scripts/get_maintainer.pl");
	CHECK_STR(mev_dialect_script(MEV_DIALECT_AUTO), "scripts/get_maintainer.pl");
done:
	mev_repo_free(repo);
	test_tmpdir_remove(d);
}

/* --- DPDK ------------------------------------------------------------------ */

/* DPDK's way of writing: group headings underlined with '-' or '=', a
 * section right under some of them, one space after the field letter, no
 * S: lines; and a '#' line the kernel's script skips. */
static const char dpdk_maintainers[] =
	"DPDK Maintainers\n"
	"================\n"
	"\n"
	"Descriptions of section entries:\n"
	"\n"
	"\tM: Maintainer's Full Name <address@domain>\n"
	"\tF: Files and directories with wildcard patterns.\n"
	"\n"
	"\n"
	"General Project Administration\n"
	"------------------------------\n"
	"\n"
	"Main Branch\n"
	"M: T <t@example.org>\n"
	"T: git://dpdk.org/dpdk\n"
	"F: MAINTAINERS\n"
	"\n"
	"Security Issues\n"
	"---------------\n"
	"M: security@example.org\n"
	"\n"
	"\n"
	"Environment Abstraction Layer\n"
	"-----------------------------\n"
	"T: git://dpdk.org/dpdk\n"
	"\n"
	"EAL API and common code\n"
	"F: lib/eal/common/\n"
	"# the headers too\n"
	"F: lib/eal/include/\n"
	"\n"
	"\n"
	"Networking Drivers\n"
	"==================\n"
	"M: N <n@example.org>\n"
	"T: git://dpdk.org/next/dpdk-next-net\n"
	"\n"
	"Intel ice\n"
	"M: I <i@example.org>\n"
	"F: drivers/net/ice/\n"
	"X: drivers/net/ice/base/\n"
	"\n"
	"Crypto Drivers\n"
	"--------------\n"
	"T: git://dpdk.org/next/dpdk-next-crypto\n";

static int make_dpdk_repo(const char *d)
{
	return sh("cd '%s' && " GIT_ENV "git -c init.defaultBranch=main init -q . && "
		      "mkdir -p app/test-pmd lib/eal/common lib/eal/include drivers/net/ice/base doc && "
		      "echo a > app/test-pmd/testpmd.c && echo b > lib/eal/common/eal.c && "
		      "echo c > lib/eal/include/rte_eal.h && echo d > drivers/net/ice/ice_ethdev.c && "
		      "echo e > drivers/net/ice/base/ice_common.c", d) ||
	       write_file(d, "MAINTAINERS", dpdk_maintainers) ||
	       sh("cd '%s' && git add -A && " GIT_ENV "git commit -q -m v20.11 && git tag v20.11", d) ||
	       /* a .get_maintainer.conf: the kernel's script, run from the root, reads it */
	       write_file(d, ".get_maintainer.conf", "--maintainer-path=doc/MAINTAINERS # moved\n") ||
	       write_file(d, "doc/MAINTAINERS", "Docs\nM: D <d@example.org>\nF: doc/\n") ||
	       sh("cd '%s' && git add -A && " GIT_ENV "git commit -q -m conf && git tag conf", d);
}

static void test_dpdk_tree(void)
{
	static const char *const paths[] = {
		"MAINTAINERS", "lib/eal/include/rte_eal.h", "drivers/net/ice/ice_ethdev.c",
		"drivers/net/ice/base/ice_common.c", "app/test-pmd/testpmd.c",
	};
	const char *d = test_tmpdir("dpdk");
	mev_repo *repo = NULL;
	mev_rules r;
	mev_maint *m;
	char desc[512];

	if (!have_git() || make_dpdk_repo(d) != 0) {
		fprintf(stderr, "skipping test_dpdk_tree: cannot build a git repository\n");
		test_tmpdir_remove(d);
		return;
	}
	CHECK_INT(mev_repo_open(&repo, d), 0);
	if (!repo)
		goto done;

	/* no script in the tree: the kernel's rules; the script's titles are
	 * the underlines (the keys), the names shown are the headings above */
	if ((m = load_rev(repo, "v20.11", MEV_DIALECT_AUTO, &r))) {
		CHECK_INT(r.dialect, MEV_DIALECT_DPDK);
		CHECK_INT(r.has_script, 0);
		CHECK_INT(r.drop_comments + r.utf8, 2);
		CHECK_INT(r.discover, MEV_DISCOVER_PATH);
		CHECK_INT(r.any_type + r.no_n + r.find_files, 0);
		mev_rules_describe(desc, sizeof desc, &r);
		CHECK(strstr(desc, "dpdk (the kernel's get_maintainer.pl): files ./MAINTAINERS;") == desc);
		CHECK_STR(titles(m), "Main Branch|---------------|-----------------------------|"
			  "EAL API and common code|==================|Intel ice|--------------");
		CHECK_STR(displays(m), "Main Branch|Security Issues|Environment Abstraction Layer|"
			  "EAL API and common code|Networking Drivers|Intel ice|Crypto Drivers");
		CHECK_INT(mev_maint_sections(m)[1].title_kind, MEV_TITLE_UNDERLINE);
		CHECK_INT(mev_maint_sections(m)[4].title_kind, MEV_TITLE_UNDERLINE);
		CHECK_INT(mev_maint_sections(m)[3].title_kind, MEV_TITLE_NAME);
		/* the '#' line is skipped: one section with both F: lines */
		CHECK_STR(fields(m, 3), "F=lib/eal/common/;F=lib/eal/include/");
		CHECK_STR(coverage(m, paths, 5),
			  "MAINTAINERS=Main Branch;lib/eal/include/rte_eal.h=EAL API and common code;"
			  "drivers/net/ice/ice_ethdev.c=Intel ice;drivers/net/ice/base/ice_common.c=-;"
			  "app/test-pmd/testpmd.c=-");
		CHECK_DIAG(m, "MAINTAINERS:19:", "section title is an underline; displayed as 'Security Issues'", 1);
		CHECK_DIAG(m, "MAINTAINERS:34:", "displayed as 'Networking Drivers'", 1);
		CHECK_DIAG(m, "", "space instead of a tab", 0); /* the file's own way */
		mev_maint_free(m);
	}
	/* the tree's .get_maintainer.conf moves the file the script reads */
	if ((m = load_rev(repo, "conf", MEV_DIALECT_AUTO, &r))) {
		CHECK_STR(r.mpath, "doc/MAINTAINERS");
		CHECK_STR(titles(m), "Docs");
		mev_maint_free(m);
	}
	CHECK(mev_dialect_script(MEV_DIALECT_DPDK) == NULL);
done:
	mev_repo_free(repo);
	test_tmpdir_remove(d);
}

/* --- malformed files --------------------------------------------------------- */

/*
 * Broken MAINTAINERS files of both dialects give diagnostics with file
 * and line and the sections the script would read, never a failure: a
 * truncated section (a heading and its underline at the end, without a
 * newline), a field without a value, a field letter with a tab instead
 * of ':', CRLF lines, a line of 10 MB, fields before any title.
 */
static void test_malformed(void)
{
	static const char trunc[] =
		"F: lib/\n"
		"Main Branch\r\n"
		"M: T <t@example.org>\r\n"
		"F:\n"
		"F\tdrivers/\n"
		"Crypto Drivers\n"
		"--------------";
	mev_rules cb, dp;
	mev_maint *m;
	mev_buf big = MEV_BUF_INIT;
	mev_rules_default(&cb, MEV_DIALECT_COREBOOT);
	mev_rules_default(&dp, MEV_DIALECT_DPDK);
	for (int k = 0; k < 2; k++) {
		if (!(m = parse_text(k ? &dp : &cb, trunc)))
			continue;
		CHECK_STR(titles(m), "(untitled)|Main Branch");
		CHECK_STR(fields(m, 1), "M=T <t@example.org>\r;F=");
		CHECK_DIAG(m, "MAINTAINERS:1:", "fields before any section title", 1);
		CHECK_DIAG(m, "MAINTAINERS:2:", "end with CR", 1);
		CHECK_DIAG(m, "MAINTAINERS:4:", "empty F: pattern", 1);
		CHECK_DIAG(m, "MAINTAINERS:5:", "instead of ':'", 1);
		CHECK_DIAG(m, "MAINTAINERS:6:", "not followed by fields", 1);
		mev_maint_free(m);
	}
	/* a line of 10 MB inside a DPDK section: a title like any other */
	CHECK_INT(mev__buf_puts(&big, "Heading\n-------\nM: A <a@example.org>\n"), 0);
	for (size_t i = 0; i < 10u << 20; i += 64)
		CHECK_INT(mev__buf_puts(&big, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"), 0);
	CHECK_INT(mev__buf_puts(&big, "\nF: lib/\n"), 0);
	{
		mev_maint_input in = { "MAINTAINERS", big.ptr, big.len };
		if ((m = parse_files(&dp, &in, 1, NULL))) {
			CHECK_INT(mev_maint_section_count(m), 2);
			CHECK_STR(mev_maint_sections(m)[0].display, "Heading");
			CHECK_INT(strlen(mev_maint_sections(m)[1].title) <= 203, 1);
			CHECK_DIAG(m, "MAINTAINERS:4:", "longer than 200 bytes", 1);
			mev_maint_free(m);
		}
	}
	mev__buf_free(&big);
}

int main(void)
{
	RUN(test_coreboot_tree);
	RUN(test_dpdk_tree);
	RUN(test_malformed);
	return test_summary();
}
