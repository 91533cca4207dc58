/* Options naming a clustering parameter set, shared by the cluster and tracking commands. */
#ifndef MEV_CLI_CLUSTER_OPTS_H
#define MEV_CLI_CLUSTER_OPTS_H

#include "maintevo/cluster.h"

/* What cli_cluster_options (options.h) sets; cli_cluster_finish() puts it together. */
typedef struct {
	const char *method;      /* as given (NULL: temporal) */
	long steps;              /* -1: not given */
	double resolution, top;  /* < 0: not given */
	long long seed;          /* -1: not given */
	int smooth;
	mev_cluster_params p;    /* the result of cli_cluster_finish() */
	char key[128];
} cli_cluster_opts;

void cli_cluster_init(cli_cluster_opts *o);
/* Put the options together into o->p and o->key; EXIT_USAGE after an error. */
int cli_cluster_finish(cli_cluster_opts *o, const char *cmd);

#endif
