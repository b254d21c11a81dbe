// SPDX-License-Identifier: GPL-2.0
/*
 * kd's views of offcpu's times (oncpu= runnable= blocked= on a call's
 * row), on hand-made logs whose answers are worked out by hand: the
 * summary's columns per function.
 */
#include <stdlib.h>
#include "unit.h"
#include "kdrun.h"

#define HEADER "\nKernel Instrumentation Run ID 1\n\n" \
	" Entry    Delta     PID        Function                        Caller              Comm             Return\n" \
	"-------- -------- -------- ----------------                 ------------        ----             ------\n"

/*
 * pid 10: outer(0-1000) > middle(10-710) > leaf(20-420), which slept 350
 * of middle's 500 blocked; outer > leaf(720-820), runnable 40. pid 20:
 * leaf and other without offcpu's words, spin all on the CPU.
 */
static const char log_offcpu[] = HEADER
	"       0     1000     10.0  outer     start+0x10   sh 0x0 oncpu=300 runnable=100 blocked=600\n"
	"      10      700     10.0  middle    outer+0x5    sh 0x0 oncpu=150 runnable=50 blocked=500\n"
	"      20      400     10.0  leaf      middle+0x8   sh 0x0 oncpu=50 runnable=0 blocked=350\n"
	"     720      100     10.0  leaf      outer+0x9    sh 0x0 oncpu=60 runnable=40 blocked=0\n"
	"    2000       30     20.0  leaf      sys_x+0x3    ls 0x0\n"
	"    2100       50     20.0  other     sys_x+0x3    ls -4\n"
	"    3000      500     20.0  spin      sys_x+0x3    ls 0x0 oncpu=500 runnable=0 blocked=0\n";

/* A log without offcpu's words. */
static const char log_plain[] = HEADER "0 10 1.0 a x+0x1 sh 0x0\n";

/*
 * The summary with offcpu's words: o, q and b in the default columns, -l's
 * too, "-" for a function without them (other); averages over the calls
 * with them (leaf: 2 of 3); a sort by o puts spin first, one by B leaves
 * other last. Without the words, the columns are as before, and "-" in
 * those asked for.
 */
static void test_summary_offcpu_columns(void)
{
	static const struct {
		const char *what, *log, *fields;
		char sort;
		int long_fields, top;
		const char *out;
	} cases[] = {
		{ "default", log_offcpu, NULL, 0, 0, 0,
		  "Function                            Count     Time  Average    Local   On-CPU Runnable  Blocked Errors\n"
		  "----------------------------------- ----- -------- -------- -------- -------- -------- -------- ------\n"
		  "outer                                   1     1000     1000      200      300      100      600      0\n"
		  "middle                                  1      700      700      300      150       50      500      0\n"
		  "leaf                                    3      530      176      530      110       40      350      0\n"
		  "spin                                    1      500      500      500      500        0        0      0\n"
		  "other                                   1       50       50       50        -        -        -      1\n" },
		{ "-l -n 1", log_offcpu, NULL, 0, 1, 1,
		  "Function                            Count     Time  Average    Local Sub-time Max-sub                             Ms count   On-CPU Runnable  Blocked Errors\n"
		  "----------------------------------- ----- -------- -------- -------- -------- ----------------------------------- -------- -------- -------- -------- ------\n"
		  "outer                                   1     1000     1000      200      800 middle                                     1      300      100      600      0\n" },
		{ "-f FctoOQB -s o", log_offcpu, "FctoOQB", 'o', 0, 0,
		  "Function                            Count     Time   On-CPU   Avg on-CPU Avg runnable  Avg blocked\n"
		  "----------------------------------- ----- -------- -------- ------------ ------------ ------------\n"
		  "spin                                    1      500      500          500            0            0\n"
		  "outer                                   1     1000      300          300          100          600\n"
		  "middle                                  1      700      150          150           50          500\n"
		  "leaf                                    3      530      110           55           20          175\n"
		  "other                                   1       50        -            -            -            -\n" },
		{ "-f Fb -s B", log_offcpu, "Fb", 'B', 0, 0,
		  "Function                             Blocked\n"
		  "----------------------------------- --------\n"
		  "outer                                    600\n"
		  "middle                                   500\n"
		  "leaf                                     350\n"
		  "spin                                       0\n"
		  "other                                      -\n" },
		{ "no words, default", log_plain, NULL, 0, 0, 0,
		  "Function                            Count     Time  Average    Local Errors\n"
		  "----------------------------------- ----- -------- -------- -------- ------\n"
		  "a                                       1       10       10       10      0\n" },
		{ "no words, -f FoQ", log_plain, "FoQ", 0, 0, 0,
		  "Function                              On-CPU Avg runnable\n"
		  "----------------------------------- -------- ------------\n"
		  "a                                          -            -\n" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct kd_params p = kd_params_of(KD_SUMMARY);
		char *out;

		p.fields = cases[i].fields;
		p.sort = cases[i].sort;
		p.long_fields = cases[i].long_fields;
		p.top = cases[i].top;
		out = kd_run(cases[i].log, &p, NULL);
		CHECK_STR(out, cases[i].out, cases[i].what);
		free(out);
	}
}

UNIT_MAIN(test_summary_offcpu_columns)
