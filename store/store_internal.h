/* Inside the store: the LMDB handles and raw table access (store/ only). */
#ifndef MEV_STORE_INTERNAL_H
#define MEV_STORE_INTERNAL_H

#include <lmdb.h>
#include "maintevo/store.h"
#include "util/buf.h"

struct mev_store {
	char *dir;
	MDB_env *env;
	MDB_txn *wtxn;      /* the open write transaction, if any */
	int writable;
	int ntables, npending;
	char table_names[24][24];
	MDB_dbi tables[24];
	char pending_names[24][24];
	MDB_dbi pending[24];
	mev_buf scratch, scratch2;
};

int mev_store_txn(mev_store *s, MDB_txn **txn, int *own);
void mev_store_txn_done(MDB_txn *txn, int own);
int mev_store_dbi(mev_store *s, MDB_txn *txn, const char *name, MDB_dbi *dbi);

/* Uncompressed access to a table; *stored gets the value's size on disk. */
int mev_store_raw_get(mev_store *s, const char *table, const void *key, size_t klen,
		      mev_buf *out, size_t *stored);
int mev_store_raw_put(mev_store *s, const char *table, const void *key, size_t klen,
		      const void *data, size_t len);
int mev_store_raw_delete(mev_store *s, const char *table, const void *key, size_t klen);
int mev_store_raw_scan(mev_store *s, const char *table, const void *prefix, size_t plen,
		       int (*fn)(void *ctx, const void *key, size_t klen, const void *data, size_t len),
		       void *ctx);
/* Double the map (no transaction may be open). */
int mev_store_grow(mev_store *s);

#endif
