/*
 * One path over the releases ('maintevo history PATH'): per release its
 * lines, the sections covering its files with their share of its lines,
 * the clusters and lineages, and what changed.  Read from the stored file
 * tables and the history (clusters with their lineages) of the store.
 */
#include "export_internal.h"
#include "maintevo/suggest.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What one release's rows add up to, per section and per cluster. */
typedef struct {
	uint64_t *sec_lines, *sec_files;
	uint32_t *sec_stamp;       /* last row that counted the section */
	uint64_t *cl_lines;
	uint32_t *cl_stamp;
	uint32_t stamp;
} tally;

static int tally_init(tally *t, size_t nsec, size_t ncl)
{
	memset(t, 0, sizeof *t);
	t->sec_lines = calloc(nsec + 1, sizeof *t->sec_lines);
	t->sec_files = calloc(nsec + 1, sizeof *t->sec_files);
	t->sec_stamp = calloc(nsec + 1, sizeof *t->sec_stamp);
	t->cl_lines = calloc(ncl + 1, sizeof *t->cl_lines);
	t->cl_stamp = calloc(ncl + 1, sizeof *t->cl_stamp);
	return t->sec_lines && t->sec_files && t->sec_stamp && t->cl_lines && t->cl_stamp ? 0 : mev_error_oom();
}

static void tally_free(tally *t)
{
	free(t->sec_lines);
	free(t->sec_files);
	free(t->sec_stamp);
	free(t->cl_lines);
	free(t->cl_stamp);
}

static const char *keep(mev_arena *a, const char *s, int *oom)
{
	char *c;
	if (!s)
		return NULL;
	if (!(c = mev__arena_strndup(a, s, strlen(s))))
		*oom = 1;
	return c;
}

static const mev_filemap *sort_fm;
static const uint64_t *sort_lines;

static int by_lines_then_title(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	if (sort_lines[a] != sort_lines[b])
		return sort_lines[a] > sort_lines[b] ? -1 : 1;
	return strcmp(mev_filemap_sections(sort_fm)[a].title, mev_filemap_sections(sort_fm)[b].title);
}

