/* The store: byte records in the named tables of one LMDB directory. */
#ifndef MAINTEVO_STORE_H
#define MAINTEVO_STORE_H

#include <stddef.h>
#include <stdint.h>

/*
 * The store knows tables, keys and values, nothing of what they mean: the
 * modules above it encode their own records (util/varint.h) and name their
 * own tables (docs/store-format.md lists them).  A table is created by the
 * first value put into it; one never written reads as empty.
 */

/* The schema this build writes and reads (docs/store-format.md). */
#define MEV_STORE_SCHEMA 1

typedef struct mev_store mev_store;

enum {
	MEV_STORE_READ = 0,   /* read only; the store must exist */
	MEV_STORE_WRITE = 1,  /* read and write; the store must exist */
	MEV_STORE_CREATE = 2  /* with WRITE: create it when the directory is new or empty */
};

/*
 * Open the store in directory `dir` and check its schema.  Errors, each
 * with a message and hint: MEV_ENOTFOUND (no store there), MEV_ESTORE (the
 * directory holds something else, or a store of a newer or older schema),
 * MEV_ECORRUPT (damaged), MEV_EIO (permissions).
 */
int mev_store_open(mev_store **out, const char *dir, unsigned flags);
/* Close the store; an open write transaction is aborted.  NULL is a no-op. */
void mev_store_free(mev_store *s);
const char *mev_store_dir(const mev_store *s);

/*
 * For a handler of SIGBUS (async-signal-safe): the directory of the open
 * store whose data file is mapped at addr (the signal's si_addr), or NULL.
 * A store's data.mdb is read through a map, so when another program
 * truncates it (a sync tool, a full disk, a copy over it) a read past its
 * new end raises SIGBUS: the handler can say which store's file changed
 * size while it was read, and point to 'maintevo store check'.  The string
 * lives as long as the store is open.
 */
const char *mev_store_fault_dir(const void *addr);

/*
 * Take the writer's lock of the store in `dir` (walk.lock, flock): one
 * writer at a time (walk, import, cluster, track, repair), readers are not
 * affected.  *fd gets the lock's file (close it to let go; a forked child
 * that does not write should close its copy).  MEV_ESTORE when another
 * writer holds it (the hint says to run again when it has finished),
 * MEV_EIO when the file cannot be made.
 */
int mev_store_lock(int *fd, const char *dir);
/*
 * mev_store_lock(), waiting up to `seconds` (polling every 50 ms) for
 * another writer to let go; MEV_EINTR when *stop (may be NULL) is set
 * meanwhile.
 */
int mev_store_lock_wait(int *fd, const char *dir, double seconds, volatile int *stop);

/*
 * Run fn(s, ctx) in a write transaction of its own and commit it; on a
 * full map (fn, or the commit, returned MEV_ELIMIT) abort, grow the map
 * and run fn again (up to three times), so fn must only write what it
 * computed before.
 * Any other error aborts and is returned unchanged; a full file system is
 * MEV_EIO, its message saying so and how much space was free.  An abort
 * (or a crash, or a full disk) leaves the store as it was at the last commit.  Modules above the store
 * write through this.
 */
int mev_store_write(mev_store *s, int (*fn)(mev_store *s, void *ctx), void *ctx);

/*
 * A read snapshot.  Each read outside one (a get, a scan) sees the store
 * as the last commit left it, so two reads may see two commits of a writer
 * working meanwhile.  Between mev_store_read_begin(s) and
 * mev_store_read_end(s) every read of s sees one commit: the one current
 * at the outermost begin.  A reader that needs several values to agree (a
 * release record and its chain of file tables, a clustering and its
 * release) reads them inside one pair.
 *
 * Pairs nest: an inner pair joins the outer snapshot.  Inside a write
 * transaction reads see that transaction, and a pair changes nothing.
 * While a snapshot is held the writer cannot reuse the pages it sees (the
 * file grows), so hold one for a unit of reading, not for a whole command;
 * no write transaction begins on s meanwhile (MEV_ESTORE).  Begin fails
 * as a read does (MEV_ESTORE, MEV_ECORRUPT); end accepts NULL and is a
 * no-op without a begin.
 */
int mev_store_read_begin(mev_store *s);
void mev_store_read_end(mev_store *s);

/*
 * A view of one table for a thread other than the one using the store:
 * only that thread calls _begin, _get and _end, while the store's own
 * thread goes on (a walk looks blob sizes up ahead while it writes the
 * release before).  _new, on the store's thread, opens the table (a view
 * of a table that does not exist yet finds nothing); _begin takes a read
 * snapshot (the last commit); _get gives a value of it, valid until _end:
 * 1, or 0 when absent or when the snapshot could not be taken; _end lets
 * the snapshot go (hold one for a batch of reads, not longer: the writer
 * cannot reuse the pages it sees).  Errors of _new as a read's.
 */
typedef struct mev_store_view mev_store_view;
int mev_store_view_new(mev_store_view **out, mev_store *s, const char *table);
void mev_store_view_begin(mev_store_view *v);
int mev_store_view_get(const void **val, size_t *len, mev_store_view *v, const void *key,
		       size_t klen);
