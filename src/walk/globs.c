/* The --tags and --exclude globs checked before a walk makes its store; the tags it leaves out, named. */
#include "walk_internal.h"
#include "maintevo/error.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

/* Does glob g parse: is every '[' closed by its ']'?  fnmatch() takes an
 * unclosed one for a plain '[' and says nothing. */
static int glob_parses(const char *g)
{
	for (const char *p = g; *p; p++) {
		const char *q;
		if (*p == '\\') {
			p += p[1] != '\0';
			continue;
		}
		if (*p != '[')
			continue;
		q = p + 1;
		q += *q == '!' || *q == '^';
		q += *q == ']'; /* a ']' first is one of the set */
		for (; *q && *q != ']'; q++)
			if (*q == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=')) {
				const char *end = strstr(q + 2, (char[]){ q[1], ']', '\0' });
				if (!end)
					return 0;
				q = end + 1;
			}
		if (!*q)
			return 0;
		p = q;
	}
	return 1;
}

/*
 * Before the store is made: a --tags or --exclude glob that does not
 * parse is refused, and so is a --tags glob that matches no tag of the
 * repository (the walk would make an empty store and say nothing wrong).
 */
int mev__walk_check_globs(const mev_walk_options *o, const mev_tag *tags, size_t n)
{
	for (size_t i = 0; i < o->ntags + o->nexclude; i++) {
		const char *g = i < o->ntags ? o->tags[i] : o->exclude[i - o->ntags];
		const char *opt = i < o->ntags ? "--tags" : "--exclude";
		size_t k = 0;
		if (!glob_parses(g)) {
			mev_error_set(MEV_EINVAL, "%s '%s' does not parse: a '[' is not closed by ']'", opt, g);
			mev_error_hint("a glob such as 'v2024.*' or 'v[0-9]*'; write '\\[' for a '[' itself");
			return MEV_EINVAL;
		}
		while (i < o->ntags && k < n && fnmatch(g, tags[k].name, 0) != 0)
			k++;
		if (i < o->ntags && k == n) {
			mev_error_set(MEV_ENOTFOUND, "--tags '%s' matches none of the %zu tags of '%s'", g, n,
				      o->repo);
			mev_error_hint("list the repository's tags with 'git -C %s tag'; nothing was walked "
				       "and no store was made", o->repo);
			return MEV_ENOTFOUND;
		}
	}
	return 0;
}

void mev__walk_skipped_names(char *out, size_t size, const mev_tags_skipped *sk)
{
	size_t used = 0, named = sk->n < MEV_TAGS_SKIPPED_NAMED ? sk->n : MEV_TAGS_SKIPPED_NAMED;
	out[0] = '\0';
	for (size_t i = 0; i < named && used < size; i++)
		used += (size_t)snprintf(out + used, size - used, "%s%s",
					 i == 0 ? "" : i + 1 == named && named == sk->n ? " and " : ", ",
					 sk->names[i]);
	if (named < sk->n && used < size)
		snprintf(out + used, size - used, " and %zu more", sk->n - named);
}
