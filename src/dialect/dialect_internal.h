/* The definition of one dialect (src/dialect/<name>.c) and its helpers. */
#ifndef MEV_DIALECT_INTERNAL_H
#define MEV_DIALECT_INTERNAL_H

#include "maintevo/dialect.h"
#include "dialect_shared.h"

/*
 * Everything one dialect does differently.  Each src/dialect/<name>.c
 * defines one, named in the MEV_DIALECTS row of include/maintevo/dialect.h;
 * dialect.c hands out the public part and calls the rest.
 */
typedef struct {
	mev_dialect_info info;
	/* 1 when the tree is one of the dialect's (only its listing is read);
	 * NULL for the fallback, the first row, which takes what no other does */
	int (*guess)(const mev_tree *tree);
	/* the rules of its newest script, over mev_rules_default()'s common
	 * ones (MAINTAINERS found by --maintainer-path, # lines skipped) */
	void (*defaults)(mev_rules *r);
	/* 1 when tag is one of its releases; with rc also a release candidate */
	int (*is_release)(const char *tag, int rc);
	/* the kind and line of a tag is_release() takes (mev_tag_line()) */
	mev_tag_kind (*line)(char *line, size_t size, const char *tag);

	/*
	 * Where its trees keep the script whose text says a release's rules:
	 * NULL for the usual scripts/get_maintainer.pl, "" when they keep none
	 * (DPDK: its rules are always the defaults), else the path
	 * (coreboot's util/scripts/get_maintainer.pl); mev_dialect_script().
	 */
	const char *script;
	/* A dialect whose script is not get_maintainer.pl sets `regex` and
	 * these (all NULL: the kernel's script, read and matched by
	 * src/maintainers/); its `script` is then that script
	 * ("BaseTools/Scripts/GetMaintainer.py"): */
	/* the rules that text gives, over defaults(); NULL: the defaults for every version */
	void (*detect)(mev_rules *r, const char *text);
	/* read one maintainers file as the script does, into the sink */
	int (*read)(mev__dialect_sink *sink, const char *data, size_t len);
	/* the regex the script matches an F:/X: (and N:) value with, searched
	 * anywhere in the path (it carries its own anchors) */
	int (*regex)(mev_buf *out, char type, const char *value, size_t len);
} mev__dialect_def;

/* The definition of dialect d, the fallback for anything out of range. */
const mev__dialect_def *mev__dialect_def_of(mev_dialect d);

/* Length of the character of Python's str.isspace() at p (0: none), for
 * the readers of scripts written in Python (src/dialect/dialect.c). */
size_t mev__dialect_py_space(const unsigned char *p, const unsigned char *e);

#define MEV__DIALECT_DECLARE(ID, file) extern const mev__dialect_def mev__dialect_##file;
MEV_DIALECTS(MEV__DIALECT_DECLARE)
#undef MEV__DIALECT_DECLARE

/* The tree has a folder (a file) at path. */
int mev__dialect_dir(const mev_tree *t, const char *path);
int mev__dialect_file(const mev_tree *t, const char *path);

/* A run of min..max digits at *p, which it passes (all the digits there,
 * even when there are too many: then 0). */
int mev__tag_digits(const char **p, int min, int max);

/* An optional point part at *p: nothing, or '.' and 1..max digits, which
 * it passes; 0 for a '.' without them. */
int mev__tag_point(const char **p, int max);

/*
 * The line of the release whose numbers start at p ("20.11.3", up to the
 * end or a '-'): its first `parts` numbers as written, into line (size
 * bytes); MEV_TAG_POINT when a number after those is not 0
 * (RELEASE-4.17.2, v20.11.3), else MEV_TAG_MAIN (v20.11, RELEASE-4.17.0).
 */
mev_tag_kind mev__tag_line_of(char *line, size_t size, const char *p, int parts);

/* The end of the tag at p, or with rc a "-rcN" (N of 1 to 3 digits) before it. */
int mev__tag_end_or_rc(const char *p, int rc);

#endif
