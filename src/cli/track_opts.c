/* Options naming the tracker's thresholds (--link, --match, ...), shared by track and its readers. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/track.h"

#include <errno.h>
#include <stdlib.h>

/* A threshold: a number above 0 and at most opt->max. */
static int parse_threshold(void *field, const char *value, const cli_option *opt, const char *cmd)
{
	char *end;
	double v;
	errno = 0;
	v = strtod(value, &end);
	if (errno || !*value || *end || !(v > 0) || v > opt->max)
		return cli_usage_error(cmd, "--%s takes a number above 0 and at most %g, not '%s'",
				       opt->name, opt->max, value);
	*(double *)field = v;
	return 0;
}

/* The whole tracker key, as the CSVs' tracking column shows it. */
static int parse_key(void *field, const char *value, const cli_option *opt, const char *cmd)
{
	mev_track_params *p = (mev_track_params *)((char *)field - offsetof(mev_track_params, link));
	(void)opt;
	if (mev_track_params_parse(p, value))
		return cli_usage_error(cmd, "%s", mev_error_message());
	return 0;
}

/* A CLI_OPT_CALL over a double, with the largest value it takes. */
#define THRESHOLD(field, name_, value_, max_, help_) \
	{ .type = _Generic(CLI__MEMBER(mev_track_params, field), double: CLI_CALL), .name = (name_), \
	  .value = (value_), .help = (help_), CLI__FIELD(mev_track_params, field), .max = (max_), \
	  .fn = parse_threshold }

const cli_option cli_track_options[] = {
	THRESHOLD(link, "link", "J", 1, "minimum Jaccard similarity of a link (default 0.1)"),
	THRESHOLD(match, "match", "S", 1,
		  "share of a cluster's code that makes the other cluster\n"
		  "its heir or origin (default 0.5)"),
	THRESHOLD(absorb, "absorb", "A", 1,
		  "a cluster left without a link whose largest receiver\n"
		  "holds at least A of its lines merges into it instead\n"
		  "of dying (default 0.5)"),
	CLI_OPT_INT(mev_track_params, gap, 0, "gap", "N", 0, MEV_TRACK_GAP_MAX,
		    "a lineage whose clusters vanish for at most N releases\n"
		    "and come back continues (a bridge) instead of dying\n"
		    "and being born again (default 1; 0: never)"),
	THRESHOLD(growth, "growth", "G", 1e6,
		  "a continuation whose lines change by at least G is a\n"
		  "growth or contraction (default 0.1)"),
	THRESHOLD(rename, "rename", "R", 1,
		  "share of a removed section's code a new section must\n"
		  "cover to be its new name (default 0.8)"),
	CLI_OPT_INT(mev_track_params, support_runs, 0, "support-runs", "N", 0, 1000,
		    "perturbed runs that measure each event's support\n"
		    "(default 10; 0: none)"),
	CLI_OPT_REAL(mev_track_params, noise, 0, "noise", "X", 0, 0.5,
		     "their perturbation: edge weights scaled by a factor\n"
		     "in [1 - X, 1 + X] (default 0.05)"),
	{ .type = CLI_CALL, .name = "tracking", .value = "KEY",
	  .help = "all thresholds at once, as the CSVs' tracking column\n"
		  "shows them (link=0.05:match=0.5:growth=0.1:absorb=0.5:gap=1)",
	  CLI__FIELD(mev_track_params, link), .fn = parse_key },
	CLI_OPT_END
};
