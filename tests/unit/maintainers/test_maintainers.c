/* Unit tests of the MAINTAINERS reader: every quirk of get_maintainer.pl's reading. */
#include "test.h"
#include "maint_test.h"
#include "maintevo/maintainers.h"
#include "util/buf.h"

#include <stdint.h>

/* --- the tests ------------------------------------------------------------ */

static void test_preamble(void)
{
	mev_rules r = linux_rules();
	mev_maint *m = parse_text(&r,
		"List of maintainers and how to submit kernel changes\n"
		"====================================================\n"
		"\n"
		"Descriptions of section entries and preferred order\n"
		"---------------------------------------------------\n"
		"\n"
		"\tM: *Mail* patches to: FullName <address@domain>\n"
		"\tF: *Files* and directories wildcard patterns (with trailing slash)\n"
		"\t   F:\tdrivers/net/\tall files in and below drivers/net\n"
		"\n"
		"Maintainers List\n"
		"----------------\n"
		"\n"
		"3C59X NETWORK DRIVER\n"
		"M:\tSteffen Klassert <klassert@kernel.org>\n"
		"L:\tnetdev@vger.kernel.org\n"
		"S:\tOdd Fixes\n"
		"F:\tDocumentation/networking/device_drivers/ethernet/3com/vortex.rst\n"
		"F:\tdrivers/net/ethernet/3com/3c59x.c\n");
	if (!m)
		return;
	CHECK_INT(mev_maint_section_count(m), 1);
	CHECK_STR(titles(m), "3C59X NETWORK DRIVER");
	CHECK_INT(mev_maint_field_count(m), 5);
	CHECK_STR(fields(m, 0), "M=Steffen Klassert <klassert@kernel.org>;L=netdev@vger.kernel.org;"
		  "S=Odd Fixes;F=Documentation/networking/device_drivers/ethernet/3com/vortex.rst;"
		  "F=drivers/net/ethernet/3com/3c59x.c");
	CHECK_INT(section(m, 0)->line, 14);
	CHECK_INT(section(m, 0)->file, 0);
	CHECK_INT(section(m, 0)->n_maintainers, 1);
	CHECK_INT(section(m, 0)->n_lists, 1);
	CHECK_INT(section(m, 0)->n_patterns, 2);
	CHECK_INT(section(m, 0)->status, MEV_STATUS_ODD_FIXES);
	CHECK_INT(section(m, 0)->is_rest, 0);
	CHECK_INT(mev_maint_fields(m)[0].line, 15);
	CHECK_INT(mev_maint_fields(m)[4].line, 19);
	/* the indented preamble lines are not fields and raise nothing */
	CHECK_INT(mev_maint_diag_count(m), 0);
	CHECK_INT(mev_maint_file_count(m), 1);
	CHECK_STR(mev_maint_file(m, 0), "MAINTAINERS");
	mev_maint_free(m);
}

static void test_blank_and_comment_lines(void)
{
	mev_rules r = linux_rules();
	const char *text =
		"ALPHA\n"
		"M:\tA <a@x>\n"
		"\n"
		"   \t \n"
		"# a comment\n"
		"  # an indented comment\n"
		"F:\talpha/\n"
		"\n"
		"BETA\n"
		"F:\tbeta/\n";
	mev_maint *m = parse_text(&r, text);
	if (!m)
		return;
	/* blank and comment lines are dropped: they do not end ALPHA */
	CHECK_STR(titles(m), "ALPHA|BETA");
	CHECK_STR(fields(m, 0), "M=A <a@x>;F=alpha/");
	CHECK_INT(mev_maint_diag_count(m), 0);
	mev_maint_free(m);

	/* a script that does not skip comments (Xen, old Linux): the comment
	 * line is a non-field line, so it ends ALPHA and titles a new section */
	r.drop_comments = 0;
	m = parse_text(&r, text);
	if (!m)
		return;
	CHECK_STR(titles(m), "ALPHA|  # an indented comment|BETA");
	CHECK_STR(fields(m, 0), "M=A <a@x>");
	CHECK_STR(fields(m, 1), "F=alpha/");
	CHECK_STR(section(m, 1)->raw_title, "  # an indented comment");
	CHECK_INT(section(m, 1)->line, 6);
	/* the first comment is followed by a title line: the second wins */
	CHECK_DIAG(m, "MAINTAINERS:5:", "not followed by fields", 1);
	CHECK_DIAG(m, "MAINTAINERS:6:", "comment line kept", 1);
	mev_maint_free(m);
}

