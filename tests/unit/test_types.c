// SPDX-License-Identifier: GPL-2.0
/*
 * Typed calls (userspace/types): calls printed with written prototypes,
 * with the BTF and the DWARF of types_sample.o (which must print the same
 * text), and with this machine's /sys/kernel/btf/vmlinux when it has one;
 * prototypes that do not parse, with the column said; bad input of every
 * kind (cut prototypes, bytes at random, NUL bytes, absurd lengths and
 * argument counts) said, never a crash.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/inotify.h>

#include "unit.h"
#include "kftcall.h"
#include "kftlog.h"
#include "kftparse.h"
#include "kfttypes.h"
#include "strtab.h"
#include "typedlog.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NONE ((struct kfttypes_capture){ .bytes = NULL })
#define STR(s) ((struct kfttypes_capture){ .bytes = (s), .len = sizeof(s) })

/* A call of @func: its arguments, captures and return value. */
struct call_case {
	const char *func;
	int nr_args;
	unsigned long long args[KFTTYPES_MAX_ARGS];
	struct kfttypes_capture captures[KFTTYPES_MAX_ARGS];
	bool has_ret;
	unsigned long long ret;
	unsigned int flags;
	const char *expected;
};

/* @c printed by @t, checked; the source's name in the message. */
static void check_call(struct kfttypes *t, const struct call_case *c, const char *source)
{
	struct kfttypes_call call = {
		.args = c->args, .nr_args = c->nr_args, .captures = c->captures,
		.has_ret = c->has_ret, .ret = c->ret,
	};
	char buf[512], what[128];
	size_t n = kfttypes__format_call(t, c->func, &call, c->flags, buf, sizeof(buf));

	snprintf(what, sizeof(what), "%s: %s", source, c->func);
	CHECK(n == strlen(c->expected), "%s: returned %zu for \"%s\"", what, n, buf);
	CHECK_STR(buf, c->expected, what);
}

/* The object @name beside this program (the Makefile made it): its path in buf. */
static const char *object_path(const char *name, char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n < 0)
		return name;
	self[n] = '\0';
	snprintf(buf, len, "%s/%s", dirname(self), name);
	return buf;
}

static const char *sample_path(char *buf, size_t len)
{
	return object_path("types_sample.o", buf, len);
}

static struct kfttypes *with_prototypes(const char *const *protos, size_t n)
{
	struct kfttypes *t = kfttypes__new(8);
	struct kfttypes_error err;
	size_t i;

	for (i = 0; i < n; i++) {
		int e = kfttypes__add_prototype(t, protos[i], &err);

		CHECK(e == 0, "'%s': %d, column %d: %s", protos[i], e, err.column, err.msg);
	}
	return t;
}

static void test_written(void)
{
	static const char *const protos[] = {
		"long do_sys_openat2(int dfd, const char __user *filename, struct open_how *how)",
		"vfs_read(struct file *f, char __user *buf, size_t n)",
		"int my_fn(unsigned int flags, const char *name);",
		"void widths(char c, short s, unsigned short us, long long ll, unsigned u, signed char sc)",
		"_Bool truth(bool b, enum pid_type type, u8 b8, s16 h, __u32 w, loff_t pos)",
		"unsigned long long unnamed(int, char **, void *, const void * const)",
		"int log(const char *fmt, ...)",
		"ssize_t none(void)",
		"short small(void)",
	};
	static const struct call_case cases[] = {
		{ "do_sys_openat2", 3, { 0xffffff9c, 0x7ffd1000, 0xffff888012345678 },
		  { NONE, STR("/etc/passwd") }, true, 3, 0,
		  "do_sys_openat2(dfd=-100, filename=\"/etc/passwd\", how=0xffff888012345678) = 3" },
		/* an int: the low 32 bits, whatever the upper half; errors by name */
		{ "do_sys_openat2", 3, { 0x12345678ffffff9c, 0, 0xffff888012345678 }, { NONE }, true,
		  (unsigned long long)-2, KFTTYPES_HIDE_ADDRS,
		  "do_sys_openat2(dfd=-100, filename=0x0, how=hidden) = -ENOENT" },
		/* no return type written: the value as kft's log shows it */
		{ "vfs_read", 3, { 0xffff888000001000, 0x7ffd1000, 4096 }, { NONE }, true,
		  (unsigned long long)-14, 0,
		  "vfs_read(f=0xffff888000001000, buf=0x7ffd1000, n=4096) = -EFAULT" },
		{ "vfs_read", 3, { 1, 2, 3 }, { NONE }, true, 0xffff888000001000, KFTTYPES_HIDE_ADDRS,
		  "vfs_read(f=hidden, buf=hidden, n=3) = hidden" },
		/* a string cut by the capture, and one with bytes to escape */
		{ "my_fn", 2, { 0xffffffff00000001, 1 }, { NONE, { "abcdef", 3, 0, false } }, true, 0, 0,
		  "my_fn(flags=1, name=\"abc\"...) = 0" },
		{ "my_fn", 2, { 0xffffffff, 1 }, { NONE, STR("a\"b\\\n\t\x01\xff") }, true,
		  0xfffff001, 0,
		  "my_fn(flags=4294967295, name=\"a\\\"b\\\\\\n\\t\\x01\\xff\") = -4095" },
		/* a string that faulted: its address and why */
		{ "my_fn", 2, { 0, 0xdead }, { NONE, { NULL, 0, -EFAULT, false } }, false, 0, 0,
		  "my_fn(flags=0, name=0xdead (-EFAULT))" },
		{ "widths", 6, { 0x41, 0xffff, 0xffff, (unsigned long long)-5, 0xffffffff, 0x80 },
		  { NONE }, true, 1234, 0,
		  "widths(c=65, s=-1, us=65535, ll=-5, u=4294967295, sc=-128)" },
		{ "truth", 6, { 0x100, 7, 0x1ff, 0xffff, 0x1ffffffff, (unsigned long long)-1 },
		  { NONE }, true, 1, 0,
		  "truth(b=false, type=7, b8=255, h=-1, w=4294967295, pos=-1) = true" },
		{ "unnamed", 4, { (unsigned long long)-1, 0, 0x10, 0x20 }, { NONE, STR("not a string") },
		  true, (unsigned long long)-1, 0,
		  "unnamed(-1, 0x0, 0x10, 0x20) = 18446744073709551615" },
		/* arguments not logged, and a variadic function */
		{ "log", 0, { 0 }, { NONE }, true, 5, 0, "log(fmt=?, ...) = 5" },
		{ "none", 0, { 0 }, { NONE }, true, (unsigned long long)-12, 0, "none() = -ENOMEM" },
		{ "none", 0, { 0 }, { NONE }, false, 0, 0, "none()" },
		/* a short's -2 is no error */
		{ "small", 0, { 0 }, { NONE }, true, 0xfffe, 0, "small() = -2" },
		/* "module:name": the name's prototype, printed as logged */
		{ "kft_test:my_fn", 2, { 1, 0 }, { NONE }, true, 0, 0, "kft_test:my_fn(flags=1, name=0x0) = 0" },
		/* no prototype: in hex, errors by name, addresses hidden */
		{ "unknown_fn", 2, { 0xffff888000001000, (unsigned long long)-22 }, { NONE }, true, 0, 0,
		  "unknown_fn(0xffff888000001000, -EINVAL) = 0x0" },
		{ "unknown_fn", 1, { 0xffff888000001000 }, { NONE }, true, 7, KFTTYPES_HIDE_ADDRS,
		  "unknown_fn(hidden) = hidden" },
	};
	struct kfttypes *t = with_prototypes(protos, ARRAY_SIZE(protos));
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		check_call(t, &cases[i], "written");
	kfttypes__free(t);
}

