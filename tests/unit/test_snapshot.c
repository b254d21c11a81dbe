// SPDX-License-Identifier: GPL-2.0
/*
 * Stack watch snapshots (-2 rows, Documentation/stacks.rst, "Stack watches")
 * in the log parser and in every kd output, on hand-made logs: left=N and
 * other sixth columns, snapshots before and after their traced call, one
 * whose rows lost their first (no left=), one in interrupt context.
 */
#include <limits.h>
#include <stdlib.h>
#include "unit.h"
#include "kdrun.h"

#define HEADER "\nKernel Instrumentation Run ID 1\n\n" \
	" Entry    Delta     PID        Function                        Caller\n" \
	"-------- -------- -------- ----------------                 ------------\n"

/*
 * pid 10: outer(0-100) > middle(5-55) > leaf(10-30), with a snapshot at
 * leaf's entry written before leaf's row (4 frames, 1234 bytes left).
 * pid 20: other(12-42) > leaf(40-42), the snapshot written after leaf's
 * row (3 frames, 900 left). At 50 on pid 10, two -2 rows without left=:
 * a snapshot whose first row is missing. In interrupt context on CPU 1, a
 * snapshot with no call at all.
 */
static const char log_watch[] = HEADER
	"       0      100     10.0  outer                            start_kernel+0x10\n"
	"       5       50     10.0  middle                           outer+0x5\n"
	"      10       -2     10.0  leaf                             middle+0x8       left=1234\n"
	"      10       -2     10.0  middle+0x8                       outer+0x5\n"
	"      10       -2     10.0  outer+0x5                        start_kernel+0x10\n"
	"      10       -2     10.0  start_kernel+0x10                0\n"
	"      10       20     10.0  leaf                             middle+0x8\n"
	"      12       30     20.1  other                            sys_x+0x3\n"
	"      40        2     20.1  leaf                             other+0x4\n"
	"      40       -2     20.1  leaf                             other+0x4        left=900\n"
	"      40       -2     20.1  other+0x4                        sys_x+0x3\n"
	"      40       -2     20.1  sys_x+0x3                        0x0\n"
	"      50       -2     10.0  middle+0x30                      outer+0x5\n"
	"      50       -2     10.0  outer+0x5                        0\n"
	"      60       -2     -1.1  irq_leaf                         handler+0x2      left=64\n";

/*
 * After the five: the comm column, then left=N on -2 rows only; a log from
 * before the comm column has left=N sixth. Anything else is ignored.
 */