static void test_two_titles(void)
{
	mev_rules r = linux_rules();
	mev_maint *m = parse_text(&r,
		"FIRST\n"
		"F:\tfirst/\n"
		"\n"
		"SECOND (old name)\n"
		"SECOND\n"
		"F:\tsecond/\n");
	if (!m)
		return;
	CHECK_STR(titles(m), "FIRST|SECOND");
	CHECK_INT(section(m, 1)->line, 5);
	CHECK_DIAG(m, "MAINTAINERS:4:", "the next title line wins", 1);
	CHECK_INT(mev_maint_diag_count(m), 1);
	mev_maint_free(m);

	/* before the first section (the preamble) this is normal: no diagnostic */
	m = parse_text(&r, "intro\nmore intro\nTITLE\nF:\tx\n");
	if (!m)
		return;
	CHECK_STR(titles(m), "TITLE");
	CHECK_INT(mev_maint_diag_count(m), 0);
	mev_maint_free(m);
}

static void test_fields_before_title(void)
{
	mev_rules r = linux_rules();
	mev_maint *m = parse_text(&r,
		"F:\tearly/\n"
		"M:\tE <e@x>\n"
		"\n"
		"TITLE\n"
		"F:\tlate/\n");
	if (!m)
		return;
	CHECK_INT(mev_maint_section_count(m), 2);
	CHECK_STR(titles(m), "(untitled)|TITLE");
	CHECK_STR(section(m, 0)->raw_title, "");
	CHECK_INT(section(m, 0)->line, 1);
	CHECK_STR(fields(m, 0), "F=early/;M=E <e@x>");
	CHECK_STR(fields(m, 1), "F=late/");
	CHECK_DIAG(m, "MAINTAINERS:1:", "fields before any section title", 1);
	mev_maint_free(m);
}

static void test_file_starts_with_fields(void)
{
	mev_rules r = linux_rules();
	const char *a = "SECTION A\nM:\tA <a@x>\nF:\ta/\n";
	const char *b = "F:\tb/\nX:\tb/skip/\n\nSECTION B\nF:\tc/\n";
	mev_maint_input in[] = {
		{ "a/MAINTAINERS", a, strlen(a) },
		{ "b/MAINTAINERS", b, strlen(b) },
	};
	mev_maint *m = parse_files(&r, in, 2, NULL);
	if (!m)
		return;
	/* the script concatenates the files: b's leading fields join SECTION A */
	CHECK_STR(titles(m), "SECTION A|SECTION B");
	CHECK_STR(fields(m, 0), "M=A <a@x>;F=a/;F=b/;X=b/skip/");
	CHECK_INT(section(m, 0)->field_count, 4);
	CHECK_INT(section(m, 0)->n_patterns, 3);
	CHECK_INT(mev_maint_fields(m)[section(m, 0)->field_begin + 2].file, 1);
	CHECK_INT(mev_maint_fields(m)[section(m, 0)->field_begin + 2].line, 1);
	CHECK_INT(section(m, 1)->file, 1);
	CHECK_INT(section(m, 1)->line, 4);
	CHECK_DIAG(m, "b/MAINTAINERS:1:", "file starts with field lines", 1);
	CHECK_DIAG(m, "b/MAINTAINERS:1:", "'a/MAINTAINERS'", 1);
	CHECK_INT(mev_maint_file_count(m), 2);
	CHECK_STR(mev_maint_file(m, 1), "b/MAINTAINERS");
	CHECK_STR(mev_maint_file(m, 7), "");
	mev_maint_free(m);
}

static void test_duplicate_titles(void)
{
	mev_rules r = linux_rules();
	mev_maint *m = parse_text(&r,
		"DUP\nF:\ta\n\n"
		"OTHER\nF:\to\n\n"
		"DUP\nF:\tb\n\n"
		"DUP\nF:\tc\n");
	if (!m)
		return;
	CHECK_STR(titles(m), "DUP|OTHER|DUP #2|DUP #3");
	CHECK_STR(section(m, 2)->raw_title, "DUP");
	CHECK_STR(fields(m, 2), "F=b");
	CHECK_STR(fields(m, 3), "F=c");
	CHECK_DIAG(m, "MAINTAINERS:7:", "duplicate section title 'DUP' (first at MAINTAINERS:1); kept apart as 'DUP #2'", 1);
	CHECK_DIAG(m, "MAINTAINERS:10:", "kept apart as 'DUP #3'", 1);
	mev_maint_free(m);

	/* a literal "T #2" already in the file does not clash (before or after) */
	m = parse_text(&r, "T\nF:\ta\n\nT #2\nF:\tb\n\nT\nF:\tc\n\nT\nF:\td\n");
	if (!m)
		return;
	CHECK_STR(titles(m), "T|T #2|T #3|T #4");
	CHECK_STR(fields(m, 1), "F=b");
	CHECK_STR(section(m, 2)->raw_title, "T");
	mev_maint_free(m);
	m = parse_text(&r, "T\nF:\ta\n\nT\nF:\tb\n\nT #2\nF:\tc\n");
	if (!m)
		return;
	CHECK_STR(titles(m), "T|T #3|T #2");
	CHECK_STR(fields(m, 2), "F=c");
	mev_maint_free(m);

	/* trailing white space does not make a title different */
	m = parse_text(&r, "SAME\nF:\ta\n\nSAME  \t\nF:\tb\n");
	if (!m)
		return;
	CHECK_STR(titles(m), "SAME|SAME #2");
	CHECK_STR(section(m, 1)->raw_title, "SAME  \t");
	mev_maint_free(m);
}