static int by_lines(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	if (sort_lines[a] != sort_lines[b])
		return sort_lines[a] > sort_lines[b] ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Count the rows [first, end) of fm into t and pr's totals. */
static void count_rows(tally *t, mev_path_release *pr, const mev_history *h, size_t r,
		       const mev_filemap *fm, size_t first, size_t end, int keep_rest)
{
	const mev_file_row *rows = mev_filemap_rows(fm);
	const mev_section_info *si = mev_filemap_sections(fm);
	for (size_t j = first; j < end; j++) {
		const uint32_t *ids;
		size_t n = mev_filemap_set(&ids, fm, rows[j].set), named = 0;
		t->stamp++;
		pr->files++;
		pr->lines += rows[j].lines;
		for (size_t k = 0; k < n; k++) {
			int64_t c;
			if (si[ids[k]].is_rest && !keep_rest)
				continue;
			named += !si[ids[k]].is_rest;
			if (t->sec_stamp[ids[k]] != t->stamp) {
				t->sec_stamp[ids[k]] = t->stamp;
				t->sec_lines[ids[k]] += rows[j].lines;
				t->sec_files[ids[k]]++;
			}
			c = mev_history_cluster_of(h, r, si[ids[k]].title);
			if (c >= 0 && t->cl_stamp[c] != t->stamp) {
				t->cl_stamp[c] = t->stamp;
				t->cl_lines[c] += rows[j].lines;
			}
		}
		if (!named) {
			pr->uncovered_files++;
			pr->uncovered_lines += rows[j].lines;
		}
	}
}

/* The sections and clusters of one release, largest first, copied into a. */
static int collect(mev_path_release *pr, mev_arena *a, const tally *t, const mev_history *h, size_t r,
		   const mev_filemap *fm)
{
	const mev_section_info *si = mev_filemap_sections(fm);
	const mev_clustering *c = mev_history_clustering(h, r);
	size_t nsec = mev_filemap_section_count(fm), ns = 0, nc = 0;
	size_t ncl = c ? mev_clustering_count(c) : 0;
	uint32_t *ord = malloc((nsec + ncl + 1) * sizeof *ord);
	int oom = 0;
	if (!ord)
		return mev_error_oom();
	for (size_t i = 0; i < nsec; i++)
		if (t->sec_files[i])
			ord[ns++] = (uint32_t)i;
	sort_fm = fm;
	sort_lines = t->sec_lines;
	mev__export_sort(ord, ns, sizeof *ord, by_lines_then_title);
	pr->v = mev__arena_alloc(a, (ns + 1) * sizeof *pr->v, sizeof(void *));
	for (size_t i = 0; pr->v && i < ns; i++) {
		mev_path_section *ps = &pr->v[pr->n++];
		mev__export_member m = mev__export_member_of(h, (int64_t)r, si[ord[i]].title);
		ps->section = keep(a, si[ord[i]].title, &oom);
		ps->display = keep(a, si[ord[i]].display, &oom);
		ps->lines = t->sec_lines[ord[i]];
		ps->files = t->sec_files[ord[i]];
		ps->cluster = m.cluster;
		ps->representative = keep(a, m.representative, &oom);
		ps->lineage = m.lineage;
		ps->lineage_name = keep(a, m.lineage_name, &oom);
	}
	for (size_t k = 0; k < ncl; k++)
		if (t->cl_lines[k])
			ord[nc++] = (uint32_t)k;
	sort_lines = t->cl_lines;
	mev__export_sort(ord, nc, sizeof *ord, by_lines);
	pr->l = mev__arena_alloc(a, (nc + 1) * sizeof *pr->l, sizeof(void *));
	for (size_t i = 0; pr->l && i < nc; i++) {
		mev_path_lineage *pl = &pr->l[pr->nl++];
		uint32_t k = ord[i];
		pl->cluster = (int64_t)k + 1;
		pl->representative = keep(a, mev_clustering_title(c, mev_clustering_representative(c, k)), &oom);
		pl->lineage = mev_history_cluster_lineage(h, r, k);
		pl->name = pl->lineage >= 0 ? keep(a, mev_history_lineage_name(h, r, k), &oom)
					    : pl->representative;
		pl->lines = t->cl_lines[k];
	}
	free(ord);
	return oom || !pr->v || !pr->l ? mev_error_oom() : 0;
}

/* Release r: load its file table, find the path, count. */
static int one_release(mev_path_history *out, mev_arena *a, mev_store *s, const mev_history *h,
		       size_t r, const char *path, int dir_only, int keep_rest)
{
	mev_path_release *pr = &out->v[out->n++];
	mev_filemap *fm = NULL;
	const mev_clustering *c = mev_history_clustering(h, r);
	size_t first, end, ncl = c ? mev_clustering_count(c) : 0;
	tally t;
	int rc;
	pr->tag = mev_history_release(h, r)->tag;
	pr->has_files = mev_history_release(h, r)->has_files;
	if (!pr->has_files)
		return 0;
	if ((rc = mev_release_load_filemap(&fm, s, pr->tag)))
		return rc;
	pr->is_dir = mev__export_path_rows(&first, &end, fm, path, dir_only);
	pr->present = end > first;
	out->is_dir |= pr->present && pr->is_dir;
	if (!(rc = tally_init(&t, mev_filemap_section_count(fm), ncl))) {
		count_rows(&t, pr, h, r, fm, first, end, keep_rest);
		rc = collect(pr, a, &t, h, r, fm);
	}
	tally_free(&t);
	mev_filemap_free(fm);
	return rc;
}

/* The lineage (or untracked, the cluster) holding the most of pr's lines. */
static int64_t main_lineage(const mev_path_release *pr)
{
	if (!pr->nl)
		return -2;
	return pr->l[0].lineage >= 0 ? pr->l[0].lineage : -100 - pr->l[0].cluster;
}

static int same_sections(const mev_path_release *a, const mev_path_release *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++) {
		int found = 0;
		for (size_t k = 0; k < b->n && !found; k++)
			found = strcmp(a->v[i].section, b->v[k].section) == 0;
		if (!found)
			return 0;
	}
	return 1;
}

