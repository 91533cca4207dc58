/* maintevo lineages: the lineages of clusters over the whole history (the lineages table). */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/export.h"

static const char usage[] =
	"usage: maintevo lineages [--store DIR] [--format F] [--method M] [-o FILE]\n"
	"\n"
	"Write the lineages 'maintevo track' found, by id: the table 'maintevo\n"
	"export lineages' writes (docs/schemas.md), as CSV by default\n"
	"  lineage,name,first_release,last_release,parent,peak_lines,releases,method\n"
	"A lineage is a chain of clusters linked by continuations (a split keeps it\n"
	"on the largest successor, a merge continues the largest predecessor).\n"
	"name is the representative of its cluster in its last release; parent is\n"
	"the lineage it split from (empty: none); peak_lines its largest size in\n"
	"lines; releases the number of releases in which it has a cluster; method\n"
	"the clustering's parameter key.\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n"
	"  -f, --format F     csv (default), json (one array of objects) or jsonl\n" CLI_CLUSTER_HELP
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

int cmd_lineages(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
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
		if ((rc = cli_cluster_option(&co, "lineages", c, optarg))) {
			if (rc == EXIT_USAGE)
				return rc;
			continue;
		}
		switch (c) {
		case 's': dir = optarg; break;
		case 'f': format = optarg; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("lineages", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("lineages", "unexpected argument '%s'", argv[optind]);
	if ((rc = cli_cluster_finish(&co, "lineages")))
		return rc;
	eo.method = &co.p;
	return cli_write_table("lineages", dir, MEV_EXPORT_LINEAGES, &eo, format, out_path);
}
