/* The version string, set by the build. */
#include "maintevo/version.h"

const char *mev_version(void) { return MEV_VERSION; }
