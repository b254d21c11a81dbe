// SPDX-License-Identifier: GPL-2.0
/*
 * A kft log's calls printed typed (typedlog.h, kftrow.h): each row's args
 * word read into registers (errors, hex, "hidden"; a malformed value
 * ends them), its return value, and the text typedlog__format prints
 * with written prototypes: hidden values, a void function's return value
 * left out, a row without arguments, a function no source knows (its
 * return value only when an error, unless every one is asked for); the
 * refusals of --proto's files with their line and column. (Addresses
 * other than zero print as the reader's rights say: tests/tools/types
 * checks both.)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "kftlog.h"
#include "kftparse.h"
#include "kftrow.h"
#include "typedlog.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A log of rows "FUNC RETURN [args=...]", each at entry 0, pid 10. */
static struct kftlog *log_of(const char *const *rows, size_t n)
{
	char text[4096];
	size_t o, i;

	o = (size_t)snprintf(text, sizeof(text), "\nKernel Instrumentation Run ID 1\n\n"
			     "Number of entries after filters = %zu\n\n"
			     " Entry    Delta     PID        Function    Caller   Comm   Return\n"
			     "-------- -------- -------- ------------ ------------ ---- ------\n",
			     n);
	for (i = 0; i < n; i++)
		o += (size_t)snprintf(text + o, sizeof(text) - o, "%8zu %8d %8s %s\n", i * 10, 5,
				      "10.0", rows[i]);
	return kftlog__parse(text, o, "test", NULL);
}

static void test_row_values(void)
{
	static const char *const rows[] = {
		"f outer+0x8 sh -22 args=0xffff888003e1c000,-100,0x0,hidden",
		"g outer+0x8 sh hidden args=0x1,0xg,0x3",
		"h outer+0x8 sh 0x7",
	};
	struct kftlog *log = log_of(rows, ARRAY_SIZE(rows));
	unsigned long long regs[KFTTYPES_MAX_ARGS];
	struct kfttypes_call call;

	CHECK(log && log->nr == 3, "3 rows: %zu", log ? log->nr : 0);
	if (!log || log->nr != 3)
		return;
	kftrow__call(&log->rows[0], regs, &call);
	CHECK(call.nr_args == 4 && regs[0] == 0xffff888003e1c000ULL &&
	      regs[1] == (unsigned long long)-100 && regs[2] == 0, "row 0: %d args", call.nr_args);
	CHECK(call.hidden == 1u << 3, "row 0: hidden %#x", call.hidden);
	CHECK(call.has_ret && call.ret == (unsigned long long)-22, "row 0's return value");
	kftrow__call(&log->rows[1], regs, &call);
	/* (kftlog keeps no malformed args word: the row has none.) */
	CHECK(call.nr_args <= 1, "row 1: %d args before the malformed one", call.nr_args);
	CHECK(call.has_ret && (call.hidden & KFTTYPES_RET_HIDDEN), "row 1's hidden return value");
	kftrow__call(&log->rows[2], regs, &call);
	CHECK(call.nr_args == 0 && call.has_ret && call.ret == 7, "row 2: no args, returned 7");
	kftlog__free(log);
}

/* A file of text[0..n) in the test's temporary directory: its path in buf. */
static const char *file_of_bytes(const char *text, size_t n, char *buf, size_t len)
{
	FILE *f;

	snprintf(buf, len, "/tmp/test_typedlog.%d.protos", getpid());
	f = fopen(buf, "w");
	CHECK(f && fwrite(text, 1, n, f) == n && !fclose(f), "%s written", buf);
	return buf;
}

static const char *file_of(const char *text, char *buf, size_t len)
{
	return file_of_bytes(text, strlen(text), buf, len);
}

/* typedlog__open of a --proto file of text[0..n). */
static struct typedlog *open_proto_bytes(const char *text, size_t n, char *err, size_t errlen)
{
	struct typedlog_files files = { 0 };
	char path[128];
	struct typedlog *tl;

	err[0] = '\0';
	CHECK(!typedlog_files__add(&files, TYPEDLOG_PROTO, file_of_bytes(text, n, path,
				   sizeof(path)), err, errlen), "added");
	/* No BTF directory: only the prototypes. */
	tl = typedlog__open(&files, "/nonexistent", 0, err, errlen);
	unlink(path);
	return tl;
}

