/*
 * Unit tests of the dialects whose script is not get_maintainer.pl: each
 * planted MAINTAINERS read and matched as that script does (OP-TEE's
 * get_maintainer.py anchoring and its dict of sections; edk2's prefix
 * matches, trailing '*', '<default>' and the catch-all; Zephyr's YAML
 * areas, regexes and exclude keys), and malformed files that must give
 * diagnostics, never a crash.
 */
#include "test.h"
#include "maint_test.h"
#include "maintevo/dialect.h"
#include "maintevo/maintainers.h"
#include "maintevo/match.h"

#include <stdint.h>
#include <stdlib.h>

/* The same with the brute-force matcher: both must agree. */
static const char *cover_brute(mev_maint *m, const char *const *paths, size_t n)
{
	static char b[2048];
	mev_matcher *mt = NULL;
	b[0] = '\0';
	if (mev_matcher_new(&mt, m, MEV_MATCH_BRUTE))
		return "(no matcher)";
	for (size_t i = 0; i < n; i++) {
		const uint32_t *ids;
		size_t k, l = strlen(b);
		if (mev_matcher_match(&ids, &k, mt, paths[i], strlen(paths[i]), 0))
			break;
		l += (size_t)snprintf(b + l, sizeof b - l, "%s%s=", i ? ";" : "", paths[i]);
		for (size_t j = 0; j < k; j++)
			l += (size_t)snprintf(b + l, sizeof b - l, "%s%s", j ? "," : "",
					      mev_maint_sections(m)[ids[j]].title);
		if (!k)
			snprintf(b + l, sizeof b - l, "-");
	}
	mev_matcher_free(mt);
	return b;
}

static mev_rules rules_of(mev_dialect d)
{
	mev_rules r;
	mev_rules_default(&r, d);
	return r;
}

static int has_rest(const mev_maint *m, const char *title)
{
	for (size_t i = 0; i < mev_maint_section_count(m); i++)
		if (strcmp(mev_maint_sections(m)[i].title, title) == 0)
			return mev_maint_sections(m)[i].is_rest;
	return -1;
}

/* --- OP-TEE ------------------------------------------------------------------ */

static const char optee_text[] =
	"Maintainers in the OP-TEE project\n"
	"F:\tpreamble/ (before the dashes: not read)\n"
	"\n"
	"----------\n"
	"F:\torphan/ (before any name: dropped)\n"
	"\n"
	"Anchored\n"
	"M:\tA <a@example.org> [@a]\n"
	"F:\tcore/plat\n"              /* no trailing '/': the whole path, so nothing below */
	"F:\tcore/*.c\n"               /* '*' is [^/]+: one level only */
	"F:\tmk/a.mk\n"                /* '.' is any character */
	"\n"
	"  Indented\n"                 /* stripped: a name like any other */
	"    F:\tlib/\n"               /* stripped: a field */
	"X:\tlib/x/\n"
	"\n"
	"# comment\n"                  /* no comment handling: a name */
	"F:\tta/\n"
	"\n"
	"Twice\n"
	"F:\tfirst/\n"
	"\n"
	"Twice\n"                      /* replaces the first one */
	"F:\tsecond/\n"
	"\n"
	"Regexy\n"
	"F:\tdoc/(a|b)x\n"
	"N:\tignored\n"                /* no N: in get_maintainer.py */
	"\n"
	"THE REST\n"
	"F:\t*\n"
	"F:\t*/\n";

static void test_optee(void)
{
	mev_rules r = rules_of(MEV_DIALECT_OPTEE);
	mev_maint *m = parse_text(&r, optee_text);
	static const char *const paths[] = {
		"core/plat", "core/plat/x.c", "core/a.c", "core/sub/a.c", "mk/a.mk", "mk/aXmk",
		"mk/a.mk.old", "lib/y.c", "lib/x/y.c", "ta/t.c", "first/a", "second/a", "doc/ax",
		"doc/bx", "doc/cx", "ignored", "orphan/a", "Makefile",
	};
	CHECK_STR(titles(m), "Anchored|Indented|# comment|Twice|Regexy|THE REST");
	CHECK_STR(coverage(m, paths, sizeof paths / sizeof *paths),
		  "core/plat=Anchored,THE REST;core/plat/x.c=THE REST;core/a.c=Anchored,THE REST;"
		  "core/sub/a.c=THE REST;mk/a.mk=Anchored,THE REST;mk/aXmk=Anchored,THE REST;"
		  "mk/a.mk.old=THE REST;lib/y.c=Indented,THE REST;lib/x/y.c=THE REST;"
		  "ta/t.c=# comment,THE REST;first/a=THE REST;second/a=Twice,THE REST;"
		  "doc/ax=Regexy,THE REST;doc/bx=Regexy,THE REST;doc/cx=THE REST;ignored=THE REST;"
		  "orphan/a=THE REST;Makefile=THE REST");
	CHECK_STR(cover_brute(m, paths, sizeof paths / sizeof *paths), coverage(m, paths, sizeof paths / sizeof *paths));
	CHECK_INT(has_rest(m, "THE REST"), 1);
	CHECK_INT(has_rest(m, "Anchored"), 0);
	CHECK(strstr(diag_text(m), "before any section name") != NULL);
	CHECK(strstr(diag_text(m), "named again at line 23") != NULL);
	mev_maint_free(m);
}

