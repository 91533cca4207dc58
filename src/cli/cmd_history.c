/*
 * maintevo history: one path (a file or a directory) or one section over
 * every release of a store: lines, covering sections with their share,
 * cluster and lineage, and the releases where that changed.
 */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/export.h"
#include "maintevo/store.h"

#include <inttypes.h>
#include <string.h>

typedef struct {
	const char *store, *release, *section, *format, *out;
	int keep_rest, all, excel_safe;
	long top;
	cli_cluster_opts cluster;
	mev_track_params tp;
} history_args;

static const cli_option options[] = {
	CLI_OPT_STORE(history_args, store),
	CLI_OPT_STRING(history_args, section, 0, "section", "TITLE",
		       "the history of this section instead of a path: its\n"
		       "title (or display name), its cluster and lineage"),
	CLI_OPT_STRING(history_args, release, 0, "release", "TAG", "only this release (PATH)"),
	CLI_OPT_INT(history_args, top, 'n', "top", "N", 1, 1000000,
		    "text: at most N sections and lineages a release\n"
		    "(default 3; the tables have them all)"),
	CLI_OPT_FLAG(history_args, all, 'a', "all",
		     "text: the lineages and sections of every release, not\n"
		     "only of those where something changed"),
	CLI_OPT_FLAG(history_args, keep_rest, 0, "keep-rest", "count THE REST among the sections (PATH)"),
	CLI_OPT_STRING(history_args, format, 'f', "format", "F", "text (default), csv, json or jsonl"),
	CLI_OPT_EXCEL_SAFE(history_args, excel_safe),
	CLI_OPT_OUT(history_args, out),
	CLI_OPT_HELP,
	CLI_OPT_GROUP(history_args, cluster, cli_cluster_options,
		      "the clustering to read (as given to 'maintevo cluster'):"),
	CLI_OPT_GROUP(history_args, tp, cli_track_options,
		      "the tracking results to read (as given to 'maintevo track'):"),
	CLI_OPT_END
};

const cli_command cmd_history_spec = {
	.name = "history",
	.usage = CLI_USAGE("[--store DIR] [--release TAG] [--top N] [--format F] [options] PATH",
			   "[--store DIR] --section TITLE [--format F] [options]"),
	.about =
		"Follow one path over the stored releases: a file, or a directory (PATH\n"
		"ending in '/', or a name that is a directory in some release: every file\n"
		"below it).  Per release: its files and lines, the lines no section covers,\n"
		"the lineages (or, untracked, the clusters) holding its lines, and the\n"
		"sections covering it, each with its share of the path's lines (THE REST\n"
		"left out unless --keep-rest); the change column marks the releases where\n"
		"the path appeared (new), its set of sections changed (sections) or another\n"
		"lineage holds the most of its lines (lineage); the text shows the\n"
		"lineages and sections of those releases (of all with --all) and, for the\n"
		"others, the lineage with the most lines.  A path no release has is an\n"
		"error that names the closest stored paths.\n"
		"\n"
		"With --section TITLE: the section's size, status, maintainers (M:),\n"
		"cluster and lineage in every release, marking where it appeared, where it\n"
		"was renamed (followed under its new title, as 'maintevo section-changes'\n"
		"says, when tracked) and where its lineage changed.  Lineage names are the\n"
		"stable ones of 'maintevo lineages'.\n"
		"\n"
		"--format csv (json, jsonl) writes a tidy table instead (docs/schemas.md,\n"
		"\"history\"): for a path one row per release and covering section\n"
		"  release,path,kind,files,lines,uncovered_lines,section,section_files,\n"
		"  section_lines,share,cluster,representative,lineage,lineage_name,\n"
		"  display_name,new,sections_changed,lineage_changed\n"
		"and for a section one row per release\n"
		"  release,section,present,title,display_name,status,maintainers,files,\n"
		"  lines,cluster,representative,cluster_sections,lineage,lineage_name,new,\n"
		"  lineage_changed,renamed",
	.options = options,
	.operands = 1,
};

static const char *pct(char out[16], uint64_t part, uint64_t whole)
{
	snprintf(out, 16, "%.1f%%", whole ? 100.0 * (double)part / (double)whole : 0.0);
	return out;
}

static const char *changes(char out[40], unsigned c)
{
	static const char *const names[] = { "new", "sections", "lineage", "renamed" };
	size_t l = 0;
	out[0] = '\0';
	for (unsigned i = 0; i < 4; i++)
		if (c & (1u << i))
			l += (size_t)snprintf(out + l, 40 - l, "%s%s", l ? "," : "", names[i]);
	return out;
}

