/* Tests of export and report on a small store built through the public API. */
#include "test.h"
#include "export/export_internal.h"
#include "maintevo/error.h"
#include "maintevo/export.h"
#include "maintevo/release.h"
#include "maintevo/report.h"
#include "maintevo/store.h"
#include "store_internal.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

static const char *dir;

/* Titles that need quoting in CSV, escaping in JSON, HTML and Markdown. */
static const char *const titles[] = {
	"A, \"QUOTED\" <b>&amp;</b>",
	"PLAIN",
	"THE REST",
	"TWO\nLINES",
};

/* Release r: section 1 exists from the start, section 0 grows. */
static mev_filemap *make_release(int r)
{
	mev_filemap *fm = NULL;
	uint32_t ids01[2] = { 0, 1 }, id1 = 1, rest = 2, s01, s1, sr;
	mev_filemap_new(&fm);
	for (size_t i = 0; i < sizeof titles / sizeof *titles; i++) {
		mev_section_info si = { titles[i], i == 1 ? "Orphan" : "Maintained", i == 1 ? 0 : 1,
					0, 0, 0, 1, i == 2, 0, NULL };
		mev_filemap_add_section(fm, &si);
	}
	mev_filemap_intern_set(&s01, fm, ids01, 2);
	mev_filemap_intern_set(&s1, fm, &id1, 1);
	mev_filemap_intern_set(&sr, fm, &rest, 1);
	mev_filemap_add_row(fm, "a/x.c", 5, MEV_KIND_FILE, 10 + (uint64_t)r, 100, s01);
	mev_filemap_add_row(fm, "b/y,z.c", 7, MEV_KIND_FILE, 3, 30, s1);
	mev_filemap_add_row(fm, "c/rest.txt", 10, MEV_KIND_FILE, 7, 70, sr);
	return fm;
}

/* Write table/graph/report to a memory buffer; returns it (malloc'ed). */
static char *run_table(mev_store *s, mev_export_table_id t, const mev_export_options *o, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*rc = mev_export_table(f, s, t, o);
	fclose(f);
	return buf;
}

static char *run_report(mev_store *s, const mev_report_options *o, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	*rc = mev_report_write(f, s, o);
	fclose(f);
	return buf;
}

static void test_names(void)
{
	const mev_column *c;
	CHECK_INT(mev_export_table_parse("sections"), MEV_EXPORT_SECTIONS);
	CHECK_INT(mev_export_table_parse("section-changes"), MEV_EXPORT_SECTION_CHANGES);
	CHECK_INT(mev_export_table_parse("graph"), -1);
	CHECK_INT(mev_report_format_parse("markdown"), MEV_REPORT_MD);
	c = mev_export_columns(MEV_EXPORT_EDGES);
	CHECK_STR(c[0].name, "release");
	CHECK_STR(mev_table_type_name(c[0].type), "string");
	CHECK_STR(c[5].name, "files");
	CHECK_STR(mev_table_type_name(c[5].type), "integer");
	CHECK_STR(c[7].name, "to_display_name");
	CHECK(c[8].name == NULL);
	CHECK(mev_export_columns(MEV_EXPORT_TABLE_COUNT) == NULL);
	/* every table has columns, each with a known type */
	for (int t = 0; t < MEV_EXPORT_TABLE_COUNT; t++) {
		size_t i = 0;
		for (c = mev_export_columns((mev_export_table_id)t); c[i].name; i++)
			CHECK(mev_table_type_name(c[i].type)[0] != '\0');
		CHECK(i >= 6);
		CHECK(mev_export_table_name((mev_export_table_id)t)[0] != '\0');
	}
}

