/* The one writer of graphs: GraphML, networkx node-link JSON, Graphviz DOT and a CSV edge list. */
#include "maintevo/graphdoc.h"
#include "maintevo/error.h"
#include "maintevo/table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int mev_graph_format_parse(const char *name)
{
	static const char *const names[] = { "csv", "graphml", "json", "dot" };
	for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

static const char *graphml_type(mev_gdoc_type t)
{
	switch (t) {
	case MEV_GDOC_INT: return "int";
	case MEV_GDOC_LONG: return "long";
	case MEV_GDOC_DOUBLE: return "double";
	default: return "string";
	}
}

static int is_missing(const mev_gdoc_attr *a, const mev_gdoc_value *v)
{
	return a->type == MEV_GDOC_STRING ? !v->str : v->missing;
}

/* The writer's scratch: one vertex's values, an edge's, and its ends'. */
typedef struct {
	FILE *out;
	const mev_graphdoc *d;
	mev_gdoc_value *vv, *ev, *end;
} writer;

/* Vertex i's number and values (cleared first: what the callback leaves
 * is a missing string or a 0). */
static void vertex_of(const mev_graphdoc *d, size_t i, uint64_t *number, mev_gdoc_value *v)
{
	memset(v, 0, d->n_vattrs * sizeof *v);
	d->vertex(d->ctx, i, number, v);
}

/* Edge i's ends and values (cleared first); 1 when it is left out. */
static int edge_of(const mev_graphdoc *d, size_t i, size_t *a, size_t *b, mev_gdoc_value *v)
{
	memset(v, 0, d->n_eattrs * sizeof *v);
	return d->edge(d->ctx, i, a, b, v);
}

static void xml_str(FILE *out, const char *s)
{
	mev_table_xml_str(out, s, strlen(s));
}

static void json_str(FILE *out, const char *s)
{
	mev_table_json_str(out, s, strlen(s));
}

/* --- GraphML ------------------------------------------------------------------ */

static void graphml_keys(FILE *out, const mev_gdoc_attr *a, size_t n, const char *for_)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "  <key id=\"%c_", for_[0] == 'n' ? 'v' : 'e');
		xml_str(out, a[i].name);
		fprintf(out, "\" for=\"%s\" attr.name=\"", for_);
		xml_str(out, a[i].name);
		fprintf(out, "\" attr.type=\"%s\"/>\n", graphml_type(a[i].type));
	}
}

static void graphml_data(FILE *out, const mev_gdoc_attr *a, const mev_gdoc_value *v, size_t n,
			 char kind)
{
	for (size_t i = 0; i < n; i++) {
		if (is_missing(&a[i], &v[i]))
			continue;
		fprintf(out, "      <data key=\"%c_", kind);
		xml_str(out, a[i].name);
		fputs("\">", out);
		if (a[i].type == MEV_GDOC_STRING)
			xml_str(out, v[i].str);
		else
			fprintf(out, "%" PRIu64, v[i].num);
		fputs("</data>\n", out);
	}
}

static void write_graphml(writer *w)
{
	const mev_graphdoc *d = w->d;
	FILE *out = w->out;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"\n"
	      "    xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
	      "    xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
	      "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n", out);
	graphml_keys(out, d->vattrs, d->n_vattrs, "node");
	graphml_keys(out, d->eattrs, d->n_eattrs, "edge");
	fputs("  <graph id=\"", out);
	xml_str(out, d->id ? d->id : "G");
	fputs("\" edgedefault=\"undirected\">\n", out);
	for (size_t i = 0; i < d->n_vertices; i++) {
		uint64_t num;
		vertex_of(d, i, &num, w->vv);
		fprintf(out, "    <node id=\"n%" PRIu64 "\">\n", num);
		graphml_data(out, d->vattrs, w->vv, d->n_vattrs, 'v');
		fputs("    </node>\n", out);
	}
	for (size_t i = 0; i < d->n_edges; i++) {
		uint64_t na, nb;
		size_t a, b;
		if (edge_of(d, i, &a, &b, w->ev))
			continue;
		vertex_of(d, a, &na, w->end);
		vertex_of(d, b, &nb, w->end);
		fprintf(out, "    <edge source=\"n%" PRIu64 "\" target=\"n%" PRIu64 "\">\n", na, nb);
		graphml_data(out, d->eattrs, w->ev, d->n_eattrs, 'e');
		fputs("    </edge>\n", out);
	}
	fputs("  </graph>\n</graphml>\n", out);
}

