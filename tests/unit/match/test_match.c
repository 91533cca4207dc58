/*
 * Unit tests of the matcher and of the pattern compiler: each rule of
 * get_maintainer.pl with its counter-example, then the indexed matcher against
 * the brute-force reference on random patterns and paths.
 *
 * The expectations of the fixed cases were confirmed by running the real
 * scripts (Linux 6.12 and U-Boot 2024.01 get_maintainer.pl) on a tree with
 * the same MAINTAINERS and files.
 */
#include "test.h"
#include "rng.h"
#include "maintevo/maintainers.h"
#include "maintevo/match.h"
#include "maintainers/maintainers_shared.h"
#include "util/buf.h"
#include "util/text.h"

#include <stdint.h>


static mev_rules rules_utf8(int utf8)
{
	mev_rules r;
	mev_rules_default(&r, MEV_DIALECT_LINUX);
	r.utf8 = utf8 ? 1 : 0;
	return r;
}

/* A parsed MAINTAINERS with both matchers. */
typedef struct {
	mev_maint *maint;
	mev_matcher *idx, *brute;
} fixture;

static int fixture_new(fixture *f, const mev_rules *r, const char *text)
{
	mev_maint_input in = { "MAINTAINERS", text, strlen(text) };
	memset(f, 0, sizeof *f);
	CHECK_INT(mev_maint_parse(&f->maint, r, &in, 1, NULL), 0);
	if (!f->maint)
		return -1;
	CHECK_INT(mev_matcher_new(&f->idx, f->maint, 0), 0);
	CHECK_INT(mev_matcher_new(&f->brute, f->maint, MEV_MATCH_BRUTE), 0);
	return f->idx && f->brute ? 0 : -1;
}

static void fixture_free(fixture *f)
{
	mev_matcher_free(f->idx);
	mev_matcher_free(f->brute);
	mev_maint_free(f->maint);
	memset(f, 0, sizeof *f);
}

/* Titles of the sections covering `path`, in section order, "A,B" ("-" for
 * none).  Both matchers must agree. */
static const char *covering(fixture *f, const char *path, size_t len, int is_dir)
{
	static char out[4][1024];
	static int k;
	const uint32_t *ids = NULL, *bids = NULL;
	size_t n = 0, bn = 0;
	char *b;
	k = (k + 1) % 4;
	b = out[k];
	b[0] = '\0';
	CHECK_INT(mev_matcher_match(&ids, &n, f->idx, path, len, is_dir), 0);
	CHECK_INT(mev_matcher_match(&bids, &bn, f->brute, path, len, is_dir), 0);
	/* ids of the first call may be overwritten only by the same matcher */
	CHECK_INT(n, bn);
	if (n == bn && n && memcmp(ids, bids, n * sizeof *ids) != 0)
		CHECK(!"indexed and brute matchers disagree");
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(b);
		CHECK(i == 0 || ids[i - 1] < ids[i]); /* sorted, unique */
		snprintf(b + l, sizeof out[0] - l, "%s%s", i ? "," : "", mev_maint_sections(f->maint)[ids[i]].title);
	}
	return n ? b : "-";
}

static const char *cov(fixture *f, const char *path) { return covering(f, path, strlen(path), 0); }
static const char *cov_dir(fixture *f, const char *path) { return covering(f, path, strlen(path), 1); }

static int diags(const mev_maint *m, const char *where, const char *what)
{
	int n = 0;
	for (size_t i = 0; i < mev_maint_diag_count(m); i++) {
		char buf[1024];
		mev_maint_diag_format(buf, sizeof buf, m, &mev_maint_diags(m)[i]);
		if (strncmp(buf, where, strlen(where)) == 0 && strstr(buf, what))
			n++;
	}
	return n;
}

/* --- each rule with its counter-example ---------------------------------- */

static const char *const rules_text =
	"NET\n"
	"F:\tdrivers/net/\n"
	"X:\tdrivers/net/wireless/\n"
	"\n"
	"SERIAL8250\n"
	"F:\tdrivers/tty/serial/8250*\n"
	"\n"
	"MM\n"
	"F:\tinclude/linux/mm.h\n"
	"\n"
	"ARM\n"
	"F:\tarch/arm/Kconfig\n"
	"\n"
	"QMARK\n"
	"F:\tlib/foo?.c\n"
	"F:\tfo?\n"
	"\n"
	"STAR\n"
	"F:\tarch/*/boot/\n"
	"F:\tfs/*/Kconfig\n"
	"\n"
	"CLASS\n"
	"F:\tsound/[ab]*.c\n"
	"F:\tcrypto/x[.-]y\n"
	"F:\tc++/\n"
	"\n"
	"STAGING\n"
	"F:\tstaging/\n"
	"X:\tstaging/bad/\n"
	"N:\tqcom\n"
	"\n"
	"NREGEX\n"
	"N:\tfoo bar\n"
	"N:\t(?<!uni)versal\n"
	"N:\tzz # a /x comment\n"
	"\n"
	"DOCS\n"
	"F:\tDocumentation/\n";

