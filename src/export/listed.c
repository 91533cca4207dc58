/* The listed and candidates tables: are the people MAINTAINERS lists the ones doing the work? */
/*
 * Both read one activity index (activity.c), built release by release in
 * version order, and the M:/R: people of each release's own MAINTAINERS
 * through flow's roster (folded as flow folds people), as the workload
 * table does.  docs/schemas.md, "listed" and "candidates"; docs/people.md.
 */
#include "export_internal.h"
#include "maintevo/error.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_QUIET_MONTHS 12
#define DEFAULT_TOP 3

/* --- --people FILE ------------------------------------------------------------------ */

struct mev__export_handles {
	mev_strmap map;           /* handle (lowercase) -> index of emails */
	MEV_VEC(char *) emails;
};

void mev__export_handles_free(mev__export_handles *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->emails.n; i++)
		free(p->emails.v[i]);
	MEV_VEC_FREE(&p->emails);
	mev__strmap_free(&p->map);
	free(p);
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* One line: "HANDLE ADDRESS" (white space between, nothing after). */
static int people_line(mev__export_handles *p, char *line, const char *path, size_t no)
{
	char *handle, *email, *rest, *save = NULL;
	uint32_t pos;
	int added;
	line[strcspn(line, "#\r\n")] = 0;
	if (!(handle = strtok_r(line, " \t", &save)))
		return 0;
	email = strtok_r(NULL, " \t", &save);
	rest = strtok_r(NULL, " \t", &save);
	if (!email || rest || strchr(handle, '@') || !strchr(email, '@')) {
		int rc = mev_error_set(MEV_EINVAL, "%s:%zu: expected 'HANDLE ADDRESS' (a handle "
				       "without '@', then one address)", path, no);
		mev_error_hint("one entry a line, e.g. 'octocat octo@example.com'; '#' starts a comment");
		return rc;
	}
	lower(handle);
	lower(email);
	if (mev__strmap_intern(&p->map, handle, strlen(handle), (uint32_t)p->emails.n, &pos, &added))
		return mev_error_oom();
	if (!added) {
		int rc = mev_error_set(MEV_EINVAL, "%s:%zu: '%s' is mapped twice", path, no, handle);
		mev_error_hint("give each handle one address");
		return rc;
	}
	{
		char *e = strdup(email);
		if (!e || MEV_VEC_PUSH(&p->emails, e)) {
			free(e);
			return mev_error_oom();
		}
	}
	return 0;
}

int mev__export_handles_read(mev__export_handles **out, const char *path)
{
	FILE *f = fopen(path, "r");
	int open_errno = errno;
	mev__export_handles *p = calloc(1, sizeof *p);
	char *line = NULL;
	size_t cap = 0, no = 0;
	int rc = 0;
	*out = NULL;
	if (!f || !p) {
		free(p);
		if (f) {
			fclose(f);
			return mev_error_oom();
		}
		rc = mev_error_set(MEV_EIO, "cannot read '%s': %s", path, strerror(open_errno));
		mev_error_hint("--people FILE: a file of lines 'HANDLE ADDRESS'");
		return rc;
	}
	while (!rc && getline(&line, &cap, f) >= 0)
		rc = people_line(p, line, path, ++no);
	if (!rc && ferror(f)) { /* a directory opens, then reads nothing but EISDIR */
		rc = mev_error_set(MEV_EIO, "cannot read '%s': %s", path, strerror(errno));
		mev_error_hint("--people FILE: a file of lines 'HANDLE ADDRESS'");
	}
	free(line);
	fclose(f);
	if (rc)
		mev__export_handles_free(p);
	else
		*out = p;
	return rc;
}

int mev_export_people_check(const char *path)
{
	mev__export_handles *p;
	int rc = mev__export_handles_read(&p, path);
	mev__export_handles_free(p);
	return rc;
}

/* The address a listed entry stands for: itself when it is one, the
 * --people mapping of a handle, else NULL (unknown). */
static const char *address_of(const mev__export_ctx *x, const char *entry)
{
	int64_t i;
	if (strchr(entry, '@'))
		return entry;
	if (!x->people || (i = mev__strmap_get(&x->people->map, entry, strlen(entry))) < 0)
		return NULL;
	return x->people->emails.v[i];
}

/* --- the releases in order, each adding its commits ---------------------------------- */

