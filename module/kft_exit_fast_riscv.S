/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The return trampoline of "hooks fast" on 64-bit RISC-V (kft_exit_fast.c).
 * A hooked function returns here instead of to its caller: ftrace_caller
 * gave it kft's address in its ra (kft_ftrace_ret_slot()), as the
 * kernel's ftrace_graph_func() gives it return_to_handler's. It arrives
 * with its return values in a0 and a1 and its stack pointer as at its
 * entry. kft_fast_exit() reads a0 (the value the log shows) where this
 * saves it, 10 words below that stack pointer, only when it needs it.
 *
 * Modelled on the kernel's return_to_handler (arch/riscv/kernel/mcount.S):
 * a0-a7 saved (a0 and a1 are the return values; the rest costs four
 * stores and keeps the frame as arm64's), kft_fast_exit() called with the
 * stack pointer after the return, and its result, the caller's address,
 * jumped to. No frame record of its own: a stack trace taken in
 * kft_fast_exit() goes on from the caller's frame, with this trampoline in
 * place of the caller (the unwinder follows s0, not return addresses). A
 * trace prints the symbol of the byte before a return address: a guard
 * instruction first, so that it names kft_fast_region, not the function
 * before it. Uncompressed, so that the guard is a whole 4-byte unimp.
 */
#include <linux/linkage.h>

	.text
	.option push
	.option norvc
SYM_CODE_START(kft_fast_region)
	unimp					/* the guard */
SYM_INNER_LABEL(kft_fast_return, SYM_L_GLOBAL)
	addi	sp, sp, -80
	sd	a0, 0(sp)			/* kft_fast_exit(): sp - 10 */
	sd	a1, 8(sp)
	sd	a2, 16(sp)
	sd	a3, 24(sp)
	sd	a4, 32(sp)
	sd	a5, 40(sp)
	sd	a6, 48(sp)
	sd	a7, 56(sp)
	addi	a0, sp, 80			/* the stack pointer after the return */

	call	kft_fast_exit

	mv	ra, a0				/* the address kft had replaced */
	ld	a0, 0(sp)
	ld	a1, 8(sp)
	ld	a2, 16(sp)
	ld	a3, 24(sp)
	ld	a4, 32(sp)
	ld	a5, 40(sp)
	ld	a6, 48(sp)
	ld	a7, 56(sp)
	addi	sp, sp, 80
	jr	ra
SYM_CODE_END(kft_fast_region)
	.option pop