static void test_rules(void)
{
	fixture f;
	mev_rules r = rules_utf8(1);
	if (fixture_new(&f, &r, rules_text)) {
		fixture_free(&f);
		return;
	}
	/* trailing '/': a prefix, at any depth */
	CHECK_STR(cov(&f, "drivers/net/a.c"), "NET");
	CHECK_STR(cov(&f, "drivers/net/ethernet/intel/e1000/e1000_main.c"), "NET");
	CHECK_STR(cov(&f, "drivers/network.c"), "-");
	CHECK_STR(cov(&f, "drivers/net"), "-");
	CHECK_STR(cov(&f, "xdrivers/net/a.c"), "-"); /* anchored at the start */
	/* X: takes the section away */
	CHECK_STR(cov(&f, "drivers/net/wireless/ath/ath9k/main.c"), "-");
	CHECK_STR(cov(&f, "drivers/net/wirelessx.c"), "NET");

	/* no trailing '/': the same number of '/' */
	CHECK_STR(cov(&f, "drivers/tty/serial/8250_core.c"), "SERIAL8250");
	CHECK_STR(cov(&f, "drivers/tty/serial/8250/8250_core.c"), "-");
	CHECK_STR(cov(&f, "drivers/tty/serial/8250"), "SERIAL8250");
	CHECK_STR(cov_dir(&f, "drivers/tty/serial/8250"), "-");

	/* no end anchor */
	CHECK_STR(cov(&f, "include/linux/mm.h"), "MM");
	CHECK_STR(cov(&f, "include/linux/mm.hx"), "MM");
	CHECK_STR(cov(&f, "include/linux/mm_types.h"), "-");
	CHECK_STR(cov(&f, "include/linux/mmxh"), "-"); /* '.' was escaped */
	CHECK_STR(cov(&f, "arch/arm/Kconfig"), "ARM");
	CHECK_STR(cov(&f, "arch/arm/Kconfig.debug"), "ARM");
	CHECK_STR(cov(&f, "arch/arm/Kconfig/x"), "-");

	/* '?' is one character, '*' any run, both may cross '/' in the regex
	 * but the slash count still applies without a trailing '/' */
	CHECK_STR(cov(&f, "lib/foo1.c"), "QMARK");
	CHECK_STR(cov(&f, "lib/foo.c"), "-");
	CHECK_STR(cov(&f, "lib/fooab.c"), "-");
	CHECK_STR(cov(&f, "lib/foo/.c"), "-");
	CHECK_STR(cov(&f, "foo"), "QMARK");
	CHECK_STR(cov_dir(&f, "foo"), "-"); /* 'foo/' has a '/' more than 'fo.' */
	CHECK_STR(cov(&f, "arch/arm/boot/dts/a.dts"), "STAR");
	CHECK_STR(cov(&f, "arch/arm/mach-foo/boot/x"), "STAR");
	CHECK_STR(cov(&f, "arch/boot/x"), "-");
	CHECK_STR(cov(&f, "fs/ext4/Kconfig"), "STAR");
	CHECK_STR(cov(&f, "fs/ext4/sub/Kconfig"), "-");
	CHECK_STR(cov(&f, "fs/Kconfig"), "-");

	/* '[...]' stays a character class; other regex syntax keeps its meaning */
	CHECK_STR(cov(&f, "sound/a1.c"), "CLASS");
	CHECK_STR(cov(&f, "sound/b.c"), "CLASS");
	CHECK_STR(cov(&f, "sound/c.c"), "-");
	CHECK_STR(cov(&f, "sound/[ab]x.c"), "-");
	CHECK_STR(cov(&f, "crypto/x.y"), "CLASS");
	CHECK_STR(cov(&f, "crypto/x-y"), "CLASS");
	CHECK_STR(cov(&f, "crypto/xzy"), "-");
	CHECK_STR(cov(&f, "c/x"), "CLASS");   /* 'c++' is a possessive 'c+' */
	CHECK_STR(cov(&f, "cc/x"), "CLASS");
	CHECK_STR(cov(&f, "c++/x"), "-");

	/* N: anywhere in the path, directories included; X: hides N: hits */
	CHECK_STR(cov(&f, "staging/a.c"), "STAGING");
	CHECK_STR(cov(&f, "staging/bad/x.c"), "-");
	CHECK_STR(cov(&f, "staging/bad/qcom.c"), "-");
	CHECK_STR(cov(&f, "drivers/qcom/x.c"), "STAGING");
	CHECK_STR(cov(&f, "drivers/net/qcom/x.c"), "NET,STAGING");
	CHECK_STR(cov(&f, "drivers/net/wireless/qcom/x.c"), "STAGING");
	CHECK_STR(cov(&f, "arch/arm64/boot/dts/qcom/x.dts"), "STAR,STAGING");

	/* N: is Perl /x: white space and #-comments are ignored */
	CHECK_STR(cov(&f, "a/foobar.c"), "NREGEX");
	CHECK_STR(cov(&f, "a/foo bar.c"), "-");
	CHECK_STR(cov(&f, "x/zz.c"), "NREGEX");
	CHECK_STR(cov(&f, "x/z z.c"), "-");
	/* N: lookbehind */
	CHECK_STR(cov(&f, "drivers/versal.c"), "NREGEX");
	CHECK_STR(cov(&f, "drivers/universal.c"), "-");
	CHECK_STR(cov(&f, "universal/versal.c"), "NREGEX");

	/* a directory (or a link to one) is matched as "path/" */
	CHECK_STR(cov(&f, "Documentation"), "-");
	CHECK_STR(cov_dir(&f, "Documentation"), "DOCS");
	CHECK_STR(cov_dir(&f, "drivers/net"), "NET");
	CHECK_STR(cov_dir(&f, "drivers/net/wireless"), "-");
	CHECK_STR(cov_dir(&f, "Documentation/foo"), "DOCS");

	/* the result is stable across calls */
	CHECK_STR(cov(&f, "drivers/net/a.c"), "NET");
	CHECK_INT(mev_matcher_limit_hits(f.idx), 0);
	CHECK_INT(mev_maint_diag_count(f.maint), 0);
	fixture_free(&f);
}