static void test_tables(void)
{
	mev_store *s = NULL;
	mev_filemap *fm[2];
	mev_graph *g[2];
	mev_graph_options go = { 1 };
	mev_export_options o = { 0 };
	mev_section_census c;
	char *out;
	int rc;

	CHECK_INT(mev_store_open(&s, dir, MEV_STORE_WRITE | MEV_STORE_CREATE), 0);
	for (int r = 0; r < 2; r++) {
		mev_release_input in = { 0 };
		fm[r] = make_release(r);
		mev_graph_build(&g[r], fm[r], &go);
		in.tag = r ? "v1.1" : "v1.0";
		in.time = 86400 * (r + 1);
		CHECK_INT(mev__store_begin(s), 0);
		CHECK_INT(mev_release_put(s, &in, fm[r], g[r], r ? fm[0] : NULL, r ? "v1.0" : NULL), 0);
		CHECK_INT(mev__store_commit(s), 0);
	}

	CHECK_INT(mev_export_census(&c, s, "v1.1"), 0);
	CHECK_INT(c.sections, 3);
	CHECK_INT(c.no_maintainer, 1);
	CHECK_INT(c.orphan, 1);

	/* sections: titles by bytewise order, THE REST left out, cluster columns empty */
	o.release = "v1.1";
	out = run_table(s, MEV_EXPORT_SECTIONS, &o, &rc);
	CHECK_INT(rc, 0);
	CHECK_STR(out,
		  "release,section,status,maintainers,reviewers,lists,trees,patterns,files,lines,bytes,"
		  "cluster,representative,lineage,lineage_name,display_name,title_kind,representative_display_name\n"
		  "v1.1,\"A, \"\"QUOTED\"\" <b>&amp;</b>\",Maintained,1,0,0,0,1,1,11,100,,,,,"
		  "\"A, \"\"QUOTED\"\" <b>&amp;</b>\",name,\n"
		  "v1.1,PLAIN,Orphan,0,0,0,0,1,2,14,130,,,,,PLAIN,name,\n"
		  "v1.1,\"TWO\nLINES\",Maintained,1,0,0,0,1,0,0,0,,,,,\"TWO\nLINES\",name,\n");
	free(out);

	/* edges in JSON Lines: one object per line, nulls for nothing */
	o.format = MEV_TABLE_JSONL;
	out = run_table(s, MEV_EXPORT_EDGES, &o, &rc);
	CHECK_INT(rc, 0);
	CHECK_STR(out, "{\"release\": \"v1.1\", \"from\": \"A, \\\"QUOTED\\\" <b>&amp;</b>\", "
		       "\"to\": \"PLAIN\", \"lines\": 11, \"bytes\": 100, \"files\": 1, "
		       "\"from_display_name\": \"A, \\\"QUOTED\\\" <b>&amp;</b>\", "
		       "\"to_display_name\": \"PLAIN\"}\n");
	free(out);

	/* files of one path over all releases, as one JSON array */
	o.format = MEV_TABLE_JSON;
	o.release = NULL;
	o.path = "a/x.c";
	out = run_table(s, MEV_EXPORT_FILES, &o, &rc);
	CHECK_INT(rc, 0);
	CHECK(out && out[0] == '[' && strstr(out, "\"lines\": 10,") && strstr(out, "\"lines\": 11,"));
	CHECK(out && strstr(out, "\"section\": \"PLAIN\", \"cluster\": null"));
	free(out);

	/* a file no section covers has one row with an empty section */
	o.format = MEV_TABLE_CSV;
	o.path = "c/rest.txt";
	out = run_table(s, MEV_EXPORT_FILES, &o, &rc);
	CHECK_INT(rc, 0);
	CHECK(out && strstr(out, "\nv1.0,c/rest.txt,file,7,70,,,,,,,\n"));
	free(out);

	/* errors: no --release nor --path for files, an unknown release, not clustered */
	o.path = NULL;
	out = run_table(s, MEV_EXPORT_FILES, &o, &rc);
	CHECK_ERR(rc, MEV_EINVAL, "the files table needs --release TAG or --path PATH");
	free(out);
	o.release = "v9";
	out = run_table(s, MEV_EXPORT_SECTIONS, &o, &rc);
	CHECK_ERR(rc, MEV_ENOTFOUND, "release 'v9' is not in store");
	CHECK(strstr(mev_error_hint_text(), "maintevo releases") != NULL);
	free(out);
	o.release = NULL;
	out = run_table(s, MEV_EXPORT_CLUSTERS, &o, &rc);
	CHECK_ERR(rc, MEV_ENOTFOUND, "the store is not clustered with temporal:res=1:seed=1:tol=0.97:top=1");
	CHECK(out && out[0] == '\0'); /* nothing written before the error */
	free(out);

	/* --from and --to: events and section changes only, stored releases only */
	o.from = "v1.0";
	out = run_table(s, MEV_EXPORT_SECTIONS, &o, &rc);
	CHECK_ERR(rc, MEV_EINVAL, "--from and --to go with the events, flows, section_changes and workload tables");
	free(out);
	o.from = "v0.9";
	out = run_table(s, MEV_EXPORT_SECTION_CHANGES, &o, &rc);
	CHECK_ERR(rc, MEV_ENOTFOUND, "release 'v0.9' is not in store");
	CHECK(out && out[0] == '\0');
	free(out);
	o.from = NULL;
	o.to = "v2";
	out = run_table(s, MEV_EXPORT_EVENTS, &o, &rc);
	CHECK_ERR(rc, MEV_ENOTFOUND, "release 'v2' is not in store");
	free(out);
	o.to = NULL;

	/* the same bytes twice */
	{
		char *a = run_table(s, MEV_EXPORT_RELEASES, &o, &rc), *b = run_table(s, MEV_EXPORT_RELEASES, &o, &rc);
		CHECK(a && b && strcmp(a, b) == 0);
		CHECK(a && strstr(a, "\nv1.0,1,0000000000000000000000000000000000000000,1970-01-02T00:00:00Z,3,20,"));
		free(a);
		free(b);
	}
	mev_store_free(s);
	for (int r = 0; r < 2; r++) {
		mev_graph_free(g[r]);
		mev_filemap_free(fm[r]);
	}
}

