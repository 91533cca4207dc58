/* Building the per-file table of a release: read, count, match. */
#include "maintevo/filemap.h"
#include "maintevo/match.h"
#include "maintevo/error.h"
#include "maintevo/table.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/strmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mev_filemap {
	mev_arena arena;
	MEV_VEC(mev_file_row) rows;
	MEV_VEC(mev_section_info) sections;
	MEV_VEC(uint32_t) set_off; /* set i = set_ids[set_off[i] .. set_off[i+1]) */
	MEV_VEC(uint32_t) set_ids;
	mev_strmap set_index;      /* bytes of the id array -> set id */
};

static mev_filemap *filemap_new(void)
{
	mev_filemap *fm = calloc(1, sizeof *fm);
	if (!fm)
		return NULL;
	/* set 0 is the empty set */
	if (MEV_VEC_PUSH(&fm->set_off, 0) || MEV_VEC_PUSH(&fm->set_off, 0) ||
	    mev__strmap_put(&fm->set_index, "", 0, 0)) {
		mev_filemap_free(fm);
		return NULL;
	}
	return fm;
}

static int intern_set(uint32_t *out, mev_filemap *fm, const uint32_t *ids, size_t n)
{
	uint32_t id = (uint32_t)fm->set_off.n - 1;
	int added;
	if (mev__strmap_intern(&fm->set_index, (const char *)ids, n * sizeof *ids, id, out, &added))
		return MEV_ENOMEM;
	if (!added)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (MEV_VEC_PUSH(&fm->set_ids, ids[i]))
			return mev_error_oom();
	if (MEV_VEC_PUSH(&fm->set_off, (uint32_t)fm->set_ids.n))
		return mev_error_oom();
	return 0;
}

static int copy_sections(mev_filemap *fm, const mev_maint *maint)
{
	const mev_section *s = mev_maint_sections(maint);
	size_t n = mev_maint_section_count(maint);
	for (size_t i = 0; i < n; i++) {
		mev_section_info si = { 0 };
		si.title = mev__arena_strndup(&fm->arena, s[i].title, strlen(s[i].title));
		si.status = mev__arena_strndup(&fm->arena, s[i].status_text, strlen(s[i].status_text));
		si.display = s[i].display == s[i].title ? si.title
			     : mev__arena_strndup(&fm->arena, s[i].display, strlen(s[i].display));
		if (!si.title || !si.status || !si.display)
			return mev_error_oom();
		si.title_kind = s[i].title_kind;
		si.n_maintainers = s[i].n_maintainers;
		si.n_reviewers = s[i].n_reviewers;
		si.n_lists = s[i].n_lists;
		si.n_trees = s[i].n_trees;
		si.n_patterns = s[i].n_patterns;
		si.is_rest = s[i].is_rest;
		if (MEV_VEC_PUSH(&fm->sections, si))
			return mev_error_oom();
	}
	return 0;
}

