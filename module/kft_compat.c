// SPDX-License-Identifier: GPL-2.0
/*
 * Function entry+exit hooks, the kernel-version difference in kft (and, at
 * the end, where the stacks are, the architecture's):
 *
 * - fprobe (CONFIG_FPROBE, 6.12): one fprobe for any number of functions,
 *   its filter built with ftrace's matching (names, globs, addresses),
 *   per-call storage in the fprobe's entry data.
 * - kretprobes (6.1): one kretprobe per function, per-call storage in the
 *   instance data. Registration costs per function, so the set is limited
 *   to KFT_MAX_KRETPROBES named functions or addresses, and "every
 *   function" is refused.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/sched/task_stack.h>
#include <linux/smp.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kft_run.h"

/*
 * Per-call slots: calls in flight at once on the hooked functions, across
 * all tasks (a sleeping task holds one per hooked frame on its stack). A
 * call that finds none is counted as missed.
 */
static int kft_max_active(enum kft_hook_role role, unsigned int nr_funcs)
{
	if (role != KFT_HOOK_TRACE)
		return 64 * num_possible_cpus();
	if (!nr_funcs)
		return 8192 + 512 * num_possible_cpus();
	return 1024 + 128 * num_possible_cpus();
}

/**
 * kft_lookup_symbol() - the address of a symbol, by kprobes' lookup
 * @name:	name or module:name
 *
 * Return: the address, or 0 when there is no such probeable symbol.
 */
unsigned long kft_lookup_symbol(const char *name)
{
	struct kprobe kp = { .symbol_name = name };
	unsigned long addr;

	if (register_kprobe(&kp))
		return 0;
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

#if KFT_HAVE_FPROBE

static notrace int kft_fprobe_entry(struct fprobe *fp, unsigned long entry_ip,
				    unsigned long ret_ip, struct pt_regs *regs,
				    void *data)
{
	return kft_hook_entry(container_of(fp, struct kft_fhook, fp), entry_ip,
			      ret_ip, data);
}
NOKPROBE_SYMBOL(kft_fprobe_entry);

static notrace void kft_fprobe_exit(struct fprobe *fp, unsigned long entry_ip,
				    unsigned long ret_ip, struct pt_regs *regs,
				    void *data)
{
	kft_hook_exit(container_of(fp, struct kft_fhook, fp), entry_ip, ret_ip, data);
}
NOKPROBE_SYMBOL(kft_fprobe_exit);

/*
 * Functions fprobe's exit path calls outside ftrace's recursion guard: in
 * 6.12, rethook_trampoline_handler() reads each handler through
 * rcu_dereference_check(..., rcu_read_lock_any_held()), and on kernels with
 * lockdep (CONFIG_DEBUG_LOCK_ALLOC) that function is traceable. Hooked, its
 * return runs the trampoline again, which calls it again: a recursion that
 * only the end of the stack stops (seen on the debug kernel, KASAN in
 * arch_rethook_prepare()). "Every function" leaves them out.
 */
static const char *const kft_fprobe_unsafe[] = {
	"rcu_read_lock_any_held",
	"rcu_read_lock_held_common",		/* what it calls, when not inlined */
	"rcu_lockdep_current_cpu_online",
};

/*
 * Every function but those above (each is added to the notrace filter,
 * which register_fprobe() keeps; a kernel without one says -EINVAL).
 */
static int kft_fprobe_register_all(struct kft_fhook *hook)
{
	unsigned char *name;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(kft_fprobe_unsafe); i++) {
		name = kstrdup(kft_fprobe_unsafe[i], GFP_KERNEL);
		if (!name)
			return -ENOMEM;
		ret = ftrace_set_notrace(&hook->fp.ops, name, strlen(name), 0);
		kfree(name);
		if (ret == -ENOMEM) {
			ftrace_free_filter(&hook->fp.ops);
			return ret;
		}
	}
	return register_fprobe(&hook->fp, "*", NULL);
}

