/* Who did what where: the activity index the listed and candidates tables read. */
/*
 * Built from what 'maintevo flow' stores per judged commit (its author,
 * committer and trailer people, folded through .mailmap, and the sections
 * covering the files it touches by its parent's MAINTAINERS) and from the
 * commits before the first release (stored by flow beside it, judged by
 * the first release's MAINTAINERS).  Releases are added in version order;
 * each adds its commits as events (time, person, section, kinds), and the
 * last date of every (section, person) pair and of every person anywhere is
 * kept up to the release added last.  An id is the key flow gives
 * (mev__export_flow_person()), an address; the fold (identity.c) says
 * which ids are one person, and the queries below answer for the person.
 * A section is its title.
 */
#include "export_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

int mev__act_init(mev__activity *a, mev_export_fold fold)
{
	memset(a, 0, sizeof *a);
	a->fold.mode = fold;
	return 0;
}

void mev__act_free(mev__activity *a)
{
	mev__fold_free(&a->fold);
	mev__buf_free(&a->others);
	MEV_VEC_FREE(&a->sorted);
	mev__strmap_free(&a->people);
	mev__strmap_free(&a->sections);
	mev__strmap_free(&a->pairs);
	MEV_VEC_FREE(&a->keys);
	MEV_VEC_FREE(&a->names);
	MEV_VEC_FREE(&a->anywhere);
	MEV_VEC_FREE(&a->pair_last);
	MEV_VEC_FREE(&a->ev);
	mev__arena_free(&a->arena);
	memset(a, 0, sizeof *a);
}

/* The id of the address of flow record p (added and folded when new; the
 * name kept is the one seen last, each name seen folded). */
static int person_id(uint32_t *id, mev__activity *a, const mev_flow_person *p)
{
	const char *key = mev__export_flow_person(p);
	int added, rc;
	if (mev__strmap_intern(&a->people, key, strlen(key), (uint32_t)a->keys.n, id, &added))
		return mev_error_oom();
	if (added) {
		char *k = mev__arena_strndup(&a->arena, key, strlen(key));
		if (!k || MEV_VEC_PUSH(&a->keys, k) || MEV_VEC_PUSH(&a->names, NULL) ||
		    MEV_VEC_PUSH(&a->anywhere, INT64_MIN))
			return mev_error_oom();
		if ((rc = mev__fold_add(&a->fold, *id, k)))
			return rc;
	}
	if (!*p->name || (a->names.v[*id] && strcmp(a->names.v[*id], p->name) == 0))
		return 0;
	if (!(a->names.v[*id] = mev__arena_strndup(&a->arena, p->name, strlen(p->name))))
		return mev_error_oom();
	return mev__fold_name(&a->fold, *id, p->name);
}

/*
 * The length of a title as its MAINTAINERS writes it: without the " #k"
 * the reader adds to a repeated title (maintainers_sections.c), which
 * comes and goes as other sections of the same title do (U-Boot's
 * "SOCRATES BOARD #3" in v2022.04 is "SOCRATES BOARD" in v2026.07).
 * Sections of one written title are one section here.
 */
static size_t written_len(const char *title)
{
	size_t n = strlen(title), k = n;
	while (k > 0 && title[k - 1] >= '0' && title[k - 1] <= '9')
		k--;
	if (k < n && k >= 2 && title[k - 1] == '#' && title[k - 2] == ' ')
		return k - 2;
	return n;
}

uint32_t mev__act_section_of(const mev__activity *a, const char *title)
{
	int64_t v = mev__strmap_get(&a->sections, title, written_len(title));
	return v >= 0 ? (uint32_t)v : UINT32_MAX;
}

/* The id of a title, added when new. */
static int section_id(uint32_t *id, mev__activity *a, const char *title)
{
	int added;
	if (mev__strmap_intern(&a->sections, title, written_len(title), a->n_sections, id, &added))
		return mev_error_oom();
	a->n_sections += added;
	return 0;
}

int64_t mev__act_find(mev__activity *a, const char *addr)
{
	return mev__fold_find(&a->fold, &a->people, addr);
}

/* The people of commit c with what each did, at most cap (merged by person). */
typedef struct {
	uint32_t person;
	uint8_t kinds;
	int64_t time;
} role;

static int add_role(role *v, size_t *n, size_t cap, uint32_t person, uint8_t kind, int64_t t)
{
	for (size_t i = 0; i < *n; i++)
		if (v[i].person == person) {
			v[i].kinds |= kind;
			if (t > v[i].time)
				v[i].time = t;
			return 0;
		}
	if (*n < cap)
		v[(*n)++] = (role){ person, kind, t };
	return 0;
}

static uint8_t trailer_kind(uint8_t k)
{
	switch (k) {
	case MEV_TRAILER_SIGNED_OFF: return MEV_ACT_SIGNED_OFF;
	case MEV_TRAILER_REVIEWED: return MEV_ACT_REVIEWED;
	case MEV_TRAILER_ACKED: return MEV_ACT_ACKED;
	case MEV_TRAILER_TESTED: return MEV_ACT_TESTED;
	default: return 0;
	}
}

/* The roles of c: author (at its author date), committer and trailers (at its commit date). */
static int roles(role *v, size_t *n, size_t cap, mev__activity *a, const mev_flow_release *fr,
		 const mev_flow_commit *c)
{
	uint32_t id;
	int rc;
	*n = 0;
	if ((rc = person_id(&id, a, &fr->people[c->author])))
		return rc;
	add_role(v, n, cap, id, MEV_ACT_AUTHORED, c->author_time);
	if ((rc = person_id(&id, a, &fr->people[c->committer])))
		return rc;
	add_role(v, n, cap, id, MEV_ACT_COMMITTED, c->commit_time);
	for (uint32_t k = 0; k < c->trailer_count; k++) {
		const mev_flow_trailer *t = &fr->trailers[c->trailer_begin + k];
		uint8_t kind = trailer_kind(t->kind);
		if (!kind)
			continue;
		if ((rc = person_id(&id, a, &fr->people[t->value])))
			return rc;
		add_role(v, n, cap, id, kind, c->commit_time);
	}
	return 0;
}

