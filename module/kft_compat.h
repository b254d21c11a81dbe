/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel-version differences, all of them (checkpatch's and the
 * reader's one place to look): which exit mechanism this kernel offers,
 * and the few kernel APIs that changed between 5.10 and 7.x. Architecture
 * differences are in kft_arch.h.
 *
 * Exit mechanisms ("hooks safe", kft_exit.h):
 * - fprobe with handlers of the form (fp, entry_ip, ret_ip, pt_regs, data)
 *   and an ftrace_ops inside (kernels 6.5 to 6.13: Debian's 6.12),
 * - fprobe rebuilt on the function-graph tracer (6.14 on: 7.3): handlers
 *   take a struct ftrace_regs, the fprobe has no ftrace_ops of its own, no
 *   per-call instance pool (the entry data lives on fgraph's shadow stack),
 *   and a registration takes one glob or a list of addresses,
 * - kretprobes on older kernels (5.10, 6.1), and on arm64 before 6.14 (no
 *   fprobe without DYNAMIC_FTRACE_WITH_REGS).
 *
 * kft supports the 5.10 LTS series and kernels from 6.1 on, nothing
 * between: where the release that brought an API is not known here, 6.1
 * tells 5.10 apart.
 */
#ifndef KFT_COMPAT_H
#define KFT_COMPAT_H

#include <linux/ftrace.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/version.h>
#include <linux/workqueue.h>

#if KERNEL_VERSION(5, 10, 0) > LINUX_VERSION_CODE || \
	(KERNEL_VERSION(5, 11, 0) <= LINUX_VERSION_CODE && KERNEL_VERSION(6, 1, 0) > LINUX_VERSION_CODE)
#error "kft supports the 5.10 series and kernels from 6.1 on"
#endif

#if IS_ENABLED(CONFIG_FPROBE) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0)
#define KFT_HAVE_FPROBE 1
#define KFT_FPROBE_FGRAPH 1
#elif IS_ENABLED(CONFIG_FPROBE) && LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
#define KFT_HAVE_FPROBE 1
#define KFT_FPROBE_FGRAPH 0
#else
#define KFT_HAVE_FPROBE 0
#define KFT_FPROBE_FGRAPH 0
#endif

/* 5.10 has no linux/fprobe.h (5.18 brought it). */
#if KFT_HAVE_FPROBE
#include <linux/fprobe.h>
#endif

/*
 * A kprobe takes an instruction slot from execmem, which arm64 (6.10 on:
 * ARCH_WANTS_EXECMEM_LATE, for the module region's randomization) sets up
 * at core_initcall: a kprobe registered by an early initcall dereferences
 * execmem's NULL ranges (seen: an oops in execmem_alloc() under kft's
 * static run). The boot's run uses none there (kft_static.c).
 */
#define KFT_KPROBES_AFTER_EARLY_INITCALLS	IS_ENABLED(CONFIG_ARCH_WANTS_EXECMEM_LATE)

/*
 * Two hooks on one function: rethook (fprobe up to 6.13) and kretprobes
 * return through them in reverse order of their entries (the older hook's
 * exit first); fprobe on fgraph calls the exits in the order of the
 * entries (the newest hook's first, as ftrace calls entries).
 */
#define KFT_FHOOK_EXITS_IN_ENTRY_ORDER	KFT_FPROBE_FGRAPH

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
 * What ftrace passes an ftrace_ops callback: a struct ftrace_regs from 5.11
 * on; a struct pt_regs before, which is NULL unless the ops asks for
 * FTRACE_OPS_FL_SAVE_REGS (a callback that reads it checks for NULL).
 * kft's callbacks are written for the struct ftrace_regs.
 */
#if KERNEL_VERSION(5, 11, 0) > LINUX_VERSION_CODE
#define ftrace_regs pt_regs
#endif

/*
 * Whether ftrace passes every ftrace_ops callback the traced function's
 * registers (a struct ftrace_regs, 5.11 on): 5.10 passes them only to an
 * ops with FTRACE_OPS_FL_SAVE_REGS, and NULL to the others.
 */
#define KFT_FTRACE_PASSES_REGS	(KERNEL_VERSION(5, 11, 0) <= LINUX_VERSION_CODE)

/*
 * The full registers ftrace saved for an ops with FTRACE_OPS_FL_SAVE_REGS,
 * or NULL: on 5.10 what the callback was given (a pt_regs, or NULL).
 */
#if KERNEL_VERSION(5, 11, 0) > LINUX_VERSION_CODE
#define ftrace_get_regs(fregs)	(fregs)
#endif

/*
 * Whether ftrace_set_filter_ip() must be given the function's ftrace call
 * site rather than its start. From 5.18 on, ftrace looks the site up
 * inside the function (ftrace_location()); 5.10 takes only the site's own
 * address, which is the function's start on x86-64 but lies an instruction
 * or two in on arm64 (after "bti c" and the patchable entry's first nop)
 * and after the prologue on 32-bit ARM (mcount's call).
 */
#define KFT_FTRACE_FILTER_AT_SITE	((IS_ENABLED(CONFIG_ARM64) || IS_ENABLED(CONFIG_ARM)) && \
					 KERNEL_VERSION(6, 1, 0) > LINUX_VERSION_CODE)

/*
 * Whether ftrace_set_filter_ips() changes a filter by a list of addresses
 * in one update (5.18 on); before, kft changes it an address at a time.
 */
#define KFT_FTRACE_FILTER_IPS	(KERNEL_VERSION(5, 18, 0) <= LINUX_VERSION_CODE)
#if KERNEL_VERSION(5, 18, 0) > LINUX_VERSION_CODE
static inline int ftrace_set_filter_ips(struct ftrace_ops *ops, unsigned long *ips,
					unsigned int cnt, int remove, int reset)
{
	return -EOPNOTSUPP;
}
#endif

/*
 * Whether a task's kretprobe instances are a list in the task
 * (kretprobe_instances, 5.11 on, where no rethook took them over): 5.10
 * keeps them in a hash table private to kprobes.c, which no module can
 * walk.
 */
#define KFT_KRETPROBE_TASK_LIST	(IS_ENABLED(CONFIG_KRETPROBES) &&		\
				 !IS_ENABLED(CONFIG_KRETPROBE_ON_RETHOOK) &&	\
				 KERNEL_VERSION(5, 11, 0) <= LINUX_VERSION_CODE)

/*
 * An ftrace_ops whose callback guards against its own recursion (kft's
 * callbacks count a miss instead). From 5.11 on that is every ops without
 * FTRACE_OPS_FL_RECURSION; before, an ops says so with
 * FTRACE_OPS_FL_RECURSION_SAFE, without which ftrace calls it through a
 * helper that takes its own recursion lock.
 */
#if KERNEL_VERSION(5, 11, 0) > LINUX_VERSION_CODE
#define KFT_FTRACE_OPS_FL_OWN_RECURSION	FTRACE_OPS_FL_RECURSION_SAFE
#else
#define KFT_FTRACE_OPS_FL_OWN_RECURSION	0
#endif

/*
 * The pt_regs inside a struct ftrace_regs (x86 saves one there, also
 * without SAVE_REGS), and arm64's fields of it (lr, sp); 6.12 names them
 * through arch_ftrace_regs(). On 5.10 it is the pt_regs itself.
 */
#if KERNEL_VERSION(5, 11, 0) > LINUX_VERSION_CODE
#define kft_fregs_pt(fregs)	(fregs)
#define kft_fregs_arch(fregs)	(fregs)
#elif defined(arch_ftrace_regs)
#define kft_fregs_pt(fregs)	(&arch_ftrace_regs(fregs)->regs)
#define kft_fregs_arch(fregs)	arch_ftrace_regs(fregs)
#else
#define kft_fregs_pt(fregs)	(&(fregs)->regs)
#define kft_fregs_arch(fregs)	(fregs)
#endif

/*
 * ftrace_regs_get_argument() (6.2 on): an argument register from what
 * ftrace passes an ftrace_ops callback, whatever the architecture keeps
 * there.
 */
#define KFT_HAVE_FREGS_GET_ARGUMENT	(KERNEL_VERSION(6, 2, 0) <= LINUX_VERSION_CODE)

/*
 * interrupt_context_level(), which 6.1 has and 5.10 not: 0 in a task, 1 in
 * a softirq, 2 in a hard interrupt, 3 in an NMI.
 */
#if KERNEL_VERSION(6, 1, 0) > LINUX_VERSION_CODE
#include <linux/preempt.h>
static __always_inline unsigned char interrupt_context_level(void)
{
	unsigned long pc = preempt_count();

	return !!(pc & NMI_MASK) + !!(pc & (NMI_MASK | HARDIRQ_MASK)) +
	       !!(pc & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET));
}
#endif

