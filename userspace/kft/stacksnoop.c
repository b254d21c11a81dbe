// SPDX-License-Identifier: GPL-2.0
/*
 * kft stacksnoop: bcc's stacksnoop on kft's stacks mode with "snoop": the
 * module keeps every call (time, CPU, thread, comm, its stack) in a ring
 * that each open of /proc/kft_data consumes. kft reads it ten times a
 * second and prints the calls as they come, flushed at each read so that a
 * pipe gets them at once; at Ctrl-C it stops the run, reads what came
 * until the stop, and says on standard error how many calls the full ring
 * lost. With --srcline each frame ends with its source lines
 * (stackprint.c); with -a the function is its call with the argument
 * registers the module kept at the event, typed with -T as kft trace -T
 * types a call.
 */
#include <inttypes.h>

#include "kft.h"

/* How often the ring is read. */
#define KFT_SNOOP_POLL_S	0.1

struct kft_snoop {
	const struct kft_params *p;
	struct kft_session s;
	struct kft_stack_style style;
	uint64_t lost;		/* "Events lost, ring full" at the last read */
	int stopping;		/* the last read, after our stop: the stop is no news */
};

static int kft_snoop_read(void *st, FILE *in)
{
	return kft_stacks_read(st, in, KFT_STACKS_EVENTS_ONLY);
}

/* Prints the events since the last read. 0, 1 when the run stopped, -1. */
static int kft_snoop_poll(void *ctx)
{
	struct kft_snoop *sn = ctx;
	struct kft_stacks cur = { 0 };
	size_t i;
	int ret = 0;

	if (kft_session_read(&sn->s, KFT_DATA_STACKS, kft_snoop_read, &cur, &cur.head,
			     "more events, frames or names than kft holds")) {
		kft_stacks_free(&cur);
		return -1;
	}
	for (i = 0; i < cur.nr_events && !ret; i++)
		ret = kft_snoop_print(stdout, &cur, &cur.events[i], cur.head.start_us,
				      sn->p->patterns[0], &sn->style);
	fflush(stdout);
	sn->lost = cur.events_lost;
	if (ret)
		fprintf(stderr, "kft: out of memory\n");
	else
		ret = cur.head.stopped && !sn->stopping;
	kft_stacks_free(&cur);
	return ret;
}

/* Configured, started, printed as the calls come until the end, stopped: the exit status. */
static int kft_snoop_run(struct kft_snoop *sn, const struct kft_paths *paths)
{
	const struct kft_params *p = sn->p;
	char err[256] = "";
	int ret;

	if (kft_session_start(&sn->s, paths, p, kft_stacksnoop_config(p, err, sizeof(err)), err))
		return 1;
	kft_snoop_header(stdout, p->verbose);
	fflush(stdout);
	sn->s.look_after_stop = 1;
	ret = kft_session_loop(&sn->s, KFT_SNOOP_POLL_S, 0, kft_snoop_poll, sn);
	ret = kft_session_stop(&sn->s, ret);
	if (!ret) {
		sn->stopping = 1;
		ret = kft_snoop_poll(sn);
	}
	if (sn->lost)
		fprintf(stderr, "kft: %" PRIu64 " calls lost: more than the %d kft keeps between "
			"two reads\n", sn->lost, KFT_SNOOP_EVENTS);
	return kft_session_end(&sn->s, ret);
}

int kft_stacksnoop(const struct kft_params *p, const struct kft_paths *paths)
{
	struct kft_snoop sn = { .p = p };
	int ret;

	sn.style = (struct kft_stack_style){
		.comm = p->verbose, .offsets = p->offsets, .module = p->module, .args = p->args,
	};
	/* Read before the run is written: a file that is missing is said first. */
	if (kft_stack_srclines_open(p, "stacksnoop", paths, &sn.style) ||
	    kft_types_open(p, "stacksnoop", &sn.style.types))
		ret = 1;
	else
		ret = kft_snoop_run(&sn, paths);
	typedlog__free(sn.style.types);
	kft_stack_srclines_free(&sn.style);
	return ret;
}
