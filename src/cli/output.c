/* Output files (-o/--out): a regular file is replaced whole on success and left as it was on failure. */
#include "cli.h"
#include "maintevo/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
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

void cli_out_drop_temp(void)
{
	if (sig_tmp)
		unlink(sig_tmp);
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

/*
 * The store of the command in hand (its --store, given or default), set
 * by cli_parse(): no -o may write over one of its files or into its
 * folder.  NULL: the command has none.
 */
static const char *guard_store;

void cli_out_guard_store(const char *dir)
{
	guard_store = dir;
}

/* The file that writing `path` writes or replaces, links and ".." resolved:
 * the file itself when it is there, else its folder resolved plus its
 * name (a link to nothing: where it leads).  NULL when the folder is not
 * there either (the open fails and says so). */
static char *resolved_target(const char *path)
{
	char link[PATH_MAX], joined[2 * PATH_MAX + 2], *dir, *full;
	const char *name, *slash;
	struct stat lst;
	ssize_t n;

	if ((full = realpath(path, NULL)))
		return full;
	/* a dangling link: fopen() creates the file it names */
	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) &&
	    (n = readlink(path, link, sizeof link - 1)) > 0) {
		link[n] = '\0';
		slash = strrchr(path, '/');
		if (link[0] != '/' && slash)
			snprintf(joined, sizeof joined, "%.*s/%s", (int)(slash - path), path, link);
		else
			snprintf(joined, sizeof joined, "%s", link);
		path = joined;
	}
	slash = strrchr(path, '/');
	name = slash ? slash + 1 : path;
	if (!(dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".")))
		return NULL;
	full = realpath(dir, NULL);
	free(dir);
	if (!full)
		return NULL;
	dir = full;
	if (!(full = malloc(strlen(dir) + strlen(name) + 2))) {
		free(dir);
		return NULL;
	}
	sprintf(full, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", name);
	free(dir);
	return full;
}

static int same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Is the folder `dir` (resolved) the store's folder or inside it? */
static int within(const char *dir, const struct stat *store)
{
	char *d = strdup(dir), *slash;
	struct stat st;
	int in = 0;
	while (d && !in) {
		in = stat(d, &st) == 0 && same_file(&st, store);
		if (!(slash = strrchr(d, '/')) || slash == d) {
			in = in || (stat("/", &st) == 0 && same_file(&st, store));
			break;
		}
		*slash = '\0';
	}
	free(d);
	return in;
}

/* Does the folder dir hold an LMDB store (a data.mdb, a lock.mdb or the
 * writer's lock walk.lock)? */
static int holds_store(const char *dir)
{
	static const char *const names[] = { "data.mdb", "lock.mdb", "walk.lock" };
	char p[PATH_MAX + 16];
	struct stat st;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		if (lstat(p, &st) == 0)
			return 1;
	}
	return 0;
}

/* The name of the file of the store's folder that is *st (a hard link),
 * into name; 0 when none is. */
static int store_file(char *name, size_t size, const char *store, const struct stat *st)
{
	DIR *d = opendir(store);
	struct dirent *e;
	int found = 0;
	while (d && !found && (e = readdir(d))) {
		char p[PATH_MAX + 256];
		struct stat fst;
		snprintf(p, sizeof p, "%s/%s", store, e->d_name);
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && stat(p, &fst) == 0 &&
		    same_file(&fst, st)) {
			snprintf(name, size, "%s", e->d_name);
			found = 1;
		}
	}
	if (d)
		closedir(d);
	return found;
}

static int refuse(const char *path, const char *why, const char *store)
{
	mev_error_set(MEV_EINVAL, "cannot write '%s': %s", path, why);
	mev_error_hint("write the output outside the store's folder ('%s' holds only the store's "
		       "own files, which another file there would damage)", store);
	return cli_fail();
}

/*
 * Refuse, before anything is written, an output that is one of the
 * store's files or lies in the folder of a store: compared by device and
 * inode, so that links (hard or symbolic) and ".." reach the same
 * verdict as the name itself.  Any folder holding an LMDB store counts,
 * the command's own (guard_store) or another.
 */
static int guard(const char *path)
{
	char *full = resolved_target(path), *dir, *slash, name[256], why[PATH_MAX + 256];
	struct stat sst, st;
	int have_store = guard_store && stat(guard_store, &sst) == 0 && S_ISDIR(sst.st_mode), rc = 0;

	if (!full)
		return EXIT_OK;
	slash = strrchr(full, '/');
	dir = slash == full ? strdup("/") : strndup(full, (size_t)(slash - full));
	if (!dir) {
		free(full);
		mev_error_oom();
		return cli_fail();
	}
	if (have_store && stat(full, &st) == 0 && store_file(name, sizeof name, guard_store, &st)) {
		struct stat lst;
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		snprintf(why, sizeof why, "it is '%s' of store '%s'%s", name, guard_store,
			 lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode) ? " (through a symbolic link)"
			 : strcmp(base, name) ? " (the same file by another name: a hard link)" : "");
		rc = refuse(path, why, guard_store);
	} else if (have_store && within(dir, &sst)) {
		snprintf(why, sizeof why, "it lies in the folder of store '%s'", guard_store);
		rc = refuse(path, why, guard_store);
	} else if (holds_store(dir)) {
		snprintf(why, sizeof why, "it lies in the folder of a store ('%s' holds data.mdb, lock.mdb "
			 "or walk.lock)", dir);
		rc = refuse(path, why, dir);
	}
	free(dir);
	free(full);
	return rc;
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

