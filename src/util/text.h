/* Text helpers: encodings, newline counting, CSV-safe output (internal). */
#ifndef MEV_UTIL_TEXT_H
#define MEV_UTIL_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include "util/buf.h"

/* 1 when s[0..len) is valid UTF-8 (no overlongs, no surrogates). */
int mev__utf8_valid(const char *s, size_t len);
/* Append s[0..len) to out, reading it as ISO-8859-1. */
int mev__latin1_to_utf8(mev_buf *out, const char *s, size_t len);
/* Append as UTF-8: unchanged when valid UTF-8, else read as ISO-8859-1. */
int mev__to_utf8(mev_buf *out, const char *s, size_t len);
/* Number of '\n' bytes. */
uint64_t mev__count_newlines(const void *data, size_t len);

/*
 * s[0..len) for a message, into out (size bytes): as it is when it fits,
 * else its start and its end around "[...N bytes...]" (N its length), cut
 * between UTF-8 characters, so that a huge pattern quoted in a warning
 * leaves room for what the warning says about it.  Returns out.
 */
const char *mev__text_middle(char *out, size_t size, const char *s, size_t len);

#endif
