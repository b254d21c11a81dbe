// SPDX-License-Identifier: GPL-2.0
/*
 * kft slowtrace's trees: a log of filter roots (Documentation/kft.rst) as
 * the call trees of its root calls. The module logs a root call's tree
 * whole or not at all, so every row belongs to a tree: a task's rows,
 * ordered by entry (the longer call first where two entered at the same
 * nanosecond: the caller), fall into the tree of the last root call whose
 * time holds their entry, and a row outside it starts the next tree. A
 * call's depth is how many calls of its tree still run at its entry.
 */
#include <errno.h>
#include <stdlib.h>

#include "kft.h"
#include "kftlog.h"

/* A row's end, ns; a row that is no call (an open one, a stack's) ends at its entry. */
static long long kft_slow_end(const struct kftlog_row *r)
{
	return r->entry + (r->delta > 0 ? r->delta : 0);
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
 * The tree that starts at order[*i]: its calls with their depths into
 * calls (ends: room for a depth's end each), *i past it. Its size.
 */
static size_t kft_slow_tree(const struct kftlog_row *const *order, size_t nr, size_t *i,
			    struct kft_slowcall *calls, long long *ends)
{
	const struct kftlog_row *root = order[*i];
	long long end = kft_slow_end(root);
	size_t n = 0, depth = 0;

	do {
		const struct kftlog_row *r = order[*i];

		while (depth && r->entry > ends[depth - 1])
			depth--;
		calls[n].row = r;
		calls[n++].depth = depth;
		ends[depth++] = kft_slow_end(r);
		(*i)++;
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
	/* A wake set's rows are no calls: left out. */
	for (i = 0, nr = 0; i < log->nr; i++)
		if (log->rows[i].delta != KFTLOG_DELTA_WAKE)
			order[nr++] = &log->rows[i];
	qsort(order, nr, sizeof(*order), kft_slow_cmp);
	i = 0;
	while (!ret && i < nr) {
		n = kft_slow_tree(order, nr, &i, calls, ends);
		ret = tree(ctx, calls, n);
	}
out:
	free(order);
	free(calls);
	free(ends);
	return ret;
}
