/* Tests of the calendar: days, and the periods a branch is snapshot by. */
#include "test.h"
#include "maintevo/calendar.h"
#include "maintevo/error.h"

#include <string.h>

/* the day of t, for messages */
static const char *day(int64_t t)
{
	static char buf[4][11];
	static int k;
	k = (k + 1) % 4;
	mev_day_format(buf[k], t);
	return buf[k];
}

static void test_days_and_periods(void)
{
	int64_t t, end;
	CHECK(mev_day_parse(&t, "2024-02-29") == 0 && t == 1709164800);
	CHECK(strcmp(day(t), "2024-02-29") == 0);
	CHECK(strcmp(day(0), "1970-01-01") == 0);
	CHECK(mev_day_parse(&t, "2023-02-29") == MEV_EINVAL); /* not a leap year */
	CHECK(mev_day_parse(&t, "2024-13-01") == MEV_EINVAL);
	CHECK(mev_day_parse(&t, "2024-1-01") == MEV_EINVAL);
	CHECK(mev_day_parse(&t, "1969-12-31") == MEV_EINVAL);
	CHECK(mev_day_parse(&t, "yesterday") == MEV_EINVAL);
	CHECK(strstr(mev_error_message(), "YYYY-MM-DD") != NULL);
	/* the quiet form: the same days, no error */
	CHECK(mev_day_scan(&t, "2024-02-29") && t == 1709164800);
	CHECK(mev_day_scan(NULL, "1970-01-01"));
	CHECK(!mev_day_scan(NULL, "2023-02-29") && !mev_day_scan(NULL, "2024-02-29x"));
	CHECK(!mev_day_scan(NULL, "2024-02") && !mev_day_scan(NULL, ""));
	/* 2024-02-29 12:00 UTC, a Thursday */
	t = 1709164800 + 43200;
	CHECK(strcmp(day(mev_period_end(t, MEV_EVERY_DAY)), "2024-02-29") == 0);
	CHECK(mev_period_end(t, MEV_EVERY_DAY) == 1709164800 + 86399);
	CHECK(strcmp(day(mev_period_end(t, MEV_EVERY_WEEK)), "2024-03-03") == 0);   /* Sunday */
	CHECK(strcmp(day(mev_period_end(t, MEV_EVERY_MONTH)), "2024-02-29") == 0);
	CHECK(strcmp(day(mev_period_end(t, MEV_EVERY_QUARTER)), "2024-03-31") == 0);
	/* a Monday starts a week; a Sunday ends it; December ends a quarter and a year */
	mev_day_parse(&t, "2024-03-04");
	CHECK(strcmp(day(mev_period_end(t, MEV_EVERY_WEEK)), "2024-03-10") == 0);
	mev_day_parse(&t, "2024-03-10");
	CHECK(strcmp(day(mev_period_end(t + 86399, MEV_EVERY_WEEK)), "2024-03-10") == 0);
	mev_day_parse(&t, "2024-11-15");
	CHECK(strcmp(day(mev_period_end(t, MEV_EVERY_QUARTER)), "2024-12-31") == 0);
	CHECK(strcmp(day(mev_period_end(t, MEV_EVERY_MONTH)), "2024-11-30") == 0);
	/* consecutive periods: each starts the second after the one before ends */
	end = mev_period_end(0, MEV_EVERY_MONTH);
	for (int i = 0; i < 700; i++) {
		int64_t next = mev_period_end(end + 1, MEV_EVERY_MONTH);
		CHECK(next > end && (next - end) / 86400 >= 28 && (next - end) / 86400 <= 31);
		end = next;
	}
	CHECK(mev_every_parse("month") == MEV_EVERY_MONTH && mev_every_parse("fortnight") < 0);
	CHECK(strcmp(mev_every_name(MEV_EVERY_QUARTER), "quarter") == 0);
}

/* The calendar's end (issue 38, point 2): the periods after 9999 go on
 * forward (a month of year 10000 read as year 0 sent a walk's loop back in
 * time, for ever), and a period is in the calendar only when its last day
 * can be written. */
static void test_calendar_end(void)
{
	int64_t t, end;
	CHECK(mev_day_parse(&t, "9999-12-31") == 0 && t + 86399 == MEV_CALENDAR_LAST);
	for (mev_every e = MEV_EVERY_DAY; e <= MEV_EVERY_QUARTER; e++) {
		end = mev_period_end(t, e);
		CHECK(end >= MEV_CALENDAR_LAST);
		CHECK(mev_period_end(end + 1, e) > end);
	}
	mev_day_parse(&t, "9999-11-15");
	end = mev_period_end(t, MEV_EVERY_MONTH);
	CHECK(strcmp(day(end), "9999-11-30") == 0);
	CHECK(mev_period_end(end + 1, MEV_EVERY_MONTH) == MEV_CALENDAR_LAST);
	CHECK(mev_period_end(MEV_CALENDAR_LAST + 1, MEV_EVERY_QUARTER) == MEV_CALENDAR_LAST + 91 * 86400);
	CHECK(mev_period_in_calendar(t, MEV_EVERY_MONTH) && mev_period_in_calendar(t, MEV_EVERY_QUARTER));
	mev_day_parse(&t, "9999-12-31"); /* a Friday: its week ends in 10000 */
	CHECK(mev_period_in_calendar(t, MEV_EVERY_MONTH) && !mev_period_in_calendar(t, MEV_EVERY_WEEK));
	CHECK(!mev_period_in_calendar(MEV_CALENDAR_LAST + 1, MEV_EVERY_DAY));
	CHECK(!mev_period_in_calendar(-1, MEV_EVERY_DAY) && mev_period_in_calendar(0, MEV_EVERY_WEEK));
}

int main(void)
{
	RUN(test_days_and_periods);
	RUN(test_calendar_end);
	return test_summary();
}
