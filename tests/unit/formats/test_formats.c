/* Tests of the formats module: the table writer (CSV, JSON, JSON Lines), the quoting it shares, and the graph writer. */
#include "test.h"
#include "maintevo/error.h"
#include "maintevo/graphdoc.h"
#include "maintevo/table.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

/* The names of the formats and types. */
static void test_names(void)
{
	CHECK_INT(mev_table_format_parse("csv"), MEV_TABLE_CSV);
	CHECK_INT(mev_table_format_parse("jsonl"), MEV_TABLE_JSONL);
	CHECK_INT(mev_table_format_parse("xml"), -1);
	CHECK_STR(mev_table_type_name(MEV_COLUMN_DATE), "date");
	CHECK_INT(mev_graph_format_parse("csv"), MEV_GRAPH_CSV);
	CHECK_INT(mev_graph_format_parse("graphml"), MEV_GRAPH_GRAPHML);
	CHECK_INT(mev_graph_format_parse("json"), MEV_GRAPH_JSON);
	CHECK_INT(mev_graph_format_parse("dot"), MEV_GRAPH_DOT);
	CHECK_INT(mev_graph_format_parse("gml"), -1);
	CHECK_INT(mev_graph_format_parse("DOT"), -1);
}

/* --- tables ---------------------------------------------------------------------- */

/* A table written to memory: the given rows through `fill`. */
static char *write_table(mev_table_format fmt, const mev_column *cols,
			 void (*fill)(mev_table *t), int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	mev_table *t = NULL;
	*rc = mev_table_new(&t, f, fmt, cols);
	if (!*rc) {
		fill(t);
		*rc = mev_table_finish(t);
	}
	mev_table_free(t);
	fclose(f);
	return buf;
}

static const mev_column demo_cols[] = {
	{ "name", MEV_COLUMN_STRING }, { "n", MEV_COLUMN_INTEGER }, { "x", MEV_COLUMN_NUMBER },
	{ "when", MEV_COLUMN_DATE }, { NULL, MEV_COLUMN_STRING }
};

static void fill_demo(mev_table *t)
{
	mev_table_str(t, "a, \"b\"");
	mev_table_uint(t, 42);
	mev_table_num(t, 1.0 / 3);
	mev_table_date(t, 86400);
	mev_table_end_row(t);
	mev_table_str_or_null(t, "");
	mev_table_int_or_null(t, -1);
	mev_table_num(t, NAN);
	mev_table_null(t);
	mev_table_end_row(t);
	mev_table_strn(t, "caf\xe9", 4); /* ISO-8859-1: read as such, written as UTF-8 */
	mev_table_int_or_null(t, 7);
	mev_table_num(t, 1e-7);
	mev_table_date(t, 0);
	mev_table_end_row(t);
}

static void fill_nothing(mev_table *t) { (void)t; }

static void fill_wrong_type(mev_table *t)
{
	mev_table_str(t, "x");
	mev_table_str(t, "not a number");
	mev_table_num(t, 1);
	mev_table_null(t);
	mev_table_end_row(t);
}

static void fill_short_row(mev_table *t)
{
	mev_table_str(t, "x");
	mev_table_end_row(t);
}

