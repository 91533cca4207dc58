/* LEB128 / zigzag varints and length-prefixed strings (util/varint.h). */
#include "util/varint.h"
#include "maintevo/error.h"

#include <string.h>

int mev__put_uv(mev_buf *b, uint64_t v)
{
	unsigned char tmp[10];
	size_t n = 0;
	do {
		unsigned char c = v & 0x7f;
		v >>= 7;
		tmp[n++] = c | (v ? 0x80 : 0);
	} while (v);
	return mev__buf_put(b, tmp, n);
}

int mev__put_sv(mev_buf *b, int64_t v)
{
	return mev__put_uv(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

int mev__put_str(mev_buf *b, const char *s, size_t len)
{
	return mev__put_uv(b, len) || mev__buf_put(b, s, len) ? MEV_ENOMEM : 0;
}

int mev__put_cstr(mev_buf *b, const char *s) { return mev__put_str(b, s, s ? strlen(s) : 0); }

void mev__record_reader_init(mev__record_reader *r, const void *data, size_t len)
{
	r->p = data;
	r->end = r->p + len;
	r->bad = 0;
}

uint64_t mev__get_uv(mev__record_reader *r)
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

int64_t mev__get_sv(mev__record_reader *r)
{
	uint64_t u = mev__get_uv(r);
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

const char *mev__get_str(mev__record_reader *r, size_t *len)
{
	uint64_t n = mev__get_uv(r);
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

int mev__get_bytes(void *out, mev__record_reader *r, size_t len)
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
