// SPDX-License-Identifier: GPL-2.0
/*
 * "hooks safe" on kernels with fprobe (kft_exit.h):
 *
 * - fprobe (CONFIG_FPROBE, 6.12): one fprobe for any number of functions,
 *   its filter built with ftrace's matching (names, globs, addresses),
 *   per-call storage in the fprobe's entry data.
 * - fprobe on fgraph (6.14 on, 7.3): per-call storage on the function-graph
 *   shadow stack; an fprobe takes one glob or a list of addresses, so a
 *   funclist takes one glob (below).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/glob.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kft_exit.h"
#include "kft_ftrace.h"
#include "kft_hook_path.h"
#include "kft_module.h"
#include "kft_symbol.h"

#if KFT_HAVE_FPROBE

/*
 * fprobe's handlers get the registers as a pt_regs up to 6.13, as a struct
 * ftrace_regs from 6.14 (fprobe on fgraph); kft reads the arguments at the
 * entry (args) and the return value at the exit (fgraph's exit saves the
 * return registers and the stack and frame pointers, no more).
 */
#if KFT_FPROBE_FGRAPH
#define kft_fprobe_regs		ftrace_regs
#define kft_fprobe_hook(fp)	(container_of(fp, struct kft_fprobe, fp)->hook)
#define kft_fprobe_retval(regs)	ftrace_regs_get_return_value(regs)
#define kft_fprobe_args(regs, data) \
	((struct kft_args_src){ .fregs = (regs), .keep = kft_call_keep(data) })
#else
#define kft_fprobe_regs		pt_regs
#define kft_fprobe_hook(fp)	container_of(fp, struct kft_fhook, fp)
#define kft_fprobe_retval(regs)	regs_return_value(regs)
#define kft_fprobe_args(regs, data) \
	((struct kft_args_src){ .regs = (regs), .keep = kft_call_keep(data) })
#endif

static notrace int kft_fprobe_entry(struct fprobe *fp, unsigned long entry_ip,
				    unsigned long ret_ip, struct kft_fprobe_regs *regs,
				    void *data)
{
	if (kft_safe_paused(kft_fprobe_hook(fp)))
		return 1;
	return kft_hook_entry(kft_fprobe_hook(fp), entry_ip, ret_ip, NULL, NULL, data,
			      kft_fprobe_args(regs, data));
}
NOKPROBE_SYMBOL(kft_fprobe_entry);

static notrace void kft_fprobe_exit(struct fprobe *fp, unsigned long entry_ip,
				    unsigned long ret_ip, struct kft_fprobe_regs *regs,
				    void *data)
{
	kft_hook_exit(kft_fprobe_hook(fp), entry_ip, ret_ip, false, data, 0,
		      kft_fprobe_retval(regs), kft_call_keep(data));
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
 * rethook: what kft leaves out of every glob for 6.12's rethook (its
 * lockdep helpers) is left out of every glob here too.
 */
#define KFT_FPROBE_UNSAFE	"rcu_read_lock*_held*"

static int kft_fprobe_add(struct kft_fprobe *p, struct kft_fhook *hook,
			  const char *glob, unsigned long *addrs, unsigned int nr)
{
	int ret;

	p->hook = hook;
	p->fp.entry_handler = kft_fprobe_entry;
	p->fp.exit_handler = kft_fprobe_exit;
	p->fp.entry_data_size = kft_fhook_call_size(hook);
	if (glob)
		ret = register_fprobe(&p->fp, glob, KFT_FPROBE_UNSAFE);
	else
		ret = register_fprobe_ips(&p->fp, addrs, nr);
	p->registered = !ret;
	return ret;
}

