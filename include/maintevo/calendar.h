/* The calendar: days "YYYY-MM-DD" (UTC) and the periods a branch is snapshot by. */
#ifndef MAINTEVO_CALENDAR_H
#define MAINTEVO_CALENDAR_H

#include <stdint.h>

/*
 * 1 when `text` is exactly a day "YYYY-MM-DD" of 1970 or later that exists
 * (2024-02-29 does, 2023-02-29 does not), with *start (may be NULL) the
 * first second of that day, UTC, in seconds since the epoch; else 0,
 * silently (a snapshot's name is tried on every tag).
 */
int mev_day_scan(int64_t *start, const char *text);

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

/* The last second a day can be written for: 9999-12-31 23:59:59 UTC. */
#define MEV_CALENDAR_LAST INT64_C(253402300799)
/*
 * 1 when the period of kind e that holds time t lies within the days the
 * calendar writes, 1970-01-01 to 9999-12-31 (the week of 9999-12-31 ends
 * in 10000, which a snapshot's name cannot hold); else 0.
 */
int mev_period_in_calendar(int64_t t, mev_every e);

#endif
