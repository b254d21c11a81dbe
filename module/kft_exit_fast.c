// SPDX-License-Identifier: GPL-2.0
/*
 * "hooks fast": kft's own exit hook, what function_graph does inside the
 * kernel, done from a module.
 *
 * Entry is an ftrace_ops callback without SAVE_REGS (but on 32-bit ARM)
 * and without FTRACE_OPS_FL_RECURSION (kft guards against recursion with
 * its own shadow stack, kft_fast_recursion(), for less than ftrace's
 * lock). ftrace saved where the traced function's return address is
 * (kft_ftrace_ret_slot(): on the stack on x86-64, in the saved link
 * register elsewhere): kft keeps that address on a shadow stack and writes
 * the address of its trampoline there instead.
 *
 *	traced function's stack (x86-64)  kft_fast_table (per task, hashed)
 *	+---------------------+          +---------------------------------+
 *	| caller's frame      |          | owner = task, depth = 2         |
 *	| return address  ----+--> kft_fast_return   frames[0]: sp, orig    |
 *	| (sp after return)   |          |           frames[1]: sp, orig    |
 *	| traced function ... |          +---------------------------------+
 *
 * The function returns into kft_fast_return (kft_exit_fast_*.S), which calls kft_fast_exit(): it finds the top
 * frame of the task's shadow stack, checks that it is the frame of this
 * return (the stack pointer after the return is the frame's), lets
 * kft_hook_exit_quick() or kft_hook_exit() time the call, pops the frame,
 * and jumps to the address it had replaced.
 *
 * The shadow stacks: a module has no field of its own in task_struct, and a
 * per-CPU stack breaks when the traced function sleeps or migrates. So a
 * table of slots, each {owner task, depth, frames[KFT_FAST_DEPTH]}, indexed
 * by a hash of the task pointer with KFT_FAST_PROBES linear probes. A task
 * holds a slot only while it is inside a hooked call: entry takes the first
 * probed slot that is free (cmpxchg of the owner) or already its own; exit
 * takes the first probed slot it owns, which is always the one of its most
 * recent frame (a newer claim can only be at an earlier probe). Interrupts
 * and NMIs run on the task they interrupt and nest strictly: each push
 * reserves its frame (depth + 1) before writing it and each pop reads its
 * frame before releasing it (depth - 1), so a nested context only ever uses
 * frames above the ones in progress. Only the frame that claimed a slot
 * gives it back. A full table, a stack KFT_FAST_DEPTH deep or recursion
 * leave the call unhooked and count it as missed; nothing is overwritten.
 *
 * What never returns: a task that exits inside hooked calls has its slots
 * freed once nothing of it can run any more (kft_fast_task_free(), or the
 * unpin finding it dead); functions that never return, or only when their
 * kernel thread stops, are never hooked (kft_fast_noreturn); nor is any
 * call while function_graph is paused for the task (a suspend's finisher:
 * kft_graph_paused()), which counts as missed.
 *
 * Teardown: frames point into this module's text. Detaching a hook stops
 * new frames (ftrace waits for callbacks in progress); its registry entry
 * is cleared and a grace period passes, after which a return through one of
 * its frames only jumps back; then, under stop_machine(), the frames of
 * blocked tasks are undone (their return addresses written back). The
 * module is pinned (rmmod says busy) from the first fast attach until no
 * fast hook is attached and the table is empty: `clear`, then rmmod once
 * the tasks that were running inside timed calls have returned from them
 * (a blocked task no longer counts, and one that blocks later is let go
 * within seconds: kft_fast_unpin_work()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/glob.h>
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stop_machine.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "kft_exit.h"
#include "kft_ftrace.h"
#include "kft_hook_path.h"
#include "kft_mem.h"
#include "kft_run.h"

/* (Empty where the kernel is too old for them: 32-bit ARM before 5.18.) */
#if KFT_HAVE_FAST_HOOKS

#define KFT_FAST_DEPTH		32	/* hooked calls nested in one task */
#define KFT_FAST_PROBES		8	/* slots one task may try */
#define KFT_FAST_HOOKS		8	/* 3 per run, two runs while one replaces the other */

/*
 * Tasks inside hooked calls at once (a task asleep in one keeps its slot):
 * the table takes this many slots rounded up to a power of two, 2.6 KiB
 * each, allocated at the first fast attach.
 */
static unsigned int fast_tasks = 1024;
module_param(fast_tasks, uint, 0444);
MODULE_PARM_DESC(fast_tasks,
		 "tasks that can be inside calls timed by fast hooks at once (default: 1024)");

/*
 * A frame's id once its hook was detached and a pass found its return
 * slot held by another exit hook (kft_fast_unhijack_slot()): no hook's.
 */
#define KFT_FAST_ID_HELD	0UL

struct kft_fast_frame {
	unsigned long sp;		/* the stack pointer after its return */
	unsigned long orig;		/* the return address (the caller, or another hook) */
	unsigned long ip;		/* the function */
	unsigned long ret_ip;		/* its caller, for the record */
	unsigned long id;		/* the hook, in kft_fast_regs, or KFT_FAST_ID_HELD */
	struct kft_call call;
	bool claimed;			/* this frame claimed the slot */
	u32 entering;			/* kft_fast_context() while its entry calls out, else 0 */
};

struct kft_fast_slot {
	struct task_struct *owner;
	unsigned int depth;
	struct kft_fast_frame frames[KFT_FAST_DEPTH];
} ____cacheline_aligned;

static struct kft_fast_slot *kft_fast_table;
/* The table has kft_fast_mask + 1 slots, 2^(BITS_PER_LONG - kft_fast_shift). */
static unsigned int kft_fast_shift;
static unsigned long kft_fast_mask;

/*
 * args: the arguments of the call of frame d of slot s, at s's index
 * times KFT_FAST_DEPTH plus d. A table of its own, taken at the first
 * attach of a run with args, so that frames are no larger without them.
 */
static struct kft_rec_args *kft_fast_args;

/*
 * Hooks by id: a frame names its hook by an id, never by pointer, so that a
 * frame of a detached (freed) hook finds nothing. Written under kft_mutex.
 */
static struct {
	struct kft_fhook *hook;
	unsigned long id;
} kft_fast_regs[KFT_FAST_HOOKS];
static unsigned long kft_fast_seq;

/*
 * Never hooked: they do not return, or only when their kernel thread stops
 * (module/kft_noreturn.h, made by scripts/gen-noreturn from the kernel's
 * own lists).
 */
static const char *const kft_fast_noreturn[] = {
#include "kft_noreturn.h"
};
static_assert(ARRAY_SIZE(kft_fast_noreturn) <= KFT_MAX_NOTRACE_NAMES);
static struct kft_names kft_fast_noreturn_names = KFT_NAMES(kft_fast_noreturn);

