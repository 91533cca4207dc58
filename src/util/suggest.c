/* Edit distance and the closest known name, for "did you mean ...?" hints. */
#include "maintevo/suggest.h"

#include <stdint.h>
#include <string.h>

#define MAX_LEN 511

static unsigned char lower(char c)
{
	return (unsigned char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
}

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

/* Optimal string alignment distance, three rows of the usual table; past
 * `cap` in a whole row, cap + 1 at once. */
size_t mev_edit_distance_n(const char *a, size_t la, const char *b, size_t lb, size_t cap,
			   int fold)
{
	size_t rows[3][MAX_LEN + 2];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
#define CH(s, k) (fold ? lower((s)[k]) : (unsigned char)(s)[k])
	if (la > MAX_LEN || lb > MAX_LEN)
		return la == lb && memcmp(a, b, la) == 0 ? 0 : SIZE_MAX;
	if ((la > lb ? la - lb : lb - la) > cap)
		return cap + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t *t, best;
		best = cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = CH(a, i - 1) != CH(b, j - 1);
			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
			if (i > 1 && j > 1 && CH(a, i - 1) == CH(b, j - 2) &&
			    CH(a, i - 2) == CH(b, j - 1) && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
			if (cur[j] < best)
				best = cur[j];
		}
		if (best > cap)
			return cap + 1;
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
#undef CH
	return prev[lb];
}

size_t mev_edit_distance(const char *a, const char *b)
{
	return mev_edit_distance_n(a, strlen(a), b, strlen(b), SIZE_MAX - 1, 1);
}

const char *mev_suggest(const char *word, const char *const *cands, size_t n)
{
	size_t best = SIZE_MAX, len = strlen(word), limit = len <= 3 ? 1 : len / 3 > 2 ? len / 3 : 2;
	const char *pick = NULL;
	for (size_t i = 0; i < n; i++) {
		size_t d;
		if (strcmp(word, cands[i]) == 0)
			return NULL;
		d = mev_edit_distance(word, cands[i]);
		if (d < best) {
			best = d;
			pick = cands[i];
		}
	}
	return best <= limit ? pick : NULL;
}
