/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kft's own work inside a hook or a probe that calls functions a run may
 * trace: a string read (the kernel's nofault copy and its checks: args
 * string and struct, filter arg's string tests), a waker's unwinding
 * (wakers) and a stack watch's snapshot. A call it makes is kft's, not
 * the traced code's: every mode leaves it alone (kft_run_own_call()), and
 * the work is not done again
 * from inside itself. A flag per CPU and context level (task, softirq,
 * hardirq, NMI), taken with preemption off: an interrupt's calls are its
 * own, at their own level.
 */
#ifndef KFT_OWN_H
#define KFT_OWN_H

#include <linux/percpu.h>
#include <linux/preempt.h>

#include "kft_compat.h"

DECLARE_PER_CPU(u8 [4], kft_own_working);

/*
 * The flag of this CPU's context level, taken, or NULL when kft's own
 * work is under way there already (the caller is that work's own call).
 */
static __always_inline u8 *kft_own_take(void)
{
	u8 *working = &(*this_cpu_ptr(&kft_own_working))[interrupt_context_level()];

	if (*working)
		return NULL;
	*working = 1;
	barrier();
	return working;
}

static __always_inline void kft_own_drop(u8 *working)
{
	barrier();
	*working = 0;
}

/* Whether kft's own work is under way at this CPU's context level: a call made now is its. */
static __always_inline bool kft_own_now(void)
{
	return (*this_cpu_ptr(&kft_own_working))[interrupt_context_level()];
}

#endif