/* @t's first probe: hash_ptr(t, bits), with the shift computed once. */
static __always_inline unsigned long kft_fast_home(struct task_struct *t)
{
	return ((unsigned long)t * GOLDEN_RATIO_64) >> kft_fast_shift;
}

/*
 * A CPU taken down reports itself dead from inside a call of its idle task
 * (cpuhp_ap_report_dead()), which returns, and calls more before it stops;
 * on another CPU the report lets the idle task's frames be given back
 * (kft_fast_cpu_idle_drop()): a frame pushed there would be gone when its
 * call returned. So that task claims no slot once its CPU is offline (its
 * callers there, the idle loop's, are on the deny list: it has none).
 */
static __always_inline bool kft_fast_may_claim(struct task_struct *t)
{
	return likely(!is_idle_task(t)) || cpu_online(raw_smp_processor_id());
}

/*
 * The first probed slot @t owns, or (with @claimed) may claim, into @slot.
 * Return: whether there is one. (A bool, not a NULL slot: the caller's
 * test then folds into the loop's exits.)
 */
static __always_inline bool kft_fast_slot(struct task_struct *t, bool *claimed,
					  struct kft_fast_slot **slot)
{
	unsigned long h = kft_fast_home(t);
	unsigned long mask = kft_fast_mask;
	struct kft_fast_slot *s;
	struct task_struct *o;
	unsigned int i;

	for (i = 0; i < KFT_FAST_PROBES; i++) {
		s = &kft_fast_table[(h + i) & mask];
		o = READ_ONCE(s->owner);
		if (o == t) {
			*slot = s;
			return true;
		}
		if (!o && claimed && kft_fast_may_claim(t) && !cmpxchg(&s->owner, NULL, t)) {
			*claimed = true;
			*slot = s;
			return true;
		}
	}
	return false;
}

/* Gives a slot back; its frames are read before (release pairs with the claim). */
static __always_inline void kft_fast_release(struct kft_fast_slot *s)
{
	/* Orders the reads of the frames before the slot is free to claim. */
	smp_store_release(&s->owner, NULL);
}

static __always_inline struct kft_fhook *kft_fast_hook_of(unsigned long id)
{
	unsigned int i = id % KFT_FAST_HOOKS;
	/* Acquire: pairs with kft_fast_register(), the id comes with the hook. */
	struct kft_fhook *hook = smp_load_acquire(&kft_fast_regs[i].hook);

	return hook && READ_ONCE(kft_fast_regs[i].id) == id ? hook : NULL;
}

/* The caller of a tail call from a hooked function: its frame has it. */
static __always_inline unsigned long kft_fast_caller(struct kft_fast_slot *s, unsigned int d,
						     unsigned long sp, unsigned long parent_ip)
{
	if (parent_ip != (unsigned long)kft_fast_return || !d ||
	    s->frames[d - 1].sp != sp)
		return parent_ip;
	return s->frames[d - 1].ret_ip;
}

/*
 * The context a push runs in: task, softirq, each level of hardirq, NMI
 * (the preemption count's bits for them, never 0). Two pushes on one task
 * in the same context, one inside the other's entry, are a recursion.
 */
static __always_inline u32 kft_fast_context(void)
{
	return (preempt_count() & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET)) | 1;
}

/*
 * kft's recursion guard (the ops has no FTRACE_OPS_FL_RECURSION): only
 * kft_hook_entry() calls out (a full log stops the run: irq_work_queue()),
 * and a hooked function called there would enter here again. Its frame is
 * the top one, marked as entering in the same context around that call
 * (kft_fast_entry_slow(), kft_fast_entry()): that call is left unhooked.
 * An interrupt or NMI arriving meanwhile pushes above it in another
 * context, and is timed. The quick entry calls nothing and marks nothing.
 *
 * Cheaper than ftrace's lock (ftrace_test_recursion_trylock(): about 30
 * instructions a call) since the slot is at hand. Like that lock, it takes
 * for a recursion what an interrupt runs in the interrupted context's
 * count: the code before an interrupt's entry has counted itself, and the
 * softirqs run at its exit (__do_softirq() before it counts itself in).
 * Those calls are missed, only while an entry calls out (ftrace's lock
 * allows one such level).
 *
 * A recursion slips past once if the task finds a slot freed meanwhile
 * at an earlier probe than its own (its frame is not on top there): that
 * entry claims it, and the next level meets its mark. One level at most.
 */
static __always_inline bool kft_fast_recursion(struct kft_fast_slot *s, unsigned int d)
{
	u32 entering = d ? READ_ONCE(s->frames[d - 1].entering) : 0;

	return unlikely(entering) && entering == kft_fast_context();
}

/* Marks frame @f as entering while its entry calls kft_hook_entry(). */
static __always_inline void kft_fast_enter(struct kft_fast_frame *f)
{
	WRITE_ONCE(f->entering, kft_fast_context());
	barrier();
}

/* Takes back the top frame @f (at @d) of @s, pushed for a call not timed. */
static __always_inline void kft_fast_unpush(struct kft_fast_slot *s, struct kft_fast_frame *f,
					    unsigned int d)
{
	bool claimed = f->claimed;

	WRITE_ONCE(f->entering, 0);
	barrier();
	WRITE_ONCE(s->depth, d);
	if (claimed)
		kft_fast_release(s);
}

/*
 * Pushes a frame for a call of @ip, which returns to *@retp with stack
 * pointer @sp, and writes it whole but for its struct kft_call: into
 * @frame, at @depth of @slot.
 * Return: false if the call cannot be hooked (no slot, too deep, a
 * recursion). (A bool, not a NULL frame: the address is hidden from the
 * compiler below, which could then not fold the caller's test.)
 */
static __always_inline bool kft_fast_push(struct kft_fhook *hook, unsigned long ip,
					  unsigned long parent_ip, unsigned long *retp,
					  unsigned long sp, struct kft_fast_frame **frame,
					  struct kft_fast_slot **slot, unsigned int *depth)
{
	struct kft_fast_frame *f;
	struct kft_fast_slot *s;
	bool claimed = false;
	unsigned int d;

	if (kft_graph_paused(current) || unlikely(!kft_fast_slot(current, &claimed, &s)))
		return false;
	d = READ_ONCE(s->depth);
	if (unlikely(d >= KFT_FAST_DEPTH || kft_fast_recursion(s, d))) {
		if (claimed)
			kft_fast_release(s);
		return false;
	}
	/* Reserved before written: a nested context pushes above it. */
	WRITE_ONCE(s->depth, d + 1);
	barrier();
	f = &s->frames[d];
	/* Kept in a register: gcc would compute it again at each use. */
	OPTIMIZER_HIDE_VAR(f);
	/*
	 * Written whole before kft_hook_entry() (its rare calls out keep
	 * fewer values alive): only the return slot's new address waits for
	 * its yes. Nothing else writes that slot meanwhile: other exit hooks
	 * on this function run before or after this callback, not in it.
	 */
	f->ret_ip = kft_fast_caller(s, d, sp, parent_ip);
	f->sp = sp;
	f->orig = READ_ONCE(*retp);
	f->ip = ip;
	f->id = hook->fast.id;
	f->claimed = claimed;
	*frame = f;
	*slot = s;
	*depth = d;
	return true;
}

