/* Option values, release loading, messages, Ctrl-C and progress lines shared by the commands. */
#include "cli.h"
#include "maintevo/error.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

int cli_quiet;

/* cli_say() with a va_list. */
static void vsay(FILE *f, const char *fmt, va_list ap)
{
	char small[1024], *text = small;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= 0 && (size_t)n >= sizeof small && (text = malloc((size_t)n + 1)))
		vsnprintf(text, (size_t)n + 1, fmt, again);
	va_end(again);
	if (n < 0 || !text)
		return;
	mev_table_term_str(f, text, (size_t)n);
	if (text != small)
		free(text);
}

void cli_say(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(f, fmt, ap);
	va_end(ap);
}

int cli_fail(void)
{
	const char *hint = mev_error_hint_text();
	cli_say(stderr, "maintevo: error: %s\n", mev_error_message());
	if (hint && hint[0])
		cli_say(stderr, "hint: %s\n", hint);
	return EXIT_FAIL;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fputs("maintevo: error: ", stderr);
	va_start(ap, fmt);
	vsay(stderr, fmt, ap);
	va_end(ap);
	cli_say(stderr, "\nhint: see 'maintevo %s --help'\n", cmd);
	return EXIT_USAGE;
}

void cli_note(const char *fmt, ...)
{
	va_list ap;
	if (cli_quiet)
		return;
	fputs("maintevo: ", stderr);
	va_start(ap, fmt);
	vsay(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_parse_int(const char *cmd, const char *opt, const char *arg, long min, long max, long *out)
{
	char *end;
	long v = 0;
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || !*arg || *end || v < min || v > max)
		return cli_usage_error(cmd, "%s takes a whole number from %ld to %ld, not '%s'", opt, min,
				       max, arg);
	*out = v;
	return 0;
}

int cli_parse_real(const char *cmd, const char *opt, const char *arg, double min, double max,
		   double *out)
{
	char *end;
	double v;
	errno = 0;
	v = strtod(arg, &end);
	if (errno || !*arg || *end || !(v >= min) || v > max)
		return cli_usage_error(cmd, "%s takes a number from %g to %g, not '%s'", opt, min, max, arg);
	*out = v;
	return 0;
}

void cli_report_diags(const mev_maint *m, int print)
{
	size_t n = mev_maint_diag_count(m);
	const mev_diag *d = mev_maint_diags(m);
	char buf[1024];
	if (print) {
		for (size_t i = 0; i < n; i++) {
			mev_maint_diag_format(buf, sizeof buf, m, &d[i]);
			cli_say(stderr, "warning: %s\n", buf);
		}
	} else if (n) {
		cli_note("%zu note%s about MAINTAINERS content (see them with --warnings)", n,
			 n == 1 ? "" : "s");
	}
}

int cli_release_load(cli_release *r, const cli_release_opts *o, const char *cmd)
{
	memset(r, 0, sizeof *r);
	r->t_start = cli_now();
	if (!o->repo)
		return cli_usage_error(cmd, "--repo is required");
	if (!o->rev)
		return cli_usage_error(cmd, "--rev is required");
	if (!mev_repo_open(&r->repo, o->repo))
		mev_repo_bound_memory();
	if (!r->repo || mev_repo_resolve(&r->commit, NULL, r->repo, o->rev) ||
	    mev_tree_load(&r->tree, r->repo, &r->commit) || ((r->t_tree = cli_now()), 0) ||
	    mev_rules_detect(&r->rules, r->repo, r->tree, &o->rules) ||
	    mev_maint_load(&r->maint, &r->rules, r->repo, r->tree)) {
		cli_fail();
		cli_release_free(r);
		return EXIT_FAIL;
	}
	r->t_parse = cli_now();
	if (mev_maint_section_count(r->maint) == 0) {
		mev_error_set(MEV_ENOTFOUND, "no MAINTAINERS sections at '%s' in '%s'", o->rev, o->repo);
		mev_error_hint("check that this release has a kernel-style MAINTAINERS file; "
			       "--warnings shows what was read");
		cli_report_diags(r->maint, 1);
		cli_fail();
		cli_release_free(r);
		return EXIT_FAIL;
	}
	return 0;
}

void cli_release_free(cli_release *r)
{
	mev_maint_free(r->maint);
	mev_tree_free(r->tree);
	mev_repo_free(r->repo);
	memset(r, 0, sizeof *r);
}

double cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void cli_print_stats(const cli_release *r, const mev_filemap_stats *st)
{
	fprintf(stderr,
		"stats: tree %.3f s, MAINTAINERS %.3f s (%zu files, %zu sections), "
		"match %.3f s (%llu paths), read %.3f s (%llu of %llu blobs, %.1f MB), total %.3f s\n",
		r->t_tree - r->t_start, r->t_parse - r->t_tree, mev_maint_file_count(r->maint),
		mev_maint_section_count(r->maint), st->match_seconds, (unsigned long long)st->paths,
		st->read_seconds, (unsigned long long)st->blobs_read, (unsigned long long)st->blobs,
		st->bytes_read / 1e6, cli_now() - r->t_start);
}

volatile int cli_stop, cli_stop_now;
static struct sigaction sigint_old;
static char sigint_note[256]; /* formatted beforehand: the handler may only write() */
static size_t sigint_note_len;

static void on_sigint(int sig)
{
	(void)sig;
	if (cli_stop) {
		cli_stop_now = 1;
		return;
	}
	cli_stop = 1;
	if (sigint_note_len && write(STDERR_FILENO, sigint_note, sigint_note_len) < 0)
		return;
}

void cli_sigint_install(const char *note)
{
	struct sigaction sa;
	int n = 0;

	cli_stop = cli_stop_now = 0;
	if (note)
		n = snprintf(sigint_note, sizeof sigint_note, "\nmaintevo: %s\n", note);
	sigint_note_len = n < 0 ? 0 : (size_t)n < sizeof sigint_note ? (size_t)n : sizeof sigint_note - 1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	/* Restart interrupted reads and writes (signal() did so for cluster,
	 * track and import): the calls poll the flags, between releases and
	 * (walk's abort_now) in the readers, they need no EINTR to notice them. */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, &sigint_old);
}

