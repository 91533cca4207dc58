/* Helpers of the MAINTAINERS reader tests (test_maintainers.c, test_dialect*.c). */
#ifndef MEV_MAINT_TEST_H
#define MEV_MAINT_TEST_H

#include "test.h"
#include "maintevo/maintainers.h"
#include "maintevo/match.h"

#include <stdint.h>

static inline mev_rules linux_rules(void)
{
	mev_rules r;
	mev_rules_default(&r, MEV_DIALECT_LINUX);
	return r;
}

static inline mev_maint *parse_files(const mev_rules *r, const mev_maint_input *in,
				     size_t n, const mev_tree *tree)
{
	mev_maint *m = NULL;
	int rc = mev_maint_parse(&m, r, in, n, tree);
	CHECK_INT(rc, 0);
	CHECK(m != NULL);
	return m;
}

static inline mev_maint *parse_text(const mev_rules *r, const char *text)
{
	mev_maint_input in = { "MAINTAINERS", text, strlen(text) };
	return parse_files(r, &in, 1, NULL);
}

/* Rotating static buffers so several results can sit in one CHECK_STR. */
static inline char *scratch(void)
{
	static char bufs[8][4096];
	static int k;
	k = (k + 1) % 8;
	bufs[k][0] = '\0';
	return bufs[k];
}

static inline void cat(char *b, const char *s)
{
	size_t n = strlen(b);
	snprintf(b + n, 4096 - n, "%s", s);
}

/* Every diagnostic, "line: message" joined by '\n'. */
static inline const char *diag_text(const mev_maint *m)
{
	static char b[8192];
	size_t l = 0;
	b[0] = '\0';
	for (size_t i = 0; i < mev_maint_diag_count(m) && l < sizeof b; i++)
		l += (size_t)snprintf(b + l, sizeof b - l, "%u: %s\n", mev_maint_diags(m)[i].line,
				      mev_maint_diags(m)[i].message);
	return b;
}

/* The display titles of all sections: "A|B|C". */
static inline const char *titles(const mev_maint *m)
{
	char *b = scratch();
	for (size_t i = 0; i < mev_maint_section_count(m); i++) {
		if (i)
			cat(b, "|");
		cat(b, mev_maint_sections(m)[i].title);
	}
	return b;
}

/* The fields of section i: "M=x;F=y" (values as read). */
static inline const char *fields(const mev_maint *m, size_t i)
{
	char *b = scratch();
	const mev_section *s;
	if (i >= mev_maint_section_count(m))
		return "(no such section)";
	s = &mev_maint_sections(m)[i];
	for (uint32_t k = 0; k < s->field_count; k++) {
		const mev_field *f = &mev_maint_fields(m)[s->field_begin + k];
		char t[3] = { f->type, '=', 0 };
		if (k)
			cat(b, ";");
		cat(b, t);
		cat(b, f->value);
	}
	return b;
}

/* The F/X/N regexes of section i: "F=x;X=y". */
static inline const char *regexes(const mev_maint *m, size_t i)
{
	char *b = scratch();
	const mev_section *s;
	int first = 1;
	if (i >= mev_maint_section_count(m))
		return "(no such section)";
	s = &mev_maint_sections(m)[i];
	for (uint32_t k = 0; k < s->field_count; k++) {
		const mev_field *f = &mev_maint_fields(m)[s->field_begin + k];
		char t[3] = { f->type, '=', 0 };
		if (!f->regex)
			continue;
		if (!first)
			cat(b, ";");
		first = 0;
		cat(b, t);
		cat(b, f->regex);
	}
	return b;
}

static inline const mev_section *section(const mev_maint *m, size_t i)
{
	static const mev_section none = { .title = "(none)", .display = "(none)", .raw_title = "(none)",
					     .status_text = "" };
	CHECK(i < mev_maint_section_count(m));
	return i < mev_maint_section_count(m) ? &mev_maint_sections(m)[i] : &none;
}

/* Number of diagnostics whose formatted text starts with `where` ("file:line:"
 * or "" for any) and contains `what`. */
static inline int diags(const mev_maint *m, const char *where, const char *what)
{
	int n = 0;
	for (size_t i = 0; i < mev_maint_diag_count(m); i++) {
		char buf[1024];
		mev_maint_diag_format(buf, sizeof buf, m, &mev_maint_diags(m)[i]);
		if (strncmp(buf, where, strlen(where)) == 0 && strstr(buf, what))
			n++;
	}
	return n;
}

#define CHECK_DIAG(m, where, what, n) do { int n_ = diags((m), (where), (what)); \
	CHECK_INT(n_, (n)); if (n_ != (n)) dump_diags(m); } while (0)

static inline void dump_diags(const mev_maint *m)
{
	for (size_t i = 0; i < mev_maint_diag_count(m); i++) {
		char buf[1024];
		mev_maint_diag_format(buf, sizeof buf, m, &mev_maint_diags(m)[i]);
		fprintf(stderr, "  diag: %s\n", buf);
	}
}

/* "path=A,B;path=..." : the sections covering each path, "-" for none (a
 * static buffer: valid until the next call). */
static inline const char *coverage(mev_maint *m, const char *const *paths, size_t n)
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

#endif
