/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slots of tasks that die inside a timed call. A task that exits inside
 * a root call of filter roots, or inside a call timed with offcpu (a task
 * killed in get_signal(), every task in do_exit() when every function is
 * traced), never returns from it, so it never gives its slot back: the
 * tables filled up over a long run with many short-lived tasks, and later
 * root calls went unheld. A probe on the sched_process_free tracepoint,
 * registered by runs with either table, gives back the slots of each task
 * freed: nothing of it can run any more by then (kft_exit_fast.c frees its
 * shadow stack there too). Its held calls are dropped: the root call has no
 * return, and so no duration to keep it by.
 */
#ifndef KFT_EXITED_H
#define KFT_EXITED_H

#include <linux/types.h>

struct kft_hold;
struct kft_sched;

struct kft_exited {
	struct kft_hold *hold;		/* filter roots' slots, or NULL */
	struct kft_sched *sched;	/* offcpu's, or NULL */
	bool attached;			/* the probe is registered */
};

int kft_exited_attach(struct kft_exited *ex, struct kft_hold *hold, struct kft_sched *sched);
void kft_exited_detach(struct kft_exited *ex);

#endif
