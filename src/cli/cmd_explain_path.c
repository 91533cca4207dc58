/*
 * maintevo explain PATH: for each section that takes PATH, keeps it out or
 * nearly takes it, the F:, X: and N: lines that decided and the rule each
 * applied (mev_match_why(): the matcher's own patterns and rules), for a
 * release read from git (--repo, --rev) or from a store (--store,
 * --release: the patterns the walk stored, with their regexes).
 */
#include "explain.h"
#include "maintevo/error.h"
#include "maintevo/match.h"
#include "maintevo/release.h"
#include "maintevo/store.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One F:, X: or N: line of the release. */
typedef struct {
	char type;
	const char *value, *regex, *file;
	uint32_t line;
} xline;

/* What a release says about PATH, from either source. */
typedef struct {
	const char *tag;
	const char *script;              /* whose rules: mev_dialect_script(), or NULL */
	const char **title, **display;   /* per section */
	size_t nsec;
	xline *lines;
	mev_why_pattern *p;              /* per line: type, regex, section */
	size_t n;
	int utf8;
	char *path;                      /* PATH as the script takes it, no trailing '/' */
	int is_dir;                      /* matched as "path/" */
	int exists;                      /* a file or directory of the release */
	/* the sections the walk or the matcher gives the path, for the cross-check */
	const char **ref;
	size_t nref;
	int has_ref;
	int store_mode;
	int is_link;                     /* a stored symbolic link: a file or a directory */
	/* answers of the script's directory test on the converted text */
	int (*is_dir_at)(void *ctx, const char *p, size_t len);
	void *ctx;
	const mev_maint *maint;          /* from git: the release read, its tree, its matcher */
	const mev_tree *tree;
	mev_matcher *mt;
	const mev_filemap *fm;           /* from a store: its file table */
	mev_why_rule *rules;
	uint8_t *verdicts;
} source;

static int oom(void) { return mev_error_oom(); }

static int source_alloc(source *s, size_t nsec, size_t nlines)
{
	s->title = calloc(nsec + 1, sizeof *s->title);
	s->display = calloc(nsec + 1, sizeof *s->display);
	s->lines = calloc(nlines + 1, sizeof *s->lines);
	s->p = calloc(nlines + 1, sizeof *s->p);
	s->rules = calloc(nlines + 1, sizeof *s->rules);
	s->verdicts = calloc(nsec + 1, 1);
	s->ref = calloc(nsec + 1, sizeof *s->ref);
	return s->title && s->display && s->lines && s->p && s->rules && s->verdicts && s->ref ? 0 : oom();
}

static void source_free(source *s)
{
	free(s->title);
	free(s->display);
	free(s->lines);
	free(s->p);
	free(s->rules);
	free(s->verdicts);
	free(s->ref);
	free(s->path);
	mev_matcher_free(s->mt);
}

static void add_line(source *s, char type, const char *value, const char *regex, const char *file,
		     uint32_t line, uint32_t sec)
{
	xline *x = &s->lines[s->n];
	x->type = type;
	x->value = value;
	x->regex = regex;
	x->file = file;
	x->line = line;
	s->p[s->n].type = type;
	s->p[s->n].regex = regex;
	s->p[s->n++].section = sec;
}

/*
 * PATH as the script rewrites its file argument (canonpath): no "./", no
 * repeated or trailing '/' (a trailing '/' says it is a directory).
 */
static char *canonical(const char *in, int *slash)
{
	size_t len = strlen(in), k = 0;
	char *out = malloc(len + 1);
	if (!out)
		return NULL;
	*slash = len && in[len - 1] == '/';
	for (size_t i = 0; i < len;) {
		size_t j = i;
		while (j < len && in[j] != '/')
			j++;
		if (!(j - i == 0 || (j - i == 1 && in[i] == '.'))) {
			if (k)
				out[k++] = '/';
			memcpy(out + k, in + i, j - i);
			k += j - i;
		}
		i = j + 1;
	}
	out[k] = '\0';
	return out;
}

/* --- from git -------------------------------------------------------------------- */

static int tree_is_dir(void *ctx, const char *p, size_t len)
{
	return mev_tree_stat(ctx, p, len) == MEV_KIND_DIR;
}

