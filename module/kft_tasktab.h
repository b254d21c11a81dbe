/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-task slots of a table that is not task_struct (a module has no field
 * of its own there): a task's slot is one of KFT_TASKTAB_PROBES found from
 * a hash of its task_struct's address, the next ones wrapping round. Used
 * by filter roots' holding (kft_hold.h) and by the scheduler's times of
 * offcpu (kft_sched.h), each with its own slots.
 */
#ifndef KFT_TASKTAB_H
#define KFT_TASKTAB_H

#include <linux/hash.h>
#include <linux/kernel.h>

#define KFT_TASKTAB_PROBES	8	/* slots one task may try */

/* The first slot of @t in a table of @n; kft_tasktab_next() the others. */
static __always_inline unsigned int kft_tasktab_first(const void *t, unsigned int n)
{
	return reciprocal_scale(hash_ptr(t, 32), n);
}

static __always_inline unsigned int kft_tasktab_next(unsigned int i, unsigned int n)
{
	return ++i == n ? 0 : i;
}

/* How many slots a task tries in a table of @n. */
static __always_inline unsigned int kft_tasktab_probes(unsigned int n)
{
	return min_t(unsigned int, KFT_TASKTAB_PROBES, n);
}

#endif
