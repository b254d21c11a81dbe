// SPDX-License-Identifier: GPL-2.0
/*
 * "hooks safe" on kernels without fprobe (kft_exit.h): kretprobes (6.1,
 * and arm64 before 6.14). One kretprobe per function, per-call storage in
 * the instance data. Registration costs per function, so the set is
 * limited to KFT_MAX_KRETPROBES named functions or addresses, and "every
 * function" is refused.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kft_exit.h"
#include "kft_ftrace.h"
#include "kft_hook_path.h"

#if !KFT_HAVE_FPROBE


/*
 * The kretprobe of an instance, or NULL once its unregistration began.
 * Without rethook (32-bit ARM's 6.1), the kernel reads it before calling
 * the handler and unregister_kretprobes() clears it: read again here, it
 * can be NULL in between (seen: concurrency, an exit during the stop).
 */
static __always_inline struct kft_krp *kft_krp_of(struct kretprobe_instance *ri)
{
	struct kretprobe *rp = get_kretprobe(ri);

	return likely(rp) ? container_of(rp, struct kft_krp, rp) : NULL;
}

static notrace int kft_krp_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kft_call *call = (struct kft_call *)ri->data;
	struct kft_krp *k = kft_krp_of(ri);

	if (unlikely(!k))
		return 1;	/* no instance: the exit handler is not called */
	if (kft_safe_paused(k->hook))
		return 1;
	return kft_hook_entry(k->hook, (unsigned long)k->rp.kp.addr,
			      kft_entry_return_address(regs), regs,
			      &k->rp.kp, call,
			      (struct kft_args_src){ .regs = regs, .keep = kft_call_keep(call) });
}
NOKPROBE_SYMBOL(kft_krp_entry);

/*
 * The caller: the real return address (kft_kretprobe_ret_ip()). The
 * address this kretprobe saved at entry is the trampoline's when another
 * kretprobe took the return first (an exit trigger on the same function,
 * or a tail call from a function traced here).
 */
static notrace int kft_krp_exit(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kft_krp *k = kft_krp_of(ri);

	if (unlikely(!k))
		return 0;	/* the hooks are coming off: the call is not logged */
	kft_hook_exit(k->hook, (unsigned long)k->rp.kp.addr,
		      kft_kretprobe_ret_ip(ri, regs), false, (struct kft_call *)ri->data, 0,
		      regs_return_value(regs), kft_call_keep((struct kft_call *)ri->data));
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
	k->rp.data_size = kft_fhook_call_size(hook);
	k->rp.maxactive = kft_exit_max_active(hook->role, nr) / nr + 16;
	return register_kretprobe(&k->rp);
}

int kft_safe_attach(struct kft_fhook *hook, const struct kft_func_ref *funcs,
		    unsigned int nr_funcs, struct kft_parse_error *err)
{
	struct kft_krp_target *targets;
	unsigned int nr = 0, i;
	int ret;

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

void kft_safe_detach(struct kft_fhook *hook)
{
	if (!hook->attached)
		return;
	unregister_kretprobes(hook->rps, hook->nr);
	kft_krp_free(hook);
	hook->nr = 0;
	hook->attached = false;
}

unsigned long kft_safe_missed(const struct kft_fhook *hook)
{
	unsigned long missed = 0;
	unsigned int i;

	for (i = 0; hook->attached && i < hook->nr; i++)
		missed += READ_ONCE(hook->krps[i].rp.nmissed) +
			  READ_ONCE(hook->krps[i].rp.kp.nmissed);
	return missed;
}

void kft_safe_quiesce(struct kft_fhook *hook)
{
	/* The handlers check the run's state; nothing to do here. */
}

/* kprobes themselves disarm the probes of a going module, for good. */
unsigned int kft_safe_drop_module(struct kft_fhook *hook, struct module *mod,
				  const unsigned long *addrs, unsigned int nr)
{
	unsigned int i, dropped = 0;

	for (i = 0; nr && hook->attached && i < hook->nr; i++)
		dropped += within_module((unsigned long)hook->krps[i].rp.kp.addr, mod);
	return dropped;
}

#endif /* !KFT_HAVE_FPROBE */
