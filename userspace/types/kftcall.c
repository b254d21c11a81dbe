// SPDX-License-Identifier: GPL-2.0
/*
 * Calls printed with their prototypes (kftcall.h). Each value is cut to
 * its type's width first: an int argument is the low 32 bits of its
 * register, sign-extended, whatever the upper half holds. Addresses obey
 * KFTTYPES_HIDE_ADDRS as kft's log obeys a reader's rights: zero and
 * errors show, any other address is "hidden".
 *
 * A call's registers are its arguments' in order, one each, but on a
 * 32-bit kernel (registers of 4 bytes: 32-bit ARM, the only one kft
 * runs on), where the procedure call standard (AAPCS) passes a 64-bit
 * argument in an even-odd pair of registers, low word first, leaving an
 * odd register unused to align it; and returns one in r0 and r1, of
 * which kft logs r0: such a return value prints as its low word, said.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errname.h"
#include "kftcall.h"

/* Text written into a bounded buffer; used counts what did not fit too. */
struct kftout {
	char *buf;
	size_t len, used;
};

static void out_put(struct kftout *o, const char *s, size_t n)
{
	if (o->used < o->len) {
		size_t room = o->len - 1 - o->used;

		memcpy(o->buf + o->used, s, n < room ? n : room);
		o->buf[o->used + (n < room ? n : room)] = '\0';
	}
	o->used += n;
}

static void out_str(struct kftout *o, const char *s)
{
	out_put(o, s, strlen(s));
}

__attribute__((format(printf, 2, 3)))
static void out_printf(struct kftout *o, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		out_put(o, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* The error's name when @v, read as a long of @size bytes, is -1..-4095. */
static const char *value_errname(unsigned long long v, unsigned int size)
{
	struct kftype as_long = { .kind = KFTYPE_INT, .size = size, .is_signed = true };
	long long err = (long long)kftype__value(&as_long, v);

	return err < 0 && err >= -4095 ? errname(err) : NULL;
}

/* An address of @size bytes: 0x.., "hidden", or an ERR_PTR's error. */
static void out_address(struct kftout *o, unsigned long long v, unsigned int size,
			unsigned int flags)
{
	const char *err = value_errname(v, size);
	struct kftype word = { .kind = KFTYPE_PTR, .size = size };

	v = kftype__value(&word, v);
	if (err)
		out_printf(o, "-%s", err);
	else if (v && (flags & KFTTYPES_HIDE_ADDRS))
		out_str(o, "hidden");
	else
		out_printf(o, "0x%llx", v);
}

/* A captured string, quoted, escaped as C would; cut ones end in "...". */
static void out_string(struct kftout *o, const struct kfttypes_capture *c)
{
	const unsigned char *s = c->bytes;
	size_t n = strnlen(c->bytes, c->len), i;

	out_put(o, "\"", 1);
	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '"': out_str(o, "\\\""); break;
		case '\\': out_str(o, "\\\\"); break;
		case '\n': out_str(o, "\\n"); break;
		case '\t': out_str(o, "\\t"); break;
		case '\r': out_str(o, "\\r"); break;
		default:
			if (s[i] >= 0x20 && s[i] < 0x7f)
				out_put(o, (const char *)&s[i], 1);
			else
				out_printf(o, "\\x%02x", s[i]);
		}
	}
	out_put(o, "\"", 1);
	if (n == c->len)
		out_str(o, "...");
}

static void out_integer(struct kftout *o, const struct kftype *t, unsigned long long v)
{
	v = kftype__value(t, v);
	if (t->is_signed)
		out_printf(o, "%lld", (long long)v);
	else
		out_printf(o, "%llu", v);
}

/* Why a pointer's bytes were not captured: " (-EFAULT)". */
static void out_capture_error(struct kftout *o, int error)
{
	const char *name = errname(error < 0 ? error : -(long long)error);

	if (name)
		out_printf(o, " (-%s)", name);
	else
		out_printf(o, " (error %d)", error);
}

static void out_value(struct kftout *o, const struct kftype *t, unsigned long long v,
		      const struct kfttypes_capture *c, unsigned int flags);

/*
 * Member @m's value from the struct's captured bytes, little-endian as
 * the kernels kft traces are, a bit-field's bits shifted down and
 * sign-extended when its type is signed: false when the capture stops
 * before the member ends, or the member is no value of 64 bits or less.
 */
static bool member_read(const struct kftmember *m, const struct kfttypes_capture *c,
			unsigned long long *v)
{
	const unsigned char *bytes = c->bytes;
	unsigned int bits = m->bit_size ? m->bit_size : m->type.size * 8U;
	unsigned int shift = m->bit_offset % 8, first = m->bit_offset / 8;
	unsigned int n = (shift + bits + 7) / 8, i;

	if ((size_t)m->bit_offset + bits > c->len * 8 || !bits || n > 8)
		return false;
	*v = 0;
	for (i = 0; i < n; i++)
		*v |= (unsigned long long)bytes[first + i] << (8 * i);
	*v >>= shift;
	if (bits < 64)
		*v &= (1ULL << bits) - 1;
	if (bits < 64 && m->type.is_signed && (*v >> (bits - 1)) & 1)
		*v |= ~((1ULL << bits) - 1);
	return true;
}

