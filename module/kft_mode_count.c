// SPDX-License-Identifier: GPL-2.0
/*
 * Count mode: the entry hook that counts calls in the run's count table
 * (kft_count_table.h), attaching it, and what the mode shows.
 *
 * The hook is a bare ftrace_ops callback: no FTRACE_OPS_FL_RECURSION (that
 * wrapper alone costs about 54 instructions a call). It needs none: it
 * calls only notrace functions of its own and of the table (everything
 * else it uses is inline or a macro), so nothing it does can enter it
 * again. Without that wrapper ftrace calls it with preemption on, so it
 * turns preemption off itself: a prime empties the table after a grace
 * period, which must find no hook past its state check (kft_run_prime()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/seq_file.h>

#include "kft_ftrace.h"
#include "kft_mode.h"
#include "kft_output.h"
#include "kft_run.h"
#include "kft_task.h"

/*
 * Everything but the common case: not running, a context, task or
 * argument filter, a function's first call, or a slot away from its first
 * probe. @fregs: the registers ftrace passed, which filter arg reads.
 */
static notrace noinline void kft_count_slow(struct kft_run *run, unsigned long ip,
					    struct ftrace_regs *fregs)
{
	long slot;

	if (READ_ONCE(run->state) != KFT_RUNNING)
		return;
	if (run->count_ctx_filter && (in_task() ? run->cfg.onlyints : run->cfg.noints)) {
		this_cpu_inc(run->counters->filtered_ints);
		return;
	}
	if (run->task_filter && !kft_task_wanted(&run->cfg)) {
		this_cpu_inc(run->counters->filtered_task);
		return;
	}
	if (run->argf.nr && !kft_argf_passes(&run->argf, ip, fregs, NULL)) {
		this_cpu_inc(run->counters->filtered_args);
		return;
	}
	slot = kft_count_slot_slow(&run->table, ip);
	if (unlikely(slot < 0)) {
		this_cpu_inc(run->counters->table_full);
		return;
	}
	kft_count_inc(&run->table, slot);
}
NOKPROBE_SYMBOL(kft_count_slow);

/*
 * The traced path. The common case (running, a function seen before, in
 * the first slot it probes) is a state check, a hash, one compare and one
 * this_cpu_inc(); the rest is a tail call. It calls only notrace
 * functions: no recursion. Which variant a run uses is chosen at attach
 * (kft_count_func()), so that the common case tests nothing else: a table
 * of one chunk (up to 4096 slots: lists of up to 1008 names) or more, and
 * a context, task or argument filter (every call goes the slow way).
 */
static __always_inline void kft_count_fast(struct ftrace_ops *op, unsigned long ip,
					   struct ftrace_regs *fregs, bool one_chunk)
{
	struct kft_run *run = container_of(op, struct kft_run, counter.ops);
	struct kft_count_table *t = &run->table;
	unsigned long slot;

	if (unlikely(READ_ONCE(run->state) != KFT_RUNNING))
		return;
	slot = kft_count_hash(t, ip);
	/* A plain load: the slot's only write is the claim, long before. */
	if (unlikely(data_race(t->ips[slot]) != ip))
		return kft_count_slow(run, ip, fregs);
	if (one_chunk)
		kft_counter_inc(&t->chunk0[slot]);
	else
		kft_count_inc(t, slot);
}

static notrace void kft_count_fn_one_chunk(unsigned long ip, unsigned long parent_ip,
					   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	preempt_disable_notrace();
	kft_count_fast(op, ip, fregs, true);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_count_fn_one_chunk);

static notrace void kft_count_fn_chunks(unsigned long ip, unsigned long parent_ip,
					struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	preempt_disable_notrace();
	kft_count_fast(op, ip, fregs, false);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_count_fn_chunks);

static notrace void kft_count_fn_filtered(unsigned long ip, unsigned long parent_ip,
					  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	preempt_disable_notrace();
	kft_count_slow(container_of(op, struct kft_run, counter.ops), ip, fregs);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_count_fn_filtered);

