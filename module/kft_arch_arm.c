// SPDX-License-Identifier: GPL-2.0
/*
 * The architecture layer for 32-bit ARM (kft_arch.h), as arm64's: no cycle
 * clock for the time filters (the ns clock: the generic timer's counter
 * runs at a few MHz, coarser than sched_clock()), and unwinding from
 * kft's own frame.
 */
#include <linux/kprobes.h>
#include <linux/sched.h>

#include "kft_arch.h"
#include "kft_stack.h"

u32 kft_cycles_khz(void)
{
	return 0;
}

/*
 * ARM exports walk_stackframe() but no unwinder that starts at a pt_regs
 * (stack_trace_save_regs() is not exported): the stack is unwound from
 * kft's own frame with stack_trace_save() (the unwind tables,
 * CONFIG_ARM_UNWIND, cross exception frames) and cut where @regs's pc
 * shows.
 */
notrace unsigned int kft_unwind_regs(struct pt_regs *regs, unsigned long *buf,
				     unsigned int max, bool *truncated)
{
	return kft_stack_capture(buf, KFT_STACK_BUF, instruction_pointer(regs), 0,
				 truncated);
}
NOKPROBE_SYMBOL(kft_unwind_regs);

/*
 * ftrace's caller on ARM (__gnu_mcount_nc, without FTRACE_OPS_FL_SAVE_REGS)
 * passes no registers an unwinder takes: false, the caller unwinds from
 * its own frame.
 */
notrace bool kft_ftrace_entry_regs(struct ftrace_regs *fregs, unsigned long ip,
				   unsigned long parent_ip, struct pt_regs *regs)
{
	return false;
}
NOKPROBE_SYMBOL(kft_ftrace_entry_regs);
