/* Output files (-o/--out): a regular file is replaced whole on success and left as it was on failure. */
#include "cli.h"
#include "maintevo/error.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * The temporary file in hand, for the handler of the signals that end a
 * run (Ctrl-C, kill, a closed terminal): it removes the file, then dies of
 * the signal as it would have.  One output at a time: statics.
 */
static char *sig_tmp;
static const int sig_nums[] = { SIGHUP, SIGINT, SIGTERM };
#define SIG_COUNT (sizeof sig_nums / sizeof *sig_nums)
static struct sigaction sig_old[SIG_COUNT];
static int sig_set[SIG_COUNT];

static void on_fatal_signal(int sig)
{
	if (sig_tmp)
		unlink(sig_tmp);
	signal(sig, SIG_DFL);
	raise(sig); /* delivered when the handler returns */
}

static void sig_guard(char *tmp)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	sig_tmp = tmp;
	for (size_t i = 0; i < SIG_COUNT; i++) {
		/* a signal ignored by whoever started us (nohup) stays ignored */
		sig_set[i] = sigaction(sig_nums[i], NULL, &sig_old[i]) == 0 &&
			     sig_old[i].sa_handler != SIG_IGN &&
			     sigaction(sig_nums[i], &sa, NULL) == 0;
	}
}

static void sig_unguard(void)
{
	for (size_t i = 0; i < SIG_COUNT; i++)
		if (sig_set[i])
			sigaction(sig_nums[i], &sig_old[i], NULL);
	memset(sig_set, 0, sizeof sig_set);
	sig_tmp = NULL;
}

/*
 * Whatever goes to a terminal passes a filter that shows control
 * characters as escapes (mev_table_term_str()): a title holding an escape
 * sequence in a report or a graph cannot drive the terminal either (CSV
 * tables escape them themselves, mev_table_new()).  A character cut in two
 * by the stream's buffer waits in `pending` for its other bytes.
 */
typedef struct {
	FILE *to;
	char pending[4];
	size_t npending;
} term_filter;

/* The bytes at the end of s[0..n) that start a UTF-8 character the next
 * write may complete (at most 3). */
static size_t cut_char(const char *s, size_t n)
{
	for (size_t k = 1; k <= 3 && k <= n; k++) {
		unsigned char b = (unsigned char)s[n - k];
		size_t need;
		if ((b & 0xc0) == 0x80)
			continue;
		if (b < 0xc2 || b > 0xf4)
			return 0;
		need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
		return need > k ? k : 0;
	}
	return 0;
}

static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
	term_filter *t = cookie;
	size_t n = t->npending + size, cut;
	char *all = malloc(n);
	if (!all)
		return -1;
	memcpy(all, t->pending, t->npending);
	memcpy(all + t->npending, buf, size);
	cut = cut_char(all, n);
	mev_table_term_str(t->to, all, n - cut);
	memcpy(t->pending, all + n - cut, cut);
	t->npending = cut;
	free(all);
	return ferror(t->to) ? -1 : (ssize_t)size;
}

static int filter_close(void *cookie)
{
	term_filter *t = cookie;
	int bad;
	mev_table_term_str(t->to, t->pending, t->npending); /* a cut character: its bytes */
	bad = ferror(t->to);
	free(t);
	return bad ? EOF : 0;
}

/* o->f on a terminal: write through the filter instead. */
static int filter_terminal(cli_out *o)
{
	static const cookie_io_functions_t io = { .write = filter_write, .close = filter_close };
	term_filter *t;
	FILE *f;
	if (!isatty(fileno(o->f)))
		return EXIT_OK;
	if (!(t = calloc(1, sizeof *t)) || !(f = fopencookie(t, "w", io))) {
		free(t);
		mev_error_oom();
		return cli_fail();
	}
	t->to = o->f;
	o->tty = o->f;
	o->f = f;
	return EXIT_OK;
}

