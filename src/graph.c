/*
 * The overlap graph: files with the same section set are summed once, then
 * each set adds its totals to every pair of its sections (and to each
 * section's own size).
 */
#include "maintevo/graph.h"
#include "maintevo/error.h"
#include "maintevo/table.h"
#include "util/buf.h"
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

struct mev_graph {
	const mev_filemap *fm;
	int keep_rest;
	MEV_VEC(mev_edge) edges;
};

static const mev_filemap *sort_fm; /* qsort has no context argument */

static int edge_cmp(const void *x, const void *y)
{
	const mev_edge *a = x, *b = y;
	const mev_section_info *s = mev_filemap_sections(sort_fm);
	int c = strcmp(s[a->a].title, s[b->a].title);
	return c ? c : strcmp(s[a->b].title, s[b->b].title);
}

int mev_graph_has_section(const mev_graph *g, uint32_t section)
{
	return section < mev_filemap_section_count(g->fm) &&
	       (g->keep_rest || !mev_filemap_sections(g->fm)[section].is_rest);
}

static int add(mev_graph *g, mev_strmap *idx, uint32_t a, uint32_t b, uint64_t l, uint64_t by,
	       uint64_t f)
{
	uint32_t key[2] = { a, b }, e;
	int added;
	if (mev__strmap_intern(idx, (const char *)key, sizeof key, (uint32_t)g->edges.n, &e, &added))
		return MEV_ENOMEM;
	if (added) {
		mev_edge ed = { a, b, 0, 0, 0 };
		if (MEV_VEC_PUSH(&g->edges, ed))
			return mev_error_oom();
	}
	g->edges.v[e].lines += l;
	g->edges.v[e].bytes += by;
	g->edges.v[e].files += f;
	return 0;
}

int mev_graph_build(mev_graph **out, const mev_filemap *fm, const mev_graph_options *opt)
{
	mev_graph *g = calloc(1, sizeof *g);
	size_t nsets = mev_filemap_set_count(fm), nsec = mev_filemap_section_count(fm);
	const mev_section_info *secs = mev_filemap_sections(fm);
	const mev_file_row *rows = mev_filemap_rows(fm);
	uint64_t *sl = NULL, *sb = NULL, *sf = NULL;
	uint32_t *keep = NULL;
	mev_strmap idx = MEV_STRMAP_INIT;
	int rc = 0;

	*out = NULL;
	if (!g)
		return mev_error_oom();
	g->fm = fm;
	g->keep_rest = opt && opt->keep_rest;
	sl = calloc(nsets + 1, sizeof *sl);
	sb = calloc(nsets + 1, sizeof *sb);
	sf = calloc(nsets + 1, sizeof *sf);
	keep = malloc((nsec + 1) * sizeof *keep);
	if (!sl || !sb || !sf || !keep) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t i = 0; i < mev_filemap_count(fm); i++) {
		sl[rows[i].set] += rows[i].lines;
		sb[rows[i].set] += rows[i].bytes;
		sf[rows[i].set]++;
	}
	/* every section is a vertex, even one that covers nothing */
	for (uint32_t s = 0; s < nsec; s++)
		if (mev_graph_has_section(g, s) && (rc = add(g, &idx, s, s, 0, 0, 0)))
			goto done;
	for (uint32_t set = 1; set < nsets; set++) {
		const uint32_t *ids;
		size_t n = mev_filemap_set(&ids, fm, set), k = 0;
		if (!sf[set])
			continue;
		for (size_t i = 0; i < n; i++)
			if (mev_graph_has_section(g, ids[i]))
				keep[k++] = ids[i];
		for (size_t i = 0; i < k; i++)
			for (size_t j = i; j < k; j++) {
				uint32_t a = keep[i], b = keep[j];
				if (strcmp(secs[a].title, secs[b].title) > 0) {
					uint32_t t = a;
					a = b;
					b = t;
				}
				if ((rc = add(g, &idx, a, b, sl[set], sb[set], sf[set])))
					goto done;
			}
	}
	sort_fm = fm;
	if (g->edges.n > 1) /* qsort(NULL, 0, ...) is undefined: no sections at all */
		qsort(g->edges.v, g->edges.n, sizeof *g->edges.v, edge_cmp);
done:
	mev__strmap_free(&idx);
	free(sl);
	free(sb);
	free(sf);
	free(keep);
	if (rc)
		mev_graph_free(g);
	else
		*out = g;
	return rc;
}

