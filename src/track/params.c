/* The tracker's thresholds: defaults, checks, and the key that names a set of them. */
#include "maintevo/track.h"
#include "maintevo/error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mev_track_params_init(mev_track_params *p)
{
	p->link = 0.1;
	p->match = 0.5;
	p->growth = 0.1;
	p->rename = 0.8;
	p->absorb = 0.5;
	p->gap = 1;
	p->support_runs = 10;
	p->noise = 0.05;
}

int mev_track_params_check(const mev_track_params *p)
{
	const struct { const char *name; double v; } t[] = {
		{ "link", p->link }, { "match", p->match }, { "rename", p->rename }, { "absorb", p->absorb }
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		if (!(t[i].v > 0) || t[i].v > 1) {
			mev_error_set(MEV_EINVAL, "the %s threshold must be in (0, 1], not %g", t[i].name, t[i].v);
			mev_error_hint("see docs/tracking.md for what each threshold does");
			return MEV_EINVAL;
		}
	if (p->gap < 0 || p->gap > MEV_TRACK_GAP_MAX) {
		mev_error_set(MEV_EINVAL, "the gap must be 0 to %d releases, not %d", MEV_TRACK_GAP_MAX, p->gap);
		mev_error_hint("1 bridges a lineage that vanishes for one release; 0 bridges none");
		return MEV_EINVAL;
	}
	if (p->support_runs < 0 || p->support_runs > 1000) {
		mev_error_set(MEV_EINVAL, "support runs must be 0 to 1000, not %d", p->support_runs);
		mev_error_hint("10 runs give the support of an event in steps of 0.1");
		return MEV_EINVAL;
	}
	if (!(p->noise >= 0) || p->noise > 0.5) {
		mev_error_set(MEV_EINVAL, "the support noise must be in [0, 0.5], not %g", p->noise);
		mev_error_hint("0.05 scales each edge weight by a factor in [0.95, 1.05]");
		return MEV_EINVAL;
	}
	if (!(p->growth > 0) || p->growth > 1e6) {
		mev_error_set(MEV_EINVAL, "the growth threshold must be positive, not %g", p->growth);
		mev_error_hint("0.1 calls a change of 10%% in lines a growth or a contraction");
		return MEV_EINVAL;
	}
	return 0;
}

size_t mev_track_key(char *out, size_t size, const mev_track_params *p)
{
	/* %g where it reads back as the same number, else %.17g (which does) */
	char buf[160];
	const double v[4] = { p->link, p->match, p->growth, p->absorb };
	const char *names[4] = { "link", "match", "growth", "absorb" };
	size_t len = 0;
	for (int i = 0; i < 4; i++) {
		char num[40];
		snprintf(num, sizeof num, "%g", v[i]);
		if (strtod(num, NULL) != v[i])
			snprintf(num, sizeof num, "%.17g", v[i]);
		len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s=%s", i ? ":" : "", names[i], num);
	}
	int n = snprintf(out, size, "%s:gap=%d", buf, p->gap);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size ? size - 1 : 0;
}

size_t mev_track_result_key(char *out, size_t size, const mev_cluster_params *cp,
			    const mev_track_params *tp)
{
	char ck[128], tk[160];
	mev_track_params d;
	int n;
	if (!tp) {
		mev_track_params_init(&d);
		tp = &d;
	}
	mev_cluster_key(ck, sizeof ck, cp);
	mev_track_key(tk, sizeof tk, tp);
	n = snprintf(out, size, "%s/%s", ck, tk);
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size ? size - 1 : 0;
}

int mev_track_params_parse(mev_track_params *out, const char *text)
{
	char buf[256];
	char *save = NULL;
	if (strlen(text) >= sizeof buf)
		return mev_error_set(MEV_EINVAL, "tracker key too long: '%s'", text);
	strcpy(buf, text);
	for (char *f = strtok_r(buf, ":", &save); f; f = strtok_r(NULL, ":", &save)) {
		char *eq = strchr(f, '='), *end;
		double v;
		double *field = NULL;
		if (!eq)
			return mev_error_set(MEV_EINVAL, "'%s' in tracker key '%s' is not NAME=VALUE", f, text);
		*eq = '\0';
		if (strcmp(f, "gap") == 0) {
			/* a number of releases, not a threshold */
			long g = strtol(eq + 1, &end, 10);
			if (end == eq + 1 || *end || g < 0 || g > MEV_TRACK_GAP_MAX)
				return mev_error_set(MEV_EINVAL, "'%s' of gap in tracker key '%s' is not 0 to %d",
						     eq + 1, text, MEV_TRACK_GAP_MAX);
			out->gap = (int)g;
			continue;
		}
		if (strcmp(f, "link") == 0)
			field = &out->link;
		else if (strcmp(f, "match") == 0)
			field = &out->match;
		else if (strcmp(f, "growth") == 0)
			field = &out->growth;
		else if (strcmp(f, "absorb") == 0)
			field = &out->absorb;
		else if (strcmp(f, "rename") == 0)
			field = &out->rename;
		if (!field)
			return mev_error_set(MEV_EINVAL, "unknown threshold '%s' in tracker key '%s'", f, text);
		errno = 0;
		v = strtod(eq + 1, &end);
		if (errno || end == eq + 1 || *end)
			return mev_error_set(MEV_EINVAL, "'%s' of %s in tracker key '%s' is not a number", eq + 1,
					     f, text);
		*field = v;
	}
	return mev_track_params_check(out);
}