/*
 * The call is timed: its return, whose address is in *@retp until the
 * entry's callback returns, comes to kft_fast_return.
 */
static __always_inline void kft_fast_hijack(unsigned long *retp)
{
	WRITE_ONCE(*retp, (unsigned long)kft_fast_return);
}

/*
 * kft_hook_entry() decides on the call of frame @f (at @d of @s), which is
 * marked as entering meanwhile (kft_fast_recursion()); @fregs has its
 * arguments.
 */
static __always_inline void kft_fast_entry_judge(struct kft_fhook *hook,
						 struct kft_fast_slot *s,
						 struct kft_fast_frame *f, unsigned int d,
						 unsigned long *retp, struct ftrace_regs *fregs,
						 bool judged)
{
	struct kft_args_src args = { .fregs = fregs, .judged = judged };

	kft_fast_enter(f);
	if (kft_hook_entry(hook, f->ip, f->ret_ip, NULL, NULL, &f->call, args)) {
		kft_fast_unpush(s, f, d);
	} else {
		WRITE_ONCE(f->entering, 0);
		barrier();
		kft_fast_hijack(retp);
	}
}

/*
 * An entry that kft_hook_entry_quick() did not take (not yet running, a
 * filter, a record made at entry, a trigger), out of line:
 * kft_fast_entry_quick() tail-calls it and saves no register for it.
 * Preemption is off (as there).
 */
static noinline notrace void kft_fast_entry_slow(struct kft_fhook *hook,
						 struct kft_fast_slot *s,
						 struct kft_fast_frame *f, unsigned int d,
						 unsigned long *retp, struct ftrace_regs *fregs)
{
	kft_fast_entry_judge(hook, s, f, d, retp, fregs, false);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_fast_entry_slow);

/*
 * The entry's first part, with preemption disabled by the caller (until
 * the call is judged): the hook's run (kft_comms_note() on this CPU's part
 * of the log's table), and a frame marked as entering is never on a
 * preempted task. Return: whether a frame @f was pushed for this call (if
 * not, it is counted as missed), whose return address is in *@retp.
 */
static __always_inline bool kft_fast_begin(struct kft_fhook *hook, unsigned long ip,
					   unsigned long parent_ip, struct ftrace_regs *fregs,
					   struct kft_fast_frame **f, struct kft_fast_slot **s,
					   unsigned int *d, unsigned long **retp)
{
	unsigned long sp;

	if (likely(kft_ftrace_ret_slot(fregs, ip, retp, &sp) &&
		   kft_fast_push(hook, ip, parent_ip, *retp, sp, f, s, d)))
		return true;
	atomic_long_inc(&hook->fast.missed);
	return false;
}

/*
 * The entry of a run whose calls kft_hook_entry_quick() takes when it is
 * running (run->entry_quick): the rest is out of line.
 */
static notrace void kft_fast_entry_quick(unsigned long ip, unsigned long parent_ip,
					 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct kft_fhook *hook = container_of(op, struct kft_fhook, fast.ops);
	struct kft_fast_frame *f;
	struct kft_fast_slot *s;
	unsigned long *retp;
	unsigned int d;

	preempt_disable_notrace();
	if (likely(kft_fast_begin(hook, ip, parent_ip, fregs, &f, &s, &d, &retp))) {
		if (unlikely(!kft_hook_entry_quick(hook, &f->call))) {
			kft_fast_entry_slow(hook, s, f, d, retp, fregs);
			return;
		}
		kft_fast_hijack(retp);
	}
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_fast_entry_quick);

/* The entry of any other hook: kft_hook_entry() inline. */
static notrace void kft_fast_entry(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct kft_fhook *hook = container_of(op, struct kft_fhook, fast.ops);
	struct kft_fast_frame *f;
	struct kft_fast_slot *s;
	unsigned long *retp;
	unsigned int d;

	preempt_disable_notrace();
	if (likely(kft_fast_begin(hook, ip, parent_ip, fregs, &f, &s, &d, &retp)))
		kft_fast_entry_judge(hook, s, f, d, retp, fregs, false);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_fast_entry);

/*
 * The entry of a trace hook of a run with a context, task or argument
 * filter: a running run's filters that need no frame judge the call first,
 * so that a call they refuse costs no push and no pop (nor any recursion
 * guard but a string read's own: nothing else is called).
 */
static notrace void kft_fast_entry_filtered(unsigned long ip, unsigned long parent_ip,
					    struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	struct kft_fhook *hook = container_of(op, struct kft_fhook, fast.ops);
	struct kft_args_src args = { .fregs = fregs };
	struct kft_run *run = hook->run;
	struct kft_fast_frame *f;
	struct kft_fast_slot *s;
	unsigned long *retp;
	unsigned int d;
	bool judged;

	preempt_disable_notrace();
	/* Acquire: as in kft_hook_entry(), which reads the state again. */
	judged = smp_load_acquire(&run->state) == KFT_RUNNING;
	if (judged && kft_hook_entry_refused(run, ip, &args)) {
		preempt_enable_notrace();
		return;
	}
	if (likely(kft_fast_begin(hook, ip, parent_ip, fregs, &f, &s, &d, &retp)))
		kft_fast_entry_judge(hook, s, f, d, retp, fregs, judged);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_fast_entry_filtered);

/* The entry a hook's calls take, chosen at its attach. */
static ftrace_func_t kft_fast_entry_for(const struct kft_fhook *hook)
{
	if (hook->role != KFT_HOOK_TRACE)
		return kft_fast_entry;
	if (hook->run->entry_quick)
		return kft_fast_entry_quick;
	/*
	 * (A run whose work calls traced functions, kft_own.h: a call that
	 * work makes is left alone before a frame is pushed, not counted as
	 * the frame's recursion, and the unwinder meets no fast frame.)
	 */
	if (hook->run->argf.nr || hook->run->ctx_filter || hook->run->own_calls)
		return kft_fast_entry_filtered;
	return kft_fast_entry;
}

/**
 * kft_fast_keep() - where a fast hook's call keeps its arguments (args)
 * @call:	the call, in its frame
 *
 * Return: its place in kft_fast_args, which a run with args has.
 */
notrace struct kft_rec_args *kft_fast_keep(struct kft_call *call)
{
	struct kft_fast_frame *f = container_of(call, struct kft_fast_frame, call);
	unsigned long s = ((unsigned long)f - (unsigned long)kft_fast_table) /
			  sizeof(struct kft_fast_slot);

	return &kft_fast_args[s * KFT_FAST_DEPTH + (f - kft_fast_table[s].frames)];
}
NOKPROBE_SYMBOL(kft_fast_keep);

