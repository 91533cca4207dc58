/*
 * Why the sections of one release take a path or not (maintevo explain
 * PATH): the release's F:, X: and N: lines with the regexes its script
 * matches with, read from git (its MAINTAINERS) or from a store (the
 * patterns a walk stored), judged for a path by mev_match_why(), and
 * checked against what the release's own answer is: the matcher's (git)
 * or the sections the walk stored for the file (store).  It lives here,
 * not in match/, as the store's patterns and file tables are this
 * module's.
 */
#include "maintevo/pathwhy.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

#include <stdlib.h>
#include <string.h>

struct mev_pathwhy {
	const char *script;             /* mev_dialect_script(), or NULL */
	mev_pathwhy_section *sections;
	size_t nsec;
	mev_pathwhy_line *lines;
	mev_why_pattern *p;             /* per line, as mev_match_why() takes it */
	size_t n;
	int utf8;
	/* the path in hand, and the answer for it */
	char *path;
	int is_dir, exists;
	int is_link;                    /* a stored symbolic link: a file or a directory */
	mev_why_rule *rules;
	uint8_t *verdicts;
	uint32_t *shown;
	const char **ref;               /* the reference's sections (titles) for the path */
	size_t nref;
	int has_ref;
	/* from git: borrowed, but the matcher */
	mev_maint *maint;
	const mev_tree *tree;
	mev_matcher *mt;
	/* from a store: owned */
	mev_release_patterns pt;
	mev_filemap *fm;
};

static int pathwhy_new(mev_pathwhy **out, size_t nsec, size_t nlines)
{
	mev_pathwhy *pw = calloc(1, sizeof *pw);
	*out = pw;
	if (!pw)
		return mev_error_oom();
	pw->sections = calloc(nsec + 1, sizeof *pw->sections);
	pw->lines = calloc(nlines + 1, sizeof *pw->lines);
	pw->p = calloc(nlines + 1, sizeof *pw->p);
	pw->rules = calloc(nlines + 1, sizeof *pw->rules);
	pw->verdicts = calloc(nsec + 1, 1);
	pw->shown = calloc(nsec + 1, sizeof *pw->shown);
	pw->ref = calloc(nsec + 1, sizeof *pw->ref);
	pw->nsec = nsec;
	if (pw->sections && pw->lines && pw->p && pw->rules && pw->verdicts && pw->shown && pw->ref)
		return 0;
	mev_pathwhy_free(pw);
	*out = NULL;
	return mev_error_oom();
}

void mev_pathwhy_free(mev_pathwhy *pw)
{
	if (!pw)
		return;
	free(pw->sections);
	free(pw->lines);
	free(pw->p);
	free(pw->rules);
	free(pw->verdicts);
	free(pw->shown);
	free(pw->ref);
	free(pw->path);
	mev_matcher_free(pw->mt);
	mev_filemap_free(pw->fm);
	mev_release_patterns_free(&pw->pt);
	free(pw);
}

static void add_line(mev_pathwhy *pw, char type, const char *value, const char *regex, const char *file,
		     uint32_t line, uint32_t sec)
{
	mev_pathwhy_line *x = &pw->lines[pw->n];
	x->type = type;
	x->value = value;
	x->regex = regex;
	x->file = file;
	x->line = line;
	x->section = sec;
	pw->p[pw->n].type = type;
	pw->p[pw->n].regex = regex;
	pw->p[pw->n++].section = sec;
}

const char *mev_pathwhy_script(const mev_pathwhy *pw) { return pw->script; }

const mev_pathwhy_section *mev_pathwhy_sections(const mev_pathwhy *pw, size_t *n)
{
	*n = pw->nsec;
	return pw->sections;
}

const mev_pathwhy_line *mev_pathwhy_lines(const mev_pathwhy *pw, size_t *n)
{
	*n = pw->n;
	return pw->lines;
}

/* --- from git -------------------------------------------------------------------- */

int mev_pathwhy_from_git(mev_pathwhy **out, mev_maint *maint, const mev_tree *tree)
{
	const mev_section *sec = mev_maint_sections(maint);
	const mev_field *f = mev_maint_fields(maint);
	const mev_rules *rules = mev_maint_rules(maint);
	size_t ns = mev_maint_section_count(maint);
	mev_pathwhy *pw;
	int rc;
	if ((rc = pathwhy_new(&pw, ns, mev_maint_field_count(maint))))
		return rc;
	pw->script = mev_dialect_script(rules->dialect);
	pw->utf8 = (int)rules->utf8 | (rules->regex_patterns ? MEV_MATCH_RAW : 0);
	pw->maint = maint;
	pw->tree = tree;
	for (size_t i = 0; i < ns; i++) {
		pw->sections[i].title = sec[i].title;
		pw->sections[i].display = sec[i].display;
		for (uint32_t k = 0; k < sec[i].field_count; k++) {
			const mev_field *x = &f[sec[i].field_begin + k];
			if (x->type == 'F' || x->type == 'X' || x->type == 'N')
				add_line(pw, x->type, x->value, x->regex, mev_maint_file(maint, x->file),
					 x->line, (uint32_t)i);
		}
	}
	/* the matcher, whose answer why must repeat */
	if ((rc = mev_matcher_new(&pw->mt, maint, 0))) {
		mev_pathwhy_free(pw);
		return rc;
	}
	*out = pw;
	return 0;
}

