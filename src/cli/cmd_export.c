/* maintevo export: tidy tables and graphs of a store for pandas, R and Gephi. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/export.h"
#include "maintevo/store.h"
#include "maintevo/suggest.h"

#include <string.h>

typedef struct {
	const char *store, *format, *out, *by, *orgs, *fold;
	mev_export_options eo;
	int meta;
	cli_cluster_opts cluster;
	mev_track_params tp;
} export_args;

static const cli_option options[] = {
	CLI_OPT_STORE(export_args, store),
	CLI_OPT_STRING(export_args, format, 'f', "format", "F", "output format (see above)"),
	CLI_OPT_STRING(export_args, eo.release, 0, "release", "TAG",
		       "only this release (events, section_changes: those that\n"
		       "lead to it; files and graph: the release to write)"),
	CLI_OPT_STRING(export_args, eo.from, 0, "from", "TAG",
		       "events, section_changes: only pairs whose from_release\n"
		       "is TAG or later"),
	CLI_OPT_STRING(export_args, eo.to, 0, "to", "TAG",
		       "events, section_changes: only pairs whose to_release is\n"
		       "TAG or earlier"),
	CLI_OPT_STRING(export_args, eo.path, 0, "path", "PATH",
		       "files: follow this file, or every file below this\n"
		       "directory, over all releases (or in --release)"),
	CLI_OPT_FLAG(export_args, meta, 0, "meta",
		     "graph: vertices are clusters, edges the lines their\n"
		     "sections share"),
	CLI_OPT_FLAG(export_args, eo.keep_rest, 0, "keep-rest", "keep THE REST (left out by default)"),
	CLI_OPT_STRING(export_args, by, 0, "by", "G",
		       "workload: one row per release and lineage (default),\n"
		       "section or cluster"),
	CLI_OPT_STRING(export_args, eo.repo, 0, "repo", "PATH",
		       "workload, listed, listed_sections, candidates: the git\n"
		       "repository (default: the one the store was walked from)"),
	CLI_OPT_STRING(export_args, orgs, 0, "orgs", "FILE",
		       "workload, all: the organisations of addresses and\n"
		       "domains (gitdm's email-map format, below; default:\n"
		       "an address's domain)"),
	CLI_OPT_INT(export_args, eo.quiet_months, 0, "quiet-months", "N", 1, 1200,
		    "listed, listed_sections: a person with nothing in\n"
		    "the section for N months is quiet, with nothing\n"
		    "anywhere gone;\n"
		    "candidates: the months counted (default 12)"),
	CLI_OPT_INT(export_args, eo.top, 0, "top", "K", 1, 1000,
		    "candidates: people per release and section (default 3)"),
	CLI_OPT_STRING(export_args, eo.people, 0, "people", "FILE",
		       "listed, listed_sections, candidates: addresses of\n"
		       "listed entries that are not addresses (Zephyr's\n"
		       "GitHub handles): lines\n"
		       "'HANDLE ADDRESS', '#' starts a comment"),
	CLI_OPT_STRING(export_args, fold, 0, "fold", "HOW",
		       "listed, listed_sections, candidates: which addresses\n"
		       "are one person: names (default: as addresses, and\n"
		       "those seen under one full name of two words or more),\n"
		       "addresses (one but for case and a '+tag':\n"
		       "a+usb@x.org is a@x.org) or none (flow's, after\n"
		       ".mailmap)"),
	CLI_OPT_EXCEL_SAFE(export_args, eo.excel_safe),
	CLI_OPT_OUT(export_args, out),
	CLI_OPT_HELP,
	CLI_OPT_GROUP(export_args, cluster, cli_cluster_options,
		      "the clustering to read (as given to 'maintevo cluster'):"),
	CLI_OPT_GROUP(export_args, tp, cli_track_options,
		      "the tracking results to read (as given to 'maintevo track'):"),
	CLI_OPT_END
};

const cli_command cmd_export_spec = {
	.name = "export",
	.usage = CLI_USAGE("TABLE --store DIR [--format csv|json|jsonl] [-o FILE]\n"
			   "[--release TAG] [--from TAG] [--to TAG] [--path PATH]\n"
			   "[--keep-rest] [--excel-safe] [--method M ...]",
			   "workload --store DIR [--by lineage|section|cluster]\n"
			   "[--release TAG] [--from TAG] [--to TAG] [--repo PATH]\n"
			   "[--orgs FILE] [-f F] [-o FILE]",
			   "listed|listed_sections|candidates --store DIR [--quiet-months N] [--top K]\n"
			   "[--people FILE] [--fold names|addresses|none] [--release TAG]\n"
			   "[--repo PATH] [-f F] [-o FILE]",
			   "graph --store DIR --release TAG [--format graphml|json|dot|csv]\n"
			   "[--meta] [--method M ...] [-o FILE]",
			   "all --store DIR [--format sqlite] -o FILE.db\n"
			   "[--release TAG] [--keep-rest] [--method M ...]"),
	.about =
		"Write a table of the store in long form (one row per release and entity),\n"
		"columns in a fixed order, rows in a fixed order (releases in version order,\n"
		"then names bytewise).  docs/schemas.md describes every column.  The short\n"
		"commands releases, clusters, events, lineages and section-changes print the\n"
		"same tables.\n"
		"\n"
		"tables:\n"
		"  releases   one row per release: files, lines, sections, uncovered code,\n"
		"             sections without maintainer or orphaned, clusters\n"
		"  sections   one row per release and section: status, people, size, cluster\n"
		"  edges      one row per release and pair of sections that share files\n"
		"  clusters   one row per release, cluster and section\n"
		"  events     one row per link between clusters of consecutive releases\n"
		"  lineages   one row per lineage (a subsystem followed over releases)\n"
		"  flows      one row per band segment of 'maintevo chart' between\n"
		"             consecutive releases: from_release,to_release,from_lineage,\n"
		"             to_lineage,lines,files,sections (a birth has no from_lineage,\n"
		"             a death no to_lineage), for ggalluvial, pandas, plotly\n"
		"  section_changes\n"
		"             one row per section added, removed or renamed between\n"
		"             consecutive releases\n"
		"  files      one row per file and covering section: every file of --release\n"
		"             TAG, or with --path PATH the files of one path over all releases\n"
		"             (a file, or every file below a directory: 'drivers/net/', or a\n"
		"             name that is a directory in some release), in --release TAG only\n"
		"             when given too\n"
		"  commits    one row per commit judged by 'maintevo flow': route, sections,\n"
		"             verdicts (docs/flow.md)\n"
		"  flow       patch flow aggregates per release, section, subsystem and\n"
		"             strange path: shares of each verdict\n"
		"  people     one row per release and person of the patch flow: commits\n"
		"             authored, committed, signed off, reviewed; sections as M:/R:\n"
		"  health     one row per release and MAINTAINERS finding, in the spirit of\n"
		"             get_maintainer.pl --self-test: F:/X:/N: lines that match no file,\n"
		"             sections covering nothing, without M:, orphan or obsolete, repeated\n"
		"             titles, titles from comment lines, orphan and obsolete code, and\n"
		"             the code no section covers by top-level and second-level directory\n"
		"  workload   one row per release and lineage (--by section, cluster: per\n"
		"             section or cluster): sections, files, lines; distinct M:, R:\n"
		"             and L: people (folded through .mailmap as flow folds them);\n"
		"             the commits since the previous release that touched its\n"
		"             files (from 'maintevo flow'), authors, committers, the top\n"
		"             committer and shares, bus factor, lines per maintainer;\n"
		"             the share of commits reviewed or acked by another, the\n"
		"             share of those across organisations, CHAOSS's absence\n"
		"             and elephant factors (the fewest authors, organisations\n"
		"             with at least half the commits); reads the repository\n"
		"             for M:/R:/L: (--repo)\n"
		"  listed     one row per release, section and M:/R: person of its own\n"
		"             MAINTAINERS: the last date the person touched the section's\n"
		"             files (author, committer, Signed-off-by, Reviewed-by,\n"
		"             Acked-by, Tested-by) and anywhere, over the whole history\n"
		"             (before the first release too), and a state: active, quiet\n"
		"             (nothing in the section for --quiet-months), gone (nothing\n"
		"             anywhere), never_seen, unknown (not an address: --people;\n"
		"             or resting on months before history_from, where the\n"
		"             history of a shallow clone stops); a person is all the\n"
		"             addresses --fold joins (matched_by, other_addresses say how)\n"
		"  listed_sections one row per release and section: its M: people by\n"
		"             state (as listed gives them) and R: people, lines, and\n"
		"             orphaned_in_fact: the S: says Maintained or Supported and\n"
		"             none of the M: people is active\n"
		"  candidates per release and section the --top people not listed there\n"
		"             with the most activity in its files in the last\n"
		"             --quiet-months months (authored, committed, reviewed, acked);\n"
		"             bots ([bot], noreply@github.com) are no candidates\n"
		"  graph      the overlap graph of --release TAG with cluster and lineage as\n"
		"             vertex attributes; --meta: the graph of its clusters\n"
		"  all        every table above but graph in one SQLite database (-o FILE):\n"
		"             typed columns, primary keys, indexes, views; the files table\n"
		"             holds every file of every release (docs/schemas.md)\n"
		"\n"
		"formats: csv (RFC 4180, UTF-8; default), json (one array of objects),\n"
		"jsonl (JSON Lines, one object a line); for graph: graphml (default), json\n"
		"(networkx node-link), dot (Graphviz) or csv (the edge list: from, to and\n"
		"the edge attributes); for all: sqlite (the only one).\n"
		"Empty CSV fields are JSON nulls and SQL NULLs.\n"
		"\n"
		"--orgs FILE (gitdm's email-map and domain-map format): one mapping a line,\n"
		"'KEY ORGANISATION' or 'KEY ORGANISATION < YYYY-MM-DD', KEY an address or a\n"
		"domain, the date the day (UTC) the mapping ends, so that one KEY can list\n"
		"its organisations over time; '#' starts a comment.  An author's or reviewer's\n"
		"address is looked up at the commit's author date, then its domain and\n"
		"the domain's parents (the most specific first); else the organisation is\n"
		"the domain; a KEY given twice for the same time is a bad line.\n"
		"An --orgs or --people file that cannot be read or has a bad line is a usage\n"
		"error (exit 2, 'FILE:LINE: ...'), and nothing is written; an empty one maps\n"
		"nothing.",
	.options = options,
	.operands = 1,
};

/* Which tracked history a table or graph reads: the clustering and the
 * thresholds the command was given (NULL: the defaults). */
