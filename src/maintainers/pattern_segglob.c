/*
 * A whole regex made only of a Zephyr glob's conversion ("^", literal
 * bytes, "\.", "[^/]*", "[^/]", then "$" or a final '/') run as a small
 * program instead of by PCRE2.  PCRE2 backtracks through runs of "[^/]*"
 * in a time that grows with the power of their number (5,000 '*' in one
 * glob: seconds a path); the program matches '/'-separated components one
 * against one, each in time bounded by the product of the two lengths.
 * It answers exactly as PCRE2 does for a path without '\n' (the caller
 * runs PCRE2 for the others: "$" also matches before a final newline).
 */
#include "maintainers_internal.h"
#include "maintevo/error.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Program ops besides literal bytes (0..255). */
enum { SEG_ANY = 258, SEG_STAR = 259, SEG_END = 260 };

static int is_regex_meta(unsigned char c)
{
	return c && strchr("\\.[](){}|+?*^$", c) != NULL;
}

int mev__segglob_compile(uint16_t **out, size_t *nout, const char *re, size_t len, int utf8)
{
	uint16_t *ops;
	size_t n = 0, i = 1;
	*out = NULL;
	*nout = 0;
	if (!len || re[0] != '^')
		return 1;
	if (!(ops = malloc((len + 1) * sizeof *ops)))
		return mev_error_oom();
	while (i < len) {
		unsigned char c = (unsigned char)re[i];
		if (c == '\\' && i + 1 < len && re[i + 1] == '.') {
			ops[n++] = '.';
			i += 2;
		} else if (len - i >= 5 && memcmp(re + i, "[^/]*", 5) == 0) {
			if (!n || ops[n - 1] != SEG_STAR) /* "**" is "*" */
				ops[n++] = SEG_STAR;
			i += 5;
		} else if (len - i >= 4 && memcmp(re + i, "[^/]", 4) == 0) {
			ops[n++] = SEG_ANY;
			i += 4;
		} else if (c == '$' && i + 1 == len) {
			ops[n++] = SEG_END;
			i++;
		} else if (is_regex_meta(c) || (utf8 && c >= 0x80)) {
			break;
		} else {
			ops[n++] = c;
			i++;
		}
	}
	/* whole: the end anchored, or a final '/' after which anything goes */
	if (i < len || !n || (ops[n - 1] != SEG_END && ops[n - 1] != '/')) {
		free(ops);
		return 1;
	}
	*out = ops;
	*nout = n;
	return 0;
}

/* ops[0..n) (no '/', no SEG_END) against the whole of s[0..len) (no '/'):
 * the classic wildcard walk, which backs up only to the last star. */
static int component(const uint16_t *ops, size_t n, const unsigned char *s, size_t len)
{
	size_t i = 0, j = 0, star = SIZE_MAX, mark = 0, fixed = 0;
	for (size_t k = 0; k < n; k++)
		fixed += ops[k] != SEG_STAR;
	if (fixed > len)
		return 0;
	while (j < len) {
		if (i < n && ops[i] == SEG_STAR) {
			star = i++;
			mark = j;
		} else if (i < n && (ops[i] == SEG_ANY || ops[i] == s[j])) {
			i++;
			j++;
		} else if (star != SIZE_MAX) {
			i = star + 1;
			j = ++mark;
		} else {
			return 0;
		}
	}
	while (i < n && ops[i] == SEG_STAR)
		i++;
	return i == n;
}

/*
 * Neither a star nor SEG_ANY matches '/', so the k-th '/' of the program
 * matches the k-th '/' of the path: components pair up one to one.
 */
int mev__segglob_match(const uint16_t *ops, size_t n, const unsigned char *s, size_t len)
{
	size_t i = 0, pos = 0;
	for (;;) {
		size_t j = i, end = pos;
		while (j < n && ops[j] != '/' && ops[j] != SEG_END)
			j++;
		while (end < len && s[end] != '/')
			end++;
		if (j == n) /* after the final '/': the rest of the path is free */
			return 1;
		if (ops[j] == SEG_END)
			return end == len && component(ops + i, j - i, s + pos, end - pos);
		if (end == len || !component(ops + i, j - i, s + pos, end - pos))
			return 0;
		i = j + 1;
		pos = end + 1;
	}
}
