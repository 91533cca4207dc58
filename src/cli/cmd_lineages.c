/* maintevo lineages: the lineages of clusters over the whole history (CSV). */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/csv.h"
#include "maintevo/error.h"
#include "maintevo/store.h"
#include "maintevo/track.h"

static const char usage[] =
	"usage: maintevo lineages [--store DIR] [--method M] [-o FILE]\n"
	"\n"
	"Write the lineages 'maintevo track' found, by id, as CSV\n"
	"  lineage,name,first_release,last_release,parent,peak_lines,releases\n"
	"A lineage is a chain of clusters linked by continuations (a split keeps it\n"
	"on the largest successor, a merge continues the largest predecessor).\n"
	"name is the representative of its cluster in its last release; parent is\n"
	"the lineage it split from (empty: none); peak_lines its largest size in\n"
	"lines; releases the number of releases in which it has a cluster.\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n" CLI_CLUSTER_HELP
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

int cmd_lineages(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		CLI_CLUSTER_LONGOPTS,
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store", *out_path = NULL;
	cli_cluster_opts co;
	mev_lineage_list ls = { 0 };
	mev_store *s = NULL;
	FILE *out;
	int c, rc;

	cli_cluster_init(&co);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hm:o:", longopts, NULL)) != -1) {
		if ((rc = cli_cluster_option(&co, "lineages", c, optarg))) {
			if (rc == EXIT_USAGE)
				return rc;
			continue;
		}
		switch (c) {
		case 's': dir = optarg; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("lineages", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("lineages", "unexpected argument '%s'", argv[optind]);
	if ((rc = cli_cluster_finish(&co, "lineages")))
		return rc;
	if (mev_store_open(&s, dir, MEV_STORE_READ) || mev_track_lineages(s, &co.p, &ls)) {
		rc = cli_fail();
		goto done;
	}
	if (!(out = cli_open_out(out_path))) {
		rc = EXIT_FAIL;
		goto done;
	}
	fputs("lineage,name,first_release,last_release,parent,peak_lines,releases\n", out);
	for (size_t i = 0; i < ls.n; i++) {
		const mev_lineage *l = &ls.v[i];
		fprintf(out, "%u,", l->id);
		mev_csv_str(out, l->name);
		putc(',', out);
		mev_csv_str(out, l->first_release);
		putc(',', out);
		mev_csv_str(out, l->last_release);
		putc(',', out);
		if (l->parent)
			fprintf(out, "%u", l->parent);
		fprintf(out, ",%llu,%u\n", (unsigned long long)l->peak_lines, l->releases);
	}
	rc = cli_close_out(out, out_path);
done:
	mev_lineage_list_free(&ls);
	mev_store_free(s);
	return rc;
}
