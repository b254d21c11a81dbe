// SPDX-License-Identifier: GPL-2.0
/*
 * Histogram mode: per function, how many calls took each power of two of
 * time (bcc's funclatency, bpftrace's hist()). It hooks functions as trace
 * mode does (kft_exit.h: safe or fast hooks, the same filters and
 * triggers), and its traced path is trace mode's (kft_hook_path.h), which
 * counts a kept call in the run's table (kft_count_table.h, KFT_HIST_BUCKETS
 * counters a function, per CPU) instead of logging it. It attaches trace
 * mode's hooks and keeps count mode's table (kft_mode.h); this file has
 * what differs: the table's width and size, and the text of /proc/kft and
 * /proc/kft_data (Documentation/kft.rst, "Histogram mode"). With per-arg,
 * a slot is a function's and a value's of one of its arguments, as in
 * count mode, read at the call's entry (kft_hook_path.h).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/seq_file.h>

#include "kft_mode.h"
#include "kft_output.h"
#include "kft_run.h"

/*
 * The functions a run with a glob or every function can time (per-arg: the
 * pairs of a function and a value): each costs KFT_HIST_BUCKETS counters
 * per CPU (320 bytes), twice over (the table has twice as many slots, so
 * that probing stays short).
 */
static unsigned int histogram_functions = 4096;
module_param(histogram_functions, uint, 0644);
MODULE_PARM_DESC(histogram_functions,
		 "functions a histogram-mode run with a glob or every function can time (default 4096)");

/* The unit of the buckets, as the header and /proc/kft name it. */
static const char *kft_hist_units(const struct kft_config *cfg)
{
	return cfg->units_ns ? "ns" : cfg->units_ms ? "ms" : "us";
}

static void kft_output_hist_status(struct seq_file *m, struct kft_run *run,
				   const struct kft_counters *c)
{
	unsigned long functions, used;
	u64 calls;

	kft_count_totals(&run->table, &calls, &functions, &used);
	seq_printf(m, "\ncounters:\n"
		   "  calls timed %llu\n"
		   "  functions timed %lu\n"
		   "  filtered by time %lu\n"
		   "  filtered by context %lu\n"
		   "  filtered by task %lu\n"
		   "  filtered by return value %lu\n"
		   "  filtered by argument %lu\n"
		   "  exits without entry %lu\n"
		   "  missed %lu\n"
		   "  not counted, table full %lu\n"
		   "  starts %u\n",
		   calls, functions, c->filtered_time, c->filtered_ints, c->filtered_task,
		   c->filtered_retval, c->filtered_args, c->not_found, kft_trace_missed(run), c->table_full,
		   run->starts);
	kft_output_argf_reads(m, run, c);
	seq_printf(m, "table: %lu slots, %lu used, %u buckets of %s each, %zu bytes\n",
		   kft_count_table_slots(&run->table), used, KFT_HIST_BUCKETS,
		   kft_hist_units(&run->cfg), kft_count_table_bytes(&run->table));
	kft_output_sched_status(m, run, c);
	kft_output_trace_hooks(m, run);
	seq_puts(m, "mode: histogram\n");
}

/*
 * /proc/kft_data up to the first function: the common header, when the
 * sums were taken, the unit, how many functions and calls.
 */
static void kft_output_hist_header(struct seq_file *m, const struct kft_run *run,
				   const struct kft_run_times *times,
				   const struct kft_counters *c,
				   const struct kft_count_view *view)
{
	kft_output_header_common(m, run, times, c);
	seq_printf(m, "Entries not found = %lu\n", c->not_found);
	seq_printf(m, "\nTimed until %llu usec\n", kft_output_since_boot_us(times, view->taken_ns));
	seq_printf(m, "Units: %s\n", kft_hist_units(&run->cfg));
	/* kft's addition, only with offcpu: what the buckets count. */
	if (run->cfg.offcpu)
		seq_puts(m, "Time: on the CPU (offcpu)\n");
	seq_printf(m, "Number of functions timed = %lu\n", view->nr);
	seq_printf(m, "Number of calls timed = %llu\n", view->calls);
	/* per-arg: what keys the histograms, and the calls no slot was left for. */
	if (run->cfg.per_arg) {
		seq_printf(m, "Timed per value of argument %u\n", run->cfg.per_arg);
		seq_printf(m, "Calls not counted, table full = %lu\n", c->table_full);
	}
	seq_puts(m, "\n       Count Function           Symbol\n");
	seq_puts(m, "------------ ------------------ ------\n");
}

