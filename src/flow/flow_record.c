/* The stored flow of a release: record 'F' of table "flow" (docs/store-format.md). */
#include "flow_internal.h"
#include "maintevo/error.h"
#include "util/varint.h"

#include <stdlib.h>
#include <string.h>

/* 1: no hidden list (the range was PREV..TAG); 2: the hidden commits */
#define FLOW_RECORD_VERSION 2

static const char *const verdict_names[MEV_FLOW_VERDICTS] = {
	"committer_is_maintainer", "committer_in_subsystem", "signoff_by_maintainer",
	"reviewed_by_listed", "via_listed_tree"
};

const char *mev_flow_verdict_name(mev_flow_verdict v)
{
	return (unsigned)v < MEV_FLOW_VERDICTS ? verdict_names[v] : "";
}

const char *mev_flow_coverage_name(mev_flow_coverage c)
{
	return c == MEV_FLOW_COVERED ? "covered" : c == MEV_FLOW_REST_ONLY ? "rest_only" : "uncovered";
}

size_t mev_flow_set(const uint32_t **ids, const mev_flow_release *r, uint32_t set)
{
	if (set >= r->n_sets) {
		*ids = NULL;
		return 0;
	}
	*ids = r->set_ids + r->set_off[set];
	return r->set_off[set + 1] - r->set_off[set];
}

int mev__flow_encode(mev_buf *b, const mev_flow_release *r)
{
	int e = 0;
	e |= mev__put_uv(b, FLOW_RECORD_VERSION);
	e |= mev__put_cstr(b, r->tag);
	e |= mev__put_cstr(b, r->prev);
	e |= mev__buf_put(b, r->commit.id, 20);
	e |= mev__buf_put(b, r->prev_commit.id, 20);
	e |= mev__put_uv(b, r->n_hidden);
	for (size_t i = 0; i < r->n_hidden; i++)
		e |= mev__buf_put(b, r->hidden[i].id, 20);
	e |= mev__put_uv(b, (uint64_t)r->churn);
	e |= mev__put_uv(b, r->merges);
	e |= mev__put_uv(b, r->n_strings);
	for (size_t i = 0; i < r->n_strings; i++)
		e |= mev__put_cstr(b, r->strings[i]);
	e |= mev__put_uv(b, r->n_people);
	for (size_t i = 0; i < r->n_people; i++) {
		e |= mev__put_cstr(b, r->people[i].name);
		e |= mev__put_cstr(b, r->people[i].email);
		e |= mev__put_uv(b, r->people[i].maintains);
		e |= mev__put_uv(b, r->people[i].reviews);
	}
	e |= mev__put_uv(b, r->n_sets);
	for (size_t i = 0; i < r->n_sets; i++) {
		uint32_t prev = 0;
		e |= mev__put_uv(b, r->set_off[i + 1] - r->set_off[i]);
		for (uint32_t k = r->set_off[i]; k < r->set_off[i + 1]; k++) {
			e |= mev__put_uv(b, r->set_ids[k] - prev);
			prev = r->set_ids[k];
		}
	}
	e |= mev__put_uv(b, r->n_routes);
	for (size_t i = 0; i < r->n_routes; i++) {
		e |= mev__buf_put(b, r->routes[i].merge.id, 20);
		e |= mev__put_cstr(b, r->routes[i].tree);
		e |= mev__put_cstr(b, r->routes[i].subject);
	}
	e |= mev__put_uv(b, r->n_notes);
	for (size_t i = 0; i < r->n_notes; i++)
		e |= mev__put_cstr(b, r->notes[i]);
	e |= mev__put_uv(b, r->n);
	for (size_t i = 0; i < r->n; i++) {
		const mev_flow_commit *c = &r->commits[i];
		e |= mev__buf_put(b, c->id.id, 20);
		e |= mev__put_uv(b, c->author);
		e |= mev__put_uv(b, c->committer);
		e |= mev__put_sv(b, c->author_time);
		e |= mev__put_sv(b, c->commit_time);
		e |= mev__put_uv(b, c->trailer_count);
		for (uint32_t k = 0; k < c->trailer_count; k++) {
			e |= mev__put_uv(b, r->trailers[c->trailer_begin + k].kind);
			e |= mev__put_uv(b, r->trailers[c->trailer_begin + k].value);
		}
		e |= mev__put_uv(b, c->path_count);
		for (uint32_t k = 0; k < c->path_count; k++)
			e |= mev__put_uv(b, r->paths[c->path_begin + k]);
		e |= mev__put_uv(b, c->sections);
		e |= mev__put_uv(b, c->committer_sections);
		e |= mev__put_uv(b, c->route);
		e |= mev__put_uv(b, c->coverage);
		e |= mev__put_uv(b, c->verdicts);
		e |= mev__put_uv(b, c->has_churn);
		if (c->has_churn) {
			e |= mev__put_uv(b, c->added);
			e |= mev__put_uv(b, c->removed);
		}
	}
	return e ? mev_error_oom() : 0;
}