/* A return with no frame of its own: where to go is unknown (fgraph panics). */
static notrace void __noreturn kft_fast_lost(unsigned long *sp)
{
	panic("kft: return through the fast hooks' trampoline without its frame (sp %p)\n",
	      sp);
}
NOKPROBE_SYMBOL(kft_fast_lost);

/* Pops the top frame @f (at @d) of @s at its return: where to go now. */
static __always_inline unsigned long kft_fast_pop(struct kft_fast_slot *s,
						  struct kft_fast_frame *f, unsigned int d)
{
	unsigned long orig = f->orig;
	bool claimed = f->claimed;

	/* Read before released: a nested context may push over it now. */
	barrier();
	WRITE_ONCE(s->depth, d);
	if (claimed)
		kft_fast_release(s);
	return orig;
}

/*
 * The rest of an exit that kft_hook_exit_quick() did not finish (a record,
 * a trigger, a call of an earlier generation), out of line: kft_fast_exit()
 * tail-calls it and saves no register for it. Preemption is off (as there).
 */
static noinline notrace unsigned long kft_fast_exit_slow(struct kft_fast_slot *s,
							 struct kft_fast_frame *f,
							 unsigned int d,
							 struct kft_fhook *hook,
							 u64 now_cycles,
							 unsigned long retval)
{
	kft_hook_exit(hook, f->ip, f->ret_ip, true, &f->call, now_cycles, retval, NULL);
	preempt_enable_notrace();
	return kft_fast_pop(s, f, d);
}
NOKPROBE_SYMBOL(kft_fast_exit_slow);

/**
 * kft_fast_exit() - a hooked function returned (from kft_fast_return)
 * @sp:		the stack pointer after its return
 *
 * Return: the address it had to return to.
 */
notrace unsigned long kft_fast_exit(unsigned long *sp)
{
	/* Where kft_fast_return saved rax or x0 (kft_exit_fast_*.S). */
	const unsigned long *retval = sp - KFT_FAST_RETVAL_WORDS;
	struct kft_fast_frame *f;
	struct kft_fast_slot *s;
	struct kft_fhook *hook;
	unsigned int d;
	u64 now_cycles = 0;

	if (unlikely(!kft_fast_slot(current, NULL, &s)))
		kft_fast_lost(sp);
	d = READ_ONCE(s->depth);
	if (unlikely(!d))
		kft_fast_lost(sp);
	d--;
	f = &s->frames[d];
	OPTIMIZER_HIDE_VAR(f);
	if (unlikely(f->sp != (unsigned long)sp))
		kft_fast_lost(sp);
	/*
	 * The frame stays reserved while the exit is timed: what the hook
	 * calls, and interrupts, push above it. Preemption off keeps the
	 * hook valid (kft_fast_unregister()). No recursion lock: a hooked
	 * function called from here (irq_work_queue() from a stop) is timed
	 * like any other, and its exit finds the run no longer running.
	 */
	preempt_disable_notrace();
	hook = kft_fast_hook_of(f->id);
	if (hook && !kft_hook_exit_quick(hook, &f->call, retval, &now_cycles))
		return kft_fast_exit_slow(s, f, d, hook, now_cycles, *retval);
	preempt_enable_notrace();
	return kft_fast_pop(s, f, d);
}
NOKPROBE_SYMBOL(kft_fast_exit);

/*
 * Nor may a kprobe sit in the trampoline (kft_exit_fast_*.S): its
 * breakpoint would run the kprobe's handler, and a kretprobe's hijack of
 * the return address, between a hooked function's return and the frame
 * that says where it returns to. The guard byte and the trampoline are two
 * symbols to kallsyms: each is listed.
 */
NOKPROBE_SYMBOL(kft_fast_region);
NOKPROBE_SYMBOL(kft_fast_return);

/* Below: process context, but for kft_fast_task_free(). */

/*
 * Taken by whoever reads a slot owner's task_struct outside stop_machine()
 * (the unpin's looks) and by kft_fast_task_free() around giving a freed
 * task's slots back: the task_struct is freed just after that probe, with
 * no grace period in between, so rcu_read_lock() alone would not keep it.
 */
static DEFINE_RAW_SPINLOCK(kft_fast_owners_lock);

/*
 * The table's walks take the lock for this many slots at a time: with
 * interrupts off for a few microseconds, not for a whole table of
 * fast_tasks slots (a cache miss or more each).
 */
#define KFT_FAST_WALK_CHUNK	64U

/* The end of the walk's chunk that starts at slot @i. */
static unsigned int kft_fast_chunk_end(unsigned int i)
{
	return min(i + KFT_FAST_WALK_CHUNK, kft_fast_mask + 1);
}

/* Empties slot @s of a task that will never run again, and gives it back. */
static notrace void kft_fast_slot_free(struct kft_fast_slot *s)
{
	unsigned int d;

	for (d = 0; d < KFT_FAST_DEPTH; d++)
		WRITE_ONCE(s->frames[d].entering, 0);
	WRITE_ONCE(s->depth, 0);
	kft_fast_release(s);
}

/*
 * @t has run for the last time: its final switch is done (TASK_DEAD and
 * off its CPU), its stack is freed or about to be. Its frames will never
 * return, and its stack must not be written (kft_fast_unhijack_slot()).
 * Under kft_fast_owners_lock or stop_machine().
 */
static notrace bool kft_fast_dead(struct task_struct *t)
{
	/* Acquire: pairs with finish_task()'s release, the switch away done. */
	return READ_ONCE(t->__state) == TASK_DEAD && !smp_load_acquire(&t->on_cpu);
}

/*
 * sched_process_free, from delayed_put_task_struct(): the task @p is gone
 * and its task_struct about to be freed (where the kernel's own rethook
 * and kretprobes free a task's shadow stack). Not at sched_process_exit:
 * the exiting task still runs there, inside calls of its own that may be
 * hooked (that tracepoint's iterator, __traceiter_sched_process_exit, when
 * it has two probes), and freeing their frames made them return to
 * kft_fast_lost(). (One that oopsed inside kft's entry may leave a frame
 * marked as entering: the quick entry, which does not write the mark,
 * must not find it there for the slot's next owner.)
 */
static notrace void kft_fast_task_free(void *data, struct task_struct *p)
{
	struct kft_fast_slot *s;
	unsigned long flags;

	if (likely(!kft_fast_slot(p, NULL, &s)))
		return;
	raw_spin_lock_irqsave(&kft_fast_owners_lock, flags);
	while (kft_fast_slot(p, NULL, &s))
		kft_fast_slot_free(s);
	raw_spin_unlock_irqrestore(&kft_fast_owners_lock, flags);
}

