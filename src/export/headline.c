/* The listed people's headline of every release: counted once after flow, stored, read by `releases`. */
/*
 * `maintevo releases` names per release how many M:/R: entries its
 * MAINTAINERS lists and how many are never seen, quiet or gone, at 12 and
 * 24 months (docs/schemas.md, "releases").  Counting them needs the
 * activity index of every commit up to the release (activity.c; seconds
 * on U-Boot), too slow for that short command, so 'maintevo flow' counts
 * them once with the listed table's own code (listed.c) and stores them
 * here, one record per release in table "headline" (docs/store-format.md).
 *
 * The headline of release r depends on the stored flow of releases 0..r
 * (the history before the first, then each release's), on which releases
 * those are, and on r's MAINTAINERS.  A record keeps a stamp of all that:
 * a chain over the releases up to r of each one's tag, commit, walk rules
 * and the fingerprint of its stored flow (flow writes a release's record
 * and its index in one transaction, and the index names everything the
 * record was judged from).  A record whose stamp is not the one the store
 * gives now reads as unknown, so a run killed between flow and the
 * headline, a flow judged again, or a release added before others leave
 * no stale number: the next flow counts it again.
 */
#include "export_internal.h"
#include "maintevo/error.h"
#include "util/clock.h"
#include "util/varint.h"

#include <stdlib.h>
#include <string.h>

/* The months of the two counts: the default --quiet-months, and two years. */
static const int headline_months[2] = { 12, 24 };

/* The stamp of every release, by index: 0 when the flow up to it is not all stored. */
typedef struct {
	uint64_t *stamp;
	size_t n;
} stamp_chain;

/* The value of `tag` in `table` in *data: 1, or 0 when absent; negative on errors. */
static int get_value(void **data, size_t *len, mev_store *s, const char *table, const char *tag)
{
	int rc = mev_store_get(data, len, s, table, tag, strlen(tag));
	if (rc == MEV_ENOTFOUND)
		mev_error_clear();
	return rc == MEV_ENOTFOUND ? 0 : rc ? rc : 1;
}

/* Never 0: 0 is "absent". */
static uint64_t print_of(const void *data, size_t len)
{
	return mev__hash_bytes(data, len) | 1;
}

/* The fingerprint of the value of `tag` in `table`; 0 when absent. */
static int value_print(uint64_t *out, mev_store *s, const char *table, const char *tag)
{
	void *data = NULL;
	size_t len = 0;
	int rc = get_value(&data, &len, s, table, tag);
	*out = rc > 0 ? print_of(data, len) : 0;
	free(data);
	return rc < 0 ? rc : 0;
}

typedef struct {
	const char *tag;
	uint64_t print;
} packed_print;

/*
 * The fingerprint of a packed value as stored, read in place: its size,
 * its head (magic, kind, the zstd frame's header with the content size)
 * and its last bytes (the frame's checksum of the content), so that a
 * history before the first release of many megabytes costs no copy and no
 * unpacking on every 'releases' (docs/store-format.md, "Packing").
 */
static int packed_cb(void *ctx, const void *key, size_t klen, const void *data, size_t len)
{
	packed_print *p = ctx;
	uint8_t b[8 + 64 + 16];
	size_t head = len < 64 ? len : 64, tail = len - head < 16 ? len - head : 16;
	if (klen != strlen(p->tag) || memcmp(key, p->tag, klen) != 0)
		return 0; /* a longer tag of the same start */
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)((uint64_t)len >> (8 * i));
	memcpy(b + 8, data, head);
	memcpy(b + 8 + head, (const uint8_t *)data + len - tail, tail);
	p->print = print_of(b, 8 + head + tail);
	return 1;
}

/* The fingerprint of release r's stored flow: for the first release the
 * history before it (its record; it has no index), for the others their
 * index. */
static int flow_print(uint64_t *out, mev_store *s, size_t r, const char *tag)
{
	packed_print p = { tag, 0 };
	int rc;
	if (r > 0)
		return value_print(out, s, MEV_FLOW_INDEX_TABLE, tag);
	rc = mev_store_scan_raw(s, MEV_FLOW_BEFORE_TABLE, tag, strlen(tag), packed_cb, &p);
	*out = p.print;
	return rc == 1 ? 0 : rc;
}

