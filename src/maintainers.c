/*
 * Reading MAINTAINERS exactly as scripts/get_maintainer.pl does: finding the
 * files, splitting lines into field and non-field lines, turning F:/X:
 * values into regexes and cutting the result into sections.
 */
#include "maintevo/maintainers.h"
#include "maintevo/error.h"
#include "maint_internal.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "util/text.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TITLE_MAX = 200 };

/* The regex given to a pattern that can match no path (a NUL in it). */
static const char never_regex[] = "(*FAIL)";

struct mev_maint {
	mev_rules rules;
	mev_arena arena;
	MEV_VEC(const char *) files;
	MEV_VEC(mev_field) fields;
	MEV_VEC(mev_section) sections;
	MEV_VEC(mev_diag) diags;
};

/* One entry of the script's @typevalue: a field line or a non-field line. */
typedef struct {
	uint8_t is_field;
	uint32_t field;    /* index into m->fields when is_field */
	const char *text;  /* the raw line when not a field */
	size_t text_len;
	uint32_t file, line;
} tv_entry;

typedef MEV_VEC(tv_entry) tv_vec;

int mev_maint_diag_add(mev_maint *m, uint32_t file, uint32_t line, const char *fmt, ...)
{
	mev_buf b = MEV_BUF_INIT;
	mev_diag d = { file, line, NULL };
	va_list ap;
	int rc;
	va_start(ap, fmt);
	rc = mev_buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (rc)
		return rc;
	d.message = mev_arena_strndup(&m->arena, b.ptr, b.len);
	mev_buf_free(&b);
	if (!d.message || MEV_VEC_PUSH(&m->diags, d))
		return mev_error_oom();
	return 0;
}

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
static int perl_subst(mev_buf *v, const char *re, const char *rep, int repeat)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
	pcre2_match_data *md;
	mev_buf out = MEV_BUF_INIT;
	int rc = 0;
	if (!code)
		return 0;
	md = pcre2_match_data_create_from_pattern(code, NULL);
	for (int round = 0; md && round < 10000; round++) {
		PCRE2_SIZE outlen = out.cap > 1 ? out.cap - 1 : 0;
		int n;
		if (!out.ptr && (rc = mev_buf_grow(&out, v->len * 2 + 64)))
			break;
		outlen = out.cap - 1;
		n = pcre2_substitute(code, (PCRE2_SPTR)v->ptr, v->len, 0,
				     PCRE2_SUBSTITUTE_GLOBAL | PCRE2_SUBSTITUTE_OVERFLOW_LENGTH |
				     PCRE2_SUBSTITUTE_UNSET_EMPTY,
				     md, NULL, (PCRE2_SPTR)rep, PCRE2_ZERO_TERMINATED,
				     (PCRE2_UCHAR *)out.ptr, &outlen);
		if (n == PCRE2_ERROR_NOMEMORY) {
			if ((rc = mev_buf_grow(&out, outlen + 1)))
				break;
			round--;
			continue;
		}
		if (n <= 0)
			break;
		mev_buf_clear(v);
		if ((rc = mev_buf_put(v, out.ptr, outlen)) || !repeat)
			break;
	}
	mev_buf_free(&out);
	pcre2_match_data_free(md);
	pcre2_code_free(code);
	return rc;
}

