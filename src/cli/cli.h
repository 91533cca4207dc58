/* Shared pieces of the maintevo commands. */
#ifndef MEV_CLI_H
#define MEV_CLI_H

#include <stdio.h>
#include "maintevo/repo.h"
#include "maintevo/maintainers.h"
#include "maintevo/filemap.h"
#include "maintevo/export.h"
#include "maintevo/progress.h"
#include "maintevo/table.h"
#include "options.h"
#include "cluster_opts.h"

/* Exit codes. */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* "maintevo: error: <last error>" and its hint on stderr; returns EXIT_FAIL. */
int cli_fail(void);
/* A usage error for command `cmd`; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
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

/* Open, resolve, load and parse.  Prints the error and returns EXIT_FAIL. */
int cli_release_load(cli_release *r, const cli_release_opts *o, const char *cmd);
/* Print (with --warnings) or count the MAINTAINERS diagnostics. */
void cli_report_diags(const mev_maint *m, int print);
void cli_release_free(cli_release *r);
/* With --stats: one line on stderr with the timings of a filemap build. */
void cli_print_stats(const cli_release *r, const mev_filemap_stats *st);
double cli_now(void);

/*
 * Where a command writes (-o/--out), defined in output.c; every command
 * that writes a file goes through it.  Standard output for NULL or "-".
 * A regular file, or a name that does not exist yet, is written to a
 * temporary file ".NAME.maintevo-tmp.XXXXXX" in the same folder (with the
 * mode the file has, or the one a new file gets under the umask), locked
 * (flock) while it is written, and renamed into place by
 * cli_out_commit(): a command that fails leaves the file as it was, and
 * Ctrl-C removes the temporary file.  One that a killed run left (its lock
 * free) is removed by the next run writing NAME, with a note.  Through a symbolic link, the file it
 * leads to is replaced and the link kept.  Anything else (/dev/null, a
 * FIFO, a terminal, /dev/stdout) is written directly and never removed.
 * What goes to a terminal shows control characters as escapes (cli_say()).
 */
typedef struct {
	FILE *f;            /* write here */
	const char *path;   /* as given; NULL: standard output */
	char *target;       /* the file the temporary file replaces */
	char *tmp;          /* the temporary file; NULL when writing directly */
	FILE *tty;          /* a terminal f's filter writes to; NULL: none */
} cli_out;

/* EXIT_OK, or EXIT_FAIL after printing the error (nothing to undo).
 * Refused before anything is written: a file of the command's store (by
 * device and inode: links and ".." too) or a file in the folder of any
 * store (one holding data.mdb, lock.mdb or walk.lock). */
int cli_out_open(cli_out *o, const char *path);
/* From a handler of a signal that ends the run (async-signal-safe):
 * remove the temporary file in hand, if any. */
void cli_out_drop_temp(void);
/* The store of the command in hand (NULL: none), for cli_out_open()'s
 * refusal; cli_parse() sets it from the command's --store. */
void cli_out_guard_store(const char *dir);
/* Flush, close, rename into place: EXIT_OK, or EXIT_FAIL after printing
 * the error (the temporary file removed, the target as it was). */
int cli_out_commit(cli_out *o);
/* After a failure: close and remove the temporary file; prints nothing
 * but the error of a write to it that failed (a full disk). */
void cli_out_abort(cli_out *o);
/* The command failed while writing o: print its error once (the write
 * that failed, when one did: a full disk, with its hint; else the last
 * error), then cli_out_abort().  Returns EXIT_FAIL. */
int cli_out_fail(cli_out *o);

/*
 * Formatted text on f with control characters shown as escapes (ESC as
 * "\x1b": mev_table_term_str()), so that a title, tag or pattern holding a
 * terminal escape sequence cannot drive the terminal: every message,
 * warning and note goes through it.
 */