static ftrace_func_t kft_count_func(const struct kft_run *run)
{
	if (run->count_ctx_filter || run->argf.nr)
		return kft_count_fn_filtered;
	return run->table.nr_chunks == 1 ? kft_count_fn_one_chunk : kft_count_fn_chunks;
}

/**
 * kft_counter_attach() - count the calls of a set of functions
 * @c:		the hook
 * @run:	its run (its table is set up)
 * @funcs:	the funclist, or none for every function
 * @nr_funcs:	its length
 * @err:	where a reference matched nothing
 *
 * Return: 0 or an error, with @err set for a configuration error.
 */
static int kft_counter_attach(struct kft_counter *c, struct kft_run *run,
		       const struct kft_func_ref *funcs, unsigned int nr_funcs,
		       struct kft_parse_error *err)
{
	/* filter arg reads the registers that stacks mode unwinds from. */
	if (run->argf.nr)
		c->ops.flags |= KFT_STACKS_OPS_FLAGS;
	return kft_ftrace_ops_attach(&c->ops, kft_count_func(run), funcs, nr_funcs,
				     &c->attached, err);
}

/* Returns once no CPU can be in a kft_count_fn_*() any more. */
static void kft_counter_detach(struct kft_counter *c)
{
	kft_ftrace_ops_detach(&c->ops, &c->attached);
}

/**
 * kft_counter_drop_module() - a module that goes away
 * @c:		the hook
 * @mod:	the module, in its GOING notifier
 * @addrs:	the module's functions in the funclist
 * @nr:		how many
 *
 * Its functions leave the filter (ftrace would hook a module loaded at the
 * same addresses later), and their slots are retired: they keep their
 * counts, their function's start and name (taken now, while the module's
 * symbols are there), and a new function at the same address gets a slot
 * of its own.
 *
 * Return: how many of @addrs were in the filter.
 */
static unsigned int kft_counter_drop_module(struct kft_counter *c, struct module *mod,
				     const unsigned long *addrs, unsigned int nr)
{
	struct kft_count_table *t = &container_of(c, struct kft_run, counter)->table;
	unsigned int i, dropped = 0;

	for (i = 0; c->attached && i < nr; i++)
		dropped += !kft_ftrace_set_filter_ip(&c->ops, addrs[i], true);
	kft_count_retire_module(t, mod);
	return dropped;
}

static void kft_output_count_status(struct seq_file *m, struct kft_run *run,
				    const struct kft_counters *c)
{
	unsigned long functions, used;
	u64 calls;

	kft_count_totals(&run->table, &calls, &functions, &used);
	seq_printf(m, "\ncounters:\n"
		   "  calls counted %llu\n"
		   "  functions counted %lu\n"
		   "  filtered by context %lu\n"
		   "  filtered by task %lu\n"
		   "  filtered by argument %lu\n"
		   "  not counted, table full %lu\n"
		   "  starts %u\n",
		   calls, functions, c->filtered_ints, c->filtered_task, c->filtered_args,
		   c->table_full, run->starts);
	seq_printf(m, "table: %lu slots, %lu used, %zu bytes\n",
		   kft_count_table_slots(&run->table), used,
		   kft_count_table_bytes(&run->table));
	seq_printf(m, "hooks: ftrace_ops%s\n",
		   run->detached ? ", detached until the next prime" : "");
	seq_puts(m, "mode: count\n");
}

/**
 * kft_output_count_header() - /proc/kft_data of a count-mode run, up to the rows
 * @m:		the seq_file
 * @run:	the run (its configuration)
 * @times:	the run's timeline when the reader opened the file
 * @c:		its counters then
 * @view:	the reader's sums
 */
