// SPDX-License-Identifier: GPL-2.0
/*
 * Rebuilding who called whom from a flat log. Rows come in entry order;
 * each thread (a pid, or one CPU's interrupts) keeps a stack of the calls
 * still open at the current row. On one thread calls nest exactly in time,
 * so a row's parent is the innermost call of its thread that contains it.
 * Times are whole microseconds: a call that starts in the microsecond the
 * previous one ends is ambiguous, and there the caller decides (a call's
 * return address lies in its parent, or in the grandparent after a tail
 * call). The original kd matched parents by name alone, across threads.
 * Stack watch snapshots are placed in the same stacks, as a call of their
 * traced function would be, but are no calls; so are wake sets, at the
 * time their task was switched out.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "kd.h"
#include "symbolize.h"

struct kd_stack {
	int thread;
	long first;		/* the thread's first call */
	long *calls;
	size_t nr, cap;
};

/* The threads' stacks, by thread (open addressing: logs may hold many). */
struct kd_stacks {
	struct kd_stack *slots;
	size_t cap, nr;
	int *used;
};

/*
 * The function of a symbol or address word: "name+0x10" -> "name"; NULL
 * for a raw address without a symbol, and with errno set on failure.
 */
static const char *kd_function_of(struct kd_tree *t, const char *word,
				  const struct ksyms *ks)
{
	char buf[KSYMS_FORMAT_MAX];
	const char *sym = ks ? symbolize_word(ks, word, buf, sizeof(buf)) : NULL;
	const char *s = sym ? sym : word;

	errno = 0;
	if (!sym && (!strncmp(word, "0x", 2) || !strncmp(word, "0X", 2)))
		return NULL;	/* a raw address: no function known */
	return strtab__intern(&t->names, s, kd_function_len(s));
}

static size_t kd_slot(const struct kd_stacks *ss, int thread)
{
	size_t i = (size_t)hash_u64((unsigned int)thread) & (ss->cap - 1);

	while (ss->used[i] && ss->slots[i].thread != thread)
		i = (i + 1) & (ss->cap - 1);
	return i;
}

static int kd_stacks_grow(struct kd_stacks *ss)
{
	struct kd_stacks bigger = { .cap = ss->cap ? ss->cap * 2 : 64, .nr = ss->nr };
	size_t i, k;

	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	bigger.used = calloc(bigger.cap, sizeof(*bigger.used));
	if (!bigger.slots || !bigger.used) {
		free(bigger.slots);
		free(bigger.used);
		return -1;
	}
	for (i = 0; i < ss->cap; i++) {
		if (!ss->used[i])
			continue;
		k = kd_slot(&bigger, ss->slots[i].thread);
		bigger.slots[k] = ss->slots[i];
		bigger.used[k] = 1;
	}
	free(ss->slots);
	free(ss->used);
	*ss = bigger;
	return 0;
}

/* The stack of a thread, NULL if it has had no call. */
static struct kd_stack *kd_stack_find(struct kd_stacks *ss, int thread)
{
	size_t i;

	if (!ss->cap)
		return NULL;
	i = kd_slot(ss, thread);
	return ss->used[i] ? &ss->slots[i] : NULL;
}

/* The stack of a thread, made on its first call (index first). */
static struct kd_stack *kd_stack_of(struct kd_stacks *ss, int thread, long first)
{
	size_t i;

	if ((ss->nr + 1) * 2 > ss->cap && kd_stacks_grow(ss))
		return NULL;
	i = kd_slot(ss, thread);
	if (!ss->used[i]) {
		ss->used[i] = 1;
		ss->slots[i] = (struct kd_stack){ .thread = thread, .first = first };
		ss->nr++;
	}
	return &ss->slots[i];
}

static int kd_is_caller(const struct kd_call *p, const struct kd_call *r)
{
	return r->caller_fn && p->name && !strcmp(p->name, r->caller_fn);
}

/* Does call p contain r, which starts at or after it? */
static int kd_contains(const struct kd_call *p, const struct kd_call *r)
{
	long long end = kd_call_end(p);

	if (p->row->delta < 0 || r->row->entry < end)
		return 1;	/* open until the stop, or strictly inside */
	return r->row->entry == end && kd_is_caller(p, r);
}

static void kd_place(struct kd_tree *t, struct kd_stack *st, struct kd_snapplace *sp, long i)
{
	struct kd_call *c = &t->calls[i];

	while (st->nr && !kd_contains(&t->calls[st->calls[st->nr - 1]], c))
		kd_snapplace_pop(sp, t, st->calls[--st->nr]);
	c->parent = st->nr ? st->calls[st->nr - 1] : -1;
	c->depth = (int)st->nr;
	if (c->parent >= 0)
		t->calls[c->parent].sub = kd_time_add(t->calls[c->parent].sub, kd_call_time(c));
}

static int kd_push(struct kd_stack *st, long i)
{
	if (st->nr == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 64;
		long *more = realloc(st->calls, cap * sizeof(*more));

		if (!more)
			return -1;
		st->calls = more;
		st->cap = cap;
	}
	st->calls[st->nr++] = i;
	return 0;
}