/* Count lines and bytes of every distinct blob once. */
static int measure(mev_filemap *fm, mev_repo *repo, const mev_tree *tree, const uint8_t *need,
		   const mev_filemap_options *opt)
{
	const mev_tree_file *files = mev_tree_files(tree);
	size_t n = mev_tree_count(tree), nu = 0, nm = 0;
	mev_strmap uniq = MEV_STRMAP_INIT;
	uint32_t *which = malloc((n ? n : 1) * sizeof *which);
	mev_oid *oids = malloc((n ? n : 1) * sizeof *oids);
	uint64_t *lines = malloc((n ? n : 1) * sizeof *lines);
	uint64_t *bytes = malloc((n ? n : 1) * sizeof *bytes);
	uint32_t *todo = malloc((n ? n : 1) * sizeof *todo);
	mev_oid *todo_oids = malloc((n ? n : 1) * sizeof *todo_oids);
	uint64_t *tl = malloc((n ? n : 1) * sizeof *tl), *tb = malloc((n ? n : 1) * sizeof *tb);
	const mev_blob_sizes *sz = opt ? opt->sizes : NULL;
	int rc = 0;

	if (!which || !oids || !lines || !bytes || !todo || !todo_oids || !tl || !tb) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t u;
		int added;
		if (need && !need[i]) {
			which[i] = UINT32_MAX;
			continue;
		}
		if ((rc = mev__strmap_intern(&uniq, (const char *)files[i].oid.id, 20, (uint32_t)nu, &u, &added)))
			goto done;
		which[i] = u;
		if (!added)
			continue;
		oids[nu] = files[i].oid;
		if (sz && sz->lookup && sz->lookup(sz->ctx, &files[i].oid, &lines[nu], &bytes[nu])) {
			nu++;
			continue;
		}
		todo[nm] = (uint32_t)nu;
		todo_oids[nm++] = files[i].oid;
		nu++;
	}
	if ((rc = mev_repo_measure_blobs(tl, tb, repo, todo_oids, nm, opt ? opt->jobs : 0,
					 opt ? opt->stop : NULL)))
		goto done;
	if (opt && opt->stats) {
		opt->stats->blobs = nu;
		opt->stats->blobs_read = nm;
		for (size_t k = 0; k < nm; k++)
			if (tb[k] != UINT64_MAX)
				opt->stats->bytes_read += tb[k];
	}
	for (size_t k = 0; k < nm; k++) {
		lines[todo[k]] = tl[k];
		bytes[todo[k]] = tb[k];
		if (tl[k] == UINT64_MAX)
			continue; /* missing: not remembered */
		if (sz && sz->store && (rc = sz->store(sz->ctx, &todo_oids[k], tl[k], tb[k])))
			goto done;
	}
	for (size_t i = 0; i < n; i++) {
		if (which[i] == UINT32_MAX)
			continue;
		fm->rows.v[i].lines = lines[which[i]];
		fm->rows.v[i].bytes = bytes[which[i]];
		if (lines[which[i]] == UINT64_MAX) {
			fm->rows.v[i].lines = fm->rows.v[i].bytes = 0;
			if (opt && opt->stats && !opt->stats->missing++)
				snprintf(opt->stats->missing_path, sizeof opt->stats->missing_path, "%s",
					 fm->rows.v[i].path);
		}
	}
done:
	mev__strmap_free(&uniq);
	free(which);
	free(oids);
	free(lines);
	free(bytes);
	free(todo);
	free(todo_oids);
	free(tl);
	free(tb);
	return rc;
}

static int path_cmp(const char *a, size_t al, const char *b, size_t bl)
{
	int c = memcmp(a, b, al < bl ? al : bl);
	return c ? c : (al < bl ? -1 : al > bl);
}

typedef MEV_VEC(uint32_t) u32vec;

/*
 * The sections of an unchanged file: its set `old_set` in the previous
 * release, renumbered into *set.  Returns 1 when every one of them maps, 0
 * when a section it had changed (the file must be matched), < 0 on error.
 */
static int renumber_set(uint32_t *set, mev_filemap *fm, u32vec *ids2, const mev_filemap_base *base,
			uint32_t old_set)
{
	const uint32_t *ids;
	size_t k = mev_filemap_set(&ids, base->fm, old_set), j;
	int rc;
	if ((rc = MEV_VEC_RESERVE(ids2, k)))
		return rc;
	for (j = 0; j < k; j++) {
		ids2->v[j] = base->rematch ? mev_rematch_map(base->rematch, ids[j]) : ids[j];
		if (ids2->v[j] == UINT32_MAX)
			return 0;
	}
	for (size_t a = 1; a < k; a++)
		for (size_t z = a; z > 0 && ids2->v[z - 1] > ids2->v[z]; z--) {
			uint32_t t = ids2->v[z];
			ids2->v[z] = ids2->v[z - 1];
			ids2->v[z - 1] = t;
		}
	return (rc = intern_set(set, fm, ids2->v, k)) ? rc : 1;
}

