/* Linux: vX.Y and vX.Y.Z releases; the dialect of any tree no other one claims. */
#include "dialect_internal.h"

#include <string.h>

static void defaults(mev_rules *r)
{
	r->utf8 = 1;
}

/* vX.Y or vX.Y.Z (v2.6.39, v6.1), each number of one to three digits. */
static int is_release(const char *tag, int rc)
{
	const char *p = tag;
	if (*p++ != 'v' || !mev__tag_digits(&p, 1, 3) || *p++ != '.' || !mev__tag_digits(&p, 1, 3) ||
	    !mev__tag_point(&p, 3))
		return 0;
	return mev__tag_end_or_rc(p, rc);
}

/* v6.1 starts line 6.1, v6.1.5 is one of its stable releases; before 3.0
 * the line of development went v2.6.11 .. v2.6.39 (their stable releases,
 * v2.6.39.4, are no release tags here) */
static mev_tag_kind line(char *out, size_t size, const char *tag)
{
	return mev__tag_line_of(out, size, tag + 1, strncmp(tag, "v2.", 3) == 0 ? 3 : 2);
}

const mev__dialect_def mev__dialect_linux = {
	.info = {
		.name = "linux",
		.display = "Linux",
		.tags = "vX.Y and v2.6.Z (vX.Y.Z with --line X.Y)",
		.rc_tags = "vX.Y-rcN and vX.Y.Z-rcN",
		.files = "MAINTAINERS",
		.detect = "any tree that is none of the others",
	},
	.guess = NULL, /* the first row: the fallback */
	.defaults = defaults,
	.is_release = is_release,
	.line = line,
};
