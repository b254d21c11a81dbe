// SPDX-License-Identifier: GPL-2.0
/*
 * A subcommand's run of the module, the same for funccount, funclatency,
 * stackcount, stacksnoop, profile, errtrace and slowtrace: Ctrl-C caught,
 * the module claimed (the lock, no active run), the configuration written
 * (its globs named one by one where the module's hooks take none, as kft
 * trace does) and started; summaries at intervals until the duration,
 * Ctrl-C or someone else's stop; the run stopped, the lock released,
 * standard output checked.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "closeout.h"
#include "kft.h"
#include "kftlog.h"
#include "ksyms.h"

int kft_session_start(struct kft_session *s, const struct kft_paths *paths,
		      const struct kft_params *p, char *config, const char *err)
{
	struct kft_status st;
	int ret = -1;

	s->paths = paths;
	s->run_id = 0;
	s->not_ours = 0;
	kft_session_primed(s);
	if (!config) {
		fprintf(stderr, "kft: %s: %s\n", kft_subcmd_name(p->sub), err);
		return -1;
	}
	if (p->debug)
		fputs(config, stderr);
	kft_signals_catch(&s->orig);
	s->lock = kft_claim(paths, &st);
	if (s->lock >= 0 && !kft_configure(paths, kft_subcmd_name(p->sub), config) &&
	    !kft_ctl_begin(paths, "start\n")) {
		if (!kft_status_read(paths, &st)) {
			s->run_id = st.id;
			ret = 0;
		} else {
			kft_ctl_stop_anyway(paths);
		}
	}
	if (ret && s->lock >= 0)
		close(s->lock);
	free(config);
	return ret;
}

int kft_session_loop(struct kft_session *s, double interval, double duration,
		     int (*summary)(void *ctx), void *ctx)
{
	double next = kft_now(), end;
	int ret = 0;

	end = duration ? next + duration : INFINITY;
	do {
		/* From the last deadline, not from now: summaries do not drift. */
		next = interval ? next + interval : end;
		if (next > end)
			next = end;
		/*
		 * A summary reads the whole log or table again: where that
		 * is slow (every function traced, under emulation), one more
		 * of a run still going delays the stop, and a log that fills
		 * meanwhile would even be started again.
		 */
		if (kft_wait_until(next, &s->orig) && s->look_after_stop)
			break;
		ret = summary(ctx);
		/* Output that cannot be written any more (a closed pipe) ends it as Ctrl-C. */
	} while (!ret && !kft_quit && !ferror(stdout) && kft_now() < end);
	return ret;
}

void kft_session_primed(struct kft_session *s)
{
	s->have_start = 0;
}

/*
 * A run primed again keeps its id, but its counts, log or ring begin
 * again, and its header says another start (or none yet). Only a writer
 * of /proc/kft that does not take kft's lock does that to our run: two
 * reads on either side of it cannot be subtracted, and the run is no
 * longer ours alone. The first read since our own prime sets the start:
 * 0, or -1 after saying so.
 */
static int kft_session_same_start(struct kft_session *s, const struct kft_head *h,
				  const char *path)
{
	if (!s->have_start) {
		s->have_start = 1;
		s->started = h->started;
		s->start_us = h->start_us;
		return 0;
	}
	if (h->started == s->started && h->start_us == s->start_us)
		return 0;
	fprintf(stderr, "kft: %s: run %u was primed again by another writer of /proc/kft ",
		path, s->run_id);
	if (h->started)
		fprintf(stderr, "(started at %llu usec, not %llu)",
			(unsigned long long)h->start_us, (unsigned long long)s->start_us);
	else
		fprintf(stderr, "(not started since)");
	fprintf(stderr, ": its counts began again, so none are subtracted across that; "
		"the run is left to it\n");
	return -1;
}