typedef struct {
	const mev_cluster_params *cp;
	const mev_track_params *tp;
} history_params;

static int write_graph(mev_store *s, mev_history *h, const void *opt, FILE *out)
{
	mev_export_graph_options o = *(const mev_export_graph_options *)opt;
	o.history = h;
	return mev_export_graph(out, s, &o);
}

/* export graph: the options that go with it, then the graph. */
static int export_graph(const char *dir, const mev_export_options *eo, const history_params *hp,
			int meta, const char *format, const char *out_path)
{
	mev_export_graph_options go = { 0 };
	int f = format ? mev_graph_format_parse(format) : MEV_GRAPH_GRAPHML;
	if (f < 0)
		return cli_usage_error("export", "unknown graph format '%s' (use graphml, json, dot or csv)",
				       format);
	if (!eo->release)
		return cli_usage_error("export", "export graph needs --release TAG");
	if (eo->path)
		return cli_usage_error("export", "--path goes with the files table only");
	if (cli_excel_check("export", eo->excel_safe, f == MEV_GRAPH_CSV))
		return EXIT_USAGE;
	if (eo->from || eo->to)
		return cli_usage_error("export", "--from and --to go with the events and "
				       "section_changes tables only");
	go.format = (mev_graph_format)f;
	go.release = eo->release;
	go.meta = meta;
	go.keep_rest = eo->keep_rest;
	go.excel_safe = eo->excel_safe;
	return cli_write_store(dir, hp->cp, hp->tp, out_path, write_graph, &go);
}