void mev_store_view_end(mev_store_view *v);
void mev_store_view_free(mev_store_view *v);


/*
 * Values.  Keys are byte strings of 1 to 511 bytes (a put of another
 * size fails with MEV_EINVAL; a get finds nothing, a delete does nothing),
 * values any bytes.
 * Stored values are packed (docs/store-format.md, "Packing"): "MEV", a
 * kind letter naming the record, and one zstd frame with the content size
 * and checksum; reading checks all of them and reports MEV_ECORRUPT for
 * any mismatch.  Puts and deletes need a write transaction (MEV_ESTORE
 * outside one); MEV_ELIMIT when the map is full (see mev_store_write).
 */

/* The generic value: kind 'V', zstd level 6. */
int mev_store_put(mev_store *s, const char *table, const void *key, size_t klen,
		  const void *data, size_t len);
/* *data (malloc'ed, NUL-terminated, free() it) and *len get the value;
 * MEV_ENOTFOUND (no message) when absent. */
int mev_store_get(void **data, size_t *len, mev_store *s, const char *table, const void *key,
		  size_t klen);
/* Delete a value of any kind; absent is not an error. */
int mev_store_delete(mev_store *s, const char *table, const void *key, size_t klen);
/* Call fn for every key of a table starting with prefix (in key order) with
 * the unpacked generic value; a non-zero return of fn stops and is returned. */
int mev_store_scan(mev_store *s, const char *table, const void *prefix, size_t plen,
		   int (*fn)(void *ctx, const void *key, size_t klen, const void *data, size_t len),
		   void *ctx);

/* A value stored as given, not packed (small values read very often). */
#define MEV_STORE_RAW '\0'

/* Put a value of `kind` (a letter, or MEV_STORE_RAW) packed at zstd `level`;
 * *stored (when not NULL) gets its size on disk. */
int mev_store_put_record(size_t *stored, mev_store *s, const char *table, char kind, int level,
			 const void *key, size_t klen, const void *data, size_t len);
/* Get and unpack a value of `kind` (MEV_STORE_RAW: as stored); as mev_store_get(). */
int mev_store_get_record(void **data, size_t *len, mev_store *s, const char *table, char kind,
			 const void *key, size_t klen);
/* mev_store_scan() handing fn the values as stored (unpack them with
 * mev_store_unpack(); len is then their size on disk). */
int mev_store_scan_raw(mev_store *s, const char *table, const void *prefix, size_t plen,
		       int (*fn)(void *ctx, const void *key, size_t klen, const void *data, size_t len),
		       void *ctx);
/* Unpack a stored value of `kind` into *data (malloc'ed, NUL-terminated). */
int mev_store_unpack(void **data, size_t *len, char kind, const void *packed, size_t plen);

/*
 * Decompress zstd data (one or more frames, content size known or not),
 * such as a `.zst` file named `name`, into *data (malloc'ed, NUL-terminated).
 * MEV_EINVAL when it is not zstd or is cut short, MEV_ELIMIT when it
 * would exceed `max` bytes.
 */
int mev_store_decompress(void **data, size_t *len, const void *z, size_t zlen, size_t max,
			 const char *name);

/* One table, as LMDB's catalogue lists it. */
typedef struct {
	char name[32];
	uint64_t entries;
	uint64_t stored_bytes;   /* the values as stored */
	uint64_t raw_bytes;      /* packed values by their content size, raw ones as stored */
	uint64_t page_bytes;     /* the pages of its B-tree: values, keys and their overhead */
} mev_store_table;

/* Sizes for 'maintevo store info'. */
typedef struct {
	uint64_t file_bytes;     /* data.mdb on disk */
	uint64_t map_bytes;      /* LMDB map size */
	uint64_t used_bytes;     /* pages in use */
	mev_store_table *v;      /* every table present, by name */
	size_t n;
} mev_store_stats;

/* Measure the store (reads every value once).  Free with mev_store_stats_free(). */
int mev_store_stats_get(mev_store_stats *out, mev_store *s);
void mev_store_stats_free(mev_store_stats *st);

/*
 * Check the store for 'maintevo store check': its data file (every page
 * its trees reach is in the file), then every value of every table but
 * those in `skip` (NULL-terminated: the tables whose module checks its own
 * records, such as mev_release_tables), which must unpack as a packed
 * value of the kind its header names (magic, zstd frame, checksum).  All
 * values are read from one snapshot.  bad(ctx, table, key, klen, why) is
 * called for each damaged value; its non-zero return stops the check and
 * is returned.  *values (when not NULL) gets the number of values read.
 * Errors: MEV_ECORRUPT (with message and hint) for a damaged data file,
 * MEV_ESTORE and MEV_ENOMEM.
 */
int mev_store_verify(uint64_t *values, mev_store *s, const char *const *skip,
		     int (*bad)(void *ctx, const char *table, const void *key, size_t klen,
				const char *why),
		     void *ctx);

/* A key for messages: printable ASCII as it is, NUL as \0, other bytes
 * (and the backslash) as \xNN; cut to fit `size`. */
void mev_store_key_text(char *out, size_t size, const void *key, size_t klen);

#endif