static struct typedlog *open_protos(const char *text, char *err, size_t errlen)
{
	return open_proto_bytes(text, strlen(text), err, errlen);
}

static void test_format(void)
{
	static const char *const rows[] = {
		"f outer+0x8 sh -22 args=0x0,-100,0x0,hidden",
		"v outer+0x8 sh 0x3 args=0x1,0x2",
		"v outer+0x8 sh 0x3",
		"f outer+0x8 sh 0x7",
		"unknown outer+0x8 sh 0x7 args=0x1",
		"unknown outer+0x8 sh -2 args=0x1",
		"mod:f outer+0x8 sh hidden args=0x0,0x2,0x3,0x0",
		"f outer+0x8 sh 0x0 args=0x0,0x1,0x0,0xffff888003e1c000 str4=\"/etc/a\\x20b\\t\\\"\\\\\"",
		"f outer+0x8 sh 0x0 args=0x0,0x1,0x0,0xffff888003e1c000 str4=\"abc\"...",
		"f outer+0x8 sh 0x0 args=0x0,0x1,0x0,0x10 str4=(fault)",
		"f outer+0x8 sh 0x0 args=0x0,0x1,0x0,0x10 str2=\"ab\"",
	};
	static const char *const want[] = {
		"f(p=0x0, n=-100, b=false, s=hidden) = -EINVAL",
		"v(x=1)",
		"v",
		"f = 7",
		"unknown(0x1)",
		"unknown(0x1) = -ENOENT",
		"mod:f(p=0x0, n=2, b=true, s=0x0) = hidden",
		"f(p=0x0, n=1, b=false, s=\"/etc/a b\\t\\\"\\\\\") = 0",
		"f(p=0x0, n=1, b=false, s=\"abc\"...) = 0",
		"f(p=0x0, n=1, b=false, s=0x10 (-EFAULT)) = 0",
		"f(p=0x0, n=1, b=false, s=0x10) = 0",
	};
	struct kftlog *log = log_of(rows, ARRAY_SIZE(rows));
	char err[256], buf[256];
	/* (The last: a string kept of an int argument is not printed for it.) */
	struct typedlog *tl = open_protos("# protos\nint f(void *p, int n, bool b, char *s)\n"
					  "\nvoid v(int x)\n", err, sizeof(err));
	size_t i;

	CHECK(tl, "opened: %s", tl ? "" : err);
	if (!tl || !log) {
		typedlog__free(tl);
		kftlog__free(log);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		size_t n = typedlog__format(tl, log->rows[i].func, NULL, &log->rows[i], false,
					    buf, sizeof(buf));

		CHECK(n == strlen(want[i]), "row %zu: %zu for %s", i, n, buf);
		CHECK_STR(buf, want[i], rows[i]);
	}
	typedlog__format(tl, log->rows[4].func, NULL, &log->rows[4], true, buf, sizeof(buf));
	CHECK_STR(buf, "unknown(0x1) = 0x7", "every return value");
	typedlog__format(tl, "f", "f-cut", &log->rows[3], false, buf, sizeof(buf));
	CHECK_STR(buf, "f-cut = 7", "shown as another name");
	typedlog__free(tl);
	kftlog__free(log);
}

/*
 * Prototypes that do not parse, by line and column: every byte of a line
 * is the parser's, so a NUL byte in it is said where it is, and a
 * carriage return inside it does not end it (only a newline does, with
 * one carriage return before it).
 */
