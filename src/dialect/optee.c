/*
 * OP-TEE (optee_os): X.Y.Z releases, one kernel-style MAINTAINERS read and
 * matched as its own scripts/get_maintainer.py does (docs/matching.md).
 */
#include "dialect_internal.h"
#include "util/buf.h"

#include <stdio.h>
#include <string.h>

/* core/arch/ and ta/: the secure OS and its trusted applications */
static int guess(const mev_tree *t)
{
	return mev__dialect_dir(t, "core/arch") && mev__dialect_dir(t, "ta");
}

/* one MAINTAINERS at the top; get_maintainer.py has no N: (nor K:) */
static void defaults(mev_rules *r)
{
	r->discover = MEV_DISCOVER_TOP;
	r->drop_comments = 0;
	r->any_type = 1;
	r->no_n = 1;
	r->utf8 = 1;
	r->regex_patterns = 1;
}

/* X.Y.Z (3.22.0), X.Y.Z-rcN with rc */
static int is_release(const char *tag, int rc)
{
	const char *p = tag;
	if (!mev__tag_digits(&p, 1, 3) || *p++ != '.' || !mev__tag_digits(&p, 1, 3) ||
	    *p++ != '.' || !mev__tag_digits(&p, 1, 3))
		return 0;
	return mev__tag_end_or_rc(p, rc);
}

/*
 * match_pattern(): "^" + pattern, '*' -> "[^/]+", '?' -> "[^/]", a
 * trailing '/' gets ".*", then "$": the whole path is anchored, and '.'
 * and any other regex character stay what Python's re makes of them.
 */
static int regex(mev_buf *out, char type, const char *v, size_t len)
{
	int rc = mev__buf_putc(out, '^');
	(void)type;
	for (size_t i = 0; i < len && !rc; i++) {
		if (v[i] == '*')
			rc = mev__buf_puts(out, "[^/]+");
		else if (v[i] == '?')
			rc = mev__buf_puts(out, "[^/]");
		else
			rc = mev__buf_putc(out, v[i]);
	}
	if (!rc && len && v[len - 1] == '/')
		rc = mev__buf_puts(out, ".*");
	return rc ? rc : mev__buf_putc(out, '$');
}

/* The bytes of the UTF-8 character at p (1 for a stray byte). */
static size_t char_len(const unsigned char *p, const unsigned char *e)
{
	size_t n = *p < 0x80 ? 1 : *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : *p >= 0xc0 ? 2 : 1;
	return p + n <= e ? n : 1;
}

/* str.strip(): *b, *e moved over white space at both ends. */
static void py_strip(const unsigned char **b, const unsigned char **e)
{
	size_t n;
	while ((n = mev__dialect_py_space(*b, *e)))
		*b += n;
	for (;;) {
		const unsigned char *q = *e;
		size_t k = 0;
		/* back up to the start of the last character */
		while (q > *b && k < 4) {
			q--;
			k++;
			if ((*q & 0xc0) != 0x80)
				break;
		}
		if (q >= *e || !(n = mev__dialect_py_space(q, *e)) || q + n != *e)
			return;
		*e = q;
	}
}

/* One stripped, non-blank line after the "----------" line. */
typedef struct {
	const unsigned char *s, *e;
	uint32_t line;
	int is_field;
} line_t;

static int diag(mev__dialect_sink *sk, uint32_t line, const char *fmt, const char *a, size_t alen)
{
	char msg[400];
	snprintf(msg, sizeof msg, fmt, (int)(alen > 200 ? 200 : alen), a);
	return sk->diag(sk, line, msg);
}

/*
 * The next line of data at *pos as Python's text mode gives it (universal
 * newlines: "\n", "\r\n" and "\r" each end one), without its end.
 */
static int next_line(const unsigned char **b, const unsigned char **e, const unsigned char **pos,
		     const unsigned char *end)
{
	const unsigned char *p = *pos;
	if (p >= end)
		return 0;
	*b = p;
	while (p < end && *p != '\n' && *p != '\r')
		p++;
	*e = p;
	if (p < end && *p == '\r' && p + 1 < end && p[1] == '\n')
		p++;
	*pos = p < end ? p + 1 : p;
	return 1;
}