static void mark_changes(mev_path_history *out)
{
	const mev_path_release *prev = NULL;
	for (size_t i = 0; i < out->n; i++) {
		mev_path_release *pr = &out->v[i];
		if (!pr->present) {
			if (pr->has_files)
				prev = NULL;
			continue;
		}
		if (!prev)
			pr->changed |= MEV_PATH_NEW;
		else {
			if (!same_sections(prev, pr))
				pr->changed |= MEV_PATH_SECTIONS;
			if (main_lineage(prev) != main_lineage(pr))
				pr->changed |= MEV_PATH_LINEAGE;
		}
		prev = pr;
	}
}

int mev_export_path_history(mev_path_history *out, mev_store *s, const char *path,
			    const mev_export_options *opt)
{
	static const mev_export_options defaults = { 0 };
	mev_history *h = NULL, *own = NULL;
	mev_arena *a;
	size_t first, end;
	int rc, dir_only = 0, any = 0;
	memset(out, 0, sizeof *out);
	if (!opt)
		opt = &defaults;
	if (!(a = calloc(1, sizeof *a)))
		return mev_error_oom();
	out->mem_ = a;
	if ((rc = mev__export_canon_path(&out->path, &dir_only, path)))
		return rc;
	if ((rc = mev_history_use(&h, &own, s, opt->history, opt->release,
				  MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS)))
		return rc;
	out->clustered = mev_history_clustered(h) && mev_history_release_count(h);
	out->tracked = mev_history_tracked(h) && mev_history_release_count(h);
	mev__export_range(&first, &end, h, opt->release);
	if (!(out->v = calloc(end - first + 1, sizeof *out->v)))
		rc = mev_error_oom();
	for (size_t r = first; r < end && !rc; r++) {
		rc = one_release(out, a, s, h, r, out->path, dir_only, opt->keep_rest);
		any |= !rc && out->v[out->n - 1].present;
	}
	if (!rc && !any)
		rc = mev__export_no_path(s, h, opt->release, out->path, dir_only);
	if (!rc) {
		out->is_dir |= dir_only;
		if (!opt->release) /* one release alone has nothing to compare with */
			mark_changes(out);
		/* the tags outlive the history: copied */
		for (size_t i = 0; i < out->n && !rc; i++)
			if (!(out->v[i].tag = mev__arena_strndup(a, out->v[i].tag, strlen(out->v[i].tag))))
				rc = mev_error_oom();
	}
	mev_history_free(own);
	return rc;
}

void mev_path_history_free(mev_path_history *h)
{
	if (!h)
		return;
	if (h->mem_) {
		mev__arena_free(h->mem_);
		free(h->mem_);
	}
	free(h->v);
	free(h->path);
	memset(h, 0, sizeof *h);
}

/* --- one section over the releases -------------------------------------------------- */

/* Every release's sections (a file map without rows) and graph. */
typedef struct {
	mev_filemap **secs;
	mev_graph **g;
	size_t n;
} graphs;

static void graphs_free(graphs *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		mev_filemap_free(gs->secs[i]);
		mev_graph_free(gs->g[i]);
	}
	free(gs->secs);
	free(gs->g);
}

