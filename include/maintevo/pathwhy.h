/* Why the sections of one release take a path or not, read from git or from a store ('explain PATH'). */
#ifndef MAINTEVO_PATHWHY_H
#define MAINTEVO_PATHWHY_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/maintainers.h"
#include "maintevo/match.h"
#include "maintevo/repo.h"
#include "maintevo/store.h"

/*
 * One release, loaded to explain paths by mev_match_why(): its sections,
 * its F:, X: and N: lines with the regexes its script matches with, and a
 * reference to check the answers against: from git the matcher
 * (mev_matcher_match()), from a store the sections the walk stored for
 * each file.  The two must agree; when they do not, the answer says so
 * (a bug to report).  Not thread-safe: one per thread.
 *
 *     mev_pathwhy *pw;
 *     mev_pathwhy_answer a;
 *     if (mev_pathwhy_from_store(&pw, store, "v6.1") == 0 &&
 *         mev_pathwhy_explain(&a, pw, "drivers/net/") == 0)
 *             printf("%zu sections take %s/\n", a.nin, a.path);
 *     mev_pathwhy_free(pw);
 */
typedef struct mev_pathwhy mev_pathwhy;

/*
 * The release read from git: maint its MAINTAINERS (mev_maint_load()),
 * tree its tree; both borrowed, and must outlive *out.  Errors:
 * MEV_ENOMEM.
 */
int mev_pathwhy_from_git(mev_pathwhy **out, mev_maint *maint, const mev_tree *tree);

/*
 * Release `tag` of store s: the patterns the walk stored, with their
 * regexes, and its file table, read in one snapshot (s may be closed
 * afterwards).  MEV_ENOTFOUND, with a message and a hint, when the release
 * is not stored, was stored without the regexes of its patterns (walked by
 * a maintevo that kept none), or has no file table (imported as a graph).
 * Else the errors of mev_release_load_patterns() and
 * mev_release_load_filemap().
 */
int mev_pathwhy_from_store(mev_pathwhy **out, mev_store *s, const char *tag);

void mev_pathwhy_free(mev_pathwhy *pw);

/* Whose rules decide: the release's script (mev_dialect_script()), or NULL
 * when not known (a store that records no dialect). */
const char *mev_pathwhy_script(const mev_pathwhy *pw);

/* A section of the release. */
typedef struct {
	const char *title;        /* its title, the key it is stored under */
	const char *display;      /* its display name */
} mev_pathwhy_section;

/* One F:, X: or N: line of the release. */
typedef struct {
	char type;                /* 'F', 'X' or 'N' */
	const char *value;        /* as MAINTAINERS has it */
	const char *regex;        /* as the script matches with it (mev_pattern_line);
				     NULL: the script ignores the line */
	const char *file;         /* the MAINTAINERS file and the line (1-based) */
	uint32_t line;
	uint32_t section;         /* the index of its section */
} mev_pathwhy_line;

/* The sections (*n of them) and the lines (*n of them) of the release, in
 * MAINTAINERS order (from a store: sections by title); valid until
 * mev_pathwhy_free(). */
const mev_pathwhy_section *mev_pathwhy_sections(const mev_pathwhy *pw, size_t *n);
const mev_pathwhy_line *mev_pathwhy_lines(const mev_pathwhy *pw, size_t *n);

/* What one path is to the release's sections. */
typedef struct {
	const char *path;         /* as the script takes it (canonpath): no "./", no repeated
				     or trailing '/' */
	int is_dir;               /* matched as "path/": it ended in '/', is a directory, or
				     (from a store) a link the walk matched as one */
	int exists;               /* a file or directory of the release (else it is matched
				     as a file name all the same) */
	const mev_why_rule *rules;     /* per line: what it did with the path */
	const uint8_t *verdicts;       /* per section: a mev_why_verdict */
	const uint32_t *shown;    /* the sections the path is in, then those keeping it
				     out, then those near it (MEV_WHY_IN, _EXCLUDED,
				     _NEAR), each group in bytewise title order */
	size_t nshown;
	size_t nin;               /* the sections the path is in */
	int disagrees;            /* the sections in differ from the reference's (the
				     matcher's, or the walk's): a bug to report */
} mev_pathwhy_answer;

/*
 * Explain `path` (a path of the release; a trailing '/' says it is a
 * directory) into *out: valid until the next call or mev_pathwhy_free().
 * Errors: MEV_ENOMEM.
 */
int mev_pathwhy_explain(mev_pathwhy_answer *out, mev_pathwhy *pw, const char *path);

/* What the script's directory test did to the value of an F:/X: line. */
typedef enum {
	MEV_PATHWHY_DIR_NONE = 0, /* nothing to say: an N: line, a value ending in '/', ... */
	MEV_PATHWHY_DIR_ADDED,    /* the value is a directory of the release: the test
				     added the '/' the regex ends in */
	MEV_PATHWHY_DIR_MISSED    /* the value is a directory, but the test looked at the
				     converted text (the regex), which is none: no '/' */
} mev_pathwhy_dir;

/* The directory test's answer for line i (< the lines' count). */
mev_pathwhy_dir mev_pathwhy_dir_test(const mev_pathwhy *pw, size_t i);

#endif
