/* Tests of the activity index's pieces: calendar months, section titles, --people files. */
#include "test.h"
#include "export/export_internal.h"
#include "maintevo/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *dir;

/* Seconds of YYYY-MM-DD hh:mm:ss UTC (days from civil, Howard Hinnant's). */
static int64_t at(int y, int m, int d, int hh, int mm, int ss)
{
	int64_t yy = y - (m <= 2), era = (yy >= 0 ? yy : yy - 399) / 400;
	int64_t yoe = yy - era * 400, doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return ((era * 146097 + doe - 719468) * 24 + hh) * 3600 + mm * 60 + ss;
}

static void test_months(void)
{
	CHECK_INT(mev__act_months(at(2020, 10, 1, 0, 0, 0), at(2020, 12, 15, 0, 0, 0)), 2);
	CHECK_INT(mev__act_months(at(2020, 1, 31, 0, 0, 0), at(2020, 2, 29, 0, 0, 0)), 0);
	CHECK_INT(mev__act_months(at(2020, 1, 31, 0, 0, 0), at(2020, 3, 1, 0, 0, 0)), 1);
	/* a whole month needs the time of day too */
	CHECK_INT(mev__act_months(at(2021, 5, 15, 12, 0, 0), at(2022, 5, 15, 11, 59, 59)), 11);
	CHECK_INT(mev__act_months(at(2021, 5, 15, 12, 0, 0), at(2022, 5, 15, 12, 0, 0)), 12);
	CHECK_INT(mev__act_months(at(2019, 5, 1, 0, 0, 0), at(2022, 5, 15, 0, 0, 0)), 36);
	/* months are counted by arithmetic, not gmtime_r(): both agree, before
	 * 1970 too, over leap days and the ends of days */
	for (int64_t from = -2208988800; from < 4102444800; from += 7776001 + 3600 * 7) {
		for (int64_t d = 0; d < 3 * 365 * 86400; d += 86400 * 29 + 7201) {
			time_t f = (time_t)from, t = (time_t)(from + d);
			struct tm x, y;
			gmtime_r(&f, &x);
			gmtime_r(&t, &y);
			int64_t m = (int64_t)(y.tm_year - x.tm_year) * 12 + (y.tm_mon - x.tm_mon);
			if (y.tm_mday < x.tm_mday ||
			    (y.tm_mday == x.tm_mday && y.tm_hour * 3600 + y.tm_min * 60 + y.tm_sec <
							   x.tm_hour * 3600 + x.tm_min * 60 + x.tm_sec))
				m--;
			if (mev__act_months(from, from + d) != m)
				CHECK_INT(mev__act_months(from, from + d), m);
		}
	}
}

/* A repeated title's " #k" is the same section; other titles are not. */
static void test_titles(void)
{
	mev__activity a;
	mev_flow_person people[1] = { { "Ann", "ann@x.org", 0, 0 } };
	const char *strings[] = { "", "BOARD #3", "ISSUE #12 FIX#2" };
	uint32_t set_off[] = { 0, 0, 2 }, set_ids[] = { 1, 2 };
	mev_flow_commit c = { 0 };
	mev_flow_release fr = { 0 };
	c.author_time = c.commit_time = 1000;
	c.sections = 1;
	fr.commits = &c;
	fr.n = 1;
	fr.people = people;
	fr.n_people = 1;
	fr.strings = strings;
	fr.n_strings = 3;
	fr.set_off = set_off;
	fr.set_ids = set_ids;
	fr.n_sets = 2;
	uint32_t by;
	CHECK_INT(mev__act_init(&a, MEV_EXPORT_FOLD_NAMES), 0);
	CHECK_INT(mev__act_add(&a, &fr), 0);
	CHECK(mev__act_section_of(&a, "BOARD") != UINT32_MAX);
	CHECK(mev__act_section_of(&a, "BOARD #2") == mev__act_section_of(&a, "BOARD"));
	CHECK(mev__act_section_of(&a, "ISSUE") == UINT32_MAX);
	CHECK(mev__act_section_of(&a, "ISSUE #12 FIX#2") != UINT32_MAX);
	CHECK(mev__act_section_of(&a, "BOARD #") == UINT32_MAX);
	CHECK_INT(mev__act_find(&a, "ann@x.org"), 0);
	CHECK_INT(mev__act_last(&by, &a, mev__act_section_of(&a, "BOARD"), 0), 1000);
	CHECK_INT(a.anywhere.v[0], 1000);
	mev__act_free(&a);
}

