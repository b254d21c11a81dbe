// SPDX-License-Identifier: GPL-2.0
/*
 * Wake sets (-3 rows, wakers: who woke a task that slept inside a root
 * call) in the log parser and in kd, on hand-made logs: the first row's
 * waker=, wcomm= and slept= words and their malformed variants, which rows
 * go on a set, and kd's views, which count no wake row as a call.
 */
#include <stdlib.h>
#include "unit.h"
#include "kdrun.h"

#define HEADER "\nKernel Instrumentation Run ID 1\n\n" \
	" Entry    Delta     PID        Function                        Caller              Comm\n" \
	"-------- -------- -------- ----------------                 ------------        ----\n"
#define Z "0x0000000000000000"

/*
 * pid 10: root(0-1000) > mutex_lock(100-900), asleep from 150 until
 * kworker/1:2 (pid 44) woke it from CPU 1 (three frames); root > leaf(950-
 * 970), asleep at 960 until a timer's interrupt woke it (one frame); at 980
 * a continuation row without its first. pid 20: other(200-300), with a
 * stack watch snapshot at 250.
 */
static const char log_wakes[] = HEADER
	"       0     1000     10.0  root                   start+0x10   sh 0x0\n"
	"     100      800     10.0  mutex_lock             root+0x8     sh 0x0\n"
	"     150       -3     10.1  wake_up_q+0x5d         " Z " sh waker=44 wcomm=kworker/1:2 slept=700\n"
	"     150       -3     10.1  __mutex_unlock_slowpath+0x1a2 " Z " sh\n"
	"     150       -3     10.1  mutex_unlock+0x12      " Z " sh\n"
	"     200      100     20.0  other                  sys_x+0x3    ls 0x0\n"
	"     250       -2     20.0  other+0x4              sys_x+0x3    ls left=900\n"
	"     250       -2     20.0  sys_x+0x3              0            ls\n"
	"     950       20     10.0  leaf                   root+0xc     sh 0x0\n"
	"     960       -3     10.0  hrtimer_wakeup+0x1e    " Z " sh waker=-1 wcomm=- slept=10\n"
	"     980       -3     10.0  orphan+0x1             " Z " sh\n";