static int quiet_months(const mev__export_ctx *x)
{
	return x->opt->quiet_months > 0 ? x->opt->quiet_months : DEFAULT_QUIET_MONTHS;
}

/* Add what flow stored for release r: for the first release, the history
 * before it.  *from: the time before which the history read is not whole
 * (a shallow clone's cut, MEV_FLOW_CUT_TABLE), the latest so far. */
static int add_release(mev__activity *a, int64_t *from, const mev__export_ctx *x, size_t r)
{
	mev_flow_release *fr = NULL;
	mev_range_cut cut;
	const char *tag = mev_history_release(x->h, r)->tag;
	int rc = mev_flow_load_cut(&cut, x->s, tag, r == 0);
	if (rc)
		return rc;
	if (cut.commits && cut.time > *from)
		*from = cut.time;
	rc = r == 0 ? mev_flow_load_before(&fr, x->s, tag) : mev_flow_load(&fr, x->s, tag);
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		return 0;
	}
	if (!rc)
		rc = mev__act_add(a, fr);
	mev_flow_release_free(fr);
	return rc;
}

/* from: the time before which the history read up to release r is not
 * whole (INT64_MIN: it is whole) */
typedef int (*release_fn)(void *out, const mev__export_ctx *x, mev__activity *a, size_t r,
			  int64_t from, const mev_flow_roster *ro, const mev_filemap *secs,
			  const mev_graph *g);

static int section_cmp(const void *pa, const void *pb)
{
	return strcmp(((const mev_flow_roster_section *)pa)->title,
		      ((const mev_flow_roster_section *)pb)->title);
}

/* Every release (up to --release, rows of that one only) through fn, with
 * its roster (sections sorted by title) and, with `statuses`, its sections
 * and graph (NULL without). */
static int each_release(void *out, const mev__export_ctx *x, release_fn fn, int statuses)
{
	mev__activity a;
	mev__rosters q;
	size_t first, end;
	int64_t from = INT64_MIN;
	int rc = mev__act_init(&a, x->opt->fold);
	mev__export_range(&first, &end, x->h, x->opt->release);
	mev__rosters_init(&q, x->roster, x->h);
	for (size_t r = 0; r < end && !rc; r++) {
		const mev_release *rel = mev_history_release(x->h, r);
		mev_flow_roster ro = { 0 };
		mev_filemap *secs = NULL;
		mev_graph *g = NULL;
		if (r == 0)
			mev__rosters_ahead(&q, first, end); /* while the history is added */
		if ((rc = add_release(&a, &from, x, r)) || r < first || !rel->has_files)
			continue;
		rc = mev__rosters_take(&ro, &q, r);
		mev__rosters_ahead(&q, r + 1, end);
		if (!rc &&
		    !(statuses && (rc = mev_release_load_graph(&secs, &g, x->s, rel->tag, 0)))) {
			mev__export_sort(ro.v, ro.n, sizeof *ro.v, section_cmp);
			rc = fn(out, x, &a, r, from, &ro, secs, g);
		}
		mev_graph_free(g);
		mev_filemap_free(secs);
		mev_flow_roster_free(&ro);
	}
	mev__rosters_drop(&q);
	mev__act_free(&a);
	return rc;
}

/* --- listed ------------------------------------------------------------------------- */

/* The index of the section `title` in secs (NULL: none), or -1. */
static int64_t section_index(const mev_filemap *secs, const char *title)
{
	const mev_section_info *si = secs ? mev_filemap_sections(secs) : NULL;
	for (size_t i = 0; si && i < mev_filemap_section_count(secs); i++)
		if (strcmp(si[i].title, title) == 0)
			return (int64_t)i;
	return -1;
}

static const char *state_seen(int64_t last, int64_t anywhere, int64_t date, int n, const char *addr)
{
	if (!addr)
		return "unknown";
	if (anywhere == INT64_MIN)
		return "never_seen";
	if (mev__act_months(anywhere, date) >= n)
		return "gone";
	if (last == INT64_MIN || mev__act_months(last, date) >= n)
		return "quiet";
	return "active";
}

/*
 * The state, unknown when it rests on months the history read lacks
 * (before `from`, a shallow clone's cut): never seen since the cut, or
 * nothing in the last n months when those reach back before it.  Active
 * needs only what was seen.
 */
