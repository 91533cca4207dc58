/*
 * The causes of a pair's events in words (one sentence each) and as
 * stored: the causes record beside the events record, under
 * "<result key>/cause:rename=R\0<tag>" (docs/tracking.md, "Causes").
 */
#include "track_internal.h"
#include "maintevo/error.h"
#include "maintevo/table.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CAUSE_REC_VERSION = 3 };

/* Items named in a sentence: MAINTAINERS changes. */
enum { SAY_CHANGES = 3 };

static const char *const kind_names[MEV__CAUSE_KINDS] = { "none", "maintainers", "code",
							   "maintainers+code", "unknown" };
static const char *const item_names[MEV_CAUSE_ITEM_KINDS] = {
	"section added", "section removed", "section renamed", "pattern added", "pattern removed",
	"file appeared", "file vanished", "file moved", "file changed"
};

const char *mev__cause_kind_name(int kind)
{
	return kind >= 0 && kind < MEV__CAUSE_KINDS ? kind_names[kind] : "";
}

const char *mev_cause_item_name(mev_cause_item_kind k)
{
	return (unsigned)k < MEV_CAUSE_ITEM_KINDS ? item_names[k] : "?";
}

int mev__cause_key(mev_buf *k, const mev_cluster_params *cp, const mev_track_params *tp, const char *tag)
{
	char pk[256], sk[64];
	size_t n = mev_track_result_key(pk, sizeof pk, cp, tp);
	int m = snprintf(sk, sizeof sk, "/cause:rename=%g", tp->rename);
	mev__buf_clear(k);
	return mev__buf_put(k, pk, n) || mev__buf_put(k, sk, (size_t)m + 1) || (tag && mev__buf_puts(k, tag))
		       ? mev_error_oom()
		       : 0;
}

/* --- the sentence --------------------------------------------------------------- */

static const char *shown(mev__show_fn show, const void *ctx, int newer, const char *title)
{
	return show && title[0] ? show(ctx, newer, title) : title;
}

/* One MAINTAINERS change in words. */
static int say_change(mev_buf *b, const mev_cause_item *it, mev__show_fn show, const void *ctx)
{
	switch (it->kind) {
	case MEV_CAUSE_SECTION_ADDED:
		return mev__buf_printf(b, "section %s added", shown(show, ctx, 1, it->section));
	case MEV_CAUSE_SECTION_REMOVED:
		return mev__buf_printf(b, "section %s removed", shown(show, ctx, 0, it->section));
	case MEV_CAUSE_SECTION_RENAMED:
		return mev__buf_printf(b, "section %s renamed to %s", shown(show, ctx, 0, it->section),
				       shown(show, ctx, 1, it->new_section));
	case MEV_CAUSE_PATTERN_ADDED:
	case MEV_CAUSE_PATTERN_REMOVED: {
		int added = it->kind == MEV_CAUSE_PATTERN_ADDED;
		return mev__buf_printf(b, "%c: %s (%s:%" PRIu32 ") %s %s", it->field, it->value, it->file,
				       it->line, added ? "added to" : "removed from",
				       shown(show, ctx, added, it->section));
	}
	default:
		return 0;
	}
}

/* Whether item `it` is a pattern of a section the cause lists as added or
 * removed (the sentence names the section only). */
static int of_listed_section(const mev__event_cause *ec, const mev_cause_item *it)
{
	mev_cause_item_kind want = it->kind == MEV_CAUSE_PATTERN_ADDED ? MEV_CAUSE_SECTION_ADDED
								      : MEV_CAUSE_SECTION_REMOVED;
	if (it->kind != MEV_CAUSE_PATTERN_ADDED && it->kind != MEV_CAUSE_PATTERN_REMOVED)
		return 0;
	for (size_t i = 0; i < ec->c.n && ec->c.v[i].kind <= MEV_CAUSE_SECTION_RENAMED; i++)
		if (ec->c.v[i].kind == want && strcmp(ec->c.v[i].section, it->section) == 0)
			return 1;
	return 0;
}

