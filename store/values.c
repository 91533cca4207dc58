/*
 * Values in named tables: get, put, delete and scan, each in the open
 * write transaction or a read transaction of its own, packed (codec.c) or
 * raw.  What the values mean is up to the modules above the store.
 */
#include "store_internal.h"
#include "codec.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

/* The value as stored, copied into out before the read transaction ends. */
static int raw_get(mev_buf *out, mev_store *s, const char *table, const void *key, size_t klen)
{
	MDB_txn *txn;
	MDB_dbi dbi;
	MDB_val k = { klen, (void *)key }, v;
	int own, rc;
	if (klen == 0 || klen > MEV__STORE_KEY_MAX)
		return MEV_ENOTFOUND; /* no such key can be stored */
	if ((rc = mev__store_txn(s, &txn, &own)))
		return rc;
	rc = mev__store_dbi(s, txn, table, &dbi);
	if (rc == 0) {
		rc = mdb_get(txn, dbi, &k, &v);
		if (rc == MDB_NOTFOUND) {
			rc = MEV_ENOTFOUND;
		} else if (rc) {
			rc = mev__store_fail(rc, "cannot read the store");
		} else {
			mev__buf_clear(out);
			rc = mev__buf_put(out, v.mv_data, v.mv_size);
		}
	}
	mev__store_txn_done(txn, own);
	return rc;
}

static int raw_put(mev_store *s, const char *table, const void *key, size_t klen, const void *data,
		   size_t len)
{
	MDB_dbi dbi;
	MDB_val k = { klen, (void *)key }, v = { len, (void *)data };
	int rc;
	if (!s->wtxn)
		return mev_error_set(MEV_ESTORE, "store write outside a transaction");
	if (klen == 0 || klen > MEV__STORE_KEY_MAX)
		return mev_error_set(MEV_EINVAL, "a store key has 1 to %d bytes, not %zu", MEV__STORE_KEY_MAX,
				     klen);
	if ((rc = mev__store_dbi(s, s->wtxn, table, &dbi)))
		return rc;
	rc = mdb_put(s->wtxn, dbi, &k, &v, 0);
	if (rc)
		return mev__store_write_fail(s->dir, rc, "cannot write to the store", s->free_before, 0);
	return 0;
}

int mev_store_delete(mev_store *s, const char *table, const void *key, size_t klen)
{
	MDB_dbi dbi;
	MDB_val k = { klen, (void *)key };
	int rc;
	if (!s->wtxn)
		return mev_error_set(MEV_ESTORE, "store write outside a transaction");
	if (klen == 0 || klen > MEV__STORE_KEY_MAX)
		return 0; /* no such key can be stored */
	rc = mev__store_dbi(s, s->wtxn, table, &dbi);
	if (rc == MEV_ENOTFOUND)
		return 0;
	if (rc)
		return rc;
	rc = mdb_del(s->wtxn, dbi, &k, NULL);
	if (rc && rc != MDB_NOTFOUND)
		return mev__store_write_fail(s->dir, rc, "cannot delete from the store", s->free_before, 0);
	return 0;
}

int mev_store_scan_raw(mev_store *s, const char *table, const void *prefix, size_t plen,
		       int (*fn)(void *ctx, const void *key, size_t klen, const void *data, size_t len),
		       void *ctx)
{
	MDB_txn *txn;
	MDB_dbi dbi;
	MDB_cursor *cur = NULL;
	MDB_val k = { plen, (void *)prefix }, v;
	int own, rc, r;
	if ((rc = mev__store_txn(s, &txn, &own)))
		return rc;
	rc = mev__store_dbi(s, txn, table, &dbi);
	if (rc == MEV_ENOTFOUND) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	if ((rc = mdb_cursor_open(txn, dbi, &cur))) {
		rc = mev__store_fail(rc, "cannot read the store");
		goto done;
	}
	r = plen ? mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE) : mdb_cursor_get(cur, &k, &v, MDB_FIRST);
	while (r == 0) {
		if (plen && (k.mv_size < plen || memcmp(k.mv_data, prefix, plen)))
			break;
		if ((rc = fn(ctx, k.mv_data, k.mv_size, v.mv_data, v.mv_size)))
			break;
		r = mdb_cursor_get(cur, &k, &v, MDB_NEXT);
	}
	if (!rc && r && r != MDB_NOTFOUND)
		rc = mev__store_fail(r, "cannot read the store");
done:
	mdb_cursor_close(cur);
	mev__store_txn_done(txn, own);
	return rc;
}

/* --- records of a kind ------------------------------------------------------ */

/* Records up to this size are remembered per table (store_internal.h). */
enum { LAST_MAX = 4 << 20 };