static int graphs_load(graphs *gs, mev_store *s, const mev_history *h)
{
	memset(gs, 0, sizeof *gs);
	gs->secs = calloc(mev_history_release_count(h) + 1, sizeof *gs->secs);
	gs->g = calloc(mev_history_release_count(h) + 1, sizeof *gs->g);
	if (!gs->secs || !gs->g)
		return mev_error_oom();
	for (; gs->n < mev_history_release_count(h); gs->n++) {
		int rc = mev_release_load_graph(&gs->secs[gs->n], &gs->g[gs->n], s,
						mev_history_release(h, gs->n)->tag, 1);
		if (rc)
			return rc;
	}
	return 0;
}

/* The section of fm titled t, or -1. */
static int64_t section_named(const mev_filemap *fm, const char *t)
{
	const mev_section_info *si = mev_filemap_sections(fm);
	for (size_t i = 0; i < mev_filemap_section_count(fm); i++)
		if (strcmp(si[i].title, t) == 0)
			return (int64_t)i;
	return -1;
}

/* The title `what` stands for: a title, else the one title whose display
 * name is `what`, or that equals it ignoring case; NULL with the error set. */
static const char *resolve_title(const graphs *gs, mev_store *s, const char *what)
{
	const char *found = NULL;
	int many = 0;
	mev_suggestions sg;
	for (int pass = 0; pass < 3; pass++) {
		for (size_t r = 0; r < gs->n; r++) {
			const mev_section_info *si = mev_filemap_sections(gs->secs[r]);
			for (size_t i = 0; i < mev_filemap_section_count(gs->secs[r]); i++) {
				int hit = pass == 0 ? !strcmp(si[i].title, what)
					: pass == 1 ? !strcmp(si[i].display, what)
						    : !strcasecmp(si[i].title, what) || !strcasecmp(si[i].display, what);
				if (!hit)
					continue;
				if (pass == 0)
					return si[i].title;
				many |= found && strcmp(found, si[i].title) != 0;
				found = si[i].title;
			}
		}
		if (found && !many)
			return found;
		if (many)
			break;
	}
	if (many) {
		mev_error_set(MEV_ENOTFOUND, "'%s' names more than one section of store '%s'", what,
			      mev_store_dir(s));
		mev_error_hint("give the section's exact title ('maintevo export sections' lists them)");
		return NULL;
	}
	mev_suggestions_init(&sg, what);
	for (size_t r = 0; r < gs->n; r++) {
		const mev_section_info *si = mev_filemap_sections(gs->secs[r]);
		for (size_t i = 0; i < mev_filemap_section_count(gs->secs[r]); i++)
			mev_suggestions_add(&sg, si[i].title, strlen(si[i].title));
	}
	mev_error_set(MEV_ENOTFOUND, "no stored release of '%s' has a section '%s'", mev_store_dir(s), what);
	mev_suggestions_hint(&sg, "'maintevo export sections' lists the sections of every release");
	return NULL;
}

static int section_release(mev_section_release *sr, mev_arena *a, const mev_history *h, size_t r,
			   const graphs *gs, const char *title)
{
	int64_t i = section_named(gs->secs[r], title);
	const mev_section_info *si;
	const mev_clustering *c;
	mev_edge *self = NULL;
	mev__export_member m;
	int oom = 0, rc;
	sr->tag = keep(a, mev_history_release(h, r)->tag, &oom);
	if (i < 0)
		return oom ? mev_error_oom() : 0;
	si = &mev_filemap_sections(gs->secs[r])[i];
	if ((rc = mev__export_self_sizes(&self, gs->g[r], mev_filemap_section_count(gs->secs[r]))))
		return rc;
	m = mev__export_member_of(h, (int64_t)r, title);
	sr->present = 1;
	sr->display = keep(a, si->display, &oom);
	sr->status = keep(a, si->status, &oom);
	sr->lines = self[i].lines;
	sr->files = self[i].files;
	sr->maintainers = si->n_maintainers;
	sr->cluster = m.cluster;
	sr->representative = keep(a, m.representative, &oom);
	c = mev_history_clustering(h, r);
	sr->cluster_sections = m.cluster > 0 ? mev_clustering_size(c, (uint32_t)(m.cluster - 1)) : 0;
	sr->lineage = m.lineage;
	sr->lineage_name = keep(a, m.lineage_name, &oom);
	free(self);
	return oom ? mev_error_oom() : 0;
}

