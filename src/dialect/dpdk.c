/* DPDK: vYY.MM releases, one MAINTAINERS with underlined group headings, read by the kernel's script. */
#include "dialect_internal.h"

#include <string.h>

/* testpmd's folder and the libraries' (no other dialect's tree has app/test-pmd/) */
static int guess(const mev_tree *t)
{
	return mev__dialect_dir(t, "app/test-pmd") && mev__dialect_dir(t, "lib");
}

/*
 * DPDK has no get_maintainer.pl: devtools/get-maintainer.sh runs the
 * kernel's (DPDK_GETMAINTAINER_PATH) with --no-tree.  Its rules are the
 * kernel's script of Linux 6.12, the one docs/matching.md checks DPDK
 * against: ./MAINTAINERS, fields ^([A-Z]):, N: on, '#' lines skipped,
 * MAINTAINERS decoded as UTF-8 (mev_rules_default() and Linux's).
 */
static void defaults(mev_rules *r)
{
	r->utf8 = 1;
}

/*
 * v2.0.0 .. v2.2.0, then vYY.MM (v16.04) and the stable releases
 * vYY.MM.N (v20.11.1); with rc also vYY.MM-rcN and vYY.MM.N-rcN.
 */
static int is_release(const char *tag, int rc)
{
	const char *p = tag;
	if (*p++ != 'v')
		return 0;
	if (p[0] == '2' && p[1] == '.') {
		p += 2;
		if (!mev__tag_digits(&p, 1, 2) || *p++ != '.' || !mev__tag_digits(&p, 1, 2))
			return 0;
		return mev__tag_end_or_rc(p, rc);
	}
	if (!mev__tag_digits(&p, 2, 2) || *p++ != '.' || !mev__tag_digits(&p, 2, 2) ||
	    strncmp(tag + 1, "16", 2) < 0 || !mev__tag_point(&p, 3))
		return 0;
	return mev__tag_end_or_rc(p, rc);
}

/* v20.11 starts line 20.11, v20.11.1 .. v20.11.10 are its LTS releases;
 * v2.2.0 line 2.2 */
static mev_tag_kind line(char *out, size_t size, const char *tag)
{
	return mev__tag_line_of(out, size, tag + 1, 2);
}

const mev__dialect_def mev__dialect_dpdk = {
	.info = {
		.name = "dpdk",
		.display = "DPDK",
		.tags = "v2.X.0 and vYY.MM (vYY.MM.N with --line YY.MM)",
		.rc_tags = "v2.X.Y-rcN, vYY.MM-rcN and vYY.MM.N-rcN",
		.files = "MAINTAINERS (rules of the kernel's get_maintainer.pl, which devtools/get-maintainer.sh runs)",
		.detect = "app/test-pmd/ and lib/",
	},
	.guess = guess,
	.defaults = defaults,
	.is_release = is_release,
	.line = line,
	.script = "",
};
