/* A minimal test harness: CHECK macros, a failure count, skip = exit 77. */
#ifndef MEV_TEST_H
#define MEV_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "maintevo/error.h"

/* Run a shell command made like printf: 0, or -1 (the command said). */
static inline int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int sh(const char *fmt, ...)
{
	char cmd[16384];
	va_list ap;
	int st;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	st = system(cmd);
	if (st != 0)
		fprintf(stderr, "command failed (%d): %s\n", st, cmd);
	return st == 0 ? 0 : -1;
}

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

/*
 * CHECK_ERR(expr, code, text): expr fails with error `code` and the thread's
 * last message contains `text` (the message users see; "" checks no text).
 */
#define CHECK_ERR(expr, code, text) do { int rc_ = (expr); const char *m_ = mev_error_message(); \
	if (rc_ != (code) || !strstr(m_, (text))) { \
	fprintf(stderr, "%s:%d: [%s] %s == %d \"%s\", expected %d with \"%s\"\n", __FILE__, __LINE__, \
		test_current, #expr, rc_, m_, (int)(code), (text)); test_failures++; } } while (0)

/* Run a test function: RUN(test_foo); */
#define RUN(fn) do { test_current = #fn; fn(); } while (0)

#define TEST_SKIP 77

/*
 * A new empty directory under $TMPDIR (or /tmp) for this test program,
 * named after `name`; test_tmpdir_remove() deletes it and all it holds.
 * Exits 1 when it cannot be made.
 */
static inline const char *test_tmpdir(const char *name)
{
	static char dir[512];
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/mev-test-%s.XXXXXX", t && *t ? t : "/tmp", name);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(1);
	}
	return dir;
}

static inline void test_tmpdir_remove(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

static inline int test_summary(void)
{
	if (test_failures)
		fprintf(stderr, "%d check(s) failed\n", test_failures);
	return test_failures ? 1 : 0;
}

#endif
