/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The return trampoline of "hooks fast" on arm64 (kft_exit_fast.c). A
 * hooked function returns here instead of to its caller: ftrace_caller gave
 * it kft's address in its link register (kft_ftrace_ret_slot()), which its
 * paciasp signed and its autiasp checked like any other. It arrives with
 * its return values in x0-x7 and its stack pointer as at its entry.
 * kft_fast_exit() reads x0 (the value the log shows) where this saves it,
 * 10 words below that stack pointer, only when it needs it.
 *
 * Modelled on the kernel's return_to_handler (arch/arm64/kernel/entry-ftrace.S):
 * - Pointer authentication: nothing to sign here. The way on is a RET to
 *   the plain address kft kept (a RET does not authenticate).
 * - BTI: a RET needs no landing pad, and nothing branches here by register.
 * - Unwinding: the kernel's unwinder maps only its own trampolines back to
 *   the real return address. A hooked call's frame record holds this one's
 *   address, which a stack trace shows in place of the caller, then goes on
 *   (arm64's unwinder follows the frame records, not the return addresses).
 *   It prints the symbol of the instruction before a return address: a
 *   guard, so that it names kft_fast_region, not the function before it.
 *   No frame record of its own, as return_to_handler: a stack trace taken
 *   in kft_fast_exit() goes on from the caller's.
 */
#include <linux/linkage.h>

	.text
SYM_CODE_START(kft_fast_region)
	udf	#0				/* the guard */
SYM_INNER_LABEL(kft_fast_return, SYM_L_GLOBAL)
	sub	sp, sp, #80
	stp	x0, x1, [sp]			/* kft_fast_exit(): sp - 10 */
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	str	x8, [sp, #64]			/* the indirect result's address */
	add	x0, sp, #80			/* the stack pointer after the return */

	bl	kft_fast_exit

	mov	x30, x0				/* the address kft had replaced */
	ldp	x0, x1, [sp]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldr	x8, [sp, #64]
	add	sp, sp, #80
	ret
SYM_CODE_END(kft_fast_region)
