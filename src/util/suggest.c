/* Edit distance and the closest known name, for "did you mean ...?" hints. */
#include "maintevo/suggest.h"
#include "maintevo/error.h"

#include <stdint.h>
#include <stdio.h>
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

void mev_suggestions_init(mev_suggestions *sg, const char *word)
{
	memset(sg, 0, sizeof *sg);
	sg->word = word;
	sg->wlen = strlen(word);
	/* a third of the name may differ, at least 2 bytes */
	sg->cap = sg->wlen / 3 > 2 ? sg->wlen / 3 : 2;
}

void mev_suggestions_add(mev_suggestions *sg, const char *cand, size_t len)
{
	/* paths and titles are case-sensitive: a case change is an edit */
	size_t d = mev_edit_distance_n(sg->word, sg->wlen, cand, len, sg->cap, 0), k;
	if (d > sg->cap || d == 0)
		return;
	for (size_t i = 0; i < sg->n; i++)
		if (strlen(sg->best[i]) == len && !memcmp(sg->best[i], cand, len))
			return;
	for (k = sg->n; k > 0 && sg->dist[k - 1] > d; k--)
		;
	if (k >= MEV_SUGGEST_MAX)
		return;
	if (sg->n == MEV_SUGGEST_MAX)
		sg->n--;
	memmove(&sg->best[k + 1], &sg->best[k], (sg->n - k) * sizeof *sg->best);
	memmove(&sg->dist[k + 1], &sg->dist[k], (sg->n - k) * sizeof *sg->dist);
	snprintf(sg->best[k], sizeof sg->best[k], "%.*s", (int)len, cand);
	sg->dist[k] = d;
	sg->n++;
}

void mev_suggestions_hint(const mev_suggestions *sg, const char *otherwise)
{
	char list[4 * (MEV_SUGGEST_LEN + 4)] = "";
	size_t l = 0;
	if (!sg->n) {
		if (otherwise)
			mev_error_hint("%s", otherwise);
		return;
	}
	for (size_t i = 0; i < sg->n; i++)
		l += (size_t)snprintf(list + l, sizeof list - l, "%s'%s'",
				      i == 0 ? "" : i + 1 == sg->n ? " or " : ", ", sg->best[i]);
	mev_error_hint("did you mean %s?", list);
}
