/* The one writer of CSV, JSON and JSON Lines tables: columns, types, number formats, quoting. */
#ifndef MAINTEVO_TABLE_H
#define MAINTEVO_TABLE_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Every table a command prints (the export tables, the file map, the graph
 * CSV, the sections of a release) goes through mev_table: the table
 * declares its columns once, with a name and a type; the type decides how
 * a value is written, so two commands printing the same column print the
 * same bytes.  docs/schemas.md describes the formats and types.
 */

typedef enum {
	MEV_TABLE_CSV = 0,  /* RFC 4180, UTF-8, a header line, "\n" line ends (never CRLF) */
	MEV_TABLE_JSON,     /* one JSON array of objects (keys = the CSV columns, in order) */
	MEV_TABLE_JSONL     /* JSON Lines: one object per line */
} mev_table_format;

/* "csv", "json", "jsonl"; -1 for an unknown name. */
int mev_table_format_parse(const char *name);

typedef enum {
	MEV_COLUMN_STRING = 0, /* UTF-8 text (bytes that are not UTF-8 are read as ISO-8859-1) */
	MEV_COLUMN_INTEGER,    /* a whole number, 64-bit */
	MEV_COLUMN_NUMBER,     /* a decimal number, written as "%.6g" */
	MEV_COLUMN_DATE        /* a time, written ISO 8601 UTC: 2024-01-08T16:53:07Z */
} mev_column_type;

/* "string", "integer", "number", "date" (the names docs/schemas.md uses). */
const char *mev_table_type_name(mev_column_type type);

/* A column: its name is the CSV header field and the JSON key (plain
 * [a-z_] text, written as is).  A table's columns are an array that ends
 * with a NULL name. */
typedef struct {
	const char *name;
	mev_column_type type;
} mev_column;

typedef struct mev_table mev_table;

/*
 * Start a table on `stream`: CSV writes the header line, JSON the opening
 * bracket, JSON Lines nothing.  Then, for every row, one value call per
 * column in column order and mev_table_end_row(); at the end
 * mev_table_finish(), then mev_table_free().  `cols` must outlive the
 * writer.  CSV written to a terminal (isatty) escapes control characters
 * as mev_table_term_str() does, so that a title holding an escape sequence
 * cannot drive the terminal; CSV written anywhere else keeps every byte.
 * Errors: MEV_ENOMEM.
 */
int mev_table_new(mev_table **out, FILE *stream, mev_table_format fmt, const mev_column *cols);

/*
 * Where a table's values go instead of a stream: a database, say (the
 * SQLite export).  The writer calls one value function per column, in
 * column order (col: its index), with the value of the column's type as
 * the stream formats would write it: text converted to UTF-8 (as in CSV),
 * integers as int64_t, numbers as doubles (never NaN: null instead), dates
 * as seconds since 1970 UTC; null() for a missing value.  end_row() after
 * the last column of each row returns 0 or a negative MEV_E* with the
 * message set; the first such error stops the calls to the sink and is
 * what mev_table_finish() returns.
 */
typedef struct {
	void (*null)(void *ctx, size_t col);
	void (*text)(void *ctx, size_t col, const char *s, size_t len);
	void (*integer)(void *ctx, size_t col, int64_t v);
	void (*number)(void *ctx, size_t col, double v);
	void (*date)(void *ctx, size_t col, int64_t seconds);
	int (*end_row)(void *ctx);
	void *ctx;
} mev_table_sink;

/* A table whose values go to `sink` (copied; its ctx must outlive the
 * writer); otherwise as mev_table_new().  Errors: MEV_ENOMEM. */
int mev_table_new_sink(mev_table **out, const mev_table_sink *sink, const mev_column *cols);

/*
 * CSV only, off by default: a string value that starts with '=', '+', '-',
 * '@', a tab or a carriage return (the characters after which spreadsheets
 * read a cell as a formula: OWASP's CSV injection advice) gets a "'" in
 * front, which Excel, LibreOffice and Google Sheets read as "this cell is
 * text".  The data changes (the "'" is part of the field for every other
 * reader): only for files meant for a spreadsheet.  Integer, number and
 * date columns never start with one of these (numbers may be negative and
 * are left alone).
 */
void mev_table_excel_safe(mev_table *t, int on);

/* CSV only: escape control characters (on) or keep them (off), whatever
 * the stream is; mev_table_new() chose by isatty(). */
void mev_table_escape_controls(mev_table *t, int on);

/* Values.  A missing value (null) is an empty CSV field and a JSON null.
 * Each call writes the next column; a call that does not fit the column's
 * type is a bug that mev_table_finish() reports. */
void mev_table_null(mev_table *t);
void mev_table_str(mev_table *t, const char *s);          /* NULL: null */
void mev_table_strn(mev_table *t, const char *s, size_t len);
void mev_table_str_or_null(mev_table *t, const char *s);  /* NULL or "": null */
void mev_table_uint(mev_table *t, uint64_t v);
void mev_table_int_or_null(mev_table *t, int64_t v);      /* v < 0: null */
void mev_table_num(mev_table *t, double v);               /* NaN: null */
void mev_table_date(mev_table *t, int64_t seconds);       /* since 1970, UTC */
void mev_table_end_row(mev_table *t);

/*
 * End the table (JSON: the closing bracket).  Errors: MEV_EIO when writing
 * failed (a full disk, a closed pipe), MEV_EINVAL when a row did not fit
 * the columns (a bug in the caller).
 */
int mev_table_finish(mev_table *t);
void mev_table_free(mev_table *t);

/* Quoting outside tables, always producing UTF-8 (other bytes are read as
 * ISO-8859-1): a JSON string literal with its quotes; XML character data or
 * attribute value (no quotes added; control bytes XML 1.0 does not allow
 * become U+FFFD). */
/* v with thousands separators ("-1,234,567") into out; returns out. */
const char *mev_table_count(char out[32], int64_t v);

void mev_table_json_str(FILE *stream, const char *s, size_t len);
/* The same, safe inside an HTML <script> element: '<', '>', '&', DEL,
 * U+2028 and U+2029 as \u escapes, so no text can end the element. */
void mev_table_json_script_str(FILE *stream, const char *s, size_t len);
void mev_table_xml_str(FILE *stream, const char *s, size_t len);

/*
 * A Graphviz DOT quoted string, with its quotes, that Graphviz shows as the
 * text itself: '"' and '\' escaped (else "\N" would show the node's
 * name), a newline as "\n" (a line break), other control characters as
 * the text "\x1b" (C1 ones as "\u009b", as mev_table_term_str()); with `label` also '&' as "&amp;" (Graphviz reads entities in
 * labels: "&lt;" would show as "<").  Other attributes are not read that
 * way and keep their '&'.
 */
void mev_table_dot_str(FILE *stream, const char *s, size_t len, int label);

/*
 * Text for a terminal or a log, as it is but for what a terminal would act
 * on: C0 control characters other than tab and newline, and DEL, as
 * "\xHH" (ESC is "\x1b"); C1 control characters (U+0080..U+009F, CSI
 * among them) as "\u0080".."\u009f"; bytes that are not UTF-8 as "\xHH".
 * Backslashes are left alone (a "\x1b" in the text reads the same as an
 * escaped ESC: the text is for people, the files keep the data).
 */
void mev_table_term_str(FILE *stream, const char *s, size_t len);

#endif
