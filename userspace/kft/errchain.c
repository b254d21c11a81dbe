// SPDX-License-Identifier: GPL-2.0
/*
 * kft errtrace's chains (pure): in a log of the calls that returned an
 * error (filter errors), the calls beneath one call that returned the same
 * error, down to the deepest: where the error came from. And the set of
 * calls already shown, so that a log read again shows each chain once.
 *
 * A call is beneath another when it is of the same task (of the same CPU,
 * for calls in interrupt context) and lies within its time: entered at or
 * after its entry, returned at or before its return (of two with the same
 * times, the later in the log is beneath the earlier). Of those that
 * returned the same error, the chain goes down through the one that
 * returned last (the one whose error the caller most likely passed on: an
 * earlier failure may have been retried, or handled), of two that returned
 * together the outer one, and within it again.
 *
 * Each call's next one down is found for every call of the log at once,
 * in n log n steps. The calls are walked from the last entered to the
 * first (of those entered together, the inner, which returns first, before
 * the outer), and each is put in a set ordered by (task, error, return,
 * outer first); when a call's turn comes, the set holds exactly the calls
 * entered within its time, and its next one down is the greatest of the
 * set at or below (its task, its error, its return): one search of a
 * Fenwick tree. A chain is then its links followed from its root. Looking
 * through a call's time for each step of each chain instead took steps in
 * the square of the calls in a wide log (many tasks at once, every call a
 * root).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "kft.h"

/* A call's return (its entry plus its duration, at most LLONG_MAX). */
static long long kft_err_end(const struct kft_errcall *c)
{
	long long end;

	return __builtin_add_overflow(c->entry, c->delta, &end) ? LLONG_MAX : end;
}

static int kft_err_cmp_ll(long long a, long long b)
{
	return a < b ? -1 : a > b;
}

/* The chains' groups: the same task (CPU, in interrupt context) and error. */
static int kft_err_cmp_group(const struct kft_errcall *a, const struct kft_errcall *b)
{
	int d = kft_err_cmp_ll(a->pid, b->pid);

	if (!d && a->pid < 0)
		d = kft_err_cmp_ll(a->cpu, b->cpu);
	return d ? d : kft_err_cmp_ll(a->err, b->err);
}

static int kft_err_cmp_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The walk's order, first to last: by entry, the outer first, then by index. */
static int kft_err_cmp_walk(const void *a, const void *b, void *calls)
{
	const struct kft_errcall *x = (const struct kft_errcall *)calls + *(const size_t *)a;
	const struct kft_errcall *y = (const struct kft_errcall *)calls + *(const size_t *)b;
	int d = kft_err_cmp_ll(x->entry, y->entry);

	if (!d)
		d = kft_err_cmp_ll(kft_err_end(y), kft_err_end(x));
	return d ? d : kft_err_cmp_index(a, b);
}

/*
 * The set's order, least to greatest: by group, then by return, then the
 * outer (entered first; of equals, the first in the log) as the greater.
 */
static int kft_err_cmp_rank(const void *a, const void *b, void *calls)
{
	const struct kft_errcall *x = (const struct kft_errcall *)calls + *(const size_t *)a;
	const struct kft_errcall *y = (const struct kft_errcall *)calls + *(const size_t *)b;
	int d = kft_err_cmp_group(x, y);

	if (!d)
		d = kft_err_cmp_ll(kft_err_end(x), kft_err_end(y));
	if (!d)
		d = kft_err_cmp_ll(y->entry, x->entry);
	return d ? d : kft_err_cmp_index(b, a);
}

/*
 * The number of ranks just past c's group and return: one past the last
 * call of rank[] (in the set's order) of c's group that returned at or
 * before c did.
 */
