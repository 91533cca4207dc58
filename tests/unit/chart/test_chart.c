/* Tests of the lineage chart: the model of a small tracked store, the layout (deterministic, no overlapping labels), escaping, errors. */
#include "test.h"
#include "track_test.h"
#include "chart/chart_internal.h"
#include "maintevo/chart.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "maintevo/track.h"
#include "store_internal.h"

#include <math.h>
#include <stdint.h>

static const char *dir;

static void put_release(mev_store *s, const char *tag, mev_filemap *fm)
{
	mev_graph *g = NULL;
	mev_graph_options go = { 1 };
	mev_release_input in = { 0 };
	in.tag = tag;
	in.commit.id[0] = (unsigned char)tag[strlen(tag) - 1];
	CHECK_INT(mev_graph_build(&g, fm, &go), 0);
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_release_put(s, &in, fm, g, NULL, NULL), 0);
	CHECK_INT(mev__store_commit(s), 0);
	mev_graph_free(g);
}

static const char *const files1[] = {
	"net/core/a.c=500", "net/core/b.c=500", "net/drv/x.c=300", "net/drv/y.c=300",
	"sound/core.c=400", "sound/codec/c.c=200", "sound/codec/d.c=200",
	"old/thing.c=150", "old/other.c=150", "misc/readme=10", NULL
};
static const char *const secs1[] = {
	"NETWORKING:net/", "NETWORK DRIVERS:net/drv/,net/core/b.c", "SOUND:sound/", "SOUND CODECS:sound/codec/",
	"OLD DRIVER:old/", NULL
};
/* v2: sound splits (the codecs get their own core), the old driver is
 * taken by networking (a merge) */
static const char *const files2[] = {
	"net/core/a.c=510", "net/core/b.c=500", "net/drv/x.c=300", "net/drv/y.c=300", "net/drv/z.c=100",
	"sound/core.c=400", "sound/codec/c.c=200", "sound/codec/d.c=200", "sound/codec/e.c=50",
	"codec-core/k.c=300", "old/thing.c=150", "old/other.c=150", "misc/readme=10", NULL
};
static const char *const secs2[] = {
	"NETWORKING:net/,old/", "NETWORK DRIVERS:net/drv/,net/core/b.c", "SOUND:sound/core.c",
	"SOUND CODECS:sound/codec/,codec-core/", "CODEC CORE:codec-core/", "OLD DRIVER:old/", NULL
};
/* hostile titles: markup, quotes, a newline, right-to-left text */
static const char *const secs_h[] = {
	"</script><img src=x onerror=alert(1)>:net/", "\"QUOTED\" & 'SINGLE' \xe2\x80\xae" "DLROW\xe2\x80\xac:sound/",
	"LINE\nBREAK \xe2\x80\xa8 SEP <b>:old/", NULL
};