/*
 * ftrace_free_filter(), which 6.1 exports and 5.10 does not: there an ops'
 * filter and notrace hashes are freed by resetting them (an emptied hash
 * becomes ftrace's shared empty one, the old one is freed after RCU).
 */
#if KERNEL_VERSION(6, 1, 0) > LINUX_VERSION_CODE
static inline void kft_ftrace_free_filter(struct ftrace_ops *ops)
{
	ftrace_set_filter(ops, NULL, 0, 1);
	ftrace_set_notrace(ops, NULL, 0, 1);
}
#define ftrace_free_filter(ops)	kft_ftrace_free_filter(ops)
#endif

/* get_kretprobe(), which 6.1 has; 5.10's instance points to its kretprobe. */
#if KERNEL_VERSION(6, 1, 0) > LINUX_VERSION_CODE
static __always_inline struct kretprobe *get_kretprobe(struct kretprobe_instance *ri)
{
	return ri->rp;
}
#endif

/*
 * Where a function a kretprobe's exit handler runs for returns to: the
 * instruction pointer of the registers it is given, which the rethook
 * (6.1) sets to the real return address; 5.10 leaves the trampoline's
 * there and gives the real one in the instance.
 */
static __always_inline unsigned long kft_kretprobe_ret_ip(struct kretprobe_instance *ri,
							 struct pt_regs *regs)
{
#if KERNEL_VERSION(6, 1, 0) > LINUX_VERSION_CODE
	return (unsigned long)ri->ret_addr;
#else
	return instruction_pointer(regs);
#endif
}

