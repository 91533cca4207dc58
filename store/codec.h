/* The store's value codec: varint records, zstd frames with checksums. */
#ifndef MEV_STORE_CODEC_H
#define MEV_STORE_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include "util/buf.h"

/*
 * Every stored value is  "MEV" <kind byte> <zstd frame>,  the frame made with
 * the content checksum and the content size.  mev_codec_unpack() checks the
 * magic, the kind and the checksum: any mismatch is MEV_ECORRUPT.
 */
int mev_codec_pack(mev_buf *out, char kind, const void *data, size_t len, int level);
int mev_codec_unpack(mev_buf *out, char kind, const void *data, size_t len);

/* Little writers and a bounds-checked reader for the record formats. */
int mev_put_uv(mev_buf *b, uint64_t v);             /* LEB128 */
int mev_put_sv(mev_buf *b, int64_t v);              /* zigzag + LEB128 */
int mev_put_str(mev_buf *b, const char *s, size_t len); /* length + bytes */
int mev_put_cstr(mev_buf *b, const char *s);

typedef struct {
	const unsigned char *p, *end;
	int bad;                 /* set on any overrun or malformed number */
} mev_rd;

void mev_rd_init(mev_rd *r, const void *data, size_t len);
uint64_t mev_get_uv(mev_rd *r);
int64_t mev_get_sv(mev_rd *r);
/* A length-prefixed string: points into the buffer (not NUL-terminated). */
const char *mev_get_str(mev_rd *r, size_t *len);
int mev_get_bytes(mev_rd *r, void *out, size_t len);

#endif
