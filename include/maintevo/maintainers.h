/* MAINTAINERS files: finding them in a tree, reading them, their sections. */
#ifndef MAINTEVO_MAINTAINERS_H
#define MAINTEVO_MAINTAINERS_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/dialect.h"
#include "maintevo/repo.h"

/* One field line "X:\tvalue" of a section. */
typedef struct {
	char type;           /* 'F', 'X', 'N', 'K', 'M', 'R', 'L', 'S', 'T', ... */
	const char *value;   /* the value as read (after ":" and white space) */
	const char *regex;   /* F/X: the regex get_maintainer.pl derives; N: the value; else NULL */
	uint32_t file;       /* index into mev_maint_file() */
	uint32_t line;       /* 1-based */
} mev_field;

/* Normalised status of a section. */
typedef enum {
	MEV_STATUS_NONE = 0, MEV_STATUS_SUPPORTED, MEV_STATUS_MAINTAINED,
	MEV_STATUS_ODD_FIXES, MEV_STATUS_ORPHAN, MEV_STATUS_OBSOLETE,
	MEV_STATUS_BURIED, MEV_STATUS_OTHER
} mev_status;

const char *mev_status_name(mev_status s);

/*
 * What the script's title line of a section is (docs/matching.md, "Titles
 * that are not names").  The title stays the section's key either way;
 * the display name is what people read.
 */
typedef enum {
	MEV_TITLE_NAME = 0,      /* a name: the display name is the title */
	MEV_TITLE_COMMENT,       /* a commented-out field line, "#M:\t-" (U-Boot 2014.10-2017.09):
				    displayed as the line above it, else the board
				    directory its F: patterns share */
	MEV_TITLE_UNDERLINE      /* a line of '-' or '=' under a group header (QEMU before
				    v10.2): displayed as that header */
} mev_title_kind;

#define MEV_TITLE_KINDS 3

/* "name", "comment", "underline" ("name" for an unknown kind). */
const char *mev_title_kind_name(mev_title_kind k);

typedef struct {
	const char *title;       /* the unique key: the script's title line, UTF-8, trimmed,
				    "TITLE #2" for repeats */
	const char *display;     /* the unique display name: the title when title_kind is
				    MEV_TITLE_NAME; "NAME #2" when two would be the same */
	uint8_t title_kind;      /* mev_title_kind */
	const char *raw_title;   /* the title line as read; "" for a headless section */
	uint32_t file, line;     /* where the section starts (its title, or first field) */
	const char *status_text; /* first S: value, UTF-8; "" when none */
	mev_status status;
	uint32_t field_begin, field_count; /* into mev_maint_fields() */
	uint32_t n_maintainers, n_reviewers, n_lists, n_trees;
	uint32_t n_patterns;     /* F + X + N */
	uint8_t is_rest;         /* the catch-all (THE REST): its F: lines cover every path,
				    whatever its title; left out of graphs (docs/matching.md) */
} mev_section;

/* A message about MAINTAINERS content: "file:line: message". */
typedef struct {
	uint32_t file;   /* index into mev_maint_file(), or UINT32_MAX */
	uint32_t line;   /* 0 when not about one line */
	const char *message;
} mev_diag;

typedef struct mev_maint mev_maint;

/* One file to read: its path in the tree and its bytes. */
typedef struct {
	const char *path;
	const char *data;
	size_t len;
} mev_maint_input;

/*
 * Parse MAINTAINERS content read in this order, as get_maintainer.pl does
 * (the files are concatenated).  `tree` (may be NULL) answers the script's
 * "is this pattern a directory" test.  Never fails on content: every oddity
 * becomes a diagnostic.  Errors: MEV_ENOMEM.
 */
int mev_maint_parse(mev_maint **out, const mev_rules *rules,
		    const mev_maint_input *files, size_t nfiles, const mev_tree *tree);

/*
 * Find and parse the MAINTAINERS files of `tree` following `rules`.  A tree
 * without any gives zero sections and a diagnostic, not an error.
 */