/* What a decoded release owns. */
typedef struct {
	mev_arena arena;
} flow_mem;

static const char *rd_str(mev__record_reader *rd, flow_mem *m, int *bad)
{
	size_t len;
	const char *p = mev__get_str(rd, &len);
	char *c = mev__arena_strndup(&m->arena, p, len);
	if (!c)
		*bad = MEV_ENOMEM;
	return c ? c : "";
}

/* An array of n elements of `size` bytes, refused when the record cannot
 * hold n of them (each takes at least `min` bytes there). */
static void *rd_array(mev__record_reader *rd, size_t n, size_t size, size_t min, int *bad)
{
	void *v;
	if (n > (size_t)(rd->end - rd->p) / (min ? min : 1) + 1) {
		rd->bad = 1;
		return NULL;
	}
	v = calloc(n + 1, size);
	if (!v)
		*bad = MEV_ENOMEM;
	return v;
}

static int decode_head(mev_flow_release *r, mev__record_reader *rd, flow_mem *m, int *bad)
{
	uint64_t version = mev__get_uv(rd);
	if (version < 1 || version > FLOW_RECORD_VERSION)
		return rd->bad = 1, 0;
	r->tag = strdup(rd_str(rd, m, bad));
	r->prev = strdup(rd_str(rd, m, bad));
	if (!r->tag || !r->prev)
		*bad = MEV_ENOMEM;
	mev__get_bytes(r->commit.id, rd, 20);
	mev__get_bytes(r->prev_commit.id, rd, 20);
	r->n_hidden = version >= 2 ? mev__get_uv(rd) : 1;
	if (!(r->hidden = rd_array(rd, r->n_hidden, sizeof *r->hidden, 20, bad)))
		return 0;
	if (version < 2)
		r->hidden[0] = r->prev_commit;
	else
		for (size_t i = 0; i < r->n_hidden; i++)
			mev__get_bytes(r->hidden[i].id, rd, 20);
	r->churn = (int)mev__get_uv(rd);
	r->merges = mev__get_uv(rd);
	r->n_strings = mev__get_uv(rd);
	if (!(r->strings = rd_array(rd, r->n_strings, sizeof *r->strings, 1, bad)))
		return 0;
	for (size_t i = 0; i < r->n_strings; i++)
		r->strings[i] = rd_str(rd, m, bad);
	r->n_people = mev__get_uv(rd);
	if (!(r->people = rd_array(rd, r->n_people, sizeof *r->people, 4, bad)))
		return 0;
	for (size_t i = 0; i < r->n_people; i++) {
		r->people[i].name = rd_str(rd, m, bad);
		r->people[i].email = rd_str(rd, m, bad);
		r->people[i].maintains = (uint32_t)mev__get_uv(rd);
		r->people[i].reviews = (uint32_t)mev__get_uv(rd);
	}
	return 0;
}

static void decode_sets(mev_flow_release *r, mev__record_reader *rd, int *bad)
{
	MEV_VEC(uint32_t) ids = { 0 };
	r->n_sets = mev__get_uv(rd);
	if (!(r->set_off = rd_array(rd, r->n_sets, sizeof *r->set_off, 1, bad)))
		return;
	for (size_t i = 0; i < r->n_sets && !rd->bad; i++) {
		uint64_t k = mev__get_uv(rd);
		uint32_t prev = 0;
		r->set_off[i] = (uint32_t)ids.n;
		if (k > (uint64_t)(rd->end - rd->p)) {
			rd->bad = 1;
			break;
		}
		for (uint64_t j = 0; j < k; j++) {
			prev += (uint32_t)mev__get_uv(rd);
			if (prev >= r->n_strings)
				rd->bad = 1;
			if (MEV_VEC_PUSH(&ids, prev)) {
				*bad = MEV_ENOMEM;
				return;
			}
		}
	}
	r->set_off[r->n_sets] = (uint32_t)ids.n;
	r->set_ids = ids.v;
}

