// SPDX-License-Identifier: GPL-2.0
/*
 * Function entry+exit hooks, the kernel-version difference in kft (and, at
 * the end, where the stacks are, the architecture's):
 *
 * - fprobe (CONFIG_FPROBE, 6.12): one fprobe for any number of functions,
 *   its filter built with ftrace's matching (names, globs, addresses),
 *   per-call storage in the fprobe's entry data.
 * - fprobe on fgraph (6.14 on, 7.3): per-call storage on the function-graph
 *   shadow stack; an fprobe takes one glob or a list of addresses, so a
 *   funclist takes one glob (below).
 * - kretprobes (6.1): one kretprobe per function, per-call storage in the
 *   instance data. Registration costs per function, so the set is limited
 *   to KFT_MAX_KRETPROBES named functions or addresses, and "every
 *   function" is refused.
 * These are "hooks safe". "hooks fast" (kft_fast.c) is the same on every
 * kernel; kft_fhook_attach() and its siblings below pick one per hook.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/glob.h>
#include <linux/kallsyms.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/sched/task_stack.h>
#include <linux/smp.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kft_hook_path.h"
#include "kft_run.h"
#include "kft_symbol.h"

#if !KFT_FPROBE_FGRAPH
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
#endif

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

/**
 * kft_ftrace_set_pattern() - a name or glob into an ftrace_ops' filter
 * @ops:	the ops
 * @text:	the name or glob
 * @exclude:	into its notrace filter instead
 *
 * Return: what ftrace_set_filter() or ftrace_set_notrace() returned, or
 * -ENOMEM.
 */
int kft_ftrace_set_pattern(struct ftrace_ops *ops, const char *text, bool exclude)
{
	/* ftrace may write into the pattern: give it a copy. */
	unsigned char *pattern = kstrdup(text, GFP_KERNEL);
	int ret;

	if (!pattern)
		return -ENOMEM;
	if (exclude)
		ret = ftrace_set_notrace(ops, pattern, strlen(pattern), 0);
	else
		ret = ftrace_set_filter(ops, pattern, strlen(pattern), 0);
	kfree(pattern);
	return ret;
}

/**
 * kft_ftrace_notrace_names() - functions into an ftrace_ops' notrace filter
 * @ops:	the ops (its notrace filter wins over its filter)
 * @names:	the functions
 * @nr:		how many
 *
 * A function this kernel lacks (or never traces) is no error.
 *
 * Return: 0, or -ENOMEM.
 */
int kft_ftrace_notrace_names(struct ftrace_ops *ops, const char *const *names,
			     unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (kft_ftrace_set_pattern(ops, names[i], true) == -ENOMEM)
			return -ENOMEM;
	return 0;
}

#if KFT_HAVE_FPROBE

/*
 * fprobe's handlers get the registers as a pt_regs up to 6.13, as a struct
 * ftrace_regs from 6.14 (fprobe on fgraph); kft reads neither.
 */
#if KFT_FPROBE_FGRAPH
#define kft_fprobe_regs		ftrace_regs
#define kft_fprobe_hook(fp)	(container_of(fp, struct kft_fprobe, fp)->hook)
#else
#define kft_fprobe_regs		pt_regs
#define kft_fprobe_hook(fp)	container_of(fp, struct kft_fhook, fp)
#endif

static notrace int kft_fprobe_entry(struct fprobe *fp, unsigned long entry_ip,
				    unsigned long ret_ip, struct kft_fprobe_regs *regs,
				    void *data)
{
	return kft_hook_entry(kft_fprobe_hook(fp), entry_ip, ret_ip, data);
}
NOKPROBE_SYMBOL(kft_fprobe_entry);

static notrace void kft_fprobe_exit(struct fprobe *fp, unsigned long entry_ip,
				    unsigned long ret_ip, struct kft_fprobe_regs *regs,
				    void *data)
{
	kft_hook_exit(kft_fprobe_hook(fp), entry_ip, ret_ip, false, data, 0);
}
NOKPROBE_SYMBOL(kft_fprobe_exit);