/* The path in the tree: a file or a directory (links followed), and the matcher's sections. */
static int git_path(mev_pathwhy *pw)
{
	size_t len = strlen(pw->path);
	int kind = mev_tree_stat(pw->tree, pw->path, len), rc;
	const uint32_t *ids;
	pw->exists = kind == MEV_KIND_FILE || kind == MEV_KIND_DIR;
	pw->is_dir = pw->is_dir || kind == MEV_KIND_DIR;
	if ((rc = mev_matcher_match(&ids, &pw->nref, pw->mt, pw->path, len, pw->is_dir)))
		return rc;
	for (size_t i = 0; i < pw->nref; i++)
		pw->ref[i] = mev_maint_sections(pw->maint)[ids[i]].title;
	pw->has_ref = 1;
	return 0;
}

/* --- from a store ---------------------------------------------------------------- */

/* A directory of the stored release: some file lies below p/.  (The root
 * is none: a store's answer for "." has always been "no file", unlike
 * git's tree.) */
static int fm_is_dir(const mev_filemap *fm, const char *p, size_t len)
{
	size_t first, end;
	return len && mev_filemap_path_rows(&first, &end, fm, p, len, 1) == 1;
}

/* The stored row of exactly p, or NULL. */
static const mev_file_row *fm_row(const mev_filemap *fm, const char *p)
{
	size_t first, end;
	if (mev_filemap_path_rows(&first, &end, fm, p, strlen(p), 0) == 0 && end > first)
		return &mev_filemap_rows(fm)[first];
	return NULL;
}

/* The patterns and file table of the release (inside one snapshot). */
static int load_stored(mev_release_patterns *pt, mev_filemap **fm, mev_store *st, const char *tag)
{
	int rc;
	if (!mev_release_has(NULL, st, tag)) {
		rc = mev_error_set(MEV_ENOTFOUND, "release '%s' is not in store '%s'", tag, mev_store_dir(st));
		mev_error_hint("list the stored releases with 'maintevo releases --store %s'", mev_store_dir(st));
		return rc;
	}
	if ((rc = mev_release_load_patterns(pt, st, tag)) == MEV_ENOTFOUND || (!rc && !pt->has_regex)) {
		rc = mev_error_set(MEV_ENOTFOUND, "store '%s' holds no regexes of the patterns of '%s'%s",
				   mev_store_dir(st), tag, rc ? " (nor the patterns)" : "");
		mev_error_hint("'maintevo walk --rebuild' stores them (walks before maintevo kept them "
			       "did not), or explain from git with --repo R --rev %s", tag);
		return rc;
	}
	if (!rc && (rc = mev_release_load_filemap(fm, st, tag)) == MEV_ENOTFOUND)
		mev_error_hint("a release imported as a graph has no files to explain");
	return rc;
}

/* The script of the dialect the store records, or NULL (no error left behind). */
static const char *stored_script(mev_store *st)
{
	mev_identity id;
	const char *script = NULL;
	int d;
	if (mev_release_identity_get(&id, st) == 0 && (d = mev_dialect_parse(id.dialect)) > 0)
		script = mev_dialect_script((mev_dialect)d);
	mev_error_clear();
	return script;
}

/* The sections and lines of the stored patterns into a new *out, which takes pt and fm over. */
static int from_patterns(mev_pathwhy **out, mev_release_patterns *pt, mev_filemap *fm)
{
	size_t nl = 0;
	mev_pathwhy *pw;
	int rc;
	for (size_t i = 0; i < pt->n; i++)
		nl += pt->v[i].n;
	if ((rc = pathwhy_new(&pw, pt->n, nl)))
		return rc;
	pw->pt = *pt;
	pw->fm = fm;
	memset(pt, 0, sizeof *pt);
	pw->utf8 = pw->pt.utf8;
	for (size_t i = 0; i < pw->pt.n; i++) {
		const mev_section_patterns *sp = &pw->pt.v[i];
		pw->sections[i].title = sp->title;
		pw->sections[i].display = sp->display;
		for (size_t k = 0; k < sp->n; k++)
			add_line(pw, sp->v[k].type, sp->v[k].value, sp->v[k].regex, sp->v[k].file,
				 sp->v[k].line, (uint32_t)i);
	}
	*out = pw;
	return 0;
}

int mev_pathwhy_from_store(mev_pathwhy **out, mev_store *s, const char *tag)
{
	mev_release_patterns pt = { 0 };
	mev_filemap *fm = NULL;
	const char *script = NULL;
	int rc;
	*out = NULL;
	if ((rc = mev_store_read_begin(s)))
		return rc;
	if (!(rc = load_stored(&pt, &fm, s, tag)))
		script = stored_script(s);
	mev_store_read_end(s);
	if (!rc && !(rc = from_patterns(out, &pt, fm)))
		(*out)->script = script;
	else
		mev_filemap_free(fm);
	mev_release_patterns_free(&pt);
	return rc;
}

