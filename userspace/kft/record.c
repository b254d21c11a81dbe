// SPDX-License-Identifier: GPL-2.0
/*
 * kft record: a stream run (log stream: each CPU's calls, whole, in a
 * buffer that a read of /proc/kft_data empties) drained into a file while
 * it goes on, until Ctrl-C, -d or someone's stop; then drained to its end.
 * The rows go to a file of their own beside FILE as they come (stream.c
 * reads them), so memory stays bounded however long the run; at the end
 * FILE is the last read's header, counting every row written, then the
 * rows, written beside FILE and renamed over it. kd sorts the rows, which
 * come in entry order within a read only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "closeout.h"
#include "kft.h"

/* How often the buffers are drained, and how many reads at once while they are full. */
#define KFT_REC_POLL_S		0.1
#define KFT_REC_BURST		16
/* After our stop, how long a run may take to say complete. */
#define KFT_REC_STOP_WAIT_S	10.0

struct kft_rec {
	const struct kft_params *p;
	struct kft_session s;
	char rows_path[PATH_MAX];	/* the rows, as they come */
	FILE *rows;
	struct kft_stream_read last;	/* the last read's header and losses */
	int have_last;
	unsigned long long total;	/* rows written */
	unsigned long long reads;
	int problems;			/* disagreements said: exit 1 */
	int not_ours;			/* the run is gone, or another's: not to be stopped */
	int rows_failed;		/* the rows file could not be written: no FILE */
};

/* "DIR/.NAME.WHAT-XXXXXX" beside path; 0, or -1 (too long). */
static int kft_rec_beside(char *buf, const char *path, const char *what)
{
	const char *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash - path + 1) : 0;
	int n = snprintf(buf, PATH_MAX, "%.*s.%s.%s-XXXXXX", dir, path, path + dir, what);

	return n < 0 || n >= PATH_MAX ? -1 : 0;
}

/*
 * FILE may be replaced (absent, or a regular file: never a device or a
 * link renamed over), and a file beside it made for the rows. 0, or -1.
 */
static int kft_rec_open(struct kft_rec *rec, const char *path)
{
	struct stat st;
	int fd;

	if (!lstat(path, &st) && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "kft: record: %s: not a regular file (FILE is replaced by a new "
			"one)\n", path);
		return -1;
	}
	if (kft_rec_beside(rec->rows_path, path, "rows")) {
		fprintf(stderr, "kft: record: %s: path too long\n", path);
		return -1;
	}
	fd = mkostemp(rec->rows_path, O_CLOEXEC);
	if (fd >= 0 && !(rec->rows = fdopen(fd, "w+"))) {
		close(fd);
		unlink(rec->rows_path);
	}
	if (fd < 0 || !rec->rows) {
		fprintf(stderr, "kft: record: %s: %s\n", rec->rows_path, strerror(errno));
		return -1;
	}
	return 0;
}

static void kft_rec_close(struct kft_rec *rec, int keep)
{
	if (!rec->rows)
		return;
	fclose(rec->rows);
	if (!keep)
		unlink(rec->rows_path);
	rec->rows = NULL;
}

/* The rows written so far reached the file: 0, or -1 after saying why. */
static int kft_rec_flushed(struct kft_rec *rec)
{
	errno = 0;
	if (!fflush(rec->rows) && !ferror(rec->rows))
		return 0;
	rec->rows_failed = 1;
	fprintf(stderr, "kft: record: %s: write error: %s\n", rec->rows_path,
		errno ? strerror(errno) : "unknown");
	return -1;
}

/* kft_session_read()'s reader: the read's lines to the stream reader. */
static int kft_rec_read_lines(void *obj, FILE *in)
{
	return kft_stream_read_all(obj, in);
}

/*
 * One read of /proc/kft_data: its rows to the rows file, checked, its
 * header kept. The rows in *n, the run's state before the read in
 * *complete. 0, or -1 after saying why (the rows of a read that was not
 * our run's are taken back out of the file).
 */
