// SPDX-License-Identifier: GPL-2.0
/*
 * The architecture layer for x86-64 (kft_arch.h): the cycle clock's rate,
 * unwinding from a register state, a traced function's registers at its
 * entry from what ftrace saved, and a blocked task's return addresses
 * (hooks fast).
 */
#include <linux/cpufreq.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <asm/unwind.h>

#include "kft_arch.h"

/*
 * Cycles per ms of kft_cycles(), or 0 where the kernel does not trust the
 * TSC (its clocksource watchdog marked it unstable) or its rate may change.
 */
u32 kft_cycles_khz(void)
{
	if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz || check_tsc_unstable())
		return 0;
	if (!boot_cpu_has(X86_FEATURE_CONSTANT_TSC) && cpufreq_get_current_driver())
		return 0;
	return tsc_khz;
}

/* Nothing to learn at load. */
void kft_arch_init(void)
{
}

/*
 * Unwinding from a known frame. stack_trace_save() unwinds from its caller:
 * from a hook or a timer that is first kft's own frames, ftrace's trampoline
 * or the interrupt's path, each a few hundred instructions of ORC lookups,
 * only to be cut off. Starting at the frame kft wants costs only the frames
 * it keeps: x86's unwinder (exported) starts at a pt_regs.
 */

/**
 * kft_unwind_regs() - the frames from a register state up
 * @regs:	kernel-mode registers: ip, sp and bp are used
 * @buf:	room for @max frames
 * @max:	at least 1
 * @truncated:	set when the stack had more frames than fit
 *
 * Return: the frames, innermost (@regs->ip) first.
 */
notrace unsigned int kft_unwind_regs(struct pt_regs *regs, unsigned long *buf,
				     unsigned int max, bool *truncated)
{
	struct unwind_state state;
	unsigned long addr;
	unsigned int n = 0;

	*truncated = false;
	/* The unwinder starts at the frame above @regs: @regs->ip is ours to add. */
	buf[n++] = regs->ip;
	for (__unwind_start(&state, current, regs, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		if (n == max) {
			*truncated = true;
			break;
		}
		buf[n++] = addr;
	}
	return n;
}
NOKPROBE_SYMBOL(kft_unwind_regs);


/**
 * kft_ftrace_entry_regs() - the traced function's registers at its entry
 * @fregs:	what ftrace passed to an ftrace_ops callback
 * @ip:		the traced function (its ftrace location)
 * @parent_ip:	its return address
 * @regs:	filled in: ip, sp, bp
 *
 * Return: false when ftrace did not save a stack pointer that holds the
 * return address (then the caller unwinds the slower way).
 */
notrace bool kft_ftrace_entry_regs(struct ftrace_regs *fregs, unsigned long ip,
				   unsigned long parent_ip, struct pt_regs *regs)
{
	const struct pt_regs *fr = kft_fregs_pt(fregs);
	unsigned long sp = current_stack_pointer;

	/* On this stack, above kft's and ftrace's frames (a few hundred bytes). */
	if (!fregs || fr->sp <= sp || fr->sp - sp > PAGE_SIZE || (fr->sp & 7) ||
	    *(unsigned long *)fr->sp != parent_ip)
		return false;
	regs->ip = ip;
	regs->sp = fr->sp;
	regs->bp = fr->bp;
	regs->cs = __KERNEL_CS;
	return true;
}
NOKPROBE_SYMBOL(kft_ftrace_entry_regs);


#if KFT_HAVE_FAST_HOOKS
/*
 * hooks fast (kft_arch.h): a call's return address is the word below its
 * stack pointer after the return, on the task's stack.
 */
notrace bool kft_blocked_ret_swap(struct task_struct *t, unsigned long sp, unsigned long old,
				  unsigned long new)
{
	unsigned long lo = (unsigned long)task_stack_page(t);
	unsigned long *slot = (unsigned long *)sp - 1;

	if ((unsigned long)slot < lo || sp > lo + THREAD_SIZE || READ_ONCE(*slot) != old)
		return false;
	WRITE_ONCE(*slot, new);
	return true;
}
#endif
