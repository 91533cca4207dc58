/* The overlap graph described for the graph writer (maintevo/graphdoc.h): which vertices, attributes, order. */
#include "maintevo/graph.h"
#include "maintevo/error.h"

#include <stdlib.h>

/*
 * 'maintevo graph' has always listed GraphML vertices in MAINTAINERS
 * order, with ids "n<section index>", and JSON nodes in title order (the
 * order of the self edges); DOT, like 'export graph', lists them in title
 * order numbered from 0 and labels them with their display names.  Every
 * section's own size is its self edge, which only CSV writes as an edge.
 */
static const mev_gdoc_attr vattrs[] = {
	{ "name", MEV_GDOC_STRING }, { "lines", MEV_GDOC_LONG }, { "bytes", MEV_GDOC_LONG },
	{ "files", MEV_GDOC_LONG }, { "status", MEV_GDOC_STRING }, { "maintainers", MEV_GDOC_INT }
};
static const mev_gdoc_attr dot_vattrs[] = {
	{ "name", MEV_GDOC_STRING }, { "display_name", MEV_GDOC_STRING },
	{ "lines", MEV_GDOC_LONG }, { "bytes", MEV_GDOC_LONG }, { "files", MEV_GDOC_LONG },
	{ "status", MEV_GDOC_STRING }, { "maintainers", MEV_GDOC_INT }
};
/* CSV writes the first three. */
static const mev_gdoc_attr eattrs[] = {
	{ "lines", MEV_GDOC_LONG }, { "bytes", MEV_GDOC_LONG }, { "files", MEV_GDOC_LONG },
	{ "weight", MEV_GDOC_DOUBLE }
};

typedef struct {
	const mev_graph *g;
	const mev_section_info *s;
	const mev_edge *e;
	mev_edge *size;      /* by section: its self edge (zeros when it has none) */
	uint32_t *sec;       /* by vertex: its section */
	uint32_t *vertex;    /* by section: its vertex (+ 1 while they are listed) */
	int by_index;        /* vertex numbers are section indices */
	int display;         /* the display_name attribute */
	int self;            /* self edges are edges */
} doc;

static void vertex(void *ctx, size_t i, uint64_t *number, mev_gdoc_value *v)
{
	const doc *d = ctx;
	uint32_t k = d->sec[i];
	const mev_section_info *s = &d->s[k];
	const mev_edge *sz = &d->size[k];
	*number = d->by_index ? k : i;
	v->str = s->title;
	v++;
	if (d->display)
		(v++)->str = s->display;
	(v++)->num = sz->lines;
	(v++)->num = sz->bytes;
	(v++)->num = sz->files;
	(v++)->str = s->status;
	v->num = s->n_maintainers;
}

static int edge(void *ctx, size_t i, size_t *a, size_t *b, mev_gdoc_value *v)
{
	const doc *d = ctx;
	const mev_edge *e = &d->e[i];
	if (e->a == e->b && !d->self)
		return 1;
	*a = d->vertex[e->a];
	*b = d->vertex[e->b];
	v[0].num = e->lines;
	v[1].num = e->bytes;
	v[2].num = e->files;
	v[3].num = e->lines;
	return 0;
}

int mev_graph_write(FILE *out, const mev_graph *g, mev_graph_format fmt, const char *name,
		    int excel_safe)
{
	const mev_filemap *fm = mev_graph_filemap(g);
	size_t nsec = mev_filemap_section_count(fm), n = 0, ne = mev_graph_edge_count(g);
	doc d = { g, mev_filemap_sections(fm), mev_graph_edges(g), NULL, NULL, NULL,
		  fmt == MEV_GRAPH_GRAPHML, fmt == MEV_GRAPH_DOT, fmt == MEV_GRAPH_CSV };
	mev_graphdoc gd = { "G", name, NULL, NULL, 0, vattrs, sizeof vattrs / sizeof *vattrs, -1,
			    eattrs, sizeof eattrs / sizeof *eattrs, 0, ne, vertex, edge, &d, excel_safe };
	int rc;

	d.size = calloc(nsec + 1, sizeof *d.size);
	d.sec = calloc(nsec + 1, sizeof *d.sec);
	d.vertex = calloc(nsec + 1, sizeof *d.vertex);
	if (!d.size || !d.sec || !d.vertex) {
		rc = mev_error_oom();
		goto done;
	}
	for (size_t i = 0; i < ne; i++)
		if (d.e[i].a == d.e[i].b) {
			d.size[d.e[i].a] = d.e[i];
			if (!d.by_index && !d.vertex[d.e[i].a])
				d.sec[n] = d.e[i].a, d.vertex[d.e[i].a] = (uint32_t)++n;
		}
	/* every kept section is a vertex (a graph without self edges, too) */
	for (uint32_t k = 0; k < nsec; k++)
		if (mev_graph_has_section(g, k) && !d.vertex[k])
			d.sec[n] = k, d.vertex[k] = (uint32_t)++n;
	for (size_t i = 0; i < n; i++)
		d.vertex[d.sec[i]] = (uint32_t)i;
	gd.n_vertices = n;
	if (d.display) {
		gd.vattrs = dot_vattrs;
		gd.n_vattrs = sizeof dot_vattrs / sizeof *dot_vattrs;
		gd.label = 1;
	}
	if (d.self)
		gd.n_eattrs = 3;
	rc = mev_graphdoc_write(out, &gd, fmt);
done:
	free(d.size);
	free(d.sec);
	free(d.vertex);
	return rc;
}
