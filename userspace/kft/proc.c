// SPDX-License-Identifier: GPL-2.0
/*
 * The module's files: where they are (KFT_PROC), what /proc/kft says,
 * commands written to it with the module's errors relayed, the lock two
 * kft commands share, and waiting for Ctrl-C.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "kft.h"
#include "kftlog.h"
#include "linereader.h"

static int kft_path(char *buf, const char *dir, const char *name)
{
	if (snprintf(buf, PATH_MAX, "%s%s%s", dir, *name ? "/" : "", name) >= PATH_MAX) {
		fprintf(stderr, "kft: path too long: %s/%s\n", dir, name);
		return -1;
	}
	return 0;
}

#define KFT_TRACEFS	"/sys/kernel/tracing"
#define KFT_DEBUGFS	"/sys/kernel/debug/tracing"
#define KFT_TRACEABLE	"available_filter_functions"

/*
 * $KFT_PROC (tests: fake files) or /proc. secure_getenv(): a kft made
 * setuid or given file capabilities reads no directory from its caller.
 * The traceable functions: tracefs's list, or debugfs's where tracefs is
 * not mounted on its own (older systems); tracefs's named if neither is.
 */
int kft_paths_init(struct kft_paths *paths)
{
	const char *dir = secure_getenv("KFT_PROC");
	const char *tracing = dir;

	if (!dir || !*dir) {
		dir = "/proc";
		tracing = KFT_TRACEFS;
		if (access(KFT_TRACEFS "/" KFT_TRACEABLE, F_OK) &&
		    !access(KFT_DEBUGFS "/" KFT_TRACEABLE, F_OK))
			tracing = KFT_DEBUGFS;
	}
	return kft_path(paths->ctl, dir, "kft") || kft_path(paths->data, dir, "kft_data") ||
	       kft_path(paths->stream, dir, "kft_stream") ||
	       kft_path(paths->last_boot, dir, "kft_last_boot") ||
	       kft_path(paths->kallsyms, dir, "kallsyms") ||
	       kft_path(paths->traceable, tracing, KFT_TRACEABLE) ? -1 : 0;
}

/* "primed, not triggered, not complete": one state word, and whether "not" came before it. */
static void kft_status_states(const char *s, struct kft_status *st)
{
	char word[32];
	int not, n;

	while (*s) {
		while (*s == ' ' || *s == ',')
			s++;
		not = !strncmp(s, "not ", 4);
		if (not)
			s += 4;
		if (sscanf(s, "%31[a-z]%n", word, &n) != 1)
			return;
		s += n;
		if (!strcmp(word, "primed"))
			st->primed = !not;
		else if (!strcmp(word, "triggered"))
			st->triggered = !not;
		else if (!strcmp(word, "complete"))
			st->complete = !not;
	}
}

static void kft_status_line(const char *line, unsigned int lineno, struct kft_status *st)
{
	size_t len;
	int n = 0;

	if (lineno == 1) {
		snprintf(st->line, sizeof(st->line), "%.255s", line);
		if (sscanf(line, "status: run id %u,%n", &st->id, &n) == 1 && n) {
			st->registered = 1;
			kft_status_states(line + n, st);
			/* (Kept apart from the line: an id of many digits cuts that.) */
			snprintf(st->states, sizeof(st->states), "%.127s",
				 line + n + strspn(line + n, " "));
		}
	} else if (!strncmp(line, "  trigger start ", 16)) {
		st->start_trigger = strcmp(line + 16, "not set") != 0;
	} else if (sscanf(line, "stream: %llu calls read,%n", &st->stream_read, &n) == 1 && n) {
		st->has_stream_read = 1;
	} else if (!strncmp(line, "error: ", 7)) {
		snprintf(st->error, sizeof(st->error), "%.1000s", line + 7);
	}
	len = strlen(st->error);
	if (len && st->error[len - 1] == '\n')
		st->error[len - 1] = '\0';
}

/*
 * Parses /proc/kft's text; -1 (errno EPROTO) when its first line is not
 * kft's, or a read error. Lines over 1 KiB are skipped.
 */
