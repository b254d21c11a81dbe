// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu's table and its sched_switch probe (kft_sched.h). The table is
 * taken when the run is created (sched_tasks slots, 64 bytes each, and
 * wakers' beside them), the probe registered while the run's hooks are
 * attached: a run that does not ask for offcpu probes nothing.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#include "kft_clock.h"
#include "kft_compat.h"
#include "kft_ftrace.h"
#include "kft_mem.h"
#include "kft_sched.h"

/* Tasks inside calls timed with offcpu at once; a task beyond gets no times. */
static unsigned int sched_tasks = 1024;
module_param(sched_tasks, uint, 0444);
MODULE_PARM_DESC(sched_tasks,
		 "tasks whose timed calls offcpu can follow at once (default: 1024)");

static struct tracepoint *kft_sched_switch_tp;

/* @s's task is being switched in at @now: its time away added to a total. */
static __always_inline void kft_sched_switched_in(struct kft_sched *sc,
						  struct kft_sched_slot *s, u64 now)
{
	u64 out = atomic64_read(&s->out_ns);
	u64 away = now > out ? now - out : 0, slept = 0;

	if (!out)
		away = 0;
	else if (s->out_runnable)
		WRITE_ONCE(s->runnable_ns, s->runnable_ns + away);
	else
		WRITE_ONCE(s->blocked_ns, s->blocked_ns + (slept = away));
	if (sc->wakes)
		kft_wake_switched_in(kft_sched_wake_of(sc, s), out, slept);
	atomic64_set(&s->out_ns, 0);
}

/*
 * A switch on this CPU, the runqueue locked, interrupts off: @prev's slot
 * says when it left and how, @next's gets its time away added to a total.
 * (The state is the one prev was switched out in: running, the task stays
 * runnable; any other, it sleeps.)
 */
static notrace void kft_sched_switch(KFT_SCHED_SWITCH_ARGS)
{
	struct kft_sched *sc = data;
	struct kft_sched_slot *s;
	u64 now;

	if (!atomic_read(&sc->owned))
		return;
	now = kft_now();
	s = kft_sched_find(sc, prev);
	if (s) {
		s->out_runnable = preempt || KFT_SCHED_PREV_STATE == TASK_RUNNING;
		atomic64_set(&s->out_ns, now);
	}
	s = kft_sched_find(sc, next);
	if (s)
		kft_sched_switched_in(sc, s, now);
}
NOKPROBE_SYMBOL(kft_sched_switch);

/*
 * offcpu's table, with wakers' beside it: 0, or -ENOMEM, which marks the
 * error as the table's (its size is sched_tasks', not the mode's).
 */
int kft_sched_alloc(struct kft_sched *sc, bool wakers)
{
	unsigned int tasks = clamp(sched_tasks, 1U, 1U << 20);
	size_t bytes = array_size(tasks, sizeof(*sc->slots));

	sc->no_memory = true;
	if (!kft_mem_fits(bytes))
		return -ENOMEM;
	sc->slots = __vmalloc(bytes, KFT_BIG_GFP | __GFP_ZERO);
	if (!sc->slots)
		return -ENOMEM;
	sc->tasks = tasks;
	atomic_set(&sc->owned, 0);
	if (wakers && kft_wake_alloc(sc))
		return -ENOMEM;
	sc->no_memory = false;
	return 0;
}

void kft_sched_free(struct kft_sched *sc)
{
	kft_wake_free(sc);
	vfree(sc->slots);
	sc->slots = NULL;
}

/*
 * At prime: every slot free. A task still inside a call of the last
 * generation no longer touches its slot (its exit sees the generation).
 * The probes stay registered: one that found a slot a moment ago may
 * still be writing its old owner's times, which would be a new owner's
 * once a task claims the slot. They run with interrupts off: after a
 * grace period none is, and no task claims a slot before the prime ends.
 * (A table none owned, a first prime's, has no such write to wait for.)
 */
void kft_sched_reset(struct kft_sched *sc)
{
	bool owned = atomic_read(&sc->owned);

	kft_tasktab_reset(sc->slots, sc->tasks, &sc->owned);
	if (sc->attached && owned)
		synchronize_rcu();
}

/* @t will never run again: the switch probe no longer finds it, as @t switches no more. */
notrace void kft_sched_forget(struct kft_sched *sc, struct task_struct *t)
{
	kft_tasktab_forget(sc->slots, sc->tasks, &sc->owned, t);
}

/*
 * The probes, for a run with offcpu (and wakers): 0, or the tracepoint's
 * error. The switch probe first: a wakeup is made pending by a switch.
 */
int kft_sched_attach(struct kft_sched *sc)
{
	int ret;

	if (!sc->slots || sc->attached)
		return 0;
	if (!kft_sched_switch_tp)
		kft_sched_switch_tp = kft_tracepoint("sched_switch");
	if (!kft_sched_switch_tp)
		return -ENOENT;
	ret = tracepoint_probe_register(kft_sched_switch_tp, kft_sched_switch, sc);
	sc->attached = !ret;
	if (!ret && sc->wakes) {
		ret = kft_wake_attach(sc);
		if (ret)
			kft_sched_detach(sc);
	}
	return ret;
}

/* The probes off; when this returns, they run nowhere. */
void kft_sched_detach(struct kft_sched *sc)
{
	if (!sc->attached)
		return;
	kft_wake_detach(sc);
	tracepoint_probe_unregister(kft_sched_switch_tp, kft_sched_switch, sc);
	tracepoint_synchronize_unregister();
	sc->attached = false;
}