static const char *state_of(int64_t last, int64_t anywhere, int64_t date, int n, const char *addr,
			    int64_t from)
{
	const char *st = state_seen(last, anywhere, date, n, addr);
	if (from == INT64_MIN || strcmp(st, "active") == 0)
		return st;
	if (strcmp(st, "never_seen") == 0 || mev__act_months(from, date) < n)
		return "unknown";
	return st;
}

/* One row of the listed table, before it is written or kept. */
typedef struct {
	const char *tag, *title, *entry, *name, *addr, *role, *status, *state;
	int64_t date, last, anywhere; /* last, anywhere: INT64_MIN for none */
	const char *matched_by;   /* how the address of last (else anywhere) is addr's: NULL: none */
	const char *others;       /* the person's other addresses (NULL: none); valid until
				   * the next listed_of() */
	int64_t from;             /* the history read is whole after it (INT64_MIN: all) */
} listed_values;

static int str_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

/* The name the line of entry (role "M" or "R") of s gives, or NULL (a handle, no name). */
static const char *entry_name(const mev_flow_roster_section *s, const char *entry, const char *role)
{
	int m = role[0] == 'M';
	const char *const *v = m ? s->maintainers : s->reviewers;
	const char *const *names = m ? s->maintainer_names : s->reviewer_names;
	size_t n = m ? s->n_maintainers : s->n_reviewers;
	const char *const *at = n && names ? bsearch(entry, v, n, sizeof *v, str_cmp) : NULL;
	return at ? names[at - v] : NULL;
}

/*
 * The id of the person a listed entry of s stands for: its address (or
 * the same address but for a "+tag"), else, for an address the index
 * never saw, a person seen under the full name the entry's line gives
 * (--fold names); -1 when none.  *addr: the entry's address (NULL: none).
 */
static int64_t person_of(const char **addr, const mev__export_ctx *x, mev__activity *a,
			 const mev_flow_roster_section *s, const char *entry, const char *role)
{
	const char *name;
	int64_t id;
	if (!(*addr = address_of(x, entry)))
		return -1;
	if ((id = mev__act_find(a, *addr)) >= 0 || !(name = entry_name(s, entry, role)))
		return id;
	return mev__fold_find_name(&a->fold, name);
}

/* How address `by` (the one whose activity counted) stands for listed address addr. */
static const char *matched_by(mev__activity *a, const char *addr, const char *by, int *rc)
{
	int same = 0;
	if (strcmp(addr, by) == 0)
		return "address";
	if ((*rc = mev__fold_same_address(&a->fold, addr, by, &same)))
		return NULL;
	return same ? "plus" : "name";
}

static listed_values listed_of(const mev__export_ctx *x, mev__activity *a, size_t r,
			       int64_t from, const mev_flow_roster_section *s, const char *status,
			       const char *entry, const char *role, int *rc)
{
	const mev_release *rel = mev_history_release(x->h, r);
	listed_values v = { rel->tag, s->title, entry, NULL, NULL, role, status,
			    NULL, mev_release_date(rel), INT64_MIN, INT64_MIN, NULL, NULL, from };
	int64_t p = person_of(&v.addr, x, a, s, entry, role);
	if (p >= 0) {
		uint32_t sec = mev__act_section_of(a, s->title), by_any, by_sec;
		v.anywhere = mev__act_anywhere(&by_any, a, (uint32_t)p);
		v.last = sec == UINT32_MAX ? INT64_MIN : mev__act_last(&by_sec, a, sec, (uint32_t)p);
		if (v.last == INT64_MIN)
			by_sec = by_any;
		v.name = a->names.v[p] ? a->names.v[p] : a->names.v[by_sec];
		v.matched_by = matched_by(a, v.addr, a->keys.v[by_sec], rc);
		if (!*rc)
			*rc = mev__act_others(&v.others, a, (uint32_t)p, v.addr);
	}
	v.state = state_of(v.last, v.anywhere, v.date, quiet_months(x), v.addr, from);
	return v;
}

static void date_or_null(mev_table *w, int64_t t)
{
	if (t == INT64_MIN)
		mev_table_null(w);
	else
		mev_table_date(w, t);
}

/* The columns listed and listed_sections begin with: release, date, section. */
static void release_section(mev_table *w, const char *tag, int64_t date, const char *title)
{
	mev_table_str(w, tag);
	mev_table_date(w, date);
	mev_table_str(w, title);
}