void cli_say(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The end of every table command ('export TABLE' and the short commands
 * that print the same tables): parse `format` (NULL: csv), open store
 * `dir` and its tracked history for the clustering cp and the thresholds
 * tp (NULL: the defaults), as opt->history, write table t to out_path
 * (standard output for NULL or "-"); a table that fails leaves no file
 * behind.  Returns the exit code.  Defined in tables.c, as are the other
 * helpers of the table commands.
 */
int cli_write_table(const char *cmd, const char *dir, mev_export_table_id t, mev_export_options *opt,
		    const mev_cluster_params *cp, const mev_track_params *tp, const char *format,
		    const char *out_path);
/* What cli_write_table() does once the format is known, for any writer:
 * write(s, h, opt, f) with store `dir` open to read, h its tracked history
 * for cp and tp (opened once, for every reader of the command) and f the
 * output (cli_out_open() of out_path); the output is left as it was when
 * write fails.  Returns the exit code. */
int cli_write_store(const char *dir, const mev_cluster_params *cp, const mev_track_params *tp,
		    const char *out_path,
		    int (*write)(mev_store *s, mev_history *h, const void *opt, FILE *out), const void *opt);

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
 * The progress bar of a long call on standard error, rewritten in place
 * (at most ten times a second), only on a terminal and not with --quiet:
 *     [#########---------------] 30/78 v2016.05  ETA 0m41s
 * the units done (index - 1 of total), what is in hand (cut to the
 * terminal's width) and the time left at the pace so far, from the first
 * unit on; nothing at all when standard error is not a terminal, so logs
 * and cron mail stay as they were.  cli_progress() and cli_progress_note()
 * fit mev_progress (progress.h); cli_progress_init() fills one with them
 * and &cli_stop, and starts a new bar (so does index 1).  A command whose
 * call knows its time left better (walk: by files) passes it to
 * cli_progress_eta() (eta < 0: estimate it here).  Clear the line with
 * cli_progress_end() before printing the summary.
 */
void cli_progress(void *ctx, size_t index, size_t total, const char *what);
void cli_progress_eta(size_t index, size_t total, const char *what, double eta);
/* "maintevo: text" on a line of its own (the progress line cleared); not with --quiet. */
void cli_progress_note(void *ctx, const char *text);
void cli_progress_init(mev_progress *p);
void cli_progress_end(void);

/*
 * The options of the table commands (releases, clusters, events, lineages,
 * section-changes): they print the tables of 'export' (cli_write_table()).
 */
typedef struct {
	const char *store, *format, *out;
	mev_export_options eo;
	cli_cluster_opts cluster;
	mev_track_params tp; /* the tracker's thresholds */
} cli_table_args;

/* store "maintevo.store", no format (csv), standard output, the default
 * clustering.  Defined in tables.c, next to cli_write_table(). */
void cli_table_args_init(cli_table_args *a);

#define CLI_OPT_TABLE_FORMAT(T, field) \
	CLI_OPT_STRING(T, field, 'f', "format", "F", \
		       "csv (default), json (one array of objects) or jsonl")
#define CLI_OPT_FROM(T, field) \
	CLI_OPT_STRING(T, field, 0, "from", "TAG", "only pairs whose from_release is TAG or later")
#define CLI_OPT_TO(T, field) \
	CLI_OPT_STRING(T, field, 0, "to", "TAG", "only pairs whose to_release is TAG or earlier")
/* CSV for a spreadsheet (mev_table_excel_safe()): not the default, as it
 * changes the data for every other reader. */
#define CLI_OPT_EXCEL_SAFE(T, field) \
	CLI_OPT_FLAG(T, field, 0, "excel-safe", \
		     "csv: a ' before text starting with = + - @ (which a\n" \
		     "spreadsheet would run as a formula)")
/* --excel-safe with a format that is not CSV: a usage error of cmd (the
 * return value, EXIT_USAGE); 0 when it goes.  Every command writing a
 * table takes --excel-safe and checks it here.  Defined in tables.c. */
int cli_excel_check(const char *cmd, int excel_safe, int csv);
/* --method and the other clustering options, without a heading. */
#define CLI_OPT_CLUSTER(T, field) CLI_OPT_GROUP(T, field, cli_cluster_options, NULL)
/* The tracker's thresholds (--link, ...), naming which tracking results to read. */
#define CLI_OPT_TRACK(T, field) CLI_OPT_GROUP(T, field, cli_track_options, NULL)

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
int cmd_chart(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_flow(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_dialects(int argc, char **argv);

/* The option tables of the commands (options.h), for 'maintevo help CMD'. */
extern const cli_command cmd_filemap_spec, cmd_graph_spec, cmd_sections_spec, cmd_walk_spec;
extern const cli_command cmd_releases_spec, cmd_store_spec, cmd_import_spec, cmd_cluster_spec;
extern const cli_command cmd_clusters_spec, cmd_track_spec, cmd_events_spec, cmd_lineages_spec;
extern const cli_command cmd_section_changes_spec, cmd_export_spec, cmd_report_spec,
	cmd_chart_spec;
extern const cli_command cmd_explain_spec, cmd_flow_spec, cmd_history_spec, cmd_dialects_spec;

#endif
