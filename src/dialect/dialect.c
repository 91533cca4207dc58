/* The table of dialects: their names, detection, defaults and release tags. */
#include "dialect_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Indexed by mev_dialect; MEV_DIALECT_AUTO has none. */
static const mev__dialect_def *const defs[MEV_DIALECT_END] = {
#define MEV__DIALECT_ENTRY(ID, file) [MEV_DIALECT_##ID] = &mev__dialect_##file,
	MEV_DIALECTS(MEV__DIALECT_ENTRY)
#undef MEV__DIALECT_ENTRY
};

/* What --dialect auto and an unknown dialect fall back to: the first row. */
#define FALLBACK ((mev_dialect)1)

static const mev__dialect_def *def_of(mev_dialect d)
{
	return d > MEV_DIALECT_AUTO && d < MEV_DIALECT_END ? defs[d] : NULL;
}

const mev_dialect_info *mev_dialect_info_get(mev_dialect d)
{
	const mev__dialect_def *def = def_of(d);
	return def ? &def->info : NULL;
}

const char *mev_dialect_name(mev_dialect d)
{
	const mev__dialect_def *def = def_of(d);
	if (def)
		return def->info.name;
	return d == MEV_DIALECT_AUTO ? "auto" : "?";
}

int mev_dialect_parse(const char *name)
{
	if (strcmp(name, "auto") == 0)
		return MEV_DIALECT_AUTO;
	for (int d = 1; d < MEV_DIALECT_END; d++) {
		const mev_dialect_info *in = &defs[d]->info;
		if (strcmp(name, in->name) == 0)
			return d;
		for (const char *const *a = in->aliases; a && *a; a++)
			if (strcmp(name, *a) == 0)
				return d;
	}
	return -1;
}

const char *mev_dialect_display(mev_dialect d)
{
	const mev__dialect_def *def = def_of(d);
	return def ? def->info.display : NULL;
}

const char *mev_dialect_script(mev_dialect d)
{
	const mev__dialect_def *def = def_of(d);
	const char *s = (def ? def : defs[FALLBACK])->script;
	if (!s)
		return "scripts/get_maintainer.pl";
	return s[0] ? s : NULL;
}

mev_dialect mev_dialect_guess(const mev_tree *tree)
{
	for (int d = 1; d < MEV_DIALECT_END; d++)
		if (defs[d]->guess && defs[d]->guess(tree))
			return (mev_dialect)d;
	return FALLBACK;
}

void mev_rules_default(mev_rules *r, mev_dialect dialect)
{
	const mev__dialect_def *def = def_of(dialect);
	if (!def)
		def = defs[dialect = FALLBACK];
	memset(r, 0, sizeof *r);
	r->dialect = dialect;
	r->drop_comments = 1;
	r->discover = MEV_DISCOVER_PATH;
	def->defaults(r);
}

int mev_tag_is_release(mev_dialect d, const char *tag, int rc)
{
	const mev__dialect_def *def = def_of(d);
	return (def ? def : defs[FALLBACK])->is_release(tag, rc);
}

mev_tag_kind mev_tag_line(char *line, size_t size, mev_dialect d, const char *tag, int rc)
{
	const mev__dialect_def *def = mev__dialect_def_of(d);
	char own[64];
	mev_tag_kind k;
	if (!line || !size) {
		line = own;
		size = sizeof own;
	}
	line[0] = '\0';
	if (!def->is_release(tag, rc))
		return MEV_TAG_NONE;
	if ((k = def->line(line, size, tag)) == MEV_TAG_NONE)
		line[0] = '\0';
	return k;
}

mev_tag_kind mev__tag_line_of(char *line, size_t size, const char *p, int parts)
{
	const char *start = p, *end = p;
	int n = 0, point = 0;
	while (isdigit((unsigned char)*p)) {
		int nonzero = 0;
		for (; isdigit((unsigned char)*p); p++)
			nonzero |= *p != '0';
		if (++n <= parts)
			end = p;
		else
			point |= nonzero;
		if (*p != '.')
			break;
		p++;
	}
	snprintf(line, size, "%.*s", (int)(end - start), start);
	return point ? MEV_TAG_POINT : MEV_TAG_MAIN;
}

int mev__dialect_dir(const mev_tree *t, const char *path)
{
	return mev_tree_stat(t, path, strlen(path)) == MEV_KIND_DIR;
}

int mev__dialect_file(const mev_tree *t, const char *path)
{
	return mev_tree_stat(t, path, strlen(path)) == MEV_KIND_FILE;
}

int mev__tag_digits(const char **p, int min, int max)
{
	int n = 0;
	while (isdigit((unsigned char)**p)) {
		(*p)++;
		n++;
	}
	return n >= min && n <= max;
}

int mev__tag_point(const char **p, int max)
{
	if (**p != '.')
		return 1;
	(*p)++;
	return mev__tag_digits(p, 1, max);
}

int mev__tag_end_or_rc(const char *p, int rc)
{
	if (!*p)
		return 1;
	if (rc && strncmp(p, "-rc", 3) == 0) {
		p += 3;
		return mev__tag_digits(&p, 1, 3) && !*p;
	}
	return 0;
}

const mev__dialect_def *mev__dialect_def_of(mev_dialect d)
{
	const mev__dialect_def *def = def_of(d);
	return def ? def : defs[FALLBACK];
}

int mev__dialect_has_reader(mev_dialect d)
{
	return mev__dialect_def_of(d)->read != NULL;
}

int mev__dialect_read(mev_dialect d, mev__dialect_sink *sink, const char *data, size_t len)
{
	const mev__dialect_def *def = mev__dialect_def_of(d);
	return def->read ? def->read(sink, data, len) : 0;
}

int mev__dialect_regex(mev_dialect d, mev_buf *out, char type, const char *value, size_t len)
{
	const mev__dialect_def *def = mev__dialect_def_of(d);
	mev__buf_clear(out);
	if (!def->regex)
		return mev__buf_put(out, value, len);
	return def->regex(out, type, value, len);
}

/* Length of the character of Python's str.isspace() (\s of str patterns)
 * at p (0: none): OP-TEE's and edk2's scripts split lines with it. */
size_t mev__dialect_py_space(const unsigned char *p, const unsigned char *e)
{
	if (p >= e)
		return 0;
	if (*p == ' ' || (*p >= '\t' && *p <= '\r') || (*p >= 0x1c && *p <= 0x1f))
		return 1;
	if (p + 1 < e && p[0] == 0xc2 && (p[1] == 0x85 || p[1] == 0xa0))
		return 2;
	if (p + 2 < e && ((p[0] == 0xe1 && p[1] == 0x9a && p[2] == 0x80) ||
			  (p[0] == 0xe2 && p[1] == 0x80 &&
			   ((p[2] >= 0x80 && p[2] <= 0x8a) || p[2] == 0xa8 || p[2] == 0xa9 || p[2] == 0xaf)) ||
			  (p[0] == 0xe2 && p[1] == 0x81 && p[2] == 0x9f) ||
			  (p[0] == 0xe3 && p[1] == 0x80 && p[2] == 0x80)))
		return 3;
	return 0;
}