/* --- node-link JSON ------------------------------------------------------------- */

/* ", "key": value" for attributes from..n; null for a missing one. */
static void json_attrs(FILE *out, const mev_gdoc_attr *a, const mev_gdoc_value *v, size_t from,
		       size_t n)
{
	for (size_t i = from; i < n; i++) {
		fputs(", ", out);
		json_str(out, a[i].name);
		fputs(": ", out);
		if (is_missing(&a[i], &v[i]))
			fputs("null", out);
		else if (a[i].type == MEV_GDOC_STRING)
			json_str(out, v[i].str);
		else
			fprintf(out, "%" PRIu64, v[i].num);
	}
}

static void write_json(writer *w)
{
	const mev_graphdoc *d = w->d;
	FILE *out = w->out;
	int first = 1;
	fputs("{\"directed\": false, \"multigraph\": false, \"graph\": {", out);
	for (size_t i = 0; i < d->n_graph_attrs; i++) {
		fputs(i ? ", " : "", out);
		json_str(out, d->graph_attrs[i].name);
		fputs(": ", out);
		json_str(out, d->graph_values[i]);
	}
	fputs("},\n \"nodes\": [", out);
	for (size_t i = 0; i < d->n_vertices; i++) {
		uint64_t num;
		vertex_of(d, i, &num, w->vv);
		fputs(i ? ",\n  {\"id\": " : "\n  {\"id\": ", out);
		json_str(out, w->vv[0].str);
		json_attrs(out, d->vattrs, w->vv, 1, d->n_vattrs);
		fputs("}", out);
	}
	fputs("\n ],\n \"links\": [", out);
	for (size_t i = 0; i < d->n_edges; i++) {
		uint64_t num;
		size_t a, b;
		if (edge_of(d, i, &a, &b, w->ev))
			continue;
		fputs(first ? "\n  {\"source\": " : ",\n  {\"source\": ", out);
		first = 0;
		vertex_of(d, a, &num, w->end);
		json_str(out, w->end[0].str);
		fputs(", \"target\": ", out);
		vertex_of(d, b, &num, w->end);
		json_str(out, w->end[0].str);
		json_attrs(out, d->eattrs, w->ev, 0, d->n_eattrs);
		fputs("}", out);
	}
	fputs("\n ]\n}\n", out);
}

/* --- DOT -------------------------------------------------------------------------- */

/* "[a=1, b="x"]" (label first when there is one), nothing when no value is there. */
static void dot_attrs(FILE *out, const mev_gdoc_attr *a, const mev_gdoc_value *v, size_t n,
		      int label)
{
	int any = 0;
	if (label >= 0 && !is_missing(&a[label], &v[label])) {
		fputs(" [label=", out);
		mev_table_dot_str(out, v[label].str, strlen(v[label].str), 1);
		any = 1;
	}
	for (size_t i = 0; i < n; i++) {
		if ((int)i == label || is_missing(&a[i], &v[i]))
			continue;
		fprintf(out, "%s%s=", any ? ", " : " [", a[i].name);
		any = 1;
		if (a[i].type == MEV_GDOC_STRING)
			mev_table_dot_str(out, v[i].str, strlen(v[i].str), 0);
		else
			fprintf(out, "%" PRIu64, v[i].num);
	}
	fputs(any ? "];\n" : ";\n", out);
}

