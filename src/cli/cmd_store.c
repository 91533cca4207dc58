/* maintevo store info, check and repair: what a store holds, whether it is whole, dropping what is not. */
#include "cli.h"
#include "maintevo/track.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "maintevo/suggest.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
	cli_say(stdout, "dialect:      %s%s%s%s\n", id->dialect,
		id->top_level_only ? ", top-level MAINTAINERS only" : "",
		id->files_as[0] ? ", MAINTAINERS files found as the script of " : "", id->files_as);
	if (id->line[0])
		cli_say(stdout, "tags:         maintenance line %s of the dialect's releases%s%s%s\n", id->line,
			id->rc ? " with -rc" : "", id->exclude[0] ? ", excluding " : "", id->exclude);
	else
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

/* The subcommand ('info', 'check', 'repair') is part of the synopsis;
 * cmd_store() takes it off before parsing the options. */
const cli_command cmd_store_spec = {
	.name = "store",
	.usage = CLI_USAGE("info [--store DIR]", "check [--store DIR]", "repair [--store DIR]"),
	.about =
		"info: print what the store holds: whose history (repository, root commit,\n"
		"dialect, tag filters), the releases, the space used, and every table in it with\n"
		"its entries and their size stored and before compression.\n"
		"\n"
		"check: read every record of the store and check it (checksums, formats, every\n"
		"file table rebuilt from its chain, every blob size), and the data file's pages;\n"
		"print each damaged record with its table and key (a release's tag).  Exit 1\n"
		"when any is damaged.\n"
		"\n"
		"repair: drop what check finds damaged (with a release, all its records and the\n"
		"releases whose file tables need it), so that the next walk computes those\n"
		"releases again, and 'maintevo cluster' and 'maintevo track' their results.",
	.options = options,
	.operands = 0,
};

/* The tracking results held, by key (method and thresholds). */
static void print_results(mev_store *s)
{
	mev_lineage_list r = { 0 };
	if (mev_track_results(&r, s)) {
		mev_error_clear();
		return;
	}
	for (size_t i = 0; i < r.n; i++)
		cli_say(stdout, "tracked:      %s (%u lineages)\n", r.v[i].name, r.v[i].releases);
	mev_lineage_list_free(&r);
}

static int info(const store_args *a)
{
	mev_store *s = NULL;
	mev_identity id;
	mev_store_stats st = { 0 };
	mev_release *list = NULL;
	size_t n = 0, snapshots = 0;

	if (mev_store_open(&s, a->store, MEV_STORE_READ) || mev_store_stats_get(&st, s) ||
	    mev_release_list(&list, &n, s)) {
		mev_store_stats_free(&st);
		mev_store_free(s);
		return cli_fail();
	}
	for (size_t i = 0; i < n; i++)
		snapshots += list[i].has_files && list[i].snapshot;
	cli_say(stdout, "store:        %s (schema %d)\n", a->store, MEV_STORE_SCHEMA);
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
	print_results(s);
	print_tables(&st);
	mev_store_stats_free(&st);
	mev_release_list_free(list, n);
	mev_store_free(s);
	return EXIT_OK;
}

/* A damaged value of a table the release module does not own. */
typedef struct {
	char table[32];
	void *key;
	size_t klen;
	char *what;
} other_damage;

typedef struct {
	other_damage *v;
	size_t n;
} other_list;

static int other_cb(void *ctx, const char *table, const void *key, size_t klen, const char *why)
{
	other_list *l = ctx;
	other_damage *v = realloc(l->v, (l->n + 1) * sizeof *v);
	if (!v)
		return mev_error_oom();
	l->v = v;
	snprintf(v[l->n].table, sizeof v[l->n].table, "%s", table);
	v[l->n].key = malloc(klen + 1);
	v[l->n].what = strdup(why);
	if (!v[l->n].key || !v[l->n].what) {
		free(v[l->n].key);
		free(v[l->n].what);
		return mev_error_oom();
	}
	memcpy(v[l->n].key, key, klen);
	v[l->n++].klen = klen;
	return 0;
}

static void other_free(other_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].what);
	}
	free(l->v);
}

static int drop_others(mev_store *s, void *ctx)
{
	const other_list *l = ctx;
	int rc = 0;
	for (size_t i = 0; i < l->n && !rc; i++)
		rc = mev_store_delete(s, l->v[i].table, l->v[i].key, l->v[i].klen);
	return rc;
}

/* For a check, "damaged: TABLE KEY: what" for each damaged record; for a
 * repair, "dropped: release TAG (TABLE: what)" or "dropped: TABLE KEY (what)". */
static void print_damage(int repair, const mev_release_check_result *r, const other_list *o)
{
	char key[256];
	for (size_t i = 0; i < r->n; i++) {
		const mev_release_damage *d = &r->v[i];
		if (!repair)
			printf("damaged: %s %s: %s\n", d->table, d->key, d->what);
		else if (d->tag)
			printf("dropped: release %s (%s: %s)\n", d->tag, d->table, d->what);
		else
			printf("dropped: %s %s (%s)\n", d->table, d->key, d->what);
	}
	for (size_t i = 0; i < o->n; i++) {
		mev_store_key_text(key, sizeof key, o->v[i].key, o->v[i].klen);
		printf(repair ? "dropped: %s %s (%s)\n" : "damaged: %s %s: %s\n", o->v[i].table, key,
		       o->v[i].what);
	}
}

