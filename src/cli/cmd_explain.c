/* maintevo explain: the events of one lineage between two releases, with their causes in words. */
#include "cli.h"
#include "explain.h"
#include "maintevo/error.h"
#include "maintevo/table.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "maintevo/track.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct {
	const char *store, *from, *to, *release, *lineage;
	cli_cluster_opts cluster;
	mev_track_params tp;
	const char *repo, *rev, *format;
	mev_rules_options rules;
	int excel_safe;
} explain_args;

static const cli_option options[] = {
	CLI_OPT_STORE(explain_args, store),
	CLI_OPT_STRING(explain_args, from, 0, "from", "TAG",
		       "the events from this release on (with --to: up to\n"
		       "that release; without: to the next release)"),
	CLI_OPT_STRING(explain_args, to, 0, "to", "TAG", "the last release (with --from)"),
	CLI_OPT_STRING(explain_args, release, 0, "release", "TAG",
		       "the events from the release before TAG to TAG"),
	CLI_OPT_STRING(explain_args, lineage, 0, "lineage", "L",
		       "the lineage: its id or its name ('maintevo lineages')"),
	CLI_OPT_STRING(explain_args, repo, 0, "repo", "PATH",
		       "explain PATH: read the release from this git repository"),
	CLI_OPT_STRING(explain_args, rev, 0, "rev", "REV",
		       "explain PATH: the release in --repo (a tag, branch or commit)"),
	CLI_OPT_CALL(explain_args, rules.dialect, 0, "dialect", "D", cli_parse_dialect,
		     "explain PATH from git: auto (default), %DIALECTS%"),
	CLI_OPT_FLAG(explain_args, rules.top_level_only, 0, "top-level-only",
		     "explain PATH from git: read only the top-level MAINTAINERS"),
	CLI_OPT_STRING(explain_args, format, 'f', "format", "F",
		       "explain PATH: text (default), csv, json or jsonl"),
	CLI_OPT_EXCEL_SAFE(explain_args, excel_safe),
	CLI_OPT_CLUSTER(explain_args, cluster),
	CLI_OPT_TRACK(explain_args, tp),
	CLI_OPT_HELP,
	CLI_OPT_END
};

const cli_command cmd_explain_spec = {
	.name = "explain",
	.usage = CLI_USAGE("[--store DIR] --from TAG [--to TAG] --lineage L [options]",
			   "[--store DIR] --release TAG --lineage L [options]",
			   "--repo R --rev REV [--format F] PATH...",
			   "[--store DIR] --release TAG [--format F] PATH..."),
	.about =
		"Say in words what happened to lineage L ('maintevo lineages': its id or\n"
		"its name) between two releases, and why: every event of the lineage (it\n"
		"continued, grew, shrank, split, merged, was born or died, or came back\n"
		"after vanishing for at most --gap releases: a bridge) in the pairs\n"
		"from --from to --to (--to defaults to the release after --from), or in the\n"
		"pair ending at --release, with its sizes, the shares of code the clusters\n"
		"hold of each other, its support, and its whole cause as 'maintevo track'\n"
		"computed it: the MAINTAINERS changes of the sections involved (sections\n"
		"added, removed, renamed; every F:, X: and N: line added or removed, with\n"
		"its file:line) and the files that appeared, vanished, moved between the\n"
		"clusters or changed size, largest first, with their lines.  An event\n"
		"neither explains is the clustering's alone (\"no MAINTAINERS or code\n"
		"change\").  The events CSV has the one-sentence form (columns cause_kind,\n"
		"cause); docs/tracking.md, \"Causes\", says how they are found.  Releases\n"
		"walked before maintevo stored the patterns have no pattern changes\n"
		"('maintevo walk --rebuild' stores them, then 'maintevo track').\n"
		"\n"
		"With PATH (a file or a directory of the release; several may be given):\n"
		"why PATH is in each section that takes it, and why it is not in those that\n"
		"keep it out or nearly take it, exactly as that release's script decides\n"
		"(get_maintainer.pl, or the Python script of OP-TEE, edk2 or Zephyr: the\n"
		"answer names it; keywords off): for each such section every F:, X: and N:\n"
		"line that matched or nearly matched, with its file:line and the rule that\n"
		"decided: the pattern starts the path and ends in '/' (any depth), or starts\n"
		"it with as many '/' (same depth), or starts it with another count (a near\n"
		"miss); an X: that matches keeps the section out (its N: lines too); an N:\n"
		"regex is found anywhere in the path; the '/' the script's directory test\n"
		"adds.  The release is read from git (--repo, --rev) or from the patterns a\n"
		"walk stored (--store, --release; 'maintevo walk --rebuild' stores them for\n"
		"a store walked before issue 12).  --format csv (json, jsonl) gives one row\n"
		"per line: release, path, section, verdict (in, excluded, near), type,\n"
		"value, regex, file, line, rule (any-depth, same-depth, depth, regex,\n"
		"invalid, budget), display_name.",
	.options = options,
	.operands = -1,
};

