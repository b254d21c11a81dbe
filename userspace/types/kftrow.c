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

size_t kftrow__args_text(const struct kftlog_row *r, char *buf, size_t len)
{
	const char *s = r->args ? r->args : "", *v;
	size_t n = 0, vlen, i;
	int arg;

	kftrow_put(buf, len, &n, '(');
	for (arg = 1; *s; arg++) {
		vlen = strcspn(s, ",");
		v = s;
		/* The string in place of the pointer's value; a struct's pointer stays. */
		if (arg == r->str_arg && r->str && *r->str && !r->str_mem) {
			v = r->str;
			vlen = strlen(v);
		}
		if (arg > 1) {
			kftrow_put(buf, len, &n, ',');
			kftrow_put(buf, len, &n, ' ');
		}
		for (i = 0; i < vlen; i++)
			kftrow_put(buf, len, &n, v[i]);
		s += strcspn(s, ",");
		if (*s == ',')
			s++;
	}
	kftrow_put(buf, len, &n, ')');
	if (len)
		buf[n < len ? n : len - 1] = '\0';
	return n;
}

/* A hex digit's value, or -1. */
static int kftrow_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/*
 * The byte an escape after a backslash stands for, at *s (moved past it):
 * the module writes \" \\ \n \t and \xHH. Return: the byte, or -1.
 */
static int kftrow_escape(const char **s)
{
	int hi, lo;

	switch (*(*s)++) {
	case '"':
		return '"';
	case '\\':
		return '\\';
	case 'n':
		return '\n';
	case 't':
		return '\t';
	case 'x':
		hi = kftrow_hex((*s)[0]);
		lo = hi < 0 ? -1 : kftrow_hex((*s)[1]);
		if (lo < 0)
			return -1;
		*s += 2;
		return hi << 4 | lo;
	default:
		return -1;
	}
}

int kftrow__str_bytes(const char *text, char *bytes, size_t cap, bool *cut)
{
	const char *s = text;
	size_t n = 0;
	int c;

	if (*s++ != '"')
		return -1;
	while (*s && *s != '"') {
		if (*s == '\\') {
			s++;
			c = kftrow_escape(&s);
		} else {
			c = (unsigned char)*s++;
		}
		if (c <= 0 || n == cap)
			return -1;
		bytes[n++] = (char)c;
	}
	if (*s++ != '"')
		return -1;
	*cut = !strcmp(s, "...");
	return *cut || !*s ? (int)n : -1;
}

int kftrow__mem_bytes(const char *text, char *bytes, size_t cap)
{
	size_t n = 0;
	int hi, lo;

	for (; *text; text += 2) {
		hi = kftrow_hex(text[0]);
		lo = hi < 0 ? -1 : kftrow_hex(text[1]);
		if (lo < 0 || n == cap)
			return -1;
		bytes[n++] = (char)(hi << 4 | lo);
	}
	return n ? (int)n : -1;
}

void kftrow__captures(const struct kftlog_row *r, struct kftrow_str *s,
		      struct kfttypes_call *call)
{
	struct kfttypes_capture *c;
	bool cut;
	int n;

	/* A string hidden from this reader: the argument shows as its pointer. */
	if (r->str_arg < 1 || r->str_arg > KFTTYPES_MAX_ARGS || !r->str || !*r->str ||
	    !strcmp(r->str, "hidden"))
		return;
	memset(s->captures, 0, sizeof(s->captures));
	c = &s->captures[r->str_arg - 1];
	c->is_struct = r->str_mem;
	if (!strcmp(r->str, "(fault)")) {
		c->bytes = s->bytes;
		c->error = -EFAULT;
	} else if (r->str_mem) {
		n = kftrow__mem_bytes(r->str, s->bytes, KFTROW_MEM_MAX);
		if (n < 0)
			return;
		c->bytes = s->bytes;
		c->len = (size_t)n;
	} else {
		n = kftrow__str_bytes(r->str, s->bytes, KFTROW_STR_MAX, &cut);
		if (n < 0)
			return;
		s->bytes[n] = '\0';
		c->bytes = s->bytes;
		/* A whole string's NUL is in the capture: a cut one has none. */
		c->len = (size_t)n + !cut;
	}
	call->captures = s->captures;
}
