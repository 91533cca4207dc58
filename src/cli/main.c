/* The maintevo command line: a table of commands, one file each. */
#include "cli.h"
#include "maintevo/version.h"

#include <stdio.h>
#include <string.h>

typedef struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} command;

static const command commands[] = {
	{ "filemap", cmd_filemap, "which sections cover each file of a release (CSV)" },
	{ "graph", cmd_graph, "the section overlap graph of a release (CSV, GraphML, JSON)" },
	{ "sections", cmd_sections, "the sections of a release and their patterns (CSV)" },
	{ "walk", cmd_walk, "walk every release of a repository into a store" },
	{ "releases", cmd_releases, "the releases of a store and their numbers (CSV)" },
	{ "store", cmd_store, "'store info': what a store holds and its size" },
	{ "import-pasta", cmd_import, "import the study's published section graphs into a store" },
	{ "cluster", cmd_cluster, "cluster the sections of every stored release (subsystems)" },
	{ "clusters", cmd_clusters, "the clusters of a stored release (CSV)" },
	{ "track", cmd_track, "link clusters across releases: splits, merges, lineages" },
	{ "events", cmd_events, "births, deaths, splits, merges ... between releases (CSV)" },
	{ "lineages", cmd_lineages, "the lineages of clusters over the whole history (CSV)" },
	{ "section-changes", cmd_section_changes, "sections added, removed, renamed (CSV)" },
	{ "report", cmd_report, "what changed between two releases (Markdown or HTML)" },
	{ "export", cmd_export, "tidy tables (CSV, JSON) and graphs (GraphML, DOT) of a store" },
};

static void usage(FILE *out)
{
	fprintf(out, "usage: maintevo <command> [options]\n\n"
		     "maintevo charts how the subsystems of a project with a kernel-style\n"
		     "MAINTAINERS file form, grow, split and merge across its releases.\n\n"
		     "commands:\n");
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		fprintf(out, "  %-16s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\nSee 'maintevo <command> --help' for the options of a command,\n"
		     "and 'man maintevo' for the whole manual.\n");
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	if (!name) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
		printf("maintevo %s\n", mev_version());
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (strcmp(name, commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "maintevo: error: '%s' is not a maintevo command\n"
			"hint: see 'maintevo --help' for the list of commands\n", name);
	return EXIT_USAGE;
}