/* The one table writer: CSV quoting, JSON keys and nulls, number formats. */
static void test_table_writer(void)
{
	char *out;
	int rc;
	out = write_table(MEV_TABLE_CSV, demo_cols, fill_demo, &rc);
	CHECK_INT(rc, 0);
	CHECK_STR(out, "name,n,x,when\n"
		       "\"a, \"\"b\"\"\",42,0.333333,1970-01-02T00:00:00Z\n"
		       ",,,\n"
		       "caf\xc3\xa9,7,1e-07,1970-01-01T00:00:00Z\n");
	free(out);
	out = write_table(MEV_TABLE_JSON, demo_cols, fill_demo, &rc);
	CHECK_INT(rc, 0);
	CHECK_STR(out, "[\n{\"name\": \"a, \\\"b\\\"\", \"n\": 42, \"x\": 0.333333, "
		       "\"when\": \"1970-01-02T00:00:00Z\"},\n"
		       "{\"name\": null, \"n\": null, \"x\": null, \"when\": null},\n"
		       "{\"name\": \"caf\xc3\xa9\", \"n\": 7, \"x\": 1e-07, "
		       "\"when\": \"1970-01-01T00:00:00Z\"}\n]\n");
	free(out);
	out = write_table(MEV_TABLE_JSONL, demo_cols, fill_demo, &rc);
	CHECK_INT(rc, 0);
	CHECK_STR(out, "{\"name\": \"a, \\\"b\\\"\", \"n\": 42, \"x\": 0.333333, "
		       "\"when\": \"1970-01-02T00:00:00Z\"}\n"
		       "{\"name\": null, \"n\": null, \"x\": null, \"when\": null}\n"
		       "{\"name\": \"caf\xc3\xa9\", \"n\": 7, \"x\": 1e-07, "
		       "\"when\": \"1970-01-01T00:00:00Z\"}\n");
	free(out);
	/* no rows: a header, an empty array, nothing */
	out = write_table(MEV_TABLE_CSV, demo_cols, fill_nothing, &rc);
	CHECK_STR(out, "name,n,x,when\n");
	free(out);
	out = write_table(MEV_TABLE_JSON, demo_cols, fill_nothing, &rc);
	CHECK_STR(out, "[]\n");
	free(out);
	out = write_table(MEV_TABLE_JSONL, demo_cols, fill_nothing, &rc);
	CHECK_STR(out, "");
	free(out);
	/* a row that does not fit its columns is a bug the writer reports */
	free(write_table(MEV_TABLE_CSV, demo_cols, fill_wrong_type, &rc));
	CHECK_ERR(rc, MEV_EINVAL, "column 'n' of the table is integer, not string");
	free(write_table(MEV_TABLE_JSON, demo_cols, fill_short_row, &rc));
	CHECK_ERR(rc, MEV_EINVAL, "row 1 of the table does not have its 4 columns");
}

/* A sink that writes what it gets as text: "s:..,i:..,n:..,d:..,-" per row. */
typedef struct {
	char out[512];
	int rows, fail_at;
} text_sink;

static void ts_put(void *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ts_put(void *ctx, const char *fmt, ...)
{
	text_sink *t = ctx;
	size_t n = strlen(t->out);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->out + n, sizeof t->out - n, fmt, ap);
	va_end(ap);
}
static void ts_null(void *ctx, size_t col) { ts_put(ctx, "%zu-,", col); }
static void ts_text(void *ctx, size_t col, const char *s, size_t len) { ts_put(ctx, "%zus:%.*s,", col, (int)len, s); }
static void ts_int(void *ctx, size_t col, int64_t v) { ts_put(ctx, "%zui:%lld,", col, (long long)v); }
static void ts_num(void *ctx, size_t col, double v) { ts_put(ctx, "%zun:%g,", col, v); }
static void ts_date(void *ctx, size_t col, int64_t v) { ts_put(ctx, "%zud:%lld,", col, (long long)v); }
static int ts_end(void *ctx)
{
	text_sink *t = ctx;
	if (++t->rows == t->fail_at)
		return mev_error_set(MEV_EIO, "sink full");
	ts_put(ctx, "|");
	return 0;
}

/* A table whose values go to a sink: typed values, UTF-8 text, nulls, and
 * the sink's first error stopping it. */
static void test_table_sink(void)
{
	text_sink ts = { "", 0, 0 };
	mev_table_sink sink = { ts_null, ts_text, ts_int, ts_num, ts_date, ts_end, &ts };
	mev_table *t = NULL;
	CHECK_INT(mev_table_new_sink(&t, &sink, demo_cols), 0);
	fill_demo(t);
	CHECK_INT(mev_table_finish(t), 0);
	mev_table_free(t);
	CHECK_STR(ts.out, "0s:a, \"b\",1i:42,2n:0.333333,3d:86400,|0-,1-,2-,3-,|"
			  "0s:caf\xc3\xa9,1i:7,2n:1e-07,3d:0,|");
	ts.out[0] = 0;
	ts.rows = 0;
	ts.fail_at = 2;
	CHECK_INT(mev_table_new_sink(&t, &sink, demo_cols), 0);
	fill_demo(t);
	CHECK_ERR(mev_table_finish(t), MEV_EIO, "sink full");
	mev_table_free(t);
	CHECK_INT(ts.rows, 2); /* the third row was not handed on */
	CHECK_INT(mev_table_new_sink(&t, &sink, demo_cols), 0);
	fill_short_row(t);
	CHECK_ERR(mev_table_finish(t), MEV_EINVAL, "does not have its 4 columns");
	mev_table_free(t);
	CHECK_INT(ts.rows, 2); /* nor a row that does not fit */
}

