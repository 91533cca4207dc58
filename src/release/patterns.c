/*
 * The patterns of a release (record P of docs/store-format.md, table
 * "patterns"): every section's F:, X: and N: lines with the MAINTAINERS
 * file and line they are on, so that the tracker can say which lines were
 * added or removed between two releases (docs/tracking.md, "Causes").
 */
#include "release_internal.h"
#include "maintevo/error.h"
#include "maintevo/match.h"

#include <stdlib.h>
#include <string.h>

/* 1: values only; 2: the script's regex of each line and the utf8 rule too */
enum { PATTERNS_VERSION = 2 };

/* How a line's regex is stored (version 2). */
enum { REGEX_NONE = 0, REGEX_VALUE = 1, REGEX_GIVEN = 2 };

static int is_pattern(char type)
{
	return type == 'F' || type == 'X' || type == 'N';
}

typedef struct {
	const char *title;
	uint32_t i;
} titled;

static int titled_cmp(const void *x, const void *y)
{
	return strcmp(((const titled *)x)->title, ((const titled *)y)->title);
}

/* The sections of m that have pattern lines, in bytewise title order. */
static int sorted_sections(titled **out, size_t *n, const mev_maint *m)
{
	const mev_section *sec = mev_maint_sections(m);
	const mev_field *f = mev_maint_fields(m);
	size_t ns = mev_maint_section_count(m);
	*n = 0;
	if (!(*out = malloc((ns + 1) * sizeof **out)))
		return mev_error_oom();
	for (size_t i = 0; i < ns; i++) {
		int any = 0;
		for (uint32_t k = 0; k < sec[i].field_count && !any; k++)
			any = is_pattern(f[sec[i].field_begin + k].type);
		if (any) {
			(*out)[*n].title = sec[i].title;
			(*out)[(*n)++].i = (uint32_t)i;
		}
	}
	qsort(*out, *n, sizeof **out, titled_cmp);
	return 0;
}

/* Record P: uv version, uv files, str path per file, uv flags (1: utf8,
 * 2: whole regexes searched, mev_rules.regex_patterns),
 * uv sections, per section str title, str display ("" when the title), uv
 * n, per line uv type, str value, uv file, uv line, uv regex kind (0 none:
 * the script ignores the line; 1 the value; 2 given) and, for 2, str regex. */
static int encode(mev_buf *b, const mev_maint *m)
{
	const mev_section *sec = mev_maint_sections(m);
	const mev_field *f = mev_maint_fields(m);
	titled *order = NULL;
	size_t n = 0;
	int rc = sorted_sections(&order, &n, m);
	if (rc)
		return rc;
	rc |= mev__put_uv(b, PATTERNS_VERSION);
	rc |= mev__put_uv(b, mev_maint_file_count(m));
	for (uint32_t i = 0; i < mev_maint_file_count(m); i++)
		rc |= mev__put_cstr(b, mev_maint_file(m, i));
	rc |= mev__put_uv(b, (mev_maint_rules(m)->utf8 ? 1 : 0) | (mev_maint_rules(m)->regex_patterns ? 2 : 0));
	rc |= mev__put_uv(b, n);
	for (size_t i = 0; i < n && !rc; i++) {
		const mev_section *s = &sec[order[i].i];
		size_t k = 0;
		for (uint32_t j = 0; j < s->field_count; j++)
			k += is_pattern(f[s->field_begin + j].type);
		rc |= mev__put_cstr(b, s->title);
		rc |= mev__put_cstr(b, s->display && strcmp(s->display, s->title) ? s->display : "");
		rc |= mev__put_uv(b, k);
		for (uint32_t j = 0; j < s->field_count; j++) {
			const mev_field *x = &f[s->field_begin + j];
			if (!is_pattern(x->type))
				continue;
			rc |= mev__put_uv(b, (uint8_t)x->type);
			rc |= mev__put_cstr(b, x->value);
			rc |= mev__put_uv(b, x->file);
			rc |= mev__put_uv(b, x->line);
			if (!x->regex) {
				rc |= mev__put_uv(b, REGEX_NONE);
			} else if (strcmp(x->regex, x->value) == 0) {
				rc |= mev__put_uv(b, REGEX_VALUE);
			} else {
				rc |= mev__put_uv(b, REGEX_GIVEN);
				rc |= mev__put_cstr(b, x->regex);
			}
		}
	}
	free(order);
	return rc ? mev_error_oom() : 0;
}

int mev__patterns_put(uint64_t *stored, uint64_t *raw, mev_store *s, const char *tag, const mev_maint *m)
{
	mev_buf b = MEV_BUF_INIT;
	size_t packed = 0;
	int rc = encode(&b, m);
	if (!rc)
		rc = mev_store_put_record(&packed, s, "patterns", 'P', MEV__RELEASE_LEVEL, tag, strlen(tag),
					  b.ptr, b.len);
	if (!rc) {
		*stored += packed;
		*raw += b.len;
	}
	mev__buf_free(&b);
	return rc;
}

/* --- reading ------------------------------------------------------------------ */

static const char *arena_str(mev_arena *a, mev__record_reader *r, int *oom)
{
	size_t l;
	const char *p = mev__get_str(r, &l);
	char *c = r->bad ? NULL : mev__arena_strndup(a, p, l);
	if (!c && !r->bad)
		*oom = 1;
	return c ? c : "";
}