/* A file with no dashes has no sections; a one-character line, CRs, a
 * field right at the end: diagnostics, no crash. */
static void test_optee_malformed(void)
{
	mev_rules r = rules_of(MEV_DIALECT_OPTEE);
	mev_maint *m = parse_text(&r, "A\nF:\ta/\n");
	CHECK_INT((int)mev_maint_section_count(m), 0);
	CHECK(strstr(diag_text(m), "no line starting with '----------'") != NULL);
	mev_maint_free(m);
	m = parse_text(&r, "----------\r\nA\r\nF:\ta/\r\nx\rB\rF:b/\rF:");
	CHECK_STR(titles(m), "A|B");
	CHECK(strstr(diag_text(m), "one character") != NULL);
	CHECK(strstr(diag_text(m), "drops the character after the colon") != NULL);
	mev_maint_free(m);
}

/* --- edk2 -------------------------------------------------------------------- */

static const char edk2_text[] =
	"EDK II Maintainers\r\n"
	"==================\r\n"
	"  F: Indented/   (not a tag line)\r\n"
	"\r\n"
	"EDK II\r\n"
	"------\r\n"
	"W: http://www.tianocore.org/edk2/\r\n"
	"\r\n"
	"All patches CC:d here\r\n"
	"L: devel@edk2.groups.io\r\n"
	"F: *\r\n"
	"F: */\r\n"
	"\r\n"
	"Tianocore Stewards\r\n"
	"------------------\r\n"
	"F: *\r\n"
	"M: Steward <s@example.org> [steward]\r\n"
	"\r\n"
	"FooPkg\r\n"
	"F: FooPkg\r\n"                     /* a prefix: FooPkgExtra/ too */
	"M: Foo <foo@example.org> [foo]\r\n"
	"\r\n"
	"Bar top-level files\r\n"
	"F: BarPkg/*\r\n"                   /* '*' at the end: no '/' after */
	"X: BarPkg/skip.c\r\n"
	"M: Bar <bar@example.org>\r\n"
	"\r\n"
	"Reviewers only\r\n"
	"F: RevPkg/\r\n"
	"R: Rev <rev@example.org>\r\n"
	"\r\n"
	"Dots\r\n"
	"F:\tDot.Pkg/a?.c\r\n"             /* '.' literal, '?' any character */
	"F: Deep/*/x.c\r\n"                 /* '*' crosses '/' */
	"M: D <d@example.org>\r\n"
	"\r\n"
	"Split\r\n"
	"F: SplitPkg/\r\n"
	"F:\r\n"                            /* empty: no tag, the section ends */
	"F: OtherPkg/\r\n"
	"M: O <o@example.org>\r\n";

static const char *const edk2_paths[] = {
	"FooPkg/a.c", "FooPkgExtra/b.c", "BarPkg/x.c", "BarPkg/sub/x.c", "BarPkg/skip.c",
	"RevPkg/r.c", "Dot.Pkg/a1.c", "DotXPkg/a1.c", "Deep/a/b/x.c", "Makefile", "SplitPkg/s.c",
	"OtherPkg/o.c", "Indented/i.c",
};

