/*
 * A path looked up in the stored file tables: its canonical form, the rows
 * it names (a file, or every file below a directory), and the closest
 * stored paths or titles when it names nothing (did you mean ...?).  The
 * first two are the match module's (mev_match_canonpath(),
 * mev_filemap_path_rows()), under the names export's files call them by.
 */
#include "export_internal.h"
#include "maintevo/error.h"
#include "maintevo/match.h"
#include "maintevo/suggest.h"

#include <stdlib.h>
#include <string.h>

int mev__export_canon_path(char **out, int *is_dir, const char *in)
{
	return mev_match_canonpath(out, is_dir, in);
}

int mev__export_path_rows(size_t *first, size_t *end, const mev_filemap *fm, const char *path,
			  int dir_only)
{
	return mev_filemap_path_rows(first, end, fm, path, strlen(path), dir_only);
}

/* Every path of fm and each of its directories ("dir/") as candidates. */
static void add_paths(mev_suggestions *sg, const mev_filemap *fm)
{
	const mev_file_row *rows = mev_filemap_rows(fm);
	for (size_t i = 0; i < mev_filemap_count(fm); i++) {
		mev_suggestions_add(sg, rows[i].path, rows[i].path_len);
		for (size_t k = 0; k < rows[i].path_len; k++)
			if (rows[i].path[k] == '/' &&
			    (i == 0 || rows[i - 1].path_len < k + 1 || memcmp(rows[i - 1].path, rows[i].path, k + 1)))
				mev_suggestions_add(sg, rows[i].path, k + 1);
	}
}

int mev__export_no_path(mev_store *s, const mev_history *h, const char *tag, const char *path,
			int is_dir)
{
	int64_t only = mev_history_find(h, tag);
	mev_suggestions sg;
	char shown[MEV_SUGGEST_LEN + 2];
	size_t pick[2], np = 0;
	int rc, found = 0;
	snprintf(shown, sizeof shown, "%s%s", path, is_dir ? "/" : "");
	mev_suggestions_init(&sg, shown);
	/* the newest and the oldest release with files: the paths of now and of long ago */
	if (only >= 0 && mev_history_release(h, only)->has_files)
		pick[np++] = (size_t)only;
	for (size_t i = mev_history_release_count(h); i > 0 && !np && only < 0; i--)
		if (mev_history_release(h, i - 1)->has_files)
			pick[np++] = i - 1;
	for (size_t i = 0; np == 1 && only < 0 && i < pick[0]; i++)
		if (mev_history_release(h, i)->has_files)
			pick[np++] = i;
	for (size_t k = 0; k < np; k++) {
		mev_filemap *fm = NULL;
		if (mev_release_load_filemap(&fm, s, mev_history_release(h, pick[k])->tag) == 0) {
			add_paths(&sg, fm);
			found = 1;
		}
		mev_filemap_free(fm);
		mev_error_clear();
	}
	if (only >= 0)
		rc = mev_error_set(MEV_ENOTFOUND, "release '%s' has no file or directory '%s'", tag, shown);
	else
		rc = mev_error_set(MEV_ENOTFOUND, "no stored release of '%s' has a file or directory '%s'",
				   mev_store_dir(s), shown);
	mev_suggestions_hint(&sg, found ? "paths are relative to the top of the tree, as "
				       "'maintevo export files --release TAG' lists them"
				     : "the store has no file tables: walk a repository with 'maintevo walk'");
	return rc;
}
