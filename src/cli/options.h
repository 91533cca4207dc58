/* Command options declared once, in a table that drives both parsing and --help. */
#ifndef MEV_CLI_OPTIONS_H
#define MEV_CLI_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

/*
 * How to declare a command's options
 * ==================================
 *
 * Each option is written once: its names, the name of its value, its help
 * text and what it sets.  The table gives getopt_long() its option list,
 * and 'maintevo CMD --help' and 'maintevo help CMD' their text.
 *
 * 1. Gather what the options set in one struct of the command (a shared
 *    group, such as cli_cluster_opts, is a member of it):
 *
 *        typedef struct {
 *            const char *store, *out;
 *            int keep_rest;
 *            long limit;
 *            mev_frob_format format;
 *            cli_cluster_opts cluster;
 *        } frob_args;
 *
 * 2. List the options in the order --help shows them.  CLI_OPT_STRING,
 *    _FLAG, _INT and _REAL check the member's type when compiling; a value
 *    that needs more than a range check (a format name, say) gets a
 *    callback, which prints its own error with cli_usage_error():
 *
 *        static int parse_format(void *field, const char *value,
 *                                const cli_option *opt, const char *cmd)
 *        {
 *            int f = mev_frob_format_parse(value);
 *            (void)opt;
 *            if (f < 0)
 *                return cli_usage_error(cmd, "unknown format '%s' (use a or b)", value);
 *            *(mev_frob_format *)field = (mev_frob_format)f;
 *            return 0;
 *        }
 *
 *        static const cli_option options[] = {
 *            CLI_OPT_STORE(frob_args, store),
 *            CLI_OPT_FLAG(frob_args, keep_rest, 0, "keep-rest",
 *                         "keep THE REST (left out by default)"),
 *            CLI_OPT_INT(frob_args, limit, 'n', "limit", "N", 1, 1000,
 *                        "at most N rows (default: all);\n"
 *                        "a second line of help starts with \\n"),
 *            CLI_OPT_CALL(frob_args, format, 'f', "format", "F", parse_format,
 *                         "a (default) or b"),
 *            CLI_OPT_OUT(frob_args, out),
 *            CLI_OPT_HELP,
 *            CLI_OPT_GROUP(frob_args, cluster, cli_cluster_options,
 *                          "the clustering to read (as given to 'maintevo cluster'):"),
 *            CLI_OPT_END
 *        };
 *
 *    Letters are 0 for none; a NULL value name ("DIR") means the option
 *    takes no value.  Help lines are laid out as today's: the option at
 *    column 3, its text at column 22, each '\n' in the text starting an
 *    indented continuation line (break them by hand at about 80 columns).
 *    CLI_OPT_GROUP includes a shared table (cli_release_options over a
 *    cli_release_opts, cli_cluster_options over a cli_cluster_opts); its
 *    heading, when not NULL, is a line of its own above its options.
 *    CLI_OPT_QUIET sets cli_quiet; CLI_OPT_STRINGS collects a repeatable
 *    option into a cli_strings (walk's --tags: "at most 64 --tags").
 *    An option's help may differ between commands (walk's --store says
 *    "created if needed"): write its CLI_OPT_STRING instead of the macro.
 *    What comes from the table of dialects is written as a word the help
 *    printer replaces (cli_help_expand()): "auto (default), %DIALECTS%"
 *    prints "auto (default), " and the name of every row of MEV_DIALECTS
 *    (include/maintevo/dialect.h), the last after "or".  A help text or
 *    a paragraph of .about holding one is filled again after the
 *    replacement (its hand breaks dropped), so write it as one line.
 *    A name or letter listed twice (a command's own -j next to
 *    cli_release_options' one) fails at once, on the first run.
 *
 * 3. Describe the command.  Not static: main.c's command table points at
 *    it so that 'maintevo help frob' works; declare it in cli.h.
 *
 *        const cli_command cmd_frob_spec = {
 *            .name = "frob",
 *            .usage = CLI_USAGE("--store DIR [-n N] [--format a|b]\n"
 *                               "[-o FILE] [--method M ...]",
 *                               "--store DIR --other-form"),
 *            .about = "Frob the store: one paragraph or more, without the\n"
 *                     "final newline.",
 *            .options = options,
 *            .operands = 0,
 *        };
 *
 *    Each CLI_USAGE string is one synopsis ("usage: maintevo frob ..."
 *    is added); a '\n' in it continues the synopsis on an indented line.
 *    .operands is how many arguments may follow the options (-1: any
 *    number); more are an "unexpected argument" error.
 *
 * 4. Parse:
 *
 *        frob_args a = { .store = "maintevo.store" };   (the defaults)
 *        int argi, rc;
 *
 *        cli_cluster_init(&a.cluster);
 *        if ((rc = cli_parse(&argi, &cmd_frob_spec, &a, argc, argv)) != CLI_RUN)
 *            return rc;
 *        ... argv[argi] .. argv[argc - 1] are the operands ...
 *        if ((rc = cli_cluster_finish(&a.cluster, "frob")))
 *            return rc;
 *
 *    cli_parse() returns EXIT_OK after --help (the help printed),
 *    EXIT_USAGE after a usage error (the message and hint printed), and
 *    CLI_RUN when the command should go on.
 *
 * 5. In main.c, give the command an entry in the table: its name, its
 *    function, its one-line summary for 'maintevo --help', &cmd_frob_spec.
 *    A command with a subcommand word ('store info') takes the word off
 *    itself and parses argc - 1, argv + 1 (see cmd_store.c).
 */