/*
 * parse_maintainers(): lines stripped, blank ones skipped, everything up to
 * a line starting with "----------" skipped; then a line whose second
 * character is ':' is a field (its letter the first character, its value
 * from the fourth on), any other line names the section whose fields
 * follow.  Sections are kept in a dict by name: a later section of the
 * same name replaces the earlier one, and fields before any name are lost.
 */
static int read(mev__dialect_sink *sk, const char *data, size_t len)
{
	const unsigned char *pos = (const unsigned char *)data, *end = pos + len, *b, *e;
	MEV_VEC(line_t) lines = { 0 };
	uint32_t lineno = 0;
	int started = 0, rc = 0, named = 0;

	for (; next_line(&b, &e, &pos, end) && !rc; ) {
		line_t l;
		lineno++;
		py_strip(&b, &e);
		if (b == e)
			continue;
		if (!started) {
			started = e - b >= 10 && memcmp(b, "----------", 10) == 0;
			continue;
		}
		l.s = b;
		l.e = e;
		l.line = lineno;
		l.is_field = 0;
		if (char_len(b, e) == (size_t)(e - b)) {
			rc = diag(sk, lineno, "line '%.*s' has one character: get_maintainer.py stops here (IndexError); read as a title",
				  (const char *)b, (size_t)(e - b));
		} else {
			const unsigned char *c2 = b + char_len(b, e);
			l.is_field = *c2 == ':';
		}
		if (!rc && MEV_VEC_PUSH(&lines, l))
			rc = MEV_ENOMEM;
	}
	if (!rc && !started)
		rc = sk->diag(sk, 0, "no line starting with '----------': get_maintainer.py reads no section");
	for (size_t i = 0; i < lines.n && !rc; i++) {
		line_t *l = &lines.v[i];
		if (!l->is_field) {
			/* a later section of the same name replaces this one */
			size_t n = (size_t)(l->e - l->s), j;
			for (j = i + 1; j < lines.n; j++)
				if (!lines.v[j].is_field && (size_t)(lines.v[j].e - lines.v[j].s) == n &&
				    memcmp(lines.v[j].s, l->s, n) == 0)
					break;
			named = j == lines.n ? 1 : -1;
			if (named < 0) {
				char msg[300];
				snprintf(msg, sizeof msg,
					 "section '%.*s' named again at line %u: get_maintainer.py keeps only the later one",
					 (int)(n > 200 ? 200 : n), (const char *)l->s, lines.v[j].line);
				rc = sk->diag(sk, l->line, msg);
			}
			if (!rc)
				rc = sk->title(sk, l->line, (const char *)l->s, n);
			continue;
		}
		if (!named) {
			rc = diag(sk, l->line, "field '%.*s' before any section name: get_maintainer.py drops it",
				  (const char *)l->s, (size_t)(l->e - l->s));
			continue;
		}
		if (named < 0)
			continue;
		{
			/* letter, ':', one separator character, the value */
			const unsigned char *v = l->s + char_len(l->s, l->e) + 1;
			char type = (char)(*l->s < 0x80 ? *l->s : '?');
			if (v < l->e) {
				if (*v != '\t' && *v != ' ')
					rc = diag(sk, l->line, "field '%.*s': get_maintainer.py drops the character after the colon",
						  (const char *)l->s, (size_t)(l->e - l->s));
				v += char_len(v, l->e);
			}
			if (!rc)
				rc = sk->field(sk, l->line, type, (const char *)v, (size_t)(l->e - v), NULL);
		}
	}
	MEV_VEC_FREE(&lines);
	return rc;
}

/* 1.0.0 starts line 1.0, 1.0.1 is one of its maintenance releases */
static mev_tag_kind line(char *out, size_t size, const char *tag)
{
	return mev__tag_line_of(out, size, tag, 2);
}

const mev__dialect_def mev__dialect_optee = {
	.info = {
		.name = "optee",
		.display = "OP-TEE",
		.tags = "X.Y.0 (X.Y.Z with --line X.Y)",
		.rc_tags = "X.Y.Z-rcN",
		.files = "MAINTAINERS",
		.detect = "core/arch/ and ta/",
	},
	.guess = guess,
	.defaults = defaults,
	.is_release = is_release,
	.line = line,
	.script = "scripts/get_maintainer.py",
	.read = read,
	.regex = regex,
};