static void test_graph(void)
{
	mev_store *s = NULL;
	mev_export_graph_options go = { MEV_GRAPH_DOT, "v1.0", NULL, 0, 0, 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	CHECK_INT(mev_store_open(&s, dir, MEV_STORE_READ), 0);
	f = open_memstream(&buf, &len);
	CHECK_INT(mev_export_graph(f, s, &go), 0);
	fclose(f);
	/* '&' as "&amp;": Graphviz shows "&amp;" as "&amp;", not "&" */
	CHECK(buf && strstr(buf, "label=\"A, \\\"QUOTED\\\" <b>&amp;amp;</b>\""));
	CHECK(buf && strstr(buf, "label=\"TWO\\nLINES\""));
	CHECK(buf && strstr(buf, "n0 -- n1 [lines=10,"));
	free(buf);
	buf = NULL;
	go.meta = 1;
	f = open_memstream(&buf, &len);
	CHECK_ERR(mev_export_graph(f, s, &go), MEV_ENOTFOUND, "release 'v1.0' is not clustered with");
	fclose(f);
	free(buf);
	mev_store_free(s);
}

static void test_report(void)
{
	mev_store *s = NULL;
	mev_report_options ro = { 0 };
	const char *want_title = "# t\\<e\\>st: v1.0 \xe2\x86\x92 v1.1\n";
	char *out;
	int rc;
	CHECK_INT(mev_store_open(&s, dir, MEV_STORE_READ), 0);
	ro.title = "t<e>st";
	out = run_report(s, &ro, &rc);
	CHECK_INT(rc, 0);
	CHECK(out && strncmp(out, want_title, strlen(want_title)) == 0);
	CHECK(out && strstr(out, "| A, \"QUOTED\" \\<b\\>\\&amp;\\</b\\> | 10 | 11 | +1 (+10.0%) |"));
	CHECK(out && strstr(out, "| Orphaned sections (S: Orphan) | 1 | 1 | 0 |"));
	free(out);
	ro.format = MEV_REPORT_HTML;
	out = run_report(s, &ro, &rc);
	CHECK_INT(rc, 0);
	CHECK(out && strstr(out, "<title>t&lt;e&gt;st: v1.0"));
	CHECK(out && strstr(out, "A, &quot;QUOTED&quot; &lt;b&gt;&amp;amp;&lt;/b&gt;"));
	CHECK(out && !strstr(out, "<b>"));
	CHECK(out && strstr(out, "@media print"));
	free(out);
	ro.from = "v1.1";
	ro.to = "v1.0";
	out = run_report(s, &ro, &rc);
	CHECK_ERR(rc, MEV_EINVAL, "--from 'v1.1' comes after --to 'v1.0': the range is reversed");
	free(out);
	ro.from = "v0";
	out = run_report(s, &ro, &rc);
	CHECK_ERR(rc, MEV_ENOTFOUND, "release 'v0' is not in store");
	free(out);
	mev_store_free(s);
}

/* The first column of the first row of `sql` as text ("NULL" for null, "" for no row). */
static char *sql_value(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;
	char *v = NULL;
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "sql: %s: %s\n", sql, sqlite3_errmsg(db));
		return strdup("ERROR");
	}
	if (sqlite3_step(st) == SQLITE_ROW)
		v = strdup(sqlite3_column_type(st, 0) == SQLITE_NULL ? "NULL"
			   : (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v ? v : strdup("");
}

#define CHECK_SQL(db, sql, want) do { char *v_ = sql_value(db, sql); CHECK_STR(v_, want); \
	free(v_); } while (0)

