// SPDX-License-Identifier: GPL-2.0
/*
 * Stack watches (see kft_watch.h).
 *
 * "Left" is what kft_stack_left() measures: the bytes between the stack
 * pointer and the lowest address of the stack it is on, the task's stack
 * in task context, this CPU's IRQ stack in interrupts (x86_64 runs hard
 * and soft interrupts there). On any other stack (NMI, exceptions) the
 * watch does not fire; such entries are counted as skipped.
 *
 * A snapshot is k records reserved at once (one atomic add: they are
 * contiguous, so a reader's sort by entry time and then slot keeps them
 * together and in order), all with the same entry time, pid and CPU, the
 * info's duration bits holding the bytes left and the STACK flag; the
 * first also has KFT_REC_FIRST.
 */
#include <linux/kprobes.h>
#include <linux/preempt.h>
#include <linux/sched.h>

#include "kft_own.h"
#include "kft_run.h"

void kft_watch_reset(struct kft_watch *w, unsigned long threshold)
{
	w->threshold = threshold;
	w->low = (struct kft_watch_low){ .left = ULONG_MAX };
}

/*
 * Whether this entry fires the watch: under the threshold; with
 * worst-stack, only the entry that lowers the threshold to its own left
 * (from *@was).
 */
static notrace bool kft_watch_fires(struct kft_run *run, unsigned long left, unsigned long *was)
{
	struct kft_watch *w = &run->watch;
	unsigned long thr = READ_ONCE(w->threshold), seen;

	if (left >= thr)
		return false;
	if (run->cfg.watch != KFT_WATCH_WORST)
		return true;
	while ((seen = cmpxchg(&w->threshold, thr, left)) != thr) {
		if (left >= seen)
			return false;
		thr = seen;
	}
	*was = thr;
	return true;
}
NOKPROBE_SYMBOL(kft_watch_fires);

/*
 * A worst-stack hit that could not be logged gives its threshold back, so
 * that the next entry as deep fires (unless a deeper one lowered it since).
 */
static notrace void kft_watch_unfire(struct kft_run *run, unsigned long left, unsigned long was)
{
	if (run->cfg.watch == KFT_WATCH_WORST)
		cmpxchg(&run->watch.threshold, left, was);
}
NOKPROBE_SYMBOL(kft_watch_unfire);

/* The lowest seen; its other fields may mix with a racing lower hit's. */
static notrace void kft_watch_note_low(struct kft_watch *w, unsigned long left,
				       unsigned long ip, s32 pid, int kind)
{
	unsigned long low = READ_ONCE(w->low.left);

	do {
		if (left >= low)
			return;
	} while (!try_cmpxchg(&w->low.left, &low, left));
	WRITE_ONCE(w->low.func, ip);
	WRITE_ONCE(w->low.pid, pid);
	WRITE_ONCE(w->low.cpu, raw_smp_processor_id());
	WRITE_ONCE(w->low.kind, kind);
}
NOKPROBE_SYMBOL(kft_watch_note_low);

/* The frames into the log: k contiguous records, or none. */
static notrace void kft_watch_log(struct kft_run *run, const unsigned long *frames,
				  unsigned int nr, unsigned long left, u64 now, s32 pid)
{
	long first = atomic_long_add_return(nr, &run->log.reserved) - nr;
	unsigned int cpu = raw_smp_processor_id(), i;
	struct kft_record *rec;

	if (first + nr > run->log.capacity) {
		kft_run_stop(run, KFT_REASON_LOG_FULL);
		return;
	}
	for (i = 0; i < nr; i++) {
		rec = &run->log.records[first + i];
		rec->entry_ns = now;
		rec->caller_off = i + 1 < nr ? kft_rec_caller_off(frames[i + 1], frames[i]) :
				  KFT_REC_CALLER_UNKNOWN;
		rec->pid = pid;
		rec->info = kft_rec_info_stack(left, cpu, i == 0);
		/* Pairs with smp_load_acquire() in kft_log_view_build(). */
		smp_store_release(&rec->func, frames[i]);
	}
	if (pid >= 0)
		kft_comms_note(&run->log.buf->comms, pid, now);
	this_cpu_inc(run->counters->watch_snapshots);
}
NOKPROBE_SYMBOL(kft_watch_log);

/**
 * kft_watch_entry() - a traced function was entered while the run runs
 * @run:	the run, with a watch
 * @ip:		the function
 * @ret_ip:	its return address
 * @regs:	the registers at its first instruction (a kprobe), or NULL
 * @now:	the entry time
 * @pid:	the pid the log shows (-1 in interrupts)
 *
 * Preemption is off (a hook).
 */
notrace void kft_watch_entry(struct kft_run *run, unsigned long ip,
			     unsigned long ret_ip, struct pt_regs *regs, u64 now, s32 pid)
{
	unsigned long left, was = 0, *buf;
	unsigned int level, nr;
	bool truncated;
	u8 *working;
	int kind;

	kind = kft_stack_left(&left);
	if (kind == KFT_STACK_OTHER) {
		this_cpu_inc(run->counters->watch_skipped);
		return;
	}
	if (!kft_watch_fires(run, left, &was))
		return;
	kft_watch_note_low(&run->watch, left, ip, pid, kind);
	buf = kft_stack_scratch_get(&level);
	if (!buf) {
		this_cpu_inc(run->counters->stack_busy);
		kft_watch_unfire(run, left, was);
		return;
	}
	/*
	 * The unwinder's calls are kft's own (kft_own.h): the run traces none
	 * of them, nor watches its own unwinding.
	 */
	working = kft_own_take();
	if (regs && KFT_WATCH_UNWINDS_KPROBE_REGS)
		nr = kft_unwind_regs(regs, buf, KFT_STACK_MAX_DEPTH, &truncated);
	else
		nr = kft_stack_capture(buf, KFT_STACK_BUF, ret_ip, ip, &truncated);
	if (working)
		kft_own_drop(working);
	if (truncated)
		this_cpu_inc(run->counters->stacks_truncated);
	kft_watch_log(run, buf, nr, left, now, pid);
	kft_stack_scratch_put(level);
}
NOKPROBE_SYMBOL(kft_watch_entry);
