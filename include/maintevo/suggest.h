/* "Did you mean ...?": the known name closest to a mistyped one. */
#ifndef MAINTEVO_SUGGEST_H
#define MAINTEVO_SUGGEST_H

#include <stddef.h>

/*
 * The edit distance between a and b: the fewest insertions, deletions,
 * substitutions and swaps of two neighbouring characters that turn one
 * into the other, ignoring ASCII case ("walkk" -> "walk": 1, "2023.10" ->
 * "v2023.10": 1, "clsuter" -> "cluster": 1).  Strings longer than 511
 * bytes are SIZE_MAX away from everything but themselves.
 */
size_t mev_edit_distance(const char *a, const char *b);

/* The same of a[0..la) and b[0..lb), ASCII case ignored only with `fold`;
 * cap + 1 as soon as the distance is sure to exceed `cap`. */
size_t mev_edit_distance_n(const char *a, size_t la, const char *b, size_t lb, size_t cap,
			   int fold);

/*
 * Of the n candidates, the one closest to `word` when it is close enough
 * to be a typo of it (1 edit for words of up to 3 bytes, else 2, or a
 * third of the word's length for words longer than 8), the first of those at the same distance; NULL when none
 * is (or word is one of them exactly).  The candidates are borrowed: the
 * result is one of them.
 */
const char *mev_suggest(const char *word, const char *const *cands, size_t n);

#endif
