/*
 * Organisations for the workload table's cross_org_review and
 * elephant_factor: an address's domain, unless an --orgs file in gitdm's
 * email-map/domain-map format says otherwise (docs/schemas.md,
 * "Organisations").  Each line `KEY ORGANISATION [< YYYY-MM-DD]`: KEY an
 * address (with '@') or a domain; the date ends the mapping, so that one
 * KEY can move from one organisation to another over time.
 */
#include "export_internal.h"
#include "maintevo/calendar.h"
#include "maintevo/error.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line of the file. */
typedef struct {
	const char *key;  /* lowercased address or domain */
	const char *org;
	int64_t end;      /* the mapping holds before this time (INT64_MAX: no end) */
	size_t line;      /* keeps lines of one key and end in the file's order */
} org_entry;

struct mev_export_orgs {
	org_entry *v;     /* sorted by key, end, line */
	size_t n;
	mev_arena mem;
};

#define ORGS_HINT "each line is 'ADDRESS-OR-DOMAIN ORGANISATION' or '... ORGANISATION < YYYY-MM-DD' " \
		  "(gitdm's email-map format; '#' starts a comment)"

static int bad_line(const char *path, size_t line, const char *what)
{
	mev_error_set(MEV_EINVAL, "%s:%zu: %s", path, line, what);
	mev_error_hint(ORGS_HINT);
	return MEV_EINVAL;
}

static char *trim(char *s)
{
	size_t n;
	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* One line (comment cut, not blank) into *e. */
static int parse_line(org_entry *e, mev_arena *a, char *s, const char *path, size_t line)
{
	char *org, *lt;
	size_t klen = strcspn(s, " \t");
	if (!s[klen])
		return bad_line(path, line, "an address or domain without an organisation");
	s[klen] = '\0';
	org = s + klen + 1;
	e->end = INT64_MAX;
	if ((lt = strchr(org, '<'))) {
		*lt = '\0';
		if (!mev_day_scan(&e->end, trim(lt + 1)))
			return bad_line(path, line, "the date after '<' is not a day YYYY-MM-DD");
	}
	org = trim(org);
	if (!*org)
		return bad_line(path, line, "an address or domain without an organisation");
	if (strchr(s, '@') == s || s[strlen(s) - 1] == '@')
		return bad_line(path, line, "an address needs a name and a domain around its '@'");
	for (char *p = s; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	e->key = mev__arena_strndup(a, s, strlen(s));
	e->org = mev__arena_strndup(a, org, strlen(org));
	e->line = line;
	return e->key && e->org ? 0 : mev_error_oom();
}

static int entry_cmp(const void *pa, const void *pb)
{
	const org_entry *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);
	if (c)
		return c;
	if (a->end != b->end)
		return a->end < b->end ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

/* Two lines that give one key for the same time (both without an end, or
 * with the same one) leave its organisation to the order of the lines:
 * a slip in the file, refused at the later line (v sorted by entry_cmp). */
static int no_twice(const mev_export_orgs *o, const char *path)
{
	for (size_t i = 1; i < o->n; i++) {
		const org_entry *a = &o->v[i - 1], *b = &o->v[i];
		if (a->end == b->end && strcmp(a->key, b->key) == 0) {
			char what[160];
			snprintf(what, sizeof what, "'%.100s' is mapped twice for the same time (line %zu "
				 "maps it first)", b->key, a->line);
			return bad_line(path, b->line, what);
		}
	}
	return 0;
}

static int read_lines(mev_export_orgs *o, FILE *f, const char *path)
{
	MEV_VEC(org_entry) v = { 0 };
	char *buf = NULL;
	size_t cap = 0, line = 0;
	int rc = 0;
	while (!rc && getline(&buf, &cap, f) >= 0) {
		org_entry e;
		char *s;
		line++;
		buf[strcspn(buf, "#\r\n")] = '\0';
		if (!*(s = trim(buf)))
			continue;
		if (!(rc = parse_line(&e, &o->mem, s, path, line)) && MEV_VEC_PUSH(&v, e))
			rc = mev_error_oom();
	}
	if (!rc && ferror(f)) { /* a directory opens, then reads nothing but EISDIR */
		rc = mev_error_set(MEV_EIO, "cannot read the --orgs file '%s': %s", path, strerror(errno));
		mev_error_hint(ORGS_HINT);
	}
	free(buf);
	mev__sort(v.v, v.n, sizeof *v.v, entry_cmp);
	o->v = v.v;
	o->n = v.n;
	return rc ? rc : no_twice(o, path);
}

int mev_export_orgs_read(mev_export_orgs **out, const char *path)
{
	mev_export_orgs *o = calloc(1, sizeof *o);
	FILE *f;
	int rc;
	*out = NULL;
	if (!o)
		return mev_error_oom();
	if (!(f = fopen(path, "r"))) {
		rc = mev_error_set(errno == ENOENT ? MEV_ENOTFOUND : MEV_EIO, "cannot read the --orgs file "
				   "'%s': %s", path, strerror(errno));
		mev_error_hint(ORGS_HINT);
		free(o);
		return rc;
	}
	rc = read_lines(o, f, path);
	fclose(f);
	if (rc)
		mev_export_orgs_free(o);
	else
		*out = o;
	return rc;
}

void mev_export_orgs_free(mev_export_orgs *o)
{
	if (!o)
		return;
	free(o->v);
	mev__arena_free(&o->mem);
	free(o);
}

/* The organisation of key at time `when`: its first range not ended yet. */
static const char *lookup(const mev_export_orgs *o, const char *key, int64_t when)
{
	size_t lo = 0, hi = o->n;
	while (lo < hi) { /* the first entry of key */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(o->v[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < o->n && strcmp(o->v[lo].key, key) == 0; lo++)
		if (when < o->v[lo].end)
			return o->v[lo].org;
	return NULL;
}

const char *mev__export_org(const mev_export_orgs *o, const char *key, int64_t when)
{
	const char *at = strrchr(key, '@'), *org;
	if (!at)
		return key; /* no address: the person is an organisation of their own */
	if (o && (org = lookup(o, key, when)))
		return org;
	/* the domain, then its parents down to two labels: the most specific first */
	for (const char *d = at + 1; o && strchr(d, '.'); d = strchr(d, '.') + 1)
		if ((org = lookup(o, d, when)))
			return org;
	return at + 1;
}