static void decode_routes(mev_flow_release *r, mev__record_reader *rd, flow_mem *m, int *bad)
{
	r->n_routes = mev__get_uv(rd);
	if (!(r->routes = rd_array(rd, r->n_routes, sizeof *r->routes, 22, bad)))
		return;
	for (size_t i = 0; i < r->n_routes; i++) {
		mev__get_bytes(r->routes[i].merge.id, rd, 20);
		r->routes[i].tree = rd_str(rd, m, bad);
		r->routes[i].subject = rd_str(rd, m, bad);
	}
	r->n_notes = mev__get_uv(rd);
	if (!(r->notes = rd_array(rd, r->n_notes, sizeof *r->notes, 1, bad)))
		return;
	for (size_t i = 0; i < r->n_notes; i++)
		r->notes[i] = rd_str(rd, m, bad);
}

static void decode_commit(mev_flow_release *r, mev_flow_commit *c, mev__record_reader *rd, int *bad,
			  void *tv, void *pv)
{
	MEV_VEC(mev_flow_trailer) *tr = tv;
	MEV_VEC(uint32_t) *paths = pv;
	uint64_t k;
	mev__get_bytes(c->id.id, rd, 20);
	c->author = (uint32_t)mev__get_uv(rd);
	c->committer = (uint32_t)mev__get_uv(rd);
	c->author_time = mev__get_sv(rd);
	c->commit_time = mev__get_sv(rd);
	k = mev__get_uv(rd);
	c->trailer_begin = (uint32_t)tr->n;
	c->trailer_count = (uint32_t)k;
	if (k > (uint64_t)(rd->end - rd->p))
		rd->bad = 1;
	for (uint64_t j = 0; j < k && !rd->bad; j++) {
		mev_flow_trailer t;
		t.kind = (uint8_t)mev__get_uv(rd);
		t.value = (uint32_t)mev__get_uv(rd);
		if (t.kind >= MEV_TRAILER_KINDS ||
		    t.value >= (t.kind == MEV_TRAILER_LINK ? r->n_strings : r->n_people))
			rd->bad = 1;
		if (MEV_VEC_PUSH(tr, t))
			*bad = MEV_ENOMEM;
	}
	k = mev__get_uv(rd);
	c->path_begin = (uint32_t)paths->n;
	c->path_count = (uint32_t)k;
	if (k > (uint64_t)(rd->end - rd->p))
		rd->bad = 1;
	for (uint64_t j = 0; j < k && !rd->bad; j++) {
		uint32_t id = (uint32_t)mev__get_uv(rd);
		if (id >= r->n_strings)
			rd->bad = 1;
		if (MEV_VEC_PUSH(paths, id))
			*bad = MEV_ENOMEM;
	}
	c->sections = (uint32_t)mev__get_uv(rd);
	c->committer_sections = (uint32_t)mev__get_uv(rd);
	c->route = (uint32_t)mev__get_uv(rd);
	c->coverage = (uint8_t)mev__get_uv(rd);
	c->verdicts = (uint8_t)mev__get_uv(rd);
	c->has_churn = (uint8_t)mev__get_uv(rd);
	if (c->has_churn) {
		c->added = (uint32_t)mev__get_uv(rd);
		c->removed = (uint32_t)mev__get_uv(rd);
	}
	if (c->author >= r->n_people || c->committer >= r->n_people || c->sections >= r->n_sets ||
	    c->committer_sections >= r->n_sets || c->route >= r->n_routes || c->coverage > 2)
		rd->bad = 1;
}