static void test_left_column(void)
{
	static const struct {
		const char *row;
		int ok;
		long long left;
		const char *comm;
	} cases[] = {
		{ "1 -2 3.0 f g+0x1 sh left=4096", 1, 4096, "sh" },
		{ "1 -2 3.0 f g+0x1 sh", 1, -1, "sh" },
		{ "1 5 3.0 f g+0x1 kworker/0:1", 1, -1, "kworker/0:1" },
		{ "1 5 3.0 f g+0x1 a\\040b left=5", 1, -1, "a\\040b" },
		{ "1 -2 3.0 f g+0x1 sh left=4096 more", 1, 4096, "sh" },
		{ "1 -2 3.0 f g+0x1 sh left=x", 0, 0, "" },
		{ "1 -2 3.0 f g+0x1 left=4096", 1, 4096, NULL },
		{ "1 -2 3.0 f g+0x1 left=0", 1, 0, NULL },
		{ "1 -2 3.0 f g+0x1", 1, -1, NULL },
		{ "1 -2 3.0 f g+0x1 depth=3", 1, -1, "depth=3" },	/* the sixth: a comm */
		{ "1 -2 3.0 f g+0x1 left=4096 more", 1, 4096, NULL },
		{ "1 5 3.0 f g+0x1 left=4096", 1, -1, "left=4096" },	/* a call's comm */
		{ "1 -2 3.0 f g+0x1 left=", 0, 0, NULL },
		{ "1 -2 3.0 f g+0x1 left=-5", 0, 0, NULL },
		{ "1 -2 3.0 f g+0x1 left=12k", 0, 0, NULL },
		{ "1 -2 3.0 f g+0x1 left=99999999999999999999", 0, 0, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[256];
		struct kftlog *log;

		snprintf(text, sizeof(text), "--------\n%s\n", cases[i].row);
		log = kftlog__parse(text, strlen(text), "test", NULL);
		CHECK(log && log->nr == (size_t)cases[i].ok, "'%s': %zu rows, expected %d",
		      cases[i].row, log ? log->nr : 0, cases[i].ok);
		if (log && log->nr && cases[i].ok) {
			CHECK(log->rows[0].left == cases[i].left, "'%s': left %lld, expected %lld",
			      cases[i].row, log->rows[0].left, cases[i].left);
			CHECK(kftlog_row_starts_snapshot(&log->rows[0]) == (cases[i].left >= 0),
			      "'%s': starts a snapshot?", cases[i].row);
			CHECK(!strcmp(log->rows[0].comm, cases[i].comm ? cases[i].comm : ""),
			      "'%s': comm '%s'", cases[i].row, log->rows[0].comm);
		}
		kftlog__free(log);
	}
}

static void test_snapshots_grouped(void)
{
	struct kftlog *log = kftlog__parse(log_watch, strlen(log_watch), "test", NULL);
	struct kd_tree t;
	static const char *const frames[] = {
		"leaf", "middle+0x8", "outer+0x5", "start_kernel+0x10",
		"leaf", "other+0x4", "sys_x+0x3",
		"middle+0x30", "outer+0x5",
		"irq_leaf", "handler+0x2",
	};
	size_t i;

	CHECK(kd_tree_build(&t, log, NULL) == 0, "build");
	CHECK(t.nr == 5 && t.nr_snaps == 4, "%zu calls, %zu snapshots: expected 5, 4", t.nr,
	      t.nr_snaps);
	CHECK(t.nr_frames == sizeof(frames) / sizeof(frames[0]), "%zu frames", t.nr_frames);
	for (i = 0; i < t.nr_frames && i < sizeof(frames) / sizeof(frames[0]); i++)
		CHECK_STR(t.frames[i], frames[i], "frame");
	/* Owners: leaf at 10 (call 2), leaf at 40 (call 4); shown before them. */
	CHECK(t.snaps[0].before == 2 && t.snaps[0].depth == 2 && t.snaps[0].parent == 1,
	      "snapshot 0: before %ld depth %d parent %ld", t.snaps[0].before,
	      t.snaps[0].depth, t.snaps[0].parent);
	CHECK(t.snaps[1].before == 4 && t.snaps[1].depth == 1 && t.snaps[1].parent == 3,
	      "snapshot 1: before %ld depth %d parent %ld", t.snaps[1].before,
	      t.snaps[1].depth, t.snaps[1].parent);
	/* At 50, in middle (5-55) in outer: depth 2, after every call. */
	CHECK(t.snaps[2].before == 5 && t.snaps[2].depth == 2 && t.snaps[2].row->left == -1,
	      "snapshot 2: before %ld depth %d", t.snaps[2].before, t.snaps[2].depth);
	CHECK(t.snaps[3].thread_first == LONG_MAX && t.snaps[3].depth == 0,
	      "the irq snapshot has no thread of calls");
	kd_tree_free(&t);
	kftlog__free(log);
}

static void test_summary_lists_snapshots(void)
{
	struct kd_params p = kd_params_of(KD_SUMMARY);
	char *out = kd_run(log_watch, &p, NULL);

	CHECK_STR(out,
		"Function                            Count     Time  Average    Local\n"
		"----------------------------------- ----- -------- -------- --------\n"
		"outer                                   1      100      100       50\n"
		"middle                                  1       50       50       30\n"
		"other                                   1       30       30       28\n"
		"leaf                                    2       22       11       22\n"
		"\n"
		"Stack snapshots: 4\n"
		"      Time      Pid     Left Depth Function\n"
		"---------- -------- -------- ----- -----------------------------------\n"
		"        10     10.0     1234     4 leaf\n"
		"        40     20.1      900     3 leaf\n"
		"        50     10.0        -     2 middle\n"
		"        60     -1.1       64     2 irq_leaf\n",
		"summary: snapshots are no calls, listed after the table");
	free(out);
}

static void test_calltree_shows_frames(void)
{
	struct kd_params p = kd_params_of(KD_CALLTREE);
	char *out;

	p.long_fields = 1;
	out = kd_run(log_watch, &p, NULL);
	CHECK_STR(out,
		" Entry      Duration   Local          Pid Trace\n"
		"---------- ---------- ---------- -------- ---------------------------------\n"
		"         0        100         50     10.0 outer\n"
		"         5         50         30     10.0 |  middle\n"
		"        10          -          -     10.0 |  |  == stack snapshot, 1234 bytes left ==\n"
		"                                          |  |  #0 leaf\n"
		"                                          |  |  #1 middle+0x8\n"
		"                                          |  |  #2 outer+0x5\n"
		"                                          |  |  #3 start_kernel+0x10\n"
		"        10         20         20     10.0 |  |  leaf\n"
		"        50          -          -     10.0 |  |  == stack snapshot ==\n"
		"                                          |  |  #0 middle+0x30\n"
		"                                          |  |  #1 outer+0x5\n"
		"        12         30         28     20.1 other\n"
		"        40          -          -     20.1 |  == stack snapshot, 900 bytes left ==\n"
		"                                          |  #0 leaf\n"
		"                                          |  #1 other+0x4\n"
		"                                          |  #2 sys_x+0x3\n"
		"        40          2          2     20.1 |  leaf\n"
		"        60          -          -     -1.1 == stack snapshot, 64 bytes left ==\n"
		"                                          #0 irq_leaf\n"
		"                                          #1 handler+0x2\n",
		"calltree -l: each snapshot before its traced call, or where its time falls");
	free(out);
}

static void test_calltree_interlaced_and_depth(void)
{
	struct kd_params p = kd_params_of(KD_CALLTREE);
	char *out;

	p.interlace = 1;
	p.max_depth = 2;
	p.name_width = 6;
	out = kd_run(log_watch, &p, NULL);
	CHECK_STR(out,
		"Trace\n"
		"---------------------------------\n"
		"* outer\n"
		"* |  middle\n"
		"+ other\n"
		"+ |  == stack snapshot, 900 bytes left ==\n"
		"+ |  #0 leaf\n"
		"+ |  #1 other+\n"
		"+ |  #2 sys_x+\n"
		"+ |  leaf\n"
		"# == stack snapshot, 64 bytes left ==\n"
		"# #0 irq_le\n"
		"# #1 handle\n",
		"calltree -i -d 2 -m 6: depth 2 hidden, frames cut to the width");
	free(out);
}

static void test_folded_calls_or_snapshots(void)
{
	struct kd_params p = kd_params_of(KD_FOLDED);
	char *out = kd_run(log_watch, &p, NULL);

	CHECK_STR(out,
		"other 28\n"
		"other;leaf 2\n"
		"outer 50\n"
		"outer;middle 30\n"
		"outer;middle;leaf 20\n",
		"folded: calls only, snapshots are no calls");
	free(out);
	p.snapshots = 1;
	out = kd_run(log_watch, &p, NULL);
	CHECK_STR(out,
		"handler;irq_leaf 1\n"
		"outer;middle 1\n"
		"start_kernel;outer;middle;leaf 1\n"
		"sys_x;other;leaf 1\n",
		"folded --snapshots: root first, functions only, one each");
	free(out);
	/* The same stack twice: one line, weight 2. */
	out = kd_run(HEADER "1 -2 1.0 f g+0x2 left=10\n1 -2 1.0 g+0x2 0\n"
		      "2 -2 1.0 f g+0x4 left=8\n2 -2 1.0 g+0x4 0\n", &p, NULL);
	CHECK_STR(out, "g;f 2\n", "identical snapshots summed");
	free(out);
}

static void test_other_outputs_ignore_snapshots(void)
{
	struct kd_params p = kd_params_of(KD_JSON);
	char *out = kd_run(log_watch, &p, NULL);

	CHECK(out && !strstr(out, "irq_leaf") && !strstr(out, "start_kernel\""),
	      "json: no event for a snapshot:\n%s", out);
	free(out);
	p = kd_params_of(KD_SVG);
	out = kd_run(log_watch, &p, NULL);
	CHECK(out && !strstr(out, "irq_leaf") && strstr(out, "</svg>"), "svg: %s", out);
	free(out);
	p = kd_params_of(KD_FLAMEGRAPH);
	out = kd_run(log_watch, &p, NULL);
	CHECK(out && strstr(out, "data-kft-frames=\"6\"") && strstr(out, "data-kft-unit=\"us\""),
	      "flamegraph of the calls: all, outer, middle, leaf, other, leaf:\n%.400s", out);
	free(out);
	p.snapshots = 1;
	out = kd_run(log_watch, &p, NULL);
	CHECK(out && strstr(out, "data-kft-total=\"4\"") &&
	      strstr(out, "data-kft-unit=\"snapshots\""), "flamegraph --snapshots:\n%.400s", out);
	free(out);
}

UNIT_MAIN(test_left_column, test_snapshots_grouped, test_summary_lists_snapshots,
	  test_calltree_shows_frames, test_calltree_interlaced_and_depth,
	  test_folded_calls_or_snapshots, test_other_outputs_ignore_snapshots)
