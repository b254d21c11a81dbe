// SPDX-License-Identifier: GPL-2.0
/*
 * kd -P: the summary per task. A task is a pid and a name (the log's comm
 * column; a task that renames itself, an exec, is a second line), or the
 * interrupts of one CPU. Its time is the sum of its outermost calls'
 * durations: the time it spent in the traced functions, each nested call
 * counted once. Logs from before the comm column have no names ("-").
 * A CPU's interrupts are "irq/cpuN".
 */
#include <stdlib.h>
#include <string.h>

#include "kd.h"

struct kd_task {
	int thread;		/* kd_thread_of() */
	const char *comm;	/* interned: equal names, equal pointers */
	long long calls, time, first, last;
	size_t prev;		/* the thread's task before this one, + 1; 0: none */
};

struct kd_tasks {
	struct kd_task *items;
	size_t nr, cap;
	size_t *latest;		/* by a thread's first call: its newest task, + 1 */
};

/*
 * A call's task: found among its thread's tasks (one per name it had; a
 * rename is rare), so the cost is linear in the calls, whatever the number
 * of threads.
 */
static struct kd_task *kd_task_get(struct kd_tasks *ts, const struct kd_call *c)
{
	const char *comm = c->row->comm;
	size_t k;

	for (k = ts->latest[c->thread_first]; k; k = ts->items[k - 1].prev)
		if (ts->items[k - 1].comm == comm)
			return &ts->items[k - 1];
	if (ts->nr == ts->cap) {
		size_t cap = ts->cap ? ts->cap * 2 : 64;
		struct kd_task *more = realloc(ts->items, cap * sizeof(*more));

		if (!more)
			return NULL;
		ts->items = more;
		ts->cap = cap;
	}
	ts->items[ts->nr] = (struct kd_task){ c->thread, comm, 0, 0, c->row->entry, 0,
					      ts->latest[c->thread_first] };
	ts->latest[c->thread_first] = ++ts->nr;
	return &ts->items[ts->nr - 1];
}

static int kd_cmp_task_time(const void *a, const void *b)
{
	const struct kd_task *x = a, *y = b;

	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->thread < y->thread ? -1 : x->thread > y->thread;
}

static void kd_task_line(FILE *out, const struct kd_task *k)
{
	if (k->thread >= 0)
		fprintf(out, "%8d %-16s", k->thread, *k->comm ? k->comm : "-");
	else
		fprintf(out, "%8s irq/cpu%-9d", "-", -2 - k->thread);
	fprintf(out, " %10lld %12lld %12lld %12lld\n", k->calls, k->time, k->first, k->last);
}

int kd_tasks(FILE *out, const struct kd_tree *t, const struct kd_params *p)
{
	struct kd_tasks ts = { .latest = calloc(t->nr ? t->nr : 1, sizeof(size_t)) };
	size_t i;

	for (i = 0; ts.latest && i < t->nr; i++) {
		const struct kd_call *c = &t->calls[i];
		struct kd_task *k = kd_task_get(&ts, c);

		if (!k)
			break;
		k->calls++;
		if (c->parent < 0)
			k->time = kd_time_add(k->time, kd_call_time(c));
		if (kd_call_end(c) > k->last)
			k->last = kd_call_end(c);
	}
	if (!ts.latest || i < t->nr) {
		free(ts.latest);
		free(ts.items);
		return -1;
	}
	free(ts.latest);
	if (ts.nr)
		qsort(ts.items, ts.nr, sizeof(*ts.items), kd_cmp_task_time);
	fprintf(out, "%8s %-16s %10s %12s %12s %12s\n", "PID", "Comm", "Calls", "Time",
		"First", "Last");
	fprintf(out, "%8s %-16s %10s %12s %12s %12s\n", "--------", "----------------",
		"----------", "------------", "------------", "------------");
	for (i = 0; i < ts.nr && (!p->top || (long long)i < p->top); i++)
		kd_task_line(out, &ts.items[i]);
	free(ts.items);
	return 0;
}
