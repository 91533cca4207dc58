/* Dialects: what one project family does differently, all in one table; and the rules of a release's get_maintainer.pl, detected from its text. */
#ifndef MAINTEVO_DIALECT_H
#define MAINTEVO_DIALECT_H

#include "maintevo/repo.h"

/*
 * The dialects, one row each: X(ID, file) gives MEV_DIALECT_<ID> and the
 * definition mev__dialect_<file> in src/dialect/<file>.c, which holds
 * everything of the dialect (names, detection, defaults, release tags).
 * The first row is what `--dialect auto` falls back to; the others are
 * tried in table order.  A new dialect goes at the end (stores and tests
 * keep the numbers of the existing ones), with its file and its tests.
 */
#define MEV_DIALECTS(X) \
	X(LINUX, linux) \
	X(UBOOT, uboot) \
	X(XEN, xen) \
	X(QEMU, qemu) \
	X(OPTEE, optee) \
	X(EDK2, edk2) \
	X(ZEPHYR, zephyr) \
	X(COREBOOT, coreboot) \
	X(DPDK, dpdk)

/* Project conventions (release tags, where MAINTAINERS lives). */
typedef enum {
	MEV_DIALECT_AUTO = 0, /* not a dialect: detect it from the tree */
#define MEV__DIALECT_ENUM(ID, file) MEV_DIALECT_##ID,
	MEV_DIALECTS(MEV__DIALECT_ENUM)
#undef MEV__DIALECT_ENUM
	MEV_DIALECT_END       /* one past the last: the dialects are 1 .. MEV_DIALECT_END - 1 */
} mev_dialect;

/* How many dialects there are (MEV_DIALECT_AUTO is none). */
#define MEV_DIALECT_COUNT (MEV_DIALECT_END - 1)

/*
 * What people and the command line need to know of a dialect.  Every
 * text is static; none ends with a full stop.
 */
typedef struct {
	const char *name;             /* "uboot": --dialect takes it, stores keep it */
	const char *const *aliases;   /* other names --dialect takes ("u-boot"), NULL-terminated */
	const char *display;          /* the project's name for people: "U-Boot" */
	const char *tags;             /* its release tags: the line walked by default
					 ("vYYYY.MM"), and its maintenance releases */
	const char *rc_tags;          /* what --rc adds: "vYYYY.MM-rcN" */
	const char *files;            /* where its MAINTAINERS files live (when no script says) */
	const char *detect;           /* what `--dialect auto` knows it by */
} mev_dialect_info;

/*
 * The description of dialect d; NULL for MEV_DIALECT_AUTO and anything
 * out of range.  To go through them all:
 *
 *     for (int d = 1; d < MEV_DIALECT_END; d++)
 *         puts(mev_dialect_info_get((mev_dialect)d)->name);
 */
const mev_dialect_info *mev_dialect_info_get(mev_dialect d);

/* "linux", "uboot", ...; "auto" for MEV_DIALECT_AUTO, "?" out of range. */
const char *mev_dialect_name(mev_dialect d);

/* The dialect named `name` or one of its aliases ("u-boot"), or
 * MEV_DIALECT_AUTO for "auto"; -1 for an unknown name. */
int mev_dialect_parse(const char *name);

/* The project's name for people ("U-Boot"); NULL for MEV_DIALECT_AUTO and
 * anything out of range. */
const char *mev_dialect_display(mev_dialect d);

/*
 * Where a tree of the dialect keeps the script whose rules it follows:
 * "scripts/get_maintainer.pl" (Linux, U-Boot, Xen, QEMU),
 * "util/scripts/get_maintainer.pl" (coreboot), a script that is not
 * get_maintainer.pl ("scripts/get_maintainer.py" of OP-TEE and Zephyr,
 * edk2's "BaseTools/Scripts/GetMaintainer.py"); NULL when its trees have
 * none and its rules are always mev_rules_default()'s (DPDK, whose
 * devtools/get-maintainer.sh runs the kernel's script).  MEV_DIALECT_AUTO
 * and anything out of range: the fallback's (Linux's).
 */
