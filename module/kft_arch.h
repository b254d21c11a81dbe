/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The architecture layer: everything kft does differently on x86-64, arm64,
 * 32-bit ARM and 64-bit RISC-V, behind one interface. Inline here what the
 * traced path needs (where a function's return address is, the cycle
 * clock); out of line, one file each (kft_arch_x86_64.c, kft_arch_arm64.c,
 * kft_arch_arm.c, kft_arch_riscv.c) and kft_irq_stack.c (the per-CPU IRQ
 * stacks all four have).
 *
 * Below it: only the data structures (kft_stack.c's capture). Above it:
 * the exit mechanisms, the modes, the run (Documentation/architecture.rst).
 *
 * What the code supports (tested: Debian's 5.10, 6.1, 6.12 and
 * trixie-backports' 7.3 on x86-64, Debian's 5.10, 6.12 and trixie-backports'
 * 7.3 on arm64, Debian's 5.10 and 6.1 armmp-lpae on ARMv7, Debian 13's 6.12
 * on riscv64): x86-64, arm64, 32-bit ARM and 64-bit RISC-V, each with the
 * trampoline of "hooks fast" (kft_exit_fast_*.S).
 */
#ifndef KFT_ARCH_H
#define KFT_ARCH_H

#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/types.h>
#include <linux/uaccess.h>

#ifdef CONFIG_X86_64
#include <asm/vsyscall.h>
#endif

#include "kft_compat.h"

#if !defined(CONFIG_X86_64) && !defined(CONFIG_ARM64) && !defined(CONFIG_ARM) && \
	!(defined(CONFIG_RISCV) && defined(CONFIG_64BIT))
#error "kft supports x86-64, arm64, 32-bit ARM and 64-bit RISC-V only"
#endif

/*
 * Where the function at @addr starts, @addr a function pointer or a
 * symbol's value: on a Thumb-2 kernel both have bit 0 set (the Thumb bit
 * an interworking call takes; a module's symbols keep it, and kprobes'
 * lookups give it back), which ftrace's records of call sites and
 * vmlinux's symbols do not have.
 */
static inline unsigned long kft_code_start(unsigned long addr)
{
	return addr & ~(unsigned long)IS_ENABLED(CONFIG_THUMB2_KERNEL);
}

/* Where the C function @fn's code starts (kft_code_start()). */
static inline unsigned long kft_code_addr(const void *fn)
{
	return kft_code_start((unsigned long)fn);
}

/* 32-bit ARM's IRQ stacks are THREAD_SIZE, THREAD_ALIGN-ed (arch/arm/kernel/irq.c). */
#if defined(CONFIG_ARM) && !defined(IRQ_STACK_SIZE)
#define IRQ_STACK_SIZE	THREAD_SIZE
#endif

/*
 * kft's return trampoline (kft_exit_fast_x86_64.S, kft_exit_fast_arm64.S,
 * kft_exit_fast_riscv.S, kft_exit_fast_arm.S): the architectures it is
 * written for. It needs ftrace's caller to pass the traced function's
 * stack pointer and where its return address is to an ftrace_ops callback:
 * DYNAMIC_FTRACE_WITH_ARGS on x86-64 (from 5.11 on, not Debian's 5.10),
 * arm64 and riscv64 (Debian's 6.12 and later); on 32-bit ARM the pt_regs
 * of DYNAMIC_FTRACE_WITH_REGS, which ftrace passes only to an ops that asks
 * (KFT_FAST_OPS_FLAGS). 32-bit ARM also needs the unwinder to say where it
 * found a return address on the stack (struct stackframe's lr_addr, 5.18
 * on: kft_blocked_ret_swap()).
 */
#if defined(CONFIG_X86_64) || defined(CONFIG_ARM64) || defined(CONFIG_RISCV) || \
	defined(CONFIG_ARM)
#define KFT_FAST_HOOKS_ARCH	1
#else
#define KFT_FAST_HOOKS_ARCH	0
#endif
#if defined(CONFIG_ARM)
#define KFT_FAST_FTRACE_PASSES_REGS	(IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_REGS) && \
					 KFT_ARM_UNWIND_LR_ADDR)