/* The lineage named by `what`: its id, or its name (exactly, else
 * ignoring case when only one matches); NULL with the error printed. */
static const mev_lineage *find_lineage(const mev_lineage_list *l, const char *what)
{
	const mev_lineage *found = NULL;
	size_t nfold = 0;
	char *end;
	unsigned long id = strtoul(what, &end, 10);
	if (*what && !*end && isdigit((unsigned char)*what))
		return id >= 1 && id <= l->n ? &l->v[id - 1] : NULL;
	for (size_t i = 0; i < l->n; i++) {
		if (strcmp(l->v[i].name, what) == 0)
			return &l->v[i];
		if (strcasecmp(l->v[i].name, what) == 0) {
			found = &l->v[i];
			nfold++;
		}
	}
	return nfold == 1 ? found : NULL;
}

typedef struct {
	mev_release_names *names;
	const char *from, *to;     /* the pair of the event at hand */
	int rc;
} shower;

/* The display name of a title of the older (newer 0) or newer release. */
static const char *show(shower *sh, int newer, const char *title)
{
	const char *d = title;
	if (!title[0] || sh->rc)
		return title;
	sh->rc = mev_release_display(&d, sh->names, newer ? sh->to : sh->from, title);
	return sh->rc ? title : d;
}

static void print_item(shower *sh, const mev_cause_item *it)
{
	char n1[32], n2[32];
	switch (it->kind) {
	case MEV_CAUSE_SECTION_ADDED:
	case MEV_CAUSE_SECTION_REMOVED:
		cli_say(stdout, "    %s: %s (%s lines)\n", mev_cause_item_name(it->kind),
			show(sh, it->kind == MEV_CAUSE_SECTION_ADDED, it->section), mev_table_count(n1, (int64_t)it->lines));
		break;
	case MEV_CAUSE_SECTION_RENAMED:
		cli_say(stdout, "    section renamed: %s -> %s (%s lines)\n", show(sh, 0, it->section),
			show(sh, 1, it->new_section), mev_table_count(n1, (int64_t)it->lines));
		break;
	case MEV_CAUSE_PATTERN_ADDED:
	case MEV_CAUSE_PATTERN_REMOVED:
		cli_say(stdout, "    %c: %s (%s:%" PRIu32 ") %s %s\n", it->field, it->value, it->file, it->line,
			it->kind == MEV_CAUSE_PATTERN_ADDED ? "added to" : "removed from",
			show(sh, it->kind == MEV_CAUSE_PATTERN_ADDED, it->section));
		break;
	case MEV_CAUSE_FILE_APPEARED:
		cli_say(stdout, "    appeared: %s, %s lines, in %s\n", it->path, mev_table_count(n1, (int64_t)it->lines),
			it->to_cluster[0] ? show(sh, 1, it->to_cluster) : "no cluster");
		break;
	case MEV_CAUSE_FILE_VANISHED:
		cli_say(stdout, "    vanished: %s, %s lines, from %s\n", it->path, mev_table_count(n1, (int64_t)it->old_lines),
			it->from_cluster[0] ? show(sh, 0, it->from_cluster) : "no cluster");
		break;
	case MEV_CAUSE_FILE_MOVED:
		cli_say(stdout, "    moved: %s%s%s%s, %s lines, from %s to %s\n", it->path,
			it->old_path[0] ? " (was " : "", it->old_path, it->old_path[0] ? ")" : "",
			mev_table_count(n1, (int64_t)it->lines), it->from_cluster[0] ? show(sh, 0, it->from_cluster) : "no cluster",
			it->to_cluster[0] ? show(sh, 1, it->to_cluster) : "no cluster");
		break;
	case MEV_CAUSE_FILE_CHANGED:
		cli_say(stdout, "    changed size: %s, %s -> %s lines, in %s\n", it->path, mev_table_count(n1, (int64_t)it->old_lines),
			mev_table_count(n2, (int64_t)it->lines), it->to_cluster[0] ? show(sh, 1, it->to_cluster) : "no cluster");
		break;
	default:
		break;
	}
}

