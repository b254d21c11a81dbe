// SPDX-License-Identifier: GPL-2.0
/*
 * Return values in kft logs: the RETURN column as kftlog reads it (and
 * refuses), the error names kd gives them (against the C library's for
 * the generic numbers), and what kd's summary, call tree and JSON make of
 * them; a log without the column reads and shows as before.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "errname.h"
#include "kdrun.h"

#define HEADER "\nKernel Instrumentation Run ID 1\n\nNumber of entries after filters = %d\n\n" \
	" Entry    Delta     PID        Function                        Caller              Comm             Return\n" \
	"-------- -------- -------- ----------------                 ------------        ----             ------\n"

/* outer(0-100, -22) > middle(5-55, -22) > leaf(10-30, a pointer); an
 * interrupt's irq_fn (0); open_fn, never returned (-); a hidden value. */
static const char log_ret[] =
	"\nKernel Instrumentation Run ID 1\n\nNumber of entries after filters = 6\n\n"
	" Entry    Delta     PID        Function                        Caller              Comm             Return\n"
	"-------- -------- -------- ----------------                 ------------        ----             ------\n"
	"       0      100     10.0  outer                            start_kernel+0x10   sh -22\n"
	"       5       50     10.0  middle                           outer+0x5           sh -22\n"
	"      10       20     10.0  leaf                             middle+0x8          sh 0xffff888003e1c000\n"
	"      30       10     -1.0  irq_fn                           common_irq+0x2      - 0x0\n"
	"      60       -1     10.0  open_fn                          outer+0x9           sh -\n"
	"      70        1     10.0  secret                           outer+0xa           sh hidden\n";

static char *run(const char *text, enum kd_mode mode, const char *fields)
{
	struct kd_params p = { .mode = mode, .max_depth = 20, .name_width = 40, .fields = fields };

	return kd_run(text, &p, NULL);
}

static void test_column_read(void)
{
	struct kftlog *log = kftlog__parse(log_ret, strlen(log_ret), "test", NULL);

	CHECK(log->nr == 6 && log->scan.malformed == 0, "%zu rows, %zu malformed", log->nr,
	      log->scan.malformed);
	CHECK(log->rows[0].ret == KFTLOG_RET_ERROR && log->rows[0].ret_error == -22,
	      "row 0: %d %lld", log->rows[0].ret, log->rows[0].ret_error);
	CHECK(log->rows[2].ret == KFTLOG_RET_VALUE &&
	      log->rows[2].ret_value == 0xffff888003e1c000ULL, "row 2: %d %llx",
	      log->rows[2].ret, log->rows[2].ret_value);
	CHECK(log->rows[3].ret == KFTLOG_RET_VALUE && log->rows[3].ret_value == 0, "row 3");
	CHECK(log->rows[4].ret == KFTLOG_RET_NONE, "row 4 (open): %d", log->rows[4].ret);
	CHECK(log->rows[5].ret == KFTLOG_RET_HIDDEN, "row 5: %d", log->rows[5].ret);
	CHECK_STR(log->rows[0].comm, "sh", "comm before the column");
	kftlog__free(log);
}

/*
 * What the module never writes there is no return value (the row is read,
 * as a word after the comm always was): each case one row.
 */
static void test_column_refused(void)
{
	/* (the module writes hex in lower case) */
	static const char *const bad[] = {
		"0x", "0xg1", "0x12345678123456789", "-0", "-4096", "22", "0XFF", "0xABC", "--1", "x",
	};
	static const char *const good[] = { "-1", "-4095", "0xffffffffffffffff", "0x0" };
	char text[512];
	struct kftlog *log;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), HEADER "  0  5  10.0  f  g+0x1  sh %s\n", 1, bad[i]);
		log = kftlog__parse(text, strlen(text), "test", NULL);
		CHECK(log->nr == 1 && log->rows[0].ret == KFTLOG_RET_NONE &&
		      !log->rows[0].ret_value && !log->rows[0].ret_error,
		      "'%s' read as a return value", bad[i]);
		kftlog__free(log);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(text, sizeof(text), HEADER "  0  5  10.0  f  g+0x1  sh %s\n", 1, good[i]);
		log = kftlog__parse(text, strlen(text), "test", NULL);
		CHECK(log->nr == 1 && log->rows[0].ret != KFTLOG_RET_NONE, "'%s' refused", good[i]);
		kftlog__free(log);
	}
}

