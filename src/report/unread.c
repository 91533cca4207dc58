/*
 * The releases whose own get_maintainer.pl leaves MAINTAINERS files of
 * their tree unread (U-Boot v2021.10 reads ./MAINTAINERS alone, while
 * board/ holds 511 more): their sections are missing from that release
 * only, so its subsystems seem to die and be born again.  The report marks
 * such a release where it shows releases, and says why once.  From the
 * health record (mev_release_health.unread).
 */
#include "report_internal.h"
#include "maintevo/error.h"
#include "maintevo/release.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The mark beside a release's tag: a dagger. */
#define MARK " \xe2\x80\xa0"

int mev__unread_read(mev__unread *u, const mev__report *r, size_t n)
{
	int rc = 0;
	memset(u, 0, sizeof *u);
	if (!(u->count = malloc((n + 1) * sizeof *u->count)) || !(u->label = calloc(n + 1, sizeof *u->label)))
		return mev_error_oom();
	u->n = n;
	if (mev_release_reads_top_level_only(r->store)) {
		for (size_t i = 0; i < n; i++)
			u->count[i] = -1; /* every release leaves them unread, as asked: no mark */
		return 0;
	}
	for (size_t i = 0; i < n && !rc; i++) {
		const char *tag = mev_history_release(r->h, i)->tag;
		mev_release_health h;
		int got = mev_release_load_health(&h, r->store, tag);
		u->count[i] = got == 0 && h.unread_known ? (int64_t)h.nunread : -1;
		mev_release_health_free(&h);
		if (got && got != MEV_ENOTFOUND)
			rc = got;
		else if (u->count[i] > 0 && !(u->label[i] = malloc(strlen(tag) + sizeof MARK)))
			rc = mev_error_oom();
		else if (u->count[i] > 0) {
			sprintf(u->label[i], "%s" MARK, tag);
			u->marked++;
		}
	}
	return rc;
}

void mev__unread_free(mev__unread *u)
{
	for (size_t i = 0; u->label && i < u->n; i++)
		free(u->label[i]);
	free(u->label);
	free(u->count);
	memset(u, 0, sizeof *u);
}

const char *mev__unread_tag(const mev__unread *u, size_t i, const char *tag)
{
	return i < u->n && u->label[i] ? u->label[i] : tag;
}

void mev__unread_legend(mev__doc *d, const mev__unread *u, const mev__report *r)
{
	size_t said = 0;
	if (!u->marked)
		return;
	mev__doc_para_begin(d, "note");
	mev__doc_printf(d, "\xe2\x80\xa0 %s get_maintainer.pl does not read every MAINTAINERS file of "
			"its tree: ", u->marked == 1 ? "The release's own" : "Each marked release's own");
	for (size_t i = 0; i < u->n; i++) {
		if (!u->label[i])
			continue;
		mev__doc_printf(d, "%s%s leaves %" PRId64 " unread", said++ ? ", " : "",
				mev_history_release(r->h, i)->tag, u->count[i]);
	}
	mev__doc_printf(d, ". Their sections are not %s, so the subsystems they hold seem to end "
			"there and start again after it (exact to the script; 'maintevo export health' "
			"lists the files, and 'maintevo walk --files-as RELEASE' reads them as another "
			"release's script does).", u->marked == 1 ? "that release's" : "those releases'");
	mev__doc_para_end(d, "note");
}
