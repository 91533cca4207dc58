/* A JSON document written as it goes: the commas, brackets and number forms in one place. */
#ifndef MAINTEVO_JSON_H
#define MAINTEVO_JSON_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

/*
 * For a JSON document that is not a table (tables go through mev_table,
 * table.h): the writer puts the commas between values and the colon after
 * a key, and quotes strings as mev_table_json_str() does, or, with
 * `script`, as mev_table_json_script_str() does, so that the document can
 * sit inside an HTML <script> element (the lineage chart's page).  It
 * writes no whitespace but the line breaks asked for with
 * mev_json_newline().  Nothing is allocated; a write error shows in
 * ferror() of the stream.  Nesting deeper than 64 is a bug of the caller.
 *
 *     mev_json j;
 *     mev_json_init(&j, out, 0);
 *     mev_json_object(&j);
 *     mev_json_key(&j, "ids");
 *     mev_json_array(&j);
 *     mev_json_uint(&j, 1);
 *     mev_json_uint(&j, 2);
 *     mev_json_end(&j);
 *     mev_json_end(&j);          (writes {"ids":[1,2]})
 */
typedef struct {
	FILE *out;
	int script;
	unsigned depth;
	uint64_t started; /* bit d: the array or object at depth d holds a value already */
	int no_comma;     /* the next value follows a key or a line break */
	char close[64];   /* ']' or '}' for each open array or object */
} mev_json;

void mev_json_init(mev_json *j, FILE *out, int script);

/* Open an object or an array, and close the innermost one open. */
void mev_json_object(mev_json *j);
void mev_json_array(mev_json *j);
void mev_json_end(mev_json *j);

/* Inside an object: the key of the next value. */
void mev_json_key(mev_json *j, const char *key);

/* Values.  A string NULL is null; text that is not UTF-8 is read as
 * ISO-8859-1.  mev_json_fixed() writes "%.*f", mev_json_general() "%.*g";
 * both write null for NaN or an infinity (which JSON cannot hold). */
void mev_json_str(mev_json *j, const char *s);
void mev_json_strn(mev_json *j, const char *s, size_t len);
void mev_json_uint(mev_json *j, uint64_t v);
void mev_json_int(mev_json *j, int64_t v);
void mev_json_fixed(mev_json *j, double v, int decimals);
void mev_json_general(mev_json *j, double v, int digits);
void mev_json_bool(mev_json *j, int v);
void mev_json_null(mev_json *j);

/* A line break before the next value or key (after its comma), so that a
 * long document reads one record a line. */
void mev_json_newline(mev_json *j);

#endif
