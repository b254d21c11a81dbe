// SPDX-License-Identifier: GPL-2.0
/*
 * Mode stacks and mode profile: events whose kernel stacks are counted in
 * the run's stack table (kft_stack.c), and, with snoop, kept one by one.
 * The two modes differ only in where their events come from (an entry
 * hook, a timer per CPU): one file, so that both capture through the same
 * inline code, and one text in /proc/kft_data.
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
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <asm/irq_regs.h>

#include "kft_ftrace.h"
#include "kft_mode.h"
#include "kft_output.h"
#include "kft_run.h"
#include "kft_task.h"

/*
 * Counts one stack (and snoops it, with the registers at the traced
 * function's entry, @fregs, for args); frames are in a capture buffer.
 */
static notrace void kft_stacks_record(struct kft_run *run, const unsigned long *frames,
				      unsigned int nr, bool keyed, struct ftrace_regs *fregs)
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
	if (run->snoop.size && !kft_snoop_add(&run->snoop, kft_now(), slot, fregs))
		this_cpu_inc(run->counters->snoop_lost);
}
NOKPROBE_SYMBOL(kft_stacks_record);

/*
 * Captures and counts: from @regs (the traced function at its entry, or
 * the interrupted context) when known, which unwinds only the frames
 * kept; else from here, cut at @from (with @first before it). @fregs:
 * ftrace's registers at a traced function's entry, NULL for a tick.
 */
static notrace void kft_stacks_event(struct kft_run *run, struct pt_regs *regs,
				     unsigned long from, unsigned long first, bool keyed,
				     struct ftrace_regs *fregs)
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
	kft_stacks_record(run, buf, nr, keyed, fregs);
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
	kft_stacks_event(run, known ? &regs : NULL, parent_ip, ip, run->cfg.per_process, fregs);
}
NOKPROBE_SYMBOL(kft_stacks_entry);