/*
 * A 32-bit ARM kernel's calls (registers of 4 bytes): a 64-bit argument
 * takes an even-odd pair, low word first (AAPCS), an odd register left
 * unused before it; what the four logged registers do not reach prints
 * "?"; a 64-bit return value is r0 alone, said, an error by name.
 */
static void test_written_arm32(void)
{
	static const char *const protos[] = {
		"ssize_t pread_like(int fd, loff_t pos, int n)",
		"long long big(long long a, int b, long long c)",
		"void mix(u64 a, unsigned int b, u64 c)",
		"unsigned long ul(unsigned long x, void *p)",
	};
	static const struct call_case cases[] = {
		{ "pread_like", 4, { 3, 0xdead, 0x1, 0x2 }, { NONE }, true, 0xfffffff2, 0,
		  "pread_like(fd=3, pos=8589934593, n=?) = -EFAULT" },
		{ "pread_like", 4, { 3, 0, 0xfffffffe, 0xffffffff }, { NONE }, true, 10, 0,
		  "pread_like(fd=3, pos=-2, n=?) = 10" },
		{ "big", 4, { 0xfffffffb, 0xffffffff, 7, 0 }, { NONE }, true, 0xffffffea, 0,
		  "big(a=-5, b=7, c=?) = -EINVAL" },
		{ "big", 4, { 1, 0, 7, 0 }, { NONE }, true, 5, 0, "big(a=1, b=7, c=?) = 5 (low word)" },
		{ "mix", 4, { 0x89abcdef, 0x01234567, 9, 0 }, { NONE }, true, 0, 0,
		  "mix(a=81985529216486895, b=9, c=?)" },
		/* two registers of an argument, but only three logged */
		{ "mix", 3, { 1, 0, 2 }, { NONE }, true, 0, 0, "mix(a=1, b=2, c=?)" },
		{ "pread_like", 3, { 3, 0, 1 }, { NONE }, true, 0, 0, "pread_like(fd=3, pos=?, n=?) = 0" },
		{ "ul", 2, { 0xffffffff, 0x80001000 }, { NONE }, true, 0xffffffff, 0,
		  "ul(x=4294967295, p=0x80001000) = 4294967295" },
	};
	struct kfttypes *t = kfttypes__new(4);
	struct kfttypes_error err;
	unsigned long long regs[4] = { 3, 0, 1, 2 };
	struct kfttypes_call call = { .args = regs, .nr_args = 4, .has_ret = true };
	char buf[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(protos); i++)
		CHECK(!kfttypes__add_prototype(t, protos[i], &err), "'%s': %s", protos[i], err.msg);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		check_call(t, &cases[i], "arm32");
	/* Either register of a pair hidden hides the argument. */
	call.hidden = 1u << 3;
	kfttypes__format_call(t, "pread_like", &call, 0, buf, sizeof(buf));
	CHECK_STR(buf, "pread_like(fd=3, pos=hidden, n=?) = 0", "arm32: a pair's high word hidden");
	call.hidden = 1u << 1;
	kfttypes__format_call(t, "pread_like", &call, 0, buf, sizeof(buf));
	CHECK_STR(buf, "pread_like(fd=3, pos=8589934593, n=?) = 0",
		  "arm32: the register skipped hidden");
	kfttypes__free(t);
}

/*
 * One register of a call (funccount -A's value) as the parameter passed
 * in it; nothing for a register no parameter has to itself: past the
 * last, an unknown function, either half of a 32-bit kernel's pair.
 */
static void test_register(void)
{
	static const char *const protos[] = {
		"long do_sys_openat2(int dfd, const char __user *filename, struct open_how *how)",
		"_Bool truth(bool b, enum pid_type type)",
		"int unnamed(int, long)",
	};
	struct kfttypes *t = with_prototypes(protos, ARRAY_SIZE(protos)), *t32 = kfttypes__new(4);
	struct kfttypes_error err;
	char buf[64];
	size_t n;

	n = kfttypes__format_register(t, "do_sys_openat2", 0, 0xffffff9c, false, 0, buf, sizeof(buf));
	CHECK(n == strlen("dfd=-100"), "length %zu", n);
	CHECK_STR(buf, "dfd=-100", "register: an int's low half, signed");
	kfttypes__format_register(t, "kft_test:do_sys_openat2", 2, 0xffff888012345678, false,
				  KFTTYPES_HIDE_ADDRS, buf, sizeof(buf));
	CHECK_STR(buf, "how=hidden", "register: a pointer hidden, module:name");
	kfttypes__format_register(t, "do_sys_openat2", 1, 0x7ffd1000, true, 0, buf, sizeof(buf));
	CHECK_STR(buf, "filename=hidden", "register: a value the log hid");
	kfttypes__format_register(t, "truth", 0, 0x100, false, 0, buf, sizeof(buf));
	CHECK_STR(buf, "b=false", "register: a bool's low byte");
	kfttypes__format_register(t, "unnamed", 1, (unsigned long long)-22, false, 0, buf,
				  sizeof(buf));
	CHECK_STR(buf, "-22", "register: an unnamed parameter, its value alone");
	CHECK(!kfttypes__format_register(t, "do_sys_openat2", 3, 1, false, 0, buf, sizeof(buf)) &&
	      !buf[0], "register: past the last parameter: '%s'", buf);
	CHECK(!kfttypes__format_register(t, "unknown_fn", 0, 1, false, 0, buf, sizeof(buf)),
	      "register: an unknown function: '%s'", buf);
	CHECK(!kfttypes__add_prototype(t32, "int pread_like(int fd, loff_t pos, int n)", &err),
	      "%s", err.msg);
	kfttypes__format_register(t32, "pread_like", 0, 3, false, 0, buf, sizeof(buf));
	CHECK_STR(buf, "fd=3", "register arm32: before a pair");
	CHECK(!kfttypes__format_register(t32, "pread_like", 2, 1, false, 0, buf, sizeof(buf)) &&
	      !kfttypes__format_register(t32, "pread_like", 3, 0, false, 0, buf, sizeof(buf)),
	      "register arm32: half a pair typed: '%s'", buf);
	CHECK(!kfttypes__format_register(t32, "pread_like", 1, 0, false, 0, buf, sizeof(buf)),
	      "register arm32: the register skipped before a pair: '%s'", buf);
	kfttypes__format_register(t32, "pread_like", 4, 9, false, 0, buf, sizeof(buf));
	CHECK_STR(buf, "n=9", "register arm32: after a pair");
	kfttypes__free(t32);
	kfttypes__free(t);
}

