/* The maintevo command line: a table of commands, one file each. */
#include "cli.h"
#include "maintevo/store.h"
#include "maintevo/suggest.h"
#include "maintevo/version.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
	const cli_command *spec; /* its options and help (options.h) */
} command;

static const command commands[] = {
	{ "filemap", cmd_filemap, "which sections cover each file of a release (CSV)",
	  &cmd_filemap_spec },
	{ "graph", cmd_graph, "the section overlap graph of a release (CSV, GraphML, JSON)",
	  &cmd_graph_spec },
	{ "sections", cmd_sections, "the sections of a release and their patterns (CSV)",
	  &cmd_sections_spec },
	{ "walk", cmd_walk, "walk every release of a repository into a store", &cmd_walk_spec },
	{ "releases", cmd_releases, "the releases of a store and their numbers (CSV)",
	  &cmd_releases_spec },
	{ "store", cmd_store, "what a store holds ('info'), whether it is whole ('check', 'repair')",
	  &cmd_store_spec },
	{ "import-pasta", cmd_import, "import the study's published section graphs into a store",
	  &cmd_import_spec },
	{ "cluster", cmd_cluster, "cluster the sections of every stored release (subsystems)",
	  &cmd_cluster_spec },
	{ "clusters", cmd_clusters, "the clusters of a stored release (CSV)", &cmd_clusters_spec },
	{ "track", cmd_track, "link clusters across releases: splits, merges, lineages",
	  &cmd_track_spec },
	{ "events", cmd_events, "births, deaths, splits, merges ... between releases (CSV)",
	  &cmd_events_spec },
	{ "lineages", cmd_lineages, "the lineages of clusters over the whole history (CSV)",
	  &cmd_lineages_spec },
	{ "section-changes", cmd_section_changes, "sections added, removed, renamed (CSV)",
	  &cmd_section_changes_spec },
	{ "explain", cmd_explain, "why a lineage split, merged, grew ...; why a path is in a section",
	  &cmd_explain_spec },
	{ "flow", cmd_flow, "judge every commit: did it come through the maintainers MAINTAINERS names?",
	  &cmd_flow_spec },
	{ "history", cmd_history, "one path or one section over every release: sections, lineage",
	  &cmd_history_spec },
	{ "report", cmd_report, "what changed between two releases (Markdown or HTML)",
	  &cmd_report_spec },
	{ "chart", cmd_chart, "the whole history in one picture: lineages, splits, merges (HTML, SVG)",
	  &cmd_chart_spec },
	{ "export", cmd_export, "tidy tables (CSV, JSON) and graphs (GraphML, DOT) of a store",
	  &cmd_export_spec },
	{ "dialects", cmd_dialects, "the project families maintevo reads: names, release tags (CSV)",
	  &cmd_dialects_spec },
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

static const command *find(const char *name)
{
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
		if (strcmp(name, commands[i].name) == 0)
			return &commands[i];
	return NULL;
}

#define COMMAND_COUNT (sizeof commands / sizeof *commands)

static int not_a_command(const char *name)
{
	const char *names[COMMAND_COUNT + 2], *near;
	for (size_t i = 0; i < COMMAND_COUNT; i++)
		names[i] = commands[i].name;
	names[COMMAND_COUNT] = "help";
	names[COMMAND_COUNT + 1] = "version";
	near = mev_suggest(name, names, COMMAND_COUNT + 2);
	cli_say(stderr, "maintevo: error: '%s' is not a maintevo command%s%s%s\n"
			"hint: see 'maintevo --help' for the list of commands\n", name,
		near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
	return EXIT_USAGE;
}

/* maintevo help [COMMAND]: the general usage, or the help of COMMAND. */
static int help(int argc, char **argv)
{
	const command *c;

	if (argc < 2 || strcmp(argv[1], "help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc > 2) {
		cli_say(stderr, "maintevo: error: help: unexpected argument '%s'\n"
				"hint: 'maintevo help COMMAND' shows the help of one command\n", argv[2]);
		return EXIT_USAGE;
	}
	if (!(c = find(argv[1])))
		return not_a_command(argv[1]);
	cli_help_print(stdout, c->spec);
	return EXIT_OK;
}

/*
 * Descriptors 0, 1 and 2 open before anything else opens a file: one
 * started with them closed ("maintevo walk >&- 2>&-") would else give them
 * to the store's data.mdb or lock.mdb or to an output file, and the
 * progress line or the CSV meant for standard output would be written into
 * it.  A closed one is opened on /dev/null.  -1 when /dev/null cannot be
 * opened.
 */
static int std_fds_open(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int nfd;
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		/* the lowest free descriptor: fd itself, 0 .. fd - 1 being open */
		if ((nfd = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)) < 0)
			return -1;
		if (nfd != fd) {
			dup2(nfd, fd);
			close(nfd);
		}
	}
	return 0;
}

/* write() of a string; with `name`, its control characters as '?' (a
 * handler may not format). */
static void put_text(const char *s, int name)
{
	char buf[256];
	size_t n = 0;
	for (; s && *s; s++) {
		buf[n++] = name && ((unsigned char)*s < 0x20 || *s == 0x7f) ? '?' : *s;
		if (n == sizeof buf || !s[1]) {
			if (write(STDERR_FILENO, buf, n) < 0)
				return;
			n = 0;
		}
	}
}

/*
 * SIGBUS: a file read through a map (a store's data.mdb, a git pack) got
 * shorter while it was read, as when another program truncates it.  Say
 * so, with the store when the address is in one's map, remove the
 * temporary output file and exit 1 (not 135, with no word).
 */
static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	const char *dir = mev_store_fault_dir(si ? si->si_addr : NULL);
	(void)sig;
	(void)uc;
	cli_out_drop_temp();
	if (dir) {
		put_text("maintevo: error: the data file of store '", 0);
		put_text(dir, 1);
		put_text("' changed size while it was read (another program truncated or replaced "
			"it)\nhint: run 'maintevo store check --store ", 0);
		put_text(dir, 1);
		put_text("' to see whether it is whole (it says what to do if not); keep other "
			"programs out of the store's folder while maintevo uses it\n", 0);
	} else {
		put_text("maintevo: error: a file read through a map (a store's data.mdb or a git pack "
			"file) changed size while it was read\nhint: run 'maintevo store check' on the "
			"store, and the command again when nothing else writes to its files\n", 0);
	}
	_exit(EXIT_FAIL);
}

static void sigbus_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

int main(int argc, char **argv)
{
	const char *name = argc > 1 ? argv[1] : NULL;
	const command *c;

	if (std_fds_open() != 0) {
		/* stderr may be one of the closed ones: this may go nowhere */
		fprintf(stderr, "maintevo: error: cannot open /dev/null: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	sigbus_install();
	/* past the file size limit (ulimit -f) a write fails with EFBIG and is
	 * said in words, where SIGXFSZ killed the command with none */
	signal(SIGXFSZ, SIG_IGN);
	if (!name) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(name, "help") == 0)
		return help(argc - 1, argv + 1);
	if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
		printf("maintevo %s\n", mev_version());
		return EXIT_OK;
	}
	if ((c = find(name)))
		return c->run(argc - 1, argv + 1);
	return not_a_command(name);
}