/* The summary of export all on standard error. */
static void all_summary(const mev_export_sqlite_result *r, const char *path)
{
	uint64_t rows = 0;
	char n[32];
	for (int t = 0; t < MEV_EXPORT_TABLE_COUNT; t++)
		rows += r->rows[t];
	cli_note("%zu tables, %s rows in %.1f s: '%s'", r->tables, mev_table_count(n, (int64_t)rows),
		 r->seconds, path);
	if (!r->listed)
		cli_note("the workload, listed, listed_sections and candidates tables are empty: they "
			 "need the patch flow (run 'maintevo flow') and the repository the store was "
			 "walked from (--repo)");
	if (!r->clustered)
		cli_note("the store is not clustered with these options: the clusters, events and "
			 "lineages tables are empty (run 'maintevo cluster' and 'maintevo track')");
	else if (!r->tracked)
		cli_note("the store is not tracked with these options: the events, lineages and "
			 "section_changes tables are empty (run 'maintevo track')");
}

/* --orgs FILE read into eo->orgs (freed by the caller), --people FILE
 * checked; a file that cannot be read or has a bad line is the user's
 * input wrong: a usage error, found before any output is opened. */
static int read_orgs(mev_export_options *eo, const char *path)
{
	mev_export_orgs *o;
	if (eo->people && mev_export_people_check(eo->people)) {
		cli_fail();
		return EXIT_USAGE;
	}
	if (!path)
		return 0;
	if (mev_export_orgs_read(&o, path)) {
		cli_fail();
		return EXIT_USAGE;
	}
	eo->orgs = o;
	return 0;
}