/* Each row's call, named; stack watch rows and wake sets' rows are no calls. */
static int kd_tree_calls(struct kd_tree *t, const struct kftlog *log, const struct ksyms *ks)
{
	size_t i;

	for (i = 0; i < log->nr; i++) {
		const struct kftlog_row *r = &log->rows[i];
		struct kd_call *c = &t->calls[t->nr];
		const char *f = NULL;

		if (r->delta < KFTLOG_DELTA_OPEN)
			continue;
		c->row = r;
		c->thread = kd_thread_of(r);
		if (ks && !(f = kd_function_of(t, r->func, ks)) && errno)
			return -1;
		c->name = f ? f : r->func;
		c->caller_fn = kd_function_of(t, r->caller, ks);
		if (!c->caller_fn && errno)
			return -1;
		t->nr++;
	}
	return 0;
}

/*
 * Snapshot s in its thread's stack st (NULL: no call yet) at its place in
 * the log: shown before its owner, the innermost call of its traced function
 * entered at its time, if there is one; else inside the innermost call
 * that contains its time (kd_contains(), as for a call of the function).
 * A wake set has no owner: its first frame is the waker's, not a function
 * its task entered. snapplace.c finds that place without walking st.
 */
static int kd_place_snapshot(struct kd_tree *t, const struct kd_stack *st,
			     struct kd_snapplace *sp, struct kd_snapshot *s,
			     const struct ksyms *ks)
{
	const char *caller_fn = kd_function_of(t, s->row->caller, ks);

	if (!caller_fn && errno)
		return -1;
	kd_snapplace_find(sp, t, st && st->nr ? st->calls[st->nr - 1] : -1, s, caller_fn);
	return 0;
}

/* The snapshots shown before call i (after the last: i = t->nr), from *next. */
static int kd_place_snapshots(struct kd_tree *t, struct kd_stacks *ss, struct kd_snapplace *sp,
			      size_t *next, size_t i, const struct ksyms *ks)
{
	for (; *next < t->nr_snaps && t->snaps[*next].before <= (long)i; (*next)++) {
		struct kd_snapshot *s = &t->snaps[*next];

		if (kd_place_snapshot(t, kd_stack_find(ss, s->thread), sp, s, ks))
			return -1;
	}
	return 0;
}

static int kd_cmp_snapshot(const void *a, const void *b)
{
	const struct kd_snapshot *x = a, *y = b;

	if (x->before != y->before)
		return x->before < y->before ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* Each snapshot's thread order, once every thread is known; log order. */
static void kd_snapshots_done(struct kd_tree *t, struct kd_stacks *ss)
{
	size_t i;

	for (i = 0; i < t->nr_snaps; i++) {
		struct kd_stack *st = kd_stack_find(ss, t->snaps[i].thread);

		t->snaps[i].thread_first = st ? st->first : LONG_MAX;
	}
	/* Owners move snapshots before calls already passed. */
	if (t->nr_snaps)
		qsort(t->snaps, t->nr_snaps, sizeof(*t->snaps), kd_cmp_snapshot);
}

/* Whether some row has a return value, some offcpu's times: columns to show. */
static void kd_tree_columns(struct kd_tree *t, const struct kftlog *log)
{
	size_t i;

	for (i = 0; i < log->nr && !(t->has_retvals && t->has_sched); i++) {
		t->has_retvals |= log->rows[i].ret != KFTLOG_RET_NONE;
		t->has_sched |= log->rows[i].has_sched;
	}
}

int kd_tree_build(struct kd_tree *t, const struct kftlog *log, const struct ksyms *ks)
{
	struct kd_stacks stacks = { 0 };
	struct kd_snapplace sp = { 0 };
	struct kd_stack *st;
	size_t i, next = 0;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	t->units_ns = log->scan.units_ns;
	kd_tree_columns(t, log);
	t->calls = calloc(log->nr ? log->nr : 1, sizeof(*t->calls));
	if (!t->calls || kd_tree_calls(t, log, ks) || kd_snapshots_collect(t, log, ks) ||
	    kd_snapplace_init(&sp, t))
		goto out;
	for (i = 0; i < t->nr; i++) {
		if (kd_place_snapshots(t, &stacks, &sp, &next, i, ks))
			goto out;
		st = kd_stack_of(&stacks, t->calls[i].thread, (long)i);
		if (!st)
			goto out;
		t->calls[i].thread_first = st->first;
		kd_place(t, st, &sp, (long)i);
		if (kd_push(st, (long)i) || kd_snapplace_push(&sp, t, (long)i))
			goto out;
	}
	if (kd_place_snapshots(t, &stacks, &sp, &next, t->nr, ks))
		goto out;
	kd_snapshots_done(t, &stacks);
	ret = 0;
out:
	kd_snapplace_free(&sp);
	for (i = 0; i < stacks.cap; i++)
		free(stacks.slots[i].calls);
	free(stacks.slots);
	free(stacks.used);
	if (ret)
		kd_tree_free(t);
	return ret;
}

void kd_tree_free(struct kd_tree *t)
{
	free(t->calls);
	free(t->snaps);
	free(t->frames);
	strtab__free(&t->names);
	memset(t, 0, sizeof(*t));
}