/* The cause's items, grouped, and what was left out of them. */
static void print_detail(shower *sh, const mev_cause *c)
{
	static const char *const kinds[] = { "appeared", "vanished", "moved", "changed size" };
	size_t nm = 0, shown[MEV_CAUSE_FILE_KINDS] = { 0 };
	char n1[32], n2[32];
	for (size_t i = 0; i < c->n; i++)
		nm += c->v[i].kind <= MEV_CAUSE_PATTERN_REMOVED;
	if (nm || c->more_patterns) {
		cli_say(stdout, "  MAINTAINERS changes of the sections involved:\n");
		for (size_t i = 0; i < c->n; i++)
			if (c->v[i].kind <= MEV_CAUSE_PATTERN_REMOVED)
				print_item(sh, &c->v[i]);
		if (c->more_patterns)
			cli_say(stdout, "    and %" PRIu64 " more pattern changes\n", c->more_patterns);
	} else if (c->patterns) {
		cli_say(stdout, "  MAINTAINERS: no change to the sections involved\n");
	}
	if (!c->code) {
		cli_say(stdout, "  imported graphs: no MAINTAINERS patterns or files to compare\n");
		return;
	}
	if (!c->patterns)
		cli_say(stdout, "  MAINTAINERS patterns are not stored for both releases: 'maintevo walk "
				"--rebuild' stores them\n");
	cli_say(stdout, "  code of the sections involved (the changed files hold %.1f%% of their lines), "
			"largest first:\n", 100 * c->code_share);
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].kind >= MEV_CAUSE_FILE_APPEARED) {
			shown[c->v[i].kind - MEV_CAUSE_FILE_APPEARED]++;
			print_item(sh, &c->v[i]);
		}
	for (size_t k = 0; k < MEV_CAUSE_FILE_KINDS; k++)
		if (c->files[k] > shown[k])
			cli_say(stdout, "    and %s more files %s (%s lines in all %s files)\n",
				mev_table_count(n1, (int64_t)c->files[k] - shown[k]), kinds[k], mev_table_count(n2, (int64_t)c->lines[k]), kinds[k]);
	if (!c->files[0] && !c->files[1] && !c->files[2] && !c->files[3])
		cli_say(stdout, "    none\n");
}

/* "NAME [id]": a lineage by its one name and its stable id. */
static const char *lineage_tag(char *buf, size_t size, const mev_lineage_list *lin, uint32_t id)
{
	snprintf(buf, size, "%s [%" PRIu32 "]", id && id <= lin->n ? lin->v[id - 1].name : "?", id);
	return buf;
}

/* The other side of a split or merge that keeps its lineage: the clusters of
 * the same pair that the kept cluster gave off (a split) or took in (a
 * merge), as ", giving off A, B" or ", taking in A, B". */
