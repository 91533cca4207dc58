/* U-Boot: vYYYY.MM releases, a MAINTAINERS file beside each board. */
#include "dialect_internal.h"

#include <string.h>

static int guess(const mev_tree *t)
{
	return mev__dialect_dir(t, "board") && mev__dialect_dir(t, "include/configs");
}

/* --find-maintainer-files over the whole tree, as its .get_maintainer.conf asks */
static void defaults(mev_rules *r)
{
	r->find_files = 1;
	strcpy(r->mpath, ".");
}

/* vYYYY.MM (v2024.01), a maintenance release vYYYY.MM.NN (v2023.07.02) */
static int is_release(const char *tag, int rc)
{
	const char *p = tag;
	if (*p++ != 'v' || !mev__tag_digits(&p, 4, 4) || *p++ != '.' || !mev__tag_digits(&p, 2, 2) ||
	    !mev__tag_point(&p, 2))
		return 0;
	return mev__tag_end_or_rc(p, rc);
}

static const char *const aliases[] = { "u-boot", NULL };

/* v2023.07 starts line 2023.07; v2023.07.02 is one of its maintenance releases */
static mev_tag_kind line(char *out, size_t size, const char *tag)
{
	return mev__tag_line_of(out, size, tag + 1, 2);
}

const mev__dialect_def mev__dialect_uboot = {
	.info = {
		.name = "uboot",
		.aliases = aliases,
		.display = "U-Boot",
		.tags = "vYYYY.MM (vYYYY.MM.NN with --line YYYY.MM)",
		.rc_tags = "vYYYY.MM-rcN",
		.files = "MAINTAINERS and every */MAINTAINERS (board/VENDOR/BOARD/MAINTAINERS)",
		.detect = "board/ and include/configs/",
	},
	.guess = guess,
	.defaults = defaults,
	.is_release = is_release,
	.line = line,
};
