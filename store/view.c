/*
 * A view of one table for another thread (store.h, mev_store_view): its
 * own read-only LMDB transaction, which the store's environment allows
 * beside the writer's (MDB_NOTLS), and nothing else of the store's
 * state.  The store's map is not resized while a view's transaction is
 * open (maplock).
 */
#include "store_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>

struct mev_store_view {
	mev_store *s;
	MDB_dbi dbi;
	int have_dbi;
	MDB_txn *txn;
};

int mev_store_view_new(mev_store_view **out, mev_store *s, const char *table)
{
	mev_store_view *v = calloc(1, sizeof *v);
	MDB_txn *txn;
	int own, rc;
	*out = NULL;
	if (!v)
		return mev_error_oom();
	v->s = s;
	/* the table's handle, opened (and kept) by the store as any read does */
	if ((rc = mev__store_txn(s, &txn, &own))) {
		free(v);
		return rc;
	}
	rc = mev__store_dbi(s, txn, table, &v->dbi);
	mev__store_txn_done(txn, own);
	if (rc && rc != MEV_ENOTFOUND) {
		free(v);
		return rc;
	}
	v->have_dbi = rc == 0;
	*out = v;
	return 0;
}

void mev_store_view_begin(mev_store_view *v)
{
	if (!v->have_dbi || v->txn)
		return;
	pthread_rwlock_rdlock(&v->s->maplock);
	if (mdb_txn_begin(v->s->env, NULL, MDB_RDONLY, &v->txn)) {
		/* grown by another process: left to the store's own reads */
		v->txn = NULL;
		pthread_rwlock_unlock(&v->s->maplock);
	}
}

int mev_store_view_get(const void **val, size_t *len, mev_store_view *v, const void *key,
		       size_t klen)
{
	MDB_val k = { klen, (void *)key }, d;
	if (!v->txn || klen == 0 || klen > MEV__STORE_KEY_MAX || mdb_get(v->txn, v->dbi, &k, &d))
		return 0;
	*val = d.mv_data;
	*len = d.mv_size;
	return 1;
}

void mev_store_view_end(mev_store_view *v)
{
	if (!v || !v->txn)
		return;
	mdb_txn_abort(v->txn);
	v->txn = NULL;
	pthread_rwlock_unlock(&v->s->maplock);
}

void mev_store_view_free(mev_store_view *v)
{
	mev_store_view_end(v);
	free(v);
}