#if KFT_FPROBE_FGRAPH

/*
 * fprobe on fgraph (6.14 on). An fprobe has no ftrace_ops of its own: it is
 * registered once, on one glob (matched against every symbol's name) or on a
 * list of addresses, and a function registered twice, by two fprobes or
 * twice in one list, runs the handlers twice. So a hook is at most two
 * fprobes: one on the funclist's only glob (or "*" for every function), one
 * on the addresses of its other references that the glob does not match,
 * each address once. References are checked one by one first, with
 * ftrace's own matching on a scratch ftrace_ops, so that an error points at
 * the reference that matches nothing. The exit path no longer goes through
 * rethook: what kft left out of "every function" for 6.12's rethook (its
 * lockdep helpers) is left out here too, as a glob.
 */
#define KFT_FPROBE_UNSAFE	"rcu_read_lock*_held*"

static int kft_fprobe_add(struct kft_fprobe *p, struct kft_fhook *hook,
			  const char *glob, unsigned long *addrs, unsigned int nr)
{
	int ret;

	p->hook = hook;
	p->fp.entry_handler = kft_fprobe_entry;
	p->fp.exit_handler = kft_fprobe_exit;
	p->fp.entry_data_size = sizeof(struct kft_call);
	if (glob)
		ret = register_fprobe(&p->fp, glob, glob[0] == '*' && !glob[1] ?
				      KFT_FPROBE_UNSAFE : NULL);
	else
		ret = register_fprobe_ips(&p->fp, addrs, nr);
	p->registered = !ret;
	return ret;
}

static void kft_fprobe_del(struct kft_fprobe *p)
{
	if (p->registered) {
		disable_fprobe(&p->fp);
		unregister_fprobe(&p->fp);	/* waits for a grace period */
	}
	memset(p, 0, sizeof(*p));
}

/* The name of the function at @addr matches @glob (module symbols too). */
static bool kft_glob_covers(const char *glob, unsigned long addr)
{
	char name[KSYM_SYMBOL_LEN];

	sprint_symbol_no_offset(name, addr);
	name[strcspn(name, " ")] = '\0';	/* "name [module]" */
	return glob_match(glob, name);
}

/*
 * Where the function at @addr starts: kprobes' lookup gives the address
 * after an endbr64 (IBT), an address reference the start; fprobe maps
 * either to the same ftrace site, so two of them would hook it twice.
 */
static unsigned long kft_function_start(unsigned long addr)
{
	unsigned long off;

	if (!addr || kft_symbol_offset(addr, &off))
		return 0;
	return addr - off;
}

/*
 * Each reference checked; the only glob found; the others' addresses, each
 * once, unless the glob covers them.
 */
static int kft_fprobe_targets(const struct kft_func_ref *funcs, unsigned int nr_funcs,
			      const struct kft_func_ref **glob, unsigned long *addrs,
			      unsigned int *nr, struct kft_parse_error *err)
{
	struct ftrace_ops scratch = {};
	unsigned long addr;
	unsigned int i, j;
	int ret = 0;

	*glob = NULL;
	*nr = 0;
	for (i = 0; i < nr_funcs && !ret; i++) {
		ret = kft_ftrace_filter_add(&scratch, &funcs[i], &addr, err);
		if (!ret && funcs[i].is_glob && *glob)
			ret = kft_func_error(err, KFT_ERR_ONE_GLOB, &funcs[i]);
		if (ret || funcs[i].is_glob) {
			*glob = *glob ?: &funcs[i];
			continue;
		}
		addr = kft_function_start(addr ?: kft_lookup_symbol(funcs[i].text));
		if (!addr)
			ret = kft_func_error(err, KFT_ERR_UNKNOWN_FUNCTION, &funcs[i]);
		for (j = 0; j < *nr && addrs[j] != addr; j++)
			;
		if (!ret && j == *nr)
			addrs[(*nr)++] = addr;
	}
	ftrace_free_filter(&scratch);
	if (ret || !*glob)
		return ret;
	for (i = j = 0; i < *nr; i++)
		if (!kft_glob_covers((*glob)->text, addrs[i]))
			addrs[j++] = addrs[i];
	*nr = j;
	return 0;
}