void cli_sigint_restore(void)
{
	sigaction(SIGINT, &sigint_old, NULL);
}

/* Progress lines go to a terminal only: a log file gets the summary. */
static int progress_shown(void)
{
	return !cli_quiet && isatty(STDERR_FILENO);
}

/* The bar of the call in hand: when its first unit began, the last unit
 * drawn and when. */
static struct {
	double start, drawn;
	size_t last;
} bar;

/* The width of the terminal on standard error (80 when it does not say). */
static int term_width(void)
{
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/* "ETA 4m05s", "ETA 2h07m", or "" before a unit is done. */
static void eta_text(char *out, size_t size, double eta)
{
	long s = eta >= 0 && eta < 360000 ? (long)(eta + 0.5) : -1;
	if (s < 0)
		out[0] = '\0';
	else if (s >= 3600)
		snprintf(out, size, "  ETA %ldh%02ldm", s / 3600, s / 60 % 60);
	else
		snprintf(out, size, "  ETA %ldm%02lds", s / 60, s % 60);
}

void cli_progress_eta(size_t index, size_t total, const char *what, double eta)
{
	char head[96], tail[32];
	double now = cli_now();
	int width = term_width(), n, barw, filled, room;
	size_t len = strlen(what), done = index ? index - 1 : 0;

	if (!progress_shown())
		return;
	if (index <= 1 || index < bar.last || bar.start == 0)
		bar.start = now; /* a new call, or the first unit of one */
	/* many small units (flow's commits): at most ten lines a second, the
	 * first and the last drawn; a few large ones (releases): each, lest a
	 * long one show the name of the one before */
	if (total > 200 && index > 1 && index < total && index == bar.last + 1 &&
	    now - bar.drawn < 0.1) {
		bar.last = index;
		return;
	}
	bar.last = index;
	bar.drawn = now;
	if (eta < 0 && done > 0 && total >= index)
		eta = (now - bar.start) / (double)done * (double)(total - done);
	eta_text(tail, sizeof tail, eta);
	barw = width >= 70 ? 24 : 10;
	filled = total ? (int)((double)barw * (double)done / (double)total) : 0;
	filled = filled < 0 ? 0 : filled > barw ? barw : filled;
	n = snprintf(head, sizeof head, "[%.*s%.*s] %zu/%zu ", filled,
		     "########################", barw - filled, "------------------------", index,
		     total);
	/* what fits between the bar and the ETA, cut at a character's start */
	room = width - 1 - n - (int)strlen(tail);
	if (room < 0)
		room = 0;
	if (len > (size_t)room) {
		len = (size_t)room;
		while (len && ((unsigned char)what[len] & 0xc0) == 0x80)
			len--;
	}
	fputs("\r\033[K", stderr);
	fputs(head, stderr);
	cli_say(stderr, "%.*s%s", (int)len, what, tail);
	fflush(stderr);
}

void cli_progress(void *ctx, size_t index, size_t total, const char *what)
{
	(void)ctx;
	cli_progress_eta(index, total, what, -1);
}

void cli_progress_note(void *ctx, const char *text)
{
	(void)ctx;
	if (cli_quiet)
		return;
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	cli_say(stderr, "maintevo: %s\n", text);
}

void cli_progress_init(mev_progress *p)
{
	memset(p, 0, sizeof *p);
	memset(&bar, 0, sizeof bar);
	p->stop = &cli_stop;
	p->progress = cli_progress;
	p->note = cli_progress_note;
}

void cli_progress_end(void)
{
	if (progress_shown())
		fputs("\r\033[K", stderr);
}
