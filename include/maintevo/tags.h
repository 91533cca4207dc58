/* Release tags: which tags are releases, and their version order. */
#ifndef MAINTEVO_TAGS_H
#define MAINTEVO_TAGS_H

#include <stddef.h>
#include <stdint.h>
#include "maintevo/dialect.h"

/*
 * Compare two tags as versions: digit runs compare as numbers, other runs
 * bytewise, and a pre-release suffix starting with '-' sorts before the
 * release (v2.6.39 < v3.0 < v3.10, v6.1-rc1 < v6.1 < v6.1.1).  Ties are
 * broken bytewise so the order is total.
 */
int mev_tag_cmp(const char *a, const char *b);

/*
 * Is `tag` a release of the dialect?  Each dialect's pattern is in its file
 * (mev_dialect_info_get(d)->tags: Linux vX.Y and vX.Y.Z, U-Boot vYYYY.MM,
 * ...); with rc, also its release candidates (->rc_tags).  MEV_DIALECT_AUTO
 * takes the fallback's (Linux's).
 */
int mev_tag_is_release(mev_dialect d, const char *tag, int rc);

/* --- snapshots: a branch as it was at the end of a day, week, month, quarter --- */

/*
 * A snapshot's name is "<branch>@YYYY-MM-DD": the branch, and the last day
 * of the period it stands for (UTC).  1 when `name` is one (a branch of at
 * least one byte and a real date), with *end (may be NULL) the last second
 * of that day, 23:59:59 UTC, in seconds since the epoch, and *branch_len
 * (may be NULL) the length of the branch; else 0.  Walks leave out a tag
 * named like a snapshot (docs/walking.md).
 */
int mev_snapshot_parse(const char *name, int64_t *end, size_t *branch_len);

/*
 * Parse a day "YYYY-MM-DD" into the first second of that day, UTC.
 * Errors: MEV_EINVAL with a message naming the text and the form expected.
 */
int mev_day_parse(int64_t *start, const char *text);
/* The day of time t (UTC) as "YYYY-MM-DD" into buf (11 bytes). */
void mev_day_format(char buf[11], int64_t t);

/* How often a branch is snapshot. */
typedef enum { MEV_EVERY_NONE = 0, MEV_EVERY_DAY, MEV_EVERY_WEEK, MEV_EVERY_MONTH, MEV_EVERY_QUARTER } mev_every;

/* "day", "week", "month", "quarter" (the period's name), or -1. */
int mev_every_parse(const char *name);
const char *mev_every_name(mev_every e);
/*
 * The last second (23:59:59 UTC) of the period of kind e that holds time
 * t: the day; the ISO week, Monday to Sunday; the calendar month; the
 * quarter (January-March, ...).
 */
int64_t mev_period_end(int64_t t, mev_every e);

/* A release as ordering needs it: its name and its commit's committer time. */
typedef struct {
	const char *name;
	int64_t time;
	size_t index;        /* the caller's: moves with the key */
} mev_release_key;

/*
 * Put releases in the order of a store: tags in version order
 * (mev_tag_cmp), snapshots by date (then by name), and the two merged by
 * date, each tag standing at the latest commit time of itself and the tags
 * before it (so that version order holds among tags even where their
 * commit dates do not follow it); a tag and a snapshot of the same time:
 * the tag first.  A store of tags only keeps version order, one of
 * snapshots only date order.  Errors: MEV_ENOMEM.
 */
int mev_release_order(mev_release_key *v, size_t n);

#endif
