/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exit mechanisms: how kft sees a function's entry and its return.
 *
 * A struct kft_fhook attaches to a set of functions and calls
 * kft_hook_entry()/kft_hook_exit() (kft_hook_path.h, inline in each
 * mechanism's handlers: no indirect call) around each call, with a struct
 * kft_call of per-call storage. Which mechanism a hook gets is decided
 * once, at attach (kft_exit.c), from the run's "hooks":
 *
 * - "hooks safe": the kernel's own, whichever it has (kft_compat.h):
 *   fprobe (kft_exit_fprobe.c: 6.12, and on fgraph from 6.14: 7.3) or
 *   kretprobes (kft_exit_kretprobe.c: 6.1). Exactly one of the two files
 *   is compiled in; it defines the kft_safe_*() functions below.
 * - "hooks fast": kft's own return trampoline, the same on every kernel
 *   (kft_exit_fast.c, kft_exit_fast_{x86_64,arm64,riscv}.S), x86-64,
 *   arm64 and riscv64 (where there are no safe hooks, KFT_HAVE_SAFE_HOOKS,
 *   the only ones).
 *
 * The interface (kft_fhook_*()) is the same for all: attach, detach,
 * missed, quiesce, drop a going module's functions. It is called in
 * process context under kft_mutex; only the handlers run on the traced
 * path.
 */
#ifndef KFT_EXIT_H
#define KFT_EXIT_H

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>

#include "kft_arch.h"
#include "kft_compat.h"
#include "kft_config.h"
#include "kft_sched.h"

struct kft_hold_slot;
struct kft_run;
struct kft_record;
struct module;

/* What a function hook is for: the hot path switches on it (no indirect call). */
enum kft_hook_role {
	KFT_HOOK_TRACE,		/* the traced functions: record calls */
	KFT_HOOK_START_EXIT,	/* trigger start exit F */
	KFT_HOOK_STOP_EXIT,	/* trigger stop exit F */
};

/* Per-call storage between a function's entry and its exit. */
struct kft_call {
	u64 entry_ns;			/* kft_now(), or kft_cycles() (run->cycles_khz) */
	union {
		struct kft_record *rec;	/* reserved at entry (no time filter) */
		struct kft_hold_slot *hold; /* filter roots: the task's, or NULL */
	};
	u32 gen;			/* the run's generation at entry; - 1: entered before the start */
	u16 cpu;
	bool irq;			/* entered outside task context: logged as pid -1 */
	bool root;			/* filter roots: a call of a root function */
	bool sched;			/* offcpu: sched_at holds the task's totals */
	u16 str_depth;			/* filter roots, args string: its open stack's place */
	u32 ring_tag;			/* log ring: @rec's tag, which its closer claims */
	/* offcpu: the task's totals at entry; at the exit, the call's times. */
	struct kft_rec_sched sched_at;
};

/*
 * A hook whose calls keep their arguments (args) gives each call a struct
 * kft_rec_args right after its struct kft_call (fprobe, kretprobes; fast
 * hooks keep them in a table of their own): a run without args gives none.
 */
static __always_inline struct kft_rec_args *kft_call_keep(struct kft_call *call)
{
	return (struct kft_rec_args *)(call + 1);
}

/* A hook's part for "hooks fast" (kft_exit_fast.c). */
struct kft_fast_hook {
	struct ftrace_ops ops;		/* no SAVE_REGS, no RECURSION: kft guards */
	unsigned long id;		/* in kft_exit_fast.c's registry; 0: none */
	atomic_long_t missed;		/* recursion, shadow stack full or too deep */
};

#if KFT_FPROBE_FGRAPH
/* fprobe on fgraph: one registration per glob, or per list of addresses. */
struct kft_fprobe {
	struct fprobe fp;
	struct kft_fhook *hook;
	bool registered;
};

/* Every function's hook: a module loaded after the attach, by address. */
struct kft_fprobe_module {
	struct kft_fprobe p;
	struct module *mod;
	struct kft_fprobe_module *next;
};

struct kft_fhook {
	struct kft_fprobe glob;		/* the funclist's glob, or every function */
	struct kft_fprobe ips;		/* its names, module:names and addresses */
	struct kft_fprobe_module *modules;	/* every function: those loaded since */
	unsigned long gone_missed;	/* what the fprobes of modules gone since missed */
	bool every;			/* glob is every function's "*" */
	struct kft_fast_hook fast;
	atomic_long_t paused;		/* safe: calls not hooked, kft_safe_paused() */
	unsigned long missed_base;	/* the mechanism's count at the last prime */
	unsigned long missed_kept;	/* missed since the prime, kept at detach */
	struct kft_run *run;
	enum kft_hook_role role;
	bool is_fast;			/* hooks fast: kft_exit_fast.c */
	bool args;			/* its calls keep their arguments */
	bool attached;
};
#elif KFT_HAVE_FPROBE
struct kft_fhook {
	struct fprobe fp;
	struct kft_fast_hook fast;
	atomic_long_t paused;		/* safe: calls not hooked, kft_safe_paused() */
	unsigned long missed_base;	/* the mechanism's count at the last prime */
	unsigned long missed_kept;	/* missed since the prime, kept at detach */
	struct kft_run *run;
	enum kft_hook_role role;
	bool is_fast;			/* hooks fast: kft_exit_fast.c */
	bool args;			/* its calls keep their arguments */
	bool attached;
};
#else
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
	atomic_long_t paused;		/* safe: calls not hooked, kft_safe_paused() */
	unsigned long missed_base;	/* the mechanism's count at the last prime */
	unsigned long missed_kept;	/* missed since the prime, kept at detach */
	struct kft_run *run;
	enum kft_hook_role role;
	bool is_fast;			/* hooks fast: kft_exit_fast.c */
	bool args;			/* its calls keep their arguments */
	bool attached;
};
#endif