static void test_errnames(void)
{
	long long e;

	CHECK_STR(errname(-22), "EINVAL", "-22");
	CHECK_STR(errname(-512), "ERESTARTSYS", "-512");
	CHECK_STR(errname(-517), "EPROBE_DEFER", "-517");
	CHECK_STR(errname(-524), "ENOTSUPP", "-524");
	CHECK(errname(-41) == NULL && errname(-4095) == NULL && errname(0) == NULL &&
	      errname(22) == NULL, "a number without a name has none");
	/* The generic numbers are the C library's (x86, arm and riscv share them). */
	for (e = 1; e <= 133; e++) {
		const char *libc = strerrorname_np((int)e);

		if (e == 41 || e == 58)		/* no such errno (EWOULDBLOCK, EDEADLOCK are aliases) */
			continue;
		CHECK(libc && errname(-e) && !strcmp(libc, errname(-e)), "%lld: %s, libc %s", e,
		      errname(-e) ? errname(-e) : "(none)", libc ? libc : "(none)");
	}
}

static void test_summary_counts_errors(void)
{
	char *out = run(log_ret, KD_SUMMARY, NULL);

	CHECK_STR(out,
		"Function                            Count     Time  Average    Local Errors\n"
		"----------------------------------- ----- -------- -------- -------- ------\n"
		"outer                                   1      100      100       50      1\n"
		"middle                                  1       50       50       30      1\n"
		"leaf                                    1       20       20       20      0\n"
		"irq_fn                                  1       10       10       10      0\n"
		"secret                                  1        1        1        1      0\n"
		"open_fn                                 1        0        0        0      0\n",
		"summary with the errors column");
	free(out);
	out = run(log_ret, KD_SUMMARY, "Fe");
	CHECK(out && strstr(out, "outer                                    1\n"), "-f Fe: %s", out);
	free(out);
}

static void test_calltree_shows_values(void)
{
	char *out = run(log_ret, KD_CALLTREE, NULL);

	/* Errors only, by default (a void function's register is noise). */
	CHECK_STR(out,
		"Trace\n"
		"---------------------------------\n"
		"== pid 10 (sh) ==\n"
		"outer = -22 EINVAL\n"
		"|  middle = -22 EINVAL\n"
		"|  |  leaf\n"
		"|  open_fn\n"
		"|  |  secret\n"
		"== interrupts on CPU 0 ==\n"
		"irq_fn\n",
		"call tree");
	free(out);
	out = run(log_ret, KD_CALLTREE, "r");
	CHECK_STR(out,
		"Trace\n"
		"---------------------------------\n"
		"== pid 10 (sh) ==\n"
		"outer = -22 EINVAL\n"
		"|  middle = -22 EINVAL\n"
		"|  |  leaf = 0xffff888003e1c000\n"
		"|  open_fn\n"
		"|  |  secret = hidden\n"
		"== interrupts on CPU 0 ==\n"
		"irq_fn = 0x0\n",
		"call tree, -f r");
	free(out);
	out = run(log_ret, KD_JSON, NULL);
	CHECK(out && strstr(out, "\"caller\":\"outer+0x5\",\"return\":\"-22 EINVAL\"}"),
	      "json: %s", out);
	free(out);
}

/* A log from before the column: no Errors column, no " = " in the tree. */
static void test_old_logs_unchanged(void)
{
	static const char old[] =
		"\nKernel Instrumentation Run ID 1\n\nNumber of entries after filters = 1\n\n"
		" Entry    Delta     PID        Function                        Caller\n"
		"-------- -------- -------- ----------------                 ------------\n"
		"       0      100     10.0  outer                            start_kernel+0x10  sh\n";
	char *out = run(old, KD_SUMMARY, NULL);

	CHECK(out && !strstr(out, "Errors"), "summary: %s", out);
	free(out);
	out = run(old, KD_CALLTREE, NULL);
	CHECK(out && strstr(out, "\nouter\n"), "call tree: %s", out);
	free(out);
}

/*
 * offcpu's words in the call tree: the o, q and b columns, "-" for a call
 * without them; a cut root says so.
 */
static void test_calltree_offcpu_columns(void)
{
	static const char log[] =
		"\nKernel Instrumentation Run ID 1\n\nUnits: ns\n\nNumber of entries after filters = 2\n\n"
		" Entry    Delta     PID        Function                        Caller              Comm             Return\n"
		"-------- -------- -------- ----------------                 ------------        ----             ------\n"
		"       0     1000     10.0  root                             start+0x10          sh 0x0 oncpu=400 runnable=200 blocked=400 cut\n"
		"     100      100     10.0  b                                root+0x8            sh 0x1\n";
	char *out = run(log, KD_CALLTREE, "tobq");

	CHECK(out && strstr(out, "      1000        400        400        200 root (cut: its calls did not all fit)\n"),
	      "root: %s", out ? out : "(none)");
	CHECK(out && strstr(out, "       100          -          -          - |  b\n"), "b: %s",
	      out ? out : "(none)");
	free(out);
}

UNIT_MAIN(test_column_read, test_calltree_offcpu_columns, test_column_refused, test_errnames, test_summary_counts_errors,
	  test_calltree_shows_values, test_old_logs_unchanged)
