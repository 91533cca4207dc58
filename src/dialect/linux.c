/* Linux: vX.Y and vX.Y.Z releases; the dialect of any tree no other one claims. */
#include "dialect_internal.h"

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

const mev__dialect_def mev__dialect_linux = {
	.info = {
		.name = "linux",
		.display = "Linux",
		.tags = "vX.Y and vX.Y.Z",
		.rc_tags = "vX.Y-rcN and vX.Y.Z-rcN",
		.files = "MAINTAINERS",
		.detect = "any tree that is none of the others",
	},
	.guess = NULL, /* the first row: the fallback */
	.defaults = defaults,
	.is_release = is_release,
};
