// SPDX-License-Identifier: GPL-2.0
/*
 * A call's arguments in kft logs (args): the word "args=V,..." after the
 * return value and offcpu's times as kftlog reads it (and ignores when
 * malformed), and kd's call tree, which shows them after the call's name;
 * the word "strN=..." of args string after it, which kd shows in place of
 * argument N. A log without the words reads as before.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "kdrun.h"

#define HEADER "\nKernel Instrumentation Run ID 1\n\nNumber of entries after filters = %d\n\n" \
	" Entry    Delta     PID        Function                        Caller              Comm             Return\n" \
	"-------- -------- -------- ----------------                 ------------        ----             ------\n"

/* outer(0-100) > leaf(10-30), each with its arguments; old_fn without. */
static const char log_args[] =
	"\nKernel Instrumentation Run ID 1\n\nNumber of entries after filters = 3\n\n"
	" Entry    Delta     PID        Function                        Caller              Comm             Return\n"
	"-------- -------- -------- ----------------                 ------------        ----             ------\n"
	"       0      100     10.0  outer    start_kernel+0x10   sh -22 args=0xffff888003e1c000,-100,0x0,hidden\n"
	"      10       20     10.0  leaf     outer+0x8           sh 0x0 oncpu=15 runnable=5 blocked=0 args=0x1,0x2,0x3,0x4\n"
	"     200        5     10.0  old_fn   start_kernel+0x20   sh 0x0\n"
	"     300        5     10.0  open_fn  start_kernel+0x30   sh 0x3 args=-100,0x7ffd5c3b1e40,0x0 str2=\"/etc/a\\x20b\"\n"
	"     400        5     10.0  open_fn  start_kernel+0x30   sh 0x3 oncpu=5 runnable=0 blocked=0 args=-100,0x0,0x0 str2=(fault) cut\n"
	"     500        5     10.0  open_fn  start_kernel+0x30   sh 0x3 args=-100,0x1,0x0 str2=\"a\"b\"\n"
	"     600        5     10.0  open_fn  start_kernel+0x30   sh 0x3 args=-100,hidden,0x0 str2=hidden\n";

static void test_word_read(void)
{
	struct kftlog *log = kftlog__parse(log_args, strlen(log_args), "test", NULL);

	CHECK(log->nr == 7 && log->scan.malformed == 0, "%zu rows, %zu malformed", log->nr,
	      log->scan.malformed);
	CHECK_STR(log->rows[0].args, "0xffff888003e1c000,-100,0x0,hidden", "row 0's args");
	CHECK_STR(log->rows[1].args, "0x1,0x2,0x3,0x4", "row 1's args, after offcpu's");
	CHECK(log->rows[1].has_sched && log->rows[1].oncpu == 15, "row 1 keeps its offcpu times");
	CHECK_STR(log->rows[2].args, "", "a row without args");
	CHECK(log->rows[0].ret == KFTLOG_RET_ERROR && log->rows[0].ret_error == -22,
	      "row 0's return value");
	CHECK(!log->rows[0].str_arg && !*log->rows[0].str, "row 0: no string");
	CHECK(log->rows[3].str_arg == 2, "row 3: the string of argument %d", log->rows[3].str_arg);
	CHECK_STR(log->rows[3].str, "\"/etc/a\\x20b\"", "row 3's string");
	CHECK_STR(log->rows[4].str, "(fault)", "row 4's fault, after offcpu's, before cut");
	CHECK(log->rows[4].cut && log->rows[4].has_sched, "row 4 keeps its other words");
	CHECK(!log->rows[5].str_arg && !*log->rows[5].str, "row 5: a malformed string is none");
	CHECK(log->rows[6].str_arg == 2, "row 6: the hidden string of argument %d",
	      log->rows[6].str_arg);
	CHECK_STR(log->rows[6].str, "hidden", "row 6's string, hidden from the reader");
	kftlog__free(log);
}

