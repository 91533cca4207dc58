/*
 * The health table: per release, what get_maintainer.pl --self-test would
 * say of its MAINTAINERS and more (lines that match no file, sections that
 * cover nothing, that have no M:, orphan and obsolete ones and their code,
 * repeated titles, titles taken from comment lines), and the code no
 * section covers by directory.  From the release record and the health
 * record the walk stores (docs/schemas.md, "health").
 */
#include "export_internal.h"
#include "maintevo/error.h"
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

int mev__export_is_obsolete(const char *status)
{
	return status && strncasecmp(status, "obsolete", 8) == 0;
}

/* One row; NULL strings and negative numbers are empty. */
typedef struct {
	const char *check, *section, *display, *value, *file, *dir;
	char type;
	int64_t line, level, files, lines, self_test;
	double share;
} row;

static void put_row(mev_table *w, const char *tag, const row *r)
{
	char type[2] = { r->type, 0 };
	mev_table_str(w, tag);
	mev_table_str(w, r->check);
	mev_table_str_or_null(w, r->section);
	mev_table_str_or_null(w, r->display);
	mev_table_str_or_null(w, r->type ? type : NULL);
	mev_table_str(w, r->value); /* NULL: null; "" stays an empty value */
	mev_table_str_or_null(w, r->file);
	mev_table_int_or_null(w, r->line);
	mev_table_str_or_null(w, r->dir);
	mev_table_int_or_null(w, r->level);
	mev_table_int_or_null(w, r->files);
	mev_table_int_or_null(w, r->lines);
	if (r->share >= 0)
		mev_table_num(w, r->share);
	else
		mev_table_null(w);
	mev_table_int_or_null(w, r->self_test);
	mev_table_end_row(w);
}

static row blank(const char *check)
{
	row r = { check, NULL, NULL, NULL, NULL, NULL, 0, -1, -1, -1, -1, -1, -1.0 };
	return r;
}

/* The rows of the release's sections: covering nothing, without M:,
 * orphan, obsolete, repeated titles, comment titles (by title). */
static void section_rows(mev_table *w, const char *tag, const mev_filemap *fm, const mev_edge *self,
			 const mev_release_health *hr, const mev_strmap *where, uint64_t lines)
{
	static const char *const checks[] = { "section_covers_nothing", "section_without_maintainer",
					      "section_orphan", "section_obsolete", "duplicate_title",
					      "comment_title" };
	const mev_section_info *si = mev_filemap_sections(fm);
	uint32_t *ids = NULL;
	size_t n = 0;
	if (mev__export_sorted_sections(&ids, &n, fm, 0))
		return;
	for (int c = 0; c < 6; c++)
		for (size_t k = 0; k < n; k++) {
			const mev_section_info *s = &si[ids[k]];
			int64_t at = mev__strmap_get(where, s->title, strlen(s->title));
			const mev_health_section *hs = hr && at >= 0 ? &hr->sections[at] : NULL;
			int hit = c == 0 ? !self[ids[k]].files && !self[ids[k]].lines && !self[ids[k]].bytes
				: c == 1 ? s->n_maintainers == 0
				: c == 2 ? strncasecmp(s->status, "orphan", 6) == 0
				: c == 3 ? mev__export_is_obsolete(s->status)
				: c == 4 ? hs && hs->duplicate
					 : s->title_kind == MEV_TITLE_COMMENT;
			row r = blank(checks[c]);
			if (!hit)
				continue;
			r.section = s->title;
			r.display = s->display;
			r.file = hs ? hs->file : NULL;
			r.line = hs ? (int64_t)hs->line : -1;
			if (c >= 1 && c <= 3) {
				r.files = (int64_t)self[ids[k]].files;
				r.lines = (int64_t)self[ids[k]].lines;
				r.share = lines ? (double)self[ids[k]].lines / (double)lines : 0;
			}
			put_row(w, tag, &r);
		}
	free(ids);
}

