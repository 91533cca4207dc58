/* Tests of the tracker through the store: events, lineages, section changes (linking: test_track_link.c). */
#include "test.h"
#include "track_test.h"
#include "track/track_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "store_internal.h"
#include "maintevo/track.h"

#include <math.h>
#include <stdint.h>
#include <unistd.h>

static const char *dir;
static mev_track_params tp;

/* --- through the store ------------------------------------------------------ */

static void put_release(mev_store *s, const char *tag, mev_filemap *fm, int files)
{
	mev_graph *g = NULL;
	mev_graph_options go = { 1 };
	mev_release_input in = { 0 };
	in.tag = tag;
	in.commit.id[0] = (unsigned char)tag[strlen(tag) - 1];
	CHECK_INT(mev_graph_build(&g, fm, &go), 0);
	CHECK_INT(mev__store_begin(s), 0);
	if (files)
		CHECK_INT(mev_release_put(s, &in, fm, g, NULL, NULL), 0);
	else
		CHECK_INT(mev_release_put_graph(s, &in, fm, g), 0);
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
	"OLD DRIVER:old/", "NOTHING:nowhere/", NULL
};
/* v2: OLD DRIVER is renamed, a section is added, sound splits (codecs
 * stop sharing with SOUND and get their own core) */
static const char *const files2[] = {
	"net/core/a.c=510", "net/core/b.c=500", "net/drv/x.c=300", "net/drv/y.c=300", "net/drv/z.c=100",
	"sound/core.c=400", "sound/codec/c.c=200", "sound/codec/d.c=200", "sound/codec/e.c=50",
	"codec-core/k.c=300", "old/thing.c=150", "old/other.c=150", "misc/readme=10", NULL
};
static const char *const secs2[] = {
	"NETWORKING:net/", "NETWORK DRIVERS:net/drv/,net/core/b.c", "SOUND:sound/core.c",
	"SOUND CODECS:sound/codec/,codec-core/", "CODEC CORE:codec-core/", "LEGACY DRIVER (RENAMED):old/",
	"NOTHING:nowhere/", NULL
};

static int count_events(const mev_event_list *l, const char *from, mev_event_kind k)
{
	int n = 0;
	for (size_t i = 0; i < l->n; i++)
		n += strcmp(l->v[i].from_release, from) == 0 && l->v[i].kind == k;
	return n;
}

/* The cluster whose representative is `rep` in release tag (-1: none);
 * *out (when not NULL) gets the clustering. */
static int64_t cluster_named(mev_store *s, const mev_cluster_params *cp, const char *tag,
			     const char *rep, mev_clustering **out)
{
	mev_clustering *c = NULL;
	int64_t found = -1;
	CHECK_INT(mev_cluster_load(&c, s, cp, tag), 0);
	for (uint32_t k = 0; c && k < mev_clustering_count(c); k++)
		if (strcmp(mev_clustering_title(c, mev_clustering_representative(c, k)), rep) == 0)
			found = k;
	if (out)
		*out = c;
	else
		mev_clustering_free(c);
	return found;
}

/*
 * What mev_track_clusters() reads back for release tag fits the clustering
 * and the other results: one entry per cluster, distinct lineages, and per
 * cluster the lineage and the size of the events leading into it (leaving
 * it for a lineage's first release), and its lineage's name, the
 * representative of the lineage's first cluster.
 */
static void check_clusters(mev_store *s, const mev_cluster_params *cp, const char *tag)
{
	mev_clustering *c = NULL;
	mev_tracked_cluster_list tc = { 0 };
	mev_event_list ev = { 0 };
	mev_lineage_list ls = { 0 };
	CHECK_INT(mev_cluster_load(&c, s, cp, tag), 0);
	CHECK_INT(mev_track_clusters(&tc, s, cp, NULL, tag), 0);
	CHECK_INT(mev_track_events(&ev, s, cp, NULL, NULL, NULL), 0);
	CHECK_INT(mev_track_lineages(&ls, s, cp, NULL), 0);
	if (!c)
		return;
	CHECK_INT(tc.n, mev_clustering_count(c));
	CHECK(tc.fingerprint == mev_clustering_fingerprint(c));
	for (size_t k = 0; k < tc.n && k < mev_clustering_count(c); k++) {
		const char *rep = mev_clustering_title(c, mev_clustering_representative(c, (uint32_t)k));
		CHECK(tc.v[k].lineage > 0 && tc.v[k].lineage <= ls.n);
		for (size_t j = 0; j < k; j++)
			CHECK(tc.v[j].lineage != tc.v[k].lineage);
		for (size_t i = 0; i < ev.n; i++) {
			const mev_event *e = &ev.v[i];
			if (strcmp(e->to_release, tag) == 0 && strcmp(e->to_cluster, rep) == 0) {
				CHECK_INT(tc.v[k].lineage, e->lineage);
				CHECK_INT(tc.v[k].code_lines, e->to_lines);
			}
			if (strcmp(e->from_release, tag) == 0 && strcmp(e->from_cluster, rep) == 0)
				CHECK_INT(tc.v[k].code_lines, e->from_lines);
		}
		/* a lineage born here is named after this cluster; every
		 * cluster carries its lineage's one name */
		for (size_t i = 0; i < ls.n; i++)
			if (strcmp(ls.v[i].first_release, tag) == 0 && strcmp(ls.v[i].name, rep) == 0)
				CHECK_INT(tc.v[k].lineage, ls.v[i].id);
		if (tc.v[k].lineage <= ls.n) {
			CHECK(tc.v[k].code_lines <= ls.v[tc.v[k].lineage - 1].peak_lines);
			CHECK_STR(tc.v[k].name, ls.v[tc.v[k].lineage - 1].name);
		}
	}
	mev_lineage_list_free(&ls);
	mev_event_list_free(&ev);
	mev_tracked_cluster_list_free(&tc);
	mev_clustering_free(c);
}

