/*
 * Zephyr: vX.Y.Z releases, MAINTAINERS.yml read with a YAML parser (libyaml,
 * as the script's PyYAML CLoader) and matched as scripts/get_maintainer.py
 * does (docs/matching.md).  libyaml's events come through zephyr_yaml.c,
 * which adds what PyYAML's loader does over them (aliases, tags, one
 * document); zephyr.c and zephyr_yaml.c are the only homes of libyaml.
 */
#include "dialect_internal.h"
#include "zephyr_yaml.h"
#include "util/buf.h"
#include "util/strmap.h"
#include "util/text.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

/* west.yml or zephyr-env.sh; or boards/ with subsys/ (U-Boot has board/) */
static int guess(const mev_tree *t)
{
	return mev__dialect_file(t, "zephyr-env.sh") || mev__dialect_file(t, "west.yml") ||
	       (mev__dialect_dir(t, "boards") && mev__dialect_dir(t, "subsys"));
}

static void defaults(mev_rules *r)
{
	r->discover = MEV_DISCOVER_PATH;
	strcpy(r->mpath, "MAINTAINERS.yml");
	r->drop_comments = 0;
	r->utf8 = 1;
	r->regex_patterns = 1;
}

/* vX.Y.Z (v2.6.0); -rcN with rc.  The zephyr-vX.Y.Z tags name the same
 * commits again: not releases of their own. */
static int is_release(const char *tag, int rc)
{
	const char *p = tag;
	if (*p++ != 'v' || !mev__tag_digits(&p, 1, 3) || *p++ != '.' || !mev__tag_digits(&p, 1, 3) ||
	    *p++ != '.' || !mev__tag_digits(&p, 1, 3))
		return 0;
	return mev__tag_end_or_rc(p, rc);
}

/*
 * _get_match_fn(): a glob becomes glob.replace(".", "\.").replace("*",
 * "[^/]*").replace("?", "[^/]"), with "$" unless it ends in '/', inside
 * "^(?:...)"; a regex is searched as it is.  One regex per line: their
 * '|' in the script's one regex is "any of them".
 */
static int glob_regex(mev_buf *out, const char *v, size_t len)
{
	mev_buf b = MEV_BUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < len && !rc; i++) {
		if (v[i] == '.')
			rc = mev__buf_puts(&b, "\\.");
		else if (v[i] == '*')
			rc = mev__buf_puts(&b, "[^/]*");
		else if (v[i] == '?')
			rc = mev__buf_puts(&b, "[^/]");
		else
			rc = mev__buf_putc(&b, v[i]);
	}
	if (!rc && !(len && v[len - 1] == '/'))
		rc = mev__buf_putc(&b, '$');
	if (!rc) {
		int alt = b.len && memchr(b.ptr, '|', b.len) != NULL;
		rc = mev__buf_puts(out, alt ? "^(?:" : "^");
		if (!rc && b.len)
			rc = mev__buf_put(out, b.ptr, b.len);
		if (!rc && alt)
			rc = mev__buf_putc(out, ')');
	}
	mev__buf_free(&b);
	return rc;
}

/* 'F' and 'X' hold globs (files, files-exclude); 'N' a regex (files-regex;
 * files-regex-exclude is an 'X' whose regex the reader gives). */
static int regex(mev_buf *out, char type, const char *v, size_t len)
{
	if (type == 'N')
		return mev__buf_put(out, v, len);
	return glob_regex(out, v, len);
}

/* --- reading the YAML ---------------------------------------------------------- */

/* The keys of an area the script knows, and the field each list becomes. */
static const struct {
	const char *key;
	char type;
	int list;
} keys[] = {
	{ "status", 'S', 0 },        { "maintainers", 'M', 1 }, { "collaborators", 'R', 1 },
	{ "inform", 'I', 1 },        { "files", 'F', 1 },       { "files-exclude", 'X', 1 },
	{ "files-regex", 'N', 1 },   { "files-regex-exclude", 'x', 1 },
	{ "labels", 'G', 1 },        { "description", 'D', 0 },
};
enum { NKEYS = sizeof keys / sizeof *keys };

/* One value read: a scalar, where it is. */
typedef struct {
	char *s;
	size_t len;
	uint32_t line, col;
} scalar;

typedef MEV_VEC(scalar) scalar_vec;

/* One area: its name and, per key, the last value given (PyYAML keeps the
 * last of repeated keys); `set` says which keys are there. */
typedef struct {
	scalar name;
	scalar_vec v[NKEYS];
	uint32_t line[NKEYS];
	uint16_t set;
} area;

