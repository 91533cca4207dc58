/* The listed_sections and listed rows of one release as structs, for the report. */
/*
 * The tables' own row functions (listed.c) write into a sink that keeps
 * each row's values by column; the structs are made from those, so the
 * report reads exactly what the tables say.
 */
#include "export_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

#define MAX_COLS 16

/* One row's values: text in the arena (NULL: null), integers and dates. */
typedef struct {
	const char *s[MAX_COLS];
	int64_t i[MAX_COLS];
} row_values;

typedef struct {
	MEV_VEC(row_values) rows;
	row_values cur;
	mev_arena *arena;
	int oom;
} collector;

static void c_null(void *ctx, size_t col)
{
	collector *c = ctx;
	c->cur.s[col] = NULL;
	c->cur.i[col] = INT64_MIN;
}

static void c_text(void *ctx, size_t col, const char *s, size_t len)
{
	collector *c = ctx;
	if (!(c->cur.s[col] = mev__arena_strndup(c->arena, s, len)))
		c->oom = 1;
}

static void c_int(void *ctx, size_t col, int64_t v)
{
	((collector *)ctx)->cur.i[col] = v;
}

static void c_num(void *ctx, size_t col, double v)
{
	((collector *)ctx)->cur.i[col] = (int64_t)v;
}

static int c_end(void *ctx)
{
	collector *c = ctx;
	if (c->oom || MEV_VEC_PUSH(&c->rows, c->cur))
		return mev_error_oom();
	memset(&c->cur, 0, sizeof c->cur);
	return 0;
}

/* The rows of table t into c. */
static int collect(collector *c, const mev__export_ctx *x, mev_export_table_id t)
{
	mev_table_sink sink = { c_null, c_text, c_int, c_num, c_int, c_end, c };
	mev_table *w = NULL;
	int rc = mev_table_new_sink(&w, &sink, mev_export_columns(t));
	if (!rc)
		rc = mev__export_rows(w, x, t);
	if (w) {
		int end = mev_table_finish(w);
		rc = rc ? rc : end;
		mev_table_free(w);
	}
	return rc;
}

static const char *col_name(mev_export_table_id t, size_t col)
{
	return mev_export_columns(t)[col].name;
}

/* The index of column `name` of table t (the columns are static: never missing). */
static size_t col_of(mev_export_table_id t, const char *name)
{
	size_t i = 0;
	while (strcmp(col_name(t, i), name) != 0)
		i++;
	return i;
}

static int to_sections(mev_listed_list *out, const collector *c)
{
	const mev_export_table_id t = MEV_EXPORT_LISTED_SECTIONS;
	if (c->rows.n && !(out->sections = calloc(c->rows.n, sizeof *out->sections)))
		return mev_error_oom();
	for (size_t k = 0; k < c->rows.n; k++) {
		const row_values *v = &c->rows.v[k];
		mev_listed_section *s = &out->sections[k];
		s->section = v->s[col_of(t, "section")];
		s->status = v->s[col_of(t, "status")];
		s->lines = (uint64_t)v->i[col_of(t, "lines")];
		s->maintainers = (uint64_t)v->i[col_of(t, "maintainers")];
		s->maintainers_active = (uint64_t)v->i[col_of(t, "maintainers_active")];
		s->maintainers_quiet = (uint64_t)v->i[col_of(t, "maintainers_quiet")];
		s->maintainers_gone = (uint64_t)v->i[col_of(t, "maintainers_gone")];
		s->maintainers_never_seen = (uint64_t)v->i[col_of(t, "maintainers_never_seen")];
		s->orphaned_in_fact = (int)v->i[col_of(t, "orphaned_in_fact")];
	}
	out->n_sections = c->rows.n;
	return 0;
}

static int to_entries(mev_listed_list *out, const collector *c)
{
	const mev_export_table_id t = MEV_EXPORT_LISTED;
	if (c->rows.n && !(out->entries = calloc(c->rows.n, sizeof *out->entries)))
		return mev_error_oom();
	for (size_t k = 0; k < c->rows.n; k++) {
		const row_values *v = &c->rows.v[k];
		mev_listed_entry *e = &out->entries[k];
		e->section = v->s[col_of(t, "section")];
		e->entry = v->s[col_of(t, "entry")];
		e->name = v->s[col_of(t, "name")];
		e->role = v->s[col_of(t, "role")];
		e->state = v->s[col_of(t, "state")];
		e->last_active = v->i[col_of(t, "last_active")];
	}
	out->n_entries = c->rows.n;
	return 0;
}

static int build(mev_listed_list *out, const mev__export_ctx *x, mev_arena *arena)
{
	collector cs = { .arena = arena }, ce = { .arena = arena };
	int rc = collect(&cs, x, MEV_EXPORT_LISTED_SECTIONS);
	if (!rc)
		rc = collect(&ce, x, MEV_EXPORT_LISTED);
	if (!rc)
		rc = to_sections(out, &cs);
	if (!rc)
		rc = to_entries(out, &ce);
	MEV_VEC_FREE(&cs.rows);
	MEV_VEC_FREE(&ce.rows);
	return rc;
}

void mev_listed_list_free(mev_listed_list *l)
{
	if (!l)
		return;
	free(l->sections);
	free(l->entries);
	if (l->mem_) {
		mev__arena_free(l->mem_);
		free(l->mem_);
	}
	memset(l, 0, sizeof *l);
}

int mev_export_listed_rows(mev_listed_list *out, mev_store *s, const mev_export_options *opt)
{
	mev__export_ctx x = { s, NULL, opt, NULL, NULL, NULL, 0, NULL, NULL, NULL };
	mev_history *h = NULL, *own = NULL;
	int rc;
	memset(out, 0, sizeof *out);
	if ((rc = mev_history_use(&h, &own, s, opt->history, opt->release, 0)))
		return rc;
	x.h = h;
	if ((rc = mev__export_check_release(s, h, opt)) || !mev__export_has_flow(s, h))
		goto done;
	if (!(out->mem_ = calloc(1, sizeof(mev_arena)))) {
		rc = mev_error_oom();
		goto done;
	}
	if (!(rc = mev_flow_roster_reader_new(&x.roster, s, opt->repo)) &&
	    !(rc = !opt->people ? 0 : mev__export_handles_read(&x.people, opt->people)))
		rc = build(out, &x, out->mem_);
	if (rc)
		mev_listed_list_free(out);
done:
	mev__export_handles_free(x.people);
	mev_flow_roster_reader_free(x.roster);
	mev_history_free(own);
	return rc;
}
