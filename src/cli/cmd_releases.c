/* maintevo releases: the releases of a store and their numbers (the releases table). */
#include "cli.h"
#include "maintevo/export.h"

static const cli_option options[] = {
	CLI_OPT_STORE(cli_table_args, store),
	CLI_OPT_TABLE_FORMAT(cli_table_args, format),
	CLI_OPT_CLUSTER(cli_table_args, cluster),
	CLI_OPT_EXCEL_SAFE(cli_table_args, eo.excel_safe),
	CLI_OPT_OUT(cli_table_args, out),
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_releases_spec = {
	.name = "releases",
	.usage = CLI_USAGE("--store DIR [--format F] [--method M] [--excel-safe] [-o FILE]"),
	.about =
		"List the stored releases in version order: the table 'maintevo export\n"
		"releases' writes (docs/schemas.md), as CSV by default\n"
		"  release,position,commit,date,files,lines,bytes,sections,sections_with_files,\n"
		"  sections_without_maintainer,sections_orphan,uncovered_files,uncovered_lines,\n"
		"  edges,notes,maintainers_files,clusters,modularity,reference_modularity,\n"
		"  clustering_step,moved_sections,rules_version,rules\n"
		"position counts the releases from 1; sections leaves out THE REST;\n"
		"sections_orphan have an S: starting with Orphan; uncovered files are covered\n"
		"by no section but THE REST; edges join two different sections; notes are the\n"
		"oddities found in MAINTAINERS; date is the commit date (UTC, ISO 8601);\n"
		"clusters and modularity are those of the clustering --method names (empty\n"
		"when the release is not clustered); for the temporal method,\n"
		"reference_modularity is the best of independent Leiden runs on the release,\n"
		"clustering_step what was done (kept, moved, reoptimised, independent) and\n"
		"moved_sections how many sections left the cluster they started in; rules says which MAINTAINERS files were\n"
		"read and how (from the release's own get_maintainer.pl), rules_version which\n"
		"version of maintevo's reading of them built it (0: imported).",
	.options = options,
	.operands = 0,
};

int cmd_releases(int argc, char **argv)
{
	cli_table_args a;
	int argi, rc;

	cli_table_args_init(&a);
	if ((rc = cli_parse(&argi, &cmd_releases_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if ((rc = cli_cluster_finish(&a.cluster, "releases")))
		return rc;
	a.eo.method = &a.cluster.p;
	return cli_write_table("releases", a.store, MEV_EXPORT_RELEASES, &a.eo, a.format, a.out);
}
