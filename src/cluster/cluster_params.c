/* Clustering parameters: methods, defaults, checks, and the canonical key that names a set. */
#include "maintevo/cluster.h"
#include "maintevo/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const method_names[] = { "walktrap", "louvain", "leiden", "components", "temporal" };

const char *mev_cluster_method_name(mev_cluster_method m)
{
	return (unsigned)m < sizeof method_names / sizeof *method_names ? method_names[m] : "?";
}

int mev_cluster_method_parse(const char *name)
{
	for (size_t i = 0; i < sizeof method_names / sizeof *method_names; i++)
		if (strcmp(name, method_names[i]) == 0)
			return (int)i;
	return -1;
}

void mev_cluster_params_init(mev_cluster_params *p)
{
	memset(p, 0, sizeof *p);
	p->method = MEV_CLUSTER_TEMPORAL;
	p->steps = 4;
	p->resolution = 1.0;
	p->seed = 1;
	p->top_fraction = 1.0;
	p->tolerance = 0.97;
}

int mev_cluster_params_check(const mev_cluster_params *p)
{
	if ((unsigned)p->method > MEV_CLUSTER_TEMPORAL)
		return mev_error_set(MEV_EINVAL, "unknown clustering method %d", (int)p->method);
	if (p->steps < 1 || p->steps > 1000) {
		mev_error_set(MEV_EINVAL, "walktrap steps must be 1 to 1000, not %d", p->steps);
		mev_error_hint("the study used 4");
		return MEV_EINVAL;
	}
	if (!(p->resolution > 0) || p->resolution > 1e6) {
		mev_error_set(MEV_EINVAL, "resolution must be positive, not %g", p->resolution);
		mev_error_hint("1 is plain modularity; larger values give smaller clusters");
		return MEV_EINVAL;
	}
	if (!(p->top_fraction > 0) || p->top_fraction > 1) {
		mev_error_set(MEV_EINVAL, "top fraction must be in (0, 1], not %g", p->top_fraction);
		mev_error_hint("0.2 keeps the largest 20%% of the sections, as the study's figures");
		return MEV_EINVAL;
	}
	if (!(p->tolerance > 0) || p->tolerance > 1) {
		mev_error_set(MEV_EINVAL, "tolerance must be in (0, 1], not %g", p->tolerance);
		mev_error_hint("0.97 keeps a partition within 3%% of independent Leiden's modularity");
		return MEV_EINVAL;
	}
	if (p->smooth && p->method != MEV_CLUSTER_LEIDEN) {
		mev_error_set(MEV_EINVAL, "smoothing needs the leiden method, not %s",
			      mev_cluster_method_name(p->method));
		mev_error_hint(p->method == MEV_CLUSTER_TEMPORAL
				       ? "the temporal method always starts from the previous release"
				       : "use --method leiden --smooth (only Leiden starts from a given partition)");
		return MEV_EINVAL;
	}
	return 0;
}

size_t mev_cluster_key(char *out, size_t size, const mev_cluster_params *p)
{
	int n;
	switch (p->method) {
	case MEV_CLUSTER_WALKTRAP:
		n = snprintf(out, size, "walktrap:steps=%d:top=%g", p->steps, p->top_fraction);
		break;
	case MEV_CLUSTER_LOUVAIN:
	case MEV_CLUSTER_LEIDEN:
		n = snprintf(out, size, "%s:res=%g:seed=%llu:top=%g%s", mev_cluster_method_name(p->method),
			     p->resolution, (unsigned long long)p->seed, p->top_fraction,
			     p->smooth ? ":smooth" : "");
		break;
	case MEV_CLUSTER_TEMPORAL:
		n = snprintf(out, size, "temporal:res=%g:seed=%llu:tol=%g:top=%g", p->resolution,
			     (unsigned long long)p->seed, p->tolerance, p->top_fraction);
		break;
	default:
		n = snprintf(out, size, "components:top=%g", p->top_fraction);
		break;
	}
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size ? size - 1 : 0;
}

int mev_cluster_params_parse(mev_cluster_params *out, const char *text)
{
	char buf[256], *save = NULL, *f;
	int m, first = 1;
	mev_cluster_params_init(out);
	if (strlen(text) >= sizeof buf)
		return mev_error_set(MEV_EINVAL, "clustering parameters '%.40s...' are too long", text);
	snprintf(buf, sizeof buf, "%s", text);
	for (f = strtok_r(buf, ":", &save); f; f = strtok_r(NULL, ":", &save), first = 0) {
		char *eq = strchr(f, '='), *end = NULL;
		const char *v = eq ? eq + 1 : "";
		if (first) {
			if ((m = mev_cluster_method_parse(f)) < 0)
				goto bad_method;
			out->method = (mev_cluster_method)m;
			continue;
		}
		if (eq)
			*eq = '\0';
		errno = 0;
		if (strcmp(f, "steps") == 0)
			out->steps = (int)strtol(v, &end, 10);
		else if (strcmp(f, "res") == 0)
			out->resolution = strtod(v, &end);
		else if (strcmp(f, "seed") == 0)
			out->seed = strtoull(v, &end, 10);
		else if (strcmp(f, "top") == 0)
			out->top_fraction = strtod(v, &end);
		else if (strcmp(f, "tol") == 0)
			out->tolerance = strtod(v, &end);
		else if (strcmp(f, "smooth") == 0 && !eq) {
			out->smooth = 1;
			continue;
		}
		if (!eq || !end || end == v || *end || errno) {
			mev_error_set(MEV_EINVAL, "cannot read '%s' in clustering parameters '%s'", f, text);
			mev_error_hint("write a method (temporal, walktrap, louvain, leiden, components) or a "
				       "key such as walktrap:steps=4:top=1");
			return MEV_EINVAL;
		}
	}
	if (first)
		goto bad_method;
	return mev_cluster_params_check(out);
bad_method:
	mev_error_set(MEV_EINVAL, "unknown clustering method in '%s'", text);
	mev_error_hint("use temporal, walktrap, louvain, leiden or components");
	return MEV_EINVAL;
}