int mev_filemap_build_ex(mev_filemap **out, mev_repo *repo, const mev_tree *tree,
			 mev_maint *maint, mev_matcher *matcher, const mev_filemap_base *base,
			 const mev_filemap_options *opt)
{
	mev_filemap *fm = filemap_new();
	mev_matcher *own = NULL;
	const mev_tree_file *files = mev_tree_files(tree);
	const mev_tree_file *ofiles = base ? mev_tree_files(base->tree) : NULL;
	size_t n = mev_tree_count(tree), on = base ? mev_tree_count(base->tree) : 0, oi = 0;
	const mev_file_row *orows = base ? mev_filemap_rows(base->fm) : NULL;
	uint8_t *need = calloc(n + 1, 1);
	u32vec ids2 = { 0 };
	uint64_t matched = 0;
	int rc = 0;
	double t0 = mev__now(), t1;

	*out = NULL;
	if (!fm || !need) {
		rc = mev_error_oom();
		goto done;
	}
	if (base && mev_filemap_count(base->fm) != on) {
		rc = mev_error_set(MEV_EINVAL, "the previous file map does not fit its tree");
		goto done;
	}
	if ((rc = copy_sections(fm, maint)))
		goto done;
	if ((rc = MEV_VEC_RESERVE(&fm->rows, n)))
		goto done;
	if (!matcher) {
		if ((rc = mev_matcher_new(&own, maint, 0)))
			goto done;
		matcher = own;
	}
	for (size_t i = 0; i < n; i++) {
		mev_file_row r = { 0 };
		const mev_file_row *old = NULL;
		const uint32_t *ids;
		size_t nid;
		r.path = mev__arena_strndup(&fm->arena, files[i].path, files[i].path_len);
		if (!r.path) {
			rc = mev_error_oom();
			goto done;
		}
		r.path_len = files[i].path_len;
		r.kind = files[i].kind;
		/* the same path in the previous release: its sections are the
		 * same, as matching reads only the path; its size only if the
		 * file did not change */
		while (base && oi < on &&
		       path_cmp(ofiles[oi].path, ofiles[oi].path_len, files[i].path, files[i].path_len) < 0)
			oi++;
		if (base && oi < on &&
		    path_cmp(ofiles[oi].path, ofiles[oi].path_len, files[i].path, files[i].path_len) == 0 &&
		    ofiles[oi].link_dir == files[i].link_dir)
			old = &orows[oi];
		if (old && !base->changed[i]) {
			r.lines = old->lines;
			r.bytes = old->bytes;
		} else {
			need[i] = 1;
		}
		/* keep the sections, renumbered, unless one it had changed */
		if (old && (!base->rematch ||
			    !mev_rematch_needed(base->rematch, files[i].path, files[i].path_len, files[i].link_dir)) &&
		    (rc = renumber_set(&r.set, fm, &ids2, base, old->set))) {
			if (rc < 0)
				goto done;
			rc = 0;
			fm->rows.v[fm->rows.n++] = r;
			continue;
		}
		matched++;
		if ((rc = mev_matcher_match(&ids, &nid, matcher, files[i].path, files[i].path_len,
					    files[i].link_dir)))
			goto done;
		if ((rc = intern_set(&r.set, fm, ids, nid)))
			goto done;
		fm->rows.v[fm->rows.n++] = r;
	}
	t1 = mev__now();
	rc = measure(fm, repo, tree, base ? need : NULL, opt);
	if (opt && opt->stats) {
		opt->stats->match_seconds = t1 - t0;
		opt->stats->read_seconds = mev__now() - t1;
		opt->stats->paths = n;
		opt->stats->matched = matched;
	}
done:
	mev_matcher_free(own);
	free(need);
	MEV_VEC_FREE(&ids2);
	if (rc)
		mev_filemap_free(fm);
	else
		*out = fm;
	return rc;
}

