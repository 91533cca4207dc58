/* maintevo flow: does each commit reach the tree through the people MAINTAINERS names? */
#include "cli.h"
#include "maintevo/calendar.h"
#include "maintevo/error.h"
#include "maintevo/export.h"
#include "maintevo/flow.h"
#include "maintevo/store.h"

#include <unistd.h>

#include <stdio.h>

typedef struct {
	mev_flow_options o;
} flow_args;

static const cli_option options[] = {
	CLI_OPT_STRING(flow_args, o.repo, 0, "repo", "PATH",
		       "the git repository (default: the one the store was\n"
		       "walked from)"),
	CLI_OPT_STORE(flow_args, o.store),
	CLI_OPT_FLAG(flow_args, o.churn, 0, "churn", "also count the lines each commit adds and removes"),
	CLI_OPT_FLAG(flow_args, o.rebuild, 0, "rebuild", "judge every release again"),
	CLI_OPT_FLAG(flow_args, o.whole_trees, 0, "whole-trees",
		     "read each MAINTAINERS set from its commit's whole tree\n"
		     "instead of deriving it from the parent's set (slower;\n"
		     "the results are the same: a check of the derivation)"),
	CLI_OPT_REAL(flow_args, o.wait, 0, "wait", "SECONDS", 0, 86400,
		     "when another command writes to the store, wait up to\n"
		     "SECONDS for it to finish (default 0: fail at once)"),
	CLI_OPT_QUIET,
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_flow_spec = {
	.name = "flow",
	.usage = CLI_USAGE("[--repo PATH] [--store DIR] [--churn] [--rebuild] [options]"),
	.about =
		"Judge every commit of the history by the MAINTAINERS its parent had: for\n"
		"each stored release after the first, the commits reachable from it and from\n"
		"no earlier release ('git log TAG --not EARLIER...'; PREV..TAG on a straight\n"
		"line).  Per commit: author, committer, trailers (Signed-off-by, Acked-by,\n"
		"Reviewed-by, Tested-by, Reported-by, Co-developed-by, Link) with\n"
		"identities through the release's .mailmap, the paths it touches and the\n"
		"sections covering them exactly as the parent's get_maintainer.pl finds them\n"
		"(keywords off), and the merge of the first-parent line that brought it in\n"
		"with the tree its subject names.\n"
		"Verdicts: committer_is_maintainer, committer_in_subsystem (the store's\n"
		"clustering, at read time), signoff_by_maintainer, reviewed_by_listed,\n"
		"via_listed_tree; docs/flow.md defines them.  Merges are not judged.\n"
		"\n"
		"Each release is stored in one transaction; only releases not judged yet,\n"
		"judged by older rules of maintevo, or whose earlier releases changed what\n"
		"they hide, are processed (a nightly run after 'maintevo walk' does the new\n"
		"one).\n"
		"Then the listed people's headline of each release whose flow is new or\n"
		"changed is counted and stored ('maintevo releases', its listed_* columns).\n"
		"Read the results with 'maintevo export commits', 'export flow' and\n"
		"'export people', and in the report's \"Patch flow\" part.",
	.options = options,
	.operands = 0,
};

/*
 * The listed people's headline of the releases whose flow is new or
 * changed, stored for 'maintevo releases' (mev_export_headline_update()).
 * Here rather than in mev_flow_run(): it is counted with export's listed
 * table, above flow.  A run killed before it ends leaves the headline of
 * those releases unknown, never stale: the next flow counts it.
 */
static int store_headline(mev_export_headline_result *res, const flow_args *a)
{
	mev_store *s = NULL;
	int lockfd = -1;
	int rc = mev_store_open(&s, a->o.store, MEV_STORE_WRITE);
	if (!rc && !(rc = mev_store_lock_wait(&lockfd, a->o.store, a->o.wait, &cli_stop_now))) {
		rc = mev_export_headline_update(res, s, a->o.repo);
		close(lockfd);
	}
	mev_store_free(s);
	return rc;
}

/* A shallow clone's history stops: which months are unknown, even with -q
 * (the listed states that need them say 'unknown'; docs/people.md). */
static void flow_cut_warning(const mev_flow_result *res)
{
	char day[11];
	mev_day_format(day, res->history_from);
	cli_say(stderr, "maintevo: warning: the repository is a shallow clone: %llu commit%s at its cut "
		"not judged, the history before %s unknown; 'export listed' says 'unknown' for the "
		"states that need it\nhint: 'git fetch --unshallow' in the clone, then 'maintevo flow "
		"--rebuild'\n", (unsigned long long)res->cut_commits, res->cut_commits == 1 ? "" : "s",
		day);
}

int cmd_flow(int argc, char **argv)
{
	flow_args a = { .o.store = "maintevo.store" };
	mev_flow_result res;
	mev_export_headline_result hl;
	int argi, rc;

	if ((rc = cli_parse(&argi, &cmd_flow_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	cli_progress_init(&a.o.progress);
	a.o.abort_now = &cli_stop_now;
	cli_sigint_install("stopping after the current release (Ctrl-C again to stop now)");
	rc = mev_flow_run(&res, &a.o);
	cli_sigint_restore();
	cli_progress_end();
	if (rc == MEV_EINTR) {
		cli_say(stderr, "maintevo: stopped; %zu release%s stored by this run, "
			"run the same command again to go on\n", res.computed, res.computed == 1 ? "" : "s");
		return EXIT_FAIL;
	}
	if (rc || (rc = store_headline(&hl, &a)))
		return cli_fail();
	if (res.cut_commits)
		flow_cut_warning(&res);
	if (!cli_quiet) {
		cli_say(stderr, "maintevo: %zu release%s judged, %zu already stored; %llu commits, "
			"%llu merges; %llu MAINTAINERS sets parsed (%llu from a parent's set, %llu of "
			"those spliced onto a set parsed whole), %llu trees "
			"read whole; %llu notes; "
			"%.1f s\n", res.computed, res.computed == 1 ? "" : "s", res.done_before,
			(unsigned long long)res.commits, (unsigned long long)res.merges,
			(unsigned long long)res.parses, (unsigned long long)res.derived,
			(unsigned long long)res.spliced,
			(unsigned long long)res.full_states,
			(unsigned long long)res.notes, res.seconds);
		if (res.before_commits)
			cli_say(stderr, "maintevo: %llu commits before the first release read for the "
				"activity of the listed people\n", (unsigned long long)res.before_commits);
		if (hl.computed)
			cli_say(stderr, "maintevo: the listed people's headline of %zu release%s "
				"counted (%zu kept); %.1f s\n", hl.computed, hl.computed == 1 ? "" : "s",
				hl.kept, hl.seconds);
		if (res.stopped)
			cli_say(stderr, "maintevo: stopped early; run the same command again to go on\n");
	}
	return EXIT_OK;
}
