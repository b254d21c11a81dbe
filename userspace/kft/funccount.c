// SPDX-License-Identifier: GPL-2.0
/*
 * kft funccount: per-function call counts of a count-mode run, as the
 * original funccount (perf-tools) printed them from ftrace's function
 * profiler: one summary at Ctrl-C or the end of -d, or one every -i
 * seconds, each of the calls since the previous one.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "closeout.h"
#include "kft.h"

/* What one funccount run needs between its summaries. */
struct kft_fc {
	const struct kft_params *p;
	const struct kft_paths *paths;
	unsigned int run_id;		/* ours; 0: unknown */
	struct kft_counts prev;		/* the counts at the last summary */
};

/* The banner: Tracing "vfs_*"... Ctrl-C to end. */
static void kft_fc_banner(const struct kft_params *p)
{
	int i;

	printf("Tracing \"");
	for (i = 0; i < p->nr_patterns; i++)
		printf("%s%s", i ? " " : "", p->patterns[i]);
	printf("\"");
	if (p->duration_arg)
		printf(" for %s seconds", p->duration_arg);
	if (p->top)
		printf(". Top %ld only", p->top);
	printf(p->duration_arg ? "...\n" : "... Ctrl-C to end.\n");
	fflush(stdout);
}

/* The counts now; -1 after saying why (the run gone, or another's). */
static int kft_fc_snapshot(const struct kft_fc *fc, struct kft_counts *c)
{
	const char *path = fc->paths->data;
	FILE *in = fopen(path, "r");
	int ret;

	if (!in) {
		fprintf(stderr, "kft: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ret = kft_counts_read(c, in);
	if (ret && errno == EFBIG)
		fprintf(stderr, "kft: %s: more than %d functions or %d bytes of names\n", path,
			KFT_COUNTS_MAX, KFT_COUNTS_NAME_BYTES);
	else if (ret)
		fprintf(stderr, "kft: %s: %s\n", path, strerror(errno));
	else if (c->registered < 0)
		fprintf(stderr, "kft: %s: not a kft log\n", path);
	else if (!c->registered)
		fprintf(stderr, "kft: %s: the run is gone (kft clear, or the module unloaded)\n",
			path);
	else if (!c->is_count)
		fprintf(stderr, "kft: %s: not the log of a count run\n", path);
	else if (fc->run_id && c->run_id != fc->run_id)
		fprintf(stderr, "kft: %s: run %u replaced ours (run %u)\n", path, c->run_id,
			fc->run_id);
	else
		ret = 1;
	fclose(in);
	if (ret != 1) {
		kft_counts_free(c);
		return -1;
	}
	return 0;
}

/* date(1)'s default format, for -T. */
static const char *kft_fc_stamp(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, size, "%a %b %e %H:%M:%S %Z %Y", &tm))
		snprintf(buf, size, "%lld", (long long)t);
	return buf;
}

/* One summary: the calls since the previous one. 0, 1 when the run stopped, -1 on error. */
static int kft_fc_summary(struct kft_fc *fc)
{
	struct kft_counts cur;
	struct kft_delta *d;
	char stamp[64];
	size_t n;

	if (kft_fc_snapshot(fc, &cur))
		return -1;
	d = kft_counts_delta(&cur, &fc->prev, &n);
	if (!d && cur.nr) {
		fprintf(stderr, "kft: out of memory\n");
		kft_counts_free(&cur);
		return -1;
	}
	kft_funccount_print(stdout, d, n, fc->p->top,
			    fc->p->timestamps ? kft_fc_stamp(stamp, sizeof(stamp)) : NULL);
	fflush(stdout);
	free(d);
	kft_counts_free(&fc->prev);
	fc->prev = cur;
	return cur.stopped;
}

/* Summaries until Ctrl-C, -d, or the run stopped by someone else. */
static int kft_fc_loop(struct kft_fc *fc, const sigset_t *orig)
{
	const struct kft_params *p = fc->p;
	double next = kft_now(), end;
	int ret;

	end = p->duration ? next + p->duration : INFINITY;
	do {
		/* From the last deadline, not from now: summaries do not drift. */
		next = p->interval ? next + p->interval : end;
		if (next > end)
			next = end;
		kft_wait_until(next, orig);
		ret = kft_fc_summary(fc);
	} while (!ret && !kft_quit && kft_now() < end);
	printf("\nEnding tracing...\n");
	return ret;
}

/* The count run: configured, started, summarized, stopped. */
static int kft_fc_run(struct kft_fc *fc, const char *config, const sigset_t *orig)
{
	struct kft_status st;
	int ret;

	if (kft_ctl_write(fc->paths, config, 0) || kft_ctl_write(fc->paths, "start\n", 0))
		return 1;
	if (kft_status_read(fc->paths, &st))
		return 1;
	fc->run_id = st.id;
	kft_fc_banner(fc->p);
	ret = kft_fc_loop(fc, orig);
	kft_counts_free(&fc->prev);
	/* Stopped by someone else (ret 1): nothing to stop. */
	if (ret == 1)
		fprintf(stderr, "kft: run %u was stopped by another command\n", fc->run_id);
	else if (ret == 0 && kft_ctl_write(fc->paths, "stop\n", 1))
		ret = -1;
	return ret < 0 ? 1 : 0;
}

int kft_funccount(const struct kft_params *p, const struct kft_paths *paths)
{
	struct kft_fc fc = { .p = p, .paths = paths };
	struct kft_status st;
	sigset_t orig;
	char err[256];
	char *config;
	int lock, ret;

	config = kft_funccount_config(p, err, sizeof(err));
	if (!config) {
		fprintf(stderr, "kft: funccount: %s\n", err);
		return 1;
	}
	kft_signals_catch(&orig);
	lock = kft_claim(paths, &st);
	if (lock < 0) {
		free(config);
		return 1;
	}
	ret = kft_fc_run(&fc, config, &orig);
	free(config);
	if (close_stdout("kft"))
		ret = 1;
	close(lock);
	return ret;
}
