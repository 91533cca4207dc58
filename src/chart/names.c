/* The lineage chart's names: what a lineage's cluster is called at each release, and where that changes for good. */
#include "chart_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

#include <stdlib.h>
#include <string.h>

/*
 * A lineage's stable name is its first cluster's name, with " (TAG)" (its
 * first release) when an older lineage had that name (docs/tracking.md,
 * "Names").  A cluster called by that name shows the stable name, so a
 * lineage that keeps its name reads as it always did.
 */
static int is_stable(const mev_lineage *l, const char *display)
{
	size_t n = strlen(display), t = strlen(l->first_release);
	if (strcmp(display, l->name) == 0)
		return 1;
	return strncmp(l->name, display, n) == 0 && l->name[n] == ' ' && l->name[n + 1] == '(' &&
	       strncmp(l->name + n + 2, l->first_release, t) == 0 && strcmp(l->name + n + 2 + t, ")") == 0;
}

/* The display name of cluster k's representative in model release r. */
static int display_of(const char **out, const mev__chart_model *m, mev_release_names *names, size_t r,
		      uint32_t k)
{
	const mev_clustering *c = mev_history_clustering(m->h, m->rel[r]);
	const char *rep = mev_clustering_title(c, mev_clustering_representative(c, k));
	return mev_release_display(out, names, mev_history_release(m->h, m->rel[r])->tag, rep);
}

/* Lineage li is called `display` at model release r: its run goes on, or a new one starts. */
static int name_seen(mev__chart_model *m, uint32_t *last, uint32_t li, uint32_t r, const char *display)
{
	const mev_lineage *hl = &mev_history_lineages(m->h)->v[li];
	const char *name = is_stable(hl, display) ? m->lin[li].name : display;
	mev__chart_name run = { li, r, 1, NULL };
	if (last[li] && strcmp(m->names.v[last[li] - 1].name, name) == 0) {
		m->names.v[last[li] - 1].len++;
		return 0;
	}
	run.name = name == m->lin[li].name ? name : mev__arena_strndup(&m->arena, name, strlen(name));
	if (!run.name || MEV_VEC_PUSH(&m->names, run))
		return mev_error_oom();
	last[li] = (uint32_t)m->names.n;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	const mev__chart_name *x = a, *y = b;
	if (x->lineage != y->lineage)
		return (x->lineage > y->lineage) - (x->lineage < y->lineage);
	return (x->rel > y->rel) - (x->rel < y->rel);
}

/* Each lineage's runs of names, and the name it holds for good at its end. */
static void names_index(mev__chart_model *m)
{
	mev__sort(m->names.v, m->names.n, sizeof *m->names.v, name_cmp);
	for (size_t i = m->names.n; i-- > 0;) {
		mev__chart_lineage *l = &m->lin[m->names.v[i].lineage];
		l->name0 = (uint32_t)i;
		l->nname++;
	}
	for (size_t i = 0; i < m->names.n; i++) {
		mev__chart_lineage *l = &m->lin[m->names.v[i].lineage];
		if (i == l->name0 || mev__chart_name_changes(m, i))
			l->now = m->names.v[i].name == l->name ? NULL : m->names.v[i].name;
	}
}

int mev__chart_names_load(mev__chart_model *m)
{
	mev_release_names *names = NULL;
	uint32_t *last = calloc(m->nlin + 1, sizeof *last), *seen = calloc(m->nlin + 1, sizeof *seen);
	int rc = !last || !seen ? mev_error_oom() : mev_release_names_new(&names, mev_history_store(m->h));
	for (size_t r = 0; r < m->nrel && !rc; r++) {
		size_t nc = mev_clustering_count(mev_history_clustering(m->h, m->rel[r]));
		for (uint32_t k = 0; k < nc && !rc; k++) {
			int64_t id = mev_history_cluster_lineage(m->h, m->rel[r], k);
			uint32_t li = id > 0 && (uint64_t)id <= m->max_id ? m->lin_of_id[id] : 0;
			const char *display;
			/* a lineage's first cluster by number names it, as in 'export all' */
			if (!li-- || seen[li] == r + 1)
				continue;
			seen[li] = (uint32_t)r + 1;
			if (!(rc = display_of(&display, m, names, r, k)))
				rc = name_seen(m, last, li, (uint32_t)r, display);
		}
	}
	if (!rc)
		names_index(m);
	mev_release_names_free(names);
	free(last);
	free(seen);
	return rc;
}

const char *mev__chart_name_at(const mev__chart_model *m, uint32_t li, size_t r)
{
	const mev__chart_lineage *l = &m->lin[li];
	const char *name = l->name;
	for (uint32_t i = l->name0; i < l->name0 + l->nname && m->names.v[i].rel <= r; i++)
		name = m->names.v[i].name;
	return name;
}

int mev__chart_name_changes(const mev__chart_model *m, size_t i)
{
	const mev__chart_name *n = &m->names.v[i];
	size_t first = m->lin[n->lineage].name0;
	if (i == first || n->len < MEV__CHART_NAME_HOLDS)
		return 0;
	/* the name held for good before: the last run that held, or the first */
	for (size_t k = i; k-- > first;)
		if (k == first || m->names.v[k].len >= MEV__CHART_NAME_HOLDS)
			return strcmp(m->names.v[k].name, n->name) != 0;
	return 0;
}
