// SPDX-License-Identifier: GPL-2.0
/*
 * kft stackcount and kft profile: bcc's tools of those names on kft's
 * stacks and profile modes. The module counts identical kernel stacks (at
 * each entry of the traced functions, or at each tick of a per-CPU timer);
 * a summary reads /proc/kft_data and prints the stacks counted since the
 * previous summary, the least counted first. As funccount's, a summary is
 * the difference of two reads: the counts only grow during a run, so no
 * event is lost or counted twice between two -i summaries (bcc clears its
 * map instead, and loses the events in between). With --srcline each
 * frame of their stacks ends with its source lines (stackprint.c).
 */
#include <inttypes.h>
#include <stdlib.h>

#include "kft.h"

/* What one stackcount or profile run needs between its summaries. */
struct kft_sc {
	const struct kft_params *p;
	struct kft_session s;
	struct kft_stack_style style;
	struct kft_stacks prev;		/* the snapshot of the last summary */
};

static int kft_sc_read(void *st, FILE *in)
{
	return kft_stacks_read(st, in, 0);
}

/* One summary: the stacks counted since the previous one. 0, 1 when the run stopped, -1. */
static int kft_sc_summary(void *ctx)
{
	struct kft_sc *sc = ctx;
	struct kft_stack_row *rows;
	struct kft_stacks cur = { 0 };
	char stamp[64];
	size_t n;
	int ret;

	if (kft_session_read(&sc->s, KFT_DATA_STACKS, kft_sc_read, &cur, &cur.head,
			     "more stacks, frames or names than kft holds")) {
		kft_stacks_free(&cur);
		return -1;
	}
	rows = kft_stacks_delta(&cur, &sc->prev, &n);
	if (!rows && cur.nr_stacks) {
		fprintf(stderr, "kft: out of memory\n");
		kft_stacks_free(&cur);
		return -1;
	}
	if (!sc->p->folded)
		putchar('\n');
	if (sc->p->timestamps)
		printf("%-8s\n", kft_stamp(stamp, sizeof(stamp), "%H:%M:%S"));
	ret = kft_stacks_print(stdout, rows, n, &sc->style);
	fflush(stdout);
	free(rows);
	kft_stacks_free(&sc->prev);
	sc->prev = cur;
	if (ret)
		fprintf(stderr, "kft: out of memory\n");
	return ret ? -1 : cur.head.stopped;
}

/* What the last read says was not counted, or not understood. */
static void kft_sc_warn(const struct kft_stacks *s, const char *path, const char *hint)
{
	if (s->table_full)
		fprintf(stderr, "kft: warning: %" PRIu64 " events not counted: the table of "
			"stacks was full%s\n", s->table_full, hint);
	if (s->busy)
		fprintf(stderr, "kft: warning: %" PRIu64 " events not counted: they came while "
			"their CPU was taking another stack\n", s->busy);
	if (s->truncated)
		fprintf(stderr, "kft: warning: %" PRIu64 " stacks cut at %u frames\n",
			s->truncated, s->truncated_at);
	if (s->malformed)
		fprintf(stderr, "kft: warning: %s: %zu lines not understood\n", path, s->malformed);
}

/* Configured, started, summarized until the end, stopped: the exit status. */
static int kft_sc_run(struct kft_sc *sc, const struct kft_paths *paths, char *config,
		      const char *err, void (*banner)(const struct kft_params *p))
{
	const struct kft_params *p = sc->p;
	int ret;

	if (kft_session_start(&sc->s, paths, p, config, err))
		return 1;
	if (!p->folded) {
		banner(p);
		fflush(stdout);
	}
	ret = kft_session_loop(&sc->s, p->interval, p->duration, kft_sc_summary, sc);
	if (!p->folded && !sc->style.profile)
		printf("Detaching...\n");
	if (ret >= 0)
		kft_sc_warn(&sc->prev, paths->data, sc->style.profile ?
			    ". Consider increasing --stack-storage-size." : "");
	kft_stacks_free(&sc->prev);
	return kft_session_end(&sc->s, kft_session_stop(&sc->s, ret));
}

/*
 * The run of @sub (stackcount or profile), its --srcline files read first:
 * a file that is missing is said before the run is written. The exit status.
 */
static int kft_sc_main(struct kft_sc *sc, const char *sub, const struct kft_paths *paths,
		       char *(*config)(const struct kft_params *p, char *err, size_t errlen),
		       void (*banner)(const struct kft_params *p))
{
	char err[256] = "";
	int ret = 1;

	if (!kft_stack_srclines_open(sc->p, sub, paths, &sc->style))
		ret = kft_sc_run(sc, paths, config(sc->p, err, sizeof(err)), err, banner);
	kft_stack_srclines_free(&sc->style);
	return ret;
}

/* bcc's banner, without the number of functions (the module does not say it). */
static void kft_stackcount_banner(const struct kft_params *p)
{
	printf("Tracing functions for ");
	kft_print_patterns(p, true);
	printf("... Hit Ctrl-C to end.\n");
}

int kft_stackcount(const struct kft_params *p, const struct kft_paths *paths)
{
	struct kft_sc sc = { .p = p };

	/* As bcc: -P prints "comm [pid]"; folded has the comm with -P or -p. */
	sc.style = (struct kft_stack_style){
		.folded = p->folded,
		.comm = p->folded ? p->per_process || p->pid : p->per_process && !p->pid,
		.offsets = p->offsets,
		.addresses = p->verbose,
		.module = p->module,
	};
	return kft_sc_main(&sc, "stackcount", paths, kft_stackcount_config,
			   kft_stackcount_banner);
}

/* "Sampling at 49 Hertz of all threads by kernel stack... Hit Ctrl-C to end." */
static void kft_profile_banner(const struct kft_params *p)
{
	printf("Sampling at %ld Hertz of ", p->frequency);
	if (p->pid)
		printf("PID %ld", p->pid);
	else if (p->tid)
		printf("TID %ld", p->tid);
	else
		printf("all threads");
	printf(" by kernel stack");
	if (p->cpu >= 0)
		printf(" on CPU#%ld", p->cpu);
	if (p->duration_arg)
		printf(" for %s secs.\n", p->duration_arg);
	else
		printf("... Hit Ctrl-C to end.\n");
}

int kft_profile(const struct kft_params *p, const struct kft_paths *paths)
{
	struct kft_sc sc = { .p = p };

	sc.style = (struct kft_stack_style){
		.profile = 1,
		.folded = p->folded,
		.comm = 1,
		.annotate = p->annotate,
		.module = p->module,
	};
	return kft_sc_main(&sc, "profile", paths, kft_profile_config, kft_profile_banner);
}
