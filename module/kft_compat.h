/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place that knows how this kernel hooks function exits: fprobe
 * where the kernel has CONFIG_FPROBE (6.12), kretprobes otherwise (6.1).
 *
 * A struct kft_fhook attaches to a set of functions and calls
 * kft_hook_entry()/kft_hook_exit() (kft_hooks.c) around each call, with
 * a struct kft_call of per-call storage.
 */
#ifndef KFT_COMPAT_H
#define KFT_COMPAT_H

#include <linux/fprobe.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/version.h>

#include "kft_config.h"

/*
 * What the code really supports (tested: Debian's 6.1 and 6.12):
 * - x86-64: the kretprobe path reads the return address from the x86
 *   stack at entry, and a log record holds a 64-bit address in 32 bytes.
 * - fprobe with handlers of the form (fp, entry_ip, ret_ip, pt_regs, data),
 *   which kernels 6.5 to 6.13 have; older kernels use kretprobes, newer
 *   ones (fprobe on fgraph, ftrace_regs) are not supported yet.
 */
#ifndef CONFIG_X86_64
#error "kft supports x86-64 only"
#endif
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 1, 0) || LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0)
#error "kft supports kernels 6.1 to 6.13"
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
	u64 entry_ns;			/* 0: entered before the run started */
	struct kft_record *rec;		/* reserved at entry (no time filter) */
	s32 pid;
	u32 gen;			/* the run's generation at entry */
	u16 cpu;
};

#if IS_ENABLED(CONFIG_FPROBE) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define KFT_HAVE_FPROBE 1
struct kft_fhook {
	struct fprobe fp;
	struct kft_run *run;
	enum kft_hook_role role;
	bool attached;
};
#else
#define KFT_HAVE_FPROBE 0
/* One kretprobe per function; without fprobe, sets must stay small. */
#define KFT_MAX_KRETPROBES 512
struct kft_krp {
	struct kretprobe rp;
	struct kft_fhook *hook;
	const struct kft_func_ref *ref;	/* what it was written as */
};

struct kft_fhook {
	struct kft_krp *krps;
	struct kretprobe **rps;
	unsigned int nr;
	struct kft_run *run;
	enum kft_hook_role role;
	bool attached;
};
#endif

/* Which stack a stack pointer is on (stack watches). */
enum kft_stack_kind {
	KFT_STACK_TASK,		/* the current task's */
	KFT_STACK_IRQ,		/* this CPU's hard-interrupt stack */
	KFT_STACK_OTHER,	/* NMI, exception stacks: not measured */
};

int kft_irq_stacks_find(void);
unsigned int kft_unwind_regs(struct pt_regs *regs, unsigned long *buf,
			     unsigned int max, bool *truncated);
bool kft_ftrace_entry_regs(struct ftrace_regs *fregs, unsigned long ip,
			   unsigned long parent_ip, struct pt_regs *regs);
enum kft_stack_kind kft_stack_left(unsigned long *left);

unsigned long kft_lookup_symbol(const char *name);
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
