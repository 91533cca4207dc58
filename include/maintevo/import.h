/* Importing published section graphs (the study's PaStA CSVs) as releases of a store. */
#ifndef MAINTEVO_IMPORT_H
#define MAINTEVO_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/progress.h"

typedef struct {
	size_t files;            /* CSV files found */
	size_t imported;         /* releases written */
	size_t replaced;         /* of which were in the store already */
	uint64_t sections, edges; /* over all releases (THE REST and self rows included) */
	double seconds;
} mev_import_result;

/*
 * Import every section graph of directory `csv_dir` into the store at
 * `store_dir` (created when new): one file per release, named after its
 * tag, `TAG.csv` or `TAG.csv.zst` (zstd), holding `from,to,lines,size`
 * rows: a pair of sections and the lines and bytes of the files both
 * cover, `from == to` for a section's own size.  THE REST is a section
 * there too (kept in the store, left out of graphs as usual).  Releases are
 * written in version order, each in its own transaction, with no file
 * table; a release already stored is replaced.  Errors: MEV_ENOTFOUND (no
 * such directory, or no CSV in it), MEV_EINVAL (a file that is not such a
 * CSV: the message says file and line), MEV_ESTORE (the store holds a
 * walked repository), MEV_EIO, MEV_ENOMEM; MEV_EINTR when stopped by
 * *progress->stop (checked before each file; the releases written stay).
 * progress->progress(ctx, i, n, tag) is called before file i of n; the note
 * callback is not used.  progress may be NULL.
 */
int mev_import_pasta(mev_import_result *res, const char *store_dir, const char *csv_dir,
		     const mev_progress *progress);

#endif
