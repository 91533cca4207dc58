/*
 * What the commands that write a table share (export, the short table
 * commands releases, clusters, events, lineages and section-changes, and
 * every command taking --excel-safe): their options' defaults, the check
 * of --excel-safe, and the store, its tracked history and the output
 * opened around the writing.
 */
#include "cli.h"
#include "maintevo/store.h"
#include "maintevo/track.h"

#include <string.h>

void cli_table_args_init(cli_table_args *a)
{
	memset(a, 0, sizeof *a);
	a->store = "maintevo.store";
	cli_cluster_init(&a->cluster);
	mev_track_params_init(&a->tp);
}

int cli_excel_check(const char *cmd, int excel_safe, int csv)
{
	if (excel_safe && !csv)
		return cli_usage_error(cmd, "--excel-safe goes with --format csv only");
	return 0;
}

int cli_write_store(const char *dir, const mev_cluster_params *cp, const mev_track_params *tp,
		    const char *out_path,
		    int (*write)(mev_store *s, mev_history *h, const void *opt, FILE *out), const void *opt)
{
	mev_store *s = NULL;
	mev_history *h = NULL;
	cli_out out;
	int rc;
	if (mev_store_open(&s, dir, MEV_STORE_READ))
		return cli_fail();
	if ((rc = cli_out_open(&out, out_path)))
		goto done;
	if (mev_history_open(&h, s, cp, tp, NULL, 0) || write(s, h, opt, out.f)) {
		rc = cli_out_fail(&out);
		goto done;
	}
	rc = cli_out_commit(&out);
done:
	mev_history_free(h);
	mev_store_free(s);
	return rc;
}

typedef struct {
	mev_export_table_id t;
	const mev_export_options *opt;
} table_job;

static int write_table(mev_store *s, mev_history *h, const void *job, FILE *out)
{
	const table_job *j = job;
	mev_export_options o = *j->opt;
	o.history = h;
	return mev_export_table(out, s, j->t, &o);
}

int cli_write_table(const char *cmd, const char *dir, mev_export_table_id t, mev_export_options *opt,
		    const mev_cluster_params *cp, const mev_track_params *tp, const char *format,
		    const char *out_path)
{
	int f = format ? mev_table_format_parse(format) : MEV_TABLE_CSV;
	table_job job = { t, opt };
	if (f < 0)
		return cli_usage_error(cmd, "unknown format '%s' (use csv, json or jsonl)", format);
	if (cli_excel_check(cmd, opt->excel_safe, f == MEV_TABLE_CSV))
		return EXIT_USAGE;
	opt->format = (mev_table_format)f;
	return cli_write_store(dir, cp, tp, out_path, write_table, &job);
}

