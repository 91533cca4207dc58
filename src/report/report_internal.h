/* Inside the report: its facts (facts.c), document layer (document.c) and parts (parts.c, part_*.c). */
#ifndef MEV_REPORT_INTERNAL_H
#define MEV_REPORT_INTERNAL_H

#include <stdint.h>
#include <stdio.h>
#include "maintevo/export.h"
#include "maintevo/release.h"
#include "maintevo/report.h"
#include "maintevo/track.h"
#include "util/buf.h"
#include "util/strmap.h"

/* --- the facts (facts.c) ------------------------------------------------------------ */

/* One of the two releases compared. */
typedef struct {
	size_t r;                  /* index in history */
	const mev_release *rel;    /* borrowed from the history */
	mev_filemap *secs;         /* its sections (no rows) */
	mev_graph *g;
	mev_edge *size;            /* own size per section index */
	mev_section_census census;
	int64_t clusters;          /* -1 when not clustered */
	mev_strmap by_title;       /* title -> section index */
} mev__side;

/* A section in both releases (same title, or renamed on the way). */
typedef struct {
	uint32_t a, b;             /* index in the older / newer release */
} mev__kept;

/* A split (one cluster, several successors) or a merge (the other way). */
typedef struct {
	mev_event_kind kind;
	size_t first, n;           /* its events in mev__report.moves */
	int64_t lines;             /* the code that moved: the shared lines of its links
				    * but the one of the lineage that goes on */
} mev__move;

/* Everything the report says, gathered once for both formats. */
typedef struct {
	mev_store *store;
	const mev_report_options *opt;
	mev_history *h; /* the tracked history read (r->opt->history or own) */
	mev_history *own; /* opened here when the options gave none */
	size_t ia, ib;             /* the releases compared, ia < ib */
	mev__side a, b;
	mev_section_change_list changes; /* between ia and ib, in release order */
	int changes_known;         /* 'maintevo track' ran */
	MEV_VEC(mev__kept) kept;
	MEV_VEC(const mev_event *) births, deaths, moves; /* in the range */
	size_t bridges;            /* lineages whose gap (a bridge) meets the range */
	MEV_VEC(mev__move) groups; /* splits and merges, by the code that moved */
	size_t weak;               /* events of the range left out: support < min_support */
	const char *project;
	char project_buf[64];
	mev_release_names *names;  /* display names of the titles the report shows */
	/* the listed people and sections of both releases (mev__listed_gather());
	 * listed_known 0: the store holds no flow (or its repository is gone) */
	mev_listed_list listed_a, listed_b;
	int listed_known;
} mev__report;

/*
 * Read what the report of `opt` says from store `s` into `r` (zeroed here):
 * the releases compared (opt->from, opt->to or the two newest), their
 * sections, the section changes and events between them, the history of
 * every release.  Free `r` with mev__report_free() (NULL is a no-op)
 * whether it fails or not.
 * Errors: MEV_ENOTFOUND (a release is not stored, fewer than two releases),
 * MEV_EINVAL (from is not older than to), the store's errors.
 */
int mev__report_gather(mev__report *r, mev_store *s, const mev_report_options *opt);
/* Fill r->listed_a, listed_b and listed_known (part_listed.c). */
int mev__listed_gather(mev__report *r);
/* The headline counts of a release's listed people (part_listed.c). */
typedef struct {
	int64_t entries, never_seen, quiet, orphaned; /* quiet: quiet or gone */
} mev__listed_counts;
mev__listed_counts mev__listed_count(const mev_listed_list *l);
void mev__report_free(mev__report *r);

/*
 * What the report shows for section (or cluster representative) `title` of
 * `release`: its display name (NULL for NULL).  The title is the key that
 * joins; people read the display name.  Should the release record fail to
 * read, the title is shown.
 */
const char *mev__display(const mev__report *r, const char *release, const char *title);