static int from_git(source *s, cli_release *r)
{
	const mev_maint *m = r->maint;
	const mev_section *sec = mev_maint_sections(m);
	const mev_field *f = mev_maint_fields(m);
	size_t ns = mev_maint_section_count(m);
	int rc;
	if ((rc = source_alloc(s, ns, mev_maint_field_count(m))))
		return rc;
	s->nsec = ns;
	s->utf8 = (int)mev_maint_rules(m)->utf8 | (mev_maint_rules(m)->regex_patterns ? MEV_MATCH_RAW : 0);
	s->is_dir_at = tree_is_dir;
	s->ctx = r->tree;
	s->maint = m;
	s->tree = r->tree;
	for (size_t i = 0; i < ns; i++) {
		s->title[i] = sec[i].title;
		s->display[i] = sec[i].display;
		for (uint32_t k = 0; k < sec[i].field_count; k++) {
			const mev_field *x = &f[sec[i].field_begin + k];
			if (x->type == 'F' || x->type == 'X' || x->type == 'N')
				add_line(s, x->type, x->value, x->regex, mev_maint_file(m, x->file), x->line,
					 (uint32_t)i);
		}
	}
	/* the matcher, whose answer why must repeat */
	return mev_matcher_new(&s->mt, r->maint, 0);
}

/* PATH in the tree: a file or a directory (links followed), and the matcher's sections. */
static int git_path(source *s)
{
	size_t len = strlen(s->path);
	int kind = mev_tree_stat(s->tree, s->path, len), rc;
	const uint32_t *ids;
	s->exists = kind == MEV_KIND_FILE || kind == MEV_KIND_DIR;
	s->is_dir = s->is_dir || kind == MEV_KIND_DIR;
	if ((rc = mev_matcher_match(&ids, &s->nref, s->mt, s->path, len, s->is_dir)))
		return rc;
	for (size_t i = 0; i < s->nref; i++)
		s->ref[i] = mev_maint_sections(s->maint)[ids[i]].title;
	s->has_ref = 1;
	return 0;
}

/* --- from a store ---------------------------------------------------------------- */


/* A directory of the stored release: some file lies below p/. */
static int fm_is_dir(void *ctx, const char *p, size_t len)
{
	const mev_filemap *fm = ctx;
	const mev_file_row *rows = mev_filemap_rows(fm);
	size_t i;
	char *d = malloc(len + 2);
	int yes;
	if (!d)
		return 0;
	memcpy(d, p, len);
	d[len] = '/';
	i = mev_filemap_lower_bound(fm, d, len + 1);
	yes = i < mev_filemap_count(fm) && rows[i].path_len > len + 1 && !memcmp(rows[i].path, d, len + 1);
	free(d);
	return yes;
}

/* The stored row of exactly p, or NULL. */
static const mev_file_row *fm_row(const mev_filemap *fm, const char *p)
{
	size_t len = strlen(p), i = mev_filemap_lower_bound(fm, p, len);
	const mev_file_row *rows = mev_filemap_rows(fm);
	if (i < mev_filemap_count(fm) && rows[i].path_len == len && !memcmp(rows[i].path, p, len))
		return &rows[i];
	return NULL;
}

static int from_store(source *s, const mev_release_patterns *pt, const mev_filemap *fm)
{
	size_t nl = 0;
	int rc;
	for (size_t i = 0; i < pt->n; i++)
		nl += pt->v[i].n;
	if ((rc = source_alloc(s, pt->n, nl)))
		return rc;
	s->nsec = pt->n;
	s->utf8 = pt->utf8;
	s->is_dir_at = fm_is_dir;
	s->ctx = (void *)fm;
	s->fm = fm;
	s->store_mode = 1;
	for (size_t i = 0; i < pt->n; i++) {
		s->title[i] = pt->v[i].title;
		s->display[i] = pt->v[i].display;
		for (size_t k = 0; k < pt->v[i].n; k++) {
			const mev_pattern_line *x = &pt->v[i].v[k];
			add_line(s, x->type, x->value, x->regex, x->file, x->line, (uint32_t)i);
		}
	}
	return 0;
}

/* PATH in the stored file table: a file, a link or a directory (some file
 * below it), and the sections the walk gave a file. */
static void store_path(source *s)
{
	const mev_file_row *row = fm_row(s->fm, s->path);
	if (!s->is_dir && !row && fm_is_dir(s->ctx, s->path, strlen(s->path)))
		s->is_dir = 1;
	s->exists = row || s->is_dir;
	s->is_link = row && row->kind == MEV_KIND_LINK;
	if (row && !s->is_dir) {
		const mev_section_info *si = mev_filemap_sections(s->fm);
		const uint32_t *ids;
		s->nref = mev_filemap_set(&ids, s->fm, row->set);
		for (size_t i = 0; i < s->nref; i++)
			s->ref[i] = si[ids[i]].title;
		s->has_ref = 1;
	}
}

