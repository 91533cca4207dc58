/* maintevo walk: every release of a repository into a store. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/calendar.h"
#include "maintevo/walk.h"

#include <stdio.h>
#include <sys/stat.h>

typedef struct {
	mev_walk_options o;
	cli_strings tags, exclude;
} walk_args;

static const cli_option options[] = {
	CLI_OPT_STRING(walk_args, o.repo, 0, "repo", "PATH", "the git repository"),
	CLI_OPT_STRING(walk_args, o.store, 0, "store", "DIR",
		       "the store (default: ./maintevo.store; created if needed)"),
	CLI_OPT_STRINGS(walk_args, tags, 0, "tags", "GLOB",
			"walk the tags matching GLOB instead (repeatable)"),
	CLI_OPT_STRINGS(walk_args, exclude, 0, "exclude", "GLOB",
			"leave out tags matching GLOB (repeatable)"),
	CLI_OPT_STRING(walk_args, o.line, 0, "line", "X.Y",
		       "a maintenance line instead: the release X.Y and\n"
		       "its maintenance releases (--line 20.11: v20.11,\n"
		       "v20.11.1, ..., v20.11.10)"),
	CLI_OPT_FLAG(walk_args, o.rc, 0, "rc", "include release candidates (-rcN)"),
	CLI_OPT_STRING(walk_args, o.branch, 0, "branch", "B",
		       "dated snapshots of branch B instead of tags\n"
		       "(B@YYYY-MM-DD: its tree at each period's end)"),
	CLI_OPT_STRING(walk_args, o.every, 0, "every", "P",
		       "with --branch: one snapshot per day, week, month\nor quarter"),
	CLI_OPT_STRING(walk_args, o.since, 0, "since", "YYYY-MM-DD",
		       "with --branch: from this day (UTC; default: the\nbranch's first commit)"),
	CLI_OPT_STRING(walk_args, o.until, 0, "until", "YYYY-MM-DD",
		       "with --branch: up to this day (default, and at\nthe latest: today)"),
	CLI_OPT_FLAG(walk_args, o.tags_too, 0, "tags-too",
		     "with --branch: walk the release tags as well"),
	CLI_OPT_CALL(walk_args, o.rules.dialect, 0, "dialect", "D", cli_parse_dialect,
		     "auto (default), %DIALECTS%"),
	CLI_OPT_FLAG(walk_args, o.rules.top_level_only, 0, "top-level-only",
		     "read only the top-level MAINTAINERS file"),
	CLI_OPT_STRING(walk_args, o.files_as, 0, "files-as", "REL",
		       "read the MAINTAINERS files of every release as\n"
		       "release REL's get_maintainer.pl finds them (the\n"
		       "file's structure rather than each script's view:\n"
		       "U-Boot v2021.10's script reads only the top-level\n"
		       "file, --files-as v2022.01 reads board/ too); each\n"
		       "release's own script still reads the lines; the\n"
		       "store keeps REL, so a later walk goes on with it"),
	CLI_OPT_INT(walk_args, o.jobs, 'j', "jobs", "N", 0, 64,
		    "threads reading blobs (default: one per core; 1: one, ahead of the rest)"),
	CLI_OPT_FLAG(walk_args, o.rebuild, 0, "rebuild",
		     "forget what the store holds and walk everything again"),
	CLI_OPT_FLAG(walk_args, o.verify, 0, "verify",
		     "also compute every release from scratch and compare (slow)"),
	CLI_OPT_REAL(walk_args, o.wait, 0, "wait", "SECONDS", 0, 86400,
		     "when another command writes to the store (a walk,\n"
		     "import-pasta, cluster, track or flow), wait up to\n"
		     "SECONDS for it to finish (default 0: fail at once)"),
	CLI_OPT_QUIET,
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_walk_spec = {
	.name = "walk",
	.usage = CLI_USAGE("--repo PATH [--store DIR] [options]"),
	.about =
		"Walk the release tags of the repository in version order and store, for each\n"
		"release, its sections, its overlap graph and its file table.  Each release is\n"
		"computed from the previous one (only changed files are read and matched), and\n"
		"only tags not stored yet are walked: run it again after 'git fetch --tags' to\n"
		"add new releases.  A walk can be interrupted at any time (Ctrl-C stops after\n"
		"the current release, a second Ctrl-C at once); the next run goes on.\n"
		"\n"
		"Release tags by dialect: %DIALECT_TAGS%; with --rc also their -rcN tags.  They are "
		"ordered as versions (v2.6.39 < v3.0 < v3.10, v6.1-rc1 < v6.1).\n"
		"\n"
		"By default a walk takes the project's line of development: its releases one\n"
		"after the other, each dated after the one before (Xen's RELEASE-X.Y.0, DPDK's\n"
		"vYY.MM, Linux's vX.Y), not the maintenance releases made beside it (DPDK's\n"
		"v20.11.1 .. v20.11.10 came out while v21.02 .. v23.07 did).  --line X.Y walks\n"
		"one maintenance line instead, into a store of its own: release X.Y and its\n"
		"maintenance releases, in version order.  A release dated before one that comes\n"
		"before it in version order is named in a note.  Stored releases the line leaves\n"
		"out (walked when the default took maintenance releases too) are kept, with a\n"
		"note.\n"
		"\n"
		"With --branch B --every P the walk stores dated snapshots instead: for each period\n"
		"(day, ISO week, month, quarter; UTC) the tree of the last commit of B's\n"
		"first-parent history whose committer date is on or before the period's end\n"
		"(what 'git rev-list -1 --first-parent --before=END B' names), as release\n"
		"B@YYYY-MM-DD, the period's last day.  The store remembers the branch: a later\n"
		"'walk' adds the new periods and walks again the current one when B moved.\n"
		"Snapshots and tags (--tags-too) share one store, ordered by date.\n"
		"\n"
		"When B was rewritten (reset, force-pushed), the stored snapshots whose commit\n"
		"is no longer on it are walked again, from the first period that changed, with\n"
		"a note (those of periods no longer walked are dropped).  A tag moved is walked\n"
		"again; a stored release whose tag was deleted refuses the walk (the clone may\n"
		"lack it: 'git fetch --tags'; else --rebuild).",
	.options = options,
	.operands = 0,
};

/* The progress bar with the walk's pace and its own estimate (by files,
 * not releases: "[###---] i/n TAG  F files/s  ETA XmYYs"; no pace before
 * the first release is done). */
