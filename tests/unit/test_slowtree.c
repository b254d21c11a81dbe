// SPDX-License-Identifier: GPL-2.0
/*
 * A log of filter roots with offcpu, as kftlog reads it (the three times
 * and "cut" after the return value; other words ignored) and as kft
 * slowtrace makes trees of it (slowtree.c): a task's rows within its root
 * call's time, by depth; two tasks' trees interleaved in time kept apart;
 * a call entered the same nanosecond as its caller placed beneath it; a
 * wake set beneath the call that slept.
 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "kft.h"
#include "kftlog.h"

#define HEADER "\nKernel Instrumentation Run ID 1\n\nUnits: ns\n\n" \
	"Number of entries after filters = %d\n\n" \
	" Entry    Delta     PID        Function                        Caller              Comm             Return\n" \
	"-------- -------- -------- ----------------                 ------------        ----             ------\n"

/*
 * Task 10: root(0-1000, cut) > a(0-600, entered with it) > b(100-200);
 * root > c(700-900). Task 11: root2(50-2000) > d(60-70). Task 10 again:
 * root3(5000-6000), without the times.
 */
static const char log_trees[] =
	"\nKernel Instrumentation Run ID 1\n\nUnits: ns\n\nNumber of entries after filters = 7\n\n"
	" Entry    Delta     PID        Function                        Caller              Comm             Return\n"
	"-------- -------- -------- ----------------                 ------------        ----             ------\n"
	"       0      600     10.0  a                                root+0x5            sh 0x0 oncpu=100 runnable=200 blocked=300\n"
	"       0     1000     10.0  root                             start+0x10          sh -2 oncpu=400 runnable=200 blocked=400 cut\n"
	"      50     1950     11.1  root2                            start+0x10          ls 0x0 oncpu=1950 runnable=0 blocked=0\n"
	"      60       10     11.1  d                                root2+0x3           ls 0x0 oncpu=10 runnable=0 blocked=0\n"
	"     100      100     10.0  b                                a+0x8               sh 0x1 oncpu=100 runnable=0 blocked=0 extra\n"
	"     700      200     10.0  c                                root+0x9            sh 0x0 oncpu=200 runnable=0 blocked=0\n"
	"    5000     1000     10.0  root3                            start+0x10          sh 0x0 cut\n";

static void test_words_read(void)
{
	struct kftlog *log = kftlog__parse(log_trees, strlen(log_trees), "test", NULL);
	const struct kftlog_row *r = log->rows;

	CHECK(log->nr == 7 && !log->scan.malformed, "%zu rows, %zu malformed", log->nr,
	      log->scan.malformed);
	CHECK(r[0].has_sched && r[0].oncpu == 100 && r[0].runnable == 200 && r[0].blocked == 300 &&
	      !r[0].cut, "row 0: %d %lld %lld %lld %d", r[0].has_sched, r[0].oncpu,
	      r[0].runnable, r[0].blocked, r[0].cut);
	CHECK(r[1].has_sched && r[1].cut && r[1].ret == KFTLOG_RET_ERROR, "row 1: %d %d %d",
	      r[1].has_sched, r[1].cut, r[1].ret);
	CHECK(r[4].has_sched && !r[4].cut, "row 4 (a word after the times): %d %d",
	      r[4].has_sched, r[4].cut);
	CHECK(!r[6].has_sched && r[6].cut, "row 6 (cut, no times): %d %d", r[6].has_sched,
	      r[6].cut);
	kftlog__free(log);
}

static const char *const bad_words[] = {
	"oncpu=-1 runnable=0 blocked=0", "oncpu=1 runnable=0", "runnable=0 oncpu=1 blocked=0",
	"oncpu=x runnable=0 blocked=0", "oncpu= runnable=0 blocked=0",
};

/* Times that are not the three in order, whole and not negative, are no times. */
static void test_words_refused(void)
{
	char text[1024];
	size_t i;

	for (i = 0; i < sizeof(bad_words) / sizeof(bad_words[0]); i++) {
		struct kftlog *log;

		snprintf(text, sizeof(text), HEADER "  0 10 10.0 f g+0x1 sh 0x0 %s\n", 1, bad_words[i]);
		log = kftlog__parse(text, strlen(text), "test", NULL);
		CHECK(log->nr == 1 && !log->rows[0].has_sched, "'%s' read as times", bad_words[i]);
		kftlog__free(log);
	}
}

