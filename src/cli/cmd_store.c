/* maintevo store info: what a store holds and how much room it takes. */
#include "cli.h"
#include "maintevo/release.h"
#include "maintevo/store.h"

#include <string.h>
#include <time.h>

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
	cli_say(stdout, "repository:   %s (root commit %.12s)\n", id->repo, hex);
	cli_say(stdout, "dialect:      %s%s\n", id->dialect,
		id->top_level_only ? ", top-level MAINTAINERS only" : "");
	cli_say(stdout, "tags:         %s%s%s%s\n", id->tags[0] ? id->tags : "the dialect's release tags",
		id->rc ? " with -rc" : "", id->exclude[0] ? ", excluding " : "", id->exclude);
	cli_say(stdout, "created:      %s by maintevo %s\n", date, id->version);
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

typedef struct {
	const char *store;
} store_args;

static const cli_option options[] = {
	CLI_OPT_STORE(store_args, store),
	CLI_OPT_HELP,
	CLI_OPT_END
};

/* The one subcommand, 'info', is part of the synopsis; cmd_store() takes
 * it off before parsing the options. */
const cli_command cmd_store_spec = {
	.name = "store",
	.usage = CLI_USAGE("info [--store DIR]"),
	.about =
		"Print what the store holds: whose history (repository, root commit, dialect,\n"
		"tag filters), the releases, the space used, and every table in it with its\n"
		"entries and their size stored and before compression.",
	.options = options,
	.operands = 0,
};

int cmd_store(int argc, char **argv)
{
	store_args a = { .store = "maintevo.store" };
	mev_store *s = NULL;
	mev_identity id;
	mev_store_stats st = { 0 };
	mev_release *list = NULL;
	size_t n = 0, snapshots = 0;
	int argi, rc;

	if (argc < 2 || strcmp(argv[1], "info") != 0) {
		if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
			cli_help_print(stdout, &cmd_store_spec);
			return EXIT_OK;
		}
		return cli_usage_error("store", "say what to do with the store: 'maintevo store info'");
	}
	/* "info" stands where cli_parse() expects the command's name. */
	if ((rc = cli_parse(&argi, &cmd_store_spec, &a, argc - 1, argv + 1)) != CLI_RUN)
		return rc;
	if (mev_store_open(&s, a.store, MEV_STORE_READ) || mev_store_stats_get(&st, s) ||
	    mev_release_list(&list, &n, s)) {
		mev_store_stats_free(&st);
		mev_store_free(s);
		return cli_fail();
	}
	for (size_t i = 0; i < n; i++)
		snapshots += list[i].has_files && list[i].snapshot;
	cli_say(stdout, "store:        %s (schema %d)\n", a.store, MEV_STORE_SCHEMA);
	if (mev_release_identity_get(&id, s) == 0)
		print_identity(&id);
	printf("releases:     %zu", n);
	if (n)
		cli_say(stdout, " (%s .. %s), %zu stored whole, the others as deltas", list[0].tag,
			list[n - 1].tag, snapshots);
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