/* cli_parse(): the options are good, run the command. */
#define CLI_RUN (-1)

typedef struct cli_option cli_option;

/*
 * A callback option: set *field from value (NULL for an option without a
 * value).  Returns 0, or EXIT_USAGE after printing the error with
 * cli_usage_error(cmd, ...).
 */
typedef int (*cli_option_fn)(void *field, const char *value, const cli_option *opt, const char *cmd);

typedef enum {
	CLI_END,     /* ends a table */
	CLI_STRING,  /* const char *: the value as given */
	CLI_STRINGS, /* cli_strings: the value appended (a repeatable option) */
	CLI_FLAG,    /* int: set to 1 */
	CLI_INT,     /* int, long, long long: a whole number in [min, max] */
	CLI_LONG,
	CLI_LLONG,
	CLI_REAL,    /* double: a number in [min, max] */
	CLI_CALL,    /* fn() does what it takes */
	CLI_HELP,    /* print the command's help, stop with EXIT_OK */
	CLI_GROUP,   /* the options of another table, over the member at offset */
} cli_option_type;

struct cli_option {
	cli_option_type type;
	char letter;             /* short option: 'o' for -o; 0: none */
	const char *name;        /* long option without "--"; NULL: none */
	const char *value;       /* the value's name in --help ("DIR"); NULL: no value */
	const char *help;        /* the text in --help (CLI_GROUP: its heading); NULL: none */
	size_t offset;           /* of the member set, in the command's struct */
	double min, max;         /* CLI_INT.., CLI_REAL: the values taken */
	cli_option_fn fn;        /* CLI_CALL */
	const cli_option *group; /* CLI_GROUP */
};

/* The values of a repeatable option, in the order given. */
#define CLI_STRINGS_MAX 64
typedef struct {
	const char *v[CLI_STRINGS_MAX];
	size_t n;
} cli_strings;

/* A command: its synopsis, what it does, its options. */
typedef struct {
	const char *name;                /* as typed: "report" */
	const char *const *usage;        /* CLI_USAGE(...): the synopses after "maintevo NAME " */
	const char *about;               /* paragraphs between usage and options; NULL: none */
	const cli_option *options;       /* ends with CLI_OPT_END */
	int operands;                    /* arguments after the options, at most (-1: any) */
} cli_command;

#define CLI_USAGE(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* Type checks: the member's type chooses the entry's type, or the build fails. */
#define CLI__MEMBER(T, field) (((T *)0)->field)
#define CLI__FIELD(T, field) .offset = offsetof(T, field)

#define CLI_OPT_STRING(T, field, letter_, name_, value_, help_) \
	{ .type = _Generic(CLI__MEMBER(T, field), const char *: CLI_STRING), .letter = (letter_), \
	  .name = (name_), .value = (value_), .help = (help_), CLI__FIELD(T, field) }
#define CLI_OPT_STRINGS(T, field, letter_, name_, value_, help_) \
	{ .type = _Generic(CLI__MEMBER(T, field), cli_strings: CLI_STRINGS), .letter = (letter_), \
	  .name = (name_), .value = (value_), .help = (help_), CLI__FIELD(T, field) }
#define CLI_OPT_FLAG(T, field, letter_, name_, help_) \
	{ .type = _Generic(CLI__MEMBER(T, field), int: CLI_FLAG), .letter = (letter_), \
	  .name = (name_), .help = (help_), CLI__FIELD(T, field) }