/* MAINTAINERS text of n sections titled X, with `extra` (sections) after
 * the one at `at`. */
static mev_maint *repeated_titles(const mev_rules *r, int n, int at, const char *extra)
{
	mev_buf b = MEV_BUF_INIT;
	mev_maint *m;
	for (int i = 0; i < n; i++)
		CHECK_INT(mev__buf_printf(&b, "X\nF:\tf%d\n\n%s", i, i == at ? extra : ""), 0);
	m = parse_text(r, b.ptr);
	mev__buf_free(&b);
	return m;
}

/* 20,000 repeats of one title: numbered in linear time (the search for a
 * free "X #k" goes on from the last repeat's k; from 2 each time it took
 * minutes), with exactly the titles of that search. */
static void test_many_duplicate_titles(void)
{
	mev_rules r = linux_rules();
	const mev_section *s;
	mev_maint *m = repeated_titles(&r, 20000, -1, "");
	if (!m)
		return;
	CHECK_INT(mev_maint_section_count(m), 20000);
	s = mev_maint_sections(m);
	CHECK_STR(s[1].title, "X #2");
	CHECK_STR(s[19999].title, "X #20000");
	CHECK_INT(mev_maint_diag_count(m), 19999);
	mev_maint_free(m);

	/* a literal "X #7" (taken from the start) and a repeated Y among them */
	m = repeated_titles(&r, 2000, 1000, "X #7\nF:\tg\n\nY\nF:\th\n\nY\nF:\ti\n\n");
	if (!m)
		return;
	CHECK_INT(mev_maint_section_count(m), 2003);
	s = mev_maint_sections(m);
	CHECK_STR(s[5].title, "X #6");
	CHECK_STR(s[6].title, "X #8");
	CHECK_STR(s[1000].title, "X #1002");
	CHECK_STR(s[1001].title, "X #7");
	CHECK_STR(s[1003].title, "Y #2");
	CHECK_STR(s[1004].title, "X #1003");
	CHECK_STR(s[2002].title, "X #2001");
	mev_maint_free(m);
}

static void test_crlf(void)
{
	mev_rules r = linux_rules();
	const char *a = "TITLE\r\nM:\tA <a@x>\r\nF:\tdrivers/foo/\r\nS:\tMaintained\r\n";
	const char *b = "OTHER\nF:\tok/\n";
	const char *c = "THIRD\r\nF:\tc\r\n";
	mev_maint_input in[] = { { "one", a, strlen(a) }, { "two", b, strlen(b) }, { "three", c, strlen(c) } };
	mev_maint *m = parse_files(&r, in, 3, NULL);
	if (!m)
		return;
	CHECK_STR(titles(m), "TITLE|OTHER|THIRD");
	CHECK_STR(section(m, 0)->raw_title, "TITLE\r");
	/* the value keeps the CR, so the pattern has no trailing '/' */
	CHECK_STR(fields(m, 0), "M=A <a@x>\r;F=drivers/foo/\r;S=Maintained\r");
	CHECK_STR(regexes(m, 0), "F=drivers/foo/\r");
	/* the status is recognised, shown without the CR */
	CHECK_INT(section(m, 0)->status, MEV_STATUS_MAINTAINED);
	CHECK_STR(section(m, 0)->status_text, "Maintained");
	/* one diagnostic per file, at its first CR line */
	CHECK_DIAG(m, "", "CR", 2);
	CHECK_DIAG(m, "one:1:", "4 line(s) end with CR", 1);
	CHECK_DIAG(m, "three:1:", "2 line(s) end with CR", 1);
	CHECK_DIAG(m, "two", "", 0);
	mev_maint_free(m);
}