/* Returns the calls it missed, final once it is unregistered. */
static unsigned long kft_fprobe_del(struct kft_fprobe *p)
{
	unsigned long missed = 0;

	if (p->registered) {
		disable_fprobe(&p->fp);
		unregister_fprobe(&p->fp);	/* waits for a grace period */
		missed = READ_ONCE(p->fp.nmissed);
	}
	memset(p, 0, sizeof(*p));
	return missed;
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
 * A name (or module:name) is hooked at the address kallsyms gives it, and
 * checked there: ftrace's matching of a name would look at every
 * traceable function's name for it.
 */
static int kft_fprobe_name_check(struct ftrace_ops *scratch, const struct kft_func_ref *f,
				 unsigned long *addr, struct kft_parse_error *err)
{
	int ret;

	*addr = kft_lookup_symbol(f->text);
	if (!*addr)
		return kft_func_error(err, KFT_ERR_UNKNOWN_FUNCTION, f);
	ret = kft_ftrace_set_filter_ip(scratch, *addr, false);
	if (ret == -ENOMEM)
		return ret;
	return ret ? kft_func_error(err, KFT_ERR_UNKNOWN_FUNCTION, f) : 0;
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
		if (funcs[i].is_glob || funcs[i].is_addr)
			ret = kft_ftrace_filter_add(&scratch, &funcs[i], &addr, err);
		else
			ret = kft_fprobe_name_check(&scratch, &funcs[i], &addr, err);
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

	if (!nr_funcs) {
		hook->every = true;
		return kft_fprobe_add(&hook->glob, hook, "*", NULL, 0);
	}
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

/*
 * Both disabled first: new entries return at once. unregister_fprobe()
 * waits for a grace period; calls in flight find their fprobe unregistered
 * at their exit (fprobe checks) and do not call kft.
 */
void kft_safe_detach(struct kft_fhook *hook)
{
	struct kft_fprobe_module *m, *next;

	if (!hook->attached)
		return;
	kft_safe_quiesce(hook);
	kft_fprobe_del(&hook->glob);
	kft_fprobe_del(&hook->ips);
	for (m = hook->modules; m; m = next) {
		next = m->next;
		kft_fprobe_del(&m->p);
		kfree(m);
	}
	hook->modules = NULL;
	hook->gone_missed = 0;
	hook->every = false;
	hook->attached = false;
}

unsigned long kft_safe_missed(const struct kft_fhook *hook)
{
	const struct kft_fprobe_module *m;
	unsigned long missed;

	if (!hook->attached)
		return 0;
	missed = READ_ONCE(hook->glob.fp.nmissed) + READ_ONCE(hook->ips.fp.nmissed) +
		 hook->gone_missed;
	for (m = hook->modules; m; m = m->next)
		missed += READ_ONCE(m->p.fp.nmissed);
	return missed;
}

void kft_safe_quiesce(struct kft_fhook *hook)
{
	struct kft_fprobe_module *m;

	if (!hook->attached)
		return;
	disable_fprobe(&hook->glob.fp);
	disable_fprobe(&hook->ips.fp);
	for (m = hook->modules; m; m = m->next)
		disable_fprobe(&m->p.fp);
}

/*
 * fprobe itself drops a going module's addresses (its module notifier):
 * the hooked ones are counted. The fprobe kft gave the module when it
 * came goes with it.
 */
unsigned int kft_safe_drop_module(struct kft_fhook *hook, struct module *mod,
				  const unsigned long *addrs, unsigned int nr)
{
	struct kft_fprobe_module **pm, *m;

	if (!hook->attached)
		return 0;
	for (pm = &hook->modules; *pm; pm = &(*pm)->next) {
		if ((*pm)->mod != mod)
			continue;
		m = *pm;
		*pm = m->next;
		hook->gone_missed += kft_fprobe_del(&m->p);
		kfree(m);
		break;
	}
	return nr;
}

/* The functions of @mod's own text (not its init code, freed soon), from ftrace's view. */
static int kft_module_hookable(struct module *mod, unsigned long **addrs)
{
	static const struct kft_func_ref every = { .text = "*", .is_glob = true };
	unsigned int max = kft_module_functions(mod), i, n, core = 0;
	struct ftrace_ops scratch = {};
	int ret;

	*addrs = NULL;
	if (!max)
		return 0;
	*addrs = kvcalloc(max, sizeof(**addrs), GFP_KERNEL);
	if (!*addrs)
		return -ENOMEM;
	n = kft_module_collect(mod, &every, 1, *addrs, max);
	for (i = 0; i < n; i++)
		if (within_module_core((*addrs)[i], mod))
			(*addrs)[core++] = (*addrs)[i];
	ret = kft_ftrace_hookable(&scratch, *addrs, core, *addrs);
	ftrace_free_filter(&scratch);
	return ret;
}

/**
 * kft_safe_module_coming() - hook a coming module's functions on every function's hook
 * @hook:	an attached hook
 * @mod:	the module, in its COMING notifier (ftrace has its call sites)
 *
 * fprobe took every function ("*") at the attach, as the list of
 * addresses it had then: a module loaded since gets an fprobe of its own.
 *
 * Return: 0 or an error (the module's functions are then not traced).
 */
int kft_safe_module_coming(struct kft_fhook *hook, struct module *mod)
{
	struct kft_fprobe_module *m;
	unsigned long *addrs;
	int nr, ret = 0;

	if (!hook->every)
		return 0;
	nr = kft_module_hookable(mod, &addrs);
	if (nr <= 0) {
		kvfree(addrs);
		return nr;
	}
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (m)
		ret = kft_fprobe_add(&m->p, hook, NULL, addrs, nr);
	else
		ret = -ENOMEM;
	kvfree(addrs);
	if (ret) {
		kfree(m);
		return ret;
	}
	m->mod = mod;
	m->next = hook->modules;
	hook->modules = m;
	return 0;
}

#else /* fprobe with an ftrace_ops (6.5 to 6.13) */

/*
 * Functions fprobe's exit path calls outside ftrace's recursion guard: in
 * 6.12, rethook_trampoline_handler() reads each handler through
 * rcu_dereference_check(..., rcu_read_lock_any_held()), and on kernels with
 * lockdep (CONFIG_DEBUG_LOCK_ALLOC) that function is traceable. Hooked, its
 * return runs the trampoline again, which calls it again: a recursion that
 * only the end of the stack stops (seen on the debug kernel, KASAN in
 * arch_rethook_prepare()). Every registration leaves them out: every
 * function, a glob that matches them (rcu_*), and their names.
 */
static const char *const kft_fprobe_unsafe[] = {
	"rcu_read_lock_any_held",
	"rcu_read_lock_held_common",		/* what it calls, when not inlined */
	"rcu_lockdep_current_cpu_online",
};
static struct kft_names kft_fprobe_unsafe_names = KFT_NAMES(kft_fprobe_unsafe);

/*
 * The fprobe as new, for a later attach, after a registration failed:
 * ftrace_free_filter() leaves the ops pointing at the hashes it freed,
 * which the next filter added to it would copy and free again.
 */
static void kft_fprobe_forget(struct kft_fhook *hook)
{
	memset(&hook->fp, 0, sizeof(hook->fp));
}

/*
 * A failure before register_fprobe_ips(), which frees the filter itself
 * when it fails (but for its own copy of it, failing for want of memory:
 * then the filter is lost, not freed twice).
 */
static void kft_fprobe_unfilter(struct kft_fhook *hook)
{
	ftrace_free_filter(&hook->fp.ops);
	kft_fprobe_forget(hook);
}

/*
 * Every function but those above (each is added to the notrace filter,
 * which register_fprobe_ips() keeps; a kernel without one says -EINVAL),
 * and those of modules loaded later: registered on the sentinel, its
 * filter then emptied, which to ftrace means every function, whenever it
 * came (so count mode and fast hooks trace them). register_fprobe(fp, "*")
 * would take the functions ftrace has at the attach, matched by name, and
 * no module loaded after.
 */
static int kft_fprobe_register_all(struct kft_fhook *hook)
{
	unsigned long sentinel = kft_code_addr(kft_filter_sentinel);
	int ret;

	ret = kft_ftrace_notrace_names(&hook->fp.ops, &kft_fprobe_unsafe_names);
	if (ret) {
		kft_fprobe_unfilter(hook);
		return ret;
	}
	ret = register_fprobe_ips(&hook->fp, &sentinel, 1);
	if (ret) {
		kft_fprobe_forget(hook);
		return ret;
	}
	ret = ftrace_set_filter(&hook->fp.ops, NULL, 0, 1);
	if (ret) {
		/* Only the sentinel, never called, was hooked. */
		unregister_fprobe(&hook->fp);
		memset(&hook->fp, 0, sizeof(hook->fp));
	}
	return ret;
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

	hook->fp.entry_handler = kft_fprobe_entry;
	hook->fp.exit_handler = kft_fprobe_exit;
	hook->fp.entry_data_size = kft_fhook_call_size(hook);
	hook->fp.nr_maxactive = kft_exit_max_active(hook->role, nr_funcs);
	if (!nr_funcs)
		return kft_fprobe_register_all(hook);
	for (i = 0; i < nr_funcs; i++) {
		ret = kft_ftrace_filter_add(&hook->fp.ops, &funcs[i], &addr, err);
		if (ret) {
			kft_fprobe_unfilter(hook);
			return ret;
		}
		if (i == 0)
			first_addr = addr;
	}
	/* Removing a going module's functions must never empty the filter. */
	ret = kft_ftrace_filter_add_sentinel(&hook->fp.ops);
	if (!ret)
		ret = kft_ftrace_notrace_names(&hook->fp.ops, &kft_fprobe_unsafe_names);
	if (ret) {
		kft_fprobe_unfilter(hook);
		return ret;
	}
	/*
	 * Registered by an address already in the filter, which adds nothing:
	 * by a name, fprobe would match it over every traceable function again
	 * (its per-call slots are nr_maxactive, whatever it is given).
	 */
	if (!first_addr)
		first_addr = kft_code_addr(kft_filter_sentinel);
	ret = register_fprobe_ips(&hook->fp, &first_addr, 1);
	if (ret)
		kft_fprobe_forget(hook);
	return ret;
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
void kft_safe_detach(struct kft_fhook *hook)
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

unsigned long kft_safe_missed(const struct kft_fhook *hook)
{
	return hook->attached ? READ_ONCE(hook->fp.nmissed) : 0;
}

void kft_safe_quiesce(struct kft_fhook *hook)
{
	if (hook->attached)
		disable_fprobe(&hook->fp);
}

/* A going module's functions out of the fprobe's filter, which keeps the sentinel. */
unsigned int kft_safe_drop_module(struct kft_fhook *hook, struct module *mod,
				  const unsigned long *addrs, unsigned int nr)
{
	return hook->attached ? kft_ftrace_drop_ips(&hook->fp.ops, addrs, nr) : 0;
}

#endif /* KFT_FPROBE_FGRAPH */

int kft_safe_attach(struct kft_fhook *hook, const struct kft_func_ref *funcs,
		    unsigned int nr_funcs, struct kft_parse_error *err)
{
	int ret = kft_fprobe_register(hook, funcs, nr_funcs, err);

	if (ret)
		return ret;
	hook->attached = true;
	return 0;
}

#endif /* KFT_HAVE_FPROBE */
