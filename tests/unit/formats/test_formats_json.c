/* Tests of the JSON document writer (json.h): separators, line breaks, numbers, quoting. */
#include "test.h"
#include "maintevo/json.h"

#include <math.h>
#include <stdlib.h>

/* A document written to memory by `fill`. */
static char *written(int script, void (*fill)(mev_json *j))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	mev_json j;
	mev_json_init(&j, f, script);
	fill(&j);
	fclose(f);
	return buf;
}

/* Nested objects and arrays, empty ones, every kind of value. */
static void nested(mev_json *j)
{
	mev_json_object(j);
	mev_json_key(j, "a");
	mev_json_array(j);
	mev_json_uint(j, 18446744073709551615ull);
	mev_json_int(j, -3);
	mev_json_array(j);
	mev_json_end(j);
	mev_json_object(j);
	mev_json_end(j);
	mev_json_bool(j, 1);
	mev_json_bool(j, 0);
	mev_json_null(j);
	mev_json_str(j, NULL);
	mev_json_end(j);
	mev_json_key(j, "b");
	mev_json_object(j);
	mev_json_key(j, "c");
	mev_json_strn(j, "xyz", 2);
	mev_json_end(j);
	mev_json_end(j);
}

static void test_json_nesting(void)
{
	char *out = written(0, nested);
	CHECK_STR(out, "{\"a\":[18446744073709551615,-3,[],{},true,false,null,null],\"b\":{\"c\":\"xy\"}}");
	free(out);
}

/* Line breaks come after the comma: one record a line. */
static void records(mev_json *j)
{
	mev_json_object(j);
	mev_json_key(j, "v");
	mev_json_uint(j, 1);
	mev_json_newline(j);
	mev_json_key(j, "rows");
	mev_json_array(j);
	for (int i = 0; i < 2; i++) {
		mev_json_newline(j);
		mev_json_array(j);
		mev_json_int(j, i);
		mev_json_end(j);
	}
	mev_json_end(j);
	mev_json_end(j);
}

static void test_json_newlines(void)
{
	char *out = written(0, records);
	CHECK_STR(out, "{\"v\":1,\n\"rows\":[\n[0],\n[1]]}");
	free(out);
}

/* Fixed and general forms; NaN and infinities (no JSON number) as null. */
static void numbers(mev_json *j)
{
	mev_json_array(j);
	mev_json_fixed(j, 2.25, 1);
	mev_json_fixed(j, 1234.5, 0);
	mev_json_general(j, 0.123456, 4);
	mev_json_general(j, 1e-7, 4);
	mev_json_general(j, NAN, 4);
	mev_json_fixed(j, INFINITY, 1);
	mev_json_general(j, -INFINITY, 4);
	mev_json_end(j);
}

static void test_json_numbers(void)
{
	char *out = written(0, numbers);
	CHECK_STR(out, "[2.2,1234,0.1235,1e-07,null,null,null]");
	free(out);
}

/* Strings and keys quoted as mev_table_json_str (plain) or
 * mev_table_json_script_str (inside a <script> element) quote them. */
static void hostile(mev_json *j)
{
	mev_json_object(j);
	mev_json_key(j, "k<");
	mev_json_str(j, "</script>\"\n\xe2\x80\xa8");
	mev_json_end(j);
}

static void test_json_quoting(void)
{
	char *out = written(0, hostile);
	CHECK_STR(out, "{\"k<\":\"</script>\\\"\\n\xe2\x80\xa8\"}");
	free(out);
	out = written(1, hostile);
	CHECK_STR(out, "{\"k\\u003c\":\"\\u003c/script\\u003e\\\"\\n\\u2028\"}");
	free(out);
}

int main(void)
{
	RUN(test_json_nesting);
	RUN(test_json_newlines);
	RUN(test_json_numbers);
	RUN(test_json_quoting);
	return test_summary();
}
