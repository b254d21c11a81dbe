// SPDX-License-Identifier: GPL-2.0
/*
 * kft errtrace's chains (pure): in a log of the calls that returned an
 * error (filter errors), sorted by entry time, the calls beneath one call
 * that returned the same error, down to the deepest: where the error came
 * from. And the set of calls already shown, so that a log read again shows
 * each chain once.
 *
 * A call is beneath another when it is of the same task (of the same CPU,
 * for calls in interrupt context) and lies within its time: entered at or
 * after its entry, returned at or before its return. Of those that
 * returned the same error, the chain goes down through the one that
 * returned last (the one whose error the caller most likely passed on: an
 * earlier failure may have been retried, or handled), and within it again.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kft.h"

/* Whether call c lies within call p's time, in p's task. */
static int kft_err_within(const struct kft_errcall *c, const struct kft_errcall *p)
{
	if (c->pid != p->pid || (p->pid < 0 && c->cpu != p->cpu))
		return 0;
	return c->entry >= p->entry && c->entry + c->delta <= p->entry + p->delta;
}

/* The first call entered at or after entry (calls sorted by entry). */
static size_t kft_err_first_at(const struct kft_errcall *calls, size_t n, long long entry)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (calls[mid].entry < entry)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether i is already in chain[0..len). */
static int kft_err_in_chain(const size_t *chain, size_t len, size_t i)
{
	while (len--)
		if (chain[len] == i)
			return 1;
	return 0;
}

/*
 * The next call down from calls[cur]: of the calls beneath it with its
 * error, the one that returned last (of two that returned together, the
 * outer: entered first); n when there is none.
 */
static size_t kft_err_next(const struct kft_errcall *calls, size_t n, size_t cur,
			   const size_t *chain, size_t len)
{
	const struct kft_errcall *p = &calls[cur];
	size_t i, best = n;
	long long end, best_end = 0;

	for (i = kft_err_first_at(calls, n, p->entry); i < n && calls[i].entry <= p->entry +
	     p->delta; i++) {
		if (i == cur || calls[i].err != p->err || !kft_err_within(&calls[i], p) ||
		    kft_err_in_chain(chain, len, i))
			continue;
		end = calls[i].entry + calls[i].delta;
		if (best == n || end > best_end ||
		    (end == best_end && calls[i].entry < calls[best].entry)) {
			best = i;
			best_end = end;
		}
	}
	return best;
}

size_t kft_errchain(const struct kft_errcall *calls, size_t n, size_t root, size_t *chain,
		    size_t max)
{
	size_t len = 0, next, i, tmp;

	if (root >= n || !max)
		return 0;
	chain[len++] = root;
	while (len < max && (next = kft_err_next(calls, n, chain[len - 1], chain, len)) < n)
		chain[len++] = next;
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
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a, over the key's words */
	const uint64_t words[] = { (uint64_t)c->entry, (uint64_t)c->delta, c->func,
				   (uint64_t)(uint32_t)c->pid << 32 | (uint32_t)c->cpu };
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		h ^= words[i];
		h *= 1099511628211ULL;
	}
	return h;
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
	s->keys[i].comm = NULL;	/* not the key's, and its text is the log's */
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