int kft_status_parse(FILE *in, struct kft_status *st)
{
	unsigned int lineno = 0;
	enum line_status ls;
	char line[1024];
	int in_long = 0;
	size_t len;

	memset(st, 0, sizeof(*st));
	while ((ls = line_read(in, line, sizeof(line), &len)) == LINE_WHOLE || ls == LINE_PART) {
		if (!in_long) {
			if (len && line[len - 1] == '\n')
				line[len - 1] = '\0';
			kft_status_line(line, ++lineno, st);
		}
		in_long = ls == LINE_PART;
	}
	if (ls == LINE_ERROR)
		return -1;
	if (!st->registered && strcmp(st->line, "No logging run registered")) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

static const char *kft_hint(int err)
{
	if (err == ENOENT)
		return " (is the kft module loaded?)";
	if (err == EACCES || err == EPERM)
		return " (kft needs root: CAP_SYS_ADMIN)";
	return "";
}

/* Reads /proc/kft; -1 after saying why. */
int kft_status_read(const struct kft_paths *paths, struct kft_status *st)
{
	FILE *in = fopen(paths->ctl, "r");
	int ret;

	if (!in) {
		fprintf(stderr, "kft: %s: %s%s\n", paths->ctl, strerror(errno), kft_hint(errno));
		return -1;
	}
	ret = kft_status_parse(in, st);
	if (ret && errno == EPROTO)
		fprintf(stderr, "kft: %s: not kft's status: '%s'\n", paths->ctl, st->line);
	else if (ret)
		fprintf(stderr, "kft: %s: %s\n", paths->ctl, strerror(errno));
	fclose(in);
	return ret;
}

int kft_status_active(const struct kft_status *st)
{
	return st->registered && !st->complete && (st->primed || st->triggered);
}

/*
 * One write() of text (more only if the kernel took part of it); 0 or an
 * errno, with *opened telling whether open() succeeded.
 */
static int kft_ctl_put(const char *path, const char *text, int *opened)
{
	size_t len = strlen(text), done = 0;
	ssize_t n;
	int fd, err = 0;

	/* Appending changes nothing for /proc/kft, and keeps a fake file's status. */
	fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	*opened = fd >= 0;
	if (fd < 0)
		return errno;
	while (done < len && !err) {
		n = write(fd, text + done, len - done);
		if (n > 0)
			done += (size_t)n;
		else if (n == 0)
			err = EIO;
		else if (errno != EINTR)
			err = errno;
	}
	/* The module judges an unfinished block at close(), which cannot fail. */
	if (close(fd) && !err)
		err = errno;
	return err;
}

int kft_ctl_try(const struct kft_paths *paths, const char *text, int tolerate_einval,
		struct kft_status *st)
{
	int opened, err = kft_ctl_put(paths->ctl, text, &opened);

	if (!opened) {
		fprintf(stderr, "kft: %s: %s%s\n", paths->ctl, strerror(err), kft_hint(err));
		return -1;
	}
	if (err == EINVAL && tolerate_einval)
		return 0;
	/*
	 * The module says what was wrong on the status's error line, until
	 * the next write succeeds; an error found at close() (a block without
	 * its end) shows only there.
	 */
	if (kft_status_read(paths, st))
		return -1;
	if (st->error[0])
		return 1;
	if (err) {
		fprintf(stderr, "kft: %s: write: %s\n", paths->ctl, strerror(err));
		return -1;
	}
	return 0;
}

/*
 * After a failure once the run may be ours and started (a start or prime
 * written, and the status then unreadable): stopped, whatever else failed,
 * so that it does not trace on with no one to end it. Best effort: the
 * caller has said what failed.
 */
void kft_ctl_stop_anyway(const struct kft_paths *paths)
{
	int opened;

	(void)kft_ctl_put(paths->ctl, "stop\n", &opened);
}

int kft_ctl_begin(const struct kft_paths *paths, const char *text)
{
	struct kft_status st;
	int ret = kft_ctl_try(paths, text, 0, &st);

	if (ret == 1)
		fprintf(stderr, "kft: %s: %s\n", paths->ctl, st.error);
	else if (ret < 0)
		kft_ctl_stop_anyway(paths);
	return ret ? -1 : 0;
}

int kft_ctl_write(const struct kft_paths *paths, const char *text, int tolerate_einval)
{
	struct kft_status st;
	int ret = kft_ctl_try(paths, text, tolerate_einval, &st);

	if (ret == 1)
		fprintf(stderr, "kft: %s: %s\n", paths->ctl, st.error);
	return ret ? -1 : 0;
}

/*
 * The pid holding an flock on the file open at fd, from /proc/locks
 * ("1: FLOCK  ADVISORY  WRITE PID MAJ:MIN:INODE 0 EOF", the device in
 * hex); 0 when not found.
 */
static long kft_lock_holder(int fd)
{
	FILE *in = fopen("/proc/locks", "re");
	unsigned int maj, min;
	unsigned long ino;
	char line[256];
	struct stat st;
	long pid = 0;

	if (!in)
		return 0;
	while (!pid && !fstat(fd, &st) && fgets(line, sizeof(line), in)) {
		if (sscanf(line, "%*d: FLOCK %*s %*s %ld %x:%x:%lu", &pid, &maj, &min, &ino) != 4 ||
		    maj != major(st.st_dev) || min != minor(st.st_dev) || ino != st.st_ino)
			pid = 0;
	}
	fclose(in);
	return pid;
}

static void kft_lock_busy(int fd, const char *path)
{
	long pid = kft_lock_holder(fd);

	if (pid > 0)
		fprintf(stderr, "kft: another kft command (pid %ld) is using the module (flock on %s)\n",
			pid, path);
	else
		fprintf(stderr, "kft: another kft command is using the module (flock on %s)\n", path);
}

/*
 * The lock is an flock on /proc/kft itself: no file of kft's own to create
 * (there may be no /run), to truncate or to be tricked into following.
 * Read-only: the module takes an open for writing as a configuration.
 */
static int kft_lock_take(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "kft: %s: %s%s\n", path, strerror(errno), kft_hint(errno));
		return -1;
	}
	if (!flock(fd, LOCK_EX | LOCK_NB))
		return fd;
	if (errno == EWOULDBLOCK)
		kft_lock_busy(fd, path);
	/* A kernel without file locking: the status check still refuses. */
	else if (errno == ENOSYS || errno == ENOLCK || errno == EOPNOTSUPP)
		return fd;
	else
		fprintf(stderr, "kft: %s: flock: %s\n", path, strerror(errno));
	close(fd);
	return -1;
}

