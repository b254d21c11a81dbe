// SPDX-License-Identifier: GPL-2.0
/*
 * The architecture layer (kft_arch.h) for 32-bit ARM: its own unwinder
 * walk, because the kernel's, started from kft's frame, loses the stack at
 * two places:
 *
 * - A traced function that does not save its link register (a leaf): from
 *   an ftrace_ops callback, the unwinder reaches it with the link register
 *   pointing into it again, its caller's address being only in the word
 *   that mcount's "push {lr}" put on the stack. The kernel says so itself
 *   (entry-ftrace.S, mcount_enter: "we are unable to unwind through a
 *   function which does not otherwise save its lr"). kft starts the walk
 *   at the traced function instead, from the registers ftrace saved
 *   (FTRACE_OPS_FL_SAVE_REGS: KFT_STACKS_OPS_FLAGS) with the caller's
 *   address as its link register, or from a kprobe's registers at its
 *   first instruction.
 * - A return address that a kretprobe replaced with its trampoline (kft's
 *   own exits are kretprobes here): the unwind tables (CONFIG_ARM_UNWIND,
 *   Debian's) end there, and only the frame-pointer unwinder looks the
 *   real address up. kft's walk looks it up as the kernel does
 *   (__kretprobe_find_ret_addr(): the task's instances, innermost first)
 *   and goes on from it.
 *
 * walk_stackframe() is exported; unwind_frame(), stack_trace_save_regs()
 * and the trampoline's address are not: kft learns the address at load,
 * from a kretprobe on a function of its own (kft_arch_init()).
 *
 * No cycle clock for the time filters: the generic timer's counter is
 * coarser than the ns clock (a few MHz).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <asm/stacktrace.h>

#include "kft_arch.h"

/*
 * Kretprobes keep their instances in the task (no rethook on ARM), where
 * kft can look the real return address up; not on 5.10 (kft_compat.h),
 * where a stack ends at the trampoline.
 */
#define KFT_ARM_KRETPROBE_LIST	KFT_KRETPROBE_TASK_LIST

/* __kretprobe_trampoline, or 0 when kft_arch_init() could not learn it. */
static unsigned long kft_krp_trampoline __read_mostly;

u32 kft_cycles_khz(void)
{
	return 0;
}

/*
 * A walk of the stack with callback NAME_pc(data, pc), true to go on: the
 * callback walk_stackframe() takes from 6.2 on. 6.1 takes one given the
 * frame, non-zero to stop: KFT_ARM_WALK_FRAME(NAME) makes NAME_frame from
 * NAME_pc, and kft_arm_walk_stack() passes the one this kernel takes.
 */
