/* maintevo clusters: the clusters of one stored release (the clusters table). */
#include "cli.h"
#include "maintevo/export.h"

static const cli_option options[] = {
	CLI_OPT_STORE(cli_table_args, store),
	CLI_OPT_STRING(cli_table_args, eo.release, 0, "release", "TAG", "the release"),
	CLI_OPT_TABLE_FORMAT(cli_table_args, format),
	CLI_OPT_CLUSTER(cli_table_args, cluster),
	CLI_OPT_TRACK(cli_table_args, tp),
	CLI_OPT_EXCEL_SAFE(cli_table_args, eo.excel_safe),
	CLI_OPT_OUT(cli_table_args, out),
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_clusters_spec = {
	.name = "clusters",
	.usage = CLI_USAGE("--store DIR --release TAG [--format F] [--method M]\n"
			   "[--excel-safe] [-o FILE]"),
	.about =
		"Write the clusters of a release, as 'maintevo cluster' stored them: the\n"
		"table 'maintevo export clusters --release TAG' writes (docs/schemas.md), as\n"
		"CSV by default\n"
		"  release,method,cluster,representative,section,section_lines,\n"
		"  cluster_sections,cluster_lines,code_lines,lineage,display_name,\n"
		"  representative_display_name\n"
		"one row per clustered section.  method is the parameter key\n"
		"(temporal:res=1:seed=1:tol=0.97:top=1); cluster numbers the clusters of this\n"
		"release from 1, the largest first (by the sum of its sections' lines,\n"
		"cluster_lines; ties by representative); representative is the cluster's\n"
		"largest section that is not an umbrella (ties: bytewise smallest title):\n"
		"an umbrella touches at least half of the cluster's other sections, which\n"
		"together cover more than twice its lines, and holds under a tenth of\n"
		"theirs (DPDK's 'Documentation (with overlaps)'); section_lines are the\n"
		"lines the section covers; cluster_sections the sections of the cluster;\n"
		"code_lines the lines of the files it covers, each once, lineage its\n"
		"lineage and lineage_name that lineage's one name (empty when the store is\n"
		"not tracked), tracking the thresholds of the tracking that made them.  Rows\n"
		"come by cluster, its representative first, then by section_lines (largest\n"
		"first), then title.  Sections not clustered (THE REST, and those\n"
		"below --top-fraction) are left out.  Cluster numbers are not kept across\n"
		"releases: 'maintevo events' and 'maintevo lineages' link them.  Titles are\n"
		"the keys; display_name and representative_display_name are the names to\n"
		"show (docs/matching.md).",
	.options = options,
	.operands = 0,
};

int cmd_clusters(int argc, char **argv)
{
	cli_table_args a;
	int argi, rc;

	cli_table_args_init(&a);
	if ((rc = cli_parse(&argi, &cmd_clusters_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if (!a.eo.release)
		return cli_usage_error("clusters", "--release is required");
	if ((rc = cli_cluster_finish(&a.cluster, "clusters")))
		return rc;
	return cli_write_table("clusters", a.store, MEV_EXPORT_CLUSTERS, &a.eo, &a.cluster.p, &a.tp,
			       a.format, a.out);
}
