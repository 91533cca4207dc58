/* maintevo releases: the releases of a store and their numbers (the releases table). */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/export.h"

static const char usage[] =
	"usage: maintevo releases --store DIR [--format F] [--method M] [-o FILE]\n"
	"\n"
	"List the stored releases in version order: the table 'maintevo export\n"
	"releases' writes (docs/schemas.md), as CSV by default\n"
	"  release,position,commit,date,files,lines,bytes,sections,sections_with_files,\n"
	"  sections_without_maintainer,sections_orphan,uncovered_files,uncovered_lines,\n"
	"  edges,notes,maintainers_files,clusters,modularity\n"
	"position counts the releases from 1; sections leaves out THE REST;\n"
	"sections_orphan have an S: starting with Orphan; uncovered files are covered\n"
	"by no section but THE REST; edges join two different sections; notes are the\n"
	"oddities found in MAINTAINERS; date is the commit date (UTC, ISO 8601);\n"
	"clusters and modularity are those of the clustering --method names (empty\n"
	"when the release is not clustered).\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n"
	"  -f, --format F     csv (default), json (one array of objects) or jsonl\n" CLI_CLUSTER_HELP
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

int cmd_releases(int argc, char **argv)
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
		if ((rc = cli_cluster_option(&co, "releases", c, optarg))) {
			if (rc == EXIT_USAGE)
				return rc;
			continue;
		}
		switch (c) {
		case 's': dir = optarg; break;
		case 'f': format = optarg; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("releases", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("releases", "unexpected argument '%s'", argv[optind]);
	if ((rc = cli_cluster_finish(&co, "releases")))
		return rc;
	eo.method = &co.p;
	return cli_write_table("releases", dir, MEV_EXPORT_RELEASES, &eo, format, out_path);
}
