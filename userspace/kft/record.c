// SPDX-License-Identifier: GPL-2.0
/*
 * kft record: a stream run (log stream: each CPU's calls, whole, in a
 * buffer that reads empty) drained into a file while it goes on, until
 * Ctrl-C, -d or someone's stop; then drained to its end. The calls come
 * from /proc/kft_stream as binary rows (struct kft_stream_row, and the
 * times and arguments of a run with offcpu or args after each), appended
 * as they are to the file that becomes FILE, beside it, so memory stays
 * bounded however long the run and a call costs the reader a copy, not a
 * line of text. That file is a record file (kftrec.h) from the start: its
 * first line, room for the header (blank lines), the rows. At the end one
 * read of /proc/kft_data, the stream drained, gives the header (its
 * losses, checked), written at the end of its room, and the file is
 * renamed over FILE: the rows are written once. kft report and kd turn it
 * into the log's text; kd sorts the rows, which come CPU after CPU within
 * a read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "closeout.h"
#include "kft.h"
#include "kftrec.h"

/* How often the buffers are drained; the most a read takes, in bytes. */
#define KFT_REC_POLL_S		0.1
#define KFT_REC_READ_BYTES	(1 << 20)
/* The largest row: the call, its times, its arguments and its string. */
#define KFT_REC_ROW_MAX		(sizeof(struct kft_stream_row) + \
				 sizeof(struct kft_stream_sched) + sizeof(struct kft_stream_args) + \
				 sizeof(struct kft_stream_str))
/* The longest drain, in seconds, before Ctrl-C and -d are looked at again. */
#define KFT_REC_DRAIN_S		1.0
/*
 * The header's room, before the rows: a stream run's header is a few
 * hundred bytes a CPU (its losses). A larger one is written into a second
 * file, the rows copied after it.
 */
#define KFT_REC_HEADER_ROOM	65536
/*
 * After our stop, how long a run may take to say complete, counted again
 * from each drain that takes calls, but no longer than the most.
 */
#define KFT_REC_STOP_WAIT_S	10.0
#define KFT_REC_STOP_WAIT_MAX_S	300.0

struct kft_rec {
	const struct kft_params *p;
	struct kft_session s;
	char rows_path[PATH_MAX];	/* FILE to be: the rows, as they come */
	FILE *rows;
	off_t rows_at;			/* where the rows begin: the header's room ends */
	int stream;			/* /proc/kft_stream, or -1 */
	uint64_t *buf;			/* a read's rows (8-byte aligned, as they are) */
	struct kft_stream_read last;	/* the header read at the end, its losses */
	int have_last;
	unsigned long long total;	/* rows written */
	unsigned long long elsewhere;	/* rows another reader took */
	unsigned long long refused;	/* rows read, none kft writes: not written */
	int problems;			/* disagreements said: exit 1 */
	int rows_failed;		/* the rows file could not be written: no FILE */
	int rows_renamed;		/* rows_path became FILE: nothing to unlink */
	int header_put;			/* in rows_path's room: 0 none, 1 part of it, 2 whole */
};

/* "DIR/.NAME.WHAT-XXXXXX" beside path; 0, or -1 (too long). */
static int kft_rec_beside(char *buf, const char *path, const char *what)
{
	const char *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash - path + 1) : 0;
	int n = snprintf(buf, PATH_MAX, "%.*s.%s.%s-XXXXXX", dir, path, path + dir, what);

	return n < 0 || n >= PATH_MAX ? -1 : 0;
}

/* The first line and the header's room, blank lines: 0, or -1 (errno). */
static int kft_rec_room(struct kft_rec *rec)
{
	char blank[4096];
	int i;

	memset(blank, '\n', sizeof(blank));
	if (kftrec_write_first_line(rec->rows))
		return -1;
	for (i = 0; i < KFT_REC_HEADER_ROOM / (int)sizeof(blank); i++)
		if (fwrite(blank, 1, sizeof(blank), rec->rows) != sizeof(blank))
			return -1;
	if (fflush(rec->rows))
		return -1;
	rec->rows_at = ftello(rec->rows);
	return rec->rows_at < 0 ? -1 : 0;
}