/* --- quoting ---------------------------------------------------------------------- */

static const mev_column one_col[] = { { "s", MEV_COLUMN_STRING }, { NULL, MEV_COLUMN_STRING } };
static const char *const *hostile_rows;

static void fill_hostile(mev_table *t)
{
	for (const char *const *s = hostile_rows; *s; s++) {
		mev_table_str(t, *s);
		mev_table_end_row(t);
	}
}

/* The rows (NULL-terminated) as a one-column table; CSV with excel-safe
 * and control escapes as asked. */
static char *write_rows(mev_table_format fmt, const char *const *rows, int excel, int controls)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	mev_table *t = NULL;
	hostile_rows = rows;
	CHECK_INT(mev_table_new(&t, f, fmt, one_col), 0);
	mev_table_excel_safe(t, excel);
	mev_table_escape_controls(t, controls);
	fill_hostile(t);
	CHECK_INT(mev_table_finish(t), 0);
	mev_table_free(t);
	fclose(f);
	return buf;
}

/* CSV: quoted for ',', '"', CR and LF only; the excel-safe "'" inside the
 * quotes; control characters kept in files, escaped when asked. */
static void test_csv_quoting(void)
{
	static const char *const rows[] = { "plain", "a,b", "say \"hi\"", "cr\rlf\n", "=SUM(A1)",
					    "=a,b", "-1", "x=y", "\tlead", "esc\x1b[0m\xc2\x9b",
					    "caf\xe9", NULL };
	char *out = write_rows(MEV_TABLE_CSV, rows, 0, 0);
	CHECK_STR(out, "s\nplain\n\"a,b\"\n\"say \"\"hi\"\"\"\n\"cr\rlf\n\"\n=SUM(A1)\n\"=a,b\"\n-1\n"
		       "x=y\n\tlead\nesc\x1b[0m\xc2\x9b\ncaf\xc3\xa9\n");
	free(out);
	out = write_rows(MEV_TABLE_CSV, rows, 1, 1);
	CHECK_STR(out, "s\nplain\n\"a,b\"\n\"say \"\"hi\"\"\"\n\"cr\\x0dlf\n\"\n'=SUM(A1)\n\"'=a,b\"\n'-1\n"
		       "x=y\n'\tlead\nesc\\x1b[0m\\u009b\ncaf\xc3\xa9\n");
	free(out);
}

/* JSON and JSON Lines: quotes and backslashes escaped, control characters
 * as \u00XX (\t \r \n short), DEL and UTF-8 kept, other bytes read as
 * ISO-8859-1. */
static void test_json_quoting(void)
{
	static const char *const rows[] = { "q\"b\\s", "\x01\x1f\t\r\n\x7f", "caf\xe9 \xff",
					    "\xe2\x86\x92 <&>", NULL };
	char *out = write_rows(MEV_TABLE_JSON, rows, 0, 0);
	CHECK_STR(out, "[\n{\"s\": \"q\\\"b\\\\s\"},\n"
		       "{\"s\": \"\\u0001\\u001f\\t\\r\\n\x7f\"},\n"
		       "{\"s\": \"caf\xc3\xa9 \xc3\xbf\"},\n"
		       "{\"s\": \"\xe2\x86\x92 <&>\"}\n]\n");
	free(out);
	out = write_rows(MEV_TABLE_JSONL, rows, 0, 0);
	CHECK_STR(out, "{\"s\": \"q\\\"b\\\\s\"}\n"
		       "{\"s\": \"\\u0001\\u001f\\t\\r\\n\x7f\"}\n"
		       "{\"s\": \"caf\xc3\xa9 \xc3\xbf\"}\n"
		       "{\"s\": \"\xe2\x86\x92 <&>\"}\n");
	free(out);
}

/* One quoting function on `s` into a string. */
static char *quoted(void (*q)(FILE *, const char *, size_t), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	q(f, s, strlen(s));
	fclose(f);
	return buf;
}

static void dot_label(FILE *f, const char *s, size_t n) { mev_table_dot_str(f, s, n, 1); }
static void dot_plain(FILE *f, const char *s, size_t n) { mev_table_dot_str(f, s, n, 0); }

