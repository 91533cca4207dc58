/* maintevo export: tidy tables and graphs of a store for pandas, R and Gephi. */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/error.h"
#include "maintevo/export.h"
#include "maintevo/store.h"

#include <getopt.h>
#include <string.h>

static const char usage[] =
	"usage: maintevo export TABLE --store DIR [--format csv|json|jsonl] [-o FILE]\n"
	"                       [--release TAG] [--from TAG] [--to TAG] [--path PATH]\n"
	"                       [--keep-rest] [--method M ...]\n"
	"       maintevo export graph --store DIR --release TAG [--format graphml|json|dot]\n"
	"                       [--meta] [--method M ...] [-o FILE]\n"
	"\n"
	"Write a table of the store in long form (one row per release and entity),\n"
	"columns in a fixed order, rows in a fixed order (releases in version order,\n"
	"then names bytewise).  docs/schemas.md describes every column.  The short\n"
	"commands releases, clusters, events, lineages and section-changes print the\n"
	"same tables.\n"
	"\n"
	"tables:\n"
	"  releases   one row per release: files, lines, sections, uncovered code,\n"
	"             sections without maintainer or orphaned, clusters\n"
	"  sections   one row per release and section: status, people, size, cluster\n"
	"  edges      one row per release and pair of sections that share files\n"
	"  clusters   one row per release, cluster and section\n"
	"  events     one row per link between clusters of consecutive releases\n"
	"  lineages   one row per lineage (a subsystem followed over releases)\n"
	"  section_changes\n"
	"             one row per section added, removed or renamed between\n"
	"             consecutive releases\n"
	"  files      one row per file and covering section: every file of --release\n"
	"             TAG, or one file's history with --path PATH\n"
	"  graph      the overlap graph of --release TAG with cluster and lineage as\n"
	"             vertex attributes; --meta: the graph of its clusters\n"
	"\n"
	"formats: csv (RFC 4180, UTF-8; default), json (one array of objects),\n"
	"jsonl (JSON Lines, one object a line); for graph: graphml (default), json\n"
	"(networkx node-link) or dot (Graphviz).  Empty CSV fields are JSON nulls.\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n"
	"  -f, --format F     output format (see above)\n"
	"  --release TAG      only this release (events, section_changes: those that\n"
	"                     lead to it; files and graph: the release to write)\n"
	"  --from TAG         events, section_changes: only pairs whose from_release\n"
	"                     is TAG or later\n"
	"  --to TAG           events, section_changes: only pairs whose to_release is\n"
	"                     TAG or earlier\n"
	"  --path PATH        files: follow this path over all releases\n"
	"  --meta             graph: vertices are clusters, edges the lines their\n"
	"                     sections share\n"
	"  --keep-rest        keep THE REST (left out by default)\n"
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n"
	"the clustering to read (as given to 'maintevo cluster'):\n" CLI_CLUSTER_HELP;

/* Run `write` with the store and the output open; no file is left behind
 * when it fails. */
static int with_store_and_out(const char *dir, const char *out_path,
			      int (*write)(mev_store *s, const void *opt, FILE *out), const void *opt)
{
	mev_store *s = NULL;
	FILE *out;
	int rc;
	if (mev_store_open(&s, dir, MEV_STORE_READ))
		return cli_fail();
	if (!(out = cli_open_out(out_path))) {
		mev_store_free(s);
		return EXIT_FAIL;
	}
	if (write(s, opt, out)) {
		cli_fail();
		cli_close_out(out, out_path);
		if (out != stdout)
			remove(out_path); /* no half-written table left behind */
		mev_store_free(s);
		return EXIT_FAIL;
	}
	rc = cli_close_out(out, out_path);
	mev_store_free(s);
	return rc;
}

typedef struct {
	mev_export_table_id t;
	const mev_export_options *opt;
} table_job;

static int write_table(mev_store *s, const void *job, FILE *out)
{
	const table_job *j = job;
	return mev_export_table(s, j->t, j->opt, out);
}

static int write_graph(mev_store *s, const void *opt, FILE *out)
{
	return mev_export_graph(s, opt, out);
}

