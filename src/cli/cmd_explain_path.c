/*
 * maintevo explain PATH: for each section that takes PATH, keeps it out or
 * nearly takes it, the F:, X: and N: lines that decided and the rule each
 * applied (mev_match_why(): the matcher's own patterns and rules), for a
 * release read from git (--repo, --rev) or from a store (--store,
 * --release: the patterns the walk stored, with their regexes).  The
 * answers are the library's (mev_pathwhy, pathwhy.h); here the options
 * are checked, the answers put in words or a table, and the exit code
 * chosen.
 */
#include "explain.h"
#include "maintevo/pathwhy.h"
#include "maintevo/store.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The release explained, as the printers need it besides each answer:
 * its name, whose rules, its sections and lines. */
typedef struct {
	mev_pathwhy *pw;
	const char *tag;
	const char *script;              /* whose rules: mev_dialect_script(), or NULL */
	const mev_pathwhy_section *sec;
	const mev_pathwhy_line *lines;
	size_t nlines;
	int from_store;
} release;

static uint32_t slashes(const char *p)
{
	uint32_t n = 0;
	for (; *p; p++)
		n += *p == '/';
	return n;
}

/* What the directory test did to an F:/X: value, in words ("" for nothing to say). */
static void dir_note(char *out, size_t size, const release *r, size_t i)
{
	const mev_pathwhy_line *x = &r->lines[i];
	out[0] = '\0';
	switch (mev_pathwhy_dir_test(r->pw, i)) {
	case MEV_PATHWHY_DIR_ADDED:
		snprintf(out, size, "; '%s' is a directory of %s: the script's directory test added the '/'",
			 x->value, r->tag);
		break;
	case MEV_PATHWHY_DIR_MISSED:
		snprintf(out, size, "; '%s' is a directory, but the script tests the converted text '%s', "
			 "which is not one, so it added no '/'", x->value, x->regex);
		break;
	default:
		break;
	}
}