/* The first row's words, and what is no wake row's. */
static void test_wake_words(void)
{
	static const struct {
		const char *row;
		int ok;
		int waker;
		const char *wcomm;
		long long slept;
		const char *comm;
	} cases[] = {
		{ "1 -3 3.1 wake_up_q+0x5d 0x0 sh waker=44 wcomm=kworker/1:2 slept=700", 1, 44,
		  "kworker/1:2", 700, "sh" },
		{ "1 -3 3.1 mutex_unlock+0x12 0x0 sh", 1, -1, "", -1, "sh" },
		{ "1 -3 3.1 hrtimer_wakeup 0x0 sh waker=-1 wcomm=- slept=0", 1, -1, "-", 0, "sh" },
		{ "1 -3 3.1 f 0x0 a\\040b waker=7 wcomm=x\\134y slept=5 more", 1, 7, "x\\134y", 5,
		  "a\\040b" },
		{ "1 -3 3.1 f 0x0 sh other", 1, -1, "", -1, "sh" },	/* a word ignored */
		{ "1 -3 3.1 f 0x0 waker=5", 1, -1, "", -1, "waker=5" },	/* a task's name */
		{ "1 -3 3 f 0x0 sh waker=4 wcomm=k slept=1", 1, 4, "k", 1, "sh" },
		{ "1 -2 3.1 f 0x0 sh waker=4 wcomm=k slept=1", 1, -1, "", -1, "sh" },
		{ "1 5 3.1 f 0x0 sh 0x0 waker=4 wcomm=k slept=1", 1, -1, "", -1, "sh" },
		{ "1 -3 3.1 f 0x0", 0, 0, NULL, 0, NULL },		/* no comm */
		{ "1 -3 -1.1 f 0x0 sh waker=4 wcomm=k slept=1", 0, 0, NULL, 0, NULL },
		{ "1 -3 -1.1 f 0x0 sh", 0, 0, NULL, 0, NULL },
		{ "1 -3 3.1 f 0x0 sh waker=44", 0, 0, NULL, 0, NULL },
		{ "1 -3 3.1 f 0x0 sh waker=44 wcomm=k", 0, 0, NULL, 0, NULL },
		{ "1 -3 3.1 f 0x0 sh waker= wcomm=k slept=1", 0, 0, NULL, 0, NULL },
		{ "1 -3 3.1 f 0x0 sh waker=-2 wcomm=k slept=1", 0, 0, NULL, 0, NULL },
		{ "1 -3 3.1 f 0x0 sh waker=x wcomm=k slept=1", 0, 0, NULL, 0, NULL },
		{ "1 -3 3.1 f 0x0 sh waker=2147483648 wcomm=k slept=1", 0, 0, NULL, 0, NULL },
		{ "1 -3 3.1 f 0x0 sh waker=4 wcomm= slept=1", 0, 0, NULL, 0, NULL },
		{ "1 -3 3.1 f 0x0 sh waker=4 wcomm=k slept=-1", 0, 0, NULL, 0, NULL },
		{ "1 -3 3.1 f 0x0 sh waker=4 wcomm=k slept=1k", 0, 0, NULL, 0, NULL },
		{ "1 -3 3.1 f 0x0 sh waker=4 slept=1 wcomm=k", 0, 0, NULL, 0, NULL },
		{ "1 -4 3.1 f 0x0 sh", 0, 0, NULL, 0, NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[256];
		struct kftlog *log;
		const struct kftlog_row *r;

		snprintf(text, sizeof(text), "--------\n%s\n", cases[i].row);
		log = kftlog__parse(text, strlen(text), "test", NULL);
		CHECK(log && log->nr == (size_t)cases[i].ok && log->scan.malformed == !cases[i].ok,
		      "'%s': %zu rows, expected %d", cases[i].row, log ? log->nr : 0, cases[i].ok);
		if (!log || !log->nr || !cases[i].ok) {
			kftlog__free(log);
			continue;
		}
		r = &log->rows[0];
		CHECK(r->waker_pid == cases[i].waker && !strcmp(r->waker_comm, cases[i].wcomm) &&
		      r->slept == cases[i].slept, "'%s': waker %d '%s' slept %lld, expected %d "
		      "'%s' %lld", cases[i].row, r->waker_pid, r->waker_comm, r->slept,
		      cases[i].waker, cases[i].wcomm, cases[i].slept);
		CHECK(kftlog_row_starts_wake(r) == (cases[i].slept >= 0), "'%s': starts a set?",
		      cases[i].row);
		CHECK_STR(r->comm, cases[i].comm, cases[i].row);
		kftlog__free(log);
	}
}

/* A set goes on with rows of its kind, time, pid and CPU that begin none. */
static void test_wake_continues(void)
{
	static const char text[] = "--------\n"
		"10 -3 3.1 a 0x0 sh waker=4 wcomm=k slept=1\n"
		"10 -3 3.1 b 0x0 sh\n"
		"10 -3 3.2 c 0x0 sh\n"
		"11 -3 3.1 d 0x0 sh\n"
		"10 -3 4.1 e 0x0 sh\n"
		"10 -2 3.1 f 0x0 sh\n"
		"10 -3 3.1 g 0x0 sh waker=5 wcomm=k slept=1\n";
	static const int continues[] = { 0, 1, 0, 0, 0, 0, 0 };
	struct kftlog *log = kftlog__parse(text, strlen(text), "test", NULL);
	size_t i;

	CHECK(log && log->nr == 7, "%zu rows", log ? log->nr : 0);
	for (i = 1; log && i < log->nr; i++)
		CHECK(kftlog_row_continues(&log->rows[0], &log->rows[i]) == continues[i],
		      "row %zu (%s) continues the set: expected %d", i, log->rows[i].func,
		      continues[i]);
	kftlog__free(log);
}

/* The log without its wake rows (a line with " -3 " in it). */
static char *without_wakes(const char *text)
{
	char *out = calloc(1, strlen(text) + 1), line[256];
	const char *s, *nl;

	for (s = text; out && *s; s = nl + 1) {
		nl = strchr(s, '\n');
		snprintf(line, sizeof(line), "%.*s", (int)(nl - s + 1), s);
		if (!strstr(line, " -3 "))
			strcat(out, line);
	}
	return out;
}

/*
 * Every view but the call tree's is the same with or without the wake rows:
 * they count no call, nest none, and fold into no stack (--snapshots folds
 * stack watches', not another task's).
 */
static void test_views_count_no_wake_row(void)
{
	static const struct { enum kd_mode mode; int snapshots; } views[] = {
		{ KD_SUMMARY, 0 }, { KD_FOLDED, 0 }, { KD_FOLDED, 1 }, { KD_JSON, 0 }, { KD_SVG, 0 },
		{ KD_TASKS, 0 }, { KD_FLAMEGRAPH, 0 }, { KD_FLAMEGRAPH, 1 },
	};
	char *plain = without_wakes(log_wakes);
	size_t i;

	for (i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		struct kd_params p = { .mode = views[i].mode, .max_depth = 20, .name_width = 40,
				       .snapshots = views[i].snapshots, .long_fields = 1 };
		char *with = kd_run(log_wakes, &p, NULL), *without = kd_run(plain, &p, NULL);

		CHECK(with && without && !strcmp(with, without),
		      "mode %d (snapshots %d): with the wake rows\n%s\nwithout\n%s",
		      views[i].mode, views[i].snapshots, with, without);
		free(with);
		free(without);
	}
	free(plain);
}

/*
 * The tree's calls are the log's calls; its snapshots the -2 rows' and the
 * wake sets, each in the call that was open when its task slept; the
 * orphan row in none.
 */
static void test_tree_places_wake_sets(void)
{
	struct kftlog *log = kftlog__parse(log_wakes, strlen(log_wakes), "test", NULL);
	struct kd_tree t;

	CHECK(log && log->nr == 11 && !log->scan.malformed, "%zu rows, %zu malformed",
	      log ? log->nr : 0, log ? log->scan.malformed : 0);
	CHECK(!kd_tree_build(&t, log, NULL), "build");
	CHECK(t.nr == 4 && t.nr_snaps == 3, "%zu calls, %zu snapshots: expected 4, 3", t.nr,
	      t.nr_snaps);
	CHECK(t.nr == 4 && t.calls[3].depth == 1 && t.calls[3].parent == 0,
	      "leaf: depth %d, parent %ld", t.calls[3].depth, t.calls[3].parent);
	CHECK(t.nr_snaps == 3 && t.snaps[0].rows == 3 && t.snaps[0].nr == 3 &&
	      t.snaps[0].parent == 1 && t.snaps[0].depth == 2 && t.snaps[0].before == 2,
	      "kworker's set: %zu rows, %zu frames, parent %ld, depth %d, before %ld",
	      t.snaps[0].rows, t.snaps[0].nr, t.snaps[0].parent, t.snaps[0].depth,
	      t.snaps[0].before);
	CHECK(t.nr_snaps == 3 && t.snaps[2].rows == 1 && t.snaps[2].parent == 3 &&
	      t.snaps[2].depth == 2, "the interrupt's set: %zu rows, parent %ld, depth %d",
	      t.snaps[2].rows, t.snaps[2].parent, t.snaps[2].depth);
	kd_tree_free(&t);
	kftlog__free(log);
}

/* kd -c: a wake set's head and the waker's frames, where its task slept. */
static void test_calltree_shows_wakers(void)
{
	struct kd_params p = { .mode = KD_CALLTREE, .max_depth = 20, .name_width = 40,
			       .fields = "etp" };
	char *out = kd_run(log_wakes, &p, NULL);

	CHECK_STR(out,
		" Entry      Duration       Pid Trace\n"
		"---------- ---------- -------- ---------------------------------\n"
		"== pid 10 (sh) ==\n"
		"         0       1000     10.0 root\n"
		"       100        800     10.0 |  mutex_lock\n"
		"       150          -     10.1 |  |  == woken by kworker/1:2 (pid 44), slept 700 us ==\n"
		"                               |  |  #0 wake_up_q+0x5d\n"
		"                               |  |  #1 __mutex_unlock_slowpath+0x1a2\n"
		"                               |  |  #2 mutex_unlock+0x12\n"
		"       950         20     10.0 |  leaf\n"
		"       960          -     10.0 |  |  == woken by an interrupt, slept 10 us ==\n"
		"                               |  |  #0 hrtimer_wakeup+0x1e\n"
		"== pid 20 (ls) ==\n"
		"       200        100     20.0 other\n"
		"       250          -     20.0 |  == stack snapshot, 900 bytes left ==\n"
		"                               |  #0 other+0x4\n"
		"                               |  #1 sys_x+0x3\n",
		"kd -c -f etp");
	free(out);
	p = (struct kd_params){ .mode = KD_CALLTREE, .max_depth = 20, .name_width = 9,
				.interlace = 1 };
	out = kd_run(log_wakes, &p, NULL);
	CHECK_STR(out,
		"Trace\n"
		"---------------------------------\n"
		"* root\n"
		"* |  mutex_loc\n"
		"* |  |  == woken by kworker/1:2 (pid 44), slept 700 us ==\n"
		"* |  |  #0 wake_up_q\n"
		"* |  |  #1 __mutex_u\n"
		"* |  |  #2 mutex_unl\n"
		"+ other\n"
		"+ |  == stack snapshot, 900 bytes left ==\n"
		"+ |  #0 other+0x4\n"
		"+ |  #1 sys_x+0x3\n"
		"* |  leaf\n"
		"* |  |  == woken by an interrupt, slept 10 us ==\n"
		"* |  |  #0 hrtimer_w\n",
		"kd -c -i -w 9: marked as their tree, frames cut to the width");
	free(out);
}

UNIT_MAIN(test_wake_words, test_wake_continues, test_views_count_no_wake_row,
	  test_tree_places_wake_sets, test_calltree_shows_wakers)
