/* maintevo report: what changed between two releases, in Markdown or HTML. */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/error.h"
#include "maintevo/report.h"
#include "maintevo/store.h"

#include <getopt.h>
#include <string.h>

static const char usage[] =
	"usage: maintevo report --store DIR [--from TAG] [--to TAG] [--format md|html]\n"
	"                       [--title NAME] [-o FILE] [--method M ...]\n"
	"\n"
	"Compare two stored releases (default: the two newest): headline numbers of\n"
	"both and their change (sections, files, lines, code no section covers,\n"
	"subsystems, sections without a maintainer or orphaned); sections added,\n"
	"removed and renamed; subsystems born, died, split and merged; the largest\n"
	"growers and shrinkers by lines.\n"
	"\n"
	"  md    Markdown tables, fit for a mailing list post (default)\n"
	"  html  one self-contained page (inline CSS and SVG, no scripts, nothing\n"
	"        fetched) with charts of the largest subsystems over all releases,\n"
	"        of the splits and merges in the range and of the sections per\n"
	"        release; prints well too\n"
	"\n"
	"Subsystems need 'maintevo cluster' and 'maintevo track' on the store first.\n"
	"The same store gives the same bytes: the report holds no date of its own.\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n"
	"  --from TAG         the older release (default: the one before --to)\n"
	"  --to TAG           the newer release (default: the newest stored)\n"
	"  -f, --format F     md (default) or html\n"
	"  --title NAME       the project's name in the heading (default: from the\n"
	"                     store's dialect: Linux, U-Boot, Xen, QEMU)\n"
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n"
	"the clustering to read (as given to 'maintevo cluster'):\n" CLI_CLUSTER_HELP;

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		CLI_CLUSTER_LONGOPTS,
		{ "title", required_argument, NULL, 'T' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store", *out_path = NULL;
	mev_report_options ro = { 0 };
	cli_cluster_opts co;
	mev_store *s = NULL;
	FILE *out;
	int c, rc, f;

	cli_cluster_init(&co);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hf:o:m:", longopts, NULL)) != -1) {
		if ((rc = cli_cluster_option(&co, "report", c, optarg)))
			if (rc == EXIT_USAGE)
				return rc;
		if (rc)
			continue;
		switch (c) {
		case 's': dir = optarg; break;
		case 'F': ro.from = optarg; break;
		case 't': ro.to = optarg; break;
		case 'f':
			if ((f = mev_report_format_parse(optarg)) < 0)
				return cli_usage_error("report", "unknown format '%s' (use md or html)", optarg);
			ro.format = (mev_report_format)f;
			break;
		case 'T': ro.title = optarg; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("report", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("report", "unexpected argument '%s'", argv[optind]);
	if ((rc = cli_cluster_finish(&co, "report")))
		return rc;
	ro.method = &co.p;
	if (mev_store_open(&s, dir, MEV_STORE_READ))
		return cli_fail();
	if (!(out = cli_open_out(out_path))) {
		mev_store_free(s);
		return EXIT_FAIL;
	}
	if ((rc = mev_report_write(s, &ro, out))) {
		cli_fail();
		cli_close_out(out, out_path);
		if (out != stdout)
			remove(out_path); /* no half-written report left behind */
		mev_store_free(s);
		return EXIT_FAIL;
	}
	rc = cli_close_out(out, out_path);
	mev_store_free(s);
	return rc;
}