/*
 * FILE may be replaced (absent, or a regular file: never a device or a
 * link renamed over), and the file that becomes it made beside it, with
 * room for the header. 0, or -1 after saying why.
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
	if (kft_rec_beside(rec->rows_path, path, "new")) {
		fprintf(stderr, "kft: record: %s: path too long\n", path);
		return -1;
	}
	fd = mkostemp(rec->rows_path, O_CLOEXEC);
	if (fd >= 0 && !(rec->rows = fdopen(fd, "w+")))
		close(fd);
	errno = 0;
	if (fd >= 0 && rec->rows && !kft_rec_room(rec))
		return 0;
	fprintf(stderr, "kft: record: %s: %s%s\n", rec->rows_path, fd >= 0 ? "write error: " : "",
		errno ? strerror(errno) : "unknown");
	if (rec->rows)
		fclose(rec->rows);
	rec->rows = NULL;
	if (fd >= 0)
		unlink(rec->rows_path);
	return -1;
}

static void kft_rec_close(struct kft_rec *rec, int keep)
{
	if (!rec->rows)
		return;
	fclose(rec->rows);
	if (!keep && !rec->rows_renamed)
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

/*
 * /proc/kft_stream opened on our run, after its start. 0, or -1 after
 * saying why (the run is ours to stop).
 */
static int kft_rec_stream_open(struct kft_rec *rec)
{
	const char *path = rec->s.paths->stream;

	rec->buf = malloc(KFT_REC_READ_BYTES);
	if (!rec->buf) {
		fprintf(stderr, "kft: record: %s\n", strerror(ENOMEM));
		return -1;
	}
	rec->stream = open(path, O_RDONLY | O_CLOEXEC);
	if (rec->stream >= 0)
		return 0;
	fprintf(stderr, "kft: record: %s: %s%s\n", path, strerror(errno),
		errno == ENOENT ? " (a kft module older than this kft?)" :
		errno == EINVAL ? " (the run is no log stream run)" :
		errno == EOPNOTSUPP ? " (a kft module older than this kft: no offcpu or args "
				      "in a stream)" : "");
	return -1;
}

/* What a read of the stream holds. */
struct kft_rec_rows {
	long long n;		/* whole rows */
	long long good;		/* rows before the first that kft does not write */
	size_t good_len;	/* their bytes */
	const char *why;	/* what is wrong with that row; NULL: every row is kft's */
};

/*
 * The rows of a read of len bytes, each the size its flags say, checked
 * as kft report checks a record file's: 0, or -1 when they are not whole
 * rows of flags kft knows.
 */
static int kft_rec_rows_in(const uint64_t *buf, size_t len, struct kft_rec_rows *r)
{
	const unsigned char *bytes = (const unsigned char *)buf;
	struct kftrec_call call;
	size_t at = 0, size;

	*r = (struct kft_rec_rows){ 0 };
	while (at < len) {
		/* (A read that ends inside a row's extensions is no whole rows.) */
		size = kftrec_call_from(bytes + at, len - at, &call);
		if (!size || call.row.flags & ~KFT_STREAM_ROW_FLAGS)
			return -1;
		if (!r->why)
			r->why = kftrec_call_invalid(&call, KFTREC_VERSION);
		at += size;
		r->n++;
		if (!r->why) {
			r->good++;
			r->good_len = at;
		}
	}
	return 0;
}

/*
 * A read whose row none kft writes (as kft report would refuse it in the
 * file): the rows before it are written, it and the rest of the read are
 * not, and the recording ends, the file whole. -1 after saying so.
 */
