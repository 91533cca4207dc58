/* The maintevo version. */
#ifndef MAINTEVO_VERSION_H
#define MAINTEVO_VERSION_H
const char *mev_version(void);
#endif