/*
 * The kernel's inline load that an exception-table entry fixes up
 * (__get_kernel_nofault()): x86-64 on every kernel kft builds for, arm64
 * from 5.11 (5.10's went through set_fs()).
 */
#define KFT_HAVE_KERNEL_NOFAULT_LOAD	(IS_ENABLED(CONFIG_X86_64) ||			\
					 (IS_ENABLED(CONFIG_ARM64) &&			\
					  KERNEL_VERSION(5, 11, 0) <= LINUX_VERSION_CODE))

/*
 * IRQ_WORK_INIT_HARD(), which 5.10 lacks: an irq_work runs in hard
 * interrupt context there but on PREEMPT_RT, which the flag asks for too.
 */
#ifndef IRQ_WORK_INIT_HARD
#define IRQ_WORK_INIT_HARD(_func)					\
	((struct irq_work){ .flags = ATOMIC_INIT(IRQ_WORK_HARD_IRQ), .func = (_func) })
#endif

/*
 * Whether a call in interrupt context can still leave its CPU: under
 * PREEMPT_RT a softirq runs in a task (ksoftirqd, the timers' thread, or
 * one that enabled bottom halves), which the scheduler preempts and a
 * sleeping lock blocks; a hard interrupt or an NMI never leaves it.
 */
static __always_inline bool kft_softirq_in_task(void)
{
	return IS_ENABLED(CONFIG_PREEMPT_RT) && !(preempt_count() & (NMI_MASK | HARDIRQ_MASK));
}

/* get_unaligned(): <linux/unaligned.h> from 6.12 on, <asm/unaligned.h> before. */
#if KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * try_cmpxchg(), which 5.10 has on x86 alone: elsewhere it is made of
 * cmpxchg(), which returns the value it found.
 */
#ifndef try_cmpxchg
#define try_cmpxchg(ptr, oldp, new)					\
({									\
	typeof(*(ptr)) *__kft_oldp = (oldp), __kft_old = *__kft_oldp;	\
	typeof(*(ptr)) __kft_cur = cmpxchg((ptr), __kft_old, (new));	\
									\
	if (unlikely(__kft_cur != __kft_old))				\
		*__kft_oldp = __kft_cur;				\
	likely(__kft_cur == __kft_old);					\
})
#endif