/* export all: every table in one database, typed, keyed, indexed, with views. */
static void test_sqlite(void)
{
	mev_store *s = NULL;
	mev_export_options o = { 0 };
	mev_export_sqlite_result res;
	sqlite3 *db = NULL;
	char path[512];
	snprintf(path, sizeof path, "%s/all.db", dir);
	CHECK_INT(mev_store_open(&s, dir, MEV_STORE_READ), 0);
	CHECK_INT(mev_export_sqlite(&res, path, s, &o), 0);
	CHECK_INT(res.tables, MEV_EXPORT_TABLE_COUNT);
	CHECK_INT(res.rows[MEV_EXPORT_RELEASES], 2);
	CHECK_INT(res.rows[MEV_EXPORT_SECTIONS], 6);   /* 3 a release, THE REST left out */
	CHECK_INT(res.rows[MEV_EXPORT_FILES], 8);      /* every release: a/x.c twice */
	CHECK_INT(res.rows[MEV_EXPORT_CLUSTERS], 0);   /* not clustered */
	CHECK_INT(res.clustered, 0);
	CHECK_INT(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	CHECK_SQL(db, "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_schema "
		  "WHERE type = 'table' ORDER BY name)",
		  "candidates clusters commits edges events export_info files flow flows health lineages listed listed_sections people releases section_changes sections workload");
	CHECK_SQL(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'view'", "5");
	/* typed columns: the values keep the column's type, dates are ISO 8601 */
	CHECK_SQL(db, "SELECT typeof(lines) || ' ' || typeof(date) || ' ' || date FROM releases "
		  "WHERE release = 'v1.0'", "integer text 1970-01-02T00:00:00Z");
	CHECK_SQL(db, "SELECT type FROM pragma_table_info('events') WHERE name = 'similarity'", "REAL");
	CHECK_SQL(db, "SELECT section FROM sections WHERE release = 'v1.1' AND lines = 11",
		  "A, \"QUOTED\" <b>&amp;</b>");
	CHECK_SQL(db, "SELECT typeof(cluster) FROM sections LIMIT 1", "null");
	CHECK_SQL(db, "SELECT section FROM sections WHERE section GLOB 'TWO*'", "TWO\nLINES");
	/* keys and indexes */
	CHECK_SQL(db, "SELECT group_concat(name) FROM pragma_table_info('sections') WHERE pk > 0",
		  "release,section");
	CHECK_SQL(db, "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name IN "
		  "('files_path', 'files_section', 'files_lineage', 'files_release', "
		  "'sections_section', 'events_to_release', 'clusters_lineage')", "7");
	/* the views: THE REST is left out, so c/rest.txt is code no section covers */
	CHECK_SQL(db, "SELECT group_concat(path) FROM uncovered_files WHERE release = 'v1.1'",
		  "c/rest.txt");
	CHECK_SQL(db, "SELECT directory || ' ' || files || ' ' || lines FROM uncovered_by_directory "
		  "WHERE release = 'v1.0'", "c/ 1 7");
	CHECK_SQL(db, "SELECT count(*) FROM file_subsystems WHERE path = 'a/x.c'", "4");
	CHECK_SQL(db, "SELECT value FROM export_info WHERE key = 'clustered'", "0");
	CHECK_SQL(db, "PRAGMA user_version", "1");
	sqlite3_close(db);

	/* one release; errors */
	snprintf(path, sizeof path, "%s/one.db", dir);
	o.release = "v1.0";
	CHECK_INT(mev_export_sqlite(&res, path, s, &o), 0);
	CHECK_INT(res.rows[MEV_EXPORT_FILES], 4);
	CHECK_INT(res.rows[MEV_EXPORT_RELEASES], 1);
	o.release = "v9";
	CHECK_ERR(mev_export_sqlite(&res, path, s, &o), MEV_ENOTFOUND, "release 'v9' is not in store");
	o.release = NULL;
	o.path = "a/x.c";
	CHECK_ERR(mev_export_sqlite(&res, path, s, &o), MEV_EINVAL, "--path goes with the files table");
	o.path = NULL;
	snprintf(path, sizeof path, "%s/no/such/dir/x.db", dir);
	CHECK_ERR(mev_export_sqlite(&res, path, s, &o), MEV_EIO, "cannot write SQLite database");
	/* written to a temporary file: messages name the file it becomes */
	o.name = "maintevo.db";
	CHECK_ERR(mev_export_sqlite(&res, path, s, &o), MEV_EIO,
		  "cannot write SQLite database 'maintevo.db': opening it");
	mev_store_free(s);
}

/* The bus factor: the fewest committers with more than half of the commits. */
static void test_bus_factor(void)
{
	uint64_t none[1] = { 0 }, one[] = { 7 }, tie[] = { 5, 5 }, three[] = { 3, 4, 3 };
	uint64_t many[] = { 1, 1, 1, 1, 1 }, top[] = { 1, 6, 2, 2 }, half[] = { 2, 1, 1 };
	CHECK_INT(mev__export_bus_factor(none, 0), 0);   /* no commits: none (written empty) */
	CHECK_INT(mev__export_bus_factor(none, 1), 0);
	CHECK_INT(mev__export_bus_factor(one, 1), 1);    /* one committer */
	CHECK_INT(mev__export_bus_factor(tie, 2), 2);    /* exactly half is not more than half */
	CHECK_INT(mev__export_bus_factor(three, 3), 2);  /* 4 + 3 > 10 / 2, in any order */
	CHECK_INT(mev__export_bus_factor(many, 5), 3);   /* a tie of five: 3 of 5 */
	CHECK_INT(mev__export_bus_factor(top, 4), 1);    /* 6 of 11 */
	CHECK_INT(mev__export_bus_factor(half, 3), 2);   /* 2 of 4 is half: one more */
}

/* CHAOSS's Contributor Absence and Elephant Factors: the fewest with at
 * least half of the commits (the bus factor: more than half). */
static void test_absence_factor(void)
{
	/* CHAOSS's worked examples: eight contributors, 1000 + 433 + 343 = 1776
	 * of 2475 commits is past half, 1000 + 433 = 1433 too: 2 */
	uint64_t chaoss[] = { 1000, 202, 90, 33, 332, 343, 42, 433 };
	/* eight organisations at 12.5% each: 4; one at 50%: 1 */
	uint64_t eighths[] = { 1, 1, 1, 1, 1, 1, 1, 1 }, half[] = { 4, 1, 1, 1, 1 };
	uint64_t none[1] = { 0 }, tie[] = { 5, 5 };
	CHECK_INT(mev__export_absence_factor(chaoss, 8), 2);
	CHECK_INT(mev__export_absence_factor(eighths, 8), 4);
	CHECK_INT(mev__export_absence_factor(half, 5), 1);
	CHECK_INT(mev__export_absence_factor(none, 0), 0);
	CHECK_INT(mev__export_absence_factor(none, 1), 0);
	CHECK_INT(mev__export_absence_factor(tie, 2), 1);  /* exactly half is enough */
	/* where the two differ: the bus factor wants more than half */
	uint64_t eighths2[] = { 1, 1, 1, 1, 1, 1, 1, 1 }, half2[] = { 4, 1, 1, 1, 1 }, tie2[] = { 5, 5 };
	CHECK_INT(mev__export_bus_factor(eighths2, 8), 5);
	CHECK_INT(mev__export_bus_factor(half2, 5), 2);
	CHECK_INT(mev__export_bus_factor(tie2, 2), 2);
}

/* --orgs: gitdm's email-map lines, their date ranges, the domain's parents. */
static void test_orgs(void)
{
	char path[4096];
	FILE *f;
	mev_export_orgs *o = NULL;
	int64_t y2019 = 1546300800, y2021 = 1609459200; /* 2019-01-01, 2021-01-01 */
	snprintf(path, sizeof path, "%s/orgs", dir);
	CHECK((f = fopen(path, "w")) != NULL);
	fputs("# gitdm's email-map\n"
	      "\n"
	      "ann@mail.org   Acme Corp   # a comment\n"
	      "Bob@Mail.org\tFirst Ltd < 2020-01-01\n"
	      "bob@mail.org\tSecond Ltd\n"
	      "acme.com       Acme Corp\n"
	      "eu.acme.com    Acme Europe\r\n", f);
	fclose(f);
	CHECK_INT(mev_export_orgs_read(&o, path), 0);
	CHECK_STR(mev__export_org(o, "ann@mail.org", y2019), "Acme Corp");
	CHECK_STR(mev__export_org(o, "bob@mail.org", y2019), "First Ltd");   /* before its end */
	CHECK_STR(mev__export_org(o, "bob@mail.org", y2021), "Second Ltd");  /* after it */
	CHECK_STR(mev__export_org(o, "cy@dev.acme.com", y2019), "Acme Corp"); /* a parent domain */
	CHECK_STR(mev__export_org(o, "di@x.eu.acme.com", y2019), "Acme Europe"); /* the nearest */
	CHECK_STR(mev__export_org(o, "ed@mail.org", y2019), "mail.org");     /* not mapped: the domain */
	CHECK_STR(mev__export_org(NULL, "ed@Sub.mail.org", y2019), "Sub.mail.org");
	CHECK_STR(mev__export_org(o, "Nobody", y2019), "Nobody");           /* no address */
	mev_export_orgs_free(o);

	CHECK((f = fopen(path, "w")) != NULL);
	fputs("ann@mail.org Acme\nbob@mail.org First < 2020-13-01\n", f);
	fclose(f);
	CHECK_ERR(mev_export_orgs_read(&o, path), MEV_EINVAL, ":2: the date after '<' is not a day");
	CHECK(o == NULL);
	CHECK((f = fopen(path, "w")) != NULL);
	fputs("# only a key\nann@mail.org\n", f);
	fclose(f);
	CHECK_ERR(mev_export_orgs_read(&o, path), MEV_EINVAL, ":2: an address or domain without");
	snprintf(path, sizeof path, "%s/no-such-orgs", dir);
	CHECK_ERR(mev_export_orgs_read(&o, path), MEV_ENOTFOUND, "cannot read the --orgs file");
}

int main(void)
{
	dir = test_tmpdir("export");
	RUN(test_names);
	RUN(test_tables);
	RUN(test_graph);
	RUN(test_report);
	RUN(test_sqlite);
	RUN(test_bus_factor);
	RUN(test_absence_factor);
	RUN(test_orgs);
	test_tmpdir_remove(dir);
	return test_summary();
}