#define KFT_FAST_OPS_FLAGS		FTRACE_OPS_FL_SAVE_REGS
#else
#define KFT_FAST_FTRACE_PASSES_REGS	IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_ARGS)
#define KFT_FAST_OPS_FLAGS		0
#endif
/*
 * Without the function graph tracer the kernel traces __switch_to (its
 * __notrace_funcgraph is notrace only with it), which x86-64 enters on the
 * next task's stack while current is still the previous task, and has no
 * pause for a suspend's finisher (kft_graph_paused()): fast hooks would
 * lose their frames at the first switch, or across a suspend.
 */
#if KFT_FAST_HOOKS_ARCH && KFT_FAST_FTRACE_PASSES_REGS && \
	IS_ENABLED(CONFIG_FUNCTION_GRAPH_TRACER)
#define KFT_HAVE_FAST_HOOKS	1
#else
#define KFT_HAVE_FAST_HOOKS	0
#endif

/* Which stack a stack pointer is on (stack watches). */
enum kft_stack_kind {
	KFT_STACK_TASK,		/* the current task's */
	KFT_STACK_IRQ,		/* this CPU's hard-interrupt stack */
	KFT_STACK_OTHER,	/* NMI, exception stacks: not measured */
};

/*
 * hooks fast (kft_exit_fast.c): where a traced function's return address is,
 * from an ftrace_ops callback. Into @slot: the word that holds it now, and
 * that kft rewrites to its trampoline's address before the callback returns;
 * into @sp: the function's stack pointer after it returns, which tells its
 * return apart (a call nested in it returns with a lower one; a call it
 * tail-calls shares it, and returns through the same frame of the caller).
 * False if ftrace did not save plausible ones (on this stack, above the
 * callback's frames, aligned).
 *
 * x86-64: the return address is on the stack (the slot is the function's
 * stack pointer at entry, which ftrace's caller saves in a struct
 * ftrace_regs that is a pt_regs, also without SAVE_REGS). arm64: it is in
 * the link register, which ftrace_caller saves in the ftrace_regs and
 * restores from there before the function's first instruction (its
 * paciasp then signs whatever kft wrote: pointer authentication needs
 * nothing more); the stack pointer is the caller's, unchanged at return.
 * riscv64: as arm64, in ra (ftrace_caller saves and restores it).
 * 32-bit ARM: where the function's prologue saved its link register, or
 * in the link register, which ftrace_regs_caller saves in the pt_regs and
 * restores, for a function that saved none (below).
 */
#if defined(CONFIG_X86_64)
/* kft_fast_exit(sp) finds the return value (rax) 3 words below @sp. */
#define KFT_FAST_RETVAL_WORDS	3
/* The return pops the return address. */
#define KFT_FAST_RET_POPS	sizeof(long)
#define kft_fregs_entry_sp(fregs)	(kft_fregs_pt(fregs)->sp)
#define kft_fregs_ret_slot(fregs)	((unsigned long *)kft_fregs_entry_sp(fregs))
#elif defined(CONFIG_ARM)
/* kft_fast_exit(sp) finds the return value (r0) 4 words below @sp. */
#define KFT_FAST_RETVAL_WORDS	4
#define KFT_FAST_RET_POPS	0
#elif KFT_HAVE_FAST_HOOKS
/* kft_fast_exit(sp) finds the return value (x0, a0) 10 words below @sp. */
#define KFT_FAST_RETVAL_WORDS	10
#define KFT_FAST_RET_POPS	0
#define kft_fregs_entry_sp(fregs)	(kft_fregs_arch(fregs)->sp)
#ifdef CONFIG_ARM64
#define kft_fregs_ret_slot(fregs)	(&kft_fregs_arch(fregs)->lr)
#else
#define kft_fregs_ret_slot(fregs)	(&kft_fregs_arch(fregs)->ra)
#endif
#endif
/* A stack pointer is word-aligned at least (x86-64's is 8 mod 16 at entry). */
#define KFT_FAST_SP_ALIGN_MASK	(sizeof(long) - 1)

