/* maintevo graph: the section overlap graph of a release. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/graph.h"

#include <getopt.h>
#include <string.h>

static const char usage[] =
	"usage: maintevo graph --repo PATH --rev REV [--format csv|graphml|json] [options]\n"
	"\n"
	"Write the overlap graph of the release: vertices are MAINTAINERS sections,\n"
	"an edge joins two sections that cover the same files, weighted by the lines\n"
	"(newlines), bytes and files they share.\n"
	"\n"
	"  csv      'from,to,lines,bytes,files', one row per pair (from < to bytewise)\n"
	"           and a from == to row with each section's own size (zeros for\n"
	"           sections that cover nothing)\n"
	"  graphml  vertex attributes name, lines, bytes, files, status, maintainers;\n"
	"           edge attributes lines, bytes, files, weight (= lines); for Gephi,\n"
	"           igraph and networkx\n"
	"  json     networkx node-link form\n"
	"\n"
	"options:\n" CLI_RELEASE_HELP
	"  -f, --format F     csv (default), graphml or json\n"
	"  --keep-rest        keep THE REST (left out by default)\n"
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

int cmd_graph(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_RELEASE_LONGOPTS,
		{ "format", required_argument, NULL, 'f' },
		{ "keep-rest", no_argument, NULL, 'k' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	cli_release_opts o = { 0 };
	const char *out_path = NULL;
	int fmt = MEV_GRAPH_CSV, c, rc;
	mev_graph_options go = { 0 };
	mev_filemap_options fo = { 0 };
	mev_filemap_stats st = { 0 };
	cli_release r;
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	FILE *out;

	optind = 0;
	while ((c = getopt_long(argc, argv, "hf:o:j:", longopts, NULL)) != -1) {
		if ((rc = cli_release_option(&o, "graph", c, optarg)))
			if (rc == EXIT_USAGE)
				return rc;
		if (rc)
			continue;
		switch (c) {
		case 'f':
			fmt = mev_graph_format_parse(optarg);
			if (fmt < 0)
				return cli_usage_error("graph", "unknown format '%s' (use csv, graphml or json)",
						       optarg);
			break;
		case 'k': go.keep_rest = 1; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_usage_error("graph", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage_error("graph", "unexpected argument '%s'", argv[optind]);
	if ((rc = cli_release_load(&r, &o, "graph")))
		return rc;
	fo.jobs = o.jobs;
	fo.stats = &st;
	if (mev_filemap_build(&fm, r.repo, r.tree, r.maint, &fo) || mev_graph_build(&g, fm, &go)) {
		rc = cli_fail();
		goto done;
	}
	cli_report_diags(r.maint, o.warnings);
	if (o.stats)
		cli_print_stats(&r, &st);
	if (!(out = cli_open_out(out_path))) {
		rc = EXIT_FAIL;
		goto done;
	}
	if (mev_graph_write(g, out, (mev_graph_format)fmt)) {
		cli_fail();
		cli_close_out(out, out_path);
		rc = EXIT_FAIL;
		goto done;
	}
	rc = cli_close_out(out, out_path);
done:
	mev_graph_free(g);
	mev_filemap_free(fm);
	cli_release_free(&r);
	return rc;
}