int kft_claim(const struct kft_paths *paths, struct kft_status *st)
{
	int fd = kft_lock_take(paths->ctl);

	if (fd < 0)
		return -1;
	if (kft_status_read(paths, st)) {
		close(fd);
		return -1;
	}
	if (kft_status_active(st)) {
		fprintf(stderr, "kft: run %u is %s (%s): 'kft stop' ends it, 'kft status' shows it\n",
			st->id, st->triggered ? "running" : "primed, waiting for its start trigger",
			st->states);
		close(fd);
		return -1;
	}
	return fd;
}

int kft_lines_read(FILE *in, int (*line)(void *ctx, char *text), void *ctx)
{
	char *buf = malloc(KFTLOG_LINE_MAX);
	enum line_status st = LINE_EOF;
	int in_long = 0, ret = 0;
	size_t len;

	if (!buf)
		return -1;
	while (!ret && ((st = line_read(in, buf, KFTLOG_LINE_MAX, &len)) == LINE_WHOLE ||
			st == LINE_PART)) {
		/* A long line is reported once, at its first part. */
		if (in_long) {
			;
		} else if (st == LINE_PART || strlen(buf) != len) {
			ret = line(ctx, NULL);
		} else {
			buf[strcspn(buf, "\n")] = '\0';
			ret = line(ctx, buf);
		}
		in_long = st == LINE_PART;
	}
	if (!ret && st == LINE_ERROR)
		ret = -1;
	free(buf);
	return ret;
}

void kft_head_init(struct kft_head *h)
{
	memset(h, 0, sizeof(*h));
	h->registered = -1;
}

