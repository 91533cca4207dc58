/*
 * Checking what the release module stores, record by record, and dropping
 * what is damaged so that the next walk computes it again.  A release goes
 * with any of its records (release, file table, notes) and takes along the
 * releases whose file tables are deltas against it.
 */
#include "release_internal.h"
#include "maintevo/error.h"
#include "maintevo/tags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mev_release_tables[] = { "releases", "tables", "diags", "patterns", "health", "blobs",
					       "meta", MEV__ALIAS_TABLE, NULL };

#define CANNOT_READ "cannot read release '%s'"

int mev__release_damaged(mev_store *s, int rc, const char *tag)
{
	if (rc != MEV_ECORRUPT)
		return rc;
	if (tag)
		mev_error_prefix(CANNOT_READ, tag);
	else
		mev_error_prefix("cannot list the releases");
	mev_error_hint("'maintevo store repair --store %s' drops the damaged releases (and those "
		       "that need them); the next walk computes them again", mev_store_dir(s));
	return rc;
}

/* A stored release as the check sees it. */
typedef struct {
	char *tag, *base;
	int has_files, snapshot;
	int bad;              /* one of its records is damaged, or its chain is */
} node;

typedef struct {
	mev_release_check_result *res;
	mev_store *s;
	MEV_VEC(node) nodes;
	MEV_VEC(char *) keys;  /* of the table being scanned */
} checker;

static int add(mev_release_check_result *r, const char *table, const char *key, const char *tag,
	       const char *what)
{
	mev_release_damage *v = realloc(r->v, (r->n + 1) * sizeof *v), *d;
	if (!v)
		return mev_error_oom();
	r->v = v;
	d = &v[r->n];
	d->table = strdup(table);
	d->key = strdup(key);
	d->tag = tag ? strdup(tag) : NULL;
	d->what = strdup(what);
	d->order = r->n;
	if (!d->table || !d->key || (tag && !d->tag) || !d->what) {
		free(d->table), free(d->key), free(d->tag), free(d->what);
		return mev_error_oom();
	}
	r->n++;
	return 0;
}

/* A read that failed: damage when MEV_ECORRUPT (its message says what),
 * else the error itself. */
static int record(checker *c, node *nd, const char *table, int rc)
{
	char head[600];
	const char *what = mev_error_message();
	if (rc != MEV_ECORRUPT)
		return rc;
	/* the message, without the reader's "cannot read release 'tag': " */
	snprintf(head, sizeof head, CANNOT_READ ": ", nd->tag);
	if (strncmp(what, head, strlen(head)) == 0)
		what += strlen(head);
	nd->bad = 1;
	return add(c->res, table, nd->tag, nd->tag, what);
}

static int key_cb(void *ctx, const void *key, size_t klen, const void *data, size_t len)
{
	checker *c = ctx;
	char *k = strndup(key, klen);
	(void)data;
	(void)len;
	if (!k || MEV_VEC_PUSH(&c->keys, k)) {
		free(k);
		return mev_error_oom();
	}
	return 0;
}

static void keys_clear(checker *c)
{
	for (size_t i = 0; i < c->keys.n; i++)
		free(c->keys.v[i]);
	c->keys.n = 0;
}

/* The node of `tag`: a binary search, the nodes being in version order
 * (a linear one made the check of n releases O(n^2)). */