/* The stamps of every release of h, in one read snapshot. */
static int chain_read(stamp_chain *c, mev_store *s, const mev_history *h)
{
	uint64_t prev = MEV__LISTED_RULES;
	mev_buf b = MEV_BUF_INIT;
	int rc;
	c->n = mev_history_release_count(h);
	if (!(c->stamp = calloc(c->n + 1, sizeof *c->stamp)))
		return mev_error_oom();
	if ((rc = mev_store_read_begin(s)))
		return rc;
	for (size_t r = 0; r < c->n && !rc; r++) {
		const mev_release *rel = mev_history_release(h, r);
		uint64_t flow;
		if ((rc = flow_print(&flow, s, r, rel->tag)) || !flow)
			break; /* this release and the later ones: none */
		b.len = 0;
		if (mev__put_uv(&b, prev) || mev__put_cstr(&b, rel->tag) ||
		    mev__buf_put(&b, rel->commit.id, sizeof rel->commit.id) ||
		    mev__put_uv(&b, rel->rules_version) || mev__put_cstr(&b, rel->rules) ||
		    mev__put_uv(&b, flow))
			rc = mev_error_oom();
		else
			prev = c->stamp[r] = mev__hash_bytes(b.ptr, b.len) | 1;
	}
	mev_store_read_end(s);
	mev__buf_free(&b);
	return rc;
}

/* --- the record: the stamp, then the counts ------------------------------------------ */

typedef struct {
	uint64_t addresses, never_seen, quiet[2], gone[2];
} headline;

static int record_encode(mev_buf *b, uint64_t stamp, const headline *v)
{
	int e = mev__put_uv(b, stamp) | mev__put_uv(b, v->addresses) | mev__put_uv(b, v->never_seen);
	for (int k = 0; k < 2; k++)
		e |= mev__put_uv(b, v->quiet[k]) | mev__put_uv(b, v->gone[k]);
	return e ? mev_error_oom() : 0;
}

/* Release r's stored headline when its stamp is `stamp` (1), else 0 (none,
 * outdated, or not of this format). */
static int record_read(headline *v, mev_store *s, const char *tag, uint64_t stamp)
{
	void *data = NULL;
	size_t len = 0;
	mev__record_reader rd;
	int rc = get_value(&data, &len, s, MEV_EXPORT_HEADLINE_TABLE, tag);
	if (rc <= 0)
		return rc;
	mev__record_reader_init(&rd, data, len);
	rc = mev__get_uv(&rd) == stamp;
	v->addresses = mev__get_uv(&rd);
	v->never_seen = mev__get_uv(&rd);
	for (int k = 0; k < 2; k++) {
		v->quiet[k] = mev__get_uv(&rd);
		v->gone[k] = mev__get_uv(&rd);
	}
	free(data);
	return rc && !rd.bad && rd.p == rd.end;
}

/* --- read: the releases table ------------------------------------------------------ */

int mev__export_headlines(mev__export_headline **out, mev_store *s, const mev_history *h)
{
	stamp_chain c = { NULL, 0 };
	mev__export_headline *v = NULL;
	int rc = chain_read(&c, s, h);
	*out = NULL;
	if (!rc && !(v = calloc(c.n + 1, sizeof *v)))
		rc = mev_error_oom();
	for (size_t r = 0; r < c.n && !rc; r++) {
		headline hl;
		int got;
		if (!c.stamp[r])
			continue;
		if ((got = record_read(&hl, s, mev_history_release(h, r)->tag, c.stamp[r])) < 0)
			rc = got;
		else if (got)
			v[r] = (mev__export_headline){ 1, hl.addresses, hl.never_seen,
						       { hl.quiet[0], hl.quiet[1] },
						       { hl.gone[0], hl.gone[1] } };
	}
	if (rc)
		free(v);
	else
		*out = v;
	free(c.stamp);
	return rc;
}

/* --- write: after flow --------------------------------------------------------------- */

/* The records to write, made before the transaction. */
typedef struct {
	MEV_VEC(char *) tags;     /* copies: the history is let go before the write */
	MEV_VEC(size_t) at;       /* each tag's record: [at[i], at[i + 1]) of buf */
	mev_buf buf;
} batch;

static int batch_put(mev_store *s, void *ctx)
{
	const batch *b = ctx;
	int rc = 0;
	for (size_t i = 0; i < b->tags.n && !rc; i++)
		rc = mev_store_put(s, MEV_EXPORT_HEADLINE_TABLE, b->tags.v[i], strlen(b->tags.v[i]),
				   b->buf.ptr + b->at.v[i], b->at.v[i + 1] - b->at.v[i]);
	return rc;
}