static void print_path_release(FILE *f, const mev_path_history *ph, const mev_path_release *pr, long top,
			       int full)
{
	char n1[32], n2[32], p[16], ch[40];
	cli_say(f, "%-12s %-16s", pr->tag, changes(ch, pr->changed));
	if (!pr->has_files) {
		cli_say(f, " (imported: no file table)\n");
		return;
	}
	if (!pr->present) {
		cli_say(f, " absent\n");
		return;
	}
	if (ph->is_dir)
		cli_say(f, " %7s files", mev_table_count(n1, (int64_t)pr->files));
	cli_say(f, " %10s lines", mev_table_count(n2, (int64_t)pr->lines));
	if (pr->uncovered_lines)
		cli_say(f, " (%s in no section)", pct(p, pr->uncovered_lines, pr->lines));
	if (!pr->changed && !full) {
		/* as before: the lineage (or section) with the most lines only */
		if (pr->nl && pr->l[0].lineage >= 0)
			cli_say(f, "  %s (%" PRId64 ") %s", pr->l[0].name, pr->l[0].lineage,
				pct(p, pr->l[0].lines, pr->lines));
		else if (pr->nl)
			cli_say(f, "  %s %s", pr->l[0].name, pct(p, pr->l[0].lines, pr->lines));
		else if (pr->n)
			cli_say(f, "  %s %s", pr->v[0].display, pct(p, pr->v[0].lines, pr->lines));
		cli_say(f, "\n");
		return;
	}
	cli_say(f, "\n");
	if (pr->nl) {
		cli_say(f, "    %s:", pr->l[0].lineage >= 0 ? "lineage" : "cluster");
		for (size_t i = 0; i < pr->nl && (long)i < top; i++)
			if (pr->l[i].lineage >= 0)
				cli_say(f, "%s %s (%" PRId64 ") %s", i ? "," : "", pr->l[i].name, pr->l[i].lineage,
					pct(p, pr->l[i].lines, pr->lines));
			else
				cli_say(f, "%s %s %s", i ? "," : "", pr->l[i].name, pct(p, pr->l[i].lines, pr->lines));
		if ((long)pr->nl > top)
			cli_say(f, " and %zu more", pr->nl - (size_t)top);
		cli_say(f, "\n");
	}
	cli_say(f, "    sections:");
	for (size_t i = 0; i < pr->n && (long)i < top; i++)
		cli_say(f, "%s %s %s", i ? "," : "", pr->v[i].display, pct(p, pr->v[i].lines, pr->lines));
	if ((long)pr->n > top)
		cli_say(f, " and %zu more", pr->n - (size_t)top);
	cli_say(f, "%s\n", pr->n ? "" : " none");
}

static void print_path(FILE *f, const mev_path_history *ph, const history_args *a)
{
	size_t present = 0, changed = 0;
	for (size_t i = 0; i < ph->n; i++) {
		present += ph->v[i].present;
		changed += ph->v[i].present && (ph->v[i].changed & ~(unsigned)MEV_PATH_NEW);
	}
	cli_say(f, "%s%s: %s in %zu of %zu releases, changed in %zu", ph->path, ph->is_dir ? "/" : "",
		ph->is_dir ? "a directory" : "a file", present, ph->n, changed);
	if (!ph->clustered)
		cli_say(f, " (not clustered with %s: 'maintevo cluster' first)", a->cluster.key);
	else if (!ph->tracked)
		cli_say(f, " (not tracked: clusters instead of lineages; 'maintevo track' first)");
	cli_say(f, "\n\n");
	for (size_t i = 0; i < ph->n; i++)
		print_path_release(f, ph, &ph->v[i], a->top, a->all);
}

static const mev_column path_cols[] = {
	{ "release", MEV_COLUMN_STRING }, { "path", MEV_COLUMN_STRING }, { "kind", MEV_COLUMN_STRING },
	{ "files", MEV_COLUMN_INTEGER }, { "lines", MEV_COLUMN_INTEGER }, { "uncovered_lines", MEV_COLUMN_INTEGER },
	{ "section", MEV_COLUMN_STRING }, { "section_files", MEV_COLUMN_INTEGER },
	{ "section_lines", MEV_COLUMN_INTEGER }, { "share", MEV_COLUMN_NUMBER }, { "cluster", MEV_COLUMN_INTEGER },
	{ "representative", MEV_COLUMN_STRING }, { "lineage", MEV_COLUMN_INTEGER },
	{ "lineage_name", MEV_COLUMN_STRING }, { "display_name", MEV_COLUMN_STRING },
	{ "new", MEV_COLUMN_INTEGER }, { "sections_changed", MEV_COLUMN_INTEGER },
	{ "lineage_changed", MEV_COLUMN_INTEGER }, { NULL, MEV_COLUMN_STRING }
};