static void print_partners(shower *sh, const mev_event *e, const mev_event_list *ev)
{
	int split = e->kind == MEV_EVENT_SPLIT;
	size_t n = 0;
	for (size_t i = 0; i < ev->n; i++) {
		const mev_event *o = &ev->v[i];
		if (o == e || o->kind != e->kind || o->from_lineage == o->lineage ||
		    strcmp(o->from_release, e->from_release) != 0 ||
		    strcmp(split ? o->from_cluster : o->to_cluster, split ? e->from_cluster : e->to_cluster) != 0)
			continue;
		cli_say(stdout, "%s%s", n++ ? ", " : split ? ", giving off " : ", taking in ",
			show(sh, split, split ? o->to_cluster : o->from_cluster));
	}
}

/* The event's first line: the clusters by their names at the two releases,
 * each lineage once; a split or merge whose both sides are one lineage says
 * what that lineage gave off or took in instead of "lineage X -> lineage X". */
static void print_headline(shower *sh, const mev_event *e, const mev_event_list *ev,
			   const mev_lineage_list *lin)
{
	char fl[512], tl[512];
	lineage_tag(fl, sizeof fl, lin, e->from_lineage);
	lineage_tag(tl, sizeof tl, lin, e->lineage);
	cli_say(stdout, "\n%s -> %s: %s", e->from_release, e->to_release, mev_event_name(e->kind));
	if (e->kind == MEV_EVENT_BRIDGE) {
		cli_say(stdout, ": %s (lineage %s) vanished after %s and comes back in %s as %s\n",
			show(sh, 0, e->from_cluster), tl, e->from_release, e->to_release,
			show(sh, 1, e->to_cluster));
		return;
	}
	if (e->kind == MEV_EVENT_BIRTH || e->kind == MEV_EVENT_DEATH) {
		cli_say(stdout, " of %s (lineage %s)\n",
			show(sh, e->kind == MEV_EVENT_BIRTH, e->kind == MEV_EVENT_BIRTH ? e->to_cluster : e->from_cluster), tl);
		return;
	}
	if (e->from_lineage == e->lineage) {
		char from[512];
		snprintf(from, sizeof from, "%s", show(sh, 0, e->from_cluster));
		if (!strcmp(from, show(sh, 1, e->to_cluster)))
			cli_say(stdout, ": %s goes on (lineage %s)", from, tl);
		else
			cli_say(stdout, ": %s became %s (both lineage %s)", from, show(sh, 1, e->to_cluster), tl);
		if (e->kind == MEV_EVENT_SPLIT || e->kind == MEV_EVENT_MERGE)
			print_partners(sh, e, ev);
		cli_say(stdout, "\n");
		return;
	}
	cli_say(stdout, ": %s (lineage %s) %s ", show(sh, 0, e->from_cluster), fl,
		e->kind == MEV_EVENT_SPLIT ? "gave off" : e->kind == MEV_EVENT_MERGE ? "went into" : "became");
	cli_say(stdout, "%s (lineage %s)\n", show(sh, 1, e->to_cluster), tl);
}

/*
 * Why a bridge: in the releases of the gap no cluster held the lineage's
 * code (how many of its sections those releases have, and in clusters of
 * which other lineages), and back after it the new cluster is linked to
 * the old one by the tracker's rule, within --gap.
 */
