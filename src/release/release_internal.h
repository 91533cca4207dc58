/* Shared by the files of src/release/: record version, table names, the release record's head. */
#ifndef MEV_RELEASE_INTERNAL_H
#define MEV_RELEASE_INTERNAL_H

#include "maintevo/match.h"
#include "maintevo/release.h"
#include "util/buf.h"
#include "util/varint.h"

enum {
	MEV__RELEASE_VERSION = 1,  /* of the file table (and of the first release records) */
	MEV__RECORD_VERSION = 3,   /* of the release record: 2 adds the matching rules, 3 the
				      sections' display names and title kinds */
	MEV__RELEASE_LEVEL = 3,    /* zstd level of the stored records (6: 2.9 times the CPU for 8% less) */
	MEV__SNAPSHOT_EVERY = 16   /* a chain of file tables reads at most this many */
};

/* What the puts of a walk's releases carry from one to the next
 * (mev_release_input.memo): the use of each pattern line (the health
 * record); and how many file tables are read to rebuild the table of the
 * release put last (a table stored whole: 1), so that the next one,
 * stored as a delta against it, need not read their records back. */
struct mev_release_memo {
	mev_oid tree;              /* of the last put */
	int have;
	mev_match_use_memo *use;
	char chain_tag[MEV_RELEASE_TAG_MAX + 1]; /* the release put last ("": none) */
	size_t chain;
};

/* --- aliases: releases that repeat another (src/release/alias.c) --- */

#define MEV__ALIAS_TABLE "aliases"

typedef struct {
	char target[MEV_RELEASE_TAG_MAX + 1]; /* the release whose records it reads */
	mev_oid commit;                       /* its own commit (the target's) and time */
	int64_t time;
	int damaged;                          /* (scans) the record does not decode */
} mev__alias;

/* The alias `tag`: 0, MEV_ENOTFOUND (no message) when it is none,
 * MEV_ECORRUPT. */
int mev__alias_get(mev__alias *a, mev_store *s, const char *tag);
/* The release whose records `tag` reads: its target when it is an alias
 * (copied into buf), else tag itself. */
const char *mev__release_resolve(char *buf, size_t size, mev_store *s, const char *tag);
/* fn for every alias (a->damaged set for one that does not decode). */
int mev__alias_scan(mev_store *s, int (*fn)(void *ctx, const char *tag, const mev__alias *a), void *ctx);
/* Delete the aliases of `target` whose commit is not `commit` (NULL: all):
 * the target is stored again with another tree. */
int mev__alias_drop_stale(mev_store *s, const char *target, const mev_oid *commit);

/*
 * The head of the stored record of `tag` (its sizes on disk added) into *m;
 * free its strings with mev__release_clear().  MEV_ENOTFOUND with a message
 * and hint when the release is not stored; MEV_ECORRUPT when damaged.
 */
int mev__release_get(mev_release *m, mev_store *s, const char *tag);
void mev__release_clear(mev_release *m);

/*
 * Read the record of `tag` up to its graph: *sections gets a file map with
 * its sections (no rows), *r is left at the graph, inside *rec (free() it
 * after the last read).  Errors as mev__release_get().
 */
int mev__release_sections(mev_filemap **sections, mev__record_reader *r, void **rec, mev_store *s,
			  const char *tag);

/*
 * Store the file table of `tag` ("tables", record T): whole when base is
 * NULL, else as a delta against it (*snapshot says which).  *stored and
 * *raw grow by its sizes packed and unpacked.
 */
int mev__filetable_put(int *snapshot, uint64_t *stored, uint64_t *raw, mev_store *s,
		       const char *tag, const mev_filemap *fm, const mev_filemap *base);

/*
 * Check the stored file table of `tag` without reading its base: unpacked
 * (its checksum), parsed to the end, `nsec` sections.  MEV_ECORRUPT, the
 * message naming the table, when it is missing or damaged.
 */
int mev__filetable_check(mev_store *s, const char *tag, size_t nsec);

/*
 * Store the patterns of `tag` ("patterns", record P): every section's F:,
 * X: and N: lines in m.  *stored and *raw grow by their sizes.
 */
int mev__patterns_put(uint64_t *stored, uint64_t *raw, mev_store *s, const char *tag, const mev_maint *m);

/*
 * Store the health of release in->tag ("health", record H): the lines of
 * in->maint that match no path of in->tree (carried on from the last put
 * by in->memo, when given), where the sections start, the code of fm by
 * directory and status.  *stored and *raw grow by its sizes.
 */
int mev__health_put(uint64_t *stored, uint64_t *raw, mev_store *s, const mev_release_input *in,
		    const mev_filemap *fm);

/*
 * A stored blob size (docs/store-format.md): 1 and the sizes when its
 * check holds, 0 when it has none (stored before the check), MEV_ECORRUPT
 * with a message naming the blob when damaged.
 */
int mev__blob_decode(uint64_t *lines, uint64_t *bytes, const mev_oid *oid, const void *val,
		     size_t len);

/* An error of a public reader: MEV_ECORRUPT gets "cannot read release
 * 'tag'" (or "cannot list the releases" for NULL) before its message, and
 * the way out as its hint; returns rc. */
int mev__release_damaged(mev_store *s, int rc, const char *tag);

#endif
