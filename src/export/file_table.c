/* The files table: every file of a release, or one path (a file or a directory) over the releases, with its sections. */
#include "export_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

#include <stdlib.h>
#include <string.h>

/* The rows of one file: one per covering section (by title), or one with an
 * empty section when none covers it. */
static int file_rows(mev_table *w, const mev__export_ctx *x, size_t r, const mev_filemap *fm,
		     const mev_file_row *row)
{
	const mev_history *h = x->h;
	int keep_rest = x->opt->keep_rest, rc = 0;
	const mev_section_info *si = mev_filemap_sections(fm);
	const uint32_t *ids;
	size_t n = mev_filemap_set(&ids, fm, row->set), shown = 0, k = 0;
	uint32_t sorted[64], *v = n <= 64 ? sorted : malloc(n * sizeof *v);
	if (!v) { /* out of memory: the first 64 sections only */
		v = sorted;
		n = 64;
	}
	for (size_t i = 0; i < n; i++)
		if (keep_rest || !si[ids[i]].is_rest)
			v[k++] = ids[i];
	mev__export_sort_titles(v, k, fm);
	do {
		const char *title = shown < k ? si[v[shown]].title : NULL;
		const char *display = shown < k ? si[v[shown]].display : NULL;
		mev__export_member m = mev__export_member_of(h, (int64_t)r, title);
		mev_table_str(w, mev_history_release(h, r)->tag);
		mev_table_strn(w, row->path, row->path_len);
		mev_table_str(w, row->kind == MEV_KIND_LINK ? "link" : "file");
		mev_table_uint(w, row->lines);
		mev_table_uint(w, row->bytes);
		mev_table_str_or_null(w, title);
		mev__export_member_row(w, &m);
		mev_table_str_or_null(w, display);
		mev_table_str_or_null(w, mev__export_display(x, mev_history_release(h, r)->tag,
							     m.representative, &rc));
		mev_table_end_row(w);
	} while (++shown < k);
	if (v != sorted)
		free(v);
	return rc;
}

int mev__export_files(mev_table *w, const mev__export_ctx *x)
{
	const mev_history *h = x->h;
	const mev_export_options *opt = x->opt;
	size_t first, end;
	int rc = 0;
	mev__export_range(&first, &end, h, opt->release);
	for (size_t i = first; !rc && i < end; i++) {
		mev_filemap *fm = NULL;
		if (!mev_history_release(h, i)->has_files) {
			if (opt->release) {
				rc = mev_error_set(MEV_ENOTFOUND,
						   "release '%s' has no file table "
						   "(it was imported as a graph)",
						   mev_history_release(h, i)->tag);
				mev_error_hint("walk the repository with 'maintevo walk' to get file tables");
			}
			continue;
		}
		if ((rc = mev_release_load_filemap(&fm, x->s, mev_history_release(h, i)->tag)))
			break;
		if (opt->path) {
			/* the file, or every file below the directory */
			const mev_file_row *rows = mev_filemap_rows(fm);
			size_t a, b;
			mev__export_path_rows(&a, &b, fm, x->path, x->path_dir);
			*x->path_rows += b - a;
			for (size_t j = a; j < b && !rc; j++)
				rc = file_rows(w, x, i, fm, &rows[j]);
		} else {
			const mev_file_row *rows = mev_filemap_rows(fm);
			for (size_t j = 0; j < mev_filemap_count(fm) && !rc; j++)
				rc = file_rows(w, x, i, fm, &rows[j]);
		}
		mev_filemap_free(fm);
	}
	return rc;
}