static int say_maintainers(mev_buf *b, const mev__event_cause *ec, mev__show_fn show, const void *ctx)
{
	size_t n = 0, said = 0;
	int rc = 0;
	for (size_t i = 0; i < ec->c.n; i++)
		n += ec->c.v[i].kind <= MEV_CAUSE_PATTERN_REMOVED && !of_listed_section(ec, &ec->c.v[i]);
	n += ec->c.more_patterns;
	if (!n)
		return 0;
	rc |= mev__buf_puts(b, "MAINTAINERS: ");
	for (size_t i = 0; i < ec->c.n && said < SAY_CHANGES && !rc; i++) {
		if (ec->c.v[i].kind > MEV_CAUSE_PATTERN_REMOVED || of_listed_section(ec, &ec->c.v[i]))
			continue;
		rc |= said ? mev__buf_puts(b, ", ") : 0;
		rc |= say_change(b, &ec->c.v[i], show, ctx);
		said++;
	}
	if (n > said)
		rc |= mev__buf_printf(b, " and %zu more change%s", n - said, n - said == 1 ? "" : "s");
	return rc;
}

/* The largest file of kind k in words, after its count. */
static int say_files(mev_buf *b, const mev__event_cause *ec, mev_cause_item_kind k, mev__show_fn show,
		     const void *ctx)
{
	static const char *const verbs[] = { "appeared", "vanished", "moved", "changed size" };
	size_t x = k - MEV_CAUSE_FILE_APPEARED;
	const mev_cause_item *it = NULL;
	char n1[32], n2[32];
	int rc;
	for (size_t i = 0; i < ec->c.n && !it; i++)
		if (ec->c.v[i].kind == k)
			it = &ec->c.v[i];
	if (!ec->c.files[x] || !it)
		return 0;
	rc = mev__buf_printf(b, "%s file%s %s (%s line%s%s", mev_table_count(n1, (int64_t)ec->c.files[x]),
			     ec->c.files[x] == 1 ? "" : "s", verbs[x], mev_table_count(n2, (int64_t)ec->c.lines[x]),
			     ec->c.lines[x] == 1 ? "" : "s", k == MEV_CAUSE_FILE_CHANGED ? " difference" : "");
	rc |= mev__buf_printf(b, "%s %s", ec->c.files[x] == 1 ? ":" : "; largest", it->path);
	if (k == MEV_CAUSE_FILE_MOVED)
		rc |= mev__buf_printf(b, " from %s to %s",
				      it->from_cluster[0] ? shown(show, ctx, 0, it->from_cluster) : "no cluster",
				      it->to_cluster[0] ? shown(show, ctx, 1, it->to_cluster) : "no cluster");
	return rc | mev__buf_puts(b, ")");
}

static int say_code(mev_buf *b, const mev__event_cause *ec, mev__show_fn show, const void *ctx)
{
	static const mev_cause_item_kind order[] = { MEV_CAUSE_FILE_MOVED, MEV_CAUSE_FILE_APPEARED,
						     MEV_CAUSE_FILE_VANISHED, MEV_CAUSE_FILE_CHANGED };
	int rc = mev__buf_puts(b, "code: "), first = 1;
	for (size_t i = 0; i < 4 && !rc; i++) {
		if (!ec->c.files[order[i] - MEV_CAUSE_FILE_APPEARED])
			continue;
		if (!first)
			rc |= mev__buf_puts(b, ", ");
		rc |= say_files(b, ec, order[i], show, ctx);
		first = 0;
	}
	return rc;
}

