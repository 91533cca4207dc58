/*
 * edk2 (TianoCore): edk2-stableYYYYMM releases, Maintainers.txt read and
 * matched as the release's BaseTools/Scripts/GetMaintainer.py does
 * (docs/matching.md).
 */
#include "dialect_internal.h"
#include "util/buf.h"
#include "util/text.h"

#include <stdio.h>
#include <string.h>

/* the EDK II packages and their tools */
static int guess(const mev_tree *t)
{
	return mev__dialect_dir(t, "MdePkg") && mev__dialect_dir(t, "BaseTools");
}

/* the newest script: no directory test, M: lines with anything after the
 * address (2021-07), only M: saves a path from '<default>' (2023-11) */
static void defaults(mev_rules *r)
{
	r->discover = MEV_DISCOVER_PATH;
	strcpy(r->mpath, "Maintainers.txt");
	r->drop_comments = 0;
	r->no_n = 1;
	r->utf8 = 1;
	r->regex_patterns = 1;
	r->no_dir_slash = 1;
	r->fallback = 1;
}

/* The changes of the script that bear on its answers. */
static void detect(mev_rules *r, const char *text)
{
	/* before 2021-07: 'maintainer': re.compile(r'^M:\s*(?P<maintainer>.*<.*?>)\r*$') */
	r->m_needs_addr = strstr(text, "(?P<maintainer>.*<.*?>)") != NULL;
	/* before 2023-11: maintainers += M: and R: addresses alike */
	r->fallback_r = strstr(text, "for address in section['maintainer'], section['reviewer']:") != NULL;
	r->fallback = strstr(text, "'<default>'") != NULL;
}

/* edk2-stableYYYYMM, a point release edk2-stableYYYYMM.NN; -rcN with rc */
static int is_release(const char *tag, int rc)
{
	const char *p = tag;
	if (strncmp(p, "edk2-stable", 11) != 0)
		return 0;
	p += 11;
	if (!mev__tag_digits(&p, 6, 6) || !mev__tag_point(&p, 2))
		return 0;
	return mev__tag_end_or_rc(p, rc);
}

/*
 * pattern_to_regex(), matched with re.match(): '.' -> "\.", '?' -> '.',
 * '*' -> ".*" (crossing '/'); a trailing '/' gets ".*", else a trailing
 * ".*" becomes "(?!.*?/.*?)" (no '/' after the prefix).  Anchored at the
 * start only: "F: Foo" also covers "FooBar/x".
 */
static int regex(mev_buf *out, char type, const char *v, size_t len)
{
	mev_buf b = MEV_BUF_INIT;
	int rc = 0, alt;
	(void)type;
	for (size_t i = 0; i < len && !rc; i++) {
		if (v[i] == '.')
			rc = mev__buf_puts(&b, "\\.");
		else if (v[i] == '?')
			rc = mev__buf_putc(&b, '.');
		else if (v[i] == '*')
			rc = mev__buf_puts(&b, ".*");
		else
			rc = mev__buf_putc(&b, v[i]);
	}
	if (!rc && b.len && b.ptr[b.len - 1] == '/')
		rc = mev__buf_puts(&b, ".*");
	else if (!rc && b.len >= 2 && memcmp(b.ptr + b.len - 2, ".*", 2) == 0) {
		b.len -= 2;
		rc = mev__buf_puts(&b, "(?!.*?/.*?)");
	}
	/* re.match anchors every alternative at the start */
	alt = b.len && memchr(b.ptr, '|', b.len) != NULL;
	if (!rc)
		rc = mev__buf_puts(out, alt ? "^(?:" : "^");
	if (!rc && b.len)
		rc = mev__buf_put(out, b.ptr, b.len);
	if (!rc && alt)
		rc = mev__buf_putc(out, ')');
	mev__buf_free(&b);
	return rc;
}

/* A line of white space only. */
static int blank(const unsigned char *b, const unsigned char *e)
{
	size_t n;
	while ((n = mev__dialect_py_space(b, e)))
		b += n;
	return b >= e;
}

/* A line of only '-' and '=' (white space around it aside). */
static int underline(const unsigned char *b, const unsigned char *e)
{
	size_t n, k = 0;
	while ((n = mev__dialect_py_space(b, e)))
		b += n;
	for (; b < e; b++, k++)
		if (*b != '-' && *b != '=')
			break;
	return k >= 2 && blank(b, e);
}

