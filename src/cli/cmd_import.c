/* maintevo import-pasta: the study's published section graphs as releases of a store. */
#include "cli.h"
#include "maintevo/import.h"

typedef struct {
	const char *store;
} import_args;

static const cli_option options[] = {
	CLI_OPT_STRING(import_args, store, 0, "store", "DIR",
		       "the store (default: ./maintevo.store; created if needed)"),
	CLI_OPT_QUIET,
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_import_spec = {
	.name = "import-pasta",
	.usage = CLI_USAGE("[--store DIR] CSVDIR"),
	.about =
		"Import the section graphs of the original study's tool (PaStA), one file\n"
		"per release in CSVDIR named after its tag (TAG.csv, or TAG.csv.zst compressed\n"
		"with zstd), with rows 'from,to,lines,size': two sections and the lines and\n"
		"bytes of the files both cover (from == to: the section's own size; THE REST\n"
		"included).  Each file becomes a release of the store, in version order,\n"
		"with its sections and overlap graph but no file table; a release already\n"
		"there is replaced.  'maintevo cluster' and 'maintevo track' then work on\n"
		"them as on walked releases (tracking falls back to section titles, see\n"
		"docs/tracking.md).  A store made by an import cannot be walked into, and\n"
		"the other way round.\n"
		"\n"
		"  maintevo import-pasta --store linux.store ../shared/data/linux-pasta/section_graph",
	.options = options,
	.operands = 1,
};

int cmd_import(int argc, char **argv)
{
	import_args a = { .store = "maintevo.store" };
	mev_progress pr;
	mev_import_result res;
	int argi, rc;

	if ((rc = cli_parse(&argi, &cmd_import_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if (argi >= argc)
		return cli_usage_error("import-pasta", "say which directory to import (CSVDIR)");
	cli_progress_init(&pr);
	cli_sigint_install(NULL);
	rc = mev_import_pasta(&res, a.store, argv[argi], &pr);
	cli_sigint_restore();
	cli_progress_end();
	if (rc)
		return cli_fail();
	cli_note("%zu release%s imported (%zu replaced) from '%s' in %.2f s", res.imported,
		 res.imported == 1 ? "" : "s", res.replaced, argv[argi], res.seconds);
	return EXIT_OK;
}
