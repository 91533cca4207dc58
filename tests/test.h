/* A minimal test harness: CHECK macros, a failure count, skip = exit 77. */
#ifndef MEV_TEST_H
#define MEV_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failures;
static const char *test_current = "";

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: [%s] check failed: %s\n", __FILE__, __LINE__, test_current, #cond); \
	test_failures++; } } while (0)

#define CHECK_INT(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); if (a_ != b_) { \
	fprintf(stderr, "%s:%d: [%s] %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, \
		test_current, #a, a_, #b, b_); test_failures++; } } while (0)

#define CHECK_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
	if (!a_ || !b_ || strcmp(a_, b_) != 0) { \
	fprintf(stderr, "%s:%d: [%s] %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, \
		test_current, #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); test_failures++; } } while (0)

/* Run a test function: RUN(test_foo); */
#define RUN(fn) do { test_current = #fn; fn(); } while (0)

#define TEST_SKIP 77

static inline int test_summary(void)
{
	if (test_failures)
		fprintf(stderr, "%d check(s) failed\n", test_failures);
	return test_failures ? 1 : 0;
}

#endif