int mev_graph_from_edges(mev_graph **out, const mev_filemap *fm, const mev_edge *edges,
			 size_t n, const mev_graph_options *opt)
{
	mev_graph *g = calloc(1, sizeof *g);
	const mev_section_info *secs = mev_filemap_sections(fm);
	size_t nsec = mev_filemap_section_count(fm);
	*out = NULL;
	if (!g)
		return mev_error_oom();
	g->fm = fm;
	g->keep_rest = opt && opt->keep_rest;
	for (size_t i = 0; i < n; i++) {
		mev_edge e = edges[i];
		if (e.a >= nsec || e.b >= nsec) {
			mev_graph_free(g);
			return mev_error_set(MEV_EINVAL, "edge between unknown sections %u and %u", e.a, e.b);
		}
		if (!mev_graph_has_section(g, e.a) || !mev_graph_has_section(g, e.b))
			continue;
		if (strcmp(secs[e.a].title, secs[e.b].title) > 0) {
			uint32_t t = e.a;
			e.a = e.b;
			e.b = t;
		}
		if (MEV_VEC_PUSH(&g->edges, e)) {
			mev_graph_free(g);
			return mev_error_oom();
		}
	}
	sort_fm = fm;
	if (g->edges.n > 1) /* qsort(NULL, 0, ...) is undefined: no sections at all */
		qsort(g->edges.v, g->edges.n, sizeof *g->edges.v, edge_cmp);
	*out = g;
	return 0;
}

void mev_graph_free(mev_graph *g)
{
	if (!g)
		return;
	MEV_VEC_FREE(&g->edges);
	free(g);
}

size_t mev_graph_edge_count(const mev_graph *g) { return g->edges.n; }
const mev_edge *mev_graph_edges(const mev_graph *g) { return g->edges.v; }
const mev_filemap *mev_graph_filemap(const mev_graph *g) { return g->fm; }

int mev_graph_format_parse(const char *name)
{
	if (strcmp(name, "csv") == 0)
		return MEV_GRAPH_CSV;
	if (strcmp(name, "graphml") == 0)
		return MEV_GRAPH_GRAPHML;
	if (strcmp(name, "json") == 0)
		return MEV_GRAPH_JSON;
	return -1;
}

static int write_csv(const mev_graph *g, FILE *out)
{
	static const mev_column cols[] = {
		{ "from", MEV_COLUMN_STRING }, { "to", MEV_COLUMN_STRING },
		{ "lines", MEV_COLUMN_INTEGER }, { "bytes", MEV_COLUMN_INTEGER },
		{ "files", MEV_COLUMN_INTEGER }, { NULL, 0 }
	};
	const mev_section_info *s = mev_filemap_sections(g->fm);
	mev_table *t = NULL;
	int rc = mev_table_new(&t, out, MEV_TABLE_CSV, cols);
	for (size_t i = 0; !rc && i < g->edges.n; i++) {
		const mev_edge *e = &g->edges.v[i];
		mev_table_str(t, s[e->a].title);
		mev_table_str(t, s[e->b].title);
		mev_table_uint(t, e->lines);
		mev_table_uint(t, e->bytes);
		mev_table_uint(t, e->files);
		mev_table_end_row(t);
	}
	if (!rc)
		rc = mev_table_finish(t);
	mev_table_free(t);
	return rc;
}

