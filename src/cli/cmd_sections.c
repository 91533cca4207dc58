/* maintevo sections: the sections of a release and their patterns. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/csv.h"

#include <getopt.h>
#include <string.h>

static const char usage[] =
	"usage: maintevo sections --repo PATH --rev REV [--patterns] [options]\n"
	"\n"
	"Write the MAINTAINERS sections of the release as CSV, in file order:\n"
	"  section,file,line,status,maintainers,reviewers,lists,trees,patterns\n"
	"With --patterns, one row per F:, X:, N: and K: line instead:\n"
	"  section,file,line,type,value,regex\n"
	"where regex is what get_maintainer.pl matches (F:/X: after its glob\n"
	"conversion and directory test).\n"
	"\n"
	"options:\n" CLI_RELEASE_HELP
	"  --patterns         one row per pattern line\n"
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

int cmd_sections(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_RELEASE_LONGOPTS,
		{ "patterns", no_argument, NULL, 'p' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	cli_release_opts o = { 0 };
	const char *out_path = NULL;
	int patterns = 0, c, rc;
	cli_release r;
	FILE *out;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:j:", longopts, NULL)) != -1) {
		if ((rc = cli_release_option(&o, "sections", c, optarg)))
			if (rc == EXIT_USAGE)
				return rc;
		if (rc)
			continue;
		switch (c) {
		case 'p': patterns = 1; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("sections", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("sections", "unexpected argument '%s'", argv[optind]);
	if ((rc = cli_release_load(&r, &o, "sections")))
		return rc;
	cli_report_diags(r.maint, o.warnings);
	if (!(out = cli_open_out(out_path))) {
		cli_release_free(&r);
		return EXIT_FAIL;
	}
	{
		const mev_section *s = mev_maint_sections(r.maint);
		const mev_field *f = mev_maint_fields(r.maint);
		size_t n = mev_maint_section_count(r.maint);
		fputs(patterns ? "section,file,line,type,value,regex\n"
			       : "section,file,line,status,maintainers,reviewers,lists,trees,patterns\n", out);
		for (size_t i = 0; i < n; i++) {
			if (!patterns) {
				mev_csv_str(out, s[i].title);
				putc(',', out);
				mev_csv_str(out, mev_maint_file(r.maint, s[i].file));
				fprintf(out, ",%u,", s[i].line);
				mev_csv_str(out, s[i].status_text);
				fprintf(out, ",%u,%u,%u,%u,%u\n", s[i].n_maintainers, s[i].n_reviewers,
					s[i].n_lists, s[i].n_trees, s[i].n_patterns);
				continue;
			}
			for (uint32_t k = 0; k < s[i].field_count; k++) {
				const mev_field *fl = &f[s[i].field_begin + k];
				char t[2] = { fl->type, 0 };
				if (!strchr("FXNK", fl->type))
					continue;
				mev_csv_str(out, s[i].title);
				putc(',', out);
				mev_csv_str(out, mev_maint_file(r.maint, fl->file));
				fprintf(out, ",%u,", fl->line);
				mev_csv_str(out, t);
				putc(',', out);
				mev_csv_str(out, fl->value);
				putc(',', out);
				mev_csv_str(out, fl->regex ? fl->regex : "");
				putc('\n', out);
			}
		}
	}
	rc = cli_close_out(out, out_path);
	cli_release_free(&r);
	return rc;
}