#if KFT_HAVE_FAST_HOOKS && defined(CONFIG_ARM)
/*
 * 32-bit ARM: ftrace's call comes after the function's prologue, which
 * saved the link register on the stack if the function calls others; it
 * returns through that copy, and only a function that saved none (a leaf)
 * returns through the register ftrace restores. Where the copy is, and
 * where the stack pointer was before the prologue (as at the return), the
 * unwind tables say: function_graph unwinds one frame at each call here.
 * kft keeps the answer per function, in a cache indexed by the function's
 * address (kft_arch_arm.c), each entry 64 bits read and written whole: the
 * address, and KFT_ARM_SLOT_VALID with the two distances, in words, from
 * the stack pointer ftrace saved: the copy's (KFT_ARM_SLOT_LEAF: none) and
 * the entry's.
 */
#define KFT_ARM_SLOTS_BITS	13
#define KFT_ARM_SLOT_VALID	BIT(31)
#define KFT_ARM_SLOT_NONE	BIT(30)		/* not hooked: no copy found */
#define KFT_ARM_SLOT_ENTRY_SHIFT	15
#define KFT_ARM_SLOT_WORDS	0x7fffU		/* the largest distance */
#define KFT_ARM_SLOT_LEAF	KFT_ARM_SLOT_WORDS
extern atomic64_t kft_arm_slots[1 << KFT_ARM_SLOTS_BITS];

u32 kft_arm_ret_slot_find(struct pt_regs *regs, unsigned long ip, unsigned long tramp);
void kft_fast_return(void);	/* the trampoline (kft_exit_fast_arm.S) */

static __always_inline bool kft_ftrace_ret_slot(struct ftrace_regs *fregs, unsigned long ip,
						unsigned long **slot, unsigned long *sp)
{
	/* (With SAVE_REGS, ftrace's struct ftrace_regs is the pt_regs.) */
	struct pt_regs *regs = ftrace_get_regs(fregs);
	unsigned long at, cur = current_stack_pointer;
	unsigned long *word, ret;
	u64 e;
	u32 where, lr;

	if (!regs)
		return false;
	at = regs->ARM_sp;
	/* Above the current one, by at most a page (at <= cur wraps). */
	if (at - cur - 1 >= PAGE_SIZE || (at & KFT_FAST_SP_ALIGN_MASK))
		return false;
	e = atomic64_read(&kft_arm_slots[(ip >> 1) & (BIT(KFT_ARM_SLOTS_BITS) - 1)]);
	where = (u32)e;
	if (unlikely((u32)(e >> 32) != ip || !(where & KFT_ARM_SLOT_VALID)))
		where = kft_arm_ret_slot_find(regs, ip, (unsigned long)kft_fast_return);
	if (unlikely(where & KFT_ARM_SLOT_NONE))
		return false;
	lr = where & KFT_ARM_SLOT_WORDS;
	word = lr == KFT_ARM_SLOT_LEAF ? &regs->ARM_lr : (unsigned long *)at + lr;
	/*
	 * The copy holds the return address ftrace saw, or the trampoline's
	 * (another of kft's hooks on the function wrote it there, after
	 * ftrace saved the registers each callback sees); else it is not the
	 * copy.
	 */
	ret = READ_ONCE(*word);
	if (ret != regs->ARM_lr && ret != (unsigned long)kft_fast_return)
		return false;
	*slot = word;
	*sp = at + sizeof(long) * ((where >> KFT_ARM_SLOT_ENTRY_SHIFT) & KFT_ARM_SLOT_WORDS);
	return true;
}
#elif KFT_HAVE_FAST_HOOKS
static __always_inline bool kft_ftrace_ret_slot(struct ftrace_regs *fregs, unsigned long ip,
						unsigned long **slot, unsigned long *sp)
{
	unsigned long at, cur = current_stack_pointer;

	if (!fregs)
		return false;
	at = kft_fregs_entry_sp(fregs);
	/* Above the current one, by at most a page (at <= cur wraps). */
	if (at - cur - 1 >= PAGE_SIZE || (at & KFT_FAST_SP_ALIGN_MASK))
		return false;
	*slot = kft_fregs_ret_slot(fregs);
	*sp = at + KFT_FAST_RET_POPS;
	return true;
}
#endif

#if KFT_HAVE_FAST_HOOKS
/*
 * hooks fast: in blocked task @t, the return address of its call whose
 * stack pointer after return is @sp, if it is @old, becomes @new (the
 * trampoline's address gives way to the caller's). Under stop_machine().
 * Return: whether it was @old and was replaced.
 */