/*
 * A call entered while function_graph is paused for its task (a suspend's
 * finisher: kft_graph_paused()) is not hooked, as fast hooks leave it: it
 * may never return where it was called from, and neither fprobe's nor a
 * kretprobe's return would find its frame. Counted as missed.
 */
static __always_inline bool kft_safe_paused(struct kft_fhook *hook)
{
	if (!kft_graph_paused(current))
		return false;
	atomic_long_inc(&hook->paused);
	return true;
}

/* The per-call storage of a hook's safe mechanism (kft_call_keep()). */
static inline size_t kft_fhook_call_size(const struct kft_fhook *hook)
{
	return sizeof(struct kft_call) + (hook->args ? sizeof(struct kft_rec_args) : 0);
}

#if KFT_FPROBE_FGRAPH
/* fprobe on fgraph keeps at most MAX_FPROBE_DATA_SIZE bytes a call. */
static_assert(sizeof(struct kft_call) + sizeof(struct kft_rec_args) <= MAX_FPROBE_DATA_SIZE);
#endif

/*
 * Per-call slots of fprobe (before fgraph) and kretprobes: calls in flight
 * at once on the hooked functions, across all tasks (a sleeping task holds
 * one per hooked frame on its stack). A call that finds none is counted as
 * missed.
 */
static inline int kft_exit_max_active(enum kft_hook_role role, unsigned int nr_funcs)
{
	if (role != KFT_HOOK_TRACE)
		return 64 * num_possible_cpus();
	if (!nr_funcs)
		return 8192 + 512 * num_possible_cpus();
	return 1024 + 128 * num_possible_cpus();
}

/* kft_exit.c: the interface. */
int kft_fhook_attach(struct kft_fhook *hook, struct kft_run *run,
		     enum kft_hook_role role, bool fast, bool args,
		     const struct kft_func_ref *funcs, unsigned int nr_funcs,
		     struct kft_parse_error *err);
void kft_fhook_detach(struct kft_fhook *hook);
/* Calls the mechanism missed (no free per-call slot, recursion). */
unsigned long kft_fhook_missed(const struct kft_fhook *hook);
void kft_fhook_missed_reset(struct kft_fhook *hook);
/* Stop calling the handlers now; safe in any context. */
void kft_fhook_quiesce(struct kft_fhook *hook);
/* Stop hooking these functions of a going module; returns how many were hooked. */
unsigned int kft_fhook_drop_module(struct kft_fhook *hook, struct module *mod,
				   const unsigned long *addrs, unsigned int nr);
/* A module coming: a hook on every function hooks its functions too. */
int kft_fhook_module_coming(struct kft_fhook *hook, struct module *mod);
/* What the exit mechanisms keep between runs, let go at module exit. */
void kft_fhook_cleanup(void);

/* The kernel's mechanism: kft_exit_fprobe.c or kft_exit_kretprobe.c. */
int kft_safe_attach(struct kft_fhook *hook, const struct kft_func_ref *funcs,
		    unsigned int nr_funcs, struct kft_parse_error *err);
void kft_safe_detach(struct kft_fhook *hook);
unsigned long kft_safe_missed(const struct kft_fhook *hook);
void kft_safe_quiesce(struct kft_fhook *hook);
unsigned int kft_safe_drop_module(struct kft_fhook *hook, struct module *mod,
				  const unsigned long *addrs, unsigned int nr);
#if KFT_FPROBE_FGRAPH
int kft_safe_module_coming(struct kft_fhook *hook, struct module *mod);
#else
/* ftrace's filter of every function is empty: whatever comes is in it. */
static inline int kft_safe_module_coming(struct kft_fhook *hook, struct module *mod)
{
	return 0;
}
#endif

/* kft's own: kft_exit_fast.c (x86-64, arm64). */
#if KFT_HAVE_FAST_HOOKS
int kft_fast_attach(struct kft_fhook *hook, const struct kft_func_ref *funcs,
		    unsigned int nr_funcs, struct kft_parse_error *err);
void kft_fast_detach(struct kft_fhook *hook);
unsigned long kft_fast_missed(const struct kft_fhook *hook);
unsigned int kft_fast_drop_module(struct kft_fhook *hook, const unsigned long *addrs,
				  unsigned int nr);
void kft_fast_cleanup(void);
/* The trampoline (kft_exit_fast_*.S), its guard byte, and what it calls. */
void kft_fast_region(void);
void kft_fast_return(void);
unsigned long kft_fast_exit(unsigned long *sp);
struct kft_rec_args *kft_fast_keep(struct kft_call *call);
#else
/* No fast hooks here: a run that asks for them is refused before attaching. */
static inline int kft_fast_attach(struct kft_fhook *hook, const struct kft_func_ref *funcs,
				  unsigned int nr_funcs, struct kft_parse_error *err)
{
	return -EOPNOTSUPP;
}

static inline void kft_fast_detach(struct kft_fhook *hook) { }

static inline unsigned long kft_fast_missed(const struct kft_fhook *hook)
{
	return 0;
}

static inline unsigned int kft_fast_drop_module(struct kft_fhook *hook,
						const unsigned long *addrs, unsigned int nr)
{
	return 0;
}

static inline void kft_fast_cleanup(void) { }
#endif

#endif