/*
 * parse_maintainers_line(): the value of a tag line ^[XFLMRSTW]:\s*(.*?)\r*$
 * (lines are split with universal newlines, so they hold no CR), or NULL
 * when the line is no tag line: another letter, or an empty value.  Old
 * scripts take an M: line only when it ends in an address: .*<.*?>
 */
static const unsigned char *tag_value(const unsigned char *b, const unsigned char *e, int m_addr)
{
	const unsigned char *v;
	size_t n;
	if (e - b < 2 || b[1] != ':' || !strchr("XFLMRSTW", b[0]) || !b[0])
		return NULL;
	for (v = b + 2; (n = mev__dialect_py_space(v, e)); v += n)
		;
	if (v >= e)
		return NULL;
	if (m_addr && b[0] == 'M' && (e[-1] != '>' || !memchr(v, '<', (size_t)(e - 1 - v))))
		return NULL;
	return v;
}

/*
 * parse_maintainers_file(): every run of tag lines is a section; any other
 * line (a blank one too) ends it.  The script names no section: maintevo
 * names each by the nearest line above it that is neither blank nor an
 * underline of '-' or '='.
 */
static int read(mev__dialect_sink *sk, const char *data, size_t len)
{
	const unsigned char *pos = (const unsigned char *)data, *end = pos + len;
	const unsigned char *name = NULL, *name_end = NULL;
	uint32_t lineno = 0, name_line = 0;
	int in_run = 0, rc = 0, m_addr = sk->rules->m_needs_addr, tabs = 0, bad_utf8 = 0;

	while (pos < end && !rc) {
		const unsigned char *b = pos, *e, *v;
		while (pos < end && *pos != '\n' && *pos != '\r')
			pos++;
		e = pos;
		if (pos < end && *pos == '\r' && pos + 1 < end && pos[1] == '\n')
			pos++;
		if (pos < end)
			pos++;
		lineno++;
		if (!bad_utf8 && !mev__utf8_valid((const char *)b, (size_t)(e - b))) {
			bad_utf8 = 1;
			rc = sk->diag(sk, lineno, "not valid UTF-8: GetMaintainer.py stops here "
				      "(UnicodeDecodeError); read as bytes");
		}
		if (!(v = tag_value(b, e, m_addr))) {
			in_run = 0;
			if (!rc && m_addr && e - b > 2 && b[0] == 'M' && b[1] == ':' && !blank(b + 2, e))
				rc = sk->diag(sk, lineno, "M: line that does not end in an address: this "
					      "GetMaintainer.py ends the section here");
			if (!blank(b, e) && !underline(b, e)) {
				name = b;
				name_end = e;
				name_line = lineno;
			}
			continue;
		}
		if (!in_run) {
			in_run = 1;
			rc = name ? sk->title(sk, name_line, (const char *)name, (size_t)(name_end - name))
				  : sk->title(sk, lineno, "", 0);
			if (rc)
				break;
		}
		if (memchr(v, '\t', (size_t)(e - v)) && !tabs++)
			rc = sk->diag(sk, lineno, "tab inside a value: GetMaintainer.py keeps it "
				      "(the first such line)");
		if (!rc)
			rc = sk->field(sk, lineno, (char)b[0], (const char *)v, (size_t)(e - v), NULL);
		/* a field is a name for a later section only when nothing else is */
		name = b;
		name_end = e;
		name_line = lineno;
	}
	return rc;
}

/* edk2-stable202408 starts line 202408, edk2-stable202408.01 is its point release */
static mev_tag_kind line(char *out, size_t size, const char *tag)
{
	return mev__tag_line_of(out, size, tag + 11, 1);
}

const mev__dialect_def mev__dialect_edk2 = {
	.info = {
		.name = "edk2",
		.display = "edk2",
		.tags = "edk2-stableYYYYMM (edk2-stableYYYYMM.NN with --line YYYYMM)",
		.rc_tags = "edk2-stableYYYYMM-rcN",
		.files = "Maintainers.txt",
		.detect = "MdePkg/ and BaseTools/",
	},
	.guess = guess,
	.defaults = defaults,
	.detect = detect,
	.is_release = is_release,
	.line = line,
	.script = "BaseTools/Scripts/GetMaintainer.py",
	.read = read,
	.regex = regex,
};