static void test_no_match_first(void)
{
	/* a miss before any hit: no sections (the id pointer may be NULL) */
	fixture f;
	mev_rules r = rules_utf8(1);
	const uint32_t *ids = NULL;
	size_t n = 99;
	if (fixture_new(&f, &r, "A\nF:\ta/\n") == 0) {
		CHECK_INT(mev_matcher_match(&ids, &n, f.idx, "b/x", 3, 0), 0);
		CHECK_INT(n, 0);
		n = 99;
		CHECK_INT(mev_matcher_match(&ids, &n, f.brute, "b/x", 3, 0), 0);
		CHECK_INT(n, 0);
		CHECK_STR(cov(&f, "a/x"), "A");
		CHECK_STR(cov(&f, "b/x"), "-");
	}
	fixture_free(&f);
	/* no sections at all */
	if (fixture_new(&f, &r, "just a preamble\n") == 0) {
		CHECK_INT(mev_maint_section_count(f.maint), 0);
		CHECK_STR(cov(&f, "a/x"), "-");
	}
	fixture_free(&f);
	mev_matcher_free(NULL);
}

static void test_the_rest(void)
{
	fixture f;
	mev_rules r = rules_utf8(1);
	if (fixture_new(&f, &r, "SUB\nF:\tsub/\n\nTHE REST\nF:\t*\nF:\t*/\n\nTOP\nF:\t*\n")) {
		fixture_free(&f);
		return;
	}
	CHECK_STR(cov(&f, "README"), "THE REST,TOP");
	CHECK_STR(cov(&f, "sub/x.c"), "SUB,THE REST");
	CHECK_STR(cov(&f, "a/b/c/d"), "THE REST");
	CHECK_STR(cov(&f, ""), "THE REST,TOP");
	fixture_free(&f);
}

static void test_invalid_regex(void)
{
	fixture f;
	mev_rules r = rules_utf8(1);
	if (fixture_new(&f, &r,
			"BAD\n"
			"F:\tfoo(bar\n"
			"N:\t[abc\n"
			"F:\tok/\n"
			"\n"
			"BADX\n"
			"F:\tbx/\n"
			"X:\tbx/(\n"
			"\n"
			"BADN\n"
			"N:\ta{2,1}\n")) {
		fixture_free(&f);
		return;
	}
	/* an invalid pattern matches nothing (the script would die) */
	CHECK_STR(cov(&f, "foo(bar"), "-");
	CHECK_STR(cov(&f, "foobar"), "-");
	CHECK_STR(cov(&f, "[abc"), "-");
	CHECK_STR(cov(&f, "x/aa"), "-");
	CHECK_STR(cov(&f, "ok/x"), "BAD");
	/* an invalid X: excludes nothing */
	CHECK_STR(cov(&f, "bx/(y"), "BADX");
	CHECK_STR(cov(&f, "bx/y"), "BADX");
	/* each is reported once, by both matchers' construction */
	CHECK(diags(f.maint, "MAINTAINERS:2:", "invalid F: pattern 'foo(bar'") >= 1);
	CHECK(diags(f.maint, "MAINTAINERS:3:", "invalid N: pattern '[abc'") >= 1);
	CHECK(diags(f.maint, "MAINTAINERS:8:", "invalid X: pattern 'bx/('") >= 1);
	CHECK(diags(f.maint, "MAINTAINERS:11:", "invalid N: pattern 'a{2,1}'") >= 1);
	CHECK_INT(diags(f.maint, "", "invalid"), 8); /* 4 patterns x 2 matchers */
	fixture_free(&f);
}

