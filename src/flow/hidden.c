/*
 * Which commits a release's range hides.  A commit belongs to the first
 * release (in store order) that holds it, so release i's commits are those
 * reachable from it and from none of releases 0 .. i-1: 'git log TAG --not
 * EARLIER...'.  Hiding every earlier release would do; the set kept is the
 * smallest one that hides the same: the earlier releases no other earlier
 * release holds.  On a straight line that is the release before alone (the
 * familiar PREV..TAG); a tag off the main line (U-Boot's
 * v2023.07.01-dont-use, made from a development branch, then
 * v2023.07.02 made from v2023.07 again) stays in it until a release holds
 * it, so that its commits are not judged a second time in the release
 * whose history reaches them.
 */
#include "flow_internal.h"
#include "maintevo/error.h"

#include <stdlib.h>
#include <string.h>

uint64_t mev__flow_earlier(uint64_t h, const mev_oid *commit)
{
	for (size_t k = 0; k < sizeof commit->id; k++) {
		h ^= commit->id[k];
		h *= 1099511628211ULL;
	}
	return h;
}

static int cmp_oid(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(mev_oid));
}

int mev__flow_hidden_add(mev_oid **set, size_t *n, mev_repo *repo, const mev_oid *t)
{
	mev_oid *v = *set, *nv;
	size_t k = 0, dropped = 0;
	int rc;

	for (size_t i = 0; i < *n; i++)
		if (cmp_oid(&v[i], t) == 0)
			return 0; /* the same commit: nothing new is hidden */
	/* drop those t descends from */
	for (size_t i = 0; i < *n; i++) {
		if ((rc = mev_repo_descends(repo, t, &v[i])) < 0)
			return rc;
		if (rc)
			dropped++;
		else
			v[k++] = v[i];
	}
	*n = k;
	if (!dropped) {
		/* t holds none of them: is it held by one? (they are not each
		 * other's ancestors, so t cannot be both) */
		for (size_t i = 0; i < k; i++) {
			if ((rc = mev_repo_descends(repo, &v[i], t)) < 0)
				return rc;
			if (rc)
				return 0;
		}
	}
	if (!(nv = realloc(v, (k + 1) * sizeof *v)))
		return mev_error_oom();
	nv[k++] = *t;
	qsort(nv, k, sizeof *nv, cmp_oid);
	*set = nv;
	*n = k;
	return 0;
}