/* The releases a check or repair names, "v1.2, v1.3" (at most a few). */
static void release_names(char *out, size_t size, const mev_release_check_result *r, size_t *count)
{
	size_t used = 0;
	*count = 0;
	out[0] = '\0';
	for (size_t i = 0; i < r->n; i++) {
		int seen = 0;
		if (!r->v[i].tag)
			continue;
		for (size_t k = 0; k < i && !seen; k++)
			seen = r->v[k].tag && strcmp(r->v[k].tag, r->v[i].tag) == 0;
		if (seen)
			continue;
		if (++*count <= 6 && used < size)
			used += (size_t)snprintf(out + used, size - used, "%s%s", *count > 1 ? ", " : "",
						 r->v[i].tag);
		else if (*count == 7 && used < size)
			used += (size_t)snprintf(out + used, size - used, ", ...");
	}
}

/* check (repair = 0) or repair: every record checked, the damaged ones
 * listed (and dropped). */
static int check(const store_args *a, int repair)
{
	mev_store *s = NULL;
	mev_release_check_result r = { 0 };
	other_list o = { 0 };
	uint64_t values = 0;
	char names[512];
	size_t nrel = 0;
	int lock = -1, rc;

	if ((rc = mev_store_open(&s, a->store, repair ? MEV_STORE_WRITE : MEV_STORE_READ)) ||
	    (repair && (rc = mev_store_lock(&lock, a->store))) ||
	    (rc = mev_store_verify(&values, s, mev_release_tables, other_cb, &o)) ||
	    (rc = (repair ? mev_release_repair : mev_release_check)(&r, s, MEV_RELEASE_CHECK_FULL)) ||
	    (repair && o.n && (rc = mev_store_write(s, drop_others, &o)))) {
		rc = cli_fail();
		goto done;
	}
	release_names(names, sizeof names, &r, &nrel);
	print_damage(repair, &r, &o);
	if (r.blobs_unchecked)
		printf("note: %llu blob sizes were stored before they had a checksum; a walk measures "
		       "those blobs again when it needs them\n", (unsigned long long)r.blobs_unchecked);
	printf("store '%s': %zu releases, %llu records checked, %zu damaged\n", a->store, r.releases,
	       (unsigned long long)(r.records + values), r.n + o.n);
	if (repair && (r.n || o.n)) {
		printf("dropped %zu release%s", r.dropped, r.dropped == 1 ? "" : "s");
		if (r.dropped)
			printf(" (%s)", r.identity ? "all: the store's identity is damaged" : names);
		printf(" and %zu other value%s", o.n, o.n == 1 ? "" : "s");
		if (r.dropped)
			printf("; the next 'maintevo walk --store %s' computes the releases again", a->store);
		if (o.n)
			printf("; 'maintevo cluster' and 'maintevo track' compute what they stored again");
		printf("\n");
	}
	if (!repair && (r.n || o.n)) {
		fflush(stdout);
		fprintf(stderr, "maintevo: error: store '%s' has %zu damaged record%s%s%s%s\n", a->store,
			r.n + o.n, r.n + o.n == 1 ? "" : "s", nrel ? " (releases " : "", nrel ? names : "",
			nrel ? ")" : "");
		fprintf(stderr, "hint: 'maintevo store repair --store %s' drops them; then %s%s%s\n",
			a->store, nrel ? "the next walk computes the releases again" : "",
			nrel && o.n ? ", " : "",
			o.n ? "'maintevo cluster' and 'maintevo track' compute their results again" : "");
		rc = EXIT_FAIL;
	}
done:
	mev_release_check_free(&r);
	other_free(&o);
	if (lock >= 0)
		close(lock);
	mev_store_free(s);
	return rc;
}

int cmd_store(int argc, char **argv)
{
	store_args a = { .store = "maintevo.store" };
	const char *sub = argc >= 2 ? argv[1] : "";
	int argi, rc;

	if (strcmp(sub, "info") && strcmp(sub, "check") && strcmp(sub, "repair")) {
		if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0) {
			cli_help_print(stdout, &cmd_store_spec);
			return EXIT_OK;
		}
		static const char *const subs[] = { "info", "check", "repair" };
		const char *near = *sub ? mev_suggest(sub, subs, 3) : NULL;
		if (near)
			return cli_usage_error("store", "unknown subcommand '%s'; did you mean 'maintevo "
					       "store %s'?", sub, near);
		return cli_usage_error("store", "say what to do with the store: 'maintevo store info', "
				       "'check' or 'repair'");
	}
	/* the subcommand stands where cli_parse() expects the command's name */
	if ((rc = cli_parse(&argi, &cmd_store_spec, &a, argc - 1, argv + 1)) != CLI_RUN)
		return rc;
	if (strcmp(sub, "info") == 0)
		return info(&a);
	return check(&a, strcmp(sub, "repair") == 0);
}
