// SPDX-License-Identifier: GPL-2.0
/*
 * The architecture layer (kft_arch.h) for arm64: kft unwinds from its own
 * frame (no unwinder that starts at a pt_regs is exported:
 * arch_stack_walk() and stack_trace_save_regs() are not), times the time
 * filters' calls with the generic timer's counter (kft_cycles()), and finds
 * a blocked task's return addresses in its frame records, signed with its
 * own key (hooks fast).
 */
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <asm/arch_timer.h>
#include <asm/pointer_auth.h>
#include <asm/processor.h>

#include "kft_arch.h"
#include "kft_stack.h"

/*
 * Counts per ms of kft_cycles(): the counter's rate, constant by the
 * architecture (0 from a firmware that left cntfrq_el0 unset: the ns clock).
 */
u32 kft_cycles_khz(void)
{
	return arch_timer_get_cntfrq() / 1000;
}

/* Nothing to learn at load. */
void kft_arch_init(void)
{
}

/*
 * The stack is unwound from kft's own frame with stack_trace_save() and cut
 * where @regs's pc shows. The unwinder crosses an exception (the
 * interrupted context) by the frame record in its pt_regs.
 */
notrace unsigned int kft_unwind_regs(struct pt_regs *regs, unsigned long *buf,
				     unsigned int max, bool *truncated)
{
	return kft_stack_capture(buf, KFT_STACK_BUF, instruction_pointer(regs), 0,
				 truncated);
}
NOKPROBE_SYMBOL(kft_unwind_regs);

/*
 * ftrace's caller passes the traced function's registers as arguments
 * (link register, frame and stack pointers), but no unwinder takes them:
 * false, the caller unwinds from its own frame (ftrace_caller leaves frame
 * records for the traced function and its caller, so the cut at the
 * return address is exact).
 */
notrace bool kft_ftrace_entry_regs(struct ftrace_regs *fregs, unsigned long ip,
				   unsigned long parent_ip, struct pt_regs *regs)
{
	return false;
}
NOKPROBE_SYMBOL(kft_ftrace_entry_regs);

#if KFT_HAVE_FAST_HOOKS
/*
 * The frame record of blocked task @t's call whose stack pointer after its
 * return is @sp: the highest record below @sp in the chain from where @t
 * switched away. Every function that calls another keeps its link register
 * in its frame record, below its stack pointer at entry; the caller's record
 * is at or above that stack pointer, the callees' are below the function's.
 * (Records of exceptions taken on the task's stack, in its pt_regs, are in
 * the chain too: below the interrupted function's own.)
 */
static notrace unsigned long *kft_arm64_record_below(struct task_struct *t, unsigned long sp)
{
	unsigned long lo = (unsigned long)task_stack_page(t), hi = lo + THREAD_SIZE;
	unsigned long fp = thread_saved_fp(t), found = 0, next;

	while (fp >= lo && fp <= hi - 16 && !(fp & 7) && fp < sp) {
		found = fp;
		next = READ_ONCE(*(unsigned long *)fp);
		/* Records go up the stack: anything else ends the walk. */
		if (next <= fp)
			break;
		fp = next;
	}
	return (unsigned long *)found;
}

#ifdef CONFIG_ARM64_PTR_AUTH_KERNEL
/* PACIA1716 (a hint: any assembler takes it) signs x17 with key A, modifier x16. */
static __always_inline unsigned long kft_arm64_pacia(unsigned long ptr, unsigned long modifier)
{
	register unsigned long x17 asm("x17") = ptr;
	register unsigned long x16 asm("x16") = modifier;

	asm volatile("hint #8" : "+r" (x17) : "r" (x16));
	return x17;
}

/*
 * @a and @b signed as @t's paciasp signs a return address at a stack
 * pointer of @modifier: each task has its own kernel key. This CPU holds
 * @t's key only between the two switches, with interrupts off and no call
 * in between (kft's own return addresses are signed with its task's key).
 */
static notrace void kft_arm64_sign_as(struct task_struct *t, unsigned long modifier,
				      unsigned long *a, unsigned long *b)
{
	lockdep_assert_irqs_disabled();
	ptrauth_keys_switch_kernel(&t->thread.keys_kernel);
	*a = kft_arm64_pacia(*a, modifier);
	*b = kft_arm64_pacia(*b, modifier);
	ptrauth_keys_switch_kernel(&current->thread.keys_kernel);
}
NOKPROBE_SYMBOL(kft_arm64_sign_as);
#endif

/*
 * hooks fast (kft_arch.h): the return address is in the call's frame record
 * (kft_arm64_record_below()), signed by its paciasp where the kernel uses
 * pointer authentication: @old is compared, and @new written, signed the
 * same way. A value that is neither (another exit hook's, or a record that
 * is not the call's) is left.
 */
notrace bool kft_blocked_ret_swap(struct task_struct *t, unsigned long sp, unsigned long old,
				  unsigned long new)
{
	unsigned long *rec, lr;

	/*
	 * With a shadow call stack a function returns to the copy of its
	 * link register it pushed there, not to its frame record's: a call
	 * given back here would still return into the trampoline, frameless.
	 * Left hooked: the task returns through the trampoline.
	 */
	if (IS_ENABLED(CONFIG_SHADOW_CALL_STACK))
		return false;
	rec = kft_arm64_record_below(t, sp);
	if (!rec)
		return false;
	lr = READ_ONCE(rec[1]);
#ifdef CONFIG_ARM64_PTR_AUTH_KERNEL
	if (lr != old && system_supports_address_auth())
		kft_arm64_sign_as(t, sp, &old, &new);
#endif
	if (lr != old)
		return false;
	WRITE_ONCE(rec[1], new);
	return true;
}
#endif
