/* maintevo section-changes: sections added, removed and renamed between releases. */
#include "cli.h"
#include "maintevo/export.h"

static const cli_option options[] = {
	CLI_OPT_STORE(cli_table_args, store),
	CLI_OPT_FROM(cli_table_args, eo.from),
	CLI_OPT_TO(cli_table_args, eo.to),
	CLI_OPT_TABLE_FORMAT(cli_table_args, format),
	CLI_OPT_REAL(cli_table_args, tp.rename, 0, "rename", "R", 1e-9, 1,
		     "the rename threshold given to 'maintevo track' (default\n"
		     "0.8): which stored results to read"),
	CLI_OPT_EXCEL_SAFE(cli_table_args, eo.excel_safe),
	CLI_OPT_OUT(cli_table_args, out),
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_section_changes_spec = {
	.name = "section-changes",
	.usage = CLI_USAGE("[--store DIR] [--from TAG] [--to TAG] [--format F]\n"
			   "[--excel-safe] [-o FILE]"),
	.about =
		"Write the section-level changes 'maintevo track' found between consecutive\n"
		"releases, in release order: the table 'maintevo export section_changes'\n"
		"writes (docs/schemas.md), as CSV by default\n"
		"  from_release,to_release,change,section,new_section,lines,coverage,\n"
		"  display_name,new_display_name\n"
		"change is added (section: the new title, lines: its lines in to_release),\n"
		"removed (section: the old title, lines: its lines in from_release) or\n"
		"renamed: a title that went away and a new title that covers at least 80%\n"
		"(track --rename) of its code; new_section is the new title and coverage the\n"
		"share of the old section's lines the new one covers.  With file tables the\n"
		"code is the files present in both releases; in imported stores it is\n"
		"estimated from the lines each section shared with the others (sections\n"
		"that share nothing are reported as removed and added).  Rows come by\n"
		"release pair, then added, removed, renamed, then title.  They do not depend\n"
		"on the clustering options.  Titles are the keys (the script's title lines):\n"
		"a change of display name alone (display_name, new_display_name) is no\n"
		"change, nor is a title that is not a name (a commented-out '#M:' line, an\n"
		"underline) replaced by a name over the same files, or the other way round\n"
		"under the same display name (docs/matching.md).",
	.options = options,
	.operands = 0,
};

int cmd_section_changes(int argc, char **argv)
{
	cli_table_args a;
	int argi, rc;

	cli_table_args_init(&a);
	if ((rc = cli_parse(&argi, &cmd_section_changes_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	/* section changes do not depend on the clustering: the default one */
	return cli_write_table("section-changes", a.store, MEV_EXPORT_SECTION_CHANGES, &a.eo, NULL,
			       &a.tp, a.format, a.out);
}
