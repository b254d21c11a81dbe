// SPDX-License-Identifier: GPL-2.0
/*
 * Where a snapshot goes in its thread's stack (tree.c places the calls,
 * and says where a snapshot belongs): before its owner, the innermost call
 * of its traced function entered at its time E, if there is one; else
 * inside the innermost call that contains E as it would contain a call
 * made at E by the snapshot's caller. A walk down the stack from its top
 * cost the stack's depth for each snapshot, because a thread's stack keeps
 * the calls that have returned until the thread's next call pops them:
 * many snapshots after many returned calls cost the product of the two.
 *
 * Rows come in entry order, so no row after the snapshot is earlier than
 * E. A call that returned at or before E can contain a later row only at
 * its very end (a tail call, where the caller decides), and a call that
 * returned before E contains no later row at all. Both facts hold for
 * every later snapshot too, so each call that the search passes over for
 * one of these reasons is linked past for good (path halving, as in
 * union-find). Each of the three calls where a snapshot can stop is then
 * found in a few steps:
 *  - the innermost call still open at E, or returning after it;
 *  - the innermost call of the snapshot's caller's function that has not
 *    returned before E;
 *  - the owner: the innermost call of the snapshot's function, if it was
 *    entered at E (entries grow up the stack, so no lower one was).
 * The snapshot goes at the innermost of the three, before the owner when
 * that is the owner, as the walk from the top would have placed it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "kd.h"

/*
 * Whether call c returned at or before time e (strict: before e). A row
 * at e or later is then inside it only at its very end, as a tail call
 * is (strict: not at all).
 */
static int kd_ended(const struct kd_call *c, long long e, int strict)
{
	long long end = kd_call_end(c);

	return c->row->delta >= 0 && (strict ? end < e : end <= e);
}

/*
 * The first of call x and the calls its links lead to that has not ended
 * by e (strict: before e); -1 if none. A later snapshot is at e or after
 * it, so each call passed over is linked past for good.
 */
static long kd_skip_ended(const struct kd_tree *t, long *link, long x, long long e, int strict)
{
	while (x >= 0 && kd_ended(&t->calls[x], e, strict)) {
		long next = link[x];

		if (next >= 0 && kd_ended(&t->calls[next], e, strict))
			link[x] = link[next];
		x = link[x];
	}
	return x;
}

/* A secret-keyed hash of both parts, so that no log can choose collisions. */
static size_t kd_name_slot(const struct kd_snapplace *sp, int thread, const char *name)
{
	uint64_t h = hash_u64(hash_bytes(name, strlen(name)) ^ (uint32_t)thread);
	size_t i = (size_t)h & (sp->cap - 1);

	while (sp->slots[i].name &&
	       (sp->slots[i].thread != thread || strcmp(sp->slots[i].name, name)))
		i = (i + 1) & (sp->cap - 1);
	return i;
}

static int kd_names_grow(struct kd_snapplace *sp)
{
	struct kd_snapplace bigger = *sp;
	size_t i;

	bigger.cap = sp->cap ? sp->cap * 2 : 64;
	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -1;
	for (i = 0; i < sp->cap; i++)
		if (sp->slots[i].name)
			bigger.slots[kd_name_slot(&bigger, sp->slots[i].thread,
						  sp->slots[i].name)] = sp->slots[i];
	free(sp->slots);
	*sp = bigger;
	return 0;
}

/* The innermost call of function name on thread's stack; -1 if none. */
static long kd_name_top(const struct kd_snapplace *sp, int thread, const char *name)
{
	size_t i;

	if (!sp->cap || !name)
		return -1;
	i = kd_name_slot(sp, thread, name);
	return sp->slots[i].name ? sp->slots[i].call : -1;
}

int kd_snapplace_init(struct kd_snapplace *sp, const struct kd_tree *t)
{
	memset(sp, 0, sizeof(*sp));
	if (!t->nr_snaps)
		return 0;
	sp->open_up = malloc((t->nr ? t->nr : 1) * sizeof(*sp->open_up));
	sp->named_up = malloc((t->nr ? t->nr : 1) * sizeof(*sp->named_up));
	return sp->open_up && sp->named_up ? 0 : -1;
}

int kd_snapplace_push(struct kd_snapplace *sp, const struct kd_tree *t, long call)
{
	const struct kd_call *c = &t->calls[call];
	size_t i;

	if (!sp->open_up)
		return 0;
	if ((sp->nr + 1) * 2 > sp->cap && kd_names_grow(sp))
		return -1;
	i = kd_name_slot(sp, c->thread, c->name);
	if (!sp->slots[i].name) {
		sp->slots[i] = (struct kd_name_top){ c->thread, c->name, -1 };
		sp->nr++;
	}
	sp->open_up[call] = c->parent;
	sp->named_up[call] = sp->slots[i].call;
	sp->slots[i].call = call;
	return 0;
}

void kd_snapplace_pop(struct kd_snapplace *sp, const struct kd_tree *t, long call)
{
	const struct kd_call *c = &t->calls[call];
	size_t i;

	if (!sp->open_up)
		return;
	/* The top of the stack is the innermost call of its function. */
	i = kd_name_slot(sp, c->thread, c->name);
	sp->slots[i].call = sp->named_up[call];
}

/* The deeper of two calls of one stack, either -1 (none). */
static long kd_deeper(const struct kd_tree *t, long a, long b)
{
	if (a < 0 || b < 0)
		return a < 0 ? b : a;
	return t->calls[a].depth >= t->calls[b].depth ? a : b;
}

void kd_snapplace_find(struct kd_snapplace *sp, const struct kd_tree *t, long top,
		       struct kd_snapshot *s, const char *caller_fn)
{
	long long e = s->row->entry;
	long open = kd_skip_ended(t, sp->open_up, top, e, 0);
	long tail = kd_skip_ended(t, sp->named_up, kd_name_top(sp, s->thread, caller_fn), e, 1);
	long owner = kd_snapshot_is_wake(s) ? -1 : kd_name_top(sp, s->thread, s->function);
	long in = kd_deeper(t, open, tail);

	if (owner >= 0 && t->calls[owner].row->entry == e && kd_deeper(t, owner, in) == owner) {
		s->before = owner;
		s->parent = t->calls[owner].parent;
		s->depth = t->calls[owner].depth;
		return;
	}
	s->parent = in;
	s->depth = in >= 0 ? t->calls[in].depth + 1 : 0;
}

void kd_snapplace_free(struct kd_snapplace *sp)
{
	free(sp->open_up);
	free(sp->named_up);
	free(sp->slots);
	memset(sp, 0, sizeof(*sp));
}
