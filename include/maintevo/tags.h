/*
 * The order of releases by their names (src/release/order.c): tags in
 * version order, snapshots by the day in their names, and the two merged
 * into the store's order.  Which tags are releases is each dialect's
 * (mev_tag_is_release(), maintevo/dialect.h); days and periods are the
 * calendar's (maintevo/calendar.h).
 */
#ifndef MAINTEVO_TAGS_H
#define MAINTEVO_TAGS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Compare two tags as versions: digit runs compare as numbers, other runs
 * bytewise, and a pre-release suffix starting with '-' sorts before the
 * release (v2.6.39 < v3.0 < v3.10, v6.1-rc1 < v6.1 < v6.1.1).  Ties are
 * broken bytewise so the order is total.
 */
int mev_tag_cmp(const char *a, const char *b);

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

/*
 * The releases that go back in time: for tags v[0..n) in version order,
 * before[i] is the index of the newest tag before v[i] (the first of equal
 * dates) when v[i] is dated before it, else SIZE_MAX.  Returns how many go
 * back.  A dialect's line of releases has none on its real repository
 * (docs/walking.md); maintenance releases among them would
 * (v21.02 is dated before v20.11.10).
 */
size_t mev_release_backward(size_t *before, const mev_release_key *v, size_t n);

#endif