static void walk_progress(void *ctx, const mev_walk_progress *p)
{
	char what[1024];

	(void)ctx;
	if (p->index <= 1) {
		cli_progress_eta(p->index, p->total, p->tag, -1);
		return;
	}
	snprintf(what, sizeof what, "%s  %.0f files/s", p->tag, p->files_per_second);
	cli_progress_eta(p->index, p->total, what, p->eta_seconds);
}

/* The summary on standard error, unless quiet. */
static void print_summary(const mev_walk_result *res, const char *store)
{
	if (cli_quiet)
		return;
	if (res->snapshots)
		cli_say(stderr, "maintevo: %zu release%s walked, %zu already stored, %zu snapshots and "
			"%zu release tags in all; %.1f s, %llu blobs read (%.1f MB), store '%s'\n",
			res->walked, res->walked == 1 ? "" : "s", res->stored_before, res->snapshots,
			res->candidates - res->snapshots, res->seconds, (unsigned long long)res->blobs_read,
			res->bytes_read / 1e6, store);
	else
		cli_say(stderr, "maintevo: %zu release%s walked, %zu already stored, %zu release tags in all; "
			"%.1f s, %llu blobs read (%.1f MB), store '%s'\n",
			res->walked, res->walked == 1 ? "" : "s", res->stored_before, res->candidates,
			res->seconds, (unsigned long long)res->blobs_read, res->bytes_read / 1e6, store);
	if (res->verified)
		cli_say(stderr, "maintevo: %zu release%s verified against a cold build\n", res->verified,
			res->verified == 1 ? "" : "s");
	if (res->stopped)
		cli_say(stderr, "maintevo: stopped early; run the same command again to go on\n");
}

/* The snapshot options checked before the store is opened (and created):
 * a period, a day that does not parse, or snapshot options without a
 * branch on a store that follows none. */
static int check_branch_options(const mev_walk_options *o)
{
	int64_t since = 0, until = 0;
	struct stat st;
	if (o->every && mev_every_parse(o->every) < 0)
		return cli_usage_error("walk", "--every takes day, week, month or quarter");
	if ((o->since && mev_day_parse(&since, o->since)) || (o->until && mev_day_parse(&until, o->until)))
		return cli_fail();
	if (o->since && o->until && since > until) {
		mev_error_set(MEV_EINVAL, "--since %s is after --until %s", o->since, o->until);
		mev_error_hint("the first day comes first: --since %s --until %s", o->until, o->since);
		return cli_fail();
	}
	if (!o->branch && (o->every || o->since || o->until || o->tags_too) &&
	    stat(o->store, &st) != 0)
		return cli_usage_error("walk", "--every, --since, --until and --tags-too go with --branch "
				       "(for example --branch master --every month)");
	if (o->branch && !o->every && stat(o->store, &st) != 0)
		return cli_usage_error("walk", "--branch needs --every: day, week, month or quarter");
	return 0;
}

int cmd_walk(int argc, char **argv)
{
	walk_args a = { .o.store = "maintevo.store" };
	mev_walk_options *o = &a.o;
	mev_walk_result res;
	int argi, rc;

	if ((rc = cli_parse(&argi, &cmd_walk_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if (!o->repo)
		return cli_usage_error("walk", "--repo is required");
	if ((rc = check_branch_options(o)))
		return rc;
	if (o->line && a.tags.n)
		return cli_usage_error("walk", "--line and --tags choose the tags two ways; give one");
	if (o->files_as && o->rules.top_level_only)
		return cli_usage_error("walk", "--files-as and --top-level-only are two readings of which "
				       "MAINTAINERS files count: choose one");
	o->tags = a.tags.v;
	o->ntags = a.tags.n;
	o->exclude = a.exclude.v;
	o->nexclude = a.exclude.n;
	/* The first Ctrl-C stops after the release in hand, the second at once. */
	cli_progress_init(&o->progress);
	o->progress.progress = NULL; /* walk_progress draws the line, with the pace */
	o->walk_progress = walk_progress;
	o->abort_now = &cli_stop_now;
	cli_sigint_install("stopping after the current release (Ctrl-C again to stop now)");
	rc = mev_walk(&res, o);
	cli_sigint_restore();
	cli_progress_end();
	if (rc == MEV_EINTR) {
		cli_say(stderr, "maintevo: stopped; %zu release%s stored by this run, "
			"run the same command again to go on\n", res.walked, res.walked == 1 ? "" : "s");
		return EXIT_FAIL;
	}
	if (rc)
		return cli_fail();
	print_summary(&res, o->store);
	return EXIT_OK;
}