int kft_head_line(struct kft_head *h, const char *line)
{
	unsigned long long us;

	if (!strncmp(line, "No logging run registered", 25))
		h->registered = 0;
	else if (sscanf(line, "Kernel Instrumentation Run ID %u", &h->run_id) == 1)
		h->registered = 1;
	else if (!strncmp(line, "Number of calls counted = ", 26))
		h->mode = KFT_DATA_COUNT;
	else if (!strncmp(line, "Number of stacks counted = ", 27))
		h->mode = KFT_DATA_STACKS;
	else if (!strncmp(line, "Number of calls timed = ", 24))
		h->mode = KFT_DATA_HISTOGRAM;
	else if (sscanf(line, "Counted per value of argument %u", &h->per_arg) == 1 ||
		 sscanf(line, "Timed per value of argument %u", &h->per_arg) == 1)
		;
	else if (sscanf(line, "Calls not counted, table full = %llu", &us) == 1)
		h->not_counted = us;
	else if (!strcmp(line, "Units: ns") || !strcmp(line, "Units: us") ||
		 !strcmp(line, "Units: ms"))
		memcpy(h->units, line + 7, 3);
	else if (!strncmp(line, "Logging stopped at ", 19)) {
		h->stopped = 1;
		h->full = !!strstr(line, " by log full");
	} else if (sscanf(line, "Logging started at %llu usec", &us) == 1) {
		h->started = 1;
		h->start_us = us;
	} else {
		return 0;
	}
	return 1;
}

int kft_head_check(const struct kft_head *h, const char *path, enum kft_data_mode want,
		   unsigned int run_id)
{
	static const char *const what[] = {
		[KFT_DATA_TRACE] = "a trace run",
		[KFT_DATA_COUNT] = "a count run",
		[KFT_DATA_STACKS] = "a stacks or profile run",
		[KFT_DATA_HISTOGRAM] = "a histogram run",
	};

	if (h->registered < 0)
		fprintf(stderr, "kft: %s: not a kft log\n", path);
	else if (!h->registered)
		fprintf(stderr, "kft: %s: the run is gone (kft clear, or the module unloaded)\n",
			path);
	else if (h->mode != want)
		fprintf(stderr, "kft: %s: not the log of %s\n", path, what[want]);
	else if (run_id && h->run_id != run_id)
		fprintf(stderr, "kft: %s: run %u replaced ours (run %u)\n", path, h->run_id, run_id);
	else
		return 0;
	return -1;
}

volatile sig_atomic_t kft_quit;
static volatile sig_atomic_t kft_pipe_closed;

static void kft_on_signal(int sig)
{
	(void)sig;
	kft_quit = 1;
}

static void kft_on_sigpipe(int sig)
{
	(void)sig;
	kft_pipe_closed = 1;
}

/*
 * Ctrl-C (and SIGTERM, SIGHUP, SIGQUIT) set kft_quit. They stay blocked
 * but while kft_wait_until() sleeps, so no system call elsewhere is
 * interrupted, and none comes between the check and the sleep. SIGPIPE
 * is only noted: a closed output is a failed write, the run still stops,
 * and kft then ends as the writer of a closed pipe (kft_pipe_closed_exit()).
 */
void kft_signals_catch(sigset_t *orig)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	struct sigaction sa = { .sa_handler = kft_on_signal };
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&set, sigs[i]);
	sigprocmask(SIG_BLOCK, &set, orig);
	sa.sa_mask = set;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	sa.sa_handler = kft_on_sigpipe;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

void kft_pipe_closed_exit(void)
{
	if (!kft_pipe_closed)
		return;
	signal(SIGPIPE, SIG_DFL);
	raise(SIGPIPE);
}

double kft_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int kft_wait_until(double deadline, const sigset_t *orig)
{
	static const struct timespec no_wait;
	struct timespec ts;
	double left;

	while (!kft_quit) {
		left = deadline - kft_now();
		/*
		 * Past the deadline, a wait of none still lets a pending
		 * Ctrl-C in: a look that takes longer than its interval
		 * (every function traced, under emulation) finds every
		 * deadline past, and would otherwise never see it.
		 */
		if (left <= 0) {
			ppoll(NULL, 0, &no_wait, orig);
			return kft_quit;
		}
		if (isinf(deadline)) {
			ppoll(NULL, 0, NULL, orig);
			continue;
		}
		/* (Only a finite time converts: an infinite one is undefined.) */
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		ppoll(NULL, 0, &ts, orig);
	}
	return 1;
}
