/* The lineage chart's model: releases, lineages, their sizes, the flows between them, sections and paths, from one snapshot. */
#include "chart_internal.h"
#include "maintevo/error.h"
#include "maintevo/filemap.h"
#include "maintevo/release.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One release's file table, read as clusters and lineages per section set. */
typedef struct {
	mev_filemap *fm;
	uint32_t *set_off;       /* per set: its clusters at cl[set_off[i]..set_off[i+1]) */
	MEV_VEC(uint32_t) cl;
	uint32_t *lin_off;       /* per set: its lineage ids at lins[...] */
	MEV_VEC(uint32_t) lins;
	uint32_t *pid;           /* per row: its path in m->paths */
	uint32_t ncl;
} rel_files;

static void rel_files_free(rel_files *f)
{
	mev_filemap_free(f->fm);
	free(f->set_off);
	free(f->lin_off);
	free(f->pid);
	MEV_VEC_FREE(&f->cl);
	MEV_VEC_FREE(&f->lins);
	memset(f, 0, sizeof *f);
}

const mev__chart_node *mev__chart_node_of(const mev__chart_model *m, size_t r, uint32_t li)
{
	/* nodes are sorted by lineage index: a binary search */
	size_t lo = 0, hi = m->nodes[r].n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (m->nodes[r].v[mid].lineage < li)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nodes[r].n && m->nodes[r].v[lo].lineage == li ? &m->nodes[r].v[lo] : NULL;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static int node_cmp(const void *a, const void *b)
{
	const mev__chart_node *x = a, *y = b;
	return (x->lineage > y->lineage) - (x->lineage < y->lineage);
}

/* Sorted, without repeats; returns the new count. */
static size_t uniq(uint32_t *v, size_t n)
{
	size_t k = 0;
	mev__sort(v, n, sizeof *v, u32_cmp);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

/* The lineage index of cluster k of history release hi, or UINT32_MAX. */
static uint32_t lin_index(const mev__chart_model *m, size_t hi, uint32_t k)
{
	int64_t id = mev_history_cluster_lineage(m->h, hi, k);
	if (id <= 0 || (uint64_t)id > m->max_id || !m->lin_of_id[id])
		return UINT32_MAX;
	return m->lin_of_id[id] - 1;
}

/* Read release r's file table: the clusters and lineages of each section set. */
static int files_read(mev__chart_model *m, size_t r, rel_files *f)
{
	size_t hi = m->rel[r];
	const mev_section_info *si;
	size_t nsec, nset, nrow;
	const mev_file_row *rows;
	int64_t *sec_cl = NULL;
	int rc = mev_release_load_filemap(&f->fm, mev_history_store(m->h),
					  mev_history_release(m->h, hi)->tag);
	if (rc)
		return rc;
	f->ncl = (uint32_t)mev_clustering_count(mev_history_clustering(m->h, hi));
	nsec = mev_filemap_section_count(f->fm);
	si = mev_filemap_sections(f->fm);
	nset = mev_filemap_set_count(f->fm);
	nrow = mev_filemap_count(f->fm);
	rows = mev_filemap_rows(f->fm);
	sec_cl = malloc((nsec + 1) * sizeof *sec_cl);
	f->set_off = malloc((nset + 2) * sizeof *f->set_off);
	f->lin_off = malloc((nset + 2) * sizeof *f->lin_off);
	f->pid = malloc((nrow + 1) * sizeof *f->pid);
	if (!sec_cl || !f->set_off || !f->lin_off || !f->pid) {
		free(sec_cl);
		return mev_error_oom();
	}
	for (size_t i = 0; i < nsec; i++)
		sec_cl[i] = mev_history_cluster_of(m->h, hi, si[i].title);
	for (size_t set = 0; set < nset && !rc; set++) {
		const uint32_t *ids;
		size_t n = set ? mev_filemap_set(&ids, f->fm, (uint32_t)set) : 0, c0 = f->cl.n, l0;
		f->set_off[set] = (uint32_t)c0;
		f->lin_off[set] = (uint32_t)f->lins.n;
		for (size_t i = 0; i < n && !rc; i++)
			if (ids[i] < nsec && sec_cl[ids[i]] >= 0)
				rc = MEV_VEC_PUSH(&f->cl, (uint32_t)sec_cl[ids[i]]);
		if (rc)
			break;
		f->cl.n = c0 + uniq(f->cl.v + c0, f->cl.n - c0);
		l0 = f->lins.n;
		for (size_t i = c0; i < f->cl.n && !rc; i++) {
			uint32_t li = lin_index(m, hi, f->cl.v[i]);
			if (li != UINT32_MAX)
				rc = MEV_VEC_PUSH(&f->lins, m->lin[li].id);
		}
		f->lins.n = l0 + uniq(f->lins.v + l0, f->lins.n - l0);
	}
	free(sec_cl);
	if (rc)
		return mev_error_oom();
	f->set_off[nset] = (uint32_t)f->cl.n;
	f->lin_off[nset] = (uint32_t)f->lins.n;
	for (size_t i = 0; i < nrow; i++) {
		uint32_t pid;
		int added;
		if (mev__strmap_intern(&m->path_index, rows[i].path, rows[i].path_len,
				       (uint32_t)m->paths.n, &pid, &added))
			return mev_error_oom();
		if (added) {
			const char *key = mev__arena_strndup(&m->arena, rows[i].path, rows[i].path_len);
			if (!key || MEV_VEC_PUSH(&m->paths, key))
				return mev_error_oom();
		}
		f->pid[i] = pid;
	}
	return 0;
}

/* A path's lineages from release r on, when they differ from its last run. */
static int path_run(mev__chart_model *m, uint32_t **last, size_t *cap, uint32_t pid, uint32_t r,
		    const uint32_t *ids, size_t n)
{
	mev__chart_pathrun run;
	if (pid >= *cap) {
		size_t nc = (pid + 1) * 2;
		uint32_t *v = realloc(*last, nc * sizeof *v);
		if (!v)
			return mev_error_oom();
		memset(v + *cap, 0, (nc - *cap) * sizeof *v);
		*last = v;
		*cap = nc;
	}
	if ((*last)[pid]) {
		const mev__chart_pathrun *p = &m->pathruns.v[(*last)[pid] - 1];
		if (p->n == n && memcmp(m->pool.v + p->off, ids, n * sizeof *ids) == 0)
			return 0;
	} else if (n == 0) {
		return 0;
	}
	run.path = pid;
	run.rel = r;
	run.off = (uint32_t)m->pool.n;
	run.n = (uint32_t)n;
	for (size_t i = 0; i < n; i++)
		if (MEV_VEC_PUSH(&m->pool, ids[i]))
			return mev_error_oom();
	if (MEV_VEC_PUSH(&m->pathruns, run))
		return mev_error_oom();
	(*last)[pid] = (uint32_t)m->pathruns.n;
	return 0;
}

/* The path runs of release r: its files' lineages, and the files of the release before gone. */
static int paths_of(mev__chart_model *m, const rel_files *prev, const rel_files *cur, uint32_t r,
		    uint32_t **last, size_t *cap, uint8_t **seen, size_t *seen_cap)
{
	size_t nrow = mev_filemap_count(cur->fm);
	const mev_file_row *rows = mev_filemap_rows(cur->fm);
	int rc = 0;
	if (m->paths.n > *seen_cap) {
		uint8_t *v = realloc(*seen, m->paths.n);
		if (!v)
			return mev_error_oom();
		*seen = v;
		*seen_cap = m->paths.n;
	}
	memset(*seen, 0, *seen_cap);
	for (size_t i = 0; i < nrow && !rc; i++) {
		uint32_t set = rows[i].set;
		(*seen)[cur->pid[i]] = 1;
		rc = path_run(m, last, cap, cur->pid[i], r, cur->lins.v + cur->lin_off[set],
			      cur->lin_off[set + 1] - cur->lin_off[set]);
	}
	for (size_t i = 0; prev && prev->fm && i < mev_filemap_count(prev->fm) && !rc; i++)
		if (!(*seen)[prev->pid[i]])
			rc = path_run(m, last, cap, prev->pid[i], r, NULL, 0);
	return rc;
}

/* Files of each cluster of a release, and files in common between clusters of two. */
static int count_files(const rel_files *prev, const rel_files *cur, uint64_t *files,
		       uint32_t *pair, uint32_t **where, size_t *where_cap, size_t npaths)
{
	size_t nrow = mev_filemap_count(cur->fm);
	const mev_file_row *rows = mev_filemap_rows(cur->fm);
	for (size_t i = 0; i < nrow; i++)
		for (uint32_t j = cur->set_off[rows[i].set]; j < cur->set_off[rows[i].set + 1]; j++)
			files[cur->cl.v[j]]++;
	if (!prev || !prev->fm || !pair)
		return 0;
	if (npaths > *where_cap) {
		uint32_t *v = realloc(*where, npaths * sizeof *v);
		if (!v)
			return mev_error_oom();
		*where = v;
		*where_cap = npaths;
	}
	memset(*where, 0, *where_cap * sizeof **where);
	{
		const mev_file_row *prow = mev_filemap_rows(prev->fm);
		for (size_t i = 0; i < mev_filemap_count(prev->fm); i++)
			(*where)[prev->pid[i]] = prow[i].set + 1;
	}
	for (size_t i = 0; i < nrow; i++) {
		uint32_t ps = (*where)[cur->pid[i]], cs = rows[i].set;
		if (!ps--)
			continue;
		for (uint32_t a = prev->set_off[ps]; a < prev->set_off[ps + 1]; a++)
			for (uint32_t b = cur->set_off[cs]; b < cur->set_off[cs + 1]; b++)
				pair[(size_t)prev->cl.v[a] * cur->ncl + cur->cl.v[b]]++;
	}
	return 0;
}

/* The lineages, their ids and their order. */
static int lineages_read(mev__chart_model *m)
{
	const mev_lineage_list *ll = mev_history_lineages(m->h);
	m->nlin = ll->n;
	for (size_t i = 0; i < ll->n; i++)
		if (ll->v[i].id > m->max_id)
			m->max_id = ll->v[i].id;
	m->lin = calloc(ll->n + 1, sizeof *m->lin);
	m->lin_of_id = calloc(m->max_id + 1, sizeof *m->lin_of_id);
	if (!m->lin || !m->lin_of_id)
		return mev_error_oom();
	for (size_t i = 0; i < ll->n; i++) {
		mev__chart_lineage *l = &m->lin[i];
		l->id = ll->v[i].id;
		l->name = ll->v[i].name;
		l->parent = ll->v[i].parent;
		l->first = l->last = -1;
		m->lin_of_id[l->id] = (uint32_t)i + 1;
	}
	return 0;
}

/* The model releases: the tracked ones between from and to. */
static int releases_pick(mev__chart_model *m, const char *from, const char *to)
{
	size_t a, b;
	int64_t lo, hi;
	int rc = mev_release_range(&a, &b, mev_history_store(m->h), mev_history_releases(m->h),
				   mev_history_release_count(m->h), from, to, 0);
	if (rc)
		return rc;
	lo = (int64_t)a;
	hi = mev_history_release_count(m->h) ? (int64_t)b : -1;
	if (!(m->rel = calloc(mev_history_release_count(m->h) + 1, sizeof *m->rel)) ||
	    !(m->nodes = calloc(mev_history_release_count(m->h) + 1, sizeof *m->nodes)))
		return mev_error_oom();
	for (int64_t i = lo; i <= hi; i++) {
		const mev_clustering *c = mev_history_clustering(m->h, (size_t)i);
		int known = 0;
		for (size_t k = 0; c && k < mev_clustering_count(c); k++)
			known |= mev_history_cluster_lineage(m->h, (size_t)i, (uint32_t)k) > 0;
		if (known)
			m->rel[m->nrel++] = (uint32_t)i;
	}
	return 0;
}

/* The nodes of release r (files: per cluster, NULL when unknown) and its sections' runs. */
static int nodes_of(mev__chart_model *m, size_t r, const uint64_t *files)
{
	size_t hi = m->rel[r];
	const mev_clustering *c = mev_history_clustering(m->h, hi);
	size_t nc = mev_clustering_count(c), ns = mev_clustering_section_count(c);
	for (uint32_t k = 0; k < nc; k++) {
		uint32_t li = lin_index(m, hi, k);
		mev__chart_node n = { 0 };
		if (li == UINT32_MAX)
			continue;
		n.lineage = li;
		n.cluster = k;
		n.v[MEV_CHART_LINES] = mev_history_cluster_lines(m->h, hi, k);
		n.v[MEV_CHART_FILES] = files ? files[k] : 0;
		n.v[MEV_CHART_SECTIONS] = mev_clustering_size(c, k);
		if (MEV_VEC_PUSH(&m->nodes[r], n))
			return mev_error_oom();
	}
	mev__sort(m->nodes[r].v, m->nodes[r].n, sizeof *m->nodes[r].v, node_cmp);
	for (size_t i = 0; i < m->nodes[r].n; i++) {
		mev__chart_node *n = &m->nodes[r].v[i];
		mev__chart_lineage *l = &m->lin[n->lineage];
		if (l->first < 0)
			l->first = (int32_t)r;
		l->last = (int32_t)r;
		for (int k = 0; k < MEV_CHART_MEASURES; k++) {
			l->area[k] += n->v[k];
			if (n->v[k] > l->peak[k])
				l->peak[k] = n->v[k];
		}
	}
	for (uint32_t s = 0; s < ns; s++) {
		uint32_t k = mev_clustering_of(c, s), li, idx;
		const char *t = mev_clustering_title(c, s);
		char key[8 + 4096];
		size_t tl = strlen(t), kl;
		int added;
		mev__chart_secrun *run;
		if (k == MEV_CLUSTER_NONE || (li = lin_index(m, hi, k)) == UINT32_MAX)
			continue;
		if (tl > 4096)
			tl = 4096;
		memcpy(key, &li, 4);
		memcpy(key + 4, t, tl);
		kl = 4 + tl;
		if (mev__strmap_intern(&m->sec_index, key, kl, (uint32_t)m->secs.n, &idx, &added))
			return mev_error_oom();
		if (added) {
			mev__chart_secrun nr = { 0 };
			nr.lineage = li;
			nr.title = mev__arena_strndup(&m->arena, t, strlen(t));
			if (!nr.title || MEV_VEC_PUSH(&m->secs, nr))
				return mev_error_oom();
		}
		run = &m->secs.v[idx];
		if (run->span.n && run->span.v[run->span.n - 1] + 1 == r)
			run->span.v[run->span.n - 1] = (uint32_t)r;
		else if (MEV_VEC_PUSH(&run->span, (uint32_t)r) || MEV_VEC_PUSH(&run->span, (uint32_t)r))
			return mev_error_oom();
	}
	return 0;
}

/* Sections in common between the clusters of releases r - 1 and r. */
static void count_sections(const mev__chart_model *m, size_t r, uint32_t *pair)
{
	size_t hp = m->rel[r - 1], hc = m->rel[r];
	const mev_clustering *pc = mev_history_clustering(m->h, hp);
	size_t nc = mev_clustering_count(mev_history_clustering(m->h, hc));
	for (uint32_t s = 0; s < mev_clustering_section_count(pc); s++) {
		uint32_t a = mev_clustering_of(pc, s);
		int64_t b;
		if (a == MEV_CLUSTER_NONE)
			continue;
		b = mev_history_cluster_of(m->h, hc, mev_clustering_title(pc, s));
		if (b >= 0)
			pair[(size_t)a * nc + (size_t)b]++;
	}
}

/* The flow of event e, which ends in model release r: its lineages and sizes. */
static int flow_of(mev__chart_model *m, size_t r, uint32_t e, const uint32_t *pfiles,
		   const uint32_t *psecs)
{
	const mev_event *ev = &mev_history_events(m->h)->v[e];
	size_t hp = m->rel[r - 1], hc = m->rel[r];
	size_t nc = mev_clustering_count(mev_history_clustering(m->h, hc));
	mev__chart_flow f = { 0 };
	const mev__chart_node *n;
	uint32_t li;
	f.rel = (uint32_t)r;
	f.event = e;
	f.files = pfiles ? 0 : -1;
	if (ev->kind == MEV_EVENT_BIRTH || ev->kind == MEV_EVENT_DEATH) {
		int birth = ev->kind == MEV_EVENT_BIRTH;
		if (ev->lineage > m->max_id || !(li = m->lin_of_id[ev->lineage]))
			return 0;
		n = mev__chart_node_of(m, birth ? r : r - 1, li - 1);
		if (birth)
			f.to = ev->lineage;
		else
			f.from = ev->lineage;
		if (!birth && ev->partner_lineage && !m->lin[li - 1].into)
			m->lin[li - 1].into = ev->partner_lineage;
		if (n)
			memcpy(f.v, n->v, sizeof f.v);
		if (n && pfiles)
			f.files = (int64_t)n->v[MEV_CHART_FILES];
	} else {
		int64_t a = mev_history_cluster_named(m->h, hp, ev->from_cluster);
		int64_t b = mev_history_cluster_named(m->h, hc, ev->to_cluster);
		f.from = ev->from_lineage;
		f.to = ev->lineage;
		if (isnan(ev->share) || ev->from_lines < 0)
			f.v[MEV_CHART_LINES] = (uint64_t)(ev->from_lines < ev->to_lines ? ev->from_lines
										: ev->to_lines);
		else
			f.v[MEV_CHART_LINES] = (uint64_t)llround(ev->share * (double)ev->from_lines);
		if (a >= 0 && b >= 0) {
			size_t at = (size_t)a * nc + (size_t)b;
			f.v[MEV_CHART_SECTIONS] = psecs[at];
			if (pfiles)
				f.v[MEV_CHART_FILES] = pfiles[at];
			f.files = pfiles ? (int64_t)pfiles[at] : -1;
		}
		if (ev->kind == MEV_EVENT_MERGE && f.from != f.to && f.from <= m->max_id &&
		    (li = m->lin_of_id[f.from]))
			m->lin[li - 1].into = f.to;
	}
	return MEV_VEC_PUSH(&m->flows, f) ? mev_error_oom() : 0;
}

static int flow_cmp(const void *a, const void *b)
{
	const mev__chart_flow *x = a, *y = b;
	if (x->rel != y->rel)
		return (x->rel > y->rel) - (x->rel < y->rel);
	if (x->from != y->from)
		return (x->from > y->from) - (x->from < y->from);
	if (x->to != y->to)
		return (x->to > y->to) - (x->to < y->to);
	return (x->event > y->event) - (x->event < y->event);
}

/* Per event: the model release it ends in (-1: outside, or not between neighbours). */
static int events_place(mev__chart_model *m, uint32_t **by_rel, uint32_t **start)
{
	mev_strmap tags = MEV_STRMAP_INIT;
	size_t ne = mev_history_events(m->h)->n;
	int rc = 0;
	int32_t *at = malloc((ne + 1) * sizeof *at);
	*by_rel = malloc((ne + 1) * sizeof **by_rel);
	*start = calloc(m->nrel + 2, sizeof **start);
	if (!at || !*by_rel || !*start) {
		free(at);
		return mev_error_oom();
	}
	for (size_t r = 0; r < m->nrel && !rc; r++) {
		const char *t = mev_history_release(m->h, m->rel[r])->tag;
		rc = mev__strmap_put(&tags, t, strlen(t), (uint32_t)r);
	}
	for (size_t e = 0; e < ne && !rc; e++) {
		const mev_event *ev = &mev_history_events(m->h)->v[e];
		int64_t fr = mev__strmap_get(&tags, ev->from_release, strlen(ev->from_release));
		int64_t tr = mev__strmap_get(&tags, ev->to_release, strlen(ev->to_release));
		at[e] = fr >= 0 && tr == fr + 1 ? (int32_t)tr : -1;
		if (at[e] >= 0)
			(*start)[at[e] + 1]++;
	}
	for (size_t r = 0; r < m->nrel; r++)
		(*start)[r + 1] += (*start)[r];
	{
		uint32_t *fill = calloc(m->nrel + 1, sizeof *fill);
		if (!fill)
			rc = MEV_ENOMEM;
		for (size_t e = 0; e < ne && !rc; e++)
			if (at[e] >= 0)
				(*by_rel)[(*start)[at[e]] + fill[at[e]]++] = (uint32_t)e;
		free(fill);
	}
	free(at);
	mev__strmap_free(&tags);
	return rc ? mev_error_oom() : 0;
}

/* Release by release: file tables, nodes, sections, paths and the flows into it. */
static int model_walk(mev__chart_model *m, unsigned need)
{
	rel_files prev = { 0 }, cur = { 0 };
	uint32_t *by_rel = NULL, *start = NULL, *last = NULL, *where = NULL;
	size_t last_cap = 0, where_cap = 0, seen_cap = 0;
	uint8_t *seen = NULL;
	int rc;
	m->has_files = (need & MEV__CHART_FILES) != 0;
	for (size_t r = 0; r < m->nrel; r++)
		m->has_files &= mev_history_release(m->h, m->rel[r])->has_files != 0;
	if ((rc = events_place(m, &by_rel, &start)))
		goto done;
	for (size_t r = 0; r < m->nrel && !rc; r++) {
		size_t nc = mev_clustering_count(mev_history_clustering(m->h, m->rel[r]));
		size_t np = r ? mev_clustering_count(mev_history_clustering(m->h, m->rel[r - 1])) : 0;
		uint64_t *files = calloc(nc + 1, sizeof *files);
		uint32_t *pfiles = r && m->has_files ? calloc(np * nc + 1, sizeof *pfiles) : NULL;
		uint32_t *psecs = r ? calloc(np * nc + 1, sizeof *psecs) : NULL;
		if (!files || (r && m->has_files && !pfiles) || (r && !psecs))
			rc = mev_error_oom();
		if (!rc && m->has_files && !(rc = files_read(m, r, &cur))) {
			rc = count_files(r ? &prev : NULL, &cur, files, pfiles, &where, &where_cap,
					 m->paths.n);
			if (!rc && (need & MEV__CHART_PATHS) == MEV__CHART_PATHS)
				rc = paths_of(m, r ? &prev : NULL, &cur, (uint32_t)r, &last, &last_cap,
					      &seen, &seen_cap);
		}
		if (!rc)
			rc = nodes_of(m, r, m->has_files ? files : NULL);
		if (!rc && r) {
			count_sections(m, r, psecs);
			for (uint32_t i = start[r]; i < start[r + 1] && !rc; i++)
				rc = flow_of(m, r, by_rel[i], pfiles, psecs);
		}
		free(files);
		free(pfiles);
		free(psecs);
		rel_files_free(&prev);
		prev = cur;
		memset(&cur, 0, sizeof cur);
	}
	if (!rc)
		mev__sort(m->flows.v, m->flows.n, sizeof *m->flows.v, flow_cmp);
done:
	rel_files_free(&prev);
	rel_files_free(&cur);
	free(by_rel);
	free(start);
	free(last);
	free(where);
	free(seen);
	return rc;
}

int mev__chart_model_load(mev__chart_model *m, mev_store *s, mev_history *history, const char *from,
			  const char *to, unsigned need)
{
	int rc;
	memset(m, 0, sizeof *m);
	if ((rc = mev_history_use(&m->h, &m->own, s, history, NULL,
				  MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS))) {
		m->h = NULL; /* not read: mev_chart_flows() tells */
		return rc;
	}
	if (mev_history_release_count(m->h) == 0) {
		rc = mev_error_set(MEV_ENOTFOUND, "the store holds no release");
		mev_error_hint("walk a repository into it first: 'maintevo walk --repo DIR --store DIR'");
		return rc;
	}
	if (!mev_history_tracked(m->h)) {
		rc = mev_error_set(MEV_ENOTFOUND, "the store is not tracked: no lineages to chart");
		mev_error_hint("run 'maintevo track --store DIR' first");
		return rc;
	}
	if ((rc = lineages_read(m)) || (rc = releases_pick(m, from, to)))
		return rc;
	if (m->nrel < 2) {
		rc = mev_error_set(MEV_ENOTFOUND, "a chart needs two tracked releases or more; %s %zu",
				   from || to ? "the range holds" : "the store holds", m->nrel);
		mev_error_hint(mev_history_release_count(m->h) < 2
				       ? "walk more releases into the store ('maintevo walk')"
				       : "widen --from/--to, or run 'maintevo track' after a walk");
		return rc;
	}
	return model_walk(m, need);
}

void mev__chart_model_free(mev__chart_model *m)
{
	for (size_t r = 0; m->nodes && r < m->nrel; r++)
		MEV_VEC_FREE(&m->nodes[r]);
	free(m->nodes);
	free(m->rel);
	free(m->lin);
	free(m->lin_of_id);
	MEV_VEC_FREE(&m->flows);
	for (size_t i = 0; i < m->secs.n; i++)
		MEV_VEC_FREE(&m->secs.v[i].span);
	MEV_VEC_FREE(&m->secs);
	MEV_VEC_FREE(&m->paths);
	MEV_VEC_FREE(&m->pathruns);
	MEV_VEC_FREE(&m->pool);
	MEV_VEC_FREE(&m->names);
	mev__arena_free(&m->arena);
	mev__strmap_free(&m->sec_index);
	mev__strmap_free(&m->path_index);
	free(m->unread);
	mev_history_free(m->own);
	memset(m, 0, sizeof *m);
}
