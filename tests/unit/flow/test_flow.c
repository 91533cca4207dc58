/* Unit tests of the patch flow's message reading: trailers, identities, tree URLs, merge subjects. */
#include "test.h"
#include "flow/flow_internal.h"

typedef struct {
	char got[1024];
} acc;

static int collect(void *ctx, mev_trailer_kind kind, const char *v, size_t len)
{
	acc *a = ctx;
	size_t n = strlen(a->got);
	snprintf(a->got + n, sizeof a->got - n, "%s=%.*s;", mev_trailer_name(kind), (int)len, v);
	return 0;
}

static const char *trailers(const char *msg)
{
	static acc a;
	a.got[0] = '\0';
	mev__flow_trailers(msg, strlen(msg), collect, &a);
	return a.got;
}

static void test_trailers(void)
{
	CHECK_STR(trailers("fix\n\nbody\n\nSigned-off-by: A <a@x>\nAcked-by: B <b@x>\n"),
		  "Signed-off-by=A <a@x>;Acked-by=B <b@x>;");
	/* case-insensitive keys, trailing blank lines, white space around values */
	CHECK_STR(trailers("fix\n\nsigned-off-by:   A <a@x>  \nREVIEWED-BY: C <c@x>\n\n\n"),
		  "Signed-off-by=A <a@x>;Reviewed-by=C <c@x>;");
	/* the title alone is never a trailer block */
	CHECK_STR(trailers("Signed-off-by: A <a@x>\n"), "");
	CHECK_STR(trailers("fix\nSigned-off-by: A <a@x>\n"), "");
	/* only the last paragraph counts */
	CHECK_STR(trailers("fix\n\nAcked-by: A <a@x>\n\nsome text\n"), "");
	/* a mixed block needs a git-made trailer and one trailer line in four */
	CHECK_STR(trailers("fix\n\nsee this\nSigned-off-by: A <a@x>\nLink: https://l/1\n"),
		  "Signed-off-by=A <a@x>;Link=https://l/1;");
	CHECK_STR(trailers("fix\n\nsee this\nand this\nand that\nand more\nTested-by: T <t@x>\n"), "");
	/* continuation lines, cherry-pick lines, unknown keys, malformed lines */
	CHECK_STR(trailers("fix\n\nCc: x <x@x>\n  more\n(cherry picked from commit abc)\n"
			   "Signed-off-by: A <a@x>\n"), "Signed-off-by=A <a@x>;");
	/* one trailer line and one other: no git-made trailer, no block */
	CHECK_STR(trailers("fix\n\nSigned-off-by A\nAcked-by:\n"), "");
	CHECK_STR(trailers("fix\n\nAcked-by:\n"), "Acked-by=;");
	CHECK_STR(trailers("fix\n\nCo-developed-by: D <d@x>\nReported-by: R <r@x>\n"),
		  "Co-developed-by=D <d@x>;Reported-by=R <r@x>;");
	/* bytes that are not UTF-8 pass through */
	CHECK_STR(trailers("fix\n\nSigned-off-by: J\366rg <j@x>\n"), "Signed-off-by=J\366rg <j@x>;");
	CHECK_STR(trailers(""), "");
	CHECK_STR(trailers("\n\n\n"), "");
	/* notes after git's "---" divider are no part of the message (Xen
	 * 70d597d0: "---\nv2: ..." committed under the trailers) */
	CHECK_STR(trailers("fix\n\nSigned-off-by: A <a@x>\nAcked-by: B <b@x>\n\n---\nv2: more\n"),
		  "Signed-off-by=A <a@x>;Acked-by=B <b@x>;");
	CHECK_STR(trailers("fix\n\nSigned-off-by: A <a@x>\n--- a/x.c\n+++ b/x.c\n"), "Signed-off-by=A <a@x>;");
	/* "---" with no white space after it, or not at a line's start, is text */
	CHECK_STR(trailers("fix\n\nSigned-off-by: A <a@x>\n\n----\nv2\n"), "");
	CHECK_STR(trailers("fix\n\nSigned-off-by: A <a@x>\n\nx ---\nv2\n"), "");
}

