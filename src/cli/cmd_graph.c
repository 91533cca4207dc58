/* maintevo graph: the section overlap graph of a release. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/graph.h"
#include "maintevo/release.h"
#include "maintevo/store.h"

#include <getopt.h>
#include <string.h>

static const char usage[] =
	"usage: maintevo graph --repo PATH --rev REV [--format csv|graphml|json] [options]\n"
	"       maintevo graph --store DIR --release TAG [--format ...] [--keep-rest]\n"
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
	"With --store and --release the graph is read back from a store made by\n"
	"'maintevo walk' (no repository needed); the output is the same.\n"
	"\n"
	"options:\n" CLI_RELEASE_HELP
	"  --store DIR        read from this store instead of a repository\n"
	"  --release TAG      the stored release to read (with --store)\n"
	"  -f, --format F     csv (default), graphml or json\n"
	"  --keep-rest        keep THE REST (left out by default)\n"
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

static int write_graph(const mev_graph *g, mev_graph_format fmt, const char *out_path)
{
	FILE *out = cli_open_out(out_path);
	if (!out)
		return EXIT_FAIL;
	if (mev_graph_write(g, out, fmt)) {
		cli_fail();
		cli_close_out(out, out_path);
		return EXIT_FAIL;
	}
	return cli_close_out(out, out_path);
}

int cmd_graph(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_RELEASE_LONGOPTS,
		{ "format", required_argument, NULL, 'f' },
		{ "keep-rest", no_argument, NULL, 'k' },
		{ "out", required_argument, NULL, 'o' },
		{ "store", required_argument, NULL, 's' },
		{ "release", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	cli_release_opts o = { 0 };
	const char *out_path = NULL, *store_dir = NULL, *release = NULL;
	int fmt = MEV_GRAPH_CSV, c, rc;
	mev_graph_options go = { 0 };
	mev_filemap_options fo = { 0 };
	mev_filemap_stats st = { 0 };
	cli_release r;
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hf:o:j:", longopts, NULL)) != -1) {
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
		case 's': store_dir = optarg; break;
		case 'L': release = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("graph", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("graph", "unexpected argument '%s'", argv[optind]);
	if (store_dir || release) {
		mev_store *store = NULL;
		if (!store_dir || !release)
			return cli_usage_error("graph", "--store and --release go together");
		if (o.repo || o.rev)
			return cli_usage_error("graph", "use either --repo/--rev or --store/--release");
		if (mev_store_open(&store, store_dir, MEV_STORE_READ) ||
		    mev_release_load_graph(&fm, &g, store, release, go.keep_rest)) {
			mev_store_free(store);
			return cli_fail();
		}
		mev_store_free(store);
		rc = write_graph(g, (mev_graph_format)fmt, out_path);
		mev_graph_free(g);
		mev_filemap_free(fm);
		return rc;
	}
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
	if (st.missing)
		fprintf(stderr, "warning: %llu blob%s missing from the repository (a partial clone?), "
			"counted as 0 lines: '%s'%s\n", (unsigned long long)st.missing,
			st.missing == 1 ? "" : "s", st.missing_path, st.missing > 1 ? " and others" : "");
	rc = write_graph(g, (mev_graph_format)fmt, out_path);
done:
	mev_graph_free(g);
	mev_filemap_free(fm);
	cli_release_free(&r);
	return rc;
}