/* The clusters of test_store_code()'s store read back (mev_track_clusters()). */
static void check_read_back(mev_store *s, const mev_cluster_params *cp)
{
	mev_tracked_cluster_list t1 = { 0 }, t2 = { 0 }, none = { 0 };
	mev_cluster_params other;
	int64_t k1 = cluster_named(s, cp, "v1", "SOUND", NULL);
	int64_t k2 = cluster_named(s, cp, "v2", "SOUND", NULL);
	int64_t kc = cluster_named(s, cp, "v2", "SOUND CODECS", NULL);

	check_clusters(s, cp, "v1");
	check_clusters(s, cp, "v2");
	check_clusters(s, cp, "v3");
	/* v1's SOUND (with its codecs) goes on as the codecs' lineage in v2;
	 * v2's SOUND starts a lineage split from it */
	CHECK_INT(mev_track_clusters(&t1, s, cp, NULL, "v1"), 0);
	CHECK_INT(mev_track_clusters(&t2, s, cp, NULL, "v2"), 0);
	CHECK(k1 >= 0 && (size_t)k1 < t1.n && k2 >= 0 && (size_t)k2 < t2.n && kc >= 0 && (size_t)kc < t2.n);
	if (k1 >= 0 && (size_t)k1 < t1.n && k2 >= 0 && (size_t)k2 < t2.n && kc >= 0 && (size_t)kc < t2.n) {
		CHECK_INT(t2.v[kc].lineage, t1.v[k1].lineage);
		CHECK_INT(t2.v[kc].parent, 0);
		CHECK_INT(t2.v[k2].parent, t1.v[k1].lineage);
		CHECK(t2.v[k2].lineage > t1.v[k1].lineage);
	}
	mev_tracked_cluster_list_free(&t1);
	mev_tracked_cluster_list_free(&t2);
	/* a release not in the store; parameters not tracked */
	CHECK_ERR(mev_track_clusters(&none, s, cp, NULL, "v9"), MEV_ENOTFOUND, "release 'v9' of store");
	CHECK(strstr(mev_error_hint_text(), "maintevo track") != NULL);
	mev_cluster_params_init(&other);
	other.method = MEV_CLUSTER_COMPONENTS;
	CHECK_ERR(mev_track_clusters(&none, s, &other, NULL, "v1"), MEV_ENOTFOUND, "is not tracked for components");
	CHECK_INT(none.n, 0);
}