/* The sections of a record (its file paths already read into files). */
static int decode_sections(mev_release_patterns *out, mev_arena *a, mev__record_reader *r, const char **files,
			   uint64_t nfiles, size_t len, uint64_t version)
{
	uint64_t ns = mev__get_uv(r);
	int oom = 0;
	if (r->bad || ns > len)
		return r->bad = 1, 0;
	if (!(out->v = calloc(ns + 1, sizeof *out->v)))
		return mev_error_oom();
	for (uint64_t i = 0; i < ns && !r->bad && !oom; i++) {
		mev_section_patterns *sp = &out->v[out->n++];
		uint64_t n;
		mev_pattern_line *v;
		sp->title = arena_str(a, r, &oom);
		sp->display = arena_str(a, r, &oom);
		if (!sp->display[0])
			sp->display = sp->title;
		n = mev__get_uv(r);
		if (r->bad || n > len)
			return r->bad = 1, 0;
		if (!(v = mev__arena_alloc(a, (n + 1) * sizeof *v, sizeof(void *))))
			return mev_error_oom();
		for (uint64_t k = 0; k < n && !r->bad; k++) {
			uint64_t type = mev__get_uv(r), file;
			v[k].value = arena_str(a, r, &oom);
			file = mev__get_uv(r);
			v[k].line = (uint32_t)mev__get_uv(r);
			v[k].regex = NULL;
			if (version >= 2) {
				uint64_t kind = mev__get_uv(r);
				if (kind == REGEX_VALUE)
					v[k].regex = v[k].value;
				else if (kind == REGEX_GIVEN)
					v[k].regex = arena_str(a, r, &oom);
				else if (kind != REGEX_NONE)
					r->bad = 1;
			}
			if (!is_pattern((char)type) || type > 127 || file >= nfiles)
				r->bad = 1;
			else {
				v[k].type = (char)type;
				v[k].file = files[file];
			}
		}
		sp->v = v;
		sp->n = (size_t)n;
		if (i && strcmp(out->v[i - 1].title, sp->title) >= 0)
			r->bad = 1;   /* not in title order: the lookups would miss */
	}
	return oom ? mev_error_oom() : 0;
}

static int decode(mev_release_patterns *out, const void *data, size_t len, const char *tag)
{
	mev_arena *a = calloc(1, sizeof *a);
	const char **files = NULL;
	uint64_t nfiles;
	uint64_t version;
	mev__record_reader r;
	int oom = 0, rc = 0;
	if (!a)
		return mev_error_oom();
	out->mem_ = a;
	mev__record_reader_init(&r, data, len);
	version = mev__get_uv(&r);
	if (version < 1 || version > PATTERNS_VERSION)
		return mev_error_set(MEV_ECORRUPT, "patterns of '%s' are of an unknown version", tag);
	out->has_regex = version >= 2;
	nfiles = mev__get_uv(&r);
	if (r.bad || nfiles > len)
		return mev_error_set(MEV_ECORRUPT, "patterns of '%s' are damaged", tag);
	if (!(files = calloc(nfiles + 1, sizeof *files)))
		return mev_error_oom();
	for (uint64_t i = 0; i < nfiles && !r.bad; i++)
		files[i] = arena_str(a, &r, &oom);
	if (version >= 2) {
		uint64_t flags = mev__get_uv(&r);
		/* 2: a dialect's own script (OP-TEE, edk2, Zephyr): whole regexes */
		out->utf8 = (flags & 1) | (flags & 2 ? MEV_MATCH_RAW : 0);
		if (flags > 3)
			r.bad = 1;
	}
	if (oom)
		rc = mev_error_oom();
	else if (!r.bad)
		rc = decode_sections(out, a, &r, files, nfiles, len, version);
	free(files);
	if (!rc && (r.bad || r.p != r.end))
		rc = mev_error_set(MEV_ECORRUPT, "patterns of '%s' are damaged", tag);
	return rc;
}

int mev_release_load_patterns(mev_release_patterns *out, mev_store *s, const char *tag)
{
	void *val = NULL;
	size_t len = 0;
	char real[MEV_RELEASE_TAG_MAX + 1];
	const char *key = mev__release_resolve(real, sizeof real, s, tag);
	int rc = mev_store_get_record(&val, &len, s, "patterns", 'P', key, strlen(key));
	memset(out, 0, sizeof *out);
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		return MEV_ENOTFOUND;
	}
	if (rc)
		mev_error_prefix("patterns of '%s'", tag);
	else
		rc = decode(out, val, len, tag);
	free(val);
	if (rc)
		mev_release_patterns_free(out);
	return mev__release_damaged(s, rc, tag);
}

void mev_release_patterns_free(mev_release_patterns *p)
{
	if (!p)
		return;
	if (p->mem_) {
		mev__arena_free(p->mem_);
		free(p->mem_);
	}
	free(p->v);
	memset(p, 0, sizeof *p);
}

int mev_release_has_patterns(mev_store *s, const char *tag)
{
	void *raw = NULL;
	size_t len = 0;
	char real[MEV_RELEASE_TAG_MAX + 1];
	const char *key = mev__release_resolve(real, sizeof real, s, tag);
	int found = mev_store_get_record(&raw, &len, s, "patterns", MEV_STORE_RAW, key, strlen(key)) == 0;
	if (!found)
		mev_error_clear();
	free(raw);
	return found;
}

const mev_section_patterns *mev_release_patterns_find(const mev_release_patterns *p, const char *title)
{
	size_t lo = 0, hi = p ? p->n : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(p->v[mid].title, title);
		if (!c)
			return &p->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
