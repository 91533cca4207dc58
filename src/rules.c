/* Which rules a tree's get_maintainer.pl follows: detected from its text. */
#include "maintevo/maintainers.h"
#include "maintevo/error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const dialect_names[] = { "auto", "linux", "uboot", "xen", "qemu" };

const char *mev_dialect_name(mev_dialect d)
{
	return (unsigned)d < sizeof dialect_names / sizeof *dialect_names ? dialect_names[d] : "?";
}

int mev_dialect_parse(const char *name)
{
	for (size_t i = 0; i < sizeof dialect_names / sizeof *dialect_names; i++)
		if (strcmp(name, dialect_names[i]) == 0)
			return (int)i;
	if (strcmp(name, "u-boot") == 0)
		return MEV_DIALECT_UBOOT;
	return -1;
}

void mev_rules_default(mev_rules *r, mev_dialect dialect)
{
	memset(r, 0, sizeof *r);
	r->dialect = dialect == MEV_DIALECT_AUTO ? MEV_DIALECT_LINUX : dialect;
	r->drop_comments = 1;
	r->discover = MEV_DISCOVER_PATH;
	switch (r->dialect) {
	case MEV_DIALECT_UBOOT:
		r->find_files = 1;
		strcpy(r->mpath, ".");
		break;
	case MEV_DIALECT_XEN:
		r->discover = MEV_DISCOVER_TOP;
		r->drop_comments = 0;
		r->braces = 1;
		break;
	case MEV_DIALECT_LINUX:
		r->utf8 = 1;
		break;
	case MEV_DIALECT_QEMU:
		r->discover = MEV_DISCOVER_TOP;
		r->drop_comments = 0;
		r->any_type = 1;
		r->no_n = 1;
		break;
	default:
		break;
	}
}

static int is_dir(const mev_tree *t, const char *p) { return mev_tree_stat(t, p, strlen(p)) == MEV_KIND_DIR; }
static int is_file(const mev_tree *t, const char *p) { return mev_tree_stat(t, p, strlen(p)) == MEV_KIND_FILE; }

static mev_dialect guess_dialect(const mev_tree *t)
{
	if (is_dir(t, "board") && is_dir(t, "include/configs"))
		return MEV_DIALECT_UBOOT;
	if (is_dir(t, "xen/common") || (is_dir(t, "xen") && is_dir(t, "tools") && !is_file(t, "Kbuild")))
		return MEV_DIALECT_XEN;
	if (is_file(t, "qemu-options.hx") || (is_dir(t, "hw") && is_dir(t, "target")))
		return MEV_DIALECT_QEMU;
	return MEV_DIALECT_LINUX;
}

static char *read_file(mev_repo *repo, const mev_tree *t, const char *path, size_t *len)
{
	int64_t i = mev_tree_find(t, path, strlen(path));
	char *data = NULL;
	if (i < 0 || mev_tree_files(t)[i].kind != MEV_KIND_FILE)
		return NULL;
	if (mev_repo_read_blob(&data, len, repo, &mev_tree_files(t)[i].oid))
		return NULL;
	return data;
}

/*
 * Apply the options of a .get_maintainer.conf that bear on which files are
 * read: words are split on white space, '#' starts a comment.  Getopt::Long
 * accepts one or two dashes and "--opt=value" or "--opt value".
 */
static void apply_conf(mev_rules *r, char *text)
{
	char *words[256];
	int n = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *save = NULL;
		for (char *w = strtok_r(line, " \t\r\f\v", &save); w && n < 256;
		     w = strtok_r(NULL, " \t\r\f\v", &save)) {
			if (w[0] == '#')
				break;
			words[n++] = w;
		}
	}
	for (int i = 0; i < n; i++) {
		char *w = words[i], *val;
		if (w[0] != '-')
			continue;
		w += w[1] == '-' ? 2 : 1;
		val = strchr(w, '=');
		if (val)
			*val++ = '\0';
		if (strcmp(w, "find-maintainer-files") == 0) {
			r->find_files = 1;
		} else if (strcmp(w, "maintainer-path") == 0 || strcmp(w, "mpath") == 0) {
			if (!val && i + 1 < n)
				val = words[++i];
			if (val)
				snprintf(r->mpath, sizeof r->mpath, "%s", val);
		}
	}
}

/*
 * How the script reads field lines: the letter its field-line regex takes
 * (old scripts' m/^(\C):/ and QEMU's m/^(.):/ take any byte), and whether
 * its get_maintainers() looks at N: lines at all (QEMU's does not).
 */
static void detect_fields(mev_rules *r, const char *script)
{
	r->any_type = strstr(script, "m/^(\\C):") != NULL || strstr(script, "m/^(.):\\s*(.*)/") != NULL;
	r->no_n = strstr(script, "$type eq 'N'") == NULL && strstr(script, "$type eq \"N\"") == NULL;
}

int mev_rules_detect(mev_rules *r, mev_repo *repo, const mev_tree *t, const mev_rules_options *opt)
{
	mev_dialect d = opt && opt->dialect != MEV_DIALECT_AUTO ? opt->dialect : guess_dialect(t);
	size_t len = 0;
	char *script = read_file(repo, t, "scripts/get_maintainer.pl", &len);

	mev_rules_default(r, d);
	if (script) {
		int reads_conf = strstr(script, ".get_maintainer.conf") != NULL;
		r->has_script = 1;
		detect_fields(r, script);
		r->drop_comments = strstr(script, "/^\\s*\\#/") != NULL;
		r->utf8 = strstr(script, "use open qw(:std :encoding(UTF-8))") != NULL;
		r->braces = strstr(script, "Bash brace expansion") != NULL;
		r->find_files = 0;
		r->mpath[0] = '\0';
		if (strstr(script, "\"${lk_path}board\""))
			r->discover = MEV_DISCOVER_BOARD;
		else if (strstr(script, "my $path = \"${lk_path}MAINTAINERS\""))
			r->discover = MEV_DISCOVER_PATH;
		else if (strstr(script, "-d \"${lk_path}MAINTAINERS\""))
			r->discover = MEV_DISCOVER_DIR_FMF;
		else
			r->discover = MEV_DISCOVER_TOP;
		free(script);
		if (reads_conf) {
			char *conf = read_file(repo, t, ".get_maintainer.conf", &len);
			if (conf) {
				apply_conf(r, conf);
				free(conf);
			}
		}
		/* options the script of this generation does not know are ignored */
		if (r->discover == MEV_DISCOVER_TOP || r->discover == MEV_DISCOVER_BOARD)
			r->find_files = 0;
		if (r->discover != MEV_DISCOVER_PATH)
			r->mpath[0] = '\0';
	}
	if (opt && opt->top_level_only) {
		r->find_files = 0;
		r->mpath[0] = '\0';
		if (r->discover == MEV_DISCOVER_BOARD)
			r->discover = MEV_DISCOVER_TOP;
	}
	return 0;
}