static int convert_pattern(mev_buf *out, const char *val, size_t len, const mev_rules *r,
			   const mev_tree *tree)
{
	mev_buf v = MEV_BUF_INIT;
	int rc = mev_buf_put(&v, val, len);
	if (rc)
		return rc;
	if (r->braces) {
		rc = perl_subst(&v, "([^\\\\])\\{(|[^},]*[^,\\\\]),((|[^},]*[^,\\\\]),(|[^}]*[^\\\\]))\\}",
				"$1{$2|$3}", 1);
		if (!rc)
			rc = perl_subst(&v, "([^\\\\])\\{(|[^},]*[^,\\\\]),(|[^}]*[^\\\\])\\}",
					"$1($2|$3)", 0);
	}
	mev_buf_clear(out);
	for (size_t i = 0; i < v.len && !rc; i++) {
		char c = v.ptr[i];
		if (c == '.')
			rc = mev_buf_put(out, "\\.", 2);
		else if (c == '*')
			rc = mev_buf_put(out, ".*", 2);
		else if (c == '?')
			rc = mev_buf_putc(out, '.');
		else
			rc = mev_buf_putc(out, c);
	}
	mev_buf_free(&v);
	if (rc)
		return rc;
	/* "if pattern is a directory and it lacks a trailing slash, add one" */
	if (tree && out->len && out->ptr[out->len - 1] != '/' &&
	    mev_tree_stat(tree, out->ptr, out->len) == MEV_KIND_DIR)
		rc = mev_buf_putc(out, '/');
	return rc;
}

const char *mev_status_name(mev_status s)
{
	static const char *const names[] = { "", "Supported", "Maintained", "Odd Fixes", "Orphan",
					     "Obsolete", "Buried alive in reporters", "Other" };
	return (unsigned)s < sizeof names / sizeof *names ? names[s] : "Other";
}

static mev_status parse_status(const char *s)
{
	static const struct { const char *prefix; mev_status st; } map[] = {
		{ "supported", MEV_STATUS_SUPPORTED }, { "maintained", MEV_STATUS_MAINTAINED },
		{ "odd fix", MEV_STATUS_ODD_FIXES }, { "orphan", MEV_STATUS_ORPHAN },
		{ "obsolete", MEV_STATUS_OBSOLETE }, { "buried", MEV_STATUS_BURIED },
	};
	for (size_t i = 0; i < sizeof map / sizeof *map; i++)
		if (strncasecmp(s, map[i].prefix, strlen(map[i].prefix)) == 0)
			return map[i].st;
	return MEV_STATUS_OTHER;
}

/* Display form of a raw line: UTF-8, trailing white space and CR removed. */
static char *display_text(mev_maint *m, const char *s, size_t len, int *truncated)
{
	mev_buf b = MEV_BUF_INIT;
	char *out;
	*truncated = 0;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r' ||
		       s[len - 1] == '\f' || s[len - 1] == '\v'))
		len--;
	if (len > TITLE_MAX) {
		len = TITLE_MAX;
		*truncated = 1;
	}
	if (memchr(s, '\0', len))
		len = strnlen(s, len);
	if (mev_to_utf8(&b, s, len))
		return NULL;
	if (*truncated && mev_buf_puts(&b, "..."))
		return NULL;
	out = mev_arena_strndup(&m->arena, b.ptr, b.len);
	mev_buf_free(&b);
	return out;
}

static int valid_type(char c) { return strchr("MRLSWQBCPTFXNKV", c) != NULL && c; }