static int kft_rec_refuse(struct kft_rec *rec, const struct kft_rec_rows *rows)
{
	unsigned long long left = (unsigned long long)(rows->n - rows->good);

	fprintf(stderr, "kft: record: %s: row %llu is none kft writes (%s): it and the rest of "
		"its read, %llu call%s, are not in the file\n", rec->s.paths->stream,
		rec->total + 1, rows->why, left, left == 1 ? "" : "s");
	rec->refused += left;
	rec->problems++;
	return -1;
}

/*
 * The calls the stream holds now, appended to the rows file: reads until
 * one comes back short, or for KFT_REC_DRAIN_S at most (calls that come
 * faster than they are read must not keep Ctrl-C and -d waiting: the next
 * poll goes on). *n: how many. 0, or -1 after saying why.
 */
static int kft_rec_take(struct kft_rec *rec, unsigned long long *n)
{
	const size_t size = KFT_REC_READ_BYTES;
	double give_up = kft_now() + KFT_REC_DRAIN_S;
	struct kft_rec_rows rows;
	ssize_t got;

	*n = 0;
	for (;;) {
		got = read(rec->stream, rec->buf, size);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == ESTALE) {
			fprintf(stderr, "kft: record: %s: run %u's log was emptied by another "
				"writer (a prime, or kft clear) after the calls read: those since "
				"are not in the file\n", rec->s.paths->stream, rec->s.run_id);
			rec->s.not_ours = 1;
			return -1;
		}
		if (got < 0) {
			fprintf(stderr, "kft: record: %s: %s\n", rec->s.paths->stream,
				strerror(errno));
			return -1;
		}
		if (kft_rec_rows_in(rec->buf, (size_t)got, &rows)) {
			fprintf(stderr, "kft: record: %s: a read of %zd bytes, no whole rows kft "
				"writes\n", rec->s.paths->stream, got);
			rec->problems++;
			return -1;
		}
		if (rows.good_len &&
		    fwrite(rec->buf, 1, rows.good_len, rec->rows) != rows.good_len) {
			rec->rows_failed = 1;
			fprintf(stderr, "kft: record: %s: write error: %s\n", rec->rows_path,
				strerror(errno));
			return -1;
		}
		*n += (unsigned long long)rows.good;
		rec->total += (unsigned long long)rows.good;
		if (rows.why)
			return kft_rec_refuse(rec, &rows);
		/* A read that took fewer rows than fit: the stream had no more. */
		if (size - (size_t)got >= KFT_REC_ROW_MAX || kft_now() > give_up)
			break;
	}
	return 0;
}

/*
 * One drain: the run still ours, its state before the drain in *complete,
 * the calls taken in *n. 0, or -1 after saying why.
 */
static int kft_rec_read(struct kft_rec *rec, unsigned long long *n, int *complete)
{
	const struct kft_paths *paths = rec->s.paths;
	struct kft_status st;

	if (kft_status_read(paths, &st))
		return -1;
	if (!st.registered || st.id != rec->s.run_id) {
		fprintf(stderr, "kft: record: %s: %s\n", paths->ctl, st.registered ?
			"another run replaced ours" : "the run is gone (kft clear?)");
		rec->s.not_ours = 1;
		return -1;
	}
	*complete = st.complete;
	return kft_rec_take(rec, n);
}

/*
 * 1 when the run was complete and a drain found nothing more: all read;
 * 0 to go on; -1 after saying why.
 */
static int kft_rec_poll(void *ctx)
{
	struct kft_rec *rec = ctx;
	unsigned long long n;
	int complete;

	if (kft_rec_read(rec, &n, &complete))
		return -1;
	return complete && !n;
}

/*
 * After our stop: drained until the run is complete and a drain finds
 * nothing. A Ctrl-C now (a second one, when one ended the recording) cuts
 * the drain short: the rows read until then are whole in the file, and
 * the header's read counts those left. 0, or -1.
 */
