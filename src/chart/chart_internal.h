/* The lineage chart's model (what a tracked store says) and layout (where it is drawn) (internal). */
#ifndef MEV_CHART_INTERNAL_H
#define MEV_CHART_INTERNAL_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include "maintevo/chart.h"
#include "maintevo/json.h"
#include "maintevo/track.h"
#include "util/buf.h"
#include "util/strmap.h"

/* --- the model (model.c) --------------------------------------------------- */

/* A lineage's cluster in one release.  v[]: lines, files, sections. */
typedef struct {
	uint32_t lineage;        /* index into m->lin */
	uint32_t cluster;        /* its cluster number in the release */
	uint64_t v[MEV_CHART_MEASURES];
} mev__chart_node;

typedef struct {
	uint32_t id;             /* as 'lineages' prints it */
	const char *name;
	uint32_t parent;         /* lineage id it split from (0: none) */
	uint32_t into;           /* lineage id it merged into when it ended (0: none) */
	int32_t first, last;     /* model releases in which it has a node (-1: none) */
	uint64_t area[MEV_CHART_MEASURES]; /* sum over its nodes */
	uint64_t peak[MEV_CHART_MEASURES];
	uint32_t shown;          /* its band, 1-based, in the layout (0: "other") */
	uint32_t name0, nname;   /* its names (names.c): m->names.v[name0 .. name0 + nname) */
	const char *now;         /* the name it holds for good at its last release, when
				    that is not its stable name (names.c); else NULL */
} mev__chart_lineage;

/* From model release `rel` on, a lineage's cluster is called `name` (the
 * display name of its representative, as clusters are named): one record
 * where the name changes, for `len` releases of the lineage in a row. */
typedef struct {
	uint32_t lineage;        /* index into m->lin */
	uint32_t rel;
	uint32_t len;
	const char *name;        /* the lineage's stable name itself when its cluster is
				    called so (without the " (TAG)" a taken name has) */
} mev__chart_name;

/* A band segment: one tracker event.  from/to: lineage ids (0: none). */
typedef struct {
	uint32_t rel;            /* the model release it ends in (r - 1 -> r) */
	uint32_t from, to;
	uint64_t v[MEV_CHART_MEASURES];
	int64_t files;           /* -1: not countable (no file tables) */
	uint32_t event;          /* index into h.events */
} mev__chart_flow;

/* Releases in which a title belongs to a lineage: [start, end] pairs. */
typedef struct {
	uint32_t lineage;        /* index into m->lin */
	const char *title;       /* in m->arena */
	MEV_VEC(uint32_t) span;
} mev__chart_secrun;

/* Where a path's lineages change: from release `rel` on, ids pool[off..off+n). */
typedef struct {
	uint32_t path;           /* index into paths */
	uint32_t rel;
	uint32_t off, n;
} mev__chart_pathrun;

typedef struct {
	mev_history *h; /* the tracked history (the options' or own); NULL
				  * when it could not be read */
	mev_history *own; /* opened here when the options gave none */
	size_t nrel;
	uint32_t *rel;           /* model release -> index into h.list */
	MEV_VEC(mev__chart_node) *nodes; /* per model release, by lineage index */
	mev__chart_lineage *lin; /* by id order (h.lineages) */
	size_t nlin;
	uint32_t *lin_of_id;     /* lineage id -> index + 1 (0: unknown) */
	size_t max_id;
	MEV_VEC(mev__chart_flow) flows;
	MEV_VEC(mev__chart_secrun) secs;
	MEV_VEC(const char *) paths;
	MEV_VEC(mev__chart_pathrun) pathruns;
	MEV_VEC(uint32_t) pool;
	MEV_VEC(mev__chart_name) names; /* by lineage, then release (names.c) */
	int has_files;           /* every model release has a file table */
	mev_arena arena;
	mev_strmap sec_index;    /* "lineage index\0title" -> secs index */
	mev_strmap path_index;   /* path -> paths index */
	int64_t *unread;         /* per model release: MAINTAINERS files of its tree its script
				  * does not read (-1: not known); NULL: not read (unread.c) */
} mev__chart_model;

/* What mev__chart_model_load() reads besides nodes, lines, sections and flows. */
enum {
	MEV__CHART_FILES = 1,    /* the file tables: files per node and in common per flow */
	MEV__CHART_PATHS = 3     /* and the path index (the HTML page's search) */
};

/* Read the model of store s (releases from..to, NULL: all); `need`:
 * MEV__CHART_* (without FILES, has_files is 0 and files are 0).  Errors:
 * as mev_chart_write().  Free with mev__chart_model_free() (also after a
 * failure). */
int mev__chart_model_load(mev__chart_model *m, mev_store *s, mev_history *history, const char *from,
			  const char *to, unsigned need);
void mev__chart_model_free(mev__chart_model *m);
/* The node of lineage index li in model release r, or NULL. */
const mev__chart_node *mev__chart_node_of(const mev__chart_model *m, size_t r, uint32_t li);

/* --- the names a lineage carries (names.c) --------------------------------- */

/* A name holds "for good" when it holds this many releases in a row. */
#define MEV__CHART_NAME_HOLDS 2

/* Read the name of every lineage's cluster at every model release (its
 * first cluster by number, as mev_history_lineage_cluster()) into
 * m->names, and each lineage's `now`.  Errors: MEV_ENOMEM, MEV_ECORRUPT. */