static void ident(const char *v, const char *name, const char *email)
{
	mev__flow_span n, e;
	char nb[256], eb[256];
	mev__flow_ident(&n, &e, v, strlen(v));
	snprintf(nb, sizeof nb, "%.*s", (int)n.len, n.p);
	snprintf(eb, sizeof eb, "%.*s", (int)e.len, e.p);
	CHECK_STR(nb, name);
	CHECK_STR(eb, email);
}

static void test_ident(void)
{
	ident("Ann Arm <ann@x.org>", "Ann Arm", "ann@x.org");
	ident("  \"Ann, Arm\" <ann@x.org> # v5.10+", "Ann, Arm", "ann@x.org");
	ident("ann@x.org", "", "ann@x.org");
	ident("Ann ann@x.org", "Ann", "ann@x.org");
	ident("Ann Arm", "Ann Arm", "");
	ident("Ann <ann@x.org", "Ann", "ann@x.org");
	ident("", "", "");
}

static const char *url(int merge, const char *s)
{
	static mev_buf b;
	int rc = merge == 1 ? mev__flow_merge_tree(&b, s, strlen(s))
		 : merge == 2 ? mev__flow_tline(&b, s, strlen(s)) : mev__flow_url(&b, s, strlen(s));
	CHECK_INT(rc, 0);
	mev__buf_puts(&b, "");
	return b.ptr;
}

static void test_urls(void)
{
	CHECK_STR(url(0, "git://git.Denx.DE/u-boot-arm.git/"), "git.denx.de/u-boot-arm");
	CHECK_STR(url(0, "https://source.denx.de/u-boot/custodians/u-boot-imx.git"),
		  "source.denx.de/u-boot/custodians/u-boot-imx");
	CHECK_STR(url(0, "git@github.com:u-boot/u-boot.git"), "github.com/u-boot/u-boot");
	CHECK_STR(url(0, "ssh://git@host/x/"), "host/x");
	CHECK_STR(url(2, "git git://git.kernel.org/pub/scm/x.git next"), "git.kernel.org/pub/scm/x");
	CHECK_STR(url(2, "git https://a.org/b"), "a.org/b");
	CHECK_STR(url(2, "https://a.org/b.git"), "a.org/b");
	CHECK_STR(url(2, "quilt http://a.org/q/"), "a.org/q");
	CHECK_STR(url(1, "Merge tag 'u-boot-imx-master-20240330' of https://source.denx.de/u-boot/custodians/u-boot-imx"),
		  "source.denx.de/u-boot/custodians/u-boot-imx");
	CHECK_STR(url(1, "Merge branch 'master' of git://git.denx.de/u-boot-arm into next"),
		  "git.denx.de/u-boot-arm");
	CHECK_STR(url(1, "Merge branches 'a' and 'b' of git://h/x"), "h/x");
	CHECK_STR(url(1, "Merge git://git.denx.de/u-boot-usb"), "git.denx.de/u-boot-usb");
	CHECK_STR(url(1, "Merge https://source.denx.de/u-boot/custodians/u-boot-sh master"),
		  "source.denx.de/u-boot/custodians/u-boot-sh");
	CHECK_STR(url(1, "Merge branch 'next'"), "");
	CHECK_STR(url(1, "Merge branch 'x' into next"), "");
	CHECK_STR(url(1, "Merge tag 'v2024.01-rc1'"), "");
	CHECK_STR(url(1, "Merge patch series \"fix it\""), "");
	CHECK_STR(url(1, "Merge remote-tracking branch 'origin/x'"), "");
	CHECK_STR(url(1, "Revert \"Merge tag 'x' of git://h/y\""), "");
	CHECK_STR(url(1, "Merge tag 'x' of"), "");
	CHECK_STR(url(1, "Merge tag 'x"), "");
}

int main(void)
{
	RUN(test_trailers);
	RUN(test_ident);
	RUN(test_urls);
	return test_failures ? 1 : 0;
}
