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
	const char *to;       /* the newer release (NULL: the newest stored) */
	mev_history *history; /* the clusterings and tracks to read, opened on the same
			       * store (mev_history_open(); NULL: the default parameters) */
	const char *title;    /* project name in the heading (NULL: from the store) */
	double min_support;   /* events with a measured support below it are left out and
			       * counted (0: all shown; the command's default is 0.5) */
} mev_report_options;

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