int cli_write_table(const char *cmd, const char *dir, mev_export_table_id t,
		    mev_export_options *opt, const char *format, const char *out_path)
{
	int f = format ? mev_table_format_parse(format) : MEV_TABLE_CSV;
	table_job job = { t, opt };
	if (f < 0)
		return cli_usage_error(cmd, "unknown format '%s' (use csv, json or jsonl)", format);
	opt->format = (mev_table_format)f;
	return with_store_and_out(dir, out_path, write_table, &job);
}

/* export graph: the options that go with it, then the graph. */
static int export_graph(const char *dir, const mev_export_options *eo, int meta, const char *format,
			const char *out_path)
{
	mev_export_graph_options go = { 0 };
	int f = format ? mev_export_graph_format_parse(format) : MEV_EXPORT_GRAPHML;
	if (f < 0)
		return cli_usage_error("export", "unknown graph format '%s' (use graphml, json or dot)",
				       format);
	if (!eo->release)
		return cli_usage_error("export", "export graph needs --release TAG");
	if (eo->path)
		return cli_usage_error("export", "--path goes with the files table only");
	if (eo->from || eo->to)
		return cli_usage_error("export", "--from and --to go with the events and "
				       "section_changes tables only");
	go.format = (mev_export_graph_format)f;
	go.release = eo->release;
	go.method = eo->method;
	go.meta = meta;
	go.keep_rest = eo->keep_rest;
	return with_store_and_out(dir, out_path, write_graph, &go);
}

/* export TABLE: the options that do not go with the table are usage errors. */
static int export_table(const char *dir, const char *what, mev_export_options *eo, int meta,
			const char *format, const char *out_path)
{
	int table = mev_export_table_parse(what);
	if (table < 0)
		return cli_usage_error("export", "unknown table '%s' (use releases, sections, edges, "
				       "clusters, events, lineages, section_changes, files or graph)",
				       what);
	if (format && mev_table_format_parse(format) < 0)
		return cli_usage_error("export", "unknown format '%s' (use csv, json or jsonl)", format);
	if (meta)
		return cli_usage_error("export", "--meta goes with 'export graph' only");
	if (eo->path && table != MEV_EXPORT_FILES)
		return cli_usage_error("export", "--path goes with the files table only");
	if ((eo->from || eo->to) && table != MEV_EXPORT_EVENTS && table != MEV_EXPORT_SECTION_CHANGES)
		return cli_usage_error("export", "--from and --to go with the events and "
				       "section_changes tables only");
	if (table == MEV_EXPORT_FILES && !eo->release == !eo->path)
		return cli_usage_error("export", "the files table needs --release TAG (every file "
				       "of a release) or --path PATH (one file's history)");
	return cli_write_table("export", dir, (mev_export_table_id)table, eo, format, out_path);
}

int cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "release", required_argument, NULL, 'L' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "path", required_argument, NULL, 'p' },
		CLI_CLUSTER_LONGOPTS,
		{ "meta", no_argument, NULL, 'M' },
		{ "keep-rest", no_argument, NULL, 'k' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store", *out_path = NULL, *format = NULL, *what;
	mev_export_options eo = { 0 };
	cli_cluster_opts co;
	int c, rc, meta = 0;

	cli_cluster_init(&co);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hf:o:m:", longopts, NULL)) != -1) {
		if ((rc = cli_cluster_option(&co, "export", c, optarg)))
			if (rc == EXIT_USAGE)
				return rc;
		if (rc)
			continue;
		switch (c) {
		case 's': dir = optarg; break;
		case 'f': format = optarg; break;
		case 'L': eo.release = optarg; break;
		case 'F': eo.from = optarg; break;
		case 'T': eo.to = optarg; break;
		case 'p': eo.path = optarg; break;
		case 'M': meta = 1; break;
		case 'k': eo.keep_rest = 1; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("export", c, argc, argv);
		}
	}
	if (optind >= argc)
		return cli_usage_error("export", "say which table to export (releases, sections, edges, "
				       "clusters, events, lineages, section_changes, files or graph)");
	what = argv[optind++];
	if (optind < argc)
		return cli_usage_error("export", "unexpected argument '%s'", argv[optind]);
	if ((rc = cli_cluster_finish(&co, "export")))
		return rc;
	eo.method = &co.p;
	if (strcmp(what, "graph") == 0)
		return export_graph(dir, &eo, meta, format, out_path);
	return export_table(dir, what, &eo, meta, format, out_path);
}
