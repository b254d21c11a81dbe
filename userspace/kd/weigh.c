// SPDX-License-Identifier: GPL-2.0
/*
 * A call's local time split into its time on the CPU, runnable and
 * blocked, for kd --folded --weigh (folded.c). offcpu's words on a call's
 * row count its callees' time too, as its duration does: a sleep inside a
 * callee is in the callee's blocked time and in every caller's. The local
 * time (the duration less the callees' durations) is split the same way,
 * so that each sleep is counted once, in the innermost call it fell in:
 *
 *	runnable = max(0, its runnable - its callees' runnable)
 *	blocked  = max(0, its blocked - its callees' blocked)
 *	on-CPU   = local - runnable - blocked
 *
 * The callees are those with a known duration, as in the local time. The
 * module writes on-CPU as the rest of the duration, and so does kd: the
 * three parts add up to the local time exactly. Where a log's times do
 * not (each rounded down to microseconds, or written by hand), blocked is
 * taken first and runnable next, each at most the local time left, and
 * on-CPU is what remains. A call without offcpu's words is on the CPU for
 * all of its local time.
 */
#include <stdlib.h>

#include "kd.h"

/* The part of own that is not in the callees' sum, 0 if they have more. */
static long long kd_weigh_rest(long long own, long long callees)
{
	return own > callees ? own - callees : 0;
}

struct kd_sched_times *kd_callees_times(const struct kd_tree *t)
{
	struct kd_sched_times *sum = calloc(t->nr ? t->nr : 1, sizeof(*sum));
	size_t i;

	for (i = 0; sum && i < t->nr; i++) {
		const struct kd_call *c = &t->calls[i];
		struct kd_sched_times *p;

		if (c->parent < 0 || c->row->delta < 0 || !c->row->has_sched)
			continue;
		p = &sum[c->parent];
		p->runnable = kd_time_add(p->runnable, c->row->runnable);
		p->blocked = kd_time_add(p->blocked, c->row->blocked);
	}
	return sum;
}

struct kd_local_times kd_local_times(const struct kd_call *c,
				     const struct kd_sched_times *callees)
{
	const struct kftlog_row *r = c->row;
	struct kd_local_times l = { 0 };
	long long left = kd_weigh_rest(r->delta, c->sub);

	if (r->delta < 0)
		return l;
	if (r->has_sched) {
		l.blocked = kd_weigh_rest(r->blocked, callees->blocked);
		l.blocked = l.blocked < left ? l.blocked : left;
		left -= l.blocked;
		l.runnable = kd_weigh_rest(r->runnable, callees->runnable);
		l.runnable = l.runnable < left ? l.runnable : left;
		left -= l.runnable;
	}
	l.oncpu = left;
	return l;
}