/* Prototypes that do not parse: the column and the message. */
static void test_written_errors(void)
{
	static const struct {
		const char *text;
		int column;
		const char *msg;
	} cases[] = {
		{ "", 1, "expected '(' after the function's name, not the end" },
		{ "int f", 6, "expected '(' after the function's name, not the end" },
		{ "int (int a)", 1, "expected the function's name before '(', not 'int'" },
		{ "(int a)", 1, "expected the function's name before '(', not '('" },
		{ "int f(frob x)", 7, "unknown type 'frob'" },
		{ "frob f(int x)", 1, "unknown type 'frob'" },
		{ "int f(int char c)", 11, "'char' cannot follow the words before it" },
		{ "int f(unsigned signed x)", 16, "'signed' cannot follow the words before it" },
		{ "int f(long long long x)", 17, "'long' cannot follow the words before it" },
		{ "int f(size_t int x)", 14, "'int' cannot follow the words before it" },
		{ "int f(int x", 12, "expected ',' or ')', not the end" },
		{ "int f(int x,", 13, "expected a type, not the end" },
		{ "int f(int x y)", 13, "expected ',' or ')', not 'y'" },
		{ "int f(int x[4])", 12, "an array: write a pointer" },
		{ "int f(int (*fn)(int))", 11, "a function pointer: write void *" },
		{ "int f(void x, int y)", 7, "a parameter of type void" },
		{ "int f(struct *p)", 14, "expected a name, not '*'" },
		{ "int f(..., int x)", 10, "expected ')' after '...', not ','" },
		{ "int f(int x) int", 14, "expected the end after ')', not 'int'" },
		{ "int f(int x) @", 14, "unexpected '@'" },
		{ "int f(int x\x80)", 12, "unexpected byte 0x80" },
		{ "int g f(int x)", 5, "expected the function's name, not 'g'" },
	};
	struct kfttypes_error err;
	struct strtab names = { 0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kftproto *p = kftparse__prototype(cases[i].text, strlen(cases[i].text), 8, &names,
							 &err);

		CHECK(!p, "'%s' parsed", cases[i].text);
		kftproto__free(p);
		CHECK(err.column == cases[i].column, "'%s': column %d, expected %d (%s)", cases[i].text,
		      err.column, cases[i].column, err.msg);
		CHECK_STR(err.msg, cases[i].msg, cases[i].text);
	}
	strtab__free(&names);
}

/* A second prototype of a function is refused; the first stays. */
static void test_written_twice(void)
{
	struct kfttypes *t = kfttypes__new(8);
	struct kfttypes_error err;
	int e;

	e = kfttypes__add_prototype(t, "int f(int a)", &err);
	CHECK(e == 0, "first: %d %s", e, err.msg);
	e = kfttypes__add_prototype(t, "int f(long b)", &err);
	CHECK(e == -EEXIST, "second: %d", e);
	CHECK_STR(err.msg, "f has a prototype already", "the second's error");
	CHECK(kfttypes__find(t, "f")->params[0].name[0] == 'a', "the first one kept");
	kfttypes__free(t);
}

/*
 * A refused second prototype keeps none of its names: 25,000 of 7
 * parameters of 120-byte names (21 MiB of names, past the table's 16) are
 * refused as seconds, and a new function's prototype is still taken.
 */