/*
 * register_fprobe() and register_fprobe_ips() add to the filter already in
 * fp->ops without resetting it: every reference goes in first, one by one
 * (so an unknown one is reported where it was written), and the first one
 * is passed again to register.
 */
static int kft_fprobe_register(struct kft_fhook *hook,
			       const struct kft_func_ref *funcs,
			       unsigned int nr_funcs, struct kft_parse_error *err)
{
	unsigned long addr, first_addr = 0;
	unsigned int i;
	int ret;

	if (!nr_funcs)
		return kft_fprobe_register_all(hook);
	for (i = 0; i < nr_funcs; i++) {
		ret = kft_ftrace_filter_add(&hook->fp.ops, &funcs[i], &addr, err);
		if (ret) {
			ftrace_free_filter(&hook->fp.ops);
			return ret;
		}
		if (i == 0)
			first_addr = addr;
	}
	/* Removing a going module's functions must never empty the filter. */
	ret = kft_ftrace_filter_add_sentinel(&hook->fp.ops);
	if (ret) {
		ftrace_free_filter(&hook->fp.ops);
		return ret;
	}
	if (first_addr)
		return register_fprobe_ips(&hook->fp, &first_addr, 1);
	return register_fprobe(&hook->fp, funcs[0].text, NULL);
}

int kft_fhook_attach(struct kft_fhook *hook, struct kft_run *run,
		     enum kft_hook_role role, const struct kft_func_ref *funcs,
		     unsigned int nr_funcs, struct kft_parse_error *err)
{
	int ret;

	hook->run = run;
	hook->role = role;
	hook->fp.entry_handler = kft_fprobe_entry;
	hook->fp.exit_handler = kft_fprobe_exit;
	hook->fp.entry_data_size = sizeof(struct kft_call);
	hook->fp.nr_maxactive = kft_max_active(role, nr_funcs);
	ret = kft_fprobe_register(hook, funcs, nr_funcs, err);
	if (ret) {
		if (err->code == KFT_ERR_NONE)
			kft_func_error(err, KFT_ERR_ATTACH_FAILED, nr_funcs ? funcs : NULL);
		return ret;
	}
	hook->attached = true;
	return 0;
}

/*
 * unregister_fprobe() stops the rethook (handler NULL) before it takes the
 * ftrace hook off; an fprobe still enabled in between frees the per-call
 * node of every entry it skips with call_rcu(), from inside whatever the
 * hooked function runs in. On the debug kernel that was seen inside
 * debug-objects' bucket lock (lockdep: recursive locking in
 * debug_object_activate()). Disabled first: new entries return at once.
 * The grace period waits for entries already past that check (the handler
 * disables preemption right after it; only a fully preemptible kernel
 * leaves a few instructions uncovered). Calls still in flight return
 * through the stopped rethook whatever kft does: a kernel matter.
 */
void kft_fhook_detach(struct kft_fhook *hook)
{
	if (!hook->attached)
		return;
	disable_fprobe(&hook->fp);
	synchronize_rcu();
	unregister_fprobe(&hook->fp);
	/* As new, for a later attach (a complete run primed again). */
	memset(&hook->fp, 0, sizeof(hook->fp));
	hook->attached = false;
}

unsigned long kft_fhook_missed(const struct kft_fhook *hook)
{
	return hook->attached ? READ_ONCE(hook->fp.nmissed) : 0;
}

void kft_fhook_quiesce(struct kft_fhook *hook)
{
	if (hook->attached)
		disable_fprobe(&hook->fp);
}

/*
 * ftrace keeps a going module's addresses in an fprobe's filter, and would
 * hook whatever is loaded there next: take them out, one by one (a removal
 * of an address the filter lacks fails, and would fail a batch).
 */
unsigned int kft_fhook_drop_module(struct kft_fhook *hook, struct module *mod,
				   const unsigned long *addrs, unsigned int nr)
{
	unsigned int i, dropped = 0;

	for (i = 0; hook->attached && i < nr; i++)
		dropped += !ftrace_set_filter_ip(&hook->fp.ops, addrs[i], 1, 0);
	return dropped;
}