/* Release r's headline, counted with the listed table's code at both months. */
static int count_release(headline *v, mev__export_ctx *x, mev__activity *a, size_t r,
			 int64_t from)
{
	const mev_release *rel = mev_history_release(x->h, r);
	mev_flow_roster ro = { 0 };
	int rc = mev_flow_roster_read(&ro, x->roster, &rel->commit);
	for (int k = 0; k < 2 && !rc; k++) {
		mev_export_options o = *x->opt;
		const mev_export_options *keep = x->opt;
		mev__listed_tally t;
		o.quiet_months = headline_months[k];
		x->opt = &o;
		rc = mev__listed_headline_of(&t, x, a, r, from, &ro);
		x->opt = keep;
		v->addresses = t.addresses;
		v->never_seen = t.never_seen;
		v->quiet[k] = t.quiet;
		v->gone[k] = t.gone;
	}
	mev_flow_roster_free(&ro);
	return rc;
}

/* need[r]: release r's headline is to be counted. */
static int plan(uint8_t *need, size_t *last, mev_export_headline_result *res, mev_store *s,
		const mev_history *h, const stamp_chain *c)
{
	*last = 0;
	for (size_t r = 0; r < c->n; r++) {
		const mev_release *rel = mev_history_release(h, r);
		headline hl;
		int got = 0;
		if (!c->stamp[r] || !rel->has_files) {
			res->without++;
			continue;
		}
		if ((got = record_read(&hl, s, rel->tag, c->stamp[r])) < 0)
			return got;
		res->kept += got;
		if ((need[r] = !got))
			*last = r + 1;
	}
	return 0;
}

/* Walk the releases up to the last to count in order, the activity index
 * built once, and keep the records of those to count in b. */
static int count_all(batch *b, mev__export_ctx *x, const uint8_t *need, size_t last,
		     const stamp_chain *c)
{
	mev__activity a;
	int64_t from = INT64_MIN;
	int rc = mev__act_init(&a, MEV_EXPORT_FOLD_NAMES);
	for (size_t r = 0; r < last && !rc; r++) {
		headline v;
		char *tag = NULL;
		if ((rc = mev__listed_add(&a, &from, x, r)) || !need[r])
			continue;
		if ((rc = count_release(&v, x, &a, r, from)) || (rc = record_encode(&b->buf, c->stamp[r], &v)))
			continue;
		if (!(tag = strdup(mev_history_release(x->h, r)->tag)) || MEV_VEC_PUSH(&b->tags, tag) ||
		    MEV_VEC_PUSH(&b->at, b->buf.len)) {
			free(tag);
			rc = mev_error_oom();
		}
	}
	mev__act_free(&a);
	return rc;
}

int mev_export_headline_update(mev_export_headline_result *res, mev_store *s, const char *repo)
{
	static const mev_export_options defaults = { 0 };
	mev__export_ctx x = { s, NULL, &defaults, NULL, NULL, NULL, 0, NULL, NULL, NULL };
	mev_history *own = NULL;
	stamp_chain c = { NULL, 0 };
	batch b = { { 0 }, { 0 }, MEV_BUF_INIT };
	uint8_t *need = NULL;
	size_t last = 0;
	double t0 = mev__now();
	int rc;
	memset(res, 0, sizeof *res);
	if ((rc = mev_history_use(&x.h, &own, s, NULL, NULL, 0)) || (rc = chain_read(&c, s, x.h)))
		goto done;
	if (!(need = calloc(c.n + 1, 1)) || MEV_VEC_PUSH(&b.at, 0)) {
		rc = mev_error_oom();
		goto done;
	}
	if ((rc = plan(need, &last, res, s, x.h, &c)) || !last)
		goto done; /* nothing to count: no repository opened */
	if (!(rc = mev_flow_roster_reader_new(&x.roster, s, repo)))
		rc = count_all(&b, &x, need, last, &c);
	/* the history's read snapshot let go: no write begins while one is held */
	mev_history_free(own);
	own = NULL;
	if (!rc && !(rc = mev_store_write(s, batch_put, &b)))
		res->computed = b.tags.n;
done:
	res->seconds = mev__now() - t0;
	mev_flow_roster_reader_free(x.roster);
	for (size_t i = 0; i < b.tags.n; i++)
		free(b.tags.v[i]);
	MEV_VEC_FREE(&b.tags);
	MEV_VEC_FREE(&b.at);
	mev__buf_free(&b.buf);
	free(need);
	free(c.stamp);
	mev_history_free(own);
	return rc;
}
