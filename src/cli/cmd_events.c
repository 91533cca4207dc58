/* maintevo events: what happened to the clusters between releases (the events table). */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/export.h"

static const char usage[] =
	"usage: maintevo events [--store DIR] [--from TAG] [--to TAG] [--format F] [--method M]\n"
	"                       [-o FILE]\n"
	"\n"
	"Write the events 'maintevo track' found, in release order: the table\n"
	"'maintevo export events' writes (docs/schemas.md), as CSV by default\n"
	"  from_release,to_release,event,lineage,from_cluster,to_cluster,similarity,\n"
	"  from_lines,to_lines,method\n"
	"one row per link between a cluster of from_release and one of to_release:\n"
	"event is birth, death, continuation, growth, contraction, split or merge (a\n"
	"split into two is two rows, one per successor; a merge of two is two rows,\n"
	"one per predecessor).  from_cluster and to_cluster are the clusters'\n"
	"representatives (empty for a birth's from side and a death's to side);\n"
	"lineage is the to_cluster's lineage (the from_cluster's for a death);\n"
	"similarity is the Jaccard similarity of the two on the code present in both\n"
	"releases (empty for birth and death); from_lines and to_lines are the\n"
	"clusters' sizes in lines; method is the clustering's parameter key.  --from\n"
	"and --to keep the pairs between these releases (version order, both\n"
	"included).\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n"
	"  --from TAG         only pairs whose from_release is TAG or later\n"
	"  --to TAG           only pairs whose to_release is TAG or earlier\n"
	"  -f, --format F     csv (default), json (one array of objects) or jsonl\n" CLI_CLUSTER_HELP
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

int cmd_events(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "format", required_argument, NULL, 'f' },
		CLI_CLUSTER_LONGOPTS,
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store", *format = NULL, *out_path = NULL;
	mev_export_options eo = { 0 };
	cli_cluster_opts co;
	int c, rc;

	cli_cluster_init(&co);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hf:m:o:", longopts, NULL)) != -1) {
		if ((rc = cli_cluster_option(&co, "events", c, optarg))) {
			if (rc == EXIT_USAGE)
				return rc;
			continue;
		}
		switch (c) {
		case 's': dir = optarg; break;
		case 'F': eo.from = optarg; break;
		case 'T': eo.to = optarg; break;
		case 'f': format = optarg; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("events", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("events", "unexpected argument '%s'", argv[optind]);
	if ((rc = cli_cluster_finish(&co, "events")))
		return rc;
	eo.method = &co.p;
	return cli_write_table("events", dir, MEV_EXPORT_EVENTS, &eo, format, out_path);
}
