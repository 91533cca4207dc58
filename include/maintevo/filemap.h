/* The per-file table of one release: path, size and covering sections. */
#ifndef MAINTEVO_FILEMAP_H
#define MAINTEVO_FILEMAP_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include "maintevo/repo.h"
#include "maintevo/maintainers.h"

/* What the graph and the store need to know of a section. */
typedef struct {
	const char *title;        /* the unique key: the script's title (UTF-8) */
	const char *status;       /* S: text as written ("" when none) */
	uint32_t n_maintainers, n_reviewers, n_lists, n_trees, n_patterns;
	uint8_t is_rest;          /* THE REST */
	uint8_t title_kind;       /* mev_title_kind (maintainers.h) */
	const char *display;      /* the unique display name (mev_section.display); never
				     NULL in a file map (mev_filemap_add_section: NULL is the title) */
} mev_section_info;

typedef struct {
	const char *path;
	uint32_t path_len;
	uint8_t kind;             /* MEV_KIND_FILE or MEV_KIND_LINK */
	uint64_t lines, bytes;    /* '\n' count and size of the blob */
	uint32_t set;             /* section set id (0 = no section) */
} mev_file_row;

typedef struct mev_filemap mev_filemap;

/* Supplies line and byte counts of blobs known from earlier work. */
typedef struct {
	/* Return 1 and fill lines/bytes when known, else 0. */
	int (*lookup)(void *ctx, const mev_oid *oid, uint64_t *lines, uint64_t *bytes);
	/* Called for every blob measured here (may be NULL). */
	int (*store)(void *ctx, const mev_oid *oid, uint64_t lines, uint64_t bytes);
	void *ctx;
} mev_blob_sizes;

/* Where the time of mev_filemap_build() went. */
typedef struct {
	double match_seconds;     /* compiling patterns and matching paths */
	uint64_t matched;         /* paths matched (the rest kept their sections) */
	double read_seconds;      /* reading and measuring blobs */
	uint64_t paths;           /* files matched */
	uint64_t blobs;           /* distinct blobs */
	uint64_t blobs_read;      /* of which read from git (the rest were known) */
	uint64_t bytes_read;
	uint64_t missing;         /* blobs the repository lacks: counted as 0 */
	char missing_path[256];   /* the first file with such a blob */
} mev_filemap_stats;

typedef struct {
	int jobs;                 /* reader threads; 0 = one per core */
	mev_filemap_stats *stats; /* filled when not NULL */
	volatile int *stop;       /* polled; non-zero interrupts with MEV_EINTR */
	const mev_blob_sizes *sizes; /* may be NULL */
} mev_filemap_options;

/*
 * Read every blob of `tree` (symbolic links included, submodules skipped),
 * count its lines and match its path against `maint`.  Errors: MEV_EGIT,
 * MEV_ENOMEM, MEV_EINTR.
 */
int mev_filemap_build(mev_filemap **out, mev_repo *repo, const mev_tree *tree,
		      mev_maint *maint, const mev_filemap_options *opt);

/* The previous release, for building a file map incrementally. */
struct mev_matcher;
struct mev_rematch;
typedef struct {
	const mev_filemap *fm;        /* its file map (rows in the order of `tree`) */
	const mev_tree *tree;         /* its tree */
	const uint8_t *changed;       /* per file of the new tree: added or modified */
	const struct mev_rematch *rematch; /* how its sections map to the new ones */
} mev_filemap_base;

/*
 * Like mev_filemap_build(), reusing `matcher` (built on `maint`; NULL: make
 * one) and, with `base`, the previous release: a path it had keeps its
 * sections unless the rematch plan says otherwise, an unchanged file its
 * sizes; only changed files are read.  The result equals a cold build.
 */
int mev_filemap_build_ex(mev_filemap **out, mev_repo *repo, const mev_tree *tree,
			 mev_maint *maint, struct mev_matcher *matcher,
			 const mev_filemap_base *base, const mev_filemap_options *opt);
void mev_filemap_free(mev_filemap *fm);

/*
 * Building a file map from stored parts: sections first, then rows in path
 * order, each with a set interned by mev_filemap_intern_set() (ids sorted,
 * each < the number of sections).  Strings are copied.  Errors: MEV_ENOMEM,
 * MEV_EINVAL for an id out of range or rows out of order.
 */
int mev_filemap_new(mev_filemap **out);
int mev_filemap_add_section(mev_filemap *fm, const mev_section_info *si);
int mev_filemap_intern_set(uint32_t *set, mev_filemap *fm, const uint32_t *ids, size_t n);
int mev_filemap_add_row(mev_filemap *fm, const char *path, size_t len, uint8_t kind,
			uint64_t lines, uint64_t bytes, uint32_t set);

size_t mev_filemap_count(const mev_filemap *fm);
const mev_file_row *mev_filemap_rows(const mev_filemap *fm);
size_t mev_filemap_section_count(const mev_filemap *fm);
const mev_section_info *mev_filemap_sections(const mev_filemap *fm);
size_t mev_filemap_set_count(const mev_filemap *fm);
/* The first row whose path is not below p[0..len) bytewise (rows are in
 * path order): the rows starting with a prefix begin there. */
size_t mev_filemap_lower_bound(const mev_filemap *fm, const char *p, size_t len);
/*
 * The rows that path[0..len) (canonical: mev_match_canonpath()) names, as
 * [*first, *end): the file of exactly that path, returning 0 (not with
 * dir_only); else the files below "path/", returning 1 (a directory; ""
 * is the root, every file).  An empty range and 0 when it names nothing.
 */
int mev_filemap_path_rows(size_t *first, size_t *end, const mev_filemap *fm, const char *path,
			  size_t len, int dir_only);
/* *ids gets the sorted section indices of set `set` (valid as long as fm);
 * returns their number. */
size_t mev_filemap_set(const uint32_t **ids, const mev_filemap *fm, uint32_t set);

/*
 * CSV "path,lines,bytes,sections": one row per file in path order; sections
 * are the titles sorted bytewise and joined with " | ".  THE REST is left
 * out unless keep_rest; excel_safe: text cells safe for a spreadsheet
 * (mev_table_excel_safe()).  Errors: MEV_ENOMEM, MEV_EIO.
 */
int mev_filemap_write_csv(FILE *out, const mev_filemap *fm, int keep_rest, int excel_safe);

#endif
