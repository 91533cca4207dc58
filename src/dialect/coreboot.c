/* coreboot: 4.X and YY.MM releases, one MAINTAINERS, its script in util/scripts/. */
#include "dialect_internal.h"

#include <string.h>

/* the boards' folder and the northbridges' */
static int guess(const mev_tree *t)
{
	return mev__dialect_dir(t, "src/mainboard") && mev__dialect_dir(t, "src/northbridge");
}

/*
 * Its script (util/scripts/get_maintainer.pl, the kernel's of 2017 since
 * coreboot 4.6): only ./MAINTAINERS, fields ^([A-Z]):, N: lines, and '#'
 * lines read as any other non-field line (they can be titles).
 */
static void defaults(mev_rules *r)
{
	r->discover = MEV_DISCOVER_TOP;
	r->drop_comments = 0;
}

/*
 * 4.X and 4.X.Y (4.8.1, 4.22.01), then from 2024 on YY.MM and YY.MM.NN
 * (24.02, 24.02.01).  No release candidates are tagged: --rc adds none.
 */
static int is_release(const char *tag, int rc)
{
	const char *p = tag;
	(void)rc;
	if (p[0] == '4' && p[1] == '.') {
		p += 2;
		if (!mev__tag_digits(&p, 1, 2))
			return 0;
	} else if (!mev__tag_digits(&p, 2, 2) || *p++ != '.' || !mev__tag_digits(&p, 2, 2) ||
		   strncmp(tag, "20", 2) < 0) {
		return 0;
	}
	return mev__tag_point(&p, 2) && !*p;
}

/* 4.22 and 24.02 start lines 4.22 and 24.02; 4.22.01, 4.8.1 and 24.02.01 are
 * their point releases */
static mev_tag_kind line(char *out, size_t size, const char *tag)
{
	return mev__tag_line_of(out, size, tag, 2);
}

const mev__dialect_def mev__dialect_coreboot = {
	.info = {
		.name = "coreboot",
		.display = "coreboot",
		.tags = "4.X and YY.MM (4.X.Y and YY.MM.NN with --line 4.X or YY.MM)",
		.rc_tags = "none (coreboot tags no release candidates)",
		.files = "MAINTAINERS (rules from util/scripts/get_maintainer.pl)",
		.detect = "src/mainboard/ and src/northbridge/",
	},
	.guess = guess,
	.defaults = defaults,
	.is_release = is_release,
	.line = line,
	.script = "util/scripts/get_maintainer.pl",
};
