/* A graph as its byte formats see it (GraphML, node-link JSON, DOT, a CSV edge list) and their one writer. */
#ifndef MAINTEVO_GRAPHDOC_H
#define MAINTEVO_GRAPHDOC_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Every graph a command writes ('maintevo graph', 'maintevo export graph')
 * is first described as a mev_graphdoc: its vertices and edges with named,
 * typed attributes, and a few things about the whole graph.  The writer
 * then knows nothing of sections or clusters, and two commands writing the
 * same format write it the same way.  What differs between two graphs
 * (which attributes, their order, which vertices, in which order) is in
 * the description.  docs/schemas.md describes the formats.
 */

typedef enum {
	MEV_GRAPH_CSV = 0,  /* an edge list: "from,to," then the edge attributes (mev_table CSV) */
	MEV_GRAPH_GRAPHML,  /* GraphML: Gephi, igraph, networkx */
	MEV_GRAPH_JSON,     /* networkx node-link JSON */
	MEV_GRAPH_DOT       /* Graphviz DOT */
} mev_graph_format;

/* "csv", "graphml", "json", "dot"; -1 for an unknown name. */
int mev_graph_format_parse(const char *name);

/* An attribute's type: what GraphML declares (attr.type); JSON, DOT and
 * CSV only tell strings from numbers. */
typedef enum {
	MEV_GDOC_STRING = 0, /* UTF-8 text (other bytes are read as ISO-8859-1) */
	MEV_GDOC_INT,        /* a whole number that fits 32 bits: "int" */
	MEV_GDOC_LONG,       /* a whole number: "long" */
	MEV_GDOC_DOUBLE      /* declared "double" (a weight, say); the values are whole numbers */
} mev_gdoc_type;

/* An attribute: its name is GraphML's attr.name (the key is "v_<name>" or
 * "e_<name>"), the JSON key, the DOT attribute and the CSV column: plain
 * [a-z_] text. */
typedef struct {
	const char *name;
	mev_gdoc_type type;
} mev_gdoc_attr;

/* One attribute's value.  A missing value is left out of GraphML and DOT,
 * and is null in JSON and an empty CSV field. */
typedef struct {
	const char *str;     /* strings (NULL: missing) */
	uint64_t num;        /* numbers */
	int missing;         /* numbers: no value */
} mev_gdoc_value;

typedef struct {
	const char *id;      /* GraphML's <graph id=...> */
	const char *name;    /* DOT's graph name (NULL: none) */
	/* String attributes of the whole graph: JSON's "graph" object. */
	const mev_gdoc_attr *graph_attrs;
	const char *const *graph_values;
	size_t n_graph_attrs;

	/* The vertex attributes; the first is the vertex's name (a string,
	 * unique): JSON's "id", the CSV from/to, what edges are known by. */
	const mev_gdoc_attr *vattrs;
	size_t n_vattrs;
	int label;           /* the vertex attribute DOT shows as the label (-1: none) */
	const mev_gdoc_attr *eattrs;
	size_t n_eattrs;

	size_t n_vertices, n_edges;
	/* Vertex i (0 <= i < n_vertices, in any order): its number (GraphML's
	 * and DOT's node id "n<number>", unique) and its n_vattrs values
	 * (cleared before the call: a value not set is a missing string or 0). */
	void (*vertex)(void *ctx, size_t i, uint64_t *number, mev_gdoc_value *values);
	/* Edge i (asked for in order, 0 to n_edges - 1): its ends (vertex
	 * indices) and n_eattrs values (cleared as above); returns 1 to leave
	 * it out. */
	int (*edge)(void *ctx, size_t i, size_t *a, size_t *b, mev_gdoc_value *values);
	void *ctx;
	/* csv: text cells safe for a spreadsheet (mev_table_excel_safe()) */
	int excel_safe;
} mev_graphdoc;

/*
 * Write the graph `d` describes in `fmt`:
 *   csv      a header "from,to,<edge attributes>", then one row per edge
 *   graphml  a <key> per attribute (vertex ones, then edge ones), <graph
 *            id=d->id edgedefault="undirected">, the vertices, then the edges
 *   json     {"directed": false, "multigraph": false, "graph": {...},
 *            "nodes": [...], "links": [...]}, a node or link a line
 *   dot      graph d->name { n<number> [label=..., <attributes>]; ...
 *            n<a> -- n<b> [<attributes>]; }
 * Errors: MEV_ENOMEM, MEV_EIO (writing failed).
 */
int mev_graphdoc_write(FILE *out, const mev_graphdoc *d, mev_graph_format fmt);

#endif
