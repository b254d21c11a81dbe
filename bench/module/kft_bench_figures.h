/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The benchmark modules' figures: the rounds of one row, sorted into their
 * least, median and greatest, each in 1/1000 ns, and their text in the
 * modules' /proc files.
 */
#ifndef KFT_BENCH_FIGURES_H
#define KFT_BENCH_FIGURES_H

#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/sort.h>
#include <linux/types.h>

struct kft_bench_figures {
	u64 min, median, max;
};

static inline int kft_bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* @ns, @rounds of them (at least one), sorted into @f. */
static inline void kft_bench_figures_of(u64 *ns, unsigned int rounds,
					struct kft_bench_figures *f)
{
	sort(ns, rounds, sizeof(*ns), kft_bench_cmp_u64, NULL);
	f->min = ns[0];
	f->median = ns[rounds / 2];
	f->max = ns[rounds - 1];
}

/* A figure as "N.NNN" (div_u64_rem: 32-bit kernels have no u64 division). */
static inline void kft_bench_show_milli(struct seq_file *m, const char *name, u64 v)
{
	u32 rem;
	u64 q = div_u64_rem(v, 1000, &rem);

	seq_printf(m, " %s %llu.%03u", name, q, rem);
}

/* " min N.NNN median N.NNN max N.NNN" */
static inline void kft_bench_figures_show(struct seq_file *m, const struct kft_bench_figures *f)
{
	kft_bench_show_milli(m, "min", f->min);
	kft_bench_show_milli(m, "median", f->median);
	kft_bench_show_milli(m, "max", f->max);
}

#endif