static void write_dot(writer *w)
{
	const mev_graphdoc *d = w->d;
	FILE *out = w->out;
	fputs("graph ", out);
	if (d->name) {
		mev_table_dot_str(out, d->name, strlen(d->name), 0);
		fputs(" ", out);
	}
	fputs("{\n", out);
	for (size_t i = 0; i < d->n_vertices; i++) {
		uint64_t num;
		vertex_of(d, i, &num, w->vv);
		fprintf(out, "  n%" PRIu64, num);
		dot_attrs(out, d->vattrs, w->vv, d->n_vattrs, d->label);
	}
	for (size_t i = 0; i < d->n_edges; i++) {
		uint64_t na, nb;
		size_t a, b;
		if (edge_of(d, i, &a, &b, w->ev))
			continue;
		vertex_of(d, a, &na, w->end);
		vertex_of(d, b, &nb, w->end);
		fprintf(out, "  n%" PRIu64 " -- n%" PRIu64, na, nb);
		dot_attrs(out, d->eattrs, w->ev, d->n_eattrs, -1);
	}
	fputs("}\n", out);
}

/* --- CSV edge list ---------------------------------------------------------------- */

static int write_csv(writer *w)
{
	const mev_graphdoc *d = w->d;
	mev_column *cols = calloc(d->n_eattrs + 3, sizeof *cols);
	mev_table *t = NULL;
	int rc;
	if (!cols)
		return mev_error_oom();
	cols[0] = (mev_column){ "from", MEV_COLUMN_STRING };
	cols[1] = (mev_column){ "to", MEV_COLUMN_STRING };
	for (size_t i = 0; i < d->n_eattrs; i++)
		cols[i + 2] = (mev_column){ d->eattrs[i].name, d->eattrs[i].type == MEV_GDOC_STRING
							       ? MEV_COLUMN_STRING : MEV_COLUMN_INTEGER };
	rc = mev_table_new(&t, w->out, MEV_TABLE_CSV, cols);
	if (!rc)
		mev_table_excel_safe(t, d->excel_safe);
	for (size_t i = 0; !rc && i < d->n_edges; i++) {
		uint64_t num;
		size_t a, b;
		if (edge_of(d, i, &a, &b, w->ev))
			continue;
		vertex_of(d, a, &num, w->end);
		mev_table_str(t, w->end[0].str);
		vertex_of(d, b, &num, w->end);
		mev_table_str(t, w->end[0].str);
		for (size_t j = 0; j < d->n_eattrs; j++)
			if (is_missing(&d->eattrs[j], &w->ev[j]))
				mev_table_null(t);
			else if (d->eattrs[j].type == MEV_GDOC_STRING)
				mev_table_str(t, w->ev[j].str);
			else
				mev_table_uint(t, w->ev[j].num);
		mev_table_end_row(t);
	}
	if (!rc)
		rc = mev_table_finish(t);
	mev_table_free(t);
	free(cols);
	return rc;
}

int mev_graphdoc_write(FILE *out, const mev_graphdoc *d, mev_graph_format fmt)
{
	writer w = { out, d, NULL, NULL, NULL };
	int rc = 0;
	w.vv = calloc(d->n_vattrs + 1, sizeof *w.vv);
	w.end = calloc(d->n_vattrs + 1, sizeof *w.end);
	w.ev = calloc(d->n_eattrs + 1, sizeof *w.ev);
	if (!w.vv || !w.end || !w.ev)
		rc = mev_error_oom();
	else if (fmt == MEV_GRAPH_GRAPHML)
		write_graphml(&w);
	else if (fmt == MEV_GRAPH_JSON)
		write_json(&w);
	else if (fmt == MEV_GRAPH_DOT)
		write_dot(&w);
	else
		rc = write_csv(&w);
	free(w.vv);
	free(w.end);
	free(w.ev);
	if (rc == MEV_EIO || (!rc && ferror(out)))
		return mev_error_write("graph");
	return rc;
}
