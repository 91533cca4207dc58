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

/*
 * The few closest of many candidates offered one at a time (every path of
 * a release, every title of every release), for a hint that lists them:
 * "did you mean 'a', 'b' or 'c'?".  Case matters (paths and titles are
 * case-sensitive); a candidate is kept when at most a third of the word's
 * length (at least 2) edits away and not the word itself; the closest
 * first, the first offered first at the same distance, each once,
 * MEV_SUGGEST_LEN - 1 bytes of it at most.
 *
 *	mev_suggestions sg;
 *	mev_suggestions_init(&sg, path);
 *	for (each stored path p)
 *		mev_suggestions_add(&sg, p, strlen(p));
 *	mev_error_set(MEV_ENOTFOUND, "no file '%s'", path);
 *	mev_suggestions_hint(&sg, "paths are relative to the top of the tree");
 */
#define MEV_SUGGEST_MAX 3
#define MEV_SUGGEST_LEN 256
typedef struct {
	const char *word;
	size_t wlen, cap;          /* at most `cap` edits away */
	char best[MEV_SUGGEST_MAX][MEV_SUGGEST_LEN];
	size_t dist[MEV_SUGGEST_MAX];
	size_t n;
} mev_suggestions;

/* Start looking for names close to `word` (borrowed until the last call). */
void mev_suggestions_init(mev_suggestions *sg, const char *word);
/* Offer cand[0..len) (copied when kept). */
void mev_suggestions_add(mev_suggestions *sg, const char *cand, size_t len);
/* "did you mean 'a', 'b' or 'c'?" as the current error's hint
 * (mev_error_hint()); `otherwise` (may be NULL) when none is close. */
void mev_suggestions_hint(const mev_suggestions *sg, const char *otherwise);

#endif