int mev__chart_names_load(mev__chart_model *m);
/* The name lineage index li's cluster has at model release r. */
const char *mev__chart_name_at(const mev__chart_model *m, uint32_t li, size_t r);
/* 1 when the name of m->names.v[i] is a change for good: it holds
 * MEV__CHART_NAME_HOLDS releases or more and differs from the name the
 * lineage held for good before (its first name always counts as held). */
int mev__chart_name_changes(const mev__chart_model *m, size_t i);

/* --- the layout (layout.c) ------------------------------------------------- */

typedef struct {
	double x0, y0, x1, y1;
} mev__chart_box;

/* A band at one release: its node's top and height. */
typedef struct {
	double y, h;
	uint64_t v;              /* its measure */
} mev__chart_cell;

/* A ribbon: between (x0, y0a..y0b) and (x1, y1a..y1b). */
typedef struct {
	uint32_t band_from, band_to; /* 1-based bands; 0: none (birth, death) */
	uint32_t rel;            /* ends in model release rel */
	double y0a, y0b, y1a, y1b;
	uint64_t v;
} mev__chart_ribbon;

typedef struct {
	mev__chart_box box;      /* the text's box (x0 is its start) */
	double x, y;             /* the baseline's start */
	int rotated;             /* axis labels: turned -90 degrees about (x, y) */
	double angle;            /* band labels: turned this many degrees about (x, y) */
	uint32_t band;           /* band labels: 1-based; axis labels: 0 */
	uint32_t rel;            /* the model release (band labels: the node they start beside) */
	char text[160];
} mev__chart_label;

typedef struct {
	const mev__chart_model *m;
	mev_chart_measure measure;
	double width, height;    /* the whole drawing */
	double left, right, top, bottom; /* the plot area */
	double node_w;           /* a node's width */
	double font, axis_font;
	size_t nband;            /* shown lineages, plus "other" when it has any */
	uint32_t *band_lin;      /* band (0-based) -> lineage index; UINT32_MAX: other */
	char (*color)[8];        /* per band, "#rrggbb" */
	double *x;               /* per model release */
	mev__chart_cell *cell;   /* [r * nband + b]; h == 0: not alive */
	MEV_VEC(mev__chart_ribbon) ribbons;
	MEV_VEC(mev__chart_label) labels; /* band labels first, then the axis */
	size_t nband_labels;
	uint32_t other;          /* the other band, 1-based (0: none) */
	int64_t mark0, mark1;    /* model releases of the shaded span (-1: none) */
} mev__chart_layout;

/* Lay the model out: top lineages (< 0: default, 0: all). */
int mev__chart_layout_build(mev__chart_layout *l, mev__chart_model *m, mev_chart_measure measure,
			    mev_chart_x xmode, int top);
void mev__chart_layout_free(mev__chart_layout *l);
/* labels.c: the room the release names need below the plot, and every label placed. */
double mev__chart_axis_room(const mev__chart_layout *l);
int mev__chart_labels_place(mev__chart_layout *l);
/* A band's label: the name cut at 48 code points, controls as spaces. */
void mev__chart_label_text(char *out, size_t size, const char *name);
/* t (of `size` bytes) cut to `room` pixels at whole code points with an
 * ellipsis, then `tail` (which stays); the bytes of t kept before the ellipsis. */
size_t mev__chart_text_fit(char *t, size_t size, const char *tail, double font, double room);
/* The width of text in pixels at font size `font`, as the layout reckons it. */
double mev__chart_text_width(const char *s, double font);
/* 1 when the boxes overlap (touching is no overlap). */
int mev__chart_boxes_overlap(const mev__chart_box *a, const mev__chart_box *b);

/* --- releases whose script leaves MAINTAINERS files unread (unread.c) ------- */

/* m->unread from each release's health record.  Errors: a damaged record. */
int mev__chart_unread_load(mev__chart_model *m, mev_store *s);
/* The releases with unread files (0 when m->unread is NULL). */
size_t mev__chart_unread_count(const mev__chart_layout *l);
/* Their marks at the plot's top (nothing when there are none); page: focusable. */
void mev__chart_unread_marks(FILE *out, const mev__chart_layout *l, int page);
/* The legend's line for the marks at (x, y), when there are any: the y below it. */
double mev__chart_unread_legend(FILE *out, const mev__chart_layout *l, double x, double y);

/* --- writing (svg.c, html.c) ----------------------------------------------- */

/* The drawing as an <svg> element; standalone: an XML document with title
 * and legend for --format svg; else for the page (interactive attributes). */
void mev__chart_svg(FILE *out, const mev__chart_layout *l, const char *title, int standalone,
		    int xml_decl);
int mev__chart_html(FILE *out, const mev__chart_layout *l, const char *title,
		    const mev_chart_options *opt);
/* The page data's "people" and "listed" (people.c): opt's listed people of
 * the releases drawn, each person once.  -1 when out of memory. */
int mev__chart_json_people(mev_json *j, const mev__chart_model *m, const mev_chart_options *opt);
/* chart.js and chart.css, turned into C by the build (cmake/embed.cmake). */
extern const char mev__chart_js[], mev__chart_css[];
extern const size_t mev__chart_js_len, mev__chart_css_len;

#endif
