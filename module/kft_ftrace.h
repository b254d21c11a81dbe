/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's hooking API as kft uses it (kft_ftrace.c): below the exit
 * mechanisms, the modes and the triggers, which all attach through it.
 */
#ifndef KFT_FTRACE_H
#define KFT_FTRACE_H

#include <linux/bitmap.h>
#include <linux/ftrace.h>

#include "kft_config.h"

/* A configuration error at a function reference (or at 1:1 without one). */
int kft_func_error(struct kft_parse_error *err, enum kft_parse_err code,
		   const struct kft_func_ref *f);
int kft_check_function_start(const struct kft_func_ref *f, struct kft_parse_error *err);
void kft_funcs_drop_repeats(struct kft_func_ref *funcs, unsigned int *nr);

struct kprobe;
int kft_register_kprobe_by_name(struct kprobe *kp);
unsigned long kft_lookup_symbol(const char *name);
struct tracepoint *kft_tracepoint(const char *name);
int kft_ftrace_set_filter_ip(struct ftrace_ops *ops, unsigned long ip, bool remove);
int kft_ftrace_hookable(struct ftrace_ops *scratch, unsigned long *addrs, unsigned int nr,
			unsigned long *out);
unsigned int kft_ftrace_drop_ips(struct ftrace_ops *ops, const unsigned long *addrs,
				 unsigned int nr);
int kft_ftrace_set_pattern(struct ftrace_ops *ops, const char *text, bool exclude);
/* The longest list: kft_fast_noreturn's 91 names (module/kft_noreturn.h). */
#define KFT_MAX_NOTRACE_NAMES	128
/*
 * Names kept out of an ftrace_ops' filter, and which of them the kernel had
 * when last looked up (kft_ftrace.c; under kft_mutex). Static, one per list.
 */
struct kft_names {
	const char *const *names;
	unsigned int nr;
	long seq;			/* modules' count at the lookup; 0: none yet */
	DECLARE_BITMAP(present, KFT_MAX_NOTRACE_NAMES);
};

#define KFT_NAMES(array) { .names = (array), .nr = ARRAY_SIZE(array) }

int kft_ftrace_notrace_names(struct ftrace_ops *ops, struct kft_names *list);
void kft_ftrace_module_coming(void);
int kft_ftrace_filter_add(struct ftrace_ops *ops, const struct kft_func_ref *f,
			  unsigned long *addr, struct kft_parse_error *err);
void kft_filter_sentinel(void);	/* kft_sentinel.c: never called */
int kft_ftrace_filter_add_sentinel(struct ftrace_ops *ops);
int kft_ftrace_ops_attach(struct ftrace_ops *ops, ftrace_func_t func,
			  const struct kft_func_ref *funcs, unsigned int nr_funcs,
			  bool *attached, struct kft_parse_error *err);
void kft_ftrace_ops_detach(struct ftrace_ops *ops, bool *attached);

#endif
