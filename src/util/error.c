/* The per-thread last error: a message, a hint and a code. */
#include "maintevo/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MSG_MAX 2048

static _Thread_local char msg[MSG_MAX];
static _Thread_local char hint[MSG_MAX];
static _Thread_local int last_code;

int mev_error_set(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	hint[0] = '\0';
	last_code = code;
	return code;
}

void mev_error_hint(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(hint, sizeof hint, fmt, ap);
	va_end(ap);
}

void mev_error_prefix(const char *fmt, ...)
{
	char old[MSG_MAX];
	size_t n;
	va_list ap;
	memcpy(old, msg, sizeof old);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	n = strlen(msg);
	if (n + 2 < sizeof msg) {
		memcpy(msg + n, ": ", 2);
		n += 2;
		memcpy(msg + n, old, sizeof msg - n - 1);
		msg[sizeof msg - 1] = '\0';
	}
}

const char *mev_error_message(void) { return msg; }
const char *mev_error_hint_text(void) { return hint; }
int mev_error_code(void) { return last_code; }

void mev_error_clear(void)
{
	msg[0] = hint[0] = '\0';
	last_code = 0;
}

int mev_error_oom(void)
{
	return mev_error_set(MEV_ENOMEM, "out of memory");
}

int mev_error_write(const char *what)
{
	int rc = mev_error_set(MEV_EIO, "cannot write the %s", what);
	mev_error_hint("check the free space where the output goes, and that it can be written");
	return rc;
}