static int listed_write(void *out, const listed_values *v)
{
	mev_table *w = out;
	release_section(w, v->tag, v->date, v->title);
	mev_table_str(w, v->entry);
	mev_table_str_or_null(w, v->name);
	mev_table_str_or_null(w, v->addr);
	mev_table_str(w, v->role);
	mev_table_str_or_null(w, v->status);
	date_or_null(w, v->last);
	date_or_null(w, v->anywhere);
	mev_table_int_or_null(w, v->last == INT64_MIN ? -1 : mev__act_months(v->last, v->date));
	mev_table_str(w, v->state);
	mev_table_str_or_null(w, v->matched_by);
	mev_table_str_or_null(w, v->others);
	date_or_null(w, v->from);
	mev_table_end_row(w);
	return 0;
}

/* --- listed_sections ---------------------------------------------------------------- */

/* The states of a section's entries of one role, counted. */
typedef struct {
	uint64_t n, active, quiet, gone, never_seen, unknown;
} state_count;

static void count_state(state_count *c, const char *st)
{
	c->n++;
	c->active += strcmp(st, "active") == 0;
	c->quiet += strcmp(st, "quiet") == 0;
	c->gone += strcmp(st, "gone") == 0;
	c->never_seen += strcmp(st, "never_seen") == 0;
	c->unknown += strcmp(st, "unknown") == 0;
}

/* 1 when the S: line promises someone looks after the section. */
static int claims_care(const char *status)
{
	return status && (strcasecmp(status, "Maintained") == 0 || strcasecmp(status, "Supported") == 0);
}

/*
 * Orphaned in fact, not on paper: the status claims care and none of the
 * M: people is active.  A handle without an address (unknown) might be
 * active, so a section with one is not flagged.
 */
static int orphaned_in_fact(const char *status, const state_count *m)
{
	return claims_care(status) && m->active == 0 && m->unknown == 0;
}

/* One row of the listed_sections table, before it is written or kept. */
typedef struct {
	const char *tag, *title, *status;
	int64_t date;
	uint64_t lines;
	state_count m, rv;        /* the M: and the R: entries by state */
} section_values;

static int section_write(void *out, const section_values *v)
{
	mev_table *w = out;
	release_section(w, v->tag, v->date, v->title);
	mev_table_str_or_null(w, v->status);
	mev_table_uint(w, v->lines);
	mev_table_uint(w, v->m.n);
	mev_table_uint(w, v->m.active);
	mev_table_uint(w, v->m.quiet);
	mev_table_uint(w, v->m.gone);
	mev_table_uint(w, v->m.never_seen);
	mev_table_uint(w, v->m.unknown);
	mev_table_uint(w, v->rv.n);
	mev_table_uint(w, v->rv.active);
	mev_table_uint(w, (uint64_t)orphaned_in_fact(v->status, &v->m));
	mev_table_end_row(w);
	return 0;
}

/* --- both, release by release ------------------------------------------------------- */

/* Where listed_release sends its rows (a table, or a list in memory): the
 * entries (listed) and the sections (listed_sections), each NULL when not
 * wanted.  Both come from one listed_of() per entry. */
typedef struct {
	int (*entry)(void *out, const listed_values *v);
	int (*section)(void *out, const section_values *v);
	void *out;
	int64_t from;             /* the release's: listed_values.from */
} listed_sink;

static int listed_entries(state_count *c, const listed_sink *k, const mev__export_ctx *x,
			  mev__activity *a, size_t r, const mev_flow_roster_section *s,
			  const char *status, const char *const *entries, size_t n, const char *role)
{
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		listed_values v = listed_of(x, a, r, k->from, s, status, entries[i], role, &rc);
		count_state(c, v.state);
		if (!rc && k->entry)
			rc = k->entry(k->out, &v);
	}
	return rc;
}

static int listed_section(const listed_sink *k, const mev__export_ctx *x, mev__activity *a,
			  size_t r, const mev_flow_roster_section *s, const char *status, uint64_t lines)
{
	const mev_release *rel = mev_history_release(x->h, r);
	section_values v = { rel->tag, s->title, status, mev_release_date(rel), lines, { 0 }, { 0 } };
	int rc;
	if ((rc = listed_entries(&v.m, k, x, a, r, s, status, s->maintainers, s->n_maintainers, "M")) ||
	    (rc = listed_entries(&v.m, k, x, a, r, s, status, s->maintainer_handles,
				 s->n_maintainer_handles, "M")) ||
	    (rc = listed_entries(&v.rv, k, x, a, r, s, status, s->reviewers, s->n_reviewers, "R")) ||
	    (rc = listed_entries(&v.rv, k, x, a, r, s, status, s->reviewer_handles,
				 s->n_reviewer_handles, "R")))
		return rc;
	return k->section ? k->section(k->out, &v) : 0;
}

