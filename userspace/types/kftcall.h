/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A logged call printed with its function's prototype:
 *
 *	do_sys_openat2(dfd=-100, filename="/etc/passwd", how=0xffff888012345678) = 3
 *
 * or, without one, with its raw values in hex.
 */
#ifndef KFT_KFTCALL_H
#define KFT_KFTCALL_H

#include <stdbool.h>
#include <stddef.h>

#include "kftproto.h"
#include "kfttypes.h"

/*
 * @call printed with @p into buf[0..len) (NUL-terminated when len > 0),
 * as a call of @name (NULL: the prototype's), its registers a kernel's of
 * @word_bytes (4: 32-bit ARM's, where a 64-bit argument takes an aligned
 * pair; 8, or 0: one register an argument): the length of the whole
 * text, as snprintf, whatever fitted.
 */
size_t kftcall__format(const struct kftproto *p, const char *name,
		       const struct kfttypes_call *call, unsigned int word_bytes, unsigned int flags,
		       char *buf, size_t len);
/*
 * The same without a prototype: func(0x.., 0x..) = 0x.., each value a
 * register of @word_bytes (errors by name, addresses hidden as flags say).
 */
size_t kftcall__format_untyped(const char *func, const struct kfttypes_call *call,
			       unsigned int word_bytes, unsigned int flags, char *buf, size_t len);

/*
 * One argument register's value @v, the @reg'th (from 0), as the
 * parameter of @p whose value it is: "size=64", "dfd=-100", "on=true";
 * "hidden" after the name for a value the log hid. The length of the
 * whole text, as snprintf; 0 and nothing written when @p is NULL or no
 * parameter's value is that register alone (one past the last, half of
 * a 64-bit value on a 32-bit kernel).
 */
size_t kftcall__format_register(const struct kftproto *p, int reg, unsigned long long v,
				bool hidden, unsigned int word_bytes, unsigned int flags,
				char *buf, size_t len);

#endif
