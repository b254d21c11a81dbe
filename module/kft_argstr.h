/* SPDX-License-Identifier: GPL-2.0 */
/*
 * args string N / args ustring N: a bounded copy of the kernel or user
 * string a call's argument N points to, read at its entry without
 * faulting and kept beside its record (Documentation/kft.rst). args
 * struct N LEN keeps LEN bytes of kernel memory in the same room.
 */
#ifndef KFT_ARGSTR_H
#define KFT_ARGSTR_H

#include <linux/build_bug.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/uaccess.h>
#include <asm/page.h>

#include "kft_arch.h"
#include "kft_compat.h"

struct seq_file;

/* The bytes of a string a record keeps; a longer one is cut to them. */
#define KFT_STR_LEN	62

enum kft_str_state {
	KFT_STR_NONE,		/* nothing was read (a slot never written) */
	KFT_STR_WHOLE,		/* the whole string */
	KFT_STR_CUT,		/* its first KFT_STR_LEN bytes */
	KFT_STR_FAULT,		/* the pointer could not be read */
	KFT_STR_MEM,		/* args struct: the bytes, no string */
};

/* One call's copy, beside its record: 64 bytes. */
struct kft_rec_str {
	char s[KFT_STR_LEN + 1];	/* NUL-terminated */
	u8 state;			/* enum kft_str_state */
};
static_assert(sizeof(struct kft_rec_str) == 64);

/*
 * @n bytes at @addr into @dst, without faulting. A user string only of a
 * task with user memory of its own: a kernel thread runs on the memory
 * of whichever task ran before it. Return: 0, or an error.
 */
static __always_inline long kft_str_copy(char *dst, unsigned long addr, size_t n, bool user)
{
	if (user)
		return current->mm ? kft_user_copy_nofault(dst, addr, n) : -EFAULT;
	return copy_from_kernel_nofault(dst, (const void *)addr, n);
}

long kft_str_read_pages(char *dst, unsigned long addr, size_t want, bool user);

/**
 * kft_str_read() - copy a string's first bytes, without faulting
 * @dst:	@want bytes of room
 * @addr:	the string
 * @want:	the most bytes to copy (at most a page)
 * @user:	a user space string, else a kernel one
 *
 * From any context: it does not fault, sleep or take a lock. The bytes
 * past a NUL in @addr's page may not be copied: @dst is the string up to
 * its NUL, or @want bytes without one. Inline: a string within one page,
 * nearly every one, costs the traced path one call, the kernel's copy.
 *
 * Return: 0, or -EFAULT when a byte before the string's NUL (and among
 * the first @want) cannot be read.
 */
static __always_inline long kft_str_read(char *dst, unsigned long addr, size_t want, bool user)
{
	if (unlikely(want > PAGE_SIZE - (addr & ~PAGE_MASK)))
		return kft_str_read_pages(dst, addr, want, user);
	return kft_str_copy(dst, addr, want, user) ? -EFAULT : 0;
}

void kft_str_take(struct kft_rec_str *out, unsigned long addr, bool user, unsigned int mem_len);
void kft_str_show(struct seq_file *m, const struct kft_rec_str *str, unsigned int arg,
		  unsigned int mem_len, bool show_addrs);

#endif