int mev__cause_sentence(char **out, const mev__event_cause *ec, mev__show_fn show, const void *ctx)
{
	mev_buf b = MEV_BUF_INIT;
	int rc = 0;
	*out = NULL;
	if (ec->kind == MEV__CAUSE_NONE) {
		rc = mev__buf_printf(&b, "no MAINTAINERS or code change: the clustering alone changed (the "
				     "files that changed hold %.1f%% of the lines of the sections involved)",
				     100 * ec->c.code_share);
		goto done;
	}
	rc |= say_maintainers(&b, ec, show, ctx);
	if (!ec->c.code) {
		/* an import: graphs only */
		rc |= mev__buf_printf(&b, "%sno MAINTAINERS patterns or file tables stored (imported "
				      "graphs): only the sections added, removed and renamed are compared",
				      b.len ? "; " : "");
		goto done;
	}
	if (!ec->c.patterns)
		rc |= mev__buf_printf(&b, "%sMAINTAINERS patterns are not stored for these releases (walk "
				      "--rebuild to get them)", b.len ? "; " : "");
	if (b.len)
		rc |= mev__buf_puts(&b, "; ");
	if (ec->code_counts)
		rc |= say_code(&b, ec, show, ctx);
	else
		rc |= mev__buf_printf(&b, "code: no notable change (the files that changed hold %.1f%% of "
				      "the lines of the sections involved)", 100 * ec->c.code_share);
done:
	if (rc)
		rc = mev_error_oom();
	if (!rc)
		*out = mev__buf_detach(&b);
	mev__buf_free(&b);
	return rc;
}

/* --- the record --------------------------------------------------------------------- */

static int put_head(mev_buf *b, const mev__cause_head *h)
{
	return mev__put_uv(b, CAUSE_REC_VERSION) | mev__put_uv(b, h->events_hash) | mev__put_uv(b, h->fp_from) |
	       mev__put_uv(b, h->fp_to) | mev__put_uv(b, h->patterns);
}

static int get_head(mev__cause_head *h, mev__record_reader *r)
{
	if (mev__get_uv(r) != CAUSE_REC_VERSION)
		return -1;
	h->events_hash = mev__get_uv(r);
	h->fp_from = mev__get_uv(r);
	h->fp_to = mev__get_uv(r);
	h->patterns = (unsigned)mev__get_uv(r);
	return r->bad ? -1 : 0;
}

static int put_item(mev_buf *b, const mev_cause_item *it)
{
	int rc = mev__put_uv(b, (uint64_t)it->kind);
	rc |= mev__put_cstr(b, it->section);
	rc |= mev__put_cstr(b, it->new_section);
	rc |= mev__put_uv(b, (uint8_t)it->field);
	rc |= mev__put_cstr(b, it->value);
	rc |= mev__put_cstr(b, it->file);
	rc |= mev__put_uv(b, it->line);
	rc |= mev__put_cstr(b, it->path);
	rc |= mev__put_cstr(b, it->old_path);
	rc |= mev__put_uv(b, it->lines);
	rc |= mev__put_uv(b, it->old_lines);
	rc |= mev__put_cstr(b, it->from_cluster);
	rc |= mev__put_cstr(b, it->to_cluster);
	return rc;
}

int mev__encode_causes(mev_buf *b, const mev__cause_head *h, const mev__event_cause *c, size_t n)
{
	int rc = put_head(b, h) | mev__put_uv(b, n);
	for (size_t i = 0; i < n && !rc; i++) {
		const mev__event_cause *ec = &c[i];
		rc |= mev__put_uv(b, ec->wanted ? (uint64_t)ec->kind + 1 : 0);
		if (!ec->wanted)
			continue;
		rc |= mev__put_cstr(b, ec->sentence);
		rc |= mev__put_uv(b, (uint64_t)(ec->c.patterns ? 1 : 0) | (ec->c.code ? 2 : 0));
		rc |= mev__put_uv(b, mev__f64_bits(ec->c.code_share));
		for (size_t k = 0; k < MEV_CAUSE_FILE_KINDS; k++)
			rc |= mev__put_uv(b, ec->c.files[k]) | mev__put_uv(b, ec->c.lines[k]);
		rc |= mev__put_uv(b, ec->c.more_patterns);
		rc |= mev__put_uv(b, ec->c.n);
		for (size_t k = 0; k < ec->c.n && !rc; k++)
			rc |= put_item(b, &ec->c.v[k]);
	}
	return rc ? mev_error_oom() : 0;
}

int mev__causes_fresh(const void *data, size_t len, const mev__cause_head *h)
{
	mev__cause_head x;
	mev__record_reader r;
	mev__record_reader_init(&r, data, len);
	return get_head(&x, &r) == 0 && x.events_hash == h->events_hash && x.fp_from == h->fp_from &&
	       x.fp_to == h->fp_to && x.patterns == h->patterns;
}