bool kft_blocked_ret_swap(struct task_struct *t, unsigned long sp, unsigned long old,
			  unsigned long new);
#endif

/*
 * A cycle counter for the time filters: a call that mintime or maxtime
 * judges is timed in cycles and costs a clock conversion only when kept.
 * On x86-64 trace_clock_local() is sched_clock(), the TSC scaled by a
 * per-CPU factor (cycles_2_ns(): about 40 instructions a read); the TSC
 * alone is a few. Where the kernel marked the TSC unstable or its rate can
 * change (no constant TSC and a cpufreq driver), kft_cycles_khz() says 0
 * and kft keeps the ns clock, as on 32-bit ARM. On arm64 sched_clock() is
 * the generic timer's counter scaled (its resolution is the counter's):
 * the counter itself, read through the timer driver's reader (which
 * works around the counter's errata), at the rate in cntfrq_el0. On
 * riscv64 likewise: sched_clock() is the time CSR scaled, at the timebase
 * rate.
 */
#ifdef CONFIG_X86_64
#include <asm/tsc.h>
static __always_inline u64 kft_cycles(void)
{
	return rdtsc_ordered();
}
#elif defined(CONFIG_ARM64)
#include <clocksource/arm_arch_timer.h>
static __always_inline u64 kft_cycles(void)
{
	return arch_timer_read_counter();
}
#elif defined(CONFIG_RISCV)
#include <asm/timex.h>
static __always_inline u64 kft_cycles(void)
{
	return get_cycles();
}
#else
static __always_inline u64 kft_cycles(void)
{
	return 0;
}
#endif
u32 kft_cycles_khz(void);

/*
 * Whether the kernel's nofault copy would read at @addr: refused below
 * the kernel's half and its guard page, in the vsyscall page, or not
 * canonical (x86-64, as copy_from_kernel_nofault_allowed()), or a user
 * address (the other architectures). The vsyscall page is in the
 * kernel's half but the fault handler takes it for a user page: with SMAP
 * a kernel access there oopses before any fixup is looked for.
 */
static __always_inline bool kft_kernel_addr_readable(unsigned long addr)
{
#ifdef CONFIG_X86_64
	unsigned int shift = 64 - boot_cpu_data.x86_virt_bits;

	return addr >= TASK_SIZE_MAX + PAGE_SIZE && !is_vsyscall_vaddr(addr) &&
	       (unsigned long)((long)(addr << shift) >> shift) == addr;
#elif defined(CONFIG_ARM64)
	/* Bit 55 picks the half: the top byte may hold a tag (KASAN's, MTE's). */
	return (long)(addr << 8) < 0;
#elif defined(CONFIG_ARM)
	/* Modules lie just below PAGE_OFFSET, users below them. */
	return addr >= TASK_SIZE;
#else
	return (long)addr < 0;
#endif
}

/*
 * A user copy that cannot fault, of @n bytes at @addr: 0 or an error. On
 * x86-64 an NMI can come while the CPU switches from one process's page
 * tables to another's, current still the old one: copy_from_user_nmi()
 * refuses then (copy_from_user_nofault() does too only in later kernels);
 * elsewhere the switch leaves no such window.
 */
static __always_inline long kft_user_copy_nofault(void *dst, unsigned long addr, size_t n)
{
#ifdef CONFIG_X86_64
	if (in_nmi())
		return copy_from_user_nmi(dst, (const void __user *)addr, n) ? -EFAULT : 0;
#endif
	return copy_from_user_nofault(dst, (const void __user *)addr, n);
}

