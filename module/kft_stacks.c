// SPDX-License-Identifier: GPL-2.0
/*
 * Mode stacks and mode profile: events whose kernel stacks are counted in
 * the run's stack table (kft_stack.c), and, with snoop, kept one by one.
 *
 * An event, from the hook or the timer, with preemption off:
 *   the run RUNNING? the filters (context, pid, tid, CPU)? this context's
 *   capture buffer free? then capture, count, snoop.
 * Nothing here takes a lock, allocates or sleeps; what cannot be counted
 * is counted as such (busy, table full, truncated, ring full).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/cpu.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <asm/irq_regs.h>

#include "kft_run.h"
#include "kft_task.h"

/* Counts one stack (and snoops it); frames are in a capture buffer. */
static notrace void kft_stacks_record(struct kft_run *run, const unsigned long *frames,
				      unsigned int nr, bool keyed)
{
	struct kft_stack_key key = {
		.frames = frames,
		.nr = nr,
		.tgid = keyed ? current->tgid : -1,
		.comm = current->comm,
	};
	u32 slot = kft_stack_count(&run->stacks, &key);

	if (slot == KFT_STACK_NONE)
		this_cpu_inc(run->counters->table_full);
	if (run->snoop.size && !kft_snoop_add(&run->snoop, kft_now(), slot))
		this_cpu_inc(run->counters->snoop_lost);
}
NOKPROBE_SYMBOL(kft_stacks_record);

/*
 * Captures and counts: from @regs (the traced function at its entry, or
 * the interrupted context) when known, which unwinds only the frames
 * kept; else from here, cut at @from (with @first before it).
 */
static notrace void kft_stacks_event(struct kft_run *run, struct pt_regs *regs,
				     unsigned long from, unsigned long first, bool keyed)
{
	unsigned int level, nr;
	unsigned long *buf;
	bool truncated;

	buf = kft_stack_scratch_get(&level);
	if (!buf) {
		this_cpu_inc(run->counters->stack_busy);
		return;
	}
	if (regs)
		nr = kft_unwind_regs(regs, buf, KFT_STACK_MAX_DEPTH, &truncated);
	else
		nr = kft_stack_capture(buf, KFT_STACK_BUF, from, first, &truncated);
	if (truncated)
		this_cpu_inc(run->counters->stacks_truncated);
	kft_stacks_record(run, buf, nr, keyed);
	kft_stack_scratch_put(level);
}
NOKPROBE_SYMBOL(kft_stacks_event);

/* The traced function at its entry: its stack, counted. */
static notrace void kft_stacks_entry(struct kft_run *run, unsigned long ip,
				     unsigned long parent_ip, struct ftrace_regs *fregs)
{
	struct pt_regs regs = {};
	bool known = kft_ftrace_entry_regs(fregs, ip, parent_ip, &regs);

	if (!known)
		this_cpu_inc(run->counters->slow_unwinds);
	kft_stacks_event(run, known ? &regs : NULL, parent_ip, ip, run->cfg.per_process);
}
NOKPROBE_SYMBOL(kft_stacks_entry);

static notrace void kft_stacks_fn(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct kft_run *run = container_of(op, struct kft_run, stacker.ops);
	const struct kft_config *cfg = &run->cfg;

	/* Acquire: a new state comes with its emptied table (kft_run_prime()). */
	if (smp_load_acquire(&run->state) != KFT_RUNNING)
		return;
	preempt_disable_notrace();
	if (in_task() ? cfg->onlyints : cfg->noints)
		this_cpu_inc(run->counters->filtered_ints);
	else if (kft_task_wanted(cfg))
		kft_stacks_entry(run, ip, parent_ip, fregs);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_stacks_fn);

/* Did the tick interrupt an interrupt (hard, soft, NMI), not a task? */
static notrace bool kft_profile_interrupted_irq(void)
{
	return hardirq_count() > HARDIRQ_OFFSET || in_serving_softirq() || in_nmi();
}
NOKPROBE_SYMBOL(kft_profile_interrupted_irq);

static notrace void kft_profile_sample(struct kft_run *run)
{
	const struct kft_config *cfg = &run->cfg;
	struct pt_regs *regs = get_irq_regs();
	unsigned int level;
	unsigned long *buf;

	if (!regs)
		return;
	if (!cfg->include_idle && is_idle_task(current)) {
		this_cpu_inc(run->counters->idle_skipped);
		return;
	}
	if (kft_profile_interrupted_irq() ? cfg->noints : cfg->onlyints) {
		this_cpu_inc(run->counters->filtered_ints);
		return;
	}
	if (!kft_task_wanted(cfg))
		return;
	if (!user_mode(regs)) {
		kft_stacks_event(run, regs, instruction_pointer(regs), 0, true);
		return;
	}
	/* In user space: no kernel stack, an empty one is counted. */
	buf = kft_stack_scratch_get(&level);
	if (!buf) {
		this_cpu_inc(run->counters->stack_busy);
		return;
	}
	kft_stacks_record(run, buf, 0, true);
	kft_stack_scratch_put(level);
}
NOKPROBE_SYMBOL(kft_profile_sample);

