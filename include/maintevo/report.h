/* The release-over-release report: Markdown, or one self-contained HTML page. */
#ifndef MAINTEVO_REPORT_H
#define MAINTEVO_REPORT_H

#include <stdio.h>
#include "maintevo/store.h"
#include "maintevo/cluster.h"
#include "maintevo/track.h"

typedef enum {
	MEV_REPORT_MD = 0,  /* Markdown tables, for a mailing list post */
	MEV_REPORT_HTML     /* one HTML file: inline CSS and SVG, no script, no network */
} mev_report_format;

/* "md" (or "markdown"), "html"; -1 for an unknown name. */
int mev_report_format_parse(const char *name);

typedef struct {
	mev_report_format format;
	const char *from;     /* the older release (NULL: the one before `to`) */
	const char *to;       /* the newer release (NULL: the newest stored; with
			       * from NULL too, mev_report_default_pair's pair) */
	mev_history *history; /* the clusterings and tracks to read, opened on the same
			       * store (mev_history_open(); NULL: the default parameters) */
	const char *title;    /* project name in the heading (NULL: from the store) */
	double min_support;   /* events with a measured support below it are left out and
			       * counted (0: all shown; the command's default is 0.5) */
} mev_report_options;

/*
 * The pair a report compares when neither from nor to is given: the newest
 * two neighbouring releases (*from, *to: indices in the history, *from ==
 * *to - 1) between which the report shows a birth, death, split or merge
 * (support min_support or more); the two newest when no pair has one.
 * Growth and contraction do not count: nearly every pair has some.  A first
 * report then shows a pair where something happened; *to below the newest
 * release says that the newer pairs have no such event.
 * Errors: MEV_ENOTFOUND (fewer than two releases).
 */
int mev_report_default_pair(size_t *from, size_t *to, mev_history *h, double min_support);

/*
 * Compare two stored releases and write the report: headline numbers of
 * both and their change; sections added, removed and renamed; subsystems
 * born, died, split and merged (when the store is clustered and tracked);
 * the largest growers and shrinkers by lines; in HTML also charts of the
 * largest lineages over all releases, of the splits and merges in the range
 * and of the sections per release.  The output depends on the store only
 * (no clock), so the same store gives the same bytes.
 * Errors: MEV_ENOTFOUND (a release is not stored, or fewer than two
 * releases), MEV_EINVAL (from is not older than to), the store's errors,
 * MEV_EIO when writing fails.
 */
int mev_report_write(FILE *out, mev_store *s, const mev_report_options *opt);

#endif