/* --- deciding and saying ----------------------------------------------------------- */

static int run_why(source *s)
{
	return mev_match_why(s->rules, s->verdicts, s->p, s->n, (uint32_t)s->nsec, s->utf8, s->path,
			     strlen(s->path), s->is_dir);
}

/* The sections why says are in equal the reference's (a set of titles). */
static int agrees(const source *s)
{
	size_t in = 0;
	for (size_t i = 0; i < s->nsec; i++) {
		int found = 0;
		if (s->verdicts[i] != MEV_WHY_IN)
			continue;
		in++;
		for (size_t k = 0; k < s->nref && !found; k++)
			found = strcmp(s->ref[k], s->title[i]) == 0;
		if (!found)
			return 0;
	}
	return in == s->nref;
}

static uint32_t slashes(const char *p)
{
	uint32_t n = 0;
	for (; *p; p++)
		n += *p == '/';
	return n;
}

/* What the directory test did to an F:/X: value, in words ("" for nothing to say). */
static void dir_note(char *out, size_t size, const source *s, const xline *x)
{
	size_t vl = strlen(x->value), rl = x->regex ? strlen(x->regex) : 0;
	out[0] = '\0';
	if (x->type == 'N' || !x->regex || !vl || x->value[vl - 1] == '/')
		return;
	if (rl && x->regex[rl - 1] == '/')
		snprintf(out, size, "; '%s' is a directory of %s: the script's directory test added the '/'",
			 x->value, s->tag);
	else if (strpbrk(x->value, ".*?") && s->is_dir_at(s->ctx, x->value, vl))
		snprintf(out, size, "; '%s' is a directory, but the script tests the converted text '%s', "
			 "which is not one, so it added no '/'", x->value, x->regex);
}

/* The rule in words. */
static void rule_text(char *out, size_t size, const source *s, const xline *x, mev_why_rule r)
{
	char note[1024];
	uint32_t ps = x->regex ? slashes(x->regex) : 0, fs = slashes(s->path) + (s->is_dir ? 1 : 0);
	dir_note(note, sizeof note, s, x);
	switch (r) {
	case MEV_WHY_ANY_DEPTH:
		snprintf(out, size, "starts the path; it ends in '/', so at any depth%s", note);
		break;
	case MEV_WHY_SAME_DEPTH:
		snprintf(out, size, "starts the path, and both have %" PRIu32 " '/'%s", ps, note);
		break;
	case MEV_WHY_DEPTH:
		snprintf(out, size, "starts the path, but the path has %" PRIu32 " '/' and the pattern %" PRIu32
			 ": no match (without a trailing '/' the counts must be equal)%s", fs, ps, note);
		break;
	case MEV_WHY_REGEX:
		snprintf(out, size, "the regex is found in the path (m/%s/x)", x->regex);
		break;
	case MEV_WHY_INVALID:
		snprintf(out, size, x->regex ? "the regex does not compile: it matches nothing"
					     : "this release's script has no N: handling: it matches nothing");
		break;
	case MEV_WHY_BUDGET:
		snprintf(out, size, "PCRE2 gave up on it (its limits): no match");
		break;
	default:
		snprintf(out, size, "does not start the path");
		break;
	}
}

/* What the line did to the section, in a word. */
static const char *effect(const xline *x, mev_why_rule r)
{
	if (MEV_WHY_MATCHES(r))
		return x->type == 'X' ? "keeps it out" : "takes it";
	return r == MEV_WHY_DEPTH ? "near" : "no";
}

static const mev_why_verdict shown_order[] = { MEV_WHY_IN, MEV_WHY_EXCLUDED, MEV_WHY_NEAR };

static const char *verdict_text(mev_why_verdict v)
{
	return v == MEV_WHY_IN ? "in" : v == MEV_WHY_EXCLUDED ? "excluded" : "near";
}

/* The sections (by index) with verdict v, in bytewise title order. */
static size_t sections_with(uint32_t *out, const source *s, mev_why_verdict v)
{
	size_t k = 0;
	for (size_t i = 0; i < s->nsec; i++) {
		size_t j;
		if (s->verdicts[i] != v)
			continue;
		for (j = k; j > 0 && strcmp(s->title[out[j - 1]], s->title[i]) > 0; j--)
			out[j] = out[j - 1];
		out[j] = (uint32_t)i;
		k++;
	}
	return k;
}

