/* Inside the causes (cause.c: the pair; cause_event.c: each event). */
#ifndef MEV_CAUSE_INTERNAL_H
#define MEV_CAUSE_INTERNAL_H

#include "track_internal.h"

#include <string.h>

/* An index that is absent (no row, no section). */
#define MEV__CAUSE_ABSENT UINT32_MAX

/* Code that touches less than this share of the lines of the involved
 * sections' files (and moves nothing between the clusters) does not
 * explain an event. */
#define MEV__CAUSE_CODE_SHARE 0.05

/* Files of each kind kept in an event's account, and pattern changes. */
enum { MEV__CAUSE_KEEP_FILES = 20, MEV__CAUSE_KEEP_PATTERNS = 1000 };

/* Growth and contraction get a cause when the lines change by more than this. */
#define MEV__CAUSE_CHANGE 0.1

/* A pattern line added to (b side) or removed from (a side) a section. */
typedef struct {
	int added;
	uint32_t sa, sb;                  /* the section in each release (absent: MEV__CAUSE_ABSENT) */
	const mev_pattern_line *line;
} mev__pchange;

/* A file whose coverage or size changed, or that appeared or vanished. */
typedef struct {
	uint32_t ra, rb;                  /* rows (MEV__CAUSE_ABSENT on the side it is absent) */
	uint64_t la, lb;
	int cov;                          /* present in both: its sections changed */
} mev__file_change;

typedef struct {
	const mev__cause_in *in;
	size_t nsa, nsb;
	uint32_t *a2b, *b2a;              /* section maps by title and renames */
	uint32_t *ch_a, *ch_b;            /* per section change: its section in each release */
	mev_strmap ta, tb;                /* titles to sections */
	MEV_VEC(mev__pchange) pc;
	MEV_VEC(mev__file_change) fc;
	uint8_t *oa, *nb;                 /* per cluster: involved in the event at hand */
	uint8_t *sa, *sb;                 /* per section: involved (1; 2: loose, cause_event.c) */
	uint64_t *wa, *wb;                /* per section: how much (orders its changes) */
	uint8_t *seta, *setb;             /* per section set of the file tables: involved */
	uint32_t *part_a, *part_b;        /* per section: its part (split, merge) */
	int sm, split;                    /* the event is a split or merge; a split */
} mev__cause_pair;

/* The title of section i of r. */
static inline const char *mev__cause_title(const mev__track_rel *r, uint32_t i)
{
	return mev_filemap_sections(r->sec)[i].title;
}

/* Bytewise path order of two file rows. */
static inline int mev__cause_path_cmp(const mev_file_row *x, const mev_file_row *y)
{
	size_t m = x->path_len < y->path_len ? x->path_len : y->path_len;
	int c = memcmp(x->path, y->path, m);
	return c ? c : x->path_len < y->path_len ? -1 : x->path_len > y->path_len;
}

/* A section's display name (a mev__show_fn over a mev__cause_pair). */
const char *mev__cause_show(const void *ctx, int newer, const char *title);

/* The cause of link l of the pair into *ec.  Errors: MEV_ENOMEM. */
int mev__cause_event(mev__event_cause *ec, mev__cause_pair *p, const mev__link *l);

#endif
