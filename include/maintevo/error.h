/* Error codes and the per-thread "last error" message of maintevo. */
#ifndef MAINTEVO_ERROR_H
#define MAINTEVO_ERROR_H

/*
 * Every fallible maintevo function returns an int: 0 on success or one of the
 * negative codes below.  The function that fails records a message (and
 * optionally a hint saying what to do) with mev_error_set(); callers pass the
 * code up unchanged.  Only the command line prints them.
 */
enum {
	MEV_OK = 0,
	MEV_ERROR = -1,     /* generic failure */
	MEV_ENOTFOUND = -2, /* a repository, revision, file or release is missing */
	MEV_EINVAL = -3,    /* invalid input (bad option value, bad pattern) */
	MEV_ENOMEM = -4,    /* out of memory */
	MEV_EIO = -5,       /* reading or writing a file failed */
	MEV_EGIT = -6,      /* libgit2 reported an error */
	MEV_ESTORE = -7,    /* the store refused an operation */
	MEV_ECORRUPT = -8,  /* stored data failed a checksum or a format check */
	MEV_EINTR = -9,     /* interrupted by the user */
	MEV_ELIMIT = -10    /* a size or time limit was hit */
};

/* Record a printf-style message for the calling thread; returns `code`. */
int mev_error_set(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Attach a hint ("what to do") to the current error. */
void mev_error_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prefix the current message with more context: "ctx: old message". */
void mev_error_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The last message and hint of this thread ("" when none).  Valid until the
 * next mev_error_* call on the same thread. */
const char *mev_error_message(void);
const char *mev_error_hint_text(void);

/* The code passed to the last mev_error_set() of this thread. */
int mev_error_code(void);

void mev_error_clear(void);

/* Convenience for allocation failures. */
int mev_error_oom(void);
/* MEV_EIO "cannot write the <what>" (a stream's write failed: a full disk,
 * a closed pipe), with the hint every such message has. */
int mev_error_write(const char *what);

#endif