static void test_spaces_after_colon(void)
{
	mev_rules r = linux_rules();
	mev_maint *m = parse_text(&r,
		"TITLE\n"
		"F:   spaced/\n"
		"F:\t \t mixed/\n"
		"F:nospace\n"
		"L:\ttrailing  \t\n"
		"M:  \n");
	if (!m)
		return;
	CHECK_STR(titles(m), "TITLE");
	CHECK_STR(fields(m, 0), "F=spaced/;F=mixed/;F=nospace;L=trailing  \t;M=");
	/* a convention, not an oddity: one note per file, at its first line */
	CHECK_DIAG(m, "MAINTAINERS:2:", "2 field line(s) have a space instead of a tab after the colon", 1);
	CHECK_INT(mev_maint_diag_count(m), 1);
	mev_maint_free(m);

	/* one note per file, files counted apart */
	{
		mev_maint_input in[2] = {
			{ "one", "A\nM:\tx\nF: a/\nF:\tb/\nF: c/\n", 0 },
			{ "two", "B\nM:\tx\nF:\td/\nF:\te/\nF: f/\n", 0 },
		};
		in[0].len = strlen(in[0].data);
		in[1].len = strlen(in[1].data);
		m = parse_files(&r, in, 2, NULL);
		if (!m)
			return;
		CHECK_DIAG(m, "one:3:", "2 field line(s) have a space", 1);
		CHECK_DIAG(m, "two:5:", "1 field line(s) have a space", 1);
		CHECK_INT(mev_maint_diag_count(m), 2);
		mev_maint_free(m);
	}

	/* a file that writes most fields so (QEMU, DPDK): its own way, no note */
	m = parse_text(&r, "TITLE\nM: x\nS: Maintained\nF:\ta/\nF: b/\n");
	if (!m)
		return;
	CHECK_INT(mev_maint_diag_count(m), 0);
	mev_maint_free(m);
}

static void test_not_fields(void)
{
	mev_rules r = linux_rules();
	mev_maint *m = parse_text(&r,
		"BOARD A\n"
		"M:\tA <a@x>\n"
		"F\tboard/a/\n"        /* tab instead of colon (U-Boot) */
		"S:\tMaintained\n"
		"\n"
		"BOARD B\n"
		"M:\tB <b@x>\n"
		"F.\tboard/b/\n"       /* 'F.' typo (U-Boot) */
		"F:\tboard/bb/\n"
		"\n"
		"BOARD C\n"
		"M:\tC <c@x>\n"
		"f:\tboard/c/\n"       /* lowercase */
		"N:\tcc\n"
		"\n"
		"BOARD D\n"
		"M:\tD <d@x>\n"
		" F:\tboard/d/\n"      /* indented */
		"K:\tdd\n");
	if (!m)
		return;
	/* each non-field line ends the section and titles the next run */
	CHECK_STR(titles(m), "BOARD A|F\tboard/a/|BOARD B|F.\tboard/b/|BOARD C|f:\tboard/c/|BOARD D| F:\tboard/d/");
	CHECK_STR(fields(m, 0), "M=A <a@x>");
	CHECK_STR(fields(m, 1), "S=Maintained");
	CHECK_STR(fields(m, 3), "F=board/bb/");
	CHECK_STR(fields(m, 5), "N=cc");
	CHECK_STR(fields(m, 7), "K=dd");
	CHECK_DIAG(m, "MAINTAINERS:3:", "'F' followed by white space instead of ':'", 1);
	CHECK_DIAG(m, "MAINTAINERS:8:", "'F.' is not a field (did you mean 'F:'?)", 1);
	CHECK_DIAG(m, "MAINTAINERS:13:", "lowercase field 'f:' is not a field", 1);
	CHECK_DIAG(m, "MAINTAINERS:18:", "indented field 'F:' is not a field", 1);
	CHECK_INT(mev_maint_diag_count(m), 4);
	mev_maint_free(m);

	/* old scripts' m/^(\C):/ : any byte before ':' starts a field */
	r.any_type = 1;
	m = parse_text(&r, "BOARD C\nM:\tC <c@x>\nf:\tboard/c/\n N:\tx\nN:\tcc\n");
	if (!m)
		return;
	CHECK_STR(titles(m), "BOARD C| N:\tx");
	CHECK_STR(fields(m, 0), "M=C <c@x>;f=board/c/");
	CHECK_STR(fields(m, 1), "N=cc");
	/* 'f' is not 'F': no pattern, and it is reported */
	CHECK_STR(regexes(m, 0), "");
	CHECK_DIAG(m, "MAINTAINERS:3:", "unknown field type 'f:'", 1);
	mev_maint_free(m);
}