static int out_error(const char *path, const char *what, int err, const char *hint)
{
	mev_error_set(MEV_EIO, "cannot write '%s': %s%s", path, what, strerror(err));
	mev_error_hint("%s", hint);
	return cli_fail();
}

/*
 * The temporary file is written through `sink`, which keeps the error of
 * the first write that failed: a full disk is then reported as such, with
 * the space left, however the command noticed the failure.  One output at
 * a time: a static, like the signal handler's.
 */
static struct {
	int fd;
	int err;
} sink = { -1, 0 };

static ssize_t sink_write(void *cookie, const char *buf, size_t size)
{
	size_t done = 0;
	(void)cookie;
	while (done < size) {
		ssize_t w = write(sink.fd, buf + done, size - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			sink.err = w < 0 ? errno : ENOSPC;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)size;
}

static int sink_close(void *cookie)
{
	int rc = close(sink.fd);
	(void)cookie;
	if (rc != 0 && !sink.err)
		sink.err = errno;
	sink.fd = -1;
	return rc;
}

/* A write to the temporary file of `path` failed with err: say why, with
 * the space left when the disk is full (the target is left as it was). */
static int sink_error(const char *path, int err)
{
	struct statvfs vfs;
	if ((err == ENOSPC || err == EDQUOT) && sink.fd >= 0 && fstatvfs(sink.fd, &vfs) == 0) {
		mev_error_set(MEV_EIO, "cannot write '%s': %s (%llu kB free on its file system)", path,
			      strerror(err), (unsigned long long)vfs.f_bavail * vfs.f_frsize / 1000);
		mev_error_hint("free some space there or write the file elsewhere; '%s' is left as it was",
			       path);
		return cli_fail();
	}
	return out_error(path, "", err, "check the free space and that the file can be written");
}

/* Standard output or error when `st` is the file behind them: "-o
 * /dev/stdout >>log" appends to log through our own descriptor (opening
 * /dev/stdout again would truncate it); -1 otherwise. */
static int std_stream_fd(const struct stat *st)
{
	for (int fd = 1; fd <= 2; fd++) {
		struct stat s;
		if (fstat(fd, &s) == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino)
			return fd;
	}
	return -1;
}

/* Write straight into path (not a regular file) or into descriptor fd. */
static int open_direct(cli_out *o, const char *path, int fd)
{
	int dup_fd = fd >= 0 ? dup(fd) : -1;
	o->f = fd >= 0 ? (dup_fd >= 0 ? fdopen(dup_fd, "w") : NULL) : fopen(path, "w");
	if (!o->f) {
		int err = errno;
		if (dup_fd >= 0)
			close(dup_fd);
		return out_error(path, "", err, "check that it exists and can be written");
	}
	return EXIT_OK;
}

/* ".NAME.XXXXXX" next to target, with the mode (and, when it can, the
 * owner) target has, or the mode a new file gets. */
static int open_temp(cli_out *o, const struct stat *old)
{
	const char *slash = strrchr(o->target, '/');
	size_t dir_len = slash ? (size_t)(slash - o->target) + 1 : 0;
	mode_t mask = umask(0);
	int fd, err;

	umask(mask);
	if (!(o->tmp = malloc(strlen(o->target) + 9))) {
		mev_error_oom();
		return cli_fail();
	}
	sprintf(o->tmp, "%.*s.%s.XXXXXX", (int)dir_len, o->target, o->target + dir_len);
	if ((fd = mkstemp(o->tmp)) < 0) {
		err = errno;
		free(o->tmp);
		o->tmp = NULL;
		if (err == ENOENT || err == ENOTDIR)
			return out_error(o->path, "", err, "check that the folder exists");
		return out_error(o->path, "cannot make a temporary file next to it: ", err,
				 "maintevo writes a file next to FILE and renames it into place, "
				 "so that a failure leaves FILE as it was: the folder must be writable");
	}
	if (old) {
		if ((old->st_uid != geteuid() || old->st_gid != getegid()) &&
		    fchown(fd, old->st_uid, old->st_gid) != 0) {
			/* not allowed: the file becomes ours, as an editor's would */
		}
		fchmod(fd, old->st_mode & 07777);
	} else {
		fchmod(fd, 0666 & ~mask);
	}
	{
		static const cookie_io_functions_t io = { .write = sink_write, .close = sink_close };
		sink.fd = fd;
		sink.err = 0;
		if (!(o->f = fopencookie(NULL, "w", io))) {
			err = errno;
			close(fd);
			sink.fd = -1;
			unlink(o->tmp);
			return out_error(o->path, "", err, "check the free memory");
		}
	}
	sig_guard(o->tmp);
	return EXIT_OK;
}

/* Where to write path: see cli_out_open(). */
static int open_out(cli_out *o, const char *path)
{
	struct stat st, lst;
	int fd;

	if (stat(path, &st) != 0) {
		if (errno != ENOENT || lstat(path, &lst) == 0) /* a link to nothing: fopen() makes it */
			return open_direct(o, path, -1);
		if (!(o->target = strdup(path))) {
			mev_error_oom();
			return cli_fail();
		}
		return open_temp(o, NULL);
	}
	if (!S_ISREG(st.st_mode)) /* /dev/null, a FIFO, a terminal: never replaced */
		return open_direct(o, path, -1);
	if ((fd = std_stream_fd(&st)) >= 0)
		return open_direct(o, path, fd);
	if (access(path, W_OK) != 0) /* what fopen(path, "w") would have said */
		return out_error(path, "", errno, "check the file's permissions");
	/* through a symbolic link: replace the file it leads to, keep the link */
	o->target = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) ? realpath(path, NULL)
								   : strdup(path);
	if (!o->target)
		return out_error(path, "", errno, "check that the file exists");
	return open_temp(o, &st);
}