int kft_session_read(struct kft_session *s, enum kft_data_mode mode,
		     int (*read)(void *obj, FILE *in), void *obj, const struct kft_head *head,
		     const char *too_big)
{
	const char *path = s->paths->data;
	FILE *in = fopen(path, "r");
	int ret;

	if (!in) {
		fprintf(stderr, "kft: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ret = read(obj, in);
	if (ret && errno == EFBIG) {
		fprintf(stderr, "kft: %s: %s\n", path, too_big);
	} else if (ret) {
		fprintf(stderr, "kft: %s: %s\n", path, strerror(errno));
	} else if (kft_head_check(head, path, mode, s->run_id) ||
		   kft_session_same_start(s, head, path)) {
		/* Gone, another's, or primed again; a read that is no log tells nothing. */
		s->not_ours = head->registered >= 0;
		ret = -1;
	}
	fclose(in);
	return ret;
}

static int kft_session_counts_read(void *c, FILE *in)
{
	return kft_counts_read(c, in);
}

int kft_session_counts(struct kft_session *s, enum kft_data_mode mode, int max,
		       struct kft_counts *c)
{
	char too_big[80];

	snprintf(too_big, sizeof(too_big), "more than %d functions or %d bytes of names",
		 max, KFT_COUNTS_NAME_BYTES);
	if (kft_session_read(s, mode, kft_session_counts_read, c, &c->head, too_big)) {
		kft_counts_free(c);
		return -1;
	}
	return 0;
}

/*
 * Whether the run may be stopped as ours: not when a read found it no
 * longer ours, nor when /proc/kft names no run or another now (a writer
 * that only primed it again is not seen here, but such a writer took no
 * lock, as we did). A status that cannot be read does not keep the stop
 * from being tried.
 */
static int kft_session_ours(struct kft_session *s)
{
	struct kft_status st;

	if (s->not_ours)
		return 0;
	if (kft_status_read(s->paths, &st))
		return 1;
	if (!st.registered || st.id != s->run_id) {
		fprintf(stderr, "kft: %s: run %u is no longer there (%s): not stopped\n",
			s->paths->ctl, s->run_id, st.registered ? "another replaced it" :
			"kft clear?");
		s->not_ours = 1;
		return 0;
	}
	return 1;
}

int kft_session_stop(struct kft_session *s, int ret)
{
	if (ret == 1)
		fprintf(stderr, "kft: run %u was stopped by another command\n", s->run_id);
	else if (kft_session_ours(s) && kft_ctl_write(s->paths, "stop\n", 1))
		ret = -1;
	return ret;
}

int kft_session_end(struct kft_session *s, int ret)
{
	close(s->lock);
	kft_pipe_closed_exit();
	if (close_stdout("kft"))
		ret = -1;
	kft_pipe_closed_exit();
	return ret < 0 ? 1 : 0;
}

/* What one read of a trace log gives. */
struct kft_log_read {
	struct kft_head *head;
	struct kftlog *log;
	int in_rows;
};

static int kft_log_line(void *ctx, char *line)
{
	struct kft_log_read *r = ctx;

	if (line && !r->in_rows) {
		if (!strncmp(line, "--------", 8))
			r->in_rows = 1;
		else
			kft_head_line(r->head, line);
	}
	return kftlog__feed(r->log, line, line ? strlen(line) : 0, "", NULL);
}

static int kft_log_read_all(void *obj, FILE *in)
{
	return kft_lines_read(in, kft_log_line, obj);
}

int kft_session_log(struct kft_session *s, long entries, struct kft_head *head,
		    struct kftlog **log)
{
	struct kft_log_read r = { .head = head };
	char too_big[80];

	kft_head_init(head);
	*log = r.log = kftlog__new((size_t)entries + 1);
	if (!r.log) {
		fprintf(stderr, "kft: out of memory\n");
		return -1;
	}
	snprintf(too_big, sizeof(too_big), "more than %ld rows", entries);
	return kft_session_read(s, KFT_DATA_TRACE, kft_log_read_all, &r, head, too_big);
}

/*
 * To a reader that may not see kernel addresses, the module shows zeros in
 * their place, as /proc/kallsyms does: a subcommand that names calls by
 * their addresses cannot tell one function from another.
 */
void kft_say_hidden(const char *sub, const char *path)
{
	fprintf(stderr, "kft: %s: %s hides kernel addresses from this reader (they read "
		"as zeros), so %s cannot tell one function from another: it needs "
		"CAP_SYSLOG (root) and kernel.kptr_restrict below 2\n", sub, path, sub);
}

void kft_say_unsymbolized(const struct ksyms *ks, const char *path)
{
	if (ksyms__hidden(ks))
		fprintf(stderr, "kft: %s hides kernel addresses from this reader (they read as "
			"zeros): the calls are written with their addresses, no names (names "
			"need CAP_SYSLOG and kernel.kptr_restrict below 2)\n", path);
}

int kft_ksyms_hidden(const struct ksyms *ks, const char *sub, const char *path)
{
	if (!ksyms__hidden(ks))
		return 0;
	kft_say_hidden(sub, path);
	return 1;
}

/*
 * With the kernel's own exit hooks, the module refuses every function on a
 * kernel with kretprobes only, and its message ends with advice for a
 * configuration ("use 'filter funclist'") that a subcommand tracing every
 * function cannot take: say what is left instead, kft's own hooks first.
 */
void kft_explain_every_function(const struct kft_paths *paths, const char *sub,
				const char *instead)
{
	struct kft_status st;

	if (!kft_status_read(paths, &st) && strstr(st.error, "needs fprobe"))
		fprintf(stderr, "kft: %s: it traces every function, which this kernel's own exit "
			"hooks cannot (it has kretprobes only): --fast, kft's own hooks, can (on "
			"every kernel kft supports but 5.10); %s\n", sub, instead);
}

void kft_print_patterns(const struct kft_params *p, bool quoted)
{
	int i;

	if (quoted)
		putchar('"');
	for (i = 0; i < p->nr_patterns; i++)
		printf("%s%s", i ? " " : "", p->patterns[i]);
	if (quoted)
		putchar('"');
}

/* date(1)'s default format for funccount -T, bcc's "%H:%M:%S" for stackcount -T. */
const char *kft_stamp(char *buf, size_t size, const char *format)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, size, format, &tm))
		snprintf(buf, size, "%lld", (long long)t);
	return buf;
}
