// SPDX-License-Identifier: GPL-2.0
/*
 * Function entry+exit hooks, the one kernel-version difference in kft:
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

#include <linux/cpumask.h>
#include <linux/glob.h>
#include <linux/kprobes.h>
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

static int kft_hook_error(struct kft_parse_error *err, enum kft_parse_err code,
			  const struct kft_func_ref *f)
{
	err->code = code;
	err->pos = f ? f->pos : (struct kft_pos){ 1, 1 };
	err->at_eof = false;
	err->token[0] = '\0';
	if (f)
		strscpy(err->token, f->text, sizeof(err->token));
	return -EINVAL;
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
		return register_fprobe(&hook->fp, "*", NULL);
	for (i = 0; i < nr_funcs; i++) {
		ret = kft_ftrace_filter_add(&hook->fp.ops, &funcs[i], &addr, err);
		if (ret) {
			ftrace_free_filter(&hook->fp.ops);
			return ret;
		}
		if (i == 0)
			first_addr = addr;
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
			kft_hook_error(err, KFT_ERR_ATTACH_FAILED, nr_funcs ? funcs : NULL);
		return ret;
	}
	hook->attached = true;
	return 0;
}

void kft_fhook_detach(struct kft_fhook *hook)
{
	if (!hook->attached)
		return;
	unregister_fprobe(&hook->fp);
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
	bool from_glob;			/* may fail quietly: data symbols match too */
};

struct kft_glob_expansion {
	const struct kft_func_ref *ref;
	struct kft_krp_target *targets;
	unsigned int nr;
	unsigned int max;
};

typedef int (*kft_sym_cb)(void *, const char *, struct module *, unsigned long);
typedef int (*kft_each_sym_fn)(kft_sym_cb, void *);

/* A function listed twice (or matched by two globs) gets one kretprobe. */
static bool kft_krp_known(const struct kft_glob_expansion *g,
			  const struct kft_krp_target *t)
{
	unsigned int i;

	for (i = 0; i < g->nr; i++) {
		if (t->addr ? g->targets[i].addr == t->addr :
		    !g->targets[i].addr && !strcmp(g->targets[i].ref->text, t->ref->text))
			return true;
	}
	return false;
}

static int kft_krp_add(struct kft_glob_expansion *g, struct kft_krp_target t)
{
	if (kft_krp_known(g, &t))
		return 0;
	if (g->nr == g->max)
		return -E2BIG;
	g->targets[g->nr++] = t;
	return 0;
}

static int kft_glob_collect(void *data, const char *name, struct module *mod,
			    unsigned long addr)
{
	struct kft_glob_expansion *g = data;

	if (!glob_match(g->ref->text, name))
		return 0;
	return kft_krp_add(g, (struct kft_krp_target){ g->ref, addr, true });
}

/*
 * Kernels without fprobe do not export a way to walk the symbol table; the
 * walkers are found by name through kallsyms_lookup_name, itself found
 * through kprobes (the route out-of-tree tracers take since 5.7).
 */
static int kft_glob_expand(struct kft_glob_expansion *g)
{
	static const char *const walkers[] = {
		"kallsyms_on_each_symbol", "module_kallsyms_on_each_symbol",
	};
	unsigned long (*lookup)(const char *name);
	kft_each_sym_fn walk;
	unsigned int i;
	int ret;

	lookup = (void *)kft_lookup_symbol("kallsyms_lookup_name");
	if (!lookup)
		return -ENOENT;
	for (i = 0; i < ARRAY_SIZE(walkers); i++) {
		walk = (kft_each_sym_fn)lookup(walkers[i]);
		if (!walk)
			return -ENOENT;
		ret = walk(kft_glob_collect, g);
		if (ret)
			return ret;
	}
	return 0;
}

/* Every reference as kretprobe targets; globs expanded. */
static int kft_krp_targets(const struct kft_func_ref *funcs, unsigned int nr_funcs,
			   struct kft_krp_target *targets, unsigned int *nr,
			   struct kft_parse_error *err)
{
	struct kft_glob_expansion g = { .targets = targets, .max = KFT_MAX_KRETPROBES };
	unsigned int i;

	for (i = 0; i < nr_funcs; i++) {
		g.ref = &funcs[i];
		if (funcs[i].is_glob) {
			if (strchr(funcs[i].text, ':'))
				return kft_hook_error(err, KFT_ERR_MODULE_GLOB, &funcs[i]);
			if (kft_glob_expand(&g) == -E2BIG)
				return kft_hook_error(err, KFT_ERR_TOO_MANY_FUNCTIONS, &funcs[i]);
			continue;
		}
		if (kft_krp_add(&g, (struct kft_krp_target){
				&funcs[i], funcs[i].is_addr ? funcs[i].addr : 0, false }))
			return kft_hook_error(err, KFT_ERR_TOO_MANY_FUNCTIONS, &funcs[i]);
	}
	*nr = g.nr;
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

/* Each glob must have matched at least one function that took a probe. */
static int kft_krp_check_globs(struct kft_fhook *hook, const struct kft_func_ref *funcs,
			       unsigned int nr_funcs, struct kft_parse_error *err)
{
	unsigned int i, k;

	for (i = 0; i < nr_funcs; i++) {
		if (!funcs[i].is_glob)
			continue;
		for (k = 0; k < hook->nr; k++)
			if (hook->krps[k].ref == &funcs[i])
				break;
		if (k == hook->nr)
			return kft_hook_error(err, KFT_ERR_UNKNOWN_FUNCTION, &funcs[i]);
	}
	return 0;
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
		return kft_hook_error(err, KFT_ERR_NEEDS_FPROBE, NULL);
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

		if (!kft_krp_register(hook, k, &targets[i], nr)) {
			k->ref = targets[i].ref;
			hook->rps[hook->nr++] = &k->rp;
		} else if (!targets[i].from_glob) {
			ret = kft_hook_error(err, KFT_ERR_UNKNOWN_FUNCTION, targets[i].ref);
			goto err_unregister;
		} else {
			memset(k, 0, sizeof(*k));
		}
	}
	ret = kft_krp_check_globs(hook, funcs, nr_funcs, err);
	if (ret)
		goto err_unregister;
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

#endif
