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

#include <linux/atomic.h>
#include <linux/compiler.h>
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

/*
 * Every slot of a table (@slots[0] to @slots[@n - 1], each with a member
 * owner) made free, at prime, while nothing records: each is taken from
 * its owner in one exchange and counted off @owned (an atomic_t *) by
 * whoever freed it (a dead task's probe may free one meanwhile,
 * kft_tasktab_forget()), so that the count never goes below the slots
 * owned. A macro for any table's slot type; each argument is read once.
 */
#define kft_tasktab_reset(slots, n, owned)					\
do {										\
	typeof(slots) __kft_slots = (slots);					\
	unsigned int __kft_n = (n), __kft_i;					\
	atomic_t *__kft_owned = (owned);					\
										\
	for (__kft_i = 0; __kft_slots && __kft_i < __kft_n; __kft_i++)		\
		if (xchg(&__kft_slots[__kft_i].owner, NULL))			\
			atomic_dec(__kft_owned);				\
} while (0)

/*
 * Task @t will never run again (kft_exited.h): the slot of the table it
 * owns, if any, is free. Given back as an owner gives its slot back, with
 * a compare-and-swap, and so as safely beside a prime; @t is not freed
 * yet, so no other task has its address. A table none owns is not looked
 * at. Each argument is read once.
 */
#define kft_tasktab_forget(slots, n, owned, t)					\
do {										\
	typeof(slots) __kft_slots = (slots);					\
	struct task_struct *__kft_t = (t);					\
	unsigned int __kft_n = (n), __kft_i;					\
	unsigned int __kft_idx = kft_tasktab_first(__kft_t, __kft_n);		\
	atomic_t *__kft_owned = (owned);					\
										\
	for (__kft_i = 0; atomic_read(__kft_owned) &&				\
			  __kft_i < kft_tasktab_probes(__kft_n);		\
	     __kft_i++, __kft_idx = kft_tasktab_next(__kft_idx, __kft_n))	\
		if (READ_ONCE(__kft_slots[__kft_idx].owner) == __kft_t &&	\
		    cmpxchg_release(&__kft_slots[__kft_idx].owner, __kft_t,	\
				    NULL) == __kft_t)				\
			atomic_dec(__kft_owned);				\
} while (0)

#endif