int cli_out_open(cli_out *o, const char *path)
{
	int rc = EXIT_OK;

	memset(o, 0, sizeof *o);
	if (!path || strcmp(path, "-") == 0) {
		o->f = stdout;
	} else {
		o->path = path;
		rc = open_out(o, path);
	}
	if (rc || (rc = filter_terminal(o)))
		cli_out_abort(o);
	return rc;
}

static void out_free(cli_out *o)
{
	sig_unguard();
	free(o->tmp);
	free(o->target);
	memset(o, 0, sizeof *o);
}

int cli_out_commit(cli_out *o)
{
	int bad = 0, err = 0, rc;
	const char *name = o->path ? o->path : "standard output";

	if (o->tty) {
		bad = fclose(o->f) != 0;
		err = errno;
		o->f = o->tty;
		o->tty = NULL;
	}
	if (fflush(o->f) != 0 || ferror(o->f)) {
		err = bad ? err : errno;
		bad = 1;
	}
	/* the data on disk before the name points at it: no empty file after a crash */
	if (!bad && o->tmp && fsync(sink.fd) != 0 && errno != EINVAL)
		bad = 1, err = errno;
	if (o->tmp && sink.err)
		err = sink.err;
	if (bad && o->tmp) {
		rc = sink_error(name, err);
		sink.err = 0;
		cli_out_abort(o);
		return rc;
	}
	if (o->f != stdout && fclose(o->f) != 0 && !bad)
		bad = 1, err = o->tmp && sink.err ? sink.err : errno;
	o->f = NULL;
	if (!bad && o->tmp && rename(o->tmp, o->target) != 0)
		bad = 1, err = errno;
	if (bad) {
		if (o->tmp)
			unlink(o->tmp);
		out_free(o);
		return out_error(name, "", err, "check the free space and that the file can be written");
	}
	out_free(o);
	return EXIT_OK;
}

void cli_out_abort(cli_out *o)
{
	/* the command said it failed; a write that failed says why */
	if (o->tmp && sink.err && sink.fd >= 0)
		sink_error(o->path, sink.err);
	sink.err = 0;
	if (o->tty) {
		fclose(o->f);
		o->f = o->tty;
	}
	if (o->f == stdout)
		fflush(stdout);
	else if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	out_free(o);
}
