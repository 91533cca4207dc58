/*
 * Reading MAINTAINERS lines as scripts/get_maintainer.pl does: field and
 * non-field lines (the script's @typevalue), field values, and the F:/X:
 * conversion of a value into the regex the script matches.
 */
#include "maintainers_internal.h"
#include "maintevo/error.h"
#include "maintainers_shared.h"
#include "util/text.h"
#include "dialect/dialect_shared.h"

#include <string.h>

const char mev__maint_never_regex[] = "(*FAIL)";

/* Length of a Perl \s character at p (0 if none).  Byte strings: ASCII
 * white space; decoded UTF-8 (utf8 rules): Unicode White_Space too. */
static size_t perl_space(const unsigned char *p, const unsigned char *e, int utf8)
{
	if (p >= e)
		return 0;
	if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
		return 1;
	if (!utf8)
		return 0;
	if (p + 1 < e && p[0] == 0xc2 && (p[1] == 0x85 || p[1] == 0xa0))
		return 2;
	if (p + 2 < e && p[0] == 0xe1 && p[1] == 0x9a && p[2] == 0x80)
		return 3; /* U+1680 */
	if (p + 2 < e && p[0] == 0xe2 && p[1] == 0x80 &&
	    ((p[2] >= 0x80 && p[2] <= 0x8a) || p[2] == 0xa8 || p[2] == 0xa9 || p[2] == 0xaf))
		return 3; /* U+2000..200A, 2028, 2029, 202F */
	if (p + 2 < e && p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0x9f)
		return 3; /* U+205F */
	if (p + 2 < e && p[0] == 0xe3 && p[1] == 0x80 && p[2] == 0x80)
		return 3; /* U+3000 */
	return 0;
}

static size_t skip_space(const unsigned char *p, const unsigned char *e, int utf8)
{
	const unsigned char *s = p;
	size_t n;
	while ((n = perl_space(p, e, utf8)))
		p += n;
	return (size_t)(p - s);
}

/*
 * The script's F:/X: conversion; Xen's script first rewrites brace lists
 * with two Perl substitutions, the first repeated until it changes nothing.
 */
int mev__maint_convert_pattern(mev_buf *out, const char *val, size_t len, const mev_rules *r,
			       const mev_tree *tree)
{
	mev_buf v = MEV_BUF_INIT;
	int rc;
	if (r->regex_patterns)
		return mev__dialect_regex(r->dialect, out, 'F', val, len);
	if ((rc = mev__buf_put(&v, val, len)))
		return rc;
	if (r->braces) {
		rc = mev__pattern_subst(&v, "([^\\\\])\\{(|[^},]*[^,\\\\]),((|[^},]*[^,\\\\]),(|[^}]*[^\\\\]))\\}",
					"$1{$2|$3}", 1);
		if (!rc)
			rc = mev__pattern_subst(&v, "([^\\\\])\\{(|[^},]*[^,\\\\]),(|[^}]*[^\\\\])\\}",
						"$1($2|$3)", 0);
	}
	mev__buf_clear(out);
	for (size_t i = 0; i < v.len && !rc; i++) {
		char c = v.ptr[i];
		if (c == '.')
			rc = mev__buf_put(out, "\\.", 2);
		else if (c == '*')
			rc = mev__buf_put(out, ".*", 2);
		else if (c == '?')
			rc = mev__buf_putc(out, '.');
		else
			rc = mev__buf_putc(out, c);
	}
	mev__buf_free(&v);
	if (rc)
		return rc;
	/* "if pattern is a directory and it lacks a trailing slash, add one" */
	if (tree && out->len && out->ptr[out->len - 1] != '/' &&
	    mev_tree_stat(tree, out->ptr, out->len) == MEV_KIND_DIR)
		rc = mev__buf_putc(out, '/');
	return rc;
}

static int valid_type(char c) { return strchr("MRLSWQBCPTFXNKV", c) != NULL && c; }

/* The regex of an F:, X: or N: field (value already set), into f->regex. */
static int field_regex(mev_maint *m, mev_field *f, mev_buf *conv, const mev_tree *tree)
{
	const mev_rules *r = &m->rules;
	int rc;
	if (f->type == 'F' || f->type == 'X') {
		size_t vl = strlen(f->value);
		if (vl == 0)
			mev__maint_diag_add(m, f->file, f->line,
				"empty %c: pattern (get_maintainer.pl makes it match every top-level file)",
				f->type);
		if ((rc = mev__maint_convert_pattern(conv, f->value, vl, r, tree)))
			return rc;
		f->regex = mev__arena_strndup(&m->arena, conv->ptr, conv->len);
		return f->regex ? 0 : mev_error_oom();
	}
	f->regex = f->value;
	/* Perl: an empty pattern in m/$value/x means "the last successful
	 * pattern", which in get_maintainers() is the field-line regex just
	 * matched on this very line. */
	if (!f->value[0]) {
		f->regex = r->any_type ? "^([\\s\\S]):\\s*(.*)" : "^([A-Z]):\\s*(.*)";
		mev__maint_diag_add(m, f->file, f->line,
			"empty N: pattern (get_maintainer.pl reuses its last successful regex, /%s/: it matches only paths like 'A:...')",
			f->regex);
	}
	return 0;
}