/* The sections' own lines need the graph: with secs and g only (sections wanted). */
static int listed_release(void *out, const mev__export_ctx *x, mev__activity *a, size_t r,
			  int64_t from, const mev_flow_roster *ro, const mev_filemap *secs,
			  const mev_graph *g)
{
	listed_sink *k = out;
	mev_edge *sz = NULL;
	int rc = k->section ? mev__export_self_sizes(&sz, g, mev_filemap_section_count(secs)) : 0;
	k->from = from;
	for (size_t i = 0; i < ro->n && !rc; i++) {
		const mev_flow_roster_section *s = &ro->v[i];
		int64_t at = section_index(secs, s->title);
		if (s->is_rest)
			continue;
		rc = listed_section(k, x, a, r, s, at < 0 ? NULL : mev_filemap_sections(secs)[at].status,
				    at < 0 || !sz ? 0 : sz[at].lines);
	}
	free(sz);
	return rc;
}

int mev__export_listed(mev_table *w, const mev__export_ctx *x)
{
	listed_sink k = { listed_write, NULL, w, INT64_MIN };
	return each_release(&k, x, listed_release, 1);
}

int mev__export_listed_sections(mev_table *w, const mev__export_ctx *x)
{
	listed_sink k = { NULL, section_write, w, INT64_MIN };
	return each_release(&k, x, listed_release, 1);
}

/* --- candidates --------------------------------------------------------------------- */

/* A person's activity in a section (person: the fold's root id; by: the
 * address of the latest event, the one the row shows). */
typedef struct {
	uint32_t section, person, by;
	uint64_t authored, committed, reviewed, acked;
	int64_t last;
} tally;

typedef MEV_VEC(tally) tally_vec;

static uint64_t total(const tally *t)
{
	return t->authored + t->committed + t->reviewed + t->acked;
}

static const mev__activity *sort_a; /* the index the sort reads keys from */

/* By section, then the most activity first, then the latest, then the key. */
static int tally_cmp(const void *pa, const void *pb)
{
	const tally *p = pa, *q = pb;
	uint64_t tp = total(p), tq = total(q);
	if (p->section != q->section)
		return p->section < q->section ? -1 : 1;
	if (tp != tq)
		return tp > tq ? -1 : 1;
	if (p->last != q->last)
		return p->last > q->last ? -1 : 1;
	return strcmp(sort_a->keys.v[p->by], sort_a->keys.v[q->by]);
}

/* The (section, person) tallies of the events in the N months up to date,
 * a person's addresses as one. */
static int window(tally_vec *out, const mev__activity *a, int64_t date, int n)
{
	mev_strmap at = { 0 };
	int rc = 0;
	for (size_t i = 0; i < a->ev.n && !rc; i++) {
		const mev__act_event *e = &a->ev.v[i];
		uint32_t key[2] = { e->section, mev__fold_root(&a->fold, e->person) }, pos;
		int added;
		tally *t;
		if (e->time > date || mev__act_months(e->time, date) >= n ||
		    !(e->kinds & (MEV_ACT_AUTHORED | MEV_ACT_COMMITTED | MEV_ACT_REVIEWED | MEV_ACT_ACKED)))
			continue;
		if (mev__strmap_intern(&at, (const char *)key, sizeof key, (uint32_t)out->n, &pos, &added) ||
		    (added && MEV_VEC_PUSH(out, ((tally){ key[0], key[1], e->person, 0, 0, 0, 0,
							 INT64_MIN })))) {
			rc = mev_error_oom();
			break;
		}
		t = &out->v[pos];
		t->authored += !!(e->kinds & MEV_ACT_AUTHORED);
		t->committed += !!(e->kinds & MEV_ACT_COMMITTED);
		t->reviewed += !!(e->kinds & MEV_ACT_REVIEWED);
		t->acked += !!(e->kinds & MEV_ACT_ACKED);
		if (e->time > t->last) {
			t->last = e->time;
			t->by = e->person;
		}
	}
	mev__strmap_free(&at);
	return rc;
}