static void kft_output_count_header(struct seq_file *m, const struct kft_run *run,
			     const struct kft_run_times *times,
			     const struct kft_counters *c,
			     const struct kft_count_view *view)
{
	kft_output_header_common(m, run, times, c);
	seq_printf(m, "\nCounted until %llu usec\n",
		   kft_output_since_boot_us(times, view->taken_ns));
	seq_printf(m, "Number of functions counted = %lu\n", view->nr);
	seq_printf(m, "Number of calls counted = %llu\n\n", view->calls);
	seq_puts(m, "       Count Function           Symbol\n");
	seq_puts(m, "------------ ------------------ ------\n");
}

/**
 * kft_output_count_row() - one function and its count
 * @m:		the seq_file
 * @e:		the function
 * @show_addrs:	false: the address prints as zeros, as /proc/kallsyms does
 */
void kft_output_count_row(struct seq_file *m, const struct kft_count_entry *e,
			  bool show_addrs)
{
	unsigned long func = e->gone_name ? e->ip : kft_output_func_start(e->ip);

	seq_printf(m, "%12llu ", e->count);
	kft_output_addr(m, func, show_addrs);
	seq_putc(m, ' ');
	if (e->gone_name)
		seq_printf(m, "%s (unloaded)\n", e->gone_name);
	else
		seq_printf(m, "%ps\n", (void *)func);
}

static int kft_count_alloc(struct kft_run *run)
{
	const struct kft_config *cfg = &run->cfg;
	bool any_glob = false;
	unsigned int i;

	for (i = 0; i < cfg->nr_funcs; i++)
		any_glob |= cfg->funcs[i].is_glob;
	return kft_count_table_alloc(&run->table, cfg->nr_funcs, any_glob, 1, 0);
}

void kft_count_free(struct kft_run *run)
{
	kft_count_table_free(&run->table);
}

int kft_count_reset(struct kft_run *run)
{
	kft_count_table_reset(&run->table);
	return 0;
}

static int kft_count_attach(struct kft_run *run, struct kft_parse_error *err)
{
	return kft_counter_attach(&run->counter, run, run->cfg.funcs, run->cfg.nr_funcs, err);
}

static void kft_count_detach(struct kft_run *run)
{
	kft_counter_detach(&run->counter);
}

static unsigned int kft_count_drop_module(struct kft_run *run, struct module *mod,
					  const unsigned long *addrs, unsigned int nr)
{
	return kft_counter_drop_module(&run->counter, mod, addrs, nr);
}

/* The counts, locked until summed: the sums and the header are of one run. */
void kft_count_data_take(struct kft_reader *r)
{
	mutex_lock(&r->run->table.sum_lock);
}

int kft_count_data_build(struct kft_reader *r)
{
	int ret = kft_count_view_build(&r->run->table, &r->counts);

	mutex_unlock(&r->run->table.sum_lock);
	return ret;
}

unsigned long kft_count_data_rows(const struct kft_reader *r)
{
	return r->counts.nr;
}

static void kft_count_data_show(struct seq_file *m, struct kft_reader *r, unsigned long i)
{
	if (i == 0)
		kft_output_count_header(m, r->run, &r->times, &r->counters, &r->counts);
	else
		kft_output_count_row(m, &r->counts.entries[i - 1], r->show_addrs);
}

void kft_count_data_free(struct kft_reader *r)
{
	kft_count_view_free(&r->counts);
}

const struct kft_mode kft_mode_count = {
	.name		= "count",
	.no_memory	= KFT_ERR_COUNT_NO_MEMORY,
	.alloc		= kft_count_alloc,
	.free		= kft_count_free,
	.reset		= kft_count_reset,
	.attach		= kft_count_attach,
	.detach		= kft_count_detach,
	.drop_module	= kft_count_drop_module,
	.status		= kft_output_count_status,
	.data_take	= kft_count_data_take,
	.data_build	= kft_count_data_build,
	.data_rows	= kft_count_data_rows,
	.data_show	= kft_count_data_show,
	.data_free	= kft_count_data_free,
};
