/* Dialects: what one project family does differently, all in one table. */
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
	X(QEMU, qemu)

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
	const char *tags;             /* its release tags: "vYYYY.MM" */
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
 * The dialect a tree looks like: the first in table order that recognises
 * it (U-Boot by board/ and include/configs/, ...), else the first row
 * (Linux).  Reads only the tree's listing, no blob.
 */
mev_dialect mev_dialect_guess(const mev_tree *tree);

#endif
