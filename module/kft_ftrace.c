// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's hooking API as kft uses it (kft_ftrace.h): function
 * references of a funclist into an ftrace_ops' filter, errors that point
 * at the reference, an ftrace_ops on a funclist attached and detached.
 * Every exit mechanism, mode and trigger attaches through here. Process
 * context, under kft_mutex; nothing here runs on the traced path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "kft_arch.h"
#include "kft_ftrace.h"
#include "kft_static.h"
#include "kft_symbol.h"

struct kft_tp_search {
	const char *name;
	struct tracepoint *found;
};

static void kft_tp_match(struct tracepoint *tp, void *priv)
{
	struct kft_tp_search *s = priv;

	if (!strcmp(tp->name, s->name))
		s->found = tp;
}

/**
 * kft_tracepoint() - one of the kernel's own tracepoints, by name
 * @name:	its name (sched_switch)
 *
 * A module cannot take the address of a tracepoint the kernel does not
 * export; it can find it among the kernel's.
 *
 * Return: the tracepoint, or NULL when the kernel has none of that name.
 */
struct tracepoint *kft_tracepoint(const char *name)
{
	struct kft_tp_search s = { .name = name };

	for_each_kernel_tracepoint(kft_tp_match, &s);
	return s.found;
}

/**
 * kft_register_kprobe_by_name() - a kprobe on a function, by its name
 * @kp:		its symbol_name, handlers and flags set, no address or offset
 *
 * Where kprobes cannot share ftrace's call site at a function's start
 * (KFT_KPROBE_AT_FTRACE_SITE), a traceable function's kprobe goes past it
 * (KFT_KPROBE_LOOKUP_OFFSET): register_kprobe() refuses the start with
 * -EINVAL. The refusal leaves the address it looked up and flags of its
 * own in @kp; the second try has them as asked.
 *
 * Return: what register_kprobe() returned, the last time it was called.
 */
int kft_register_kprobe_by_name(struct kprobe *kp)
{
	u32 flags = kp->flags;
	int ret = register_kprobe(kp);

	if (ret != -EINVAL || !KFT_KPROBE_LOOKUP_OFFSET)
		return ret;
	kp->addr = NULL;
	kp->flags = flags;
	kp->offset = KFT_KPROBE_LOOKUP_OFFSET;
	return register_kprobe(kp);
}

/**
 * kft_lookup_symbol() - the address of a symbol, by kprobes' lookup
 * @name:	name or module:name
 *
 * Return: the address, or 0 when there is no such probeable symbol.
 */
unsigned long kft_lookup_symbol(const char *name)
{
	/* Disabled: registered only to be looked up, never armed (no text patched). */
	struct kprobe kp = { .symbol_name = name, .flags = KPROBE_FLAG_DISABLED };
	unsigned long addr;

	/*
	 * Built in, kallsyms answers without a kprobe, which the boot's run
	 * may not register where kprobes come after its early initcall.
	 */
	if (KFT_BUILT_IN)
		return kft_kallsyms_addr(name);
	if (kft_register_kprobe_by_name(&kp))
		return 0;
	addr = kft_code_start((unsigned long)kp.addr - kp.offset);
	unregister_kprobe(&kp);
	return addr;
}

/**
 * kft_ftrace_set_filter_ip() - a function, by its address, into or out of
 * an ftrace_ops' filter
 * @ops:	the ops
 * @ip:		where the function starts (or its ftrace call site)
 * @remove:	out of the filter instead
 *
 * Where ftrace takes only the call site's own address
 * (KFT_FTRACE_FILTER_AT_SITE: 5.10 on arm64 and 32-bit ARM), the site is
 * searched for an instruction at a time inside the function: ftrace
 * refuses every other address with -EINVAL, and a function without a
 * site (not traceable) has none to find.
 *
 * Return: what ftrace_set_filter_ip() returned for the site, or -EINVAL.
 */