static void test_edk2(void)
{
	mev_rules r = rules_of(MEV_DIALECT_EDK2);
	mev_maint *m = parse_text(&r, edk2_text);
	size_t n = sizeof edk2_paths / sizeof *edk2_paths;
	CHECK_STR(titles(m), "EDK II|All patches CC:d here|Tianocore Stewards|FooPkg|Bar top-level files|"
		  "Reviewers only|Dots|Split|F:");
	/* the 2023-11 script: a path whose sections have no M: falls back to <default> */
	CHECK_STR(coverage(m, edk2_paths, n),
		  "FooPkg/a.c=All patches CC:d here,FooPkg;FooPkgExtra/b.c=All patches CC:d here,FooPkg;"
		  "BarPkg/x.c=All patches CC:d here,Bar top-level files;"
		  "BarPkg/sub/x.c=All patches CC:d here,Tianocore Stewards;"
		  "BarPkg/skip.c=All patches CC:d here,Tianocore Stewards;"
		  "RevPkg/r.c=All patches CC:d here,Tianocore Stewards,Reviewers only;"
		  "Dot.Pkg/a1.c=All patches CC:d here,Dots;DotXPkg/a1.c=All patches CC:d here,Tianocore Stewards;"
		  "Deep/a/b/x.c=All patches CC:d here,Dots;Makefile=All patches CC:d here,Tianocore Stewards;"
		  "SplitPkg/s.c=All patches CC:d here,Tianocore Stewards,Split;OtherPkg/o.c=All patches CC:d here,F:;"
		  "Indented/i.c=All patches CC:d here,Tianocore Stewards");
	CHECK_STR(cover_brute(m, edk2_paths, n), coverage(m, edk2_paths, n));
	CHECK_INT(has_rest(m, "All patches CC:d here"), 1);
	/* the top level and the <default> fallback: not every path */
	CHECK_INT(has_rest(m, "Tianocore Stewards"), 0);
	CHECK_INT(has_rest(m, "FooPkg"), 0);
	mev_maint_free(m);

	/* the scripts before 2023-11: R: saves a path from the fallback too */
	r.fallback_r = 1;
	m = parse_text(&r, edk2_text);
	CHECK(strstr(coverage(m, edk2_paths, n), "RevPkg/r.c=All patches CC:d here,Reviewers only;") != NULL);
	mev_maint_free(m);
}

/* Before 2021-07 an M: line must end in an address: one with a GitHub id
 * after it ends the section, and the fields after it are a new one. */
static void test_edk2_old_m(void)
{
	mev_rules r = rules_of(MEV_DIALECT_EDK2);
	static const char *const paths[] = { "A/x", "B/y" };
	mev_maint *m;
	r.m_needs_addr = 1;
	m = parse_text(&r, "Pkg\nF: A/\nM: X <x@example.org> [x]\nF: B/\nM: Y <y@example.org>\n");
	CHECK_STR(titles(m), "Pkg|M: X <x@example.org> [x]");
	CHECK_STR(coverage(m, paths, 2), "A/x=Pkg;B/y=M: X <x@example.org> [x]");
	CHECK(strstr(diag_text(m), "does not end in an address") != NULL);
	mev_maint_free(m);
	r.m_needs_addr = 0;
	m = parse_text(&r, "Pkg\nF: A/\nM: X <x@example.org> [x]\nF: B/\nM: Y <y@example.org>\n");
	CHECK_STR(titles(m), "Pkg");
	mev_maint_free(m);
}

/* Tabs, CRLF, a lone CR, a section cut short, invalid UTF-8, a 10 MB line. */
static void test_edk2_malformed(void)
{
	mev_rules r = rules_of(MEV_DIALECT_EDK2);
	static const char *const paths[] = { "TabPkg/a", "Cut/b" };
	size_t big = 10u << 20;
	char *text;
	mev_maint *m = parse_text(&r, "Tab\r\nF:\tTabPkg/\r\nM:\tT <t@example.org>\tx\rCut\r\nF: Cut");
	CHECK_STR(titles(m), "Tab|Cut");
	CHECK_STR(coverage(m, paths, 2), "TabPkg/a=Tab;Cut/b=Cut");
	CHECK(strstr(diag_text(m), "tab inside a value") != NULL);
	mev_maint_free(m);
	m = parse_text(&r, "Bad \xff\xfe\nF: X/\n");
	CHECK(strstr(diag_text(m), "2: ") == NULL);
	CHECK(strstr(diag_text(m), "1: not valid UTF-8") != NULL);
	mev_maint_free(m);
	text = malloc(big + 64);
	CHECK(text != NULL);
	if (!text)
		return;
	memcpy(text, "Huge\nF: ", 8);
	memset(text + 8, 'a', big);
	strcpy(text + 8 + big, "\nM: H <h@example.org>\n");
	m = parse_text(&r, text);
	CHECK_INT((int)mev_maint_section_count(m), 1);
	CHECK(strstr(diag_text(m), "2: F: value of 10485760 bytes") != NULL);
	mev_maint_free(m);
	memcpy(text, "Huge", 4);
	memset(text, 'T', big);
	strcpy(text + big, "\nF: H/\n");
	m = parse_text(&r, text);
	CHECK(strstr(diag_text(m), "1: section title longer than 200 bytes") != NULL);
	mev_maint_free(m);
	free(text);
}

/* --- Zephyr ------------------------------------------------------------------ */

