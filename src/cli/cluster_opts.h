/* Options naming a clustering parameter set, shared by the cluster and tracking commands. */
#ifndef MEV_CLI_CLUSTER_OPTS_H
#define MEV_CLI_CLUSTER_OPTS_H

#include <getopt.h>
#include "maintevo/cluster.h"

enum {
	OPT_STEPS = 1001, OPT_RESOLUTION, OPT_SEED, OPT_TOP, OPT_SMOOTH, OPT_CLUSTER_LAST
};

#define CLI_CLUSTER_LONGOPTS \
	{ "method", required_argument, NULL, 'm' }, \
	{ "steps", required_argument, NULL, OPT_STEPS }, \
	{ "resolution", required_argument, NULL, OPT_RESOLUTION }, \
	{ "seed", required_argument, NULL, OPT_SEED }, \
	{ "top-fraction", required_argument, NULL, OPT_TOP }, \
	{ "smooth", no_argument, NULL, OPT_SMOOTH }

#define CLI_CLUSTER_HELP \
	"  -m, --method M     walktrap (default), louvain, leiden or components; or a\n" \
	"                     whole parameter key as the CSVs show it\n" \
	"                     (walktrap:steps=4:top=1)\n" \
	"  --steps N          walktrap: length of the random walks (default 4)\n" \
	"  --resolution R     louvain, leiden: modularity resolution (default 1)\n" \
	"  --seed N           louvain, leiden: random seed (default 1)\n" \
	"  --top-fraction F   cluster only the largest F of the sections by lines\n" \
	"                     (default 1; the study's figures used 0.2)\n" \
	"  --smooth           leiden started from the previous release's clusters\n" \
	"                     (implies --method leiden)\n"

typedef struct {
	const char *method;      /* as given (NULL: walktrap) */
	long steps;              /* -1: not given */
	double resolution, top;  /* < 0: not given */
	long long seed;          /* -1: not given */
	int smooth;
	mev_cluster_params p;    /* the result of cli_cluster_finish() */
	char key[128];
} cli_cluster_opts;

void cli_cluster_init(cli_cluster_opts *o);
/* 1 when `opt` was a clustering option, 0 when not, EXIT_USAGE after an error. */
int cli_cluster_option(cli_cluster_opts *o, const char *cmd, int opt, const char *arg);
/* Put the options together into o->p and o->key; EXIT_USAGE after an error. */
int cli_cluster_finish(cli_cluster_opts *o, const char *cmd);

#endif