/*
 * The struct or union @t points to, from the bytes the kernel captured,
 * as C's designated initialisers: "{.flags=32768, .mode=0}", each member
 * as a value of its type is printed; a nested struct "{...}", an array or
 * a member of a type kft does not print "...". The members the capture
 * does not reach are left out, and a last "..." says so. Without its
 * members (a written prototype knows none) the struct is "{...}".
 */
static void out_record(struct kftout *o, const struct kftype *t,
		       const struct kfttypes_capture *c, unsigned int flags)
{
	const char *sep = "";
	unsigned long long v = 0;
	size_t i;

	if (!t->nr_members) {
		out_str(o, "{...}");
		return;
	}
	out_put(o, "{", 1);
	for (i = 0; i < t->nr_members; i++, sep = ", ") {
		const struct kftmember *m = &t->members[i];
		bool scalar = m->type.kind != KFTYPE_RECORD && m->type.kind != KFTYPE_UNKNOWN &&
			      m->type.kind != KFTYPE_VOID;

		out_str(o, sep);
		if (m->bit_offset >= c->len * 8 || (scalar && !member_read(m, c, &v))) {
			out_str(o, "...");
			break;
		}
		if (m->name) {
			out_put(o, ".", 1);
			out_str(o, m->name);
			out_put(o, "=", 1);
		}
		if (m->type.kind == KFTYPE_RECORD)
			out_str(o, "{...}");
		else if (!scalar)
			out_str(o, "...");
		else
			out_value(o, &m->type, v, NULL, flags);
	}
	out_put(o, "}", 1);
}

/* An argument's or return value's @v as its type @t says. */
static void out_value(struct kftout *o, const struct kftype *t, unsigned long long v,
		      const struct kfttypes_capture *c, unsigned int flags)
{
	const char *name;

	switch (t->kind) {
	case KFTYPE_INT:
		out_integer(o, t, v);
		break;
	case KFTYPE_BOOL:
		out_str(o, kftype__value(t, v) ? "true" : "false");
		break;
	case KFTYPE_ENUM:
		name = kftype__enum_name(t, v);
		if (name)
			out_str(o, name);
		else
			out_integer(o, t, v);
		break;
	case KFTYPE_STR:
		if (c && c->bytes && !c->error && !c->is_struct) {
			out_string(o, c);
			break;
		}
		/* not captured: the address */
		/* fall through */
	case KFTYPE_PTR:
		if (c && c->bytes && !c->error && c->is_struct) {
			out_record(o, t, c, flags);
			break;
		}
		out_address(o, v, t->size, flags);
		if (c && c->error)
			out_capture_error(o, c->error);
		break;
	case KFTYPE_RECORD:
		out_str(o, "{...}");
		break;
	case KFTYPE_VOID:
	case KFTYPE_UNKNOWN:
	default:
		out_address(o, v, t->size ? t->size : 8, flags);
		break;
	}
}

/*
 * A return value: an int or a long of -1..-4095 is an error, by name
 * (a pointer's too, an ERR_PTR); anything else as its type says.
 */
static void out_return(struct kftout *o, const struct kftype *t, unsigned long long v,
		       unsigned int flags)
{
	const char *err = t->kind == KFTYPE_INT && t->is_signed && t->size >= 4 ?
		value_errname(v, t->size) : NULL;

	if (err)
		out_printf(o, "-%s", err);
	else
		out_value(o, t, v, NULL, flags);
}

/* Whether a value of type @t takes two of a kernel's registers of @word_bytes. */
static bool two_registers(const struct kftype *t, unsigned int word_bytes)
{
	return word_bytes == 4 && t->size == 8 &&
	       (t->kind == KFTYPE_INT || t->kind == KFTYPE_ENUM);
}

/*
 * The first register of a parameter of type @t passed from register *reg
 * on, *reg moved past the registers it takes: a 64-bit value on a 32-bit
 * kernel takes an even-odd pair (AAPCS), skipping an odd register.
 */
static int param_registers(const struct kftype *t, unsigned int word_bytes, int *reg)
{
	int first = *reg;

	if (!two_registers(t, word_bytes)) {
		*reg = first + 1;
		return first;
	}
	first += first & 1;
	*reg = first + 2;
	return first;
}

/*
 * One parameter's value from the call's registers, from register *reg on
 * (moved past the registers it took): its first register's index, or -1
 * when the registers logged end before it (it prints as "?"). *v is its
 * value, *hidden whether the log hid a register of it.
 */
static int param_value(const struct kftype *t, const struct kfttypes_call *call, int nr_args,
		       unsigned int word_bytes, int *reg, unsigned long long *v, bool *hidden)
{
	int first = param_registers(t, word_bytes, reg);

	if (!two_registers(t, word_bytes)) {
		if (first >= nr_args)
			return -1;
		*v = call->args[first];
		*hidden = call->hidden & (1u << first);
		return first;
	}
	if (first + 1 >= nr_args)
		return -1;
	*v = (call->args[first] & 0xffffffffull) | (call->args[first + 1] & 0xffffffffull) << 32;
	*hidden = call->hidden & (3u << first);
	return first;
}