static int kft_rec_finish(struct kft_rec *rec)
{
	double stopped = kft_now(), give_up = stopped + KFT_REC_STOP_WAIT_S;
	unsigned long long n;
	int complete;

	kft_quit = 0;
	for (;;) {
		if (kft_rec_read(rec, &n, &complete))
			return -1;
		if (complete && !n)
			return 0;
		/*
		 * A backlog drained is progress; rows that keep coming for
		 * minutes after the stop are a run that never ends.
		 */
		if (n)
			give_up = kft_now() + KFT_REC_STOP_WAIT_S;
		if (kft_now() > give_up || kft_now() > stopped + KFT_REC_STOP_WAIT_MAX_S) {
			fprintf(stderr, "kft: record: run %u is not complete %.0f seconds after its "
				"stop: the calls read until now are kept\n", rec->s.run_id,
				kft_now() - stopped);
			return -1;
		}
		/* Nothing new: a moment's wait (a pending Ctrl-C comes in either way). */
		if (kft_wait_until(kft_now() + (n ? 0 : 0.01), &rec->s.orig)) {
			fprintf(stderr, "kft: record: Ctrl-C: run %u's drain cut short %.1f "
				"seconds after its stop: any calls it still held are not in the "
				"file\n", rec->s.run_id, kft_now() - stopped);
			return -1;
		}
	}
}

/* kft_session_read()'s reader: the read's lines to the stream reader. */
static int kft_rec_read_lines(void *obj, FILE *in)
{
	return kft_stream_read_all(obj, in);
}

/*
 * The calls another reader of the stream took during the run (a read of
 * /proc/kft_data or /proc/kft_stream): the run's count of calls read
 * less ours (those written, those refused, and @text of them in the
 * header's read). Said, and counted: they are in no file of ours. A
 * 32-bit kernel counts modulo 2^32.
 */
static void kft_rec_elsewhere(struct kft_rec *rec, unsigned long long text)
{
	unsigned long long ours = rec->total + rec->refused + text, read;
	struct kft_status st;

	if (kft_status_read(rec->s.paths, &st) || !st.registered || st.id != rec->s.run_id ||
	    !st.has_stream_read)
		return;
	read = st.stream_read;
	if (read <= UINT32_MAX && ours > UINT32_MAX)
		ours &= UINT32_MAX;
	if (read <= ours)
		return;
	rec->elsewhere = read - ours;
	fprintf(stderr, "kft: record: %llu calls were taken by another reader of the stream "
		"(a read of %s or %s during the run): not in the file\n", rec->elsewhere,
		rec->s.paths->data, rec->s.paths->stream);
	rec->problems++;
}

/*
 * The header for FILE: one read of /proc/kft_data, the stream drained
 * (a call in it now came after the drains: said, not in FILE), checked.
 * 0, or -1 after saying why.
 */
static int kft_rec_header(struct kft_rec *rec)
{
	const struct kft_paths *paths = rec->s.paths;
	struct kft_stream_read r;
	int ret;

	/* (Its rows, calls that came after the drains, are counted only.) */
	kft_stream_init(&r, NULL, stderr, paths->data);
	ret = kft_session_read(&rec->s, KFT_DATA_TRACE, kft_rec_read_lines, &r, &r.head,
			       "a header larger than kft reads (1 MiB)");
	if (!ret && !r.stream) {
		fprintf(stderr, "kft: record: %s: not a stream run's log (no '%sN entries a "
			"CPU' line)\n", paths->data, KFT_STREAM_LINE);
		ret = -1;
	}
	if (ret) {
		kft_stream_free(&r);
		return -1;
	}
	rec->problems += kft_stream_check(&r);
	if (r.rows) {
		fprintf(stderr, "kft: record: %s: %llu calls came as text after the stream was "
			"drained: not in the file\n", paths->data, r.rows);
		rec->problems++;
	}
	kft_rec_elsewhere(rec, r.rows);
	kft_stream_move(&rec->last, &r);
	rec->have_last = 1;
	return 0;
}

