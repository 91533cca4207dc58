/*
 * What the user asked, as the walk applies it (walk_internal.h,
 * mev__walk_opts): the rules options every release is read with, derived
 * here once, and the notices the walk gives through the caller's callback.
 * Any file of the walk reaches these without reaching the walker.
 */
#include "walk_internal.h"

#include <stdarg.h>
#include <stdio.h>

void mev__walk_opts_settle(mev__walk_opts *o, mev_dialect d, int top_level_only)
{
	o->dialect = d;
	o->rules = o->user->rules;
	o->rules.dialect = d;
	o->rules.top_level_only = top_level_only;
}

int mev__walk_opts_files_as(mev__walk_opts *o, mev_repo *repo, const char *rev)
{
	int rc = mev_rules_files_as(&o->files_as, repo, rev, &o->rules);
	if (rc)
		return rc;
	o->rules.files_as = &o->files_as;
	return 0;
}

void mev__walk_note(const mev__walk_opts *o, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	if (!o->user->progress.note)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	o->user->progress.note(o->user->progress.ctx, buf);
}