static void test_empty_n(void)
{
	/* Perl: m/$value/x with an empty $value reuses the last successful
	 * pattern, the field-line regex ^([A-Z]):\s*(.*) (checked with the
	 * real 6.12 script: 'A:x' is covered, 'drivers/foo.c' is not) */
	fixture f;
	mev_rules r = rules_utf8(1);
	if (fixture_new(&f, &r, "EMPTYN\nN:\t\n\nOTHER\nF:\tdrivers/\n")) {
		fixture_free(&f);
		return;
	}
	CHECK_STR(cov(&f, "drivers/foo.c"), "OTHER");
	CHECK_STR(cov(&f, "A:x"), "EMPTYN");
	CHECK_STR(cov(&f, "a:x"), "-");
	fixture_free(&f);
}

static void test_utf8_paths(void)
{
	/* Linux 6.12 decodes MAINTAINERS as UTF-8 and reads the path as
	 * ISO-8859-1: 'F: café/' does not cover the UTF-8 path 'café/x' but
	 * covers the Latin-1 one, and \w matches 'é'.  U-Boot's script is all
	 * bytes: the other way round, and \w is ASCII. */
	const char *text = "CAFE\nF:\tcaf\xc3\xa9/\n\nWORD\nN:\tz\\w\\.c\n\nANY\nF:\tx/caf?/\n";
	fixture f;
	mev_rules r = rules_utf8(1);
	if (fixture_new(&f, &r, text) == 0) {
		CHECK_STR(cov(&f, "caf\xc3\xa9/x"), "-");
		CHECK_STR(cov(&f, "caf\xe9/x"), "CAFE");
		CHECK_STR(cov(&f, "caf\xe9/z\xe9.c"), "CAFE,WORD");
		CHECK_STR(cov(&f, "caf\xe9/za.c"), "CAFE,WORD");
		CHECK_STR(cov(&f, "caf\xc3\xa9/z\xc3\xa9.c"), "-");
		/* '?' is one character: one byte of the path */
		CHECK_STR(cov(&f, "x/caf\xe9/1"), "ANY");
		CHECK_STR(cov(&f, "x/caf\xc3\xa9/1"), "-");
		CHECK_INT(mev_maint_diag_count(f.maint), 0);
	}
	fixture_free(&f);

	/* the decoded pattern keeps Unicode semantics on an ASCII path: 'é?'
	 * and 'é{0}' may match nothing (Linux 6.12 covers drivers/foo.c and
	 * caf/x; U-Boot's byte script neither) */
	text = "OPT\nN:\tfoo\xc3\xa9?\\.c\n\nZERO\nF:\tcaf\xc3\xa9{0}/\n";
	if (fixture_new(&f, &r, text) == 0) {
		CHECK_STR(cov(&f, "drivers/foo.c"), "OPT");
		CHECK_STR(cov(&f, "drivers/fooe.c"), "-");
		CHECK_STR(cov(&f, "drivers/foo\xe9.c"), "OPT");
		CHECK_STR(cov(&f, "caf/x"), "ZERO");
		CHECK_STR(cov(&f, "caf\xe9/x"), "-");
	}
	fixture_free(&f);
	r = rules_utf8(0);
	if (fixture_new(&f, &r, text) == 0) {
		CHECK_STR(cov(&f, "drivers/foo.c"), "-");
		CHECK_STR(cov(&f, "drivers/foo\xc3\xa9.c"), "OPT");
		CHECK_STR(cov(&f, "caf/x"), "-");
	}
	fixture_free(&f);

	text = "CAFE\nF:\tcaf\xc3\xa9/\n\nWORD\nN:\tz\\w\\.c\n\nANY\nF:\tx/caf?/\n";
	if (fixture_new(&f, &r, text) == 0) {
		CHECK_STR(cov(&f, "caf\xc3\xa9/x"), "CAFE");
		CHECK_STR(cov(&f, "caf\xe9/x"), "-");
		CHECK_STR(cov(&f, "caf\xe9/z\xe9.c"), "-");
		CHECK_STR(cov(&f, "caf\xe9/za.c"), "WORD");
		CHECK_STR(cov(&f, "x/caf\xe9/1"), "ANY");
		CHECK_STR(cov(&f, "x/caf\xc3\xa9/1"), "-");
	}
	fixture_free(&f);
}