/* Whether one of @w's bytes is 0: the word holds a string's end. */
static __always_inline bool kft_word_ends_string(u64 w)
{
	return (w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL;
}

/**
 * kft_kernel_words_nofault() - a kernel string's words, up to its NUL
 * @addr:	in the kernel's half
 * @words:	set to them
 * @nr:		the most words to read, all within @addr's page (at least 1)
 *
 * What copy_from_kernel_nofault() does, inline: no call that a run may
 * trace, one check of the address and one window without page faults,
 * and no word read past the one that ends the string. Refused where the
 * kernel's copy refuses (kft_kernel_addr_readable()), and where the
 * kernel has no inline nofault load (KFT_HAVE_KERNEL_NOFAULT_LOAD).
 *
 * Return: the words read, the last the first that holds a zero byte or
 * the @nr-th; 0 when refused or on a fault (the words share a page: the
 * first faults if any does).
 */
static __always_inline unsigned int kft_kernel_words_nofault(unsigned long addr, u64 *words,
							     unsigned int nr)
{
#if KFT_HAVE_KERNEL_NOFAULT_LOAD
	unsigned int i;

	if (!kft_kernel_addr_readable(addr))
		return 0;
	pagefault_disable();
	for (i = 0; i < nr; i++) {
		__get_kernel_nofault(&words[i], (const u64 *)addr + i, u64, fault);
		if (kft_word_ends_string(words[i])) {
			i++;
			break;
		}
	}
	pagefault_enable();
	return i;
fault:
	pagefault_enable();
#endif
	return 0;
}

/**
 * kft_kernel_word_nofault() - the 8 bytes of kernel memory at @addr
 * @addr:	in the kernel's half, its 8 bytes within one page
 * @word:	set to them
 *
 * Return: whether @word was read (kft_kernel_words_nofault()).
 */
static __always_inline bool kft_kernel_word_nofault(unsigned long addr, u64 *word)
{
	return kft_kernel_words_nofault(addr, word, 1);
}

/**
 * kft_kprobe_trapped() - did a kprobe fire through its breakpoint
 * @p:		the kprobe, from its handler
 *
 * x86-64 and riscv enter a breakpoint hit in kernel code as an NMI, so
 * that its handlers run one NMI level above the probed call's context. A
 * kprobe at ftrace's call site runs from ftrace, and an optimized one
 * (x86-64: its first byte a jump, no longer the breakpoint) from its
 * detour: in the call's own context. arm64's and 32-bit ARM's breakpoint
 * handlers enter no NMI.
 */
static __always_inline bool kft_kprobe_trapped(const struct kprobe *p)
{
#if defined(CONFIG_X86_64)
	return !(p->flags & KPROBE_FLAG_FTRACE) &&
	       READ_ONCE(*(const u8 *)p->addr) == INT3_INSN_OPCODE;
#elif defined(CONFIG_RISCV)
	return !(p->flags & KPROBE_FLAG_FTRACE);
#else
	return false;
#endif
}

/**
 * kft_entry_return_address() - a function's return address at its entry
 * @regs:	the registers at the function's first instruction (a kprobe)
 *
 * x86-64: on top of the stack; arm64: in the link register (x30), not yet
 * signed (the kprobe runs before the function's paciasp); 32-bit ARM: in
 * the link register (lr; the function's "push {lr}" for __gnu_mcount_nc
 * comes after the kprobe); riscv64: in ra.
 * regs_get_kernel_stack_nth() would go through copy_from_kernel_nofault(),
 * about 100 instructions per call: the stack the probed function runs on
 * is read directly.
 */
static __always_inline unsigned long kft_entry_return_address(struct pt_regs *regs)
{
#if defined(CONFIG_ARM64)
	return procedure_link_pointer(regs);
#elif defined(CONFIG_ARM)
	return regs->ARM_lr;
#elif defined(CONFIG_RISCV)
	return regs->ra;
#else
	return *(unsigned long *)kernel_stack_pointer(regs);
#endif
}

/*
 * Whether a kprobe at a function's first instruction sees the return
 * address in the unwinder's frames: on x86-64 the call pushed it; on arm64,
 * ARM and riscv64 it is still in the link register, and the unwinder goes from the
 * probed function straight to its caller's caller (kft_stack_capture()
 * puts it back).
 */
#define KFT_ENTRY_RETURN_ON_STACK	IS_ENABLED(CONFIG_X86_64)

/*
 * Whether a kprobe, and so a kretprobe, can be put where a traced function
 * starts. Not where ftrace's call site is the function's first bytes and
 * kprobes cannot share it (no KPROBES_ON_FTRACE): riscv64 (Debian 13's
 * 6.12: check_ftrace_location() refuses such a kprobe with -EINVAL). There
 * only fprobe or kft's own trampoline can hook a traceable function's
 * exit, and a kprobe that looks a symbol up goes past the call site
 * (KFT_KPROBE_LOOKUP_OFFSET).
 */
#define KFT_KPROBE_AT_FTRACE_SITE	(IS_ENABLED(CONFIG_KPROBES_ON_FTRACE) || \
					 !IS_ENABLED(CONFIG_RISCV))