/* try_cmpxchg64(), which 5.10 has only for 32-bit words (try_cmpxchg()). */
#ifndef try_cmpxchg64
#define try_cmpxchg64(ptr, oldp, new)					\
({									\
	u64 *__kft_oldp = (oldp), __kft_old = *__kft_oldp;		\
	u64 __kft_cur = cmpxchg64((ptr), __kft_old, (new));		\
									\
	if (unlikely(__kft_cur != __kft_old))				\
		*__kft_oldp = __kft_cur;				\
	likely(__kft_cur == __kft_old);					\
})
#endif

/*
 * 32-bit ARM's walk_stackframe() calls back with the frame on 6.1 and with
 * its pc later (the generic stack_trace_consume_fn form). Told by the
 * declaration's type rather than by a version.
 */
/*
 * What the per-CPU allocator keeps for each 4 bytes of the chunks that the
 * current task's charged (GFP_KERNEL_ACCOUNT) allocations take, beside the
 * chunks' units: a memory cgroup pointer wherever memcg is built (in all
 * chunks since 5.14, charged allocations or not), and from 6.10 an
 * allocation tag with allocation profiling (struct pcpuobj_ext). Before
 * 5.14 only the chunks of allocations charged to a cgroup other than the
 * root one have the pointers (a task of the root cgroup, as in kft's test
 * guests, is not charged).
 */
#if KERNEL_VERSION(5, 14, 0) > LINUX_VERSION_CODE && IS_ENABLED(CONFIG_MEMCG_KMEM)
#include <linux/memcontrol.h>
static inline size_t kft_pcpu_ext_bytes(void)
{
	struct mem_cgroup *memcg;
	bool charged;

	if (!memcg_kmem_enabled() || in_interrupt() || !current->mm ||
	    (current->flags & PF_KTHREAD))
		return 0;
	rcu_read_lock();
	memcg = mem_cgroup_from_task(current);
	charged = memcg && memcg->css.parent;	/* not the root cgroup */
	rcu_read_unlock();
	return charged ? sizeof(void *) : 0;
}
#elif KERNEL_VERSION(5, 14, 0) > LINUX_VERSION_CODE
static inline size_t kft_pcpu_ext_bytes(void)
{
	return 0;
}
#else
static inline size_t kft_pcpu_ext_bytes(void)
{
	return (IS_ENABLED(CONFIG_MEMCG) ? sizeof(void *) : 0) +
	       (IS_ENABLED(CONFIG_MEM_ALLOC_PROFILING) ? sizeof(void *) : 0);
}
#endif

#ifdef CONFIG_ARM
#include <asm/stacktrace.h>
#define KFT_ARM_WALK_GIVES_PC							\
	__builtin_types_compatible_p(typeof(&walk_stackframe),			\
				     void (*)(struct stackframe *,		\
					      bool (*)(void *, unsigned long),	\
					      void *))
/*
 * The unwinder says where it read each frame's return address on the stack
 * (struct stackframe's lr_addr, 5.18 on): what fast hooks need to find a
 * function's return address and to give a blocked task its return
 * addresses back (kft_arch_arm.c). Only the unwinder of the unwind tables
 * (ARM_UNWIND) sets it; the frame-pointer one leaves it unset.
 */
#define KFT_ARM_UNWIND_LR_ADDR	(KERNEL_VERSION(5, 18, 0) <= LINUX_VERSION_CODE && \
				 IS_ENABLED(CONFIG_ARM_UNWIND))
#endif

/*
 * The sched_switch tracepoint's probe (kft_sched.c): its arguments, and the
 * state prev is switched out in, as the probe's body names it: an argument
 * from 5.18 on; before, read from the task (its field is __state from 5.14).
 * The argument is the state before schedule() looked at signals, on kernels
 * without "sched: Fix trace_sched_switch(.prev_state)": a task that was to
 * sleep but had a signal pending stays runnable, its state running again.
 */
#if KERNEL_VERSION(5, 18, 0) <= LINUX_VERSION_CODE
#define KFT_SCHED_SWITCH_ARGS	void *data, bool preempt, struct task_struct *prev, \
				struct task_struct *next, unsigned int prev_state
#define KFT_SCHED_PREV_STATE	(prev_state == TASK_RUNNING ? TASK_RUNNING : \
				 READ_ONCE(prev->__state))
