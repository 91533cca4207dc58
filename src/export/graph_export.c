/* The overlap graph of one release with its clusters, or the graph of its clusters, for Gephi. */
/* Described for the one graph writer (maintevo/graphdoc.h) at the end. */
#include "export_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

/* The section graph with cluster attributes; vertices in title order. */
static int section_graph(const mev_filemap *fm, const mev_graph *g, const mev_history *h, int64_t r,
			 int keep_rest, mev__export_graph_desc *x)
{
	const mev_section_info *si = mev_filemap_sections(fm);
	size_t nsec = mev_filemap_section_count(fm), k = 0;
	const mev_edge *e = mev_graph_edges(g);
	uint32_t *order = NULL, *vid = malloc((nsec + 1) * sizeof *vid);
	mev_edge *sz = NULL;
	int rc;
	if (!vid)
		return mev_error_oom();
	if ((rc = mev__export_self_sizes(&sz, g, nsec)) ||
	    (rc = mev__export_sorted_sections(&order, &k, fm, keep_rest)))
		goto done;
	for (size_t i = 0; i < k; i++) {
		const mev_section_info *s = &si[order[i]];
		mev__export_vertex v = { s->title, s->status, mev__export_member_of(h, r, s->title),
				   sz[order[i]].lines, sz[order[i]].bytes, sz[order[i]].files,
				   s->n_maintainers, 1, -1, s->display };
		vid[order[i]] = (uint32_t)i;
		if (MEV_VEC_PUSH(&x->v, v)) {
			rc = mev_error_oom();
			goto done;
		}
	}
	for (size_t i = 0; i < mev_graph_edge_count(g); i++) {
		mev__export_edge ge = { vid[e[i].a], vid[e[i].b], e[i].lines, e[i].bytes, e[i].files };
		if (e[i].a == e[i].b)
			continue;
		if (MEV_VEC_PUSH(&x->e, ge)) {
			rc = mev_error_oom();
			goto done;
		}
	}
done:
	free(order);
	free(sz);
	free(vid);
	return rc;
}

static int gedge_cmp(const void *x, const void *y)
{
	const mev__export_edge *a = x, *b = y;
	return a->a != b->a ? (a->a < b->a ? -1 : 1) : a->b != b->b ? (a->b < b->b ? -1 : 1) : 0;
}

/*
 * The cluster graph: a vertex per cluster (in cluster order, largest
 * first) with the sums of its sections' own sizes, an edge per pair of
 * clusters whose sections share files, summing those section edges.
 */
static int meta_graph(const mev_filemap *fm, const mev_graph *g, const mev_history *h, int64_t r,
		      mev__export_graph_desc *x, mev_release_names *names)
{
	const mev_clustering *c = r >= 0 ? mev_history_clustering(h, r) : NULL;
	const mev_section_info *si = mev_filemap_sections(fm);
	const mev_edge *e = mev_graph_edges(g);
	size_t nc, nsec = mev_filemap_section_count(fm);
	int64_t *cl = malloc((nsec + 1) * sizeof *cl);
	mev_strmap pairs = MEV_STRMAP_INIT;
	int rc = 0;
	if (!cl)
		return mev_error_oom();
	if (!c) {
		rc = mev_error_set(MEV_ENOTFOUND, "release '%s' is not clustered with %s",
				   mev_history_release(h, r)->tag, mev_history_cluster_key(h));
		mev_error_hint("run 'maintevo cluster' (with the same --method and options) first");
		goto done;
	}
	nc = mev_clustering_count(c);
	for (uint32_t k = 0; k < nc; k++) {
		const char *rep = mev_clustering_title(c, mev_clustering_representative(c, k));
		mev__export_member m = { k + 1, rep, mev_history_cluster_lineage(h, r, k),
					 mev_history_lineage_name(h, r, k) };
		mev__export_vertex v = { rep, "", m, mev_clustering_lines(c, k), 0, 0, 0, mev_clustering_size(c, k),
				   mev_history_cluster_code_lines(h, r, k), rep };
		if ((rc = mev_release_display(&v.display, names, mev_history_release(h, r)->tag, rep)))
			goto done;
		if (MEV_VEC_PUSH(&x->v, v)) {
			rc = mev_error_oom();
			goto done;
		}
	}
	for (size_t i = 0; i < nsec; i++)
		cl[i] = mev_history_cluster_of(h, (size_t)r, si[i].title);
	for (size_t i = 0; i < mev_graph_edge_count(g); i++) {
		int64_t a = cl[e[i].a], b = cl[e[i].b];
		uint32_t key[2], at;
		int fresh;
		if (a < 0 || b < 0)
			continue;
		if (e[i].a == e[i].b) {
			x->v.v[a].bytes += e[i].bytes;
			x->v.v[a].files += e[i].files;
			continue;
		}
		if (a == b)
			continue;
		key[0] = (uint32_t)(a < b ? a : b);
		key[1] = (uint32_t)(a < b ? b : a);
		if (mev__strmap_intern(&pairs, (const char *)key, sizeof key, (uint32_t)x->e.n, &at,
				      &fresh)) {
			rc = MEV_ENOMEM;
			goto done;
		}
		if (fresh) {
			mev__export_edge ge = { key[0], key[1], 0, 0, 0 };
			if (MEV_VEC_PUSH(&x->e, ge)) {
				rc = mev_error_oom();
				goto done;
			}
		}
		x->e.v[at].lines += e[i].lines;
		x->e.v[at].bytes += e[i].bytes;
		x->e.v[at].files += e[i].files;
	}
	mev__export_sort(x->e.v, x->e.n, sizeof *x->e.v, gedge_cmp);
done:
	mev__strmap_free(&pairs);
	free(cl);
	return rc;
}