/* The rows of the health record: MAINTAINERS files the script does not
 * read, lines matching nothing, orphan and obsolete code, uncovered code by
 * directory. */
static int record_rows(mev_table *w, const mev__export_ctx *x, const char *tag, const mev_release_health *hr,
		       uint64_t lines)
{
	int rc = 0;
	static const char *const code[] = { "orphan_code", "orphan_only_code", "obsolete_code",
					    "obsolete_only_code" };
	const uint64_t v[4][2] = { { hr->orphan_files, hr->orphan_lines },
				   { hr->orphan_only_files, hr->orphan_only_lines },
				   { hr->obsolete_files, hr->obsolete_lines },
				   { hr->obsolete_only_files, hr->obsolete_only_lines } };
	for (size_t i = 0; i < hr->nunread; i++) {
		row r = blank("maintainers_file_not_read");
		r.file = hr->unread[i];
		put_row(w, tag, &r);
	}
	for (size_t i = 0; i < hr->npatterns; i++) {
		const mev_health_pattern *p = &hr->patterns[i];
		row r = blank("pattern_matches_nothing");
		r.section = p->section;
		r.display = mev__export_display(x, tag, p->section, &rc);
		r.type = p->type;
		r.value = p->value;
		r.file = p->file;
		r.line = p->line;
		r.self_test = p->type == 'N' ? -1 : !p->prefix; /* --self-test tests F: and X: only */
		put_row(w, tag, &r);
	}
	for (int k = 0; k < 4; k++) {
		row r = blank(code[k]);
		r.files = (int64_t)v[k][0];
		r.lines = (int64_t)v[k][1];
		r.share = lines ? (double)v[k][1] / (double)lines : 0;
		put_row(w, tag, &r);
	}
	for (size_t i = 0; i < hr->ndirs; i++) {
		const mev_health_dir *d = &hr->dirs[i];
		row r = blank("uncovered");
		if (!d->uncovered_files)
			continue;
		r.dir = d->dir;
		r.level = d->level;
		r.files = (int64_t)d->uncovered_files;
		r.lines = (int64_t)d->uncovered_lines;
		r.share = d->lines ? (double)d->uncovered_lines / (double)d->lines : 0;
		put_row(w, tag, &r);
	}
	return rc;
}

/* Every row of release `tag`. */
static int release_rows(mev_table *w, const mev__export_ctx *x, const mev_release *rel)
{
	mev_release_health hr;
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	mev_edge *self = NULL;
	mev_strmap where = MEV_STRMAP_INIT;
	int has, rc = mev_release_load_health(&hr, x->s, rel->tag);
	has = rc == 0;
	if (rc == MEV_ENOTFOUND)
		rc = 0;
	for (size_t i = 0; has && !rc && i < hr.nsections; i++)
		if (mev__strmap_put(&where, hr.sections[i].title, strlen(hr.sections[i].title), (uint32_t)i))
			rc = mev_error_oom();
	if (!rc && !(rc = mev_release_load_graph(&fm, &g, x->s, rel->tag, 0)) &&
	    !(rc = mev__export_self_sizes(&self, g, mev_filemap_section_count(fm)))) {
		if (has)
			rc = record_rows(w, x, rel->tag, &hr, rel->lines);
		else {
			row r = blank("health_not_stored");
			put_row(w, rel->tag, &r);
		}
		section_rows(w, rel->tag, fm, self, has ? &hr : NULL, &where, rel->lines);
	}
	free(self);
	mev_graph_free(g);
	mev_filemap_free(fm);
	mev__strmap_free(&where);
	mev_release_health_free(&hr);
	return rc;
}

int mev__export_health(mev_table *w, const mev__export_ctx *x)
{
	const mev_history *h = x->h;
	size_t first, end;
	int rc = 0;
	mev__export_range(&first, &end, h, x->opt->release);
	for (size_t i = first; i < end && !rc; i++)
		rc = release_rows(w, x, mev_history_release(h, i));
	return rc;
}
