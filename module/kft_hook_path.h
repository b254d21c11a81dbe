/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The traced path: what runs inside every traced function's entry and exit
 * in trace mode, inline in each exit mechanism's handlers
 * (kft_exit_fprobe.c, kft_exit_kretprobe.c, kft_exit_fast.c): trace mode's
 * code that the layer below it includes, so that its handlers reach it
 * without an indirect call. It calls only the layers below the
 * mechanisms (kft_state.c's start and stop, kft_watch.c, the log and the
 * comm table, kft_wake.c's rows of a wakeup, kft_hold.c's return of a
 * root call). Every call made here cost about ten instructions per traced
 * call (a push, a pop, a call and a return thunk), and a record made six
 * of them. Only for notrace, NOKPROBE_SYMBOL functions: what is inlined
 * runs in them.
 *
 * kft_hook_entry_quick() and kft_hook_exit_quick() are the common case of
 * "every call slower than N" (running, judged in cycles, rejected) with no
 * call at all: fast hooks inline only them and keep the rest out of line,
 * so that a rejected call saves and restores no register for the rest (on
 * 6.1, 288 to 249 instructions a call; a record costs 7 more).
 *
 * Recording a call (histogram mode: counting it in its bucket, at the exit,
 * instead of a record):
 *   entry: state RUNNING? context filter (noints/onlyints), take the time,
 *          pid and CPU into the per-call storage. With no time filter the
 *          record is reserved now (delta -1 until the exit fills it in), so
 *          calls still open at the stop show as -1.
 *   exit:  return value filter (errors), duration = now - entry; time
 *          filter; reserve a record and fill it, the return value with
 *          it. A rejected call costs no slot.
 * A slot is reserved with one atomic increment of the log's counter; when it
 * passes the capacity the run stops with "log full", and the counter goes on
 * counting what was lost.
 *
 * args: the entry reads the argument registers into the call's own storage
 * beside its struct kft_call (the mechanism's: struct kft_args_src), and
 * whoever reserves the record copies them beside it in the log. A run with
 * args is one with extras: a run without pays nothing for them. args
 * string copies a string into a record reserved at entry, or into the
 * open stack of filter roots' slot (kft_hold.h); a run that makes its
 * records at the exit otherwise (a time or return value filter judges the
 * call first) copies it then, from the kept register: a call's own storage
 * has no room for the copy, and a call the filters drop costs no copy at
 * all. A histogram per-arg keeps them the same way
 * (run->keep_args), and its exit keys the call's slot by the one it names.
 *
 * filter arg: the first thing a run with extras does at an entry that the
 * context and task filters let through is to test the registers, out of
 * line (kft_argf.c); a call that fails returns at once, its exit not
 * hooked. A fast hook asks the context, task and argument filters before
 * it pushes the call's frame (kft_hook_entry_refused()).
 */
#ifndef KFT_HOOK_PATH_H
#define KFT_HOOK_PATH_H

#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>

#include "kft_argf.h"
#include "kft_log_ring.h"
#include "kft_run.h"
#include "kft_task.h"

/*
 * The traced path comes in versions, each compiled for what its runs do
 * (run->extras): a linear log's, a ring's and a stream's know their log
 * and test nothing of the others'; the path of a run with more extras
 * (KFT_PATH_ANY) asks the run which log it has, and whether it keeps
 * offcpu's times or the arguments beside its records.
 */
enum kft_path {
	KFT_PATH_LINEAR,
	KFT_PATH_RING,
	KFT_PATH_STREAM,
	KFT_PATH_ANY,
};

/* The log that @path writes: its own, or the run's (KFT_PATH_ANY). */
static __always_inline enum kft_path kft_path_log(const struct kft_run *run, enum kft_path path)
{
	if (path != KFT_PATH_ANY)
		return path;
	if (likely(!run->log.ring.tags))
		return KFT_PATH_LINEAR;
	return run->log.ring.stream ? KFT_PATH_STREAM : KFT_PATH_RING;
}

/* Histogram mode, which has no log: never a ring's or a stream's path. */
static __always_inline bool kft_path_histogram(const struct kft_run *run, enum kft_path path)
{
	return (path == KFT_PATH_LINEAR || path == KFT_PATH_ANY) && run->histogram;
}

/*
 * A slot of the log for a record, in @s; @cpu the CPU a hook's entry runs
 * on, with preemption off (an exit's may be on, and passes -1). Return:
 * false when the call is lost (a full linear log stops the run; a ring's
 * or a stream's counts it).
 */
static __always_inline bool kft_log_reserve(struct kft_run *run, enum kft_path path, int cpu,
					    struct kft_log_slot *s)
{
	bool ok;

	switch (kft_path_log(run, path)) {
	case KFT_PATH_RING:
		ok = cpu >= 0 ? kft_ring_reserve_on(&run->log, cpu, s) :
				kft_ring_reserve(&run->log, s);
		break;
	case KFT_PATH_STREAM:
		ok = kft_stream_reserve(&run->log, s);
		break;
	default:
		s->i = atomic_long_inc_return(&run->log.reserved) - 1;
		if (likely(s->i < run->log.capacity))
			return true;
		kft_run_stop(run, KFT_REASON_LOG_FULL);
		return false;
	}
	if (unlikely(!ok)) {
		/* (An exit's CPU may change: preemption may be on there.) */
		preempt_disable_notrace();
		local64_inc(this_cpu_ptr(&run->counters->ring_skipped));
		preempt_enable_notrace();
	}
	return ok;
}

/* Fills a reserved record; the function address goes last (see kft_log.c). */
static __always_inline void kft_record_fill(struct kft_record *rec, unsigned long func,
					    unsigned long ret_ip,
					    const struct kft_call *call, s32 pid, u64 info,
					    unsigned long retval)
{
	rec->entry_ns = call->entry_ns;
	rec->caller_off = kft_rec_caller_off(ret_ip, func);
	rec->pid = pid;
	rec->info = info;
	rec->retval = retval;
	/* Pairs with smp_load_acquire() in kft_log_view_build(). */
	smp_store_release(&rec->func, func);
}

/*
 * args: where a mechanism's entry finds the traced function's argument
 * registers, and where it keeps them until the call's record is made.
 * @fregs: what ftrace passed an ftrace_ops callback, or NULL; else @regs,
 * saved at the function's first instruction, or NULL (zeros then).
 * @keep: the call's storage beside its struct kft_call (kft_call_keep()),
 * used only in a run with args, whose hooks were attached with room for
 * it; NULL for a fast hook's call (kft_args_keep()).
 */
struct kft_args_src {
	struct ftrace_regs *fregs;
	struct pt_regs *regs;
	struct kft_rec_args *keep;
	/*
	 * The call's context, task and arguments were judged and passed
	 * already, before its mechanism prepared its exit
	 * (kft_hook_entry_refused()): kft_hook_entry() does not judge them
	 * again. Constant false for every other mechanism's entry.
	 */
	bool judged;
};

/*
 * Where @call keeps its arguments (@keep from its mechanism). A fast
 * hook's frames keep theirs in a table found only when needed: what it
 * takes to find them is no cost to a run without args.
 */
static __always_inline struct kft_rec_args *kft_args_keep(struct kft_rec_args *keep,
							  struct kft_call *call)
{
#if KFT_HAVE_FAST_HOOKS
	return keep ?: kft_fast_keep(call);
#else
	return keep;
#endif
}

/*
 * args, at a call's entry that the filters let through: its registers
 * kept. Return: where (for kft_log_args_put(), which need not look again).
 */
static __always_inline struct kft_rec_args *kft_args_take(const struct kft_args_src *src,
							  struct kft_call *call)
{
	struct kft_rec_args *keep = kft_args_keep(src->keep, call);
	unsigned int i;

	for (i = 0; i < KFT_ARGS_MAX; i++)
		keep->a[i] = src->fregs ? kft_fregs_argument(src->fregs, i) :
			     src->regs ? kft_regs_argument(src->regs, i) : 0;
	return keep;
}

/* args: a call's registers beside its record (slot @i), before the record is complete. */
static __always_inline void kft_log_args_put(struct kft_run *run, unsigned long i,
					     struct kft_rec_args *keep, struct kft_call *call,
					     enum kft_path path)
{
	if (path == KFT_PATH_ANY && unlikely(run->log.args))
		run->log.args[i] = *kft_args_keep(keep, call);
}

/*
 * args string, at the entry that reserved @rec: the string the kept
 * argument points to, copied beside it out of line (kft_argstr.c), or
 * args struct's bytes. Only a run with args has @keep; only one with
 * args string or struct has the strings.
 */
static __always_inline void kft_log_str_put(struct kft_run *run, const struct kft_record *rec,
					    const struct kft_rec_args *keep)
{
	if (keep && unlikely(run->log.strs))
		kft_str_take(&run->log.strs[rec - run->log.records],
			     keep->a[run->cfg.str_arg - 1], run->cfg.str_user, run->cfg.mem_len);
}

/*
 * args string, at the exit that reserved slot @i: the string the kept
 * argument points to now. Only a run with args has strings.
 */
static __always_inline void kft_log_str_exit(struct kft_run *run, unsigned long i,
					     struct kft_rec_args *keep, struct kft_call *call,
					     enum kft_path path)
{
	if (path == KFT_PATH_ANY && unlikely(run->log.strs))
		kft_str_take(&run->log.strs[i], kft_args_keep(keep, call)->a[run->cfg.str_arg - 1],
			     run->cfg.str_user, run->cfg.mem_len);
}

/* A log record filled: a ring's readers may take it now (kft_log_ring.h). */
static __always_inline void kft_log_publish(struct kft_run *run, struct kft_log_slot s,
					    enum kft_path path)
{
	if (kft_path_log(run, path) != KFT_PATH_LINEAR)
		kft_ring_publish(&run->log, s);
}

/*
 * Whose the record is: -1 for a call entered outside task context (which
 * some calls leave in another: irq_enter_rcu() enters in the task and
 * returns in the interrupt, irq_exit_rcu() the other way round), else the
 * task's pid, read at the exit: the entry stores one bit, not the pid. A
 * call across an exec by a thread other than the leader (de_thread()
 * gives it the leader's pid) is logged under the pid it returns with.
 */
static __always_inline s32 kft_record_pid(const struct kft_call *call)
{
	return call->irq ? -1 : current->pid;
}

/* A record of a task (not of an interrupt): its name into the log's table. */
static __always_inline void kft_record_comm(struct kft_run *run, const struct kft_call *call,
					    s32 pid)
{
	if (pid >= 0)
		kft_comms_note(&run->log.buf->comms, pid, call->entry_ns);
}

/*
 * Completes a record reserved at entry. The return address seen at entry can
 * be the exit hook's trampoline (a tail call from a hooked caller); the one
 * seen at exit is real. Fast hooks know the real one at entry already
 * (@ret_ip_known: the record has it).
 */
static __always_inline void kft_record_close(struct kft_record *rec, unsigned long func,
					     unsigned long ret_ip, bool ret_ip_known,
					     u64 dur, unsigned int cpu, unsigned long retval)
{
	if (!ret_ip_known)
		WRITE_ONCE(rec->caller_off, kft_rec_caller_off(ret_ip, func));
	WRITE_ONCE(rec->retval, retval);
	/*
	 * A reader that sees the call closed sees its caller and value
	 * (pairs with the acquire in kft_output_log_row()).
	 */
	kft_rec_close_info(rec, kft_rec_info(dur, cpu));
}

/* Histogram mode: the bucket of a call of @dur ns, in the run's units. */
static __always_inline unsigned int kft_hist_bucket(const struct kft_run *run, u64 dur)
{
	/* Constant divisors: multiplications, not divisions. */
	u64 v = run->cfg.units_ns ? dur : run->cfg.units_ms ? div_u64(dur, NSEC_PER_MSEC) :
		div_u64(dur, NSEC_PER_USEC);

	return v ? min_t(unsigned int, ilog2(v), KFT_HIST_BUCKETS - 1) : 0;
}

/* Histogram mode: one more call in bucket @b of slot @s, or one that found no slot (-1). */
static __always_inline void kft_hist_in_slot(struct kft_run *run, long s, unsigned int b)
{
	if (unlikely(s < 0)) {
		this_cpu_inc(run->counters->table_full);
		return;
	}
	kft_count_inc(&run->table, s * KFT_HIST_BUCKETS + b);
}

/*
 * Histogram mode: a kept call of @dur ns counted in its function's bucket
 * (kft_run.h). The slot is found as count mode finds it: the common case
 * is one hash and one compare; a function's first call claims its slot.
 */
static __always_inline void kft_hist_add(struct kft_run *run, unsigned long ip, u64 dur)
{
	struct kft_count_table *t = &run->table;
	unsigned long slot = kft_count_hash(t, ip);
	unsigned int b = kft_hist_bucket(run, dur);

	/* A plain load: the slot's only write is the claim, long before. */
	if (unlikely(data_race(t->ips[slot]) != ip)) {
		kft_hist_in_slot(run, kft_count_slot_slow(t, ip), b);
		return;
	}
	kft_count_inc(t, slot * KFT_HIST_BUCKETS + b);
}

/*
 * Histogram mode per-arg: a kept call counted in the bucket of its
 * function and of the value its argument's register had at the entry
 * (kept there, as args keeps them: @keep, from the call's mechanism),
 * its slot found or claimed as count mode's per-arg does.
 */
static __always_inline void kft_hist_add_value(struct kft_run *run, unsigned long ip, u64 dur,
					       struct kft_call *call, struct kft_rec_args *keep)
{
	unsigned int n = run->cfg.per_arg - 1;

	/* The parser takes no other argument (nor one read from the stack). */
	if (n >= KFT_ARGS_MAX)
		return;
	kft_hist_in_slot(run, kft_count_slot_value(&run->table, ip,
						   kft_args_keep(keep, call)->a[n]),
			 kft_hist_bucket(run, dur));
}

/**
 * kft_hook_entry_quick() - the common entry, with nothing to call
 * @hook:	the hook
 * @call:	per-call storage, handed to kft_hook_exit()
 *
 * For a trace hook (role KFT_HOOK_TRACE) of a run with a time filter
 * judged in cycles and no context or task filter (run->entry_quick), which
 * the caller checked once (fast hooks choose their entry at attach): when
 * the run is running, what kft_hook_entry() would do, without the branches
 * its other cases take and without its calls, so that the caller can keep
 * kft_hook_entry() out of line.
 *
 * Return: true when the call is to be timed, false when kft_hook_entry()
 * must decide.
 */
static __always_inline bool kft_hook_entry_quick(struct kft_fhook *hook, struct kft_call *call)
{
	struct kft_run *run = hook->run;

	/* Acquire: as in kft_hook_entry(). */
	if (smp_load_acquire(&run->state) != KFT_RUNNING)
		return false;
	call->gen = READ_ONCE(run->gen);
	call->entry_ns = kft_cycles();
	call->cpu = raw_smp_processor_id();
	call->irq = !in_task();
	call->rec = NULL;
	return true;
}

/*
 * filter roots, at a call's entry (kft_hold.h): a call of a task that owns
 * a slot is inside its outermost root call, and held there whatever
 * function it is; a task that owns none claims one at a root's call, which
 * gives it back at its return. Interrupts are not held.
 * Return: whether the exit is to be seen.
 */
static __always_inline bool kft_hold_entry(struct kft_run *run, unsigned long ip, bool irq,
					   struct kft_call *call)
{
	struct kft_hold *h = &run->hold;
	struct kft_hold_slot *s;

	if (irq)
		return false;
	s = kft_hold_find(h);
	call->root = !s;
	if (!s) {
		if (!kft_hold_is_root(h, ip))
			return false;
		s = kft_hold_claim(h);
		if (!s) {
			this_cpu_inc(run->counters->hold_missed);
			return false;
		}
	}
	call->hold = s;
	return true;
}

/*
 * args string, at a held call's entry: the copy of what its argument
 * points to, on its slot's open stack at the call's depth (kft_hold.h),
 * where its exit finds it. A call deeper than the stack keeps none. The
 * depth counts the call before the copy is made: an interrupt's calls held
 * meanwhile (kft_hold_in_root()) take the places above it. The calls the
 * copy itself makes are not held: kft_hook_entry_extras() skips them.
 */
static __always_inline void kft_hold_str_enter(struct kft_run *run, struct kft_call *call,
					       const struct kft_rec_args *keep)
{
	struct kft_hold_slot *s = call->hold;
	unsigned int d = s->depth;

	call->str_depth = d;
	if (d >= run->hold.open_max)
		return;
	s->depth = d + 1;
	kft_str_take(&s->open[d], keep->a[run->cfg.str_arg - 1], run->cfg.str_user,
		     run->cfg.mem_len);
}

/*
 * wakers: the pending wakeup of current (@s, its offcpu slot) written into
 * its held tree (@hs), at the first entry or exit after the sleep it ended
 * (kft_wake.h).
 */
static __always_inline void kft_hook_wake(struct kft_run *run, struct kft_hold_slot *hs,
					  struct kft_sched_slot *s)
{
	struct kft_sched_wake *wk = kft_sched_wake_of(&run->sched, s);

	/*
	 * Claimed first: a nested call of the task's must not write it again.
	 * Not into a slot whose root returned (kft_hold_put()).
	 */
	if (READ_ONCE(wk->pending) && !READ_ONCE(hs->closing) && xchg(&wk->pending, 0)) {
		kft_wake_hold(&run->sched, &run->hold, hs, wk);
		this_cpu_inc(run->counters->wakes_held);
	}
}

/*
 * offcpu, at a timed call's entry in task context (or in a softirq that
 * runs in a task, under PREEMPT_RT): the task's totals kept
 * (kft_sched.h), or none when its table had no slot for it.
 */
static __always_inline void kft_hook_entry_sched(struct kft_run *run, bool irq,
						 struct kft_call *call)
{
	struct kft_sched_slot *s;

	call->sched = false;
	if (!run->sched.slots || (irq && !kft_softirq_in_task()))
		return;
	s = kft_sched_enter(&run->sched, &call->sched_at.runnable_ns,
			    &call->sched_at.blocked_ns);
	call->sched = s;
	if (!s)
		this_cpu_inc(run->counters->sched_missed);
	else if (unlikely(run->sched.wakes) && call->hold)
		kft_hook_wake(run, call->hold, s);
}

/*
 * A call the filters let through, timed from now: its time, context and
 * CPU; the stack watch's look (never a ring's or a stream's: check_ring()
 * in kft_config.c); with @record, the record a run without a time filter
 * reserves at entry (filter roots holds it instead, and its string; a
 * stream takes whole calls at their exit).
 * Return: 0, or 1 when the log is full.
 */
static __always_inline int kft_hook_entry_take(struct kft_run *run, unsigned long ip,
					       unsigned long ret_ip, struct pt_regs *regs,
					       struct kft_call *call, bool irq, bool record,
					       struct kft_rec_args *keep, enum kft_path path)
{
	struct kft_record *rec;
	struct kft_log_slot s;
	s32 pid;

	call->entry_ns = run->cycles_khz ? kft_cycles() : kft_now();
	call->irq = irq;
	call->cpu = raw_smp_processor_id();
	if ((path == KFT_PATH_LINEAR || path == KFT_PATH_ANY) && run->cfg.watch)
		kft_watch_entry(run, ip, ret_ip, regs, call->entry_ns, kft_record_pid(call));
	if (!record) {
		/*
		 * filter roots holds the call: its string waits with it. (Only a
		 * run with args has the open stack: @keep is set then.)
		 */
		if (unlikely(run->hold.open))
			kft_hold_str_enter(run, call, keep);
		return 0;
	}
	call->rec = NULL;
	if (path != KFT_PATH_STREAM && run->log_at_entry) {
		if (!kft_log_reserve(run, path, call->cpu, &s))
			return 1;
		if (kft_path_log(run, path) == KFT_PATH_RING)
			call->ring_tag = s.tag;
		rec = &run->log.records[s.i];
		pid = kft_record_pid(call);
		kft_log_args_put(run, s.i, keep, call, path);
		if (path == KFT_PATH_ANY)
			kft_log_str_put(run, rec, keep);
		kft_record_fill(rec, ip, ret_ip, call, pid, kft_rec_info_open(call->cpu), 0);
		kft_record_comm(run, call, pid);
		kft_log_publish(run, s, path);
		call->rec = rec;
	}
	return 0;
}

/*
 * filter arg's test of a call's registers, and kft's own calls
 * (kft_run_own_call()): not traced. Return: true to leave the call (counted
 * when filter arg refused it).
 */
static __always_inline bool kft_hook_entry_args_refused(struct kft_run *run, unsigned long ip,
							const struct kft_args_src *args)
{
	if (kft_run_own_call(run))
		return true;
	if (run->argf.nr && !kft_argf_passes(&run->argf, ip, args->fregs, args->regs)) {
		this_cpu_inc(run->counters->filtered_args);
		return true;
	}
	return false;
}

/**
 * kft_hook_entry_refused() - the filters that judge a call from its entry alone
 * @run:	a running run
 * @ip:		the function, as the mechanism reports it
 * @args:	where its argument registers are
 *
 * What kft_hook_entry() would test first, in its order, for a call made
 * in a task or an interrupt (not through a kprobe's break): for a
 * mechanism that can ask before it prepares the call's exit (a fast hook
 * pushes its frame), so that a call refused here costs nothing of that.
 * A call let through goes to kft_hook_entry() with @args->judged set.
 * Preemption is off.
 *
 * Return: true to leave the call.
 */
static __always_inline bool kft_hook_entry_refused(struct kft_run *run, unsigned long ip,
						   const struct kft_args_src *args)
{
	return kft_run_context_refused(run, !in_task()) ||
	       kft_hook_entry_args_refused(run, ip, args);
}

/*
 * The entry of a run with a ring's or a stream's log, filter arg, filter
 * roots, offcpu (the task's slots), or args.
 */
static __always_inline int kft_hook_entry_extras(struct kft_run *run, unsigned long ip,
						  unsigned long ret_ip, struct pt_regs *regs,
						  struct kft_call *call, bool irq,
						  const struct kft_args_src *args)
{
	struct kft_rec_args *keep = NULL;

	if (run->extras == KFT_EXTRAS_RING)
		return kft_hook_entry_take(run, ip, ret_ip, regs, call, irq, true, NULL,
					   KFT_PATH_RING);
	if (run->extras == KFT_EXTRAS_STREAM)
		return kft_hook_entry_take(run, ip, ret_ip, regs, call, irq, true, NULL,
					   KFT_PATH_STREAM);
	if (!args->judged && kft_hook_entry_args_refused(run, ip, args))
		return 1;
	if (run->hold.slots && !kft_hold_entry(run, ip, irq, call))
		return 1;
	if (run->keep_args)
		keep = kft_args_take(args, call);
	if (kft_hook_entry_take(run, ip, ret_ip, regs, call, irq, !run->hold.slots, keep,
				KFT_PATH_ANY))
		return 1;
	/* Last: the exit is now sure to be seen, and gives the slot back. */
	kft_hook_entry_sched(run, irq, call);
	return 0;
}

/*
 * Was the call made in an interrupt? Its hook runs in its context, but
 * for a kprobe (@kp; NULL for other hooks) that fired through its
 * breakpoint where that exception is entered as an NMI
 * (kft_kprobe_trapped()): that level, the exception's, is not the call's.
 */
static __always_inline bool kft_call_in_irq(const struct kprobe *kp)
{
	unsigned long below;

	if (!kp || !in_nmi() || !kft_kprobe_trapped(kp))
		return !in_task();
	below = preempt_count() - (NMI_OFFSET + HARDIRQ_OFFSET);
	return (below & (NMI_MASK | HARDIRQ_MASK)) || in_serving_softirq();
}

/**
 * kft_hook_entry() - a hooked function was entered
 * @hook:	the hook (its role says what for)
 * @ip:		the function, as the mechanism reports it
 * @ret_ip:	where it will return to
 * @regs:	the registers at its first instruction (a kprobe), or NULL
 * @kp:		the kprobe whose handler this is, or NULL
 * @call:	per-call storage, handed to kft_hook_exit()
 * @args:	where its argument registers are, and where to keep them
 *
 * Return: 0 to see the exit, non-zero to skip it.
 */
static __always_inline int kft_hook_entry(struct kft_fhook *hook, unsigned long ip,
					    unsigned long ret_ip, struct pt_regs *regs,
					    const struct kprobe *kp, struct kft_call *call,
					    struct kft_args_src args)
{
	struct kft_run *run = hook->run;
	/* Acquire: a new state comes with its generation (kft_run_prime()). */
	int state = smp_load_acquire(&run->state);
	bool irq;

	call->gen = READ_ONCE(run->gen);
	/* An exit trigger's call: not one of kft's own work (kft_own.h). */
	if (unlikely(hook->role != KFT_HOOK_TRACE))
		return (state != KFT_PRIMED && state != KFT_RUNNING) || kft_run_own_call(run);
	if (state != KFT_RUNNING) {
		/*
		 * Entered before the start: its exit counts as "not found", as
		 * one of an earlier generation (a generation only grows).
		 */
		call->gen--;
		return state != KFT_PRIMED;
	}
	irq = kft_call_in_irq(kp);
	if (!args.judged && kft_run_context_refused(run, irq))
		return 1;
	if (unlikely(run->extras))
		return kft_hook_entry_extras(run, ip, ret_ip, regs, call, irq, &args);
	return kft_hook_entry_take(run, ip, ret_ip, regs, call, irq, true, NULL, KFT_PATH_LINEAR);
}

/*
 * @end - @start, or 0 when the clock of the CPU the call returned on is a
 * little behind the one it was entered on (sched_clock and the TSC are per
 * CPU): never a wrapped 2^64.
 */
static __always_inline u64 kft_elapsed(u64 end, u64 start)
{
	return end > start ? end - start : 0;
}

/* Whether the time filters drop a call that took @t (ns, or cycles). */
static __always_inline bool kft_time_filtered(u64 t, u64 min, u64 max)
{
	return t < min || (max && t > max);
}

/*
 * Whether "filter errors" drops a call that returned @retval: before the
 * clock is read, so that a rejected success costs less than a rejection by
 * time. (Only with the filter: kft_hook_exit_quick() reads the value then.)
 */
static __always_inline bool kft_retval_filtered(const struct kft_run *run,
						unsigned long retval)
{
	if (kft_retval_error(retval))
		return false;
	this_cpu_inc(run->counters->filtered_retval);
	return true;
}

/**
 * kft_hook_exit_quick() - the exits judged without calling anything
 * @hook:	the hook
 * @call:	what kft_hook_entry() stored
 * @retval:	where the return register was saved: read only for "filter
 *		errors" (a run without it pays no load)
 * @now_cycles:	set to the cycle count it read, if it read one (left as is if not)
 *
 * A call that returns when its run no longer runs, or that a filter judged
 * without the ns clock rejects (the common case of "every call slower than
 * N", and "filter errors"), needs nothing more: its caller can keep
 * kft_hook_exit() out of line, and save no registers for it (fast hooks).
 *
 * Return: true when the exit is done, false when kft_hook_exit() (given
 * @now_cycles) has the rest to do.
 */
static __always_inline bool kft_hook_exit_quick(struct kft_fhook *hook, struct kft_call *call,
						const unsigned long *retval, u64 *now_cycles)
{
	struct kft_run *run = hook->run;

	/*
	 * A record reserved at entry: kft_hook_exit() closes it (if running);
	 * offcpu's slot is given back there too, whatever the state. (A
	 * rejected call's arguments need nothing: args alone leaves it here.)
	 */
	if (unlikely(hook->role != KFT_HOOK_TRACE || call->rec || run->exit_extras))
		return false;
	/* Acquire: as in kft_hook_exit(). */
	if (smp_load_acquire(&run->state) != KFT_RUNNING)
		return true;
	if (call->gen != READ_ONCE(run->gen) || !run->cycles_khz)
		return false;
	if (unlikely(run->cfg.errors) && kft_retval_filtered(run, *retval))
		return true;
	*now_cycles = kft_cycles();
	if (!kft_time_filtered(kft_elapsed(*now_cycles, call->entry_ns),
			       run->mintime_cycles, run->maxtime_cycles))
		return false;
	this_cpu_inc(run->counters->filtered_time);
	return true;
}

/*
 * A run with a time trigger stops at its deadline: the hrtimer stops it
 * too; this makes the stop exact. @now: the ns clock, or 0 if this exit
 * did not read it (then read only for a run that has a deadline).
 */
static __always_inline void kft_deadline_check(struct kft_run *run, u64 now)
{
	u64 deadline = atomic64_read(&run->stop_deadline_ns);

	if (unlikely(deadline) && (now ?: kft_now()) >= deadline)
		kft_run_stop(run, KFT_REASON_TIME);
}

/*
 * offcpu, at a timed call's exit, whatever the run's state: the task's
 * slot gives the call's times (call->sched_at) and, with its last call,
 * the slot itself back. Not for a call of an earlier generation: the
 * prime emptied the table since.
 */
static __always_inline void kft_hook_exit_sched(struct kft_run *run, struct kft_call *call)
{
	struct kft_sched_slot *s;

	if (call->gen != READ_ONCE(run->gen)) {
		call->sched = false;
		return;
	}
	if (!call->sched)
		return;
	if (unlikely(run->sched.wakes) && call->hold) {
		s = kft_sched_find(&run->sched, current);
		if (s)
			kft_hook_wake(run, call->hold, s);
	}
	kft_sched_exit(&run->sched, &call->sched_at);
}

/* offcpu: what of a call's @dur its task spent on the CPU. */
static __always_inline u64 kft_call_oncpu(const struct kft_call *call, u64 dur)
{
	u64 off = call->sched ? call->sched_at.runnable_ns + call->sched_at.blocked_ns : 0;

	return dur > off ? dur - off : 0;
}

/* What the time filters judge of a call that took @dur: it, or (filter oncpu) its time on the CPU. */
static __always_inline u64 kft_call_judged(const struct kft_run *run, const struct kft_call *call,
					   u64 dur)
{
	return unlikely(run->cfg.filter_oncpu) ? kft_call_oncpu(call, dur) : dur;
}

/* offcpu: a call's times into @dst (none taken: zeros). */
static __always_inline void kft_rec_sched_fill(struct kft_rec_sched *dst,
					       const struct kft_call *call)
{
	if (call->sched) {
		*dst = call->sched_at;
	} else {
		dst->runnable_ns = 0;
		dst->blocked_ns = 0;
	}
}

/* offcpu: a call's times beside its log record (slot @i), before the record is complete. */
static __always_inline void kft_log_sched_put(struct kft_run *run, unsigned long i,
					      const struct kft_call *call, enum kft_path path)
{
	if (path == KFT_PATH_ANY && unlikely(run->log.sched))
		kft_rec_sched_fill(&run->log.sched[i], call);
}

/*
 * args string, at a held call's exit: its copy moved beside its record
 * (@i of its slot @s), none when it was too deep to have one; its place on
 * the open stack given back after the move, for the same interrupts.
 */
static __always_inline void kft_hold_str_exit(const struct kft_hold *h, struct kft_hold_slot *s,
					      const struct kft_call *call, unsigned int i)
{
	unsigned int d = call->str_depth;

	if (d < h->open_max)
		s->strs[i] = s->open[d];
	else
		s->strs[i].state = KFT_STR_NONE;
	barrier();
	s->depth = d;
}

/*
 * A call that returned after @dur into current's slot @s, with what is
 * kept beside its record: offcpu's times, the registers its entry kept
 * (@args, in a run with args). Return: its record, or NULL when the
 * slot's root returned already (an interrupt's call during its flush).
 */
static __always_inline struct kft_record *kft_hold_put(struct kft_hold *h, struct kft_hold_slot *s,
						       unsigned long ip, unsigned long ret_ip,
						       struct kft_call *call, u64 dur,
						       unsigned long retval,
						       struct kft_rec_args *args)
{
	struct kft_record *rec;

	if (unlikely(READ_ONCE(s->closing)))
		return NULL;
	rec = kft_hold_room(h, s);
	if (unlikely(h->sides)) {
		if (s->sched)
			kft_rec_sched_fill(&s->sched[rec - s->recs], call);
		/* (Only a run with args has strings.) */
		if (s->args) {
			s->args[rec - s->recs] = *kft_args_keep(args, call);
			if (unlikely(s->strs))
				kft_hold_str_exit(h, s, call, rec - s->recs);
		}
	}
	/* Only current reads its slot, at the flush: no order to keep. */
	rec->entry_ns = call->entry_ns;
	rec->func = ip;
	rec->caller_off = kft_rec_caller_off(ret_ip, ip);
	rec->info = kft_rec_info(dur, call->cpu);
	rec->retval = retval;
	return rec;
}

/*
 * filter roots, at a call's exit: a call inside a root call is held in
 * current's slot, and so is the outermost root's own, whose return then
 * decides on the subtree (kft_hold_root_return(), out of line: once a
 * root call, it takes no register from every held call's exit). A call
 * of an earlier generation leaves the slot alone: the prime emptied the
 * table since. The calls are timed in cycles where the run has them (as a
 * time filter's are), and their times put in ns only when the root is
 * kept.
 */
static __always_inline void kft_hold_exit(struct kft_run *run, unsigned long ip,
					  unsigned long ret_ip, struct kft_call *call,
					  unsigned long retval, struct kft_rec_args *args)
{
	struct kft_hold_slot *s = call->hold;
	struct kft_record *rec;
	u64 dur;

	/* (call->hold is set only by an entry of the run's generation.) */
	if (call->gen != READ_ONCE(run->gen) || !s) {
		this_cpu_inc(run->counters->not_found);
		return;
	}
	dur = kft_elapsed(run->cycles_khz ? kft_cycles() : kft_now(), call->entry_ns);
	if (likely(!call->root)) {
		kft_hold_put(&run->hold, s, ip, ret_ip, call, dur, retval, args);
		return;
	}
	rec = kft_hold_put(&run->hold, s, ip, ret_ip, call, dur, retval, args);
	kft_hold_root_return(run, s, rec, call, dur, retval);
}

/*
 * A call that returned after @dur, as one whole record reserved now (and
 * args string's copy made now: a ring that wrote over the record its
 * entry reserved wrote over that copy too).
 * Return: false when the log had no room (a full linear log stops the run).
 */
static __always_inline bool kft_log_whole(struct kft_run *run, unsigned long ip,
					  unsigned long ret_ip, struct kft_call *call,
					  u64 dur, unsigned long retval,
					  struct kft_rec_args *keep, enum kft_path path)
{
	struct kft_log_slot s;
	s32 pid;

	if (!kft_log_reserve(run, path, -1, &s))
		return false;
	pid = kft_record_pid(call);
	kft_log_sched_put(run, s.i, call, path);
	kft_log_args_put(run, s.i, keep, call, path);
	kft_log_str_exit(run, s.i, keep, call, path);
	kft_record_fill(&run->log.records[s.i], ip, ret_ip, call, pid,
			kft_rec_info(dur, call->cpu), retval);
	/* The name before the row: a stream's reader takes both at once. */
	kft_record_comm(run, call, pid);
	kft_log_publish(run, s, path);
	return true;
}

/*
 * The exit of a call whose record its entry reserved: the record closed.
 * A ring may have written over it since: the call is then recorded anew.
 */
static __always_inline void kft_log_close(struct kft_run *run, unsigned long ip,
					  unsigned long ret_ip, bool ret_ip_known,
					  struct kft_call *call, u64 dur, unsigned long retval,
					  struct kft_rec_args *keep, enum kft_path path)
{
	struct kft_record *rec = call->rec;
	bool ring = kft_path_log(run, path) == KFT_PATH_RING;
	u32 *tag = NULL;
	u32 t = 0;

	/* (A stream's entry reserves nothing: its calls' exits come here never.) */
	if (ring) {
		tag = &run->log.ring.tags[rec - run->log.records];
		if (!kft_ring_close_begin(tag, call->ring_tag, rec, call->entry_ns, &t)) {
			kft_log_whole(run, ip, ret_ip, call, dur, retval, keep, path);
			return;
		}
	}
	kft_log_sched_put(run, rec - run->log.records, call, path);
	kft_record_close(rec, ip, ret_ip, ret_ip_known, dur, call->cpu, retval);
	if (ring)
		kft_ring_close_end(tag, t);
}

/*
 * A traced call's exit: its record closed, or made if the filters keep it
 * (histogram mode: counted in its bucket). See kft_hook_exit().
 */
static __always_inline void kft_hook_exit_record(struct kft_run *run, unsigned long ip,
						 unsigned long ret_ip, bool ret_ip_known,
						 struct kft_call *call, u64 now_cycles,
						 unsigned long retval,
						 struct kft_rec_args *keep, enum kft_path path)
{
	u64 now = 0, dur, cycles;

	/* Acquire: the generation read below is the state's (kft_run_prime()). */
	if (smp_load_acquire(&run->state) != KFT_RUNNING)
		return;
	/* Entered before the start, or in an earlier generation (its record
	 * slot, if it had one, may now be another call's).
	 */
	if (call->gen != READ_ONCE(run->gen)) {
		this_cpu_inc(run->counters->not_found);
		return;
	}
	/* (A stream's entry reserves nothing.) */
	if (path != KFT_PATH_STREAM && call->rec) {
		now = kft_now();
		dur = kft_elapsed(now, call->entry_ns);
		kft_log_close(run, ip, ret_ip, ret_ip_known, call, dur, retval, keep, path);
	} else {
		/* (A record at entry only without this filter: kft_run_create().) */
		if (unlikely(run->cfg.errors) && !now_cycles && kft_retval_filtered(run, retval))
			return;
		if (run->cycles_khz) {
			/* Judged in cycles: a dropped call never reads the ns clock. */
			cycles = kft_elapsed(now_cycles ?: kft_cycles(), call->entry_ns);
			if (kft_time_filtered(cycles, run->mintime_cycles,
					      run->maxtime_cycles))
				goto filtered;
			dur = mul_u64_u32_div(cycles, NSEC_PER_MSEC, run->cycles_khz);
			/* A record's entry time is on the ns clock (a histogram has none). */
			if (!kft_path_histogram(run, path)) {
				now = kft_now();
				call->entry_ns = now - dur;
			}
		} else {
			now = kft_now();
			dur = kft_elapsed(now, call->entry_ns);
			if (kft_time_filtered(kft_call_judged(run, call, dur), run->mintime_ns,
					      run->maxtime_ns))
				goto filtered;
		}
		if (kft_path_histogram(run, path)) {
			if (run->cfg.offcpu)
				dur = kft_call_oncpu(call, dur);
			/* (Only a run with extras keeps what per-arg keys by.) */
			if (path == KFT_PATH_ANY && unlikely(run->cfg.per_arg))
				kft_hist_add_value(run, ip, dur, call, keep);
			else
				kft_hist_add(run, ip, dur);
		} else if (!kft_log_whole(run, ip, ret_ip, call, dur, retval, keep, path))
			return;
	}
	kft_deadline_check(run, now);
	return;

filtered:
	this_cpu_inc(run->counters->filtered_time);
}

/* The exit of a run with a ring's or a stream's log, filter roots, offcpu, or args. */
static __always_inline void kft_hook_exit_extras(struct kft_run *run, unsigned long ip,
						  unsigned long ret_ip, bool ret_ip_known,
						  struct kft_call *call, u64 now_cycles,
						  unsigned long retval,
						  struct kft_rec_args *keep)
{
	if (run->extras == KFT_EXTRAS_RING) {
		kft_hook_exit_record(run, ip, ret_ip, ret_ip_known, call, now_cycles, retval,
				     NULL, KFT_PATH_RING);
		return;
	}
	if (run->extras == KFT_EXTRAS_STREAM) {
		kft_hook_exit_record(run, ip, ret_ip, ret_ip_known, call, now_cycles, retval,
				     NULL, KFT_PATH_STREAM);
		return;
	}
	if (run->sched.slots)
		kft_hook_exit_sched(run, call);
	if (run->hold.slots)
		kft_hold_exit(run, ip, ret_ip, call, retval, keep);
	else
		kft_hook_exit_record(run, ip, ret_ip, ret_ip_known, call, now_cycles, retval, keep,
				     KFT_PATH_ANY);
}

/**
 * kft_hook_exit() - a hooked function returned
 * @hook:	the hook
 * @ip:		the function
 * @ret_ip:	the return address
 * @ret_ip_known: @ret_ip is the one kft_hook_entry() was given (fast hooks)
 * @call:	what kft_hook_entry() stored
 * @now_cycles:	the cycle count kft_hook_exit_quick() read, or 0
 * @retval:	the return register (the function's return value)
 * @keep:	where kft_hook_entry() kept its arguments (args: struct
 *		kft_args_src's)
 */
static __always_inline void kft_hook_exit(struct kft_fhook *hook, unsigned long ip,
					  unsigned long ret_ip, bool ret_ip_known,
					  struct kft_call *call, u64 now_cycles,
					  unsigned long retval, struct kft_rec_args *keep)
{
	struct kft_run *run = hook->run;

	if (unlikely(hook->role != KFT_HOOK_TRACE)) {
		/* A call that entered under an earlier run's hook (kft_run.h). */
		if ((s32)(call->gen - run->first_gen) < 0)
			return;
		if (hook->role == KFT_HOOK_START_EXIT &&
		    (!run->cfg.start.on_error || kft_retval_error(retval)))
			kft_run_start(run, KFT_REASON_EXIT);
		else if (hook->role == KFT_HOOK_STOP_EXIT &&
			 (!run->cfg.stop.on_error || kft_retval_error(retval)))
			kft_run_stop(run, KFT_REASON_EXIT);
		return;
	}
	if (unlikely(run->extras))
		kft_hook_exit_extras(run, ip, ret_ip, ret_ip_known, call, now_cycles, retval,
				     keep);
	else
		kft_hook_exit_record(run, ip, ret_ip, ret_ip_known, call, now_cycles, retval,
				     NULL, KFT_PATH_LINEAR);
}

#endif
