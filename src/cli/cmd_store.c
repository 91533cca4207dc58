/* maintevo store info: what a store holds and how much room it takes. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/store.h"

#include <getopt.h>
#include <string.h>
#include <time.h>

static const char usage[] =
	"usage: maintevo store info [--store DIR]\n"
	"\n"
	"Print what the store holds: whose history (repository, root commit, dialect,\n"
	"tag filters), the releases, and the space used with compression ratios.\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n"
	"  -h, --help         show this help\n";

static double ratio(uint64_t raw, uint64_t stored) { return stored ? (double)raw / stored : 0; }

int cmd_store(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store";
	mev_store *s = NULL;
	mev_store_identity id;
	mev_store_stats st;
	mev_release *list = NULL;
	size_t n = 0;
	int c;

	if (argc < 2 || strcmp(argv[1], "info") != 0) {
		if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
			fputs(usage, stdout);
			return EXIT_OK;
		}
		return cli_usage_error("store", "say what to do with the store: 'maintevo store info'");
	}
	argc--;
	argv++;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("store", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("store", "unexpected argument '%s'", argv[optind]);
	if (mev_store_open(&s, dir, MEV_STORE_READ) || mev_store_stats_get(s, &st) ||
	    mev_store_releases(s, &list, &n)) {
		mev_store_close(s);
		return cli_fail();
	}
	printf("store:        %s (schema %d)\n", dir, MEV_STORE_SCHEMA);
	if (mev_store_get_identity(s, &id) == 0) {
		char hex[41], date[32];
		time_t t = (time_t)id.created;
		struct tm tm;
		mev_oid_fmt(hex, &id.root);
		gmtime_r(&t, &tm);
		strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
		printf("repository:   %s (root commit %.12s)\n", id.repo, hex);
		printf("dialect:      %s%s\n", id.dialect, id.top_level_only ? ", top-level MAINTAINERS only" : "");
		printf("tags:         %s%s%s%s\n", id.tags[0] ? id.tags : "the dialect's release tags",
		       id.rc ? " with -rc" : "", id.exclude[0] ? ", excluding " : "", id.exclude);
		printf("created:      %s by maintevo %s\n", date, id.version);
	}
	printf("releases:     %zu", n);
	if (n)
		printf(" (%s .. %s), %llu stored whole, the others as deltas", list[0].tag,
		       list[n - 1].tag, (unsigned long long)st.snapshots);
	printf("\n");
	printf("file size:    %.1f MB (%.1f MB in use, map %.0f MB)\n", st.file_bytes / 1e6,
	       st.used_bytes / 1e6, st.map_bytes / 1e6);
	printf("releases:     %.1f MB stored, %.1f MB raw (x%.1f)\n", st.release_bytes / 1e6,
	       st.release_raw / 1e6, ratio(st.release_raw, st.release_bytes));
	printf("file tables:  %.1f MB stored, %.1f MB raw (x%.1f)\n", st.table_bytes / 1e6,
	       st.table_raw / 1e6, ratio(st.table_raw, st.table_bytes));
	printf("blob sizes:   %llu blobs cached\n", (unsigned long long)st.blobs);
	printf("other:        %.1f MB stored, %.1f MB raw\n", st.other_bytes / 1e6, st.other_raw / 1e6);
	if (n)
		printf("per release:  %.1f kB in use\n", st.used_bytes / 1e3 / (double)n);
	mev_release_list_free(list, n);
	mev_store_close(s);
	return EXIT_OK;
}
