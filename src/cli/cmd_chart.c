/* maintevo chart: the whole tracked history as one alluvial picture (HTML page or SVG). */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/chart.h"
#include "maintevo/error.h"
#include "maintevo/export.h"
#include "maintevo/flow.h"
#include "maintevo/release.h"
#include "maintevo/store.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *store, *out;
	mev_chart_options co;
	cli_cluster_opts cluster;
	mev_track_params tp;
	int top;
	const char *mark;
	char mark_buf[512];
} chart_args;

static int parse_format(void *field, const char *value, const cli_option *opt, const char *cmd)
{
	int f = mev_chart_format_parse(value);
	(void)opt;
	if (f < 0)
		return cli_usage_error(cmd, "unknown format '%s' (use html or svg)", value);
	*(mev_chart_format *)field = (mev_chart_format)f;
	return 0;
}

static int parse_x(void *field, const char *value, const cli_option *opt, const char *cmd)
{
	int x = mev_chart_x_parse(value);
	(void)opt;
	if (x < 0)
		return cli_usage_error(cmd, "unknown --x '%s' (use index or date)", value);
	*(mev_chart_x *)field = (mev_chart_x)x;
	return 0;
}

static int parse_measure(void *field, const char *value, const cli_option *opt, const char *cmd)
{
	int m = mev_chart_measure_parse(value);
	(void)opt;
	if (m < 0)
		return cli_usage_error(cmd, "unknown measure '%s' (use lines, files or sections)", value);
	*(mev_chart_measure *)field = (mev_chart_measure)m;
	return 0;
}

#define STR_(x) #x
#define STR(x) STR_(x)

static const cli_option options[] = {
	CLI_OPT_STORE(chart_args, store),
	CLI_OPT_CALL(chart_args, co.format, 'f', "format", "F", parse_format,
		     "html (default): the page; svg: the drawing alone"),
	CLI_OPT_CALL(chart_args, co.x, 0, "x", "X",
		     parse_x, "index (default): releases evenly spaced; date: by\ncommitter date"),
	CLI_OPT_CALL(chart_args, co.measure, 0, "measure", "M", parse_measure,
		     "a band's height: lines (default), files or sections"),
	CLI_OPT_INT(chart_args, top, 0, "top", "N", 0, 100000,
		    "bands of their own for the N largest lineages, the rest\nas one \"other\" band "
		    "(default " STR(MEV_CHART_TOP_DEFAULT) "; 0: all)"),
	CLI_OPT_STRING(chart_args, co.from, 0, "from", "TAG", "start at this release (default: the first)"),
	CLI_OPT_STRING(chart_args, co.to, 0, "to", "TAG", "end at this release (default: the last)"),
	CLI_OPT_STRING(chart_args, mark, 0, "mark", "A..B",
		       "shade the releases from A to B (a report's pair)"),
	CLI_OPT_STRING(chart_args, co.title, 0, "title", "TEXT",
		       "the heading (default: \"Lineages of\" the store's project)"),
	CLI_OPT_OUT(chart_args, out),
	CLI_OPT_HELP,
	CLI_OPT_GROUP(chart_args, cluster, cli_cluster_options,
		      "the clustering to read (as given to 'maintevo cluster'):"),
	CLI_OPT_GROUP(chart_args, tp, cli_track_options,
		      "the tracking results to read (as given to 'maintevo track'):"),
	CLI_OPT_END
};

const cli_command cmd_chart_spec = {
	.name = "chart",
	.usage = CLI_USAGE("[--store DIR] [--format html|svg] [--x index|date]\n"
			   "[--measure lines|files|sections] [--top N] [--from TAG] [--to TAG]\n"
			   "[--mark A..B] [--title TEXT] [-o FILE] [--method M ...]"),
	.about =
		"Draw the whole tracked history in one picture: an alluvial chart with the\n"
		"releases along x and one band per lineage ('maintevo lineages'), as tall\n"
		"as the code it covers at each release and in one colour for its whole\n"
		"life.  A split is a band branching into several, a merge several joining,\n"
		"each ribbon as wide as the code that moved (the numbers 'maintevo track'\n"
		"used; 'maintevo export flows' writes them); a dot marks a birth, a bar a\n"
		"death.  The largest lineages carry their names; the small ones are one\n"
		"grey \"other\" band (--top).\n"
		"\n"
		"A band's label is the name of its cluster at the release the label sits\n"
		"by (the display name of its representative, as clusters are named); the\n"
		"lineage's stable name ('maintevo lineages') stays its key.  A ring marks\n"
		"where that name changes for good: the new name holds 2 releases in a row\n"
		"or more and is not the one held before, so a name held for one release\n"
		"is not marked.  A lineage renamed so shows both in the legend and the\n"
		"panel: \"CLOCK [1533], now DEVICETREE REBASING SUBTREE\" (\"later\" for one\n"
		"that ends before the last release).\n"
		"\n"
		"  html  one self-contained page (nothing fetched, works offline): hover a\n"
		"        band for its size, click it (or Tab to it and press Enter) for its\n"
		"        events with support and cause, its sections and the 'maintevo\n"
		"        explain' command that tells more; find a lineage, a section or a\n"
		"        path; zoom to a range of releases; the view is kept in the URL\n"
		"  svg   the same drawing, static, with a legend: for papers (Inkscape)\n"
		"\n"
		"The store must be tracked ('maintevo track') and hold two tracked releases\n"
		"or more.  The same store gives the same bytes.  docs/schemas.md says what\n"
		"the page holds for scripts (data-lineage on every band).",
	.options = options,
	.operands = 0,
};

