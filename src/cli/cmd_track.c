/* maintevo track: link the clusters of consecutive releases; events and lineages. */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/error.h"
#include "maintevo/store.h"
#include "maintevo/track.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

static const char usage[] =
	"usage: maintevo track [--store DIR] [--method M] [thresholds] [options]\n"
	"\n"
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
	"section-changes'; docs/tracking.md explains the thresholds.\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n" CLI_CLUSTER_HELP
	"  --link J           minimum Jaccard similarity of a link (default 0.1)\n"
	"  --match S          share of a cluster's code that makes the other cluster\n"
	"                     its heir or origin (default 0.5)\n"
	"  --growth G         a continuation whose lines change by at least G is a\n"
	"                     growth or contraction (default 0.1)\n"
	"  --rename R         share of a removed section's code a new section must\n"
	"                     cover to be its new name (default 0.8)\n"
	"  -j, --jobs N       clustering processes (default: one per core)\n"
	"  -q, --quiet        no progress line and no summary\n"
	"  -h, --help         show this help\n";

enum { OPT_LINK = OPT_CLUSTER_LAST + 1, OPT_MATCH, OPT_GROWTH, OPT_RENAME };

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

static int threshold(const char *opt, const char *arg, double max, double *out)
{
	char *end;
	double v;
	errno = 0;
	v = strtod(arg, &end);
	if (errno || !*arg || *end || !(v > 0) || v > max)
		return cli_usage_error("track", "%s takes a number above 0 and at most %g, not '%s'", opt,
				       max, arg);
	*out = v;
	return 0;
}

int cmd_track(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		CLI_CLUSTER_LONGOPTS,
		{ "link", required_argument, NULL, OPT_LINK },
		{ "match", required_argument, NULL, OPT_MATCH },
		{ "growth", required_argument, NULL, OPT_GROWTH },
		{ "rename", required_argument, NULL, OPT_RENAME },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store";
	cli_cluster_opts co;
	mev_track_params tp;
	mev_track_options opt = { 0 };
	mev_track_result res;
	mev_store *s = NULL;
	long jobs = 0;
	int c, rc;

	cli_cluster_init(&co);
	mev_track_params_init(&tp);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hqm:j:", longopts, NULL)) != -1) {
		if ((rc = cli_cluster_option(&co, "track", c, optarg))) {
			if (rc == EXIT_USAGE)
				return rc;
			continue;
		}
		switch (c) {
		case 's': dir = optarg; break;
		case OPT_LINK: if (threshold("--link", optarg, 1, &tp.link)) return EXIT_USAGE; break;
		case OPT_MATCH: if (threshold("--match", optarg, 1, &tp.match)) return EXIT_USAGE; break;
		case OPT_GROWTH: if (threshold("--growth", optarg, 1e6, &tp.growth)) return EXIT_USAGE; break;
		case OPT_RENAME: if (threshold("--rename", optarg, 1, &tp.rename)) return EXIT_USAGE; break;
		case 'j':
			if (cli_parse_int("track", "--jobs", optarg, 0, 64, &jobs))
				return EXIT_USAGE;
			break;
		case 'q': cli_quiet = 1; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("track", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("track", "unexpected argument '%s'", argv[optind]);
	if ((rc = cli_cluster_finish(&co, "track")))
		return rc;
	opt.jobs = (int)jobs;
	opt.progress.stop = &stop;
	opt.progress.progress = progress;
	signal(SIGINT, on_sigint);
	if (mev_store_open(&s, dir, MEV_STORE_WRITE)) {
		rc = cli_fail();
		goto done;
	}
	rc = mev_track_store(&res, s, &co.p, &tp, &opt);
	if (!cli_quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (rc) {
		rc = cli_fail();
		goto done;
	}
	if (res.cluster.clustered)
		cli_note("%zu release%s clustered with %s in %.2f s", res.cluster.clustered,
			 res.cluster.clustered == 1 ? "" : "s", co.key, res.cluster_seconds);
	cli_note("%zu release%s tracked (%zu computed: %zu pair%s on code, %zu on titles; %zu kept) "
		 "in %.2f s", res.releases, res.releases == 1 ? "" : "s", res.tracked, res.by_code,
		 res.by_code == 1 ? "" : "s", res.by_title, res.kept, res.seconds);
	cli_note("events: %zu birth, %zu death, %zu continuation, %zu growth, %zu contraction, "
		 "%zu split, %zu merge; %zu lineages", res.events[MEV_EVENT_BIRTH],
		 res.events[MEV_EVENT_DEATH], res.events[MEV_EVENT_CONTINUATION],
		 res.events[MEV_EVENT_GROWTH], res.events[MEV_EVENT_CONTRACTION],
		 res.events[MEV_EVENT_SPLIT], res.events[MEV_EVENT_MERGE], res.lineages);
	cli_note("sections: %zu added, %zu removed, %zu renamed", res.section_changes[MEV_SECTION_ADDED],
		 res.section_changes[MEV_SECTION_REMOVED], res.section_changes[MEV_SECTION_RENAMED]);
	rc = EXIT_OK;
done:
	signal(SIGINT, SIG_DFL);
	mev_store_free(s);
	return rc;
}