/* The slot of `table` among the last records packed, or -1 (none left). */
static int last_slot(mev_store *s, const char *table)
{
	for (int i = 0; i < MEV__STORE_MAX_TABLES; i++) {
		if (strcmp(s->last[i].name, table) == 0)
			return i;
		if (!s->last[i].name[0]) {
			if (strlen(table) >= MEV__STORE_NAME)
				return -1;
			strcpy(s->last[i].name, table);
			return i;
		}
	}
	return -1;
}

/* data packed as a record of `kind` (s->scratch, or the same bytes
 * remembered from the last record of the table: zstd packs equal input
 * into equal output); *out, *olen where the packed bytes are. */
static int pack_record(const void **out, size_t *olen, mev_store *s, const char *table, char kind,
		       int level, const void *data, size_t len)
{
	int k = len <= LAST_MAX ? last_slot(s, table) : -1, rc;
	if (k >= 0 && s->last[k].kind == kind && s->last[k].level == level && s->last[k].raw.len == len &&
	    s->last[k].packed.len && (len == 0 || memcmp(s->last[k].raw.ptr, data, len) == 0)) {
		*out = s->last[k].packed.ptr;
		*olen = s->last[k].packed.len;
		return 0;
	}
	if ((rc = mev__pack(&s->scratch, &s->cctx, kind, data, len, level)))
		return rc;
	*out = s->scratch.ptr;
	*olen = s->scratch.len;
	if (k >= 0) {
		mev__buf_clear(&s->last[k].raw);
		mev__buf_clear(&s->last[k].packed);
		if (mev__buf_put(&s->last[k].raw, data, len) ||
		    mev__buf_put(&s->last[k].packed, s->scratch.ptr, s->scratch.len)) {
			mev__buf_clear(&s->last[k].packed); /* not remembered */
			return 0;
		}
		s->last[k].kind = kind;
		s->last[k].level = level;
	}
	return 0;
}

int mev_store_put_record(size_t *stored, mev_store *s, const char *table, char kind, int level,
			 const void *key, size_t klen, const void *data, size_t len)
{
	int rc;
	if (kind != MEV_STORE_RAW) {
		if ((rc = pack_record(&data, &len, s, table, kind, level, data, len)))
			return rc;
	}
	if (stored)
		*stored = len;
	return raw_put(s, table, key, klen, data, len);
}

int mev_store_get_record(void **data, size_t *len, mev_store *s, const char *table, char kind,
			 const void *key, size_t klen)
{
	mev_buf raw = MEV_BUF_INIT, val = MEV_BUF_INIT;
	int rc = raw_get(&raw, s, table, key, klen);
	*data = NULL;
	*len = 0;
	if (!rc && kind != MEV_STORE_RAW)
		rc = mev__unpack(&val, kind, raw.ptr, raw.len);
	else if (!rc) {
		val = raw;
		raw = (mev_buf)MEV_BUF_INIT;
	}
	mev__buf_free(&raw);
	if (rc) {
		mev__buf_free(&val);
		return rc;
	}
	*len = val.len;
	*data = mev__buf_detach(&val);
	return *data ? 0 : mev_error_oom();
}

/* --- the generic value ('V') ------------------------------------------------- */

/* A damaged value of a module above: which one, and the way out. */
static int damaged_value(mev_store *s, int rc, const char *table, const void *key, size_t klen)
{
	char k[128];
	if (rc != MEV_ECORRUPT)
		return rc;
	mev_store_key_text(k, sizeof k, key, klen);
	mev_error_prefix("value '%s' of table '%s'", k, table);
	mev_error_hint("'maintevo store check --store %s' lists the damaged values, 'maintevo store "
		       "repair' drops them", s->dir);
	return rc;
}

int mev_store_put(mev_store *s, const char *table, const void *key, size_t klen,
		  const void *data, size_t len)
{
	return mev_store_put_record(NULL, s, table, 'V', 6, key, klen, data, len);
}

int mev_store_get(void **data, size_t *len, mev_store *s, const char *table, const void *key,
		  size_t klen)
{
	return damaged_value(s, mev_store_get_record(data, len, s, table, 'V', key, klen), table, key,
			     klen);
}

typedef struct {
	int (*fn)(void *, const void *, size_t, const void *, size_t);
	void *ctx;
	mev_buf val;
	mev_store *s;
	const char *table;
} scan_ctx;

static int scan_unpack(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	scan_ctx *sc = c;
	int rc = mev__unpack(&sc->val, 'V', data, len);
	if (rc)
		return damaged_value(sc->s, rc, sc->table, key, klen);
	return sc->fn(sc->ctx, key, klen, sc->val.ptr, sc->val.len);
}

int mev_store_scan(mev_store *s, const char *table, const void *prefix, size_t plen,
		   int (*fn)(void *ctx, const void *key, size_t klen, const void *data, size_t len),
		   void *ctx)
{
	scan_ctx sc = { fn, ctx, MEV_BUF_INIT, s, table };
	int rc = mev_store_scan_raw(s, table, prefix, plen, scan_unpack, &sc);
	mev__buf_free(&sc.val);
	return rc;
}
