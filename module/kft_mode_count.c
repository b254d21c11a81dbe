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
 * The filters every call of a run with them passes before it is counted:
 * the run is counting, and the context and task filters keep the call
 * (those that drop it are counted).
 */
static __always_inline bool kft_count_wanted(struct kft_run *run)
{
	if (READ_ONCE(run->state) != KFT_RUNNING)
		return false;
	return !run->ctx_filter || !kft_run_context_refused(run, !in_task());
}

/* One more call in slot @slot, or one that found no slot (-1). */
static __always_inline void kft_count_in_slot(struct kft_run *run, long slot)
{
	if (unlikely(slot < 0)) {
		this_cpu_inc(run->counters->table_full);
		return;
	}
	kft_count_inc(&run->table, slot);
}

/*
 * Everything but the common case of a run keyed by function: not running,
 * a context or task filter, a function's first call, or a slot away from
 * its first probe.
 */
static notrace noinline void kft_count_slow(struct kft_run *run, unsigned long ip)
{
	if (kft_count_wanted(run))
		kft_count_in_slot(run, kft_count_slot_slow(&run->table, ip));
}
NOKPROBE_SYMBOL(kft_count_slow);

/*
 * Every call of a run with an argument filter: the registers ftrace
 * passed, @fregs (NULL where it passed none: every argument reads as 0).
 * Only such runs pass them: the other runs' path has no use for them.
 */
static notrace noinline void kft_count_argf(struct kft_run *run, unsigned long ip,
					    struct ftrace_regs *fregs)
{
	if (!kft_count_wanted(run) || kft_run_own_call(run))
		return;
	if (!kft_argf_passes(&run->argf, ip, fregs, NULL)) {
		this_cpu_inc(run->counters->filtered_args);
		return;
	}
	kft_count_in_slot(run, kft_count_slot_slow(&run->table, ip));
}
NOKPROBE_SYMBOL(kft_count_argf);

/*
 * Every call of a run per value of an argument (per-arg), its slot keyed
 * by the function and the argument's register in @fregs, as
 * kft_count_argf() reads them.
 */
static notrace noinline void kft_count_value(struct kft_run *run, unsigned long ip,
					     struct ftrace_regs *fregs)
{
	unsigned int n = run->cfg.per_arg - 1;

	if (!kft_count_wanted(run) || kft_run_own_call(run))
		return;
	if (run->argf.nr && !kft_argf_passes(&run->argf, ip, fregs, NULL)) {
		this_cpu_inc(run->counters->filtered_args);
		return;
	}
	/* The parser takes no other argument (nor one read from the stack). */
	if (n >= KFT_ARGS_MAX)
		return;
	kft_count_in_slot(run, kft_count_slot_value(&run->table, ip,
			  fregs ? kft_fregs_argument(fregs, n) : 0));
}
NOKPROBE_SYMBOL(kft_count_value);

/*
 * The traced path. The common case (running, a function seen before, in
 * the first slot it probes) is a state check, a hash, one compare and one
 * this_cpu_inc(); the rest is a tail call. It calls only notrace
 * functions: no recursion. Which variant a run uses is chosen at attach
 * (kft_count_func()), so that the common case tests nothing else: a table
 * of one chunk (up to 4096 slots: lists of up to 1008 names) or more; a
 * context or task filter sends every call the slow way, and a run that
 * reads the registers has a slow way of its own.
 */
static __always_inline void kft_count_fast(struct ftrace_ops *op, unsigned long ip,
					   bool one_chunk)
{
	struct kft_run *run = container_of(op, struct kft_run, counter.ops);
	struct kft_count_table *t = &run->table;
	unsigned long slot;

	if (unlikely(READ_ONCE(run->state) != KFT_RUNNING))
		return;
	slot = kft_count_hash(t, ip);
	/* A plain load: the slot's only write is the claim, long before. */
	if (unlikely(data_race(t->ips[slot]) != ip))
		return kft_count_slow(run, ip);
	if (one_chunk)
		kft_counter_inc(&t->chunk0[slot]);
	else
		kft_count_inc(t, slot);
}