/* A string of the record, copied into the arena ("" on failure: *oom). */
static const char *get_str(mev_arena *a, mev__record_reader *r, int *oom)
{
	size_t l;
	const char *p = mev__get_str(r, &l);
	char *c = r->bad ? NULL : mev__arena_strndup(a, p, l);
	if (!c && !r->bad)
		*oom = 1;
	return c ? c : "";
}

static void get_item(mev_cause_item *it, mev_arena *a, mev__record_reader *r, int *oom)
{
	uint64_t kind = mev__get_uv(r);
	it->kind = (mev_cause_item_kind)kind;
	it->section = get_str(a, r, oom);
	it->new_section = get_str(a, r, oom);
	it->field = (char)mev__get_uv(r);
	it->value = get_str(a, r, oom);
	it->file = get_str(a, r, oom);
	it->line = (uint32_t)mev__get_uv(r);
	it->path = get_str(a, r, oom);
	it->old_path = get_str(a, r, oom);
	it->lines = mev__get_uv(r);
	it->old_lines = mev__get_uv(r);
	it->from_cluster = get_str(a, r, oom);
	it->to_cluster = get_str(a, r, oom);
	if (kind >= MEV_CAUSE_ITEM_KINDS)
		r->bad = 1;
}

/* One event's cause (after its kind, not 0) into *out. */
static int get_cause(mev__read_cause *out, mev_arena *a, mev__record_reader *r, size_t len)
{
	mev_cause *c = mev__arena_alloc(a, sizeof *c, sizeof(void *));
	mev_cause_item *v;
	uint64_t flags, n;
	int oom = 0;
	if (!c)
		return mev_error_oom();
	memset(c, 0, sizeof *c);
	out->sentence = get_str(a, r, &oom);
	flags = mev__get_uv(r);
	c->patterns = (flags & 1) != 0;
	c->code = (flags & 2) != 0;
	c->code_share = mev__bits_f64(mev__get_uv(r));
	for (size_t k = 0; k < MEV_CAUSE_FILE_KINDS; k++) {
		c->files[k] = mev__get_uv(r);
		c->lines[k] = mev__get_uv(r);
	}
	c->more_patterns = mev__get_uv(r);
	n = mev__get_uv(r);
	if (r->bad || n > len)
		return r->bad = 1, 0;
	if (!(v = mev__arena_alloc(a, (n + 1) * sizeof *v, sizeof(void *))))
		return mev_error_oom();
	for (uint64_t k = 0; k < n && !r->bad; k++)
		get_item(&v[k], a, r, &oom);
	c->v = v;
	c->n = (size_t)n;
	out->detail = c;
	return oom ? mev_error_oom() : 0;
}

int mev__causes_decode(mev__read_cause **out, size_t *n, mev_arena *arena, const void *data, size_t len,
		       uint64_t events_hash, const char *tag)
{
	mev__cause_head h;
	mev__record_reader r;
	uint64_t count;
	int rc = 0;
	*out = NULL;
	*n = 0;
	mev__record_reader_init(&r, data, len);
	if (get_head(&h, &r) || h.events_hash != events_hash)
		return 1;
	count = mev__get_uv(&r);
	if (r.bad || count > len)
		return mev_error_set(MEV_ECORRUPT, "the causes of '%s' are damaged", tag);
	if (!(*out = calloc(count + 1, sizeof **out)))
		return mev_error_oom();
	for (uint64_t i = 0; i < count && !r.bad && !rc; i++) {
		uint64_t kind = mev__get_uv(&r);
		mev__read_cause *c = &(*out)[i];
		c->kind = kind ? mev__cause_kind_name((int)kind - 1) : "";
		c->sentence = "";
		if (kind > MEV__CAUSE_KINDS)
			r.bad = 1;
		else if (kind)
			rc = get_cause(c, arena, &r, len);
	}
	if (!rc && r.bad)
		rc = mev_error_set(MEV_ECORRUPT, "the causes of '%s' are damaged", tag);
	if (rc) {
		free(*out);
		*out = NULL;
		return rc;
	}
	*n = (size_t)count;
	return 0;
}
