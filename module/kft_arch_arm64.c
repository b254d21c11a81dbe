// SPDX-License-Identifier: GPL-2.0
/*
 * The architecture layer (kft_arch.h) for arm64: kft unwinds from its own
 * frame (no unwinder that starts at a pt_regs is exported:
 * arch_stack_walk() and stack_trace_save_regs() are not), and has no
 * cycle clock for the time filters (the generic timer's counter is coarser
 * than the ns clock, a few MHz).
 */
#include <linux/kprobes.h>
#include <linux/sched.h>

#include "kft_arch.h"
#include "kft_stack.h"

u32 kft_cycles_khz(void)
{
	return 0;
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