/* What the module never writes is no args word: the row is read without. */
static void test_word_refused(void)
{
	static const char *const bad[] = {
		"args=", "args=,", "args=0x1,", "args=,0x1", "args=0x1,,0x2", "args=-",
		"args=22", "args=0xg", "args=0x1;0x2", "args", "argz=0x1",
	};
	static const char *const good[] = { "args=0x0", "args=-4095,hidden,0xffffffffffffffff" };
	char text[512];
	struct kftlog *log;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), HEADER "  0  5  10.0  f  g+0x1  sh 0x0 %s\n", 1, bad[i]);
		log = kftlog__parse(text, strlen(text), "test", NULL);
		CHECK(log->nr == 1 && !log->rows[0].args[0], "'%s' read as args: '%s'", bad[i],
		      log->nr ? log->rows[0].args : "(no row)");
		kftlog__free(log);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(text, sizeof(text), HEADER "  0  5  10.0  f  g+0x1  sh 0x0 %s\n", 1, good[i]);
		log = kftlog__parse(text, strlen(text), "test", NULL);
		CHECK(log->nr == 1 && !strcmp(log->rows[0].args, good[i] + 5), "'%s' not read",
		      good[i]);
		kftlog__free(log);
	}
}

/* kd -c: each call with its arguments, comma and blank between them. */
/*
 * The kernel's word, from the first row's address written as a number:
 * 8 digits a 32-bit kernel's, 16 a 64-bit one's; symbols say nothing, and
 * a number of another width (a hand-written one) neither.
 */
static void test_word_bytes(void)
{
	static const struct {
		const char *func, *caller;
		unsigned int bytes;
	} cases[] = {
		{ "f", "0xc0101234", 4 },
		{ "0xc0101000", "g+0x1", 4 },
		{ "f", "0xffffffff81001234", 8 },
		{ "f", "g+0x1", 0 },
		{ "f", "0x1234", 0 },
		{ "f", "0xc010123g", 0 },
	};
	char text[512];
	struct kftlog *log;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), HEADER "  0  5  10.0  %s  %s  sh 0x0\n", 1,
			 cases[i].func, cases[i].caller);
		log = kftlog__parse(text, strlen(text), "test", NULL);
		CHECK(log->nr == 1 && log->scan.word_bytes == cases[i].bytes,
		      "%s %s: word %u, want %u", cases[i].func, cases[i].caller,
		      log->scan.word_bytes, cases[i].bytes);
		kftlog__free(log);
	}
}

static void test_calltree(void)
{
	struct kd_params p = { .mode = KD_CALLTREE, .max_depth = 20, .name_width = 40 };
	char *out = kd_run(log_args, &p, NULL);

	CHECK(out && strstr(out, "\nouter(0xffff888003e1c000, -100, 0x0, hidden) = -22 EINVAL\n"),
	      "outer: %s", out ? out : "(null)");
	CHECK(out && strstr(out, "\n|  leaf(0x1, 0x2, 0x3, 0x4)\n"), "leaf: %s", out ? out : "(null)");
	CHECK(out && strstr(out, "\nold_fn\n"), "old_fn: %s", out ? out : "(null)");
	/* args string: the string in place of the pointer, as the log has it. */
	CHECK(out && strstr(out, "\nopen_fn(-100, \"/etc/a\\x20b\", 0x0)\n"), "open_fn: %s",
	      out ? out : "(null)");
	CHECK(out && strstr(out, "\nopen_fn(-100, (fault), 0x0) (cut"), "open_fn (fault): %s",
	      out ? out : "(null)");
	/* A string hidden from the reader, as its pointer is. */
	CHECK(out && strstr(out, "\nopen_fn(-100, hidden, 0x0)\n"), "open_fn (hidden): %s",
	      out ? out : "(null)");
	/* (A malformed string word is none: the pointer shows.) */
	CHECK(out && strstr(out, "\nopen_fn(-100, 0x1, 0x0)\n"), "open_fn (malformed): %s",
	      out ? out : "(null)");
	free(out);
}

UNIT_MAIN(test_word_read, test_word_refused, test_word_bytes, test_calltree)
