/* Which rules a tree's get_maintainer.pl follows: detected from its text. */
#include "maintevo/dialect.h"
#include "maintevo/error.h"
#include "dialect_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bytes of the file at `path` (a link to a file in the tree is
 * followed, as open() would); NULL when there is none. */
static char *read_file(mev_repo *repo, const mev_tree *t, const char *path, size_t *len)
{
	char *real = NULL, *data = NULL;
	int64_t i;
	if (mev_tree_resolve(&real, t, path, strlen(path)) != MEV_KIND_FILE) {
		free(real);
		return NULL;
	}
	i = mev_tree_find(t, real, strlen(real));
	free(real);
	if (i < 0 || mev_repo_read_blob(&data, len, repo, &mev_tree_files(t)[i].oid))
		return NULL;
	return data;
}

/* A word of the conf as it was applied, for mev_rules_describe(). */
static void conf_note(mev_rules *r, const char *word)
{
	size_t n = strlen(r->conf);
	snprintf(r->conf + n, sizeof r->conf - n, "%s%s", n ? " " : "", word);
}

/*
 * Apply the options of a .get_maintainer.conf that bear on which files are
 * read, as the script's Getopt::Long would take them from the front of
 * @ARGV: words are split on white space, '#' starts a comment, one or two
 * dashes, "--opt=value" or "--opt value".  An option the script does not
 * know (`knows_fmf`, `knows_mpath`) is left alone.
 */
