/* Option tables: parsing with getopt_long() and the --help text, from one declaration. */
#include "cli.h"
#include "cluster_opts.h"
#include "options.h"

#include "maintevo/suggest.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* More than any command has; cli_parse() says so when a table outgrows it. */
#define MAX_OPTIONS 64

/* The help text starts at this column (0-based), as the hand-written texts did. */
#define HELP_COLUMN 21

/* Generated help (cli_help_expand()) is filled as the hand-broken texts
 * are: an option's text up to column 79, a paragraph of the about to 80. */
#define HELP_WIDTH 79
#define ABOUT_WIDTH 80

/* An option of a command with its groups opened: where its member is. */
typedef struct {
	const cli_option *o;
	size_t offset; /* of the member, from the start of the command's struct */
} flat_option;

typedef struct {
	flat_option v[MAX_OPTIONS];
	size_t n;
	struct option longopts[MAX_OPTIONS + 1];
	char optstring[2 * MAX_OPTIONS + 2];
	signed char by_letter[128]; /* index into v, -1: no such letter */
} option_set;

/* A mistake in a table, not in the command line: says so and fails. */
static int table_error(const cli_command *c, const char *what, const cli_option *o)
{
	fprintf(stderr, "maintevo: error: %s: the option table %s", c->name, what);
	if (o && o->name)
		fprintf(stderr, " ('--%s')", o->name);
	else if (o && o->letter)
		fprintf(stderr, " ('-%c')", o->letter);
	fputc('\n', stderr);
	return EXIT_FAIL;
}

static int flatten(option_set *set, const cli_command *c, const cli_option *t, size_t base)
{
	for (; t->type != CLI_END; t++) {
		if (t->type == CLI_GROUP) {
			int rc = flatten(set, c, t->group, base + t->offset);
			if (rc)
				return rc;
			continue;
		}
		if (set->n == MAX_OPTIONS)
			return table_error(c, "has too many options: raise MAX_OPTIONS", NULL);
		set->v[set->n].o = t;
		set->v[set->n].offset = base + t->offset;
		set->n++;
	}
	return 0;
}

/* getopt_long()'s view of the set.  Long options return 256 + their index,
 * so that a getopt error naming a long option (optopt) is told apart from
 * one naming a letter. */
static int build(option_set *set, const cli_command *c)
{
	size_t nl = 0, ns = 0;
	int rc;

	memset(set->by_letter, -1, sizeof set->by_letter);
	set->n = 0;
	if ((rc = flatten(set, c, c->options, 0)))
		return rc;
	set->optstring[ns++] = ':'; /* ':' for a missing value, not '?' */
	for (size_t i = 0; i < set->n; i++) {
		const cli_option *o = set->v[i].o;
		unsigned char l = (unsigned char)o->letter;
		if (!o->name && !l)
			return table_error(c, "has an option without a name", NULL);
		for (size_t j = 0; j < i && o->name; j++)
			if (set->v[j].o->name && strcmp(set->v[j].o->name, o->name) == 0)
				return table_error(c, "lists an option twice", o);
		if (l) {
			if (l >= 128 || !((l >= 'a' && l <= 'z') || (l >= 'A' && l <= 'Z') ||
					  (l >= '0' && l <= '9')))
				return table_error(c, "has a short option that is not a letter", o);
			if (set->by_letter[l] >= 0)
				return table_error(c, "lists a short option twice", o);
			set->by_letter[l] = (signed char)i;
			set->optstring[ns++] = (char)l;
			if (o->value)
				set->optstring[ns++] = ':';
		}
		if (o->name) {
			set->longopts[nl].name = o->name;
			set->longopts[nl].has_arg = o->value ? required_argument : no_argument;
			set->longopts[nl].flag = NULL;
			set->longopts[nl].val = 256 + (int)i;
			nl++;
		}
	}
	set->optstring[ns] = '\0';
	memset(&set->longopts[nl], 0, sizeof set->longopts[nl]);
	return 0;
}

/* "--name", or "-x" for an option with only a letter. */
static const char *display_name(char *buf, size_t size, const cli_option *o)
{
	if (o->name)
		snprintf(buf, size, "--%s", o->name);
	else
		snprintf(buf, size, "-%c", o->letter);
	return buf;
}

/* The long option of the set that "--name" (or "--name=value") is a typo
 * of, or NULL. */
