/* QEMU: vX.Y.Z releases, one MAINTAINERS read with any field letter and no N:. */
#include "dialect_internal.h"

static int guess(const mev_tree *t)
{
	return mev__dialect_file(t, "qemu-options.hx") ||
	       (mev__dialect_dir(t, "hw") && mev__dialect_dir(t, "target"));
}

/* its script takes m/^(.):/ as a field line, reads # lines, has no N: */
static void defaults(mev_rules *r)
{
	r->discover = MEV_DISCOVER_TOP;
	r->drop_comments = 0;
	r->any_type = 1;
	r->no_n = 1;
}

/* vX.Y.Z (v8.2.0) */
static int is_release(const char *tag, int rc)
{
	const char *p = tag;
	if (*p++ != 'v' || !mev__tag_digits(&p, 1, 3) || *p++ != '.' || !mev__tag_digits(&p, 1, 3) ||
	    *p++ != '.' || !mev__tag_digits(&p, 1, 3))
		return 0;
	return mev__tag_end_or_rc(p, rc);
}

/* v8.2.0 starts line 8.2, v8.2.1 .. are its stable releases */
static mev_tag_kind line(char *out, size_t size, const char *tag)
{
	return mev__tag_line_of(out, size, tag + 1, 2);
}

const mev__dialect_def mev__dialect_qemu = {
	.info = {
		.name = "qemu",
		.display = "QEMU",
		.tags = "vX.Y.0 (vX.Y.Z with --line X.Y)",
		.rc_tags = "vX.Y.Z-rcN",
		.files = "MAINTAINERS",
		.detect = "qemu-options.hx, or hw/ and target/",
	},
	.guess = guess,
	.defaults = defaults,
	.is_release = is_release,
	.line = line,
};