#else /* kretprobes */

static notrace int kft_krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kft_krp *k = container_of(get_kretprobe(ri), struct kft_krp, rp);

	/*
	 * At entry the return address is on top of the stack (x86), a stack
	 * the probed function is running on: read it directly.
	 * regs_get_kernel_stack_nth() would go through
	 * copy_from_kernel_nofault(), about 100 instructions per call.
	 */
	return kft_hook_entry(k->hook, (unsigned long)k->rp.kp.addr,
			      *(unsigned long *)kernel_stack_pointer(regs),
			      (struct kft_call *)ri->data);
}
NOKPROBE_SYMBOL(kft_krp_entry);

static notrace int kft_krp_exit(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kft_krp *k = container_of(get_kretprobe(ri), struct kft_krp, rp);

	kft_hook_exit(k->hook, (unsigned long)k->rp.kp.addr,
		      get_kretprobe_retaddr(ri), (struct kft_call *)ri->data);
	return 0;
}
NOKPROBE_SYMBOL(kft_krp_exit);

static void kft_krp_free(struct kft_fhook *hook)
{
	kfree(hook->krps);
	kfree(hook->rps);
	hook->krps = NULL;
	hook->rps = NULL;
}

/* What one kretprobe goes on: an address, or a (module:)name for kprobes. */
struct kft_krp_target {
	const struct kft_func_ref *ref;
	unsigned long addr;		/* 0: by ref->text */
};

/* A function listed twice gets one kretprobe. */
static bool kft_krp_known(const struct kft_krp_target *targets, unsigned int nr,
			  const struct kft_krp_target *t)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		if (t->addr ? targets[i].addr == t->addr :
		    !targets[i].addr && !strcmp(targets[i].ref->text, t->ref->text))
			return true;
	}
	return false;
}

/*
 * Every reference as a kretprobe target. Globs are refused: without fprobe
 * the kernel exports no way to walk its symbols, and calling an unexported
 * walker found by name would depend on its signature (which changes between
 * kernels) and break under IBT. Userspace can expand a glob from
 * /proc/kallsyms.
 */
static int kft_krp_targets(const struct kft_func_ref *funcs, unsigned int nr_funcs,
			   struct kft_krp_target *targets, unsigned int *nr,
			   struct kft_parse_error *err)
{
	struct kft_krp_target t;
	unsigned int i;

	*nr = 0;
	for (i = 0; i < nr_funcs; i++) {
		if (funcs[i].is_glob)
			return kft_func_error(err, KFT_ERR_GLOB_NEEDS_FPROBE, &funcs[i]);
		if (funcs[i].is_addr && kft_check_function_start(&funcs[i], err))
			return -EINVAL;
		t = (struct kft_krp_target){ &funcs[i], funcs[i].is_addr ? funcs[i].addr : 0 };
		if (kft_krp_known(targets, *nr, &t))
			continue;
		if (*nr == KFT_MAX_KRETPROBES)
			return kft_func_error(err, KFT_ERR_TOO_MANY_FUNCTIONS, &funcs[i]);
		targets[(*nr)++] = t;
	}
	return 0;
}

static int kft_krp_register(struct kft_fhook *hook, struct kft_krp *k,
			    const struct kft_krp_target *t, unsigned int nr)
{
	k->hook = hook;
	if (t->addr)
		k->rp.kp.addr = (kprobe_opcode_t *)t->addr;
	else
		k->rp.kp.symbol_name = t->ref->text;
	k->rp.entry_handler = kft_krp_entry;
	k->rp.handler = kft_krp_exit;
	k->rp.data_size = sizeof(struct kft_call);
	k->rp.maxactive = kft_max_active(hook->role, nr) / nr + 16;
	return register_kretprobe(&k->rp);
}

