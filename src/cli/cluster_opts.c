/* Options naming a clustering parameter set (--method, --steps, ...). */
#include "cli.h"
#include "cluster_opts.h"
#include "maintevo/error.h"

#include <string.h>

void cli_cluster_init(cli_cluster_opts *o)
{
	memset(o, 0, sizeof *o);
	o->steps = -1;
	o->resolution = -1;
	o->top = -1;
	o->seed = -1;
	mev_cluster_params_init(&o->p);
}

int cli_cluster_finish(cli_cluster_opts *o, const char *cmd)
{
	if (o->method) {
		if (mev_cluster_params_parse(&o->p, o->method)) {
			cli_say(stderr, "maintevo: error: %s\nhint: see 'maintevo %s --help'\n",
				mev_error_message(), cmd);
			return EXIT_USAGE;
		}
	} else if (o->smooth) {
		o->p.method = MEV_CLUSTER_LEIDEN;
	}
	if (o->steps >= 0) {
		if (o->p.method != MEV_CLUSTER_WALKTRAP)
			return cli_usage_error(cmd, "--steps is for walktrap, not %s",
					       mev_cluster_method_name(o->p.method));
		o->p.steps = (int)o->steps;
	}
	if (o->resolution >= 0 || o->seed >= 0) {
		if (o->p.method != MEV_CLUSTER_LOUVAIN && o->p.method != MEV_CLUSTER_LEIDEN &&
		    o->p.method != MEV_CLUSTER_TEMPORAL)
			return cli_usage_error(cmd, "%s is for temporal, louvain and leiden, not %s",
					       o->resolution >= 0 ? "--resolution" : "--seed",
					       mev_cluster_method_name(o->p.method));
		if (o->resolution >= 0)
			o->p.resolution = o->resolution;
		if (o->seed >= 0)
			o->p.seed = (uint64_t)o->seed;
	}
	if (o->top >= 0)
		o->p.top_fraction = o->top;
	if (o->smooth)
		o->p.smooth = 1;
	if (mev_cluster_params_check(&o->p)) {
		cli_say(stderr, "maintevo: error: %s\n", mev_error_message());
		if (mev_error_hint_text()[0])
			cli_say(stderr, "hint: %s\n", mev_error_hint_text());
		return EXIT_USAGE;
	}
	mev_cluster_key(o->key, sizeof o->key, &o->p);
	return 0;
}
