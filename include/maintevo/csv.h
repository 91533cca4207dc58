/* Quoting for CSV (RFC 4180), JSON strings and XML text. */
#ifndef MAINTEVO_CSV_H
#define MAINTEVO_CSV_H

#include <stdio.h>
#include <stddef.h>

/* Write one CSV field, quoted when it holds ',', '"', CR or LF.  Bytes that
 * are not UTF-8 are read as ISO-8859-1, so the output is always UTF-8. */
void mev_csv_field(FILE *out, const char *s, size_t len);
void mev_csv_str(FILE *out, const char *s);
/* A JSON string literal with its quotes. */
void mev_json_str(FILE *out, const char *s, size_t len);
/* XML character data / attribute value (no quotes added). */
void mev_xml_str(FILE *out, const char *s, size_t len);

#endif
