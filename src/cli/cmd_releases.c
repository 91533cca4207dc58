/* maintevo releases: the releases of a store and their numbers. */
#include "cli.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "maintevo/csv.h"

#include <getopt.h>
#include <time.h>

static const char usage[] =
	"usage: maintevo releases --store DIR [-o FILE]\n"
	"\n"
	"List the stored releases in version order as CSV:\n"
	"  release,commit,date,files,lines,bytes,sections,sections_with_files,\n"
	"  uncovered_files,uncovered_lines,edges,notes,maintainers_files\n"
	"sections leaves out THE REST; uncovered files are covered by no section but\n"
	"THE REST; edges join two different sections; notes are the oddities found in\n"
	"MAINTAINERS; date is the commit date (UTC, ISO 8601).\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n"
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

int cmd_releases(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store", *out_path = NULL;
	mev_store *s = NULL;
	mev_release *list = NULL;
	size_t n = 0;
	FILE *out;
	int c, rc;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("releases", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("releases", "unexpected argument '%s'", argv[optind]);
	if (mev_store_open(&s, dir, MEV_STORE_READ) || mev_release_list(&list, &n, s)) {
		mev_store_free(s);
		return cli_fail();
	}
	if (!(out = cli_open_out(out_path))) {
		mev_release_list_free(list, n);
		mev_store_free(s);
		return EXIT_FAIL;
	}
	fputs("release,commit,date,files,lines,bytes,sections,sections_with_files,"
	      "uncovered_files,uncovered_lines,edges,notes,maintainers_files\n", out);
	for (size_t i = 0; i < n; i++) {
		const mev_release *r = &list[i];
		char hex[41], date[32];
		time_t t = (time_t)r->time;
		struct tm tm;
		mev_oid_fmt(hex, &r->commit);
		gmtime_r(&t, &tm);
		strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
		mev_csv_str(out, r->tag);
		fprintf(out, ",%s,%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", hex, date,
			(unsigned long long)r->files, (unsigned long long)r->lines,
			(unsigned long long)r->bytes, (unsigned long long)r->sections,
			(unsigned long long)r->sections_with_files, (unsigned long long)r->uncovered_files,
			(unsigned long long)r->uncovered_lines, (unsigned long long)r->edges,
			(unsigned long long)r->diags, (unsigned long long)r->maintainer_files);
	}
	rc = cli_close_out(out, out_path);
	mev_release_list_free(list, n);
	mev_store_free(s);
	return rc;
}