static void print_text(const source *s, uint32_t *idx)
{
	size_t nin = 0;
	char why[2048];
	for (size_t i = 0; i < s->nsec; i++)
		nin += s->verdicts[i] == MEV_WHY_IN;
	cli_say(stdout, "%s%s in %s: %zu section%s (as %s decides, keywords off)\n", s->path,
		s->is_dir ? "/" : "", s->tag, nin, nin == 1 ? "" : "s",
		s->script ? s->script : "the kernel's get_maintainer.pl");
	if (!s->exists)
		cli_say(stdout, "note: %s is no file or directory of %s: matched as a file name all the same\n",
			s->path, s->tag);
	for (size_t o = 0; o < sizeof shown_order / sizeof *shown_order; o++) {
		size_t k = sections_with(idx, s, shown_order[o]);
		for (size_t j = 0; j < k; j++) {
			uint32_t sec = idx[j];
			cli_say(stdout, "\n%s: %s", verdict_text(shown_order[o]), s->display[sec]);
			if (strcmp(s->display[sec], s->title[sec]))
				cli_say(stdout, " (title: %s)", s->title[sec]);
			cli_say(stdout, "\n");
			for (size_t i = 0; i < s->n; i++) {
				const xline *x = &s->lines[i];
				if (s->p[i].section != sec || s->rules[i] == MEV_WHY_NONE)
					continue;
				rule_text(why, sizeof why, s, x, s->rules[i]);
				cli_say(stdout, "  %c: %s  (%s:%" PRIu32 ") %s: %s\n", x->type, x->value, x->file,
					x->line, effect(x, s->rules[i]), why);
			}
			if (shown_order[o] == MEV_WHY_EXCLUDED)
				cli_say(stdout, "  an X: line that matches keeps the section out, its N: lines too\n");
		}
	}
	if (!nin)
		cli_say(stdout, "\nno section takes it\n");
}

static const mev_column why_cols[] = {
	{ "release", MEV_COLUMN_STRING }, { "path", MEV_COLUMN_STRING }, { "section", MEV_COLUMN_STRING },
	{ "verdict", MEV_COLUMN_STRING }, { "type", MEV_COLUMN_STRING }, { "value", MEV_COLUMN_STRING },
	{ "regex", MEV_COLUMN_STRING }, { "file", MEV_COLUMN_STRING }, { "line", MEV_COLUMN_INTEGER },
	{ "rule", MEV_COLUMN_STRING }, { "display_name", MEV_COLUMN_STRING }, { NULL, MEV_COLUMN_STRING }
};

static void print_rows(mev_table *w, const source *s, uint32_t *idx)
{
	char path[4096], type[2] = { 0, 0 };
	snprintf(path, sizeof path, "%s%s", s->path, s->is_dir ? "/" : "");
	for (size_t o = 0; o < sizeof shown_order / sizeof *shown_order; o++) {
		size_t k = sections_with(idx, s, shown_order[o]);
		for (size_t j = 0; j < k; j++)
			for (size_t i = 0; i < s->n; i++) {
				const xline *x = &s->lines[i];
				if (s->p[i].section != idx[j] || s->rules[i] == MEV_WHY_NONE)
					continue;
				type[0] = x->type;
				mev_table_str(w, s->tag);
				mev_table_str(w, path);
				mev_table_str(w, s->title[idx[j]]);
				mev_table_str(w, mev_why_verdict_name(shown_order[o]));
				mev_table_str(w, type);
				mev_table_str(w, x->value);
				mev_table_str_or_null(w, x->regex);
				mev_table_str(w, x->file);
				mev_table_uint(w, x->line);
				mev_table_str(w, mev_why_rule_name(s->rules[i]));
				mev_table_str(w, s->display[idx[j]]);
				mev_table_end_row(w);
			}
	}
}

/* Decide for the path set in s and check against the reference. */
static int decide(source *s)
{
	int rc;
	if ((rc = run_why(s)))
		return rc;
	/* the store does not say where a link leads: the walk matched one that
	 * leads to a directory as "path/" (as the script does) */
	if (s->is_link && !s->is_dir && s->has_ref && !agrees(s)) {
		s->is_dir = 1;
		if ((rc = run_why(s)))
			return rc;
		if (!agrees(s) && (rc = (s->is_dir = 0, run_why(s))))
			return rc;
	}
	if (s->has_ref && !agrees(s))
		cli_say(stderr, "maintevo: warning: the sections below differ from those the %s gives %s; "
				"please report it\n", s->store_mode ? "walk" : "matcher", s->path);
	return 0;
}