int mev__flow_decode(mev_flow_release **out, const void *data, size_t len)
{
	mev_flow_release *r = calloc(1, sizeof *r);
	flow_mem *m = calloc(1, sizeof *m);
	MEV_VEC(mev_flow_trailer) tr = { 0 };
	MEV_VEC(uint32_t) paths = { 0 };
	mev__record_reader rd;
	int bad = 0;

	*out = NULL;
	if (!r || !m) {
		free(r);
		free(m);
		return mev_error_oom();
	}
	r->mem_ = m;
	mev__record_reader_init(&rd, data, len);
	decode_head(r, &rd, m, &bad);
	if (!rd.bad && !bad)
		decode_sets(r, &rd, &bad);
	if (!rd.bad && !bad)
		decode_routes(r, &rd, m, &bad);
	if (!rd.bad && !bad) {
		r->n = mev__get_uv(&rd);
		if ((r->commits = rd_array(&rd, r->n, sizeof *r->commits, 30, &bad)))
			for (size_t i = 0; i < r->n && !rd.bad && !bad; i++)
				decode_commit(r, &r->commits[i], &rd, &bad, &tr, &paths);
	}
	r->trailers = tr.v;
	r->n_trailers = tr.n;
	r->paths = paths.v;
	r->n_paths = paths.n;
	if (!bad && (rd.bad || rd.p != rd.end || !r->n_sets || !r->n_routes))
		bad = mev_error_set(MEV_ECORRUPT, "the flow record does not decode");
	else if (bad == MEV_ENOMEM)
		bad = mev_error_oom();
	if (bad) {
		mev_flow_release_free(r);
		return bad;
	}
	*out = r;
	return 0;
}

void mev_flow_release_free(mev_flow_release *r)
{
	if (!r)
		return;
	free(r->tag);
	free(r->prev);
	free(r->hidden);
	free(r->commits);
	free(r->people);
	free(r->strings);
	free(r->set_off);
	free(r->set_ids);
	free(r->trailers);
	free(r->paths);
	free(r->routes);
	free(r->notes);
	if (r->mem_) {
		mev__arena_free(&((flow_mem *)r->mem_)->arena);
		free(r->mem_);
	}
	free(r);
}

/* The flow record of `tag` in `table` (MEV_FLOW_TABLE or MEV_FLOW_BEFORE_TABLE). */
static int load_from(mev_flow_release **out, mev_store *s, const char *table, const char *tag)
{
	void *data = NULL;
	size_t len = 0;
	int rc;
	*out = NULL;
	rc = mev_store_get_record(&data, &len, s, table, 'F', tag, strlen(tag));
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		return rc;
	}
	if (rc)
		return rc;
	rc = mev__flow_decode(out, data, len);
	free(data);
	if (rc == MEV_ECORRUPT)
		mev_error_hint("run 'maintevo flow --rebuild' to compute it again");
	return rc;
}

int mev_flow_load(mev_flow_release **out, mev_store *s, const char *tag)
{
	return load_from(out, s, MEV_FLOW_TABLE, tag);
}

int mev_flow_load_before(mev_flow_release **out, mev_store *s, const char *tag)
{
	return load_from(out, s, MEV_FLOW_BEFORE_TABLE, tag);
}

/* The value of key in table into *data: 1, or 0 when there is none
 * (without a message); negative on errors. */
static int get_value(void **data, size_t *len, mev_store *s, const char *table, const char *key)
{
	int rc = mev_store_get(data, len, s, table, key, strlen(key));
	if (rc == MEV_ENOTFOUND) {
		mev_error_clear();
		return 0;
	}
	return rc ? rc : 1;
}

/*
 * The index value: the previous release (string), the rules (varint; none:
 * 1), then since rules 3 the fingerprint of the earlier releases' commits
 * (varint) and the hidden commits (a count, 20 bytes each), then since
 * issue 38 the release's own commit (20 bytes; absent in older records:
 * not compared).
 */
int mev__flow_index_encode(mev_buf *b, const char *prev, uint64_t earlier, const mev_oid *hidden,
			   size_t n_hidden, const mev_oid *commit)
{
	int e = mev__put_cstr(b, prev) | mev__put_uv(b, MEV_FLOW_RULES) | mev__put_uv(b, earlier) |
		mev__put_uv(b, n_hidden);
	for (size_t i = 0; i < n_hidden; i++)
		e |= mev__buf_put(b, hidden[i].id, 20);
	e |= mev__buf_put(b, commit->id, 20);
	return e ? mev_error_oom() : 0;
}

void mev__flow_index_clear(mev__flow_index *x)
{
	free(x->prev);
	free(x->hidden);
	memset(x, 0, sizeof *x);
}

