// SPDX-License-Identifier: GPL-2.0
/*
 * kd -P: the summary per task. A task is a pid and a name (the log's comm
 * column; a task that renames itself, an exec, is a second line), or the
 * interrupts of one CPU. Its time is the sum of its outermost calls'
 * durations: the time it spent in the traced functions, each nested call
 * counted once. Logs from before the comm column have no names ("-").
 * A CPU's interrupts are "irq/cpuN".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "kd.h"

struct kd_task {
	int thread;		/* kd_thread_of() */
	const char *comm;	/* interned: equal names, equal pointers */
	long long calls, time, first, last;
};

/*
 * The tasks, in order of their first calls, and a table of them by thread
 * and name (open addressing), so that finding a call's task costs the
 * same however many names its thread had: a search of the thread's names
 * cost their number for each call.
 */
struct kd_tasks {
	struct kd_task *items;
	size_t nr, cap;
	size_t *slots;		/* a task's index + 1; 0: a free slot */
	size_t slots_cap;
};

/* A secret-keyed hash of both parts, so that no log can choose collisions. */
static size_t kd_task_slot(const struct kd_tasks *ts, size_t cap, int thread, const char *comm)
{
	uint64_t key[2] = { (uint32_t)thread, (uintptr_t)comm };
	size_t i = (size_t)hash_bytes(key, sizeof(key)) & (cap - 1);

	while (ts->slots[i] && (ts->items[ts->slots[i] - 1].thread != thread ||
				ts->items[ts->slots[i] - 1].comm != comm))
		i = (i + 1) & (cap - 1);
	return i;
}

static int kd_tasks_grow(struct kd_tasks *ts)
{
	size_t cap = ts->slots_cap ? ts->slots_cap * 2 : 64, *old = ts->slots, i;

	ts->slots = calloc(cap, sizeof(*ts->slots));
	if (!ts->slots) {
		ts->slots = old;
		return -1;
	}
	for (i = 0; i < ts->nr; i++) {
		const struct kd_task *k = &ts->items[i];

		ts->slots[kd_task_slot(ts, cap, k->thread, k->comm)] = i + 1;
	}
	free(old);
	ts->slots_cap = cap;
	return 0;
}

/* A call's task, the one of its thread and name, made at the first such call. */
static struct kd_task *kd_task_get(struct kd_tasks *ts, const struct kd_call *c)
{
	const char *comm = c->row->comm;
	size_t i;

	if ((ts->nr + 1) * 2 > ts->slots_cap && kd_tasks_grow(ts))
		return NULL;
	i = kd_task_slot(ts, ts->slots_cap, c->thread, comm);
	if (ts->slots[i])
		return &ts->items[ts->slots[i] - 1];
	if (ts->nr == ts->cap) {
		size_t cap = ts->cap ? ts->cap * 2 : 64;
		struct kd_task *more = realloc(ts->items, cap * sizeof(*more));

		if (!more)
			return NULL;
		ts->items = more;
		ts->cap = cap;
	}
	ts->items[ts->nr] = (struct kd_task){ c->thread, comm, 0, 0, c->row->entry, 0 };
	ts->slots[i] = ++ts->nr;
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
	struct kd_tasks ts = { 0 };
	size_t i;

	for (i = 0; i < t->nr; i++) {
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
	free(ts.slots);
	if (i < t->nr) {
		free(ts.items);
		return -1;
	}
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