/* The tracker's renames, when it ran (none is no error). */
static int load_renames(mev_section_change_list *ren, const mev_history *h)
{
	int rc = mev_history_read_section_changes(ren, h, NULL, NULL);
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		return 0;
	}
	return rc;
}

/* The new title of section `t` renamed between releases from and to, or NULL. */
static const char *renamed_to(const mev_section_change_list *ren, const char *from, const char *to,
			      const char *t)
{
	for (size_t i = 0; i < ren->n; i++)
		if (ren->v[i].kind == MEV_SECTION_RENAMED && !strcmp(ren->v[i].from_release, from) &&
		    !strcmp(ren->v[i].to_release, to) && !strcmp(ren->v[i].section, t))
			return ren->v[i].new_section;
	return NULL;
}

int mev_export_section_history(mev_section_history *out, mev_store *s, const char *title,
			       const mev_export_options *opt)
{
	static const mev_export_options defaults = { 0 };
	mev_section_change_list ren = { 0 };
	mev_history *h = NULL, *own = NULL;
	graphs gs = { 0 };
	const char *t, *cur;
	const mev_section_release *prev = NULL;
	mev_arena *a;
	int rc, oom = 0;
	memset(out, 0, sizeof *out);
	if (!opt)
		opt = &defaults;
	if (!(a = calloc(1, sizeof *a)))
		return mev_error_oom();
	out->mem_ = a;
	if ((rc = mev_history_use(&h, &own, s, opt->history, NULL,
				  MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS)))
		return rc;
	out->clustered = mev_history_clustered(h) && mev_history_release_count(h);
	out->tracked = mev_history_tracked(h) && mev_history_release_count(h);
	if (!(rc = graphs_load(&gs, s, h)) && !(t = resolve_title(&gs, s, title)))
		rc = MEV_ENOTFOUND;
	if (!rc && (!(out->title = strdup(t)) ||
		    !(out->v = calloc(mev_history_release_count(h) + 1, sizeof *out->v))))
		rc = mev_error_oom();
	if (!rc)
		rc = load_renames(&ren, h);
	cur = out->title;
	for (size_t r = 0; r < mev_history_release_count(h) && !rc; r++) {
		mev_section_release *sr = &out->v[out->n++];
		const char *to = r && prev ? renamed_to(&ren, mev_history_release(h, r - 1)->tag,
							mev_history_release(h, r)->tag, cur)
					   : NULL;
		if (to) {
			cur = to;
			sr->changed |= MEV_PATH_RENAMED;
		}
		if ((rc = section_release(sr, a, h, r, &gs, cur)))
			break;
		if (sr->present && !(sr->title = keep(a, cur, &oom)))
			rc = mev_error_oom();
		if (!sr->present) {
			prev = NULL;
			continue;
		}
		if (!prev)
			sr->changed |= MEV_PATH_NEW;
		else if (prev->lineage != sr->lineage || (sr->lineage < 0 && prev->cluster >= 0 && sr->cluster >= 0 &&
							  strcmp(prev->representative, sr->representative)))
			sr->changed |= MEV_PATH_LINEAGE;
		prev = sr;
	}
	mev_section_change_list_free(&ren);
	graphs_free(&gs);
	mev_history_free(own);
	return rc;
}

void mev_section_history_free(mev_section_history *h)
{
	if (!h)
		return;
	if (h->mem_) {
		mev__arena_free(h->mem_);
		free(h->mem_);
	}
	free(h->v);
	free(h->title);
	memset(h, 0, sizeof *h);
}
