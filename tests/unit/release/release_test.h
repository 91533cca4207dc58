/* What the tests of the release module share: file maps made to order, a store in the test's folder. */
#ifndef MEV_RELEASE_TEST_H
#define MEV_RELEASE_TEST_H

#include "test.h"
#include "maintevo/release.h"

#include <stdio.h>
#include <string.h>

/* the test's scratch folder (test_tmpdir), set by main */
static const char *dir;

/* A file map: n files a/<i> with section sets built from `shift`; with
 * holes, every 7th file is left out and a link a/0005x added. */
static inline mev_filemap *make_fm_holes(int n, int shift, int rename, int holes)
{
	mev_filemap *fm;
	mev_section_info si = { 0 };
	char title[32], path[32];
	mev_filemap_new(&fm);
	for (int s = 0; s < 5; s++) {
		snprintf(title, sizeof title, "SECTION %c%s", 'A' + s, rename && s == 2 ? " NEW" : "");
		si.title = title;
		si.status = "Maintained";
		si.n_maintainers = (uint32_t)s;
		si.is_rest = s == 4;
		mev_filemap_add_section(fm, &si);
	}
	for (int i = 0; i < n; i++) {
		uint32_t ids[2] = { (uint32_t)((i + shift) % 4), 4 }, set;
		if (holes && i % 7 == 3)
			continue;
		snprintf(path, sizeof path, "a/%04d", i);
		mev_filemap_intern_set(&set, fm, ids, 2);
		mev_filemap_add_row(fm, path, strlen(path), 1, (uint64_t)i, (uint64_t)i * 10, set);
		if (holes && i == 5) {
			mev_filemap_intern_set(&set, fm, NULL, 0);
			mev_filemap_add_row(fm, "a/0005x", 7, MEV_KIND_LINK, 1, 7, set);
		}
	}
	return fm;
}

static inline mev_filemap *make_fm(int n, int shift, int rename) { return make_fm_holes(n, shift, rename, 0); }

static inline int same_fm(const mev_filemap *a, const mev_filemap *b)
{
	const mev_file_row *ra = mev_filemap_rows(a), *rb = mev_filemap_rows(b);
	if (mev_filemap_count(a) != mev_filemap_count(b))
		return 0;
	for (size_t i = 0; i < mev_filemap_count(a); i++) {
		const uint32_t *ia, *ib;
		size_t ka = mev_filemap_set(&ia, a, ra[i].set), kb = mev_filemap_set(&ib, b, rb[i].set);
		if (strcmp(ra[i].path, rb[i].path) || ra[i].lines != rb[i].lines ||
		    ra[i].bytes != rb[i].bytes || ra[i].kind != rb[i].kind || ka != kb)
			return 0;
		for (size_t k = 0; k < ka; k++)
			if (strcmp(mev_filemap_sections(a)[ia[k]].title, mev_filemap_sections(b)[ib[k]].title))
				return 0;
	}
	return 1;
}

static inline mev_store *open_store(const char *name)
{
	char path[700];
	mev_store *s = NULL;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	CHECK_INT(mev_store_open(&s, path, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	return s;
}

#endif
