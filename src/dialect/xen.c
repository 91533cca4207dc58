/* Xen: RELEASE-X.Y.Z releases, one MAINTAINERS, {a,b} lists in patterns. */
#include "dialect_internal.h"

#include <string.h>

/* The hypervisor's folder; or xen/ next to tools/ where Linux's Kbuild is not. */
static int guess(const mev_tree *t)
{
	return mev__dialect_dir(t, "xen/common") ||
	       (mev__dialect_dir(t, "xen") && mev__dialect_dir(t, "tools") &&
		!mev__dialect_file(t, "Kbuild"));
}

/* its script reads # lines and turns {a,b} into (a|b) */
static void defaults(mev_rules *r)
{
	r->discover = MEV_DISCOVER_TOP;
	r->drop_comments = 0;
	r->braces = 1;
}

/* RELEASE-X.Y.Z (RELEASE-4.22.0) */
static int is_release(const char *tag, int rc)
{
	const char *p = tag;
	if (strncmp(p, "RELEASE-", 8) != 0)
		return 0;
	p += 8;
	if (!mev__tag_digits(&p, 1, 3) || *p++ != '.' || !mev__tag_digits(&p, 1, 3) ||
	    *p++ != '.' || !mev__tag_digits(&p, 1, 3))
		return 0;
	return mev__tag_end_or_rc(p, rc);
}

/* RELEASE-4.17.0 starts line 4.17, RELEASE-4.17.1 .. RELEASE-4.17.7 are its
 * maintenance releases */
static mev_tag_kind line(char *out, size_t size, const char *tag)
{
	return mev__tag_line_of(out, size, tag + 8, 2);
}

const mev__dialect_def mev__dialect_xen = {
	.info = {
		.name = "xen",
		.display = "Xen",
		.tags = "RELEASE-X.Y.0 (RELEASE-X.Y.Z with --line X.Y)",
		.rc_tags = "RELEASE-X.Y.Z-rcN",
		.files = "MAINTAINERS",
		.detect = "xen/common/, or xen/ and tools/ without Kbuild",
	},
	.guess = guess,
	.defaults = defaults,
	.is_release = is_release,
	.line = line,
};