/*
 * Temporary files are named ".NAME" TMP_MARK "XXXXXX" and locked
 * (flock) by their writer from their creation until they are renamed or
 * removed: one whose lock is free was left by a run that was killed (kill
 * -9, a crash, the machine going down), and the next run writing NAME
 * removes it.  The lock is held on a descriptor of its own (held_lock),
 * so that closing the written stream does not free it before the rename.
 */
#define TMP_MARK ".maintevo-tmp."
static int held_lock = -1;

/* Is name (in a folder) a temporary file of ours for the file base? */
static int our_temp(const char *name, const char *base)
{
	size_t bl = strlen(base), ml = strlen(TMP_MARK);
	if (name[0] != '.' || strncmp(name + 1, base, bl) != 0 || strncmp(name + 1 + bl, TMP_MARK, ml))
		return 0;
	name += 1 + bl + ml;
	return strlen(name) == 6 && strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					   "0123456789") == 6;
}

/* Remove the temporary files for target in its folder whose writer is gone
 * (their lock is free); a note names them. */
static void remove_stale(const char *target, size_t dir_len)
{
	char *dir = dir_len ? strndup(target, dir_len) : strdup("./"), first[2 * PATH_MAX];
	const char *base = target + dir_len;
	size_t removed = 0;
	struct dirent *e;
	DIR *d = dir ? opendir(dir) : NULL;

	while (d && (e = readdir(d))) {
		char p[2 * PATH_MAX];
		struct stat fst, st;
		int fd;
		if (!our_temp(e->d_name, base))
			continue;
		snprintf(p, sizeof p, "%s%s", dir, e->d_name);
		if ((fd = open(p, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
			continue;
		/* free lock: no writer; still the file the name holds: remove it
		 * while the lock is ours, so no new writer can take it meanwhile */
		if (fstat(fd, &fst) == 0 && S_ISREG(fst.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0 &&
		    lstat(p, &st) == 0 && same_file(&st, &fst) && unlink(p) == 0 && removed++ == 0)
			snprintf(first, sizeof first, "%.*s%s", (int)dir_len, target, e->d_name);
		close(fd);
	}
	if (d)
		closedir(d);
	if (removed == 1)
		cli_note("removed '%s', left by a run writing '%s' that was killed", first, target);
	else if (removed)
		cli_note("removed '%s' and %zu more, left by runs writing '%s' that were killed", first,
			 removed - 1, target);
	free(dir);
}

/* A new temporary file for o->target, locked: its descriptor, or -1 (errno
 * set).  A file removed between its creation and its lock (taken for a
 * stale one by another run's remove_stale()) is made again. */
static int make_temp(cli_out *o, size_t dir_len)
{
	for (int tries = 0; tries < 100; tries++) {
		struct stat fst, st;
		int fd;
		sprintf(o->tmp, "%.*s.%s" TMP_MARK "XXXXXX", (int)dir_len, o->target, o->target + dir_len);
		if ((fd = mkstemp(o->tmp)) < 0)
			return -1;
		if (flock(fd, LOCK_EX) == 0 && fstat(fd, &fst) == 0 && lstat(o->tmp, &st) == 0 &&
		    same_file(&st, &fst)) {
			if ((held_lock = dup(fd)) < 0) {
				int err = errno;
				unlink(o->tmp);
				close(fd);
				errno = err;
				return -1;
			}
			return fd;
		}
		close(fd);
	}
	errno = EEXIST;
	return -1;
}

/* ".NAME.maintevo-tmp.XXXXXX" next to target, with the mode (and, when it
 * can, the owner) target has, or the mode a new file gets. */
static int open_temp(cli_out *o, const struct stat *old)
{
	const char *slash = strrchr(o->target, '/');
	size_t dir_len = slash ? (size_t)(slash - o->target) + 1 : 0;
	mode_t mask = umask(0);
	int fd, err;

	umask(mask);
	if (!(o->tmp = malloc(strlen(o->target) + sizeof TMP_MARK + 8))) {
		mev_error_oom();
		return cli_fail();
	}
	remove_stale(o->target, dir_len);
	if ((fd = make_temp(o, dir_len)) < 0) {
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
		if (!(rc = guard(path)))
			rc = open_out(o, path);
	}
	if (rc || (rc = filter_terminal(o)))
		cli_out_abort(o);
	return rc;
}

static void out_free(cli_out *o)
{
	sig_unguard();
	if (held_lock >= 0)
		close(held_lock); /* after the rename or the removal: the lock goes last */
	held_lock = -1;
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

int cli_out_fail(cli_out *o)
{
	/* a write to the file that failed is the cause: cli_out_abort() says
	 * it, with the space left; the command's own "cannot write" would only
	 * come first without a hint */
	if (!(o->tmp && sink.err && sink.fd >= 0))
		cli_fail();
	cli_out_abort(o);
	return EXIT_FAIL;
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
