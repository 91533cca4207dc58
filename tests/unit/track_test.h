/* Helpers of the tracker's tests (test_track.c, test_track_cause.c): releases made of sections and files. */
#ifndef MEV_TRACK_TEST_H
#define MEV_TRACK_TEST_H

#include "test.h"
#include "maintevo/filemap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int track_test_path_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	/* compare the paths only (up to '=') */
	size_t lx = strcspn(x, "="), ly = strcspn(y, "=");
	int c = memcmp(x, y, lx < ly ? lx : ly);
	return c ? c : (lx > ly) - (lx < ly);
}

/* Sections: "TITLE:prefix,prefix"; files: "path=lines".  A section covers
 * the files under its prefixes.  THE REST covers everything. */
static inline mev_filemap *make_fm(const char *const *secs, const char *const *files)
{
	mev_filemap *fm;
	size_t ns = 0;
	mev_filemap_new(&fm);
	for (; secs[ns]; ns++) {
		char title[128];
		const char *colon = strchr(secs[ns], ':');
		mev_section_info si = { 0 };
		snprintf(title, sizeof title, "%.*s", (int)(colon - secs[ns]), secs[ns]);
		si.title = title;
		si.status = "Maintained";
		mev_filemap_add_section(fm, &si);
	}
	{
		mev_section_info si = { 0 };
		si.title = "THE REST";
		si.status = "";
		si.is_rest = 1;
		mev_filemap_add_section(fm, &si);
	}
	/* rows go in path order */
	const char *sorted[64];
	size_t nf = 0;
	for (; files[nf]; nf++)
		sorted[nf] = files[nf];
	qsort(sorted, nf, sizeof *sorted, track_test_path_cmp);
	for (size_t f = 0; f < nf; f++) {
		char path[128];
		const char *eq = strchr(sorted[f], '=');
		uint32_t ids[16], n = 0, set;
		snprintf(path, sizeof path, "%.*s", (int)(eq - sorted[f]), sorted[f]);
		for (size_t s = 0; s < ns; s++) {
			char pats[256], *save = NULL;
			snprintf(pats, sizeof pats, "%s", strchr(secs[s], ':') + 1);
			for (char *q = strtok_r(pats, ",", &save); q; q = strtok_r(NULL, ",", &save))
				if (strncmp(path, q, strlen(q)) == 0) {
					ids[n++] = (uint32_t)s;
					break;
				}
		}
		ids[n++] = (uint32_t)ns;
		CHECK_INT(mev_filemap_intern_set(&set, fm, ids, n), 0);
		CHECK_INT(mev_filemap_add_row(fm, path, strlen(path), 1, strtoull(eq + 1, NULL, 10), 100, set), 0);
	}
	return fm;
}

#endif