/* The fold's rules: a +tag and case; a full name of two words or more. */
static void test_fold(void)
{
	mev__fold f = { 0 };
	mev_strmap people = { 0 };
	const char *keys[] = { "mark@denx.org", "Mark+USB@Mail.org", "mark@mail.org", "+x@y.org",
			       "x@y.org", "tom@one.org", "tom@two.org", "kim@a.org", "kim@b.org" };
	int same = 0;
	f.mode = MEV_EXPORT_FOLD_NAMES;
	for (uint32_t i = 0; i < 9; i++) {
		CHECK_INT(mev__fold_add(&f, i, keys[i]), 0);
		CHECK_INT(mev__strmap_put(&people, keys[i], strlen(keys[i]), i), 0);
	}
	CHECK(mev__fold_root(&f, 1) == mev__fold_root(&f, 2));  /* +tag, case */
	CHECK(mev__fold_root(&f, 0) != mev__fold_root(&f, 2));  /* not yet: no name */
	CHECK(mev__fold_root(&f, 3) != mev__fold_root(&f, 4));  /* "+x" is no tag */
	CHECK_INT(mev__fold_name(&f, 0, "Mark  Vas"), 0);
	CHECK_INT(mev__fold_name(&f, 2, "mark vas"), 0);
	CHECK(mev__fold_root(&f, 0) == mev__fold_root(&f, 1));  /* one full name */
	CHECK_INT(mev__fold_name(&f, 5, "tom"), 0);
	CHECK_INT(mev__fold_name(&f, 6, " tom "), 0);
	CHECK(mev__fold_root(&f, 5) != mev__fold_root(&f, 6));  /* one word never folds */
	CHECK_INT(mev__fold_find(&f, &people, "mark+soc@mail.org"), 1); /* the first of that address */
	CHECK_INT(mev__fold_find(&f, &people, "nobody@mail.org"), -1);
	CHECK_INT(mev__fold_find_name(&f, "MARK VAS"), 0);
	CHECK_INT(mev__fold_find_name(&f, "tom"), -1);
	CHECK_INT(mev__fold_same_address(&f, "a+b@c.org", "A@C.org", &same), 0);
	CHECK_INT(same, 1);
	CHECK_INT(mev__fold_same_address(&f, "a@c.org", "a@d.org", &same), 0);
	CHECK_INT(same, 0);
	/* the ring of a person lists each of its ids once */
	{
		uint32_t m = 0, n = 0;
		do {
			n++;
			m = mev__fold_next(&f, m);
		} while (m != 0 && n < 20);
		CHECK_INT(n, 3);
	}
	mev__fold_free(&f);
	f = (mev__fold){ 0 };
	f.mode = MEV_EXPORT_FOLD_ADDRESSES;
	CHECK_INT(mev__fold_add(&f, 0, "kim@a.org"), 0);
	CHECK_INT(mev__fold_add(&f, 1, "kim@b.org"), 0);
	CHECK_INT(mev__fold_name(&f, 0, "Kim Lee"), 0);
	CHECK_INT(mev__fold_name(&f, 1, "Kim Lee"), 0);
	CHECK(mev__fold_root(&f, 0) != mev__fold_root(&f, 1));  /* names off */
	mev__fold_free(&f);
	f = (mev__fold){ 0 };
	f.mode = MEV_EXPORT_FOLD_NONE;
	CHECK_INT(mev__fold_add(&f, 0, "a+b@c.org"), 0);
	CHECK_INT(mev__fold_add(&f, 1, "a@c.org"), 0);
	CHECK(mev__fold_root(&f, 0) != mev__fold_root(&f, 1));  /* nothing folds */
	mev__fold_free(&f);
	mev__strmap_free(&people);
	CHECK_INT(mev_export_fold_parse("addresses"), MEV_EXPORT_FOLD_ADDRESSES);
	CHECK_INT(mev_export_fold_parse("people"), -1);
	CHECK(strcmp(mev_export_fold_name(MEV_EXPORT_FOLD_NAMES), "names") == 0);
}

static const char *write_file(const char *name, const char *text)
{
	static char path[4096];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_people_file(void)
{
	mev__export_handles *p = NULL;
	CHECK_INT(mev__export_handles_read(&p, write_file("ok", "# c\n\n  octo  Octo@Ex.org # x\n")), 0);
	CHECK(p != NULL);
	mev__export_handles_free(p);
	CHECK_INT(mev__export_handles_read(&p, write_file("bad", "a a@x\nb\n")), MEV_EINVAL);
	CHECK(strstr(mev_error_message(), "bad:2:") != NULL);
	CHECK(p == NULL);
	CHECK_INT(mev__export_handles_read(&p, write_file("at", "a@x b@x\n")), MEV_EINVAL);
	CHECK(strstr(mev_error_message(), "at:1:") != NULL);
	CHECK_INT(mev__export_handles_read(&p, write_file("more", "a b@x c\n")), MEV_EINVAL);
	CHECK_INT(mev__export_handles_read(&p, write_file("twice", "a b@x\nA c@x\n")), MEV_EINVAL);
	CHECK(strstr(mev_error_message(), "twice:2: 'a' is mapped twice") != NULL);
	CHECK_INT(mev__export_handles_read(&p, "/nonexistent/people"), MEV_EIO);
	mev_error_clear();
}

int main(void)
{
	dir = test_tmpdir("export_listed");
	RUN(test_months);
	RUN(test_titles);
	RUN(test_fold);
	RUN(test_people_file);
	test_tmpdir_remove(dir);
	return test_summary();
}