static void test_newline_in_path(void)
{
	/* '.' and '.*' never match '\n' (git allows it in names) */
	fixture f;
	mev_rules r = rules_utf8(1);
	if (fixture_new(&f, &r, "G\nF:\ta/*.c\n\nQ\nF:\tb?c\n\nN\nN:\tx.y\n\nP\nF:\tp/\n")) {
		fixture_free(&f);
		return;
	}
	CHECK_STR(covering(&f, "a/b\nc.c", 7, 0), "-");
	CHECK_STR(covering(&f, "a/bc.c", 6, 0), "G");
	CHECK_STR(covering(&f, "b\nc", 3, 0), "-");
	CHECK_STR(covering(&f, "x\ny", 3, 0), "-");
	CHECK_STR(covering(&f, "p/\n", 3, 0), "P");
	fixture_free(&f);
}

static void test_limits(void)
{
	/* a catastrophic regex runs past the match limit: no match, counted,
	 * one diagnostic per pattern, and disabled from then on */
	fixture f;
	mev_rules r = rules_utf8(0);
	char path[64];
	if (fixture_new(&f, &r, "EVIL\nN:\t(a+)+$\n\nOK\nF:\ta\n")) {
		fixture_free(&f);
		return;
	}
	memset(path, 'a', 40);
	path[40] = '!';
	path[41] = '\0';
	CHECK_STR(cov(&f, path), "OK");
	CHECK_STR(cov(&f, path), "OK");
	CHECK_INT(mev_matcher_limit_hits(f.idx), 1);
	CHECK_INT(diags(f.maint, "MAINTAINERS:2:", "exceeded its matching budget"), 2); /* idx + brute */
	CHECK_STR(cov(&f, "aa"), "OK");
	fixture_free(&f);
}

/* --- randomised: indexed == brute ------------------------------------------ */

static const char *const fx_pieces[] = {
	"a", "b", "/", ".", "*", "?", "[ab]", "x/", "\\", "+", "(", "|", ")", "ab/", "a*/",
	"[^a]", "{1,2}", "\\.", "$", "^", "c", "/", "/", "a", "b", "\xc3\xa9", "\xe9", "(a|b)",
	"[)]", "\\x61", " ", "#",
};
static const char *const n_pieces[] = {
	"a", "b", "/", ".", "*", "?", "[ab]", "x/", "\\", "+", "(", "|", ")", "ab", "a+", "b?",
	" ", "#", "(?=a)", "(?<!b)", "(?!x)", "(?<=a)", "\\x61", "\\x{62}", "\\d", "\\w", "\\b",
	"\\Q", "\\E", "[)]", "(?i)", "\\/", "(a|b)", "{2}", "ver", "sal", "\xc3\xa9", "\xe9", "\\.",
	"c", "[^/]", "$", "^", "\\141", "\\N{U+61}", "\\p{L}", "\\cA", "A:",
};
static const char *const path_pieces[] = {
	"a", "b", "/", ".", "x/", "ab/", "c", "\xc3\xa9", "\xe9", "[ab]", "+", "versal", "A:",
	"a/", "b/", "ab", "ba", "aa", "(", ")", "|", " ", "#", "x", "\x01", "ab.c", "a.b",
};

static void rand_value(char *out, size_t size, const char *const *pieces, size_t np, size_t maxn)
{
	size_t n = 1 + rng_below(maxn), l = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *p = pieces[rng_below(np)];
		size_t pl = strlen(p);
		if (l + pl + 1 >= size)
			break;
		memcpy(out + l, p, pl + 1);
		l += pl;
	}
}

static size_t rand_path(char *out, size_t size)
{
	size_t n = rng_below(9), l = 0;
	for (size_t i = 0; i < n; i++) {
		const char *p = path_pieces[rng_below(sizeof path_pieces / sizeof *path_pieces)];
		size_t pl = strlen(p);
		if (rng_below(400) == 0)
			p = "\n", pl = 1;
		if (l + pl >= size)
			break;
		memcpy(out + l, p, pl);
		l += pl;
	}
	out[l] = '\0';
	return l;
}

