/* maintevo store info: what a store holds and how much room it takes. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/store.h"

#include <getopt.h>
#include <string.h>
#include <time.h>

static const char usage[] =
	"usage: maintevo store info [--store DIR]\n"
	"\n"
	"Print what the store holds: whose history (repository, root commit, dialect,\n"
	"tag filters), the releases, the space used, and every table in it with its\n"
	"entries and their size stored and before compression.\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n"
	"  -h, --help         show this help\n";

static double ratio(uint64_t raw, uint64_t stored) { return stored ? (double)raw / stored : 0; }

/* Bytes as "812 B", "3.4 kB" or "12.5 MB". */
static const char *size_text(char *buf, size_t size, uint64_t bytes)
{
	if (bytes < 1000)
		snprintf(buf, size, "%llu B", (unsigned long long)bytes);
	else if (bytes < 1000000)
		snprintf(buf, size, "%.1f kB", bytes / 1e3);
	else
		snprintf(buf, size, "%.1f MB", bytes / 1e6);
	return buf;
}

static void print_identity(const mev_identity *id)
{
	char hex[41], date[32];
	time_t t = (time_t)id->created;
	struct tm tm;
	mev_oid_fmt(hex, &id->root);
	gmtime_r(&t, &tm);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
	printf("repository:   %s (root commit %.12s)\n", id->repo, hex);
	printf("dialect:      %s%s\n", id->dialect, id->top_level_only ? ", top-level MAINTAINERS only" : "");
	printf("tags:         %s%s%s%s\n", id->tags[0] ? id->tags : "the dialect's release tags",
	       id->rc ? " with -rc" : "", id->exclude[0] ? ", excluding " : "", id->exclude);
	printf("created:      %s by maintevo %s\n", date, id->version);
}

/* Every table the store holds, as LMDB lists them: entries, the pages they
 * take, their values stored and before compression. */
static void print_tables(const mev_store_stats *st)
{
	printf("%-14s %10s %10s %10s %10s %6s\n", "table", "entries", "pages", "stored", "raw", "ratio");
	for (size_t i = 0; i < st->n; i++) {
		const mev_store_table *t = &st->v[i];
		char pages[32], stored[32], raw[32], x[32];
		snprintf(x, sizeof x, "x%.1f", ratio(t->raw_bytes, t->stored_bytes));
		printf("%-14s %10llu %10s %10s %10s %6s\n", t->name, (unsigned long long)t->entries,
		       size_text(pages, sizeof pages, t->page_bytes),
		       size_text(stored, sizeof stored, t->stored_bytes),
		       size_text(raw, sizeof raw, t->raw_bytes), x);
	}
}

int cmd_store(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store";
	mev_store *s = NULL;
	mev_identity id;
	mev_store_stats st = { 0 };
	mev_release *list = NULL;
	size_t n = 0, snapshots = 0;
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
	if (mev_store_open(&s, dir, MEV_STORE_READ) || mev_store_stats_get(&st, s) ||
	    mev_release_list(&list, &n, s)) {
		mev_store_stats_free(&st);
		mev_store_free(s);
		return cli_fail();
	}
	for (size_t i = 0; i < n; i++)
		snapshots += list[i].has_files && list[i].snapshot;
	printf("store:        %s (schema %d)\n", dir, MEV_STORE_SCHEMA);
	if (mev_release_identity_get(&id, s) == 0)
		print_identity(&id);
	printf("releases:     %zu", n);
	if (n)
		printf(" (%s .. %s), %zu stored whole, the others as deltas", list[0].tag, list[n - 1].tag,
		       snapshots);
	printf("\n");
	printf("file size:    %.1f MB (%.1f MB in use, map %.0f MB)\n", st.file_bytes / 1e6,
	       st.used_bytes / 1e6, st.map_bytes / 1e6);
	if (n)
		printf("per release:  %.1f kB in use\n", st.used_bytes / 1e3 / (double)n);
	print_tables(&st);
	mev_store_stats_free(&st);
	mev_release_list_free(list, n);
	mev_store_free(s);
	return EXIT_OK;
}
