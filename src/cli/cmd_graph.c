/* maintevo graph: the section overlap graph of a release. */
#include "cli.h"
#include "maintevo/graph.h"
#include "maintevo/release.h"
#include "maintevo/store.h"

#include <string.h>

typedef struct {
	cli_release_opts release;
	const char *store, *tag, *out;
	mev_graph_format format;
	mev_graph_options go;
	int excel_safe;
} graph_args;

static int parse_format(void *field, const char *value, const cli_option *opt, const char *cmd)
{
	int f = mev_graph_format_parse(value);
	(void)opt;
	if (f < 0)
		return cli_usage_error(cmd, "unknown format '%s' (use csv, graphml, json or dot)", value);
	*(mev_graph_format *)field = (mev_graph_format)f;
	return 0;
}

static const cli_option options[] = {
	CLI_OPT_GROUP(graph_args, release, cli_release_options, NULL),
	CLI_OPT_STRING(graph_args, store, 0, "store", "DIR",
		       "read from this store instead of a repository"),
	CLI_OPT_STRING(graph_args, tag, 0, "release", "TAG",
		       "the stored release to read (with --store)"),
	CLI_OPT_CALL(graph_args, format, 'f', "format", "F", parse_format,
		     "csv (default), graphml, json or dot"),
	CLI_OPT_FLAG(graph_args, go.keep_rest, 0, "keep-rest", "keep THE REST (left out by default)"),
	CLI_OPT_EXCEL_SAFE(graph_args, excel_safe),
	CLI_OPT_OUT(graph_args, out),
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_graph_spec = {
	.name = "graph",
	.usage = CLI_USAGE("--repo PATH --rev REV [--format csv|graphml|json|dot] [options]",
			   "--store DIR --release TAG [--format ...] [--keep-rest]"),
	.about =
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
		"  dot      Graphviz, vertices labelled with their display names, the\n"
		"           attributes of graphml; named after the release\n"
		"\n"
		"With --store and --release the graph is read back from a store made by\n"
		"'maintevo walk' (no repository needed); the output is the same.",
	.options = options,
	.operands = 0,
};

static int write_graph(const mev_graph *g, const graph_args *a, const char *name)
{
	cli_out out;
	if (cli_out_open(&out, a->out))
		return EXIT_FAIL;
	if (mev_graph_write(out.f, g, a->format, name, a->excel_safe))
		return cli_out_fail(&out);
	return cli_out_commit(&out);
}

/* --store DIR --release TAG: the graph as 'maintevo walk' stored it. */
static int stored_graph(const graph_args *a)
{
	mev_store *store = NULL;
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	int rc;

	if (!a->store || !a->tag)
		return cli_usage_error("graph", "--store and --release go together");
	if (a->release.repo || a->release.rev)
		return cli_usage_error("graph", "use either --repo/--rev or --store/--release");
	if (mev_store_open(&store, a->store, MEV_STORE_READ) ||
	    mev_release_load_graph(&fm, &g, store, a->tag, a->go.keep_rest)) {
		mev_store_free(store);
		return cli_fail();
	}
	mev_store_free(store);
	rc = write_graph(g, a, a->tag);
	mev_graph_free(g);
	mev_filemap_free(fm);
	return rc;
}

int cmd_graph(int argc, char **argv)
{
	graph_args a = { .format = MEV_GRAPH_CSV };
	const cli_release_opts *o = &a.release;
	mev_filemap_options fo = { 0 };
	mev_filemap_stats st = { 0 };
	cli_release r;
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	int argi, rc;

	if ((rc = cli_parse(&argi, &cmd_graph_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if ((rc = cli_excel_check("graph", a.excel_safe, a.format == MEV_GRAPH_CSV)))
		return rc;
	if (a.store || a.tag)
		return stored_graph(&a);
	if ((rc = cli_release_load(&r, o, "graph")))
		return rc;
	fo.jobs = o->jobs;
	fo.stats = &st;
	if (mev_filemap_build(&fm, r.repo, r.tree, r.maint, &fo) || mev_graph_build(&g, fm, &a.go)) {
		rc = cli_fail();
		goto done;
	}
	cli_report_diags(r.maint, o->warnings);
	if (o->stats)
		cli_print_stats(&r, &st);
	if (st.missing)
		cli_say(stderr, "warning: %llu blob%s missing from the repository (a partial clone?), "
			"counted as 0 lines: '%s'%s\n", (unsigned long long)st.missing,
			st.missing == 1 ? "" : "s", st.missing_path, st.missing > 1 ? " and others" : "");
	rc = write_graph(g, &a, o->rev);
done:
	mev_graph_free(g);
	mev_filemap_free(fm);
	cli_release_free(&r);
	return rc;
}
