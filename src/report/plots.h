/* Small inline SVG plots for the HTML report (internal). */
#ifndef MEV_REPORT_PLOTS_H
#define MEV_REPORT_PLOTS_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

/* Colour i of a palette of distinguishable colours (cycles). */
const char *mev__plot_color(size_t i);

/* "1.2M", "350k", "999": short numbers for axes and labels. */
void mev__plot_short(char out[16], double v);

/*
 * A bar per x value: values[i] at labels[i]; bars with highlight[i] set are
 * drawn in the accent colour and their labels take precedence.
 * `caption` is the accessible name of the plot.
 */
void mev__plot_bars(FILE *out, const char *caption, const char *const *labels,
		    const double *values, const uint8_t *highlight, size_t n);

/* One band of a stacked area plot. */
typedef struct {
	const char *name;       /* legend text (any bytes; escaped here) */
	const double *values;   /* one per x position */
} mev__plot_series;

/*
 * Stacked areas over x positions 0..n-1 labelled labels[i]; series[0] at the
 * bottom.  A legend on the right names every band (top band first) with its
 * last value.  Positions with mark[i] set get a vertical guide line.
 */
void mev__plot_stacked(FILE *out, const char *caption, const char *const *labels, size_t n,
		       const mev__plot_series *series, size_t nseries, const uint8_t *mark);

/* A node of an alluvial diagram: a bar in one column. */
typedef struct {
	const char *name;
	size_t column;
	double value;           /* height */
	int color;              /* palette index, -1 for grey */
	size_t group;           /* nodes of a group are drawn side by side, below the
				 * groups before it (0 for all: one block) */
} mev__plot_node;

/* A flow from node `from` (a column) to node `to` (the next column). */
typedef struct {
	size_t from, to;
	double value;           /* width */
} mev__plot_flow;

/*
 * Columns of nodes (titled column_titles[c]) joined by flows.  Node heights
 * and flow widths are on one scale, the same for every group (the largest
 * fills the plot's height).  Nodes are stacked in their column in
 * array order, group after group (groups in increasing order, each starting
 * below the end of the previous one in every column).  Node names are
 * written beside the bars (left column: on the left, others: on the right).
 */
void mev__plot_alluvial(FILE *out, const char *caption, const char *const *column_titles,
			size_t ncolumns, const mev__plot_node *nodes, size_t nnodes,
			const mev__plot_flow *flows, size_t nflows);

#endif
