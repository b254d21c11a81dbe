/* SPDX-License-Identifier: GPL-2.0 */
/*
 * "hooks fast": function exits through kft's own return trampoline
 * (kft_fast.c, kft_fast_tramp.S), entered from a bare ftrace_ops.
 */
#ifndef KFT_FAST_H
#define KFT_FAST_H

#include <linux/atomic.h>
#include <linux/ftrace.h>

/* One hook's part: embedded in struct kft_fhook. */
struct kft_fast_hook {
	struct ftrace_ops ops;		/* no SAVE_REGS, no RECURSION: kft guards */
	unsigned long id;		/* in kft_fast.c's registry; 0: none */
	atomic_long_t missed;		/* recursion, shadow stack full or too deep */
};

struct kft_fhook;
struct kft_func_ref;
struct kft_parse_error;

#ifdef CONFIG_X86_64
int kft_fast_attach(struct kft_fhook *hook, const struct kft_func_ref *funcs,
		    unsigned int nr_funcs, struct kft_parse_error *err);
void kft_fast_detach(struct kft_fhook *hook);
unsigned long kft_fast_missed(const struct kft_fhook *hook);
unsigned int kft_fast_drop_module(struct kft_fhook *hook, const unsigned long *addrs,
				  unsigned int nr);
void kft_fast_cleanup(void);
#else
/* No fast hooks here: a run that asks for them is refused before attaching. */
static inline int kft_fast_attach(struct kft_fhook *hook, const struct kft_func_ref *funcs,
				  unsigned int nr_funcs, struct kft_parse_error *err)
{
	return -EOPNOTSUPP;
}

static inline void kft_fast_detach(struct kft_fhook *hook) { }

static inline unsigned long kft_fast_missed(const struct kft_fhook *hook)
{
	return 0;
}

static inline unsigned int kft_fast_drop_module(struct kft_fhook *hook,
						const unsigned long *addrs, unsigned int nr)
{
	return 0;
}

static inline void kft_fast_cleanup(void) { }
#endif

/* The trampoline (kft_fast_tramp.S) and what it calls. */
void kft_fast_return(void);
unsigned long kft_fast_exit(unsigned long *sp);

#endif
