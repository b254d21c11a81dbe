// SPDX-License-Identifier: GPL-2.0
/*
 * Trace mode: a log of calls with their durations, KFT's own mode. Its
 * traced path is in kft_hook_path.h, inline in the handlers of the exit
 * mechanism the run attaches (kft_exit.h); a stack watch adds
 * kft_watch.c's snapshots to the log. This file: what a trace run
 * allocates and attaches, and its text in /proc/kft and /proc/kft_data.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kft_ftrace.h"
#include "kft_log_ring.h"
#include "kft_mode.h"
#include "kft_output.h"
#include "kft_region.h"
#include "kft_run.h"

/* Calls the exit mechanism missed: the traced functions' and the exit triggers'. */
unsigned long kft_trace_missed(struct kft_run *run)
{
	return kft_fhook_missed(&run->trace) + kft_fhook_missed(&run->start_exit) +
	       kft_fhook_missed(&run->stop_exit);
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
	else {
		seq_printf(m, "lowest %lu bytes left at ", left);
		kft_output_symbol(m, kft_output_func_start(READ_ONCE(w->low.func)), true,
				  kft_output_may_show_addrs(m->file));
		seq_printf(m, " (pid %d, CPU %u, %s)", READ_ONCE(w->low.pid),
			   READ_ONCE(w->low.cpu), kft_stack_kind_names[READ_ONCE(w->low.kind) & 3]);
	}
	seq_printf(m, ", snapshots %lu, skipped %lu\n", c->watch_snapshots, c->watch_skipped);
}

void kft_output_trace_hooks(struct seq_file *m, const struct kft_run *run)
{
	seq_printf(m, "hooks: %s%s\n",
		   run->cfg.hooks == KFT_HOOKS_FAST ? "fast" :
		   KFT_HAVE_FPROBE ? "fprobe" : "kretprobes",
		   run->detached ? ", detached until the next prime" : "");
}

/* offcpu's table (a trace's or a histogram's) and wakers'. */
void kft_output_sched_status(struct seq_file *m, const struct kft_run *run,
			     const struct kft_counters *c)
{
	if (run->sched.slots)
		seq_printf(m, "offcpu: %u tasks, %d followed now, %lu calls of tasks not followed\n",
			   run->sched.tasks, atomic_read(&run->sched.owned), c->sched_missed);
	if (run->sched.wakes)
		seq_printf(m, "wakers: %lu wakeups held, %u frames each at most\n",
			   c->wakes_held, KFT_WAKE_FRAMES);
}

/* filter roots: the subtrees kept, what did not fit, and the holding space. */
static void kft_output_roots_status(struct seq_file *m, const struct kft_run *run,
				    const struct kft_counters *c)
{
	const struct kft_hold *h = &run->hold;

	if (!h->slots)
		return;
	seq_printf(m, "roots: %lu subtrees kept, %lu calls cut from them, %lu root calls not held\n",
		   c->roots_kept, c->hold_cut, c->hold_missed);
	seq_printf(m, "holding: %u tasks of %u entries, %zu bytes, %d held now\n",
		   h->tasks, h->entries, kft_hold_bytes(h), atomic_read(&h->owned));
}

