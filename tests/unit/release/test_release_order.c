/* Tests of the order of releases by name: tags in version order, snapshot names, the store's order. */
#include "test.h"
#include "maintevo/calendar.h"
#include "maintevo/tags.h"

#include <string.h>

static void test_order(void)
{
	/* each list is in strictly increasing version order */
	static const char *const lists[][8] = {
		{ "v2.6.37", "v2.6.39", "v3.0", "v3.1", "v3.9", "v3.10", "v4.0", NULL },
		{ "v6.1-rc1", "v6.1-rc2", "v6.1-rc10", "v6.1", "v6.1.1", "v6.1.12", "v6.2-rc1", NULL },
		{ "v2013.10", "v2014.01", "v2014.10-rc1", "v2014.10", "v2024.01", "v2026.07", NULL },
		{ "RELEASE-4.9.0", "RELEASE-4.10.0-rc1", "RELEASE-4.10.0", "RELEASE-4.10.1", NULL },
		{ "v1.0", "v1.3-rc1", "v1.3", "v1.10", NULL },
		{ "4.8", "4.8.1", "4.9", "4.10", "4.22", "4.22.01", "24.02", NULL },
		{ "4.22.01", "24.02", "24.02.01", "24.05", "25.12", "26.03", NULL },
		{ "v2.0.0-rc3", "v2.0.0", "v2.2.0", "v16.04-rc1", "v16.04", "v20.11", "v20.11.10", NULL },
		{ "v20.11.9", "v20.11.10-rc1", "v20.11.10", "v21.02-rc1", "v21.02", "v21.11.1", NULL },
	};
	for (size_t l = 0; l < sizeof lists / sizeof *lists; l++)
		for (size_t i = 0; lists[l][i]; i++)
			for (size_t j = 0; lists[l][j]; j++) {
				int c = mev_tag_cmp(lists[l][i], lists[l][j]);
				int want = i < j ? -1 : i > j;
				if ((c < 0 ? -1 : c > 0) != want)
					fprintf(stderr, "order: %s vs %s gave %d\n", lists[l][i], lists[l][j], c);
				CHECK((c < 0 ? -1 : c > 0) == want);
			}
	/* leading zeros and ties are total */
	CHECK(mev_tag_cmp("v01.2", "v1.2") != 0);
	CHECK(mev_tag_cmp("v1.2", "v1.2") == 0);
}

static void test_snapshot_names(void)
{
	int64_t day, end;
	size_t blen;
	CHECK(mev_day_parse(&day, "2024-01-31") == 0);
	CHECK(mev_snapshot_parse("master@2024-01-31", &end, &blen) && blen == 6 && end == day + 86399);
	CHECK(mev_snapshot_parse("origin/next@2024-12-31", NULL, &blen) && blen == 11);
	CHECK(mev_snapshot_parse("a@b@2024-12-31", NULL, &blen) && blen == 3);
	CHECK(!mev_snapshot_parse("@2024-01-31", NULL, NULL));
	CHECK(!mev_snapshot_parse("master@2024-02-30", NULL, NULL));
	CHECK(!mev_snapshot_parse("master@2024-01-31x", NULL, NULL));
	CHECK(!mev_snapshot_parse("v2024.01", NULL, NULL));
}

/* Order names given with times; want[] the names in the order expected. */
static void order_is(const char *const *names, const int64_t *times, size_t n,
		     const char *const *want)
{
	mev_release_key k[16];
	CHECK(n <= 16);
	for (size_t i = 0; i < n; i++)
		k[i] = (mev_release_key){ names[i], times[i], i };
	CHECK(mev_release_order(k, n) == 0);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(k[i].name, want[i]))
			fprintf(stderr, "order[%zu]: %s, want %s\n", i, k[i].name, want[i]);
		CHECK(strcmp(k[i].name, want[i]) == 0);
		CHECK(k[i].time == times[k[i].index]);  /* times and indexes travel with the names */
		CHECK(strcmp(names[k[i].index], k[i].name) == 0);
	}
}

static void test_release_order(void)
{
	int64_t jan31, feb29, mar31;
	mev_day_parse(&jan31, "2024-01-31");
	mev_day_parse(&feb29, "2024-02-29");
	mev_day_parse(&mar31, "2024-03-31");
	{
		/* tags only: version order, whatever the dates */
		const char *names[] = { "v1.10", "v1.2", "v1.3-rc1" };
		const int64_t times[] = { 10, 30, 20 };
		const char *want[] = { "v1.2", "v1.3-rc1", "v1.10" };
		order_is(names, times, 3, want);
	}
	{
		/* snapshots only: by date, then name */
		const char *names[] = { "m@2024-03-31", "m@2024-01-31", "a@2024-01-31" };
		const int64_t times[] = { 1, 2, 3 };
		const char *want[] = { "a@2024-01-31", "m@2024-01-31", "m@2024-03-31" };
		order_is(names, times, 3, want);
	}
	{
		/* mixed: a tag at its commit time, a snapshot at its day's end;
		 * v1.1's commit is older than v1.0's: it stands at v1.0's time,
		 * so that the tags keep version order; a tag and a snapshot of
		 * the same time: the tag first */
		const char *names[] = { "m@2024-03-31", "v1.1", "m@2024-01-31", "v1.0", "m@2024-02-29",
					"v1.2" };
		const int64_t times[] = { mar31, jan31 + 100, jan31, feb29 + 7200, feb29, mar31 + 86400 };
		const char *want[] = { "m@2024-01-31", "v1.0", "v1.1", "m@2024-02-29", "m@2024-03-31",
				       "v1.2" };
		order_is(names, times, 6, want);
	}
	{
		const char *names[] = { "m@2024-03-31", "v1.2" };
		const int64_t times[] = { mar31, mar31 + 86399 };
		const char *want[] = { "v1.2", "m@2024-03-31" };
		order_is(names, times, 2, want);
	}
}

int main(void)
{
	RUN(test_order);
	RUN(test_snapshot_names);
	RUN(test_release_order);
	return test_summary();
}
