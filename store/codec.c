/* zstd frames with checksums around varint-encoded records. */
#include "codec.h"
#include "maintevo/error.h"

#include <string.h>
#include <zstd.h>

int mev_codec_pack(mev_buf *out, char kind, const void *data, size_t len, int level)
{
	size_t bound = ZSTD_compressBound(len), n;
	ZSTD_CCtx *cc;
	mev_buf_clear(out);
	if (mev_buf_grow(out, bound + 4))
		return MEV_ENOMEM;
	memcpy(out->ptr, "MEV", 3);
	out->ptr[3] = kind;
	cc = ZSTD_createCCtx();
	if (!cc)
		return mev_error_oom();
	ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_contentSizeFlag, 1);
	n = ZSTD_compress2(cc, out->ptr + 4, bound, data, len);
	ZSTD_freeCCtx(cc);
	if (ZSTD_isError(n))
		return mev_error_set(MEV_ERROR, "zstd compression failed: %s", ZSTD_getErrorName(n));
	out->len = n + 4;
	return 0;
}

int mev_codec_unpack(mev_buf *out, char kind, const void *data, size_t len)
{
	const char *p = data;
	unsigned long long size;
	size_t n;
	mev_buf_clear(out);
	if (len < 4 || memcmp(p, "MEV", 3) != 0 || p[3] != kind)
		return mev_error_set(MEV_ECORRUPT, "stored value of kind '%c' has a bad header", kind);
	size = ZSTD_getFrameContentSize(p + 4, len - 4);
	if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN || size > (1ULL << 40))
		return mev_error_set(MEV_ECORRUPT, "stored value of kind '%c' is not a zstd frame", kind);
	if (mev_buf_grow(out, (size_t)size))
		return MEV_ENOMEM;
	n = ZSTD_decompress(out->ptr, (size_t)size, p + 4, len - 4);
	if (ZSTD_isError(n) || n != size)
		return mev_error_set(MEV_ECORRUPT, "stored value of kind '%c' is damaged: %s", kind,
				     ZSTD_isError(n) ? ZSTD_getErrorName(n) : "wrong size");
	out->len = n;
	out->ptr[n] = '\0';
	return 0;
}

int mev_put_uv(mev_buf *b, uint64_t v)
{
	unsigned char tmp[10];
	size_t n = 0;
	do {
		unsigned char c = v & 0x7f;
		v >>= 7;
		tmp[n++] = c | (v ? 0x80 : 0);
	} while (v);
	return mev_buf_put(b, tmp, n);
}

int mev_put_sv(mev_buf *b, int64_t v)
{
	return mev_put_uv(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

int mev_put_str(mev_buf *b, const char *s, size_t len)
{
	return mev_put_uv(b, len) || mev_buf_put(b, s, len) ? MEV_ENOMEM : 0;
}

int mev_put_cstr(mev_buf *b, const char *s) { return mev_put_str(b, s, s ? strlen(s) : 0); }

void mev_rd_init(mev_rd *r, const void *data, size_t len)
{
	r->p = data;
	r->end = r->p + len;
	r->bad = 0;
}

uint64_t mev_get_uv(mev_rd *r)
{
	uint64_t v = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		unsigned char c;
		if (r->p >= r->end) {
			r->bad = 1;
			return 0;
		}
		c = *r->p++;
		v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	r->bad = 1;
	return 0;
}

int64_t mev_get_sv(mev_rd *r)
{
	uint64_t u = mev_get_uv(r);
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

const char *mev_get_str(mev_rd *r, size_t *len)
{
	uint64_t n = mev_get_uv(r);
	const char *s;
	if (r->bad || n > (uint64_t)(r->end - r->p)) {
		r->bad = 1;
		*len = 0;
		return "";
	}
	s = (const char *)r->p;
	r->p += n;
	*len = (size_t)n;
	return s;
}

int mev_get_bytes(mev_rd *r, void *out, size_t len)
{
	if (r->bad || len > (size_t)(r->end - r->p)) {
		r->bad = 1;
		memset(out, 0, len);
		return -1;
	}
	memcpy(out, r->p, len);
	r->p += len;
	return 0;
}