static void path_row(mev_table *w, const mev_path_history *ph, const mev_path_release *pr,
		     const mev_path_section *ps)
{
	char path[4096];
	snprintf(path, sizeof path, "%s%s", ph->path, ph->is_dir ? "/" : "");
	mev_table_str(w, pr->tag);
	mev_table_str(w, path);
	mev_table_str(w, !pr->has_files ? "imported" : !pr->present ? "absent" : pr->is_dir ? "directory" : "file");
	mev_table_uint(w, pr->files);
	mev_table_uint(w, pr->lines);
	mev_table_uint(w, pr->uncovered_lines);
	mev_table_str_or_null(w, ps ? ps->section : NULL);
	if (ps) {
		mev_table_uint(w, ps->files);
		mev_table_uint(w, ps->lines);
		mev_table_num(w, pr->lines ? (double)ps->lines / (double)pr->lines : 0);
	} else {
		mev_table_null(w);
		mev_table_null(w);
		mev_table_null(w);
	}
	mev_table_int_or_null(w, ps ? ps->cluster : -1);
	mev_table_str_or_null(w, ps ? ps->representative : NULL);
	mev_table_int_or_null(w, ps ? ps->lineage : -1);
	mev_table_str_or_null(w, ps ? ps->lineage_name : NULL);
	mev_table_str_or_null(w, ps ? ps->display : NULL);
	mev_table_uint(w, (pr->changed & MEV_PATH_NEW) != 0);
	mev_table_uint(w, (pr->changed & MEV_PATH_SECTIONS) != 0);
	mev_table_uint(w, (pr->changed & MEV_PATH_LINEAGE) != 0);
	mev_table_end_row(w);
}

static int table_path(FILE *f, const mev_path_history *ph, mev_table_format fmt, int excel_safe)
{
	mev_table *w = NULL;
	int rc = mev_table_new(&w, f, fmt, path_cols);
	if (rc)
		return rc;
	mev_table_excel_safe(w, excel_safe);
	for (size_t i = 0; i < ph->n; i++) {
		const mev_path_release *pr = &ph->v[i];
		if (!pr->n)
			path_row(w, ph, pr, NULL);
		for (size_t k = 0; k < pr->n; k++)
			path_row(w, ph, pr, &pr->v[k]);
	}
	rc = mev_table_finish(w);
	mev_table_free(w);
	return rc;
}

static void print_section(FILE *f, const mev_section_history *sh, const history_args *a)
{
	char n1[32], n2[32], ch[40];
	size_t present = 0, changed = 0;
	for (size_t i = 0; i < sh->n; i++) {
		present += sh->v[i].present;
		changed += (sh->v[i].changed & MEV_PATH_LINEAGE) != 0;
	}
	cli_say(f, "section %s: in %zu of %zu releases, another lineage in %zu", sh->title, present, sh->n, changed);
	if (!sh->clustered)
		cli_say(f, " (not clustered with %s: 'maintevo cluster' first)", a->cluster.key);
	else if (!sh->tracked)
		cli_say(f, " (not tracked: no lineages; 'maintevo track' first)");
	cli_say(f, "\n\n%-12s %-12s %10s %7s %3s  %s\n", "release", "change", "lines", "files", "M:",
		"cluster (sections) / lineage");
	for (size_t i = 0; i < sh->n; i++) {
		const mev_section_release *sr = &sh->v[i];
		cli_say(f, "%-12s %-12s", sr->tag, changes(ch, sr->changed));
		if (!sr->present) {
			cli_say(f, " absent\n");
			continue;
		}
		cli_say(f, " %10s %7s %3" PRIu32 "  ", mev_table_count(n1, (int64_t)sr->lines),
			mev_table_count(n2, (int64_t)sr->files), sr->maintainers);
		if (sr->cluster < 0)
			cli_say(f, "not clustered");
		else
			cli_say(f, "%s (%" PRIu64 ")", sr->representative, sr->cluster_sections);
		if (sr->lineage >= 0)
			cli_say(f, " / %s (%" PRId64 ")", sr->lineage_name, sr->lineage);
		if (sr->status && *sr->status)
			cli_say(f, "  [%s]", sr->status);
		if (sr->changed & MEV_PATH_RENAMED)
			cli_say(f, "  now %s", sr->title);
		cli_say(f, "\n");
	}
}

static const mev_column section_cols[] = {
	{ "release", MEV_COLUMN_STRING }, { "section", MEV_COLUMN_STRING }, { "present", MEV_COLUMN_INTEGER },
	{ "title", MEV_COLUMN_STRING }, { "display_name", MEV_COLUMN_STRING }, { "status", MEV_COLUMN_STRING },
	{ "maintainers", MEV_COLUMN_INTEGER }, { "files", MEV_COLUMN_INTEGER }, { "lines", MEV_COLUMN_INTEGER },
	{ "cluster", MEV_COLUMN_INTEGER }, { "representative", MEV_COLUMN_STRING },
	{ "cluster_sections", MEV_COLUMN_INTEGER }, { "lineage", MEV_COLUMN_INTEGER },
	{ "lineage_name", MEV_COLUMN_STRING }, { "new", MEV_COLUMN_INTEGER },
	{ "lineage_changed", MEV_COLUMN_INTEGER }, { "renamed", MEV_COLUMN_INTEGER }, { NULL, MEV_COLUMN_STRING }
};