/* Split one file into @typevalue entries, adding fields and diagnostics. */
static int read_file(mev_maint *m, uint32_t fi, const char *data, size_t len,
		     const mev_tree *tree, tv_vec *tv)
{
	const mev_rules *r = &m->rules;
	const unsigned char *p = (const unsigned char *)data, *end = p + len;
	uint32_t lineno = 0, cr_lines = 0, cr_first = 0, bad_utf8 = 0, nul_lines = 0;
	mev_buf conv = MEV_BUF_INIT;
	int rc = 0;
	int in_section = 0;

	while (p < end && !rc) {
		const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
		const unsigned char *le = nl ? nl : end; /* chomp */
		size_t ll = (size_t)(le - p);
		tv_entry e = { 0 };
		lineno++;
		e.file = fi;
		e.line = lineno;
		if (ll && le[-1] == '\r' && !cr_lines++)
			cr_first = lineno;
		if (memchr(p, '\0', ll))
			nul_lines++;
		if (r->utf8 && !mev_utf8_valid((const char *)p, ll) && !bad_utf8++)
			mev_maint_diag_add(m, fi, lineno, "not valid UTF-8; read as ISO-8859-1");

		if (ll >= 2 && p[1] == ':' && (r->any_type ? 1 : (p[0] >= 'A' && p[0] <= 'Z'))) {
			mev_field f = { 0 };
			const unsigned char *v = p + 2;
			v += skip_space(v, le, r->utf8);
			f.type = (char)p[0];
			f.value = mev_arena_strndup(&m->arena, (const char *)v, (size_t)(le - v));
			f.file = fi;
			f.line = lineno;
			if (!f.value)
				goto oom;
			if (!valid_type(f.type))
				mev_maint_diag_add(m, fi, lineno, "unknown field type '%c:'", f.type);
			if (ll > 2 && p[2] == ' ' && f.type != ' ')
				mev_maint_diag_add(m, fi, lineno, "space instead of tab after '%c:'", f.type);
			if ((f.type == 'F' || f.type == 'X' || f.type == 'N') &&
			    memchr(v, '\0', (size_t)(le - v))) {
				/* the script's regex would need a NUL, which no git path
				 * holds: it matches nothing (values here end at a NUL) */
				f.regex = never_regex;
				mev_maint_diag_add(m, fi, lineno,
					"%c: pattern with a NUL byte; it can match no path", f.type);
			} else if (f.type == 'F' || f.type == 'X') {
				size_t vl = strlen(f.value);
				if (vl == 0)
					mev_maint_diag_add(m, fi, lineno,
						"empty %c: pattern (get_maintainer.pl makes it match every top-level file)",
						f.type);
				if ((rc = convert_pattern(&conv, f.value, vl, r, tree)))
					break;
				f.regex = mev_arena_strndup(&m->arena, conv.ptr, conv.len);
				if (!f.regex)
					goto oom;
			} else if (f.type == 'N') {
				f.regex = f.value;
				/* Perl: an empty pattern in m/$value/x means "the last
				 * successful pattern", which in get_maintainers() is the
				 * field-line regex just matched on this very line. */
				if (!f.value[0]) {
					f.regex = r->any_type ? "^([\\s\\S]):\\s*(.*)" : "^([A-Z]):\\s*(.*)";
					mev_maint_diag_add(m, fi, lineno,
						"empty N: pattern (get_maintainer.pl reuses its last successful regex, /%s/: it matches only paths like 'A:...')",
						f.regex);
				}
			}
			e.is_field = 1;
			e.field = (uint32_t)m->fields.n;
			if (MEV_VEC_PUSH(&m->fields, f))
				goto oom;
			in_section = 1;
		} else {
			size_t sp = skip_space(p, le, r->utf8);
			int blank = sp == ll;
			int comment = !blank && p[sp] == '#';
			if (blank || (comment && r->drop_comments)) {
				p = nl ? nl + 1 : end;
				continue;
			}
			e.text = (const char *)p;
			e.text_len = ll;
			if (in_section && ll >= 2) {
				if (p[0] >= 'A' && p[0] <= 'Z' && p[1] == '.' && ll > 2 &&
				    (p[2] == '\t' || p[2] == ' '))
					mev_maint_diag_add(m, fi, lineno,
						"'%c.' is not a field (did you mean '%c:'?); get_maintainer.pl reads the line as a section title",
						p[0], p[0]);
				else if (p[0] >= 'A' && p[0] <= 'Z' && (p[1] == '\t' || p[1] == ' '))
					mev_maint_diag_add(m, fi, lineno,
						"'%c' followed by white space instead of ':'; get_maintainer.pl reads the line as a section title",
						p[0]);
				else if (p[0] >= 'a' && p[0] <= 'z' && p[1] == ':')
					mev_maint_diag_add(m, fi, lineno,
						"lowercase field '%c:' is not a field; get_maintainer.pl reads the line as a section title",
						p[0]);
				else if (sp && sp + 1 < ll && p[sp] >= 'A' && p[sp] <= 'Z' && p[sp + 1] == ':')
					mev_maint_diag_add(m, fi, lineno,
						"indented field '%c:' is not a field; get_maintainer.pl reads the line as a section title",
						p[sp]);
				else if (comment)
					mev_maint_diag_add(m, fi, lineno,
						"comment line kept as a possible section title (this get_maintainer.pl does not skip comments)");
			}
			if (MEV_VEC_PUSH(tv, e))
				goto oom;
			p = nl ? nl + 1 : end;
			continue;
		}
		if (MEV_VEC_PUSH(tv, e))
			goto oom;
		p = nl ? nl + 1 : end;
	}
	if (cr_lines)
		mev_maint_diag_add(m, fi, cr_first,
			"%u line(s) end with CR (DOS line endings); get_maintainer.pl keeps the CR in values",
			cr_lines);
	if (nul_lines)
		mev_maint_diag_add(m, fi, 0, "%u line(s) contain NUL bytes; is this a text file?", nul_lines);
	mev_buf_free(&conv);
	return rc;
oom:
	mev_buf_free(&conv);
	return mev_error_oom();
}