static void test_status(void)
{
	static const struct { const char *text; mev_status st; } cases[] = {
		{ "Supported", MEV_STATUS_SUPPORTED },
		{ "Maintained", MEV_STATUS_MAINTAINED },
		{ "maintained", MEV_STATUS_MAINTAINED },
		{ "Odd Fixes", MEV_STATUS_ODD_FIXES },
		{ "Odd Fixes (e.g., new signatures)", MEV_STATUS_ODD_FIXES },
		{ "Odd fixes", MEV_STATUS_ODD_FIXES },
		{ "Orphan", MEV_STATUS_ORPHAN },
		{ "Orphan / Obsolete", MEV_STATUS_ORPHAN },
		{ "Obsolete", MEV_STATUS_OBSOLETE },
		{ "Buried alive in reporters", MEV_STATUS_BURIED },
		{ "Bogus", MEV_STATUS_OTHER },
	};
	mev_rules r = linux_rules();
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[256];
		mev_maint *m;
		snprintf(text, sizeof text, "SEC\nM:\tx <x@y>\nS:\t%s\nS:\tSupported\nF:\tx/\n", cases[i].text);
		m = parse_text(&r, text);
		if (!m)
			continue;
		CHECK_INT(section(m, 0)->status, cases[i].st);
		CHECK_STR(section(m, 0)->status_text, cases[i].text); /* the first S: wins */
		CHECK_DIAG(m, "MAINTAINERS:3:", "unknown status", cases[i].st == MEV_STATUS_OTHER);
		mev_maint_free(m);
	}
	{
		mev_maint *m = parse_text(&r, "SEC\nM:\tx <x@y>\nF:\tx/\n");
		if (m) {
			CHECK_INT(section(m, 0)->status, MEV_STATUS_NONE);
			CHECK_STR(section(m, 0)->status_text, "");
			mev_maint_free(m);
		}
	}
	CHECK_STR(mev_status_name(MEV_STATUS_BURIED), "Buried alive in reporters");
	CHECK_STR(mev_status_name(MEV_STATUS_ODD_FIXES), "Odd Fixes");
	CHECK_STR(mev_status_name(MEV_STATUS_NONE), "");
	CHECK_STR(mev_status_name((mev_status)99), "Other");
}

static void test_encodings(void)
{
	mev_rules r = linux_rules();
	/* ISO-8859-1 title (old kernels): shown as UTF-8; raw bytes kept */
	mev_maint *m = parse_text(&r, "CAF\xc9 DRIVER\nM:\tJ\xf6rg <j@x>\nF:\tcafe/\n\nNEXT \xe2\x82\xac\nF:\tn/\n");
	if (!m)
		return;
	CHECK_STR(titles(m), "CAF\xc3\x89 DRIVER|NEXT \xe2\x82\xac");
	CHECK_STR(section(m, 0)->raw_title, "CAF\xc9 DRIVER");
	CHECK_STR(fields(m, 0), "M=J\xf6rg <j@x>;F=cafe/");
	/* the utf8 rules report it, once per file */
	CHECK_DIAG(m, "MAINTAINERS:1:", "not valid UTF-8", 1);
	CHECK_DIAG(m, "", "not valid UTF-8", 1);
	mev_maint_free(m);

	/* a byte script (U-Boot) says nothing, but still shows UTF-8 */
	r.utf8 = 0;
	m = parse_text(&r, "CAF\xc9 DRIVER\nF:\tcafe/\n");
	if (!m)
		return;
	CHECK_STR(titles(m), "CAF\xc3\x89 DRIVER");
	CHECK_DIAG(m, "", "UTF-8", 0);
	mev_maint_free(m);

	/* overlong and surrogate sequences are invalid UTF-8 too */
	r.utf8 = 1;
	m = parse_text(&r, "T\nF:\tok/\nM:\t\xc0\xaf\nM:\t\xed\xa0\x80\n");
	if (!m)
		return;
	CHECK_DIAG(m, "MAINTAINERS:3:", "not valid UTF-8", 1);
	CHECK_DIAG(m, "", "not valid UTF-8", 1);
	mev_maint_free(m);

	/* under the utf8 rules Unicode white space after ':' is skipped too */
	m = parse_text(&r, "T\nF:\xc2\xa0\xe2\x80\x83x/\n");
	if (!m)
		return;
	CHECK_STR(fields(m, 0), "F=x/");
	mev_maint_free(m);
	r.utf8 = 0;
	m = parse_text(&r, "T\nF:\xc2\xa0x/\n");
	if (!m)
		return;
	CHECK_STR(fields(m, 0), "F=\xc2\xa0x/");
	mev_maint_free(m);
}