static size_t kft_err_rank_bound(const struct kft_errcall *calls, const size_t *rank, size_t n,
				 const struct kft_errcall *c)
{
	size_t lo = 0, hi = n, mid;
	const struct kft_errcall *m;
	int d;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		m = &calls[rank[mid]];
		d = kft_err_cmp_group(m, c);
		if (d < 0 || (!d && kft_err_end(m) <= kft_err_end(c)))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The Fenwick tree over ranks (tree[1..n]): rank r entered. */
static void kft_err_tree_add(size_t *tree, size_t n, size_t r)
{
	for (r++; r <= n; r += r & -r)
		tree[r]++;
}

/* How many ranks below bound are entered. */
static size_t kft_err_tree_count(const size_t *tree, size_t bound)
{
	size_t sum = 0;

	for (; bound; bound -= bound & -bound)
		sum += tree[bound];
	return sum;
}

/* The rank of the k-th entered (k from 1): the descent through the tree. */
static size_t kft_err_tree_kth(const size_t *tree, size_t n, size_t k)
{
	size_t pos = 0, step = 1;

	while (step * 2 <= n)
		step *= 2;
	for (; step; step /= 2) {
		if (pos + step <= n && tree[pos + step] < k) {
			pos += step;
			k -= tree[pos];
		}
	}
	return pos;
}

/* The walk itself, on the two orders: next[] for every call. */
static void kft_err_walk(const struct kft_errcall *calls, size_t n, const size_t *walk,
			 const size_t *rank, const size_t *rank_of, size_t *tree, size_t *next)
{
	size_t k = n, i, bound, entered, best;

	while (k--) {
		i = walk[k];
		next[i] = n;
		bound = kft_err_rank_bound(calls, rank, n, &calls[i]);
		entered = kft_err_tree_count(tree, bound);
		if (entered) {
			best = rank[kft_err_tree_kth(tree, n, entered)];
			if (!kft_err_cmp_group(&calls[best], &calls[i]))
				next[i] = best;
		}
		kft_err_tree_add(tree, n, rank_of[i]);
	}
}

int kft_errchain_links(const struct kft_errcall *calls, size_t n, size_t *next)
{
	size_t *walk = malloc((n ? n : 1) * sizeof(*walk));
	size_t *rank = malloc((n ? n : 1) * sizeof(*rank));
	size_t *rank_of = malloc((n ? n : 1) * sizeof(*rank_of));
	size_t *tree = calloc(n + 1, sizeof(*tree));
	size_t i;
	int ret = -1;

	if (!walk || !rank || !rank_of || !tree) {
		errno = ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++)
		walk[i] = rank[i] = i;
	qsort_r(walk, n, sizeof(*walk), kft_err_cmp_walk, (void *)calls);
	qsort_r(rank, n, sizeof(*rank), kft_err_cmp_rank, (void *)calls);
	for (i = 0; i < n; i++)
		rank_of[rank[i]] = i;
	kft_err_walk(calls, n, walk, rank, rank_of, tree, next);
	ret = 0;
out:
	free(walk);
	free(rank);
	free(rank_of);
	free(tree);
	return ret;
}

size_t kft_errchain(const size_t *next, size_t n, size_t root, size_t *chain, size_t max)
{
	size_t len = 0, i, tmp;

	if (root >= n || !max)
		return 0;
	chain[len++] = root;
	while (len < max && next[chain[len - 1]] < n) {
		chain[len] = next[chain[len - 1]];
		len++;
	}
	/* Innermost first. */
	for (i = 0; i < len / 2; i++) {
		tmp = chain[i];
		chain[i] = chain[len - 1 - i];
		chain[len - 1 - i] = tmp;
	}
	return len;
}

/* A call's place in the set: what tells two calls of one log apart. */
static uint64_t kft_errseen_hash(const struct kft_errcall *c)
{
	const uint64_t words[] = { (uint64_t)c->entry, (uint64_t)c->delta, c->func,
				   (uint64_t)(uint32_t)c->pid << 32 | (uint32_t)c->cpu };

	return hash_bytes(words, sizeof(words));
}

static int kft_errseen_same(const struct kft_errcall *a, const struct kft_errcall *b)
{
	return a->entry == b->entry && a->delta == b->delta && a->func == b->func &&
	       a->pid == b->pid && a->cpu == b->cpu;
}

/* Twice the room, every key placed again. 0, or -1 (ENOMEM). */
static int kft_errseen_grow(struct kft_errseen *s)
{
	size_t cap = s->cap ? s->cap * 2 : 256, i, j;
	struct kft_errcall *keys = calloc(cap, sizeof(*keys));
	unsigned char *used = calloc(cap, 1);

	if (!keys || !used) {
		free(keys);
		free(used);
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < s->cap; i++) {
		if (!s->used[i])
			continue;
		for (j = kft_errseen_hash(&s->keys[i]) & (cap - 1); used[j]; j = (j + 1) & (cap - 1))
			;
		keys[j] = s->keys[i];
		used[j] = 1;
	}
	free(s->keys);
	free(s->used);
	s->keys = keys;
	s->used = used;
	s->cap = cap;
	return 0;
}

int kft_errseen_add(struct kft_errseen *s, const struct kft_errcall *c)
{
	size_t i;

	/* At most half full: a probe ends soon. */
	if (2 * (s->nr + 1) > s->cap && kft_errseen_grow(s))
		return -1;
	for (i = kft_errseen_hash(c) & (s->cap - 1); s->used[i]; i = (i + 1) & (s->cap - 1))
		if (kft_errseen_same(&s->keys[i], c))
			return 0;
	s->keys[i] = *c;
	/* Not the key's, and they are the log's. */
	s->keys[i].comm = NULL;
	s->keys[i].row = NULL;
	s->used[i] = 1;
	s->nr++;
	return 1;
}

void kft_errseen_free(struct kft_errseen *s)
{
	free(s->keys);
	free(s->used);
	memset(s, 0, sizeof(*s));
}
