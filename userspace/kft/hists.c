// SPDX-License-Identifier: GPL-2.0
/*
 * Histograms of a histogram-mode log (pure): two snapshots subtracted
 * bucket by bucket (the module's counts only grow during a run, as count
 * mode's), summed over the functions or kept apart (per function, or per
 * function and value of an argument), and printed as
 * libbpf-tools' funclatency prints them (its print_log2_hist(): "LOW ->
 * HIGH : COUNT |stars|", up to the last bucket with calls).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kft.h"

/* Entry i's buckets, or NULL when the log had none for it. */
static const uint64_t *kft_hist_buckets(const struct kft_counts *c, size_t i)
{
	return c->buckets && i < c->buckets_cap ? c->buckets + i * KFT_HIST_BUCKETS : NULL;
}

static int kft_hist_row_cmp(const void *a, const void *b)
{
	const struct kft_hist_row *x = a, *y = b;

	int d;

	if (x->count != y->count)
		return x->count < y->count ? -1 : 1;
	d = strcmp(x->name, y->name);
	return d ? d : strcmp(x->value, y->value);
}

struct kft_hist_row *kft_hists_delta(const struct kft_counts *cur, const struct kft_counts *prev,
				     size_t *n)
{
	const uint64_t *now, *before;
	struct kft_hist_row *rows, *r;
	const struct kft_count *p;
	size_t i, b;

	*n = 0;
	if (!cur->nr)
		return NULL;
	rows = calloc(cur->nr, sizeof(*rows));
	if (!rows)
		return NULL;
	for (i = 0; i < cur->nr; i++) {
		r = &rows[*n];
		now = kft_hist_buckets(cur, i);
		p = prev ? kft_counts_find_value(prev, cur->v[i].addr, cur->v[i].name,
						 cur->v[i].value) : NULL;
		before = p ? kft_hist_buckets(prev, (size_t)(p - prev->v)) : NULL;
		/* Fewer than before: the run was primed again; count from zero. */
		if (p && p->count > cur->v[i].count)
			before = NULL;
		r->name = cur->v[i].name;
		r->value = cur->v[i].value;
		for (b = 0; now && b < KFT_HIST_BUCKETS; b++) {
			r->buckets[b] = now[b] - (before && before[b] <= now[b] ? before[b] : 0);
			r->count += r->buckets[b];
		}
		*n += r->count != 0;
	}
	qsort(rows, *n, sizeof(*rows), kft_hist_row_cmp);
	return rows;
}

void kft_hists_sum(const struct kft_hist_row *rows, size_t n, uint64_t *buckets)
{
	size_t i, b;

	memset(buckets, 0, KFT_HIST_BUCKETS * sizeof(*buckets));
	for (i = 0; i < n; i++)
		for (b = 0; b < KFT_HIST_BUCKETS; b++)
			buckets[b] += rows[i].buckets[b];
}

/* libbpf-tools' print_stars(): width stars for the largest, '+' past it. */
static void kft_hist_stars(FILE *out, uint64_t val, uint64_t val_max, int width)
{
	int stars = (int)((val < val_max ? val : val_max) * (uint64_t)width / val_max), i;

	for (i = 0; i < width; i++)
		fputc(i < stars ? '*' : ' ', out);
	if (val > val_max)
		fputc('+', out);
}

void kft_hist_print(FILE *out, const uint64_t *buckets, const char *unit)
{
	int i, idx_max = -1, stars, width;
	unsigned long long low, high;
	uint64_t val_max = 0;

	for (i = 0; i < KFT_HIST_BUCKETS; i++) {
		if (buckets[i])
			idx_max = i;
		if (buckets[i] > val_max)
			val_max = buckets[i];
	}
	if (idx_max < 0)
		return;
	fprintf(out, "%*s%-*s : count    distribution\n", idx_max <= 32 ? 5 : 15, "",
		idx_max <= 32 ? 19 : 29, unit);
	stars = idx_max <= 32 ? 40 : 20;
	width = idx_max <= 32 ? 10 : 20;
	for (i = 0; i <= idx_max; i++) {
		low = (1ULL << (i + 1)) >> 1;
		/* The module's last bucket takes every longer call too. */
		high = i == KFT_HIST_BUCKETS - 1 ? UINT64_MAX : (1ULL << (i + 1)) - 1;
		if (low == high)
			low -= 1;
		fprintf(out, "%*llu -> %-*llu : %-8" PRIu64 " |", width, low, width, high,
			buckets[i]);
		kft_hist_stars(out, buckets[i], val_max, stars);
		fputs("|\n", out);
	}
}