const char *mev_dialect_script(mev_dialect d);

/*
 * The dialect a tree looks like: the first in table order that recognises
 * it (U-Boot by board/ and include/configs/, ...), else the first row
 * (Linux).  Reads only the tree's listing, no blob.
 */
mev_dialect mev_dialect_guess(const mev_tree *tree);

/*
 * Is `tag` a release of the dialect?  Each dialect's pattern is in its file
 * (mev_dialect_info_get(d)->tags: Linux vX.Y and vX.Y.Z, U-Boot vYYYY.MM,
 * ...); with rc, also its release candidates (->rc_tags).  MEV_DIALECT_AUTO
 * takes the fallback's (Linux's).
 */
int mev_tag_is_release(mev_dialect d, const char *tag, int rc);

/*
 * Where a release stands among the dialect's releases (docs/walking.md,
 * "One line of releases").  A project's releases are one line of
 * development, each dated after the one before (Xen's RELEASE-X.Y.0,
 * DPDK's vYY.MM, Linux's vX.Y), and maintenance lines that branch off it,
 * each named after the release it starts from (DPDK's line 20.11:
 * v20.11.1 .. v20.11.10, made while v21.02 .. v23.07 came out).
 */
typedef enum {
	MEV_TAG_NONE = 0, /* not a release, or on no line (Zephyr's vX.Y.99 development marks) */
	MEV_TAG_MAIN,     /* on the line of development: what a walk takes by default */
	MEV_TAG_POINT     /* a maintenance release of a line: walked with walk --line */
} mev_tag_kind;

/*
 * The kind of `tag` among dialect d's releases (as mev_tag_is_release()
 * with rc takes them: a candidate is of the kind of the release it leads
 * to), and in line (size bytes; may be NULL) the name of the line it
 * belongs to, the numbers of the release the line starts from as the tag
 * writes them: "20.11" for v20.11 and v20.11.3, "4.17" for RELEASE-4.17.0
 * and RELEASE-4.17.2, "202408" for edk2-stable202408.01; "" for
 * MEV_TAG_NONE.
 */
mev_tag_kind mev_tag_line(char *line, size_t size, mev_dialect d, const char *tag, int rc);

/* --- the rules of one release's get_maintainer.pl --------------------------- */

/*
 * How MAINTAINERS files are found, one mode per generation of the script's
 * file search (read from the script text, never from a list of folders):
 */
enum {
	MEV_DISCOVER_TOP = 1,    /* only ./MAINTAINERS (Xen, QEMU, old Linux) */
	MEV_DISCOVER_SUBDIR,     /* ./MAINTAINERS, then File::Find of find_dir for names
				    starting with "MAINTAINERS" (U-Boot 2014.10-2017.09) */
	MEV_DISCOVER_DIR_FMF,    /* ./MAINTAINERS directory listing and file, or with
				    --find-maintainer-files every .../MAINTAINERS (2017.11-2021.07) */
	MEV_DISCOVER_PATH        /* --maintainer-path, file or directory (Linux 5.x on, U-Boot 2021.10 on) */
};

/*
 * The version of maintevo's reading of the rules: raised whenever a change
 * of this code changes the sections or file map some release gets.  Every
 * release record keeps the version that built it, and a walk computes again
 * the releases an older version built.
 *   1  before release records kept it
 *   2  file search read from each script, .get_maintainer.conf, File::Find
 *      order; catch-all by coverage; QEMU field letters and N:
 *   3  a section's title is exactly the script's (an underline stays one),
 *      with a display name and its kind beside it
 *   4  edk2: a section that covers the path "<default>" (the Tianocore
 *      Stewards' "F: *") is no longer taken for a catch-all
 */
#define MEV_RULES_VERSION 4

/*
 * The reading and matching rules of one tree's scripts/get_maintainer.pl.
 * They change between script versions, so they are detected from the
 * script text of each release (see docs/matching.md).
 */