static void kft_output_trace_status(struct seq_file *m, struct kft_run *run,
				    const struct kft_counters *c)
{
	unsigned long stored = kft_log_stored(&run->log);
	size_t each = sizeof(struct kft_record) + (run->log.sched ? sizeof(struct kft_rec_sched) : 0) +
		      (run->log.args ? sizeof(struct kft_rec_args) : 0) +
		      (run->log.strs ? sizeof(struct kft_rec_str) : 0);

	seq_printf(m, "\ncounters:\n"
		   "  entries recorded %lu\n"
		   "  filtered by time %lu\n"
		   "  filtered by context %lu\n"
		   "  filtered by task %lu\n"
		   "  filtered by return value %lu\n"
		   "  filtered by argument %lu\n"
		   "  exits without entry %lu\n"
		   "  missed %lu\n"
		   "  lost to full log %lu\n"
		   "  starts %u\n",
		   stored, c->filtered_time, c->filtered_ints, c->filtered_task,
		   c->filtered_retval, c->filtered_args, c->not_found,
		   kft_trace_missed(run), kft_log_lost(&run->log), run->starts);
	kft_output_argf_reads(m, run, c);
	if (run->log.ring.tags) {
		each += sizeof(u32);
		seq_printf(m, "log: %s of %lu entries a CPU, %u CPUs, %lu held, %zu bytes each, %lu bytes%s\n",
			   run->log.ring.stream ? "stream" : "ring", 1UL << run->log.ring.shift,
			   nr_cpu_ids, stored, each, run->log.capacity * each,
			   run->log.ring.in_region ? ", in the kft region" : "");
	}
	if (run->log.ring.stream) {
		seq_printf(m, "stream: %lu calls read, %llu lost\n",
			   READ_ONCE(run->log.buf->stream_read), kft_counters_skipped(c));
	} else if (run->log.ring.tags) {
		seq_printf(m, "ring: %lu calls overwritten, %llu lost to slots in use%s\n",
			   kft_ring_overwritten(&run->log.ring), kft_counters_skipped(c),
			   run->warn_entry.attached ? ", warnings freeze it" : run->detached ? "" :
			   ", warnings do not freeze it (__warn not hooked)");
	} else {
		seq_printf(m, "log: %lu of %lu entries used, %zu bytes each, %lu bytes\n",
			   stored, run->log.capacity, each, run->log.capacity * each);
	}
	seq_printf(m, "names: %lu slots, %lu bytes, %lu lost\n",
		   kft_comms_bytes(&run->log.buf->comms) / sizeof(struct kft_comm_slot),
		   kft_comms_bytes(&run->log.buf->comms), kft_comms_lost(&run->log.buf->comms));
	kft_output_roots_status(m, run, c);
	kft_output_sched_status(m, run, c);
	kft_output_watch_status(m, run, c);
	if (run->log.args)
		seq_printf(m, "args: %u registers a call\n", KFT_ARGS_MAX);
	if (run->log.strs && run->cfg.mem_len)
		seq_printf(m, "args struct: the %u bytes of kernel memory argument %u points to\n",
			   run->cfg.mem_len, run->cfg.str_arg);
	else if (run->log.strs)
		seq_printf(m, "args string: the %s string argument %u points to, %u bytes at most\n",
			   run->cfg.str_user ? "user" : "kernel", run->cfg.str_arg, KFT_STR_LEN);
	kft_output_trace_hooks(m, run);
	seq_puts(m, "mode: trace\n");
}

/* A stream run's calls lost on @cpu (none on a CPU that cannot exist). */
static u64 kft_stream_lost_on(const struct kft_run *run, unsigned int cpu)
{
	return cpu_possible(cpu) ? kft_counters_skipped(per_cpu_ptr(run->counters, cpu)) : 0;
}

/*
 * A stream's header lines: its size, and the calls lost because the
 * reader fell behind since the start, each CPU's (CPU 0 first, a count
 * for each number below nr_cpu_ids: a CPU that cannot exist, where the
 * possible ones have gaps, lost none), then their sum: each count read
 * once, so that the two agree. @lost_at_open: the counts when the reader
 * opened the file (a prime since has zeroed the run's, for the calls of
 * another buffer), or NULL for now.
 */
static void kft_output_stream_lost(struct seq_file *m, const struct kft_run *run,
				   const struct kft_ring *ring, const u64 *lost_at_open)
{
	u64 lost, sum = 0;
	unsigned int cpu;

	seq_printf(m, "Log stream = %lu entries a CPU\nCalls lost per CPU =", 1UL << ring->shift);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		lost = lost_at_open ? lost_at_open[cpu] : kft_stream_lost_on(run, cpu);
		seq_printf(m, " %llu", lost);
		sum += lost;
	}
	seq_printf(m, "\nCalls lost = %llu\n", sum);
}

/* The log's column heads, the header's last lines. */
void kft_trace_show_columns(struct seq_file *m)
{
	seq_puts(m, " Entry    Delta     PID        Function                        Caller              Comm             Return\n");
	seq_puts(m, "-------- -------- -------- ----------------                 ------------        ----             ------\n");
}

/* A ring's calls overwritten (a linear log's, a stream's: none). */
static unsigned long kft_trace_overwritten(const struct kft_log_buf *buf)
{
	return buf->ring.tags ? kft_ring_overwritten(&buf->ring) : 0;
}