int mev_maint_load(mev_maint **out, const mev_rules *rules, mev_repo *repo,
		   const mev_tree *tree);

void mev_maint_free(mev_maint *m);

/* 1 when a file could not be read at all (Zephyr: a YAML error, reported
 * as a diagnostic with its line and column): m then has no section of it. */
int mev_maint_unreadable(const mev_maint *m);

/*
 * A walk goes on with the previous release's areas when a release's file
 * cannot be read: *out gets a copy of the sections (and fields and files)
 * of `from`, with the diagnostics of `failed` and a note saying so.
 * Errors: MEV_ENOMEM.
 */
int mev_maint_carry(mev_maint **out, const mev_maint *from, const mev_maint *failed);

/* A MAINTAINERS file the rules select in a tree, and the blob it reads. */
typedef struct {
	char *path;
	mev_oid oid;
} mev_maint_source;

/* The files mev_maint_load() would read, in order: *out (*n of them).
 * Free with mev_maint_sources_free().  Errors: MEV_ENOMEM. */
int mev_maint_sources(mev_maint_source **out, size_t *n, const mev_rules *rules,
		      const mev_tree *tree);
void mev_maint_sources_free(mev_maint_source *s, size_t n);
/* The order in which File::Find reaches paths a and b (<0, 0, >0): in each
 * folder its files first, then its subfolders, names in byte order; the
 * order of the files a source list finds. */
int mev_maint_find_order(const char *a, const char *b);

/*
 * For a source list src[0..n) found under rules r (mev_maint_sources()):
 * 1 when the file path[0..len) is one that the list's File::Find part holds
 * or would hold (below the folder searched, by its name), so that adding
 * or deleting it adds it to or drops it from that part and changes nothing
 * else; *first gets where that part starts (0 when there is none).  0 for
 * rules whose files are not all found that way, and for any other path.
 */
int mev_maint_found_by_find(size_t *first, const mev_rules *r, const mev_maint_source *src,
			    size_t n, const char *path, size_t len);

/*
 * The MAINTAINERS files of `tree` that `m` did not read: every file (or
 * link to a file) named exactly MAINTAINERS, in any folder, that is not
 * among m's files, as indices into mev_tree_files(tree), in tree order:
 * *out (*n; free *out).  U-Boot v2021.10's script reads ./MAINTAINERS
 * alone while board/ holds 511 more.  Errors: MEV_ENOMEM.
 */
int mev_maint_unread(size_t **out, size_t *n, const mev_maint *m, const mev_tree *tree);

/* 1 when some F:/X: regex of `m` would differ in `tree` (the script's
 * directory test answers differently there). */
int mev_maint_dirs_changed(const mev_maint *m, const mev_tree *tree);

/*
 * After a parse without a tree: the script's directory test answered by
 * is_dir(ctx, regex, len) (1: a directory, 0: not, negative: an error,
 * returned) for every F:/X: regex without a trailing '/', which gets one
 * when it is a directory: the same fields a parse with the tree gives.
 */
int mev_maint_set_dirs(mev_maint *m, int (*is_dir)(void *ctx, const char *path, size_t len),
		       void *ctx);

size_t mev_maint_section_count(const mev_maint *m);
const mev_section *mev_maint_sections(const mev_maint *m);
size_t mev_maint_field_count(const mev_maint *m);
const mev_field *mev_maint_fields(const mev_maint *m);
size_t mev_maint_file_count(const mev_maint *m);
const char *mev_maint_file(const mev_maint *m, uint32_t i);
const mev_rules *mev_maint_rules(const mev_maint *m);

size_t mev_maint_diag_count(const mev_maint *m);
const mev_diag *mev_maint_diags(const mev_maint *m);
/* Format a diagnostic of m as "file:line: message" into buf[0..size)
 * (always NUL-terminated; cut when too long). */
void mev_maint_diag_format(char *buf, size_t size, const mev_maint *m, const mev_diag *d);

#endif
