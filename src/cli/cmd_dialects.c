/* maintevo dialects: the table of dialects, and its words in help texts and messages. */
#include "cli.h"
#include "maintevo/dialect.h"
#include "maintevo/error.h"
#include "maintevo/table.h"

#include <string.h>

typedef struct {
	const char *format, *out;
	int names; /* --names: the names only, one a line */
	int excel_safe;
} dialects_args;

static const cli_option options[] = {
	CLI_OPT_FLAG(dialects_args, names, 0, "names",
		     "the names only, one a line (what the bash completion\n"
		     "offers after --dialect)"),
	CLI_OPT_TABLE_FORMAT(dialects_args, format),
	CLI_OPT_EXCEL_SAFE(dialects_args, excel_safe),
	CLI_OPT_OUT(dialects_args, out),
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_dialects_spec = {
	.name = "dialects",
	.usage = CLI_USAGE("[--format F] [-o FILE]", "--names"),
	.about =
		"List the dialects maintevo knows, one project family each, as CSV by default\n"
		"  name,aliases,display,tags,rc_tags,files,detect\n"
		"name is what --dialect takes and a store records; aliases (separated by\n"
		"spaces) are other names --dialect takes; display names the project in\n"
		"reports; tags are its release tags and rc_tags the release candidates --rc\n"
		"adds; files says where its MAINTAINERS files are when a release has no\n"
		"get_maintainer.pl (where it has one, the script's own file search decides);\n"
		"detect is what --dialect auto knows it by.  --dialect auto tries them in\n"
		"this order but the first, which is what it takes when none fits.",
	.options = options,
	.operands = 0,
};

static const mev_column columns[] = {
	{ "name", MEV_COLUMN_STRING },    { "aliases", MEV_COLUMN_STRING },
	{ "display", MEV_COLUMN_STRING }, { "tags", MEV_COLUMN_STRING },
	{ "rc_tags", MEV_COLUMN_STRING }, { "files", MEV_COLUMN_STRING },
	{ "detect", MEV_COLUMN_STRING },  { NULL, 0 }
};

/* Append len bytes of s at buf + *n, within size (always NUL-terminated). */
static void put(char *buf, size_t size, size_t *n, const char *s, size_t len)
{
	if (*n < size)
		snprintf(buf + *n, size - *n, "%.*s", (int)len, s);
	*n += len;
}

static void puts0(char *buf, size_t size, size_t *n, const char *s)
{
	put(buf, size, n, s, strlen(s));
}

const char *cli_dialect_words(char *buf, size_t size, cli_dialect_list what)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int d = 1; d < MEV_DIALECT_END; d++) {
		const mev_dialect_info *in = mev_dialect_info_get((mev_dialect)d);
		if (d > 1) /* "a, b or c" for names, "A, B, C" for the others */
			puts0(buf, size, &n, what == CLI_DIALECT_NAMES && d == MEV_DIALECT_END - 1 ? " or " : ", ");
		puts0(buf, size, &n, what == CLI_DIALECT_PROJECTS ? in->display : in->name);
		if (what == CLI_DIALECT_TAGS) {
			puts0(buf, size, &n, " ");
			puts0(buf, size, &n, in->tags);
		}
	}
	return buf;
}

/* The generated words of help texts, and the lists they stand for. */
static const struct {
	const char *word;
	cli_dialect_list what;
} words[] = {
	{ "%DIALECTS%", CLI_DIALECT_NAMES },
	{ "%DIALECT_PROJECTS%", CLI_DIALECT_PROJECTS },
	{ "%DIALECT_TAGS%", CLI_DIALECT_TAGS },
};

/* The index in words[] of the word at p; -1 when there is none. */
static int word_at(const char *p)
{
	for (size_t i = 0; *p == '%' && i < sizeof words / sizeof *words; i++)
		if (strncmp(p, words[i].word, strlen(words[i].word)) == 0)
			return (int)i;
	return -1;
}

int cli_help_expand(char *buf, size_t size, const char *text)
{
	size_t n = 0;
	int found = 0;

	buf[0] = '\0';
	for (const char *p = text; *p;) {
		int w = word_at(p);
		if (w >= 0) {
			char list[2048];
			puts0(buf, size, &n, cli_dialect_words(list, sizeof list, words[w].what));
			p += strlen(words[w].word);
			found = 1;
		} else {
			put(buf, size, &n, p++, 1);
		}
	}
	return found;
}

/* --names: one name a line, nothing else (the bash completion reads it). */
static int print_names(void)
{
	for (int d = 1; d < MEV_DIALECT_END; d++)
		printf("%s\n", mev_dialect_name((mev_dialect)d));
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

/* The aliases of a dialect, separated by spaces. */
static const char *aliases(char *buf, size_t size, const mev_dialect_info *in)
{
	size_t n = 0;
	buf[0] = '\0';
	for (const char *const *a = in->aliases; a && *a; a++) {
		if (n)
			puts0(buf, size, &n, " ");
		puts0(buf, size, &n, *a);
	}
	return buf;
}

int cmd_dialects(int argc, char **argv)
{
	dialects_args a = { .format = NULL };
	mev_table *t = NULL;
	cli_out out;
	int argi, rc, fmt;

	if ((rc = cli_parse(&argi, &cmd_dialects_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if (a.names)
		return print_names();
	if ((fmt = mev_table_format_parse(a.format ? a.format : "csv")) < 0)
		return cli_usage_error("dialects", "unknown format '%s' (use csv, json or jsonl)", a.format);
	if ((rc = cli_excel_check("dialects", a.excel_safe, fmt == MEV_TABLE_CSV)))
		return rc;
	if ((rc = cli_out_open(&out, a.out)))
		return rc;
	if (mev_table_new(&t, out.f, (mev_table_format)fmt, columns)) {
		return cli_out_fail(&out);
	}
	mev_table_excel_safe(t, a.excel_safe);
	for (int d = 1; d < MEV_DIALECT_END; d++) {
		const mev_dialect_info *in = mev_dialect_info_get((mev_dialect)d);
		char buf[256];
		mev_table_str(t, in->name);
		mev_table_str(t, aliases(buf, sizeof buf, in));
		mev_table_str(t, in->display);
		mev_table_str(t, in->tags);
		mev_table_str(t, in->rc_tags);
		mev_table_str(t, in->files);
		mev_table_str(t, in->detect);
		mev_table_end_row(t);
	}
	/* a write error is reported by cli_out_commit(), with the file's name */
	if ((rc = mev_table_finish(t)) && rc != MEV_EIO) {
		mev_table_free(t);
		return cli_out_fail(&out);
	}
	mev_table_free(t);
	return cli_out_commit(&out);
}