static void test_proto_errors(void)
{
	static const struct {
		const char *text;
		size_t len;	/* 0: strlen(text) */
		const char *err;
	} cases[] = {
		{ "int f(int x)\nint g(frob x)\n", 0, ":2: column 7: unknown type 'frob'" },
		{ "int f(int x)\n\nint f(int y)\n", 0, ":3: f has a prototype already" },
		{ "int f(int x[4])", 0, ":1: column 12: an array: write a pointer" },
		{ "int f(int a)\0junk\n", 18, ":1: column 13: a NUL byte" },
		{ "int f(int a)\n  \0 x\n", 19, ":2: column 3: a NUL byte" },
		{ "int h(int a)\0 garbage (", 23, ":1: column 13: a NUL byte" },
		{ "int g(long x)\r; int garbage((\n", 0,
		  ":1: column 17: expected the end after ')', not 'int'" },
	};
	char err[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t len = cases[i].len ? cases[i].len : strlen(cases[i].text);
		struct typedlog *tl = open_proto_bytes(cases[i].text, len, err, sizeof(err));
		const char *at = strstr(err, ".protos");

		CHECK(!tl, "%s: refused", cases[i].text);
		CHECK(at && !strcmp(at + 7, cases[i].err), "%s: '%s', not '%s'", cases[i].text, err,
		      cases[i].err);
		typedlog__free(tl);
	}
}

/*
 * A line of KFTPARSE_MAX_LEN bytes reads, with a newline or a carriage
 * return and a newline after it; one byte more is too long.
 */
static void test_proto_longest(void)
{
	static const char *const ends[] = { "\n", "\r\n", "" };
	char text[KFTPARSE_MAX_LEN + 8], err[256];
	struct typedlog *tl;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		memset(text, ' ', KFTPARSE_MAX_LEN);
		memcpy(text, "int f(int x", 11);
		text[KFTPARSE_MAX_LEN - 1] = ')';
		strcpy(text + KFTPARSE_MAX_LEN, ends[i]);
		tl = open_protos(text, err, sizeof(err));
		CHECK(tl, "%d bytes and '%s': %s", KFTPARSE_MAX_LEN, ends[i], tl ? "" : err);
		typedlog__free(tl);
	}
	memset(text, ' ', KFTPARSE_MAX_LEN + 1);
	memcpy(text, "int f(int x", 11);
	strcpy(text + KFTPARSE_MAX_LEN, ")\r\n");
	tl = open_protos(text, err, sizeof(err));
	CHECK(!tl && strstr(err, ".protos:1: longer than 1024 bytes"), "one byte more: %s",
	      tl ? "read" : err);
	typedlog__free(tl);
}

static void test_no_source(void)
{
	struct typedlog_files files = { 0 };
	char err[256];
	int i;

	CHECK(!typedlog__open(&files, "/nonexistent", 0, err, sizeof(err)), "no source refused");
	CHECK(strstr(err, "no types: /nonexistent/vmlinux") != NULL, "%s", err);
	for (i = 0; i < TYPEDLOG_MAX_FILES; i++)
		typedlog_files__add(&files, TYPEDLOG_BTF, "x", err, sizeof(err));
	CHECK(typedlog_files__add(&files, TYPEDLOG_BTF, "x", err, sizeof(err)) == -1 &&
	      !strcmp(err, "--btf: at most 64 files"), "%s", err);
}

/*
 * This test links the BTF source's stub (nobtf.c), as a cross build: the
 * running kernel's BTF is then passed over when prototypes are named,
 * and its refusal said when nothing else is.
 */
static void test_btf_unreadable(void)
{
	struct typedlog_files files = { 0 };
	char dir[] = "/tmp/test_typedlog.XXXXXX", vmlinux[64], protos[128], err[256];
	struct typedlog *tl;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", dir);
	f = fopen(vmlinux, "w");
	CHECK(f && !fclose(f), "%s", vmlinux);
	tl = typedlog__open(&files, dir, 0, err, sizeof(err));
	CHECK(!tl && strstr(err, "built without libbpf"), "alone: %s", err);
	typedlog__free(tl);
	file_of("int f(int x)\n", protos, sizeof(protos));
	CHECK(!typedlog_files__add(&files, TYPEDLOG_PROTO, protos, err, sizeof(err)), "added");
	tl = typedlog__open(&files, dir, 0, err, sizeof(err));
	CHECK(tl != NULL, "with --proto: %s", tl ? "" : err);
	typedlog__free(tl);
	unlink(protos);
	unlink(vmlinux);
	rmdir(dir);
}

/*
 * args string: a string as the module writes one, back into its bytes;
 * what it never writes is refused.
 */
