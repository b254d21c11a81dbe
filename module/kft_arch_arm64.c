// SPDX-License-Identifier: GPL-2.0
/*
 * The architecture layer (kft_arch.h) where kft unwinds from its own
 * frame and has no cycle clock for the time filters: arm64 and 32-bit ARM.
 * Neither exports an unwinder that starts at a pt_regs (arch_stack_walk()
 * and stack_trace_save_regs() are not exported; ARM exports
 * walk_stackframe() alone), and their counters are coarser than the ns
 * clock (the generic timer's, a few MHz).
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
 * The stack is unwound from kft's own frame with stack_trace_save() and cut
 * where @regs's pc shows. The unwinder crosses an exception (the
 * interrupted context): arm64 by the frame record in its pt_regs, ARM by
 * its unwind tables (CONFIG_ARM_UNWIND).
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
 * (arm64: link register, frame and stack pointers; ARM's __gnu_mcount_nc
 * without FTRACE_OPS_FL_SAVE_REGS: none), but no unwinder takes them:
 * false, the caller unwinds from its own frame (on arm64 ftrace_caller
 * leaves frame records for the traced function and its caller, so the cut
 * at the return address is exact).
 */
notrace bool kft_ftrace_entry_regs(struct ftrace_regs *fregs, unsigned long ip,
				   unsigned long parent_ip, struct pt_regs *regs)
{
	return false;
}
NOKPROBE_SYMBOL(kft_ftrace_entry_regs);
