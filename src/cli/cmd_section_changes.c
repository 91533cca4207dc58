/* maintevo section-changes: sections added, removed and renamed between releases. */
#include "cli.h"
#include "maintevo/export.h"

#include <getopt.h>

static const char usage[] =
	"usage: maintevo section-changes [--store DIR] [--from TAG] [--to TAG] [--format F]\n"
	"                                [-o FILE]\n"
	"\n"
	"Write the section-level changes 'maintevo track' found between consecutive\n"
	"releases, in release order: the table 'maintevo export section_changes'\n"
	"writes (docs/schemas.md), as CSV by default\n"
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
	"  -f, --format F     csv (default), json (one array of objects) or jsonl\n"
	"  -o, --out FILE     write to FILE instead of standard output\n"
	"  -h, --help         show this help\n";

int cmd_section_changes(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "store", required_argument, NULL, 's' },
		{ "from", required_argument, NULL, 'F' },
		{ "to", required_argument, NULL, 'T' },
		{ "format", required_argument, NULL, 'f' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir = "maintevo.store", *format = NULL, *out_path = NULL;
	mev_export_options eo = { 0 };
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hf:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 's': dir = optarg; break;
		case 'F': eo.from = optarg; break;
		case 'T': eo.to = optarg; break;
		case 'f': format = optarg; break;
		case 'o': out_path = optarg; break;
		case 'h': fputs(usage, stdout); return EXIT_OK;
		default: return cli_bad_option("section-changes", c, argc, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("section-changes", "unexpected argument '%s'", argv[optind]);
	return cli_write_table("section-changes", dir, MEV_EXPORT_SECTION_CHANGES, &eo, format,
			       out_path);
}
