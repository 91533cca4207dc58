/* maintevo releases: the releases of a store and their numbers (the releases table). */
#include "cli.h"
#include "maintevo/export.h"
#include "maintevo/release.h"

typedef struct {
	cli_table_args t;
	int names; /* --names: the tags only, one a line (for shell completion) */
} releases_args;

static const cli_option options[] = {
	CLI_OPT_STORE(releases_args, t.store),
	CLI_OPT_TABLE_FORMAT(releases_args, t.format),
	CLI_OPT_CLUSTER(releases_args, t.cluster),
	CLI_OPT_EXCEL_SAFE(releases_args, t.eo.excel_safe),
	CLI_OPT_OUT(releases_args, t.out),
	CLI_OPT_FLAG(releases_args, names, 0, "names", NULL), /* hidden: for completion */
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
		"version of maintevo's reading of them built it (0: imported).\n"
		"After 'maintevo flow', the listed people's headline (the last columns, empty\n"
		"before): listed_addresses (M:/R: entries that are addresses, per section),\n"
		"listed_never_seen, listed_quiet and listed_gone (the states of 'export\n"
		"listed' at 12 months), listed_quiet_24 and listed_gone_24 (at 24 months).",
	.options = options,
	.operands = 0,
};

/* --names: the stored tags in version order, one a line, nothing else:
 * what the bash completion offers after --release, --from and --to. */
static int print_names(const char *dir)
{
	mev_store *s = NULL;
	mev_release *list = NULL;
	size_t n = 0;
	if (mev_store_open(&s, dir, MEV_STORE_READ) || mev_release_list(&list, &n, s)) {
		mev_store_free(s);
		return cli_fail();
	}
	for (size_t i = 0; i < n; i++)
		cli_say(stdout, "%s\n", list[i].tag);
	mev_release_list_free(list, n);
	mev_store_free(s);
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

int cmd_releases(int argc, char **argv)
{
	releases_args a = { .names = 0 };
	int argi, rc;

	cli_table_args_init(&a.t);
	if ((rc = cli_parse(&argi, &cmd_releases_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if (a.names)
		return print_names(a.t.store);
	if ((rc = cli_cluster_finish(&a.t.cluster, "releases")))
		return rc;
	return cli_write_table("releases", a.t.store, MEV_EXPORT_RELEASES, &a.t.eo, &a.t.cluster.p,
			       &a.t.tp, a.t.format, a.t.out);
}
