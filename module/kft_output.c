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
#include <linux/utsname.h>

#include "kft_run.h"
#include "kft_symbol.h"

static unsigned long kft_function_start(unsigned long ip);

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

/* The statements of issue 11's modes, when given. */
static void kft_output_stacks_config(struct seq_file *m, const struct kft_config *cfg)
{
	if (cfg->watch)
		seq_printf(m, "  watch %s %lu\n",
			   cfg->watch == KFT_WATCH_WORST ? "worst-stack" : "stack",
			   cfg->watch_bytes);
	if (cfg->mode == KFT_MODE_PROFILE)
		seq_printf(m, "  sample %u\n", cfg->sample_hz);
	if (cfg->include_idle)
		seq_puts(m, "  include idle\n");
	if (cfg->per_process)
		seq_puts(m, "  per-process\n");
	if (cfg->filter_pid)
		seq_printf(m, "  filter pid %d\n", cfg->filter_pid);
	if (cfg->filter_tid)
		seq_printf(m, "  filter tid %d\n", cfg->filter_tid);
	if (cfg->filter_cpu >= 0)
		seq_printf(m, "  filter cpu %d\n", cfg->filter_cpu);
	if (cfg->filter_comm[0])
		seq_printf(m, "  filter comm %s\n", cfg->filter_comm);
	if (cfg->snoop)
		seq_printf(m, "  snoop %lu\n", cfg->snoop);
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
	if (cfg->mode != KFT_MODE_COUNT)
		seq_printf(m, "  logentries %lu\n", cfg->logentries);
	if (cfg->autorepeat)
		seq_puts(m, "  autorepeat\n");
	if (cfg->units_ns)
		seq_puts(m, "  units ns\n");
	kft_output_stacks_config(m, cfg);
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

static const char *const kft_stack_kind_names[] = {
	[KFT_STACK_TASK] = "task stack",
	[KFT_STACK_IRQ] = "irq stack",
	[KFT_STACK_OTHER] = "other stack",
};

/* The lowest stack a watch saw, and where. */
static void kft_output_watch_status(struct seq_file *m, struct kft_run *run,
				    const struct kft_counters *c)
{
	const struct kft_watch *w = &run->watch;
	unsigned long left = READ_ONCE(w->low.left);

	if (!run->cfg.watch)
		return;
	seq_printf(m, "watch: %s, threshold %lu bytes, ",
		   run->cfg.watch == KFT_WATCH_WORST ? "worst-stack" : "stack",
		   READ_ONCE(w->threshold));
	if (left == ULONG_MAX)
		seq_puts(m, "lowest none yet");
	else
		seq_printf(m, "lowest %lu bytes left at %pS (pid %d, CPU %u, %s)", left,
			   (void *)kft_function_start(READ_ONCE(w->low.func)),
			   READ_ONCE(w->low.pid), READ_ONCE(w->low.cpu),
			   kft_stack_kind_names[READ_ONCE(w->low.kind) & 3]);
	seq_printf(m, ", snapshots %lu, skipped %lu\n", c->watch_snapshots, c->watch_skipped);
}

static void kft_output_trace_status(struct seq_file *m, struct kft_run *run,
				    const struct kft_counters *c)
{
	unsigned long stored = kft_log_stored(&run->log);

	seq_printf(m, "\ncounters:\n"
		   "  entries recorded %lu\n"
		   "  filtered by time %lu\n"
		   "  filtered by context %lu\n"
		   "  filtered by task %lu\n"
		   "  exits without entry %lu\n"
		   "  missed %lu\n"
		   "  lost to full log %lu\n"
		   "  starts %u\n",
		   stored, c->filtered_time, c->filtered_ints, c->filtered_task, c->not_found,
		   kft_run_missed(run), kft_log_lost(&run->log), run->starts);
	seq_printf(m, "log: %lu of %lu entries used, %zu bytes each, %lu bytes\n",
		   stored, run->log.capacity, sizeof(struct kft_record),
		   run->log.capacity * sizeof(struct kft_record));
	seq_printf(m, "names: %lu slots, %lu bytes, %lu lost\n",
		   kft_comms_bytes(&run->log.buf->comms) / sizeof(struct kft_comm_slot),
		   kft_comms_bytes(&run->log.buf->comms), kft_comms_lost(&run->log.buf->comms));
	kft_output_watch_status(m, run, c);
	seq_printf(m, "hooks: %s%s\n",
		   run->cfg.hooks == KFT_HOOKS_FAST ? "fast" :
		   KFT_HAVE_FPROBE ? "fprobe" : "kretprobes",
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
		   "  filtered by task %lu\n"
		   "  not counted, table full %lu\n"
		   "  starts %u\n",
		   calls, functions, c->filtered_ints, c->filtered_task, c->table_full, run->starts);
	seq_printf(m, "table: %lu slots, %lu used, %zu bytes\n",
		   kft_count_table_slots(&run->table), used,
		   kft_count_table_bytes(&run->table));
	seq_printf(m, "hooks: ftrace_ops%s\n",
		   run->detached ? ", detached until the next prime" : "");
	seq_puts(m, "mode: count\n");
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
		seq_printf(m, "  unwound from kft's own frame %lu\n", c->slow_unwinds);
	if (run->snoop.size)
		seq_printf(m, "  snoop events lost %lu\n", c->snoop_lost);
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
	else if (run->cfg.mode == KFT_MODE_TRACE)
		kft_output_trace_status(m, run, &c);
	else
		kft_output_stacks_status(m, run, &c);
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
	case KFT_REASON_BOOT:
		seq_puts(m, "boot (static run)");
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

	seq_printf(m, "\nKernel Instrumentation Run ID %u\n", run->id);
	/* kft's addition: whose addresses these are (the tools check their map). */
	seq_printf(m, "Kernel: %s\n\n", utsname()->release);
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
	/* kft's addition, only with units ns: old parsers would read us. */
	if (times->units_ns)
		seq_puts(m, "Units: ns\n\n");
	seq_puts(m, " Entry    Delta     PID        Function                        Caller              Comm\n");
	seq_puts(m, "-------- -------- -------- ----------------                 ------------        ----\n");
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

/*
 * A task's name (at most @len bytes) as one word: a byte that would split
 * or hide it (white space, a control byte, a backslash) as \ooo, as
 * /proc/PID/mountinfo does. Any user names its tasks: raw, a name could
 * forge lines of root's log ("x\nstack 999999 ") or write terminal escapes.
 */
static void kft_output_name(struct seq_file *m, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < len && name[i]; i++) {
		if (name[i] <= ' ' || name[i] >= 0x7f || name[i] == '\\')
			seq_printf(m, "\\%03o", (unsigned char)name[i]);
		else
			seq_putc(m, name[i]);
	}
}

/* The task's name of a trace row, or "-" for an interrupt's. */
static void kft_output_comm(struct seq_file *m, const struct kft_comms *comms,
			    const struct kft_record *rec)
{
	char buf[KFT_COMM_LEN];

	if (rec->pid < 0) {
		seq_puts(m, " -");
		return;
	}
	seq_putc(m, ' ');
	kft_output_name(m, kft_comms_find(comms, rec->pid, rec->entry_ns, buf), KFT_COMM_LEN);
}

/**
 * kft_output_log_row() - one call
 * @m:		the seq_file
 * @times:	the run's timeline (rows are relative to its first start)
 * @comms:	the task names of the log the record is in
 * @rec:	the record
 * @show_addrs:	false: addresses print as zeros, as /proc/kallsyms does
 */
void kft_output_log_row(struct seq_file *m, const struct kft_run_times *times,
			const struct kft_comms *comms, const struct kft_record *rec,
			bool show_addrs)
{
	u64 dur = kft_rec_dur(rec);
	bool stack = kft_rec_is_stack(rec);
	u32 unit = times->units_ns ? 1 : NSEC_PER_USEC;
	s64 delta = stack ? -2 : dur == KFT_REC_DUR_OPEN ? -1 : (s64)div_u64(dur, unit);
	u64 rel = rec->entry_ns > times->first_start_ns ?
		  rec->entry_ns - times->first_start_ns : 0;
	unsigned long caller = rec->caller_off == KFT_REC_CALLER_UNKNOWN ?
			       0 : rec->func + rec->caller_off;
	bool first = !stack || (rec->info & KFT_REC_STACK_FIRST);
	/* A stack row after the first is a return address: as it is. */
	unsigned long func = first ? kft_function_start(rec->func) : rec->func;
	char pid[24];

	if (!show_addrs)
		func = caller = 0;
	snprintf(pid, sizeof(pid), "%d.%u", rec->pid, kft_rec_cpu(rec));
	seq_printf(m, "%8llu %8lld %8s  0x%016lx               0x%016lx",
		   div_u64(rel, unit), delta, pid, func, caller);
	kft_output_comm(m, comms, rec);
	if (stack && first)
		seq_printf(m, " left=%llu", dur);
	seq_putc(m, '\n');
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
void kft_output_stacks_header(struct seq_file *m, const struct kft_run *run,
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
	}
}

/*
 * @ip as %pS prints it, but for an address in no symbol (a frame of a
 * module unloaded since, BPF code not in kallsyms): %pS prints that one
 * raw, which a reader without CAP_SYSLOG may not see (the address column
 * prints zeros for them). "[unknown]" then, as perf says.
 */
static void kft_output_symbol(struct seq_file *m, unsigned long ip, bool show_addrs)
{
	char sym[KSYM_SYMBOL_LEN];

	sprint_symbol(sym, ip);
	/* sprint_symbol() prints a bare "0x..." only for an address in no symbol. */
	if (!show_addrs && !strncmp(sym, "0x", 2))
		seq_puts(m, "[unknown]");
	else
		seq_puts(m, sym);
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
		ip = i == 0 && traced_first ? kft_function_start(frames[0]) : frames[i];
		seq_printf(m, "  0x%016lx ", show_addrs ? ip : 0);
		kft_output_symbol(m, ip, show_addrs);
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
void kft_output_stack(struct seq_file *m, const struct kft_run *run,
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
 * @show_addrs:	false: addresses print as zeros
 */
void kft_output_snoop_event(struct seq_file *m, const struct kft_run_times *times,
			    const struct kft_stack_view *view,
			    const struct kft_snoop_event *ev, bool show_addrs)
{
	const struct kft_stack_ref *ref = NULL;

	seq_printf(m, "\nevent %llu %u %d ", kft_output_since_boot_us(times, ev->time_ns),
		   ev->cpu, ev->pid);
	kft_output_name(m, ev->comm, TASK_COMM_LEN);
	seq_putc(m, '\n');
	if (ev->slot != KFT_STACK_NONE && view->slot_frames)
		ref = &view->slot_frames[ev->slot];
	if (ref && ref->nr)
		kft_output_frames(m, view->frames + ref->first, ref->nr, true, show_addrs);
}
