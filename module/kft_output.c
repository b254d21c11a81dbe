// SPDX-License-Identifier: GPL-2.0
/*
 * The text of /proc/kft (a run's state) and /proc/kft_data (its log), in
 * the original KFT's formats (Documentation/kft.rst), with kft's additions
 * after the original lines. Formatting happens here, when read, never on
 * the traced path.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>

#include "kft_run.h"
#include "kft_symbol.h"

static const char *kft_not(bool yes)
{
	return yes ? "" : "not ";
}

static void kft_output_trigger(struct seq_file *m, const char *which,
			       const struct kft_trigger *t)
{
	switch (t->kind) {
	case KFT_TRIGGER_ENTRY:
	case KFT_TRIGGER_EXIT:
		seq_printf(m, "  trigger %s %s %s\n", which,
			   t->kind == KFT_TRIGGER_ENTRY ? "entry" : "exit", t->func.text);
		break;
	case KFT_TRIGGER_TIME:
		seq_printf(m, "  trigger %s time %llu\n", which, t->time_us);
		break;
	default:
		seq_printf(m, "  trigger %s not set\n", which);
	}
}

static void kft_output_config(struct seq_file *m, const struct kft_config *cfg)
{
	unsigned int i;
	int mode = 0;

	if (cfg->start.kind == KFT_TRIGGER_TIME || cfg->stop.kind == KFT_TRIGGER_TIME)
		mode |= 1;
	if (cfg->autorepeat)
		mode |= 2;
	seq_printf(m, "config:\n  mode %d\n", mode);
	kft_output_trigger(m, "start", &cfg->start);
	kft_output_trigger(m, "stop", &cfg->stop);
	if (cfg->mode == KFT_MODE_TRACE)
		seq_printf(m, "  filter mintime %llu\n  filter maxtime %llu\n",
			   cfg->mintime_us, cfg->maxtime_us);
	if (cfg->noints)
		seq_puts(m, "  filter noints\n");
	if (cfg->onlyints)
		seq_puts(m, "  filter onlyints\n");
	if (cfg->has_funclist) {
		seq_puts(m, "  filter funclist");
		for (i = 0; i < cfg->nr_funcs; i++)
			seq_printf(m, " %s", cfg->funcs[i].text);
		seq_puts(m, " fend\n");
	}
	if (cfg->mode == KFT_MODE_TRACE)
		seq_printf(m, "  logentries %lu\n", cfg->logentries);
	if (cfg->autorepeat)
		seq_puts(m, "  autorepeat\n");
}

/* What the run lost to a module unload, if anything. */
static void kft_output_dropped(struct seq_file *m, const struct kft_dropped *d)
{
	if (!d->module[0])
		return;
	seq_printf(m, "dropped: module %s unloaded: traced functions %u, start trigger %s, stop trigger %s\n",
		   d->module, d->functions, d->start_trigger ? "yes" : "no",
		   d->stop_trigger ? "yes" : "no");
}

static void kft_output_trace_status(struct seq_file *m, struct kft_run *run,
				    const struct kft_counters *c)
{
	unsigned long stored = kft_log_stored(&run->log);

	seq_printf(m, "\ncounters:\n"
		   "  entries recorded %lu\n"
		   "  filtered by time %lu\n"
		   "  filtered by context %lu\n"
		   "  exits without entry %lu\n"
		   "  missed %lu\n"
		   "  lost to full log %lu\n"
		   "  starts %u\n",
		   stored, c->filtered_time, c->filtered_ints, c->not_found,
		   kft_run_missed(run), kft_log_lost(&run->log), run->starts);
	seq_printf(m, "log: %lu of %lu entries used, %zu bytes each, %lu bytes\n",
		   stored, run->log.capacity, sizeof(struct kft_record),
		   run->log.capacity * sizeof(struct kft_record));
	seq_printf(m, "hooks: %s%s\n", KFT_HAVE_FPROBE ? "fprobe" : "kretprobes",
		   run->detached ? ", detached until the next prime" : "");
	seq_puts(m, "mode: trace\n");
}

