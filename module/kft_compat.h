/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place that knows how this kernel hooks function exits: fprobe
 * where the kernel has CONFIG_FPROBE (6.12; on fgraph from 6.14: 7.3),
 * kretprobes otherwise (6.1) ("hooks safe"); or kft's own trampoline on
 * any of them ("hooks fast", kft_fast.c, which needs from here only where
 * ftrace saved the traced function's stack pointer, kft_ftrace_retp()).
 *
 * A struct kft_fhook attaches to a set of functions and calls
 * kft_hook_entry()/kft_hook_exit() (kft_hook_path.h) around each call, with
 * a struct kft_call of per-call storage.
 */
#ifndef KFT_COMPAT_H
#define KFT_COMPAT_H

#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/hrtimer.h>
#include <linux/kprobes.h>
#include <linux/version.h>
#include <linux/workqueue.h>

#include "kft_config.h"
#include "kft_fast.h"

/*
 * What the code really supports (tested: Debian's 6.1, 6.12 and
 * trixie-backports' 7.3 on x86-64, Debian's 6.12 on arm64):
 * - x86-64 and arm64, the only architecture differences being here and at
 *   the end of kft_compat.c (a log record holds a 64-bit address in 32
 *   bytes): where a function's return address is at its entry, which
 *   unwinder starts at a register state, where the IRQ stack is; and
 *   "hooks fast", whose trampoline is x86-64 code (refused on arm64).
 * - fprobe with handlers of the form (fp, entry_ip, ret_ip, pt_regs, data)
 *   and an ftrace_ops inside (kernels 6.5 to 6.13), and fprobe rebuilt on
 *   the function-graph tracer (6.14 on): handlers take a struct
 *   ftrace_regs, the fprobe has no ftrace_ops of its own, no per-call
 *   instance pool (the entry data lives on fgraph's shadow stack), and a
 *   registration takes one glob or a list of addresses. Older kernels use
 *   kretprobes; so does arm64 before 6.14 (no fprobe without
 *   DYNAMIC_FTRACE_WITH_REGS).
 */
#if !defined(CONFIG_X86_64) && !defined(CONFIG_ARM64)
#error "kft supports x86-64 and arm64 only"
#endif
#if KERNEL_VERSION(6, 1, 0) > LINUX_VERSION_CODE
#error "kft supports kernels from 6.1 on"
#endif

struct kft_run;

/* What a function hook is for: the hot path switches on it (no indirect call). */
enum kft_hook_role {
	KFT_HOOK_TRACE,		/* the traced functions: record calls */
	KFT_HOOK_START_EXIT,	/* trigger start exit F */
	KFT_HOOK_STOP_EXIT,	/* trigger stop exit F */
};

/* Per-call storage between a function's entry and its exit. */
struct kft_call {
	u64 entry_ns;			/* kft_now(), or kft_cycles() (run->cycles_khz) */
	struct kft_record *rec;		/* reserved at entry (no time filter) */
	u32 gen;			/* the run's generation at entry; - 1: entered before the start */
	u16 cpu;
	bool irq;			/* entered outside task context: logged as pid -1 */
};

#if IS_ENABLED(CONFIG_FPROBE) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0)
#define KFT_HAVE_FPROBE 1
#define KFT_FPROBE_FGRAPH 1
/* fprobe on fgraph: one registration per glob, or per list of addresses. */
struct kft_fprobe {
	struct fprobe fp;
	struct kft_fhook *hook;
	bool registered;
};

struct kft_fhook {
	struct kft_fprobe glob;		/* the funclist's glob, or every function */
	struct kft_fprobe ips;		/* its names, module:names and addresses */
	struct kft_fast_hook fast;
	struct kft_run *run;
	enum kft_hook_role role;
	bool is_fast;			/* hooks fast: kft_fast.c */
	bool attached;
};
#elif IS_ENABLED(CONFIG_FPROBE) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define KFT_HAVE_FPROBE 1
#define KFT_FPROBE_FGRAPH 0
struct kft_fhook {
	struct fprobe fp;
	struct kft_fast_hook fast;
	struct kft_run *run;
	enum kft_hook_role role;
	bool is_fast;			/* hooks fast: kft_fast.c */
	bool attached;
};
#else
#define KFT_HAVE_FPROBE 0
#define KFT_FPROBE_FGRAPH 0
struct kft_krp {
	struct kretprobe rp;
	struct kft_fhook *hook;
	const struct kft_func_ref *ref;	/* what it was written as */
};

struct kft_fhook {
	struct kft_krp *krps;
	struct kretprobe **rps;
	unsigned int nr;
	struct kft_fast_hook fast;
	struct kft_run *run;
	enum kft_hook_role role;
	bool is_fast;			/* hooks fast: kft_fast.c */
	bool attached;
};
#endif

/*
 * hrtimer_setup() (6.13) replaced hrtimer_init() plus setting ->function;
 * hrtimer_init() is gone since 6.15.
 */
static inline void kft_hrtimer_setup(struct hrtimer *timer,
				     enum hrtimer_restart (*fn)(struct hrtimer *),
				     clockid_t clock, enum hrtimer_mode mode)
{
#if KERNEL_VERSION(6, 13, 0) <= LINUX_VERSION_CODE
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/*
 * A per-CPU workqueue: flags 0 meant it until 6.17 named it (WQ_PERCPU);
 * 7.x warns at alloc_workqueue() when neither WQ_PERCPU nor WQ_UNBOUND is
 * given. (An enum: no #ifdef; 6.12.y's backport has it, 6.1's not.)
 */
#if KERNEL_VERSION(6, 17, 0) <= LINUX_VERSION_CODE
#define KFT_WQ_PERCPU	WQ_PERCPU
#else
#define KFT_WQ_PERCPU	0
#endif

/*
 * Two hooks on one function: rethook (fprobe up to 6.13) and kretprobes
 * return through them in reverse order of their entries (the older hook's
 * exit first); fprobe on fgraph calls the exits in the order of the
 * entries (the newest hook's first, as ftrace calls entries).
 */
#define KFT_FHOOK_EXITS_IN_ENTRY_ORDER	KFT_FPROBE_FGRAPH

/* Which stack a stack pointer is on (stack watches). */
enum kft_stack_kind {
	KFT_STACK_TASK,		/* the current task's */
	KFT_STACK_IRQ,		/* this CPU's hard-interrupt stack */
	KFT_STACK_OTHER,	/* NMI, exception stacks: not measured */
};

/*
 * ftrace's caller saves the traced function's stack pointer at entry (its
 * return address slot) and rbp in a struct ftrace_regs that is a pt_regs on
 * x86, also without SAVE_REGS; 6.12 names it through arch_ftrace_regs().
 */
#ifdef arch_ftrace_regs
#define kft_fregs_pt(fregs)	(&arch_ftrace_regs(fregs)->regs)
#else
#define kft_fregs_pt(fregs)	(&(fregs)->regs)
#endif

/* kft's return trampoline (kft_fast_tramp.S) is x86-64 code. */
#define KFT_HAVE_FAST_HOOKS	IS_ENABLED(CONFIG_X86_64)

/*
 * The traced function's return address slot, from an ftrace_ops callback,
 * into @retp; false if ftrace did not save a plausible one (on this stack,
 * above the callback's frames, aligned). It holds the caller, or what an
 * earlier hook on the same call put there. (A bool, not a NULL pointer:
 * the caller's test of it then folds into the checks here.)
 */
#ifdef CONFIG_X86_64
static __always_inline bool kft_ftrace_retp(struct ftrace_regs *fregs, unsigned long **retp)
{
	unsigned long sp, cur = current_stack_pointer;

	if (!fregs)
		return false;
	sp = kft_fregs_pt(fregs)->sp;
	/* Above the current one, by at most a page (sp <= cur wraps). */
	if (sp - cur - 1 >= PAGE_SIZE || (sp & 7))
		return false;
	*retp = (unsigned long *)sp;
	return true;
}
#endif

/*
 * A cycle counter for the time filters: a call that mintime or maxtime
 * judges is timed in cycles and costs a clock conversion only when kept.
 * On x86-64 trace_clock_local() is sched_clock(), the TSC scaled by a
 * per-CPU factor (cycles_2_ns(): about 40 instructions a read); the TSC
 * alone is a few. Where the kernel marked the TSC unstable or its rate can
 * change (no constant TSC and a cpufreq driver), kft_cycles_khz() says 0
 * and kft keeps the ns clock, as on arm64.
 */
#ifdef CONFIG_X86_64
#include <asm/tsc.h>
static __always_inline u64 kft_cycles(void)
{
	return rdtsc_ordered();
}
#else
static __always_inline u64 kft_cycles(void)
{
	return 0;
}
#endif
u32 kft_cycles_khz(void);

/**
 * kft_entry_return_address() - a function's return address at its entry
 * @regs:	the registers at the function's first instruction (a kprobe)
 *
 * x86-64: on top of the stack; arm64: in the link register (x30), not yet
 * signed (the kprobe runs before the function's paciasp).
 * regs_get_kernel_stack_nth() would go through copy_from_kernel_nofault(),
 * about 100 instructions per call: the stack the probed function runs on
 * is read directly.
 */
static __always_inline unsigned long kft_entry_return_address(struct pt_regs *regs)
{
#ifdef CONFIG_ARM64
	return procedure_link_pointer(regs);
#else
	return *(unsigned long *)kernel_stack_pointer(regs);
#endif
}

/*
 * Whether a kprobe at a function's first instruction sees the return
 * address in the unwinder's frames: on x86-64 the call pushed it; on arm64
 * it is still in the link register, and the unwinder goes from the probed
 * function straight to its caller's caller (kft_stack_capture() puts it
 * back).
 */
#define KFT_ENTRY_RETURN_ON_STACK	IS_ENABLED(CONFIG_X86_64)

/*
 * Entry triggers must run before the traced functions' hooks at a shared
 * entry (a start trigger's function is in the log, a stop trigger's is not).
 * ftrace calls the newest ops first, and so do kprobes at one address; but
 * where kprobes are no ftrace ops (arm64: no KPROBES_ON_FTRACE), a kprobe at
 * a function's first instruction runs before ftrace's call a few
 * instructions in. There, with kretprobes as the exit hooks, entry triggers
 * are kprobes too.
 */
#define KFT_ENTRY_TRIGGER_KPROBE	(!KFT_HAVE_FPROBE && !IS_ENABLED(CONFIG_KPROBES_ON_FTRACE))

int kft_irq_stacks_find(void);
unsigned int kft_unwind_regs(struct pt_regs *regs, unsigned long *buf,
			     unsigned int max, bool *truncated);
bool kft_ftrace_entry_regs(struct ftrace_regs *fregs, unsigned long ip,
			   unsigned long parent_ip, struct pt_regs *regs);
enum kft_stack_kind kft_stack_left(unsigned long *left);

unsigned long kft_lookup_symbol(const char *name);
int kft_ftrace_set_pattern(struct ftrace_ops *ops, const char *text, bool exclude);
int kft_ftrace_notrace_names(struct ftrace_ops *ops, const char *const *names,
			     unsigned int nr);
int kft_fhook_attach(struct kft_fhook *hook, struct kft_run *run,
		     enum kft_hook_role role, const struct kft_func_ref *funcs,
		     unsigned int nr_funcs, struct kft_parse_error *err);
void kft_fhook_detach(struct kft_fhook *hook);
/* Calls the mechanism missed (no free per-call slot, recursion). */
unsigned long kft_fhook_missed(const struct kft_fhook *hook);
/* Stop calling the handlers now; safe in any context. */
void kft_fhook_quiesce(struct kft_fhook *hook);
/* Stop hooking these functions of a going module; returns how many were hooked. */
unsigned int kft_fhook_drop_module(struct kft_fhook *hook, struct module *mod,
				   const unsigned long *addrs, unsigned int nr);

#endif