typedef MEV_VEC(area) area_vec;

typedef struct {
	mev__yaml_src y;
	mev__dialect_sink *sk;
	area_vec areas;
	int whole;    /* the document's mapping was read to its end */
	int merging;  /* merges '<<' read inside one another */
} reader;

static void scalars_free(scalar_vec *v)
{
	for (size_t i = 0; i < v->n; i++)
		free(v->v[i].s);
	v->n = 0;
}

static void area_free(area *a)
{
	free(a->name.s);
	for (int k = 0; k < NKEYS; k++) {
		scalars_free(&a->v[k]);
		MEV_VEC_FREE(&a->v[k]);
	}
}

/* A message quoting a and b (values of the file), each shortened in the
 * middle when long: what the message says of them is never cut. */
static int diagf(reader *r, uint32_t line, const char *fmt, const char *a, const char *b)
{
	char msg[512], qa[160], qb[160];
	snprintf(msg, sizeof msg, fmt, mev__text_middle(qa, sizeof qa, a, strlen(a)),
		 b ? mev__text_middle(qb, sizeof qb, b, strlen(b)) : "");
	return r->sk->diag(r->sk, line, msg);
}

/* The next event into r->y.ev: 0, or 1 when the file cannot be read
 * further (reported with its line; zephyr_yaml.h). */
static int next(reader *r)
{
	return mev__yaml_next(&r->y);
}

/* r->y.ev, when an alias, replaced by the first event of its node. */
static int deref(reader *r)
{
	return mev__yaml_deref(&r->y);
}

/* Skip the node whose first event is r->ev (a scalar, an alias or a whole
 * collection).  0, or 1 on a YAML error. */
static int skip_node(reader *r)
{
	int depth = 0;
	do {
		if (r->y.ev.type == YAML_SEQUENCE_START_EVENT || r->y.ev.type == YAML_MAPPING_START_EVENT)
			depth++;
		else if (r->y.ev.type == YAML_SEQUENCE_END_EVENT || r->y.ev.type == YAML_MAPPING_END_EVENT)
			depth--;
		if (depth == 0)
			return 0;
	} while (!next(r));
	return 1;
}

static int take_scalar(scalar *s, const yaml_event_t *ev)
{
	s->len = ev->data.scalar.length;
	s->line = (uint32_t)ev->start_mark.line + 1;
	s->col = (uint32_t)ev->start_mark.column + 1;
	if (!(s->s = malloc(s->len + 1)))
		return MEV_ENOMEM;
	memcpy(s->s, ev->data.scalar.value, s->len);
	s->s[s->len] = '\0';
	return 0;
}

/* A scalar PyYAML would not give as a string: null, a bool, a number
 * (plain, or so tagged). */
static int not_a_string(const reader *r)
{
	const yaml_event_t *ev = &r->y.ev;
	static const char *const words[] = { "", "~", "null", "Null", "NULL", "true", "True", "TRUE",
					     "false", "False", "FALSE", "yes", "Yes", "YES", "no", "No",
					     "NO", "on", "On", "ON", "off", "Off", "OFF" };
	const char *v = (const char *)ev->data.scalar.value;
	size_t i = 0;
	if (r->y.string)
		return r->y.string < 0;
	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return 0;
	for (size_t k = 0; k < sizeof words / sizeof *words; k++)
		if (strcmp(v, words[k]) == 0)
			return 1;
	if (v[i] == '-' || v[i] == '+')
		i++;
	if (!v[i])
		return 0;
	while (v[i] >= '0' && v[i] <= '9')
		i++;
	return v[i] == '\0' || (v[i] == '.' && strspn(v + i + 1, "0123456789") == strlen(v + i + 1));
}

/* The key "<<" as PyYAML's resolver takes it: plain, or tagged !!merge. */
static int is_merge_key(const reader *r)
{
	const yaml_event_t *ev = &r->y.ev;
	return strcmp((const char *)ev->data.scalar.value, "<<") == 0 &&
	       (r->y.merge || (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && !r->y.string));
}

