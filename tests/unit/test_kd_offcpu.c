// SPDX-License-Identifier: GPL-2.0
/*
 * kd's views of offcpu's times (oncpu= runnable= blocked= on a call's
 * row), on hand-made logs whose answers are worked out by hand: the
 * summary's columns per function, and --folded --weigh, which splits each
 * call's local time and counts a sleep in the innermost call only.
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
 *
 * Local time split (weigh.c), each sleep in the innermost call only:
 *	outer	200: runnable 100-50-40 = 10, blocked 600-500-0 = 100, on-CPU 90
 *	middle	300: runnable 50-0 = 50, blocked 500-350 = 150, on-CPU 100
 *	leaf	400: blocked 350, on-CPU 50 (in middle)
 *	leaf	100: runnable 40, on-CPU 60 (in outer)
 *	leaf 30, other 50: no words, on the CPU; spin 500 on the CPU
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

static char *folded(const char *log, enum kd_weigh w)
{
	struct kd_params p = kd_params_of(KD_FOLDED);

	p.weigh = w;
	return kd_run(log, &p, NULL);
}

/* The sum of a folded output's weights, each line's last word. */
static long long folded_total(const char *out)
{
	const char *nl, *w;
	long long sum = 0;

	for (; out && (nl = strchr(out, '\n')); out = nl + 1) {
		for (w = nl; w > out && w[-1] != ' '; w--)
			;
		sum += strtoll(w, NULL, 10);
	}
	return sum;
}

/*
 * wall: each call's on-CPU part on its frame, its runnable and blocked
 * parts on frames under it; leaf's 350 asleep is under leaf only, not in
 * middle's nor outer's [blocked]. The weights add up to the local times,
 * as without --weigh.
 */
static void test_weigh_wall(void)
{
	char *out = folded(log_offcpu, KD_WEIGH_WALL), *plain = folded(log_offcpu, KD_WEIGH_LOCAL);

	CHECK_STR(out,
		"leaf 30\n"
		"other 50\n"
		"outer 90\n"
		"outer;[blocked] 100\n"
		"outer;[runnable] 10\n"
		"outer;leaf 60\n"
		"outer;leaf;[runnable] 40\n"
		"outer;middle 100\n"
		"outer;middle;[blocked] 150\n"
		"outer;middle;[runnable] 50\n"
		"outer;middle;leaf 50\n"
		"outer;middle;leaf;[blocked] 350\n"
		"spin 500\n",
		"--weigh wall");
	CHECK(folded_total(out) == 1580 && folded_total(plain) == 1580,
	      "wall %lld, local %lld: expected 1580 each", folded_total(out), folded_total(plain));
	free(out);
	free(plain);
}

/* oncpu: the frames of wall's calls alone; offcpu: its [runnable] and [blocked] alone. */
static void test_weigh_oncpu_offcpu(void)
{
	char *out = folded(log_offcpu, KD_WEIGH_ONCPU);

	CHECK_STR(out,
		"leaf 30\n"
		"other 50\n"
		"outer 90\n"
		"outer;leaf 60\n"
		"outer;middle 100\n"
		"outer;middle;leaf 50\n"
		"spin 500\n",
		"--weigh oncpu");
	free(out);
	out = folded(log_offcpu, KD_WEIGH_OFFCPU);
	CHECK_STR(out,
		"outer;[blocked] 100\n"
		"outer;[runnable] 10\n"
		"outer;leaf;[runnable] 40\n"
		"outer;middle;[blocked] 150\n"
		"outer;middle;[runnable] 50\n"
		"outer;middle;leaf;[blocked] 350\n",
		"--weigh offcpu");
	free(out);
}

/*
 * Times that do not add up (rounded, or made by hand): a's three words are
 * 120 of its 100, b's sleep is all of b; blocked is taken first, then
 * runnable from what is left, so a's frames still weigh its 50 local. c
 * says it never slept although its callee d did: c's blocked is none, not
 * less than none. An open call weighs nothing, its callee is under it.
 */
static void test_weigh_times_that_do_not_add_up(void)
{
	static const char log[] = HEADER
		"   0  100 10.0 a x+0x1 sh 0x0 oncpu=10 runnable=30 blocked=80\n"
		"  10   50 10.0 b a+0x1 sh 0x0 oncpu=0 runnable=0 blocked=50\n"
		" 200  100 10.0 c x+0x1 sh 0x0 oncpu=100 runnable=0 blocked=0\n"
		" 210   40 10.0 d c+0x1 sh 0x0 oncpu=0 runnable=0 blocked=40\n"
		" 400   -1 10.0 open x+0x1 sh -\n"
		" 410   20 10.0 e open+0x1 sh 0x0 oncpu=5 runnable=5 blocked=10\n";
	char *out = folded(log, KD_WEIGH_WALL);

	CHECK_STR(out,
		"a 0\n"
		"a;[blocked] 30\n"
		"a;[runnable] 20\n"
		"a;b 0\n"
		"a;b;[blocked] 50\n"
		"c 60\n"
		"c;d 0\n"
		"c;d;[blocked] 40\n"
		"open;e 5\n"
		"open;e;[blocked] 10\n"
		"open;e;[runnable] 5\n",
		"--weigh wall of times that do not add up");
	free(out);
}

/* Without offcpu's words every call is on the CPU: wall is the plain output. */
static void test_weigh_log_without_offcpu(void)
{
	static const char log[] = HEADER "0 10 1.0 a x+0x1 sh 0x0\n2 5 1.0 b a+0x1 sh 0x0\n";
	char *wall = folded(log, KD_WEIGH_WALL), *offcpu = folded(log, KD_WEIGH_OFFCPU);

	CHECK_STR(wall, "a 5\na;b 5\n", "--weigh wall without offcpu's times");
	CHECK_STR(offcpu, "", "--weigh offcpu without offcpu's times");
	free(wall);
	free(offcpu);
}

/* Each word of --weigh, and none: the local time alone (kd_parse_args()). */
static void test_parse_weigh(void)
{
	static const char *const words[] = {
		[KD_WEIGH_LOCAL] = NULL, [KD_WEIGH_WALL] = "wall", [KD_WEIGH_ONCPU] = "oncpu",
		[KD_WEIGH_OFFCPU] = "offcpu",
	};
	struct kd_params p;
	char err[128] = "";
	size_t w;

	for (w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
		char a0[] = "kd", a1[] = "--folded", a2[] = "--weigh", a3[16];
		char *argv[] = { a0, a1, a2, a3, NULL };
		int argc = words[w] ? 4 : 2;

		snprintf(a3, sizeof(a3), "%s", words[w] ? words[w] : "");
		CHECK(kd_parse_args(argc, argv, &p, err, sizeof(err)) == 0 && p.weigh == (enum kd_weigh)w,
		      "--weigh %s: %d (%s), expected %zu", a3, p.weigh, err, w);
	}
}

UNIT_MAIN(test_summary_offcpu_columns, test_weigh_wall, test_weigh_oncpu_offcpu,
	  test_weigh_times_that_do_not_add_up, test_weigh_log_without_offcpu, test_parse_weigh)