/* from's bytes from at on, after to's: 0, or -1 with errno. */
static int kft_rec_copy(int from, off_t at, int to)
{
	char buf[65536];
	ssize_t n, w, done;

	if (lseek(from, at, SEEK_SET) != at)
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

/* len bytes at off of fd, whole: 0, or -1 with errno. */
static int kft_rec_pwrite(int fd, const char *buf, size_t len, off_t off)
{
	ssize_t w;

	while (len) {
		w = pwrite(fd, buf, len, off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -1 : (errno = EIO, -1);
		buf += w;
		len -= (size_t)w;
		off += w;
	}
	return 0;
}

/*
 * A header too large for its room: a second file beside FILE, the first
 * line, the header, then the rows copied. Its path in tmp; 0, or -1
 * after saying why.
 */
static int kft_rec_write_apart(struct kft_rec *rec, const char *header, size_t len,
			       const char *path, char *tmp, mode_t mode)
{
	const char *what = tmp;
	FILE *out = NULL;
	int fd, err = 0;

	if (kft_rec_beside(tmp, path, "new"))
		return -1;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "kft: record: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	errno = 0;
	if (fchmod(fd, mode) || !(out = fdopen(fd, "w")) || kftrec_write_first_line(out) ||
	    fwrite(header, 1, len, out) != len || fflush(out))
		err = errno ? errno : EIO;
	else if (kft_rec_copy(fileno(rec->rows), rec->rows_at, fd))
		err = errno, what = rec->rows_path;
	else if (fsync(fd) && errno != EINVAL && errno != EROFS)
		err = errno;
	if (out ? fclose(out) && !err : close(fd) && !err)
		err = errno;
	if (!err)
		return 0;
	fprintf(stderr, "kft: record: %s: %s%s\n", what, what == rec->rows_path ? "" :
		"write error: ", strerror(err));
	unlink(tmp);
	return -1;
}

/*
 * The header at the end of its room, right before the rows: 0, or -1 with
 * errno. What reached the file is kept in header_put: a rename that fails
 * afterwards leaves rows_path a whole record file, which the last words
 * say.
 */
static int kft_rec_header_put(struct kft_rec *rec, const char *header, size_t len)
{
	int fd = fileno(rec->rows);

	rec->header_put = 1;	/* a write that fails may have put part of it */
	if (kft_rec_pwrite(fd, header, len, rec->rows_at - (off_t)len))
		return -1;
	rec->header_put = 2;
	return 0;
}

/*
 * The header (the last read's, counting every row) into its room, right
 * before the rows, and the file renamed over FILE. 0, or -1 after saying
 * why.
 */
static int kft_rec_write(struct kft_rec *rec, const char *path)
{
	char tmp[PATH_MAX], *header = NULL;
	const char *done = rec->rows_path;
	mode_t mask = umask(0), mode = KFT_LOG_FILE_MODE & ~mask;
	size_t len = 0;
	FILE *text;
	int fd = fileno(rec->rows), err = 0;

	umask(mask);
	if (rec->rows_failed || kft_rec_flushed(rec))
		return -1;
	text = open_memstream(&header, &len);
	if (!text || kft_stream_header_write(text, rec->last.header, rec->last.header_len,
					     rec->total) || fclose(text)) {
		fprintf(stderr, "kft: record: %s\n", strerror(ENOMEM));
		free(header);
		return -1;
	}
	errno = 0;
	if (len > KFT_REC_HEADER_ROOM) {
		err = kft_rec_write_apart(rec, header, len, path, tmp, mode) ? -1 : 0;
		done = tmp;
	} else if (fchmod(fd, mode) || kft_rec_header_put(rec, header, len) ||
		   (fsync(fd) && errno != EINVAL && errno != EROFS)) {
		fprintf(stderr, "kft: record: %s: write error: %s\n", rec->rows_path,
			strerror(errno));
		err = -1;
	}
	free(header);
	if (!err && rename(done, path)) {
		fprintf(stderr, "kft: record: %s: %s\n", path, strerror(errno));
		if (done == tmp)
			unlink(tmp);
		err = -1;
	} else if (!err && done == rec->rows_path) {
		rec->rows_renamed = 1;
	}
	return err;
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
	rec->s.lock = kft_claim(paths, &st);
	if (rec->s.lock >= 0 && !kft_configure(paths, "record", config) &&
	    !kft_ctl_begin(paths, "start\n")) {
		if (!kft_status_read(paths, &st)) {
			rec->s.run_id = st.id;
			ret = 0;
		} else {
			kft_ctl_stop_anyway(paths);
		}
	}
	if (ret && rec->s.lock >= 0) {
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
	printf("kft record: %llu call%s written to %s; ", rec->total, rec->total == 1 ? "" : "s",
	       path);
	if (rec->last.has_lost)
		kft_stream_lost_put(&rec->last, stdout);
	else
		fputs("losses unknown", stdout);
	if (rec->elsewhere)
		printf("; %llu taken by another reader", rec->elsewhere);
	putchar('\n');
}

/*
 * The calls read, not in FILE, are kept in rows_path: said with what its
 * room holds. With the header whole (its rename over FILE failed) it is a
 * record file as FILE would have been; else the rows alone are of use.
 */
static void kft_rec_kept(const struct kft_rec *rec)
{
	static const char *const room[] = { "without the header",
					    "without a whole header, whose write failed" };

	if (rec->header_put == 2)
		fprintf(stderr, "kft: record: the %llu calls read are kept in %s, with their "
			"header: a whole record file\n", rec->total, rec->rows_path);
	else
		fprintf(stderr, "kft: record: the %llu calls read are kept in %s (%s: the rows "
			"begin at byte %lld)\n", rec->total, rec->rows_path,
			room[rec->header_put], (long long)rec->rows_at);
}

int kft_record(const struct kft_params *p, const struct kft_paths *paths)
{
	struct kft_rec rec = { .p = p, .stream = -1 };
	char err[256] = "";
	int ret, written = 0;

	kft_stream_init(&rec.last, NULL, NULL, "");
	/*
	 * Caught (and held) before the file beside FILE is made: a Ctrl-C at
	 * once ends the run at its first wait, and leaves no file behind.
	 */
	kft_signals_catch(&rec.s.orig);
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
	ret = kft_rec_stream_open(&rec);
	if (!ret)
		ret = kft_session_loop(&rec.s, KFT_REC_POLL_S, p->duration, kft_rec_poll, &rec);
	/* Ours to stop: Ctrl-C, -d, or an error of ours. */
	if (ret == 0 || (ret < 0 && !rec.s.not_ours)) {
		if (kft_session_stop(&rec.s, 0) || (ret == 0 && kft_rec_finish(&rec)))
			ret = -1;
	} else if (ret == 1) {
		kft_session_stop(&rec.s, 1);
		ret = 0;
	}
	if (!rec.s.not_ours && !rec.rows_failed && rec.stream >= 0 && kft_rec_header(&rec))
		ret = -1;
	if (rec.have_last && !kft_rec_write(&rec, p->output)) {
		written = 1;
		kft_rec_said(&rec, p->output);
		if (ret)
			fprintf(stderr, "kft: record: %s has the calls read until the error\n",
				p->output);
	} else if (rec.rows_failed || (rec.total && rec.rows && kft_rec_flushed(&rec))) {
		/* (Said only once what was read is in the file: flushed first.) */
		fprintf(stderr, "kft: record: %s not written: the calls read are lost\n",
			p->output);
	} else if (rec.total) {
		kft_rec_kept(&rec);
	}
	if (!written || rec.problems) {
		if (rec.problems)
			fprintf(stderr, "kft: record: %d disagreement%s in the reads (said above)\n",
				rec.problems, rec.problems == 1 ? "" : "s");
		ret = -1;
	}
	kft_rec_close(&rec, !written && !rec.rows_failed && rec.total);
	if (rec.stream >= 0)
		close(rec.stream);
	free(rec.buf);
	kft_stream_free(&rec.last);
	return kft_session_end(&rec.s, ret);
}
