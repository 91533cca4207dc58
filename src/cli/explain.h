/* maintevo explain PATH: why a path is in a section or not (cmd_explain_path.c). */
#ifndef MEV_CLI_EXPLAIN_H
#define MEV_CLI_EXPLAIN_H

#include "cli.h"

/* What 'explain PATH' reads: a release from git (repo, rev) or from a
 * store (store, release). */
typedef struct {
	const char *repo, *rev;
	mev_rules_options rules;
	const char *store, *release;
	const char *format;        /* NULL: text; csv, json, jsonl */
	int excel_safe;            /* csv: text cells safe for a spreadsheet */
} cli_explain_path_args;

/* Explain the n paths as a's release's get_maintainer.pl decides; the exit code. */
int cli_explain_path(const cli_explain_path_args *a, char **paths, size_t n);

#endif