/* Vertex order: sections in MAINTAINERS order; ids are "n<index>". */
static void write_graphml(const mev_graph *g, FILE *out)
{
	const mev_section_info *s = mev_filemap_sections(g->fm);
	size_t nsec = mev_filemap_section_count(g->fm);
	uint64_t *vl = calloc(nsec + 1, sizeof *vl), *vb = calloc(nsec + 1, sizeof *vb),
		 *vf = calloc(nsec + 1, sizeof *vf);
	for (size_t i = 0; vl && vb && vf && i < g->edges.n; i++) {
		const mev_edge *e = &g->edges.v[i];
		if (e->a == e->b) {
			vl[e->a] = e->lines;
			vb[e->a] = e->bytes;
			vf[e->a] = e->files;
		}
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	      "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"\n"
	      "    xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
	      "    xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
	      "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n"
	      "  <key id=\"v_name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n"
	      "  <key id=\"v_lines\" for=\"node\" attr.name=\"lines\" attr.type=\"long\"/>\n"
	      "  <key id=\"v_bytes\" for=\"node\" attr.name=\"bytes\" attr.type=\"long\"/>\n"
	      "  <key id=\"v_files\" for=\"node\" attr.name=\"files\" attr.type=\"long\"/>\n"
	      "  <key id=\"v_status\" for=\"node\" attr.name=\"status\" attr.type=\"string\"/>\n"
	      "  <key id=\"v_maintainers\" for=\"node\" attr.name=\"maintainers\" attr.type=\"int\"/>\n"
	      "  <key id=\"e_lines\" for=\"edge\" attr.name=\"lines\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_bytes\" for=\"edge\" attr.name=\"bytes\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_files\" for=\"edge\" attr.name=\"files\" attr.type=\"long\"/>\n"
	      "  <key id=\"e_weight\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n"
	      "  <graph id=\"G\" edgedefault=\"undirected\">\n", out);
	for (size_t i = 0; i < nsec; i++) {
		if (!mev_graph_has_section(g, (uint32_t)i))
			continue;
		fprintf(out, "    <node id=\"n%zu\">\n      <data key=\"v_name\">", i);
		mev_table_xml_str(out, s[i].title, strlen(s[i].title));
		fprintf(out, "</data>\n      <data key=\"v_lines\">%llu</data>\n"
			"      <data key=\"v_bytes\">%llu</data>\n"
			"      <data key=\"v_files\">%llu</data>\n      <data key=\"v_status\">",
			(unsigned long long)(vl ? vl[i] : 0), (unsigned long long)(vb ? vb[i] : 0),
			(unsigned long long)(vf ? vf[i] : 0));
		mev_table_xml_str(out, s[i].status, strlen(s[i].status));
		fprintf(out, "</data>\n      <data key=\"v_maintainers\">%u</data>\n    </node>\n",
			s[i].n_maintainers);
	}
	for (size_t i = 0; i < g->edges.n; i++) {
		const mev_edge *e = &g->edges.v[i];
		if (e->a == e->b)
			continue;
		fprintf(out, "    <edge source=\"n%u\" target=\"n%u\">\n"
			"      <data key=\"e_lines\">%llu</data>\n"
			"      <data key=\"e_bytes\">%llu</data>\n"
			"      <data key=\"e_files\">%llu</data>\n"
			"      <data key=\"e_weight\">%llu</data>\n    </edge>\n",
			e->a, e->b, (unsigned long long)e->lines, (unsigned long long)e->bytes,
			(unsigned long long)e->files, (unsigned long long)e->lines);
	}
	fputs("  </graph>\n</graphml>\n", out);
	free(vl);
	free(vb);
	free(vf);
}

static void write_json(const mev_graph *g, FILE *out)
{
	const mev_section_info *s = mev_filemap_sections(g->fm);
	int first = 1;
	fputs("{\"directed\": false, \"multigraph\": false, \"graph\": {},\n \"nodes\": [", out);
	for (size_t i = 0; i < g->edges.n; i++) {
		const mev_edge *e = &g->edges.v[i];
		const mev_section_info *v = &s[e->a];
		if (e->a != e->b)
			continue;
		fputs(first ? "\n  {\"id\": " : ",\n  {\"id\": ", out);
		first = 0;
		mev_table_json_str(out, v->title, strlen(v->title));
		fprintf(out, ", \"lines\": %llu, \"bytes\": %llu, \"files\": %llu, \"status\": ",
			(unsigned long long)e->lines, (unsigned long long)e->bytes,
			(unsigned long long)e->files);
		mev_table_json_str(out, v->status, strlen(v->status));
		fprintf(out, ", \"maintainers\": %u}", v->n_maintainers);
	}
	fputs("\n ],\n \"links\": [", out);
	first = 1;
	for (size_t i = 0; i < g->edges.n; i++) {
		const mev_edge *e = &g->edges.v[i];
		if (e->a == e->b)
			continue;
		fputs(first ? "\n  {\"source\": " : ",\n  {\"source\": ", out);
		first = 0;
		mev_table_json_str(out, s[e->a].title, strlen(s[e->a].title));
		fputs(", \"target\": ", out);
		mev_table_json_str(out, s[e->b].title, strlen(s[e->b].title));
		fprintf(out, ", \"lines\": %llu, \"bytes\": %llu, \"files\": %llu, \"weight\": %llu}",
			(unsigned long long)e->lines, (unsigned long long)e->bytes,
			(unsigned long long)e->files, (unsigned long long)e->lines);
	}
	fputs("\n ]\n}\n", out);
}

int mev_graph_write(FILE *out, const mev_graph *g, mev_graph_format fmt)
{
	int rc = 0;
	switch (fmt) {
	case MEV_GRAPH_GRAPHML: write_graphml(g, out); break;
	case MEV_GRAPH_JSON: write_json(g, out); break;
	default: rc = write_csv(g, out); break;
	}
	if (rc == MEV_EIO || (!rc && ferror(out)))
		return mev_error_set(MEV_EIO, "cannot write the graph");
	return rc;
}
