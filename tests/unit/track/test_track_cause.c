/* Tests of the causes of events: the stored patterns, the causes record, the sentences, and the tracker through the store. */
#include "test.h"
#include "maint_test.h"
#include "track_test.h"
#include "track/track_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "store_internal.h"
#include "maintevo/track.h"

#include <math.h>
#include <stdint.h>

static const char *dir;

/* --- releases made of sections and files ----------------------------------- */

/* Store release `tag` with the patterns of MAINTAINERS text `maint` (NULL:
 * none stored, as a walk before patterns were kept). */
static void put_release(mev_store *s, const char *tag, mev_filemap *fm, const char *maint)
{
	mev_rules r = linux_rules();
	mev_maint *m = maint ? parse_text(&r, maint) : NULL;
	mev_graph *g = NULL;
	mev_graph_options go = { 1 };
	mev_release_input in = { 0 };
	in.tag = tag;
	in.commit.id[0] = (unsigned char)tag[strlen(tag) - 1];
	in.maint = m;
	CHECK_INT(mev_graph_build(&g, fm, &go), 0);
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_release_put(s, &in, fm, g, NULL, NULL), 0);
	CHECK_INT(mev__store_commit(s), 0);
	mev_graph_free(g);
	mev_maint_free(m);
}

static mev_store *open_store(const char *name)
{
	mev_store *s = NULL;
	char sub[600];
	snprintf(sub, sizeof sub, "%s/%s", dir, name);
	CHECK_INT(mev_store_open(&s, sub, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	return s;
}

/* --- the patterns of a release ------------------------------------------------ */

static const char *const pat_secs[] = { "ZETA:z/", "ALPHA:a/", "NOPAT:n/", NULL };
static const char *const pat_files[] = { "a/x.c=10", "n/y.c=5", "z/w.c=20", NULL };
static const char pat_text[] = "ZETA\n"          /* 1 */
			       "M:\tZ <z@example.org>\n"
			       "F:\tz/\n"        /* 3 */
			       "X:\tz/skip/\n"   /* 4 */
			       "N:\tzeta\n"      /* 5 */
			       "\n"
			       "ALPHA\n"
			       "F:\ta/\n"        /* 8 */
			       "\n"
			       "NOPAT\n"
			       "M:\tN <n@example.org>\n";

static void test_patterns(void)
{
	mev_store *s = open_store("patterns");
	mev_filemap *fm = make_fm(pat_secs, pat_files);
	mev_release_patterns p = { 0 };
	mev_release_check_result cr = { 0 };
	const mev_section_patterns *z;
	if (!s)
		return;
	put_release(s, "v1", fm, pat_text);
	CHECK_INT(mev_release_has_patterns(s, "v1"), 1);
	CHECK_INT(mev_release_load_patterns(&p, s, "v1"), 0);
	/* the sections with pattern lines, in title order */
	CHECK_INT(p.n, 2);
	if (p.n == 2) {
		CHECK_STR(p.v[0].title, "ALPHA");
		CHECK_INT(p.v[0].n, 1);
		CHECK_STR(p.v[1].title, "ZETA");
	}
	z = mev_release_patterns_find(&p, "ZETA");
	CHECK(z != NULL && z->n == 3);
	if (z && z->n == 3) {
		CHECK_INT(z->v[0].type, 'F');
		CHECK_STR(z->v[0].value, "z/");
		CHECK_STR(z->v[0].file, "MAINTAINERS");
		CHECK_INT(z->v[0].line, 3);
		CHECK_INT(z->v[1].type, 'X');
		CHECK_INT(z->v[1].line, 4);
		CHECK_INT(z->v[2].type, 'N');
		CHECK_STR(z->v[2].value, "zeta");
		/* the script's regexes (F/X converted, N as written) */
		CHECK_STR(z->v[0].regex, "z/");
		CHECK_STR(z->v[1].regex, "z/skip/");
		CHECK_STR(z->v[2].regex, "zeta");
	}
	CHECK_INT(p.has_regex, 1);
	CHECK(mev_release_patterns_find(&p, "NOPAT") == NULL);
	CHECK(mev_release_patterns_find(&p, "OMEGA") == NULL);
	mev_release_patterns_free(&p);
	/* put again without MAINTAINERS (a successor re-encoded): kept */
	put_release(s, "v1", fm, NULL);
	CHECK_INT(mev_release_has_patterns(s, "v1"), 1);
	/* a release stored without them, as before they were kept */
	put_release(s, "v2", fm, NULL);
	CHECK_INT(mev_release_has_patterns(s, "v2"), 0);
	CHECK_INT(mev_release_load_patterns(&p, s, "v2"), MEV_ENOTFOUND);
	CHECK_INT(p.n, 0);
	CHECK_INT(mev_release_check(&cr, s, 0), 0);
	CHECK_INT(cr.n, 0);
	mev_release_check_free(&cr);
	/* damaged, and without a release: store check names both */
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_store_put_record(NULL, s, "patterns", 'P', 3, "v2", 2, "\x01\x09", 2), 0);
	CHECK_INT(mev_store_put_record(NULL, s, "patterns", 'P', 3, "v9", 2, "\x01\x00\x00", 3), 0);
	CHECK_INT(mev__store_commit(s), 0);
	CHECK_ERR(mev_release_load_patterns(&p, s, "v2"), MEV_ECORRUPT, "patterns of 'v2' are damaged");
	/* version 1 (before the regexes were kept) still reads, without them */
	CHECK_INT(mev_release_load_patterns(&p, s, "v9"), 0);
	CHECK_INT(p.has_regex, 0);
	CHECK_INT(p.n, 0);
	mev_release_patterns_free(&p);
	CHECK_INT(mev_release_check(&cr, s, 0), 0);
	CHECK_INT(cr.n, 2);
	for (size_t i = 0; i < cr.n; i++) {
		CHECK_STR(cr.v[i].table, "patterns");
		CHECK(strcmp(cr.v[i].key, i ? "v9" : "v2") == 0);
	}
	mev_release_check_free(&cr);
	/* the health record (written by the walk, which has the tree): an empty
	 * one reads, a damaged one and one without a release are found */
	{
		static const char empty[] = "\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00";
		mev_release_health hr;
		CHECK_INT(mev_release_load_health(&hr, s, "v1"), MEV_ENOTFOUND);
		CHECK_INT(mev__store_begin(s), 0);
		CHECK_INT(mev_store_put_record(NULL, s, "health", 'H', 3, "v1", 2, empty, sizeof empty - 1), 0);
		CHECK_INT(mev_store_put_record(NULL, s, "health", 'H', 3, "v8", 2, empty, sizeof empty - 1), 0);
		CHECK_INT(mev__store_commit(s), 0);
		CHECK_INT(mev_release_load_health(&hr, s, "v1"), 0);
		CHECK(hr.npatterns == 0 && hr.nsections == 0 && hr.ndirs == 0 && hr.orphan_lines == 0);
		mev_release_health_free(&hr);
		CHECK_INT(mev__store_begin(s), 0);
		CHECK_INT(mev_store_put_record(NULL, s, "health", 'H', 3, "v1", 2, "\x01\x05", 2), 0);
		CHECK_INT(mev__store_commit(s), 0);
		CHECK_ERR(mev_release_load_health(&hr, s, "v1"), MEV_ECORRUPT, "health of 'v1' is damaged");
		CHECK_INT(mev_release_check(&cr, s, 0), 0);
		CHECK_INT(cr.n, 4);
		for (size_t i = 0; i < cr.n; i++)
			CHECK(strcmp(cr.v[i].table, "health") || !strcmp(cr.v[i].key, "v1") ||
			      !strcmp(cr.v[i].key, "v8"));
		mev_release_check_free(&cr);
	}
	/* deleting a release deletes its patterns and its health */
	CHECK_INT(mev__store_begin(s), 0);
	CHECK_INT(mev_release_delete(s, "v1"), 0);
	CHECK_INT(mev__store_commit(s), 0);
	CHECK_INT(mev_release_has_patterns(s, "v1"), 0);
	{
		mev_release_health hr;
		CHECK_INT(mev_release_load_health(&hr, s, "v1"), MEV_ENOTFOUND);
	}
	mev_filemap_free(fm);
	mev_store_free(s);
}

/* --- the causes record and its sentences ----------------------------------------- */

static void test_record(void)
{
	mev_cause_item items[3];
	mev__event_cause c[2];
	mev__cause_head h = { 0x1234, 7, 8, 3 }, other = h;
	mev__read_cause *rd = NULL;
	mev_arena a = MEV_ARENA_INIT;
	mev_buf b = MEV_BUF_INIT;
	size_t n = 0;
	memset(items, 0, sizeof items);
	memset(c, 0, sizeof c);
	items[0] = (mev_cause_item){ MEV_CAUSE_SECTION_ADDED, "NEW", "", 0, "", "", 0, "", "", 40, 0, "", "" };
	items[1] = (mev_cause_item){ MEV_CAUSE_PATTERN_ADDED, "OLD", "", 'F', "x/", "MAINTAINERS", 12, "", "",
				     0, 0, "", "" };
	items[2] = (mev_cause_item){ MEV_CAUSE_FILE_MOVED, "", "", 0, "", "", 0, "x/big.c", "y/big.c", 900, 900,
				     "OLD", "NEW" };
	c[0].wanted = 1;
	c[0].kind = MEV__CAUSE_BOTH;
	c[0].code_counts = 1;
	c[0].c.v = items;
	c[0].c.n = 3;
	c[0].c.files[MEV_CAUSE_FILE_MOVED - MEV_CAUSE_FILE_APPEARED] = 1;
	c[0].c.lines[MEV_CAUSE_FILE_MOVED - MEV_CAUSE_FILE_APPEARED] = 900;
	c[0].c.code_share = 0.25;
	c[0].c.patterns = c[0].c.code = 1;
	CHECK_INT(mev__cause_sentence(&c[0].sentence, &c[0], NULL, NULL), 0);
	/* the pattern of the added section is not repeated in the sentence */
	CHECK_STR(c[0].sentence, "MAINTAINERS: section NEW added, F: x/ (MAINTAINERS:12) added to OLD; code: 1 file "
				 "moved (900 lines: x/big.c from OLD to NEW)");
	CHECK_INT(mev__encode_causes(&b, &h, c, 2), 0);
	CHECK_INT(mev__causes_fresh(b.ptr, b.len, &h), 1);
	other.patterns = 1;
	CHECK_INT(mev__causes_fresh(b.ptr, b.len, &other), 0);
	CHECK_INT(mev__causes_decode(&rd, &n, &a, b.ptr, b.len, 0x1235, "v2"), 1);
	CHECK_INT(mev__causes_decode(&rd, &n, &a, b.ptr, b.len, 0x1234, "v2"), 0);
	CHECK_INT(n, 2);
	if (n == 2) {
		CHECK_STR(rd[0].kind, "maintainers+code");
		CHECK_STR(rd[0].sentence, c[0].sentence);
		CHECK(rd[0].detail && rd[0].detail->n == 3 && rd[0].detail->code_share == 0.25);
		if (rd[0].detail && rd[0].detail->n == 3) {
			CHECK_STR(rd[0].detail->v[1].value, "x/");
			CHECK_INT(rd[0].detail->v[1].line, 12);
			CHECK_STR(rd[0].detail->v[2].old_path, "y/big.c");
			CHECK_INT(rd[0].detail->files[2], 1);
		}
		CHECK_STR(rd[1].kind, "");
		CHECK(rd[1].detail == NULL);
	}
	free(rd);
	b.len -= 5;
	CHECK_ERR(mev__causes_decode(&rd, &n, &a, b.ptr, b.len, 0x1234, "v2"), MEV_ECORRUPT,
		  "the causes of 'v2' are damaged");
	/* neither: the clustering alone; patterns not stored; no file tables */
	c[1].kind = MEV__CAUSE_NONE;
	c[1].c.code_share = 0.015;
	CHECK_INT(mev__cause_sentence(&c[1].sentence, &c[1], NULL, NULL), 0);
	CHECK_STR(c[1].sentence, "no MAINTAINERS or code change: the clustering alone changed (the files that "
				 "changed hold 1.5% of the lines of the sections involved)");
	free(c[1].sentence);
	c[1].kind = MEV__CAUSE_UNKNOWN;
	CHECK_INT(mev__cause_sentence(&c[1].sentence, &c[1], NULL, NULL), 0);
	CHECK_STR(c[1].sentence, "no MAINTAINERS patterns or file tables stored (imported graphs): only the "
				 "sections added, removed and renamed are compared");
	free(c[0].sentence);
	free(c[1].sentence);
	mev__arena_free(&a);
	mev__buf_free(&b);
}

/* --- through the tracker ---------------------------------------------------------- */

/* v2 adds "F: beta/" to GAMMA: BETA's sections leave ALPHA's for GAMMA's
 * (a split); XI leaves QU with nothing changed near it (the clustering
 * alone: docs/tracking.md, "Causes").  The CLI test has the same history. */
static const char *const files_t[] = {
	"alpha/a.c=2000", "beta/b.c=3000", "common/c.txt=5", "delta/big.c=3000", "delta/d.c=1000",
	"eps/big2.c=2000", "eps/e.c=1000", "gamma/g.c=3000", "pi/p.c=1000", "px/bridge.c=100",
	"qu/q.c=1000", "qx/bridge.c=101", "shared/s.c=1000", "xi/x.c=600", NULL
};
static const char *const secs_t1[] = {
	"ALPHA:alpha/,shared/", "ALPHA DRIVERS:alpha/", "BETA:beta/,shared/", "BETA DRIVERS:beta/",
	"GAMMA:gamma/", "GAMMA DRIVERS:gamma/", "DELTA:delta/,common/", "DELTA DRIVERS:delta/",
	"EPSILON:eps/,common/", "EPSILON DRIVERS:eps/", "PI:pi/,px/", "PI DRIVERS:pi/", "QU:qu/,qx/",
	"QU DRIVERS:qu/", "XI:xi/,px/,qx/", NULL
};
static const char *const secs_t2[] = {
	"ALPHA:alpha/,shared/", "ALPHA DRIVERS:alpha/", "BETA:beta/,shared/", "BETA DRIVERS:beta/",
	"GAMMA:gamma/,beta/", "GAMMA DRIVERS:gamma/", "DELTA:delta/,common/", "DELTA DRIVERS:delta/",
	"EPSILON:eps/,common/", "EPSILON DRIVERS:eps/", "PI:pi/,px/", "PI DRIVERS:pi/", "QU:qu/,qx/",
	"QU DRIVERS:qu/", "XI:xi/,px/,qx/", NULL
};

/* The MAINTAINERS text of secs (one F: line per prefix; line numbers as
 * the sections come). */
static char *maint_text(const char *const *secs)
{
	mev_buf b = MEV_BUF_INIT;
	for (size_t i = 0; secs[i]; i++) {
		char pats[256], *save = NULL;
		mev__buf_printf(&b, "%.*s\nM:\tSomeone <s@example.org>\n", (int)strcspn(secs[i], ":"), secs[i]);
		snprintf(pats, sizeof pats, "%s", strchr(secs[i], ':') + 1);
		for (char *q = strtok_r(pats, ",", &save); q; q = strtok_r(NULL, ",", &save))
			mev__buf_printf(&b, "F:\t%s\n", q);
		mev__buf_puts(&b, "\n");
	}
	return mev__buf_detach(&b);
}

static const mev_event *find_event(const mev_event_list *ev, const char *from, mev_event_kind k,
				   const char *to_cluster)
{
	for (size_t i = 0; i < ev->n; i++)
		if (strcmp(ev->v[i].from_release, from) == 0 && ev->v[i].kind == k &&
		    strcmp(ev->v[i].to_cluster, to_cluster) == 0)
			return &ev->v[i];
	return NULL;
}

/* The pattern item of e's cause, or NULL. */
static const mev_cause_item *pattern_item(const mev_event *e)
{
	for (size_t i = 0; e->cause_detail && i < e->cause_detail->n; i++)
		if (e->cause_detail->v[i].kind == MEV_CAUSE_PATTERN_ADDED)
			return &e->cause_detail->v[i];
	return NULL;
}

static void check_split(const mev_event_list *ev, const char *from, int patterns)
{
	const mev_event *e = find_event(ev, from, MEV_EVENT_SPLIT, "ALPHA"), *q;
	const mev_cause_item *it;
	CHECK(e != NULL);
	if (!e)
		return;
	CHECK(e->cause_detail != NULL && e->cause_detail->patterns == patterns);
	if (!patterns) {
		CHECK(strstr(e->cause, "MAINTAINERS patterns are not stored") != NULL);
		return;
	}
	CHECK_STR(e->cause_kind, "maintainers+code");
	CHECK(strstr(e->cause, "MAINTAINERS: F: beta/ (MAINTAINERS:22) added to GAMMA") == e->cause);
	it = pattern_item(e);
	CHECK(it != NULL);
	if (it) {
		CHECK_STR(it->section, "GAMMA");
		CHECK_INT(it->field, 'F');
		CHECK_STR(it->value, "beta/");
		CHECK_STR(it->file, "MAINTAINERS");
		CHECK_INT(it->line, 22);
	}
	q = find_event(ev, from, MEV_EVENT_SPLIT, "XI");
	CHECK(q != NULL && strcmp(q->cause_kind, "none") == 0);
}

static void test_tracker(void)
{
	mev_store *s = open_store("track");
	mev_filemap *f1 = make_fm(secs_t1, files_t), *f2 = make_fm(secs_t2, files_t);
	char *m1 = maint_text(secs_t1), *m2 = maint_text(secs_t2);
	mev_cluster_params cp;
	mev_track_params tp;
	mev_track_result res;
	mev_event_list ev = { 0 };
	mev_cluster_params_init(&cp);
	cp.method = MEV_CLUSTER_WALKTRAP; /* the splits below are walktrap's: a per-release clustering */
	mev_track_params_init(&tp);
	tp.support_runs = 0;
	if (!s)
		goto done;
	put_release(s, "v1", f1, m1);
	put_release(s, "v2", f2, m2);
	put_release(s, "v3", f1, NULL);   /* walked before patterns were kept */
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	CHECK_INT(res.caused, 2);
	/* XI leaves QU in v2 and comes back in v3: without v3's patterns,
	 * its return cannot be told from a change of them */
	CHECK_INT(res.no_change, 2);
	CHECK_INT(mev_track_events(&ev, s, &cp, &tp, NULL, NULL), 0);
	check_split(&ev, "v1", 1);
	/* v2 -> v3: GAMMA gives beta/ back: without v3's patterns, the code says it */
	{
		const mev_event *e = find_event(&ev, "v2", MEV_EVENT_MERGE, "BETA");
		CHECK(e != NULL && strcmp(e->cause_kind, "code") == 0);
		CHECK(e && strstr(e->cause, "MAINTAINERS patterns are not stored for these releases (walk "
					    "--rebuild to get them); code: 1 file moved (3,000 lines: beta/b.c from "
					    "GAMMA to BETA)"));
		CHECK(e && e->cause_detail && !e->cause_detail->patterns && e->cause_detail->code);
		e = find_event(&ev, "v2", MEV_EVENT_MERGE, "QU");
		CHECK(e != NULL && strcmp(e->cause_kind, "unknown") == 0);
	}
	for (size_t i = 0; i < ev.n; i++)
		if (ev.v[i].kind == MEV_EVENT_CONTINUATION)
			CHECK(ev.v[i].cause_kind[0] == '\0' && ev.v[i].cause_detail == NULL);
	mev_event_list_free(&ev);
	/* nothing new: nothing computed */
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	CHECK_INT(res.caused, 0);
	CHECK_INT(res.tracked, 0);
	/* v3 walked again with its patterns: its causes are computed again,
	 * its events (the same) kept */
	put_release(s, "v3", f1, m1);
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	CHECK_INT(res.caused, 1);
	CHECK_INT(res.tracked, 1);
	CHECK_INT(res.no_change, 4);
	CHECK_INT(mev_track_events(&ev, s, &cp, &tp, "v2", NULL), 0);
	{
		const mev_event *e = find_event(&ev, "v2", MEV_EVENT_MERGE, "BETA");
		CHECK(e != NULL && strcmp(e->cause_kind, "maintainers+code") == 0);
		CHECK(e && strstr(e->cause, "MAINTAINERS: F: beta/ (MAINTAINERS:22) removed from GAMMA") == e->cause);
	}
	mev_event_list_free(&ev);
done:
	free(m1);
	free(m2);
	mev_filemap_free(f1);
	mev_filemap_free(f2);
	mev_store_free(s);
}

/* A repeated title passes to another section: v1 has BOARD (b0/), BOARD #2
 * (b1/) and SECURE (s1/, next to BOARD #2); v2 drops the first BOARD and
 * SECURE, whose files BOARD (b1/'s section, first now) takes.  By title,
 * BOARD #2 is another section in v2 and nothing changed near SECURE. */
static void test_repeated_titles(void)
{
	static const char *const files[] = { "b0/a.c=500", "b1/a.c=2000", "b2/a.c=1500", "s1/a.c=70", "x/s.c=10", NULL };
	static const char *const s1[] = { "BOARD:b0/", "BOARD #2:b1/,x/", "SECURE:s1/", "BOARD #3:b2/,x/", NULL };
	static const char *const s2[] = { "BOARD:b1/,s1/,x/", "BOARD #2:b2/,x/", NULL };
	mev_store *s = open_store("repeated");
	mev_filemap *f1 = make_fm(s1, files), *f2 = make_fm(s2, files);
	char *m1 = maint_text(s1), *m2 = maint_text(s2);
	mev_cluster_params cp;
	mev_track_params tp;
	mev_track_result res;
	mev_event_list ev = { 0 };
	mev_cluster_params_init(&cp);
	mev_track_params_init(&tp);
	tp.support_runs = 0;
	if (!s)
		goto done;
	put_release(s, "v1", f1, m1);
	put_release(s, "v2", f2, m2);
	CHECK_INT(mev_track_store(&res, s, &cp, &tp, NULL), 0);
	CHECK_INT(mev_track_events(&ev, s, &cp, &tp, NULL, NULL), 0);
	{
		const mev_event *e = NULL;
		for (size_t i = 0; i < ev.n && !e; i++)
			if (strcmp(ev.v[i].from_cluster, "SECURE") == 0)
				e = &ev.v[i];
		CHECK(e != NULL);
		CHECK(e && strcmp(e->cause_kind, "none") != 0);
		CHECK(e && strstr(e->cause, "s1/a.c") != NULL);
		CHECK(e && strstr(e->cause, "BOARD #2 (MAINTAINERS") == NULL);
	}
	CHECK_INT(res.no_change, 0);
	mev_event_list_free(&ev);
done:
	free(m1);
	free(m2);
	mev_filemap_free(f1);
	mev_filemap_free(f2);
	mev_store_free(s);
}

int main(void)
{
	dir = test_tmpdir("cause");
	RUN(test_patterns);
	RUN(test_record);
	RUN(test_tracker);
	RUN(test_repeated_titles);
	if (getenv("MEV_TEST_KEEP")) {
		fprintf(stderr, "kept %s\n", dir);
		return test_summary();
	}
	test_tmpdir_remove(dir);
	return test_summary();
}