#ifdef CONFIG_RISCV
#define KFT_KPROBE_LOOKUP_OFFSET	MCOUNT_INSN_SIZE
#else
#define KFT_KPROBE_LOOKUP_OFFSET	0
#endif

/*
 * Whether a kprobe registered at a function's start says if ftrace can
 * hook the function: on x86-64 with KPROBES_ON_FTRACE the kprobe lands on
 * ftrace's call site itself (past an endbr64), and kprobes marks it
 * KPROBE_FLAG_FTRACE there; a kprobe without the mark is at a function
 * ftrace has no site in. Elsewhere the site lies past the start (arm64,
 * 32-bit ARM) or kprobes cannot share it: no sign either way.
 */
#define KFT_KPROBE_SHOWS_FTRACE_SITE	(IS_ENABLED(CONFIG_X86_64) && \
					 IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))

/*
 * How far into a function ftrace's call site may lie, which the log takes
 * back to the function's start (kft_output_func_start()): past an endbr64
 * on x86-64, a "bti c" and the patchable entry's first nop on arm64; on
 * 32-bit ARM after the function's whole prologue, which with frame
 * pointers (Debian 11's 5.10) is four instructions, a stack allocation of
 * one or two and mcount's "push {lr}".
 */
#define KFT_FTRACE_SITE_MAX_OFFSET	(IS_ENABLED(CONFIG_ARM) ? 32 : 16)

/* hooks safe: the kernel's exit hooks, fprobe or kretprobes (kft_exit.h). */
#define KFT_HAVE_SAFE_HOOKS		(KFT_HAVE_FPROBE || KFT_KPROBE_AT_FTRACE_SITE)
#if !KFT_HAVE_SAFE_HOOKS && !KFT_HAVE_FAST_HOOKS
#error "kft needs exit hooks: fprobe, kretprobes, or DYNAMIC_FTRACE_WITH_ARGS for its own"
#endif

/*
 * Entry triggers must run before the traced functions' hooks at a shared
 * entry (a start trigger's function is in the log, a stop trigger's is not).
 * ftrace calls the newest ops first, and so do kprobes at one address; but
 * where kprobes are no ftrace ops (arm64: no KPROBES_ON_FTRACE), a kprobe at
 * a function's first instruction runs before ftrace's call a few
 * instructions in. There entry triggers are kprobes: beside kretprobes as
 * the exit hooks they run first, and beside fast hooks they spare every
 * traced call ftrace's list of ops on 32-bit ARM, whose ftrace has no
 * trampoline per function (kft_trigger.c; a fast run only where
 * KFT_FAST_RUN_KPROBES). Not where kretprobes cannot be had (riscv64: a
 * kprobe there lands past the call site, after the hooks).
 */
#define KFT_ENTRY_TRIGGER_KPROBE	(!KFT_HAVE_FPROBE && !IS_ENABLED(CONFIG_KPROBES_ON_FTRACE) && \
					 KFT_KPROBE_AT_FTRACE_SITE)

/*
 * Whether a run with fast hooks may register a kprobe where one spares the
 * traced calls ftrace's list of ops (an entry trigger, the ring's warning
 * hook: kft_trigger.c). Not where kprobes come after the early initcalls
 * (the boot's run there must register none: kft_static.c), nor in a
 * Thumb-2 kernel, whose kprobes crash at the first probed call
 * (Documentation/testing.rst): fast hooks are all that work there.
 */
#define KFT_FAST_RUN_KPROBES		(!KFT_KPROBES_AFTER_EARLY_INITCALLS && \
					 !IS_ENABLED(CONFIG_THUMB2_KERNEL))

/*
 * args: how many of a call's first arguments kft keeps, the registers the
 * calling convention passes them in: a0 to a7 on riscv64, x0 to x5 of
 * arm64's eight (as x86-64's six), r0 to r3 on 32-bit ARM.
 */