/* A line of only '-' or '=' (at least three), trailing white space aside. */
static int is_underline(const char *s, size_t len)
{
	size_t n = 0;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	for (; n < len; n++)
		if (s[n] != '-' && s[n] != '=')
			return 0;
	return n >= 3;
}

/* Cut @typevalue into sections: each maximal run of field lines is a
 * section whose title is the non-field line just before it. */
static int build_sections(mev_maint *m, const tv_entry *tv, size_t n)
{
	mev_strmap seen = MEV_STRMAP_INIT, taken = MEV_STRMAP_INIT;
	size_t i = 0;
	int rc = 0;

	while (i < n) {
		mev_section s = { 0 };
		size_t j;
		int trunc = 0;
		if (!tv[i].is_field) {
			if (i + 1 < n && !tv[i + 1].is_field && m->sections.n)
				mev_maint_diag_add(m, tv[i].file, tv[i].line,
					"line is not followed by fields; the next title line wins");
			i++;
			continue;
		}
		for (j = i; j < n && tv[j].is_field; j++)
			/* the script concatenates the files: a file that starts
			 * with field lines extends the section read before it */
			if (j > i && tv[j].file != tv[j - 1].file)
				mev_maint_diag_add(m, tv[j].file, tv[j].line,
					"file starts with field lines; get_maintainer.pl adds them to the last section of '%s'",
					m->files.v[tv[j - 1].file]);
		s.field_begin = tv[i].field;
		s.field_count = (uint32_t)(j - i);
		if (i > 0) {
			const tv_entry *t = &tv[i - 1];
			s.raw_title = mev_arena_strndup(&m->arena, t->text, t->text_len);
			if (is_underline(t->text, t->text_len) && i > 1 && !tv[i - 2].is_field) {
				/* QEMU: "Group header" then "------": the script's
				 * title is the underline; show the header instead */
				const tv_entry *h = &tv[i - 2];
				s.title = display_text(m, h->text, h->text_len, &trunc);
				if (s.title)
					mev_maint_diag_add(m, t->file, t->line,
						"section title is an underline; shown as '%s'", s.title);
			} else {
				s.title = display_text(m, t->text, t->text_len, &trunc);
			}
			s.file = t->file;
			s.line = t->line;
			if (!s.raw_title || !s.title)
				goto oom;
			if (trunc)
				mev_maint_diag_add(m, t->file, t->line,
						   "section title longer than %d bytes; shortened", TITLE_MAX);
			if (t->file != tv[i].file)
				mev_maint_diag_add(m, tv[i].file, tv[i].line,
					"file starts with field lines; get_maintainer.pl adds them to the last section of '%s'",
					m->files.v[t->file]);
		} else {
			s.raw_title = "";
			s.title = "(untitled)";
			s.file = tv[i].file;
			s.line = tv[i].line;
			mev_maint_diag_add(m, tv[i].file, tv[i].line, "fields before any section title");
		}
		if (s.title[0] == '\0')
			s.title = "(untitled)";
		for (size_t k = i; k < j; k++) {
			const mev_field *f = &m->fields.v[tv[k].field];
			switch (f->type) {
			case 'M': s.n_maintainers++; break;
			case 'R': s.n_reviewers++; break;
			case 'L': s.n_lists++; break;
			case 'T': s.n_trees++; break;
			case 'F': case 'X': case 'N': s.n_patterns++; break;
			case 'S':
				if (!s.status_text) {
					int tr;
					s.status_text = display_text(m, f->value, strlen(f->value), &tr);
					if (!s.status_text)
						goto oom;
					s.status = parse_status(s.status_text);
					if (s.status == MEV_STATUS_OTHER)
						mev_maint_diag_add(m, f->file, f->line, "unknown status '%s'",
								   s.status_text);
				}
				break;
			default: break;
			}
		}
		if (!s.status_text)
			s.status_text = "";
		s.is_rest = strcmp(s.title, "THE REST") == 0;
		if (MEV_VEC_PUSH(&m->sections, s))
			goto oom;
		i = j;
	}

	/* Unique display titles: repeats become "TITLE #2", "TITLE #3", ... */
	for (i = 0; i < m->sections.n; i++) {
		const char *t = m->sections.v[i].title;
		if ((rc = mev_strmap_intern(&taken, t, strlen(t), (uint32_t)i, NULL, NULL)))
			goto done;
	}
	for (i = 0; i < m->sections.n; i++) {
		mev_section *s = &m->sections.v[i];
		uint32_t first;
		int added;
		if ((rc = mev_strmap_intern(&seen, s->title, strlen(s->title), (uint32_t)i, &first, &added)))
			goto done;
		if (added)
			continue;
		{
			mev_buf b = MEV_BUF_INIT;
			const mev_section *f0 = &m->sections.v[first];
			const char *base = s->title;
			unsigned k = 2;
			for (;; k++) {
				mev_buf_clear(&b);
				if (mev_buf_printf(&b, "%s #%u", base, k))
					goto oom;
				if (mev_strmap_get(&taken, b.ptr, b.len) < 0)
					break;
			}
			mev_maint_diag_add(m, s->file, s->line,
				"duplicate section title '%s' (first at %s:%u); kept apart as '%s'",
				base, m->files.v[f0->file], f0->line, b.ptr);
			if ((rc = mev_strmap_intern(&taken, b.ptr, b.len, (uint32_t)i, NULL, NULL))) {
				mev_buf_free(&b);
				goto done;
			}
			s->title = mev_arena_strndup(&m->arena, b.ptr, b.len);
			mev_buf_free(&b);
			if (!s->title)
				goto oom;
		}
	}
done:
	mev_strmap_free(&seen);
	mev_strmap_free(&taken);
	return rc;
oom:
	rc = mev_error_oom();
	goto done;
}

