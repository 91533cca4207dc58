/* maintevo cluster: cluster every stored release not clustered yet. */
#include "cli.h"
#include "maintevo/store.h"

typedef struct {
	const char *store;
	cli_cluster_opts cluster;
	int jobs;
	double wait;
} cluster_args;

static const cli_option options[] = {
	CLI_OPT_STORE(cluster_args, store),
	CLI_OPT_CLUSTER(cluster_args, cluster),
	CLI_OPT_INT(cluster_args, jobs, 'j', "jobs", "N", 0, 64,
		    "worker processes (default: one per core; temporal and\n"
		    "--smooth use one)"),
	CLI_OPT_REAL(cluster_args, wait, 0, "wait", "SECONDS", 0, 86400,
		     "when another command writes to the store (a walk,\n"
		     "import-pasta, cluster, track or flow), wait up to\n"
		     "SECONDS for it to finish (default 0: fail at once)"),
	CLI_OPT_QUIET,
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_cluster_spec = {
	.name = "cluster",
	.usage = CLI_USAGE("[--store DIR] [--method M] [options]"),
	.about =
		"Find the subsystems of every stored release: clusters of MAINTAINERS sections\n"
		"in its overlap graph (THE REST and self loops left out, edges weighted by the\n"
		"lines two sections share).  The default method, temporal, clusters each\n"
		"release from the previous one's clusters: it keeps them, moving single\n"
		"sections only where that clearly gains and Leiden's partition of the\n"
		"release does not keep them where they are, as long as their modularity is\n"
		"at least 0.97 of what Leiden finds on the release alone, so clusters change\n"
		"when the graph does (docs/tracking.md).  --method walktrap is the study's\n"
		"(random walks of 4 steps, cut at maximum modularity).  Sections that share\n"
		"no code with any other are clusters of their own.  Each cluster is named\n"
		"after its largest section by lines (its representative), passing over an\n"
		"umbrella that only touches the others (DPDK's 'Documentation (with\n"
		"overlaps)': 'maintevo clusters --help').\n"
		"\n"
		"Only releases without an up-to-date clustering for these parameters are\n"
		"clustered, so a nightly run after 'maintevo walk' clusters the new release\n"
		"only (temporal and --smooth: also every release after one clustered again).\n"
		"Results are deterministic: temporal, louvain and leiden seed igraph's random\n"
		"numbers with --seed before each release.  Read them back with 'maintevo\n"
		"clusters'; 'maintevo track' follows them across releases.\n"
		"\n"
		"One command writes to a store at a time: cluster holds the store's writer's\n"
		"lock (walk.lock) from start to end, as walk, import-pasta and track do, so\n"
		"the releases it clusters cannot change meanwhile.  When another one holds\n"
		"it, cluster fails at once (exit 1, \"another maintevo command ... is writing\n"
		"to store\") or, with --wait, waits for it.  Readers (clusters, events,\n"
		"export, ...) run at any time.  A run killed at any moment keeps every\n"
		"release it clustered; the next run clusters the rest.",
	.options = options,
	.operands = 0,
};

int cmd_cluster(int argc, char **argv)
{
	cluster_args a = { .store = "maintevo.store" };
	mev_cluster_options opt = { 0 };
	mev_cluster_result res;
	mev_store *s = NULL;
	int argi, rc;

	cli_cluster_init(&a.cluster);
	if ((rc = cli_parse(&argi, &cmd_cluster_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if ((rc = cli_cluster_finish(&a.cluster, "cluster")))
		return rc;
	opt.jobs = a.jobs;
	opt.wait = a.wait;
	cli_progress_init(&opt.progress);
	cli_sigint_install(NULL);
	if (mev_store_open(&s, a.store, MEV_STORE_WRITE)) {
		rc = cli_fail();
		goto done;
	}
	rc = mev_cluster_store(&res, s, &a.cluster.p, &opt);
	cli_progress_end();
	if (rc) {
		rc = cli_fail();
		goto done;
	}
	cli_note("%zu release%s clustered, %zu already clustered, with %s in %.2f s", res.clustered,
		 res.clustered == 1 ? "" : "s", res.kept, a.cluster.key, res.seconds);
	if (a.cluster.p.method == MEV_CLUSTER_TEMPORAL && res.clustered)
		cli_note("clustered now: %zu kept the previous clusters, %zu moved sections, %zu "
			 "re-optimised, %zu independent", res.steps[MEV_CLUSTER_STEP_KEPT],
			 res.steps[MEV_CLUSTER_STEP_MOVED], res.steps[MEV_CLUSTER_STEP_REOPTIMISED],
			 res.steps[MEV_CLUSTER_STEP_INDEPENDENT]);
done:
	cli_sigint_restore();
	mev_store_free(s);
	return rc;
}
