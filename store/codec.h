/* The store's value codec: zstd frames with checksums (store/ only). */
#ifndef MEV_STORE_CODEC_H
#define MEV_STORE_CODEC_H

#include <stddef.h>
#include "util/buf.h"

/*
 * A packed value is  "MEV" <kind byte> <zstd frame>,  the frame made with
 * the content checksum and the content size.  mev__unpack() checks the
 * magic, the kind and the checksum: any mismatch is MEV_ECORRUPT.
 */
int mev__pack(mev_buf *out, void **cctx, char kind, const void *data, size_t len, int level);
/* The compression context *cctx that mev__pack() makes once and reuses
 * (zstd sets up its tables for each new one: a tenth of a small walk). */
void mev__pack_free(void **cctx);
int mev__unpack(mev_buf *out, char kind, const void *data, size_t len);
/* The content size of a packed value of any kind, without unpacking it; for
 * anything else (a raw value) its length. */
size_t mev__packed_size(const void *data, size_t len);

#endif