static struct tracepoint *kft_fast_free_tp;

/*
 * CPU hotplug: a CPU taken down dies inside calls of its idle task (the
 * firmware call that powers it off: psci_cpu_die() on ARM), which never
 * return: the idle task starts over at the CPU's entry when the CPU comes
 * back. Its frames are given back once the CPU is dead, and again before
 * the CPU comes up (kft_fast_cpu_state; both run on another CPU, and the
 * dead one runs nothing then). Without this, clear and rmmod waited for
 * the idle task (pid 0) for good.
 */
static int kft_fast_cpu_state;

static int kft_fast_cpu_idle_drop(unsigned int cpu)
{
	struct kft_fast_slot *s;
	struct task_struct *t;
	unsigned long flags;
	unsigned int i = 0, end;

	while (i <= kft_fast_mask) {
		raw_spin_lock_irqsave(&kft_fast_owners_lock, flags);
		for (end = kft_fast_chunk_end(i); i < end; i++) {
			s = &kft_fast_table[i];
			t = READ_ONCE(s->owner);
			if (t && is_idle_task(t) && task_cpu(t) == cpu)
				kft_fast_slot_free(s);
		}
		raw_spin_unlock_irqrestore(&kft_fast_owners_lock, flags);
	}
	return 0;
}

/*
 * Gives back the slots of tasks that ran for the last time (a zombie not
 * yet reaped keeps its task_struct, and kft_fast_task_free() would wait
 * for its parent), then counts the tasks inside hooked calls, and gives
 * one of them in @one. The slots from @i to @end, under
 * kft_fast_owners_lock; @n: the count so far.
 */
static notrace unsigned int kft_fast_busy_locked(unsigned int i, unsigned int end,
						 unsigned int n, pid_t *one)
{
	struct kft_fast_slot *s;
	struct task_struct *t;

	for (; i < end; i++) {
		s = &kft_fast_table[i];
		t = READ_ONCE(s->owner);
		if (!t)
			continue;
		if (kft_fast_dead(t)) {
			kft_fast_slot_free(s);
			continue;
		}
		if (!n++ && one)
			*one = task_pid_nr(t);
	}
	return n;
}

/* Tasks inside hooked calls, and one of them; the dead ones' slots freed. */
static unsigned int kft_fast_busy(pid_t *one)
{
	unsigned int i, n = 0;
	unsigned long flags;

	for (i = 0; i <= kft_fast_mask; i = kft_fast_chunk_end(i)) {
		raw_spin_lock_irqsave(&kft_fast_owners_lock, flags);
		n = kft_fast_busy_locked(i, kft_fast_chunk_end(i), n, one);
		raw_spin_unlock_irqrestore(&kft_fast_owners_lock, flags);
	}
	return n;
}

/*
 * Gives back to a blocked task the return addresses that frames of hooks
 * no longer registered (detached) replaced, and removes those frames: its
 * calls then return straight to their callers, and the task no longer
 * holds kft (a daemon asleep for hours in a call hooked while every
 * function was traced). The registry is written under kft_mutex, which the
 * caller of stop_machine() holds.
 *
 * Only tasks that blocked (not on a CPU, not on a run queue): such a task
 * is in schedule() called from somewhere, never from kft_fast_return or
 * kft_fast_exit(), which do not sleep; so each of its frames is a call in
 * progress whose return address is still on its stack (on arm64: in the
 * call's frame record, signed; on 32-bit ARM where the unwind tables say
 * the function saved it; kft_blocked_ret_swap() finds it). A preempted task
 * might be in the trampoline with its return slot already consumed: it is
 * left alone, it runs again soon. Under stop_machine() no task runs but the
 * stoppers (on a CPU, so left alone) and nothing wakes a blocked one.
 *
 * Several frames can share a return slot: two hooks on one function, and
 * tail calls (x64_sys_call jumps to __x64_sys_read, which jumps to
 * ksys_read: three calls, one return slot). Each entry read the slot and
 * wrote its own return address there, so the slot's values form a chain,
 * newest first, in which each hook holds the address the one before it
 * wrote: a frame's trampoline address is in the orig of the nearest kept
 * frame above it with that slot, or in the slot itself if there is none
 * (kft_fast_link(): NULL). A frame is removed only if that place still holds
 * the trampoline, which then takes the frame's orig. Anything else there
 * means another exit hook (function_graph, a kretprobe) came between and
 * holds this frame's trampoline address on its own shadow stack: that
 * frame stays, and the task returns through the trampoline as before.
 * (Issue 22: with function_graph between the hooks of a tail-called chain,
 * the orig of the kept frame above is function_graph's return_to_handler;
 * replacing it orphaned the trampoline address function_graph held, and
 * the task returned into kft_fast_return with no frame: kft_fast_lost().)
 */
static notrace unsigned long *kft_fast_link(struct kft_fast_slot *s, unsigned int d,
					    const bool *drop, struct kft_fast_slot *const *newer,
					    unsigned int nr_newer)
{
	unsigned long sp = s->frames[d].sp;
	unsigned int j;

	for (j = d + 1; j < s->depth; j++)
		if (!drop[j] && s->frames[j].sp == sp)
			return &s->frames[j].orig;
	/* Then the slots the task claimed later, from the next one on. */
	while (nr_newer--)
		for (j = 0; j < newer[nr_newer]->depth; j++)
			if (newer[nr_newer]->frames[j].sp == sp)
				return &newer[nr_newer]->frames[j].orig;
	return NULL;
}

/*
 * Slot @s of blocked task @t, whose newer slots (@newer, newest first) are
 * done already.
 */
static notrace void kft_fast_unhijack_slot(struct kft_fast_slot *s, struct task_struct *t,
					   struct kft_fast_slot *const *newer,
					   unsigned int nr_newer)
{
	unsigned long tramp = (unsigned long)kft_fast_return;
	unsigned long base = (s - kft_fast_table) * KFT_FAST_DEPTH;
	bool drop[KFT_FAST_DEPTH] = { };
	unsigned int depth = s->depth, d, kept = 0;
	struct kft_fast_frame *f;
	unsigned long *link;

	for (d = depth; d-- > 0;) {
		f = &s->frames[d];
		if (kft_fast_hook_of(f->id))
			continue;
		link = kft_fast_link(s, d, drop, newer, nr_newer);
		if (link && READ_ONCE(*link) == tramp) {
			WRITE_ONCE(*link, f->orig);
		} else if (link || !kft_blocked_ret_swap(t, f->sp, tramp, f->orig)) {
			f->id = KFT_FAST_ID_HELD;
			continue;
		}
		drop[d] = true;
	}
	for (d = 0; d < depth; d++) {
		if (drop[d])
			continue;
		s->frames[kept] = s->frames[d];
		s->frames[kept].claimed = !kept;
		/* A frame's arguments are where its place is (kft_fast_keep()). */
		if (kft_fast_args && kept != d)
			kft_fast_args[base + kept] = kft_fast_args[base + d];
		kept++;
	}
	WRITE_ONCE(s->depth, kept);
	if (!kept)
		kft_fast_release(s);
}

