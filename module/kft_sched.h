/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offcpu: how much of each timed call its task spent off the CPU, runnable
 * (preempted, or yielded: waiting for a CPU) or blocked (asleep), from the
 * scheduler's own switches: a probe on the sched_switch tracepoint,
 * registered only by runs that ask for it. The rest of the call's time it
 * ran: the three add up to its duration.
 *
 * Per task, a slot {owner, calls open, switched out at, how, runnable and
 * blocked totals}, found by a hash of the task pointer (kft_tasktab.h).
 * A task claims its slot at the entry of its first timed call (task
 * context only: an interrupt's calls do not leave their CPU; but under
 * PREEMPT_RT a softirq runs in a task, as that task's) and gives it
 * back when its last one returns. A call keeps the task's totals at its
 * entry; at its exit the differences are its runnable and blocked times.
 *
 * The switch probe writes the slot of the task switched out (when, and
 * whether it stays runnable) and of the task switched in (the interval
 * added to one total), both under the runqueue's lock of the CPU switching:
 * a task is switched out before it is switched in elsewhere, and runs
 * between the two, so the probe's writes of a task and the task's own
 * reads (at its calls' entries and exits, from the task itself) are
 * ordered by the scheduler. A table full for a task leaves its calls
 * without the times (counted).
 *
 * An interrupt's first call (irq_enter_rcu(), before the interrupt counts
 * itself in preempt_count) is seen as a call of the task it interrupted,
 * and enters and leaves the task's slot. Landing while the task claims or
 * gives back its slot, it would find a slot owned but no call open, and
 * give it back under the task: a slot left counted as followed, or a root
 * left without its slot. So the task's steps on its slot are taken with
 * interrupts off (a few dozen instructions, and only in runs with offcpu).
 */
#ifndef KFT_SCHED_H
#define KFT_SCHED_H

#include <linux/atomic.h>
#include <linux/irqflags.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "kft_log.h"
#include "kft_tasktab.h"
#include "kft_wake.h"

struct kft_sched_slot {
	struct task_struct *owner;	/* NULL: free */
	unsigned int depth;		/* the owner's timed calls open */
	/*
	 * Switched out at (kft_now()); 0: on a CPU. Atomic: a wakeup on
	 * another CPU reads it while the switch writes it, and a 32-bit
	 * kernel's plain 64-bit access may be two.
	 */
	atomic64_t out_ns;
	bool out_runnable;		/* switched out runnable, not asleep */
	u64 runnable_ns;		/* totals since the claim */
	u64 blocked_ns;
} ____cacheline_aligned;

struct kft_sched {
	struct kft_sched_slot *slots;	/* NULL: the run has no offcpu */
	struct kft_sched_wake *wakes;	/* wakers: one a slot, else NULL */
	unsigned int tasks;
	atomic_t owned;			/* 0: the probes have nothing to do */
	bool attached;			/* the switch probe is registered */
	bool waking_attached;		/* the waking probe (kft_wake.c) */
	bool no_memory;			/* kft_sched_alloc() failed: the run's error */
	/* try_to_wake_up(): the waking task's frames kept are above it. */
	unsigned long ttwu_start, ttwu_end;
};

int kft_sched_alloc(struct kft_sched *sc, bool wakers);
void kft_sched_free(struct kft_sched *sc);
void kft_sched_reset(struct kft_sched *sc);
void kft_sched_forget(struct kft_sched *sc, struct task_struct *t);
int kft_sched_attach(struct kft_sched *sc);
void kft_sched_detach(struct kft_sched *sc);

/*
 * The slot @t owns, or NULL. By the task alone: its pid changes when a
 * thread execs (de_thread() gives it the leader's), inside the call that
 * execs; and a task's slot is given back before its task_struct can be
 * another task's (kft_exited.h).
 */
static __always_inline struct kft_sched_slot *kft_sched_find(struct kft_sched *sc,
							     struct task_struct *t)
{
	unsigned int i, n = kft_tasktab_probes(sc->tasks);
	unsigned int idx = kft_tasktab_first(t, sc->tasks);

	for (i = 0; i < n; i++, idx = kft_tasktab_next(idx, sc->tasks)) {
		struct kft_sched_slot *s = &sc->slots[idx];

		if (READ_ONCE(s->owner) == t)
			return s;
	}
	return NULL;
}

/* A free slot claimed for current, its totals zero, or NULL. */
static __always_inline struct kft_sched_slot *kft_sched_claim(struct kft_sched *sc)
{
	unsigned int i, n = kft_tasktab_probes(sc->tasks);
	unsigned int idx = kft_tasktab_first(current, sc->tasks);

	for (i = 0; i < n; i++, idx = kft_tasktab_next(idx, sc->tasks)) {
		struct kft_sched_slot *s = &sc->slots[idx];

		if (!READ_ONCE(s->owner) && !cmpxchg(&s->owner, NULL, current)) {
			s->depth = 0;
			atomic64_set(&s->out_ns, 0);
			s->runnable_ns = 0;
			s->blocked_ns = 0;
			if (sc->wakes)
				kft_wake_clear(&sc->wakes[idx]);
			atomic_inc(&sc->owned);
			return s;
		}
	}
	return NULL;
}

/* wakers: the wakeups of the task owning @s. */
static __always_inline struct kft_sched_wake *kft_sched_wake_of(struct kft_sched *sc,
								struct kft_sched_slot *s)
{
	return &sc->wakes[s - sc->slots];
}

/*
 * A timed call of current entered: its slot one call deeper, the totals
 * kept in @runnable and @blocked. Return: the slot, or NULL when no slot
 * was free.
 */
static __always_inline struct kft_sched_slot *kft_sched_enter(struct kft_sched *sc,
							      u64 *runnable, u64 *blocked)
{
	struct kft_sched_slot *s;
	unsigned long flags;

	raw_local_irq_save(flags);
	s = atomic_read(&sc->owned) ? kft_sched_find(sc, current) : NULL;
	if (!s)
		s = kft_sched_claim(sc);
	if (s) {
		s->depth++;
		*runnable = READ_ONCE(s->runnable_ns);
		*blocked = READ_ONCE(s->blocked_ns);
	}
	raw_local_irq_restore(flags);
	return s;
}

/*
 * The call whose totals at entry were @t returned: @t becomes what it
 * spent runnable and blocked; the slot is freed with current's last call.
 */
static __always_inline void kft_sched_exit(struct kft_sched *sc, struct kft_rec_sched *t)
{
	struct kft_sched_slot *s;
	unsigned long flags;

	raw_local_irq_save(flags);
	s = kft_sched_find(sc, current);
	if (!s) {
		t->runnable_ns = 0;
		t->blocked_ns = 0;
	} else {
		t->runnable_ns = READ_ONCE(s->runnable_ns) - t->runnable_ns;
		t->blocked_ns = READ_ONCE(s->blocked_ns) - t->blocked_ns;
		/*
		 * Given back once, by whoever frees it (a prime may have):
		 * its totals read before another task claims it.
		 */
		if (!--s->depth && cmpxchg_release(&s->owner, current, NULL) == current)
			atomic_dec(&sc->owned);
	}
	raw_local_irq_restore(flags);
}

#endif