static node *find(checker *c, const char *tag)
{
	size_t lo = 0, hi = c->nodes.n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (mev_tag_cmp(c->nodes.v[mid].tag, tag) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nodes.n && strcmp(c->nodes.v[lo].tag, tag) == 0 ? &c->nodes.v[lo] : NULL;
}

/* The records of one release: the release record whole (numbers, sections,
 * graph), its file table parsed, its notes, its patterns (when stored). */
static int check_release(checker *c, node *nd)
{
	mev_release m;
	mev_filemap *secs = NULL;
	mev_graph *g = NULL;
	char **d = NULL;
	size_t nd_ = 0;
	int rc = mev__release_get(&m, c->s, nd->tag);
	c->res->records++;
	if (rc)
		return record(c, nd, "releases", rc);
	nd->has_files = m.has_files;
	nd->snapshot = m.snapshot;
	nd->base = m.base;
	m.base = NULL;
	mev__release_clear(&m);
	if ((rc = mev_release_load_graph(&secs, &g, c->s, nd->tag, 1)))
		return record(c, nd, "releases", rc);
	if (nd->has_files) {
		c->res->records++;
		rc = mev__filetable_check(c->s, nd->tag, mev_filemap_section_count(secs));
	}
	mev_graph_free(g);
	mev_filemap_free(secs);
	if (rc)
		return record(c, nd, "tables", rc);
	c->res->records++;
	if ((rc = mev_release_load_diags(&d, &nd_, c->s, nd->tag)))
		return record(c, nd, "diags", rc);
	mev_release_diags_free(d, nd_);
	{
		mev_release_patterns p;
		rc = mev_release_load_patterns(&p, c->s, nd->tag);
		mev_release_patterns_free(&p);
		c->res->records += rc != MEV_ENOTFOUND;
		if (rc && rc != MEV_ENOTFOUND) /* none: walked before patterns were kept */
			return record(c, nd, "patterns", rc);
	}
	{
		mev_release_health h;
		rc = mev_release_load_health(&h, c->s, nd->tag);
		mev_release_health_free(&h);
		c->res->records += rc != MEV_ENOTFOUND;
		if (rc && rc != MEV_ENOTFOUND) /* none: walked before it was kept */
			return record(c, nd, "health", rc);
	}
	return 0;
}

/* A release whose table is a delta against a damaged or missing one is
 * lost with it; repeated until nothing changes. */
static int check_chains(checker *c)
{
	int changed = 1, rc = 0;
	char what[600];
	while (changed && !rc) {
		changed = 0;
		for (size_t i = 0; i < c->nodes.n && !rc; i++) {
			node *nd = &c->nodes.v[i], *b;
			if (nd->bad || !nd->has_files || nd->snapshot)
				continue;
			b = find(c, nd->base);
			if (b && !b->bad)
				continue;
			snprintf(what, sizeof what, "its file table is a delta against '%s', which is %s",
				 nd->base, b ? "damaged" : "not stored");
			nd->bad = changed = 1;
			rc = add(c->res, "tables", nd->tag, nd->tag, what);
		}
	}
	return rc;
}

/* Records of "tables", "diags", "patterns" and "health" without a release record. */
static int check_orphans(checker *c)
{
	static const char *const tables[] = { "tables", "diags", "patterns", "health" };
	int rc = 0;
	for (int t = 0; t < 4 && !rc; t++) {
		keys_clear(c);
		rc = mev_store_scan_raw(c->s, tables[t], NULL, 0, key_cb, c);
		for (size_t i = 0; i < c->keys.n && !rc; i++)
			if (!find(c, c->keys.v[i]))
				rc = add(c->res, tables[t], c->keys.v[i], c->keys.v[i], "no release record goes with it");
	}
	return rc;
}

/* A repeat (alias) reads a stored, sound release of its own commit. */
static int alias_check_cb(void *ctx, const char *tag, const mev__alias *a)
{
	checker *c = ctx;
	const node *t = a->damaged ? NULL : find(c, a->target);
	mev_release m;
	int rc;
	c->res->records++;
	c->res->releases++;
	if (a->damaged)
		return add(c->res, MEV__ALIAS_TABLE, tag, tag, "its alias record is damaged");
	if (find(c, tag))
		return add(c->res, MEV__ALIAS_TABLE, tag, tag, "it is both a release and a repeat of one");
	if (!t)
		return add(c->res, MEV__ALIAS_TABLE, tag, tag, "it repeats a release that is not stored");
	if (t->bad)
		return add(c->res, MEV__ALIAS_TABLE, tag, tag, "it repeats a damaged release");
	if ((rc = mev__release_get(&m, c->s, tag)))
		return rc == MEV_ECORRUPT ? add(c->res, MEV__ALIAS_TABLE, tag, tag, mev_error_message()) : rc;
	mev__release_clear(&m);
	return 0;
}

static int blob_cb(void *ctx, const void *key, size_t klen, const void *data, size_t len)
{
	checker *c = ctx;
	mev_oid oid = { { 0 } };
	uint64_t lines, bytes;
	char hex[41];
	int rc;
	memcpy(oid.id, key, klen < 20 ? klen : 20);
	mev_oid_fmt(hex, &oid);
	c->res->records++;
	if (klen != 20)
		return add(c->res, "blobs", hex, NULL, "its key is not a blob id");
	rc = mev__blob_decode(&lines, &bytes, &oid, data, len);
	c->res->blobs_unchecked += rc == 0;
	return rc < 0 ? add(c->res, "blobs", hex, NULL, mev_error_message()) : 0;
}

/* Full check: every file table rebuilt from its chain, every blob size. */
static int check_full(checker *c)
{
	int rc = 0;
	for (size_t i = 0; i < c->nodes.n && !rc; i++) {
		node *nd = &c->nodes.v[i];
		mev_filemap *fm = NULL;
		if (nd->bad || !nd->has_files)
			continue;
		rc = record(c, nd, "tables", mev_release_load_filemap(&fm, c->s, nd->tag));
		mev_filemap_free(fm);
	}
	if (!rc)
		rc = check_chains(c);
	if (!rc)
		rc = mev_store_scan_raw(c->s, "blobs", NULL, 0, blob_cb, c);
	return rc;
}

static int node_cmp(const void *a, const void *b)
{
	return mev_tag_cmp(((const node *)a)->tag, ((const node *)b)->tag);
}

/* Damage by release, in version order (the order found within one), then
 * what belongs to no release. */
static int damage_cmp(const void *a, const void *b)
{
	const mev_release_damage *x = a, *y = b;
	int c = !x->tag - !y->tag;
	if (!c && x->tag)
		c = mev_tag_cmp(x->tag, y->tag);
	return c ? c : (x->order > y->order) - (x->order < y->order);
}

static void checker_free(checker *c)
{
	keys_clear(c);
	MEV_VEC_FREE(&c->keys);
	for (size_t i = 0; i < c->nodes.n; i++) {
		free(c->nodes.v[i].tag);
		free(c->nodes.v[i].base);
	}
	MEV_VEC_FREE(&c->nodes);
}

int mev_release_check(mev_release_check_result *out, mev_store *s, unsigned flags)
{
	checker c = { out, s, { 0 }, { 0 } };
	mev_identity id;
	int rc;

	memset(out, 0, sizeof *out);
	/* one commit throughout: a walk writing meanwhile is no damage */
	if ((rc = mev_store_read_begin(s)))
		return rc;
	out->records++;
	rc = mev_release_identity_get(&id, s);
	if (rc == MEV_ECORRUPT) {
		out->identity = 1;
		rc = add(out, "meta", "identity", NULL, mev_error_message());
	} else if (rc == MEV_ENOTFOUND) {
		out->records--;
		rc = 0;
	}
	if (!rc)
		rc = mev_store_scan_raw(s, "releases", NULL, 0, key_cb, &c);
	for (size_t i = 0; i < c.keys.n && !rc; i++) {
		node nd = { c.keys.v[i], NULL, 0, 0, 0 };
		if (MEV_VEC_PUSH(&c.nodes, nd))
			rc = mev_error_oom();
		else
			c.keys.v[i] = NULL;
	}
	if (c.nodes.n > 1)
		qsort(c.nodes.v, c.nodes.n, sizeof *c.nodes.v, node_cmp);
	out->releases = c.nodes.n;
	for (size_t i = 0; i < c.nodes.n && !rc; i++)
		rc = check_release(&c, &c.nodes.v[i]);
	if (!rc)
		rc = check_chains(&c);
	if (!rc)
		rc = check_orphans(&c);
	if (!rc)
		rc = mev__alias_scan(s, alias_check_cb, &c);
	if (!rc && (flags & MEV_RELEASE_CHECK_FULL))
		rc = check_full(&c);
	mev_store_read_end(s);
	checker_free(&c);
	if (rc) {
		mev_release_check_free(out);
		return rc;
	}
	if (out->n > 1)
		qsort(out->v, out->n, sizeof *out->v, damage_cmp);
	return 0;
}

void mev_release_check_free(mev_release_check_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].table);
		free(r->v[i].key);
		free(r->v[i].tag);
		free(r->v[i].what);
	}
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