/* Mostly well-formed regex atoms, so that most random N: patterns compile. */
static const char *const n_atoms[] = {
	"a", "b", "ab", "ba", "x", "/", "\\.", ".", "[ab]", "[^/]", "a+", "b?", "a*", "x{2}", "a{1,2}",
	"(?=a)", "(?<!b)", "(?!x)", "(?<=a)", "\\x61", "\\x{62}", "\\141", "\\d", "\\w", "\\b",
	"\\N{U+61}", "\\p{L}", "\\pL", "\\cA", "(a|b)", "(?:ab)", "[)]", "(?![)]xyz)", "\\/",
	" ", "\v", "#x", "ver", "sal", "versal", "\xc3\xa9", "\xc3\xa9?", "\xe9", "A:", "$", "^",
	"\\Qa.b\\E", "(?i)AB", "\\Ka", "a(?#c)b",
};

static void random_round(uint64_t seed, int utf8)
{
	mev_buf text = MEV_BUF_INIT;
	fixture f;
	mev_rules r = rules_utf8(utf8);
	int mismatches = 0, nonempty = 0;
	size_t nsec = 150;

	rng_seed(seed);
	for (size_t s = 0; s < nsec; s++) {
		size_t np = 1 + rng_below(3);
		mev__buf_printf(&text, "S%zu\n", s);
		for (size_t k = 0; k < np; k++) {
			char v[128];
			unsigned t = (unsigned)rng_below(20);
			char type = t < 10 ? 'F' : t < 13 ? 'X' : 'N';
			if (type == 'N' && rng_below(4))
				rand_value(v, sizeof v, n_atoms, sizeof n_atoms / sizeof *n_atoms, 4);
			else if (type == 'N')
				rand_value(v, sizeof v, n_pieces, sizeof n_pieces / sizeof *n_pieces, 5);
			else
				rand_value(v, sizeof v, fx_pieces, sizeof fx_pieces / sizeof *fx_pieces, 7);
			mev__buf_printf(&text, "%c:\t%s\n", type, v);
		}
		mev__buf_puts(&text, "\n");
	}
	if (fixture_new(&f, &r, text.ptr) == 0) {
		CHECK_INT(mev_maint_section_count(f.maint), nsec);
		for (int i = 0; i < 2000; i++) {
			char path[256];
			size_t len = rand_path(path, sizeof path);
			int is_dir = rng_below(5) == 0;
			const uint32_t *ids, *bids;
			size_t n = 0, bn = 0;
			uint32_t copy[512];
			CHECK_INT(mev_matcher_match(&ids, &n, f.idx, path, len, is_dir), 0);
			if (n > 512)
				n = 512;
			memcpy(copy, ids, n * sizeof *ids);
			CHECK_INT(mev_matcher_match(&bids, &bn, f.brute, path, len, is_dir), 0);
			nonempty += n;
			if (n != bn || memcmp(copy, bids, n * sizeof *ids) != 0) {
				if (mismatches++ < 8) {
					fprintf(stderr, "seed %llu utf8 %d: path '%.*s'%s: indexed %zu sections, brute %zu\n",
						(unsigned long long)seed, utf8, (int)len, path, is_dir ? " (dir)" : "", n, bn);
					for (size_t a = 0, b = 0; a < n || b < bn;) {
						uint32_t s;
						const mev_section *sec;
						if (b >= bn || (a < n && copy[a] < bids[b])) {
							s = copy[a++];
						} else if (a >= n || bids[b] < copy[a]) {
							s = bids[b++];
						} else {
							a++, b++;
							continue;
						}
						sec = &mev_maint_sections(f.maint)[s];
						for (uint32_t q = 0; q < sec->field_count; q++) {
							const mev_field *fl = &mev_maint_fields(f.maint)[sec->field_begin + q];
							fprintf(stderr, "    %s %c: '%s' -> '%s'\n", sec->title, fl->type,
								fl->value, fl->regex ? fl->regex : "");
						}
					}
				}
			}
		}
		CHECK_INT(mismatches, 0);
		CHECK(nonempty > 2000); /* the patterns do match things */
	}
	fixture_free(&f);
	mev__buf_free(&text);
}

static void test_random_index_vs_brute(void)
{
	for (uint64_t seed = 1; seed <= 8; seed++)
		random_round(seed, (int)(seed % 2));
}

/* --- the pattern module directly ------------------------------------------ */

/* The path as the pattern module takes it (pattern.c's own helper), and
 * the buffer of its UTF-8 form. */
typedef struct {
	mev__pattern_subject p;
	mev_buf u;
} subject;

static void subject_set(subject *sj, const char *s, size_t len)
{
	if (mev__pattern_subject_set(&sj->p, &sj->u, s, len))
		abort();
}