static notrace void kft_stacks_fn(unsigned long ip, unsigned long parent_ip,
				  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct kft_run *run = container_of(op, struct kft_run, stacker.ops);

	/*
	 * Preemption off before the state's check: ftrace calls this with
	 * it on, and a prime empties the table after a grace period, which
	 * must find no hook past its check.
	 */
	preempt_disable_notrace();
	/* Acquire: a new state comes with its emptied table (kft_run_prime()). */
	if (smp_load_acquire(&run->state) == KFT_RUNNING &&
	    !kft_run_context_refused(run, !in_task()) && !kft_run_own_call(run)) {
		if (run->argf.nr && !kft_argf_passes(&run->argf, ip, fregs, NULL))
			this_cpu_inc(run->counters->filtered_args);
		else
			kft_stacks_entry(run, ip, parent_ip, fregs);
	}
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
	if (kft_run_context_refused(run, kft_profile_interrupted_irq()))
		return;
	if (!user_mode(regs)) {
		kft_stacks_event(run, regs, instruction_pointer(regs), 0, true, NULL);
		return;
	}
	/* In user space: no kernel stack, an empty one is counted. */
	buf = kft_stack_scratch_get(&level);
	if (!buf) {
		this_cpu_inc(run->counters->stack_busy);
		return;
	}
	kft_stacks_record(run, buf, 0, true, NULL);
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

static int kft_stacker_attach(struct kft_stacker *st, struct kft_run *run,
		       const struct kft_func_ref *funcs, unsigned int nr_funcs,
		       struct kft_parse_error *err)
{
	st->ops.flags = KFT_STACKS_OPS_FLAGS;
	return kft_ftrace_ops_attach(&st->ops, kft_stacks_fn, funcs, nr_funcs,
				     &st->attached, err);
}

/* Returns once no CPU can be in kft_stacks_fn() any more. */
static void kft_stacker_detach(struct kft_stacker *st)
{
	kft_ftrace_ops_detach(&st->ops, &st->attached);
}

/*
 * A going module's functions leave the filter. Stacks already counted keep
 * their frames; their addresses in the module print without a name.
 */
static unsigned int kft_stacker_drop_module(struct kft_stacker *st,
				     const unsigned long *addrs, unsigned int nr)
{
	return st->attached ? kft_ftrace_drop_ips(&st->ops, addrs, nr) : 0;
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
static int kft_profiler_attach(struct kft_profiler *p, struct kft_run *run,
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
static void kft_profiler_detach(struct kft_profiler *p)
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
void kft_mode_stacks_cleanup(void)
{
	if (kft_profile_cpuhp < 0)
		return;
	cpuhp_remove_multi_state(kft_profile_cpuhp);
	kft_profile_cpuhp = -1;
}

static void kft_output_stacks_status(struct seq_file *m, struct kft_run *run,
				     const struct kft_counters *c)
{
	bool profile = run->cfg.mode == KFT_MODE_PROFILE;
	unsigned long stacks, events;

	kft_stack_totals(&run->stacks, &stacks, &events);
	seq_printf(m, "\ncounters:\n"
		   "  events counted %lu\n"
		   "  stacks counted %lu\n"
		   "  filtered by context %lu\n"
		   "  not counted, table full %lu\n"
		   "  not counted, busy %lu\n"
		   "  stacks truncated %lu\n",
		   events, stacks, c->filtered_ints, c->table_full, c->stack_busy,
		   c->stacks_truncated);
	if (profile)
		seq_printf(m, "  idle samples skipped %lu\n", c->idle_skipped);
	else
		seq_printf(m, "  filtered by argument %lu\n"
			   "  unwound from kft's own frame %lu\n", c->filtered_args, c->slow_unwinds);
	if (run->snoop.size)
		seq_printf(m, "  snoop events lost %lu\n", c->snoop_lost);
	if (!profile)
		kft_output_argf_reads(m, run, c);
	seq_printf(m, "  starts %u\n", run->starts);
	seq_printf(m, "table: %lu stacks of %lu, %zu bytes\n", stacks,
		   run->stacks.max_stacks, kft_stack_table_bytes(&run->stacks));
	if (profile)
		seq_printf(m, "hooks: hrtimer, %u Hz per CPU%s\n", run->cfg.sample_hz,
			   run->detached ? ", detached until the next prime" : "");
	else
		seq_printf(m, "hooks: ftrace_ops%s\n",
			   run->detached ? ", detached until the next prime" : "");
	seq_printf(m, "mode: %s\n", profile ? "profile" : "stacks");
}

/**
 * kft_output_stacks_header() - /proc/kft_data of a stacks or profile run,
 * up to the stacks
 * @m:		the seq_file
 * @run:	the run (its configuration)
 * @times:	the run's timeline when the reader opened the file
 * @c:		its counters then
 * @view:	the reader's copy of the stacks
 * @events:	snoop events this read consumed
 */
static void kft_output_stacks_header(struct seq_file *m, const struct kft_run *run,
			      const struct kft_run_times *times,
			      const struct kft_counters *c,
			      const struct kft_stack_view *view, unsigned long events)
{
	kft_output_header_common(m, run, times, c);
	seq_printf(m, "\nCounted until %llu usec\n",
		   kft_output_since_boot_us(times, view->taken_ns));
	seq_printf(m, "Number of stacks counted = %lu\n", view->nr);
	seq_printf(m, "Number of events counted = %lu\n", view->events);
	seq_printf(m, "Events not counted, table full = %lu\n", c->table_full);
	seq_printf(m, "Events not counted, busy = %lu\n", c->stack_busy);
	seq_printf(m, "Stacks truncated at %u frames = %lu\n", KFT_STACK_MAX_DEPTH,
		   c->stacks_truncated);
	if (run->cfg.mode == KFT_MODE_PROFILE) {
		seq_printf(m, "Idle samples skipped = %lu\n", c->idle_skipped);
		seq_printf(m, "Samples per second per CPU = %u\n", run->cfg.sample_hz);
	}
	if (run->cfg.snoop) {
		seq_printf(m, "Events in this read = %lu\n", events);
		seq_printf(m, "Events lost, ring full = %lu\n", c->snoop_lost);
		if (run->snoop.args)
			seq_printf(m, "Argument registers per event = %u\n", KFT_ARGS_MAX);
	}
}

/*
 * Frames, innermost first. In stacks mode the first is the traced function
 * as ftrace saw it (after its endbr with IBT): shown at its start.
 */
static void kft_output_frames(struct seq_file *m, const unsigned long *frames,
			      unsigned int nr, bool traced_first, bool show_addrs)
{
	unsigned long ip;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		ip = i == 0 && traced_first ? kft_output_func_start(frames[0]) : frames[i];
		seq_puts(m, "  ");
		kft_output_addr(m, ip, show_addrs);
		seq_putc(m, ' ');
		kft_output_symbol(m, ip, true, show_addrs);
		seq_putc(m, '\n');
	}
}

/**
 * kft_output_stack() - one stack and its count
 * @m:		the seq_file
 * @run:	the run
 * @e:		the stack
 * @show_addrs:	false: addresses print as zeros
 */
static void kft_output_stack(struct seq_file *m, const struct kft_run *run,
		      const struct kft_stack_entry *e, bool show_addrs)
{
	seq_printf(m, "\nstack %lu ", e->count);
	if (e->keyed) {
		seq_printf(m, "%d ", e->tgid);
		kft_output_name(m, e->comm, TASK_COMM_LEN);
		seq_putc(m, '\n');
	} else {
		seq_puts(m, "-1 -\n");
	}
	kft_output_frames(m, e->frames, e->nr, run->cfg.mode == KFT_MODE_STACKS,
			  show_addrs);
}

/**
 * kft_output_snoop_event() - one event of a snooping run, with its stack
 * @m:		the seq_file
 * @times:	the run's timeline (for the time since boot)
 * @view:	the reader's copy of the stacks
 * @ev:		the event
 * @args:	its call's registers (args), else NULL
 * @show_addrs:	false: addresses print as zeros, and registers as trace
 *		rows hide them
 */
static void kft_output_snoop_event(struct seq_file *m, const struct kft_run_times *times,
				   const struct kft_stack_view *view,
				   const struct kft_snoop_event *ev,
				   const struct kft_rec_args *args, bool show_addrs)
{
	const struct kft_stack_ref *ref = NULL;

	seq_printf(m, "\nevent %llu %u %d ", kft_output_since_boot_us(times, ev->time_ns),
		   ev->cpu, ev->pid);
	kft_output_name(m, ev->comm, TASK_COMM_LEN);
	if (args)
		kft_output_args(m, args, show_addrs);
	seq_putc(m, '\n');
	if (ev->slot != KFT_STACK_NONE && view->slot_frames)
		ref = &view->slot_frames[ev->slot];
	if (ref && ref->nr)
		kft_output_frames(m, view->frames + ref->first, ref->nr, true, show_addrs);
}

static int kft_stacks_alloc(struct kft_run *run)
{
	return kft_stack_table_alloc(&run->stacks, run->cfg.logentries) ?:
	       kft_snoop_alloc(&run->snoop, run->cfg.snoop, run->cfg.args);
}

static void kft_stacks_free(struct kft_run *run)
{
	kft_stack_table_free(&run->stacks);
	kft_snoop_free(&run->snoop);
}

static int kft_stacks_reset(struct kft_run *run)
{
	kft_stack_table_reset(&run->stacks);
	kft_snoop_reset(&run->snoop);
	return 0;
}

static int kft_stacks_attach(struct kft_run *run, struct kft_parse_error *err)
{
	return kft_stacker_attach(&run->stacker, run, run->cfg.funcs, run->cfg.nr_funcs, err);
}

static void kft_stacks_detach(struct kft_run *run)
{
	kft_stacker_detach(&run->stacker);
}

static unsigned int kft_stacks_drop_module(struct kft_run *run, struct module *mod,
					   const unsigned long *addrs, unsigned int nr)
{
	return kft_stacker_drop_module(&run->stacker, addrs, nr);
}

static int kft_profile_attach(struct kft_run *run, struct kft_parse_error *err)
{
	return kft_profiler_attach(&run->profiler, run, err);
}

static void kft_profile_detach(struct kft_run *run)
{
	kft_profiler_detach(&run->profiler);
}

/* A profile hooks no function: a going module takes nothing from it. */
static unsigned int kft_profile_drop_module(struct kft_run *run, struct module *mod,
					    const unsigned long *addrs, unsigned int nr)
{
	return 0;
}

/* The table, locked until copied: the copy and the header are of one run. */
static void kft_stacks_data_take(struct kft_reader *r)
{
	mutex_lock(&r->run->stacks.lock);
}

/* The stacks' copy, once the events are: the events are taken out only if it is made. */
static int kft_stacks_view_of(void *reader)
{
	struct kft_reader *r = reader;

	return kft_stack_view_build(&r->run->stacks, &r->stacks);
}

/*
 * Events first: every stack they name is then in the copy. Without
 * memory for the copy, the events stay for the next reader.
 */
static int kft_stacks_data_build(struct kft_reader *r)
{
	int ret = kft_snoop_consume(&r->run->snoop, &r->snoop, kft_stacks_view_of, r);

	mutex_unlock(&r->run->stacks.lock);
	return ret;
}

/* Stacks, then snoop events. */
static unsigned long kft_stacks_data_rows(const struct kft_reader *r)
{
	return r->stacks.nr + r->snoop.nr;
}

static void kft_stacks_data_show(struct seq_file *m, struct kft_reader *r, unsigned long i)
{
	if (i == 0)
		kft_output_stacks_header(m, r->run, &r->times, &r->counters,
					 &r->stacks, r->snoop.nr);
	else if (i <= r->stacks.nr)
		kft_output_stack(m, r->run, &r->stacks.entries[i - 1], r->show_addrs);
	else
		kft_output_snoop_event(m, &r->times, &r->stacks,
				       &r->snoop.events[i - 1 - r->stacks.nr],
				       r->snoop.args ? &r->snoop.args[i - 1 - r->stacks.nr] : NULL,
				       r->show_addrs);
}

static void kft_stacks_data_free(struct kft_reader *r)
{
	kft_stack_view_free(&r->stacks);
	kft_snoop_view_free(&r->snoop);
}

const struct kft_mode kft_mode_stacks = {
	.name		= "stacks",
	.no_memory	= KFT_ERR_NO_MEMORY,
	.alloc		= kft_stacks_alloc,
	.free		= kft_stacks_free,
	.reset		= kft_stacks_reset,
	.attach		= kft_stacks_attach,
	.detach		= kft_stacks_detach,
	.drop_module	= kft_stacks_drop_module,
	.status		= kft_output_stacks_status,
	.data_take	= kft_stacks_data_take,
	.data_build	= kft_stacks_data_build,
	.data_rows	= kft_stacks_data_rows,
	.data_show	= kft_stacks_data_show,
	.data_free	= kft_stacks_data_free,
};

const struct kft_mode kft_mode_profile = {
	.name		= "profile",
	.no_memory	= KFT_ERR_NO_MEMORY,
	.alloc		= kft_stacks_alloc,
	.free		= kft_stacks_free,
	.reset		= kft_stacks_reset,
	.attach		= kft_profile_attach,
	.detach		= kft_profile_detach,
	.drop_module	= kft_profile_drop_module,
	.status		= kft_output_stacks_status,
	.data_take	= kft_stacks_data_take,
	.data_build	= kft_stacks_data_build,
	.data_rows	= kft_stacks_data_rows,
	.data_show	= kft_stacks_data_show,
	.data_free	= kft_stacks_data_free,
};
