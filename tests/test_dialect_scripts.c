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

/* "path=A,B;path=..." : the sections covering each path, "-" for none. */
static const char *cover(mev_maint *m, const char *const *paths, size_t n)
{
	static char b[2048];
	mev_matcher *mt = NULL;
	b[0] = '\0';
	if (mev_matcher_new(&mt, m, 0))
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

/* Every diagnostic, "line: message" joined by '\n'. */
static const char *diag_text(const mev_maint *m)
{
	static char b[8192];
	size_t l = 0;
	b[0] = '\0';
	for (size_t i = 0; i < mev_maint_diag_count(m) && l < sizeof b; i++)
		l += (size_t)snprintf(b + l, sizeof b - l, "%u: %s\n", mev_maint_diags(m)[i].line,
				      mev_maint_diags(m)[i].message);
	return b;
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
	CHECK_STR(cover(m, paths, sizeof paths / sizeof *paths),
		  "core/plat=Anchored,THE REST;core/plat/x.c=THE REST;core/a.c=Anchored,THE REST;"
		  "core/sub/a.c=THE REST;mk/a.mk=Anchored,THE REST;mk/aXmk=Anchored,THE REST;"
		  "mk/a.mk.old=THE REST;lib/y.c=Indented,THE REST;lib/x/y.c=THE REST;"
		  "ta/t.c=# comment,THE REST;first/a=THE REST;second/a=Twice,THE REST;"
		  "doc/ax=Regexy,THE REST;doc/bx=Regexy,THE REST;doc/cx=THE REST;ignored=THE REST;"
		  "orphan/a=THE REST;Makefile=THE REST");
	CHECK_STR(cover_brute(m, paths, sizeof paths / sizeof *paths), cover(m, paths, sizeof paths / sizeof *paths));
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

int main(void)
{
	RUN(test_optee);
	RUN(test_optee_malformed);
	return test_summary();
}
