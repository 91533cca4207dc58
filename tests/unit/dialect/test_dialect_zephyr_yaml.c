/*
 * MAINTAINERS.yml read as get_maintainer.py's yaml.load() reads it (issue
 * 38, 3a and 4; src/dialect/zephyr_yaml.c): aliases are the nodes they
 * name, within a budget, and merge keys merge; a second document, a tag the loader has no
 * constructor for, an undefined alias make the file unreadable, as they
 * stop the script; nesting deeper than an area stops the reading at once
 * (libyaml took minutes on 200,000 levels).  Long values in messages are
 * shortened in the middle.
 */
#include "test.h"
#include "maint_test.h"
#include "maintevo/dialect.h"
#include "maintevo/maintainers.h"
#include "maintevo/match.h"

#include <stdlib.h>

static mev_maint *zephyr(const char *text)
{
	mev_rules r;
	mev_rules_default(&r, MEV_DIALECT_ZEPHYR);
	return parse_text(&r, text);
}

/* "title=pattern,pattern;..." of the F/X/N fields, in order. */
static const char *patterns(const mev_maint *m)
{
	static char b[2048];
	size_t l = 0;
	b[0] = '\0';
	for (size_t s = 0; s < mev_maint_section_count(m); s++) {
		const mev_section *sec = &mev_maint_sections(m)[s];
		l += (size_t)snprintf(b + l, sizeof b - l, "%s%s=", s ? ";" : "", sec->title);
		for (uint32_t i = 0, k = 0; i < sec->field_count; i++) {
			const mev_field *f = &mev_maint_fields(m)[sec->field_begin + i];
			if (f->type == 'F' || f->type == 'X' || f->type == 'N')
				l += (size_t)snprintf(b + l, sizeof b - l, "%s%c:%s", k++ ? "," : "",
						      f->type, f->value);
		}
	}
	return b;
}

static void test_aliases(void)
{
	mev_maint *m = zephyr("Common:\n  files: &common\n    - a/\n    - b.c\n"
			      "Other:\n  files: *common\n  files-exclude: [&x a/x/, *x]\n"
			      "Area: &area\n  files-regex: [&s '^s']\n  files: [*s]\n"
			      "Again: *area\n");
	CHECK_STR(patterns(m), "Common=F:a/,F:b.c;Other=F:a/,F:b.c,X:a/x/,X:a/x/;"
			     "Area=F:^s,N:^s;Again=F:^s,N:^s");
	CHECK(strstr(diag_text(m), "malformed") == NULL);
	CHECK_INT(mev_maint_unreadable(m), 0);
	mev_maint_free(m);
}

/* Merge keys as PyYAML's flatten_mapping(): an area's own keys win
 * wherever they stand, then the earlier merged mapping. */
static void test_merge(void)
{
	mev_maint *m = zephyr("Base: &base\n  files: [a/]\n  files-exclude: [a/x/]\n"
			      "A:\n  files: [b/]\n  <<: *base\n"
			      "B:\n  <<: [*base, {files: [z/], files-regex: ['^z']}]\n");
	CHECK_STR(patterns(m), "Base=F:a/,X:a/x/;A=F:b/,X:a/x/;B=F:a/,X:a/x/,N:^z");
	CHECK(strstr(diag_text(m), "unknown key") == NULL);
	mev_maint_free(m);
	m = zephyr("Base: &base\n  files: [a/]\nA:\n  <<: [*base, 3]\n");
	CHECK_INT(mev_maint_unreadable(m), 1);
	CHECK(strstr(diag_text(m), "4: a merge '<<' in area 'A' not of mappings") != NULL);
	mev_maint_free(m);
}

