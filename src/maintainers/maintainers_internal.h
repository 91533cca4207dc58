/* What the files of the maintainers module share among themselves (private to src/maintainers/). */
#ifndef MEV_MAINT_INTERNAL_H
#define MEV_MAINT_INTERNAL_H

#include "maintevo/maintainers.h"
#include "util/buf.h"
#include "maintainers_shared.h"

/*
 * maintainers.c: the object, parsing and loading;  maintainers_find.c:
 * which files the script reads;  maintainers_read.c: lines into fields;
 * maintainers_sections.c: fields into sections;  maintainers_diag.c: the
 * diagnostics.
 */
struct mev_maint {
	mev_rules rules;
	mev_arena arena;
	MEV_VEC(const char *) files;
	MEV_VEC(mev_field) fields;
	MEV_VEC(mev_section) sections;
	MEV_VEC(mev_diag) diags;
	int unreadable;   /* a file the script cannot read at all (a YAML error) */
};

/*
 * pattern_segglob.c: a whole regex that is a Zephyr glob's conversion
 * ("^", literals, "\\.", "[^/]*", "[^/]", then "$" or a final '/') as a
 * program that PCRE2's backtracking cannot make slow.  compile: 0 and the
 * program in *ops (free()), 1 when the regex is not of that form, or
 * MEV_ENOMEM.  match: exactly PCRE2's answer for a path without '\n'.
 */
int mev__segglob_compile(uint16_t **ops, size_t *n, const char *re, size_t len, int utf8);
int mev__segglob_match(const uint16_t *ops, size_t n, const unsigned char *s, size_t len);

/* One entry of the script's @typevalue: a field line or a non-field line. */
typedef struct {
	uint8_t is_field;
	uint32_t field;    /* index into m->fields when is_field */
	const char *text;  /* the raw line when not a field */
	size_t text_len;
	uint32_t file, line;
} mev__field_line;

typedef MEV_VEC(mev__field_line) mev__field_lines;

/* Paths of MAINTAINERS files, malloc'ed each. */
typedef MEV_VEC(char *) mev__path_list;

/* The regex given to a pattern that can match no path (a NUL in it). */
extern const char mev__maint_never_regex[];


/*
 * Diagnose a non-field line `p` (length ll, sp bytes of leading white space,
 * `comment` when it starts with '#') read inside a section: the ways a
 * field can be mistyped so that the script reads a title instead.
 */
void mev__maint_check_text_line(mev_maint *m, uint32_t file, uint32_t line,
				const unsigned char *p, size_t ll, size_t sp, int comment);

/* The files the rules select in `t`, in the order the script reads them. */
int mev__maint_discover(mev__path_list *out, mev_maint *m, const mev_tree *t);

/* Split file `fi` into @typevalue entries appended to *out, adding fields
 * and diagnostics to m.  `tree` (may be NULL) answers the directory test. */
int mev__maint_read_file(mev__field_lines *out, mev_maint *m, uint32_t fi, const char *data,
			 size_t len, const mev_tree *tree);

/* The same for a dialect with a reader of its own (maintainers_dialect.c). */
int mev__maint_read_dialect(mev__field_lines *out, mev_maint *m, uint32_t fi, const char *data,
			    size_t len, const mev_tree *tree);

/* The script's regex for the F:/X: value val[0..len), into out. */
int mev__maint_convert_pattern(mev_buf *out, const char *val, size_t len, const mev_rules *r,
			       const mev_tree *tree);

/* Cut @typevalue into m's sections, with unique display titles. */
int mev__maint_build_sections(mev_maint *m, const mev__field_line *tv, size_t n);

#endif
