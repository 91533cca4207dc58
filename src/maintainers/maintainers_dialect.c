/*
 * Maintainers files read by a dialect's own reader (a script that is not
 * get_maintainer.pl: src/dialect/<name>.c): its titles and fields become
 * the @typevalue entries the sections are cut from, its F:/X: values the
 * regexes of its script.
 */
#include "maintainers_internal.h"
#include "maintevo/error.h"
#include "dialect/dialect_shared.h"

#include <string.h>

typedef struct {
	mev_maint *m;
	mev__field_lines *out;
	uint32_t file;
	mev_buf conv;
} sink_ctx;

static int on_title(mev__dialect_sink *s, uint32_t line, const char *text, size_t len)
{
	sink_ctx *c = s->ctx;
	mev__field_line e = { 0 };
	e.text = mev__arena_strndup(&c->m->arena, text, len);
	e.text_len = len;
	e.file = c->file;
	e.line = line;
	if (!e.text || MEV_VEC_PUSH(c->out, e))
		return mev_error_oom();
	return 0;
}

static int on_field(mev__dialect_sink *s, uint32_t line, char type, const char *value, size_t len,
		    const char *regex)
{
	sink_ctx *c = s->ctx;
	mev_maint *m = c->m;
	mev_field f = { 0 };
	mev__field_line e = { 0 };
	int rc;
	f.type = type;
	f.file = c->file;
	f.line = line;
	if (!(f.value = mev__arena_strndup(&m->arena, value, len)))
		return mev_error_oom();
	if (len > 4096)
		mev__maint_diag_add(m, c->file, line, "%c: value of %zu bytes", type, len);
	if (type == 'F' || type == 'X' || (type == 'N' && !m->rules.no_n)) {
		if (memchr(value, '\0', len)) {
			f.regex = mev__maint_never_regex;
			mev__maint_diag_add(m, c->file, line, "%c: pattern with a NUL byte; it can match no path",
					    type);
		} else if (regex) {
			if (!(f.regex = mev__arena_strndup(&m->arena, regex, strlen(regex))))
				return mev_error_oom();
		} else {
			if ((rc = mev__dialect_regex(m->rules.dialect, &c->conv, type, value, len)))
				return rc;
			if (!(f.regex = mev__arena_strndup(&m->arena, c->conv.ptr ? c->conv.ptr : "", c->conv.len)))
				return mev_error_oom();
		}
	}
	e.is_field = 1;
	e.field = (uint32_t)m->fields.n;
	e.file = c->file;
	e.line = line;
	if (MEV_VEC_PUSH(&m->fields, f) || MEV_VEC_PUSH(c->out, e))
		return mev_error_oom();
	return 0;
}

static int on_diag(mev__dialect_sink *s, uint32_t line, const char *message)
{
	sink_ctx *c = s->ctx;
	return mev__maint_diag_add(c->m, c->file, line, "%s", message);
}

int mev__maint_read_dialect(mev__field_lines *out, mev_maint *m, uint32_t fi, const char *data, size_t len,
			    const mev_tree *tree)
{
	sink_ctx c = { .m = m, .out = out, .file = fi, .conv = MEV_BUF_INIT };
	mev__dialect_sink s = { .ctx = &c, .rules = &m->rules, .tree = tree, .title = on_title, .field = on_field,
				.diag = on_diag };
	int rc = mev__dialect_read(m->rules.dialect, &s, data, len);
	m->unreadable |= s.unreadable;
	mev__buf_free(&c.conv);
	return rc;
}