static void kft_output_count_status(struct seq_file *m, struct kft_run *run,
				    const struct kft_counters *c)
{
	unsigned long calls, functions, used;

	kft_count_totals(&run->table, &calls, &functions, &used);
	seq_printf(m, "\ncounters:\n"
		   "  calls counted %lu\n"
		   "  functions counted %lu\n"
		   "  filtered by context %lu\n"
		   "  not counted, table full %lu\n"
		   "  starts %u\n",
		   calls, functions, c->filtered_ints, c->table_full, run->starts);
	seq_printf(m, "table: %lu slots, %lu used, %zu bytes\n",
		   kft_count_table_slots(&run->table), used,
		   kft_count_table_bytes(&run->table));
	seq_printf(m, "hooks: ftrace_ops%s\n",
		   run->detached ? ", detached until the next prime" : "");
	seq_puts(m, "mode: count\n");
}

/**
 * kft_output_status() - /proc/kft for a run
 * @m:		the seq_file
 * @run:	the run (kft_mutex held)
 */
void kft_output_status(struct seq_file *m, struct kft_run *run)
{
	int state = READ_ONCE(run->state);
	bool primed = state != KFT_CONFIGURED;
	bool running = state == KFT_RUNNING || state == KFT_STOPPING;
	bool complete = state == KFT_COMPLETE;
	struct kft_counters c;

	seq_printf(m, "status: run id %u, %sprimed, %striggered, %scomplete\n\n",
		   run->id, kft_not(primed),
		   kft_not(running || (complete && run->starts)), kft_not(complete));
	kft_output_config(m, &run->cfg);

	kft_run_sum_counters(run, &c);
	if (run->cfg.mode == KFT_MODE_COUNT)
		kft_output_count_status(m, run, &c);
	else
		kft_output_trace_status(m, run, &c);
	kft_output_dropped(m, &run->dropped);
}

static void kft_output_reason(struct seq_file *m, const struct kft_run *run,
			      const struct kft_run_times *times, bool start)
{
	const struct kft_trigger *t = start ? &run->cfg.start : &run->cfg.stop;
	int why = start ? times->start_reason : times->stop_reason;

	switch (why) {
	case KFT_REASON_USER:
		seq_puts(m, "user action");
		break;
	case KFT_REASON_TIME:
		seq_printf(m, "time at %llu usec from %s", t->time_us,
			   start ? "boot" : "start trigger");
		break;
	case KFT_REASON_ENTRY:
		seq_printf(m, "entry to function %s", t->func.text);
		break;
	case KFT_REASON_EXIT:
		seq_printf(m, "exit from function %s", t->func.text);
		break;
	case KFT_REASON_LOG_FULL:
		seq_puts(m, "log full");
		break;
	}
}

/* A kft_now() time as CLOCK_MONOTONIC microseconds, like the triggers. */
static u64 kft_output_since_boot_us(const struct kft_run_times *times, u64 t)
{
	s64 mono = (s64)t + times->mono_offset_ns;

	return mono > 0 ? div_u64(mono, NSEC_PER_USEC) : 0;
}

/* The header lines trace and count mode share, down to the filter counts. */
static void kft_output_header_common(struct seq_file *m, const struct kft_run *run,
				     const struct kft_run_times *times,
				     const struct kft_counters *c)
{
	const struct kft_config *cfg = &run->cfg;

	seq_printf(m, "\nKernel Instrumentation Run ID %u\n\n", run->id);
	if (times->start_reason) {
		seq_printf(m, "Logging started at %llu usec by ",
			   kft_output_since_boot_us(times, times->start_ns));
		kft_output_reason(m, run, times, true);
		seq_putc(m, '\n');
	} else {
		seq_puts(m, "Logging not started\n");
	}
	if (times->stop_reason && !times->running) {
		seq_printf(m, "Logging stopped at %llu usec by ",
			   kft_output_since_boot_us(times, times->stop_ns));
		kft_output_reason(m, run, times, false);
		seq_putc(m, '\n');
	} else {
		seq_puts(m, "Logging not stopped\n");
	}

	seq_puts(m, "\nFilter Counters:\n\n");
	if (cfg->mintime_us || cfg->maxtime_us)
		seq_printf(m, "Execution time filter count = %lu\n", c->filtered_time);
	if (cfg->noints)
		seq_printf(m, "No Interrupt functions filter count = %lu\n", c->filtered_ints);
	if (cfg->onlyints)
		seq_printf(m, "Only Interrupt functions filter count = %lu\n", c->filtered_ints);
	seq_printf(m, "Total entries filtered = %lu\n", c->filtered_time + c->filtered_ints);
}

