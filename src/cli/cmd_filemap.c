/* maintevo filemap: which sections cover every file of a release. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/filemap.h"

#include <getopt.h>
#include <string.h>

static const char usage[] =
	"usage: maintevo filemap --repo PATH --rev REV [options]\n"
	"\n"
	"Write CSV 'path,lines,bytes,sections' for every file of the release (symbolic\n"
	"links included, submodules skipped), sorted by path.  lines is the number of\n"
	"newline bytes; sections are the titles of the MAINTAINERS sections covering\n"
	"the file, exactly as the tree's scripts/get_maintainer.pl decides (keywords\n"
	"off), sorted bytewise and joined with ' | '.\n"
	"\n"
	"options:\n" CLI_RELEASE_HELP
	"  --keep-rest        list THE REST too (left out by default)\n"
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

int cmd_filemap(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_RELEASE_LONGOPTS,
		{ "keep-rest", no_argument, NULL, 'k' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	cli_release_opts o = { 0 };
	const char *out_path = NULL;
	int keep_rest = 0, c, rc;
	cli_release r;
	mev_filemap *fm = NULL;
	mev_filemap_options fo = { 0 };
	mev_filemap_stats st = { 0 };
	FILE *out;

	optind = 0;
	while ((c = getopt_long(argc, argv, "ho:j:", longopts, NULL)) != -1) {
		if ((rc = cli_release_option(&o, "filemap", c, optarg)))
			if (rc == EXIT_USAGE)
				return rc;
		if (rc)
			continue;
		switch (c) {
		case 'k': keep_rest = 1; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_usage_error("filemap", "unknown option");
		}
	}
	if (optind < argc)
		return cli_usage_error("filemap", "unexpected argument '%s'", argv[optind]);
	if ((rc = cli_release_load(&r, &o, "filemap")))
		return rc;
	fo.jobs = o.jobs;
	fo.stats = &st;
	if (mev_filemap_build(&fm, r.repo, r.tree, r.maint, &fo)) {
		rc = cli_fail();
		goto done;
	}
	cli_report_diags(r.maint, o.warnings);
	if (o.stats)
		cli_print_stats(&r, &st);
	if (!(out = cli_open_out(out_path))) {
		rc = EXIT_FAIL;
		goto done;
	}
	if (mev_filemap_write_csv(fm, out, keep_rest)) {
		cli_fail();
		cli_close_out(out, out_path);
		rc = EXIT_FAIL;
		goto done;
	}
	rc = cli_close_out(out, out_path);
done:
	mev_filemap_free(fm);
	cli_release_free(&r);
	return rc;
}