#define KFT_ARM_WALK_FRAME(name)						\
static notrace int name##_frame(struct stackframe *frame, void *data)		\
{										\
	return !name##_pc(data, frame->pc);					\
}										\
NOKPROBE_SYMBOL(name##_frame)

#define kft_arm_walk_stack(frame, name, data)					\
	walk_stackframe(frame, __builtin_choose_expr(KFT_ARM_WALK_GIVES_PC,	\
						     (void *)name##_pc,		\
						     (void *)name##_frame), data)

/* One walk: its frame (walk_stackframe() unwinds it in place), its output. */
struct kft_arm_walk {
	struct stackframe frame;
	unsigned long *buf;
	unsigned int nr, max;
	bool truncated;
	struct llist_node *krp_cur;	/* the last kretprobe instance used */
};

/*
 * The return address a kretprobe's trampoline stands for: the next
 * instance of the task's that holds a real one (one that another
 * kretprobe on the same call replaced holds the trampoline), or 0.
 *
 * A timer's sample may interrupt the task while its kretprobe code pushes
 * or pops an instance: the frame found may then be wrong, and the list is
 * followed for at most KFT_ARM_KRETPROBE_MAX instances (a list read while
 * it changes must not hold the walk). Instances are recycled, not freed,
 * while their kretprobe lives, and freed after an RCU grace period: the
 * walk runs with preemption off.
 */
#define KFT_ARM_KRETPROBE_MAX	1024

static notrace unsigned long kft_arm_kretprobe_return(struct kft_arm_walk *w)
{
#if KFT_ARM_KRETPROBE_LIST
	struct llist_node *node;
	struct kretprobe_instance *ri;
	unsigned int seen = 0;

	node = w->krp_cur ? READ_ONCE(w->krp_cur->next) :
			    READ_ONCE(current->kretprobe_instances.first);
	for (; node && seen++ < KFT_ARM_KRETPROBE_MAX; node = READ_ONCE(node->next)) {
		ri = container_of(node, struct kretprobe_instance, llist);
		if ((unsigned long)ri->ret_addr != kft_krp_trampoline) {
			w->krp_cur = node;
			return (unsigned long)ri->ret_addr;
		}
	}
#endif
	return 0;
}
NOKPROBE_SYMBOL(kft_arm_kretprobe_return);

/* kft_unwind_regs()'s walk: one frame kept. */
static notrace bool kft_arm_walk_pc(void *data, unsigned long pc)
{
	struct kft_arm_walk *w = data;

	if (pc == kft_krp_trampoline && pc) {
		pc = kft_arm_kretprobe_return(w);
		if (!pc)
			return false;
		/* The unwinder goes on from the real caller, same stack. */
		w->frame.pc = pc;
	}
	if (w->nr == w->max) {
		w->truncated = true;
		return false;
	}
	w->buf[w->nr++] = pc;
	return true;
}
NOKPROBE_SYMBOL(kft_arm_walk_pc);

KFT_ARM_WALK_FRAME(kft_arm_walk);

/**
 * kft_unwind_regs() - the frames from a register state up
 * @regs:	kernel-mode registers: pc, lr, sp and fp are used
 * @buf:	room for @max frames
 * @max:	at least 1
 * @truncated:	set when the stack had more frames than fit
 *
 * Return: the frames, innermost (@regs's pc) first.
 */
notrace unsigned int kft_unwind_regs(struct pt_regs *regs, unsigned long *buf,
				     unsigned int max, bool *truncated)
{
	struct kft_arm_walk w = { .buf = buf, .max = max };

	arm_get_current_stackframe(regs, &w.frame);
	kft_arm_walk_stack(&w.frame, kft_arm_walk, &w);
	*truncated = w.truncated;
	return w.nr;
}
NOKPROBE_SYMBOL(kft_unwind_regs);

/**
 * kft_ftrace_entry_regs() - the traced function's registers at ftrace's call
 * @fregs:	what ftrace passed (a pt_regs: KFT_STACKS_OPS_FLAGS)
 * @ip:		the traced function's call to ftrace (after its prologue)
 * @parent_ip:	its return address
 * @regs:	filled in: pc, lr, sp, fp
 *
 * ftrace's saved sp is the function's before mcount's "push {lr}": the
 * unwind tables describe that state, and a function that saved no link
 * register returns through the lr given here.
 *
 * Return: false when ftrace saved no registers.
 */
notrace bool kft_ftrace_entry_regs(struct ftrace_regs *fregs, unsigned long ip,
				   unsigned long parent_ip, struct pt_regs *regs)
{
	struct pt_regs *saved = ftrace_get_regs(fregs);

	if (!saved)
		return false;
	regs->ARM_pc = ip;
	regs->ARM_lr = parent_ip;
	regs->ARM_sp = saved->ARM_sp;
	/* r7 in a Thumb-2 kernel, fp (r11) in an ARM one: as the unwinder reads it. */
	frame_pointer(regs) = frame_pointer(saved);
	return true;
}
NOKPROBE_SYMBOL(kft_ftrace_entry_regs);

#if KFT_HAVE_FAST_HOOKS
/*
 * hooks fast: where each traced function keeps its return address
 * (kft_arch.h). A cache: an entry is filled by the first call that misses
 * it, and may be replaced by another function's at the same index; each is
 * read whole, so a reader finds its own function's answer or a miss. The
 * answer of a function at an address holds until another module's code is
 * loaded there: kft_arch_module_coming() empties the cache first.
 */
atomic64_t kft_arm_slots[1 << KFT_ARM_SLOTS_BITS];

/* One frame unwound: the walk stops after it. */
struct kft_arm_one {
	struct stackframe frame;
	unsigned int pcs;
};

static notrace bool kft_arm_one_pc(void *data, unsigned long pc)
{
	struct kft_arm_one *w = data;

	return w->pcs++ == 0;
}
NOKPROBE_SYMBOL(kft_arm_one_pc);

KFT_ARM_WALK_FRAME(kft_arm_one);

/*
 * Where the function at @ip, at ftrace's call with registers @regs, keeps
 * its return address: one frame unwound from there. The link register is
 * given as 0, so that a function that saved none unwinds to 0 (a leaf);
 * one that saved it unwinds to the copy, which the unwinder says where it
 * read (lr_addr). The stack pointer after the unwind is the function's at
 * entry. Distances that do not fit, or a copy that is not where the
 * unwinder says, make the function one kft does not hook.
 */
static notrace u32 kft_arm_ret_slot_unwind(struct pt_regs *regs, unsigned long ip,
					   unsigned long tramp)
{
	struct kft_arm_one w = { };
	unsigned long at = regs->ARM_sp, copy, entry;

	w.frame.fp = frame_pointer(regs);
	w.frame.sp = at;
	w.frame.pc = ip;
#ifdef CONFIG_KRETPROBES
	w.frame.tsk = current;
#endif
	kft_arm_walk_stack(&w.frame, kft_arm_one, &w);
	entry = w.frame.sp;
	if (w.pcs != 2 || entry < at || entry - at > KFT_ARM_SLOT_WORDS * sizeof(long) ||
	    (entry & KFT_FAST_SP_ALIGN_MASK))
		return KFT_ARM_SLOT_VALID | KFT_ARM_SLOT_NONE;
	if (!w.frame.pc)
		return KFT_ARM_SLOT_VALID | KFT_ARM_SLOT_LEAF |
		       ((entry - at) / sizeof(long)) << KFT_ARM_SLOT_ENTRY_SHIFT;
	/*
	 * The copy holds the return address ftrace saw, or the trampoline's,
	 * when another of kft's hooks on the function came first in this
	 * call (as kft_ftrace_ret_slot() takes it).
	 */
	copy = (unsigned long)w.frame.lr_addr;
	if ((w.frame.pc != regs->ARM_lr && w.frame.pc != tramp) ||
	    copy < at || copy >= entry || (copy & KFT_FAST_SP_ALIGN_MASK) ||
	    READ_ONCE(*(unsigned long *)copy) != w.frame.pc)
		return KFT_ARM_SLOT_VALID | KFT_ARM_SLOT_NONE;
	return KFT_ARM_SLOT_VALID | (copy - at) / sizeof(long) |
	       ((entry - at) / sizeof(long)) << KFT_ARM_SLOT_ENTRY_SHIFT;
}
NOKPROBE_SYMBOL(kft_arm_ret_slot_unwind);

/**
 * kft_arm_ret_slot_find() - a cache miss of kft_ftrace_ret_slot()
 * @regs:	the registers ftrace saved at the function's call to it
 * @ip:		the function (its call to ftrace)
 * @tramp:	the fast hooks' trampoline, which the copy may hold already
 *
 * Return: the cache entry's low word, now in the cache (with
 * KFT_ARM_SLOT_NONE: kft does not hook the function).
 */
notrace u32 kft_arm_ret_slot_find(struct pt_regs *regs, unsigned long ip, unsigned long tramp)
{
	u32 where = kft_arm_ret_slot_unwind(regs, ip, tramp);

	atomic64_set(&kft_arm_slots[(ip >> 1) & (BIT(KFT_ARM_SLOTS_BITS) - 1)],
		     (u64)ip << 32 | where);
	return where;
}
NOKPROBE_SYMBOL(kft_arm_ret_slot_find);

/* A module's code is about to run where another's may have been. */
void kft_arch_module_coming(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(kft_arm_slots); i++)
		atomic64_set(&kft_arm_slots[i], 0);
}

/* One search of a blocked task's stack (kft_blocked_ret_swap()). */
struct kft_arm_swap {
	struct stackframe frame;
	unsigned long lo, hi;		/* the task's stack */
	unsigned long sp, old, new;
	unsigned long below;		/* the stack pointer one frame in */
	bool swapped;
};

static notrace bool kft_arm_swap_pc(void *data, unsigned long pc)
{
	struct kft_arm_swap *w = data;
	unsigned long at = (unsigned long)w->frame.lr_addr, below = w->below;

	w->below = w->frame.sp;
	/* Frames of the calls inside the one looked for: on up. */
	if (w->frame.sp < w->sp)
		return true;
	/*
	 * The unwinder sets lr_addr only for a frame that popped the link
	 * register; for one that did not (a leaf in an exception), it is
	 * left over. A copy is in the frame just unwound, between its
	 * stack pointer and its caller's.
	 */
	if (w->frame.sp == w->sp && pc == w->old && at >= below && at < w->frame.sp &&
	    at >= w->lo && at <= w->hi - sizeof(long) && !(at & KFT_FAST_SP_ALIGN_MASK) &&
	    READ_ONCE(*(unsigned long *)at) == w->old) {
		WRITE_ONCE(*(unsigned long *)at, w->new);
		w->swapped = true;
	}
	return false;
}

KFT_ARM_WALK_FRAME(kft_arm_swap);

/*
 * hooks fast (kft_arch.h): the return address is where the call's frame
 * saved its link register, which the unwinder finds from where @t
 * switched away, frame by frame up to the call's (whose stack pointer
 * after the unwind is @sp). A leaf never blocks: every call on a blocked
 * task's stack saved its link register. The walk ends at a return address
 * it cannot unwind through (another frame kft still hooks, another exit
 * hook's trampoline): a call above it is left hooked, and returns through
 * the trampoline.
 */
notrace bool kft_blocked_ret_swap(struct task_struct *t, unsigned long sp, unsigned long old,
				  unsigned long new)
{
	struct kft_arm_swap w = {
		.lo = (unsigned long)task_stack_page(t),
		.sp = sp,
		.old = old,
		.new = new,
	};

	w.hi = w.lo + THREAD_SIZE;
	w.frame.fp = thread_saved_fp(t);
	w.frame.sp = thread_saved_sp(t);
	w.frame.pc = thread_saved_pc(t);
	w.below = w.frame.sp;
#ifdef CONFIG_KRETPROBES
	w.frame.tsk = t;
#endif
	kft_arm_walk_stack(&w.frame, kft_arm_swap, &w);
	return w.swapped;
}
#endif

/*
 * Below: at load. A function that returns its own return address: called
 * under a kretprobe, the trampoline's (the kprobe at its first instruction
 * replaced the link register before the function read it).
 */
static noinline unsigned long kft_arm_own_return(void)
{
	unsigned long ret = (unsigned long)__builtin_return_address(0);

	barrier();
	return ret;
}

static int kft_arm_own_return_done(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

/* Learns the kretprobe trampoline's address (0 if it cannot). */
void kft_arch_init(void)
{
	struct kretprobe rp = {
		.kp.addr = (kprobe_opcode_t *)kft_arm_own_return,
		.handler = kft_arm_own_return_done,
		.maxactive = 1,
	};
	unsigned long got[2];
	int i;

	if (!KFT_ARM_KRETPROBE_LIST)
		return;
	/*
	 * One call site (a loop gcc cannot unroll): the same return address,
	 * but for the kretprobe.
	 */
	for (i = 0; i < 2; i++) {
		OPTIMIZER_HIDE_VAR(i);
		if (i == 1 && register_kretprobe(&rp))
			break;
		got[i] = kft_arm_own_return();
		barrier();
	}
	if (i == 2)
		unregister_kretprobe(&rp);
	if (i == 2 && got[1] != got[0] && !rp.nmissed)
		kft_krp_trampoline = got[1];
	else
		pr_info("stacks end at kretprobed functions here (no trampoline found)\n");
}
