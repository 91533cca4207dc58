/* maintevo events: what happened to the clusters between releases (CSV). */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/csv.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "maintevo/track.h"

#include <math.h>

static const char usage[] =
	"usage: maintevo events [--store DIR] [--from TAG] [--to TAG] [--method M] [-o FILE]\n"
	"\n"
	"Write the events 'maintevo track' found, in release order, as CSV\n"
	"  from_release,to_release,event,lineage,from_cluster,to_cluster,similarity,\n"
	"  from_lines,to_lines\n"
	"one row per link between a cluster of from_release and one of to_release:\n"
	"event is birth, death, continuation, growth, contraction, split or merge (a\n"
	"split into two is two rows, one per successor; a merge of two is two rows,\n"
	"one per predecessor).  from_cluster and to_cluster are the clusters'\n"
	"representatives (empty for a birth's from side and a death's to side);\n"
	"lineage is the to_cluster's lineage (the from_cluster's for a death);\n"
	"similarity is the Jaccard similarity of the two on the code present in both\n"
	"releases (empty for birth and death); from_lines and to_lines are the\n"
	"clusters' sizes in lines.  --from and --to keep the pairs between these\n"
	"releases (version order, both included).\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n"
	"  --from TAG         only pairs whose from_release is TAG or later\n"
	"  --to TAG           only pairs whose to_release is TAG or earlier\n" CLI_CLUSTER_HELP
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

int cmd_events(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		CLI_CLUSTER_LONGOPTS,
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store", *from = NULL, *to = NULL, *out_path = NULL;
	cli_cluster_opts co;
	mev_event_list ev = { 0 };
	mev_store *s = NULL;
	FILE *out;
	int c, rc;

	cli_cluster_init(&co);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hm:o:", longopts, NULL)) != -1) {
		if ((rc = cli_cluster_option(&co, "events", c, optarg))) {
			if (rc == EXIT_USAGE)
				return rc;
			continue;
		}
		switch (c) {
		case 's': dir = optarg; break;
		case 'F': from = optarg; break;
		case 'T': to = optarg; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("events", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("events", "unexpected argument '%s'", argv[optind]);
	if ((rc = cli_cluster_finish(&co, "events")))
		return rc;
	if (mev_store_open(&s, dir, MEV_STORE_READ) ||
	    (from && !mev_release_has(NULL, s, from) &&
	     mev_error_set(MEV_ENOTFOUND, "release '%s' is not in store '%s'", from, dir)) ||
	    (to && !mev_release_has(NULL, s, to) &&
	     mev_error_set(MEV_ENOTFOUND, "release '%s' is not in store '%s'", to, dir)) ||
	    mev_track_events(s, &co.p, from, to, &ev)) {
		if (mev_error_code() == MEV_ENOTFOUND && !mev_error_hint_text()[0])
			mev_error_hint("list the stored releases with 'maintevo releases --store %s'", dir);
		rc = cli_fail();
		goto done;
	}
	if (!(out = cli_open_out(out_path))) {
		rc = EXIT_FAIL;
		goto done;
	}
	fputs("from_release,to_release,event,lineage,from_cluster,to_cluster,similarity,from_lines,"
	      "to_lines\n", out);
	for (size_t i = 0; i < ev.n; i++) {
		const mev_event *e = &ev.v[i];
		mev_csv_str(out, e->from_release);
		putc(',', out);
		mev_csv_str(out, e->to_release);
		fprintf(out, ",%s,%u,", mev_event_name(e->kind), e->lineage);
		mev_csv_str(out, e->from_cluster);
		putc(',', out);
		mev_csv_str(out, e->to_cluster);
		putc(',', out);
		if (!isnan(e->similarity))
			fprintf(out, "%.4f", e->similarity);
		putc(',', out);
		if (e->from_lines >= 0)
			fprintf(out, "%lld", (long long)e->from_lines);
		putc(',', out);
		if (e->to_lines >= 0)
			fprintf(out, "%lld", (long long)e->to_lines);
		putc('\n', out);
	}
	rc = cli_close_out(out, out_path);
done:
	mev_event_list_free(&ev);
	mev_store_free(s);
	return rc;
}