/* More than one step between the releases: tables name the step. */
int mev__multi_step(const mev__report *r);

/* Lines of the subsystem an event is about: after a birth, before a death. */
int64_t mev__event_size(const mev_event *e);

/* The code two clusters of a split or merge share, estimated from the
 * event's similarity: the width of its flow. */
double mev__shared_lines(const mev_event *e);

/* "A, B, C and 5 more": the largest sections of the cluster represented by
 * `rep` in release `release` (empty when not found). */
void mev__cluster_sections(mev_buf *out, const mev__report *r, const char *release, const char *rep);

/* The section changes of one kind, largest first (added: size now;
 * removed, renamed: size before); *out is the caller's to free.  Errors:
 * MEV_ENOMEM. */
int mev__changes_of_kind(const mev_section_change ***out, size_t *n, const mev__report *r,
			 mev_section_change_kind kind);

/* One row of a growers table: name (and its former name), before, after. */
typedef struct {
	const char *name, *was;
	int64_t a, b;
} mev__mover;

/* Sections in both releases, by their change in lines, largest growth
 * first; *out is the caller's to free.  Errors: MEV_ENOMEM. */
int mev__section_movers(mev__mover **out, size_t *n, const mev__report *r);

/* Subsystems in both releases (clusters of one lineage), sorted the same
 * way; none when the releases are not clustered and tracked. */
int mev__lineage_movers(mev__mover **out, size_t *n, const mev__report *r);

/* The series of one of the largest lineages. */
typedef struct {
	int64_t id;
	uint64_t peak;
	double *lines;             /* per release from mev__lineages.first */
	const char *name;          /* representative in its last release up to ib */
} mev__lineage_series;

/* The largest lineages (by their peak) over the releases up to the newer one. */
typedef struct {
	size_t first;              /* the first release with clusters */
	size_t nrel;               /* releases from `first` to ib; 0: none is clustered */
	mev__lineage_series *v;    /* the largest, largest first */
	size_t n;
} mev__lineages;

/* Fill `out` (zeroed here) with at most `max` lineages; free it with
 * mev__lineages_free() (NULL is a no-op) whether it fails or not.
 * Errors: MEV_ENOMEM. */
int mev__top_lineages(mev__lineages *out, const mev__report *r, size_t max);
void mev__lineages_free(mev__lineages *l);

/* The releases whose script leaves MAINTAINERS files of their tree unread
 * (unread.c), for a mark beside their tag and one note that says why. */
typedef struct {
	int64_t *count;            /* per release: the files not read; -1 not known */
	char **label;              /* per release: the tag and a dagger when count > 0, else NULL */
	size_t n, marked;
} mev__unread;

/* Releases 0..n-1 into `u` (zeroed here); free with mev__unread_free()
 * whether it fails or not.  Errors: the health records', MEV_ENOMEM. */
int mev__unread_read(mev__unread *u, const mev__report *r, size_t n);
void mev__unread_free(mev__unread *u);
/* The label of release i: its tag with the mark when it has one. */
const char *mev__unread_tag(const mev__unread *u, size_t i, const char *tag);

/* --- the document layer (document.c) -------------------------------------------------- */

/* A document being written: Markdown or HTML, and the open table. */
typedef struct {
	FILE *out;
	mev_report_format fmt;
	const char *align;         /* of the open table: a letter per column (mev__doc_table) */
	size_t col;                /* the next cell's column */
	const char *title;         /* the document's (mev__doc_begin) */
} mev__doc;

/* The HTML page's head with `title` (nothing in Markdown; `title` must
 * outlive the document) / the footer. */
void mev__doc_begin(mev__doc *d, const char *title);
void mev__doc_end(mev__doc *d);

/* Text in the document's format, escaped (HTML entities; Markdown: markup
 * characters backslash-escaped, line breaks made spaces). */
void mev__doc_text(mev__doc *d, const char *s);

