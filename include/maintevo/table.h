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
 * writer.  Errors: MEV_ENOMEM.
 */
int mev_table_new(mev_table **out, FILE *stream, mev_table_format fmt, const mev_column *cols);

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
void mev_table_json_str(FILE *stream, const char *s, size_t len);
void mev_table_xml_str(FILE *stream, const char *s, size_t len);

#endif