static int kft_rec_read(struct kft_rec *rec, unsigned long long *n, int *complete)
{
	const struct kft_paths *paths = rec->s.paths;
	struct kft_stream_read r;
	struct kft_status st;
	off_t at;
	int ret;

	if (kft_status_read(paths, &st))
		return -1;
	if (!st.registered || st.id != rec->s.run_id) {
		fprintf(stderr, "kft: record: %s: %s\n", paths->ctl, st.registered ?
			"another run replaced ours" : "the run is gone (kft clear?)");
		rec->not_ours = 1;
		return -1;
	}
	*complete = st.complete;
	if (kft_rec_flushed(rec))
		return -1;
	at = ftello(rec->rows);
	kft_stream_init(&r, rec->rows, stderr, paths->data);
	ret = kft_session_read(&rec->s, KFT_DATA_TRACE, kft_rec_read_lines, &r, &r.head,
			       "a header larger than kft reads (1 MiB)");
	if (!ret && !r.stream) {
		fprintf(stderr, "kft: record: %s: not a stream run's log (no '%sN entries a "
			"CPU' line)\n", paths->data, KFT_STREAM_LINE);
		ret = -1;
	}
	if (ret) {
		rec->not_ours = 1;
		if (!kft_rec_flushed(rec) && (ftruncate(fileno(rec->rows), at) ||
					      fseeko(rec->rows, at, SEEK_SET)))
			fprintf(stderr, "kft: record: %s: %s\n", rec->rows_path, strerror(errno));
		kft_stream_free(&r);
		return -1;
	}
	rec->reads++;
	rec->total += r.rows;
	*n = r.rows;
	rec->problems += kft_stream_check(&r);
	if (rec->have_last && r.has_lost && rec->last.has_lost && r.lost < rec->last.lost) {
		fprintf(stderr, "kft: record: %s: %llu calls lost since the start, fewer than the "
			"%llu of the read before\n", paths->data, r.lost, rec->last.lost);
		rec->problems++;
	}
	kft_stream_move(&rec->last, &r);
	rec->have_last = 1;
	return kft_rec_flushed(rec);
}

/*
 * Reads until the buffers are less than half full (a few reads at most).
 * 1 when the run was complete and a read found nothing more: all read;
 * 0 to go on; -1 after saying why.
 */
static int kft_rec_drain(struct kft_rec *rec)
{
	unsigned long long n;
	int complete, i;

	for (i = 0; i < KFT_REC_BURST; i++) {
		if (kft_rec_read(rec, &n, &complete))
			return -1;
		if (complete && !n)
			return 1;
		/* Complete: drain on. Running: again at once only while they fill. */
		if (!complete && n < rec->last.per_cpu / 2)
			return 0;
	}
	return 0;
}

static int kft_rec_poll(void *ctx)
{
	return kft_rec_drain(ctx);
}

/* After our stop: drained until the run is complete and a read finds nothing. 0, or -1. */
static int kft_rec_finish(struct kft_rec *rec)
{
	double give_up = kft_now() + KFT_REC_STOP_WAIT_S;
	unsigned long long n;
	int complete;

	for (;;) {
		if (kft_rec_read(rec, &n, &complete))
			return -1;
		if (complete && !n)
			return 0;
		/* Rows that keep coming after the stop are no less a run that never ends. */
		if (kft_now() > give_up) {
			fprintf(stderr, "kft: record: run %u is not complete %g seconds after its "
				"stop: the calls read until now are kept\n", rec->s.run_id,
				KFT_REC_STOP_WAIT_S);
			return -1;
		}
		/* Not complete yet, nothing new: a moment (Ctrl-C does not cut this short). */
		if (!n)
			usleep(10000);
	}
}