/*
 * The slots of blocked task @t, newest first: the first it owns in its
 * probes (a task claims a slot only at an earlier probe than those it
 * holds, and only while it holds one, so each slot's frames are newer than
 * those of the slots after it). One return slot's frames may be split
 * between two slots (another task freed an earlier probe between two
 * entries of a tail-called chain): the newer slot goes first.
 */
static notrace void kft_fast_unhijack_task(struct task_struct *t)
{
	struct kft_fast_slot *newer[KFT_FAST_PROBES];
	unsigned long h = kft_fast_home(t);
	unsigned int i, n = 0;
	struct kft_fast_slot *s;

	for (i = 0; i < KFT_FAST_PROBES; i++) {
		s = &kft_fast_table[(h + i) & kft_fast_mask];
		if (READ_ONCE(s->owner) != t)
			continue;
		kft_fast_unhijack_slot(s, t, newer, n);
		newer[n++] = s;
	}
}

/* @t is blocked: kft_fast_unhijack() may give it its return addresses. */
static notrace bool kft_fast_blocked(struct task_struct *t)
{
	return !READ_ONCE(t->on_cpu) && !READ_ONCE(t->on_rq);
}

/*
 * The task that unloads kft (under kft_mutex, in kft_fast_cleanup()). It may
 * itself be inside timed calls (delete_module(2) with every function
 * hooked), which return only after the unload: nobody else can give their
 * return addresses back. It cannot be in the trampoline either, since it is
 * running kft_fast_cleanup(), and under stop_machine() it waits off its CPU
 * in stop_machine() called from there, preempted or asleep: its frames are
 * calls in progress, as a blocked task's are.
 */
static struct task_struct *kft_fast_unloader;

/* kft_fast_unhijack() may give @t its return addresses. */
static notrace bool kft_fast_givable(struct task_struct *t)
{
	return t == READ_ONCE(kft_fast_unloader) || kft_fast_blocked(t);
}

/*
 * Whether kft_fast_unhijack() would find something to undo now: a blocked
 * task's frame of a detached hook, not found held by another exit hook
 * by a pass (@held_too: those too). The slots from @i to @end, under
 * kft_mutex (the registry is stable) and kft_fast_owners_lock (the
 * owners' task_structs are). Read while tasks run, it is a hint (no
 * stack is read).
 */
static notrace bool kft_fast_undoable_locked(unsigned int i, unsigned int end, bool held_too)
{
	struct kft_fast_slot *s;
	struct task_struct *t;
	unsigned long id;
	unsigned int d;

	for (; i < end; i++) {
		s = &kft_fast_table[i];
		t = READ_ONCE(s->owner);
		if (!t || kft_fast_dead(t) || !kft_fast_givable(t))
			continue;
		for (d = min_t(unsigned int, READ_ONCE(s->depth), KFT_FAST_DEPTH); d-- > 0;) {
			id = READ_ONCE(s->frames[d].id);
			if (!kft_fast_hook_of(id) && (held_too || id != KFT_FAST_ID_HELD))
				return true;
		}
	}
	return false;
}

static bool kft_fast_undoable(bool held_too)
{
	bool undoable = false;
	unsigned long flags;
	unsigned int i;

	for (i = 0; i <= kft_fast_mask && !undoable; i = kft_fast_chunk_end(i)) {
		raw_spin_lock_irqsave(&kft_fast_owners_lock, flags);
		undoable = kft_fast_undoable_locked(i, kft_fast_chunk_end(i), held_too);
		raw_spin_unlock_irqrestore(&kft_fast_owners_lock, flags);
	}
	return undoable;
}

/*
 * Under stop_machine() (so no kft_fast_task_free() runs, and the owners'
 * task_structs stay). A frame whose return slot holds another exit hook's
 * address is left, marked held (kft_fast_unhijack_slot()). A dead task's
 * stack may be freed already: its slot is only given back.
 */
static notrace int kft_fast_unhijack(void *unused)
{
	struct kft_fast_slot *s;
	struct task_struct *t;
	unsigned int i;

	for (i = 0; i <= kft_fast_mask; i++) {
		s = &kft_fast_table[i];
		t = READ_ONCE(s->owner);
		if (t && kft_fast_dead(t))
			kft_fast_slot_free(s);
		/* A task at its newest slot (again, if that one was emptied: no change). */
		else if (t && kft_fast_givable(t) && kft_fast_slot(t, NULL, &s) &&
			 s == &kft_fast_table[i])
			kft_fast_unhijack_task(t);
	}
	return 0;
}

/*
 * The pin: kft holds a reference to itself from the first fast attach until
 * no fast hook is attached and no task is inside a call one timed. rmmod in
 * between says busy. Waiting in module_exit instead could deadlock: the
 * shell that runs rmmod may itself be inside a timed call (wait4, with
 * every function traced), returning only after rmmod has.
 */
static unsigned int kft_fast_nr_attached;	/* under kft_mutex */
static bool kft_fast_pinned;			/* under kft_mutex */

/* Under kft_mutex: when the last detach was, and the last pass (jiffies). */
static unsigned long kft_fast_unpin_from;
static unsigned long kft_fast_unpin_pass;

/*
 * Gives blocked tasks their return addresses under stop_machine(), which
 * halts every CPU: only if there is a frame to undo that no pass found
 * held by another exit hook, so that frames such a hook holds do not stop
 * the machine at every look (nor tasks that wake and block again in
 * them, changing which are blocked). What held a frame may have let go of
 * it since (a kretprobe unregistered gives its return slot back): once a
 * minute the held ones count too.
 */
static void kft_fast_undo_blocked(void)
{
	lockdep_assert_held(&kft_mutex);
	if (!kft_fast_undoable(time_after_eq(jiffies, kft_fast_unpin_pass + 60 * HZ)))
		return;
	kft_fast_unpin_pass = jiffies;
	stop_machine(kft_fast_unhijack, NULL, NULL);
}

/*
 * One look at the table (under kft_mutex): the slots of dead tasks given
 * back and, with @undo, the return addresses of blocked tasks, under
 * stop_machine() only if it would change something (kft_fast_undoable()).
 * Return: how many tasks are still inside hooked calls, and one in @one.
 */
static unsigned int kft_fast_look(bool undo, pid_t *one)
{
	lockdep_assert_held(&kft_mutex);
	if (undo && kft_fast_busy(NULL))
		kft_fast_undo_blocked();
	return kft_fast_busy(one);
}

static void kft_fast_unpin_work(struct work_struct *work);
static DECLARE_DELAYED_WORK(kft_fast_unpin, kft_fast_unpin_work);