static void test_the_rest(void)
{
	mev_rules r = linux_rules();
	mev_maint *m = parse_text(&r,
		"ZZZ\nF:\tz/\n\n"
		"THE REST\n"
		"M:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
		"L:\tlinux-kernel@vger.kernel.org\n"
		"S:\tBuried alive in reporters\n"
		"T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git\n"
		"F:\t*\n"
		"F:\t*/\n\n"
		"THE REST OF IT\nF:\tq/\n");
	if (!m)
		return;
	CHECK_STR(titles(m), "ZZZ|THE REST|THE REST OF IT");
	CHECK_INT(section(m, 0)->is_rest, 0);
	CHECK_INT(section(m, 1)->is_rest, 1);
	CHECK_INT(section(m, 2)->is_rest, 0);
	CHECK_INT(section(m, 1)->status, MEV_STATUS_BURIED);
	CHECK_INT(section(m, 1)->n_trees, 1);
	CHECK_STR(regexes(m, 1), "F=.*;F=.*/");
	mev_maint_free(m);

	/* the catch-all is found by what it covers, not by its title */
	m = parse_text(&r,
		"THE REST\nF:\t*\n\n"                    /* top-level files only */
		"All patches CC here\nL: l@x\nF: *\nF: */\n\n" /* QEMU's */
		"DEEP\nF:\t**/\nF:\t\nM:\tm\n\n"        /* '**' then '/', and an empty F: */
		"EXCLUDING\nF:\t*\nF:\t*/\nX:\tdoc/\n\n" /* excludes something */
		"ONLY DEEP\nF:\t*/\nF:\t*/*\n\n"
		"BY N\nF:\t*\nN:\t.*\n\n"               /* N: is not considered */
		"SPACE\nF:\t* \nF:\t*/\n\n"              /* '.* ' needs a space */
		"SLASH\nF:\t*\nF:\t/\n");                  /* '^/' matches no path */
	if (!m)
		return;
	CHECK_STR(titles(m), "THE REST|All patches CC here|DEEP|EXCLUDING|ONLY DEEP|BY N|SPACE|SLASH");
	CHECK_INT(section(m, 0)->is_rest, 0);
	CHECK_INT(section(m, 1)->is_rest, 1);
	CHECK_INT(section(m, 2)->is_rest, 1);
	for (size_t i = 3; i < 8; i++)
		CHECK_INT(section(m, i)->is_rest, 0);
	mev_maint_free(m);
}

static void test_empty_pattern(void)
{
	mev_rules r = linux_rules();
	mev_maint *m = parse_text(&r, "T\nF:\t\nX:   \nF:\tok/\nN:\t\n");
	if (!m)
		return;
	CHECK_STR(fields(m, 0), "F=;X=;F=ok/;N=");
	CHECK_DIAG(m, "MAINTAINERS:2:", "empty F: pattern", 1);
	CHECK_DIAG(m, "MAINTAINERS:3:", "empty X: pattern", 1);
	CHECK_DIAG(m, "MAINTAINERS:5:", "empty N: pattern", 1);
	CHECK_STR(mev_maint_fields(m)[0].regex, "");
	mev_maint_free(m);
}

static void test_huge_line(void)
{
	mev_rules r = linux_rules();
	const size_t big = 50u << 20, pat = 8u << 20;
	const char *tail = "\nF:\thuge/\nF:\t";
	size_t tl = strlen(tail);
	char *text = malloc(big + tl + pat + 1);
	mev_maint_input in;
	mev_maint *m;
	CHECK(text != NULL);
	if (!text)
		return;
	/* a 50 MB ISO-8859-1 title line, then an 8 MB pattern without '\n' */
	memset(text, 0xe9, big);
	memcpy(text + big, tail, tl);
	memset(text + big + tl, 'a', pat);
	text[big + tl + pat] = '\0';
	in.path = "MAINTAINERS";
	in.data = text;
	in.len = big + tl + pat;
	m = parse_files(&r, &in, 1, NULL);
	if (m) {
		const mev_section *s = section(m, 0);
		CHECK_INT(mev_maint_section_count(m), 1);
		CHECK_INT(mev_maint_field_count(m), 2);
		/* 200 bytes, each 2 in UTF-8, then "..." */
		CHECK_INT(strlen(s->title), 403);
		CHECK(strncmp(s->title, "\xc3\xa9\xc3\xa9", 4) == 0);
		CHECK_STR(s->title + 400, "...");
		CHECK_INT(strlen(s->raw_title), big);
		CHECK_INT(strlen(mev_maint_fields(m)[1].value), pat);
		CHECK_INT(strlen(mev_maint_fields(m)[1].regex), pat);
		CHECK_DIAG(m, "MAINTAINERS:1:", "section title longer than 200 bytes", 1);
		CHECK_DIAG(m, "MAINTAINERS:1:", "not valid UTF-8", 1);
		mev_maint_free(m);
	}
	free(text);
}

