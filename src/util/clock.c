/* The monotonic clock (util/clock.h). */
#include "util/clock.h"

#include <time.h>

double mev__now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}
