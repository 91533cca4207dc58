/* maintevo report: what changed between two releases, in Markdown or HTML. */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/report.h"
#include "maintevo/store.h"

#include <string.h>

typedef struct {
	const char *store, *out;
	mev_report_options ro;
	cli_cluster_opts cluster;
	mev_track_params tp;
} report_args;

static int parse_format(void *field, const char *value, const cli_option *opt, const char *cmd)
{
	int f = mev_report_format_parse(value);
	(void)opt;
	if (f < 0)
		return cli_usage_error(cmd, "unknown format '%s' (use md or html)", value);
	*(mev_report_format *)field = (mev_report_format)f;
	return 0;
}

static const cli_option options[] = {
	CLI_OPT_STORE(report_args, store),
	CLI_OPT_STRING(report_args, ro.from, 0, "from", "TAG",
		       "the older release (default: the one before --to;\n"
		       "with neither, the newest pair with events)"),
	CLI_OPT_STRING(report_args, ro.to, 0, "to", "TAG",
		       "the newer release (default: the newest stored)"),
	CLI_OPT_CALL(report_args, ro.format, 'f', "format", "F", parse_format, "md (default) or html"),
	CLI_OPT_STRING(report_args, ro.title, 0, "title", "NAME",
		       "the project's name in the heading (default: from the "
		       "store's dialect: %DIALECT_PROJECTS%)"),
	CLI_OPT_REAL(report_args, ro.min_support, 0, "min-support", "S", 0, 1,
		     "leave out events found by fewer than S of the\n"
		     "perturbed runs (default 0.5; 0: show all)"),
	CLI_OPT_OUT(report_args, out),
	CLI_OPT_HELP,
	CLI_OPT_GROUP(report_args, cluster, cli_cluster_options,
		      "the clustering to read (as given to 'maintevo cluster'):"),
	CLI_OPT_GROUP(report_args, tp, cli_track_options,
		      "the tracking results to read (as given to 'maintevo track'):"),
	CLI_OPT_END
};

const cli_command cmd_report_spec = {
	.name = "report",
	.usage = CLI_USAGE("--store DIR [--from TAG] [--to TAG] [--format md|html]\n"
			   "[--title NAME] [-o FILE] [--method M ...]"),
	.about =
		"Compare two stored releases (without --from and --to: see below): headline\n"
		"numbers of both and their change (sections, files, lines, code no section\n"
		"covers, subsystems, sections without a maintainer or orphaned); sections\n"
		"added, removed and renamed; subsystems born, died, split and merged; the\n"
		"largest growers and shrinkers by lines.\n"
		"\n"
		"  md    Markdown tables, fit for a mailing list post (default)\n"
		"  html  one self-contained page (inline CSS and SVG, no scripts, nothing\n"
		"        fetched) with charts of the largest subsystems over all releases,\n"
		"        of the splits and merges in the range and of the sections per\n"
		"        release, and the lineage chart of the whole history with the\n"
		"        pair compared shaded ('maintevo chart'); prints well too\n"
		"\n"
		"Subsystems need 'maintevo cluster' and 'maintevo track' on the store first.\n"
		"Without --from and --to the pair is the newest two neighbouring releases\n"
		"with subsystems born, died, split or merged (growth and shrinkage do not\n"
		"count: nearly every pair has some), else the two newest; the heading and a\n"
		"note on standard error say so when it is not the two newest.  A nightly\n"
		"job names its pair ('--from PREVIOUS --to NEWEST', as scripts/nightly.sh).\n"
		"A report needs two stored releases: with one or none it exits 1 and says so.\n"
		"The same store gives the same bytes: the report holds no date of its own.",
	.options = options,
	.operands = 0,
};

/* Say on stderr which pair a report without --from and --to compares when
 * it is not the two newest releases (the report's heading says it too). */
static void note_pair(const report_args *a, mev_history *h)
{
	size_t from, to, newest = mev_history_release_count(h) - 1;
	if (a->ro.from || a->ro.to || mev_report_default_pair(&from, &to, h, a->ro.min_support) || to == newest)
		return;
	cli_note("report: %s -> %s, the newest pair with events; %s is the newest release "
		 "(name a pair with --from and --to)",
		 mev_history_release(h, from)->tag, mev_history_release(h, to)->tag,
		 mev_history_release(h, newest)->tag);
}

int cmd_report(int argc, char **argv)
{
	report_args a = { .store = "maintevo.store" };
	mev_store *s = NULL;
	mev_history *h = NULL;
	cli_out out;
	int argi, rc;

	cli_cluster_init(&a.cluster);
	mev_track_params_init(&a.tp);
	a.ro.min_support = 0.5;
	if ((rc = cli_parse(&argi, &cmd_report_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if ((rc = cli_cluster_finish(&a.cluster, "report")))
		return rc;
	if (mev_store_open(&s, a.store, MEV_STORE_READ))
		return cli_fail();
	if ((rc = cli_out_open(&out, a.out)))
		goto done;
	if (mev_history_open(&h, s, &a.cluster.p, &a.tp, NULL, 0) ||
	    (a.ro.history = h, mev_report_write(out.f, s, &a.ro))) {
		rc = cli_out_fail(&out); /* no half-written report: the file as it was */
		goto done;
	}
	rc = cli_out_commit(&out);
	if (!rc)
		note_pair(&a, h);
done:
	mev_history_free(h);
	mev_store_free(s);
	return rc;
}