static uint64_t rng_state;
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static void test_binary_garbage(void)
{
	size_t len = 1u << 20;
	unsigned char *data = malloc(len);
	CHECK(data != NULL);
	if (!data)
		return;
	for (uint64_t seed = 1; seed <= 6; seed++) {
		mev_rules r = linux_rules();
		mev_maint_input in = { "garbage", (const char *)data, len };
		mev_maint *m;
		size_t nf = 0;
		rng_state = seed * 0x9e3779b97f4a7c15ULL;
		for (size_t i = 0; i < len; i++) {
			uint64_t x = rng();
			/* half uniform bytes; half MAINTAINERS-ish shapes */
			if (seed % 2 || x % 4)
				data[i] = (unsigned char)(x >> 8);
			else
				data[i] = (unsigned char)"F:\n\r\t #X.N*?[\0 a/"[(x >> 8) % 18];
		}
		r.utf8 = seed % 3 != 0;
		r.drop_comments = seed % 2;
		r.any_type = seed == 5;
		m = parse_files(&r, &in, 1, NULL);
		if (!m)
			continue;
		CHECK(mev_maint_diag_count(m) > 0);
		CHECK_DIAG(m, "garbage: ", "contain NUL bytes", 1);
		for (size_t i = 0; i < mev_maint_section_count(m); i++) {
			const mev_section *s = &mev_maint_sections(m)[i];
			CHECK(s->title && s->raw_title && s->status_text);
			CHECK(s->field_begin + s->field_count <= mev_maint_field_count(m));
			CHECK(s->field_count > 0);
			nf += s->field_count;
			if (s->title) /* 200 bytes as UTF-8, "...", maybe " #n" */
				CHECK(strlen(s->title) <= 2 * 200 + 3 + 12);
		}
		/* every field belongs to exactly one section */
		CHECK_INT(nf, mev_maint_field_count(m));
		mev_maint_free(m);
	}
	free(data);
}

/* The display names of all sections and their kinds: "A=name|B=comment". */
static const char *displays(const mev_maint *m)
{
	char *b = scratch();
	for (size_t i = 0; i < mev_maint_section_count(m); i++) {
		const mev_section *s = &mev_maint_sections(m)[i];
		if (i)
			cat(b, "|");
		cat(b, s->display);
		cat(b, "=");
		cat(b, mev_title_kind_name((mev_title_kind)s->title_kind));
	}
	return b;
}

/* QEMU underlines group headers: the script's title is then the underline,
 * kept as the key and displayed as the header; a header followed by a
 * title keeps that title. */
static void test_qemu_underlines(void)
{
	mev_rules r = linux_rules();
	mev_maint *m = parse_text(&r,
		"QEMU Maintainers\n================\n\nintro text\n\n"
		"General Project Administration\n------------------------------\n"
		"M: Peter <p@example.org>\n\n"
		"All patches CC here\nL: list@example.org\nF: *\nF: */\n\n"
		"Guest CPU cores (TCG)\n---------------------\nOverall TCG CPUs\n"
		"M: Richard <r@example.org>\nF: accel/tcg/\n\n"
		"Alpha Machines\n--------------\nM: Richard <r@example.org>\nF: hw/alpha/\n"
		"Beta Machines\n--------------\nM: Richard <r@example.org>\nF: hw/beta/\n");
	CHECK_STR(titles(m), "------------------------------|All patches CC here|Overall TCG CPUs|"
		  "--------------|-------------- #2");
	CHECK_STR(displays(m), "General Project Administration=underline|All patches CC here=name|"
		  "Overall TCG CPUs=name|Alpha Machines=underline|Beta Machines=underline");
	CHECK_STR(mev_maint_sections(m)[0].raw_title, "------------------------------");
	CHECK(diags(m, "MAINTAINERS:7", "underline; displayed as 'General Project Administration'"));
	/* one note per underline: a group header passed over by the title
	 * after its underline (DPDK's way) is noted once, at the underline;
	 * a header over a section's underline title gets only the
	 * "displayed as" note */
	CHECK_DIAG(m, "MAINTAINERS:16:", "not followed by fields", 1);
	CHECK_DIAG(m, "MAINTAINERS:", "not followed by fields", 1);
	CHECK_DIAG(m, "MAINTAINERS:", "underline; displayed as", 3);
	CHECK_DIAG(m, "MAINTAINERS:26:", "duplicate section title", 1);
	CHECK_INT(mev_maint_diag_count(m), 5);
	/* a name displays as its title, the same string */
	CHECK(mev_maint_sections(m)[1].display == mev_maint_sections(m)[1].title);
	mev_maint_free(m);
}

