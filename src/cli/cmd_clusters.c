/* maintevo clusters: the clusters of one stored release (CSV). */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/csv.h"
#include "maintevo/error.h"
#include "maintevo/store.h"

#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: maintevo clusters --store DIR --release TAG [--method M] [-o FILE]\n"
	"\n"
	"Write the clusters of a release, as 'maintevo cluster' stored them, as CSV\n"
	"  release,method,cluster,representative,section,section_lines\n"
	"one row per clustered section.  method is the parameter key\n"
	"(walktrap:steps=4:top=1); cluster numbers the clusters of this release from\n"
	"1, the largest first (by the sum of its sections' lines; ties by\n"
	"representative); representative is the cluster's largest section (ties:\n"
	"bytewise smallest title); section_lines are the lines the section covers.\n"
	"Rows come by cluster, then by section_lines (largest first), then title, so\n"
	"each cluster starts with its representative.  Sections not clustered (THE\n"
	"REST, and those below --top-fraction) are left out.  Cluster numbers are\n"
	"not kept across releases: 'maintevo events' and 'maintevo lineages' link\n"
	"them.\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n"
	"  --release TAG      the release\n" CLI_CLUSTER_HELP
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

typedef struct {
	uint32_t section, cluster;
	uint64_t lines;
	const char *title;
} row;

static int row_cmp(const void *x, const void *y)
{
	const row *a = x, *b = y;
	if (a->cluster != b->cluster)
		return a->cluster < b->cluster ? -1 : 1;
	if (a->lines != b->lines)
		return a->lines > b->lines ? -1 : 1;
	return strcmp(a->title, b->title);
}

int cmd_clusters(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "release", required_argument, NULL, 'L' },
		CLI_CLUSTER_LONGOPTS,
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store", *release = NULL, *out_path = NULL;
	cli_cluster_opts co;
	mev_store *s = NULL;
	mev_clustering *cl = NULL;
	row *rows = NULL;
	size_t n = 0;
	FILE *out = NULL;
	int c, rc;

	cli_cluster_init(&co);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hm:o:", longopts, NULL)) != -1) {
		if ((rc = cli_cluster_option(&co, "clusters", c, optarg))) {
			if (rc == EXIT_USAGE)
				return rc;
			continue;
		}
		switch (c) {
		case 's': dir = optarg; break;
		case 'L': release = optarg; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("clusters", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("clusters", "unexpected argument '%s'", argv[optind]);
	if (!release)
		return cli_usage_error("clusters", "--release is required");
	if ((rc = cli_cluster_finish(&co, "clusters")))
		return rc;
	if (mev_store_open(&s, dir, MEV_STORE_READ) || mev_cluster_load(&cl, s, &co.p, release)) {
		rc = cli_fail();
		goto done;
	}
	rows = malloc((mev_clustering_section_count(cl) + 1) * sizeof *rows);
	if (!rows) {
		mev_error_oom();
		rc = cli_fail();
		goto done;
	}
	for (uint32_t i = 0; i < mev_clustering_section_count(cl); i++) {
		uint32_t k = mev_clustering_of(cl, i);
		if (k == MEV_CLUSTER_NONE)
			continue;
		rows[n].section = i;
		rows[n].cluster = k;
		rows[n].lines = mev_clustering_section_lines(cl, i);
		rows[n].title = mev_clustering_title(cl, i);
		n++;
	}
	qsort(rows, n, sizeof *rows, row_cmp);
	if (!(out = cli_open_out(out_path))) {
		rc = EXIT_FAIL;
		goto done;
	}
	fputs("release,method,cluster,representative,section,section_lines\n", out);
	for (size_t i = 0; i < n; i++) {
		mev_csv_str(out, release);
		putc(',', out);
		mev_csv_str(out, co.key);
		fprintf(out, ",%u,", rows[i].cluster + 1);
		mev_csv_str(out, mev_clustering_title(cl, mev_clustering_representative(cl, rows[i].cluster)));
		putc(',', out);
		mev_csv_str(out, rows[i].title);
		fprintf(out, ",%llu\n", (unsigned long long)rows[i].lines);
	}
	rc = cli_close_out(out, out_path);
done:
	free(rows);
	mev_clustering_free(cl);
	mev_store_free(s);
	return rc;
}