int kft_ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip, bool remove)
{
	unsigned long off, size, at;
	int ret = ftrace_set_filter_ip(ops, ip, remove, 0);

	if (!KFT_FTRACE_FILTER_AT_SITE || ret != -EINVAL || kft_symbol_bounds(ip, &off, &size) || off)
		return ret;
	for (at = ip + MCOUNT_INSN_SIZE; ret == -EINVAL && at < ip + size; at += MCOUNT_INSN_SIZE)
		ret = ftrace_set_filter_ip(ops, at, remove, 0);
	return ret;
}

/*
 * Which of @addrs ftrace can hook: ftrace_location() is not exported, and
 * ftrace refuses a whole list for one address without a call site of its
 * own (a notrace function). A list is tried on a scratch ops, a refused
 * one halved, down to the addresses refused alone. Those taken are moved
 * to the front of @addrs (to @out, never past where they were), in order.
 *
 * Return: how many were taken, or -ENOMEM.
 */
int kft_ftrace_hookable(struct ftrace_ops *scratch, unsigned long *addrs, unsigned int nr,
			unsigned long *out)
{
	unsigned int half = nr / 2;
	int ret, first;

	if (!nr)
		return 0;
	ret = ftrace_set_filter_ips(scratch, addrs, nr, 0, 1);
	if (!ret) {
		memmove(out, addrs, nr * sizeof(*addrs));
		return nr;
	}
	if (ret == -ENOMEM)
		return ret;
	if (nr == 1)
		return 0;
	first = kft_ftrace_hookable(scratch, addrs, half, out);
	if (first < 0)
		return first;
	ret = kft_ftrace_hookable(scratch, addrs + half, nr - half, out + first);
	return ret < 0 ? ret : first + ret;
}

/*
 * @addrs out of @ops' filter in one update; a list ftrace refuses (an
 * address the filter lacks) is halved, down to the addresses refused
 * alone. Each list taken is an update: kft_ftrace_drop_ips() gives one.
 */
static unsigned int kft_ftrace_drop_list(struct ftrace_ops *ops, const unsigned long *addrs,
					 unsigned int nr)
{
	unsigned int half = nr / 2;

	if (!nr)
		return 0;
	if (nr == 1)
		return !kft_ftrace_set_filter_ip(ops, addrs[0], true);
	/* (ftrace only reads the list.) */
	if (!ftrace_set_filter_ips(ops, (unsigned long *)addrs, nr, 1, 0))
		return nr;
	return kft_ftrace_drop_list(ops, addrs, half) +
	       kft_ftrace_drop_list(ops, addrs + half, nr - half);
}

/**
 * kft_ftrace_drop_ips() - a going module's functions out of an ftrace_ops' filter
 * @ops:	the ops, attached or not, its filter holding the sentinel
 *		(kft_ftrace_filter_add_sentinel()): it must never become
 *		empty, which to ftrace means every function
 * @addrs:	the functions
 * @nr:		how many
 *
 * ftrace keeps a going module's addresses in a filter, and would hook
 * whatever is loaded there next. Each change of an attached ops' filter
 * is an update of the traced call sites' code, which walks every one of
 * them: dropped one at a time, a module of thousands of functions would
 * hold kft_mutex for seconds. Where ftrace takes a list
 * (KFT_FTRACE_FILTER_IPS), the functions ftrace can hook
 * (kft_ftrace_hookable(), on a scratch ops that is never attached: no
 * update) are dropped in one update; those it cannot (notrace) are in no
 * filter.
 *
 * Return: how many were in the filter.
 */