/* The value of key k of area a, r->ev its first event. */
static int read_value(reader *r, area *a, int k, const char *aname)
{
	scalar s;
	int rc;
	scalars_free(&a->v[k]);
	a->set |= (uint16_t)(1u << k);
	a->line[k] = (uint32_t)r->y.ev.start_mark.line + 1;
	if (r->y.ev.type == YAML_SCALAR_EVENT && !keys[k].list) {
		if ((rc = take_scalar(&s, &r->y.ev)) || (rc = MEV_VEC_PUSH(&a->v[k], s) ? MEV_ENOMEM : 0))
			return rc;
		return 0;
	}
	if (r->y.ev.type == YAML_SCALAR_EVENT && not_a_string(r) && !r->y.ev.data.scalar.length) {
		a->set &= (uint16_t)~(1u << k); /* "files:" alone: None, no list */
		return 0;
	}
	if (r->y.ev.type != YAML_SEQUENCE_START_EVENT) {
		diagf(r, a->line[k], "malformed '%s' value for area '%s' -- should be a list of strings",
		      keys[k].key, aname);
		return skip_node(r) ? 1 : 0;
	}
	while (!next(r) && r->y.ev.type != YAML_SEQUENCE_END_EVENT) {
		if (deref(r))
			return 1;
		if (r->y.ev.type != YAML_SCALAR_EVENT) {
			diagf(r, (uint32_t)r->y.ev.start_mark.line + 1,
			      "malformed '%s' value for area '%s' -- should be a list of strings", keys[k].key,
			      aname);
			if (skip_node(r))
				return 1;
			continue;
		}
		if (not_a_string(r))
			diagf(r, (uint32_t)r->y.ev.start_mark.line + 1,
			      "'%s' in area '%s' is not a string for PyYAML: get_maintainer.py fails on it",
			      (const char *)r->y.ev.data.scalar.value, aname);
		if ((rc = take_scalar(&s, &r->y.ev)) || (rc = MEV_VEC_PUSH(&a->v[k], s) ? MEV_ENOMEM : 0))
			return rc;
	}
	return r->y.failed;
}

static int read_area(reader *r, area *a);

/* The keys of `from`, a mapping merged into a, that a has not taken yet
 * (its own keys, wherever they stand, and those of an earlier merge win:
 * PyYAML's flatten_mapping()). */
static void merge_keys(area *a, area *from, uint16_t *taken)
{
	for (int k = 0; k < NKEYS; k++) {
		uint16_t bit = (uint16_t)(1u << k);
		scalar_vec none = { 0 };
		if (!(from->set & bit) || (*taken & bit))
			continue;
		scalars_free(&a->v[k]);
		MEV_VEC_FREE(&a->v[k]);
		a->v[k] = from->v[k];
		from->v[k] = none;
		a->line[k] = from->line[k];
		a->set |= bit;
		*taken |= bit;
	}
}

/* The value of a merge key "<<" of area a, r->y.ev its first event: a
 * mapping (an alias of one, usually) or a list of them. */
static int read_merge(reader *r, area *a, uint16_t *taken)
{
	int seq = r->y.ev.type == YAML_SEQUENCE_START_EVENT, rc = 0;
	if (seq && (next(r) || deref(r)))
		return 1;
	while (r->y.ev.type == YAML_MAPPING_START_EVENT && r->merging < 8) {
		area from = { .name = a->name };
		r->merging++;
		rc = read_area(r, &from);
		r->merging--;
		if (!rc)
			merge_keys(a, &from, taken);
		from.name.s = NULL;
		area_free(&from);
		if (rc || !seq || next(r) || deref(r))
			return rc ? rc : r->y.failed;
	}
	if (seq && r->y.ev.type == YAML_SEQUENCE_END_EVENT)
		return 0;
	/* the loader fails on it (expected a mapping for merging); maintevo
	 * also stops at merges nested more than 8 deep */
	diagf(r, (uint32_t)r->y.ev.start_mark.line + 1, "a merge '<<' in area '%s' not of "
	      "mappings (or over 8 merges deep): get_maintainer.py's YAML loader fails on it; no "
	      "area of this file is read%s", a->name.s, NULL);
	r->y.failed = 1;
	return 1;
}

/* The mapping of one area, r->ev its MAPPING-START. */
static int read_area(reader *r, area *a)
{
	int rc;
	uint16_t taken = 0;
	while (!next(r) && r->y.ev.type != YAML_MAPPING_END_EVENT) {
		int k;
		if (deref(r))
			return 1;
		if (r->y.ev.type != YAML_SCALAR_EVENT) {
			diagf(r, (uint32_t)r->y.ev.start_mark.line + 1, "a key of area '%s' is not a string%s",
			      a->name.s, NULL);
			if (skip_node(r) || next(r) || skip_node(r))
				return 1;
			continue;
		}
		if (is_merge_key(r)) {
			if (next(r) || deref(r))
				return 1;
			if ((rc = read_merge(r, a, &taken)))
				return rc;
			continue;
		}
		for (k = 0; k < NKEYS; k++)
			if (strcmp((const char *)r->y.ev.data.scalar.value, keys[k].key) == 0)
				break;
		if (k == NKEYS)
			diagf(r, (uint32_t)r->y.ev.start_mark.line + 1, "unknown key '%s' in area '%s'",
			      (const char *)r->y.ev.data.scalar.value, a->name.s);
		if (next(r) || deref(r))
			return 1;
		if (k == NKEYS) {
			if (skip_node(r))
				return 1;
			continue;
		}
		if ((rc = read_value(r, a, k, a->name.s)))
			return rc;
		taken |= (uint16_t)(1u << k);
	}
	return r->y.failed;
}

