/*
 * The calendar: days "YYYY-MM-DD" in UTC, read and written by arithmetic
 * on the proleptic Gregorian calendar (no time zone of the machine comes
 * in), and the periods a branch is snapshot by.  Its users: the names of
 * snapshots (src/release/order.c), the snapshots a walk takes
 * (src/walk/snapshots.c), --since and --every (walk/choose.c, the
 * command line).
 */
#include "maintevo/calendar.h"

#include "maintevo/error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Days since 1970-01-01 of a date of the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static int leap(int64_t y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* "YYYY-MM-DD" at p (exactly 10 bytes, then the end): *day the days since the epoch. */
static int day_of(const char *p, int64_t *day)
{
	static const unsigned mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	unsigned y = 0, m, d;
	for (int i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? p[i] != '-' : !isdigit((unsigned char)p[i]))
			return 0;
	if (p[10])
		return 0;
	for (int i = 0; i < 4; i++)
		y = y * 10 + (unsigned)(p[i] - '0');
	m = (unsigned)(p[5] - '0') * 10 + (unsigned)(p[6] - '0');
	d = (unsigned)(p[8] - '0') * 10 + (unsigned)(p[9] - '0');
	if (y < 1970 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] + (m == 2 && leap(y)))
		return 0;
	*day = days_from_civil(y, m, d);
	return 1;
}

int mev_day_scan(int64_t *start, const char *text)
{
	int64_t day;
	if (!day_of(text, &day))
		return 0;
	if (start)
		*start = day * 86400;
	return 1;
}

int mev_day_parse(int64_t *start, const char *text)
{
	if (text && mev_day_scan(start, text))
		return 0;
	mev_error_set(MEV_EINVAL, "date '%s' does not parse: a day is YYYY-MM-DD (UTC), "
		      "1970 or later", text ? text : "");
	mev_error_hint("for example --since 2020-01-01");
	return MEV_EINVAL;
}

/* The year, month and day of day `z` since 1970-01-01 (any year: the
 * periods count on past 9999, so that a walk's loop over them always goes
 * forward). */
static void civil_from_days(int64_t *y, unsigned *m, unsigned *d, int64_t z)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

void mev_day_format(char buf[11], int64_t t)
{
	int64_t y;
	unsigned m, d;
	char tmp[32];
	civil_from_days(&y, &m, &d, (t >= 0 ? t : t - 86399) / 86400);
	snprintf(tmp, sizeof tmp, "%04d-%02u-%02u", (int)(y % 10000), m % 100, d % 100);
	memcpy(buf, tmp, 10);
	buf[10] = '\0';
}

static const char *const every_names[] = { "", "day", "week", "month", "quarter" };

int mev_every_parse(const char *name)
{
	for (int e = MEV_EVERY_DAY; e <= MEV_EVERY_QUARTER; e++)
		if (name && strcmp(name, every_names[e]) == 0)
			return e;
	return -1;
}

const char *mev_every_name(mev_every e)
{
	return (unsigned)e <= MEV_EVERY_QUARTER ? every_names[e] : "?";
}

int64_t mev_period_end(int64_t t, mev_every e)
{
	int64_t day = (t >= 0 ? t : t - 86399) / 86400, y;
	unsigned m, d;
	switch (e) {
	case MEV_EVERY_WEEK:
		/* 1970-01-01 was a Thursday: Monday is 0 at (day + 3) mod 7 */
		day += 6 - ((day + 3) % 7 + 7) % 7;
		break;
	case MEV_EVERY_MONTH:
	case MEV_EVERY_QUARTER:
		/* the year as a number, not as the four digits a day is written
		 * with: 10000 must not read as 0 (a loop over the periods of
		 * 9999 went back to year 0 and on for ever) */
		civil_from_days(&y, &m, &d, day);
		if (e == MEV_EVERY_QUARTER)
			m = (m + 2) / 3 * 3;
		day = (m == 12 ? days_from_civil(y + 1, 1, 1) : days_from_civil(y, m + 1, 1)) - 1;
		break;
	default:
		break;
	}
	return day * 86400 + 86399;
}

int mev_period_in_calendar(int64_t t, mev_every e)
{
	return t >= 0 && mev_period_end(t, e) <= MEV_CALENDAR_LAST;
}
