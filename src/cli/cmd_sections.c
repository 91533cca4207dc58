/* maintevo sections: the sections of a release and their patterns. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/table.h"

#include <string.h>

typedef struct {
	cli_release_opts release;
	const char *out;
	int patterns, excel_safe;
} sections_args;

static const cli_option options[] = {
	CLI_OPT_GROUP(sections_args, release, cli_release_options, NULL),
	CLI_OPT_FLAG(sections_args, patterns, 0, "patterns", "one row per pattern line"),
	CLI_OPT_EXCEL_SAFE(sections_args, excel_safe),
	CLI_OPT_OUT(sections_args, out),
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_sections_spec = {
	.name = "sections",
	.usage = CLI_USAGE("--repo PATH --rev REV [--patterns] [options]"),
	.about =
		"Write the MAINTAINERS sections of the release as CSV, in file order:\n"
		"  section,file,line,status,maintainers,reviewers,lists,trees,patterns,\n"
		"  display_name,title_kind\n"
		"With --patterns, one row per F:, X:, N: and K: line instead:\n"
		"  section,file,line,type,value,regex,display_name\n"
		"where regex is what get_maintainer.pl matches (F:/X: after its glob\n"
		"conversion and directory test).  section is the title exactly as the\n"
		"release's get_maintainer.pl reads it (the key); title_kind says whether\n"
		"it is a name, a commented-out field line (comment: any release whose\n"
		"script reads '#' lines, as U-Boot's did in 2014-2017) or an underline\n"
		"(a group header's, as in QEMU and DPDK), and display_name is the name to\n"
		"show: the title for a name, else the header or name line above it, or\n"
		"the board folder of its files (docs/matching.md).",
	.options = options,
	.operands = 0,
};

static const mev_column section_cols[] = {
	{ "section", MEV_COLUMN_STRING }, { "file", MEV_COLUMN_STRING },
	{ "line", MEV_COLUMN_INTEGER }, { "status", MEV_COLUMN_STRING },
	{ "maintainers", MEV_COLUMN_INTEGER }, { "reviewers", MEV_COLUMN_INTEGER },
	{ "lists", MEV_COLUMN_INTEGER }, { "trees", MEV_COLUMN_INTEGER },
	{ "patterns", MEV_COLUMN_INTEGER }, { "display_name", MEV_COLUMN_STRING },
	{ "title_kind", MEV_COLUMN_STRING }, { NULL, 0 }
};
static const mev_column pattern_cols[] = {
	{ "section", MEV_COLUMN_STRING }, { "file", MEV_COLUMN_STRING },
	{ "line", MEV_COLUMN_INTEGER }, { "type", MEV_COLUMN_STRING },
	{ "value", MEV_COLUMN_STRING }, { "regex", MEV_COLUMN_STRING },
	{ "display_name", MEV_COLUMN_STRING }, { NULL, 0 }
};

/* The rows of section s: itself, or (patterns) its F:, X:, N: and K: lines. */
static void section_rows(mev_table *t, const mev_maint *m, const mev_section *s, int patterns)
{
	const mev_field *f = mev_maint_fields(m);
	if (!patterns) {
		mev_table_str(t, s->title);
		mev_table_str(t, mev_maint_file(m, s->file));
		mev_table_uint(t, s->line);
		mev_table_str(t, s->status_text);
		mev_table_uint(t, s->n_maintainers);
		mev_table_uint(t, s->n_reviewers);
		mev_table_uint(t, s->n_lists);
		mev_table_uint(t, s->n_trees);
		mev_table_uint(t, s->n_patterns);
		mev_table_str(t, s->display);
		mev_table_str(t, mev_title_kind_name((mev_title_kind)s->title_kind));
		mev_table_end_row(t);
		return;
	}
	for (uint32_t k = 0; k < s->field_count; k++) {
		const mev_field *fl = &f[s->field_begin + k];
		char type[2] = { fl->type, 0 };
		if (!strchr("FXNK", fl->type))
			continue;
		mev_table_str(t, s->title);
		mev_table_str(t, mev_maint_file(m, fl->file));
		mev_table_uint(t, fl->line);
		mev_table_str(t, type);
		mev_table_str(t, fl->value);
		mev_table_str(t, fl->regex ? fl->regex : "");
		mev_table_str(t, s->display);
		mev_table_end_row(t);
	}
}

int cmd_sections(int argc, char **argv)
{
	sections_args a = { 0 };
	int argi, rc;
	cli_release r;
	mev_table *t = NULL;
	cli_out out;

	if ((rc = cli_parse(&argi, &cmd_sections_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if ((rc = cli_release_load(&r, &a.release, "sections")))
		return rc;
	cli_report_diags(r.maint, a.release.warnings);
	if ((rc = cli_out_open(&out, a.out)))
		goto done;
	if (mev_table_new(&t, out.f, MEV_TABLE_CSV, a.patterns ? pattern_cols : section_cols)) {
		rc = cli_out_fail(&out);
		goto done;
	}
	mev_table_excel_safe(t, a.excel_safe);
	for (size_t i = 0; i < mev_maint_section_count(r.maint); i++)
		section_rows(t, r.maint, &mev_maint_sections(r.maint)[i], a.patterns);
	/* a write error is reported by cli_out_commit(), with the file's name */
	if ((rc = mev_table_finish(t)) && rc != MEV_EIO) {
		rc = cli_out_fail(&out);
		goto done;
	}
	rc = cli_out_commit(&out);
done:
	mev_table_free(t);
	cli_release_free(&r);
	return rc;
}