/* The quoting outside tables: XML, DOT (labels and the rest), the terminal. */
static void test_quoting(void)
{
	static const char hostile[] = "a\"b'<c>&d\\N\n\x01\xc2\x9b";
	char *out;
	out = quoted(mev_table_json_str, hostile);
	CHECK_STR(out, "\"a\\\"b'<c>&d\\\\N\\n\\u0001\xc2\x9b\"");
	free(out);
	out = quoted(mev_table_xml_str, hostile);
	CHECK_STR(out, "a&quot;b&apos;&lt;c&gt;&amp;d\\N\n\xef\xbf\xbd\xc2\x9b");
	free(out);
	out = quoted(dot_label, hostile);
	CHECK_STR(out, "\"a\\\"b'<c>&amp;d\\\\N\\n\\\\x01\\\\u009b\"");
	free(out);
	out = quoted(dot_plain, hostile);
	CHECK_STR(out, "\"a\\\"b'<c>&d\\\\N\\n\\\\x01\\\\u009b\"");
	free(out);
	out = quoted(mev_table_term_str, hostile);
	CHECK_STR(out, "a\"b'<c>&d\\N\n\\x01\\u009b");
	free(out);
	out = quoted(mev_table_xml_str, "caf\xe9");
	CHECK_STR(out, "caf\xc3\xa9");
	free(out);
	/* JSON for a <script> element: nothing can end it or open a comment */
	out = quoted(mev_table_json_script_str, "</script><!-- & \x7f \xe2\x80\xa8\xe2\x80\xa9 \xe2\x86\x92");
	CHECK_STR(out, "\"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u007f \\u2028\\u2029 \xe2\x86\x92\"");
	free(out);
	out = quoted(mev_table_json_script_str, "<caf\xe9>");   /* not UTF-8: read as ISO-8859-1 */
	CHECK_STR(out, "\"\\u003ccaf\xc3\xa9\\u003e\"");
	free(out);
}

/* --- graphs --------------------------------------------------------------------- */

/* A small graph with hostile names: quotes, <, &, a newline, an escape
 * sequence, ISO-8859-1; missing values; vertex numbers that are not
 * their places; an edge the description leaves out. */
static const mev_gdoc_attr g_vattrs[] = {
	{ "name", MEV_GDOC_STRING }, { "display_name", MEV_GDOC_STRING },
	{ "lines", MEV_GDOC_LONG }, { "maintainers", MEV_GDOC_INT }, { "cluster", MEV_GDOC_LONG }
};
static const mev_gdoc_attr g_eattrs[] = { { "lines", MEV_GDOC_LONG }, { "weight", MEV_GDOC_DOUBLE } };
static const mev_gdoc_attr g_level[] = { { "level", MEV_GDOC_STRING } };
static const char *const g_level_value[] = { "a\"b" };

typedef struct {
	const char *name, *display;
	uint64_t number, lines, maintainers;
	int64_t cluster;
} g_vertex;

static const g_vertex g_v[] = {
	{ "A \"q\" <b> & c", "A & B", 10, 10, 1, 3 },
	{ "two\nlines", "esc\x1b[31m", 20, 0, 0, -1 },
	{ "caf\xe9", NULL, 30, 7, 2, 0 },
};
static const size_t g_e[][3] = { { 0, 1, 5 }, { 1, 2, 0 }, { 2, 0, 7 } }; /* a, b, lines */

static void g_vertex_fn(void *ctx, size_t i, uint64_t *number, mev_gdoc_value *v)
{
	(void)ctx;
	*number = g_v[i].number;
	v[0].str = g_v[i].name;
	v[1].str = g_v[i].display;
	v[2].num = g_v[i].lines;
	v[3].num = g_v[i].maintainers;
	if (g_v[i].cluster >= 0)
		v[4].num = (uint64_t)g_v[i].cluster;
	else
		v[4].missing = 1; /* and the next vertex's comes cleared */
}

static int g_edge_fn(void *ctx, size_t i, size_t *a, size_t *b, mev_gdoc_value *v)
{
	(void)ctx;
	if (i == 1)
		return 1;
	*a = g_e[i][0];
	*b = g_e[i][1];
	v[0].num = v[1].num = g_e[i][2];
	return 0;
}

