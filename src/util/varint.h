/* The varint record writer and its bounds-checked reader (internal). */
#ifndef MEV_UTIL_VARINT_H
#define MEV_UTIL_VARINT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "util/buf.h"

/*
 * Records stored by the modules above the store are sequences of these:
 * unsigned numbers as LEB128 (`uv`), signed ones zigzag-encoded first
 * (`sv`), strings as `uv` length + bytes (docs/store-format.md).  The
 * writers return 0 or MEV_ENOMEM (no message set: callers report it).
 */
int mev__put_uv(mev_buf *b, uint64_t v);
int mev__put_sv(mev_buf *b, int64_t v);
int mev__put_str(mev_buf *b, const char *s, size_t len);
int mev__put_cstr(mev_buf *b, const char *s);           /* NULL is "" */

/* A double as the `uv` of its bits (NaN and every value round-trip), and back. */
static inline uint64_t mev__f64_bits(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

static inline double mev__bits_f64(uint64_t u)
{
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

/*
 * A reader over one record.  A read past the end or a malformed number
 * sets `bad` and returns 0 (or ""), so a decoder reads every field and
 * checks `bad` once at the end.
 */
typedef struct {
	const unsigned char *p, *end;
	int bad;
} mev__record_reader;

void mev__record_reader_init(mev__record_reader *r, const void *data, size_t len);
uint64_t mev__get_uv(mev__record_reader *r);
int64_t mev__get_sv(mev__record_reader *r);
/* A length-prefixed string: points into the record (not NUL-terminated). */
const char *mev__get_str(mev__record_reader *r, size_t *len);
/* `len` raw bytes into out (zeros and -1 when the record is too short). */
int mev__get_bytes(void *out, mev__record_reader *r, size_t len);

#endif