/* Explain every path: text, or one table (w not NULL) with the rows of all. */
static int explain_all(source *s, char **paths, size_t n, mev_table *w)
{
	uint32_t *idx = calloc(s->nsec + 1, sizeof *idx);
	int rc = 0;
	if (!idx)
		return oom();
	for (size_t i = 0; i < n && !rc; i++) {
		int slash = 0;
		free(s->path);
		s->nref = 0;
		s->has_ref = s->is_link = s->exists = 0;
		if (!(s->path = canonical(paths[i], &slash))) {
			rc = oom();
			break;
		}
		s->is_dir = slash;
		if (s->store_mode)
			store_path(s);
		else if ((rc = git_path(s)))
			break;
		if ((rc = decide(s)))
			break;
		if (w) {
			print_rows(w, s, idx);
		} else {
			if (i)
				cli_say(stdout, "\n");
			print_text(s, idx);
		}
	}
	free(idx);
	return rc;
}

/* Text, or a table in format f, for the release loaded in s. */
static int show(source *s, const cli_explain_path_args *a, char **paths, size_t n)
{
	mev_table *w = NULL;
	int f = a->format && strcmp(a->format, "text") ? mev_table_format_parse(a->format) : -1, rc;
	if (f >= 0 && (rc = mev_table_new(&w, stdout, (mev_table_format)f, why_cols)))
		return rc;
	if (w)
		mev_table_excel_safe(w, a->excel_safe);
	rc = explain_all(s, paths, n, w);
	if (w && !rc)
		rc = mev_table_finish(w);
	mev_table_free(w);
	return rc;
}

/* --- the command ----------------------------------------------------------------- */

static int explain_git(source *s, const cli_explain_path_args *a, char **paths, size_t n)
{
	cli_release r;
	cli_release_opts o = { 0 };
	int rc;
	o.repo = a->repo;
	o.rev = a->rev;
	o.rules = a->rules;
	if ((rc = cli_release_load(&r, &o, "explain")))
		return rc;
	s->tag = a->rev;
	s->script = mev_dialect_script(r.rules.dialect);
	rc = from_git(s, &r) || show(s, a, paths, n) ? cli_fail() : EXIT_OK;
	cli_release_free(&r);
	return rc;
}

/* The patterns and file table of the release, from one snapshot. */
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

static int explain_store(source *s, const cli_explain_path_args *a, char **paths, size_t n)
{
	mev_release_patterns pt = { 0 };
	mev_filemap *fm = NULL;
	mev_store *st = NULL;
	int rc = EXIT_OK;
	if (!a->release)
		return cli_usage_error("explain", "explain PATH needs --release TAG (with --store) "
				       "or --repo R --rev REV");
	if (mev_store_open(&st, a->store, MEV_STORE_READ) || mev_store_read_begin(st))
		rc = cli_fail();
	else if (load_stored(&pt, &fm, st, a->release))
		rc = cli_fail();
	else {
		mev_identity id;
		int d;
		if (mev_release_identity_get(&id, st) == 0 && (d = mev_dialect_parse(id.dialect)) > 0)
			s->script = mev_dialect_script((mev_dialect)d);
		mev_error_clear();
	}
	mev_store_read_end(st);
	if (rc == EXIT_OK) {
		s->tag = a->release;
		rc = from_store(s, &pt, fm) || show(s, a, paths, n) ? cli_fail() : EXIT_OK;
	}
	mev_filemap_free(fm);
	mev_release_patterns_free(&pt);
	mev_store_free(st);
	return rc;
}

int cli_explain_path(const cli_explain_path_args *a, char **paths, size_t n)
{
	source s = { 0 };
	int rc;
	if (a->format && strcmp(a->format, "text") != 0 && mev_table_format_parse(a->format) < 0)
		return cli_usage_error("explain", "unknown format '%s' (use text, csv, json or jsonl)", a->format);
	if (cli_excel_check("explain", a->excel_safe,
			    a->format && mev_table_format_parse(a->format) == MEV_TABLE_CSV))
		return EXIT_USAGE;
	if (a->repo && a->release)
		return cli_usage_error("explain", "--release goes with --store; from git, name the release "
				       "with --rev");
	if (a->rev && !a->repo)
		return cli_usage_error("explain", "--rev goes with --repo");
	rc = a->repo ? explain_git(&s, a, paths, n) : explain_store(&s, a, paths, n);
	if (rc == EXIT_OK && fflush(stdout)) {
		cli_say(stderr, "maintevo: error: cannot write to standard output\n");
		rc = EXIT_FAIL;
	}
	source_free(&s);
	return rc;
}
