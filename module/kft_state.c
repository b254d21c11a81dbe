// SPDX-License-Identifier: GPL-2.0
/*
 * A run's state as the traced path changes it: the start and stop
 * transitions that triggers cause from any context (a hook, a timer, an
 * irq_work), the counters every mode keeps, and kft_mutex, which the
 * layers above take for everything else. Below the exit mechanisms and
 * the modes (they call kft_run_start() and kft_run_stop()); above the data
 * structures. The transitions only move the state and queue the run's
 * irq_work: what reacts to them (timers, detaching) is the run's
 * (kft_run.c), set up when it was created.
 *
 * Everything called from a hook is notrace and unprobeable, takes no lock,
 * never sleeps and never prints. Recursion is stopped before us by ftrace
 * and fprobe (ftrace_test_recursion_trylock), kprobes, or kft's fast hooks
 * (their own guard on the shadow stack, kft_fast_recursion()), which count
 * what they drop.
 */
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>

#include "kft_run.h"

DEFINE_MUTEX(kft_mutex);

/*
 * A started round's stop time. A stop may have come between the move to
 * RUNNING and this: it cleared the deadline before it moved the state on,
 * so that if the state read after this write is not RUNNING, the deadline
 * just written is one no round has, and is taken back (unless a newer
 * start wrote its own meanwhile).
 */
static notrace void kft_run_deadline_set(struct kft_run *run, u64 deadline)
{
	atomic64_set(&run->stop_deadline_ns, deadline);
	smp_mb();	/* the write before the state's read: pairs with kft_state_move() */
	if (READ_ONCE(run->state) != KFT_RUNNING)
		atomic64_cmpxchg(&run->stop_deadline_ns, deadline, 0);
	/* Arming an hrtimer takes locks: leave it to irq_work. */
	irq_work_queue(&run->timer_work);
}
NOKPROBE_SYMBOL(kft_run_deadline_set);

/**
 * kft_run_start() - PRIMED -> RUNNING, from any context
 * @run:	the run
 * @why:	the reason shown in the log header
 */
notrace void kft_run_start(struct kft_run *run, enum kft_reason why)
{
	u64 now = kft_now();

	/*
	 * The time rows count from is there before the move to RUNNING (a
	 * full barrier), so that a reader that takes a call published after
	 * it (an acquire of the call's tag) reads it, not 0. A move that fails
	 * leaves it on a run that another start started at the same time, or
	 * that a stop or clear took from PRIMED meanwhile (it never ran): a
	 * prime clears it.
	 *
	 * Acquire: a run seen primed comes with the prime's reset of its
	 * times and its new buffer (the prime's move to PRIMED is a full
	 * barrier), read only after it.
	 */
	if (smp_load_acquire(&run->state) == KFT_PRIMED && !READ_ONCE(run->times.first_start_ns)) {
		WRITE_ONCE(run->times.first_start_ns, now);
		/* For a stream's reader that holds this buffer past a prime. */
		if (run->log.buf)
			WRITE_ONCE(run->log.buf->first_start_ns, now);
	}
	if (!kft_state_move(run, KFT_PRIMED, KFT_RUNNING))
		return;
	run->times.start_ns = now;
	run->times.start_reason = why;
	run->starts++;
	if (run->cfg.stop.kind == KFT_TRIGGER_TIME)
		kft_run_deadline_set(run, now + run->cfg.stop.time_us * NSEC_PER_USEC);
}
NOKPROBE_SYMBOL(kft_run_start);

/* A run moved to STOPPING by its caller: its stop said, then @next. */
static notrace void kft_run_stopping(struct kft_run *run, enum kft_reason why, int next)
{
	u32 frozen = READ_ONCE(run->frozen);

	/* An oops froze the run since it started: no round after it. */
	if (next == KFT_PRIMED && frozen) {
		next = KFT_COMPLETE;
		why = frozen;
	}
	run->times.stop_ns = kft_now();
	run->times.stop_reason = why;
	atomic64_set(&run->stop_deadline_ns, 0);
	/*
	 * The stop time and reason are visible before the new state (a full
	 * barrier). A run made DEAD meanwhile stays DEAD, and queues nothing.
	 */
	if (!kft_state_move(run, KFT_STOPPING, next))
		return;
	/*
	 * An oops that froze the run while it was stopping (between two rounds
	 * of autorepeat) found it neither primed nor running: it is frozen now.
	 * The freeze marked the run before it looked at its state, and the
	 * move above is a full barrier: one of the two sees the other.
	 */
	if (next == KFT_PRIMED) {
		frozen = READ_ONCE(run->frozen);
		if (frozen) {
			kft_run_freeze(run, frozen);
			return;
		}
	}
	/* Cancel the stop timer, or arm the start timer again. */
	irq_work_queue(&run->timer_work);
}
NOKPROBE_SYMBOL(kft_run_stopping);

/**
 * kft_run_stop() - RUNNING -> COMPLETE (or back to PRIMED), from any context
 * @run:	the run
 * @why:	the reason shown in the log header
 *
 * With autorepeat, a stop trigger re-primes the run; a full log, the
 * stop command, an oops, a panic and a warning end it.
 *
 * Return: true if this call stopped it (false: it was not running).
 */
notrace bool kft_run_stop(struct kft_run *run, enum kft_reason why)
{
	int next = KFT_COMPLETE;

	if (run->cfg.autorepeat && why != KFT_REASON_LOG_FULL && why != KFT_REASON_USER &&
	    why != KFT_REASON_OOPS && why != KFT_REASON_PANIC && why != KFT_REASON_WARN)
		next = KFT_PRIMED;
	if (!kft_state_move(run, KFT_RUNNING, KFT_STOPPING))
		return false;
	kft_run_stopping(run, why, next);
	return true;
}
NOKPROBE_SYMBOL(kft_run_stop);

/**
 * kft_run_freeze() - PRIMED or RUNNING -> COMPLETE, at an oops or a panic
 * @run:	the run
 * @why:	the reason shown in the log header
 *
 * A flight recorder's calls are the crash's: a run waiting for its start
 * trigger (or between two rounds of autorepeat) is ended too, so that no
 * start after the oops writes over them, nor into a sealed region.
 */
notrace void kft_run_freeze(struct kft_run *run, enum kft_reason why)
{
	WRITE_ONCE(run->frozen, why);
	/* Marked before the state is read: for a stop or a prime under way. */
	smp_mb();
	if (kft_state_move(run, KFT_PRIMED, KFT_STOPPING) ||
	    kft_state_move(run, KFT_RUNNING, KFT_STOPPING))
		kft_run_stopping(run, why, KFT_COMPLETE);
}
NOKPROBE_SYMBOL(kft_run_freeze);

/* The per-CPU counters, summed (a reader, /proc/kft). */
void kft_run_sum_counters(struct kft_run *run, struct kft_counters *sum)
{
	const size_t longs = offsetof(struct kft_counters, ring_skipped) / sizeof(unsigned long);
	unsigned long *total = (unsigned long *)sum;
	const struct kft_counters *pc;
	u64 skipped = 0;
	unsigned int i;
	int cpu;

	/* The counters before the 64-bit ones are unsigned longs: summed as an array of them. */
	BUILD_BUG_ON(offsetof(struct kft_counters, ring_skipped) % sizeof(unsigned long));
	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		pc = per_cpu_ptr(run->counters, cpu);
		for (i = 0; i < longs; i++)
			total[i] += READ_ONCE(((const unsigned long *)pc)[i]);
		skipped += kft_counters_skipped(pc);
	}
	local64_set(&sum->ring_skipped, skipped);
}
