// SPDX-License-Identifier: GPL-2.0
/*
 * Entry triggers: "trigger start|stop entry F", an ftrace_ops on F (or, where
 * kprobes are breakpoints before ftrace's call site, a kprobe:
 * kft_entry_trigger_as_kprobe()) that starts or stops the run. Exit triggers are
 * exit hooks of the run's mechanism (kft_exit.h, roles
 * KFT_HOOK_START_EXIT and KFT_HOOK_STOP_EXIT); time triggers are the run's
 * hrtimer (kft_run.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/preempt.h>
#include <linux/string.h>

#include "kft_ftrace.h"
#include "kft_run.h"
#include "kft_trigger.h"

/* With preemption off. A call of kft's own work (kft_own.h) is not the traced code's: no fire. */
static notrace void kft_entry_trigger_fire(struct kft_entry_trigger *t)
{
	if (kft_run_own_call(t->run))
		return;
	if (t->is_start)
		kft_run_start(t->run, KFT_REASON_ENTRY);
	else
		kft_run_stop(t->run, t->why);
}
NOKPROBE_SYMBOL(kft_entry_trigger_fire);

/*
 * No recursion lock (the ops says it has its own): a trigger on a function
 * that firing calls (irq_work_queue() and what it calls) fires again inside
 * itself, and finds the state moved by the outer fire, so it does nothing.
 */
static notrace void kft_entry_trigger_fn(unsigned long ip, unsigned long parent_ip,
					 struct ftrace_ops *op,
					 struct ftrace_regs *fregs)
{
	/* ftrace calls it with preemption on: the run's teardown needs it off. */
	preempt_disable_notrace();
	kft_entry_trigger_fire(container_of(op, struct kft_entry_trigger, ops));
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_entry_trigger_fn);

static notrace int kft_entry_trigger_kp(struct kprobe *kp, struct pt_regs *regs)
{
	kft_entry_trigger_fire(container_of(kp, struct kft_entry_trigger, kp));
	return 0;
}
NOKPROBE_SYMBOL(kft_entry_trigger_kp);

/*
 * Whether the run's own hooks are kretprobes at its functions' first
 * instructions, where entry triggers are kprobes (no fprobe): a trace or
 * histogram run's safe exit hooks. Count, stacks and profile runs hook
 * entries with an ftrace_ops, and a fast run has kft's own.
 */
static bool kft_run_has_kretprobes(const struct kft_run *run)
{
	return run->cfg.hooks != KFT_HOOKS_FAST && kft_mode_takes(run->cfg.mode, KFT_STMT_HOOKS);
}

/*
 * An entry trigger as a kprobe (kft_entry_trigger_as_kprobe()): a
 * breakpoint at the function's first instruction, it runs before ftrace's
 * call a few instructions in, and so before fast hooks; registered after
 * the traced functions' kretprobes, it runs before them too (kprobes call
 * the newest probe of an address first).
 *
 * A kprobe takes one function. A glob gets an ftrace_ops, which runs
 * before the run's own ops as a kprobe would (ftrace calls the newest ops
 * first), but after kretprobes at the function's first instruction, which
 * refuse globs themselves: beside them the trigger's glob is refused as
 * theirs are.
 *
 * Return: 0, or -ENOENT where kprobes refuse the function or the glob may
 * be an ftrace_ops (the caller tries one), or -EINVAL with @err set.
 */
static int kft_entry_trigger_attach_kprobe(struct kft_entry_trigger *t,
					   const struct kft_func_ref *func,
					   struct kft_parse_error *err)
{
	int ret;

	memset(&t->kp, 0, sizeof(t->kp));
	if (func->is_glob)
		return kft_run_has_kretprobes(t->run) ?
		       kft_func_error(err, KFT_ERR_GLOB_NEEDS_FPROBE, func) : -ENOENT;
	if (func->is_addr) {
		if (kft_check_function_start(func, err))
			return -EINVAL;
		t->kp.addr = (kprobe_opcode_t *)func->addr;
	} else {
		t->kp.symbol_name = func->text;
	}
	t->kp.pre_handler = kft_entry_trigger_kp;
	ret = func->is_addr ? register_kprobe(&t->kp) : kft_register_kprobe_by_name(&t->kp);
	if (ret)
		return -ENOENT;
	t->attached = true;
	return 0;
}

/*
 * A kprobe where kprobes are breakpoints at a function's first instruction,
 * before ftrace's call site (KFT_ENTRY_TRIGGER_KPROBE): beside kretprobes
 * it must run first, and beside a fast run's own ftrace_ops a second ops
 * would cost every traced call ftrace's list of ops (32-bit ARM has no
 * trampoline per function), where a breakpoint costs nothing until it is
 * hit. A fast run only where it may register kprobes (KFT_FAST_RUN_KPROBES).
 */
static bool kft_entry_trigger_as_kprobe(const struct kft_run *run)
{
	return KFT_ENTRY_TRIGGER_KPROBE &&
	       (run->cfg.hooks != KFT_HOOKS_FAST || KFT_FAST_RUN_KPROBES);
}