/* The path in the stored file table: a file, a link or a directory (some
 * file below it), and the sections the walk gave a file. */
static void store_path(mev_pathwhy *pw)
{
	const mev_file_row *row = fm_row(pw->fm, pw->path);
	if (!pw->is_dir && !row && fm_is_dir(pw->fm, pw->path, strlen(pw->path)))
		pw->is_dir = 1;
	pw->exists = row || pw->is_dir;
	pw->is_link = row && row->kind == MEV_KIND_LINK;
	if (row && !pw->is_dir) {
		const mev_section_info *si = mev_filemap_sections(pw->fm);
		const uint32_t *ids;
		pw->nref = mev_filemap_set(&ids, pw->fm, row->set);
		for (size_t i = 0; i < pw->nref; i++)
			pw->ref[i] = si[ids[i]].title;
		pw->has_ref = 1;
	}
}

/* --- deciding -------------------------------------------------------------------- */

static int run_why(mev_pathwhy *pw)
{
	return mev_match_why(pw->rules, pw->verdicts, pw->p, pw->n, (uint32_t)pw->nsec, pw->utf8, pw->path,
			     strlen(pw->path), pw->is_dir);
}

/* The sections why says are in equal the reference's (a set of titles). */
static int agrees(const mev_pathwhy *pw)
{
	size_t in = 0;
	for (size_t i = 0; i < pw->nsec; i++) {
		int found = 0;
		if (pw->verdicts[i] != MEV_WHY_IN)
			continue;
		in++;
		for (size_t k = 0; k < pw->nref && !found; k++)
			found = strcmp(pw->ref[k], pw->sections[i].title) == 0;
		if (!found)
			return 0;
	}
	return in == pw->nref;
}

/* Decide for the path in hand and check against the reference. */
static int decide(mev_pathwhy *pw)
{
	int rc;
	if ((rc = run_why(pw)))
		return rc;
	/* the store does not say where a link leads: the walk matched one that
	 * leads to a directory as "path/" (as the script does) */
	if (pw->is_link && !pw->is_dir && pw->has_ref && !agrees(pw)) {
		pw->is_dir = 1;
		if ((rc = run_why(pw)))
			return rc;
		if (!agrees(pw) && (rc = (pw->is_dir = 0, run_why(pw))))
			return rc;
	}
	return 0;
}

/* The sections with verdict v, in bytewise title order, appended at pw->shown + k; the new k. */
static size_t add_shown(mev_pathwhy *pw, size_t k, mev_why_verdict v)
{
	size_t first = k;
	for (size_t i = 0; i < pw->nsec; i++) {
		size_t j;
		if (pw->verdicts[i] != v)
			continue;
		for (j = k; j > first && strcmp(pw->sections[pw->shown[j - 1]].title, pw->sections[i].title) > 0;
		     j--)
			pw->shown[j] = pw->shown[j - 1];
		pw->shown[j] = (uint32_t)i;
		k++;
	}
	return k;
}

int mev_pathwhy_explain(mev_pathwhy_answer *out, mev_pathwhy *pw, const char *path)
{
	int slash = 0, rc;
	memset(out, 0, sizeof *out);
	free(pw->path);
	pw->nref = 0;
	pw->has_ref = pw->is_link = pw->exists = 0;
	pw->path = NULL;
	if ((rc = mev_match_canonpath(&pw->path, &slash, path)))
		return rc;
	pw->is_dir = slash;
	if (pw->fm)
		store_path(pw);
	else if ((rc = git_path(pw)))
		return rc;
	if ((rc = decide(pw)))
		return rc;
	out->path = pw->path;
	out->is_dir = pw->is_dir;
	out->exists = pw->exists;
	out->rules = pw->rules;
	out->verdicts = pw->verdicts;
	out->shown = pw->shown;
	out->nin = add_shown(pw, 0, MEV_WHY_IN);
	out->nshown = add_shown(pw, add_shown(pw, out->nin, MEV_WHY_EXCLUDED), MEV_WHY_NEAR);
	out->disagrees = pw->has_ref && !agrees(pw);
	return 0;
}

/* A directory of the release. */
static int is_dir_at(const mev_pathwhy *pw, const char *p, size_t len)
{
	return pw->fm ? fm_is_dir(pw->fm, p, len) : mev_tree_stat(pw->tree, p, len) == MEV_KIND_DIR;
}

mev_pathwhy_dir mev_pathwhy_dir_test(const mev_pathwhy *pw, size_t i)
{
	const mev_pathwhy_line *x = &pw->lines[i];
	size_t vl = strlen(x->value), rl = x->regex ? strlen(x->regex) : 0;
	if (x->type == 'N' || !x->regex || !vl || x->value[vl - 1] == '/')
		return MEV_PATHWHY_DIR_NONE;
	if (rl && x->regex[rl - 1] == '/')
		return MEV_PATHWHY_DIR_ADDED;
	if (strpbrk(x->value, ".*?") && is_dir_at(pw, x->value, vl))
		return MEV_PATHWHY_DIR_MISSED;
	return MEV_PATHWHY_DIR_NONE;
}