static int kft_fprobe_register(struct kft_fhook *hook,
			       const struct kft_func_ref *funcs,
			       unsigned int nr_funcs, struct kft_parse_error *err)
{
	const struct kft_func_ref *glob;
	unsigned long *addrs;
	unsigned int nr;
	int ret;

	if (!nr_funcs)
		return kft_fprobe_add(&hook->glob, hook, "*", NULL, 0);
	addrs = kcalloc(nr_funcs, sizeof(*addrs), GFP_KERNEL);
	if (!addrs)
		return -ENOMEM;
	ret = kft_fprobe_targets(funcs, nr_funcs, &glob, addrs, &nr, err);
	if (ret)
		goto out_free_addrs;
	if (glob) {
		ret = kft_fprobe_add(&hook->glob, hook, glob->text, NULL, 0);
		if (ret == -ENOENT)
			ret = kft_func_error(err, KFT_ERR_UNKNOWN_FUNCTION, glob);
		if (ret)
			goto out_free_addrs;
	}
	if (nr) {
		ret = kft_fprobe_add(&hook->ips, hook, NULL, addrs, nr);
		if (ret)
			kft_fprobe_del(&hook->glob);
	}
out_free_addrs:
	kfree(addrs);
	return ret;
}

static int kft_safe_attach(struct kft_fhook *hook, struct kft_run *run,
			   enum kft_hook_role role, const struct kft_func_ref *funcs,
			   unsigned int nr_funcs, struct kft_parse_error *err)
{
	int ret;

	hook->run = run;
	hook->role = role;
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
 * Both disabled first: new entries return at once. unregister_fprobe()
 * waits for a grace period; calls in flight find their fprobe unregistered
 * at their exit (fprobe checks) and do not call kft.
 */
static void kft_safe_detach(struct kft_fhook *hook)
{
	if (!hook->attached)
		return;
	disable_fprobe(&hook->glob.fp);
	disable_fprobe(&hook->ips.fp);
	kft_fprobe_del(&hook->glob);
	kft_fprobe_del(&hook->ips);
	hook->attached = false;
}

static unsigned long kft_safe_missed(const struct kft_fhook *hook)
{
	if (!hook->attached)
		return 0;
	return READ_ONCE(hook->glob.fp.nmissed) + READ_ONCE(hook->ips.fp.nmissed);
}

static void kft_safe_quiesce(struct kft_fhook *hook)
{
	if (!hook->attached)
		return;
	disable_fprobe(&hook->glob.fp);
	disable_fprobe(&hook->ips.fp);
}

/*
 * fprobe itself drops a going module's addresses (its module notifier):
 * the hooked ones are counted.
 */
static unsigned int kft_safe_drop_module(struct kft_fhook *hook, struct module *mod,
					 const unsigned long *addrs, unsigned int nr)
{
	return hook->attached ? nr : 0;
}

#else /* fprobe with an ftrace_ops (6.5 to 6.13) */

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
	int ret;

	ret = kft_ftrace_notrace_names(&hook->fp.ops, kft_fprobe_unsafe,
				       ARRAY_SIZE(kft_fprobe_unsafe));
	if (ret) {
		ftrace_free_filter(&hook->fp.ops);
		return ret;
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

static int kft_safe_attach(struct kft_fhook *hook, struct kft_run *run,
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
static void kft_safe_detach(struct kft_fhook *hook)
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

static unsigned long kft_safe_missed(const struct kft_fhook *hook)
{
	return hook->attached ? READ_ONCE(hook->fp.nmissed) : 0;
}

static void kft_safe_quiesce(struct kft_fhook *hook)
{
	if (hook->attached)
		disable_fprobe(&hook->fp);
}

/*
 * ftrace keeps a going module's addresses in an fprobe's filter, and would
 * hook whatever is loaded there next: take them out, one by one (a removal
 * of an address the filter lacks fails, and would fail a batch).
 */
static unsigned int kft_safe_drop_module(struct kft_fhook *hook, struct module *mod,
				   const unsigned long *addrs, unsigned int nr)
{
	unsigned int i, dropped = 0;

	for (i = 0; hook->attached && i < nr; i++)
		dropped += !ftrace_set_filter_ip(&hook->fp.ops, addrs[i], 1, 0);
	return dropped;
}

#endif /* KFT_FPROBE_FGRAPH */

#else /* kretprobes */

static notrace int kft_krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kft_krp *k = container_of(get_kretprobe(ri), struct kft_krp, rp);

	return kft_hook_entry(k->hook, (unsigned long)k->rp.kp.addr,
			      kft_entry_return_address(regs),
			      (struct kft_call *)ri->data);
}
NOKPROBE_SYMBOL(kft_krp_entry);

/*
 * The caller: the instruction pointer the rethook set for the return, the
 * real one. The address this kretprobe saved at entry is the trampoline's
 * when another kretprobe took the return first (an exit trigger on the
 * same function, or a tail call from a function traced here).
 */
static notrace int kft_krp_exit(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kft_krp *k = container_of(get_kretprobe(ri), struct kft_krp, rp);

	kft_hook_exit(k->hook, (unsigned long)k->rp.kp.addr,
		      instruction_pointer(regs), false, (struct kft_call *)ri->data, 0);
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

/*
 * A function already hooked, by the address its kretprobe resolved to
 * (kft_krp_known() compares what was written: a name, module:name and an
 * address of one function differ there).
 */
static bool kft_krp_hooked(const struct kft_fhook *hook, kprobe_opcode_t *addr)
{
	unsigned int i;

	for (i = 0; i < hook->nr; i++)
		if (hook->krps[i].rp.kp.addr == addr)
			return true;
	return false;
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

static int kft_safe_attach(struct kft_fhook *hook, struct kft_run *run,
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
		if (kft_krp_hooked(hook, k->rp.kp.addr)) {
			/* One function by two names, or by name and address. */
			unregister_kretprobe(&k->rp);
			memset(k, 0, sizeof(*k));
			continue;
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

static void kft_safe_detach(struct kft_fhook *hook)
{
	if (!hook->attached)
		return;
	unregister_kretprobes(hook->rps, hook->nr);
	kft_krp_free(hook);
	hook->nr = 0;
	hook->attached = false;
}

static unsigned long kft_safe_missed(const struct kft_fhook *hook)
{
	unsigned long missed = 0;
	unsigned int i;

	for (i = 0; hook->attached && i < hook->nr; i++)
		missed += READ_ONCE(hook->krps[i].rp.nmissed) +
			  READ_ONCE(hook->krps[i].rp.kp.nmissed);
	return missed;
}

static void kft_safe_quiesce(struct kft_fhook *hook)
{
	/* The handlers check the run's state; nothing to do here. */
}

/* kprobes themselves disarm the probes of a going module, for good. */
static unsigned int kft_safe_drop_module(struct kft_fhook *hook, struct module *mod,
				   const unsigned long *addrs, unsigned int nr)
{
	unsigned int i, dropped = 0;

	for (i = 0; hook->attached && i < hook->nr; i++)
		dropped += within_module((unsigned long)hook->krps[i].rp.kp.addr, mod);
	return dropped;
}

#endif

/*
 * Both kinds of hook: "hooks fast" (kft_fast.c, the same on every kernel)
 * or "hooks safe" (above). The run's configuration says which.
 */
int kft_fhook_attach(struct kft_fhook *hook, struct kft_run *run,
		     enum kft_hook_role role, const struct kft_func_ref *funcs,
		     unsigned int nr_funcs, struct kft_parse_error *err)
{
	int ret;

	hook->is_fast = run->cfg.hooks == KFT_HOOKS_FAST;
	if (!hook->is_fast)
		return kft_safe_attach(hook, run, role, funcs, nr_funcs, err);
	hook->run = run;
	hook->role = role;
	ret = kft_fast_attach(hook, funcs, nr_funcs, err);
	if (ret && err->code == KFT_ERR_NONE)
		kft_func_error(err, KFT_ERR_ATTACH_FAILED, nr_funcs ? funcs : NULL);
	return ret;
}

void kft_fhook_detach(struct kft_fhook *hook)
{
	if (!hook->attached)
		return;
	if (hook->is_fast)
		kft_fast_detach(hook);
	else
		kft_safe_detach(hook);
}

unsigned long kft_fhook_missed(const struct kft_fhook *hook)
{
	if (!hook->attached)
		return 0;
	return hook->is_fast ? kft_fast_missed(hook) : kft_safe_missed(hook);
}

void kft_fhook_quiesce(struct kft_fhook *hook)
{
	/* Fast hooks check the run's state; nothing to stop here. */
	if (!hook->is_fast)
		kft_safe_quiesce(hook);
}

unsigned int kft_fhook_drop_module(struct kft_fhook *hook, struct module *mod,
				   const unsigned long *addrs, unsigned int nr)
{
	if (hook->is_fast)
		return kft_fast_drop_module(hook, addrs, nr);
	return kft_safe_drop_module(hook, mod, addrs, nr);
}

/*
 * Stacks: how much is left below the stack pointer.
 *
 * The task's stack is [task_stack_page(current), + THREAD_SIZE). x86_64
 * and arm64 run hard and soft interrupts on a per-CPU IRQ stack of
 * IRQ_STACK_SIZE bytes whose address no module can read (x86's
 * hardirq_stack_ptr on 6.1, arm64's irq_stack_ptr: not exported): kft finds
 * it once per CPU at load, from an irq_work, which runs on that stack near
 * its top (arm64 raises it with an IPI to the CPU itself). The IRQ stack's
 * top is page aligned (a vmap area, THREAD_ALIGN on arm64, or a
 * page-aligned per-CPU array), so the top is the stack pointer rounded up
 * to a page.
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

#ifdef CONFIG_X86_64
#include <linux/cpufreq.h>

/*
 * Cycles per ms of kft_cycles(), or 0 where the kernel does not trust the
 * TSC (its clocksource watchdog marked it unstable) or its rate may change.
 */
u32 kft_cycles_khz(void)
{
	if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz || check_tsc_unstable())
		return 0;
	if (!boot_cpu_has(X86_FEATURE_CONSTANT_TSC) && cpufreq_get_current_driver())
		return 0;
	return tsc_khz;
}
#else
u32 kft_cycles_khz(void)
{
	return 0;
}
#endif

#ifdef CONFIG_X86_64
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

#else /* arm64 */

/*
 * arm64 exports no unwinder that starts at a pt_regs (arch_stack_walk() and
 * stack_trace_save_regs() are not exported in 6.12): the stack is unwound
 * from kft's own frame with stack_trace_save() and cut where @regs's pc
 * shows. The unwinder crosses an exception (the interrupted context) by the
 * frame record in its pt_regs, whose pc is the interrupted instruction.
 */
notrace unsigned int kft_unwind_regs(struct pt_regs *regs, unsigned long *buf,
				     unsigned int max, bool *truncated)
{
	return kft_stack_capture(buf, KFT_STACK_BUF, instruction_pointer(regs), 0,
				 truncated);
}
NOKPROBE_SYMBOL(kft_unwind_regs);

/*
 * ftrace's caller on arm64 passes the traced function's registers as
 * arguments, link register, frame and stack pointers, but no unwinder
 * takes them: false, the caller unwinds from its own frame (ftrace_caller
 * leaves frame records for the traced function and its caller, so the cut
 * at the return address is exact).
 */
notrace bool kft_ftrace_entry_regs(struct ftrace_regs *fregs, unsigned long ip,
				   unsigned long parent_ip, struct pt_regs *regs)
{
	return false;
}
NOKPROBE_SYMBOL(kft_ftrace_entry_regs);

#endif