/* The document: a mapping of area names to areas. */
static int read_doc(reader *r)
{
	int rc;
	while (!next(r) && r->y.ev.type != YAML_MAPPING_START_EVENT) {
		if (r->y.ev.type == YAML_STREAM_END_EVENT || r->y.ev.type == YAML_SCALAR_EVENT ||
		    r->y.ev.type == YAML_SEQUENCE_START_EVENT) {
			r->sk->diag(r->sk, 0, "empty or malformed YAML (not a dict): no area");
			return 0;
		}
	}
	while (!r->y.failed && !next(r) && r->y.ev.type != YAML_MAPPING_END_EVENT) {
		area a = { 0 };
		if (deref(r))
			return 0;
		if (r->y.ev.type != YAML_SCALAR_EVENT) {
			diagf(r, (uint32_t)r->y.ev.start_mark.line + 1, "an area name is not a string%s", "", NULL);
			if (skip_node(r) || next(r) || skip_node(r))
				return 0;
			continue;
		}
		if ((rc = take_scalar(&a.name, &r->y.ev)))
			return rc;
		if (next(r) || deref(r)) {
			area_free(&a);
			return 0;
		}
		if (r->y.ev.type != YAML_MAPPING_START_EVENT) {
			diagf(r, a.name.line, "malformed entry for area '%s' (not a dict)", a.name.s, NULL);
			rc = skip_node(r);
			area_free(&a);
			if (rc)
				return 0;
			continue;
		}
		if ((rc = read_area(r, &a)) < 0 || MEV_VEC_PUSH(&r->areas, a)) {
			area_free(&a);
			return rc < 0 ? rc : MEV_ENOMEM;
		}
	}
	r->whole = !r->y.failed;
	return 0;
}

/* --- the script's self-check, and the areas handed on ---------------------------- */

/* Every directory of the tree (links to one too), "a/b" without '/'. */
static int tree_dirs(mev_strmap *dirs, const mev_tree *t)
{
	const mev_tree_file *f = mev_tree_files(t);
	for (size_t i = 0, n = mev_tree_count(t); i < n; i++) {
		for (uint32_t k = 0; k < f[i].path_len; k++)
			if (f[i].path[k] == '/' && mev__strmap_put(dirs, f[i].path, k, 1))
				return MEV_ENOMEM;
		if (f[i].link_dir && mev__strmap_put(dirs, f[i].path, f[i].path_len, 1))
			return MEV_ENOMEM;
	}
	return 0;
}

/*
 * _check_maintainers(): a 'files' or 'files-exclude' glob that matches a
 * directory but lacks the trailing '/' (the script stops; v2.5.0 and v2.6.0
 * have such lines), or that matches nothing.  Path.glob() is fnmatch()
 * per component: '*' does not cross '/'.
 */
static int self_check(reader *r, const area *a, int k, const scalar *s, const mev_strmap *dirs)
{
	const mev_tree *t = r->sk->tree;
	int dir = 0, any = 0;
	size_t len = s->len;
	char *pat;
	if (!t || !len || memchr(s->s, '\0', len))
		return 0;
	if (!(pat = strdup(s->s)))
		return MEV_ENOMEM;
	if (len > 1 && pat[len - 1] == '/')
		pat[--len] = '\0';
	if (!strpbrk(pat, "*?[")) {
		int kind = mev_tree_stat(t, pat, len);
		dir = kind == MEV_KIND_DIR;
		any = kind != 0;
	} else {
		const mev_tree_file *f = mev_tree_files(t);
		for (size_t i = 0; i < dirs->cap && !dir; i++)
			if (dirs->slots[i].key && fnmatch(pat, dirs->slots[i].key, FNM_PATHNAME) == 0)
				dir = any = 1;
		for (size_t i = 0, n = mev_tree_count(t); i < n && !any; i++)
			any = fnmatch(pat, f[i].path, FNM_PATHNAME) == 0;
	}
	free(pat);
	if (!any)
		return diagf(r, s->line, "glob pattern '%s' in '%s' does not match any files",
			     s->s, keys[k].key);
	if (dir && s->s[s->len - 1] != '/')
		return diagf(r, s->line, keys[k].type == 'F'
			     ? "glob pattern '%s' in 'files' in area '%s' matches a directory, but has "
			       "no trailing '/' (get_maintainer.py's check stops here; the line is "
			       "matched as written)"
			     : "glob pattern '%s' in 'files-exclude' in area '%s' matches a directory, "
			       "but has no trailing '/' (get_maintainer.py's check stops here; the line "
			       "is matched as written)", s->s, a->name.s);
	return 0;
}