/* export all: every table in one SQLite database, written to a temporary
 * file next to out_path and renamed into place (cli_out). */
static int export_all(const char *dir, mev_export_options *eo, const history_params *hp, int meta,
		      const char *format, const char *out_path, const char *orgs)
{
	mev_export_sqlite_result res;
	mev_export_options o = *eo;
	mev_progress pr;
	mev_store *s = NULL;
	mev_history *h = NULL;
	cli_out out;
	int rc;
	if (format && strcmp(format, "sqlite") != 0)
		return cli_usage_error("export", "export all writes one SQLite database: use --format "
				       "sqlite (or no --format), not '%s'", format);
	if (meta || eo->path || eo->excel_safe)
		return cli_usage_error("export", "%s does not go with 'export all'",
				       meta ? "--meta" : eo->path ? "--path" : "--excel-safe");
	if (!out_path || strcmp(out_path, "-") == 0)
		return cli_usage_error("export", "export all writes a database file: say where with "
				       "-o FILE.db");
	if ((rc = read_orgs(eo, orgs)))
		return rc;
	o.orgs = eo->orgs;
	if (mev_store_open(&s, dir, MEV_STORE_READ))
		return cli_fail();
	if ((rc = cli_out_open(&out, out_path)))
		goto done;
	if (!out.tmp) {
		cli_out_abort(&out);
		mev_error_set(MEV_EINVAL, "cannot write a SQLite database to '%s': not a regular file",
			      out_path);
		mev_error_hint("name a file, new or to be replaced: -o maintevo.db");
		rc = cli_fail();
		goto done;
	}
	cli_progress_init(&pr);
	o.progress = &pr;
	o.name = out_path;
	if (!(rc = mev_history_open(&h, s, hp->cp, hp->tp, NULL, 0))) {
		o.history = h;
		rc = mev_export_sqlite(&res, out.tmp, s, &o);
	}
	cli_progress_end();
	if (rc) {
		rc = cli_out_fail(&out);
		goto done;
	}
	if (!(rc = cli_out_commit(&out)))
		all_summary(&res, out_path);
done:
	mev_history_free(h);
	mev_store_free(s);
	return rc;
}

/* export TABLE: the options that do not go with the table are usage errors. */
static int export_table(const char *dir, const char *what, mev_export_options *eo,
			const history_params *hp, int meta, const char *by, const char *format,
			const char *out_path, const char *orgs)
{
	int rc;
	int table = mev_export_table_parse(what);
	if (table < 0) {
		const char *names[MEV_EXPORT_TABLE_COUNT + 2], *near;
		for (int t = 0; t < MEV_EXPORT_TABLE_COUNT; t++)
			names[t] = mev_export_table_name((mev_export_table_id)t);
		names[MEV_EXPORT_TABLE_COUNT] = "graph";
		names[MEV_EXPORT_TABLE_COUNT + 1] = "all";
		if ((near = mev_suggest(what, names, MEV_EXPORT_TABLE_COUNT + 2)))
			return cli_usage_error("export", "unknown table '%s'; did you mean '%s'?", what,
					       near);
		return cli_usage_error("export", "unknown table '%s' (use releases, sections, edges, "
				       "clusters, events, lineages, flows, section_changes, files, health, commits, "
				       "flow, people, workload, listed, listed_sections, candidates, graph or all)",
				       what);
	}
	if (format && mev_table_format_parse(format) < 0)
		return cli_usage_error("export", "unknown format '%s' (use csv, json or jsonl)", format);
	if (meta)
		return cli_usage_error("export", "--meta goes with 'export graph' only");
	if (eo->path && table != MEV_EXPORT_FILES)
		return cli_usage_error("export", "--path goes with the files table only");
	if ((eo->from || eo->to) && table != MEV_EXPORT_EVENTS && table != MEV_EXPORT_SECTION_CHANGES &&
	    table != MEV_EXPORT_FLOWS && table != MEV_EXPORT_WORKLOAD)
		return cli_usage_error("export", "--from and --to go with the events, flows, "
				       "section_changes and workload tables only");
	if ((by || orgs) && table != MEV_EXPORT_WORKLOAD)
		return cli_usage_error("export", "%s goes with the workload table only",
				       by ? "--by" : "--orgs");
	if (eo->repo && table != MEV_EXPORT_WORKLOAD && table != MEV_EXPORT_LISTED &&
	    table != MEV_EXPORT_CANDIDATES && table != MEV_EXPORT_LISTED_SECTIONS)
		return cli_usage_error("export", "--repo goes with the workload, listed, listed_sections "
				       "and candidates tables only");
	if ((eo->quiet_months || eo->people) && table != MEV_EXPORT_LISTED &&
	    table != MEV_EXPORT_CANDIDATES && table != MEV_EXPORT_LISTED_SECTIONS)
		return cli_usage_error("export", "%s goes with the listed, listed_sections and "
				       "candidates tables only",
				       eo->people ? "--people" : "--quiet-months");
	if (eo->top && table != MEV_EXPORT_CANDIDATES)
		return cli_usage_error("export", "--top goes with the candidates table only");
	if (by) {
		int b = mev_workload_by_parse(by);
		if (b < 0)
			return cli_usage_error("export", "unknown --by '%s' (use lineage, section or "
					       "cluster)", by);
		eo->by = (mev_workload_by)b;
	}
	if (table == MEV_EXPORT_FILES && !eo->release && !eo->path)
		return cli_usage_error("export", "the files table needs --release TAG (every file "
				       "of a release) or --path PATH (one file's or directory's history)");
	if ((rc = read_orgs(eo, orgs)))
		return rc;
	return cli_write_table("export", dir, (mev_export_table_id)table, eo, hp->cp, hp->tp, format,
			       out_path);
}