static void test_written_twice_many(void)
{
	struct kfttypes *t = kfttypes__new(8);
	struct kfttypes_error err;
	char text[KFTPARSE_MAX_LEN], name[121];
	size_t n = 0;
	int i, e = 0;

	memset(name, 'p', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	n += snprintf(text + n, sizeof(text) - n, "int twice(");
	for (i = 0; i < 7; i++)
		n += snprintf(text + n, sizeof(text) - n, "%sint %s%d", i ? ", " : "", name, i);
	snprintf(text + n, sizeof(text) - n, ")");
	e = kfttypes__add_prototype(t, text, &err);
	CHECK(e == 0, "the first: %d %s", e, err.msg);
	for (i = 0; i < 25000 && e != -EINVAL; i++)
		e = kfttypes__add_prototype(t, text, &err);
	CHECK(e == -EEXIST, "second %d: %d %s", i, e, err.msg);
	e = kfttypes__add_prototype(t, "int other(int a)", &err);
	CHECK(e == 0, "after the refused ones: %d, column %d: %s", e, err.column, err.msg);
	kfttypes__free(t);
}

/* Every cut of good prototypes, bytes at random, NUL bytes, absurd lengths: said, not a crash. */
static void test_written_bad_input(void)
{
	static const char *const good[] = {
		"long do_sys_openat2(int dfd, const char __user *filename, struct open_how *how);",
		"unsigned long long const *volatile f(enum e x, union u *, long int, ...)",
	};
	static const char alphabet[] = "int char long*(),.;_ab \0\x80[]";
	struct strtab names = { .limit = 1 << 20 };
	struct kfttypes_error err;
	char text[KFTPARSE_MAX_LEN + 64];
	unsigned int seed = 1;
	struct kftproto *p;
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		for (n = 0; n <= strlen(good[i]); n++) {
			/* a copy exactly n long: a read past it is ASan's to see */
			char *cut = malloc(n ? n : 1);

			memcpy(cut, good[i], n);
			p = kftparse__prototype(cut, n, 8, &names, &err);
			CHECK(p || (err.column >= 1 && err.column <= (int)n + 1 && err.msg[0]),
			      "'%.*s': column %d '%s'", (int)n, good[i], err.column, err.msg);
			CHECK(!p == (n < strlen(good[i]) - (good[i][strlen(good[i]) - 1] == ';')),
			      "'%.*s' %s", (int)n, good[i], p ? "parsed" : err.msg);
			kftproto__free(p);
			free(cut);
		}
	for (i = 0; i < 20000; i++) {
		n = rand_r(&seed) % 64;
		for (size_t j = 0; j < n; j++)
			text[j] = alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];
		p = kftparse__prototype(text, n, 8, &names, &err);
		CHECK(p || (err.column >= 1 && err.column <= (int)n + 1), "random %zu: column %d", i,
		      err.column);
		kftproto__free(p);
	}
	p = kftparse__prototype("int f(int a\0, int b)", 20, 8, &names, &err);
	CHECK(!p && err.column == 12, "NUL: column %d", err.column);
	CHECK_STR(err.msg, "a NUL byte", "a NUL byte");
	memset(text, ' ', sizeof(text));
	memcpy(text, "int f(int a)", 12);
	p = kftparse__prototype(text, sizeof(text), 8, &names, &err);
	CHECK(!p && err.column == KFTPARSE_MAX_LEN + 1, "too long: column %d", err.column);
	memset(text, 'a', KFTPARSE_MAX_NAME + 1);
	memcpy(text + KFTPARSE_MAX_NAME + 1, "(void)", 6);
	p = kftparse__prototype(text, KFTPARSE_MAX_NAME + 7, 8, &names, &err);
	CHECK(!p && err.column == 1, "a long name: column %d %s", err.column, err.msg);
	strtab__free(&names);
}

/* 200 parameters: 16 kept, then "...". 1000 arguments: 8 read. */
static void test_huge_counts(void)
{
	struct kfttypes *t = kfttypes__new(8);
	static unsigned long long args[1000];
	struct kfttypes_call call = { .args = args, .nr_args = 1000 };
	struct kfttypes_error err;
	char text[KFTPARSE_MAX_LEN], buf[1024];
	size_t n = 0;
	int i, e;

	n += snprintf(text + n, sizeof(text) - n, "void many(int p0");
	for (i = 1; i < 200; i++)
		n += snprintf(text + n, sizeof(text) - n, ", int");
	snprintf(text + n, sizeof(text) - n, ")");
	e = kfttypes__add_prototype(t, text, &err);
	CHECK(e == 0, "200 parameters: %d %s", e, err.msg);
	for (i = 0; i < 1000; i++)
		args[i] = i;
	kfttypes__format_call(t, "many", &call, 0, buf, sizeof(buf));
	CHECK_STR(buf, "many(p0=0, 1, 2, 3, 4, 5, 6, 7, ?, ?, ?, ?, ?, ?, ?, ?, ...)", "many");
	call.nr_args = -5;
	kfttypes__format_call(t, "unknown", &call, 0, buf, sizeof(buf));
	CHECK_STR(buf, "unknown()", "negative count");
	call.nr_args = 1000;
	kfttypes__format_call(t, "unknown", &call, 0, buf, sizeof(buf));
	CHECK_STR(buf, "unknown(0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7)", "1000 arguments");
	memset(text, 'x', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	CHECK(kfttypes__find(t, text) == NULL, "a name of %zu bytes", sizeof(text) - 1);
	kfttypes__free(t);
}

/* Any buffer size: what fits, NUL-terminated, and the whole length returned. */
static void test_buffer_sizes(void)
{
	static const char *const protos[] = { "int f(const char *s, bool b)" };
	static const char expected[] = "f(s=\"hello\", b=true) = -EINVAL";
	struct kfttypes *t = with_prototypes(protos, 1);
	unsigned long long args[] = { 1, 1 };
	struct kfttypes_capture caps[] = { STR("hello"), NONE };
	struct kfttypes_call call = {
		.args = args, .nr_args = 2, .captures = caps, .has_ret = true,
		.ret = (unsigned long long)-22,
	};
	size_t len;

	for (len = 0; len <= sizeof(expected) + 1; len++) {
		char *buf = malloc(len ? len : 1);
		size_t n = kfttypes__format_call(t, "f", &call, 0, len ? buf : NULL, len);

		CHECK(n == strlen(expected), "size %zu: %zu", len, n);
		if (len)
			CHECK(strlen(buf) == len - 1 || !strcmp(buf, expected),
			      "size %zu: \"%s\"", len, buf);
		if (len)
			CHECK(!strncmp(buf, expected, strlen(buf)), "size %zu: \"%s\"", len, buf);
		free(buf);
	}
	kfttypes__free(t);
}

/* types_sample.c's functions called, as each source must print them. */
static const struct call_case sample_cases[] = {
	{ "kft_sample_ints", 6, { 0x1ffffff9c, 0xffffffff, (unsigned long long)-1,
				  (unsigned long long)-1, 0x18000, 0x1ff }, { NONE }, true,
	  0xfffffffe, 0,
	  "kft_sample_ints(a=-100, b=4294967295, c=-1, d=18446744073709551615, e=-32768, f=255) = -ENOENT" },
	{ "kft_sample_void", 4, { 0x7ffd1000, 0xffff888000001000, 5, 1 }, { STR("/etc/passwd") },
	  true, 3, 0,
	  "kft_sample_void(name=\"/etc/passwd\", file=0xffff888000001000, color=KFT_SAMPLE_GREEN, ok=true)" },
	{ "kft_sample_void", 4, { 0x7ffd1000, 0xffff888000001000, 0xfffffffd, 0 }, { NONE }, false,
	  0, KFTTYPES_HIDE_ADDRS,
	  "kft_sample_void(name=hidden, file=hidden, color=KFT_SAMPLE_BLUE, ok=false)" },
	{ "kft_sample_void", 4, { 0, 0, 0xfffffff0, 2 }, { NONE }, false, 0, 0,
	  "kft_sample_void(name=0x0, file=0x0, color=-16, ok=true)" },
	{ "kft_sample_typedef", 3, { 4096, 0x7ffd1000, 0xffffffff }, { NONE, STR("x") }, true,
	  (unsigned long long)-2, 0,
	  "kft_sample_typedef(n=4096, buf=\"x\", fd=-1) = 18446744073709551614" },
	{ "kft_sample_long", 0, { 0 }, { NONE }, true, (unsigned long long)-2, 0,
	  "kft_sample_long() = -ENOENT" },
	{ "kft_sample_long", 0, { 0 }, { NONE }, true, (unsigned long long)-4096, 0,
	  "kft_sample_long() = -4096" },
	{ "kft_sample_ptr", 3, { 0xffff888000002000, 0, 0x100000000 }, { NONE }, true,
	  (unsigned long long)-12, 0,
	  "kft_sample_ptr(p=0xffff888000002000, pp=0x0, w=KFT_SAMPLE_WIDE) = -ENOMEM" },
	{ "kft_sample_ptr", 2, { 0xffff888000002000, 0 }, { NONE }, true, 0xffff888000003000,
	  KFTTYPES_HIDE_ADDRS, "kft_sample_ptr(p=hidden, pp=0x0, w=?) = hidden" },
	{ "kft_sample_variadic", 1, { 0x7ffd1000 }, { STR("%d\n") }, true, 1, 0,
	  "kft_sample_variadic(fmt=\"%d\\n\", ...) = 1" },
	{ "kft_sample_enum_ret", 1, { 0 }, { NONE }, true, 0xfffffffd, 0,
	  "kft_sample_enum_ret(b=false) = KFT_SAMPLE_BLUE" },
	{ "not_in_sample", 1, { 5 }, { NONE }, true, 0, 0, "not_in_sample(0x5) = 0x0" },
};

static void check_sample(struct kfttypes *t, const char *source)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sample_cases); i++)
		check_call(t, &sample_cases[i], source);
}

