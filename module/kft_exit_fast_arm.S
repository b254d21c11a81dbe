/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The return trampoline of "hooks fast" on 32-bit ARM (kft_exit_fast.c). A
 * hooked function returns here instead of to its caller: ftrace_regs_caller
 * gave it kft's address in its link register (kft_ftrace_ret_slot()),
 * which it saved and popped back like any other. It arrives with its
 * return values in r0-r3 and its stack pointer as at its entry.
 * kft_fast_exit() reads r0 (the value the log shows) where this saves it,
 * 4 words below that stack pointer, only when it needs it.
 *
 * Modelled on the kernel's return_to_handler (arch/arm/kernel/entry-ftrace.S):
 * - Unwinding: the unwind tables cannot say where the caller is (kft keeps
 *   it), so the region is marked as one the unwinder cannot go through: a
 *   stack trace that meets it ends there, quietly, as x86-64's does at its
 *   trampoline (without an entry, ARM's unwinder warns "Index not found").
 *   A stack trace shows the guard's symbol, kft_fast_region, in place of
 *   the caller.
 * - ARM or Thumb callers: the way on is a BX to the address kft kept,
 *   Thumb bit and all.
 * - A Thumb-2 kernel: kft_fast_exit() is Thumb code there, and the module
 *   loader refuses a BL from ARM code to a Thumb function (it does not
 *   turn it into a BLX). A BLX to the function's address, whose Thumb bit
 *   the loader's absolute relocation keeps, switches either way.
 */
#include <linux/linkage.h>
#include <linux/version.h>
#include <asm/assembler.h>
#include <asm/unwind.h>

/* KFT_HAVE_FAST_HOOKS: KFT_ARM_UNWIND_LR_ADDR (kft_compat.h), in assembler. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 18, 0)
	.text
	.arm
	.align	2
SYM_CODE_START(kft_fast_region)
UNWIND(	.fnstart	)
UNWIND(	.cantunwind	)
	udf	#0				@ the guard
SYM_INNER_LABEL(kft_fast_return, SYM_L_GLOBAL)
	push	{r0-r3}				@ kft_fast_exit(): sp - 4
	add	r0, sp, #16			@ the stack pointer after the return
	ldr	ip, =kft_fast_exit
	blx	ip
	mov	lr, r0				@ the address kft had replaced
	pop	{r0-r3}
	ret	lr
	.ltorg
UNWIND(	.fnend		)
SYM_CODE_END(kft_fast_region)
#endif
