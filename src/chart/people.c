/* The listed people of the page's lineage panel: each person once, each section's people as runs of releases. */
/*
 * The rows come from the caller (the CLI reads them with
 * mev_export_listed_rows(): export is above chart, so the chart takes the
 * rows it is given and reads no activity itself).  A row is kept when its
 * release is drawn and its section belongs to a lineage there; it is
 * written against the section's record in "sections" (so its lineage), and
 * only where its state or last date changes: a person listed for 78
 * releases without doing anything is one triple, not 78.
 */
#include "chart_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	uint32_t sec, person, rel;
	const mev_chart_person *row;
} listed;

typedef MEV_VEC(listed) listed_vec;

static int listed_cmp(const void *pa, const void *pb)
{
	const listed *p = pa, *q = pb;
	int c;
	if (p->sec != q->sec)
		return p->sec < q->sec ? -1 : 1;
	if (p->person != q->person)
		return p->person < q->person ? -1 : 1;
	if ((c = strcmp(p->row->role, q->row->role)))
		return c;
	return p->rel < q->rel ? -1 : p->rel > q->rel;
}

/* The index in m->secs of the record of `title` whose spans hold release
 * r, following next[] from first (UINT32_MAX: none). */
static uint32_t secrun_at(const mev__chart_model *m, const uint32_t *next, int64_t first, uint32_t r)
{
	for (int64_t i = first; i >= 0 && (uint32_t)i != UINT32_MAX; i = next[i]) {
		const mev__chart_secrun *s = &m->secs.v[i];
		for (size_t k = 0; k + 1 < s->span.n; k += 2)
			if (s->span.v[k] <= r && r <= s->span.v[k + 1])
				return (uint32_t)i;
	}
	return UINT32_MAX;
}

/* The rows of the releases and sections drawn, with their section record
 * and person; the people, each once, written as "people". */
static int collect(listed_vec *out, mev_json *j, const mev__chart_model *m, const mev_chart_options *opt)
{
	mev_strmap rels = MEV_STRMAP_INIT, titles = MEV_STRMAP_INIT, people = MEV_STRMAP_INIT;
	uint32_t *next = malloc((m->secs.n + 1) * sizeof *next), npeople = 0, v;
	int rc = next ? 0 : -1, added;
	for (size_t r = 0; r < m->nrel && !rc; r++) {
		const char *tag = mev_history_release(m->h, m->rel[r])->tag;
		rc = mev__strmap_put(&rels, tag, strlen(tag), (uint32_t)r);
	}
	/* each title's records chained from the last one added */
	for (size_t i = 0; i < m->secs.n && !rc; i++) {
		const char *t = m->secs.v[i].title;
		int64_t prev = mev__strmap_get(&titles, t, strlen(t));
		next[i] = prev < 0 ? UINT32_MAX : (uint32_t)prev;
		rc = mev__strmap_put(&titles, t, strlen(t), (uint32_t)i);
	}
	mev_json_newline(j);
	mev_json_key(j, "people");
	mev_json_array(j);
	for (size_t i = 0; i < opt->n_people && !rc; i++) {
		const mev_chart_person *p = &opt->people[i];
		int64_t r = mev__strmap_get(&rels, p->release, strlen(p->release));
		uint32_t sec = r < 0 ? UINT32_MAX
				     : secrun_at(m, next, mev__strmap_get(&titles, p->section, strlen(p->section)),
						 (uint32_t)r);
		char key[512];
		int len;
		if (sec == UINT32_MAX)
			continue;
		len = snprintf(key, sizeof key, "%s%c%s", p->name ? p->name : "", 0, p->entry);
		if (len < 0 || (size_t)len >= sizeof key)
			len = (int)sizeof key - 1;
		if (mev__strmap_intern(&people, key, (size_t)len, npeople, &v, &added) ||
		    MEV_VEC_PUSH(out, ((listed){ sec, v, (uint32_t)r, p }))) {
			rc = -1;
			break;
		}
		if (added) {
			npeople++;
			mev_json_newline(j);
			mev_json_array(j);
			mev_json_str(j, p->name ? p->name : "");
			mev_json_str(j, p->entry);
			mev_json_end(j);
		}
	}
	mev_json_end(j);
	mev__strmap_free(&rels);
	mev__strmap_free(&titles);
	mev__strmap_free(&people);
	free(next);
	return rc;
}

static void triple(mev_json *j, uint32_t rel, const char *state, int64_t last)
{
	mev_json_uint(j, rel);
	mev_json_str(j, state);
	if (last == INT64_MIN)
		mev_json_null(j);
	else
		mev_json_int(j, last / 86400); /* days: half the digits of seconds */
}

/* One record per section, person and role: a triple where the state or the
 * last date changes, and "" where the person is no longer listed. */
static void write_listed(mev_json *j, const mev__chart_model *m, const listed *v, size_t n)
{
	mev_json_newline(j);
	mev_json_key(j, "listed");
	mev_json_array(j);
	for (size_t i = 0; i < n;) {
		size_t e = i + 1;
		while (e < n && v[e].sec == v[i].sec && v[e].person == v[i].person &&
		       strcmp(v[e].row->role, v[i].row->role) == 0)
			e++;
		mev_json_newline(j);
		mev_json_array(j);
		mev_json_uint(j, v[i].sec);
		mev_json_uint(j, v[i].person);
		mev_json_str(j, v[i].row->role);
		for (size_t k = i; k < e; k++) {
			const mev_chart_person *p = v[k].row, *q = k > i ? v[k - 1].row : NULL;
			if (q && v[k - 1].rel + 1 < v[k].rel)
				triple(j, v[k - 1].rel + 1, "", INT64_MIN);
			else if (q && strcmp(p->state, q->state) == 0 && p->last_active == q->last_active)
				continue;
			triple(j, v[k].rel, p->state, p->last_active);
		}
		if (v[e - 1].rel + 1 < m->nrel)
			triple(j, v[e - 1].rel + 1, "", INT64_MIN);
		mev_json_end(j);
		i = e;
	}
	mev_json_end(j);
}

int mev__chart_json_people(mev_json *j, const mev__chart_model *m, const mev_chart_options *opt)
{
	listed_vec v = { 0 };
	int rc = collect(&v, j, m, opt);
	if (!rc) {
		if (v.n)
			qsort(v.v, v.n, sizeof *v.v, listed_cmp);
		write_listed(j, m, v.v, v.n);
	}
	MEV_VEC_FREE(&v);
	return rc;
}