static char *write_graph(const mev_graphdoc *d, mev_graph_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK_INT(mev_graphdoc_write(f, d, fmt), 0);
	fclose(f);
	return buf;
}

static void test_graph_writers(void)
{
	const mev_graphdoc d = { "g<1>", "rel \"x\"", g_level, g_level_value, 1, g_vattrs, 5, 1,
				 g_eattrs, 2, 3, 3, g_vertex_fn, g_edge_fn, NULL, 0 };
	char *out = write_graph(&d, MEV_GRAPH_GRAPHML);
	CHECK_STR(out,
		  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		  "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"\n"
		  "    xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
		  "    xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
		  "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n"
		  "  <key id=\"v_name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n"
		  "  <key id=\"v_display_name\" for=\"node\" attr.name=\"display_name\" attr.type=\"string\"/>\n"
		  "  <key id=\"v_lines\" for=\"node\" attr.name=\"lines\" attr.type=\"long\"/>\n"
		  "  <key id=\"v_maintainers\" for=\"node\" attr.name=\"maintainers\" attr.type=\"int\"/>\n"
		  "  <key id=\"v_cluster\" for=\"node\" attr.name=\"cluster\" attr.type=\"long\"/>\n"
		  "  <key id=\"e_lines\" for=\"edge\" attr.name=\"lines\" attr.type=\"long\"/>\n"
		  "  <key id=\"e_weight\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>\n"
		  "  <graph id=\"g&lt;1&gt;\" edgedefault=\"undirected\">\n"
		  "    <node id=\"n10\">\n"
		  "      <data key=\"v_name\">A &quot;q&quot; &lt;b&gt; &amp; c</data>\n"
		  "      <data key=\"v_display_name\">A &amp; B</data>\n"
		  "      <data key=\"v_lines\">10</data>\n"
		  "      <data key=\"v_maintainers\">1</data>\n"
		  "      <data key=\"v_cluster\">3</data>\n"
		  "    </node>\n"
		  "    <node id=\"n20\">\n"
		  "      <data key=\"v_name\">two\nlines</data>\n"
		  "      <data key=\"v_display_name\">esc\xef\xbf\xbd[31m</data>\n"
		  "      <data key=\"v_lines\">0</data>\n"
		  "      <data key=\"v_maintainers\">0</data>\n"
		  "    </node>\n"
		  "    <node id=\"n30\">\n"
		  "      <data key=\"v_name\">caf\xc3\xa9</data>\n"
		  "      <data key=\"v_lines\">7</data>\n"
		  "      <data key=\"v_maintainers\">2</data>\n"
		  "      <data key=\"v_cluster\">0</data>\n"
		  "    </node>\n"
		  "    <edge source=\"n10\" target=\"n20\">\n"
		  "      <data key=\"e_lines\">5</data>\n"
		  "      <data key=\"e_weight\">5</data>\n"
		  "    </edge>\n"
		  "    <edge source=\"n30\" target=\"n10\">\n"
		  "      <data key=\"e_lines\">7</data>\n"
		  "      <data key=\"e_weight\">7</data>\n"
		  "    </edge>\n"
		  "  </graph>\n"
		  "</graphml>\n");
	free(out);
	out = write_graph(&d, MEV_GRAPH_JSON);
	CHECK_STR(out,
		  "{\"directed\": false, \"multigraph\": false, \"graph\": {\"level\": \"a\\\"b\"},\n"
		  " \"nodes\": [\n"
		  "  {\"id\": \"A \\\"q\\\" <b> & c\", \"display_name\": \"A & B\", \"lines\": 10, "
		  "\"maintainers\": 1, \"cluster\": 3},\n"
		  "  {\"id\": \"two\\nlines\", \"display_name\": \"esc\\u001b[31m\", \"lines\": 0, "
		  "\"maintainers\": 0, \"cluster\": null},\n"
		  "  {\"id\": \"caf\xc3\xa9\", \"display_name\": null, \"lines\": 7, "
		  "\"maintainers\": 2, \"cluster\": 0}\n"
		  " ],\n"
		  " \"links\": [\n"
		  "  {\"source\": \"A \\\"q\\\" <b> & c\", \"target\": \"two\\nlines\", \"lines\": 5, "
		  "\"weight\": 5},\n"
		  "  {\"source\": \"caf\xc3\xa9\", \"target\": \"A \\\"q\\\" <b> & c\", \"lines\": 7, "
		  "\"weight\": 7}\n"
		  " ]\n"
		  "}\n");
	free(out);
	out = write_graph(&d, MEV_GRAPH_DOT);
	CHECK_STR(out,
		  "graph \"rel \\\"x\\\"\" {\n"
		  "  n10 [label=\"A &amp; B\", name=\"A \\\"q\\\" <b> & c\", lines=10, maintainers=1, "
		  "cluster=3];\n"
		  "  n20 [label=\"esc\\\\x1b[31m\", name=\"two\\nlines\", lines=0, maintainers=0];\n"
		  "  n30 [name=\"caf\xc3\xa9\", lines=7, maintainers=2, cluster=0];\n"
		  "  n10 -- n20 [lines=5, weight=5];\n"
		  "  n30 -- n10 [lines=7, weight=7];\n"
		  "}\n");
	free(out);
	out = write_graph(&d, MEV_GRAPH_CSV);
	CHECK_STR(out,
		  "from,to,lines,weight\n"
		  "\"A \"\"q\"\" <b> & c\",\"two\nlines\",5,5\n"
		  "caf\xc3\xa9,\"A \"\"q\"\" <b> & c\",7,7\n");
	free(out);
}

