/* The store: every walked release of one repository, in an LMDB directory. */
#ifndef MAINTEVO_STORE_H
#define MAINTEVO_STORE_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/repo.h"
#include "maintevo/filemap.h"
#include "maintevo/graph.h"

/* The schema this build writes and reads (docs/store-format.md). */
#define MEV_STORE_SCHEMA 1

typedef struct mev_store mev_store;

enum {
	MEV_STORE_READ = 0,   /* read only; the store must exist */
	MEV_STORE_WRITE = 1,  /* read and write; the store must exist */
	MEV_STORE_CREATE = 2  /* with WRITE: create it when the directory is new or empty */
};

/*
 * Open the store in directory `dir`.  Errors, each with a message and hint:
 * MEV_ENOTFOUND (no store there), MEV_ESTORE (the directory holds something
 * else, or a store of a newer or older schema), MEV_ECORRUPT (damaged).
 */
int mev_store_open(mev_store **out, const char *dir, unsigned flags);
void mev_store_close(mev_store *s);

/*
 * Take the writer's lock of the store in `dir` (walk.lock, flock): one
 * writer at a time, readers are not affected.  *fd gets the lock's file
 * (close it to let go).  MEV_ESTORE when another writer holds it.
 */
int mev_store_lock(const char *dir, int *fd);
const char *mev_store_dir(const mev_store *s);

/* Whose history a store holds; checked by every walk. */
typedef struct {
	uint32_t schema;
	char repo[1024];     /* repository path when created (informational) */
	mev_oid root;        /* a root commit of the first walked release */
	char dialect[16];    /* as chosen or detected */
	char tags[512];      /* --tags globs, '\n'-separated ("" = dialect default) */
	char exclude[512];   /* --exclude globs, '\n'-separated */
	int rc;              /* -rc tags included */
	int top_level_only;
	int64_t created;     /* seconds since the epoch */
	char version[32];    /* maintevo version that created it */
} mev_store_identity;

/* MEV_ENOTFOUND when the store has no identity yet (never walked). */
int mev_store_get_identity(mev_store *s, mev_store_identity *out);
/* Inside a write transaction. */
int mev_store_set_identity(mev_store *s, const mev_store_identity *id);

/* One stored release and its headline numbers. */
typedef struct {
	char *tag;
	mev_oid commit;
	int64_t time;             /* committer time */
	uint64_t files, lines, bytes;
	uint64_t sections;        /* without THE REST */
	uint64_t sections_with_files;
	uint64_t uncovered_files, uncovered_lines; /* no section but THE REST */
	uint64_t edges;           /* graph edges between two sections */
	uint64_t diags;           /* notes about MAINTAINERS content */
	uint64_t maintainer_files;
	uint8_t has_files;        /* a file table is stored (imports have none) */
	uint8_t snapshot;         /* the file table is stored whole */
	char *base;               /* else: the release it is a delta against */
	uint64_t stored_bytes;    /* size of the stored values */
	uint64_t raw_bytes;       /* their size before compression */
} mev_release;

/* All releases in version order; free with mev_release_list_free(). */
int mev_store_releases(mev_store *s, mev_release **out, size_t *n);
void mev_release_list_free(mev_release *list, size_t n);
/* 1 when `tag` is stored (and *commit, if not NULL, gets its commit). */
int mev_store_has_release(mev_store *s, const char *tag, mev_oid *commit);

/*
 * Write transactions: one per unit of work (a release).  Every put below
 * needs one; reads see its changes.  An abort (or a crash) leaves the store
 * as it was at the last commit.
 */
int mev_store_begin(mev_store *s);
/* After a put failed with MEV_ELIMIT (map full) and the transaction was
 * aborted: double the map, then do the transaction again. */
int mev_store_grow(mev_store *s);
int mev_store_commit(mev_store *s);
void mev_store_abort(mev_store *s);

/*
 * Run fn(s, ctx) in a write transaction of its own and commit it; on a
 * full map (fn returned MEV_ELIMIT) abort, grow the map and run fn again
 * (up to three times), so fn must only write what it computed before.
 * Any other error aborts and is returned unchanged.  The one place where
 * begin/commit/abort/grow are combined: modules above the store use this.
 */
int mev_store_write(mev_store *s, int (*fn)(mev_store *s, void *ctx), void *ctx);

/*
 * Store a release: headline numbers (computed here from fm and g), the
 * sections, the graph (built with keep_rest), the MAINTAINERS notes and the
 * file table, as a delta against `base` (the previous release, with its
 * tag) or whole when base is NULL.  Replaces a release of the same tag.
 */
typedef struct {
	const char *tag;
	mev_oid commit;
	int64_t time;
	uint64_t maintainer_files;
	const char *const *diags; /* "file:line: message" texts */
	size_t ndiags;
} mev_release_input;

int mev_store_put_release(mev_store *s, const mev_release_input *in, const mev_filemap *fm,
			  const mev_graph *g, const mev_filemap *base, const char *base_tag);

/* Store a release that has only a graph (imported; no file table). */
int mev_store_put_graph_release(mev_store *s, const mev_release_input *in,
				const mev_filemap *sections, const mev_graph *g);

int mev_store_delete_release(mev_store *s, const char *tag);

/* Read back a release's file table (rebuilt from its snapshot and deltas). */
int mev_store_load_filemap(mev_store *s, const char *tag, mev_filemap **out);
/*
 * Read back a release's graph: *sections gets a file map with its sections
 * (no rows), *g the graph over it (THE REST kept when keep_rest).
 */
int mev_store_load_graph(mev_store *s, const char *tag, int keep_rest,
			 mev_filemap **sections, mev_graph **g);
/* The stored notes about MAINTAINERS content; free with mev_strings_free. */
int mev_store_load_diags(mev_store *s, const char *tag, char ***out, size_t *n);
void mev_strings_free(char **v, size_t n);

/* Lines and bytes of a blob measured before (1), or 0 when unknown. */
int mev_store_blob_get(mev_store *s, const mev_oid *oid, uint64_t *lines, uint64_t *bytes);
/* Inside a write transaction. */
int mev_store_blob_put(mev_store *s, const mev_oid *oid, uint64_t lines, uint64_t bytes);

/* Sizes for 'maintevo store info'. */
typedef struct {
	uint64_t file_bytes;      /* data.mdb on disk */
	uint64_t map_bytes;       /* LMDB map size */
	uint64_t used_bytes;      /* pages in use */
	uint64_t releases, blobs;
	uint64_t release_bytes, release_raw;  /* release records: stored / uncompressed */
	uint64_t table_bytes, table_raw;      /* file tables */
	uint64_t other_bytes, other_raw;      /* everything else (clusters, ...) */
	uint64_t snapshots;
} mev_store_stats;
int mev_store_stats_get(mev_store *s, mev_store_stats *out);

/*
 * Generic compressed values in named tables ("clusters", "events", ...),
 * for the modules above the store.  Keys are byte strings.
 */
int mev_store_put_value(mev_store *s, const char *table, const void *key, size_t klen,
			const void *data, size_t len);
/* *data is malloc'ed; MEV_ENOTFOUND when absent. */
int mev_store_get_value(mev_store *s, const char *table, const void *key, size_t klen,
			void **data, size_t *len);
int mev_store_delete_value(mev_store *s, const char *table, const void *key, size_t klen);
/* Call fn for every key of a table starting with prefix (in key order). */
int mev_store_scan(mev_store *s, const char *table, const void *prefix, size_t plen,
		   int (*fn)(void *ctx, const void *key, size_t klen, const void *data, size_t len),
		   void *ctx);

#endif