static void test_btf_sample(void)
{
	struct kfttypes *t = kfttypes__new(8);
	struct kfttypes_error err;
	char path[PATH_MAX];
	int e = kfttypes__add_btf(t, sample_path(path, sizeof(path)), NULL, &err);

	CHECK(e == 0, "%s: %d %s", path, e, err.msg);
	check_sample(t, "BTF");
	kfttypes__free(t);
}

static void test_dwarf_sample(void)
{
	struct kfttypes *t = kfttypes__new(8);
	struct kfttypes_error err;
	char path[PATH_MAX];
	int e = kfttypes__add_dwarf(t, sample_path(path, sizeof(path)), &err);

	CHECK(e == 0, "%s: %d %s", path, e, err.msg);
	check_sample(t, "DWARF");
	kfttypes__free(t);
}

/*
 * The bytes of types_sample.c's struct kft_sample_how, as x86-64 lays it
 * out: flags 32768, mode 0644, small 5 and big 17 in one byte, color
 * KFT_SAMPLE_BLUE, ok, name, words {7, 8}, inner {9}, the union 10, tail -5.
 */
#define HOW_LEN	56
static const unsigned char how_bytes[HOW_LEN] = {
	0x00, 0x80, 0, 0, 0, 0, 0, 0,
	0xa4, 0x01, 5 | 17 << 3, 0, 0xfd, 0xff, 0xff, 0xff,
	1, 0, 0, 0, 0, 0, 0, 0,
	0x00, 0x40, 0x00, 0x00, 0x80, 0x88, 0xff, 0xff,
	7, 0, 0, 0, 8, 0, 0, 0,
	9, 0, 0, 0, 10, 0, 0, 0,
	0xfb, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

#define HOW(n) ((struct kfttypes_capture){ .bytes = how_bytes, .len = (n), .is_struct = true })
#define HOW_FAULT ((struct kfttypes_capture){ .bytes = "", .error = -EFAULT, .is_struct = true })
#define HOW_ALL ".flags=32768, .mode=420, .small=5, .big=17, .color=KFT_SAMPLE_BLUE, .ok=true"

/*
 * A pointer to a struct whose bytes args struct captured: its members, as
 * BTF and DWARF both say them; the members the capture does not reach
 * left out; a fault as the pointer; a string capture leaves the pointer.
 */
static const struct call_case struct_cases[] = {
	{ "kft_sample_struct", 2, { 0xffff888000005000, 1 }, { HOW(HOW_LEN) }, true, 1, 0,
	  "kft_sample_struct(how={" HOW_ALL ", .name=0xffff888000004000, .words=..., "
	  ".inner={...}, {...}, .tail=-5}, n=1) = 1" },
	{ "kft_sample_struct", 2, { 0xffff888000005000, 1 }, { HOW(HOW_LEN) }, true, 1,
	  KFTTYPES_HIDE_ADDRS,
	  "kft_sample_struct(how={" HOW_ALL ", .name=hidden, .words=..., "
	  ".inner={...}, {...}, .tail=-5}, n=1) = 1" },
	{ "kft_sample_struct", 2, { 0xffff888000005000, 1 }, { HOW(20) }, true, 1, 0,
	  "kft_sample_struct(how={" HOW_ALL ", ...}, n=1) = 1" },
	{ "kft_sample_struct", 2, { 0xffff888000005000, 1 }, { HOW(9) }, true, 1, 0,
	  "kft_sample_struct(how={.flags=32768, ...}, n=1) = 1" },
	{ "kft_sample_struct", 2, { 0xffff888000005000, 1 }, { HOW(3) }, true, 1, 0,
	  "kft_sample_struct(how={...}, n=1) = 1" },
	{ "kft_sample_struct", 2, { 0, 1 }, { HOW_FAULT }, true, 0, 0,
	  "kft_sample_struct(how=0x0 (-EFAULT), n=1) = 0" },
	{ "kft_sample_struct", 2, { 0xffff888000005000, 1 }, { STR("x") }, true, 1, 0,
	  "kft_sample_struct(how=0xffff888000005000, n=1) = 1" },
	{ "kft_sample_void", 4, { 0, 0xffff888000001000, 5, 1 }, { NONE, HOW(4) }, false, 0, 0,
	  "kft_sample_void(name=0x0, file={.fd=32768}, color=KFT_SAMPLE_GREEN, ok=true)" },
};

/*
 * The struct cases, and with @samples the sample cases, from the DWARF of
 * @object, a build of the sample the Makefile makes beside the test.
 */
static void check_dwarf_object(const char *object, const char *label, bool samples)
{
	struct kfttypes *t = kfttypes__new(8);
	struct kfttypes_error err;
	char path[PATH_MAX];
	size_t i;
	int e;

	e = kfttypes__add_dwarf(t, object_path(object, path, sizeof(path)), &err);
	CHECK(e == 0, "%s %s: %d %s", label, path, e, err.msg);
	if (samples)
		check_sample(t, label);
	for (i = 0; i < ARRAY_SIZE(struct_cases); i++)
		check_call(t, &struct_cases[i], label);
	kfttypes__free(t);
}

/*
 * The sample with its types in DWARF 4 type units (gcc
 * -fdebug-types-section), linked: a parameter's type is a declaration
 * with DW_AT_signature, its enumerators and members are the type unit's,
 * and that unit's offsets count from 0 in .debug_types.
 */
static void test_dwarf_type_units(void)
{
	check_dwarf_object("types_sample_tu.so", "DWARF type units", true);
}

static void test_struct_members(void)
{
	struct kfttypes *btf = kfttypes__new(8), *dwarf = kfttypes__new(8);
	struct kfttypes_error err;
	char path[PATH_MAX];
	size_t i;
	int e;

	e = kfttypes__add_btf(btf, sample_path(path, sizeof(path)), NULL, &err);
	CHECK(e == 0, "BTF %s: %d %s", path, e, err.msg);
	e = kfttypes__add_dwarf(dwarf, sample_path(path, sizeof(path)), &err);
	CHECK(e == 0, "DWARF %s: %d %s", path, e, err.msg);
	for (i = 0; i < ARRAY_SIZE(struct_cases); i++) {
		check_call(btf, &struct_cases[i], "BTF");
		check_call(dwarf, &struct_cases[i], "DWARF");
	}
	kfttypes__free(btf);
	kfttypes__free(dwarf);
	/* DWARF 4 places bit-fields by DW_AT_bit_offset. */
	check_dwarf_object("types_sample_dwarf4.o", "DWARF 4", false);
}

/*
 * DWARF no compiler writes (types_crafted.s): a bit-field's storage unit
 * of 0x7fffffff bytes is no unit (the member is placed at its byte, not
 * by a sum that overflows), a DW_AT_data_bit_offset past 32 bits is past
 * every capture (not cut to 8); a definition whose DW_AT_specification is
 * its declaration is a definition; a type unit's subprogram is no
 * function (its offset is .debug_types', where .debug_info has another).
 */
static void test_dwarf_crafted(void)
{
	struct kfttypes *t = kfttypes__new(8);
	const struct kftproto *p;
	struct kfttypes_error err;
	char path[PATH_MAX];
	int e;

	e = kfttypes__add_dwarf(t, object_path("types_crafted.o", path, sizeof(path)), &err);
	CHECK(e == 0, "%s: %d %s", path, e, err.msg);
	p = kfttypes__find(t, "bitfield_fn");
	CHECK(p && p->nr_params == 1 && p->params[0].type.nr_members == 3,
	      "bitfield_fn: %d parameters, %zu members", p ? p->nr_params : -1,
	      p ? p->params[0].type.nr_members : 0);
	if (p && p->params[0].type.nr_members == 3) {
		const struct kftmember *m = p->params[0].type.members;

		CHECK(m[0].bit_offset == 16, "wide_unit at bit %u, expected 16", m[0].bit_offset);
		CHECK(m[1].bit_offset == UINT_MAX, "far at bit %u, expected %u", m[1].bit_offset,
		      UINT_MAX);
		CHECK(m[2].bit_offset == 32, "plain at bit %u, expected 32", m[2].bit_offset);
	}
	p = kfttypes__find(t, "spec_fn");
	CHECK(p && p->nr_params == 1 && !strcmp(p->params[0].name, "s"),
	      "spec_fn: %s", p ? p->name : "not found");
	p = kfttypes__find(t, "tu_fn");
	CHECK(!p, "tu_fn: found as %s", p ? p->name : "");
	kfttypes__free(t);
}

/* A written prototype knows no members: the captured struct is "{...}". */
static void test_struct_written(void)
{
	static const char *const protos[] = {
		"int kft_sample_struct(const struct kft_sample_how *how, long n)",
	};
	static const struct call_case cases[] = {
		{ "kft_sample_struct", 2, { 0xffff888000005000, 1 }, { HOW(HOW_LEN) }, true, 1, 0,
		  "kft_sample_struct(how={...}, n=1) = 1" },
		{ "kft_sample_struct", 2, { 0, 1 }, { HOW_FAULT }, true, 0, 0,
		  "kft_sample_struct(how=0x0 (-EFAULT), n=1) = 0" },
	};
	struct kfttypes *t = with_prototypes(protos, ARRAY_SIZE(protos));
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		check_call(t, &cases[i], "written");
	kfttypes__free(t);
}

/*
 * A module's split BTF over its base's: its own functions (with the base's
 * types), not the base's (vmlinux's source answers for those).
 */
static void test_btf_split(void)
{
	static const struct call_case cases[] = {
		{ "types_module:kft_module_fn", 2, { 0xffff888000001000, 0x101bb }, { NONE }, true,
		  (unsigned long long)-22, 0,
		  "types_module:kft_module_fn(f=0xffff888000001000, port=443) = -EINVAL" },
		{ "kft_sample_long", 0, { 0 }, { NONE }, true, 0, 0, "kft_sample_long() = 0x0" },
	};
	struct kfttypes *t = kfttypes__new(8);
	struct kfttypes_error err;
	char path[PATH_MAX], base[PATH_MAX];
	int e;

	e = kfttypes__add_btf(t, object_path("types_module.o", path, sizeof(path)),
			      sample_path(base, sizeof(base)), &err);
	CHECK(e == 0, "%s over %s: %d %s", path, base, e, err.msg);
	check_call(t, &cases[0], "split BTF");
	check_call(t, &cases[1], "split BTF, a base's function");
	kfttypes__free(t);
}

/*
 * Modules' BTF added one by one, as a log's calls name them: each over the
 * one copy of the base's types its source already holds (the base's file
 * is not read again: gone here), and a prototype found stays the
 * function's (each module added does not make a new one of every function).
 */
static void test_btf_modules_share(void)
{
	char path[PATH_MAX], base[PATH_MAX], copy[] = "/tmp/kft-unit-base-XXXXXX";
	struct kfttypes *t = kfttypes__new(8);
	const struct kftproto *first, *again;
	struct kfttypes_error err;
	int fd, src, e, i;
	char chunk[4096];
	ssize_t n;

	fd = mkstemp(copy);
	src = open(sample_path(base, sizeof(base)), O_RDONLY);
	CHECK(fd >= 0 && src >= 0, "%s: %s", copy, strerror(errno));
	while ((n = read(src, chunk, sizeof(chunk))) > 0)
		CHECK(write(fd, chunk, (size_t)n) == n, "%s: %s", copy, strerror(errno));
	close(src);
	close(fd);
	e = kfttypes__add_btf(t, copy, NULL, &err);
	CHECK(e == 0, "%s: %d %s", copy, e, err.msg);
	first = kfttypes__find(t, "kft_sample_long");
	CHECK(first != NULL, "kft_sample_long not found");
	unlink(copy);
	for (i = 0; i < 50; i++) {
		e = kfttypes__add_btf(t, object_path("types_module.o", path, sizeof(path)), copy, &err);
		CHECK(e == 0, "module %d over the removed %s: %d %s", i, copy, e, err.msg);
		again = kfttypes__find(t, "kft_sample_long");
		CHECK(again == first, "module %d: kft_sample_long's prototype made anew", i);
		CHECK(kfttypes__find(t, "kft_module_fn") != NULL, "module %d: its function unknown", i);
	}
	kfttypes__free(t);
}

/*
 * A module's function ("module:name") is typed by that module's source,
 * or by one that is anyone's (written prototypes), never by vmlinux's or
 * another module's: their function of that name is another (a module's
 * static function may share vmlinux's name). Each is kept by its name as
 * logged: vmlinux's prototype, asked first, is not a module's.
 */
static void test_module_names(void)
{
	static const struct call_case cases[] = {
		{ "kft_sample_ints", 1, { 7 }, { NONE }, false, 0, 0,
		  "kft_sample_ints(a=7, b=?, c=?, d=?, e=?, f=?)" },
		{ "types_module:kft_sample_ints", 1, { 7 }, { NONE }, false, 0, 0,
		  "types_module:kft_sample_ints(0x7)" },
		{ "other:kft_sample_ints", 1, { 7 }, { NONE }, false, 0, 0,
		  "other:kft_sample_ints(0x7)" },
		{ "types_module:kft_module_fn", 2, { 0, 0x1bb }, { NONE }, false, 0, 0,
		  "types_module:kft_module_fn(f=0x0, port=443)" },
		{ "other:kft_module_fn", 2, { 0, 0x1bb }, { NONE }, false, 0, 0,
		  "other:kft_module_fn(0x0, 0x1bb)" },
		{ "other:only_written", 1, { 7 }, { NONE }, true, 1, 0,
		  "other:only_written(x=7) = true" },
	};
	struct kfttypes *t = kfttypes__new(8);
	struct kfttypes_error err;
	char path[PATH_MAX], base[PATH_MAX];
	size_t i;
	int e;

	e = kfttypes__add_btf(t, sample_path(base, sizeof(base)), NULL, &err);
	CHECK(e == 0, "%s: %d %s", base, e, err.msg);
	e = kfttypes__add_module_btf(t, "types_module",
				     object_path("types_module.o", path, sizeof(path)), base, &err);
	CHECK(e == 0, "%s over %s: %d %s", path, base, e, err.msg);
	e = kfttypes__add_prototype(t, "bool only_written(int x)", &err);
	CHECK(e == 0, "%d %s", e, err.msg);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		check_call(t, &cases[i], "vmlinux's and a module's BTF");
	kfttypes__free(t);
}

/*
 * Whose functions a DWARF file describes, by its name: MODULE.ko a
 * module's (kbuild's '_' for the file's '-'), a vmlinux the kernel
 * proper's. Both here are the sample's DWARF, under those names.
 */
static void test_module_names_dwarf(void)
{
	static const struct call_case cases[] = {
		{ "kft_sample_ints", 1, { 7 }, { NONE }, false, 0, 0,
		  "kft_sample_ints(a=7, b=?, c=?, d=?, e=?, f=?)" },
		{ "my_mod:kft_sample_ints", 1, { 7 }, { NONE }, false, 0, 0,
		  "my_mod:kft_sample_ints(a=7, b=?, c=?, d=?, e=?, f=?)" },
		{ "other:kft_sample_ints", 1, { 7 }, { NONE }, false, 0, 0,
		  "other:kft_sample_ints(0x7)" },
	};
	char dir[] = "/tmp/kft-unit-dwarf-XXXXXX", sample[PATH_MAX], path[PATH_MAX + 16];
	struct kfttypes *t = kfttypes__new(8);
	struct kfttypes_error err;
	const char *const names[] = { "vmlinux", "my-mod.ko" };
	size_t i;
	int e;

	CHECK(mkdtemp(dir) != NULL, "%s: %s", dir, strerror(errno));
	sample_path(sample, sizeof(sample));
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		CHECK(!symlink(sample, path), "%s: %s", path, strerror(errno));
		e = kfttypes__add_dwarf(t, path, &err);
		CHECK(e == 0, "%s: %d %s", path, e, err.msg);
		unlink(path);
	}
	rmdir(dir);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		check_call(t, &cases[i], "vmlinux's and my-mod.ko's DWARF");
	kfttypes__free(t);
}