static void test_store_code(void)
{
	mev_store *s = NULL;
	mev_filemap *f1 = make_fm(secs1, files1), *f2 = make_fm(secs2, files2);
	mev_cluster_params cp;
	mev_track_result res;
	mev_event_list ev = { 0 };
	mev_lineage_list ls = { 0 };
	mev_section_change_list sc = { 0 };
	char sub[600];

	snprintf(sub, sizeof sub, "%s/code", dir);
	mev_cluster_params_init(&cp);
	CHECK_INT(mev_store_open(&s, sub, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	if (!s)
		return;
	put_release(s, "v1", f1, 1);
	put_release(s, "v2", f2, 1);
	put_release(s, "v3", f2, 1); /* the same content again */
	CHECK_ERR(mev_track_events(&ev, s, &cp, NULL, NULL, NULL), MEV_ENOTFOUND, "has no events for temporal");
	CHECK(strstr(mev_error_hint_text(), "maintevo track") != NULL);
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	CHECK_INT(res.releases, 3);
	CHECK_INT(res.tracked, 3);
	CHECK_INT(res.by_code, 2);
	CHECK_INT(mev_track_events(&ev, s, &cp, NULL, NULL, NULL), 0);
	/* v1 -> v2: SOUND splits into SOUND and the codecs */
	CHECK_INT(count_events(&ev, "v1", MEV_EVENT_SPLIT), 2);
	for (size_t i = 0; i < ev.n; i++) {
		const mev_event *e = &ev.v[i];
		if (strcmp(e->from_release, "v2") == 0)
			CHECK_INT(e->kind, MEV_EVENT_CONTINUATION); /* identical releases */
		if (e->kind == MEV_EVENT_SPLIT) {
			CHECK_STR(e->from_cluster, "SOUND");
			CHECK(strcmp(e->to_cluster, "SOUND") == 0 || strcmp(e->to_cluster, "SOUND CODECS") == 0);
		}
		if (strcmp(e->from_cluster, "OLD DRIVER") == 0)
			CHECK_STR(e->to_cluster, "LEGACY DRIVER (RENAMED)"); /* followed through the rename */
	}
	mev_event_list_free(&ev);
	CHECK_INT(mev_track_events(&ev, s, &cp, NULL, "v2", NULL), 0);
	CHECK_INT(count_events(&ev, "v1", MEV_EVENT_SPLIT), 0);
	CHECK(ev.n > 0);
	mev_event_list_free(&ev);
	/* lineages: the split leaves the id on the larger successor (the
	 * codecs, with their new core), SOUND starts a lineage of its own.  A
	 * lineage keeps the name it was born with: the codecs' lineage is
	 * "SOUND" (its representative in v1), the new one "SOUND (v2)" */
	CHECK_INT(mev_track_lineages(&ls, s, &cp, NULL), 0);
	{
		uint32_t sound = 0, codecs = 0;
		for (size_t i = 0; i < ls.n; i++) {
			if (strcmp(ls.v[i].name, "SOUND") == 0) {
				codecs = ls.v[i].id;
				CHECK_STR(ls.v[i].first_release, "v1");
				CHECK_INT(ls.v[i].releases, 3);
				CHECK_INT(ls.v[i].parent, 0);
				CHECK_INT(ls.v[i].peak_lines, 800);
			}
			if (strcmp(ls.v[i].name, "SOUND (v2)") == 0) {
				sound = ls.v[i].id;
				CHECK_STR(ls.v[i].first_release, "v2");
				CHECK_STR(ls.v[i].last_release, "v3");
				CHECK_INT(ls.v[i].releases, 2);
			}
		}
		CHECK(sound && codecs);
		for (size_t i = 0; i < ls.n; i++)
			if (ls.v[i].id == sound)
				CHECK_INT(ls.v[i].parent, codecs);
	}
	mev_lineage_list_free(&ls);
	/* sections: one added, one renamed, nothing between the identical ones */
	CHECK_INT(mev_track_section_changes(&sc, s, NULL, NULL, NULL), 0);
	CHECK_INT(sc.n, 2);
	if (sc.n == 2) {
		CHECK_INT(sc.v[0].kind, MEV_SECTION_ADDED);
		CHECK_STR(sc.v[0].section, "CODEC CORE");
		CHECK_STR(sc.v[0].from_release, "v1");
		CHECK_INT(sc.v[1].kind, MEV_SECTION_RENAMED);
		CHECK_STR(sc.v[1].section, "OLD DRIVER");
		CHECK_STR(sc.v[1].new_section, "LEGACY DRIVER (RENAMED)");
		CHECK(fabs(sc.v[1].coverage - 1) < 1e-9);
		CHECK_INT(sc.v[1].lines, 300);
	}
	mev_section_change_list_free(&sc);
	check_read_back(s, &cp);
	/* nothing new: everything kept */
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	CHECK_INT(res.tracked, 0);
	CHECK_INT(res.kept, 3);
	/* a release re-stored with other content: from there on */
	put_release(s, "v3", f1, 1);
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	CHECK_INT(res.tracked, 1);
	CHECK_INT(res.kept, 2);
	/* other thresholds: all again */
	tp.growth = 0.5;
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	CHECK_INT(res.tracked, 3);
	mev_track_params_init(&tp);
	mev_store_free(s);
	mev_filemap_free(f1);
	mev_filemap_free(f2);
}

static void test_store_titles(void)
{
	mev_store *s = NULL;
	mev_filemap *f1 = make_fm(secs1, files1), *f2 = make_fm(secs2, files2);
	mev_cluster_params cp;
	mev_track_result res;
	mev_event_list ev = { 0 };
	char sub[600];

	snprintf(sub, sizeof sub, "%s/titles", dir);
	mev_cluster_params_init(&cp);
	CHECK_INT(mev_store_open(&s, sub, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	if (!s)
		return;
	put_release(s, "v1", f1, 0);
	put_release(s, "v2", f1, 0);
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	CHECK_INT(res.by_title, 1);
	CHECK_INT(mev_track_events(&ev, s, &cp, NULL, NULL, NULL), 0);
	for (size_t i = 0; i < ev.n; i++)
		CHECK_INT(ev.v[i].kind, MEV_EVENT_CONTINUATION);
	CHECK(ev.n >= 4);
	mev_event_list_free(&ev);
	check_clusters(s, &cp, "v1");
	check_clusters(s, &cp, "v2");
	{
		mev_clustering *c = NULL;
		mev_tracked_cluster_list tc = { 0 };
		CHECK_INT(mev_cluster_load(&c, s, &cp, "v2"), 0);
		CHECK_INT(mev_track_clusters(&tc, s, &cp, NULL, "v2"), 0);
		for (size_t k = 0; c && k < tc.n; k++)
			CHECK_INT(tc.v[k].code_lines, mev_clustering_lines(c, (uint32_t)k));
		mev_tracked_cluster_list_free(&tc);
		mev_clustering_free(c);
	}
	mev_store_free(s);
	mev_filemap_free(f1);
	mev_filemap_free(f2);
}

/*
 * A first-release cluster that keeps its lineage and also feeds a merge
 * carried by an older lineage: BETA (lineage 2) splits into BETA (its
 * largest successor, keeps 2) and XRAY, which is mostly ALPHA (lineage 1,
 * most of its code deleted) and continues lineage 1.  The merge event
 * BETA -> XRAY carries lineage 1, yet v1's BETA is lineage 2: only the
 * stored lineage per cluster says so (the oldest lineage among the events
 * leaving BETA, which 'history' used to take, is 1).
 */
static const char *const files_m1[] = { "a/keep.c=100", "a/gone.c=900", "b/x.c=300", "b/y.c=200", NULL };
static const char *const secs_m1[] = { "ALPHA:a/", "BETA:b/", NULL };
static const char *const files_m2[] = { "a/keep.c=100", "b/x.c=300", "b/y.c=200", "new/n.c=2000", NULL };
static const char *const secs_m2[] = { "BETA:b/y.c,new/", "XRAY:a/,b/x.c", NULL };

static void test_store_merge(void)
{
	mev_store *s = NULL;
	mev_filemap *f1 = make_fm(secs_m1, files_m1), *f2 = make_fm(secs_m2, files_m2);
	mev_cluster_params cp;
	mev_track_result res;
	mev_tracked_cluster_list tc = { 0 };
	mev_event_list ev = { 0 };
	int64_t alpha, beta, beta2, xray;
	char sub[600];

	snprintf(sub, sizeof sub, "%s/merge", dir);
	mev_cluster_params_init(&cp);
	CHECK_INT(mev_store_open(&s, sub, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	if (!s)
		return;
	put_release(s, "v1", f1, 1);
	put_release(s, "v2", f2, 1);
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	CHECK_INT(mev_track_events(&ev, s, &cp, NULL, NULL, NULL), 0);
	CHECK_INT(ev.n, 3);
	for (size_t i = 0; i < ev.n; i++)
		if (strcmp(ev.v[i].from_cluster, "BETA") == 0 && strcmp(ev.v[i].to_cluster, "XRAY") == 0) {
			CHECK_INT(ev.v[i].kind, MEV_EVENT_MERGE);
			CHECK_INT(ev.v[i].lineage, 1);
		}
	mev_event_list_free(&ev);
	alpha = cluster_named(s, &cp, "v1", "ALPHA", NULL);
	beta = cluster_named(s, &cp, "v1", "BETA", NULL);
	beta2 = cluster_named(s, &cp, "v2", "BETA", NULL);
	xray = cluster_named(s, &cp, "v2", "XRAY", NULL);
	CHECK(alpha == 0 && beta == 1 && beta2 >= 0 && xray >= 0);
	CHECK_INT(mev_track_clusters(&tc, s, &cp, NULL, "v1"), 0);
	if (tc.n == 2) {
		CHECK_INT(tc.v[alpha].lineage, 1);
		CHECK_INT(tc.v[alpha].code_lines, 1000);
		CHECK_INT(tc.v[beta].lineage, 2);
		CHECK_INT(tc.v[beta].code_lines, 500);
	}
	mev_tracked_cluster_list_free(&tc);
	CHECK_INT(mev_track_clusters(&tc, s, &cp, NULL, "v2"), 0);
	if (tc.n == 2 && beta2 >= 0 && xray >= 0) {
		/* BETA keeps 200 of its 500 lines and gains 2,000 new ones: less
		 * than a tenth of it is BETA's, so it is a new subsystem formed
		 * around new code, BETA's lineage its parent */
		CHECK_INT(tc.v[beta2].lineage, 3);
		CHECK_INT(tc.v[beta2].parent, 2);
		CHECK_INT(tc.v[beta2].code_lines, 2200);
		CHECK_INT(tc.v[xray].lineage, 1);
		CHECK_INT(tc.v[xray].code_lines, 400);
	}
	mev_tracked_cluster_list_free(&tc);
	check_clusters(s, &cp, "v1");
	check_clusters(s, &cp, "v2");
	mev_store_free(s);
	mev_filemap_free(f1);
	mev_filemap_free(f2);
}

/* A store with one release has no pairs: track succeeds, its clusters
 * start the lineages, events and section changes are empty.  A store
 * without releases has nothing to track: every list is empty. */
static void test_store_small(void)
{
	mev_store *s = NULL;
	mev_filemap *f1 = make_fm(secs1, files1);
	mev_cluster_params cp;
	mev_track_result res;
	mev_event_list ev = { 0 };
	mev_lineage_list li = { 0 };
	mev_section_change_list sc = { 0 };
	char sub[600];

	mev_cluster_params_init(&cp);
	snprintf(sub, sizeof sub, "%s/none", dir);
	CHECK_INT(mev_store_open(&s, sub, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	if (!s)
		return;
	/* nothing stored: empty, tracked or not */
	CHECK_INT(mev_track_events(&ev, s, &cp, NULL, NULL, NULL), 0);
	CHECK_INT(mev_track_lineages(&li, s, &cp, NULL), 0);
	CHECK_INT(mev_track_section_changes(&sc, s, NULL, NULL, NULL), 0);
	CHECK(ev.n == 0 && li.n == 0 && sc.n == 0);
	mev_event_list_free(&ev);
	mev_lineage_list_free(&li);
	mev_section_change_list_free(&sc);
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	CHECK(res.releases == 0 && res.tracked == 0 && res.lineages == 0);
	mev_store_free(s);

	snprintf(sub, sizeof sub, "%s/one", dir);
	CHECK_INT(mev_store_open(&s, sub, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	if (!s)
		return;
	put_release(s, "v1", f1, 1);
	/* not tracked yet: the events and lineages need 'track' */
	CHECK_ERR(mev_track_events(&ev, s, &cp, NULL, NULL, NULL), MEV_ENOTFOUND, "has no events");
	CHECK_ERR(mev_track_lineages(&li, s, &cp, NULL), MEV_ENOTFOUND, "has no lineages");
	/* no section changes with one release, whatever ran */
	CHECK_INT(mev_track_section_changes(&sc, s, NULL, NULL, NULL), 0);
	CHECK_INT(sc.n, 0);
	mev_event_list_free(&ev);
	mev_lineage_list_free(&li);
	mev_section_change_list_free(&sc);
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	CHECK(res.releases == 1 && res.tracked == 1 && res.by_code == 0 && res.by_title == 0);
	CHECK_INT(res.events[MEV_EVENT_BIRTH] + res.events[MEV_EVENT_CONTINUATION], 0);
	CHECK_INT(mev_track_events(&ev, s, &cp, NULL, NULL, NULL), 0);
	CHECK_INT(ev.n, 0);
	CHECK_INT(mev_track_lineages(&li, s, &cp, NULL), 0);
	CHECK(li.n > 0 && li.n == res.lineages);
	for (size_t i = 0; i < li.n; i++)
		CHECK(strcmp(li.v[i].first_release, "v1") == 0 && li.v[i].releases == 1);
	mev_section_change_list_free(&sc);
	CHECK_INT(mev_track_section_changes(&sc, s, NULL, NULL, NULL), 0);
	CHECK_INT(sc.n, 0);
	/* again: nothing computed */
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	CHECK(res.tracked == 0 && res.kept == 1);
	mev_event_list_free(&ev);
	mev_lineage_list_free(&li);
	mev_section_change_list_free(&sc);
	mev_store_free(s);
	mev_filemap_free(f1);
}

/* Track and cluster take the writer's lock: while another writer holds
 * it they fail at once (or after opt->wait) and write nothing. */
static void test_store_lock(void)
{
	mev_store *s = NULL;
	mev_filemap *f1 = make_fm(secs1, files1), *f2 = make_fm(secs2, files2);
	mev_cluster_params cp;
	mev_track_result res;
	mev_track_options o = { 0 };
	mev_cluster_result cr;
	mev_cluster_options co = { 0 };
	mev_store_stats st;
	volatile int stop = 1;
	int lock = -1;
	char sub[600];

	mev_cluster_params_init(&cp);
	snprintf(sub, sizeof sub, "%s/lock", dir);
	CHECK_INT(mev_store_open(&s, sub, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	if (!s)
		return;
	put_release(s, "v1", f1, 1);
	put_release(s, "v2", f2, 1);
	CHECK_INT(mev_store_lock(&lock, sub), 0);
	CHECK_ERR(mev_track_store(&res, s, &cp, &tp, NULL), MEV_ESTORE,
		  "another maintevo command, 'test_track' (pid ");
	CHECK_ERR(mev_cluster_store(&cr, s, &cp, NULL), MEV_ESTORE, "is writing to store");
	o.wait = 0.2;
	CHECK_ERR(mev_track_store(&res, s, &cp, &tp, &o), MEV_ESTORE, "still writes to store");
	co.wait = 30;
	co.progress.stop = &stop;
	CHECK_ERR(mev_cluster_store(&cr, s, &cp, &co), MEV_EINTR, "interrupted while waiting");
	/* nothing was written: no table but the releases' */
	CHECK_INT(mev_store_stats_get(&st, s), 0);
	for (size_t i = 0; i < st.n; i++)
		CHECK(strcmp(st.v[i].name, "clusters") != 0 && strcmp(st.v[i].name, "events") != 0);
	mev_store_stats_free(&st);
	close(lock);
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, &o), 0);
	CHECK_INT(res.tracked, 2);
	/* the lock is let go: a second run takes it again */
	CHECK_INT(mev_cluster_store(&cr, s, &cp, NULL), 0);
	CHECK_INT(cr.kept, 2);
	mev_store_free(s);
	mev_filemap_free(f1);
	mev_filemap_free(f2);
}

/* --- the read model of chart, export and report (history.c) ----------------- */

/* Every cluster of release r in h is found by its representative and
 * carries what mev_track_clusters() says (lineage, code lines, lineage
 * name), or unknowns when `known` is 0 (not tracked, or clustered anew). */
static void check_history_release(const mev_history *h, mev_store *s, const mev_cluster_params *cp,
				  size_t r, int known)
{
	const mev_clustering *c = mev_history_clustering(h, r);
	mev_tracked_cluster_list tc = { 0 };
	CHECK(c != NULL);
	if (!c)
		return;
	if (known) {
		CHECK_INT(mev_track_clusters(&tc, s, cp, NULL, mev_history_release(h, r)->tag), 0);
		CHECK_INT(tc.n, mev_clustering_count(c));
	}
	for (uint32_t k = 0; k < mev_clustering_count(c); k++) {
		const char *rep = mev_clustering_title(c, mev_clustering_representative(c, k));
		CHECK_INT(mev_history_cluster_named(h, r, rep), k);
		CHECK_INT(mev_history_cluster_of(h, r, rep), k);
		if (known && k < tc.n) {
			CHECK_INT(mev_history_cluster_lineage(h, r, k), tc.v[k].lineage);
			CHECK_INT(mev_history_cluster_code_lines(h, r, k), tc.v[k].code_lines);
			CHECK_INT(mev_history_cluster_lines(h, r, k), tc.v[k].code_lines);
			CHECK_STR(mev_history_lineage_name(h, r, k), tc.v[k].name);
			CHECK(mev_history_lineage_cluster(h, r, tc.v[k].lineage) <= (int64_t)k);
			CHECK(tc.v[k].lineage >= 1 && tc.v[k].lineage <= mev_history_lineages(h)->n);
		} else if (!known) {
			CHECK(mev_history_cluster_lineage(h, r, k) == -1 &&
			      mev_history_cluster_code_lines(h, r, k) == -1);
			CHECK_INT(mev_history_cluster_lines(h, r, k), mev_clustering_lines(c, k));
			CHECK_STR(mev_history_lineage_name(h, r, k), "");
			CHECK_INT(mev_history_lineage_cluster(h, r, 1), -1);
		}
	}
	mev_tracked_cluster_list_free(&tc);
}

/* The lineage of the cluster of `title` in release `tag`, as h has it (-2: none). */
static int64_t history_lineage(const mev_history *h, const char *tag, const char *title)
{
	int64_t r = mev_history_find(h, tag),
		k = r >= 0 ? mev_history_cluster_of(h, (size_t)r, title) : -1;
	return k >= 0 ? mev_history_cluster_lineage(h, (size_t)r, (uint32_t)k) : -2;
}

/* The lists of the handle's own reads are those of mev_track_*(). */
static void check_history_reads(const mev_history *h, mev_store *s, const mev_cluster_params *cp)
{
	mev_event_list ev = { 0 }, mine = { 0 };
	mev_lineage_list ls = { 0 }, mls = { 0 };
	mev_section_change_list sc = { 0 }, msc = { 0 };
	CHECK_INT(mev_track_events(&ev, s, cp, NULL, NULL, NULL), 0);
	CHECK_INT(mev_track_lineages(&ls, s, cp, NULL), 0);
	CHECK_INT(mev_track_section_changes(&sc, s, NULL, "v2", NULL), 0);
	CHECK(mev_history_events(h)->n == ev.n && ev.n > 0);
	CHECK(mev_history_lineages(h)->n == ls.n && ls.n > 0);
	CHECK_INT(mev_history_read_events(&mine, h, "v2", "v3"), 0);
	CHECK(mine.n > 0 && mine.n < ev.n && strcmp(mine.v[0].from_release, "v2") == 0);
	CHECK_INT(mev_history_read_lineages(&mls, h), 0);
	CHECK_INT(mls.n, ls.n);
	CHECK_INT(mev_history_read_section_changes(&msc, h, "v2", NULL), 0);
	CHECK_INT(msc.n, sc.n);
	mev_event_list_free(&mine);
	CHECK_ERR(mev_history_read_events(&mine, h, "v3", "v1"), MEV_EINVAL, "");
	mev_event_list_free(&ev);
	mev_event_list_free(&mine);
	mev_lineage_list_free(&ls);
	mev_lineage_list_free(&mls);
	mev_section_change_list_free(&sc);
	mev_section_change_list_free(&msc);
}

/* v1, v2, v3 of test_store_code(), clustered and tracked, read whole. */
static void check_history_tracked(mev_store *s, const mev_cluster_params *cp)
{
	mev_history *h = NULL;
	char key[128];
	CHECK_INT(mev_history_open(&h, s, NULL, NULL, NULL, MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS),
		  0);
	if (!h)
		return;
	CHECK_INT(mev_history_release_count(h), 3);
	if (mev_history_release_count(h) != 3) {
		mev_history_free(h);
		return;
	}
	CHECK(mev_history_clustered(h) && mev_history_tracked(h) && mev_history_store(h) == s);
	mev_cluster_key(key, sizeof key, cp);
	CHECK_STR(mev_history_cluster_key(h), key);
	CHECK_STR(mev_history_track_key(h), "link=0.1:match=0.5:growth=0.1:absorb=0.5:gap=1");
	CHECK_STR(mev_history_release(h, 0)->tag, "v1");
	CHECK_STR(mev_history_releases(h)[2].tag, "v3");
	CHECK_INT(mev_history_find(h, "v2"), 1);
	CHECK_INT(mev_history_find(h, "v9"), -1);
	CHECK_INT(mev_history_find(h, NULL), -1);
	for (size_t r = 0; r < 3; r++)
		check_history_release(h, s, cp, r, 1);
	/* SOUND's codecs are in its cluster in v1, their own in v2 */
	CHECK(mev_history_cluster_named(h, 0, "SOUND") >= 0);
	CHECK_INT(mev_history_cluster_of(h, 0, "SOUND CODECS"),
		  mev_history_cluster_named(h, 0, "SOUND"));
	CHECK_INT(mev_history_cluster_named(h, 0, "SOUND CODECS"), -1);
	CHECK_INT(mev_history_cluster_of(h, 0, "NO SUCH SECTION"), -1);
	CHECK_INT(mev_history_cluster_of(h, 0, "THE REST"), -1);
	/* the codecs go on in SOUND's lineage, SOUND starts one; v3 = v2 */
	CHECK_INT(history_lineage(h, "v2", "SOUND CODECS"), history_lineage(h, "v1", "SOUND"));
	CHECK(history_lineage(h, "v2", "SOUND") > history_lineage(h, "v1", "SOUND"));
	CHECK_INT(mev_history_lineage_cluster(h, 1, (uint32_t)history_lineage(h, "v2", "SOUND")),
		  mev_history_cluster_named(h, 1, "SOUND"));
	CHECK_INT(mev_history_lineage_cluster(h, 0, (uint32_t)history_lineage(h, "v2", "SOUND")), -1);
	CHECK_INT(history_lineage(h, "v3", "SOUND"), history_lineage(h, "v2", "SOUND"));
	CHECK_INT(history_lineage(h, "v2", "LEGACY DRIVER (RENAMED)"),
		  history_lineage(h, "v1", "OLD DRIVER"));
	{
		int64_t k = mev_history_cluster_named(h, 1, "SOUND");
		CHECK(k >= 0);
		if (k >= 0)
			CHECK_STR(mev_history_lineage_name(h, 1, (uint32_t)k), "SOUND (v2)");
	}
	check_history_reads(h, s, cp);
	mev_history_free(h);
	mev_history_free(NULL);
}

/* What `need` and `only` leave out, and read later; a release changed or
 * added since the track: unknown lineages, no clustering. */
static void check_history_parts(mev_store *s, const mev_cluster_params *cp, const mev_filemap *f1)
{
	mev_history *h = NULL, *own = NULL, *got = NULL;
	mev_cluster_result cr;
	mev_lineage_list ls = { 0 };
	CHECK_INT(mev_history_open(&h, s, cp, &tp, "v2", MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS), 0);
	CHECK(h && mev_history_release_count(h) == 3 && !mev_history_clustering(h, 0) &&
	      mev_history_clustering(h, 1) && !mev_history_clustering(h, 2));
	if (h && mev_history_clustering(h, 1))
		check_history_release(h, s, cp, 1, 1);
	/* the rest read later, into the same handle */
	CHECK_INT(mev_history_read(h, NULL, MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS), 0);
	for (size_t r = 0; h && r < 3; r++)
		check_history_release(h, s, cp, r, 1);
	CHECK_ERR(mev_history_read(h, "v9", MEV_HISTORY_CLUSTERS), MEV_ENOTFOUND,
		  "release 'v9' is not in store");
	mev_history_free(h);
	CHECK_ERR(mev_history_open(&h, s, cp, &tp, "v9", MEV_HISTORY_CLUSTERS), MEV_ENOTFOUND,
		  "release 'v9' is not in store");
	CHECK(h == NULL);
	CHECK_INT(mev_history_open(&h, s, cp, &tp, NULL, 0), 0);
	CHECK(h && mev_history_release_count(h) == 3 && !mev_history_clustered(h) &&
	      !mev_history_tracked(h) && !mev_history_clustering(h, 0) &&
	      mev_history_events(h)->n == 0);
	/* a reader given a handle reads into it; given none, opens its own */
	CHECK_INT(mev_history_use(&got, &own, s, h, "v1", MEV_HISTORY_CLUSTERS), 0);
	CHECK(got == h && own == NULL && mev_history_clustering(h, 0) && !mev_history_clustering(h, 1));
	mev_history_free(h);
	CHECK_INT(mev_history_use(&got, &own, s, NULL, NULL, MEV_HISTORY_TRACKS), 0);
	CHECK(got && got == own && mev_history_tracked(own));
	mev_history_free(own);
	/* events and lineages without the clusterings */
	CHECK_INT(mev_history_open(&h, s, cp, &tp, NULL, MEV_HISTORY_TRACKS), 0);
	CHECK(h && mev_history_tracked(h) && mev_history_events(h)->n > 0 &&
	      !mev_history_clustering(h, 0) && mev_history_cluster_lineage(h, 0, 0) == -1);
	mev_history_free(h);
	/* other thresholds: not tracked, and the reads say so */
	{
		mev_track_params other = tp;
		other.link = 0.3;
		CHECK_INT(mev_history_open(&h, s, cp, &other, NULL,
					   MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS),
			  0);
		CHECK(h && mev_history_clustered(h) && !mev_history_tracked(h) &&
		      mev_history_lineages(h)->n == 0);
		CHECK_ERR(mev_history_read_lineages(&ls, h), MEV_ENOTFOUND, "has no lineages for");
		mev_lineage_list_free(&ls);
		mev_history_free(h);
	}
	/* v3 re-stored and clustered anew, v4 added, neither tracked */
	put_release(s, "v3", (mev_filemap *)f1, 1);
	CHECK_INT(mev_cluster_store(&cr, s, cp, NULL), 0);
	put_release(s, "v4", (mev_filemap *)f1, 1);
	CHECK_INT(mev_history_open(&h, s, cp, &tp, NULL, MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS), 0);
	CHECK_INT(h ? mev_history_release_count(h) : 0, 4);
	if (h && mev_history_release_count(h) == 4) {
		check_history_release(h, s, cp, 1, 1);
		check_history_release(h, s, cp, 2, 0);
		CHECK(!mev_history_clustering(h, 3) && mev_history_cluster_lineage(h, 3, 0) == -1);
		CHECK_INT(mev_history_cluster_of(h, 3, "SOUND"), -1);
		CHECK_INT(mev_history_cluster_named(h, 3, "SOUND"), -1);
	}
	mev_history_free(h);
}

static void test_history(void)
{
	mev_store *s = NULL;
	mev_filemap *f1 = make_fm(secs1, files1), *f2 = make_fm(secs2, files2);
	mev_cluster_params cp;
	mev_track_result res;
	mev_cluster_result cr;
	mev_history *h = NULL;
	char sub[600];

	mev_cluster_params_init(&cp);
	snprintf(sub, sizeof sub, "%s/history", dir);
	CHECK_INT(mev_store_open(&s, sub, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	if (!s)
		goto done;
	/* no releases: clustered and tracked, with empty tables */
	CHECK_INT(mev_history_open(&h, s, &cp, &tp, NULL, MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS),
		  0);
	CHECK(h && mev_history_release_count(h) == 0 && mev_history_clustered(h) &&
	      mev_history_tracked(h) && mev_history_events(h)->n == 0 &&
	      mev_history_lineages(h)->n == 0);
	mev_history_free(h);
	put_release(s, "v1", f1, 1);
	put_release(s, "v3", f2, 1);
	put_release(s, "v2", f2, 1);
	/* clustered, not tracked: no lineages, sizes from the clustering */
	CHECK_INT(mev_cluster_store(&cr, s, &cp, NULL), 0);
	CHECK_INT(mev_history_open(&h, s, &cp, &tp, NULL, MEV_HISTORY_CLUSTERS | MEV_HISTORY_TRACKS),
		  0);
	CHECK(h && mev_history_release_count(h) == 3 && mev_history_clustered(h) &&
	      !mev_history_tracked(h) && mev_history_lineages(h)->n == 0);
	for (size_t r = 0; h && r < mev_history_release_count(h); r++)
		check_history_release(h, s, &cp, r, 0);
	mev_history_free(h);
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	check_history_tracked(s, &cp);
	check_history_parts(s, &cp, f1);
done:
	mev_store_free(s);
	mev_filemap_free(f1);
	mev_filemap_free(f2);
}

int main(void)
{
	mev_track_params_init(&tp);
	dir = test_tmpdir("track");
	RUN(test_store_code);
	RUN(test_store_titles);
	RUN(test_store_merge);
	RUN(test_store_small);
	RUN(test_store_lock);
	RUN(test_history);
	if (getenv("MEV_TEST_KEEP")) { /* look at the stores with the maintevo command */
		fprintf(stderr, "kept %s\n", dir);
		return test_summary();
	}
	test_tmpdir_remove(dir);
	return test_summary();
}
