/* maintevo clusters: the clusters of one stored release (the clusters table). */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/export.h"

static const char usage[] =
	"usage: maintevo clusters --store DIR --release TAG [--format F] [--method M] [-o FILE]\n"
	"\n"
	"Write the clusters of a release, as 'maintevo cluster' stored them: the\n"
	"table 'maintevo export clusters --release TAG' writes (docs/schemas.md), as\n"
	"CSV by default\n"
	"  release,method,cluster,representative,section,section_lines,\n"
	"  cluster_sections,cluster_lines,code_lines,lineage\n"
	"one row per clustered section.  method is the parameter key\n"
	"(walktrap:steps=4:top=1); cluster numbers the clusters of this release from\n"
	"1, the largest first (by the sum of its sections' lines, cluster_lines; ties\n"
	"by representative); representative is the cluster's largest section (ties:\n"
	"bytewise smallest title); section_lines are the lines the section covers;\n"
	"cluster_sections the sections of the cluster; code_lines the lines of the\n"
	"files it covers, each once, and lineage its lineage (both empty when the\n"
	"store is not tracked).  Rows come by cluster, then by section_lines (largest\n"
	"first), then title, so each cluster starts with its representative.\n"
	"Sections not clustered (THE REST, and those below --top-fraction) are left\n"
	"out.  Cluster numbers are not kept across releases: 'maintevo events' and\n"
	"'maintevo lineages' link them.\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n"
	"  --release TAG      the release\n"
	"  -f, --format F     csv (default), json (one array of objects) or jsonl\n" CLI_CLUSTER_HELP
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

int cmd_clusters(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "release", required_argument, NULL, 'L' },
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
		if ((rc = cli_cluster_option(&co, "clusters", c, optarg))) {
			if (rc == EXIT_USAGE)
				return rc;
			continue;
		}
		switch (c) {
		case 's': dir = optarg; break;
		case 'L': eo.release = optarg; break;
		case 'f': format = optarg; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("clusters", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("clusters", "unexpected argument '%s'", argv[optind]);
	if (!eo.release)
		return cli_usage_error("clusters", "--release is required");
	if ((rc = cli_cluster_finish(&co, "clusters")))
		return rc;
	eo.method = &co.p;
	return cli_write_table("clusters", dir, MEV_EXPORT_CLUSTERS, &eo, format, out_path);
}