#define CLI_OPT_INT(T, field, letter_, name_, value_, min_, max_, help_) \
	{ .type = _Generic(CLI__MEMBER(T, field), int: CLI_INT, long: CLI_LONG, long long: CLI_LLONG), \
	  .letter = (letter_), .name = (name_), .value = (value_), .help = (help_), \
	  CLI__FIELD(T, field), .min = (min_), .max = (max_) }
#define CLI_OPT_REAL(T, field, letter_, name_, value_, min_, max_, help_) \
	{ .type = _Generic(CLI__MEMBER(T, field), double: CLI_REAL), .letter = (letter_), \
	  .name = (name_), .value = (value_), .help = (help_), CLI__FIELD(T, field), \
	  .min = (min_), .max = (max_) }
#define CLI_OPT_CALL(T, field, letter_, name_, value_, fn_, help_) \
	{ .type = CLI_CALL, .letter = (letter_), .name = (name_), .value = (value_), \
	  .help = (help_), CLI__FIELD(T, field), .fn = (fn_) }
#define CLI_OPT_GROUP(T, field, table, heading) \
	{ .type = CLI_GROUP, .help = (heading), CLI__FIELD(T, field), .group = (table) }
#define CLI_OPT_END { .type = CLI_END }

/* The options most commands share, with their usual help. */
#define CLI_OPT_HELP { .type = CLI_HELP, .letter = 'h', .name = "help", .help = "show this help" }
#define CLI_OPT_STORE(T, field) \
	CLI_OPT_STRING(T, field, 0, "store", "DIR", "the store (default: ./maintevo.store)")
#define CLI_OPT_OUT(T, field) \
	CLI_OPT_STRING(T, field, 'o', "out", "FILE", "write to FILE instead of standard output")
/* -q, --quiet: sets cli_quiet (not a member of the command's struct). */
int cli_set_quiet(void *field, const char *value, const cli_option *opt, const char *cmd);
#define CLI_OPT_QUIET \
	{ .type = CLI_CALL, .letter = 'q', .name = "quiet", \
	  .help = "no progress line and no summary", .fn = cli_set_quiet }
/* A dialect name (mev_dialect_parse()) into a mev_dialect, for a --dialect
 * whose help differs from cli_release_options' one (walk's).  The error
 * lists the names of the table of dialects. */
int cli_parse_dialect(void *field, const char *value, const cli_option *opt, const char *cmd);

/* The table of dialects (MEV_DIALECTS) in words, for help texts and
 * messages: every row in table order, "auto" not among them. */
typedef enum {
	CLI_DIALECT_NAMES,    /* "linux, uboot, ... or <the last>" */
	CLI_DIALECT_PROJECTS, /* "Linux, U-Boot, ...": mev_dialect_display() */
	CLI_DIALECT_TAGS      /* "linux vX.Y and vX.Y.Z, uboot vYYYY.MM, ..." */
} cli_dialect_list;

/* The list into buf (always NUL-terminated, cut when too long); returns
 * buf.  Defined in help.c. */
const char *cli_dialect_words(char *buf, size_t size, cli_dialect_list what);

/*
 * Help text with its generated words replaced, into buf (always
 * NUL-terminated): %DIALECTS%, %DIALECT_PROJECTS% and %DIALECT_TAGS% by the
 * lists of cli_dialect_words().  Returns 0, buf untouched, when text has
 * none of them; 1 otherwise.  Defined in help.c.
 */
int cli_help_expand(char *buf, size_t size, const char *text);

/* --repo, --rev, --dialect, --top-level-only, --warnings, -j, --stats: over a cli_release_opts. */
extern const cli_option cli_release_options[];
/* --link, --match, --absorb, --growth, --rename, --tracking: over a mev_track_params. */
extern const cli_option cli_track_options[];
/* -m/--method, --steps, --resolution, --seed, --top-fraction, --smooth: over a cli_cluster_opts. */
extern const cli_option cli_cluster_options[];

/*
 * Parse the options of command c in argv[1] .. argv[argc - 1] (argv[0] is
 * the command's name) into the struct at args.  *argi is set to the index
 * of the first operand: like getopt_long(), options may come after
 * operands, and abbreviations of long options are taken.  Returns CLI_RUN
 * when the command should go on, EXIT_OK after printing the help
 * (-h, --help), EXIT_USAGE after printing a usage error: an unknown option,
 * a missing or bad value, too many operands.
 */
int cli_parse(int *argi, const cli_command *c, void *args, int argc, char **argv);

/* The help of command c: synopsis, description, options. */
void cli_help_print(FILE *out, const cli_command *c);

#endif