int mev__flow_index_read(mev__flow_index *x, mev_store *s, const char *tag)
{
	void *data = NULL;
	size_t len = 0, pl;
	mev__record_reader rd;
	const char *p;
	uint64_t rules;
	int rc = get_value(&data, &len, s, MEV_FLOW_INDEX_TABLE, tag);
	memset(x, 0, sizeof *x);
	if (rc <= 0)
		return rc;
	rc = 0;
	mev__record_reader_init(&rd, data, len);
	p = mev__get_str(&rd, &pl);
	if (!rd.bad && !(x->prev = strndup(p, pl))) {
		free(data);
		return mev_error_oom();
	}
	/* stored before the rules were: rules 1 */
	rules = rd.p < rd.end ? mev__get_uv(&rd) : 1;
	x->rules_ok = rules == MEV_FLOW_RULES;
	if (!rd.bad && rules >= 3) {
		x->earlier = mev__get_uv(&rd);
		x->n_hidden = mev__get_uv(&rd);
		if (x->n_hidden > len / 20)
			rd.bad = 1;
		else if (!(x->hidden = calloc(x->n_hidden + 1, sizeof *x->hidden)))
			rc = mev_error_oom();
		for (size_t i = 0; !rc && i < x->n_hidden; i++)
			mev__get_bytes(x->hidden[i].id, &rd, 20);
		if (!rc && !rd.bad && rd.p < rd.end) {
			mev__get_bytes(x->commit.id, &rd, 20);
			x->has_commit = 1;
		}
	}
	free(data);
	if (!rc && rd.bad)
		rc = mev_error_set(MEV_ECORRUPT, "the flow index of '%s' does not decode", tag);
	if (rc) {
		mev__flow_index_clear(x);
		return rc;
	}
	return 1;
}

int mev_flow_stored(char **prev, mev_store *s, const char *tag)
{
	mev__flow_index x;
	int rc = mev__flow_index_read(&x, s, tag);
	*prev = NULL;
	if (rc <= 0)
		return rc;
	*prev = x.prev;
	x.prev = NULL;
	rc = x.rules_ok;
	mev__flow_index_clear(&x);
	return rc;
}

int mev_flow_outdated(mev_store *s, const char *tag)
{
	mev__flow_index x;
	int rc = mev__flow_index_read(&x, s, tag);
	if (rc <= 0)
		return rc;
	rc = !x.rules_ok;
	mev__flow_index_clear(&x);
	return rc;
}

/* --- what a shallow clone's cut left out (MEV_FLOW_CUT_TABLE) --------------------- */

/* The key of a range: its tag, or '^' and the first release's tag for the
 * history before it ('^' starts no tag: git refuses it in ref names). */
static int cut_key(char *key, size_t size, const char *tag, int before)
{
	int n = snprintf(key, size, "%s%s", before ? "^" : "", tag);
	return n < 0 || (size_t)n >= size ? mev_error_set(MEV_EINVAL, "tag too long: '%s'", tag) : 0;
}

int mev__flow_cut_put(mev_store *s, const char *tag, int before, const mev_range_cut *cut)
{
	char key[MEV_RELEASE_TAG_MAX + 2];
	mev_buf b = MEV_BUF_INIT;
	int rc;
	if ((rc = cut_key(key, sizeof key, tag, before)))
		return rc;
	if (!cut->commits) /* a whole history: nothing to say (and a stale value goes) */
		return mev_store_delete(s, MEV_FLOW_CUT_TABLE, key, strlen(key));
	if (mev__put_uv(&b, cut->commits) || mev__put_sv(&b, cut->time))
		rc = mev_error_oom();
	else
		rc = mev_store_put(s, MEV_FLOW_CUT_TABLE, key, strlen(key), b.ptr, b.len);
	mev__buf_free(&b);
	return rc;
}

int mev_flow_load_cut(mev_range_cut *out, mev_store *s, const char *tag, int before)
{
	char key[MEV_RELEASE_TAG_MAX + 2];
	void *data = NULL;
	size_t len = 0;
	mev__record_reader rd;
	int rc;
	out->commits = 0;
	out->time = INT64_MIN;
	if ((rc = cut_key(key, sizeof key, tag, before)))
		return rc;
	if ((rc = get_value(&data, &len, s, MEV_FLOW_CUT_TABLE, key)) <= 0)
		return rc;
	mev__record_reader_init(&rd, data, len);
	out->commits = mev__get_uv(&rd);
	out->time = mev__get_sv(&rd);
	free(data);
	if (rd.bad) {
		out->commits = 0;
		out->time = INT64_MIN;
		return mev_error_set(MEV_ECORRUPT, "the shallow cut of '%s' does not decode", key);
	}
	return 0;
}
