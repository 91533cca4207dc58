/* Diagnostics about MAINTAINERS content: recording, listing and formatting them. */
#include "maintainers_internal.h"
#include "maintevo/error.h"

#include <stdarg.h>
#include <stdio.h>

int mev__maint_diag_add(mev_maint *m, uint32_t file, uint32_t line, const char *fmt, ...)
{
	mev_buf b = MEV_BUF_INIT;
	mev_diag d = { file, line, NULL };
	va_list ap;
	int rc;
	va_start(ap, fmt);
	rc = mev__buf_vprintf(&b, fmt, ap);
	va_end(ap);
	if (rc)
		return rc;
	d.message = mev__arena_strndup(&m->arena, b.ptr, b.len);
	mev__buf_free(&b);
	if (!d.message || MEV_VEC_PUSH(&m->diags, d))
		return mev_error_oom();
	return 0;
}

void mev__maint_check_text_line(mev_maint *m, uint32_t file, uint32_t line,
				const unsigned char *p, size_t ll, size_t sp, int comment)
{
	if (ll < 2)
		return;
	if (p[0] >= 'A' && p[0] <= 'Z' && p[1] == '.' && ll > 2 && (p[2] == '\t' || p[2] == ' '))
		mev__maint_diag_add(m, file, line,
			"'%c.' is not a field (did you mean '%c:'?); get_maintainer.pl reads the line as a section title",
			p[0], p[0]);
	else if (p[0] >= 'A' && p[0] <= 'Z' && (p[1] == '\t' || p[1] == ' '))
		mev__maint_diag_add(m, file, line,
			"'%c' followed by white space instead of ':'; get_maintainer.pl reads the line as a section title",
			p[0]);
	else if (p[0] >= 'a' && p[0] <= 'z' && p[1] == ':')
		mev__maint_diag_add(m, file, line,
			"lowercase field '%c:' is not a field; get_maintainer.pl reads the line as a section title",
			p[0]);
	else if (sp && sp + 1 < ll && p[sp] >= 'A' && p[sp] <= 'Z' && p[sp + 1] == ':')
		mev__maint_diag_add(m, file, line,
			"indented field '%c:' is not a field; get_maintainer.pl reads the line as a section title",
			p[sp]);
	else if (comment)
		mev__maint_diag_add(m, file, line,
			"comment line kept as a possible section title (this get_maintainer.pl does not skip comments)");
}

size_t mev_maint_diag_count(const mev_maint *m) { return m->diags.n; }
const mev_diag *mev_maint_diags(const mev_maint *m) { return m->diags.v; }

void mev_maint_diag_format(char *buf, size_t size, const mev_maint *m, const mev_diag *d)
{
	if (d->file == UINT32_MAX)
		snprintf(buf, size, "%s", d->message);
	else if (d->line == 0)
		snprintf(buf, size, "%s: %s", mev_maint_file(m, d->file), d->message);
	else
		snprintf(buf, size, "%s:%u: %s", mev_maint_file(m, d->file), d->line, d->message);
}
