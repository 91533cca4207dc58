/* Growable byte buffers and arrays used across the library (internal). */
#ifndef MEV_UTIL_BUF_H
#define MEV_UTIL_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include "maintevo/error.h"

/* A NUL-terminated growable byte string; `ptr` may hold NUL bytes inside. */
typedef struct {
	char *ptr;
	size_t len;
	size_t cap;
} mev_buf;

#define MEV_BUF_INIT { NULL, 0, 0 }

int mev__buf_grow(mev_buf *b, size_t extra);
int mev__buf_put(mev_buf *b, const void *data, size_t len);
int mev__buf_puts(mev_buf *b, const char *s);
int mev__buf_putc(mev_buf *b, char c);
int mev__buf_printf(mev_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int mev__buf_vprintf(mev_buf *b, const char *fmt, va_list ap);
void mev__buf_clear(mev_buf *b);
void mev__buf_free(mev_buf *b);
/* Hand the storage to the caller (never NULL on success; "" when empty). */
char *mev__buf_detach(mev_buf *b);

/*
 * Typed growable arrays: MEV_VEC(uint32_t) v = {0}; MEV_VEC_PUSH(&v, x).
 * MEV_VEC_PUSH evaluates to 0 or MEV_ENOMEM.
 */
#define MEV_VEC(T) struct { T *v; size_t n, cap; }
int mev__vec_grow(void **v, size_t *cap, size_t need, size_t elem);
#define MEV_VEC_RESERVE(vec, need) \
	mev__vec_grow((void **)&(vec)->v, &(vec)->cap, (need), sizeof *(vec)->v)
#define MEV_VEC_PUSH(vec, x) \
	(MEV_VEC_RESERVE((vec), (vec)->n + 1) ? MEV_ENOMEM : ((vec)->v[(vec)->n++] = (x), 0))
/* qsort() that accepts an empty (possibly NULL) array, which qsort's
 * contract does not (UBSan: "null pointer passed as argument 1"). */
void mev__sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#define MEV_VEC_FREE(vec) do { free((vec)->v); (vec)->v = NULL; (vec)->n = (vec)->cap = 0; } while (0)

/* A bump allocator for many small strings that die together. */
typedef struct mev_arena_block mev_arena_block;
typedef struct {
	mev_arena_block *head;
	size_t used, cap;
} mev_arena;

#define MEV_ARENA_INIT { NULL, 0, 0 }
void *mev__arena_alloc(mev_arena *a, size_t size, size_t align);
/* Copy `len` bytes and add a NUL. */
char *mev__arena_strndup(mev_arena *a, const char *s, size_t len);
void mev__arena_free(mev_arena *a);

#endif