static const char zephyr_text[] =
	"# comment\n"
	"Bluetooth:\n"
	"    status: maintained\n"
	"    maintainers:\n"
	"        - jhedberg\n"
	"    collaborators:\n"
	"        - joerchan\n"
	"    files:\n"
	"        - subsys/bluetooth/\n"          /* a trailing '/': everything below */
	"        - include/bluetooth/*.h\n"       /* '*' is [^/]*: one level, the whole path */
	"        - doc/bt.rst\n"                  /* exact: not doc/bt.rst.old */
	"    files-exclude:\n"
	"        - subsys/bluetooth/mesh/\n"
	"    labels:\n"
	"        - \"area: Bluetooth\"\n"
	"\"Drivers: sensors\":\n"
	"    status: odd fixes\n"
	"    files-regex:\n"
	"        - sensor\n"                      /* searched anywhere */
	"    files-regex-exclude:\n"
	"        - \\.md$\n"
	"Twice:\n"
	"    files: [first/]\n"
	"Twice:\n"                                /* PyYAML keeps the later one */
	"    files: [second/]\n"
	"    files-exclude: [second/x?.c]\n"
	"Empty files:\n"
	"    files:\n"
	"    description: no files key value\n";

static void test_zephyr(void)
{
	mev_rules r = rules_of(MEV_DIALECT_ZEPHYR);
	mev_maint *m = parse_text(&r, zephyr_text);
	static const char *const paths[] = {
		"subsys/bluetooth/host/hci.c", "subsys/bluetooth/mesh/a.c", "include/bluetooth/a.h",
		"include/bluetooth/x/b.h", "doc/bt.rst", "doc/bt.rst.old", "drivers/sensor/bme280.c",
		"samples/my_sensors/README.md", "first/a", "second/a.c", "second/x1.c", "second/x12.c",
	};
	size_t n = sizeof paths / sizeof *paths;
	CHECK_STR(titles(m), "Bluetooth|Drivers: sensors|Twice|Empty files");
	CHECK_STR(coverage(m, paths, n),
		  "subsys/bluetooth/host/hci.c=Bluetooth;subsys/bluetooth/mesh/a.c=-;"
		  "include/bluetooth/a.h=Bluetooth;include/bluetooth/x/b.h=-;doc/bt.rst=Bluetooth;"
		  "doc/bt.rst.old=-;drivers/sensor/bme280.c=Drivers: sensors;"
		  "samples/my_sensors/README.md=-;first/a=-;second/a.c=Twice;second/x1.c=-;second/x12.c=Twice");
	CHECK_STR(cover_brute(m, paths, n), coverage(m, paths, n));
	CHECK(strstr(diag_text(m), "area 'Twice' defined again later") != NULL);
	CHECK(strstr(diag_text(m), "either 'files' or 'files-regex'") != NULL);
	CHECK_INT(mev_maint_unreadable(m), 0);
	CHECK_INT(mev_maint_sections(m)[0].n_maintainers, 1);
	CHECK_INT(mev_maint_sections(m)[0].n_reviewers, 1);
	CHECK_INT(mev_maint_sections(m)[1].status, MEV_STATUS_ODD_FIXES);
	mev_maint_free(m);
}

/* Bad YAML: file:line:column, no area, no crash; odd shapes: diagnostics. */
static void test_zephyr_malformed(void)
{
	mev_rules r = rules_of(MEV_DIALECT_ZEPHYR);
	mev_maint *m = parse_text(&r, "A:\n    files:\n        - a/\n  B: [unclosed\n");
	CHECK_INT((int)mev_maint_section_count(m), 0);
	CHECK_INT(mev_maint_unreadable(m), 1);
	CHECK(strstr(diag_text(m), "YAML error at line") != NULL);
	CHECK(strstr(diag_text(m), ", column ") != NULL);
	mev_maint_free(m);
	m = parse_text(&r, "- a\n- b\n");
	CHECK_INT((int)mev_maint_section_count(m), 0);
	CHECK(strstr(diag_text(m), "not a dict") != NULL);
	mev_maint_free(m);
	m = parse_text(&r, "A: 3\nB:\n    files: notalist\n    bogus: 1\n    files-regex: [1.5, x(]\n"
			   "C:\n    files:\n        - {a: b}\n        - c/\n");
	CHECK_STR(titles(m), "B|C");
	CHECK(strstr(diag_text(m), "1: malformed entry for area 'A'") != NULL);
	CHECK(strstr(diag_text(m), "3: malformed 'files' value") != NULL);
	CHECK(strstr(diag_text(m), "4: unknown key 'bogus'") != NULL);
	CHECK(strstr(diag_text(m), "'1.5' in area 'B' is not a string") != NULL);
	mev_maint_free(m);
	m = parse_text(&r, "");
	CHECK_INT((int)mev_maint_section_count(m), 0);
	mev_maint_free(m);
	m = parse_text(&r, "A:\n  files: [a/]\n\t- tab\n");
	CHECK_INT(mev_maint_unreadable(m), 1);
	mev_maint_free(m);
}

int main(void)
{
	RUN(test_optee);
	RUN(test_optee_malformed);
	RUN(test_edk2);
	RUN(test_edk2_old_m);
	RUN(test_edk2_malformed);
	RUN(test_zephyr);
	RUN(test_zephyr_malformed);
	return test_summary();
}
