/* The monotonic clock, for timings and progress (internal). */
#ifndef MEV_UTIL_CLOCK_H
#define MEV_UTIL_CLOCK_H

/* Seconds since an arbitrary fixed point (CLOCK_MONOTONIC). */
double mev__now(void);

#endif