static void test_pattern_basics(void)
{
	mev__pattern p;
	const char *err = NULL;
	size_t off = 0;
	char eb[256];

	CHECK_INT(mev__pattern_compile(&p, 'F', "drivers/net/.*\\.c", 1, &err, &off, eb, sizeof eb), 0);
	CHECK(err == NULL);
	CHECK_INT(p.kind, MEV__PAT_GLOB);
	CHECK_INT(p.slashes, 2);
	CHECK_INT(p.trailing, 0);
	CHECK_INT(p.prefix_len, 12);
	CHECK(memcmp(p.prefix, "drivers/net/", 12) == 0);
	mev__pattern_free(&p);

	CHECK_INT(mev__pattern_compile(&p, 'X', "sound/[ab]/", 0, &err, &off, eb, sizeof eb), 0);
	CHECK_INT(p.kind, MEV__PAT_PCRE);
	CHECK_INT(p.trailing, 1);
	CHECK_INT(p.prefix_len, 6);
	mev__pattern_free(&p);

	/* under the utf8 rules a non-ASCII pattern needs PCRE2 */
	CHECK_INT(mev__pattern_compile(&p, 'F', "caf\xc3\xa9/", 1, &err, &off, eb, sizeof eb), 0);
	CHECK_INT(p.kind, MEV__PAT_PCRE);
	mev__pattern_free(&p);
	CHECK_INT(mev__pattern_compile(&p, 'F', "caf\xc3\xa9/", 0, &err, &off, eb, sizeof eb), 0);
	CHECK_INT(p.kind, MEV__PAT_GLOB);
	mev__pattern_free(&p);

	CHECK_INT(mev__pattern_compile(&p, 'F', "a(b", 0, &err, &off, eb, sizeof eb), 0);
	CHECK_INT(p.kind, MEV__PAT_NEVER);
	CHECK(err != NULL);
	CHECK_INT(off, 3); /* offset in the regex as written (without '^') */
	mev__pattern_free(&p);

	CHECK_INT(mev__pattern_compile(&p, 'N', "foo bar \\d+ baz", 0, &err, &off, eb, sizeof eb), 0);
	CHECK_INT(p.kind, MEV__PAT_PCRE);
	CHECK_INT(p.must_len, 6);
	CHECK(p.must_len == 6 && memcmp(p.must, "foobar", 6) == 0);
	mev__pattern_free(&p);

	CHECK_INT(mev__pattern_compile(&p, 'N', "(?<!uni)versal", 0, &err, &off, eb, sizeof eb), 0);
	CHECK(p.must_len == 6 && memcmp(p.must, "versal", 6) == 0);
	mev__pattern_free(&p);

	CHECK_INT(mev__pattern_compile(&p, 'N', "a|bcd", 0, &err, &off, eb, sizeof eb), 0);
	CHECK_INT(p.must_len, 0);
	mev__pattern_free(&p);
}

/* Glob programs must agree with PCRE2 on every path. */
static void test_glob_vs_pcre(void)
{
	static const char *const pieces[] = { "a", "b", "/", "\\.", ".", ".*", "x/", "ab", "c", "\xe9" };
	static const char *const ppieces[] = { "a", "b", "/", ".", "x/", "ab", "\xe9", "\xc3\xa9", "c", "\n", "aa" };
	mev__pattern_scratch *sc = NULL;
	subject sj = { 0 };
	int bad = 0, globs = 0, hits = 0;

	CHECK_INT(mev__pattern_scratch_new(&sc, 0, 0, 0), 0);

	rng_seed(99);
	for (int it = 0; it < 3000; it++) {
		char re[128], path[128];
		int utf8 = it % 2;
		mev__pattern p;
		const char *err;
		size_t off, l = 0;
		char eb[128];
		re[0] = '\0';
		rand_value(re, sizeof re, pieces, sizeof pieces / sizeof *pieces - (utf8 ? 1 : 0), 8);
		if (rng_below(3) == 0 && strlen(re) + 1 < sizeof re)
			strcat(re, "/");
		if (mev__pattern_compile(&p, it % 3 ? 'F' : 'X', re, utf8, &err, &off, eb, sizeof eb))
			continue;
		CHECK(err == NULL);
		globs += p.kind == MEV__PAT_GLOB;
		for (int k = 0; k < 40; k++) {
			size_t n = rng_below(8);
			int a, b;
			l = 0;
			/* half the paths start with the pattern's literal prefix */
			if (k % 2 && p.prefix_len < 64) {
				memcpy(path, p.prefix, p.prefix_len);
				l = p.prefix_len;
			}
			for (size_t q = 0; q < n; q++) {
				const char *pc = ppieces[rng_below(sizeof ppieces / sizeof *ppieces)];
				size_t pl = strlen(pc);
				if (l + pl + 1 >= sizeof path)
					break;
				memcpy(path + l, pc, pl);
				l += pl;
			}
			path[l] = '\0';
			subject_set(&sj, path, l);
			a = mev__pattern_match(&p, sc, sj.p.s, sj.p.len, sj.p.slashes, sj.p.ascii,
					       sj.p.has_nl, sj.p.u, sj.p.ulen);
			b = mev__pattern_match_pcre(&p, sc, sj.p.s, sj.p.len, sj.p.slashes, sj.p.ascii,
						    sj.p.u, sj.p.ulen);
			hits += b == 1;
			if (a != b && bad++ < 5)
				fprintf(stderr, "glob/pcre differ: re '%s' utf8 %d path '%s': %d vs %d\n",
					re, utf8, path, a, b);
		}
		mev__pattern_free(&p);
	}
	CHECK_INT(bad, 0);
	CHECK(globs > 2500);
	CHECK(hits > 1000);
	mev__buf_free(&sj.u);
	mev__pattern_scratch_free(sc);
}

