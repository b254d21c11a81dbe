/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Prototypes the user writes, for functions no BTF or DWARF describes:
 *
 *	vfs_read(struct file *f, char __user *buf, size_t n)
 *	int my_fn(unsigned int flags, const char *name);
 *
 * A return type (optional: without one the return value prints as kft's
 * log prints it), the function's name, and its parameters: C's integer
 * types (char, short, int, long, long long, signed, unsigned), _Bool and
 * bool, void, the kernel's fixed-width and common typedefs (size_t,
 * ssize_t, u8..u64, s8..s64, __u8..__s64, loff_t, pid_t, gfp_t, ...),
 * "struct X", "union X", "enum X" (no enumerators: the number prints),
 * any depth of pointers, const, volatile, __user and the other sparse
 * annotations, names optional, "..." last. Not parsed (an error, with its
 * column): arrays, function pointers, any other typedef.
 */
#ifndef KFT_KFTPARSE_H
#define KFT_KFTPARSE_H

#include <stddef.h>

#include "kftproto.h"
#include "kfttypes.h"

struct strtab;

/* The longest prototype read: a written one has no need of more. */
#define KFTPARSE_MAX_LEN	1024
/* The longest name (the kernel's longest function names are about 80). */
#define KFTPARSE_MAX_NAME	128

/*
 * The prototype text[0..len) (longs and pointers of @word_bytes), its
 * names in @names; NULL with @err's column and message when it does not
 * parse (or with ENOMEM's message).
 */
struct kftproto *kftparse__prototype(const char *text, size_t len, unsigned int word_bytes,
				     struct strtab *names, struct kfttypes_error *err);

#endif
