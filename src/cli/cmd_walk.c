/* maintevo walk: every release of a repository into a store. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/walk.h"

#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
	"usage: maintevo walk --repo PATH [--store DIR] [options]\n"
	"\n"
	"Walk the release tags of the repository in version order and store, for each\n"
	"release, its sections, its overlap graph and its file table.  Each release is\n"
	"computed from the previous one (only changed files are read and matched), and\n"
	"only tags not stored yet are walked: run it again after 'git fetch --tags' to\n"
	"add new releases.  A walk can be interrupted at any time (Ctrl-C stops after\n"
	"the current release, a second Ctrl-C at once); the next run goes on.\n"
	"\n"
	"Release tags by dialect: linux vX.Y and vX.Y.Z, uboot vYYYY.MM, xen\n"
	"RELEASE-X.Y.Z, qemu vX.Y.Z; with --rc also their -rcN tags.  They are ordered as\n"
	"versions (v2.6.39 < v3.0 < v3.10, v6.1-rc1 < v6.1).\n"
	"\n"
	"options:\n"
	"  --repo PATH        the git repository\n"
	"  --store DIR        the store (default: ./maintevo.store; created if needed)\n"
	"  --tags GLOB        walk the tags matching GLOB instead (repeatable)\n"
	"  --exclude GLOB     leave out tags matching GLOB (repeatable)\n"
	"  --rc               include release candidates (-rcN)\n"
	"  --dialect D        auto (default), linux, uboot, xen or qemu\n"
	"  --top-level-only   read only the top-level MAINTAINERS file\n"
	"  -j, --jobs N       reader threads (default: one per core)\n"
	"  --rebuild          forget what the store holds and walk everything again\n"
	"  --verify           also compute every release from scratch and compare (slow)\n"
	"  -q, --quiet        no progress line and no summary\n"
	"  -h, --help         show this help\n";

static volatile int stop_soft, stop_hard;

static void on_sigint(int sig)
{
	static const char msg[] =
		"\nmaintevo: stopping after the current release (Ctrl-C again to stop now)\n";
	(void)sig;
	if (stop_soft) {
		stop_hard = 1;
		return;
	}
	stop_soft = 1;
	if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0)
		return;
}

static int tty;

static void progress(void *ctx, const mev_walk_progress *p)
{
	(void)ctx;
	if (!tty)
		return;
	fprintf(stderr, "\r\033[K[%zu/%zu] %s", p->index, p->total, p->tag);
	if (p->index > 1)
		fprintf(stderr, "  %.0f files/s  ETA %dm%02ds", p->files_per_second,
			(int)p->eta_seconds / 60, (int)p->eta_seconds % 60);
	fflush(stderr);
}

static void note(void *ctx, const char *msg)
{
	(void)ctx;
	if (cli_quiet)
		return;
	if (tty)
		fputs("\r\033[K", stderr);
	fprintf(stderr, "maintevo: %s\n", msg);
}

int cmd_walk(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "repo", required_argument, NULL, 'r' },
		{ "store", required_argument, NULL, 's' },
		{ "tags", required_argument, NULL, 't' },
		{ "exclude", required_argument, NULL, 'x' },
		{ "rc", no_argument, NULL, 'R' },
		{ "dialect", required_argument, NULL, 'D' },
		{ "top-level-only", no_argument, NULL, 'T' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "rebuild", no_argument, NULL, 'B' },
		{ "verify", no_argument, NULL, 'V' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *tags[64], *excl[64];
	mev_walk_options o = { 0 };
	mev_walk_result res;
	struct sigaction sa, old;
	long v;
	int c, rc, d;

	o.store = "maintevo.store";
	o.tags = tags;
	o.exclude = excl;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hqj:", longopts, NULL)) != -1) {
		switch (c) {
		case 'r': o.repo = optarg; break;
		case 's': o.store = optarg; break;
		case 't':
			if (o.ntags == 64)
				return cli_usage_error("walk", "at most 64 --tags");
			tags[o.ntags++] = optarg;
			break;
		case 'x':
			if (o.nexclude == 64)
				return cli_usage_error("walk", "at most 64 --exclude");
			excl[o.nexclude++] = optarg;
			break;
		case 'R': o.rc = 1; break;
		case 'D':
			d = mev_dialect_parse(optarg);
			if (d < 0)
				return cli_usage_error("walk", "unknown dialect '%s' (use auto, linux, uboot, xen or qemu)", optarg);
			o.rules.dialect = (mev_dialect)d;
			break;
		case 'T': o.rules.top_level_only = 1; break;
		case 'j':
			if (cli_parse_int("walk", "--jobs", optarg, 0, 64, &v))
				return EXIT_USAGE;
			o.jobs = (int)v;
			break;
		case 'B': o.rebuild = 1; break;
		case 'V': o.verify = 1; break;
		case 'q': cli_quiet = 1; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("walk", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("walk", "unexpected argument '%s'", argv[optind]);
	if (!o.repo)
		return cli_usage_error("walk", "--repo is required");
	tty = !cli_quiet && isatty(STDERR_FILENO);
	o.progress.stop = &stop_soft;
	o.progress.note = note;
	o.abort_now = &stop_hard;
	o.walk_progress = progress;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);
	rc = mev_walk(&res, &o);
	sigaction(SIGINT, &old, NULL);
	if (tty)
		fputs("\r\033[K", stderr);
	if (rc) {
		if (rc == MEV_EINTR)
			fprintf(stderr, "maintevo: stopped; %zu release%s stored by this run, "
				"run the same command again to go on\n", res.walked, res.walked == 1 ? "" : "s");
		else
			cli_fail();
		return EXIT_FAIL;
	}
	if (!cli_quiet) {
		fprintf(stderr, "maintevo: %zu release%s walked, %zu already stored, %zu release tags in all; "
			"%.1f s, %llu blobs read (%.1f MB), store '%s'\n",
			res.walked, res.walked == 1 ? "" : "s", res.stored_before, res.candidates, res.seconds,
			(unsigned long long)res.blobs_read, res.bytes_read / 1e6, o.store);
		if (res.verified)
			fprintf(stderr, "maintevo: %zu release%s verified against a cold build\n", res.verified,
				res.verified == 1 ? "" : "s");
		if (res.stopped)
			fprintf(stderr, "maintevo: stopped early; run the same command again to go on\n");
	}
	return EXIT_OK;
}
