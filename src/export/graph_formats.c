/* An exported graph written as GraphML, networkx node-link JSON or Graphviz DOT. */
#include "export_internal.h"

#include <inttypes.h>
#include <string.h>

/* A DOT quoted string (mev_table_dot_str()); labels with '&' as "&amp;". */
static void dot_str(FILE *out, const char *s, int label)
{
	mev_table_dot_str(out, s, strlen(s), label);
}

static void xml_data(FILE *out, const char *key, const char *value)
{
	fprintf(out, "      <data key=\"%s\">", key);
	mev_table_xml_str(out, value, strlen(value));
	fputs("</data>\n", out);
}

void mev__export_graphml(FILE *out, const mev__xgraph *g)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"\n"
	      "    xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
	      "    xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
	      "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n"
	      "  <key id=\"v_name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n"
	      "  <key id=\"v_display_name\" for=\"node\" attr.name=\"display_name\" "
	      "attr.type=\"string\"/>\n"
	      "  <key id=\"v_lines\" for=\"node\" attr.name=\"lines\" attr.type=\"long\"/>\n"
	      "  <key id=\"v_bytes\" for=\"node\" attr.name=\"bytes\" attr.type=\"long\"/>\n"
	      "  <key id=\"v_files\" for=\"node\" attr.name=\"files\" attr.type=\"long\"/>\n",
	      out);
	if (g->meta)
		fputs("  <key id=\"v_sections\" for=\"node\" attr.name=\"sections\" attr.type=\"long\"/>\n"
		      "  <key id=\"v_code_lines\" for=\"node\" attr.name=\"code_lines\" attr.type=\"long\"/>\n",
		      out);
	else
		fputs("  <key id=\"v_status\" for=\"node\" attr.name=\"status\" attr.type=\"string\"/>\n"
		      "  <key id=\"v_maintainers\" for=\"node\" attr.name=\"maintainers\" attr.type=\"int\"/>\n",
		      out);
	fputs("  <key id=\"v_cluster\" for=\"node\" attr.name=\"cluster\" attr.type=\"long\"/>\n"
	      "  <key id=\"v_representative\" for=\"node\" attr.name=\"representative\" "
	      "attr.type=\"string\"/>\n"
	      "  <key id=\"v_lineage\" for=\"node\" attr.name=\"lineage\" attr.type=\"long\"/>\n"
	      "  <key id=\"v_lineage_name\" for=\"node\" attr.name=\"lineage_name\" "
	      "attr.type=\"string\"/>\n"
	      "  <key id=\"e_lines\" for=\"edge\" attr.name=\"lines\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_bytes\" for=\"edge\" attr.name=\"bytes\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_files\" for=\"edge\" attr.name=\"files\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_weight\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n",
	      out);
	fprintf(out, "  <graph id=\"%s\" edgedefault=\"undirected\">\n", g->meta ? "clusters" : "sections");
	for (size_t i = 0; i < g->v.n; i++) {
		const mev__gvertex *v = &g->v.v[i];
		fprintf(out, "    <node id=\"n%zu\">\n", i);
		xml_data(out, "v_name", v->name);
		xml_data(out, "v_display_name", v->display);
		fprintf(out, "      <data key=\"v_lines\">%" PRIu64 "</data>\n"
			"      <data key=\"v_bytes\">%" PRIu64 "</data>\n"
			"      <data key=\"v_files\">%" PRIu64 "</data>\n", v->lines, v->bytes, v->files);
		if (g->meta) {
			fprintf(out, "      <data key=\"v_sections\">%" PRIu64 "</data>\n", v->sections);
			if (v->code >= 0)
				fprintf(out, "      <data key=\"v_code_lines\">%" PRId64 "</data>\n", v->code);
		} else {
			xml_data(out, "v_status", v->status);
			fprintf(out, "      <data key=\"v_maintainers\">%" PRIu64 "</data>\n", v->maintainers);
		}
		if (v->m.cluster >= 0)
			fprintf(out, "      <data key=\"v_cluster\">%" PRId64 "</data>\n", v->m.cluster);
		if (v->m.representative)
			xml_data(out, "v_representative", v->m.representative);
		if (v->m.lineage >= 0)
			fprintf(out, "      <data key=\"v_lineage\">%" PRId64 "</data>\n", v->m.lineage);
		if (v->m.lineage_name && v->m.lineage_name[0])
			xml_data(out, "v_lineage_name", v->m.lineage_name);
		fputs("    </node>\n", out);
	}
	for (size_t i = 0; i < g->e.n; i++) {
		const mev__gedge *e = &g->e.v[i];
		fprintf(out, "    <edge source=\"n%u\" target=\"n%u\">\n"
			"      <data key=\"e_lines\">%" PRIu64 "</data>\n"
			"      <data key=\"e_bytes\">%" PRIu64 "</data>\n"
			"      <data key=\"e_files\">%" PRIu64 "</data>\n"
			"      <data key=\"e_weight\">%" PRIu64 "</data>\n    </edge>\n",
			e->a, e->b, e->lines, e->bytes, e->files, e->lines);
	}
	fputs("  </graph>\n</graphml>\n", out);
}

