/* maintevo filemap: which sections cover every file of a release. */
#include "cli.h"
#include "maintevo/filemap.h"
#include "maintevo/release.h"
#include "maintevo/store.h"

#include <string.h>

typedef struct {
	cli_release_opts release;
	const char *store, *tag, *out;
	int keep_rest, excel_safe;
} filemap_args;

static const cli_option options[] = {
	CLI_OPT_GROUP(filemap_args, release, cli_release_options, NULL),
	CLI_OPT_STRING(filemap_args, store, 0, "store", "DIR",
		       "read from this store instead of a repository"),
	CLI_OPT_STRING(filemap_args, tag, 0, "release", "TAG",
		       "the stored release to read (with --store)"),
	CLI_OPT_FLAG(filemap_args, keep_rest, 0, "keep-rest", "list THE REST too (left out by default)"),
	CLI_OPT_EXCEL_SAFE(filemap_args, excel_safe),
	CLI_OPT_OUT(filemap_args, out),
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_filemap_spec = {
	.name = "filemap",
	.usage = CLI_USAGE("--repo PATH --rev REV [options]",
			   "--store DIR --release TAG [--keep-rest] [--excel-safe] [-o FILE]"),
	.about =
		"Write CSV 'path,lines,bytes,sections' for every file of the release (symbolic\n"
		"links included, submodules skipped), sorted by path.  lines is the number of\n"
		"newline bytes; sections are the titles of the MAINTAINERS sections covering\n"
		"the file, exactly as the tree's script decides (get_maintainer.pl, or the\n"
		"Python script of OP-TEE, edk2 or Zephyr; keywords off), sorted bytewise\n"
		"and joined with ' | '.\n"
		"\n"
		"The catch-all is left out unless --keep-rest: a section, whatever its\n"
		"title, without X: lines, whose F: lines by themselves cover every path\n"
		"(Linux's THE REST, 'F: *' and 'F: */'; QEMU's \"All patches CC\n"
		"here\"; edk2's \"All patches CC:d here\").  A section that covers only\n"
		"the top-level files is not a catch-all (edk2's \"Tianocore Stewards\",\n"
		"'F: *'): it is listed, and it is a section of graphs and clusters like\n"
		"any other, also for the paths edk2's script falls back to it for (those\n"
		"whose sections name no maintainer: the path '<default>').\n"
		"\n"
		"With --store and --release the table is read back from a store made by\n"
		"'maintevo walk' (no repository needed); the output is the same.",
	.options = options,
	.operands = 0,
};

static int write_map(const mev_filemap *fm, const filemap_args *a)
{
	cli_out out;
	if (cli_out_open(&out, a->out))
		return EXIT_FAIL;
	if (mev_filemap_write_csv(out.f, fm, a->keep_rest, a->excel_safe))
		return cli_out_fail(&out);
	return cli_out_commit(&out);
}

/* --store DIR --release TAG: the file table as 'maintevo walk' stored it. */
static int stored_map(const filemap_args *a)
{
	mev_store *store = NULL;
	mev_filemap *fm = NULL;
	int rc;

	if (!a->store || !a->tag)
		return cli_usage_error("filemap", "--store and --release go together");
	if (a->release.repo || a->release.rev)
		return cli_usage_error("filemap", "use either --repo/--rev or --store/--release");
	if (mev_store_open(&store, a->store, MEV_STORE_READ) ||
	    mev_release_load_filemap(&fm, store, a->tag)) {
		mev_store_free(store);
		return cli_fail();
	}
	mev_store_free(store);
	rc = write_map(fm, a);
	mev_filemap_free(fm);
	return rc;
}

int cmd_filemap(int argc, char **argv)
{
	filemap_args a = { 0 };
	const cli_release_opts *o = &a.release;
	int argi, rc;
	cli_release r;
	mev_filemap *fm = NULL;
	mev_filemap_options fo = { 0 };
	mev_filemap_stats st = { 0 };

	if ((rc = cli_parse(&argi, &cmd_filemap_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if (a.store || a.tag)
		return stored_map(&a);
	if ((rc = cli_release_load(&r, o, "filemap")))
		return rc;
	fo.jobs = o->jobs;
	fo.stats = &st;
	if (mev_filemap_build(&fm, r.repo, r.tree, r.maint, &fo)) {
		rc = cli_fail();
		goto done;
	}
	cli_report_diags(r.maint, o->warnings);
	if (o->stats)
		cli_print_stats(&r, &st);
	if (st.missing)
		cli_say(stderr, "warning: %llu blob%s missing from the repository (a partial clone?), "
			"counted as 0 lines: '%s'%s\n", (unsigned long long)st.missing,
			st.missing == 1 ? "" : "s", st.missing_path, st.missing > 1 ? " and others" : "");
	rc = write_map(fm, &a);
done:
	mev_filemap_free(fm);
	cli_release_free(&r);
	return rc;
}
