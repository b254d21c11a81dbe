/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kft log's row as a call to print typed: its args word's values
 * ("args=0xffff888003e1c000,-22,hidden,0x0", Documentation/kft.rst) and
 * its return value, each as kft's log writes one: an error in decimal,
 * any other value in hex, "hidden" where the reader may not see it.
 */
#ifndef KFT_KFTROW_H
#define KFT_KFTROW_H

#include "kftlog.h"
#include "kfttypes.h"

/*
 * @r's values into @call, its registers in @regs (KFTTYPES_MAX_ARGS of
 * them): the arguments up to the first value that is none of the three
 * forms (the ones after it print as "?"), the return value when the row
 * has one.
 */
void kftrow__call(const struct kftlog_row *r, unsigned long long *regs,
		  struct kfttypes_call *call);

/*
 * A row's args word untyped, as the log has its values, as a call's
 * argument list: "(0x1, -22, hidden)" into buf[0..len) (NUL-terminated
 * when len > 0), the argument whose string the row kept (strN=) as the
 * log writes the string: "(\"/etc/passwd\", 0x0)". The length of the
 * whole text, as snprintf.
 */
size_t kftrow__args_text(const struct kftlog_row *r, char *buf, size_t len);

/* The most bytes of a string a row keeps (the module's KFT_STR_LEN). */
#define KFTROW_STR_MAX	62
/* The most bytes of a struct a row keeps (args struct's LEN). */
#define KFTROW_MEM_MAX	63

/* A row's string (args string) or struct (args struct) as the bytes the kernel copied. */
struct kftrow_str {
	struct kfttypes_capture captures[KFTTYPES_MAX_ARGS];
	char bytes[KFTROW_MEM_MAX + 1];
};

/*
 * The bytes of @r's string or struct into @s, @call's captures pointed at
 * them, so that a char * argument prints as its string and a pointer to a
 * struct as its members (a fault as its address and -EFAULT); nothing
 * when the row kept none.
 */
void kftrow__captures(const struct kftlog_row *r, struct kftrow_str *s,
		      struct kfttypes_call *call);

/*
 * A string as the log writes one ("\"a\\tb\"", "\"abc\"..." cut) back into
 * its bytes, at most @cap of them; *cut whether it was cut. Return: how
 * many, or -1 when @text is no such string ("(fault)", malformed).
 */
int kftrow__str_bytes(const char *text, char *bytes, size_t cap, bool *cut);

/*
 * args struct's bytes as the log writes them, two hex digits each, into
 * @bytes, at most @cap of them. Return: how many, or -1 when @text is no
 * such bytes ("(fault)", malformed, too many).
 */
int kftrow__mem_bytes(const char *text, char *bytes, size_t cap);

#endif