int kft_fhook_attach(struct kft_fhook *hook, struct kft_run *run,
		     enum kft_hook_role role, const struct kft_func_ref *funcs,
		     unsigned int nr_funcs, struct kft_parse_error *err)
{
	struct kft_krp_target *targets;
	unsigned int nr = 0, i;
	int ret;

	hook->run = run;
	hook->role = role;
	if (!nr_funcs)
		return kft_func_error(err, KFT_ERR_NEEDS_FPROBE, NULL);
	targets = kcalloc(KFT_MAX_KRETPROBES, sizeof(*targets), GFP_KERNEL);
	if (!targets)
		return -ENOMEM;
	ret = kft_krp_targets(funcs, nr_funcs, targets, &nr, err);
	if (ret)
		goto out_free_targets;
	ret = -ENOMEM;
	hook->krps = kcalloc(nr, sizeof(*hook->krps), GFP_KERNEL);
	hook->rps = kcalloc(nr, sizeof(*hook->rps), GFP_KERNEL);
	if (!hook->krps || !hook->rps)
		goto err_free;
	for (i = 0; i < nr; i++) {
		struct kft_krp *k = &hook->krps[hook->nr];

		if (kft_krp_register(hook, k, &targets[i], nr)) {
			ret = kft_func_error(err, KFT_ERR_UNKNOWN_FUNCTION, targets[i].ref);
			goto err_unregister;
		}
		k->ref = targets[i].ref;
		hook->rps[hook->nr++] = &k->rp;
	}
	ret = 0;
	hook->attached = true;
	goto out_free_targets;

err_unregister:
	if (hook->nr)
		unregister_kretprobes(hook->rps, hook->nr);
	hook->nr = 0;
err_free:
	kft_krp_free(hook);
out_free_targets:
	kfree(targets);
	return ret;
}

void kft_fhook_detach(struct kft_fhook *hook)
{
	if (!hook->attached)
		return;
	unregister_kretprobes(hook->rps, hook->nr);
	kft_krp_free(hook);
	hook->nr = 0;
	hook->attached = false;
}

unsigned long kft_fhook_missed(const struct kft_fhook *hook)
{
	unsigned long missed = 0;
	unsigned int i;

	for (i = 0; hook->attached && i < hook->nr; i++)
		missed += READ_ONCE(hook->krps[i].rp.nmissed) +
			  READ_ONCE(hook->krps[i].rp.kp.nmissed);
	return missed;
}

void kft_fhook_quiesce(struct kft_fhook *hook)
{
	/* The handlers check the run's state; nothing to do here. */
}

/* kprobes themselves disarm the probes of a going module, for good. */
unsigned int kft_fhook_drop_module(struct kft_fhook *hook, struct module *mod,
				   const unsigned long *addrs, unsigned int nr)
{
	unsigned int i, dropped = 0;

	for (i = 0; hook->attached && i < hook->nr; i++)
		dropped += within_module((unsigned long)hook->krps[i].rp.kp.addr, mod);
	return dropped;
}

#endif

/*
 * Stacks: how much is left below the stack pointer.
 *
 * The task's stack is [task_stack_page(current), + THREAD_SIZE). x86_64
 * runs hard and soft interrupts on a per-CPU IRQ stack of IRQ_STACK_SIZE
 * bytes whose address no module can read on 6.1 (hardirq_stack_ptr is not
 * exported): kft finds it once per CPU at load, from an irq_work, which
 * runs on that stack near its top. The IRQ stack's top is page aligned
 * (a vmap area, or a page-aligned per-CPU array), so the top is the stack
 * pointer rounded up to a page.
 */
static DEFINE_PER_CPU(unsigned long, kft_irq_stack_low);
static DEFINE_PER_CPU(struct irq_work, kft_irq_stack_work);

static void kft_irq_stack_note(struct irq_work *work)
{
	unsigned long sp = current_stack_pointer;
	unsigned long task = (unsigned long)task_stack_page(current);

	if (sp - task < THREAD_SIZE)
		return;		/* not on a separate IRQ stack */
	this_cpu_write(kft_irq_stack_low, round_up(sp, PAGE_SIZE) - IRQ_STACK_SIZE);
}

