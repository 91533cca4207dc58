/* maintevo events: what happened to the clusters between releases (the events table). */
#include "cli.h"
#include "maintevo/export.h"

static const cli_option options[] = {
	CLI_OPT_STORE(cli_table_args, store),
	CLI_OPT_FROM(cli_table_args, eo.from),
	CLI_OPT_TO(cli_table_args, eo.to),
	CLI_OPT_TABLE_FORMAT(cli_table_args, format),
	CLI_OPT_CLUSTER(cli_table_args, cluster),
	CLI_OPT_TRACK(cli_table_args, tp),
	CLI_OPT_EXCEL_SAFE(cli_table_args, eo.excel_safe),
	CLI_OPT_OUT(cli_table_args, out),
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_events_spec = {
	.name = "events",
	.usage = CLI_USAGE("[--store DIR] [--from TAG] [--to TAG] [--format F] [--method M]\n"
			   "[--excel-safe] [-o FILE]"),
	.about =
		"Write the events 'maintevo track' found, in release order: the table\n"
		"'maintevo export events' writes (docs/schemas.md), as CSV by default\n"
		"  from_release,to_release,event,lineage,from_cluster,to_cluster,similarity,\n"
		"  from_lines,to_lines,method,lineage_name,from_lineage,share,partner,\n"
		"  partner_lineage,partner_share,support,tracking,from_cluster_display_name,\n"
		"  to_cluster_display_name,cause_kind,cause\n"
		"one row per link between a cluster of from_release and one of to_release:\n"
		"event is birth, death, continuation, growth, contraction, split or merge (a\n"
		"split into two is two rows, one per successor; a merge of two is two rows,\n"
		"one per predecessor; a small cluster absorbed by a large one is a merge),\n"
		"or bridge: a lineage that vanished for at most --gap releases comes back\n"
		"(from_release is its last release before the gap; no death, no birth).\n"
		"from_cluster and to_cluster are the clusters' representatives (empty for a\n"
		"birth's from side and a death's to side); lineage is the to_cluster's\n"
		"lineage (the from_cluster's for a death), lineage_name its one name;\n"
		"similarity is the Jaccard similarity of the two on the code present in both\n"
		"releases and share the part of from_cluster's lines to_cluster holds (empty\n"
		"for birth and death); partner names where a death's code went or a birth's\n"
		"came from, with its share; support is the share of the perturbed runs that\n"
		"find the event; cause_kind and cause say why it happened ('maintevo\n"
		"explain' gives the whole account); method and tracking are the key of the\n"
		"result (docs/tracking.md).  --from and --to keep the pairs between these\n"
		"releases (version order, both included).  The *_display_name columns are\n"
		"the names to show of the representatives (docs/matching.md).",
	.options = options,
	.operands = 0,
};

int cmd_events(int argc, char **argv)
{
	cli_table_args a;
	int argi, rc;

	cli_table_args_init(&a);
	if ((rc = cli_parse(&argi, &cmd_events_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if ((rc = cli_cluster_finish(&a.cluster, "events")))
		return rc;
	return cli_write_table("events", a.store, MEV_EXPORT_EVENTS, &a.eo, &a.cluster.p, &a.tp,
			       a.format, a.out);
}