static const char *near_option(const option_set *set, const char *arg)
{
	const char *names[MAX_OPTIONS];
	char word[128];
	size_t n = 0;
	if (strncmp(arg, "--", 2) != 0)
		return NULL;
	snprintf(word, sizeof word, "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
	for (size_t i = 0; i < set->n; i++)
		if (set->v[i].o->name)
			names[n++] = set->v[i].o->name;
	return mev_suggest(word, names, n);
}

/* "--name" abbreviates two or more long options of the set. */
static int ambiguous(const option_set *set, const char *arg)
{
	size_t len = strcspn(arg, "="), n = 0;
	if (strncmp(arg, "--", 2) != 0 || len <= 2)
		return 0;
	for (size_t i = 0; i < set->n; i++)
		n += set->v[i].o->name && strncmp(set->v[i].o->name, arg + 2, len - 2) == 0;
	return n >= 2;
}

/* The usage error for what getopt_long() rejected: ch is ':' for a missing
 * value (the optstring starts with ':'), '?' for an unknown option. */
static int bad_option(const option_set *set, const char *cmd, int ch, int argc, char **argv)
{
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "?", *near;
	if (ch == ':')
		return cli_usage_error(cmd, "option '%s' needs a value", arg);
	if (optopt)
		return cli_usage_error(cmd, "unknown option '-%c'", optopt);
	if (ambiguous(set, arg))
		return cli_usage_error(cmd, "option '%s' is ambiguous (an abbreviation of two or more "
				       "options)", arg);
	if ((near = near_option(set, arg)))
		return cli_usage_error(cmd, "unknown option '%s'; did you mean '--%s'?", arg, near);
	return cli_usage_error(cmd, "unknown option '%s'", arg);
}

/* Do what one option says; CLI_RUN to go on, else the exit code. */
static int apply(const cli_command *c, void *args, const flat_option *f, const char *value)
{
	const cli_option *o = f->o;
	void *field = (char *)args + f->offset;
	char name[64];
	long n = 0;
	double d = 0;

	switch (o->type) {
	case CLI_STRING:
		*(const char **)field = value;
		break;
	case CLI_STRINGS: {
		cli_strings *l = field;
		if (l->n == CLI_STRINGS_MAX)
			return cli_usage_error(c->name, "at most %d %s", CLI_STRINGS_MAX,
					       display_name(name, sizeof name, o));
		l->v[l->n++] = value;
		break;
	}
	case CLI_FLAG:
		*(int *)field = 1;
		break;
	case CLI_INT:
	case CLI_LONG:
	case CLI_LLONG:
		if (cli_parse_int(c->name, display_name(name, sizeof name, o), value, (long)o->min,
				  (long)o->max, &n))
			return EXIT_USAGE;
		if (o->type == CLI_INT)
			*(int *)field = (int)n;
		else if (o->type == CLI_LONG)
			*(long *)field = n;
		else
			*(long long *)field = n;
		break;
	case CLI_REAL:
		if (cli_parse_real(c->name, display_name(name, sizeof name, o), value, o->min, o->max, &d))
			return EXIT_USAGE;
		*(double *)field = d;
		break;
	case CLI_CALL:
		if (o->fn(field, value, o, c->name))
			return EXIT_USAGE;
		break;
	case CLI_HELP:
		cli_help_print(stdout, c);
		return EXIT_OK;
	case CLI_END:
	case CLI_GROUP:
		break; /* not in a flattened set */
	}
	return CLI_RUN;
}

int cli_parse(int *argi, const cli_command *c, void *args, int argc, char **argv)
{
	option_set set;
	int ch, rc;

	*argi = argc;
	if ((rc = build(&set, c)))
		return rc;
	optind = 0; /* 0, not 1: glibc starts over, permutation state and all */
	opterr = 0;
	while ((ch = getopt_long(argc, argv, set.optstring, set.longopts, NULL)) != -1) {
		int i = -1;
		if (ch >= 256)
			i = ch - 256;
		else if (ch > 0 && ch < 128)
			i = set.by_letter[ch];
		if (ch == '?' && optopt >= 256) {
			/* A long option without a value given one: --help=x. */
			char name[64];
			return cli_usage_error(c->name, "option '%s' takes no value",
					       display_name(name, sizeof name, set.v[optopt - 256].o));
		}
		if (ch == ':' || ch == '?' || i < 0)
			return bad_option(&set, c->name, ch, argc, argv);
		if ((rc = apply(c, args, &set.v[i], optarg)) != CLI_RUN)
			return rc;
	}
	*argi = optind;
	/* the command's store, given or default: no -o may write into it */
	cli_out_guard_store(NULL);
	for (size_t i = 0; i < set.n; i++)
		if (set.v[i].o->type == CLI_STRING && set.v[i].o->name &&
		    strcmp(set.v[i].o->name, "store") == 0)
			cli_out_guard_store(*(const char **)((char *)args + set.v[i].offset));
	if (c->operands >= 0 && argc - optind > c->operands)
		return cli_usage_error(c->name, "unexpected argument '%s'", argv[optind + c->operands]);
	return CLI_RUN;
}

/* Text with '\n's, each following line indented by `indent` spaces; ends the line. */
static void put_indented(FILE *out, const char *text, size_t indent)
{
	for (const char *p = text; *p; p++) {
		fputc(*p, out);
		if (*p == '\n' && p[1] != '\n' && p[1])
			fprintf(out, "%*s", (int)indent, "");
	}
	fputc('\n', out);
}

/*
 * Text filled into lines of at most `width` columns, the first starting at
 * column `col`: its line breaks become spaces, and a line is broken at the
 * last run of spaces that keeps it within width (a longer word stays
 * whole).  Into buf, always NUL-terminated (cut when too long).
 */
static void fill(char *buf, size_t size, const char *text, size_t col, size_t width)
{
	size_t n = 0;
	for (const char *p = text; *p && n + 1 < size;) {
		size_t gap = strspn(p, " \n"), len;
		p += gap;
		if (!(len = strcspn(p, " \n")))
			break;
		if (n && col + gap + len > width) {
			buf[n++] = '\n';
			col = 0;
		} else if (n) {
			n += (size_t)snprintf(buf + n, size - n, "%*s", (int)gap, "");
			col += gap;
		}
		if (n + 1 < size)
			n += (size_t)snprintf(buf + n, size - n, "%.*s", (int)len, p);
		col += len;
		p += len;
	}
	buf[n < size ? n : size - 1] = '\0';
}

/*
 * A help text as printed: the %WORD%s cli_help_expand() knows replaced,
 * and then filled (fill()) from column col to width; a text without them
 * is printed as written.  Returns text or buf.
 */
static const char *generated(char *buf, size_t size, const char *text, size_t col, size_t width)
{
	char words[4096];
	if (!cli_help_expand(words, sizeof words, text))
		return text;
	fill(buf, size, words, col, width);
	return buf;
}

static void put_option(FILE *out, const cli_option *o)
{
	char left[128], text[4096];
	int n = 0;

	if (o->letter)
		n = snprintf(left, sizeof left, o->name ? "-%c, " : "-%c", o->letter);
	if (o->name)
		n += snprintf(left + n, sizeof left - (size_t)n, "--%s", o->name);
	if (o->value)
		snprintf(left + n, sizeof left - (size_t)n, " %s", o->value);
	n = fprintf(out, "  %s", left);
	if (n < HELP_COLUMN - 1)
		fprintf(out, "%*s", HELP_COLUMN - n, "");
	else /* too wide: the text goes on the next line */
		fprintf(out, "\n%*s", HELP_COLUMN, "");
	put_indented(out, generated(text, sizeof text, o->help, HELP_COLUMN, HELP_WIDTH), HELP_COLUMN);
}

static void put_options(FILE *out, const cli_option *t)
{
	for (; t->type != CLI_END; t++) {
		if (t->type == CLI_GROUP) {
			if (t->help)
				fprintf(out, "%s\n", t->help);
			put_options(out, t->group);
		} else if (t->help) {
			put_option(out, t);
		}
	}
}

/* The about of a command, paragraph by paragraph ("\n\n" apart): one with
 * generated words is filled again, the others are printed as written. */
static void put_about(FILE *out, const char *about)
{
	for (const char *p = about; *p;) {
		const char *end = strstr(p, "\n\n");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *para = strndup(p, len), text[4096];
		if (para) {
			fputs(generated(text, sizeof text, para, 0, ABOUT_WIDTH), out);
			free(para);
		} else { /* no memory: as written */
			fwrite(p, 1, len, out);
		}
		p += len;
		if (*p) {
			fputs("\n\n", out);
			p += 2;
		}
	}
	fputc('\n', out);
}

void cli_help_print(FILE *out, const cli_command *c)
{
	/* Continuation lines of a synopsis line up after "usage: maintevo NAME ". */
	size_t indent = strlen("usage: maintevo ") + strlen(c->name) + 1;

	for (const char *const *u = c->usage; u && *u; u++) {
		fprintf(out, "%s %s%s", u == c->usage ? "usage: maintevo" : "       maintevo", c->name,
			**u ? " " : "");
		put_indented(out, *u, indent);
	}
	if (c->about) {
		fputc('\n', out);
		put_about(out, c->about);
	}
	fputs("\noptions:\n", out);
	put_options(out, c->options);
}

/* The shared options. */

int cli_set_quiet(void *field, const char *value, const cli_option *opt, const char *cmd)
{
	(void)field;
	(void)value;
	(void)opt;
	(void)cmd;
	cli_quiet = 1;
	return 0;
}

int cli_parse_dialect(void *field, const char *value, const cli_option *opt, const char *cmd)
{
	int d = mev_dialect_parse(value);
	char names[1024];
	(void)opt;
	if (d < 0)
		return cli_usage_error(cmd, "unknown dialect '%s' (use auto, %s)", value,
				       cli_dialect_words(names, sizeof names, CLI_DIALECT_NAMES));
	*(mev_dialect *)field = (mev_dialect)d;
	return 0;
}

const cli_option cli_release_options[] = {
	CLI_OPT_STRING(cli_release_opts, repo, 0, "repo", "PATH",
		       "the git repository (work tree or bare)"),
	CLI_OPT_STRING(cli_release_opts, rev, 0, "rev", "REV",
		       "the release: a tag, branch or commit id"),
	CLI_OPT_CALL(cli_release_opts, rules.dialect, 0, "dialect", "D", cli_parse_dialect,
		     "auto (default), %DIALECTS%"),
	CLI_OPT_FLAG(cli_release_opts, rules.top_level_only, 0, "top-level-only",
		     "read only the top-level MAINTAINERS file, even where the\n"
		     "tree's .get_maintainer.conf asks for all of them (U-Boot)"),
	CLI_OPT_FLAG(cli_release_opts, warnings, 0, "warnings",
		     "print every note about MAINTAINERS content as file:line"),
	CLI_OPT_INT(cli_release_opts, jobs, 'j', "jobs", "N", 0, 64,
		    "reader threads (default: one per core)"),
	CLI_OPT_FLAG(cli_release_opts, stats, 0, "stats",
		     "print where the time went on standard error"),
	CLI_OPT_END
};

/* Each value is checked alone here; cli_cluster_finish() then checks that
 * the options fit the method. */
const cli_option cli_cluster_options[] = {
	CLI_OPT_STRING(cli_cluster_opts, method, 'm', "method", "M",
		       "temporal (default: each release from the previous one's\n"
		       "clusters, docs/tracking.md), walktrap (the study's),\n"
		       "louvain, leiden or components; or a whole parameter key\n"
		       "as the CSVs show it (temporal:res=1:seed=1:tol=0.97:top=1;\n"
		       "tol: keep clusters scoring this share of Leiden's)"),
	CLI_OPT_INT(cli_cluster_opts, steps, 0, "steps", "N", 1, 1000,
		    "walktrap: length of the random walks (default 4)"),
	CLI_OPT_REAL(cli_cluster_opts, resolution, 0, "resolution", "R", 1e-9, 1e6,
		     "temporal, louvain, leiden: modularity resolution\n"
		     "(default 1)"),
	CLI_OPT_INT(cli_cluster_opts, seed, 0, "seed", "N", 0, 2147483647L,
		    "temporal, louvain, leiden: random seed (default 1)"),
	CLI_OPT_REAL(cli_cluster_opts, top, 0, "top-fraction", "F", 1e-9, 1,
		     "cluster only the largest F of the sections by lines\n"
		     "(default 1; the study's figures used 0.2)"),
	CLI_OPT_FLAG(cli_cluster_opts, smooth, 0, "smooth",
		     "leiden started from the previous release's clusters\n"
		     "(implies --method leiden)"),
	CLI_OPT_END
};