unsigned int kft_ftrace_drop_ips(struct ftrace_ops *ops, const unsigned long *addrs,
				 unsigned int nr)
{
	struct ftrace_ops scratch = {};
	unsigned long *list = NULL;
	unsigned int i, dropped = 0;
	int n = -ENOMEM;

	if (KFT_FTRACE_FILTER_IPS && nr > 1)
		list = kvmalloc_array(nr, sizeof(*list), GFP_KERNEL);
	if (list) {
		memcpy(list, addrs, nr * sizeof(*list));
		n = kft_ftrace_hookable(&scratch, list, nr, list);
		ftrace_free_filter(&scratch);
		if (n >= 0)
			dropped = kft_ftrace_drop_list(ops, list, n);
		kvfree(list);
	}
	if (n >= 0)
		return dropped;
	for (i = 0; i < nr; i++)
		dropped += !kft_ftrace_set_filter_ip(ops, addrs[i], true);
	return dropped;
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

/*
 * Bumped when a module comes: a name a loaded module may have is looked up
 * again after that (struct kft_names).
 */
static atomic_long_t kft_modules_seq = ATOMIC_LONG_INIT(1);

/* A module is coming: cached name lookups may have become stale. */
void kft_ftrace_module_coming(void)
{
	atomic_long_inc(&kft_modules_seq);
}

/*
 * Which of @names (at most KFT_MAX_NOTRACE_NAMES) the kernel may have,
 * into @present. Built in, kallsyms says. A module asks kprobes' lookup,
 * which refuses a name nobody has with -ENOENT: the probes are registered
 * disabled (never armed, no text changes) and unregistered together, one
 * RCU grace period for all. Any other refusal (a function kprobes may not
 * probe) leaves the name in. Where a kprobe shows whether it sits on
 * ftrace's call site (KFT_KPROBE_SHOWS_FTRACE_SITE), a name without one
 * is left out too: ftrace cannot hook that function, and each name
 * costs the notrace filter a pass over every function.
 */
static void kft_names_lookup(const char *const *names, unsigned int nr, unsigned long *present)
{
	struct kprobe *kps, **registered;
	unsigned int i, n = 0;
	int ret;

	bitmap_zero(present, nr);
	if (KFT_BUILT_IN) {
		for (i = 0; i < nr; i++)
			if (kft_kallsyms_has(names[i]))
				__set_bit(i, present);
		return;
	}
	kps = kcalloc(nr, sizeof(*kps), GFP_KERNEL);
	registered = kcalloc(nr, sizeof(*registered), GFP_KERNEL);
	if (!kps || !registered) {
		bitmap_fill(present, nr);
		goto out;
	}
	for (i = 0; i < nr; i++) {
		kps[i].symbol_name = names[i];
		kps[i].flags = KPROBE_FLAG_DISABLED;
		ret = register_kprobe(&kps[i]);
		if (ret != -ENOENT && !(KFT_KPROBE_SHOWS_FTRACE_SITE && !ret &&
					!(kps[i].flags & KPROBE_FLAG_FTRACE)))
			__set_bit(i, present);
		if (!ret)
			registered[n++] = &kps[i];
	}
	if (n)
		unregister_kprobes(registered, n);
out:
	kfree(registered);
	kfree(kps);
}

/*
 * The names of @list the kernel may have, looked up once and again only
 * after a module came. Each kprobe registered to look a name up holds
 * preemption off while the kernel checks the address against every jump
 * label, static call and bug entry of its text (about a millisecond of
 * emulated time on 6.1): a lookup at every attach of every function was
 * that, once per name, in the middle of a real-time system's work.
 */
static const unsigned long *kft_names_present(struct kft_names *list)
{
	long seq = atomic_long_read(&kft_modules_seq);

	if (list->seq != seq) {
		kft_names_lookup(list->names, list->nr, list->present);
		list->seq = seq;
	}
	return list->present;
}

/**
 * kft_ftrace_notrace_names() - functions into an ftrace_ops' notrace filter
 * @ops:	the ops (its notrace filter wins over its filter)
 * @list:	the functions, with what the last lookup of them found
 *
 * A function this kernel lacks (or never traces) is no error. Each name
 * costs ftrace a pass over every traceable function with a symbol lookup
 * for each (77 names: 1.5 G instructions on arm64's boot kernel, 2.4 G on
 * x86-64's): the names the kernel lacks are left out first
 * (kft_names_present()).
 *
 * Return: 0, or -ENOMEM.
 */
int kft_ftrace_notrace_names(struct ftrace_ops *ops, struct kft_names *list)
{
	const unsigned long *present;
	unsigned int i;

	if (WARN_ON_ONCE(list->nr > KFT_MAX_NOTRACE_NAMES))
		return -EINVAL;
	present = kft_names_present(list);
	for_each_set_bit(i, present, list->nr)
		if (kft_ftrace_set_pattern(ops, list->names[i], true) == -ENOMEM)
			return -ENOMEM;
	return 0;
}

/* A configuration error at a function reference (or at 1:1 without one). */
int kft_func_error(struct kft_parse_error *err, enum kft_parse_err code,
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

/* The sentinel (kft_sentinel.c) into a funclist's filter. */
int kft_ftrace_filter_add_sentinel(struct ftrace_ops *ops)
{
	return kft_ftrace_set_filter_ip(ops, kft_code_addr(kft_filter_sentinel), false);
}

/**
 * kft_check_function_start() - an address must be where a function starts
 * @f:		an address reference
 * @err:	set when it is not
 *
 * ftrace and kprobes accept any address inside a function's patched call
 * site as the function; kft takes only the function's own address.
 */
int kft_check_function_start(const struct kft_func_ref *f, struct kft_parse_error *err)
{
	unsigned long off;

	if (kft_symbol_offset(f->addr, &off) || off)
		return kft_func_error(err, KFT_ERR_NOT_FUNCTION_START, f);
	return 0;
}

/**
 * kft_ftrace_filter_add() - add one function reference to an ops' filter
 * @ops:	the ftrace_ops (not yet registered)
 * @f:		a name, glob, module:name or address
 * @addr:	set to the address for an address or module:name, else 0
 * @err:	set when nothing traceable matches
 *
 * Names and globs go through ftrace's own matching, which knows what is
 * traceable, in vmlinux and in loaded modules.
 */
int kft_ftrace_filter_add(struct ftrace_ops *ops, const struct kft_func_ref *f,
			  unsigned long *addr, struct kft_parse_error *err)
{
	int ret;

	*addr = 0;
	/*
	 * A name is a pass over every traceable function (ftrace's match):
	 * a list of thousands takes minutes under emulation, under kft_mutex.
	 * Its writer may be killed meanwhile, and others may run.
	 */
	if (fatal_signal_pending(current)) {
		kft_func_error(err, KFT_ERR_WRITER_KILLED, f);
		return -EINTR;
	}
	cond_resched();
	if (!f->is_addr && strchr(f->text, ':')) {
		if (f->is_glob)
			return kft_func_error(err, KFT_ERR_MODULE_GLOB, f);
		*addr = kft_lookup_symbol(f->text);
		if (!*addr)
			return kft_func_error(err, KFT_ERR_UNKNOWN_FUNCTION, f);
	} else if (f->is_addr) {
		ret = kft_check_function_start(f, err);
		if (ret)
			return ret;
		*addr = f->addr;
	}
	if (*addr)
		ret = kft_ftrace_set_filter_ip(ops, *addr, false);
	else
		ret = kft_ftrace_set_pattern(ops, f->text, false);
	if (ret == -ENOMEM)
		return ret;
	return ret ? kft_func_error(err, KFT_ERR_UNKNOWN_FUNCTION, f) : 0;
}

/* By what they name (an address, or a name or glob as written), then by place. */
static int kft_func_ref_cmp(const void *a, const void *b)
{
	const struct kft_func_ref *x = *(const struct kft_func_ref * const *)a;
	const struct kft_func_ref *y = *(const struct kft_func_ref * const *)b;
	int c;

	if (x->is_addr != y->is_addr)
		return x->is_addr ? -1 : 1;
	if (x->is_addr && x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (!x->is_addr) {
		c = strcmp(x->text, y->text);
		if (c)
			return c;
	}
	return x < y ? -1 : x > y;
}

static bool kft_func_ref_same(const struct kft_func_ref *x, const struct kft_func_ref *y)
{
	if (x->is_addr != y->is_addr)
		return false;
	return x->is_addr ? x->addr == y->addr : !strcmp(x->text, y->text);
}

/**
 * kft_funcs_drop_repeats() - a funclist with each reference once
 * @funcs:	the references, in the order written
 * @nr:		their number; set to what is left
 *
 * A reference written again (the same name or glob, the same address)
 * would be looked up again: ftrace matches a name against every function,
 * about 60 ms under TCG, most of the time a long funclist takes to attach.
 * The first of each stays, in place, so an error still points at it. Not
 * done (nothing lost: a repeat is hooked once anyway) when the scratch
 * memory is not there.
 */
void kft_funcs_drop_repeats(struct kft_func_ref *funcs, unsigned int *nr)
{
	const struct kft_func_ref **by_name;
	unsigned long *repeat;
	unsigned int i, kept;

	if (*nr < 2)
		return;
	by_name = kvmalloc_array(*nr, sizeof(*by_name), GFP_KERNEL);
	repeat = bitmap_zalloc(*nr, GFP_KERNEL);
	if (!by_name || !repeat)
		goto out_free;
	for (i = 0; i < *nr; i++)
		by_name[i] = &funcs[i];
	sort(by_name, *nr, sizeof(*by_name), kft_func_ref_cmp, NULL);
	for (i = 1; i < *nr; i++)
		if (kft_func_ref_same(by_name[i - 1], by_name[i]))
			__set_bit(by_name[i] - funcs, repeat);
	for (i = kept = 0; i < *nr; i++)
		if (!test_bit(i, repeat))
			funcs[kept++] = funcs[i];
	*nr = kept;
out_free:
	bitmap_free(repeat);
	kvfree(by_name);
}

/**
 * kft_ftrace_ops_attach() - an ftrace_ops on a funclist, or every function
 * @ops:	the ops (zeroed, or left so by kft_ftrace_ops_detach())
 * @func:	its callback, which guards against its own recursion
 * @funcs:	the funclist; none for every function
 * @nr_funcs:	its length
 * @attached:	its owner's flag, set on success
 * @err:	where a reference matched nothing, or attaching failed
 *
 * Return: 0 or an error, with @err set for a configuration error.
 */
int kft_ftrace_ops_attach(struct ftrace_ops *ops, ftrace_func_t func,
			  const struct kft_func_ref *funcs, unsigned int nr_funcs,
			  bool *attached, struct kft_parse_error *err)
{
	unsigned long addr;
	unsigned int i;
	int ret;

	ops->func = func;
	ops->flags |= KFT_FTRACE_OPS_FL_OWN_RECURSION;
	for (i = 0; i < nr_funcs; i++) {
		ret = kft_ftrace_filter_add(ops, &funcs[i], &addr, err);
		if (ret)
			goto err_free_filter;
	}
	/* Removing a going module's functions must never empty the filter. */
	if (nr_funcs) {
		ret = kft_ftrace_filter_add_sentinel(ops);
		if (ret)
			goto err_free_filter;
	}
	ret = register_ftrace_function(ops);
	if (ret) {
		kft_func_error(err, KFT_ERR_ATTACH_FAILED, nr_funcs ? funcs : NULL);
		goto err_free_filter;
	}
	*attached = true;
	return 0;

err_free_filter:
	ftrace_free_filter(ops);
	/*
	 * As new, for a later attach: ftrace_free_filter() leaves the ops
	 * pointing at the hashes it freed, which the next filter added to it
	 * would copy and free again.
	 */
	memset(ops, 0, sizeof(*ops));
	return ret;
}

/**
 * kft_ftrace_ops_detach() - take an attached ftrace_ops off
 * @ops:	the ops
 * @attached:	its owner's flag; nothing happens when false
 *
 * Returns once no CPU can be in the ops' callback any more (ftrace waits
 * for that before unregister_ftrace_function() returns, for ops in module
 * memory). The ops is left as new, for a later attach (a complete run
 * primed again).
 */
void kft_ftrace_ops_detach(struct ftrace_ops *ops, bool *attached)
{
	if (!*attached)
		return;
	unregister_ftrace_function(ops);
	ftrace_free_filter(ops);
	memset(ops, 0, sizeof(*ops));
	*attached = false;
}