static void plain_vertex(void *ctx, size_t i, uint64_t *number, mev_gdoc_value *v)
{
	(void)ctx;
	*number = g_v[i].number;
	v[0].str = g_v[i].name;
}

static int plain_edge(void *ctx, size_t i, size_t *a, size_t *b, mev_gdoc_value *v)
{
	(void)ctx;
	(void)v;
	*a = g_e[i][0];
	*b = g_e[i][1];
	return 0;
}

/* The least a graph can say: no graph id, name or label; a name, no edge attributes. */
static void test_graph_plain(void)
{
	const mev_graphdoc d = { NULL, NULL, NULL, NULL, 0, g_vattrs, 1, -1, g_eattrs, 0, 2, 1,
				 plain_vertex, plain_edge, NULL, 0 };
	char *out = write_graph(&d, MEV_GRAPH_DOT);
	CHECK_STR(out, "graph {\n  n10 [name=\"A \\\"q\\\" <b> & c\"];\n  n20 [name=\"two\\nlines\"];\n"
		       "  n10 -- n20;\n}\n");
	free(out);
	out = write_graph(&d, MEV_GRAPH_JSON);
	CHECK_STR(out, "{\"directed\": false, \"multigraph\": false, \"graph\": {},\n"
		       " \"nodes\": [\n  {\"id\": \"A \\\"q\\\" <b> & c\"},\n  {\"id\": \"two\\nlines\"}\n ],\n"
		       " \"links\": [\n  {\"source\": \"A \\\"q\\\" <b> & c\", \"target\": \"two\\nlines\"}\n"
		       " ]\n}\n");
	free(out);
	out = write_graph(&d, MEV_GRAPH_GRAPHML);
	CHECK(strstr(out, "  <graph id=\"G\" edgedefault=\"undirected\">\n") != NULL);
	CHECK(strstr(out, "    <edge source=\"n10\" target=\"n20\">\n    </edge>\n") != NULL);
	free(out);
}

/* A stream that fails: MEV_EIO with the message. */
static void test_graph_eio(void)
{
	const mev_graphdoc d = { NULL, NULL, NULL, NULL, 0, g_vattrs, 5, 1, g_eattrs, 2, 3, 3,
				 g_vertex_fn, g_edge_fn, NULL, 0 };
	FILE *f = fopen("/dev/full", "w");
	if (!f)
		return;
	setvbuf(f, NULL, _IONBF, 0);
	CHECK_ERR(mev_graphdoc_write(f, &d, MEV_GRAPH_DOT), MEV_EIO, "cannot write the graph");
	CHECK_ERR(mev_graphdoc_write(f, &d, MEV_GRAPH_CSV), MEV_EIO, "cannot write the graph");
	fclose(f);
}

int main(void)
{
	RUN(test_names);
	RUN(test_table_writer);
	RUN(test_table_sink);
	RUN(test_csv_quoting);
	RUN(test_json_quoting);
	RUN(test_quoting);
	RUN(test_graph_writers);
	RUN(test_graph_plain);
	RUN(test_graph_eio);
	return test_summary();
}