static void test_str_bytes(void)
{
	static const struct {
		const char *text, *bytes;
		int n;
		bool cut;
	} cases[] = {
		{ "\"/etc/passwd\"", "/etc/passwd", 11, false },
		{ "\"\"", "", 0, false },
		{ "\"a\\x20b\\x01\\n\\t\\\"\\\\\"", "a b\x01\n\t\"\\", 8, false },
		{ "\"abc\"...", "abc", 3, true },
		{ "(fault)", NULL, -1, false },
		{ "\"abc", NULL, -1, false },
		{ "abc\"", NULL, -1, false },
		{ "\"abc\"..", NULL, -1, false },
		{ "\"a\\qb\"", NULL, -1, false },
		{ "\"a\\x0\"", NULL, -1, false },
		{ "\"a\\x00\"", NULL, -1, false },
		{ "\"abcd\"", NULL, -1, false },	/* longer than the room below */
	};
	char bytes[16];
	size_t i;
	bool cut;
	int n;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		cut = false;
		n = kftrow__str_bytes(cases[i].text, bytes,
				      i == ARRAY_SIZE(cases) - 1 ? 3 : sizeof(bytes), &cut);
		CHECK(n == cases[i].n, "%s: %d bytes, want %d", cases[i].text, n, cases[i].n);
		if (n >= 0 && n == cases[i].n)
			CHECK(!memcmp(bytes, cases[i].bytes, (size_t)n) && cut == cases[i].cut,
			      "%s: bytes or cut (%d) wrong", cases[i].text, cut);
	}
}

/*
 * args struct's memN= word: its bytes, a fault or hidden, as a capture of
 * a struct; a malformed word is none (the pointer prints).
 */
static void test_mem_word(void)
{
	static const char *const rows[] = {
		"f outer+0x8 sh 0x0 args=0x1,0xffff888000001000 mem2=0080ff",
		"f outer+0x8 sh 0x0 args=0x1,0x0 mem2=(fault)",
		"f outer+0x8 sh 0x0 args=0x1,hidden mem2=hidden",
		"f outer+0x8 sh 0x0 args=0x1,0x2 mem2=008",
		"f outer+0x8 sh 0x0 args=0x1,0x2 mem2=00FF",
		"f outer+0x8 sh 0x0 args=0x1,0x2 mem9=00",
	};
	struct kftlog *log = log_of(rows, ARRAY_SIZE(rows));
	unsigned long long regs[KFTTYPES_MAX_ARGS];
	struct kfttypes_call call;
	struct kftrow_str s;
	char text[128];
	size_t i;

	CHECK(log && log->nr == ARRAY_SIZE(rows), "rows: %zu", log ? log->nr : 0);
	if (!log || log->nr != ARRAY_SIZE(rows))
		return;
	kftrow__call(&log->rows[0], regs, &call);
	kftrow__captures(&log->rows[0], &s, &call);
	CHECK(log->rows[0].str_mem && log->rows[0].str_arg == 2, "row 0: mem %d, arg %d",
	      log->rows[0].str_mem, log->rows[0].str_arg);
	CHECK(call.captures && call.captures[1].is_struct && call.captures[1].len == 3 &&
	      !memcmp(call.captures[1].bytes, "\x00\x80\xff", 3), "row 0: the struct's bytes");
	/* Untyped (kd -c), the struct's pointer stays: a string would take its place. */
	kftrow__args_text(&log->rows[0], text, sizeof(text));
	CHECK_STR(text, "(0x1, 0xffff888000001000)", "row 0 untyped");
	kftrow__call(&log->rows[1], regs, &call);
	kftrow__captures(&log->rows[1], &s, &call);
	CHECK(call.captures && call.captures[1].is_struct && call.captures[1].error == -EFAULT,
	      "row 1: a fault");
	kftrow__call(&log->rows[2], regs, &call);
	kftrow__captures(&log->rows[2], &s, &call);
	CHECK(!call.captures, "row 2: hidden, no capture");
	for (i = 3; i < ARRAY_SIZE(rows); i++)
		CHECK(!log->rows[i].str_arg && !*log->rows[i].str, "'%s': read as a mem word",
		      rows[i]);
	kftlog__free(log);
}

UNIT_MAIN(test_row_values, test_format, test_str_bytes, test_proto_errors,
	  test_proto_longest, test_no_source, test_btf_unreadable,
	  test_mem_word)