/*
 * The vertex attributes: the section graph's, then the cluster graph's
 * (which have sections and code lines where sections have status and
 * maintainers).  DOT labels vertices with their display names.
 */
static const mev_gdoc_attr section_attrs[] = {
	{ "name", MEV_GDOC_STRING }, { "display_name", MEV_GDOC_STRING },
	{ "lines", MEV_GDOC_LONG }, { "bytes", MEV_GDOC_LONG }, { "files", MEV_GDOC_LONG },
	{ "status", MEV_GDOC_STRING }, { "maintainers", MEV_GDOC_INT },
	{ "cluster", MEV_GDOC_LONG }, { "representative", MEV_GDOC_STRING },
	{ "lineage", MEV_GDOC_LONG }, { "lineage_name", MEV_GDOC_STRING }
};
static const mev_gdoc_attr cluster_attrs[] = {
	{ "name", MEV_GDOC_STRING }, { "display_name", MEV_GDOC_STRING },
	{ "lines", MEV_GDOC_LONG }, { "bytes", MEV_GDOC_LONG }, { "files", MEV_GDOC_LONG },
	{ "sections", MEV_GDOC_LONG }, { "code_lines", MEV_GDOC_LONG },
	{ "cluster", MEV_GDOC_LONG }, { "representative", MEV_GDOC_STRING },
	{ "lineage", MEV_GDOC_LONG }, { "lineage_name", MEV_GDOC_STRING }
};
_Static_assert(sizeof section_attrs == sizeof cluster_attrs, "xvertex() fills both");
static const mev_gdoc_attr edge_attrs[] = {
	{ "lines", MEV_GDOC_LONG }, { "bytes", MEV_GDOC_LONG }, { "files", MEV_GDOC_LONG },
	{ "weight", MEV_GDOC_DOUBLE }
};
static const mev_gdoc_attr level_attr[] = { { "level", MEV_GDOC_STRING } };

static mev_gdoc_value num_or_missing(int64_t v)
{
	mev_gdoc_value x = { NULL, v >= 0 ? (uint64_t)v : 0, v < 0 };
	return x;
}

static void xvertex(void *ctx, size_t i, uint64_t *number, mev_gdoc_value *v)
{
	const mev__export_graph_desc *x = ctx;
	const mev__export_vertex *g = &x->v.v[i];
	*number = i;
	v[0].str = g->name;
	v[1].str = g->display;
	v[2].num = g->lines;
	v[3].num = g->bytes;
	v[4].num = g->files;
	if (x->meta) {
		v[5].num = g->sections;
		v[6] = num_or_missing(g->code);
	} else {
		v[5].str = g->status;
		v[6].num = g->maintainers;
	}
	v[7] = num_or_missing(g->m.cluster);
	v[8].str = g->m.representative;
	v[9] = num_or_missing(g->m.lineage);
	v[10].str = g->m.lineage_name && g->m.lineage_name[0] ? g->m.lineage_name : NULL;
}

static int xedge(void *ctx, size_t i, size_t *a, size_t *b, mev_gdoc_value *v)
{
	const mev__export_edge *e = &((const mev__export_graph_desc *)ctx)->e.v[i];
	*a = e->a;
	*b = e->b;
	v[0].num = e->lines;
	v[1].num = e->bytes;
	v[2].num = e->files;
	v[3].num = e->lines;
	return 0;
}

/* The graph of `release` in `fmt`: GraphML's graph id and the JSON graph's
 * "level" say which graph it is, DOT's graph is named after the release. */
static int write_graph_desc(FILE *out, const mev__export_graph_desc *x, mev_graph_format fmt, const char *release,
			int excel_safe)
{
	const char *level = x->meta ? "clusters" : "sections";
	mev_graphdoc d = { level, release, level_attr, &level, 1,
			   x->meta ? cluster_attrs : section_attrs,
			   sizeof section_attrs / sizeof *section_attrs, 1,
			   edge_attrs, sizeof edge_attrs / sizeof *edge_attrs,
			   x->v.n, x->e.n, xvertex, xedge, (void *)x, excel_safe };
	return mev_graphdoc_write(out, &d, fmt);
}

int mev_export_graph(FILE *out, mev_store *s, const mev_export_graph_options *opt)
{
	mev_filemap *fm = NULL;
	mev_graph *g = NULL;
	mev_release_names *names = NULL;
	mev_history *h = NULL, *own = NULL;
	mev__export_graph_desc x = { { 0 }, { 0 }, opt->meta };
	int64_t r;
	int rc;

	if (!opt->release)
		return mev_error_set(MEV_EINVAL, "a graph is of one release: name it");
	if ((rc = mev_release_names_new(&names, s)))
		return rc;
	if ((rc = mev_history_use(&h, &own, s, opt->history, opt->release,
				  MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS)) ||
	    (rc = mev_release_load_graph(&fm, &g, s, opt->release, opt->keep_rest && !opt->meta)))
		goto done;
	r = mev_history_find(h, opt->release);
	if (opt->meta)
		rc = meta_graph(fm, g, h, r, &x, names);
	else
		rc = section_graph(fm, g, h, r, opt->keep_rest, &x);
	if (rc)
		goto done;
	rc = write_graph_desc(out, &x, opt->format, opt->release, opt->excel_safe);
done:
	MEV_VEC_FREE(&x.v);
	MEV_VEC_FREE(&x.e);
	mev_history_free(own);
	mev_release_names_free(names);
	mev_graph_free(g);
	mev_filemap_free(fm);
	return rc;
}
