/* maintevo filemap: which sections cover every file of a release. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/filemap.h"
#include "maintevo/release.h"
#include "maintevo/store.h"

#include <getopt.h>
#include <string.h>

static const char usage[] =
	"usage: maintevo filemap --repo PATH --rev REV [options]\n"
	"       maintevo filemap --store DIR --release TAG [--keep-rest] [-o FILE]\n"
	"\n"
	"Write CSV 'path,lines,bytes,sections' for every file of the release (symbolic\n"
	"links included, submodules skipped), sorted by path.  lines is the number of\n"
	"newline bytes; sections are the titles of the MAINTAINERS sections covering\n"
	"the file, exactly as the tree's scripts/get_maintainer.pl decides (keywords\n"
	"off), sorted bytewise and joined with ' | '.\n"
	"\n"
	"With --store and --release the table is read back from a store made by\n"
	"'maintevo walk' (no repository needed); the output is the same.\n"
	"\n"
	"options:\n" CLI_RELEASE_HELP
	"  --store DIR        read from this store instead of a repository\n"
	"  --release TAG      the stored release to read (with --store)\n"
	"  --keep-rest        list THE REST too (left out by default)\n"
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

static int write_map(const mev_filemap *fm, int keep_rest, const char *out_path)
{
	FILE *out = cli_open_out(out_path);
	if (!out)
		return EXIT_FAIL;
	if (mev_filemap_write_csv(fm, out, keep_rest)) {
		cli_fail();
		cli_close_out(out, out_path);
		return EXIT_FAIL;
	}
	return cli_close_out(out, out_path);
}

int cmd_filemap(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_RELEASE_LONGOPTS,
		{ "keep-rest", no_argument, NULL, 'k' },
		{ "out", required_argument, NULL, 'o' },
		{ "store", required_argument, NULL, 's' },
		{ "release", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	cli_release_opts o = { 0 };
	const char *out_path = NULL, *store_dir = NULL, *release = NULL;
	int keep_rest = 0, c, rc;
	cli_release r;
	mev_filemap *fm = NULL;
	mev_filemap_options fo = { 0 };
	mev_filemap_stats st = { 0 };

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:j:", longopts, NULL)) != -1) {
		if ((rc = cli_release_option(&o, "filemap", c, optarg)))
			if (rc == EXIT_USAGE)
				return rc;
		if (rc)
			continue;
		switch (c) {
		case 'k': keep_rest = 1; break;
		case 'o': out_path = optarg; break;
		case 's': store_dir = optarg; break;
		case 'L': release = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("filemap", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("filemap", "unexpected argument '%s'", argv[optind]);
	if (store_dir || release) {
		mev_store *store = NULL;
		if (!store_dir || !release)
			return cli_usage_error("filemap", "--store and --release go together");
		if (o.repo || o.rev)
			return cli_usage_error("filemap", "use either --repo/--rev or --store/--release");
		if (mev_store_open(&store, store_dir, MEV_STORE_READ) ||
		    mev_release_load_filemap(&fm, store, release)) {
			mev_store_free(store);
			return cli_fail();
		}
		mev_store_free(store);
		rc = write_map(fm, keep_rest, out_path);
		mev_filemap_free(fm);
		return rc;
	}
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
	if (st.missing)
		fprintf(stderr, "warning: %llu blob%s missing from the repository (a partial clone?), "
			"counted as 0 lines: '%s'%s\n", (unsigned long long)st.missing,
			st.missing == 1 ? "" : "s", st.missing_path, st.missing > 1 ? " and others" : "");
	rc = write_map(fm, keep_rest, out_path);
done:
	mev_filemap_free(fm);
	cli_release_free(&r);
	return rc;
}