/* Add the field of the line p..le ("X:", white space, value) to m. */
static int read_field(mev_maint *m, mev_buf *conv, const unsigned char *p, const unsigned char *le,
		      uint32_t fi, uint32_t lineno, const mev_tree *tree)
{
	mev_field f = { 0 };
	const unsigned char *v = p + 2;
	int pattern = p[0] == 'F' || p[0] == 'X' || p[0] == 'N', rc;
	v += skip_space(v, le, m->rules.utf8);
	f.type = (char)p[0];
	f.value = mev__arena_strndup(&m->arena, (const char *)v, (size_t)(le - v));
	f.file = fi;
	f.line = lineno;
	if (!f.value)
		return mev_error_oom();
	if (!valid_type(f.type))
		mev__maint_diag_add(m, fi, lineno, "unknown field type '%c:'", f.type);
	if (f.type == 'N' && m->rules.no_n) {
		/* like K:, a line the matching never looks at */
		mev__maint_diag_add(m, fi, lineno,
			"N: line, but this get_maintainer.pl has no N: handling: it matches nothing");
		pattern = 0;
	}
	if (pattern && memchr(v, '\0', (size_t)(le - v))) {
		/* the script's regex would need a NUL, which no git path holds:
		 * it matches nothing (values here end at a NUL) */
		f.regex = mev__maint_never_regex;
		mev__maint_diag_add(m, fi, lineno,
			"%c: pattern with a NUL byte; it can match no path", f.type);
	} else if (pattern && (rc = field_regex(m, &f, conv, tree))) {
		return rc;
	}
	return MEV_VEC_PUSH(&m->fields, f) ? mev_error_oom() : 0;
}

int mev__maint_read_file(mev__field_lines *out, mev_maint *m, uint32_t fi, const char *data,
			 size_t len, const mev_tree *tree)
{
	const mev_rules *r = &m->rules;
	const unsigned char *p = (const unsigned char *)data, *end = p + len, *next;
	uint32_t lineno = 0, cr_lines = 0, cr_first = 0, bad_utf8 = 0, nul_lines = 0;
	uint32_t nfields = 0, spaced = 0, spaced_first = 0;
	mev_buf conv = MEV_BUF_INIT;
	int rc = 0, in_section = 0;

	for (; p < end && !rc; p = next) {
		const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
		const unsigned char *le = nl ? nl : end; /* chomp */
		size_t ll = (size_t)(le - p);
		mev__field_line e = { 0 };
		next = nl ? nl + 1 : end;
		lineno++;
		e.file = fi;
		e.line = lineno;
		if (ll && le[-1] == '\r' && !cr_lines++)
			cr_first = lineno;
		if (memchr(p, '\0', ll))
			nul_lines++;
		if (r->utf8 && !mev__utf8_valid((const char *)p, ll) && !bad_utf8++)
			mev__maint_diag_add(m, fi, lineno, "not valid UTF-8; read as ISO-8859-1");

		if (ll >= 2 && p[1] == ':' && (r->any_type ? 1 : (p[0] >= 'A' && p[0] <= 'Z'))) {
			e.is_field = 1;
			e.field = (uint32_t)m->fields.n;
			if ((rc = read_field(m, &conv, p, le, fi, lineno, tree)))
				break;
			in_section = 1;
			nfields++;
			if (ll > 2 && p[2] == ' ' && p[0] != ' ' && !spaced++)
				spaced_first = lineno;
		} else {
			size_t sp = skip_space(p, le, r->utf8);
			int blank = sp == ll;
			int comment = !blank && p[sp] == '#';
			if (blank || (comment && r->drop_comments))
				continue;
			e.text = (const char *)p;
			e.text_len = ll;
			if (in_section)
				mev__maint_check_text_line(m, fi, lineno, p, ll, sp, comment);
		}
		if (MEV_VEC_PUSH(out, e))
			rc = mev_error_oom();
	}
	if (cr_lines)
		mev__maint_diag_add(m, fi, cr_first,
			"%u line(s) end with CR (DOS line endings); get_maintainer.pl keeps the CR in values",
			cr_lines);
	/* a convention, not an oddity: said once per file, and not at all
	 * where it is the file's own way of writing fields (QEMU, DPDK) */
	if (spaced && spaced * 2 <= nfields)
		mev__maint_diag_add(m, fi, spaced_first,
			"%u field line(s) have a space instead of a tab after the colon, the first here; get_maintainer.pl accepts it",
			spaced);
	if (nul_lines)
		mev__maint_diag_add(m, fi, 0, "%u line(s) contain NUL bytes; is this a text file?", nul_lines);
	mev__buf_free(&conv);
	return rc;
}