static int print_bridge(mev_history *h, const mev_event *e, const mev_track_params *tp)
{
	int64_t f = mev_history_find(h, e->from_release), t = mev_history_find(h, e->to_release), k;
	size_t n = 0, in_gap = 0, gaps = 0;
	const mev_clustering *c;
	int rc;
	if ((rc = mev_history_read(h, e->from_release, MEV_HISTORY_CLUSTERS)))
		return rc;
	c = mev_history_clustering(h, (size_t)f);
	k = c ? mev_history_cluster_named(h, (size_t)f, e->from_cluster) : -1;
	cli_say(stdout, "  why: no cluster of the gap continued it (");
	for (int64_t g = f + 1; g < t && !rc; g++) {
		const mev_release *m = mev_history_release(h, (size_t)g);
		if (!m->sections || (rc = mev_history_read(h, m->tag, MEV_HISTORY_CLUSTERS)))
			continue;
		n = in_gap = 0;
		for (uint32_t x = 0; k >= 0 && x < mev_clustering_section_count(c); x++)
			if (mev_clustering_of(c, x) == (uint32_t)k) {
				n++;
				in_gap += mev_history_cluster_of(h, (size_t)g, mev_clustering_title(c, x)) >= 0;
			}
		cli_say(stdout, "%s%s has %zu of its %zu section%s", gaps++ ? "; " : "", m->tag, in_gap, n,
			n == 1 ? "" : "s");
	}
	cli_say(stdout, "); back in %s the new cluster is linked to it as consecutive clusters are "
			"(similarity %.3f, at least --link %g; it holds %.1f%% of the old cluster's code), "
			"within --gap %d release%s: the lineage goes on instead of dying after %s and being "
			"born again\n",
		e->to_release, e->similarity, tp->link, 100 * e->share, tp->gap, tp->gap == 1 ? "" : "s",
		e->from_release);
	return rc;
}

static void print_event(shower *sh, const mev_event *e, const mev_event_list *ev,
			const mev_lineage_list *lin)
{
	char n1[32], n2[32];
	sh->from = e->from_release;
	sh->to = e->to_release;
	print_headline(sh, e, ev, lin);
	if (e->from_lines >= 0 && e->to_lines >= 0)
		cli_say(stdout, "  lines: %s -> %s; similarity %.3f; %s holds %.1f%% of %s's code\n",
			mev_table_count(n1, (int64_t)(uint64_t)e->from_lines), mev_table_count(n2, (int64_t)(uint64_t)e->to_lines), e->similarity,
			show(sh, 1, e->to_cluster), 100 * e->share, show(sh, 0, e->from_cluster));
	else
		cli_say(stdout, "  lines: %s\n", mev_table_count(n1, (int64_t)(uint64_t)(e->from_lines >= 0 ? e->from_lines : e->to_lines)));
	if (e->partner[0])
		cli_say(stdout, "  %s %s holds %.1f%% of its code\n",
			e->kind == MEV_EVENT_BIRTH ? "came from: in the older release" : "went to: in the newer release",
			show(sh, e->kind == MEV_EVENT_DEATH, e->partner), 100 * e->partner_share);
	if (!isnan(e->support))
		cli_say(stdout, "  support: %.2f of the perturbed runs find it\n", e->support);
	if (e->kind == MEV_EVENT_BRIDGE)
		return;
	if (!e->cause_kind[0]) {
		cli_say(stdout, "  cause: none computed (%s)\n",
			e->kind == MEV_EVENT_CONTINUATION || e->kind == MEV_EVENT_GROWTH ||
					e->kind == MEV_EVENT_CONTRACTION
				? "its lines changed by 10% or less"
				: "run 'maintevo track' again to compute it");
		return;
	}
	cli_say(stdout, "  cause (%s): %s\n", e->cause_kind, e->cause);
	if (e->cause_detail)
		print_detail(sh, e->cause_detail);
}

/* The events of lineage id between the releases asked for. */
static int explain(const explain_args *a, mev_history *h, const mev_lineage_list *lin,
		   uint32_t id)
{
	mev_event_list ev = { 0 };
	shower sh = { NULL, NULL, NULL, 0 };
	const char *lo = a->release ? NULL : a->from, *hi = a->release ? a->release : a->to;
	size_t shown = 0;
	int rc = mev_history_read_events(&ev, h, lo, hi);
	if (!rc)
		rc = mev_release_names_new(&sh.names, mev_history_store(h));
	for (size_t i = 0; i < ev.n && !rc; i++) {
		const mev_event *e = &ev.v[i];
		if (e->lineage != id && e->from_lineage != id)
			continue;
		if (a->release ? strcmp(e->to_release, a->release) != 0
			       : !a->to && strcmp(e->from_release, a->from) != 0)
			continue;
		if (!shown++)
			cli_say(stdout, "lineage %" PRIu32 " %s (%s to %s)\n", id, lin->v[id - 1].name,
				lin->v[id - 1].first_release, lin->v[id - 1].last_release);
		print_event(&sh, e, &ev, lin);
		rc = sh.rc;
		if (!rc && e->kind == MEV_EVENT_BRIDGE)
			rc = print_bridge(h, e, &a->tp);
	}
	if (!rc && !shown)
		cli_say(stdout, "lineage %" PRIu32 " %s has no events %s %s%s%s\n", id, lin->v[id - 1].name,
			a->release ? "in the pair ending at" : a->to ? "between" : "in the pair starting at",
			a->release ? a->release : a->from, a->to && !a->release ? " and " : "",
			a->to && !a->release ? a->to : "");
	mev_release_names_free(sh.names);
	mev_event_list_free(&ev);
	return rc;
}

