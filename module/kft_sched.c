// SPDX-License-Identifier: GPL-2.0
/*
 * offcpu's table and its sched_switch probe (kft_sched.h). The table is
 * taken when the run is created (sched_tasks slots, 64 bytes each), the
 * probe registered while the run's hooks are attached: a run that does not
 * ask for offcpu probes nothing.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>

#include "kft_clock.h"
#include "kft_compat.h"
#include "kft_mem.h"
#include "kft_sched.h"

/* Tasks inside calls timed with offcpu at once; a task beyond gets no times. */
static unsigned int sched_tasks = 1024;
module_param(sched_tasks, uint, 0444);
MODULE_PARM_DESC(sched_tasks,
		 "tasks whose timed calls offcpu can follow at once (default: 1024)");

static struct tracepoint *kft_sched_switch_tp;

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
		WRITE_ONCE(s->out_ns, now);
	}
	s = kft_sched_find(sc, next);
	if (s && s->out_ns) {
		u64 away = now > s->out_ns ? now - s->out_ns : 0;

		if (s->out_runnable)
			WRITE_ONCE(s->runnable_ns, s->runnable_ns + away);
		else
			WRITE_ONCE(s->blocked_ns, s->blocked_ns + away);
		s->out_ns = 0;
	}
}
NOKPROBE_SYMBOL(kft_sched_switch);

static void kft_sched_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		*(struct tracepoint **)priv = tp;
}

int kft_sched_alloc(struct kft_sched *sc)
{
	unsigned int tasks = clamp(sched_tasks, 1U, 1U << 20);
	size_t bytes = array_size(tasks, sizeof(*sc->slots));

	if (!kft_mem_fits(bytes))
		return -ENOMEM;
	sc->slots = __vmalloc(bytes, KFT_BIG_GFP | __GFP_ZERO);
	if (!sc->slots)
		return -ENOMEM;
	sc->tasks = tasks;
	atomic_set(&sc->owned, 0);
	return 0;
}

void kft_sched_free(struct kft_sched *sc)
{
	vfree(sc->slots);
	sc->slots = NULL;
}

/*
 * At prime: every slot free. A task still inside a call of the last
 * generation no longer touches its slot (its exit sees the generation);
 * the probe may still write a slot it found a moment ago, which the next
 * claim sets again.
 */
void kft_sched_reset(struct kft_sched *sc)
{
	unsigned int i;

	if (!sc->slots)
		return;
	for (i = 0; i < sc->tasks; i++)
		WRITE_ONCE(sc->slots[i].owner, NULL);
	atomic_set(&sc->owned, 0);
}

/* The probe, for a run with offcpu: 0, or the tracepoint's error. */
int kft_sched_attach(struct kft_sched *sc)
{
	int ret;

	if (!sc->slots || sc->attached)
		return 0;
	if (!kft_sched_switch_tp)
		for_each_kernel_tracepoint(kft_sched_find_tp, &kft_sched_switch_tp);
	if (!kft_sched_switch_tp)
		return -ENOENT;
	ret = tracepoint_probe_register(kft_sched_switch_tp, kft_sched_switch, sc);
	sc->attached = !ret;
	return ret;
}

/* The probe off; when this returns, it runs nowhere. */
void kft_sched_detach(struct kft_sched *sc)
{
	if (!sc->attached)
		return;
	tracepoint_probe_unregister(kft_sched_switch_tp, kft_sched_switch, sc);
	tracepoint_synchronize_unregister();
	sc->attached = false;
}