int mev_filemap_build(mev_filemap **out, mev_repo *repo, const mev_tree *tree,
		      mev_maint *maint, const mev_filemap_options *opt)
{
	return mev_filemap_build_ex(out, repo, tree, maint, NULL, NULL, opt);
}

void mev_filemap_free(mev_filemap *fm)
{
	if (!fm)
		return;
	MEV_VEC_FREE(&fm->rows);
	MEV_VEC_FREE(&fm->sections);
	MEV_VEC_FREE(&fm->set_off);
	MEV_VEC_FREE(&fm->set_ids);
	mev__strmap_free(&fm->set_index);
	mev__arena_free(&fm->arena);
	free(fm);
}

size_t mev_filemap_count(const mev_filemap *fm) { return fm->rows.n; }
const mev_file_row *mev_filemap_rows(const mev_filemap *fm) { return fm->rows.v; }
size_t mev_filemap_section_count(const mev_filemap *fm) { return fm->sections.n; }
const mev_section_info *mev_filemap_sections(const mev_filemap *fm) { return fm->sections.v; }
size_t mev_filemap_set_count(const mev_filemap *fm) { return fm->set_off.n - 1; }

size_t mev_filemap_set(const uint32_t **ids, const mev_filemap *fm, uint32_t set)
{
	if (set + 1 >= fm->set_off.n) {
		*ids = NULL;
		return 0;
	}
	/* no pointer arithmetic on NULL: the empty set has no storage */
	*ids = fm->set_ids.v ? fm->set_ids.v + fm->set_off.v[set] : NULL;
	return fm->set_off.v[set + 1] - fm->set_off.v[set];
}

static int title_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int mev_filemap_write_csv(FILE *out, const mev_filemap *fm, int keep_rest, int excel_safe)
{
	static const mev_column cols[] = {
		{ "path", MEV_COLUMN_STRING }, { "lines", MEV_COLUMN_INTEGER },
		{ "bytes", MEV_COLUMN_INTEGER }, { "sections", MEV_COLUMN_STRING }, { NULL, 0 }
	};
	size_t nsets = mev_filemap_set_count(fm);
	char **joined = calloc(nsets ? nsets : 1, sizeof *joined);
	const char **titles = malloc((fm->sections.n + 1) * sizeof *titles);
	mev_table *t = NULL;
	int rc = 0;

	if (!joined || !titles) {
		rc = mev_error_oom();
		goto done;
	}
	if ((rc = mev_table_new(&t, out, MEV_TABLE_CSV, cols)))
		goto done;
	mev_table_excel_safe(t, excel_safe);
	for (size_t i = 0; i < fm->rows.n; i++) {
		const mev_file_row *r = &fm->rows.v[i];
		if (!joined[r->set]) {
			const uint32_t *ids;
			size_t k = mev_filemap_set(&ids, fm, r->set), nt = 0;
			mev_buf b = MEV_BUF_INIT;
			for (size_t j = 0; j < k; j++)
				if (keep_rest || !fm->sections.v[ids[j]].is_rest)
					titles[nt++] = fm->sections.v[ids[j]].title;
			qsort(titles, nt, sizeof *titles, title_cmp);
			for (size_t j = 0; j < nt; j++)
				if ((j && mev__buf_puts(&b, " | ")) || mev__buf_puts(&b, titles[j])) {
					mev__buf_free(&b);
					rc = mev_error_oom();
					goto done;
				}
			joined[r->set] = mev__buf_detach(&b);
			if (!joined[r->set]) {
				rc = mev_error_oom();
				goto done;
			}
		}
		mev_table_strn(t, r->path, r->path_len);
		mev_table_uint(t, r->lines);
		mev_table_uint(t, r->bytes);
		mev_table_str(t, joined[r->set]);
		mev_table_end_row(t);
	}
	if ((rc = mev_table_finish(t)) == MEV_EIO)
		rc = mev_error_write("file map");
done:
	mev_table_free(t);
	for (size_t i = 0; joined && i < nsets; i++)
		free(joined[i]);
	free(joined);
	free(titles);
	return rc;
}

