/* Library-internal access to a parsed MAINTAINERS (for the matcher). */
#ifndef MEV_MAINT_INTERNAL_H
#define MEV_MAINT_INTERNAL_H

#include "maintevo/maintainers.h"

/* Add a diagnostic about file `file` (or UINT32_MAX), line `line` (or 0). */
int mev_maint_diag_add(mev_maint *m, uint32_t file, uint32_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