/* --fold HOW into eo, for the tables it goes with (and all). */
static int parse_fold(mev_export_options *eo, const char *fold, const char *what)
{
	int f;
	if (!fold)
		return 0;
	if (strcmp(what, "listed") && strcmp(what, "listed_sections") && strcmp(what, "candidates") &&
	    strcmp(what, "all"))
		return cli_usage_error("export", "--fold goes with the listed, listed_sections and "
				       "candidates tables only");
	if ((f = mev_export_fold_parse(fold)) < 0)
		return cli_usage_error("export", "unknown --fold '%s' (use names, addresses or none)",
				       fold);
	eo->fold = (mev_export_fold)f;
	return 0;
}

int cmd_export(int argc, char **argv)
{
	export_args a = { .store = "maintevo.store" };
	history_params hp = { NULL, NULL };
	const char *what;
	int argi, rc;

	cli_cluster_init(&a.cluster);
	mev_track_params_init(&a.tp);
	if ((rc = cli_parse(&argi, &cmd_export_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if (argi >= argc)
		return cli_usage_error("export", "say which table to export (releases, sections, edges, "
				       "clusters, events, lineages, flows, section_changes, files, health, commits, "
				       "flow, people, workload, listed, listed_sections, candidates, graph or all)");
	what = argv[argi];
	if ((rc = cli_cluster_finish(&a.cluster, "export")))
		return rc;
	hp.cp = &a.cluster.p;
	hp.tp = &a.tp;
	if ((rc = parse_fold(&a.eo, a.fold, what)))
		return rc;
	if ((a.eo.quiet_months || a.eo.top || a.eo.people) && strcmp(what, "graph") == 0)
		return cli_usage_error("export", "%s goes with the listed and candidates tables only",
				       a.eo.people ? "--people" : a.eo.top ? "--top" : "--quiet-months");
	if ((a.by || a.eo.repo || a.orgs) && strcmp(what, "graph") == 0)
		return cli_usage_error("export", "%s goes with the workload table only",
				       a.by ? "--by" : a.eo.repo ? "--repo" : "--orgs");
	if (a.by && strcmp(what, "all") == 0)
		return cli_usage_error("export", "--by goes with 'export workload' only ('export all' "
				       "writes the workload table by lineage)");
	if (strcmp(what, "graph") == 0)
		return export_graph(a.store, &a.eo, &hp, a.meta, a.format, a.out);
	if (strcmp(what, "all") == 0)
		rc = export_all(a.store, &a.eo, &hp, a.meta, a.format, a.out, a.orgs);
	else
		rc = export_table(a.store, what, &a.eo, &hp, a.meta, a.by, a.format, a.out, a.orgs);
	mev_export_orgs_free((mev_export_orgs *)a.eo.orgs); /* read_orgs() made it */
	return rc;
}