static void apply_conf(mev_rules *r, char *text, int knows_fmf, int knows_mpath)
{
	char *words[256], *save_line = NULL;
	int n = 0;
	for (char *line = strtok_r(text, "\n", &save_line); line; line = strtok_r(NULL, "\n", &save_line)) {
		char *save = NULL;
		for (char *w = strtok_r(line, " \t\r\f\v", &save); w && n < 256;
		     w = strtok_r(NULL, " \t\r\f\v", &save)) {
			if (w[0] == '#')
				break;
			words[n++] = w;
		}
	}
	for (int i = 0; i < n; i++) {
		char *w = words[i], *val, word[300];
		if (w[0] != '-')
			continue;
		w += w[1] == '-' ? 2 : 1;
		val = strchr(w, '=');
		if (val)
			*val++ = '\0';
		if (knows_fmf && strcmp(w, "find-maintainer-files") == 0) {
			r->find_files = 1;
			conf_note(r, "--find-maintainer-files");
		} else if (knows_mpath && (strcmp(w, "maintainer-path") == 0 || strcmp(w, "mpath") == 0)) {
			if (!val && i + 1 < n)
				val = words[++i];
			if (val) {
				snprintf(r->mpath, sizeof r->mpath, "%s", val);
				snprintf(word, sizeof word, "--maintainer-path=%s", val);
				conf_note(r, word);
			}
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

/*
 * The script's file search, from its text: which generation of the code
 * that fills @mfiles (or @maint_files) it has, the folder the 2014 code
 * hands File::Find, and its own $find_maintainer_files default.
 */
static void detect_search(mev_rules *r, const char *script)
{
	static const char subdir[] = "File::Find::find(\\&maint_wanted, \"${lk_path}";
	const char *p, *e;
	if (strstr(script, "my $path = \"${lk_path}MAINTAINERS\""))
		r->discover = MEV_DISCOVER_PATH;
	else if (strstr(script, "-d \"${lk_path}MAINTAINERS\""))
		r->discover = MEV_DISCOVER_DIR_FMF;
	else if ((p = strstr(script, subdir)) && (e = strstr(p += sizeof subdir - 1, "\")")) &&
		 (size_t)(e - p) < sizeof r->find_dir && !memchr(p, '\n', (size_t)(e - p))) {
		r->discover = MEV_DISCOVER_SUBDIR;
		memcpy(r->find_dir, p, (size_t)(e - p));
		r->find_dir[e - p] = '\0';
	} else {
		r->discover = MEV_DISCOVER_TOP;
	}
	if ((p = strstr(script, "my $find_maintainer_files = ")))
		r->find_files = atoi(p + 28) != 0;
}

/* which_conf(".get_maintainer.conf"): the first of ./ and .scripts/ that
 * exists (links followed) (the user's $HOME is not part of a release); read only when it is
 * a file, as the script's -f test does. */
static char *read_conf(mev_repo *repo, const mev_tree *t, size_t *len)
{
	static const char *const where[] = { ".get_maintainer.conf", ".scripts/.get_maintainer.conf" };
	for (size_t i = 0; i < 2; i++) {
		int kind = mev_tree_stat(t, where[i], strlen(where[i]));
		if (kind == MEV_KIND_FILE)
			return read_file(repo, t, where[i], len);
		if (kind == MEV_KIND_DIR)
			return NULL;
	}
	return NULL;
}

/* Read the tree's .get_maintainer.conf, if any, and apply it. */
static void conf_apply(mev_rules *r, mev_repo *repo, const mev_tree *t, int knows_fmf, int knows_mpath)
{
	size_t len = 0;
	char *conf = read_conf(repo, t, &len);
	if (conf) {
		apply_conf(r, conf, knows_fmf, knows_mpath);
		free(conf);
	}
}

/* Find the MAINTAINERS files as `as` does (walk --files-as): its file
 * search, and the conf options that chose it. */
static void files_as(mev_rules *r, const mev_rules *as)
{
	r->discover = as->discover;
	r->find_files = as->find_files;
	memcpy(r->mpath, as->mpath, sizeof r->mpath);
	memcpy(r->find_dir, as->find_dir, sizeof r->find_dir);
	memcpy(r->conf, as->conf, sizeof r->conf);
	memcpy(r->files_as, as->files_as, sizeof r->files_as);
}

int mev_rules_files_as(mev_rules *out, mev_repo *repo, const char *rev, const mev_rules_options *opt)
{
	mev_rules_options own = { opt ? opt->dialect : MEV_DIALECT_AUTO, 0, NULL };
	mev_tree *t = NULL;
	mev_oid commit;
	int rc;
	memset(out, 0, sizeof *out);
	if (strlen(rev) >= sizeof out->files_as)
		return mev_error_set(MEV_EINVAL, "--files-as '%.40s...': a release name of at most %zu bytes",
				     rev, sizeof out->files_as - 1);
	if ((rc = mev_repo_resolve(&commit, NULL, repo, rev))) {
		mev_error_prefix("--files-as '%s'", rev);
		return rc;
	}
	if (!(rc = mev_tree_load(&t, repo, &commit)))
		rc = mev_rules_detect(out, repo, t, &own);
	mev_tree_free(t);
	if (!rc && mev__dialect_def_of(out->dialect)->regex)
		rc = mev_error_set(MEV_EINVAL, "--files-as: %s reads one file with a script of its own, "
				   "not MAINTAINERS files found in the tree", mev_dialect_name(out->dialect));
	if (!rc)
		snprintf(out->files_as, sizeof out->files_as, "%s", rev);
	return rc;
}

int mev_rules_detect(mev_rules *r, mev_repo *repo, const mev_tree *t, const mev_rules_options *opt)
{
	mev_dialect d = opt && opt->dialect != MEV_DIALECT_AUTO ? opt->dialect : mev_dialect_guess(t);
	const mev__dialect_def *def = mev__dialect_def_of(d);
	const char *where = mev_dialect_script(d); /* the script whose rules the tree follows */
	size_t len = 0;
	char *script;
	int rc;

	if (def->regex) {
		/* a script of its own: its text says the rules, nothing else does */
		if ((rc = mev_tree_need(repo, t, def->script, "the rules of the release come from it")))
			return rc;
		mev_rules_default(r, d);
		if ((script = read_file(repo, t, def->script, &len))) {
			r->has_script = 1;
			if (def->detect)
				def->detect(r, script);
			free(script);
		}
		return 0;
	}
	/* a partial clone may lack them: the rules would silently be wrong */
	if ((where && (rc = mev_tree_need(repo, t, where, "the rules of the release come from it"))) ||
	    (rc = mev_tree_need(repo, t, ".get_maintainer.conf", "the rules of the release come from it")))
		return rc;
	script = where ? read_file(repo, t, where, &len) : NULL;

	mev_rules_default(r, d);
	if (script) {
		int reads_conf = strstr(script, "which_conf(\".get_maintainer.conf\")") != NULL;
		int knows_fmf = strstr(script, "'find-maintainer-files' =>") != NULL;
		int knows_mpath = strstr(script, "maintainer-path=s' =>") != NULL;
		r->has_script = 1;
		detect_fields(r, script);
		r->drop_comments = strstr(script, "/^\\s*\\#/") != NULL;
		r->utf8 = strstr(script, "use open qw(:std :encoding(UTF-8))") != NULL;
		r->braces = strstr(script, "Bash brace expansion") != NULL;
		r->find_files = 0;
		r->mpath[0] = '\0';
		detect_search(r, script);
		free(script);
		if (reads_conf)
			conf_apply(r, repo, t, knows_fmf, knows_mpath);
		/* the generations before --find-maintainer-files search their own way */
		if (r->discover == MEV_DISCOVER_TOP || r->discover == MEV_DISCOVER_SUBDIR)
			r->find_files = 0;
		if (r->discover != MEV_DISCOVER_PATH)
			r->mpath[0] = '\0';
	}
	/* a dialect without a script of its own runs the kernel's current
	 * one from the tree's root (DPDK), which reads the tree's conf */
	if (!where)
		conf_apply(r, repo, t, 1, 1);
	if (opt && opt->files_as)
		files_as(r, opt->files_as);
	if (opt && opt->top_level_only) {
		r->find_files = 0;
		r->mpath[0] = '\0';
		r->find_dir[0] = '\0';
		if (r->discover == MEV_DISCOVER_SUBDIR)
			r->discover = MEV_DISCOVER_TOP;
	}
	return 0;
}

void mev_rules_describe(char *buf, size_t size, const mev_rules *r)
{
	char files[400];
	const char *mpath = r->mpath[0] ? r->mpath : "./MAINTAINERS";
	const mev__dialect_def *def = mev__dialect_def_of(r->dialect);
	if (def->regex) {
		snprintf(buf, size, "%s%s: files %s, read and matched as %s does%s%s%s",
			 mev_dialect_name(r->dialect), r->has_script ? "" : " (no script: defaults)",
			 mpath, def->script, r->fallback ? "; <default> fallback" : "",
			 r->fallback && r->fallback_r ? " (R: counts)" : "",
			 r->m_needs_addr ? "; M: needs <address>" : "");
		return;
	}
	switch (r->discover) {
	case MEV_DISCOVER_TOP:
		snprintf(files, sizeof files, "./MAINTAINERS");
		break;
	case MEV_DISCOVER_SUBDIR:
		snprintf(files, sizeof files, "./MAINTAINERS, then %s/**/MAINTAINERS* (File::Find)", r->find_dir);
		break;
	case MEV_DISCOVER_DIR_FMF:
		snprintf(files, sizeof files, "./MAINTAINERS/* (when a folder), then %s",
			 r->find_files ? "every */MAINTAINERS (File::Find)" : "./MAINTAINERS");
		break;
	default:
		snprintf(files, sizeof files, "%s%s", mpath,
			 r->find_files ? " (every */MAINTAINERS below it, File::Find)" : "");
		break;
	}
	if (r->files_as[0]) {
		size_t n = strlen(files);
		snprintf(files + n, sizeof files - n, " as %s finds them (--files-as)", r->files_as);
	}
	snprintf(buf, size, "%s%s: files %s%s%s%s; fields %s, N: %s; # lines %s; %s%s",
		 mev_dialect_name(r->dialect),
		 r->has_script ? "" : mev_dialect_script(r->dialect) ? " (no get_maintainer.pl: defaults)"
								      : " (the kernel's get_maintainer.pl)",
		 files, r->conf[0] ? " [.get_maintainer.conf: " : "", r->conf, r->conf[0] ? "]" : "",
		 r->any_type ? "any byte" : "[A-Z]", r->no_n ? "off" : "on",
		 r->drop_comments ? "skipped" : "read", r->utf8 ? "UTF-8" : "bytes",
		 r->braces ? "; {a,b} braces" : "");
}