static notrace void kft_count_fn_one_chunk(unsigned long ip, unsigned long parent_ip,
					   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	preempt_disable_notrace();
	kft_count_fast(op, ip, true);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_count_fn_one_chunk);

static notrace void kft_count_fn_chunks(unsigned long ip, unsigned long parent_ip,
					struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	preempt_disable_notrace();
	kft_count_fast(op, ip, false);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_count_fn_chunks);

static notrace void kft_count_fn_filtered(unsigned long ip, unsigned long parent_ip,
					  struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	preempt_disable_notrace();
	kft_count_slow(container_of(op, struct kft_run, counter.ops), ip);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_count_fn_filtered);

static notrace void kft_count_fn_argf(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	preempt_disable_notrace();
	kft_count_argf(container_of(op, struct kft_run, counter.ops), ip, fregs);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_count_fn_argf);

static notrace void kft_count_fn_value(unsigned long ip, unsigned long parent_ip,
				       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	preempt_disable_notrace();
	kft_count_value(container_of(op, struct kft_run, counter.ops), ip, fregs);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_count_fn_value);

static ftrace_func_t kft_count_func(const struct kft_run *run)
{
	if (run->cfg.per_arg)
		return kft_count_fn_value;
	if (run->argf.nr)
		return kft_count_fn_argf;
	if (run->ctx_filter)
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
	/* filter arg and per-arg read the registers that stacks mode unwinds from. */
	if (run->argf.nr || run->cfg.per_arg)
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
	unsigned int dropped = c->attached ? kft_ftrace_drop_ips(&c->ops, addrs, nr) : 0;

	kft_count_retire_module(t, mod, false);
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
	kft_output_argf_reads(m, run, c);
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
	seq_printf(m, "Number of calls counted = %llu\n", view->calls);
	if (run->cfg.per_arg) {
		seq_printf(m, "Counted per value of argument %u\n", run->cfg.per_arg);
		seq_printf(m, "Calls not counted, table full = %lu\n", c->table_full);
	}
	seq_puts(m, "\n       Count Function           Symbol\n");
	seq_puts(m, "------------ ------------------ ------\n");
}

/* A row's count, address and symbol, without the line's end. */
static void kft_output_count_fields(struct seq_file *m, const struct kft_count_entry *e,
				    bool show_addrs)
{
	unsigned long func = e->gone ? e->ip : kft_output_func_start(e->ip);

	seq_printf(m, "%12llu ", e->count);
	kft_output_addr(m, func, show_addrs);
	seq_putc(m, ' ');
	/* (No name kept: not %ps, which names whatever is at the address now.) */
	if (e->gone)
		seq_printf(m, "%s (unloaded)", e->gone_name ?: "?");
	else
		kft_output_symbol(m, func, false, show_addrs);
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
	kft_output_count_fields(m, e, show_addrs);
	seq_putc(m, '\n');
}

/**
 * kft_output_count_value_row() - a function, a value of its argument, their count
 * @m:		the seq_file
 * @e:		the row, a function's calls with one value of the argument
 * @arg:	the argument (per-arg N)
 * @show_addrs:	the reader may see kernel addresses
 *
 * The value is in the last word as args= writes it (hidden from a reader
 * who sees no addresses, unless it is an error or zero). A histogram's
 * first line of a function and value too.
 */
void kft_output_count_value_row(struct seq_file *m, const struct kft_count_entry *e,
				unsigned int arg, bool show_addrs)
{
	kft_output_count_fields(m, e, show_addrs);
	seq_printf(m, " arg%u=", arg);
	kft_output_value(m, e->value, show_addrs);
	seq_putc(m, '\n');
}

static int kft_count_alloc(struct kft_run *run)
{
	const struct kft_config *cfg = &run->cfg;
	bool any_glob = false;
	unsigned int i;

	for (i = 0; i < cfg->nr_funcs; i++)
		any_glob |= cfg->funcs[i].is_glob;
	return kft_count_table_alloc(&run->table, cfg->nr_funcs, any_glob, 1, 0, cfg->per_arg);
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
	else if (r->run->cfg.per_arg)
		kft_output_count_value_row(m, &r->counts.entries[i - 1], r->run->cfg.per_arg,
					   r->show_addrs);
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