/* Every release named must be stored. */
static int check_release(mev_store *s, const char *tag)
{
	if (!tag || mev_release_has(NULL, s, tag))
		return 0;
	return mev_release_not_stored(s, tag);
}

/* explain PATH: the options of the event mode do not go with it. */
static int explain_path(const explain_args *a, char **paths, size_t n)
{
	cli_explain_path_args pa = { 0 };
	if (a->lineage || a->from || a->to)
		return cli_usage_error("explain", "--lineage, --from and --to go with the events of a "
				       "lineage, not with explain PATH");
	pa.repo = a->repo;
	pa.rev = a->rev;
	pa.rules = a->rules;
	pa.store = a->store;
	pa.release = a->release;
	pa.format = a->format;
	pa.excel_safe = a->excel_safe;
	return cli_explain_path(&pa, paths, n);
}

int cmd_explain(int argc, char **argv)
{
	explain_args a = { .store = "maintevo.store" };
	mev_history *h = NULL;
	mev_lineage_list lin = { 0 };
	const mev_lineage *l;
	mev_store *s = NULL;
	int argi, rc;

	cli_cluster_init(&a.cluster);
	mev_track_params_init(&a.tp);
	if ((rc = cli_parse(&argi, &cmd_explain_spec, &a, argc, argv)) != CLI_RUN)
		return rc;
	if (argi < argc)
		return explain_path(&a, argv + argi, (size_t)(argc - argi));
	if (a.repo || a.rev || a.format || a.excel_safe)
		return cli_usage_error("explain", "--repo, --rev, --format and --excel-safe go with "
				       "explain PATH");
	if (!a.lineage)
		return cli_usage_error("explain", "--lineage is required");
	if (!a.from == !a.release)
		return cli_usage_error("explain", "give either --from (and --to) or --release");
	if (a.to && !a.from)
		return cli_usage_error("explain", "--to goes with --from");
	if ((rc = cli_cluster_finish(&a.cluster, "explain")))
		return rc;
	if (mev_store_open(&s, a.store, MEV_STORE_READ) || check_release(s, a.from) ||
	    check_release(s, a.to) || check_release(s, a.release) ||
	    mev_history_open(&h, s, &a.cluster.p, &a.tp, NULL, 0) ||
	    mev_history_read_lineages(&lin, h)) {
		rc = cli_fail();
		goto done;
	}
	if (!(l = find_lineage(&lin, a.lineage))) {
		cli_say(stderr, "maintevo: error: store '%s' has no lineage '%s'\n"
				"hint: 'maintevo lineages --store %s' lists them (id and name)\n",
			a.store, a.lineage, a.store);
		rc = EXIT_FAIL;
		goto done;
	}
	rc = explain(&a, h, &lin, l->id) ? cli_fail() : EXIT_OK;
	if (rc == EXIT_OK && fflush(stdout)) {
		cli_say(stderr, "maintevo: error: cannot write to standard output\n");
		rc = EXIT_FAIL;
	}
done:
	mev_lineage_list_free(&lin);
	mev_history_free(h);
	mev_store_free(s);
	return rc;
}
