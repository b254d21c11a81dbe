// SPDX-License-Identifier: GPL-2.0
/*
 * The architecture layer (kft_arch.h) for 64-bit RISC-V: kft unwinds by the
 * frame pointers itself (riscv exports no unwinder that starts at a
 * pt_regs), times the time filters' calls with the timer's counter (the
 * time CSR, kft_cycles()), and finds a blocked task's return addresses in
 * its frame records (hooks fast).
 */
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <asm/delay.h>
#include <asm/processor.h>
#include <asm/stacktrace.h>

#include "kft_arch.h"

/*
 * Counts per ms of kft_cycles(): the timebase the firmware's device tree
 * (or ACPI's RHCT) gives, constant by the architecture; sched_clock() is
 * this counter scaled.
 */
u32 kft_cycles_khz(void)
{
	return riscv_timebase / 1000;
}

/* Nothing to learn at load. */
void kft_arch_init(void)
{
}

/*
 * Unwinding from a register state, by the frame pointers (Debian's kernel
 * has CONFIG_FRAME_POINTER), as the kernel's walk_stackframe() does, which
 * is not exported. From kft's own frame (stack_trace_save()) the stack
 * would be of no use: ftrace_caller leaves no frame record, so a walk from
 * an ftrace_ops callback goes from ftrace_caller to the traced function's
 * caller's caller, without the function and its return address; and a
 * walk from a timer interrupt ends where the IRQ stack does, before the
 * interrupted context.
 *
 * A frame record, 16 bytes below a function's frame pointer (its stack
 * pointer at entry): the caller's frame pointer, then the return address.
 * Valid when it lies above the last one, on the same stack.
 */
static notrace bool kft_riscv_fp_ok(unsigned long fp, unsigned long sp)
{
	return fp >= sp + sizeof(struct stackframe) && fp <= ALIGN(sp, THREAD_SIZE) &&
	       !(fp & 7);
}

/* Room left in @buf: else the stack is truncated there. */
static notrace bool kft_riscv_push(unsigned long *buf, unsigned int *n, unsigned int max,
				   unsigned long pc, bool *truncated)
{
	if (*n == max) {
		*truncated = true;
		return false;
	}
	buf[(*n)++] = pc;
	return true;
}

/**
 * kft_unwind_regs() - the frames from a register state up
 * @regs:	a traced function at its first instruction (kft_ftrace_entry_regs():
 *		cause 0, which no exception or interrupt has in kernel mode), or an
 *		interrupted context (epc, ra, sp and s0 are used)
 * @buf:	room for @max frames
 * @max:	at least 1
 * @truncated:	set when the stack had more frames than fit
 *
 * Return: the frames, innermost (@regs->epc) first.
 */
notrace unsigned int kft_unwind_regs(struct pt_regs *regs, unsigned long *buf,
				     unsigned int max, bool *truncated)
{
	unsigned long fp = regs->s0, sp = regs->sp, pc, next;
	const struct stackframe *rec;
	unsigned int n = 0;

	*truncated = false;
	buf[n++] = regs->epc;
	if (!regs->cause) {
		/* At its first instruction: the return address is still in ra. */
		if (!kft_riscv_push(buf, &n, max, regs->ra, truncated))
			return n;
	} else if (kft_riscv_fp_ok(fp, sp)) {
		/*
		 * Interrupted: a leaf that saved only its frame pointer has
		 * the caller's there instead of a return address, which is
		 * then still in ra (the kernel's unwinder decides the same way).
		 */
		rec = (const struct stackframe *)fp - 1;
		next = READ_ONCE_NOCHECK(rec->ra);
		if (kft_riscv_fp_ok(next, fp)) {
			if (!kft_riscv_push(buf, &n, max, regs->ra, truncated))
				return n;
			sp = fp;
			fp = next;
		}
	}
	while (kft_riscv_fp_ok(fp, sp)) {
		rec = (const struct stackframe *)fp - 1;
		pc = READ_ONCE_NOCHECK(rec->ra);
		next = READ_ONCE_NOCHECK(rec->fp);
		if (!pc || !kft_riscv_push(buf, &n, max, pc, truncated))
			break;
		sp = fp;
		fp = next;
	}
	return n;
}
NOKPROBE_SYMBOL(kft_unwind_regs);

/*
 * ftrace's caller saved the traced function's return address, stack
 * pointer and frame pointer (its caller's: the function's own prologue
 * has not run) in the ftrace_regs: the walk starts there. False when they
 * are not plausible (on this stack, above kft's and ftrace's frames).
 */
notrace bool kft_ftrace_entry_regs(struct ftrace_regs *fregs, unsigned long ip,
				   unsigned long parent_ip, struct pt_regs *regs)
{
	unsigned long cur = current_stack_pointer, sp;

	if (!fregs)
		return false;
	sp = kft_fregs_arch(fregs)->sp;
	if (sp <= cur || sp - cur > PAGE_SIZE || (sp & 7))
		return false;
	regs->epc = ip;
	regs->ra = parent_ip;
	regs->sp = sp;
	regs->s0 = kft_fregs_arch(fregs)->s0;
	regs->cause = 0;
	return true;
}
NOKPROBE_SYMBOL(kft_ftrace_entry_regs);

#if KFT_HAVE_FAST_HOOKS
/*
 * hooks fast (kft_arch.h): with frame pointers, a function's s0 is its
 * stack pointer at entry, which is also its stack pointer after its return,
 * and its frame record (return address, then the caller's s0) is just
 * below it. So the call whose stack pointer after the return is @sp has
 * its return address at @sp - 8, if @sp is in the chain of s0 values from
 * where @t switched away. (A function the call tail-called has the same
 * entry stack pointer, and the same return address: its record is the one
 * found.) A value that is not @old (another exit hook's) is left.
 */
notrace bool kft_blocked_ret_swap(struct task_struct *t, unsigned long sp, unsigned long old,
				  unsigned long new)
{
	unsigned long lo = (unsigned long)task_stack_page(t), hi = lo + THREAD_SIZE;
	unsigned long fp = t->thread.s[0];
	struct stackframe *rec;

	/*
	 * With a shadow call stack a function returns to the copy of its
	 * return address it pushed there, not to its frame record's: a call
	 * given back here would still return into the trampoline, frameless.
	 * Left hooked: the task returns through the trampoline.
	 */
	if (IS_ENABLED(CONFIG_SHADOW_CALL_STACK))
		return false;
	while (fp != sp) {
		if (fp < lo + sizeof(*rec) || fp > hi || (fp & 7) || fp > sp)
			return false;
		rec = (struct stackframe *)fp - 1;
		/* Records go up the stack: anything else ends the walk. */
		if (READ_ONCE(rec->fp) <= fp)
			return false;
		fp = READ_ONCE(rec->fp);
	}
	rec = (struct stackframe *)fp - 1;
	if (READ_ONCE(rec->ra) != old)
		return false;
	WRITE_ONCE(rec->ra, new);
	return true;
}
#endif