/* The rows file's bytes after out's (flushed): 0, or -1 with errno. */
static int kft_rec_copy(int from, int to)
{
	char buf[65536];
	ssize_t n, w, done;

	if (lseek(from, 0, SEEK_SET))
		return -1;
	for (;;) {
		n = copy_file_range(from, NULL, to, NULL, 1 << 30, 0);
		if (n > 0)
			continue;
		if (!n)
			return 0;
		if (errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP &&
		    errno != EBADF)
			return -1;
		break;
	}
	/* A file system or kernel without it: read() and write(). */
	while ((n = read(from, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		for (done = 0; done < n; done += w) {
			w = write(to, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				w = 0;
			else if (w <= 0)
				return w < 0 ? -1 : (errno = EIO, -1);
		}
	}
	return 0;
}

/*
 * FILE written beside itself (the last header, counting every row, then
 * the rows) and renamed over what was there. 0, or -1 after saying why.
 */
static int kft_rec_write(struct kft_rec *rec, const char *path)
{
	char tmp[PATH_MAX];
	const char *what = tmp;
	mode_t mask = umask(0);
	FILE *out = NULL;
	int fd, err = 0;

	umask(mask);
	if (rec->rows_failed || kft_rec_flushed(rec))
		return -1;
	if (kft_rec_beside(tmp, path, "new"))
		return -1;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "kft: record: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	errno = 0;
	if (fchmod(fd, 0666 & ~mask) || !(out = fdopen(fd, "w")) ||
	    kft_stream_header_write(out, rec->last.header, rec->last.header_len, rec->total) ||
	    fflush(out))
		err = errno ? errno : EIO;
	else if (kft_rec_copy(fileno(rec->rows), fd))
		err = errno, what = rec->rows_path;
	else if (fsync(fd) && errno != EINVAL && errno != EROFS)
		err = errno;
	if (out ? fclose(out) && !err : close(fd) && !err)
		err = errno;
	if (!err && rename(tmp, path))
		err = errno, what = path;
	if (!err)
		return 0;
	fprintf(stderr, "kft: record: %s: %s%s\n", what, what == rec->rows_path ? "" :
		"write error: ", strerror(err));
	unlink(tmp);
	return -1;
}

/*
 * The run configured (its globs named where the hooks take none, as kft
 * trace does) and started, under the lock: 0, or -1 after saying why.
 */
static int kft_rec_start(struct kft_rec *rec, const struct kft_paths *paths, char *config,
			 const char *err)
{
	struct kft_status st;
	int ret = -1;

	rec->s.paths = paths;
	rec->s.run_id = 0;
	kft_session_primed(&rec->s);
	if (!config) {
		fprintf(stderr, "kft: record: %s\n", err);
		return -1;
	}
	kft_signals_catch(&rec->s.orig);
	rec->s.lock = kft_claim(paths, &st);
	if (rec->s.lock >= 0 && !kft_configure(paths, "record", config) &&
	    !kft_ctl_write(paths, "start\n", 0) && !kft_status_read(paths, &st)) {
		rec->s.run_id = st.id;
		ret = 0;
	} else if (rec->s.lock >= 0) {
		close(rec->s.lock);
		if (!rec->p->nr_patterns)
			kft_explain_every_function(paths, "record", "FUNCTION... names the "
						   "functions to record, which they can hook");
	}
	free(config);
	return ret;
}

/* The last line: what FILE holds, and what was lost. */
static void kft_rec_said(const struct kft_rec *rec, const char *path)
{
	char lost[1024];

	kft_stream_lost_text(&rec->last, lost, sizeof(lost));
	printf("kft record: %llu call%s written to %s; %s\n", rec->total,
	       rec->total == 1 ? "" : "s", path, rec->last.has_lost ? lost : "losses unknown");
}

int kft_record(const struct kft_params *p, const struct kft_paths *paths)
{
	struct kft_rec rec = { .p = p };
	char err[256] = "";
	int ret, written = 0;

	kft_stream_init(&rec.last, NULL, NULL, "");
	if (kft_rec_open(&rec, p->output))
		return 1;
	if (kft_rec_start(&rec, paths, kft_record_config(p, err, sizeof(err)), err)) {
		kft_rec_close(&rec, 0);
		return 1;
	}
	if (p->duration_arg)
		fprintf(stderr, "kft: run %u started, recording to %s for %s seconds...\n",
			rec.s.run_id, p->output, p->duration_arg);
	else
		fprintf(stderr, "kft: run %u started, recording to %s... Ctrl-C to end.\n",
			rec.s.run_id, p->output);
	ret = kft_session_loop(&rec.s, KFT_REC_POLL_S, p->duration, kft_rec_poll, &rec);
	/* Ours to stop: Ctrl-C, -d, or a write error of ours. */
	if (ret == 0 || (ret < 0 && !rec.not_ours)) {
		if (kft_session_stop(&rec.s, 0) || (ret == 0 && kft_rec_finish(&rec)))
			ret = -1;
	} else if (ret == 1) {
		kft_session_stop(&rec.s, 1);
		ret = 0;
	}
	if (rec.have_last && !kft_rec_write(&rec, p->output)) {
		written = 1;
		kft_rec_said(&rec, p->output);
		if (ret)
			fprintf(stderr, "kft: record: %s has the calls read until the error\n",
				p->output);
	} else if (rec.rows_failed) {
		fprintf(stderr, "kft: record: %s not written: the calls read are lost\n",
			p->output);
	} else if (rec.have_last && rec.total) {
		fprintf(stderr, "kft: record: the %llu calls read are kept in %s (their rows "
			"only, without the header)\n", rec.total, rec.rows_path);
	}
	if (!written || rec.problems) {
		if (rec.problems)
			fprintf(stderr, "kft: record: %d disagreement%s in the reads (said above)\n",
				rec.problems, rec.problems == 1 ? "" : "s");
		ret = -1;
	}
	kft_rec_close(&rec, !written && !rec.rows_failed && rec.have_last && rec.total);
	kft_stream_free(&rec.last);
	return kft_session_end(&rec.s, ret);
}
