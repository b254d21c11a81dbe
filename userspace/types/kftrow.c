// SPDX-License-Identifier: GPL-2.0
/* A log row's arguments and return value as a call (kftrow.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kftrow.h"

/*
 * One value of the args word, [s, s + len): 1 with its register in *v,
 * 2 for "hidden", 0 for anything else. An error (-22) is the register of
 * that negative long, as the kernel passed it.
 */
static int kftrow_value(const char *s, size_t len, unsigned long long *v)
{
	char text[24], *end;

	if (len == 6 && !memcmp(s, "hidden", 6))
		return 2;
	if (!len || len >= sizeof(text))
		return 0;
	memcpy(text, s, len);
	text[len] = '\0';
	errno = 0;
	if (text[0] == '-')
		*v = (unsigned long long)strtoll(text, &end, 10);
	else if (text[0] == '0' && text[1] == 'x' && text[2])
		*v = strtoull(text + 2, &end, 16);
	else
		return 0;
	return errno || *end ? 0 : 1;
}

static void kftrow_args(const char *args, unsigned long long *regs,
			struct kfttypes_call *call)
{
	const char *s = args;

	while (*s && call->nr_args < KFTTYPES_MAX_ARGS) {
		size_t len = strcspn(s, ",");
		int kind = kftrow_value(s, len, &regs[call->nr_args]);

		if (!kind)
			break;
		if (kind == 2) {
			regs[call->nr_args] = 0;
			call->hidden |= 1u << call->nr_args;
		}
		call->nr_args++;
		s += len;
		if (*s == ',')
			s++;
	}
}

void kftrow__call(const struct kftlog_row *r, unsigned long long *regs,
		  struct kfttypes_call *call)
{
	*call = (struct kfttypes_call){ .args = regs };
	kftrow_args(r->args ? r->args : "", regs, call);
	switch (r->ret) {
	case KFTLOG_RET_ERROR:
		call->has_ret = true;
		call->ret = (unsigned long long)r->ret_error;
		break;
	case KFTLOG_RET_VALUE:
		call->has_ret = true;
		call->ret = r->ret_value;
		break;
	case KFTLOG_RET_HIDDEN:
		call->has_ret = true;
		call->hidden |= KFTTYPES_RET_HIDDEN;
		break;
	default:
		break;
	}
}

/* One byte of the text, where it fits; the text's length counted anyway. */
static void kftrow_put(char *buf, size_t len, size_t *n, char c)
{
	if (*n + 1 < len)
		buf[*n] = c;
	(*n)++;
}

size_t kftrow__args_text(const char *args, char *buf, size_t len)
{
	size_t n = 0;

	kftrow_put(buf, len, &n, '(');
	for (; *args; args++) {
		if (*args == ',')
			kftrow_put(buf, len, &n, ',');
		kftrow_put(buf, len, &n, *args == ',' ? ' ' : *args);
	}
	kftrow_put(buf, len, &n, ')');
	if (len)
		buf[n < len ? n : len - 1] = '\0';
	return n;
}
