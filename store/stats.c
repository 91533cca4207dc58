/*
 * What a store holds, for 'maintevo store info': the file and map sizes,
 * and every table LMDB's catalogue (the unnamed main database, whose keys
 * are the names of the named ones) lists, with its values' sizes; and, for
 * 'maintevo store check', whether each of those values unpacks.
 */
#include "store_internal.h"
#include "codec.h"
#include "maintevo/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef MEV_VEC(mev_store_table) table_vec;

/* The names in the catalogue, in its (bytewise) order. */
static int table_names(mev_store *s, table_vec *out)
{
	MDB_txn *txn;
	MDB_dbi main;
	MDB_cursor *cur = NULL;
	MDB_val k, v;
	int own, rc, r;
	if ((rc = mev__store_txn(s, &txn, &own)))
		return rc;
	if ((rc = mdb_dbi_open(txn, NULL, 0, &main)) || (rc = mdb_cursor_open(txn, main, &cur))) {
		rc = mev__store_fail(rc, "cannot read the store's tables");
		goto done;
	}
	for (r = mdb_cursor_get(cur, &k, &v, MDB_FIRST); r == 0 && !rc;
	     r = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
		mev_store_table t = { { 0 }, 0, 0, 0, 0 };
		if (k.mv_size == 0 || k.mv_size >= MEV__STORE_NAME || memchr(k.mv_data, '\0', k.mv_size))
			continue; /* not a name this store could have given */
		memcpy(t.name, k.mv_data, k.mv_size);
		if (MEV_VEC_PUSH(out, t))
			rc = mev_error_oom();
	}
	if (!rc && r && r != MDB_NOTFOUND)
		rc = mev__store_fail(r, "cannot read the store's tables");
done:
	mdb_cursor_close(cur);
	mev__store_txn_done(txn, own);
	return rc;
}

/* The pages each table's B-tree uses (with its keys and overflow pages). */
static int table_pages(mev_store *s, mev_store_table *t, size_t n)
{
	MDB_txn *txn;
	int own, rc;
	if ((rc = mev__store_txn(s, &txn, &own)))
		return rc;
	for (size_t i = 0; i < n && !rc; i++) {
		MDB_dbi dbi;
		MDB_stat st;
		if ((rc = mev__store_dbi(s, txn, t[i].name, &dbi)))
			break;
		if ((rc = mdb_stat(txn, dbi, &st))) {
			rc = mev__store_fail(rc, "cannot read the store's tables");
			break;
		}
		t[i].page_bytes = (st.ms_branch_pages + st.ms_leaf_pages + st.ms_overflow_pages) *
				  (uint64_t)st.ms_psize;
	}
	mev__store_txn_done(txn, own);
	return rc;
}

static int size_cb(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	mev_store_table *t = c;
	(void)key;
	(void)klen;
	t->entries++;
	t->stored_bytes += len;
	t->raw_bytes += mev__packed_size(data, len);
	return 0;
}

int mev_store_stats_get(mev_store_stats *out, mev_store *s)
{
	table_vec tables = { 0 };
	MDB_envinfo info;
	MDB_stat st;
	struct stat sb;
	char path[4096];
	int rc;

	memset(out, 0, sizeof *out);
	mdb_env_info(s->env, &info);
	mdb_env_stat(s->env, &st);
	out->map_bytes = info.me_mapsize;
	out->used_bytes = (info.me_last_pgno + 1) * (uint64_t)st.ms_psize;
	snprintf(path, sizeof path, "%s/data.mdb", s->dir);
	if (stat(path, &sb) == 0)
		out->file_bytes = (uint64_t)sb.st_size;
	if (!(rc = table_names(s, &tables)))
		rc = table_pages(s, tables.v, tables.n);
	for (size_t i = 0; i < tables.n && !rc; i++)
		rc = mev_store_scan_raw(s, tables.v[i].name, NULL, 0, size_cb, &tables.v[i]);
	if (rc) {
		MEV_VEC_FREE(&tables);
		return rc;
	}
	out->v = tables.v;
	out->n = tables.n;
	return 0;
}

void mev_store_stats_free(mev_store_stats *st)
{
	if (!st)
		return;
	free(st->v);
	st->v = NULL;
	st->n = 0;
}

/* --- checking every value ------------------------------------------------------ */

void mev_store_key_text(char *out, size_t size, const void *key, size_t klen)
{
	const unsigned char *k = key;
	size_t o = 0;
	if (!size)
		return;
	for (size_t i = 0; i < klen && o + 5 < size; i++) {
		if (k[i] >= 0x20 && k[i] < 0x7f && k[i] != '\\')
			out[o++] = (char)k[i];
		else if (k[i] == 0)
			o += (size_t)snprintf(out + o, size - o, "\\0");
		else
			o += (size_t)snprintf(out + o, size - o, "\\x%02x", k[i]);
	}
	out[o] = '\0';
}

typedef struct {
	const char *table;
	int (*bad)(void *, const char *, const void *, size_t, const char *);
	void *ctx;
	uint64_t values;
	mev_buf val;
} verify_ctx;

static int verify_cb(void *c, const void *key, size_t klen, const void *data, size_t len)
{
	verify_ctx *v = c;
	char kind = len >= 4 ? ((const char *)data)[3] : 'V';
	v->values++;
	if (mev__unpack(&v->val, kind, data, len) == 0)
		return 0;
	return v->bad(v->ctx, v->table, key, klen, mev_error_message());
}

int mev_store_verify(uint64_t *values, mev_store *s, const char *const *skip,
		     int (*bad)(void *ctx, const char *table, const void *key, size_t klen,
				const char *why),
		     void *ctx)
{
	table_vec tables = { 0 };
	verify_ctx v = { NULL, bad, ctx, 0, MEV_BUF_INIT };
	int rc = mev__store_check_datafile(s->dir, 1);
	if (!rc && !(rc = mev_store_read_begin(s))) {
		rc = table_names(s, &tables);
		for (size_t i = 0; i < tables.n && !rc; i++) {
			int skipped = 0;
			for (size_t k = 0; skip && skip[k] && !skipped; k++)
				skipped = strcmp(skip[k], tables.v[i].name) == 0;
			v.table = tables.v[i].name;
			if (!skipped)
				rc = mev_store_scan_raw(s, tables.v[i].name, NULL, 0, verify_cb, &v);
		}
		mev_store_read_end(s);
	}
	if (values)
		*values = v.values;
	MEV_VEC_FREE(&tables);
	mev__buf_free(&v.val);
	return rc;
}