/**
 * kft_output_log_header() - /proc/kft_data up to the rows
 * @m:		the seq_file
 * @run:	the run (its configuration)
 * @times:	the run's timeline when the reader opened the file
 * @c:		its counters then
 * @buf:	the log's buffer the rows are of (a prime since the open
 *		moved the run to another)
 * @overwritten: a ring's calls overwritten then
 * @stream_lost: a stream's calls lost per CPU then, or NULL for now
 * @rows:	how many rows follow
 */
static void kft_output_log_header(struct seq_file *m, const struct kft_run *run,
				  const struct kft_run_times *times, const struct kft_counters *c,
				  const struct kft_log_buf *buf, unsigned long overwritten,
				  const u64 *stream_lost, unsigned long rows)
{
	const struct kft_ring *ring = &buf->ring;

	kft_output_header_common(m, run, times, c);
	seq_printf(m, "Entries not found = %lu\n", c->not_found);
	/* kft's addition, only with log ring or log stream. */
	if (ring->stream)
		kft_output_stream_lost(m, run, ring, stream_lost);
	else if (ring->tags)
		seq_printf(m, "Log ring = %lu entries a CPU\nCalls overwritten = %lu\nCalls lost to slots in use = %llu\n",
			   1UL << ring->shift, overwritten, kft_counters_skipped(c));
	/* kft's addition, only with filter roots. */
	if (run->cfg.nr_roots)
		seq_printf(m, "Root calls kept = %lu\nCalls cut from kept roots = %lu\nRoot calls not held = %lu\n",
			   c->roots_kept, c->hold_cut, c->hold_missed);
	seq_printf(m, "\nNumber of entries after filters = %lu\n\n", rows);
	/* kft's addition, only with units ns: old parsers would read us. */
	if (times->units_ns)
		seq_puts(m, "Units: ns\n\n");
	/* kft's addition, only with offcpu. */
	if (run->cfg.offcpu)
		seq_printf(m, "Calls of tasks offcpu did not follow = %lu\n\n", c->sched_missed);
	kft_trace_show_columns(m);
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

/* A call's return value (kft's column after the comm); "-" for a call whose exit was not seen. */
static void kft_output_retval(struct seq_file *m, const struct kft_record *rec,
			      bool show_addrs)
{
	seq_putc(m, ' ');
	if (kft_rec_dur(rec) == KFT_REC_DUR_OPEN)
		seq_putc(m, '-');
	else
		kft_output_value(m, rec->retval, show_addrs);
}

/*
 * offcpu: a call's time on the CPU, runnable and blocked, in the log's
 * unit, as words of their own after the return value (name=value, as a
 * stack watch's left=N: parsers that split on blanks keep their columns).
 * On the CPU is the rest of the duration (clocks read a little apart can
 * make the times off it exceed the duration by a few ns: then 0).
 */
static void kft_output_sched(struct seq_file *m, const struct kft_rec_sched *sched, u64 dur,
			     u32 unit)
{
	u64 off = sched->runnable_ns + sched->blocked_ns;

	seq_printf(m, " oncpu=%llu runnable=%llu blocked=%llu",
		   div_u64(dur > off ? dur - off : 0, unit), div_u64(sched->runnable_ns, unit),
		   div_u64(sched->blocked_ns, unit));
}

/*
 * wakers: the first row of a wakeup, after the sleeper's name: the waking
 * task's pid and name ("-" for an interrupt), and how long the sleep was.
 */
static void kft_output_waker(struct seq_file *m, const struct kft_record *rec,
			     const struct kft_rec_sched *sched, u32 unit)
{
	s32 pid = (s32)rec->retval;

	seq_printf(m, " waker=%d wcomm=", pid);
	if (pid < 0 || !sched)
		seq_putc(m, '-');
	else
		kft_output_name(m, (const char *)sched->waker_comm, sizeof(sched->waker_comm));
	seq_printf(m, " slept=%llu", div_u64(kft_rec_dur(rec), unit));
}

/*
 * A copy of a record that may be closed while read (reserved at entry):
 * its info first, then what was written before it (kft_record_close()).
 */
static struct kft_record kft_output_rec_copy(const struct kft_record *r)
{
	u64 info = kft_rec_load_info(r);
	struct kft_record copy = *r;

	copy.info = info;
	return copy;
}

/* What a log keeps beside a record, for its row. */
struct kft_row_side {
	const struct kft_rec_sched *sched;	/* offcpu's times, or NULL */
	const struct kft_rec_args *args;	/* args, or NULL */
	const struct kft_rec_str *str;		/* args string, or NULL */
	unsigned int str_arg;			/* the argument it points to */
	unsigned int mem_len;			/* args struct: its bytes; 0: a string */
};

/**
 * kft_output_log_row() - one call
 * @m:		the seq_file
 * @times:	the run's timeline (rows are relative to its first start)
 * @comms:	the task names of the log the record is in
 * @r:		the record
 * @side:	what the log keeps beside it, or NULL
 * @show_addrs:	false: addresses print as zeros, as /proc/kallsyms does
 */
static void kft_output_log_row(struct seq_file *m, const struct kft_run_times *times,
			       const struct kft_comms *comms, const struct kft_record *r,
			       const struct kft_row_side *side, bool show_addrs)
{
	const struct kft_rec_sched *sched = side ? side->sched : NULL;
	const struct kft_rec_args *args = side ? side->args : NULL;
	const struct kft_record copy = kft_output_rec_copy(r), *rec = &copy;
	u64 dur = kft_rec_dur(rec);
	bool stack = kft_rec_is_stack(rec), wake = kft_rec_is_wake(rec);
	u32 unit = times->units_ns ? 1 : NSEC_PER_USEC;
	s64 delta = stack ? -2 : wake ? -3 : dur == KFT_REC_DUR_OPEN ? -1 :
		    (s64)div_u64(dur, unit);
	u64 rel = rec->entry_ns > times->first_start_ns ?
		  rec->entry_ns - times->first_start_ns : 0;
	unsigned long caller = rec->caller_off == KFT_REC_CALLER_UNKNOWN ?
			       0 : rec->func + rec->caller_off;
	bool first = !(stack || wake) || (rec->info & KFT_REC_FIRST);
	/* A stack row after the first, and a wakeup's, is a return address: as it is. */
	unsigned long func = first && !wake ? kft_output_func_start(rec->func) : rec->func;
	char pid[24];

	snprintf(pid, sizeof(pid), "%d.%u", rec->pid, kft_rec_cpu(rec));
	seq_printf(m, "%8llu %8lld %8s  ", div_u64(rel, unit), delta, pid);
	kft_output_addr(m, func, show_addrs);
	seq_puts(m, "               ");
	kft_output_addr(m, caller, show_addrs);
	kft_output_comm(m, comms, rec);
	if (wake) {
		if (first)
			kft_output_waker(m, rec, sched, unit);
	} else if (stack && first) {
		seq_printf(m, " left=%llu", dur);
	} else if (!stack) {
		kft_output_retval(m, rec, show_addrs);
	}
	if (sched && !stack && !wake && dur != KFT_REC_DUR_OPEN)
		kft_output_sched(m, sched, dur, unit);
	if (args && !stack && !wake)
		kft_output_args(m, args, show_addrs);
	if (side && side->str && !stack && !wake)
		kft_str_show(m, side->str, side->str_arg, side->mem_len, show_addrs);
	if (kft_rec_is_cut(rec))
		seq_puts(m, " cut");
	seq_putc(m, '\n');
}

/**
 * kft_trace_show_row() - one call of a log with no offcpu times
 * @m:		the seq_file
 * @times:	the rows' first start and units
 * @comms:	the task names of the log the record is in
 * @rec:	the record
 * @show_addrs:	false: addresses print as zeros
 */
void kft_trace_show_row(struct seq_file *m, const struct kft_run_times *times,
			const struct kft_comms *comms, const struct kft_record *rec,
			bool show_addrs)
{
	kft_output_log_row(m, times, comms, rec, NULL, show_addrs);
}

/*
 * The kernel log's lines of a text the log's own functions wrote into @m
 * (a buffer of the caller's): each after "kft: | ", as kd reads them back
 * from a saved console. Emptied after.
 */
static void kft_trace_print_lines(struct seq_file *m)
{
	char *line = m->buf, *end = m->buf + min(m->count, m->size - 1), *nl;

	*end = '\0';
	for (; line < end; line = nl + 1) {
		nl = strchrnul(line, '\n');
		*nl = '\0';
		pr_emerg("| %s\n", line);
		if (nl >= end)
			break;
	}
	m->count = 0;
}

/* How many of @cpu's calls the console gets: its last @calls at most. */
static unsigned long kft_trace_last_wanted(const struct kft_log_buf *buf, unsigned int cpu,
					   unsigned int calls)
{
	return min_t(unsigned long, kft_ring_stored(&buf->ring, cpu), calls);
}

/* The rows each CPU prints, kft_trace_last_plan()'s. */
struct kft_trace_last_shares {
	unsigned int self;		/* the printing CPU, the crash's */
	bool cut;			/* false: each prints all it wants */
	unsigned long self_rows;
	unsigned long other_rows;	/* each other CPU's */
};

/*
 * Each CPU's share of @max_rows, the rows of all CPUs (a console prints
 * a few hundred a second, with interrupts off): all it wants while the
 * wants fit; else the CPU that prints, the crash's, up to half, or more
 * where the others want less, and the others the rest in equal parts.
 */
static void kft_trace_last_plan(const struct kft_log_buf *buf, unsigned int calls,
				unsigned long max_rows, struct kft_trace_last_shares *sh)
{
	unsigned long self_wants, others_want = 0, others = 0, w;
	unsigned int cpu;

	sh->self = raw_smp_processor_id();
	self_wants = kft_trace_last_wanted(buf, sh->self, calls);
	for_each_possible_cpu(cpu) {
		if (cpu == sh->self)
			continue;
		w = kft_trace_last_wanted(buf, cpu, calls);
		others_want += w;
		others += w != 0;
	}
	sh->cut = self_wants + others_want > max_rows;
	if (!sh->cut)
		return;
	sh->self_rows = min(self_wants, max(max_rows / 2, max_rows - min(others_want, max_rows)));
	sh->other_rows = others ? (max_rows - sh->self_rows) / others : 0;
}

static unsigned long kft_trace_last_rows(const struct kft_log_buf *buf, unsigned int cpu,
					 unsigned int calls,
					 const struct kft_trace_last_shares *sh)
{
	unsigned long w = kft_trace_last_wanted(buf, cpu, calls);

	if (!sh->cut)
		return w;
	return min(w, cpu == sh->self ? sh->self_rows : sh->other_rows);
}

/**
 * kft_trace_print_last() - each CPU's last calls of a ring, to the kernel log
 * @run:	a ring run, frozen (its readers' lock may be held by anyone)
 * @calls:	how many of each CPU's
 * @max_rows:	how many in all (kft_trace_last_plan() shares them)
 * @m:		a seq_file over a buffer of the caller's, for one row or line
 *
 * The log's own header and rows (/proc/kft_data's, addresses shown), from
 * any context: at a panic or an oops. No lock and no allocation. A CPU's
 * rows come oldest first, CPU after CPU; a row ends with its function's
 * name, for whoever reads the console without kd.
 */
void kft_trace_print_last(struct kft_run *run, unsigned int calls, unsigned long max_rows,
			  struct seq_file *m)
{
	const struct kft_log_buf *buf = run->log.buf;
	struct kft_trace_last_shares shares;
	struct kft_counters c;
	struct kft_record rec;
	struct kft_rec_sched sched;
	struct kft_rec_args args;
	struct kft_rec_str str;
	struct kft_row_side side;
	unsigned long head, n, rows = 0;
	unsigned int cpu;

	kft_run_sum_counters(run, &c);
	kft_trace_last_plan(buf, calls, max_rows, &shares);
	for_each_possible_cpu(cpu)
		rows += kft_trace_last_rows(buf, cpu, calls, &shares);
	m->count = 0;
	kft_output_log_header(m, run, &run->times, &c, buf, kft_trace_overwritten(buf), NULL, rows);
	kft_trace_print_lines(m);
	for_each_possible_cpu(cpu) {
		head = kft_ring_head(&buf->ring, cpu);
		for (n = head - kft_trace_last_rows(buf, cpu, calls, &shares); n != head; n++) {
			if (!kft_ring_copy(buf, cpu, n, &rec, &sched, &args, &str))
				continue;
			side = (struct kft_row_side){
				.sched = buf->sched ? &sched : NULL,
				.args = buf->args ? &args : NULL,
				.str = buf->strs ? &str : NULL,
				.str_arg = run->cfg.str_arg,
				.mem_len = run->cfg.mem_len,
			};
			kft_output_log_row(m, &run->times, &buf->comms, &rec, &side, true);
			if (m->count)
				m->count--;	/* the row's newline */
			seq_printf(m, " %pS\n", (void *)kft_output_func_start(rec.func));
			kft_trace_print_lines(m);
		}
	}
}

/*
 * log persistent: the ring is the kft region's (kft_region.h), held until
 * the run is destroyed (kft_region_let_go()), and written from
 * kft_trace_commit() on. Return: 0,
 * or kft_region_hold()'s error.
 */
static int kft_trace_log_alloc(struct kft_run *run)
{
	const struct kft_config *cfg = &run->cfg;
	struct kft_log_sides sides = { .sched = cfg->offcpu, .args = cfg->args,
				       .str = cfg->str_arg != 0 };
	struct kft_log_mem mem;
	int ret;

	if (!cfg->persistent)
		return kft_log_alloc(&run->log, cfg->logentries, sides, cfg->log, NULL);
	ret = kft_region_hold(&mem.ring, &mem.records, kft_ring_shift(cfg->logentries));
	if (ret)
		return ret;
	ret = kft_log_alloc(&run->log, cfg->logentries, sides, cfg->log, &mem);
	run->holds_region = true;
	if (ret)
		kft_region_let_go(&run->holds_region);
	return ret;
}

static int kft_trace_alloc(struct kft_run *run)
{
	int ret = kft_trace_log_alloc(run);

	if (!ret && run->cfg.offcpu)
		ret = kft_sched_alloc(&run->sched, run->cfg.wakers);
	return ret;
}

/*
 * log persistent: nothing can fail the run any more, so the region held
 * since kft_trace_alloc() is written as this run's now (kft_region_claim()):
 * a configuration refused before here left the last run's calls in it.
 */
static void kft_trace_commit(struct kft_run *run)
{
	if (run->log.ring.in_region)
		kft_region_claim(run->id, run->cfg.units_ns);
}

static void kft_trace_free(struct kft_run *run)
{
	kft_log_free(&run->log);
	kft_region_let_go(&run->holds_region);
	kft_hold_free(&run->hold);
	kft_sched_free(&run->sched);
}

/*
 * A region ring is emptied once its readers' copies are done (kft_region.h).
 * offcpu's table first: its grace period before the region's unseal, which
 * an oops must not find long before the prime's end (kft_run_prime()).
 */
static int kft_trace_reset(struct kft_run *run)
{
	bool in_region = run->log.ring.in_region;
	int ret;

	kft_sched_reset(&run->sched);
	if (in_region)
		kft_region_renew_begin();
	ret = kft_log_reset(&run->log);
	if (in_region) {
		if (!ret)
			kft_region_unseal();
		kft_region_renew_end(!ret);
	}
	if (ret)
		return ret;
	kft_watch_reset(&run->watch, run->cfg.watch_bytes);
	kft_hold_reset(&run->hold);
	return 0;
}

/*
 * offcpu's probe first: the switches of a call's task are seen from its
 * entry. Then the probe that frees the slots of tasks that die inside
 * calls: it runs before the first slot is taken.
 */
int kft_trace_attach(struct kft_run *run, struct kft_parse_error *err)
{
	int ret = kft_sched_attach(&run->sched);

	if (ret) {
		kft_func_error(err, KFT_ERR_SCHED_PROBE, NULL);
		return ret;
	}
	ret = kft_exited_attach(&run->exited, &run->hold, &run->sched);
	if (ret) {
		kft_func_error(err, KFT_ERR_EXITED_PROBE, NULL);
		goto err_sched;
	}
	ret = kft_fhook_attach(&run->trace, run, KFT_HOOK_TRACE,
			       run->cfg.hooks == KFT_HOOKS_FAST, run->keep_args, run->cfg.funcs,
			       run->nr_traced, err);
	if (!ret)
		return 0;
	kft_exited_detach(&run->exited);
err_sched:
	kft_sched_detach(&run->sched);
	return ret;
}

void kft_trace_detach(struct kft_run *run)
{
	kft_fhook_detach(&run->trace);
	kft_exited_detach(&run->exited);
	kft_sched_detach(&run->sched);
}

void kft_trace_quiesce(struct kft_run *run)
{
	kft_fhook_quiesce(&run->trace);
}

unsigned int kft_trace_drop_module(struct kft_run *run, struct module *mod,
				   const unsigned long *addrs, unsigned int nr)
{
	/* (None named: a hook on every function may still have hooked it.) */
	return kft_fhook_drop_module(&run->trace, mod, addrs, nr);
}

/* Each CPU's calls lost by a stream run now, or NULL without the memory. */
static u64 *kft_stream_lost_take(const struct kft_run *run)
{
	u64 *lost = kcalloc(nr_cpu_ids, sizeof(*lost), GFP_KERNEL);
	unsigned int cpu;

	if (lost)
		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			lost[cpu] = kft_stream_lost_on(run, cpu);
	return lost;
}

/* The records complete now, in the log buffer of this moment (held). */
static void kft_trace_data_take(struct kft_reader *r)
{
	kft_log_view_init(&r->log, &r->run->log);
	r->stored = kft_log_stored(&r->run->log);
	r->region_gen = kft_region.gen;
	/*
	 * Now, as the counters: the heads of a region ring are the region's,
	 * which a new run may take while the reader holds this buffer.
	 */
	r->overwritten = kft_trace_overwritten(r->log.buf);
	/* (Without the memory, the header reads them when it is shown.) */
	if (r->log.buf->ring.stream)
		r->stream_lost = kft_stream_lost_take(r->run);
}

/*
 * Sorting takes seconds for a large log: outside kft_mutex. A region
 * ring's calls gone since the take (a prime emptied it, a new run took
 * the region) are not copied: the region holds other calls now.
 */
static int kft_trace_data_build(struct kft_reader *r)
{
	int ret;

	if (!r->log.buf->ring.in_region) {
		ret = kft_log_view_build(&r->log, r->stored);
	} else {
		if (!kft_region_copy_begin(r->region_gen))
			return 0;
		ret = kft_log_view_collect(&r->log, r->stored);
		kft_region_copy_end();
		/* (The sort, of the copies, without the lock a prime waits for.) */
		ret = ret ?: kft_log_view_sort(&r->log);
	}
	/*
	 * A run that started after the take: its calls count from its first
	 * start, which the start wrote before the calls that the build read
	 * (each with an acquire) could come.
	 */
	if (!r->times.first_start_ns)
		r->times.first_start_ns = READ_ONCE(r->log.buf->first_start_ns);
	return ret;
}

static unsigned long kft_trace_data_rows(const struct kft_reader *r)
{
	return r->log.nr;
}

/* The row of record @k of a reader's view, with what it keeps beside it. */
static void kft_trace_data_row(struct seq_file *m, struct kft_reader *r, u32 k)
{
	const struct kft_log_view *v = &r->log;
	const struct kft_row_side side = {
		.sched = v->sched ? &v->sched[k] : NULL,
		.args = v->args ? &v->args[k] : NULL,
		.str = v->strs ? &v->strs[k] : NULL,
		.str_arg = r->run->cfg.str_arg,
		.mem_len = r->run->cfg.mem_len,
	};

	kft_output_log_row(m, &r->times, &v->buf->comms, &v->recs[k], &side, r->show_addrs);
}

static void kft_trace_data_show(struct seq_file *m, struct kft_reader *r, unsigned long i)
{
	if (i == 0)
		kft_output_log_header(m, r->run, &r->times, &r->counters, r->log.buf,
				      r->overwritten, r->stream_lost, r->log.nr);
	else
		kft_trace_data_row(m, r, r->log.order[i - 1]);
}

static void kft_trace_data_free(struct kft_reader *r)
{
	kft_log_view_free(&r->log);
	kfree(r->stream_lost);
	r->stream_lost = NULL;
}

const struct kft_mode kft_mode_trace = {
	.name		= "trace",
	.no_memory	= KFT_ERR_NO_MEMORY,
	.alloc		= kft_trace_alloc,
	.commit		= kft_trace_commit,
	.free		= kft_trace_free,
	.reset		= kft_trace_reset,
	.attach		= kft_trace_attach,
	.detach		= kft_trace_detach,
	.quiesce	= kft_trace_quiesce,
	.drop_module	= kft_trace_drop_module,
	.status		= kft_output_trace_status,
	.data_take	= kft_trace_data_take,
	.data_build	= kft_trace_data_build,
	.data_rows	= kft_trace_data_rows,
	.data_show	= kft_trace_data_show,
	.data_free	= kft_trace_data_free,
};