/* --- dropping what is damaged ---------------------------------------------- */

static int drop(mev_store *s, void *ctx)
{
	mev_release_check_result *r = ctx;
	checker c = { r, s, { 0 }, { 0 } };
	int rc = 0;
	r->dropped = 0;
	if (r->identity) {
		/* whose history this is, unknown: the releases go with it */
		if (!(rc = mev_store_delete(s, "meta", "identity", 8)))
			rc = mev_store_scan_raw(s, "releases", NULL, 0, key_cb, &c);
		if (!rc)
			rc = mev_store_scan_raw(s, MEV__ALIAS_TABLE, NULL, 0, key_cb, &c);
		for (size_t i = 0; i < c.keys.n && !rc; i++)
			rc = mev_release_delete(s, c.keys.v[i]);
		r->dropped = c.keys.n;
	}
	for (size_t i = 0; i < r->n && !rc; i++) {
		const mev_release_damage *d = &r->v[i];
		int first = 1;
		if (strcmp(d->table, "blobs") == 0) {
			mev_oid oid;
			if (mev_oid_parse(&oid, d->key) == 0)
				rc = mev_store_delete(s, "blobs", oid.id, 20);
			continue;
		}
		if (!d->tag || r->identity)
			continue;
		for (size_t k = 0; k < i && first; k++)
			first = !r->v[k].tag || strcmp(r->v[k].tag, d->tag) != 0;
		r->dropped += first;
		rc = mev_release_delete(s, d->tag);
	}
	keys_clear(&c);
	MEV_VEC_FREE(&c.keys);
	return rc;
}

int mev_release_repair(mev_release_check_result *out, mev_store *s, unsigned flags)
{
	int rc = mev_release_check(out, s, flags);
	if (!rc && out->n && (rc = mev_store_write(s, drop, out)))
		mev_release_check_free(out);
	return rc;
}
