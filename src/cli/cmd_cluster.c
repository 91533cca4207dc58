/* maintevo cluster: cluster every stored release not clustered yet. */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/error.h"
#include "maintevo/store.h"

#include <signal.h>
#include <unistd.h>

static const char usage[] =
	"usage: maintevo cluster [--store DIR] [--method M] [options]\n"
	"\n"
	"Find the subsystems of every stored release: clusters of MAINTAINERS sections\n"
	"in its overlap graph (THE REST and self loops left out, edges weighted by the\n"
	"lines two sections share).  The default is the study's: walktrap with random\n"
	"walks of 4 steps, cut at maximum modularity.  Sections that share no code\n"
	"with any other are clusters of their own.  Each cluster is named after its\n"
	"largest section by lines (its representative).\n"
	"\n"
	"Only releases without an up-to-date clustering for these parameters are\n"
	"clustered, so a nightly run after 'maintevo walk' clusters the new release\n"
	"only.  Results are deterministic: louvain and leiden seed igraph's random\n"
	"numbers with --seed before each release.  Read them back with 'maintevo\n"
	"clusters'; 'maintevo track' follows them across releases.\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n" CLI_CLUSTER_HELP
	"  -j, --jobs N       worker processes (default: one per core; --smooth uses one)\n"
	"  -q, --quiet        no progress line and no summary\n"
	"  -h, --help         show this help\n";

static volatile int stop;

static void on_sigint(int sig)
{
	(void)sig;
	stop = 1;
}

static void progress(void *ctx, size_t i, size_t n, const char *tag)
{
	(void)ctx;
	if (!cli_quiet && isatty(STDERR_FILENO)) {
		fprintf(stderr, "\r\033[K[%zu/%zu] %s", i, n, tag);
		fflush(stderr);
	}
}

int cmd_cluster(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		CLI_CLUSTER_LONGOPTS,
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store";
	cli_cluster_opts co;
	mev_cluster_options opt = { 0 };
	mev_cluster_result res;
	mev_store *s = NULL;
	long jobs = 0;
	int c, rc;

	cli_cluster_init(&co);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hqm:j:", longopts, NULL)) != -1) {
		if ((rc = cli_cluster_option(&co, "cluster", c, optarg))) {
			if (rc == EXIT_USAGE)
				return rc;
			continue;
		}
		switch (c) {
		case 's': dir = optarg; break;
		case 'j':
			if (cli_parse_int("cluster", "--jobs", optarg, 0, 64, &jobs))
				return EXIT_USAGE;
			break;
		case 'q': cli_quiet = 1; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("cluster", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("cluster", "unexpected argument '%s'", argv[optind]);
	if ((rc = cli_cluster_finish(&co, "cluster")))
		return rc;
	opt.jobs = (int)jobs;
	opt.progress.stop = &stop;
	opt.progress.progress = progress;
	signal(SIGINT, on_sigint);
	if (mev_store_open(&s, dir, MEV_STORE_WRITE)) {
		rc = cli_fail();
		goto done;
	}
	rc = mev_cluster_store(&res, s, &co.p, &opt);
	if (!cli_quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (rc) {
		rc = cli_fail();
		goto done;
	}
	cli_note("%zu release%s clustered, %zu already clustered, with %s in %.2f s", res.clustered,
		 res.clustered == 1 ? "" : "s", res.kept, co.key, res.seconds);
done:
	signal(SIGINT, SIG_DFL);
	mev_store_free(s);
	return rc;
}