struct trees {
	char out[1024];
	size_t len;
	int stop_after;
};

static int one_tree(void *ctx, const struct kft_slowcall *calls, size_t n)
{
	struct trees *t = ctx;
	size_t i;

	for (i = 0; i < n; i++)
		t->len += snprintf(t->out + t->len, sizeof(t->out) - t->len, "%u%s ",
				   calls[i].depth, calls[i].row->func);
	t->len += snprintf(t->out + t->len, sizeof(t->out) - t->len, "| ");
	return t->stop_after && !--t->stop_after;
}

static void test_trees(void)
{
	struct kftlog *log = kftlog__parse(log_trees, strlen(log_trees), "test", NULL);
	struct trees t = { .len = 0 };
	int ret = kft_slowtrees(log, one_tree, &t);

	CHECK(!ret, "kft_slowtrees: %d", ret);
	CHECK_STR(t.out, "0root 1a 2b 1c | 0root3 | 0root2 1d | ", "trees");
	t.len = 0;
	t.out[0] = '\0';
	t.stop_after = 1;
	ret = kft_slowtrees(log, one_tree, &t);
	CHECK(ret == 1 && !strcmp(t.out, "0root 1a 2b 1c | "), "stopped: %d '%s'", ret, t.out);
	kftlog__free(log);
}

/*
 * Task 10: root(0-1000) > a(100-600), asleep at 300 until kworker/1:2 woke
 * it (two frames); root > c(700-900); asleep at 950 in root itself, woken
 * by an interrupt; at 960 a continuation row whose first is missing; at
 * 5000 a set outside every root call. Task 11: root2(50-2000), asleep at
 * 60 in it, its set written before root2's row.
 */
static const char log_wakes[] = HEADER
	"       0     1000     10.0  root      start+0x10  sh 0x0 oncpu=300 runnable=0 blocked=700\n"
	"      50     1950     11.1  root2     start+0x10  ls 0x0 oncpu=50 runnable=0 blocked=1900\n"
	"      60       -3     11.1  w11+0x1   0x0 ls waker=10 wcomm=sh slept=1900\n"
	"     100      500     10.0  a         root+0x5    sh 0x0 oncpu=200 runnable=0 blocked=300\n"
	"     300       -3     10.1  wake_up_q+0x5d 0x0 sh waker=44 wcomm=kworker/1:2 slept=250\n"
	"     300       -3     10.1  mutex_unlock+0x12 0x0 sh\n"
	"     700      200     10.0  c         root+0x9    sh 0x0 oncpu=200 runnable=0 blocked=0\n"
	"     950       -3     10.0  hrtimer_wakeup+0x1e 0x0 sh waker=-1 wcomm=- slept=40\n"
	"     960       -3     10.0  orphan+0x1 0x0 sh\n"
	"    5000       -3     10.0  outside+0x1 0x0 sh waker=3 wcomm=x slept=1\n"
	"    5000       -3     10.0  outside2+0x1 0x0 sh\n";

/* A wake set in the call that slept, its rows together; none outside a root call. */
static void test_trees_wake_sets(void)
{
	char text[2048];
	struct kftlog *log;
	struct trees t = { .len = 0 };
	int ret;

	snprintf(text, sizeof(text), log_wakes, 11);
	log = kftlog__parse(text, strlen(text), "test", NULL);
	CHECK(log->nr == 11 && !log->scan.malformed, "%zu rows, %zu malformed", log->nr,
	      log->scan.malformed);
	ret = kft_slowtrees(log, one_tree, &t);
	CHECK(!ret, "kft_slowtrees: %d", ret);
	CHECK_STR(t.out, "0root 1a 2wake_up_q+0x5d 2mutex_unlock+0x12 1c 1hrtimer_wakeup+0x1e | "
		  "0root2 1w11+0x1 | ", "trees");
	kftlog__free(log);
}

UNIT_MAIN(test_words_read, test_words_refused, test_trees, test_trees_wake_sets)