/*
 * The unpin work looks every tick for the first second after the last
 * detach (the writer of a `clear` returns from its own timed calls, every
 * function traced, just after it, and an rmmod that follows should rarely
 * find kft still pinned), then every second until no task holds kft. The
 * second is the clock's, not a count of looks: on a loaded machine a look
 * may come many ticks after the one before.
 *
 * After that first second, a look also gives back the return addresses
 * of tasks blocked in calls of detached hooks (kft_fast_unhijack()): a task
 * that was running at the detach, and then slept inside the call (a
 * syscall preempted, then waiting for I/O), would otherwise hold kft until
 * it returns, which may be hours. stop_machine() halts every CPU, so it
 * runs only when kft_fast_undoable() finds blocked frames no pass found
 * held by another exit hook.
 */
static void kft_fast_unpin_work(struct work_struct *work)
{
	bool later;

	mutex_lock(&kft_mutex);
	later = time_after_eq(jiffies, kft_fast_unpin_from + HZ);
	if (kft_fast_pinned && !kft_fast_nr_attached) {
		if (kft_fast_look(later, NULL)) {
			schedule_delayed_work(&kft_fast_unpin, later ? HZ : 1);
		} else {
			kft_fast_pinned = false;
			module_put(THIS_MODULE);
		}
	}
	mutex_unlock(&kft_mutex);
}

static void kft_fast_pin(void)
{
	lockdep_assert_held(&kft_mutex);
	kft_fast_nr_attached++;
	if (kft_fast_pinned)
		return;
	kft_fast_pinned = true;
	__module_get(THIS_MODULE);
}

static void kft_fast_unpin_when_drained(void)
{
	lockdep_assert_held(&kft_mutex);
	if (--kft_fast_nr_attached)
		return;
	kft_fast_unpin_from = jiffies;
	/* Now, also if a look from an earlier detach is pending for later. */
	cancel_delayed_work(&kft_fast_unpin);
	schedule_delayed_work(&kft_fast_unpin, 0);
}

/*
 * The table and the free probe, at the first fast attach (kft_mutex). Its
 * size comes from a module parameter: checked against the memory there is,
 * as kft's other tables are, and failing quietly (an error for the run).
 */
static int kft_fast_table_get(void)
{
	/*
	 * A larger value would round up past 32 bits (to 0 on 32-bit ARM: a
	 * 0-byte table, which vmalloc warns about); no table that large fits.
	 */
	unsigned int bits = ilog2(roundup_pow_of_two(clamp(fast_tasks, 64U, 1U << 30)));
	struct kft_fast_slot *table;
	size_t bytes;
	int ret;

	lockdep_assert_held(&kft_mutex);
	if (kft_fast_table)
		return 0;
	kft_fast_free_tp = kft_tracepoint("sched_process_free");
	if (!kft_fast_free_tp)
		return -ENOENT;
	bytes = array_size(sizeof(*table), 1UL << bits);
	if (!kft_mem_fits(bytes))
		return -ENOMEM;
	table = __vmalloc(bytes, KFT_BIG_GFP | __GFP_ZERO);
	if (!table)
		return -ENOMEM;
	kft_fast_shift = BITS_PER_LONG - bits;
	kft_fast_mask = (1UL << bits) - 1;
	kft_fast_table = table;
	ret = cpuhp_setup_state_nocalls(CPUHP_BP_PREPARE_DYN, "kft/fast:dead",
					kft_fast_cpu_idle_drop, kft_fast_cpu_idle_drop);
	if (ret < 0)
		goto err_free;
	kft_fast_cpu_state = ret;
	ret = tracepoint_probe_register(kft_fast_free_tp, kft_fast_task_free, NULL);
	if (!ret)
		return 0;
	cpuhp_remove_state_nocalls(kft_fast_cpu_state);
err_free:
	kft_fast_table = NULL;
	vfree(table);
	return ret;
}

/*
 * args: the arguments' table, beside the slots' (taken first), for the
 * first run that asks (kft_mutex); kept, as the slots are, until kft goes.
 */
static int kft_fast_args_get(void)
{
	size_t bytes = array3_size(kft_fast_mask + 1, KFT_FAST_DEPTH,
				   sizeof(struct kft_rec_args));

	lockdep_assert_held(&kft_mutex);
	if (kft_fast_args)
		return 0;
	if (!kft_mem_fits(bytes))
		return -ENOMEM;
	kft_fast_args = __vmalloc(bytes, KFT_BIG_GFP | __GFP_ZERO);
	return kft_fast_args ? 0 : -ENOMEM;
}

static int kft_fast_register(struct kft_fhook *hook)
{
	unsigned int i;

	lockdep_assert_held(&kft_mutex);
	for (i = 0; i < KFT_FAST_HOOKS; i++) {
		if (kft_fast_regs[i].hook)
			continue;
		/* (A 32-bit kernel's ids wrap: none is a held frame's.) */
		do
			hook->fast.id = ++kft_fast_seq * KFT_FAST_HOOKS + i;
		while (hook->fast.id == KFT_FAST_ID_HELD);
		WRITE_ONCE(kft_fast_regs[i].id, hook->fast.id);
		/* The id before the hook: pairs with kft_fast_hook_of(). */
		smp_store_release(&kft_fast_regs[i].hook, hook);
		return 0;
	}
	return -EBUSY;
}

/*
 * After the grace period no exit uses @hook (kft_fast_exit() holds
 * preemption off around it), and its entry may take a new id. An exit in
 * the idle loop where RCU does not watch (32-bit ARM traces
 * arch_cpu_idle()) is no reader a grace period waits for: each CPU's
 * next schedule() is after it (synchronize_rcu_tasks_rude()).
 */
static void kft_fast_unregister(struct kft_fhook *hook)
{
	lockdep_assert_held(&kft_mutex);
	WRITE_ONCE(kft_fast_regs[hook->fast.id % KFT_FAST_HOOKS].hook, NULL);
	synchronize_rcu();
	synchronize_rcu_tasks_rude();
	hook->fast.id = 0;
}

/* @name is one of kft_fast_noreturn or, a glob (@is_glob), matches one. */
static bool kft_fast_names_noreturn(const char *name, bool is_glob)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kft_fast_noreturn); i++)
		if (is_glob ? glob_match(name, kft_fast_noreturn[i]) :
			      !strcmp(name, kft_fast_noreturn[i]))
			return true;
	return false;
}

/*
 * @f, a function of a funclist, may be one of kft_fast_noreturn: a name or
 * glob by its text, an address (checked to be a function's start) by its
 * symbol's name. kft's globs are what glob_match() takes, and ftrace
 * matches them the same way.
 */
static bool kft_fast_may_be_noreturn(const struct kft_func_ref *f)
{
	char name[KSYM_SYMBOL_LEN];

	if (!f->is_addr)
		return kft_fast_names_noreturn(f->text, f->is_glob);
	sprint_symbol_no_offset(name, f->addr);
	name[strcspn(name, " ")] = '\0';	/* "name [module]" */
	return kft_fast_names_noreturn(name, false);
}