static notrace enum hrtimer_restart kft_profile_tick(struct hrtimer *timer)
{
	struct kft_profile_cpu *pc = container_of(timer, struct kft_profile_cpu, timer);
	struct kft_run *run = pc->run;

	hrtimer_forward_now(timer, ns_to_ktime(run->profiler.period_ns));
	/* Acquire: a new state comes with its emptied table (kft_run_prime()). */
	if (smp_load_acquire(&run->state) == KFT_RUNNING)
		kft_profile_sample(run);
	return HRTIMER_RESTART;
}
NOKPROBE_SYMBOL(kft_profile_tick);

/* Below: attaching, in process context under kft_mutex. */

int kft_stacker_attach(struct kft_stacker *st, struct kft_run *run,
		       const struct kft_func_ref *funcs, unsigned int nr_funcs,
		       struct kft_parse_error *err)
{
	return kft_ftrace_ops_attach(&st->ops, kft_stacks_fn, funcs, nr_funcs,
				     &st->attached, err);
}

/* Returns once no CPU can be in kft_stacks_fn() any more. */
void kft_stacker_detach(struct kft_stacker *st)
{
	kft_ftrace_ops_detach(&st->ops, &st->attached);
}

/*
 * A going module's functions leave the filter. Stacks already counted keep
 * their frames; their addresses in the module print without a name.
 */
unsigned int kft_stacker_drop_module(struct kft_stacker *st,
				     const unsigned long *addrs, unsigned int nr)
{
	unsigned int i, dropped = 0;

	for (i = 0; st->attached && i < nr; i++)
		dropped += !ftrace_set_filter_ip(&st->ops, addrs[i], 1, 0);
	return dropped;
}

/*
 * kft's CPU hotplug state (dynamic, one instance per profile run), set up
 * at the first profile run (kft_mutex). Without it a CPU going offline
 * hands its pinned timer to another CPU for good, which then samples twice
 * as often, and a CPU coming online is never sampled.
 */
static int kft_profile_cpuhp = -1;

/* @cpu comes online (or the run attaches), on @cpu: its timer starts there. */
static int kft_profiler_cpu_up(unsigned int cpu, struct hlist_node *node)
{
	struct kft_profiler *p = hlist_entry(node, struct kft_profiler, cpuhp);
	int only = container_of(p, struct kft_run, profiler)->cfg.filter_cpu;

	if (only < 0 || only == cpu)
		hrtimer_start(&per_cpu_ptr(p->cpus, cpu)->timer, ns_to_ktime(p->period_ns),
			      HRTIMER_MODE_REL_PINNED_HARD);
	return 0;
}

/* @cpu goes offline (or the run detaches), on @cpu: its timer stops. */
static int kft_profiler_cpu_down(unsigned int cpu, struct hlist_node *node)
{
	struct kft_profiler *p = hlist_entry(node, struct kft_profiler, cpuhp);

	hrtimer_cancel(&per_cpu_ptr(p->cpus, cpu)->timer);
	return 0;
}

static int kft_profiler_cpuhp_get(void)
{
	int ret;

	if (kft_profile_cpuhp >= 0)
		return 0;
	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "kft:profile",
				      kft_profiler_cpu_up, kft_profiler_cpu_down);
	if (ret < 0)
		return ret;
	kft_profile_cpuhp = ret;
	return 0;
}

/**
 * kft_profiler_attach() - a sampling timer on every online CPU (or the one
 * of filter cpu), and on each CPU that comes online while it runs
 * @p:		the profiler
 * @run:	its run
 * @err:	set when the CPU of filter cpu is not online
 *
 * Return: 0 or an error.
 */
int kft_profiler_attach(struct kft_profiler *p, struct kft_run *run,
			struct kft_parse_error *err)
{
	int i, ret, cpu = run->cfg.filter_cpu;
	struct kft_profile_cpu *pc;

	if (cpu >= 0 && (cpu >= nr_cpu_ids || !cpu_online(cpu))) {
		kft_func_error(err, KFT_ERR_NO_SUCH_CPU, NULL);
		return -EINVAL;
	}
	ret = kft_profiler_cpuhp_get();
	if (ret)
		return ret;
	p->period_ns = div_u64(NSEC_PER_SEC, run->cfg.sample_hz);
	p->cpus = alloc_percpu(struct kft_profile_cpu);
	if (!p->cpus)
		return -ENOMEM;
	for_each_possible_cpu(i) {
		pc = per_cpu_ptr(p->cpus, i);
		kft_hrtimer_setup(&pc->timer, kft_profile_tick, CLOCK_MONOTONIC,
				  HRTIMER_MODE_REL_PINNED_HARD);
		pc->run = run;
	}
	/* kft_profiler_cpu_up() on each online CPU, there. */
	ret = cpuhp_state_add_instance(kft_profile_cpuhp, &p->cpuhp);
	if (ret) {
		free_percpu(p->cpus);
		p->cpus = NULL;
		return ret;
	}
	p->attached = true;
	return 0;
}

/* Returns once no timer is armed or running. */
void kft_profiler_detach(struct kft_profiler *p)
{
	int cpu;

	if (!p->attached)
		return;
	/* kft_profiler_cpu_down() on each online CPU; none comes up after. */
	cpuhp_state_remove_instance(kft_profile_cpuhp, &p->cpuhp);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(p->cpus, cpu)->timer);
	free_percpu(p->cpus);
	p->cpus = NULL;
	p->attached = false;
}

/* At module exit, after every run is gone. */
void kft_profiler_cleanup(void)
{
	if (kft_profile_cpuhp < 0)
		return;
	cpuhp_remove_multi_state(kft_profile_cpuhp);
	kft_profile_cpuhp = -1;
}