/*
 * One function (per-arg: one function and value): its line as count
 * mode's (calls, address, name; the value: "argN=V"), then a line per
 * bucket that has calls: "LOW -> HIGH : COUNT", in the units.
 */
static void kft_output_hist_function(struct seq_file *m, const struct kft_count_entry *e,
				     unsigned int per_arg, bool show_addrs)
{
	unsigned int b;
	u64 low, high;

	if (per_arg)
		kft_output_count_value_row(m, e, per_arg, show_addrs);
	else
		kft_output_count_row(m, e, show_addrs);
	for (b = 0; b < KFT_HIST_BUCKETS; b++) {
		if (!e->counters[b])
			continue;
		low = b ? 1ULL << b : 0;
		high = b == KFT_HIST_BUCKETS - 1 ? U64_MAX : (2ULL << b) - 1;
		seq_printf(m, "%20llu -> %-20llu : %llu\n", low, high, e->counters[b]);
	}
}

static int kft_hist_alloc(struct kft_run *run)
{
	const struct kft_config *cfg = &run->cfg;
	bool any_glob = false;
	unsigned int i;

	int ret;

	for (i = 0; i < cfg->nr_funcs; i++)
		any_glob |= cfg->funcs[i].is_glob;
	/*
	 * per-arg: a function has a slot per value, as many as a glob's
	 * (histogram_functions bounds them, and kft_count_table_alloc()
	 * refuses a table over half of what is available).
	 */
	ret = kft_count_table_alloc(&run->table, cfg->nr_funcs, any_glob, KFT_HIST_BUCKETS,
				    max(histogram_functions, 1U), cfg->per_arg);
	if (!ret && cfg->offcpu)
		ret = kft_sched_alloc(&run->sched, false);
	return ret;
}

static void kft_hist_free(struct kft_run *run)
{
	kft_count_free(run);
	kft_sched_free(&run->sched);
}

static int kft_hist_reset(struct kft_run *run)
{
	int ret = kft_count_reset(run);

	if (!ret)
		kft_sched_reset(&run->sched);
	return ret;
}

/*
 * A module that goes away: its functions unhooked (as in a trace), their
 * slots retired (they keep their buckets and name, as count mode's keep
 * their counts).
 */
static unsigned int kft_hist_drop_module(struct kft_run *run, struct module *mod,
					 const unsigned long *addrs, unsigned int nr)
{
	unsigned int dropped = kft_trace_drop_module(run, mod, addrs, nr);

	kft_count_retire_module(&run->table, mod, false);
	return dropped;
}

static void kft_hist_data_show(struct seq_file *m, struct kft_reader *r, unsigned long i)
{
	if (i == 0)
		kft_output_hist_header(m, r->run, &r->times, &r->counters, &r->counts);
	else
		kft_output_hist_function(m, &r->counts.entries[i - 1], r->run->cfg.per_arg,
					 r->show_addrs);
}

const struct kft_mode kft_mode_histogram = {
	.name		= "histogram",
	.no_memory	= KFT_ERR_HIST_NO_MEMORY,
	.alloc		= kft_hist_alloc,
	.free		= kft_hist_free,
	.reset		= kft_hist_reset,
	.attach		= kft_trace_attach,
	.detach		= kft_trace_detach,
	.quiesce	= kft_trace_quiesce,
	.drop_module	= kft_hist_drop_module,
	.status		= kft_output_hist_status,
	.data_take	= kft_count_data_take,
	.data_build	= kft_count_data_build,
	.data_rows	= kft_count_data_rows,
	.data_show	= kft_hist_data_show,
	.data_free	= kft_count_data_free,
};