/* Formatted text, escaped. */
void mev__doc_printf(mev__doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A heading; HTML headings of level 2 get an anchor made of their text. */
void mev__doc_anchor(mev__doc *d, const char *heading);
void mev__doc_heading(mev__doc *d, int level, const char *s);

/* A paragraph (cls: its HTML class, or NULL; "note" is italic in Markdown). */
void mev__doc_para_begin(mev__doc *d, const char *cls);
void mev__doc_para_end(mev__doc *d, const char *cls);
void mev__doc_para(mev__doc *d, const char *cls, const char *s);

/* The note under a series of releases that says why some are marked
 * (nothing when none is; unread.c). */
void mev__unread_legend(mev__doc *d, const mev__unread *u, const mev__report *r);

/* `code` inline. */
void mev__doc_code(mev__doc *d, const char *s);

/* A table: headers (escaped) and the kind of each column: 'l' text, 'r'
 * numbers (right-aligned), 't' release tags (left, never wrapped).  Cells
 * fill the rows left to right; `align` must outlive the table. */
void mev__doc_table(mev__doc *d, const char *const *headers, const char *align);
void mev__doc_table_end(mev__doc *d);

/* Open the next cell (cls: an extra HTML class, or NULL) / close it. */
void mev__doc_cell_begin(mev__doc *d, const char *cls);
void mev__doc_cell_end(mev__doc *d);

/* A cell of text (escaped), of a count ("1,234"), of a change ("+1,234
 * (+2.1%)", coloured in HTML by `worse`: 1 up is worse, -1 down, 0 neither). */
void mev__doc_cell(mev__doc *d, const char *s);
void mev__doc_cell_count(mev__doc *d, int64_t v);
void mev__doc_cell_change(mev__doc *d, int64_t from, int64_t to, int percent, int worse);

/* "… and 12 more; all of them: `cmd`" below a cut list (nothing if 0). */
void mev__doc_more(mev__doc *d, size_t more, const char *cmd);

/* A note saying which command fills a part of the report that is empty. */
void mev__doc_missing(mev__doc *d, const char *what, const char *cmd);

/* The HTML class of a change: "good", "bad" or NULL (see mev__doc_cell_change). */
const char *mev__change_class(int64_t dlt, int worse);

/* "2024-01-31" (UTC); counts: mev_table_count() */
void mev__fmt_date(char out[16], int64_t t);

/* --- the parts (parts.c walks them in order, a file each) ------------------------------ */

/* Rows of a list before "... and N more". */
#define MEV__REPORT_LIST_MAX 60

/*
 * Each part writes itself into `d` in both formats; parts.c writes the
 * level-2 heading of those that have one first.  Errors: the store's,
 * MEV_ENOMEM.
 */
int mev__part_title(mev__doc *d, const mev__report *r);       /* part_title.c */
int mev__part_glance(mev__doc *d, const mev__report *r);      /* part_glance.c */
int mev__part_subsystems(mev__doc *d, const mev__report *r);  /* part_subsystems.c */
int mev__part_sections(mev__doc *d, const mev__report *r);    /* part_sections.c */
int mev__part_movers(mev__doc *d, const mev__report *r);      /* part_movers.c */
int mev__part_history(mev__doc *d, const mev__report *r);     /* part_history.c */
int mev__part_lineages(mev__doc *d, const mev__report *r);    /* part_lineages.c */
/* The MAINTAINERS health over the releases up to the newer one. */
int mev__part_health(mev__doc *d, const mev__report *r);      /* part_health.c */
/* "Patch flow": nothing when the store holds no flow. */
int mev__part_people(mev__doc *d, const mev__report *r);
int mev__part_listed(mev__doc *d, const mev__report *r);
int mev__part_flow(mev__doc *d, const mev__report *r);        /* part_flow.c */

/* The HTML navigation: a link to each part the table gives a nav label. */
void mev__parts_nav(mev__doc *d);

#endif
