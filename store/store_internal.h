/* Inside the store: the LMDB handles shared by the files of store/ (store/ only). */
#ifndef MEV_STORE_INTERNAL_H
#define MEV_STORE_INTERNAL_H

#include <lmdb.h>
#include <pthread.h>
#include "maintevo/store.h"
#include "util/buf.h"

/* MEV__STORE_KEY_MAX: LMDB's mdb_env_get_maxkeysize() with its default build */
enum { MEV__STORE_MAX_TABLES = 24, MEV__STORE_NAME = 24, MEV__STORE_KEY_MAX = 511 };

struct mev_store {
	char *dir;
	MDB_env *env;
	MDB_txn *wtxn;      /* the open write transaction, if any */
	MDB_txn *rtxn;      /* the read snapshot held by mev_store_read_begin(), if any */
	int rdepth;         /* mev_store_read_begin() calls not ended yet */
	int writable;
	/* table handles: those of committed (or read) transactions, and those
	 * opened by the write transaction in hand, kept only if it commits */
	int ntables, npending;
	char table_names[MEV__STORE_MAX_TABLES][MEV__STORE_NAME];
	MDB_dbi tables[MEV__STORE_MAX_TABLES];
	char pending_names[MEV__STORE_MAX_TABLES][MEV__STORE_NAME];
	MDB_dbi pending[MEV__STORE_MAX_TABLES];
	mev_buf scratch;    /* a packed value on its way in */
	void *cctx;         /* the zstd context that packs it (codec.h) */
	/* per table, the last record packed: a release of a walk often
	 * stores the same bytes as the one before (its patterns when
	 * MAINTAINERS did not change), which are then not packed again */
	struct {
		char name[MEV__STORE_NAME];
		char kind;
		int level;
		mev_buf raw, packed;
	} last[MEV__STORE_MAX_TABLES];
	int64_t free_before; /* bytes free on the file system when the write transaction began */
	/* held for reading by a view's transaction (view.c), for writing
	 * while the map is resized: LMDB allows no transaction meanwhile */
	pthread_rwlock_t maplock;
};

/* Record (again, after the map moved) or forget where s's data file is
 * mapped, for mev_store_fault_dir() (maps.c). */
void mev__store_map_note(mev_store *s);
void mev__store_map_forget(mev_store *s);

/* An LMDB error as MEV_ELIMIT (map full), MEV_ECORRUPT or MEV_ESTORE, with a message. */
int mev__store_fail(int rc, const char *what);
/* Bytes free for us on the file system of dir; -1 when unknown. */
int64_t mev__store_free_space(const char *dir);
/*
 * A failed write to the store in `dir`: when the file system is full
 * (ENOSPC, EDQUOT, or LMDB's EIO for a short write with little space
 * left), MEV_EIO with a message saying so, the space that was free
 * (`before` the write, or now when -1), what the write needed (`need`
 * bytes; 0: not known) and a hint; any other error as mev__store_fail().
 */
int mev__store_write_fail(const char *dir, int rc, const char *what, int64_t before, uint64_t need);
/* The transaction to use: the open write one or the held read snapshot
 * (*own 0), or a fresh read one. */
int mev__store_txn(mev_store *s, MDB_txn **txn, int *own);
void mev__store_txn_done(MDB_txn *txn, int own);
/* The handle of table `name`; MEV_ENOTFOUND (no message) when a read finds
 * no such table (the write transaction creates it), MEV_EINVAL when the
 * catalogue has the name for a value, not a table (another program's LMDB). */
int mev__store_dbi(mev_store *s, MDB_txn *txn, const char *name, MDB_dbi *dbi);

/*
 * Check the data file of the store in `dir` before LMDB maps it
 * (datafile.c): a regular file (and lock.mdb too, when present), not
 * empty, an LMDB file, long enough for every page the newest meta page
 * can reach.  The pages of the trees are walked when the file ends before
 * the last page, or always with walk_pages.  0 when there is no data.mdb;
 * MEV_ESTORE (not a store), MEV_ECORRUPT (damaged), MEV_EIO, each with a
 * message naming the file, and a hint.
 */
int mev__store_check_datafile(const char *dir, int walk_pages);

/*
 * The parts mev_store_write() combines (store/ and its unit test only:
 * modules above write through mev_store_write).  Reads see the open
 * transaction's changes.  MEV_ESTORE for a store opened read-only or a
 * transaction already open.  mev__store_grow doubles the map; no
 * transaction may be open.
 */
int mev__store_begin(mev_store *s);
int mev__store_commit(mev_store *s);
void mev__store_abort(mev_store *s);
int mev__store_grow(mev_store *s);

#endif