#elif KERNEL_VERSION(5, 14, 0) <= LINUX_VERSION_CODE
#define KFT_SCHED_SWITCH_ARGS	void *data, bool preempt, struct task_struct *prev, \
				struct task_struct *next
#define KFT_SCHED_PREV_STATE	(READ_ONCE(prev->__state))
#else
#define KFT_SCHED_SWITCH_ARGS	void *data, bool preempt, struct task_struct *prev, \
				struct task_struct *next
#define KFT_SCHED_PREV_STATE	(READ_ONCE(prev->state))
#endif

/* panic_notifier_list (kft_flight.c): in its own header from 5.14 on. */
#if KERNEL_VERSION(5, 14, 0) <= LINUX_VERSION_CODE
#include <linux/panic_notifier.h>
#else
#include <linux/kernel.h>
#endif

/*
 * reserve_mem=SIZE:ALIGN:NAME (6.11): memory a boot sets aside by name,
 * where the next boot sets it aside again (kft_region.c). Before it, the
 * kft region is only a memmap= range or a device tree's node.
 */
#if KERNEL_VERSION(6, 11, 0) <= LINUX_VERSION_CODE
#include <linux/mm.h>
static inline int kft_reserve_mem_find(const char *name, phys_addr_t *start, phys_addr_t *size)
{
	return reserve_mem_find_by_name(name, start, size) ? 0 : -ENOENT;
}
#define KFT_HAVE_RESERVE_MEM	1
#else
static inline int kft_reserve_mem_find(const char *name, phys_addr_t *start, phys_addr_t *size)
{
	return -ENOENT;
}
#define KFT_HAVE_RESERVE_MEM	0
#endif

/*
 * function_graph's pause (pause_graph_tracing()): what a task calls while
 * it is set may never return to where it was called from. A suspend's
 * finisher runs with it set, and the CPU resumes at cpu_suspend()'s
 * return with the calls in between gone. Hooking a return there leaves a
 * frame that nothing pops. The field is function_graph's, in every kernel
 * kft builds for that has it.
 */
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
static __always_inline bool kft_graph_paused(struct task_struct *t)
{
	return unlikely(atomic_read(&t->tracing_graph_pause));
}

/* pause_graph_tracing() and its undo, for a task that may not be current. */
static inline void kft_graph_pause(struct task_struct *t)
{
	atomic_inc(&t->tracing_graph_pause);
}

static inline void kft_graph_unpause(struct task_struct *t)
{
	atomic_dec(&t->tracing_graph_pause);
}

/*
 * A new task's pauses, none: fork copies the parent's count, which before
 * 6.9 function_graph's start of the task (ftrace_graph_init_task()) set
 * to 0 where function_graph ran, and from 6.9 on never does.
 */
static inline void kft_graph_unpause_new(struct task_struct *t)
{
	atomic_set(&t->tracing_graph_pause, 0);
}
#define KFT_HAVE_GRAPH_PAUSE	1
#else
static __always_inline bool kft_graph_paused(struct task_struct *t)
{
	return false;
}
#define KFT_HAVE_GRAPH_PAUSE	0
#endif

/*
 * Memory written back from the CPUs' caches to the RAM (the kft region, at
 * a seal): a board's reset may drop dirty lines (ARM's PSCI reset, a
 * watchdog), which the next boot would then miss. By address, which
 * cleans a line in whichever CPU's cache holds it; 32-bit ARM's outer
 * cache (PL310) by physical address. A no-op where the kernel has no way
 * for a module (PMEM's API, or 32-bit ARM's).
 */
#if defined(CONFIG_ARM)
#include <asm/cacheflush.h>
#include <asm/outercache.h>
static inline void kft_write_back(void *addr, phys_addr_t phys, size_t size)
{
	__cpuc_flush_dcache_area(addr, size);
	outer_flush_range(phys, phys + size);
}
#elif defined(CONFIG_ARCH_HAS_PMEM_API)
#include <linux/libnvdimm.h>
static inline void kft_write_back(void *addr, phys_addr_t phys, size_t size)
{
	arch_wb_cache_pmem(addr, size);
}
#else
static inline void kft_write_back(void *addr, phys_addr_t phys, size_t size)
{
}
#endif

#endif
