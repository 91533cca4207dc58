/* Growable byte buffers, typed arrays and a bump allocator. */
#include "util/buf.h"
#include "maintevo/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mev__buf_grow(mev_buf *b, size_t extra)
{
	size_t need = b->len + extra + 1, cap;
	char *p;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap / 2 * 3 + 16;
	p = realloc(b->ptr, cap);
	if (!p)
		return mev_error_oom();
	b->ptr = p;
	b->cap = cap;
	return 0;
}

int mev__buf_put(mev_buf *b, const void *data, size_t len)
{
	if (mev__buf_grow(b, len))
		return MEV_ENOMEM;
	if (len)
		memcpy(b->ptr + b->len, data, len);
	b->len += len;
	b->ptr[b->len] = '\0';
	return 0;
}

int mev__buf_puts(mev_buf *b, const char *s) { return mev__buf_put(b, s, strlen(s)); }
int mev__buf_putc(mev_buf *b, char c) { return mev__buf_put(b, &c, 1); }

int mev__buf_vprintf(mev_buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;
	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return mev_error_set(MEV_ERROR, "bad format string");
	if (mev__buf_grow(b, (size_t)n))
		return MEV_ENOMEM;
	vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

int mev__buf_printf(mev_buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;
	va_start(ap, fmt);
	rc = mev__buf_vprintf(b, fmt, ap);
	va_end(ap);
	return rc;
}

void mev__buf_clear(mev_buf *b)
{
	b->len = 0;
	if (b->ptr)
		b->ptr[0] = '\0';
}

void mev__buf_free(mev_buf *b)
{
	free(b->ptr);
	b->ptr = NULL;
	b->len = b->cap = 0;
}

char *mev__buf_detach(mev_buf *b)
{
	char *p;
	if (!b->ptr && mev__buf_grow(b, 0))
		return NULL;
	b->ptr[b->len] = '\0';
	p = b->ptr;
	b->ptr = NULL;
	b->len = b->cap = 0;
	return p;
}

int mev__vec_grow(void **v, size_t *cap, size_t need, size_t elem)
{
	size_t c;
	void *p;
	if (need <= *cap)
		return 0;
	c = *cap ? *cap : 8;
	while (c < need)
		c *= 2;
	p = realloc(*v, c * elem);
	if (!p)
		return mev_error_oom();
	*v = p;
	*cap = c;
	return 0;
}

struct mev_arena_block {
	mev_arena_block *next;
	max_align_t data[];
};

void *mev__arena_alloc(mev_arena *a, size_t size, size_t align)
{
	size_t off = (a->used + align - 1) & ~(align - 1);
	if (!a->head || off + size > a->cap) {
		size_t cap = size > 65536 ? size : 65536;
		mev_arena_block *blk = malloc(sizeof *blk + cap);
		if (!blk) {
			mev_error_oom();
			return NULL;
		}
		blk->next = a->head;
		a->head = blk;
		a->cap = cap;
		off = 0;
	}
	a->used = off + size;
	return (char *)a->head->data + off;
}

char *mev__arena_strndup(mev_arena *a, const char *s, size_t len)
{
	char *p = mev__arena_alloc(a, len + 1, 1);
	if (!p)
		return NULL;
	if (len)
		memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void mev__arena_free(mev_arena *a)
{
	mev_arena_block *b = a->head;
	while (b) {
		mev_arena_block *n = b->next;
		free(b);
		b = n;
	}
	a->head = NULL;
	a->used = a->cap = 0;
}

void mev__sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}