/* "(a=1, b=hidden, c=?)": each parameter with its argument's value. */
static void out_params(struct kftout *o, const struct kftproto *p,
		       const struct kfttypes_call *call, int nr_args, unsigned int word_bytes,
		       unsigned int flags)
{
	unsigned long long v = 0;
	bool hidden = false;
	int i, reg = 0, first;

	out_put(o, "(", 1);
	for (i = 0; i < p->nr_params; i++) {
		const struct kftparam *param = &p->params[i];

		if (i)
			out_str(o, ", ");
		if (param->name) {
			out_str(o, param->name);
			out_put(o, "=", 1);
		}
		first = param_value(&param->type, call, nr_args, word_bytes, &reg, &v, &hidden);
		if (first < 0)
			out_put(o, "?", 1);
		else if (hidden)
			out_str(o, "hidden");
		else
			out_value(o, &param->type, v,
				  call->captures ? &call->captures[first] : NULL, flags);
	}
	if (p->variadic)
		out_str(o, p->nr_params ? ", ..." : "...");
	out_put(o, ")", 1);
}

/*
 * A 64-bit return value of a 32-bit kernel: r0, its low word, is all the
 * log has. An error's high word is all ones: one of -1..-4095 is the error.
 */
static void out_return_low_word(struct kftout *o, const struct kftype *t, unsigned long long v,
				unsigned int flags)
{
	const char *err = t->kind == KFTYPE_INT && t->is_signed ? value_errname(v, 4) : NULL;
	struct kftype low = *t;

	if (err) {
		out_printf(o, "-%s", err);
		return;
	}
	low.size = 4;
	low.is_signed = false;
	out_value(o, &low, v, NULL, flags);
	out_str(o, " (low word)");
}

size_t kftcall__format(const struct kftproto *p, const char *name,
		       const struct kfttypes_call *call, unsigned int word_bytes, unsigned int flags,
		       char *buf, size_t len)
{
	struct kftout o = { .buf = buf, .len = len };
	int nr_args = call->nr_args < 0 ? 0 : call->nr_args;

	if (nr_args > KFTTYPES_MAX_ARGS)
		nr_args = KFTTYPES_MAX_ARGS;
	if (len)
		buf[0] = '\0';
	out_str(&o, name ? name : p->name);
	if (!(flags & KFTTYPES_RETURN_ONLY))
		out_params(&o, p, call, nr_args, word_bytes, flags);
	if (call->has_ret && p->ret.kind != KFTYPE_VOID) {
		out_str(&o, " = ");
		if (call->hidden & KFTTYPES_RET_HIDDEN)
			out_str(&o, "hidden");
		else if (two_registers(&p->ret, word_bytes))
			out_return_low_word(&o, &p->ret, call->ret, flags);
		else
			out_return(&o, &p->ret, call->ret, flags);
	}
	return o.used;
}

size_t kftcall__format_untyped(const char *func, const struct kfttypes_call *call,
			       unsigned int word_bytes, unsigned int flags, char *buf, size_t len)
{
	struct kftproto p = { .name = func, .ret.size = word_bytes };
	int i;

	p.nr_params = call->nr_args < 0 ? 0 : call->nr_args;
	if (p.nr_params > KFTTYPES_MAX_ARGS)
		p.nr_params = KFTTYPES_MAX_ARGS;
	for (i = 0; i < p.nr_params; i++)
		p.params[i].type.size = word_bytes;
	return kftcall__format(&p, NULL, call, word_bytes, flags, buf, len);
}

/*
 * The parameter of @p whose value starts in register @reg, or NULL (none
 * does, or it takes two registers: one register of it is no value).
 */
static const struct kftparam *param_at_register(const struct kftproto *p, int reg,
						unsigned int word_bytes)
{
	int i, next = 0, first;

	for (i = 0; i < p->nr_params && next <= reg; i++) {
		const struct kftype *t = &p->params[i].type;

		first = param_registers(t, word_bytes, &next);
		if (first == reg && !two_registers(t, word_bytes))
			return &p->params[i];
	}
	return NULL;
}

size_t kftcall__format_register(const struct kftproto *p, int reg, unsigned long long v,
				bool hidden, unsigned int word_bytes, unsigned int flags,
				char *buf, size_t len)
{
	const struct kftparam *param = p ? param_at_register(p, reg, word_bytes) : NULL;
	struct kftout o = { .buf = buf, .len = len };

	if (len)
		buf[0] = '\0';
	if (!param)
		return 0;
	if (param->name) {
		out_str(&o, param->name);
		out_put(&o, "=", 1);
	}
	if (hidden)
		out_str(&o, "hidden");
	else
		out_value(&o, &param->type, v, NULL, flags);
	return o.used;
}
