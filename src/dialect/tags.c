/* Version order of tags (which tags are releases: each dialect's file). */
#include "maintevo/tags.h"

#include "maintevo/error.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A run of digits or of non-digits starting at *p; advances *p. */
static size_t run(const char **p, int *digits)
{
	const char *s = *p;
	*digits = isdigit((unsigned char)*s) != 0;
	while (**p && (isdigit((unsigned char)**p) != 0) == *digits)
		(*p)++;
	return (size_t)(*p - s);
}

int mev_tag_cmp(const char *a, const char *b)
{
	const char *pa = a, *pb = b;
	while (*pa && *pb) {
		const char *sa = pa, *sb = pb;
		int da, db;
		size_t la = run(&pa, &da), lb = run(&pb, &db);
		if (da && db) {
			while (la > 1 && *sa == '0') { sa++; la--; }
			while (lb > 1 && *sb == '0') { sb++; lb--; }
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = memcmp(sa, sb, la);
			if (c)
				return c < 0 ? -1 : 1;
		} else if (da != db) {
			return da ? 1 : -1;
		} else {
			size_t m = la < lb ? la : lb;
			int c = memcmp(sa, sb, m);
			if (c)
				return c < 0 ? -1 : 1;
			if (la != lb) {
				/* "-rc1" after a common prefix: the pre-release is older */
				const char *ra = sa + m, *rb = sb + m;
				if (la > lb)
					return *ra == '-' || *ra == '~' ? -1 : 1;
				return *rb == '-' || *rb == '~' ? 1 : -1;
			}
		}
	}
	if (*pa || *pb) {
		const char *rest = *pa ? pa : pb;
		int pre = *rest == '-' || *rest == '~';
		/* the longer one is newer (v6.1.1 > v6.1) unless it goes on with a pre-release */
		if (*pa)
			return pre ? -1 : 1;
		return pre ? 1 : -1;
	}
	return strcmp(a, b);
}

/* --- snapshots and the order of a store's releases ---------------------------- */

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

int mev_snapshot_parse(const char *name, int64_t *end, size_t *branch_len)
{
	const char *at = strrchr(name, '@');
	int64_t day;
	if (!at || at == name || !day_of(at + 1, &day))
		return 0;
	if (end)
		*end = day * 86400 + 86399;
	if (branch_len)
		*branch_len = (size_t)(at - name);
	return 1;
}

int mev_day_parse(int64_t *start, const char *text)
{
	int64_t day;
	if (!text || strlen(text) != 10 || !day_of(text, &day)) {
		mev_error_set(MEV_EINVAL, "date '%s' does not parse: a day is YYYY-MM-DD (UTC), "
			      "1970 or later", text ? text : "");
		mev_error_hint("for example --since 2020-01-01");
		return MEV_EINVAL;
	}
	*start = day * 86400;
	return 0;
}

void mev_day_format(char buf[11], int64_t t)
{
	int64_t z = (t >= 0 ? t : t - 86399) / 86400 + 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	unsigned d = doy - (153 * mp + 2) / 5 + 1;
	unsigned m = mp < 10 ? mp + 3 : mp - 9;
	int64_t y = (int64_t)yoe + era * 400 + (m <= 2);
	char tmp[32];
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
	int64_t day = (t >= 0 ? t : t - 86399) / 86400;
	char ymd[11];
	unsigned y, m;
	switch (e) {
	case MEV_EVERY_WEEK:
		/* 1970-01-01 was a Thursday: Monday is 0 at (day + 3) mod 7 */
		day += 6 - ((day + 3) % 7 + 7) % 7;
		break;
	case MEV_EVERY_MONTH:
	case MEV_EVERY_QUARTER:
		mev_day_format(ymd, t);
		y = (unsigned)atoi(ymd);
		m = (unsigned)atoi(ymd + 5);
		if (e == MEV_EVERY_QUARTER)
			m = (m + 2) / 3 * 3;
		day = (m == 12 ? days_from_civil(y + 1, 1, 1) : days_from_civil(y, m + 1, 1)) - 1;
		break;
	default:
		break;
	}
	return day * 86400 + 86399;
}

static int key_tag_cmp(const void *a, const void *b)
{
	return mev_tag_cmp(((const mev_release_key *)a)->name, ((const mev_release_key *)b)->name);
}

/* Snapshots by date, then name; v[i].time holds their dates here. */
static int key_date_cmp(const void *a, const void *b)
{
	const mev_release_key *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return strcmp(x->name, y->name);
}

int mev_release_order(mev_release_key *v, size_t n)
{
	mev_release_key *tags, *snaps;
	int64_t *when, *ctime;
	size_t nt = 0, ns = 0;
	if (n < 2)
		return 0;
	tags = malloc(n * sizeof *tags);
	snaps = malloc(n * sizeof *snaps);
	when = malloc(n * sizeof *when);
	ctime = malloc(n * sizeof *ctime);
	if (!tags || !snaps || !when || !ctime) {
		free(tags);
		free(snaps);
		free(when);
		free(ctime);
		return mev_error_oom();
	}
	for (size_t i = 0; i < n; i++) {
		int64_t end;
		if (mev_snapshot_parse(v[i].name, &end, NULL)) {
			snaps[ns] = v[i];
			snaps[ns].time = end; /* its date while sorting */
			snaps[ns++].index = i;
		} else {
			tags[nt++] = v[i];
		}
	}
	qsort(tags, nt, sizeof *tags, key_tag_cmp);
	qsort(snaps, ns, sizeof *snaps, key_date_cmp);
	/* a snapshot's own time and index back (index held its place in v) */
	for (size_t j = 0; j < ns; j++) {
		ctime[j] = v[snaps[j].index].time;
		snaps[j].index = v[snaps[j].index].index;
	}
	for (size_t i = 0; i < nt; i++)
		when[i] = i && when[i - 1] > tags[i].time ? when[i - 1] : tags[i].time;
	for (size_t i = 0, j = 0, k = 0; k < n; k++) {
		if (j == ns || (i < nt && when[i] <= snaps[j].time)) {
			v[k] = tags[i++];
		} else {
			v[k] = snaps[j];
			v[k].time = ctime[j++];
		}
	}
	free(tags);
	free(snaps);
	free(when);
	free(ctime);
	return 0;
}
