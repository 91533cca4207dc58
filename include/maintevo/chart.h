/* The lineage chart: the whole tracked history as one alluvial picture (HTML or SVG), and its flows. */
#ifndef MAINTEVO_CHART_H
#define MAINTEVO_CHART_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include "maintevo/store.h"
#include "maintevo/cluster.h"
#include "maintevo/track.h"

typedef enum {
	MEV_CHART_HTML = 0, /* one self-contained page: inline SVG, style, data and script */
	MEV_CHART_SVG       /* the same drawing as a static SVG with a legend, no script */
} mev_chart_format;

/* How releases are spaced along x. */
typedef enum {
	MEV_CHART_X_INDEX = 0, /* evenly */
	MEV_CHART_X_DATE       /* by committer date */
} mev_chart_x;

/* What a band's height measures. */
typedef enum {
	MEV_CHART_LINES = 0,   /* lines of the files the lineage covers (each once) */
	MEV_CHART_FILES,       /* files it covers */
	MEV_CHART_SECTIONS,    /* its sections */
	MEV_CHART_MEASURES
} mev_chart_measure;

/* "html", "svg"; "index", "date"; "lines", "files", "sections".  -1 when unknown. */
int mev_chart_format_parse(const char *name);
int mev_chart_x_parse(const char *name);
int mev_chart_measure_parse(const char *name);
const char *mev_chart_measure_name(mev_chart_measure m);

/* The default of mev_chart_options.top: the lineages drawn on their own. */
#define MEV_CHART_TOP_DEFAULT 24

/* A person MAINTAINERS lists (M: or R:) in a section at a release, with
 * what they did there: one row of 'maintevo export listed'. */
typedef struct {
	const char *release, *section; /* the release's tag, the section's title */
	const char *entry;        /* as listed: an address, or a handle */
	const char *name;         /* NULL when not known */
	const char *role;         /* "M" or "R" */
	const char *state;        /* active, quiet, gone, never_seen, unknown */
	int64_t last_active;      /* their last activity in the section; INT64_MIN: none */
} mev_chart_person;

typedef struct {
	mev_chart_format format;
	mev_chart_x x;
	mev_chart_measure measure;
	int top;              /* lineages drawn on their own, the largest by area (the sum
			       * of their measure over the releases); the rest are one
			       * "other" band.  0: all; < 0: MEV_CHART_TOP_DEFAULT */
	const char *from, *to; /* only the releases in between (version order, both
				* included; NULL: no limit) */
	mev_history *history; /* the clusterings and tracks to read, opened on the same
			       * store (mev_history_open(); NULL: the default parameters) */
	const char *store_path; /* how the page's reproducing commands name the store
				 * (NULL: they leave --store out) */
	const char *title;    /* the chart's heading (NULL: "Lineages of <project>") */
	const char *mark_from, *mark_to; /* a span of releases shaded behind the bands,
				* named in the heading (a report's pair; NULL: none; a
				* release not drawn: none) */
	int embedded;         /* SVG: an element for an HTML page, without the XML
			       * declaration (the report puts it inline) */
	const mev_chart_person *people; /* HTML: the listed people the lineage panel
				* shows, release by release (rows of releases or
				* sections not drawn are left out; NULL: none) */
	size_t n_people;
} mev_chart_options;

/*
 * Draw the lineages of a tracked store: x the releases, one band per
 * lineage as tall as its measure at each release, ribbons for the code that
 * moved between lineages (splits, merges) as wide as the tracker found it.
 * HTML is one page that fetches nothing, with the drawing, its data (JSON,
 * '<' escaped) and a script for hover, panel, search and zoom; SVG is the
 * drawing alone.  The same store gives the same bytes (no clock).
 * docs/schemas.md ("The lineage chart") says what the page holds for
 * scripts.  Errors: MEV_ENOTFOUND with a hint when the store holds no
 * release, is not tracked ('maintevo track' first), holds fewer than two
 * tracked releases in the range, or --from/--to is not stored; MEV_EINVAL
 * for --measure files on a store without file tables (imported); the
 * store's errors; MEV_EIO when writing fails.
 */
int mev_chart_write(FILE *out, mev_store *s, const mev_chart_options *opt);

/* One band segment between consecutive tracked releases. */
typedef struct {
	const char *from_release, *to_release;
	uint32_t from_lineage;  /* 0: none (a birth) */
	uint32_t to_lineage;    /* 0: none (a death) */
	uint64_t lines;         /* a link: the lines the tracker found in common
				 * (round(share * from_lines)); a birth or death: the
				 * cluster's lines */
	int64_t files;          /* files in common (by path), or of the cluster; -1 when
				 * either release has no file table */
	uint64_t sections;      /* sections in common (by title), or of the cluster */
} mev_chart_flow;

typedef struct {
	mev_chart_flow *v;      /* by to_release (deaths: the pair they end), then
				 * from_lineage, then to_lineage */
	size_t n;
	void *mem_;
} mev_chart_flow_list;

/*
 * The flows of the chart of the whole store, one per event of the tracker,
 * for the parameters of `history` (NULL: the defaults): what 'maintevo
 * export flows' writes.  Free with mev_chart_flow_list_free()
 * (also after a failure).  Errors: as mev_chart_write().
 */
int mev_chart_flows(mev_chart_flow_list *out, mev_store *s, mev_history *history);
void mev_chart_flow_list_free(mev_chart_flow_list *l);

#endif
