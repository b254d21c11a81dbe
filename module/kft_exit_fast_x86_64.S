/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The return trampoline of "hooks fast" (kft_exit_fast.c). A hooked function
 * returns here instead of to its caller, with its return values in rax:rdx
 * and the stack pointer just above its (consumed) return slot.
 * kft_fast_exit() reads rax (the value the log shows) where this saves it,
 * 24 bytes below that stack pointer, only when it needs it.
 *
 * Modelled on the kernel's return_to_handler (arch/x86/kernel/ftrace_64.S):
 * - Unwinding: the kernel's unwinder maps only its own trampolines back to
 *   the real return address. A stack trace that meets this one looks up
 *   ORC data for the byte before it (a return address points after a call):
 *   that byte is a guard int3 whose hint is "undefined", so the unwinder
 *   stops there cleanly instead of guessing from frame pointers.
 * - IBT: the way back is a RET to an address written on the stack (a
 *   return needs no ENDBR; a JMP through a register would), and nothing
 *   jumps here indirectly: the label is ANNOTATE_NOENDBR.
 * - Call depth tracking (retbleed=stuff, 6.2 and later): the same
 *   ALTERNATIVE as return_to_handler.
 */
#include <linux/linkage.h>
#include <asm/alternative.h>
#include <asm/cpufeatures.h>
#include <asm/nospec-branch.h>
#include <asm/unwind_hints.h>

/*
 * 6.12 names the "undefined" hint; 6.1 spells it out. Not 6.1's
 * UNWIND_HINT_EMPTY: that one would claim a reliable end of the stack.
 */
#ifdef UNWIND_HINT_TYPE_UNDEFINED
#define KFT_HINT_UNDEFINED	UNWIND_HINT_UNDEFINED
#else
#define KFT_HINT_UNDEFINED	UNWIND_HINT type=UNWIND_HINT_TYPE_CALL sp_reg=ORC_REG_UNDEFINED end=0
#endif

	.text
SYM_CODE_START(kft_fast_region)
	KFT_HINT_UNDEFINED
	ANNOTATE_NOENDBR
	int3					/* the guard byte */
SYM_INNER_LABEL(kft_fast_return, SYM_L_GLOBAL)
	KFT_HINT_UNDEFINED
	ANNOTATE_NOENDBR
	movq	%rsp, %rdi			/* the return slot + 8 */
	/*
	 * The consumed slot is not read again, and an interrupt may have
	 * overwritten it already: the whole trampoline stays "undefined",
	 * as return_to_handler does, so that a stack trace taken in it or in
	 * kft_fast_exit() stops here instead of reading that slot (the debug
	 * kernel once warned "stack going in the wrong direction? at
	 * kft_fast_return+0x2e" with a frame hint here).
	 */
	subq	$24, %rsp
	movq	%rax, (%rsp)			/* kft_fast_exit(): sp - 3 */
	movq	%rdx, 8(%rsp)

	call	kft_fast_exit

	movq	%rax, %rdi
	movq	8(%rsp), %rdx
	movq	(%rsp), %rax
	addq	$24, %rsp
	/* To the original address by a return (see above). */
	ANNOTATE_INTRA_FUNCTION_CALL
	call	.Lkft_fast_rop
	int3
.Lkft_fast_rop:
	movq	%rdi, (%rsp)
#ifdef X86_FEATURE_CALL_DEPTH
	ALTERNATIVE __stringify(RET), \
		    __stringify(ANNOTATE_UNRET_SAFE; ret; int3), \
		    X86_FEATURE_CALL_DEPTH
#else
	RET
#endif
SYM_CODE_END(kft_fast_region)