/* 1 when one of the entries[0..n) (role M or R) of s stands for person (a root id). */
static int among(const mev__export_ctx *x, mev__activity *a, const mev_flow_roster_section *s,
		 const char *const *entries, size_t n, const char *role, uint32_t person)
{
	for (size_t k = 0; k < n; k++) {
		const char *addr;
		int64_t id = person_of(&addr, x, a, s, entries[k], role);
		if (id >= 0 && mev__fold_root(&a->fold, (uint32_t)id) == person)
			return 1;
	}
	return 0;
}

static int listed_in(const mev__export_ctx *x, mev__activity *a, const mev_flow_roster_section *s,
		     uint32_t person)
{
	return among(x, a, s, s->maintainers, s->n_maintainers, "M", person) ||
	       among(x, a, s, s->maintainer_handles, s->n_maintainer_handles, "M", person) ||
	       among(x, a, s, s->reviewers, s->n_reviewers, "R", person) ||
	       among(x, a, s, s->reviewer_handles, s->n_reviewer_handles, "R", person);
}

/*
 * 1 for a bot, never a candidate: a name or address with "[bot]" (GitHub's
 * apps, edk2's mergify[bot] committing nearly every commit) or GitHub's own
 * noreply@github.com (its web merges).  No successor a maintainer would write.
 */
static int is_bot(const mev__activity *a, const tally *t)
{
	const char *name = a->names.v[t->by], *key = a->keys.v[t->by];
	return strstr(key, "[bot]") || strcmp(key, "noreply@github.com") == 0 ||
	       (name && strstr(name, "[bot]"));
}

static void candidate_row(mev_table *w, const mev_release *rel, const char *title, int rank,
			  const mev__activity *a, const tally *t)
{
	mev_table_str(w, rel->tag);
	mev_table_date(w, mev_release_date(rel));
	mev_table_str(w, title);
	mev_table_uint(w, (uint64_t)rank);
	mev_table_str_or_null(w, a->names.v[t->by]);
	mev_table_str(w, a->keys.v[t->by]);
	mev_table_uint(w, t->authored);
	mev_table_uint(w, t->committed);
	mev_table_uint(w, t->reviewed);
	mev_table_uint(w, t->acked);
	mev_table_uint(w, total(t));
	mev_table_date(w, t->last);
	mev_table_end_row(w);
}

/* The tallies of section sec: [*lo, *hi) of the sorted t. */
static void section_span(size_t *lo, size_t *hi, const tally *t, size_t n, uint32_t sec)
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (t[m].section < sec)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	for (b = a; b < n && t[b].section == sec; b++)
		;
	*hi = b;
}

static int candidates_release(void *out, const mev__export_ctx *x, mev__activity *a, size_t r,
			      int64_t from, const mev_flow_roster *ro, const mev_filemap *secs,
			      const mev_graph *g)
{
	mev_table *w = out;
	const mev_release *rel = mev_history_release(x->h, r);
	int top = x->opt->top > 0 ? x->opt->top : DEFAULT_TOP;
	tally_vec t = { 0 };
	int rc = window(&t, a, mev_release_date(rel), quiet_months(x));
	(void)from; /* the candidates rank what was seen */
	(void)secs;
	(void)g;
	sort_a = a;
	if (!rc)
		mev__export_sort(t.v, t.n, sizeof *t.v, tally_cmp);
	for (size_t i = 0; i < ro->n && !rc; i++) {
		const mev_flow_roster_section *s = &ro->v[i];
		uint32_t sec;
		size_t lo, hi;
		int rank = 0;
		if (s->is_rest || (sec = mev__act_section_of(a, s->title)) == UINT32_MAX)
			continue;
		section_span(&lo, &hi, t.v, t.n, sec);
		for (size_t k = lo; k < hi && rank < top; k++)
			if (!is_bot(a, &t.v[k]) && !listed_in(x, a, s, t.v[k].person))
				candidate_row(w, rel, s->title, ++rank, a, &t.v[k]);
	}
	MEV_VEC_FREE(&t);
	return rc;
}

int mev__export_candidates(mev_table *w, const mev__export_ctx *x)
{
	return each_release(w, x, candidates_release, 0);
}

/* --- the listed rows in memory (the chart's lineage panel, the report) ------------- */

typedef struct {
	MEV_VEC(mev_listed_row) rows;
	MEV_VEC(mev_listed_section) sections;
	MEV_VEC(char *) strs; /* every string the rows point to */
} listed_mem;