/*
 * The warning's hook as a kprobe where entry triggers are, and on riscv64,
 * where a kprobe lands past ftrace's call site (KFT_KPROBE_AT_FTRACE_SITE)
 * and so runs after the function's hooks: a configuration's trigger must
 * run before them, the warning's need not (kft_warn_trigger_attach()).
 * Whatever the run's hooks: only where a fast run may register kprobes.
 */
static bool kft_warn_trigger_as_kprobe(void)
{
	return (KFT_ENTRY_TRIGGER_KPROBE || !KFT_KPROBE_AT_FTRACE_SITE) && KFT_FAST_RUN_KPROBES;
}

/* Its filter holds the sentinel too: a going module's functions may leave a glob's. */
static int kft_entry_trigger_attach_ops(struct kft_entry_trigger *t,
					const struct kft_func_ref *func,
					struct kft_parse_error *err)
{
	t->as_kprobe = false;
	return kft_ftrace_ops_attach(&t->ops, kft_entry_trigger_fn, func, 1, &t->attached, err);
}

/*
 * A function that kprobes refuse (blocklisted, or a kprobe's own code) but
 * ftrace may trace gets an ftrace_ops instead: no kretprobe of the run can
 * be on it either, and so none that the trigger must run before.
 */
static int kft_trigger_attach(struct kft_entry_trigger *t, struct kft_run *run, bool is_start,
			      enum kft_reason why, const struct kft_func_ref *func, bool as_kprobe,
			      struct kft_parse_error *err)
{
	int ret;

	t->run = run;
	t->is_start = is_start;
	t->why = why;
	t->as_kprobe = as_kprobe;
	if (t->as_kprobe) {
		ret = kft_entry_trigger_attach_kprobe(t, func, err);
		if (ret != -ENOENT)
			return ret;
	}
	return kft_entry_trigger_attach_ops(t, func, err);
}

int kft_entry_trigger_attach(struct kft_entry_trigger *t, struct kft_run *run,
			     bool is_start, const struct kft_func_ref *func,
			     struct kft_parse_error *err)
{
	return kft_trigger_attach(t, run, is_start, KFT_REASON_ENTRY, func,
				  kft_entry_trigger_as_kprobe(run), err);
}

/**
 * kft_warn_trigger_attach() - a ring run stops at a warning (WARN)
 * @t:		the run's trigger for it
 * @run:	a log ring run
 *
 * No notifier tells of a warning: __warn(), where every WARN ends up,
 * gets an entry trigger. A kernel where it cannot be hooked (not
 * traceable) keeps the run without it.
 *
 * Where kprobes are breakpoints it is a kprobe whatever the run's hooks
 * (kft_warn_trigger_as_kprobe()); where kprobes refuse __warn(), an
 * ftrace_ops. An ftrace_ops beside a fast run's own makes ftrace call
 * every traced function's hooks through its list of ops (32-bit ARM and
 * riscv64 have no trampoline per function), so that each call of the ring
 * tests both ops, for a function called only at a warning. A breakpoint
 * costs nothing until it is hit.
 *
 * Return: 0, or the error that left it out.
 */
int kft_warn_trigger_attach(struct kft_entry_trigger *t, struct kft_run *run)
{
	static const struct kft_func_ref warn = { .text = "__warn" };
	struct kft_parse_error ignored = { .code = KFT_ERR_NONE };

	return kft_trigger_attach(t, run, false, KFT_REASON_WARN, &warn,
				  kft_warn_trigger_as_kprobe(), &ignored);
}

/**
 * kft_entry_trigger_drop_module() - a going module's functions out of an entry trigger
 * @t:		the trigger
 * @func:	the function it was configured with
 * @addrs:	the module's functions that @func names
 * @nr:		how many
 *
 * A glob's ftrace_ops (globs are never kprobes) keeps the functions of the
 * rest of the kernel, and fires there as before; a name's trigger is
 * detached. Either way no module loaded later at those addresses fires it.
 * A glob not attached now (a complete run that let go of its hooks) is
 * matched again in whole at its next attach: nothing of it is dropped.
 */
enum kft_trigger_drop kft_entry_trigger_drop_module(struct kft_entry_trigger *t,
						    const struct kft_func_ref *func,
						    const unsigned long *addrs, unsigned int nr)
{
	if (!func->is_glob || t->as_kprobe) {
		kft_entry_trigger_detach(t);
		return KFT_TRIGGER_REMOVED;
	}
	if (!t->attached)
		return KFT_TRIGGER_KEPT;
	kft_ftrace_drop_ips(&t->ops, addrs, nr);
	return KFT_TRIGGER_NARROWED;
}

void kft_entry_trigger_detach(struct kft_entry_trigger *t)
{
	if (!t->as_kprobe) {
		kft_ftrace_ops_detach(&t->ops, &t->attached);
	} else if (t->attached) {
		unregister_kprobe(&t->kp);
		t->attached = false;
	}
}