/* What yaml.load() refuses: the file is unreadable, with the line. */
static void test_refused(void)
{
	static const struct {
		const char *text, *diag;
	} cases[] = {
		{ "A:\n  files: [a/]\n---\nB:\n  files: [b/]\n", "3: a second document" },
		{ "A:\n  files: !foo [a/]\n", "2: tag '!foo'" },
		{ "A:\n  files: !!python/object:os.system [a/]\n", "2: tag 'tag:yaml.org,2002:python/object" },
		{ "A:\n  files: !!set {a/: null}\n", "2: tag 'tag:yaml.org,2002:set'" },
		{ "A:\n  files: *nope\n", "2: alias '*nope' names no anchor" },
		{ "A: &a\n  files: [a/]\n  description: *a\n", "3: alias '*a' inside the node it names" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		mev_maint *m = zephyr(cases[i].text);
		CHECK_INT((int)mev_maint_section_count(m), 0);
		CHECK_INT(mev_maint_unreadable(m), 1);
		if (!strstr(diag_text(m), cases[i].diag))
			fprintf(stderr, "case %zu: no '%s' in\n%s", i, cases[i].diag, diag_text(m));
		CHECK(strstr(diag_text(m), cases[i].diag) != NULL);
		mev_maint_free(m);
	}
}

/* !!str gives a string, !!int none; an explicit end of the one document is fine. */
static void test_tags(void)
{
	mev_maint *m = zephyr("---\nA: !!map\n  files: !!seq [!!str 3, !int a/, !!int 4, ! b/]\n...\n");
	CHECK_INT(mev_maint_unreadable(m), 1); /* !int: a local tag, no constructor */
	mev_maint_free(m);
	m = zephyr("---\nA: !!map\n  files: !!seq [!!str 3, !!int 4, ! b/]\n...\n");
	CHECK_INT(mev_maint_unreadable(m), 0);
	CHECK_STR(patterns(m), "A=F:3,F:4,F:b/");
	CHECK(strstr(diag_text(m), "'3' in area 'A' is not a string") == NULL);
	CHECK(strstr(diag_text(m), "'4' in area 'A' is not a string") != NULL);
	mev_maint_free(m);
}

/* Each of three levels of aliases multiplies: the budget stops it. */
static void test_alias_bomb(void)
{
	size_t size = 4 << 20, n = 0;
	char *text = malloc(size);
	mev_maint *m;
	n += (size_t)snprintf(text + n, size - n, "L: &l [");
	for (int i = 0; i < 2000; i++)
		n += (size_t)snprintf(text + n, size - n, "%saaaaaaaaaaaaaaaa/", i ? "," : "");
	n += (size_t)snprintf(text + n, size - n, "]\nA: &a\n  files: *l\n  files-exclude: *l\n");
	for (int i = 0; i < 100000; i++)
		n += (size_t)snprintf(text + n, size - n, "B%d: *a\n", i);
	m = zephyr(text);
	CHECK_INT(mev_maint_unreadable(m), 1);
	CHECK(strstr(diag_text(m), "aliases expand to more than 32 MiB") != NULL);
	mev_maint_free(m);
	free(text);
}

/* 100,000 nested brackets or mappings: stopped at the ninth level. */
static void test_deep(void)
{
	static const char *const open[] = { "[", "{a: " }, *const close[] = { "]", "}" };
	for (int k = 0; k < 2; k++) {
		size_t n = 100000, ol = strlen(open[k]), at;
		char *text = malloc(32 + n * (ol + 1));
		mev_maint *m;
		at = (size_t)sprintf(text, "A:\n  files: ");
		for (size_t i = 0; i < n; i++, at += ol)
			memcpy(text + at, open[k], ol);
		for (size_t i = 0; i < n; i++)
			text[at++] = close[k][0];
		text[at] = '\0';
		m = zephyr(text);
		CHECK_INT(mev_maint_unreadable(m), 1);
		CHECK(strstr(diag_text(m), "2: a list or mapping nested deeper than 8 levels") != NULL);
		mev_maint_free(m);
		free(text);
	}
}

/* A long value quoted in a message: its start, its length, its end, and
 * the rest of the message. */
static void test_long_value(void)
{
	char text[6000];
	size_t n = (size_t)sprintf(text, "A:\n  files:\n    - ");
	mev_maint *m;
	memset(text + n, '7', 5000);
	strcpy(text + n + 5000, "\n    - a/\n");
	m = zephyr(text);
	CHECK(strstr(diag_text(m), "3: '7777777") != NULL);
	CHECK(strstr(diag_text(m), "7777777[...5000 bytes...]7777777") != NULL);
	CHECK(strstr(diag_text(m), "7777777' in area 'A' is not a string for PyYAML: get_maintainer.py "
				   "fails on it") != NULL);
	mev_maint_free(m);
}

int main(void)
{
	RUN(test_aliases);
	RUN(test_merge);
	RUN(test_refused);
	RUN(test_tags);
	RUN(test_alias_bomb);
	RUN(test_deep);
	RUN(test_long_value);
	return test_summary();
}