static void json_int_or_null(FILE *out, const char *key, int64_t v)
{
	if (v >= 0)
		fprintf(out, ", \"%s\": %" PRId64, key, v);
	else
		fprintf(out, ", \"%s\": null", key);
}

void mev__export_nodelink(FILE *out, const mev__xgraph *g)
{
	fprintf(out, "{\"directed\": false, \"multigraph\": false, \"graph\": {\"level\": \"%s\"},\n"
		" \"nodes\": [", g->meta ? "clusters" : "sections");
	for (size_t i = 0; i < g->v.n; i++) {
		const mev__gvertex *v = &g->v.v[i];
		fputs(i ? ",\n  {\"id\": " : "\n  {\"id\": ", out);
		mev_table_json_str(out, v->name, strlen(v->name));
		fputs(", \"display_name\": ", out);
		mev_table_json_str(out, v->display, strlen(v->display));
		fprintf(out, ", \"lines\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"files\": %" PRIu64,
			v->lines, v->bytes, v->files);
		if (g->meta) {
			fprintf(out, ", \"sections\": %" PRIu64, v->sections);
			json_int_or_null(out, "code_lines", v->code);
		} else {
			fputs(", \"status\": ", out);
			mev_table_json_str(out, v->status, strlen(v->status));
			fprintf(out, ", \"maintainers\": %" PRIu64, v->maintainers);
		}
		json_int_or_null(out, "cluster", v->m.cluster);
		fputs(", \"representative\": ", out);
		if (v->m.representative)
			mev_table_json_str(out, v->m.representative, strlen(v->m.representative));
		else
			fputs("null", out);
		json_int_or_null(out, "lineage", v->m.lineage);
		fputs(", \"lineage_name\": ", out);
		if (v->m.lineage_name && v->m.lineage_name[0])
			mev_table_json_str(out, v->m.lineage_name, strlen(v->m.lineage_name));
		else
			fputs("null", out);
		fputs("}", out);
	}
	fputs("\n ],\n \"links\": [", out);
	for (size_t i = 0; i < g->e.n; i++) {
		const mev__gedge *e = &g->e.v[i];
		fputs(i ? ",\n  {\"source\": " : "\n  {\"source\": ", out);
		mev_table_json_str(out, g->v.v[e->a].name, strlen(g->v.v[e->a].name));
		fputs(", \"target\": ", out);
		mev_table_json_str(out, g->v.v[e->b].name, strlen(g->v.v[e->b].name));
		fprintf(out, ", \"lines\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"files\": %" PRIu64
			", \"weight\": %" PRIu64 "}", e->lines, e->bytes, e->files, e->lines);
	}
	fputs("\n ]\n}\n", out);
}

void mev__export_dot(FILE *out, const mev__xgraph *g, const char *tag)
{
	fputs("graph ", out);
	dot_str(out, tag, 0);
	fputs(" {\n", out);
	for (size_t i = 0; i < g->v.n; i++) {
		const mev__gvertex *v = &g->v.v[i];
		fprintf(out, "  n%zu [label=", i);
		dot_str(out, v->display, 1);
		fputs(", name=", out);
		dot_str(out, v->name, 0);
		fprintf(out, ", lines=%" PRIu64 ", bytes=%" PRIu64 ", files=%" PRIu64, v->lines,
			v->bytes, v->files);
		if (g->meta) {
			fprintf(out, ", sections=%" PRIu64, v->sections);
			if (v->code >= 0)
				fprintf(out, ", code_lines=%" PRId64, v->code);
		} else {
			fputs(", status=", out);
			dot_str(out, v->status, 0);
			fprintf(out, ", maintainers=%" PRIu64, v->maintainers);
		}
		if (v->m.cluster >= 0)
			fprintf(out, ", cluster=%" PRId64, v->m.cluster);
		if (v->m.representative) {
			fputs(", representative=", out);
			dot_str(out, v->m.representative, 0);
		}
		if (v->m.lineage >= 0)
			fprintf(out, ", lineage=%" PRId64, v->m.lineage);
		if (v->m.lineage_name && v->m.lineage_name[0]) {
			fputs(", lineage_name=", out);
			dot_str(out, v->m.lineage_name, 0);
		}
		fputs("];\n", out);
	}
	for (size_t i = 0; i < g->e.n; i++) {
		const mev__gedge *e = &g->e.v[i];
		fprintf(out, "  n%u -- n%u [lines=%" PRIu64 ", bytes=%" PRIu64 ", files=%" PRIu64
			", weight=%" PRIu64 "];\n", e->a, e->b, e->lines, e->bytes, e->files, e->lines);
	}
	fputs("}\n", out);
}