/* A copy of the file @from at @to: false when it cannot be made. */
static bool copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	bool ok = in >= 0 && out >= 0;
	char chunk[4096];
	ssize_t n;

	while (ok && (n = read(in, chunk, sizeof(chunk))) > 0)
		ok = write(out, chunk, (size_t)n) == n;
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return ok;
}

/*
 * A row of "vmlinux:name" (the kernel proper's name where a module's
 * would be): typed by the running kernel's BTF (here a directory whose
 * vmlinux is the sample's), which is not read again as a module's over
 * itself: the directory sees no open.
 */
static void test_typedlog_vmlinux_prefix(void)
{
	static const char text[] = "--------\n"
		"       0        5     10.0 vmlinux:kft_sample_ints outer+0x8 sh 0x0 args=0x7\n";
	char dir[] = "/tmp/kft-unit-btf-XXXXXX", path[PATH_MAX + 16], base[PATH_MAX];
	char buf[256], err[256], events[4096];
	struct typedlog_files files = { 0 };
	struct kftlog *log = kftlog__parse(text, sizeof(text) - 1, "test", NULL);
	struct typedlog *tl = NULL;
	int fd = -1;

	CHECK(mkdtemp(dir) != NULL, "%s: %s", dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	CHECK(copy_file(sample_path(base, sizeof(base)), path), "%s: %s", path, strerror(errno));
	tl = typedlog__open(&files, dir, 8, err, sizeof(err));
	CHECK(tl != NULL, "typedlog__open(%s): %s", dir, err);
	fd = inotify_init1(IN_NONBLOCK);
	CHECK(fd >= 0 && inotify_add_watch(fd, dir, IN_OPEN) >= 0, "inotify: %s", strerror(errno));
	if (tl && log && log->nr == 1 && fd >= 0) {
		typedlog__format(tl, "vmlinux:kft_sample_ints", NULL, &log->rows[0], false, buf,
				 sizeof(buf));
		CHECK(!strncmp(buf, "vmlinux:kft_sample_ints(a=7, b=?", 32), "typed: %s", buf);
		CHECK(read(fd, events, sizeof(events)) < 0 && errno == EAGAIN,
		      "%s opened again for vmlinux:kft_sample_ints", path);
	}
	if (fd >= 0)
		close(fd);
	typedlog__free(tl);
	kftlog__free(log);
	unlink(path);
	rmdir(dir);
}

/* BTF first, DWARF next, written prototypes last, whatever the order added. */
static void test_source_order(void)
{
	static const struct call_case cases[] = {
		{ "kft_sample_ints", 1, { 7 }, { NONE }, false, 0, 0,
		  "kft_sample_ints(a=7, b=?, c=?, d=?, e=?, f=?)" },
		{ "only_written", 1, { 7 }, { NONE }, true, 1, 0, "only_written(x=7) = true" },
	};
	struct kfttypes *t = kfttypes__new(8);
	struct kfttypes_error err;
	char path[PATH_MAX];
	int e;

	e = kfttypes__add_prototype(t, "void kft_sample_ints(long written)", &err);
	CHECK(e == 0, "%d %s", e, err.msg);
	/* asked before it has a prototype: kept as unknown, until one is added */
	CHECK(!kfttypes__find(t, "only_written"), "only_written known");
	e = kfttypes__add_prototype(t, "bool only_written(int x)", &err);
	CHECK(e == 0, "%d %s", e, err.msg);
	/* one source added since: asked again */
	CHECK(kfttypes__find(t, "only_written"), "only_written unknown after its prototype");
	e = kfttypes__add_dwarf(t, sample_path(path, sizeof(path)), &err);
	CHECK(e == 0, "%d %s", e, err.msg);
	e = kfttypes__add_btf(t, path, NULL, &err);
	CHECK(e == 0, "%d %s", e, err.msg);
	check_call(t, &cases[0], "BTF before written");
	check_call(t, &cases[1], "written");
	kfttypes__free(t);
}

/* Files without BTF or DWARF, or none at all: an error that names them. */
static void test_source_errors(void)
{
	struct kfttypes *t = kfttypes__new(8);
	struct kfttypes_error err;
	char path[PATH_MAX];
	int e;

	e = kfttypes__add_btf(t, "/nonexistent/vmlinux", NULL, &err);
	CHECK(e == -ENOENT, "no file: %d", e);
	CHECK(strstr(err.msg, "/nonexistent/vmlinux: no BTF"), "%s", err.msg);
	e = kfttypes__add_btf(t, "/proc/self/exe", NULL, &err);
	CHECK(e < 0 && strstr(err.msg, "no BTF"), "no .BTF: %d %s", e, err.msg);
	e = kfttypes__add_btf(t, sample_path(path, sizeof(path)), "/nonexistent/base", &err);
	CHECK(e == -ENOENT && strstr(err.msg, "/nonexistent/base: no BTF"), "no base: %d %s", e,
	      err.msg);
	e = kfttypes__add_dwarf(t, "/nonexistent/vmlinux", &err);
	CHECK(e < 0 && strstr(err.msg, "/nonexistent/vmlinux: no DWARF"), "no file: %d %s", e,
	      err.msg);
	e = kfttypes__add_dwarf(t, "/proc/self/cmdline", &err);
	CHECK(e < 0 && strstr(err.msg, "no DWARF"), "not ELF: %d %s", e, err.msg);
	kfttypes__free(t);
}

/*
 * The running kernel's BTF, where there is one (a CI machine may have
 * none): two real functions, as ksnoop and bpftrace print them.
 */
static void test_vmlinux(void)
{
	static const struct call_case cases[] = {
		{ "do_sys_openat2", 3, { 0xffffff9c, 0x7ffd1000, 0xffffc90000123e48 },
		  { NONE, STR("/etc/passwd") }, true, 3, 0,
		  "do_sys_openat2(dfd=-100, filename=\"/etc/passwd\", how=0xffffc90000123e48) = 3" },
		{ "vfs_read", 4, { 0xffff888003e1c000, 0x7ffd1000, 4096, 0xffffc90000123f10 }, { NONE },
		  true, (unsigned long long)-14, KFTTYPES_HIDE_ADDRS,
		  "vfs_read(file=hidden, buf=hidden, count=4096, pos=hidden) = -EFAULT" },
	};
	struct kfttypes *t;
	struct kfttypes_error err;
	size_t i;
	int e;

	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		printf("# SKIP test_vmlinux: no /sys/kernel/btf/vmlinux\n");
		return;
	}
	t = kfttypes__new(8);
	e = kfttypes__add_btf(t, "/sys/kernel/btf/vmlinux", NULL, &err);
	CHECK(e == 0, "vmlinux: %d %s", e, err.msg);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		check_call(t, &cases[i], "vmlinux");
	kfttypes__free(t);
}

UNIT_MAIN(test_written, test_written_arm32, test_register, test_written_errors, test_written_twice, test_written_twice_many,
	  test_written_bad_input,
	  test_huge_counts, test_buffer_sizes, test_btf_sample, test_btf_split, test_btf_modules_share, test_module_names,
	  test_module_names_dwarf, test_typedlog_vmlinux_prefix, test_dwarf_sample,
	  test_source_order, test_source_errors, test_vmlinux, test_struct_members, test_dwarf_type_units, test_dwarf_crafted,
	  test_struct_written)