static mev_maint *maint_new(const mev_rules *rules)
{
	mev_maint *m = calloc(1, sizeof *m);
	if (!m)
		return NULL;
	if (rules)
		m->rules = *rules;
	else
		mev_rules_default(&m->rules, MEV_DIALECT_LINUX);
	return m;
}

static int parse_into(mev_maint *m, const mev_maint_input *files, size_t nfiles,
		      const mev_tree *tree)
{
	tv_vec tv = { 0 };
	int rc = 0;
	for (size_t i = 0; i < nfiles && !rc; i++) {
		const char *p = mev_arena_strndup(&m->arena, files[i].path, strlen(files[i].path));
		if (!p || MEV_VEC_PUSH(&m->files, p)) {
			rc = mev_error_oom();
			break;
		}
		rc = read_file(m, (uint32_t)i, files[i].data, files[i].len, tree, &tv);
	}
	if (!rc)
		rc = build_sections(m, tv.v, tv.n);
	MEV_VEC_FREE(&tv);
	return rc;
}

int mev_maint_parse(mev_maint **out, const mev_rules *rules, const mev_maint_input *files,
		    size_t nfiles, const mev_tree *tree)
{
	mev_maint *m = maint_new(rules);
	int rc;
	*out = NULL;
	if (!m)
		return mev_error_oom();
	if ((rc = parse_into(m, files, nfiles, tree))) {
		mev_maint_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

/* --- finding the files --------------------------------------------------- */

typedef MEV_VEC(char *) path_list;

static int push_path(path_list *l, const char *p, size_t len)
{
	char *s = strndup(p, len);
	if (!s || MEV_VEC_PUSH(l, s)) {
		free(s);
		return mev_error_oom();
	}
	return 0;
}

static int is_kind(const mev_tree *t, const char *p, int kind)
{
	return mev_tree_stat(t, p, strlen(p)) == kind;
}

static const char *base_name(const mev_tree_file *f)
{
	const char *s = memrchr(f->path, '/', f->path_len);
	return s ? s + 1 : f->path;
}

/* Entries named exactly MAINTAINERS below `dir` ("" = root) that are files. */
static int find_files_named(path_list *l, const mev_tree *t, const char *dir)
{
	size_t n = mev_tree_count(t), dl = strlen(dir);
	const mev_tree_file *fs = mev_tree_files(t);
	for (size_t i = 0; i < n; i++) {
		const mev_tree_file *f = &fs[i];
		if (dl && (f->path_len <= dl || memcmp(f->path, dir, dl) || f->path[dl] != '/'))
			continue;
		if (strcmp(base_name(f), "MAINTAINERS") != 0)
			continue;
		if (f->kind == MEV_KIND_LINK && !f->link_file)
			continue;
		if (push_path(l, f->path, f->path_len))
			return MEV_ENOMEM;
	}
	return 0;
}

/* readdir(dir) minus dot files: the files directly inside `dir`. */
static int list_dir(path_list *l, const mev_tree *t, const char *dir)
{
	size_t n = mev_tree_count(t), dl = strlen(dir);
	const mev_tree_file *fs = mev_tree_files(t);
	for (size_t i = 0; i < n; i++) {
		const mev_tree_file *f = &fs[i];
		const char *b;
		if (dl && (f->path_len <= dl || memcmp(f->path, dir, dl) || f->path[dl] != '/'))
			continue;
		b = f->path + (dl ? dl + 1 : 0);
		if (strchr(b, '/') || b[0] == '.')
			continue;
		if (f->kind == MEV_KIND_LINK && !f->link_file)
			continue;
		if (push_path(l, f->path, f->path_len))
			return MEV_ENOMEM;
	}
	return 0;
}

/* Normalise a --maintainer-path value to a tree path ("" = root). */
static char *tree_dir_path(const mev_tree *t, const char *p, int *kind)
{
	char *real = NULL;
	if (strcmp(p, ".") == 0 || strcmp(p, "./") == 0) {
		*kind = MEV_KIND_DIR;
		return strdup("");
	}
	*kind = mev_tree_resolve(t, p, strlen(p), &real);
	return real;
}

static int discover(mev_maint *m, const mev_tree *t, path_list *l)
{
	const mev_rules *r = &m->rules;
	size_t n = mev_tree_count(t);
	const mev_tree_file *fs = mev_tree_files(t);
	int kind;
	char *dir;

	switch (r->discover) {
	case MEV_DISCOVER_TOP:
		if (is_kind(t, "MAINTAINERS", MEV_KIND_FILE))
			return push_path(l, "MAINTAINERS", 11);
		return mev_maint_diag_add(m, UINT32_MAX, 0, "no MAINTAINERS file at the top of the tree");
	case MEV_DISCOVER_BOARD:
		if (!is_kind(t, "MAINTAINERS", MEV_KIND_FILE))
			return mev_maint_diag_add(m, UINT32_MAX, 0,
				"no MAINTAINERS file at the top of the tree (this get_maintainer.pl stops there)");
		if (push_path(l, "MAINTAINERS", 11))
			return MEV_ENOMEM;
		for (size_t i = 0; i < n; i++) {
			const mev_tree_file *f = &fs[i];
			if (f->path_len < 6 || memcmp(f->path, "board/", 6))
				continue;
			if (strncmp(base_name(f), "MAINTAINERS", 11))
				continue;
			if (f->kind == MEV_KIND_LINK && !f->link_file) {
				mev_maint_diag_add(m, UINT32_MAX, 0, "'%s' is a link to nothing readable; skipped",
						   f->path);
				continue;
			}
			if (push_path(l, f->path, f->path_len))
				return MEV_ENOMEM;
		}
		return 0;
	case MEV_DISCOVER_DIR_FMF:
		if (is_kind(t, "MAINTAINERS", MEV_KIND_DIR)) {
			dir = tree_dir_path(t, "MAINTAINERS", &kind);
			if (!dir || list_dir(l, t, dir)) {
				free(dir);
				return mev_error_oom();
			}
			free(dir);
		}
		if (r->find_files)
			return find_files_named(l, t, "");
		if (is_kind(t, "MAINTAINERS", MEV_KIND_FILE))
			return push_path(l, "MAINTAINERS", 11);
		if (!l->n)
			return mev_maint_diag_add(m, UINT32_MAX, 0, "no MAINTAINERS file in the tree");
		return 0;
	default: {
		const char *path = r->mpath[0] ? r->mpath : "MAINTAINERS";
		int rc = 0;
		if (path[0] == '/' || path[0] == '~')
			return mev_maint_diag_add(m, UINT32_MAX, 0,
				"maintainer path '%s' is outside the tree; no MAINTAINERS read", path);
		dir = tree_dir_path(t, path, &kind);
		if (kind == MEV_KIND_DIR) {
			rc = r->find_files ? find_files_named(l, t, dir) : list_dir(l, t, dir);
			if (!rc && !l->n)
				rc = mev_maint_diag_add(m, UINT32_MAX, 0, "no MAINTAINERS files found in '%s'", path);
		} else if (kind == MEV_KIND_FILE) {
			rc = push_path(l, dir, strlen(dir));
		} else {
			rc = mev_maint_diag_add(m, UINT32_MAX, 0, "MAINTAINERS file not found ('%s')", path);
		}
		free(dir);
		return rc;
	}
	}
}

int mev_maint_load(mev_maint **out, const mev_rules *rules, mev_repo *repo, const mev_tree *tree)
{
	mev_maint *m = maint_new(rules);
	path_list paths = { 0 };
	mev_maint_input *in = NULL;
	size_t i, nread = 0;
	int rc;

	*out = NULL;
	if (!m)
		return mev_error_oom();
	if ((rc = discover(m, tree, &paths)))
		goto done;
	in = calloc(paths.n + 1, sizeof *in);
	if (!in) {
		rc = mev_error_oom();
		goto done;
	}
	for (i = 0; i < paths.n; i++) {
		char *real = NULL;
		int64_t idx;
		int k = mev_tree_resolve(tree, paths.v[i], strlen(paths.v[i]), &real);
		in[nread].path = paths.v[i];
		if (k != MEV_KIND_FILE || (idx = mev_tree_find(tree, real, strlen(real))) < 0) {
			free(real);
			continue;
		}
		free(real);
		{
			char *data;
			size_t len;
			if ((rc = mev_repo_read_blob(&data, &len, repo, &mev_tree_files(tree)[idx].oid)))
				goto done;
			in[nread].data = data;
			in[nread].len = len;
			nread++;
		}
	}
	rc = parse_into(m, in, nread, tree);
done:
	for (i = 0; in && i < nread; i++)
		free((char *)in[i].data);
	free(in);
	for (i = 0; i < paths.n; i++)
		free(paths.v[i]);
	MEV_VEC_FREE(&paths);
	if (rc) {
		mev_maint_free(m);
		return rc;
	}
	*out = m;
	return 0;
}

int mev_maint_sources(const mev_rules *rules, const mev_tree *tree, mev_maint_source **out,
		      size_t *n)
{
	mev_maint *m = maint_new(rules);
	path_list paths = { 0 };
	mev_maint_source *src = NULL;
	size_t k = 0;
	int rc;
	*out = NULL;
	*n = 0;
	if (!m)
		return mev_error_oom();
	if ((rc = discover(m, tree, &paths)))
		goto done;
	src = calloc(paths.n + 1, sizeof *src);
	if (!src) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t i = 0; i < paths.n; i++) {
		char *real = NULL;
		int64_t idx;
		if (mev_tree_resolve(tree, paths.v[i], strlen(paths.v[i]), &real) == MEV_KIND_FILE &&
		    (idx = mev_tree_find(tree, real, strlen(real))) >= 0) {
			src[k].path = paths.v[i];
			src[k].oid = mev_tree_files(tree)[idx].oid;
			paths.v[i] = NULL;
			k++;
		}
		free(real);
	}
	*out = src;
	*n = k;
done:
	for (size_t i = 0; i < paths.n; i++)
		free(paths.v[i]);
	MEV_VEC_FREE(&paths);
	mev_maint_free(m);
	return rc;
}

void mev_maint_sources_free(mev_maint_source *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		free(s[i].path);
	free(s);
}

int mev_maint_dirs_changed(const mev_maint *m, const mev_tree *tree)
{
	mev_buf conv = MEV_BUF_INIT;
	int changed = 0;
	for (size_t i = 0; i < m->fields.n && !changed; i++) {
		const mev_field *f = &m->fields.v[i];
		if ((f->type != 'F' && f->type != 'X') || f->regex == never_regex)
			continue;
		if (convert_pattern(&conv, f->value, strlen(f->value), &m->rules, tree)) {
			changed = 1;
			break;
		}
		changed = strcmp(conv.ptr ? conv.ptr : "", f->regex) != 0;
	}
	mev_buf_free(&conv);
	return changed;
}

void mev_maint_free(mev_maint *m)
{
	if (!m)
		return;
	MEV_VEC_FREE(&m->files);
	MEV_VEC_FREE(&m->fields);
	MEV_VEC_FREE(&m->sections);
	MEV_VEC_FREE(&m->diags);
	mev_arena_free(&m->arena);
	free(m);
}

size_t mev_maint_section_count(const mev_maint *m) { return m->sections.n; }
const mev_section *mev_maint_sections(const mev_maint *m) { return m->sections.v; }
size_t mev_maint_field_count(const mev_maint *m) { return m->fields.n; }
const mev_field *mev_maint_fields(const mev_maint *m) { return m->fields.v; }
size_t mev_maint_file_count(const mev_maint *m) { return m->files.n; }
const char *mev_maint_file(const mev_maint *m, uint32_t i) { return i < m->files.n ? m->files.v[i] : ""; }
const mev_rules *mev_maint_rules(const mev_maint *m) { return &m->rules; }
size_t mev_maint_diag_count(const mev_maint *m) { return m->diags.n; }
const mev_diag *mev_maint_diags(const mev_maint *m) { return m->diags.v; }

void mev_maint_diag_format(const mev_maint *m, const mev_diag *d, char *buf, size_t size)
{
	if (d->file == UINT32_MAX)
		snprintf(buf, size, "%s", d->message);
	else if (d->line == 0)
		snprintf(buf, size, "%s: %s", mev_maint_file(m, d->file), d->message);
	else
		snprintf(buf, size, "%s:%u: %s", mev_maint_file(m, d->file), d->line, d->message);
}