/*
 * kft_fast_noreturn into the ops' notrace filter (which wins over its
 * filter), where the functions to hook may include one: every function, a
 * glob that matches one, an address or a name of one. Each name costs
 * ftrace a pass over every traceable function with a symbol lookup for
 * each, and the list has dozens: a funclist is checked here by name
 * instead, and only every function, or a funclist that may hook one of
 * them, pays for the passes.
 */
static int kft_fast_denylist(struct ftrace_ops *ops, const struct kft_func_ref *funcs,
			     unsigned int nr_funcs)
{
	unsigned int i;

	for (i = 0; i < nr_funcs; i++)
		if (kft_fast_may_be_noreturn(&funcs[i]))
			break;
	if (nr_funcs && i == nr_funcs)
		return 0;
	return kft_ftrace_notrace_names(ops, &kft_fast_noreturn_names);
}

/**
 * kft_fast_attach() - hook the exits of a funclist, or of every function
 * @hook:	its run and role set
 * @funcs:	the functions; none for every function
 * @nr_funcs:	how many
 * @err:	set on failure
 *
 * Return: 0 or an error.
 */
int kft_fast_attach(struct kft_fhook *hook, const struct kft_func_ref *funcs,
		    unsigned int nr_funcs, struct kft_parse_error *err)
{
	int ret;

	ret = kft_fast_table_get();
	if (!ret && hook->args)
		ret = kft_fast_args_get();
	if (ret == -ENOMEM)
		kft_func_error(err, KFT_ERR_FAST_NO_MEMORY, NULL);
	ret = ret ?: kft_fast_register(hook);
	if (ret)
		return ret;
	ret = kft_fast_denylist(&hook->fast.ops, funcs, nr_funcs);
	if (ret) {
		ftrace_free_filter(&hook->fast.ops);
		goto err_unregister;
	}
	/* Where ftrace passes registers only to an ops that asks (32-bit ARM). */
	hook->fast.ops.flags |= KFT_FAST_OPS_FLAGS;
	/* On failure it frees the filter (the notrace part too) and clears the ops. */
	ret = kft_ftrace_ops_attach(&hook->fast.ops, kft_fast_entry_for(hook), funcs, nr_funcs,
				    &hook->attached, err);
	if (ret)
		goto err_unregister;
	kft_fast_pin();
	return 0;

err_unregister:
	/* As new, for a later attach (after the deny list's failure: its filter freed). */
	memset(&hook->fast.ops, 0, sizeof(hook->fast.ops));
	kft_fast_unregister(hook);
	return ret;
}

/**
 * kft_fast_detach() - no new frames; old ones return without the hook
 * @hook:	an attached hook
 *
 * Blocked tasks get their return addresses back at once
 * (kft_fast_unhijack()); running ones return through the trampoline, or
 * get theirs back if they block before (kft_fast_unpin_work()).
 */
void kft_fast_detach(struct kft_fhook *hook)
{
	kft_ftrace_ops_detach(&hook->fast.ops, &hook->attached);
	kft_fast_unregister(hook);
	kft_fast_undo_blocked();
	atomic_long_set(&hook->fast.missed, 0);
	kft_fast_unpin_when_drained();
}

/**
 * kft_fast_missed() - calls a hook did not time
 * @hook:	an attached fast hook
 *
 * Return: calls left unhooked: recursion, no slot free in the probed part
 * of the table, or KFT_FAST_DEPTH hooked calls already on the task.
 */
unsigned long kft_fast_missed(const struct kft_fhook *hook)
{
	return atomic_long_read(&hook->fast.missed);
}

/**
 * kft_fast_drop_module() - stop hooking the functions of a going module
 * @hook:	the hook
 * @addrs:	the module's functions in the hook's funclist
 * @nr:		how many
 *
 * ftrace keeps a going module's addresses in the filter, and would hook
 * whatever is loaded there next. Calls of the module in flight still
 * return through the trampoline, and jump back into the module's text:
 * the module is still there while any of its functions is on a stack.
 *
 * Return: how many were removed from the filter.
 */
unsigned int kft_fast_drop_module(struct kft_fhook *hook, const unsigned long *addrs,
				  unsigned int nr)
{
	return hook->attached ? kft_ftrace_drop_ips(&hook->fast.ops, addrs, nr) : 0;
}

/**
 * kft_fast_cleanup() - at module exit, after every hook is detached
 *
 * The pin kept kft loaded while any task was inside a timed call, so none
 * is, unless the unload was forced (rmmod -f, where the kernel has
 * MODULE_FORCE_UNLOAD): then the looks of the unpin work go on here, every
 * tenth of a second, until no frame is left. Running tasks return within a
 * scheduling period, blocked ones get their return addresses back, dead
 * ones their slots, and so does the unloading task itself, whose own
 * calls return only after the unload. Only a call whose return address
 * another exit hook took (function_graph, a kretprobe) holds the unload
 * until it returns. That wait cannot end early, not even for a fatal
 * signal (the frame leads into this module's text); it sleeps as
 * TASK_IDLE (no hung-task report, no load) and says why. One task may
 * still be in the trampoline's last instructions, which it leaves before
 * it next sleeps (RCU tasks), or an idle task, before its CPU next
 * schedules (RCU tasks rude).
 */
void kft_fast_cleanup(void)
{
	unsigned int n, looks = 0;
	pid_t pid = 0;

	if (!kft_fast_table)
		return;
	cancel_delayed_work_sync(&kft_fast_unpin);
	mutex_lock(&kft_mutex);
	WRITE_ONCE(kft_fast_unloader, current);
	while ((n = kft_fast_look(true, &pid))) {
		/* After a second (running tasks are back by then), then each minute. */
		if (looks++ % 600 == 10)
			pr_warn("forced unload waits for %u tasks inside calls timed by fast hooks (pid %d): still running there, or another exit hook holds their return\n",
				n, pid);
		mutex_unlock(&kft_mutex);
		schedule_timeout_idle(HZ / 10);
		mutex_lock(&kft_mutex);
	}
	WRITE_ONCE(kft_fast_unloader, NULL);
	mutex_unlock(&kft_mutex);
	cpuhp_remove_state_nocalls(kft_fast_cpu_state);
	tracepoint_probe_unregister(kft_fast_free_tp, kft_fast_task_free, NULL);
	tracepoint_synchronize_unregister();
	/* The trampoline's last instructions, also in the idle loop (above). */
	synchronize_rcu_tasks();
	synchronize_rcu_tasks_rude();
	vfree(kft_fast_table);
	kft_fast_table = NULL;
	vfree(kft_fast_args);
	kft_fast_args = NULL;
}
#endif
