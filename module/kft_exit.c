// SPDX-License-Identifier: GPL-2.0
/*
 * The exit mechanisms' interface (kft_exit.h): each hook is "hooks fast"
 * (kft_exit_fast.c, the same on every kernel) or "hooks safe" (the
 * kernel's: kft_exit_fprobe.c or kft_exit_kretprobe.c), chosen once at
 * attach. Process context, under kft_mutex, except kft_fhook_quiesce().
 */
#include <linux/module.h>

#include "kft_exit.h"
#include "kft_ftrace.h"

/**
 * kft_fhook_attach() - hook a funclist's entries and exits
 * @hook:	the hook (zeroed, or left so by kft_fhook_detach())
 * @run:	the run its handlers record into
 * @role:	what its handlers do
 * @fast:	kft's own return trampoline, not the kernel's mechanism
 * @args:	each call keeps its argument registers (struct kft_rec_args)
 * @funcs:	the funclist; none for every function
 * @nr_funcs:	its length
 * @err:	where a reference matched nothing, or attaching failed
 *
 * Return: 0 or an error, with @err set for a configuration error.
 */
int kft_fhook_attach(struct kft_fhook *hook, struct kft_run *run,
		     enum kft_hook_role role, bool fast, bool args,
		     const struct kft_func_ref *funcs, unsigned int nr_funcs,
		     struct kft_parse_error *err)
{
	int ret;

	hook->is_fast = fast;
	hook->args = args;
	hook->run = run;
	hook->role = role;
	atomic_long_set(&hook->paused, 0);
	hook->missed_base = 0;
	hook->missed_kept = 0;
	if (fast)
		ret = kft_fast_attach(hook, funcs, nr_funcs, err);
	else
		ret = kft_safe_attach(hook, funcs, nr_funcs, err);
	/* A failure that names no reference (the kernel refused, no memory). */
	if (ret && err->code == KFT_ERR_NONE)
		kft_func_error(err, KFT_ERR_ATTACH_FAILED, nr_funcs ? funcs : NULL);
	return ret;
}

void kft_fhook_detach(struct kft_fhook *hook)
{
	if (!hook->attached)
		return;
	/*
	 * A complete run lets go of its hooks and may be read long after:
	 * what its calls missed stays in its counters until the next prime.
	 */
	hook->missed_kept = kft_fhook_missed(hook);
	if (hook->is_fast)
		kft_fast_detach(hook);
	else
		kft_safe_detach(hook);
}

/* What the mechanism missed since the attach. */
static unsigned long kft_fhook_missed_total(const struct kft_fhook *hook)
{
	if (hook->is_fast)
		return kft_fast_missed(hook);
	return kft_safe_missed(hook) + atomic_long_read(&hook->paused);
}

/* Calls the hook did not time since the run's last prime. */
unsigned long kft_fhook_missed(const struct kft_fhook *hook)
{
	if (!hook->attached)
		return hook->missed_kept;
	return kft_fhook_missed_total(hook) - hook->missed_base;
}

/* At a prime: the counters start again, as the run's others do. */
void kft_fhook_missed_reset(struct kft_fhook *hook)
{
	hook->missed_kept = 0;
	if (hook->attached)
		hook->missed_base = kft_fhook_missed_total(hook);
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
 * Fast hooks on every function have an empty ftrace filter, which takes in
 * whatever comes; the kernel's mechanism may not.
 */
int kft_fhook_module_coming(struct kft_fhook *hook, struct module *mod)
{
	if (!hook->attached || hook->is_fast)
		return 0;
	return kft_safe_module_coming(hook, mod);
}

/* At module exit, after the last run: waits for tasks inside fast-hooked calls. */
void kft_fhook_cleanup(void)
{
	kft_fast_cleanup();
}
