/* maintevo dialects: the table of dialects (its words in help texts are help.c's). */
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

/* --names: one name a line, nothing else (the bash completion reads it). */
static int print_names(void)
{
	for (int d = 1; d < MEV_DIALECT_END; d++)
		printf("%s\n", mev_dialect_name((mev_dialect)d));
	return fflush(stdout) == 0 ? EXIT_OK : EXIT_FAIL;
}

/* The aliases of a dialect, separated by spaces (cut when too long). */
static const char *aliases(char *buf, size_t size, const mev_dialect_info *in)
{
	size_t n = 0;
	buf[0] = '\0';
	for (const char *const *a = in->aliases; a && *a && n < size; a++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? " " : "", *a);
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
