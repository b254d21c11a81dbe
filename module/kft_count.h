/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Count mode: how many times each traced function was entered, counted per
 * CPU on the traced path and summed when read.
 *
 * The table maps a traced address to a slot: an open-addressing hash of
 * addresses shared by all CPUs, filled on a function's first call (one
 * compare-and-swap, then only read), beside per-CPU counters indexed by
 * slot (in per-CPU chunks of 4096: the per-CPU allocator's largest piece
 * is 32 KiB). The traced path takes no lock, allocates nothing, and writes
 * only its own CPU's counter, with one this_cpu_inc().
 */
#ifndef KFT_COUNT_H
#define KFT_COUNT_H

#include <linux/ftrace.h>
#include <linux/kallsyms.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "kft_config.h"

struct kft_run;
struct module;

#define KFT_COUNT_CHUNK_SHIFT	12
#define KFT_COUNT_CHUNK		(1UL << KFT_COUNT_CHUNK_SHIFT)	/* counters */

struct kft_count_table {
	unsigned int bits;		/* 1 << bits slots */
	unsigned int shift;		/* 64 - bits: the hash's */
	unsigned long *ips;		/* 0: free; start | 1: retired (module gone) */
	/* Slot i counts in chunks[i / KFT_COUNT_CHUNK][i % KFT_COUNT_CHUNK]. */
	unsigned long __percpu **chunks;
	unsigned long __percpu *chunk0;	/* chunks[0], one load nearer */
	unsigned int nr_chunks;
	/* Held while summing, emptying and retiring: a sum sees one run. */
	struct mutex sum_lock;
	struct list_head gone;		/* struct kft_count_gone: retired names */
};

/* The entry hook of a count-mode run (inside its struct kft_run). */
struct kft_counter {
	struct ftrace_ops ops;
	bool attached;
};

/* One function in a reader's snapshot. */
struct kft_count_entry {
	unsigned long ip;
	unsigned long count;
	char *gone_name;		/* a function of an unloaded module (a copy) */
};

/* The name of a retired slot's function, taken before its module went. */
struct kft_count_gone {
	struct list_head list;
	unsigned long slot;
	char name[KSYM_SYMBOL_LEN];
};

/* A reader's snapshot, most-called first. */
struct kft_count_view {
	struct kft_count_entry *entries;
	unsigned long nr;
	unsigned long calls;
	u64 taken_ns;			/* kft_now() when summed */
};

int kft_count_table_alloc(struct kft_count_table *t, unsigned int nr_funcs,
			  bool any_glob);
void kft_count_table_free(struct kft_count_table *t);
void kft_count_table_reset(struct kft_count_table *t);
unsigned long kft_count_table_slots(const struct kft_count_table *t);
size_t kft_count_table_bytes(const struct kft_count_table *t);
void kft_count_totals(struct kft_count_table *t, unsigned long *calls,
		      unsigned long *functions, unsigned long *used);
int kft_count_view_build(struct kft_count_table *t, struct kft_count_view *view);
void kft_count_view_free(struct kft_count_view *view);

int kft_counter_attach(struct kft_counter *c, struct kft_run *run,
		       const struct kft_func_ref *funcs, unsigned int nr_funcs,
		       struct kft_parse_error *err);
void kft_counter_detach(struct kft_counter *c);
unsigned int kft_counter_drop_module(struct kft_counter *c, struct module *mod,
				     const unsigned long *addrs, unsigned int nr);

#endif