/* Every path a pattern matches starts with its prefix (F/X) or contains its
 * required literal (N): the index and the prefilter rely on it. */
static void test_prefix_and_must_soundness(void)
{
	mev__pattern_scratch *sc = NULL;
	subject sj = { 0 };
	int bad = 0, with_lit = 0, hits = 0;

	CHECK_INT(mev__pattern_scratch_new(&sc, 100000, 0, 0), 0);
	rng_seed(4242);
	for (int it = 0; it < 6000; it++) {
		char re[160], path[160];
		int utf8 = (it / 2) % 2;
		char type = it % 2 ? 'N' : (it % 4 ? 'F' : 'X');
		mev__pattern p;
		const char *err;
		size_t off;
		char eb[128];
		if (type == 'N')
			rand_value(re, sizeof re, n_pieces, sizeof n_pieces / sizeof *n_pieces, 6);
		else
			rand_value(re, sizeof re, fx_pieces, sizeof fx_pieces / sizeof *fx_pieces, 7);
		if (mev__pattern_compile(&p, type, re, utf8, &err, &off, eb, sizeof eb))
			continue;
		if (p.kind == MEV__PAT_NEVER) {
			mev__pattern_free(&p);
			continue;
		}
		with_lit += type == 'N' ? p.must_len > 0 : p.prefix_len > 0;
		for (int k = 0; k < 60; k++) {
			size_t l = 0, n = rng_below(7);
			int r;
			/* paths built from the pattern's literals and path pieces */
			for (size_t q = 0; q < n; q++) {
				const char *pc;
				size_t pl;
				switch (rng_below(4)) {
				case 0: pc = type == 'N' ? (p.must ? p.must : "") : (p.prefix ? p.prefix : "");
					pl = type == 'N' ? p.must_len : p.prefix_len;
					if (pl > 1 && rng_below(2))
						pl = 1 + rng_below(pl - 1); /* a piece of it */
					break;
				default: pc = path_pieces[rng_below(sizeof path_pieces / sizeof *path_pieces)];
					pl = strlen(pc);
				}
				if (l + pl + 1 >= sizeof path)
					break;
				memcpy(path + l, pc, pl);
				l += pl;
			}
			path[l] = '\0';
			subject_set(&sj, path, l);
			r = mev__pattern_match_pcre(&p, sc, sj.p.s, sj.p.len, sj.p.slashes, sj.p.ascii,
						    sj.p.u, sj.p.ulen);
			if (r != 1)
				continue;
			hits++;
			if (type == 'N') {
				if (p.must_len && !memmem(path, l, p.must, p.must_len) && bad++ < 8)
					fprintf(stderr, "unsound must: N '%s' (utf8 %d) must '%.*s' matches '%s'\n",
						re, utf8, (int)p.must_len, p.must, path);
			} else {
				if ((l < p.prefix_len || memcmp(path, p.prefix, p.prefix_len)) && bad++ < 8)
					fprintf(stderr, "unsound prefix: %c '%s' (utf8 %d) prefix '%.*s' matches '%s'\n",
						type, re, utf8, (int)p.prefix_len, p.prefix, path);
			}
		}
		mev__pattern_free(&p);
	}
	CHECK_INT(bad, 0);
	CHECK(with_lit > 1000);
	CHECK(hits > 2000);
	mev__buf_free(&sj.u);
	mev__pattern_scratch_free(sc);
}

int main(void)
{
	RUN(test_rules);
	RUN(test_no_match_first);
	RUN(test_the_rest);
	RUN(test_invalid_regex);
	RUN(test_empty_n);
	RUN(test_utf8_paths);
	RUN(test_newline_in_path);
	RUN(test_limits);
	RUN(test_pattern_basics);
	RUN(test_glob_vs_pcre);
	RUN(test_prefix_and_must_soundness);
	RUN(test_random_index_vs_brute);
	return test_summary();
}
