// SPDX-License-Identifier: GPL-2.0
/*
 * kft slowtrace's trees: a log of filter roots (Documentation/kft.rst) as
 * the call trees of its root calls. The module logs a root call's tree
 * whole or not at all, so every row belongs to a tree: a task's rows,
 * ordered by entry (the longer call first where two entered at the same
 * nanosecond: the caller), fall into the tree of the last root call whose
 * time holds their entry, and a row outside it starts the next tree. A
 * call's depth is how many calls of its tree still run at its entry.
 *
 * A wake set (wakers: who woke the task, Documentation/kft.rst) is no call:
 * its rows, at the time the task was switched out, fall into a tree as a
 * call's would, the first row as a child of the innermost call open then,
 * the one that slept, and the set's other rows right after it at its
 * depth. Their delta sorts them after the calls entered at the same time,
 * so a set's rows stay together. A set that no root call's time holds,
 * and a continuation row whose set's first row is missing (a tree cut to
 * fit its slot can lose it), are in no tree.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "kft.h"
#include "kftlog.h"

/* A row's end, ns; a row that is no call (an open one, a stack's) ends at its entry. */
static long long kft_slow_end(const struct kftlog_row *r)
{
	long long end;

	if (__builtin_add_overflow(r->entry, r->delta > 0 ? r->delta : 0, &end))
		return LLONG_MAX;
	return end;
}

/* By task, then entry, then the longer call first. */
static int kft_slow_cmp(const void *a, const void *b)
{
	const struct kftlog_row *x = *(const struct kftlog_row *const *)a;
	const struct kftlog_row *y = *(const struct kftlog_row *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	if (x->delta != y->delta)
		return x->delta > y->delta ? -1 : 1;
	/* The log's order last: a sort that is the same on every libc. */
	return x < y ? -1 : x > y;
}

/*
 * A wake set's row r, at depth: into *c if it is a set's first row or
 * continues the set *set (the one going on, NULL: none, then r's if it
 * starts one). How many rows placed: 1, or 0 for a row of no set.
 */
static size_t kft_slow_wake(const struct kftlog_row *r, const struct kftlog_row **set,
			    size_t depth, struct kft_slowcall *c)
{
	if (kftlog_row_starts_wake(r))
		*set = r;
	else if (!*set || !kftlog_row_continues(*set, r))
		return 0;
	c->row = r;
	c->depth = (unsigned int)depth;
	return 1;
}

/*
 * The tree that starts at order[*i]: its calls and wake sets with their
 * depths into calls (ends: room for a depth's end each), *i past it. Its
 * size.
 */
static size_t kft_slow_tree(const struct kftlog_row *const *order, size_t nr, size_t *i,
			    struct kft_slowcall *calls, long long *ends)
{
	const struct kftlog_row *root = order[*i], *set = NULL;
	long long end = kft_slow_end(root);
	size_t n = 0, depth = 0;

	do {
		const struct kftlog_row *r = order[(*i)++];

		while (depth && r->entry > ends[depth - 1])
			depth--;
		if (r->delta == KFTLOG_DELTA_WAKE) {
			n += kft_slow_wake(r, &set, depth, &calls[n]);
			continue;
		}
		set = NULL;
		calls[n].row = r;
		calls[n++].depth = (unsigned int)depth;
		ends[depth++] = kft_slow_end(r);
	} while (*i < nr && order[*i]->pid == root->pid && order[*i]->entry <= end);
	return n;
}

int kft_slowtrees(const struct kftlog *log,
		  int (*tree)(void *ctx, const struct kft_slowcall *calls, size_t n), void *ctx)
{
	size_t nr = log->nr, i = 0, n;
	const struct kftlog_row **order = malloc((nr ? nr : 1) * sizeof(*order));
	struct kft_slowcall *calls = malloc((nr ? nr : 1) * sizeof(*calls));
	long long *ends = malloc((nr ? nr : 1) * sizeof(*ends));
	int ret = 0;

	if (!order || !calls || !ends) {
		errno = ENOMEM;
		ret = -1;
		goto out;
	}
	for (i = 0; i < nr; i++)
		order[i] = &log->rows[i];
	qsort(order, nr, sizeof(*order), kft_slow_cmp);
	i = 0;
	while (!ret && i < nr) {
		/* No tree starts with a wake set: one outside every root call is dropped. */
		if (order[i]->delta == KFTLOG_DELTA_WAKE) {
			i++;
			continue;
		}
		n = kft_slow_tree(order, nr, &i, calls, ends);
		ret = tree(ctx, calls, n);
	}
out:
	free(order);
	free(calls);
	free(ends);
	return ret;
}