static void kft_irq_stack_queue(void *unused)
{
	irq_work_queue(this_cpu_ptr(&kft_irq_stack_work));
}

/* At load: each online CPU's IRQ stack (CPUs that come later: none). */
int kft_irq_stacks_find(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		init_irq_work(per_cpu_ptr(&kft_irq_stack_work, cpu), kft_irq_stack_note);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		smp_call_function_single(cpu, kft_irq_stack_queue, NULL, 1);
		irq_work_sync(per_cpu_ptr(&kft_irq_stack_work, cpu));
	}
	cpus_read_unlock();
	return 0;
}

/**
 * kft_stack_left() - the bytes of stack below the stack pointer
 * @left:	set for a task or IRQ stack
 *
 * Return: which stack the stack pointer is on.
 */
notrace enum kft_stack_kind kft_stack_left(unsigned long *left)
{
	unsigned long sp = current_stack_pointer;
	unsigned long low = (unsigned long)task_stack_page(current);

	if (sp - low < THREAD_SIZE) {
		*left = sp - low;
		return KFT_STACK_TASK;
	}
	low = this_cpu_read(kft_irq_stack_low);
	if (low && sp - low < IRQ_STACK_SIZE) {
		*left = sp - low;
		return KFT_STACK_IRQ;
	}
	return KFT_STACK_OTHER;
}
NOKPROBE_SYMBOL(kft_stack_left);

/*
 * Unwinding from a known frame. stack_trace_save() unwinds from its caller:
 * from a hook or a timer that is first kft's own frames, ftrace's trampoline
 * or the interrupt's path, each a few hundred instructions of ORC lookups,
 * only to be cut off. Starting at the frame kft wants costs only the frames
 * it keeps: x86's unwinder (exported) starts at a pt_regs.
 */
#include <asm/unwind.h>

/**
 * kft_unwind_regs() - the frames from a register state up
 * @regs:	kernel-mode registers: ip, sp and bp are used
 * @buf:	room for @max frames
 * @max:	at least 1
 * @truncated:	set when the stack had more frames than fit
 *
 * Return: the frames, innermost (@regs->ip) first.
 */
notrace unsigned int kft_unwind_regs(struct pt_regs *regs, unsigned long *buf,
				     unsigned int max, bool *truncated)
{
	struct unwind_state state;
	unsigned long addr;
	unsigned int n = 0;

	*truncated = false;
	/* The unwinder starts at the frame above @regs: @regs->ip is ours to add. */
	buf[n++] = regs->ip;
	for (__unwind_start(&state, current, regs, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		if (n == max) {
			*truncated = true;
			break;
		}
		buf[n++] = addr;
	}
	return n;
}
NOKPROBE_SYMBOL(kft_unwind_regs);

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

/**
 * kft_ftrace_entry_regs() - the traced function's registers at its entry
 * @fregs:	what ftrace passed to an ftrace_ops callback
 * @ip:		the traced function (its ftrace location)
 * @parent_ip:	its return address
 * @regs:	filled in: ip, sp, bp
 *
 * Return: false when ftrace did not save a stack pointer that holds the
 * return address (then the caller unwinds the slower way).
 */
notrace bool kft_ftrace_entry_regs(struct ftrace_regs *fregs, unsigned long ip,
				   unsigned long parent_ip, struct pt_regs *regs)
{
	const struct pt_regs *fr = kft_fregs_pt(fregs);
	unsigned long sp = current_stack_pointer;

	/* On this stack, above kft's and ftrace's frames (a few hundred bytes). */
	if (!fregs || fr->sp <= sp || fr->sp - sp > PAGE_SIZE || (fr->sp & 7) ||
	    *(unsigned long *)fr->sp != parent_ip)
		return false;
	regs->ip = ip;
	regs->sp = fr->sp;
	regs->bp = fr->bp;
	regs->cs = __KERNEL_CS;
	return true;
}
NOKPROBE_SYMBOL(kft_ftrace_entry_regs);