int mev_filemap_new(mev_filemap **out)
{
	*out = filemap_new();
	return *out ? 0 : mev_error_oom();
}

int mev_filemap_add_section(mev_filemap *fm, const mev_section_info *si)
{
	mev_section_info c = *si;
	c.title = mev__arena_strndup(&fm->arena, si->title, strlen(si->title));
	c.status = mev__arena_strndup(&fm->arena, si->status ? si->status : "",
				     si->status ? strlen(si->status) : 0);
	c.display = !si->display || strcmp(si->display, si->title) == 0 ? c.title
		    : mev__arena_strndup(&fm->arena, si->display, strlen(si->display));
	if (!c.title || !c.status || !c.display || MEV_VEC_PUSH(&fm->sections, c))
		return mev_error_oom();
	return 0;
}

int mev_filemap_intern_set(uint32_t *set, mev_filemap *fm, const uint32_t *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] >= fm->sections.n || (i && ids[i] <= ids[i - 1]))
			return mev_error_set(MEV_EINVAL, "bad section set");
	return intern_set(set, fm, ids, n);
}

int mev_filemap_add_row(mev_filemap *fm, const char *path, size_t len, uint8_t kind,
			uint64_t lines, uint64_t bytes, uint32_t set)
{
	mev_file_row r = { 0 };
	if (set + 1 >= fm->set_off.n)
		return mev_error_set(MEV_EINVAL, "bad section set id %u", set);
	if (fm->rows.n) {
		const mev_file_row *p = &fm->rows.v[fm->rows.n - 1];
		size_t m = p->path_len < len ? p->path_len : len;
		int c = memcmp(p->path, path, m);
		if (c > 0 || (c == 0 && p->path_len >= len))
			return mev_error_set(MEV_EINVAL, "file rows out of order at '%.*s'", (int)len, path);
	}
	r.path = mev__arena_strndup(&fm->arena, path, len);
	if (!r.path)
		return mev_error_oom();
	r.path_len = (uint32_t)len;
	r.kind = kind;
	r.lines = lines;
	r.bytes = bytes;
	r.set = set;
	return MEV_VEC_PUSH(&fm->rows, r) ? mev_error_oom() : 0;
}

size_t mev_filemap_lower_bound(const mev_filemap *fm, const char *p, size_t len)
{
	const mev_file_row *rows = mev_filemap_rows(fm);
	size_t lo = 0, hi = mev_filemap_count(fm);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2, m = rows[mid].path_len < len ? rows[mid].path_len : len;
		int c = memcmp(rows[mid].path, p, m);
		if (c < 0 || (c == 0 && rows[mid].path_len < len))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int mev_filemap_path_rows(size_t *first, size_t *end, const mev_filemap *fm, const char *path,
			  size_t len, int dir_only)
{
	const mev_file_row *rows = mev_filemap_rows(fm);
	size_t n = mev_filemap_count(fm), i;
	char *d;
	*first = *end = 0;
	if (!len) /* the root: every file */
		return *end = n, 1;
	i = mev_filemap_lower_bound(fm, path, len);
	if (!dir_only && i < n && rows[i].path_len == len && !memcmp(rows[i].path, path, len)) {
		*first = i;
		*end = i + 1;
		return 0;
	}
	if (!(d = malloc(len + 2)))
		return 0;
	memcpy(d, path, len);
	d[len] = '/';
	i = mev_filemap_lower_bound(fm, d, len + 1);
	*first = *end = i;
	while (*end < n && rows[*end].path_len > len + 1 && !memcmp(rows[*end].path, d, len + 1))
		(*end)++;
	free(d);
	return *end > *first;
}