static int one_commit(mev__activity *a, const mev_flow_release *fr, const mev_flow_commit *c)
{
	role v[64];
	const uint32_t *ids;
	size_t n, ns = mev_flow_set(&ids, fr, c->sections);
	int rc = roles(v, &n, 64, a, fr, c);
	for (size_t i = 0; i < n && !rc; i++) {
		if (v[i].time > a->anywhere.v[v[i].person])
			a->anywhere.v[v[i].person] = v[i].time;
		for (size_t k = 0; k < ns && !rc; k++) {
			mev__act_event e = { v[i].time, v[i].person, 0, v[i].kinds };
			if (!(rc = section_id(&e.section, a, fr->strings[ids[k]])) &&
			    MEV_VEC_PUSH(&a->ev, e))
				rc = mev_error_oom();
		}
	}
	return rc;
}

/* Fold the events added since the last call into the last dates of the pairs. */
static int absorb(mev__activity *a)
{
	for (; a->absorbed < a->ev.n; a->absorbed++) {
		const mev__act_event *e = &a->ev.v[a->absorbed];
		uint32_t key[2] = { e->section, e->person }, pos;
		int added;
		if (mev__strmap_intern(&a->pairs, (const char *)key, sizeof key, (uint32_t)a->pair_last.n,
				       &pos, &added) ||
		    (added && MEV_VEC_PUSH(&a->pair_last, INT64_MIN)))
			return mev_error_oom();
		if (e->time > a->pair_last.v[pos])
			a->pair_last.v[pos] = e->time;
	}
	return 0;
}

int mev__act_add(mev__activity *a, const mev_flow_release *fr)
{
	int rc = 0;
	for (size_t i = 0; i < fr->n && !rc; i++)
		rc = one_commit(a, fr, &fr->commits[i]);
	return rc ? rc : absorb(a);
}

/* The last date of id (an address) in section, INT64_MIN when none. */
static int64_t id_last(const mev__activity *a, uint32_t section, uint32_t id)
{
	uint32_t key[2] = { section, id };
	int64_t pos = mev__strmap_get(&a->pairs, (const char *)key, sizeof key);
	return pos < 0 ? INT64_MIN : a->pair_last.v[pos];
}

/* The latest date of the addresses of id's person, in section or (anywhere) in any. */
static int64_t latest(uint32_t *by, const mev__activity *a, uint32_t section, uint32_t id,
		      int anywhere)
{
	int64_t last = INT64_MIN;
	uint32_t m = id;
	*by = id;
	do {
		int64_t t = anywhere ? a->anywhere.v[m] : id_last(a, section, m);
		if (t > last) { /* a tie keeps the earlier: id itself first */
			last = t;
			*by = m;
		}
		m = mev__fold_next(&a->fold, m);
	} while (m != id);
	return last;
}

int64_t mev__act_last(uint32_t *by, const mev__activity *a, uint32_t section, uint32_t id)
{
	return latest(by, a, section, id, 0);
}

int64_t mev__act_anywhere(uint32_t *by, const mev__activity *a, uint32_t id)
{
	return latest(by, a, 0, id, 1);
}

/* A time's UTC calendar fields, by arithmetic (Hinnant's civil_from_days):
 * gmtime_r() takes the time zone lock on every call, and the listed and
 * candidates tables ask for months millions of times. */
typedef struct {
	int64_t year;
	int month, day, second; /* month 1..12, day 1..31, second of the day */
} utc_date;

static utc_date utc_of(int64_t t)
{
	int64_t days = t / 86400, sec = t % 86400, era, doe, yoe, doy, mp;
	utc_date d;
	if (sec < 0) {
		sec += 86400;
		days--;
	}
	days += 719468;
	era = (days >= 0 ? days : days - 146096) / 146097;
	doe = days - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d.day = (int)(doy - (153 * mp + 2) / 5 + 1);
	d.month = (int)(mp < 10 ? mp + 3 : mp - 9);
	d.year = yoe + era * 400 + (d.month <= 2);
	d.second = (int)sec;
	return d;
}

int64_t mev__act_months(int64_t from, int64_t to)
{
	utc_date a = utc_of(from), b = utc_of(to);
	int64_t m = (b.year - a.year) * 12 + (b.month - a.month);
	/* a month is whole when the day and time of day are reached again */
	if (b.day < a.day || (b.day == a.day && b.second < a.second))
		m--;
	return m;
}

static int key_cmp(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

int mev__act_others(const char **out, mev__activity *a, uint32_t id, const char *except)
{
	uint32_t m = id;
	*out = NULL;
	a->sorted.n = 0;
	do {
		if (strcmp(a->keys.v[m], except) != 0 && MEV_VEC_PUSH(&a->sorted, a->keys.v[m]))
			return mev_error_oom();
		m = mev__fold_next(&a->fold, m);
	} while (m != id);
	if (!a->sorted.n)
		return 0;
	mev__export_sort(a->sorted.v, a->sorted.n, sizeof *a->sorted.v, key_cmp);
	mev__buf_clear(&a->others);
	for (size_t i = 0; i < a->sorted.n; i++)
		if ((i && mev__buf_puts(&a->others, " | ")) || mev__buf_puts(&a->others, a->sorted.v[i]))
			return mev_error_oom();
	*out = a->others.ptr;
	return 0;
}
