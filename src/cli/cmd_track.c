/* maintevo track: link the clusters of consecutive releases; events and lineages. */
#include "cli.h"
#include "maintevo/store.h"
#include "maintevo/track.h"

#include <stdlib.h>

typedef struct {
	const char *store;
	cli_cluster_opts cluster;
	mev_track_params tp;
	int jobs;
	double wait;
} track_args;

static const cli_option options[] = {
	CLI_OPT_STORE(track_args, store),
	CLI_OPT_CLUSTER(track_args, cluster),
	CLI_OPT_TRACK(track_args, tp),
	CLI_OPT_INT(track_args, jobs, 'j', "jobs", "N", 0, 64,
		    "clustering processes (default: one per core)"),
	CLI_OPT_REAL(track_args, wait, 0, "wait", "SECONDS", 0, 86400,
		     "when another command writes to the store (a walk,\n"
		     "import-pasta, cluster, track or flow), wait up to\n"
		     "SECONDS for it to finish (default 0: fail at once)"),
	CLI_OPT_QUIET,
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_track_spec = {
	.name = "track",
	.usage = CLI_USAGE("[--store DIR] [--method M] [thresholds] [options]"),
	.about =
		"Follow the clusters ('maintevo cluster'; releases not clustered yet are\n"
		"clustered first) from each release to the next.  Two clusters are compared\n"
		"on code: the lines of the files present in both releases (by path) that both\n"
		"cover, which survives section renames; stores without file tables (made by\n"
		"import-pasta) compare section titles weighted by their lines.  Each link is\n"
		"an event: continuation, growth, contraction, split (one row per successor)\n"
		"or merge (one row per predecessor); clusters without a link are a birth or a\n"
		"death.  Lineages keep one id over the whole history: a split leaves it on\n"
		"the largest successor, the others start new lineages with it as parent; a\n"
		"merge continues the largest predecessor.  Sections added, removed and\n"
		"renamed are found too.  Only what changed since the last run is computed.\n"
		"Read the results with 'maintevo events', 'maintevo lineages' and 'maintevo\n"
		"section-changes'; docs/tracking.md explains the thresholds.  A store with\n"
		"one release has no pairs: its clusters start the lineages, and there are no\n"
		"events or section changes (exit 0); a store without releases has nothing to\n"
		"track (exit 0, empty tables).\n"
		"\n"
		"One command writes to a store at a time: track holds the store's writer's\n"
		"lock from start to end (the releases it clusters are those it tracks), as\n"
		"walk, import-pasta and cluster do.  When another one holds it, track fails\n"
		"at once (exit 1, \"another maintevo command ... is writing to store\") or,\n"
		"with --wait, waits for it.  Readers run at any time.  A run killed at any\n"
		"moment keeps whole release pairs; the next run goes on from them.",
	.options = options,
	.operands = 0,
};

/* The summary: what was clustered and tracked, the events and section changes. */
static void print_summary(const mev_track_result *res, const track_args *a)
{
	if (res->cluster.clustered)
		cli_note("%zu release%s clustered with %s in %.2f s", res->cluster.clustered,
			 res->cluster.clustered == 1 ? "" : "s", a->cluster.key, res->cluster_seconds);
	cli_note("%zu release%s tracked (%zu computed: %zu pair%s on code, %zu on titles; %zu kept) "
		 "in %.2f s", res->releases, res->releases == 1 ? "" : "s", res->tracked, res->by_code,
		 res->by_code == 1 ? "" : "s", res->by_title, res->kept, res->seconds);
	cli_note("events: %zu birth, %zu death, %zu continuation, %zu growth, %zu contraction, "
		 "%zu split, %zu merge; %zu lineages", res->events[MEV_EVENT_BIRTH],
		 res->events[MEV_EVENT_DEATH], res->events[MEV_EVENT_CONTINUATION],
		 res->events[MEV_EVENT_GROWTH], res->events[MEV_EVENT_CONTRACTION],
		 res->events[MEV_EVENT_SPLIT], res->events[MEV_EVENT_MERGE], res->lineages);
	if (res->events[MEV_EVENT_BRIDGE])
		cli_note("gaps: %zu lineage%s vanished for at most %d release%s and came back (bridge "
			 "events, --gap)", res->events[MEV_EVENT_BRIDGE],
			 res->events[MEV_EVENT_BRIDGE] == 1 ? "" : "s", a->tp.gap, a->tp.gap == 1 ? "" : "s");
	cli_note("causes: %zu split and merge event%s with no MAINTAINERS or code change (the "
		 "clustering alone)", res->no_change, res->no_change == 1 ? "" : "s");
	if (res->supported)
		cli_note("support: %zu pair%s measured with %d perturbed runs in %.2f s", res->supported,
			 res->supported == 1 ? "" : "s", a->tp.support_runs, res->support_seconds);
	cli_note("sections: %zu added, %zu removed, %zu renamed", res->section_changes[MEV_SECTION_ADDED],
		 res->section_changes[MEV_SECTION_REMOVED], res->section_changes[MEV_SECTION_RENAMED]);
}

int cmd_track(int argc, char **argv)
{
	track_args a = { .store = "maintevo.store" };
	mev_track_options opt = { 0 };
	mev_track_result res;
	mev_store *s = NULL;
	int argi, rc;

	cli_cluster_init(&a.cluster);
	mev_track_params_init(&a.tp);
	if ((rc = cli_parse(&argi, &cmd_track_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if ((rc = cli_cluster_finish(&a.cluster, "track")))
		return rc;
	opt.jobs = a.jobs;
	opt.wait = a.wait;
	cli_progress_init(&opt.progress);
	cli_sigint_install(NULL);
	if (mev_store_open(&s, a.store, MEV_STORE_WRITE)) {
		rc = cli_fail();
		goto done;
	}
	rc = mev_track_store(&res, s, &a.cluster.p, &a.tp, &opt);
	cli_progress_end();
	if (rc) {
		rc = cli_fail();
		goto done;
	}
	print_summary(&res, &a);
	rc = EXIT_OK;
done:
	cli_sigint_restore();
	mev_store_free(s);
	return rc;
}