/* U-Boot 2014.10-2017.09 read comment lines: the title of a board whose
 * maintainer is commented out is "#M:\t-".  Its display name is the name
 * line above it, else the board folder its F: patterns share, else the
 * folder all share, else its first F:, else the title. */
static void test_comment_titles(void)
{
	mev_rules r = linux_rules();
	mev_maint *m;
	r.drop_comments = 0;
	m = parse_text(&r,
		"NET2BIG_V2 BOARD\n#M:\t-\nS:\tMaintained\nF:\tboard/LaCie/net2big_v2/\n"
		"F:\tinclude/configs/lacie_kw.h\n\n"
		"EXAMPLE\nM: A <a@example.org>\nF: README\n"
		"#M:\tGone <g@example.org>\nS:\tOrphan\nF:\tboard/amcc/bubinga/\nF:\tboard/amcc/bubinga/x.c\n"
		"F:\tconfigs/bubinga_defconfig\n\n"
		"# a comment\n# M: Gone <g@example.org>\nF:\tdrivers/foo/a*.c\nF:\tdrivers/foo/sub/\n\n"
		"OTHER\nF: Makefile\n#m:\t-\nF:\tMakefile\n\n"
		"OTHER2\nF: x\n#M:\t-\nS: Orphan\n\n"
		"# M not a field line\nF: y\n");
	CHECK_STR(titles(m), "#M:\t-|EXAMPLE|#M:\tGone <g@example.org>|# M: Gone <g@example.org>|"
		  "OTHER|#m:\t-|OTHER2|#M:\t- #2|# M not a field line");
	CHECK_STR(displays(m), "NET2BIG_V2 BOARD=comment|EXAMPLE=name|board/amcc/bubinga=comment|"
		  "drivers/foo=comment|OTHER=name|Makefile=comment|OTHER2=name|#M:\t-=comment|"
		  "# M not a field line=name");
	mev_maint_free(m);
}

/* Display names are unique in a release: a name keeps its title, the
 * others become "NAME #2", "NAME #3" ... in reading order, after any
 * literal "NAME #2" title. */
static void test_unique_display_names(void)
{
	mev_rules r = linux_rules();
	mev_maint *m;
	r.drop_comments = 0;
	m = parse_text(&r,
		"X BOARD\n#M:\t-\nF: board/x/\n\n"
		"X BOARD\nM: A <a@example.org>\nF: board/x/a.c\n\n"
		"X BOARD #2\nM: A <a@example.org>\nF: board/x/b.c\n\n"
		"X BOARD\n#M:\t-\nF: board/x/c/\n\n"
		"X BOARD\n---------\nF: board/x/d/\n");
	CHECK_STR(titles(m), "#M:\t-|X BOARD|X BOARD #2|#M:\t- #2|---------");
	CHECK_STR(displays(m), "X BOARD #3=comment|X BOARD=name|X BOARD #2=name|X BOARD #4=comment|"
		  "X BOARD #5=underline");
	mev_maint_free(m);
}

int main(void)
{
	RUN(test_preamble);
	RUN(test_blank_and_comment_lines);
	RUN(test_two_titles);
	RUN(test_fields_before_title);
	RUN(test_file_starts_with_fields);
	RUN(test_duplicate_titles);
	RUN(test_many_duplicate_titles);
	RUN(test_crlf);
	RUN(test_spaces_after_colon);
	RUN(test_not_fields);
	RUN(test_status);
	RUN(test_encodings);
	RUN(test_the_rest);
	RUN(test_empty_pattern);
	RUN(test_huge_line);
	RUN(test_binary_garbage);
	RUN(test_qemu_underlines);
	RUN(test_comment_titles);
	RUN(test_unique_display_names);
	return test_summary();
}