/**
 * kft_output_log_header() - /proc/kft_data up to the rows
 * @m:		the seq_file
 * @run:	the run (its configuration)
 * @times:	the run's timeline when the reader opened the file
 * @c:		its counters then
 * @rows:	how many rows follow
 */
void kft_output_log_header(struct seq_file *m, const struct kft_run *run,
			   const struct kft_run_times *times,
			   const struct kft_counters *c, unsigned long rows)
{
	kft_output_header_common(m, run, times, c);
	seq_printf(m, "Entries not found = %lu\n", c->not_found);
	seq_printf(m, "\nNumber of entries after filters = %lu\n\n", rows);
	seq_puts(m, " Entry    Delta     PID        Function                        Caller\n");
	seq_puts(m, "-------- -------- -------- ----------------                 ------------\n");
}

/*
 * The hooks see the ftrace location, which with IBT is 4 bytes into the
 * function: the log shows the function's own address, as the original did.
 */
static unsigned long kft_function_start(unsigned long ip)
{
	unsigned long off;

	if (kft_symbol_offset(ip, &off) || off > 16)
		return ip;
	return ip - off;
}

/**
 * kft_output_log_row() - one call
 * @m:		the seq_file
 * @times:	the run's timeline (rows are relative to its first start)
 * @rec:	the record
 * @show_addrs:	false: addresses print as zeros, as /proc/kallsyms does
 */
void kft_output_log_row(struct seq_file *m, const struct kft_run_times *times,
			const struct kft_record *rec, bool show_addrs)
{
	u64 dur = kft_rec_dur(rec);
	s64 delta = dur == KFT_REC_DUR_OPEN ? -1 : (s64)div_u64(dur, NSEC_PER_USEC);
	u64 rel = rec->entry_ns > times->first_start_ns ?
		  rec->entry_ns - times->first_start_ns : 0;
	unsigned long caller = rec->caller_off == KFT_REC_CALLER_UNKNOWN ?
			       0 : rec->func + rec->caller_off;
	unsigned long func = show_addrs ? kft_function_start(rec->func) : 0;
	char pid[24];

	if (!show_addrs)
		caller = 0;
	snprintf(pid, sizeof(pid), "%d.%u", rec->pid, kft_rec_cpu(rec));
	seq_printf(m, "%8llu %8lld %8s  0x%016lx               0x%016lx\n",
		   div_u64(rel, NSEC_PER_USEC), delta, pid, func, caller);
}

/**
 * kft_output_count_header() - /proc/kft_data of a count-mode run, up to the rows
 * @m:		the seq_file
 * @run:	the run (its configuration)
 * @times:	the run's timeline when the reader opened the file
 * @c:		its counters then
 * @view:	the reader's sums
 */
void kft_output_count_header(struct seq_file *m, const struct kft_run *run,
			     const struct kft_run_times *times,
			     const struct kft_counters *c,
			     const struct kft_count_view *view)
{
	kft_output_header_common(m, run, times, c);
	seq_printf(m, "\nCounted until %llu usec\n",
		   kft_output_since_boot_us(times, view->taken_ns));
	seq_printf(m, "Number of functions counted = %lu\n", view->nr);
	seq_printf(m, "Number of calls counted = %lu\n\n", view->calls);
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
	unsigned long func = e->gone_name ? e->ip : kft_function_start(e->ip);

	seq_printf(m, "%12lu 0x%016lx ", e->count, show_addrs ? func : 0);
	if (e->gone_name)
		seq_printf(m, "%s (unloaded)\n", e->gone_name);
	else
		seq_printf(m, "%ps\n", (void *)func);
}