/* --mark A..B reversed is refused as every reversed range is (it drew no
 * shading at all, and exited 0). */
static int mark_in_order(const chart_args *a, mev_store *s)
{
	mev_release *list = NULL;
	size_t n = 0, lo, hi;
	int rc;
	if (mev_release_list(&list, &n, s))
		return cli_fail();
	rc = mev_release_range(&lo, &hi, s, list, n, a->co.mark_from, a->co.mark_to, 0);
	mev_release_list_free(list, n);
	if (rc == MEV_EINVAL) {
		mev_error_set(MEV_EINVAL, "--mark '%s': '%s' comes after '%s': the range is reversed",
			      a->mark, a->co.mark_from, a->co.mark_to);
		mev_error_hint("releases are in version order, oldest first: --mark %s..%s (see "
			       "'maintevo releases --store %s')", a->co.mark_to, a->co.mark_from,
			       mev_store_dir(s));
	}
	return rc ? cli_fail() : 0;
}

/* --mark A..B into the options' mark_from and mark_to; both must be stored. */
static int take_mark(chart_args *a, mev_store *s)
{
	char *dots;
	if (!a->mark)
		return 0;
	snprintf(a->mark_buf, sizeof a->mark_buf, "%s", a->mark);
	dots = strstr(a->mark_buf, "..");
	if (!dots || dots == a->mark_buf || !dots[2])
		return cli_usage_error("chart", "--mark takes two releases, 'A..B', not '%s'", a->mark);
	*dots = '\0';
	a->co.mark_from = a->mark_buf;
	a->co.mark_to = dots + 2;
	if (!mev_release_has(NULL, s, a->co.mark_from))
		return mev_release_not_stored(s, a->co.mark_from), cli_fail();
	if (!mev_release_has(NULL, s, a->co.mark_to))
		return mev_release_not_stored(s, a->co.mark_to), cli_fail();
	return mark_in_order(a, s);
}

/*
 * The page's listed people (the lineage panel): the rows of 'export
 * listed' for the same history, given to the chart as they are (the chart
 * is below export and reads no activity itself).  A store without flow has
 * none, said with the hint to run flow; one whose repository cannot be
 * read is drawn without them, said.
 */
static int any_flow(mev_store *s, const mev_history *h)
{
	for (size_t r = 1; r < mev_history_release_count(h); r++) { /* the first has none */
		char *prev = NULL;
		int stored = mev_flow_stored(&prev, s, mev_history_release(h, r)->tag);
		free(prev);
		if (stored > 0)
			return 1;
	}
	mev_error_clear();
	return 0;
}

static void take_people(chart_args *a, mev_store *s, mev_listed_list *rows)
{
	mev_export_options eo = { 0 };
	mev_chart_person *p;
	eo.history = a->co.history;
	if (mev_export_listed_rows(rows, s, &eo)) {
		cli_note("chart: the panel lists no people: %s", mev_error_message());
		mev_error_clear();
		return;
	}
	if (!rows->n && mev_history_release_count(a->co.history) > 1 && !any_flow(s, a->co.history))
		cli_note("chart: the panel lists no people: the store holds no patch flow (run "
			 "'maintevo flow --store %s' first)", a->store);
	if (!rows->n || !(p = calloc(rows->n, sizeof *p)))
		return;
	for (size_t i = 0; i < rows->n; i++) {
		const mev_listed_row *r = &rows->v[i];
		p[i] = (mev_chart_person){ r->release, r->section, r->entry, r->name,
					   r->role, r->state, r->last_active };
	}
	a->co.people = p;
	a->co.n_people = rows->n;
}

int cmd_chart(int argc, char **argv)
{
	mev_listed_list rows = { 0 };
	chart_args a = { .store = "maintevo.store", .top = -1 };
	mev_store *s = NULL;
	mev_history *h = NULL;
	cli_out out;
	int argi, rc;

	cli_cluster_init(&a.cluster);
	mev_track_params_init(&a.tp);
	if ((rc = cli_parse(&argi, &cmd_chart_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if ((rc = cli_cluster_finish(&a.cluster, "chart")))
		return rc;
	a.co.top = a.top;
	a.co.store_path = a.store;
	if (mev_store_open(&s, a.store, MEV_STORE_READ))
		return cli_fail();
	if ((rc = take_mark(&a, s)))
		goto done;
	if ((rc = cli_out_open(&out, a.out)))
		goto done;
	if (mev_history_open(&h, s, &a.cluster.p, &a.tp, NULL, 0)) {
		rc = cli_out_fail(&out);
		goto done;
	}
	a.co.history = h;
	if (a.co.format == MEV_CHART_HTML)
		take_people(&a, s, &rows);
	if (mev_chart_write(out.f, s, &a.co)) {
		rc = cli_out_fail(&out); /* no half-written chart: the file as it was */
		goto done;
	}
	rc = cli_out_commit(&out);
done:
	free((void *)a.co.people);
	mev_listed_list_free(&rows);
	mev_history_free(h);
	mev_store_free(s);
	return rc;
}
