/* Release tags: which tags are releases, and their version order. */
#ifndef MAINTEVO_TAGS_H
#define MAINTEVO_TAGS_H

#include "maintevo/dialect.h"

/*
 * Compare two tags as versions: digit runs compare as numbers, other runs
 * bytewise, and a pre-release suffix starting with '-' sorts before the
 * release (v2.6.39 < v3.0 < v3.10, v6.1-rc1 < v6.1 < v6.1.1).  Ties are
 * broken bytewise so the order is total.
 */
int mev_tag_cmp(const char *a, const char *b);

/*
 * Is `tag` a release of the dialect?  Each dialect's pattern is in its file
 * (mev_dialect_info_get(d)->tags: Linux vX.Y and vX.Y.Z, U-Boot vYYYY.MM,
 * ...); with rc, also its release candidates (->rc_tags).  MEV_DIALECT_AUTO
 * takes the fallback's (Linux's).
 */
int mev_tag_is_release(mev_dialect d, const char *tag, int rc);

#endif
