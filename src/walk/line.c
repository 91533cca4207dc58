/*
 * The line of releases a walk takes (docs/walking.md, "One line of
 * releases"), said where it does not go forward: a release dated before
 * one that comes before it in version order, stored releases this walk's
 * line leaves out (a store walked when the default took maintenance
 * releases too), a --line that names no line of the repository.
 */
#include "walk_internal.h"
#include "maintevo/calendar.h"
#include "maintevo/error.h"
#include "maintevo/tags.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many releases a note names before "and N more". */
enum { NAMED = 3 };

static int key_cmp(const void *a, const void *b)
{
	return mev_tag_cmp(((const mev_release_key *)a)->name, ((const mev_release_key *)b)->name);
}

/* "v21.02 of 2021-02-14 after v20.11.10 of 2023-10-23" */
static void pair_text(char *out, size_t size, const mev_release_key *late, const mev_release_key *newest)
{
	char d1[11], d2[11];
	mev_day_format(d1, late->time);
	mev_day_format(d2, newest->time);
	snprintf(out, size, "%s of %s after %s of %s", late->name, d1, newest->name, d2);
}

int mev__walk_say_backward(const mev__walker *w, mev_release_key *chosen, size_t n)
{
	size_t *before = malloc((n + 1) * sizeof *before), said = 0, more = 0;
	char text[NAMED][300], others[40] = "";
	if (!before)
		return mev_error_oom();
	qsort(chosen, n, sizeof *chosen, key_cmp);
	mev_release_backward(before, chosen, n);
	for (size_t i = 0; i < n; i++) {
		/* said when walked: a stored one was said by the walk that took it */
		if (before[i] == SIZE_MAX || !chosen[i].index)
			continue;
		if (said < NAMED)
			pair_text(text[said++], sizeof text[0], &chosen[i], &chosen[before[i]]);
		else
			more++;
	}
	free(before);
	if (!said)
		return 0;
	if (more)
		snprintf(others, sizeof others, "; and %zu more", more);
	mev__walk_note(&w->opts, "%zu release%s go%s back in time (dated before a release that comes "
		       "before %s in version order): %s%s%s%s%s%s; walked in version order all the same",
		       said + more, said + more == 1 ? "" : "s", said + more == 1 ? "es" : "",
		       said + more == 1 ? "it" : "them", text[0], said > 1 ? "; " : "", said > 1 ? text[1] : "",
		       said > 2 ? "; " : "", said > 2 ? text[2] : "", others);
	return 0;
}

void mev__walk_say_off_line(const mev__walker *w)
{
	const mev__stored_list *l = &w->run.stored;
	char names[NAMED * 80] = "";
	size_t n = 0, used = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (mev_snapshot_parse(l->v[i].tag, NULL, NULL) || mev__walk_chosen(w, l->v[i].tag))
			continue;
		if (n++ < NAMED)
			used += (size_t)snprintf(names + used, used < sizeof names ? sizeof names - used : 0,
						 "%s%s", n > 1 ? ", " : "", l->v[i].tag);
	}
	if (!n)
		return;
	mev__walk_note(&w->opts, "the store holds %zu release%s this walk's line leaves out (%s%s), walked "
		       "when the default took maintenance releases too: kept, and tracked with the others; "
		       "to leave %s out, walk into a new store", n, n == 1 ? "" : "s", names,
		       n > NAMED ? ", ..." : "", n == 1 ? "it" : "them");
}

static int name_cmp(const void *a, const void *b)
{
	return mev_tag_cmp(*(char *const *)a, *(char *const *)b);
}

int mev__walk_line_missing(const char *repo, mev_dialect d, const char *want, const mev_tag *tags,
			   size_t ntags)
{
	char (*line)[64] = malloc((ntags + 1) * sizeof *line), **sorted = NULL;
	char text[400] = "";
	size_t n = 0, used = 0;
	if (!line || !(sorted = malloc((ntags + 1) * sizeof *sorted))) {
		free(line);
		return mev_error_oom();
	}
	for (size_t i = 0; i < ntags; i++)
		if (mev_tag_line(line[n], sizeof line[n], d, tags[i].name, 0) == MEV_TAG_POINT) {
			sorted[n] = line[n];
			n++;
		}
	/* the lines that have maintenance releases, each once, in version order */
	qsort(sorted, n, sizeof *sorted, name_cmp);
	for (size_t i = 0; i < n && used < sizeof text; i++)
		if (!i || strcmp(sorted[i], sorted[i - 1]))
			used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", used ? ", " : "",
						 sorted[i]);
	mev_error_set(MEV_ENOTFOUND, "--line '%s' names no line of '%s' (dialect %s)", want, repo,
		      mev_dialect_name(d));
	if (n)
		mev_error_hint("its lines with maintenance releases: %s; a line is named by the release "
			       "it starts from, as its tag writes the numbers", text);
	else
		mev_error_hint("none of its release tags is a maintenance release");
	free(line);
	free(sorted);
	return MEV_ENOTFOUND;
}

int mev__walk_check_line(const mev__walker *w, const mev_tag *tags, size_t ntags)
{
	const char *want = w->opts.user->line;
	char line[64];
	mev_dialect d;
	int rc;
	if (!want)
		return 0;
	if ((rc = mev__walk_dialect(&d, w, tags, ntags)))
		return rc;
	for (size_t i = 0; i < ntags; i++)
		if (mev_tag_line(line, sizeof line, d, tags[i].name, w->opts.user->rc) != MEV_TAG_NONE &&
		    strcmp(line, want) == 0)
			return 0;
	return mev__walk_line_missing(w->opts.user->repo, d, want, tags, ntags);
}