/* Hand the areas to the sink: a repeated name keeps its last area only. */
static int emit(reader *r)
{
	mev_strmap last = MEV_STRMAP_INIT, dirs = MEV_STRMAP_INIT;
	int rc = 0;
	for (size_t i = 0; i < r->areas.n && !rc; i++)
		rc = mev__strmap_put(&last, r->areas.v[i].name.s, r->areas.v[i].name.len, (uint32_t)i);
	if (!rc && r->sk->tree)
		rc = tree_dirs(&dirs, r->sk->tree);
	for (size_t i = 0; i < r->areas.n && !rc; i++) {
		const area *a = &r->areas.v[i];
		if ((size_t)mev__strmap_get(&last, a->name.s, a->name.len) != i) {
			rc = diagf(r, a->name.line, "area '%s' defined again later: get_maintainer.py keeps "
				   "the later one", a->name.s, NULL);
			continue;
		}
		if (!(a->set & (1u << 4 | 1u << 6)))
			rc = diagf(r, a->name.line, "either 'files' or 'files-regex' (or both) must be "
				   "specified for area '%s'", a->name.s, NULL);
		if (!rc)
			rc = r->sk->title(r->sk, a->name.line, a->name.s, a->name.len);
		for (int k = 0; k < NKEYS && !rc; k++)
			for (size_t j = 0; j < a->v[k].n && !rc; j++) {
				const scalar *s = &a->v[k].v[j];
				char type = keys[k].type == 'x' ? 'X' : keys[k].type;
				if (keys[k].type == 'F' || keys[k].type == 'X')
					rc = self_check(r, a, k, s, &dirs);
				if (!rc)
					rc = r->sk->field(r->sk, s->line, type, s->s, s->len,
							  keys[k].type == 'x' ? s->s : NULL);
			}
	}
	mev__strmap_free(&last);
	mev__strmap_free(&dirs);
	return rc;
}

static int read(mev__dialect_sink *sk, const char *data, size_t len)
{
	reader r = { .sk = sk };
	int rc;
	if ((rc = mev__yaml_open(&r.y, sk, data, len)))
		return rc;
	rc = read_doc(&r);
	/* yaml.load() takes one document: a second one fails the script */
	if (!rc && r.whole)
		mev__yaml_single(&r.y);
	if (r.y.oom)
		rc = MEV_ENOMEM;
	mev__yaml_close(&r.y);
	/* the script cannot load the file: it reads nothing of it, nor does maintevo */
	if (!rc && !r.y.failed)
		rc = emit(&r);
	sk->unreadable |= r.y.failed;
	for (size_t i = 0; i < r.areas.n; i++)
		area_free(&r.areas.v[i]);
	MEV_VEC_FREE(&r.areas);
	return rc;
}

/* v2.2.0 starts line 2.2, v2.2.1 is one of its maintenance releases; a
 * vX.Y.99 tag marks where development after vX.Y.0 began, no release of
 * any line (v1.6.99 is dated before v1.6.1 and v1.7.0) */
static mev_tag_kind line(char *out, size_t size, const char *tag)
{
	size_t n = strcspn(tag, "-");
	if (n >= 3 && memcmp(tag + n - 3, ".99", 3) == 0)
		return MEV_TAG_NONE;
	return mev__tag_line_of(out, size, tag + 1, 2);
}

const mev__dialect_def mev__dialect_zephyr = {
	.info = {
		.name = "zephyr",
		.display = "Zephyr",
		.tags = "vX.Y.0 (vX.Y.Z with --line X.Y; no vX.Y.99)",
		.rc_tags = "vX.Y.Z-rcN",
		.files = "MAINTAINERS.yml",
		.detect = "zephyr-env.sh or west.yml, or boards/ and subsys/",
	},
	.guess = guess,
	.defaults = defaults,
	.is_release = is_release,
	.line = line,
	.script = "scripts/get_maintainer.py",
	.read = read,
	.regex = regex,
};