static int table_section(FILE *f, const mev_section_history *sh, mev_table_format fmt,
			 int excel_safe)
{
	mev_table *w = NULL;
	int rc = mev_table_new(&w, f, fmt, section_cols);
	if (rc)
		return rc;
	mev_table_excel_safe(w, excel_safe);
	for (size_t i = 0; i < sh->n; i++) {
		const mev_section_release *sr = &sh->v[i];
		mev_table_str(w, sr->tag);
		mev_table_str(w, sh->title);
		mev_table_uint(w, (uint64_t)sr->present);
		mev_table_str_or_null(w, sr->present ? sr->title : NULL);
		mev_table_str_or_null(w, sr->present ? sr->display : NULL);
		mev_table_str_or_null(w, sr->present ? sr->status : NULL);
		if (sr->present) {
			mev_table_uint(w, sr->maintainers);
			mev_table_uint(w, sr->files);
			mev_table_uint(w, sr->lines);
		} else {
			mev_table_null(w);
			mev_table_null(w);
			mev_table_null(w);
		}
		mev_table_int_or_null(w, sr->cluster);
		mev_table_str_or_null(w, sr->representative);
		mev_table_int_or_null(w, sr->cluster >= 0 ? (int64_t)sr->cluster_sections : -1);
		mev_table_int_or_null(w, sr->lineage);
		mev_table_str_or_null(w, sr->lineage_name);
		mev_table_uint(w, (sr->changed & MEV_PATH_NEW) != 0);
		mev_table_uint(w, (sr->changed & MEV_PATH_LINEAGE) != 0);
		mev_table_uint(w, (sr->changed & MEV_PATH_RENAMED) != 0);
		mev_table_end_row(w);
	}
	rc = mev_table_finish(w);
	mev_table_free(w);
	return rc;
}

/* Read what was asked for and write it to o->f; the exit code. */
static int history(cli_out *o, mev_store *s, const history_args *a, const char *path, int fmt)
{
	mev_export_options eo = { 0 };
	int rc;
	if ((rc = mev_history_open(&eo.history, s, &a->cluster.p, &a->tp, NULL, 0)))
		return rc;
	eo.release = a->release;
	eo.keep_rest = a->keep_rest;
	if (a->section) {
		mev_section_history sh;
		if (!(rc = mev_export_section_history(&sh, s, a->section, &eo))) {
			if (fmt < 0)
				print_section(o->f, &sh, a);
			else
				rc = table_section(o->f, &sh, (mev_table_format)fmt, a->excel_safe);
		}
		mev_section_history_free(&sh);
	} else {
		mev_path_history ph;
		if (!(rc = mev_export_path_history(&ph, s, path, &eo))) {
			if (fmt < 0)
				print_path(o->f, &ph, a);
			else
				rc = table_path(o->f, &ph, (mev_table_format)fmt, a->excel_safe);
		}
		mev_path_history_free(&ph);
	}
	mev_history_free(eo.history);
	return rc;
}

int cmd_history(int argc, char **argv)
{
	history_args a = { .store = "maintevo.store", .top = 3 };
	mev_store *s = NULL;
	cli_out out;
	int argi, rc, fmt = -1;

	cli_cluster_init(&a.cluster);
	mev_track_params_init(&a.tp);
	if ((rc = cli_parse(&argi, &cmd_history_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if (!a.section == !(argi < argc))
		return cli_usage_error("history", "give either a PATH or --section TITLE");
	if (a.section && (a.release || a.keep_rest || a.all))
		return cli_usage_error("history", "--release, --all and --keep-rest go with a PATH, not --section");
	if (a.format && strcmp(a.format, "text") && (fmt = mev_table_format_parse(a.format)) < 0)
		return cli_usage_error("history", "unknown format '%s' (use text, csv, json or jsonl)", a.format);
	if ((rc = cli_excel_check("history", a.excel_safe, fmt == MEV_TABLE_CSV)))
		return rc;
	if ((rc = cli_cluster_finish(&a.cluster, "history")))
		return rc;
	if (mev_store_open(&s, a.store, MEV_STORE_READ))
		return cli_fail();
	if ((rc = cli_out_open(&out, a.out)))
		goto done;
	if (history(&out, s, &a, argi < argc ? argv[argi] : NULL, fmt)) {
		rc = cli_out_fail(&out);
		goto done;
	}
	rc = cli_out_commit(&out);
done:
	mev_store_free(s);
	return rc;
}