#if defined(CONFIG_ARM)
#define KFT_ARGS_MAX	4
#elif defined(CONFIG_RISCV)
#define KFT_ARGS_MAX	8
#else
#define KFT_ARGS_MAX	6
#endif

/*
 * Argument register @n (below KFT_ARGS_MAX) of the registers saved at a
 * function's first instruction (a kprobe's, or fprobe's before 6.14).
 * 32-bit ARM has no regs_get_kernel_argument(): r0 to r3 are its first
 * four.
 */
static __always_inline unsigned long kft_regs_argument(struct pt_regs *regs, unsigned int n)
{
#if defined(CONFIG_ARM)
	return regs->uregs[n];
#else
	return regs_get_kernel_argument(regs, n);
#endif
}

/*
 * The same from what ftrace passes an ftrace_ops callback (fast hooks,
 * fprobe from 6.14 on): 32-bit ARM's is the pt_regs its ops asks for
 * (KFT_FAST_OPS_FLAGS); before ftrace_regs_get_argument(), the pt_regs
 * x86-64 saves in it.
 */
static __always_inline unsigned long kft_fregs_argument(struct ftrace_regs *fregs, unsigned int n)
{
#if defined(CONFIG_ARM)
	return kft_regs_argument(ftrace_get_regs(fregs), n);
#elif KFT_HAVE_FREGS_GET_ARGUMENT
	return ftrace_regs_get_argument(fregs, n);
#else
	return kft_regs_argument(kft_fregs_pt(fregs), n);
#endif
}

/* kft_irq_stack.c */
int kft_irq_stacks_find(void);
void kft_irq_stacks_exit(void);
enum kft_stack_kind kft_stack_left(unsigned long *left);

/*
 * The flags of mode stacks' ftrace_ops: its unwind starts from the
 * registers ftrace saves for the traced function (kft_ftrace_entry_regs()),
 * which 32-bit ARM (kft_arch_arm.c) and x86-64's 5.10
 * (KFT_FTRACE_PASSES_REGS) pass only to an ops that asks (SAVE_REGS), and
 * then only where the kernel has DYNAMIC_FTRACE_WITH_REGS (IF_SUPPORTED:
 * elsewhere NULL, and kft unwinds from its own frame).
 */
#if defined(CONFIG_ARM) || (defined(CONFIG_X86_64) && !KFT_FTRACE_PASSES_REGS)
#define KFT_STACKS_OPS_FLAGS	(FTRACE_OPS_FL_SAVE_REGS | FTRACE_OPS_FL_SAVE_REGS_IF_SUPPORTED)
#else
#define KFT_STACKS_OPS_FLAGS	0
#endif

/*
 * Whether a stack watch unwinds from the kprobe's registers at the traced
 * function's first instruction (kft_unwind_regs()), where its entry hook
 * is a kretprobe: on 32-bit ARM, whose unwind from kft's own frame ends at
 * the probed function (kft_arch_arm.c). Elsewhere from kft's own frame.
 */
#define KFT_WATCH_UNWINDS_KPROBE_REGS	IS_ENABLED(CONFIG_ARM)

/* kft_arch_*.c */
void kft_arch_init(void);
#if KFT_HAVE_FAST_HOOKS && defined(CONFIG_ARM)
void kft_arch_module_coming(void);
#else
static inline void kft_arch_module_coming(void)
{
}
#endif
unsigned int kft_unwind_regs(struct pt_regs *regs, unsigned long *buf,
			     unsigned int max, bool *truncated);
bool kft_ftrace_entry_regs(struct ftrace_regs *fregs, unsigned long ip,
			   unsigned long parent_ip, struct pt_regs *regs);

/*
 * Whether @addr is in the kernel image's range, not a module's: where the
 * boot after a crash moves a dead boot's address by the two boots' KASLR
 * difference (kft_last_boot.c). x86-64 keeps modules above the image;
 * elsewhere the address alone does not tell.
 */
#ifdef CONFIG_X86_64
#define KFT_ARCH_IMAGE_KNOWN		1
#define kft_arch_in_image(addr)		((addr) >= __START_KERNEL_map && (addr) < MODULES_VADDR)
#else
#define KFT_ARCH_IMAGE_KNOWN		0
#define kft_arch_in_image(addr)		((void)(addr), false)
#endif

#endif