typedef struct {
	mev_dialect dialect;
	int discover;             /* MEV_DISCOVER_* */
	unsigned has_script : 1;  /* the tree has scripts/get_maintainer.pl */
	unsigned any_type : 1;    /* field lines are ^(\C): or ^(.): (any byte), not ^([A-Z]): */
	unsigned drop_comments : 1; /* lines matching ^\s*# are skipped */
	unsigned utf8 : 1;        /* the script decodes MAINTAINERS as UTF-8 */
	unsigned braces : 1;      /* Xen: {a,b} in F:/X: becomes (a|b) */
	unsigned find_files : 1;  /* --find-maintainer-files in effect */
	char mpath[256];          /* --maintainer-path in effect ("" = ./MAINTAINERS) */
	unsigned no_n : 1;        /* the script has no N: handling: N: lines match nothing (QEMU) */
	char find_dir[64];        /* MEV_DISCOVER_SUBDIR: the folder searched ("board") */
	char conf[256];           /* the .get_maintainer.conf options applied, "" when none */
	/* Dialects whose script is not get_maintainer.pl (docs/design.md,
	 * "Adding a dialect"): their file is read, and their F:/X: values
	 * turned into regexes, by the dialect's own code. */
	unsigned regex_patterns : 1; /* F:/X: values become whole regexes searched in the path:
					the kernel's directory test, trailing-'/' and equal-'/'
					rules do not apply */
	unsigned no_dir_slash : 1;   /* the script does not add '/' to the path of a directory */
	unsigned fallback : 1;       /* edk2: a path whose sections name no maintainer also gets
					the sections of the path '<default>' */
	unsigned fallback_r : 1;     /* ... where R: lines count as maintainers (edk2 before 2023-11) */
	unsigned m_needs_addr : 1;   /* an M: line without '<...>' at its end is no field
					(edk2 before 2021-07) */
	char files_as[64];        /* "" or the release whose script's file search replaced the
				     tree's own (mev_rules_options.files_as, walk --files-as) */
} mev_rules;

/*
 * The rules in one line of text, for the record of a release and for
 * people: "linux: files ./MAINTAINERS; fields [A-Z], N: on, ...".
 * Always NUL-terminated; cut when too long.
 */
void mev_rules_describe(char *buf, size_t size, const mev_rules *r);

/* User choices that override what the tree says. */
typedef struct {
	mev_dialect dialect;      /* MEV_DIALECT_AUTO: detect */
	int top_level_only;       /* read only the top-level MAINTAINERS file */
	const mev_rules *files_as; /* NULL: each tree's own file search; else the MAINTAINERS
				     files are found as these rules find them (their discover,
				     find_files, mpath, find_dir and conf; mev_rules_files_as()),
				     the rest (fields, N:, encoding) still from the tree's script.
				     Only for dialects whose script is get_maintainer.pl */
} mev_rules_options;

/*
 * Detect the rules of the tree: the dialect (unless forced), the script's
 * generation and its .get_maintainer.conf.  Errors: MEV_ENOTFOUND when the
 * repository lacks the blob of either (a partial clone; the hint says how to
 * fetch it); never fails otherwise.
 */
int mev_rules_detect(mev_rules *out, mev_repo *repo, const mev_tree *tree,
		     const mev_rules_options *opt);

/*
 * The rules of release `rev` of `repo` (a tag or any revision: its tree's
 * script and .get_maintainer.conf, read with `opt`'s dialect), named
 * after it (out->files_as = rev), for mev_rules_options.files_as: every
 * tree's MAINTAINERS files are then found as that release's script finds
 * them.  Errors: MEV_ENOTFOUND (no such revision; a blob missing),
 * MEV_EINVAL (a name longer than mev_rules.files_as holds, or a dialect
 * whose script is not get_maintainer.pl: it reads one file).
 */
int mev_rules_files_as(mev_rules *out, mev_repo *repo, const char *rev, const mev_rules_options *opt);

/* The rules of the newest known script of a dialect (for trees without one). */
void mev_rules_default(mev_rules *out, mev_dialect dialect);

#endif
