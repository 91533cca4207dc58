/* Version order of tags and the release tag patterns of each dialect. */
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

static int digits(const char **p, int min, int max)
{
	int n = 0;
	while (isdigit((unsigned char)**p)) {
		(*p)++;
		n++;
	}
	return n >= min && n <= max;
}

/* "-rcN" at p (when allowed), then the end. */
static int end_or_rc(const char *p, int rc)
{
	if (!*p)
		return 1;
	if (rc && strncmp(p, "-rc", 3) == 0) {
		p += 3;
		return digits(&p, 1, 3) && !*p;
	}
	return 0;
}

int mev_tag_is_release(mev_dialect d, const char *tag, int rc)
{
	const char *p = tag;
	switch (d) {
	case MEV_DIALECT_UBOOT:
		if (*p++ != 'v' || !digits(&p, 4, 4) || *p++ != '.' || !digits(&p, 2, 2))
			return 0;
		return end_or_rc(p, rc);
	case MEV_DIALECT_XEN:
		if (strncmp(p, "RELEASE-", 8) != 0)
			return 0;
		p += 8;
		if (!digits(&p, 1, 3) || *p++ != '.' || !digits(&p, 1, 3) || *p++ != '.' ||
		    !digits(&p, 1, 3))
			return 0;
		return end_or_rc(p, rc);
	case MEV_DIALECT_QEMU:
		if (*p++ != 'v' || !digits(&p, 1, 3) || *p++ != '.' || !digits(&p, 1, 3) ||
		    *p++ != '.' || !digits(&p, 1, 3))
			return 0;
		return end_or_rc(p, rc);
	default: /* Linux: vX.Y or vX.Y.Z */
		if (*p++ != 'v' || !digits(&p, 1, 3) || *p++ != '.' || !digits(&p, 1, 3))
			return 0;
		if (*p == '.') {
			p++;
			if (!digits(&p, 1, 3))
				return 0;
		}
		return end_or_rc(p, rc);
	}
}
