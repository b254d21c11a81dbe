/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wakers: who woke each long sleep of a task inside a root call (filter
 * roots, with offcpu's per-task table, kft_sched.h). A probe on the
 * sched_waking tracepoint, registered only by runs with wakers, keeps a
 * followed task's last wakeup: the waking task's pid and name (-1 and none
 * for an interrupt's) and its stack above try_to_wake_up(). When offcpu's
 * switch probe switches the task back in after a sleep, that wakeup
 * becomes the task's pending one if the sleep was the longest since the
 * task last wrote one. The task itself writes the pending wakeup as rows of
 * its held tree at its next timed call's entry or exit (kft_hook_path.h):
 * so a tree keeps the longest sleep between two of its calls' entries and
 * exits, that is every sleep that traced calls separate.
 *
 * "Longest" is measured up to the wakeup, not up to the switch in (the
 * wait for a CPU after it is no waker's doing), so the waking probe
 * itself knows whether its wakeup can become the pending one. When it
 * cannot, the probe does not unwind the waker's stack, which is most of
 * what a wakeup costs: a call that sleeps many times between two traced
 * calls unwinds only at each new longest sleep.
 *
 * Who writes what, without a lock:
 * - the waking probe writes w[cur]: a remote wakeup of one task holds its
 *   pi_lock, but a task's wakeup of itself (or an interrupt's on its CPU)
 *   takes none, and a wakeup of a task preempted in a sleeping state may
 *   run beside its switch in: two writes of w[cur] may mix, or leave it
 *   valid after the switch in cleared it. Every sleep ends in a wakeup
 *   that writes w[cur] afresh before the switch in can make it pending:
 *   a mixed record is written over before it is used;
 * - the switch probe, as the task is switched in (no wakeup of a runnable
 *   task runs then), makes w[cur] the pending one and flips cur, so that
 *   no wakeup writes the pending one until the task has written it out;
 * - the task claims the pending wakeup (clears the flag with an exchange:
 *   an interrupt's first call, irq_enter_rcu(), is timed as the task's own
 *   and may come while the task writes it out), then writes it out. It
 *   cannot be switched in after a sleep meanwhile: a task in its hooks is
 *   running, and is switched out only preempted (runnable,
 *   kft_sched_switch()).
 */
#ifndef KFT_WAKE_H
#define KFT_WAKE_H

#include <linux/compiler.h>
#include <linux/types.h>

/* The waking task's frames kept, above try_to_wake_up(). */
#define KFT_WAKE_FRAMES	8

struct kft_waker {
	bool valid;			/* written since the task was last switched in */
	s32 pid;			/* -1: woken from an interrupt */
	u32 cpu;			/* the CPU the wakeup ran on */
	u32 nr;				/* frames */
	u64 asleep_ns;			/* the sleep up to this wakeup; 0: not known */
	u64 comm[2];			/* the waking task's name; zeros for an interrupt */
	unsigned long frames[KFT_WAKE_FRAMES];	/* innermost first */
};

struct kft_sched_wake {
	struct kft_waker w[2];
	u32 cur;			/* the one the waking probe writes */
	u32 pending_idx;		/* the one the task writes out */
	u32 pending;			/* 1: w[pending_idx] is (a word: xchg()) */
	u64 slept_at;			/* the pending sleep: switched out at (kft_now()) */
	u64 slept_ns;			/* and for how long, up to the switch in */
	u64 asleep_ns;			/* and up to its wakeup: what "longest" compares */
};

struct kft_hold;
struct kft_hold_slot;
struct kft_sched;

int kft_wake_alloc(struct kft_sched *sc);
void kft_wake_free(struct kft_sched *sc);
int kft_wake_attach(struct kft_sched *sc);
void kft_wake_detach(struct kft_sched *sc);
void kft_wake_hold(const struct kft_sched *sc, struct kft_hold *h, struct kft_hold_slot *hs,
		   struct kft_sched_wake *wk);

/* A task's table slot, claimed: no wakeup yet. */
static __always_inline void kft_wake_clear(struct kft_sched_wake *wk)
{
	WRITE_ONCE(wk->pending, 0);
	WRITE_ONCE(wk->w[0].valid, false);
	WRITE_ONCE(wk->w[1].valid, false);
}

/*
 * Whether a wakeup after @asleep_ns asleep cannot become the pending one:
 * one pending slept at least as long. Read by the waking probe while the
 * task sleeps, when only the task's next switch in could change them.
 */
static __always_inline bool kft_wake_outlasted(const struct kft_sched_wake *wk, u64 asleep_ns)
{
	return READ_ONCE(wk->pending) && asleep_ns <= READ_ONCE(wk->asleep_ns);
}

/*
 * The task is being switched in after @slept_ns asleep since @out_ns (0: it
 * was runnable, or not seen leaving): the wakeup that ended a sleep longer
 * than the one pending becomes pending. Any other is stale from now on.
 */
static __always_inline void kft_wake_switched_in(struct kft_sched_wake *wk, u64 out_ns,
						 u64 slept_ns)
{
	u32 cur = wk->cur;

	if (slept_ns && READ_ONCE(wk->w[cur].valid) &&
	    !kft_wake_outlasted(wk, wk->w[cur].asleep_ns)) {
		wk->slept_at = out_ns;
		wk->slept_ns = slept_ns;
		WRITE_ONCE(wk->asleep_ns, wk->w[cur].asleep_ns);
		wk->pending_idx = cur;
		cur ^= 1;
		WRITE_ONCE(wk->cur, cur);
		WRITE_ONCE(wk->pending, 1);
	}
	WRITE_ONCE(wk->w[cur].valid, false);
}

#endif