/* The rule of line i in words. */
static void rule_text(char *out, size_t size, const release *r, const mev_pathwhy_answer *a, size_t i)
{
	const mev_pathwhy_line *x = &r->lines[i];
	char note[1024];
	uint32_t ps = x->regex ? slashes(x->regex) : 0, fs = slashes(a->path) + (a->is_dir ? 1 : 0);
	dir_note(note, sizeof note, r, i);
	switch (a->rules[i]) {
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
static const char *effect(const mev_pathwhy_line *x, mev_why_rule r)
{
	if (MEV_WHY_MATCHES(r))
		return x->type == 'X' ? "keeps it out" : "takes it";
	return r == MEV_WHY_DEPTH ? "near" : "no";
}

static const char *verdict_text(mev_why_verdict v)
{
	return v == MEV_WHY_IN ? "in" : v == MEV_WHY_EXCLUDED ? "excluded" : "near";
}

/* Section sec as text: its verdict, its name, the lines that said something. */
static void print_section(const release *r, const mev_pathwhy_answer *a, uint32_t sec)
{
	const mev_pathwhy_section *s = &r->sec[sec];
	mev_why_verdict v = (mev_why_verdict)a->verdicts[sec];
	char why[2048];
	cli_say(stdout, "\n%s: %s", verdict_text(v), s->display);
	if (strcmp(s->display, s->title))
		cli_say(stdout, " (title: %s)", s->title);
	cli_say(stdout, "\n");
	for (size_t i = 0; i < r->nlines; i++) {
		const mev_pathwhy_line *x = &r->lines[i];
		if (x->section != sec || a->rules[i] == MEV_WHY_NONE)
			continue;
		rule_text(why, sizeof why, r, a, i);
		cli_say(stdout, "  %c: %s  (%s:%" PRIu32 ") %s: %s\n", x->type, x->value, x->file, x->line,
			effect(x, a->rules[i]), why);
	}
	if (v == MEV_WHY_EXCLUDED)
		cli_say(stdout, "  an X: line that matches keeps the section out, its N: lines too\n");
}

static void print_text(const release *r, const mev_pathwhy_answer *a)
{
	cli_say(stdout, "%s%s in %s: %zu section%s (as %s decides, keywords off)\n", a->path,
		a->is_dir ? "/" : "", r->tag, a->nin, a->nin == 1 ? "" : "s",
		r->script ? r->script : "the kernel's get_maintainer.pl");
	if (!a->exists)
		cli_say(stdout, "note: %s is no file or directory of %s: matched as a file name all the same\n",
			a->path, r->tag);
	for (size_t j = 0; j < a->nshown; j++)
		print_section(r, a, a->shown[j]);
	if (!a->nin)
		cli_say(stdout, "\nno section takes it\n");
}

static const mev_column why_cols[] = {
	{ "release", MEV_COLUMN_STRING }, { "path", MEV_COLUMN_STRING }, { "section", MEV_COLUMN_STRING },
	{ "verdict", MEV_COLUMN_STRING }, { "type", MEV_COLUMN_STRING }, { "value", MEV_COLUMN_STRING },
	{ "regex", MEV_COLUMN_STRING }, { "file", MEV_COLUMN_STRING }, { "line", MEV_COLUMN_INTEGER },
	{ "rule", MEV_COLUMN_STRING }, { "display_name", MEV_COLUMN_STRING }, { NULL, MEV_COLUMN_STRING }
};

static void print_rows(mev_table *w, const release *r, const mev_pathwhy_answer *a)
{
	char path[4096], type[2] = { 0, 0 };
	snprintf(path, sizeof path, "%s%s", a->path, a->is_dir ? "/" : "");
	for (size_t j = 0; j < a->nshown; j++) {
		uint32_t sec = a->shown[j];
		for (size_t i = 0; i < r->nlines; i++) {
			const mev_pathwhy_line *x = &r->lines[i];
			if (x->section != sec || a->rules[i] == MEV_WHY_NONE)
				continue;
			type[0] = x->type;
			mev_table_str(w, r->tag);
			mev_table_str(w, path);
			mev_table_str(w, r->sec[sec].title);
			mev_table_str(w, mev_why_verdict_name((mev_why_verdict)a->verdicts[sec]));
			mev_table_str(w, type);
			mev_table_str(w, x->value);
			mev_table_str_or_null(w, x->regex);
			mev_table_str(w, x->file);
			mev_table_uint(w, x->line);
			mev_table_str(w, mev_why_rule_name(a->rules[i]));
			mev_table_str(w, r->sec[sec].display);
			mev_table_end_row(w);
		}
	}
}

/* Explain every path: text, or one table (w not NULL) with the rows of all. */
static int explain_all(const release *r, char **paths, size_t n, mev_table *w)
{
	for (size_t i = 0; i < n; i++) {
		mev_pathwhy_answer a;
		int rc;
		if ((rc = mev_pathwhy_explain(&a, r->pw, paths[i])))
			return rc;
		if (a.disagrees)
			cli_say(stderr, "maintevo: warning: the sections below differ from those the %s gives %s; "
					"please report it\n", r->from_store ? "walk" : "matcher", a.path);
		if (w) {
			print_rows(w, r, &a);
		} else {
			if (i)
				cli_say(stdout, "\n");
			print_text(r, &a);
		}
	}
	return 0;
}

/* Text, or a table in a's format, for release r: the exit code. */
static int show(release *r, const cli_explain_path_args *a, char **paths, size_t n)
{
	mev_table *w = NULL;
	int f = a->format && strcmp(a->format, "text") ? mev_table_format_parse(a->format) : -1, rc;
	size_t nsec;
	r->script = mev_pathwhy_script(r->pw);
	r->sec = mev_pathwhy_sections(r->pw, &nsec);
	r->lines = mev_pathwhy_lines(r->pw, &r->nlines);
	if (f >= 0 && (rc = mev_table_new(&w, stdout, (mev_table_format)f, why_cols)))
		return cli_fail();
	if (w)
		mev_table_excel_safe(w, a->excel_safe);
	rc = explain_all(r, paths, n, w);
	if (w && !rc)
		rc = mev_table_finish(w);
	mev_table_free(w);
	return rc ? cli_fail() : EXIT_OK;
}

/* --- the command ----------------------------------------------------------------- */

static int explain_git(const cli_explain_path_args *a, char **paths, size_t n)
{
	release r = { .tag = a->rev };
	cli_release g;
	cli_release_opts o = { 0 };
	int rc;
	o.repo = a->repo;
	o.rev = a->rev;
	o.rules = a->rules;
	if ((rc = cli_release_load(&g, &o, "explain")))
		return rc;
	rc = mev_pathwhy_from_git(&r.pw, g.maint, g.tree) ? cli_fail() : show(&r, a, paths, n);
	mev_pathwhy_free(r.pw);
	cli_release_free(&g);
	return rc;
}

static int explain_store(const cli_explain_path_args *a, char **paths, size_t n)
{
	release r = { .tag = a->release, .from_store = 1 };
	mev_store *st = NULL;
	int rc;
	if (!a->release)
		return cli_usage_error("explain", "explain PATH needs --release TAG (with --store) "
				       "or --repo R --rev REV");
	if (mev_store_open(&st, a->store, MEV_STORE_READ) || mev_pathwhy_from_store(&r.pw, st, a->release))
		rc = cli_fail();
	else
		rc = show(&r, a, paths, n);
	mev_pathwhy_free(r.pw);
	mev_store_free(st);
	return rc;
}

int cli_explain_path(const cli_explain_path_args *a, char **paths, size_t n)
{
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
	rc = a->repo ? explain_git(a, paths, n) : explain_store(a, paths, n);
	if (rc == EXIT_OK && fflush(stdout)) {
		cli_say(stderr, "maintevo: error: cannot write to standard output\n");
		rc = EXIT_FAIL;
	}
	return rc;
}
