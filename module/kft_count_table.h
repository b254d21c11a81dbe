/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The count table (kft_count_table.c): how many times each traced function
 * was entered, counted per CPU on the traced path (count mode,
 * kft_mode_count.c) and summed when read.
 *
 * The table maps a traced address to a slot: an open-addressing hash of
 * addresses shared by all CPUs, filled on a function's first call (one
 * compare-and-swap, then only read), beside per-CPU counters indexed by
 * slot (in per-CPU chunks of 4096: the per-CPU allocator's largest piece
 * is 32 KiB). The traced path takes no lock, allocates nothing, and writes
 * only its own CPU's counter, with one this_cpu_inc().
 *
 * A module's unload retires its functions' slots: they keep their counts
 * under their function's name, and no call matches them. When the module
 * comes back at the same addresses and goes again, each function's newer
 * retired slot adds its counts to the older one and is free again, for
 * any function's first call: a module loaded and unloaded over and over
 * holds no more slots than once, and each of its functions one row.
 *
 * A run per value of an argument (per-arg, in count or histogram mode)
 * keys a slot by the function and the value: the table then has an array of values beside
 * the addresses, and a call that finds its pair nowhere claims a slot in
 * two steps (kft_count_slot_value()).
 *
 * A slot has width counters: 1 in count mode (its calls), one per bucket
 * in histogram mode (kft_mode_histogram.c); slot s's counter b is number
 * s * width + b.
 *
 * Counters have 64 bits on every architecture: a busy function passes 2^32
 * calls in an hour. Where a long has 32 bits, a 64-bit this_cpu_inc() is
 * two stores that another CPU's reader can see half done, so there the
 * increment is an atomic64_inc() of this CPU's counter (or, after a
 * migration, of the last CPU's: still counted once) and a read is an
 * atomic64_read().
 */
#ifndef KFT_COUNT_TABLE_H
#define KFT_COUNT_TABLE_H

#include <linux/atomic.h>
#include <linux/hash.h>
#include <linux/kallsyms.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/types.h>

struct module;

#define KFT_COUNT_CHUNK_SHIFT	12
#define KFT_COUNT_CHUNK		(1UL << KFT_COUNT_CHUNK_SHIFT)	/* counters */
#define KFT_COUNT_RETIRED	1UL	/* ip | 1: a function of a module gone */
/*
 * A retired slot whose counts went to an older retired slot of the same
 * function: free again, for whichever function's first call probes it.
 */
#define KFT_COUNT_REUSABLE	2UL
/* A slot whose value is being written: no function's, not yet counted. */
#define KFT_COUNT_CLAIMING	(~0UL)

struct kft_count_table {
	unsigned int bits;		/* 1 << bits slots */
	unsigned int shift;		/* BITS_PER_LONG - bits: the hash's */
	unsigned int width;		/* counters a slot */
	bool by_value;			/* per-arg: values beside the addresses */
	/* 0: free; start | 1: retired (module gone); 2: free again */
	unsigned long *ips;
	unsigned long *values;		/* per-arg: each slot's value, else NULL */
	/* Slot i counts in chunks[i / KFT_COUNT_CHUNK][i % KFT_COUNT_CHUNK]. */
	u64 __percpu **chunks;
	u64 __percpu *chunk0;		/* chunks[0], one load nearer */
	unsigned int nr_chunks;
	unsigned int pcpu_ext;		/* kft_pcpu_ext_bytes() of the allocating task */
	/* Held while summing, emptying and retiring: a sum sees one run. */
	struct mutex sum_lock;
	struct list_head gone;		/* struct kft_count_gone: retired names */
	/* Each retired slot's name, by slot (NULL: none kept); NULL until a retirement. */
	struct kft_count_gone **gone_of;
	size_t gone_bytes;		/* gone_of and the names: kft_count_table_bytes() */
};

struct kft_count_gone;

/* One function in a reader's snapshot. */
struct kft_count_entry {
	unsigned long ip;
	unsigned long value;		/* per-arg: the argument's */
	u64 count;
	bool gone;			/* a function of an unloaded module */
	/* its name, or NULL: valid while the sum lock is held */
	const struct kft_count_gone *gone_id;
	char *gone_name;		/* a copy of that name, or NULL: none kept */
	const u64 *counters;		/* width > 1: the slot's, summed (count: theirs) */
};

