/* Version order of tags (which tags are releases: each dialect's file). */
#include "maintevo/tags.h"

#include <ctype.h>
#include <string.h>

/* A run of digits or of non-digits starting at *p; advances *p. */
static size_t run(const char **p, int *digits)
{
	const char *s = *p;
	*digits = isdigit((unsigned char)*s) != 0;
	while (**p && (isdigit((unsigned char)**p) != 0) == *digits)
		(*p)++;
	return (size_t)(*p - s);
}

int mev_tag_cmp(const char *a, const char *b)
{
	const char *pa = a, *pb = b;
	while (*pa && *pb) {
		const char *sa = pa, *sb = pb;
		int da, db;
		size_t la = run(&pa, &da), lb = run(&pb, &db);
		if (da && db) {
			while (la > 1 && *sa == '0') { sa++; la--; }
			while (lb > 1 && *sb == '0') { sb++; lb--; }
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = memcmp(sa, sb, la);
			if (c)
				return c < 0 ? -1 : 1;
		} else if (da != db) {
			return da ? 1 : -1;
		} else {
			size_t m = la < lb ? la : lb;
			int c = memcmp(sa, sb, m);
			if (c)
				return c < 0 ? -1 : 1;
			if (la != lb) {
				/* "-rc1" after a common prefix: the pre-release is older */
				const char *ra = sa + m, *rb = sb + m;
				if (la > lb)
					return *ra == '-' || *ra == '~' ? -1 : 1;
				return *rb == '-' || *rb == '~' ? 1 : -1;
			}
		}
	}
	if (*pa || *pb) {
		const char *rest = *pa ? pa : pb;
		int pre = *rest == '-' || *rest == '~';
		/* the longer one is newer (v6.1.1 > v6.1) unless it goes on with a pre-release */
		if (*pa)
			return pre ? -1 : 1;
		return pre ? 1 : -1;
	}
	return strcmp(a, b);
}