/* A store made of releases (files: fm per tag), tracked. */
static mev_store *make_store(const char *name, const char *const *tags, mev_filemap **fms, size_t n,
			     int track)
{
	mev_store *s = NULL;
	char sub[600];
	mev_cluster_params cp;
	mev_track_params tp;
	mev_track_result res;
	snprintf(sub, sizeof sub, "%s/%s", dir, name);
	mev_cluster_params_init(&cp);
	mev_track_params_init(&tp);
	CHECK_INT(mev_store_open(&s, sub, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++)
		put_release(s, tags[i], fms[i]);
	if (track)
		CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	return s;
}

/* What mev_chart_write() writes, in memory. */
static char *chart(mev_store *s, mev_chart_format f, mev_chart_measure me, int top, size_t *len, int *rc)
{
	char *buf = NULL;
	FILE *out = open_memstream(&buf, len);
	mev_chart_options o = { 0 };
	o.format = f;
	o.measure = me;
	o.top = top;
	o.store_path = "st";
	*rc = mev_chart_write(out, s, &o);
	fclose(out);
	return buf;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void check_model(mev_store *s)
{
	mev__chart_model m;
	mev_event_list ev = { 0 };
	mev_cluster_params cp;
	mev_cluster_params_init(&cp);
	CHECK_INT(mev__chart_model_load(&m, s, NULL, NULL, NULL, MEV__CHART_PATHS), 0);
	CHECK_INT(m.nrel, 3);
	CHECK(m.has_files);
	CHECK_INT(mev_track_events(&ev, s, &cp, NULL, NULL, NULL), 0);
	/* one flow per event of the tracker */
	CHECK_INT(m.flows.n, ev.n);
	for (size_t r = 0; r < m.nrel; r++) {
		/* the nodes are the clusters: their lines add up to the clusters' */
		uint64_t nodes = 0, clusters = 0;
		const mev_clustering *c = mev_history_clustering(m.h, m.rel[r]);
		for (size_t i = 0; i < m.nodes[r].n; i++)
			nodes += m.nodes[r].v[i].v[MEV_CHART_LINES];
		for (uint32_t k = 0; k < mev_clustering_count(c); k++)
			clusters += mev_history_cluster_lines(m.h, m.rel[r], k);
		CHECK_INT(nodes, clusters);
	}
	for (size_t i = 0; i < m.flows.n; i++) {
		const mev__chart_flow *f = &m.flows.v[i];
		const mev_event *e = &mev_history_events(m.h)->v[f->event];
		CHECK(f->rel >= 1 && f->rel < m.nrel);
		if (f->from && f->to) {
			/* a link: the lines the tracker found in common */
			CHECK_INT(f->v[MEV_CHART_LINES], llround(e->share * (double)e->from_lines));
			CHECK(f->files >= 0);
		}
		/* what flows out of a node is no more than the node */
		if (f->from && f->to) {
			uint64_t out_files = 0, out_secs = 0;
			const mev__chart_node *n = mev__chart_node_of(&m, f->rel - 1, m.lin_of_id[f->from] - 1);
			CHECK(n != NULL);
			for (size_t j = 0; j < m.flows.n; j++)
				if (m.flows.v[j].rel == f->rel && m.flows.v[j].from == f->from && m.flows.v[j].to) {
					out_files += (uint64_t)m.flows.v[j].files;
					out_secs += m.flows.v[j].v[MEV_CHART_SECTIONS];
				}
			if (n) {
				CHECK(out_secs <= n->v[MEV_CHART_SECTIONS]);
				CHECK(out_files <= n->v[MEV_CHART_FILES]);
			}
		}
	}
	/* v2 -> v3 holds the same content: every flow is a continuation of the whole node */
	for (size_t i = 0; i < m.flows.n; i++) {
		const mev__chart_flow *f = &m.flows.v[i];
		const mev__chart_node *n;
		if (f->rel != 2)
			continue;
		CHECK_INT(f->from, f->to);
		n = mev__chart_node_of(&m, 1, m.lin_of_id[f->from] - 1);
		CHECK(n != NULL);
		if (n) {
			CHECK_INT(f->files, n->v[MEV_CHART_FILES]);
			CHECK_INT(f->v[MEV_CHART_SECTIONS], n->v[MEV_CHART_SECTIONS]);
		}
	}
	/* the path index: net/core/a.c is in one lineage from the first release on */
	{
		int64_t p = mev__strmap_get(&m.path_index, "net/core/a.c", 12);
		size_t runs = 0;
		CHECK(p >= 0);
		for (size_t i = 0; i < m.pathruns.n; i++)
			if (m.pathruns.v[i].path == (uint32_t)p) {
				runs++;
				if (runs == 1)
					CHECK_INT(m.pathruns.v[i].rel, 0);
				CHECK(m.pathruns.v[i].n >= 1);
			}
		CHECK(runs >= 1);
	}
	mev_event_list_free(&ev);
	mev__chart_model_free(&m);
}

static void check_layout(mev_store *s)
{
	mev__chart_model m;
	mev__chart_layout l;
	for (int top = 0; top < 3; top++) {
		CHECK_INT(mev__chart_model_load(&m, s, NULL, NULL, NULL, MEV__CHART_FILES), 0);
		CHECK_INT(mev__chart_layout_build(&l, &m, MEV_CHART_LINES, MEV_CHART_X_INDEX, top), 0);
		CHECK(l.nband >= 1);
		if (top)
			CHECK_INT(l.nband, (size_t)top + (l.other ? 1 : 0));
		/* no two labels overlap, and each lies in the drawing */
		for (size_t i = 0; i < l.labels.n; i++) {
			const mev__chart_box *a = &l.labels.v[i].box;
			CHECK(a->x0 >= 0 && a->x1 <= l.width && a->y0 >= 0 && a->y1 <= l.height);
			for (size_t j = i + 1; j < l.labels.n; j++)
				CHECK(!mev__chart_boxes_overlap(a, &l.labels.v[j].box));
		}
		/* the first and last release are named on the axis */
		CHECK(l.labels.n >= l.nband_labels + 2);
		CHECK_INT(l.labels.v[l.nband_labels].rel, 0);
		CHECK_INT(l.labels.v[l.labels.n - 1].rel, m.nrel - 1);
		/* stacked cells do not overlap and stay in the plot */
		for (size_t r = 0; r < m.nrel; r++) {
			double bottom = l.top;
			for (size_t b = 0; b < l.nband; b++) {
				const mev__chart_cell *c = &l.cell[r * l.nband + b];
				if (!c->v)
					continue;
				CHECK(c->y >= bottom - 1e-9);
				bottom = c->y + c->h;
			}
			CHECK(bottom <= l.bottom + 1e-6);
		}
		mev__chart_layout_free(&l);
		mev__chart_model_free(&m);
	}
	{
		/* labels never overlap: boxes that touch do not, boxes that share area do */
		mev__chart_box a = { 0, 0, 10, 10 }, b = { 10, 0, 20, 10 }, c = { 9, 9, 12, 12 };
		CHECK(!mev__chart_boxes_overlap(&a, &b));
		CHECK(mev__chart_boxes_overlap(&a, &c));
		CHECK(mev__chart_text_width("MMMM", 10) > mev__chart_text_width("iiii", 10));
	}
}

static void test_chart_store(void)
{
	mev_filemap *f1 = make_fm(secs1, files1), *f2 = make_fm(secs2, files2);
	const char *tags[] = { "v1", "v2", "v3" };
	mev_filemap *fms[] = { f1, f2, f2 };
	mev_store *s = make_store("store", tags, fms, 3, 1);
	size_t len1, len2;
	int rc;
	char *a, *b;
	mev_chart_flow_list fl = { 0 };
	if (!s)
		return;
	check_model(s);
	check_layout(s);
	/* the same store gives the same bytes */
	a = chart(s, MEV_CHART_HTML, MEV_CHART_LINES, -1, &len1, &rc);
	CHECK_INT(rc, 0);
	b = chart(s, MEV_CHART_HTML, MEV_CHART_LINES, -1, &len2, &rc);
	CHECK_INT(rc, 0);
	CHECK(len1 == len2 && memcmp(a, b, len1) == 0);
	CHECK(strstr(a, "id=\"maintevo-chart\"") != NULL);
	CHECK(strstr(a, "data-lineage=\"1\"") != NULL);
	/* nothing fetched: no address but the SVG namespace */
	CHECK_INT(count(a, "http"), count(a, "http-equiv") + count(a, "http://www.w3.org/2000/svg"));
	CHECK_INT(count(a, "</script>"), 2);
	free(a);
	free(b);
	a = chart(s, MEV_CHART_SVG, MEV_CHART_FILES, 1, &len1, &rc);
	CHECK_INT(rc, 0);
	CHECK(strncmp(a, "<?xml", 5) == 0);
	CHECK(strstr(a, "data-lineage=\"other\"") != NULL);
	CHECK(strstr(a, "<script") == NULL);
	free(a);
	/* the flows table: one row per event */
	CHECK_INT(mev_chart_flows(&fl, s, NULL), 0);
	CHECK(fl.n > 0);
	for (size_t i = 0; i < fl.n; i++) {
		CHECK(fl.v[i].from_lineage || fl.v[i].to_lineage);
		CHECK(strcmp(fl.v[i].from_release, fl.v[i].to_release) < 0);
	}
	mev_chart_flow_list_free(&fl);
	mev_store_free(s);
	mev_filemap_free(f1);
	mev_filemap_free(f2);
}

static void test_chart_hostile(void)
{
	mev_filemap *f1 = make_fm(secs_h, files1), *f2 = make_fm(secs_h, files2);
	const char *tags[] = { "v1", "v2" };
	mev_filemap *fms[] = { f1, f2 };
	mev_store *s = make_store("hostile", tags, fms, 2, 1);
	size_t len;
	int rc;
	char *a;
	if (!s)
		return;
	a = chart(s, MEV_CHART_HTML, MEV_CHART_LINES, 0, &len, &rc);
	CHECK_INT(rc, 0);
	/* the titles are data: no tag they hold reaches the page */
	CHECK_INT(count(a, "</script>"), 2);
	CHECK(strstr(a, "<img") == NULL);
	CHECK(strstr(a, "<b>") == NULL);
	CHECK(strstr(strstr(a, "maintevo-chart-data"), "\xe2\x80\xa8") == NULL); /* U+2028 escaped in the JSON ... */
	CHECK(strstr(a, "\\u2028") != NULL);
	CHECK(strstr(a, "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;") != NULL); /* ... as text in the SVG */
	CHECK(strstr(a, "\\u003c/script\\u003e\\u003cimg") != NULL);
	free(a);
	a = chart(s, MEV_CHART_SVG, MEV_CHART_SECTIONS, 0, &len, &rc);
	CHECK_INT(rc, 0);
	CHECK(strstr(a, "<img") == NULL);
	CHECK(strstr(a, "&quot;QUOTED&quot; &amp; &apos;SINGLE&apos;") != NULL);
	free(a);
	mev_store_free(s);
	mev_filemap_free(f1);
	mev_filemap_free(f2);
}

static void test_chart_errors(void)
{
	mev_filemap *f1 = make_fm(secs1, files1);
	const char *tags[] = { "v1", "v2" };
	mev_filemap *fms[] = { f1, f1 };
	mev_store *s;
	size_t len;
	int rc;
	char *a;
	/* an empty store */
	s = make_store("empty", tags, fms, 0, 0);
	a = chart(s, MEV_CHART_HTML, MEV_CHART_LINES, -1, &len, &rc);
	CHECK_INT(rc, MEV_ENOTFOUND);
	CHECK(strstr(mev_error_message(), "no release") != NULL);
	CHECK(strstr(mev_error_hint_text(), "maintevo walk") != NULL);
	free(a);
	mev_store_free(s);
	/* not tracked */
	s = make_store("untracked", tags, fms, 2, 0);
	a = chart(s, MEV_CHART_HTML, MEV_CHART_LINES, -1, &len, &rc);
	CHECK_INT(rc, MEV_ENOTFOUND);
	CHECK(strstr(mev_error_message(), "not tracked") != NULL);
	CHECK(strstr(mev_error_hint_text(), "maintevo track") != NULL);
	free(a);
	mev_store_free(s);
	/* one release */
	s = make_store("single", tags, fms, 1, 1);
	a = chart(s, MEV_CHART_SVG, MEV_CHART_LINES, -1, &len, &rc);
	CHECK_INT(rc, MEV_ENOTFOUND);
	CHECK(strstr(mev_error_message(), "two tracked releases") != NULL);
	free(a);
	mev_store_free(s);
	mev_filemap_free(f1);
	CHECK_INT(mev_chart_measure_parse("files"), MEV_CHART_FILES);
	CHECK_INT(mev_chart_measure_parse("bytes"), -1);
	CHECK_INT(mev_chart_format_parse("svg"), MEV_CHART_SVG);
	CHECK_INT(mev_chart_x_parse("date"), MEV_CHART_X_DATE);
}

int main(void)
{
	dir = test_tmpdir("chart");
	RUN(test_chart_store);
	RUN(test_chart_hostile);
	RUN(test_chart_errors);
	test_tmpdir_remove(dir);
	return test_summary();
}