/*
 * The name of a function of a module that went, taken before it went:
 * one for all the slots of the function (a per-arg function has one a
 * value) that the module's unload retired.
 */
struct kft_count_gone {
	struct list_head list;
	unsigned long slots;		/* the retired slots that have this name */
	char name[];
};

/* A reader's snapshot, most-called first. */
struct kft_count_view {
	struct kft_count_entry *entries;
	u64 *counters;			/* width > 1: each entry's, in one array */
	unsigned long nr;
	u64 calls;
	u64 taken_ns;			/* kft_now() when summed */
};

int kft_count_table_alloc(struct kft_count_table *t, unsigned int nr_funcs,
			  bool any_glob, unsigned int width, unsigned int max_functions,
			  bool by_value);
void kft_count_table_free(struct kft_count_table *t);
void kft_count_table_reset(struct kft_count_table *t);
unsigned long kft_count_table_slots(const struct kft_count_table *t);
size_t kft_count_table_bytes(const struct kft_count_table *t);
void kft_count_totals(struct kft_count_table *t, u64 *calls,
		      unsigned long *functions, unsigned long *used);
int kft_count_view_build(struct kft_count_table *t, struct kft_count_view *view);
/* Counter @i of the table (slot * width + b), summed over the CPUs. */
u64 kft_count_sum_at(const struct kft_count_table *t, unsigned long i);
void kft_count_view_free(struct kft_count_view *view);

long kft_count_slot_slow(struct kft_count_table *t, unsigned long ip);
long kft_count_slot_value(struct kft_count_table *t, unsigned long ip, unsigned long value);
void kft_count_retire_module(struct kft_count_table *t, struct module *mod, bool init);

/* The traced path's parts, inline in count mode's hook. */
static __always_inline unsigned long kft_count_hash(const struct kft_count_table *t,
						    unsigned long ip)
{
	/* hash_long()'s multiplication, with the shift kept in the table */
#if BITS_PER_LONG == 64
	return (ip * GOLDEN_RATIO_64) >> t->shift;
#else
	return (u32)(ip * GOLDEN_RATIO_32) >> t->shift;
#endif
}

/* The first slot a function and a value probe (a table by_value). */
static __always_inline unsigned long kft_count_value_hash(const struct kft_count_table *t,
							  unsigned long ip, unsigned long value)
{
	return kft_count_hash(t, ip ^ hash_long(value, BITS_PER_LONG));
}

/*
 * Where the kernel makes 64-bit atomics of a spinlock
 * (CONFIG_GENERIC_ATOMIC64: ARMv6 and older, 32-bit RISC-V),
 * atomic64_inc() is a traceable function that takes a lock: count mode's
 * hook would count its own increment, from any context. kft builds for
 * none of those.
 */
#ifdef CONFIG_GENERIC_ATOMIC64
#error "kft needs the CPU's own 64-bit atomics: this kernel has CONFIG_GENERIC_ATOMIC64"
#endif

/*
 * Counter @c + 1, on this CPU, from any context. x86-64 adds it in one
 * instruction (incq %gs:...), which neither an interrupt nor a migration
 * can split. Elsewhere this_cpu_inc() raises the preemption count around
 * an atomic add; the atomic add alone does as well: a task moved to
 * another CPU meanwhile adds its one, atomically, to the counter it found,
 * and the counters are only ever summed.
 */
static __always_inline void kft_counter_inc(u64 __percpu *c)
{
#ifdef CONFIG_X86_64
	this_cpu_inc(*c);
#else
	atomic64_inc((atomic64_t *)raw_cpu_ptr(c));
#endif
}

/* One CPU's counter, whole, while that CPU may count. */
static __always_inline u64 kft_counter_read(const u64 *c)
{
#if BITS_PER_LONG == 64
	return READ_ONCE(*c);
#else
	return atomic64_read((const atomic64_t *)c);
#endif
}

/* Counter @i (slot * width + bucket; the slot in count mode) + 1, on this CPU. */
static __always_inline void kft_count_inc(struct kft_count_table *t, unsigned long i)
{
	kft_counter_inc(&t->chunks[i >> KFT_COUNT_CHUNK_SHIFT][i & (KFT_COUNT_CHUNK - 1)]);
}

#endif
