/* Shared pieces of the maintevo commands. */
#ifndef MEV_CLI_H
#define MEV_CLI_H

#include <stdio.h>
#include "maintevo/repo.h"
#include "maintevo/maintainers.h"
#include "maintevo/filemap.h"
#include "maintevo/export.h"
#include "maintevo/progress.h"
#include "options.h"

/* Exit codes. */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* "maintevo: error: <last error>" and its hint on stderr; returns EXIT_FAIL. */
int cli_fail(void);
/* A usage error for command `cmd`; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The usage error for what getopt_long() rejected: c is ':' for a missing
 * value (optstrings start with ':'), '?' for an unknown option. */
int cli_bad_option(const char *cmd, int c, int argc, char **argv);
/* A note on stderr ("maintevo: ..."), unless quiet. */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
extern int cli_quiet;

/* Options shared by the commands that read one release from git. */
typedef struct {
	const char *repo;
	const char *rev;
	mev_rules_options rules;
	int warnings;  /* print each MAINTAINERS diagnostic */
	int stats;     /* print where the time went */
	int jobs;
} cli_release_opts;

/* One release read from git: repository, tree, rules and sections. */
typedef struct {
	mev_repo *repo;
	mev_oid commit;
	mev_tree *tree;
	mev_rules rules;
	mev_maint *maint;
	double t_start, t_tree, t_parse; /* seconds, for --stats */
} cli_release;

/* Parse a shared option; returns 1 when `opt` was one, 0 when not, or
 * EXIT_USAGE after printing an error.  (getopt commands; those on option
 * tables include cli_release_options instead.) */
int cli_release_option(cli_release_opts *o, const char *cmd, int opt, const char *arg);
/* Open, resolve, load and parse.  Prints the error and returns EXIT_FAIL. */
int cli_release_load(cli_release *r, const cli_release_opts *o, const char *cmd);
/* Print (with --warnings) or count the MAINTAINERS diagnostics. */
void cli_report_diags(const mev_maint *m, int print);
void cli_release_free(cli_release *r);
/* With --stats: one line on stderr with the timings of a filemap build. */
void cli_print_stats(const cli_release *r, const mev_filemap_stats *st);
double cli_now(void);

/* Open --out (or stdout for NULL / "-"); NULL after printing an error. */
FILE *cli_open_out(const char *path);
/* Flush and close; prints an error and returns EXIT_FAIL on failure. */
int cli_close_out(FILE *f, const char *path);

/*
 * The end of every table command ('export TABLE' and the short commands
 * that print the same tables): parse `format` (NULL: csv), open store
 * `dir`, write table t to out_path (standard output for NULL or "-");
 * a table that fails leaves no file behind.  Returns the exit code.
 * Defined in cmd_export.c.
 */
int cli_write_table(const char *cmd, const char *dir, mev_export_table_id t,
		    mev_export_options *opt, const char *format, const char *out_path);

/* A value of option `opt` in [min, max]; 0, or EXIT_USAGE after printing the error. */
int cli_parse_int(const char *cmd, const char *opt, const char *arg, long min, long max, long *out);
int cli_parse_real(const char *cmd, const char *opt, const char *arg, double min, double max,
		   double *out);

/*
 * Ctrl-C during a long call.  cli_sigint_install() clears the flags and
 * takes SIGINT over: the first Ctrl-C sets cli_stop (hand it to the call as
 * its stop flag: it stops after the release in hand, everything before it
 * committed) and prints "maintevo: <note>" when note is not NULL; the
 * second sets cli_stop_now (for calls that can stop at once, such as
 * mev_walk's abort_now).  cli_sigint_restore() puts back what was there.
 * One at a time: the previous handler is kept in a static.
 */
extern volatile int cli_stop, cli_stop_now;
void cli_sigint_install(const char *note);
void cli_sigint_restore(void);

/*
 * The progress line of a long call on standard error: "[i/n] what",
 * rewritten in place; only on a terminal and not with --quiet.
 * cli_progress() and cli_progress_note() fit mev_progress (progress.h);
 * cli_progress_init() fills one with them and &cli_stop.  Clear the line
 * with cli_progress_end() before printing the summary.
 */
void cli_progress(void *ctx, size_t index, size_t total, const char *what);
/* "maintevo: text" on a line of its own (the progress line cleared); not with --quiet. */
void cli_progress_note(void *ctx, const char *text);
void cli_progress_init(mev_progress *p);
void cli_progress_end(void);

/* The option letters of the shared release options (for getopt_long), and
 * their help: for the commands not yet on cli_release_options (options.h). */
#define CLI_RELEASE_LONGOPTS \
	{ "repo", required_argument, NULL, 'r' }, \
	{ "rev", required_argument, NULL, 'v' }, \
	{ "dialect", required_argument, NULL, 'D' }, \
	{ "top-level-only", no_argument, NULL, 'T' }, \
	{ "warnings", no_argument, NULL, 'W' }, \
	{ "jobs", required_argument, NULL, 'j' }, \
	{ "stats", no_argument, NULL, 'S' }

#define CLI_RELEASE_HELP \
	"  --repo PATH        the git repository (work tree or bare)\n" \
	"  --rev REV          the release: a tag, branch or commit id\n" \
	"  --dialect D        auto (default), linux, uboot, xen or qemu\n" \
	"  --top-level-only   read only the top-level MAINTAINERS file, even where the\n" \
	"                     tree's .get_maintainer.conf asks for all of them (U-Boot)\n" \
	"  --warnings         print every note about MAINTAINERS content as file:line\n" \
	"  -j, --jobs N       reader threads (default: one per core)\n" \
	"  --stats            print where the time went on standard error\n"

int cmd_filemap(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_sections(int argc, char **argv);
int cmd_walk(int argc, char **argv);
int cmd_releases(int argc, char **argv);
int cmd_store(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_cluster(int argc, char **argv);
int cmd_clusters(int argc, char **argv);
int cmd_track(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_lineages(int argc, char **argv);
int cmd_section_changes(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* The option tables of the commands converted to options.h, for 'maintevo help CMD'. */
extern const cli_command cmd_report_spec;

#endif
