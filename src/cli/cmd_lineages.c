/* maintevo lineages: the lineages of clusters over the whole history (the lineages table). */
#include "cli.h"
#include "maintevo/export.h"

static const cli_option options[] = {
	CLI_OPT_STORE(cli_table_args, store),
	CLI_OPT_TABLE_FORMAT(cli_table_args, format),
	CLI_OPT_CLUSTER(cli_table_args, cluster),
	CLI_OPT_TRACK(cli_table_args, tp),
	CLI_OPT_EXCEL_SAFE(cli_table_args, eo.excel_safe),
	CLI_OPT_OUT(cli_table_args, out),
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_lineages_spec = {
	.name = "lineages",
	.usage = CLI_USAGE("[--store DIR] [--format F] [--method M] [--excel-safe] [-o FILE]"),
	.about =
		"Write the lineages 'maintevo track' found, by id: the table 'maintevo\n"
		"export lineages' writes (docs/schemas.md), as CSV by default\n"
		"  lineage,name,first_release,last_release,parent,peak_lines,releases,method,\n"
		"  tracking,display_name,last_name\n"
		"A lineage is a chain of clusters linked by continuations (a split keeps it\n"
		"on the largest successor, a merge continues the largest predecessor).\n"
		"name is its one name for its whole life: the display name of the\n"
		"representative of its first cluster, \"NAME (TAG)\" with the release it was\n"
		"born in when an older lineage has that name (unique, and kept when the\n"
		"history grows); parent is the lineage it split from (empty: none);\n"
		"peak_lines its largest size in lines; releases the number of releases in\n"
		"which it has a cluster; method and tracking the key of the result\n"
		"(docs/tracking.md); display_name the same as name; last_name the name of\n"
		"what it holds at its last release: its cluster's name there (the display\n"
		"name of the cluster's representative, as 'maintevo clusters' names it).",
	.options = options,
	.operands = 0,
};

int cmd_lineages(int argc, char **argv)
{
	cli_table_args a;
	int argi, rc;

	cli_table_args_init(&a);
	if ((rc = cli_parse(&argi, &cmd_lineages_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if ((rc = cli_cluster_finish(&a.cluster, "lineages")))
		return rc;
	return cli_write_table("lineages", a.store, MEV_EXPORT_LINEAGES, &a.eo, &a.cluster.p, &a.tp,
			       a.format, a.out);
}
