/* maintevo import-pasta: the study's published section graphs as releases of a store. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/import.h"

#include <getopt.h>
#include <signal.h>
#include <unistd.h>

static const char usage[] =
	"usage: maintevo import-pasta [--store DIR] CSVDIR\n"
	"\n"
	"Import the section graphs of the original study's tool (PaStA), one file\n"
	"per release in CSVDIR named after its tag (TAG.csv, or TAG.csv.zst compressed\n"
	"with zstd), with rows 'from,to,lines,size': two sections and the lines and\n"
	"bytes of the files both cover (from == to: the section's own size; THE REST\n"
	"included).  Each file becomes a release of the store, in version order,\n"
	"with its sections and overlap graph but no file table; a release already\n"
	"there is replaced.  'maintevo cluster' and 'maintevo track' then work on\n"
	"them as on walked releases (tracking falls back to section titles, see\n"
	"docs/tracking.md).  A store made by an import cannot be walked into, and\n"
	"the other way round.\n"
	"\n"
	"  maintevo import-pasta --store linux.store ../shared/data/linux-pasta/section_graph\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store; created if needed)\n"
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

int cmd_import(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store";
	mev_progress pr = { &stop, progress, NULL, NULL };
	mev_import_result res;
	int c, rc;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hq", longopts, NULL)) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'q': cli_quiet = 1; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("import-pasta", c, argc, argv);
		}
	}
	if (optind >= argc)
		return cli_usage_error("import-pasta", "say which directory to import (CSVDIR)");
	if (optind + 1 < argc)
		return cli_usage_error("import-pasta", "unexpected argument '%s'", argv[optind + 1]);
	signal(SIGINT, on_sigint);
	rc = mev_import_pasta(&res, dir, argv[optind], &pr);
	signal(SIGINT, SIG_DFL);
	if (!cli_quiet && isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	if (rc)
		return cli_fail();
	cli_note("%zu release%s imported (%zu replaced) from '%s' in %.2f s", res.imported,
		 res.imported == 1 ? "" : "s", res.replaced, argv[optind], res.seconds);
	return EXIT_OK;
}