/* A copy of s kept in m (NULL for NULL; NULL with *rc set when out of memory). */
static const char *keep(listed_mem *m, const char *s, int *rc)
{
	char *c;
	if (!s)
		return NULL;
	if (!(c = strdup(s)) || MEV_VEC_PUSH(&m->strs, c)) {
		free(c);
		*rc = mev_error_oom();
		return NULL;
	}
	return c;
}

static int listed_keep(void *out, const listed_values *v)
{
	listed_mem *m = out;
	int rc = 0;
	mev_listed_row row = { keep(m, v->tag, &rc), keep(m, v->title, &rc), keep(m, v->entry, &rc),
			       keep(m, v->name, &rc), keep(m, v->addr, &rc), v->role, v->state,
			       v->last };
	if (!rc && MEV_VEC_PUSH(&m->rows, row))
		rc = mev_error_oom();
	return rc;
}

static int section_keep(void *out, const section_values *v)
{
	listed_mem *m = out;
	int rc = 0;
	mev_listed_section row = { keep(m, v->tag, &rc), keep(m, v->title, &rc), keep(m, v->status, &rc),
				   v->lines, v->m.n, v->m.active, v->m.quiet, v->m.gone,
				   v->m.never_seen, orphaned_in_fact(v->status, &v->m) };
	if (!rc && MEV_VEC_PUSH(&m->sections, row))
		rc = mev_error_oom();
	return rc;
}

void mev_listed_list_free(mev_listed_list *l)
{
	listed_mem *m = l ? l->mem_ : NULL;
	if (m) {
		for (size_t i = 0; i < m->strs.n; i++)
			free(m->strs.v[i]);
		MEV_VEC_FREE(&m->strs);
		MEV_VEC_FREE(&m->rows);
		MEV_VEC_FREE(&m->sections);
		free(m);
	}
	if (l)
		memset(l, 0, sizeof *l);
}

int mev_export_listed_rows(mev_listed_list *out, mev_store *s, const mev_export_options *opt)
{
	static const mev_export_options defaults = { 0 };
	mev__export_ctx x = { s, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL };
	mev_history *h = NULL, *own = NULL;
	listed_mem *m = calloc(1, sizeof *m);
	listed_sink k = { listed_keep, section_keep, m, INT64_MIN };
	int rc;
	memset(out, 0, sizeof *out);
	if (!m)
		return mev_error_oom();
	out->mem_ = m;
	x.opt = opt ? opt : &defaults;
	if (!x.opt->release)
		k.section = NULL; /* every release: the entries only, no section graphs read */
	if ((rc = mev_history_use(&h, &own, s, x.opt->history, x.opt->release, 0)))
		return rc;
	x.h = h;
	if (!(rc = mev__export_check_release(s, h, x.opt)) &&
	    (rc = mev__export_any_flow(s, h, NULL)) > 0 &&
	    !(rc = mev_flow_roster_reader_new(&x.roster, s, x.opt->repo)) &&
	    !(rc = x.opt->people ? mev__export_handles_read(&x.people, x.opt->people) : 0))
		rc = each_release(&k, &x, listed_release, k.section != NULL);
	out->v = m->rows.v;
	out->n = m->rows.n;
	out->sections = m->sections.v;
	out->n_sections = m->sections.n;
	mev_flow_roster_reader_free(x.roster);
	mev__export_handles_free(x.people);
	mev_history_free(own);
	return rc;
}

/* --- the headline of one release (headline.c) --------------------------------------- */

int mev__listed_add(mev__activity *a, int64_t *from, const mev__export_ctx *x, size_t r)
{
	return add_release(a, from, x, r);
}

static int count_entry(void *out, const listed_values *v)
{
	count_state(out, v->state);
	return 0;
}

int mev__listed_headline_of(mev__listed_tally *out, const mev__export_ctx *x,
			    mev__activity *a, size_t r, int64_t from, const mev_flow_roster *ro)
{
	state_count c = { 0, 0, 0, 0, 0, 0 };
	listed_sink k = { count_entry, NULL, &c, INT64_MIN };
	int rc = listed_release(&k, x, a, r, from, ro, NULL, NULL);
	out->addresses = c.n - c.unknown;
	out->never_seen = c.never_seen;
	out->quiet = c.quiet;
	out->gone = c.gone;
	return rc;
}
