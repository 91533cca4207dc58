/* maintevo section-changes: sections added, removed and renamed between releases (CSV). */
#include "cli.h"
#include "maintevo/csv.h"
#include "maintevo/error.h"
#include "maintevo/release.h"
#include "maintevo/store.h"
#include "maintevo/track.h"

#include <getopt.h>
#include <math.h>

static const char usage[] =
	"usage: maintevo section-changes [--store DIR] [--from TAG] [--to TAG] [-o FILE]\n"
	"\n"
	"Write the section-level changes 'maintevo track' found between consecutive\n"
	"releases, in release order, as CSV\n"
	"  from_release,to_release,change,section,new_section,lines,coverage\n"
	"change is added (section: the new title, lines: its lines in to_release),\n"
	"removed (section: the old title, lines: its lines in from_release) or\n"
	"renamed: a title that went away and a new title that covers at least 80%\n"
	"(track --rename) of its code; new_section is the new title and coverage the\n"
	"share of the old section's lines the new one covers.  With file tables the\n"
	"code is the files present in both releases; in imported stores it is\n"
	"estimated from the lines each section shared with the others (sections\n"
	"that share nothing are reported as removed and added).  Rows come by\n"
	"release pair, then added, removed, renamed, then title.  They do not depend\n"
	"on the clustering options.\n"
	"\n"
	"options:\n"
	"  --store DIR        the store (default: ./maintevo.store)\n"
	"  --from TAG         only pairs whose from_release is TAG or later\n"
	"  --to TAG           only pairs whose to_release is TAG or earlier\n"
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

int cmd_section_changes(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store", *from = NULL, *to = NULL, *out_path = NULL;
	mev_section_change_list sc = { 0 };
	mev_store *s = NULL;
	FILE *out;
	int c, rc;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'F': from = optarg; break;
		case 'T': to = optarg; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("section-changes", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("section-changes", "unexpected argument '%s'", argv[optind]);
	if (mev_store_open(&s, dir, MEV_STORE_READ) ||
	    (from && !mev_release_has(NULL, s, from) &&
	     mev_error_set(MEV_ENOTFOUND, "release '%s' is not in store '%s'", from, dir)) ||
	    (to && !mev_release_has(NULL, s, to) &&
	     mev_error_set(MEV_ENOTFOUND, "release '%s' is not in store '%s'", to, dir)) ||
	    mev_track_section_changes(s, from, to, &sc)) {
		if (mev_error_code() == MEV_ENOTFOUND && !mev_error_hint_text()[0])
			mev_error_hint("list the stored releases with 'maintevo releases --store %s'", dir);
		rc = cli_fail();
		goto done;
	}
	if (!(out = cli_open_out(out_path))) {
		rc = EXIT_FAIL;
		goto done;
	}
	fputs("from_release,to_release,change,section,new_section,lines,coverage\n", out);
	for (size_t i = 0; i < sc.n; i++) {
		const mev_section_change *x = &sc.v[i];
		mev_csv_str(out, x->from_release);
		putc(',', out);
		mev_csv_str(out, x->to_release);
		fprintf(out, ",%s,", mev_section_change_name(x->kind));
		mev_csv_str(out, x->section);
		putc(',', out);
		mev_csv_str(out, x->new_section);
		fprintf(out, ",%llu,", (unsigned long long)x->lines);
		if (!isnan(x->coverage))
			fprintf(out, "%.4f", x->coverage);
		putc('\n', out);
	}
	rc = cli_close_out(out, out_path);
done:
	mev_section_change_list_free(&sc);
	mev_store_free(s);
	return rc;
}
