// SPDX-License-Identifier: GPL-2.0
/*
 * The count table (see kft_count_table.h): its memory, the slot a
 * function's first call claims, the sums a reader sees, and the slots of
 * a module that goes away.
 *
 * Counts only grow during a run; `prime` empties them. A reader that wants
 * interval deltas reads twice and subtracts: nothing is reset by reading,
 * so no call is lost or counted twice between two reads, and resetting
 * other CPUs' counters while they count could not be made exact without an
 * atomic operation on the traced path.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "kft_clock.h"
#include "kft_compat.h"
#include "kft_count_table.h"
#include "kft_mem.h"
#include "kft_symbol.h"

/*
 * The table's size when the traced set is not a list of names: a glob or
 * every function. Each slot costs 8 bytes, plus 8 bytes per CPU; the table
 * has twice as many slots as this, so that probing stays short.
 */
static unsigned int count_functions = 65536;
module_param(count_functions, uint, 0644);
MODULE_PARM_DESC(count_functions,
		 "functions a count-mode run with a glob or every function can count (default 65536)");

/*
 * Where every counter of a run starts: 0, but for the tests of counts past
 * 32 bits, which cannot make 4 billion calls.
 */
static unsigned long long count_start;
module_param(count_start, ullong, 0644);
MODULE_PARM_DESC(count_start,
		 "value every counter of a count or histogram table starts at, for tests (default 0)");

#define KFT_COUNT_MAX_FUNCTIONS	(1U << 22)
/* A lookup gives up after this many slots: the call counts as "table full". */
#define KFT_COUNT_MAX_PROBES	64
#define KFT_COUNT_GFP		(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN | \
				 __GFP_ZERO)
/*
 * The per-CPU counters. The per-CPU allocator gives no __GFP_RETRY_MAYFAIL
 * to the page allocator, but passes __GFP_NORETRY on: failing is an error
 * for the writer, not an OOM kill.
 */
#define KFT_COUNT_PERCPU_GFP	(GFP_KERNEL_ACCOUNT | __GFP_NORETRY | __GFP_NOWARN)

/*
 * Slots for a traced set: a name can match several functions (static
 * functions share names), so a list gets four slots a name.
 */
static unsigned int kft_count_bits(unsigned int nr_funcs, bool any_glob,
				   unsigned int max_functions)
{
	unsigned long n = any_glob || !nr_funcs ?
			  2UL * clamp(max_functions, 64U, KFT_COUNT_MAX_FUNCTIONS) :
			  4UL * nr_funcs + 64;

	return ilog2(roundup_pow_of_two(n));
}

/*
 * The counters chunk @i holds: KFT_COUNT_CHUNK, the last one the rest (a
 * histogram table of 128 slots has 5120 counters, not two full chunks).
 */
static size_t kft_count_chunk_len(const struct kft_count_table *t, unsigned int i)
{
	size_t counters = kft_count_table_slots(t) * t->width;

	return min_t(size_t, counters - (size_t)i * KFT_COUNT_CHUNK, KFT_COUNT_CHUNK);
}

/**
 * kft_count_table_alloc() - an empty table for a traced set
 * @t:		the table
 * @nr_funcs:	functions in the funclist, 0 for every function
 * @any_glob:	one of them is a glob
 * @width:	counters a slot (1: a count; a histogram's buckets)
 * @max_functions: the functions a glob or every function can take
 * @by_value:	slots keyed by a function and a value (then sized as for a
 *		glob: a function has as many slots as values)
 *
 * Return: 0, or -ENOMEM (also when it would take over half of the
 * available memory).
 */
int kft_count_table_alloc(struct kft_count_table *t, unsigned int nr_funcs,
			  bool any_glob, unsigned int width, unsigned int max_functions,
			  bool by_value)
{
	unsigned long slots, counters;
	unsigned int i;

	t->bits = kft_count_bits(nr_funcs, any_glob || by_value, max_functions ?: count_functions);
	t->by_value = by_value;
	t->shift = BITS_PER_LONG - t->bits;
	t->width = width;
	slots = 1UL << t->bits;
	counters = slots * width;
	t->nr_chunks = DIV_ROUND_UP(counters, KFT_COUNT_CHUNK);
	t->pcpu_ext = kft_pcpu_ext_bytes();
	mutex_init(&t->sum_lock);
	INIT_LIST_HEAD(&t->gone);
	if (!kft_mem_fits(kft_count_table_bytes(t)))
		return -ENOMEM;
	t->ips = kvmalloc_array(slots, sizeof(*t->ips), KFT_COUNT_GFP);
	t->chunks = kcalloc(t->nr_chunks, sizeof(*t->chunks), KFT_COUNT_GFP);
	if (by_value)
		t->values = kvmalloc_array(slots, sizeof(*t->values), KFT_COUNT_GFP);
	if (!t->ips || !t->chunks || (by_value && !t->values))
		goto err_free;
	for (i = 0; i < t->nr_chunks; i++) {
		t->chunks[i] = __alloc_percpu_gfp(kft_count_chunk_len(t, i) * sizeof(u64),
						  sizeof(u64), KFT_COUNT_PERCPU_GFP);
		if (!t->chunks[i])
			goto err_free;
	}
	t->chunk0 = t->chunks[0];
	return 0;

err_free:
	kft_count_table_free(t);
	return -ENOMEM;
}

static void kft_count_gone_free(struct kft_count_table *t)
{
	struct kft_count_gone *g, *tmp;

	list_for_each_entry_safe(g, tmp, &t->gone, list) {
		list_del(&g->list);
		kfree(g);
	}
	kvfree(t->gone_of);
	t->gone_of = NULL;
	t->gone_bytes = 0;
}

void kft_count_table_free(struct kft_count_table *t)
{
	unsigned int i;

	if (t->gone.next)
		kft_count_gone_free(t);
	for (i = 0; t->chunks && i < t->nr_chunks; i++)
		free_percpu(t->chunks[i]);
	kfree(t->chunks);
	kvfree(t->ips);
	kvfree(t->values);
	t->chunks = NULL;
	t->ips = NULL;
	t->values = NULL;
}

unsigned long kft_count_table_slots(const struct kft_count_table *t)
{
	return 1UL << t->bits;
}

/*
 * What the per-CPU allocator keeps per byte of a unit of the chunks the
 * counters fill, in eighths: its object extensions (@ext bytes per 4
 * bytes, kft_pcpu_ext_bytes()), its allocation and boundary bitmaps (a bit
 * each per 4 bytes) and a block header per page, the last two rounded up
 * to an eighth.
 */
#define KFT_PCPU_META_EIGHTHS(ext)	((ext) * 8 / 4 + 1)

/**
 * kft_count_table_bytes() - the memory a table takes
 * @t:		the table, its size set
 *
 * The addresses (and values), the chunks' pointers, and the counters: a unit on each
 * possible CPU, with the per-CPU allocator's bookkeeping for that unit; and
 * once a module went away, the names of its functions that had slots.
 * (The bookkeeping for memory cgroups alone is twice the counters on a
 * 64-bit kernel: a pointer per 4 bytes.) Summed in 64 bits: on a 32-bit
 * kernel the largest tables' counters of a few CPUs pass 4 GiB, and a
 * size_t sum would wrap to a size that may seem to fit.
 *
 * Return: the bytes, at most SIZE_MAX.
 */
size_t kft_count_table_bytes(const struct kft_count_table *t)
{
	u64 slots = kft_count_table_slots(t);
	u64 unit = slots * t->width * sizeof(u64);
	u64 bytes = slots * sizeof(*t->ips) * (t->by_value ? 2 : 1) +
		    (u64)t->nr_chunks * sizeof(*t->chunks) +
		    unit * num_possible_cpus() + unit / 8 * KFT_PCPU_META_EIGHTHS(t->pcpu_ext) +
		    t->gone_bytes;

	return min_t(u64, bytes, SIZE_MAX);
}

/* Every counter of chunk @chunk (@n of them) at @value, on every CPU. */
static void kft_count_chunk_fill(u64 __percpu *chunk, size_t n, u64 value)
{
	size_t i;
	int cpu;

	for_each_possible_cpu(cpu) {
		u64 *c = per_cpu_ptr(chunk, cpu);

		if (!value) {
			memset(c, 0, n * sizeof(*c));
			continue;
		}
		for (i = 0; i < n; i++)
			c[i] = value;
	}
}

/* Empty, for a new run: only while the hook counts nothing (not running). */
void kft_count_table_reset(struct kft_count_table *t)
{
	size_t slots = kft_count_table_slots(t);
	u64 start = READ_ONCE(count_start);
	unsigned int i;

	mutex_lock(&t->sum_lock);
	kft_count_gone_free(t);
	memset(t->ips, 0, slots * sizeof(*t->ips));
	if (t->values)
		memset(t->values, 0, slots * sizeof(*t->values));
	for (i = 0; i < t->nr_chunks; i++) {
		kft_count_chunk_fill(t->chunks[i], kft_count_chunk_len(t, i), start);
		cond_resched();
	}
	mutex_unlock(&t->sum_lock);
}

/*
 * Claims slot @i, free again after a retirement, for @key: true when it
 * is @key's now (this CPU's claim, or another's of the same key).
 */
static __always_inline bool kft_count_reclaim(struct kft_count_table *t, unsigned long i,
					      unsigned long key)
{
	unsigned long cur = cmpxchg(&t->ips[i], KFT_COUNT_REUSABLE, key);

	return cur == KFT_COUNT_REUSABLE || cur == key;
}

/*
 * The slot of a traced address when it is not the first one probed:
 * claimed on the function's first call. Every CPU probes the same way from
 * the same start, so a function has one slot; two CPUs claiming the same
 * free slot agree through the cmpxchg. A slot free again after a
 * retirement is taken only once the address is known to be nowhere
 * further on (a free slot or the end of the probes). A CPU that began
 * probing before that slot was freed may claim a later one for the same
 * address: then the function has two slots, which a reader adds up
 * (kft_count_view_merge()). -1: no slot within reach.
 */
notrace noinline long kft_count_slot_slow(struct kft_count_table *t,
						 unsigned long ip)
{
	unsigned long mask = (1UL << t->bits) - 1;
	unsigned long i = kft_count_hash(t, ip), cur;
	long reusable = -1;
	unsigned int n;

	for (n = 0; n < KFT_COUNT_MAX_PROBES; n++, i = (i + 1) & mask) {
		cur = READ_ONCE(t->ips[i]);
		if (cur == ip)
			return i;
		if (cur == KFT_COUNT_REUSABLE && reusable < 0)
			reusable = i;
		if (cur)
			continue;
		if (reusable >= 0 && kft_count_reclaim(t, reusable, ip))
			return reusable;
		cur = cmpxchg(&t->ips[i], 0, ip);
		if (!cur || cur == ip)
			return i;
	}
	if (reusable >= 0 && kft_count_reclaim(t, reusable, ip))
		return reusable;
	return -1;
}
NOKPROBE_SYMBOL(kft_count_slot_slow);

/*
 * Claims slot @i, free (@free: 0 or KFT_COUNT_REUSABLE), for the pair of
 * @ip and @value: true when it is theirs now.
 */
static __always_inline bool kft_count_claim_value(struct kft_count_table *t, unsigned long i,
						  unsigned long free, unsigned long ip,
						  unsigned long value)
{
	if (cmpxchg(&t->ips[i], free, KFT_COUNT_CLAIMING) != free)
		return false;
	WRITE_ONCE(t->values[i], value);
	/* The value before the address that makes it a pair's. */
	smp_store_release(&t->ips[i], ip);
	return true;
}

/*
 * The slot of a function and a value (a table by_value), claimed at the
 * pair's first call. A slot holds two words, so the claim takes two
 * steps: the address word goes from free to KFT_COUNT_CLAIMING (one
 * cmpxchg), the value is written, then the address is published with
 * release order, so a CPU that sees the address sees its value. A CPU
 * that meets a slot being claimed does not wait for it (the claimer may
 * be the task this CPU interrupted) but probes on: two CPUs that first
 * call one pair at once may claim two slots for it, which a reader's
 * view adds up (kft_count_view_merge()). A slot free again after a
 * retirement is taken as kft_count_slot_slow() takes one. -1: no slot
 * within reach.
 */
notrace noinline long kft_count_slot_value(struct kft_count_table *t, unsigned long ip,
					   unsigned long value)
{
	unsigned long mask = (1UL << t->bits) - 1;
	unsigned long i = kft_count_value_hash(t, ip, value), cur;
	long reusable = -1;
	unsigned int n;

	for (n = 0; n < KFT_COUNT_MAX_PROBES; n++, i = (i + 1) & mask) {
		/* Pairs with the release above: an address seen, its value is. */
		cur = smp_load_acquire(&t->ips[i]);
		if (cur == KFT_COUNT_REUSABLE && reusable < 0)
			reusable = i;
		if (!cur) {
			if (reusable >= 0 &&
			    kft_count_claim_value(t, reusable, KFT_COUNT_REUSABLE, ip, value))
				return reusable;
			if (kft_count_claim_value(t, i, 0, ip, value))
				return i;
			/* Lost the claim: the winner's pair may be this one. */
			cur = smp_load_acquire(&t->ips[i]);
		}
		if (cur == ip && READ_ONCE(t->values[i]) == value)
			return i;
	}
	if (reusable >= 0 && kft_count_claim_value(t, reusable, KFT_COUNT_REUSABLE, ip, value))
		return reusable;
	return -1;
}
NOKPROBE_SYMBOL(kft_count_slot_value);

/* Whether a slot's key is a function's (claimed, retired or being claimed). */
static bool kft_count_taken(unsigned long key)
{
	return key && key != KFT_COUNT_REUSABLE;
}

u64 kft_count_sum_at(const struct kft_count_table *t, unsigned long i)
{
	u64 __percpu *chunk = t->chunks[i >> KFT_COUNT_CHUNK_SHIFT];
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += kft_counter_read(&per_cpu_ptr(chunk, cpu)[i & (KFT_COUNT_CHUNK - 1)]);
	return sum;
}

/* A slot's counters, summed: its calls. */
static u64 kft_count_sum(const struct kft_count_table *t, unsigned long slot)
{
	unsigned long b;
	u64 sum = 0;

	for (b = 0; b < t->width; b++)
		sum += kft_count_sum_at(t, slot * t->width + b);
	return sum;
}

/**
 * kft_count_totals() - what /proc/kft shows
 * @t:		the table
 * @calls:	calls counted
 * @functions:	functions called at least once
 * @used:	slots taken
 */
void kft_count_totals(struct kft_count_table *t, u64 *calls,
		      unsigned long *functions, unsigned long *used)
{
	unsigned long slot;
	u64 n;

	*calls = *functions = *used = 0;
	mutex_lock(&t->sum_lock);
	for (slot = 0; slot < kft_count_table_slots(t); slot++) {
		if (!(slot & 1023))
			cond_resched();
		if (!kft_count_taken(READ_ONCE(t->ips[slot])))
			continue;
		++*used;
		n = kft_count_sum(t, slot);
		*calls += n;
		*functions += n != 0;
	}
	mutex_unlock(&t->sum_lock);
}

/* A retired slot's name, or NULL: none was kept (no memory at the unload). */
static const struct kft_count_gone *kft_count_gone_of(const struct kft_count_table *t,
						      unsigned long slot)
{
	return t->gone_of ? t->gone_of[slot] : NULL;
}

static int kft_count_entry_cmp(const void *a, const void *b)
{
	const struct kft_count_entry *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

/* By function, then value: a pair's slots next to each other. */
static int kft_count_entry_key_cmp(const void *a, const void *b)
{
	const struct kft_count_entry *x = a, *y = b;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

/*
 * A histogram's row @to gets @from's buckets too: its counters, the view's
 * own (@width of them; the entry's pointer is the readers' const view).
 */
static void kft_count_view_add_counters(struct kft_count_view *view, unsigned int width,
					const struct kft_count_entry *to,
					const struct kft_count_entry *from)
{
	u64 *dst = view->counters + (to->counters - view->counters);
	unsigned int b;

	for (b = 0; b < width; b++)
		dst[b] += from->counters[b];
}

/*
 * A function (or a pair) that two CPUs claimed at once has two slots
 * (kft_count_slot_slow(), kft_count_slot_value()): one row, their sum (a
 * histogram's: bucket by bucket). A retired slot
 * keeps apart from a live one of the same function (its ip has
 * KFT_COUNT_RETIRED, not in the entry's), and from one of another
 * module's function that was at the same address (another name).
 */
static void kft_count_view_merge(struct kft_count_view *view, unsigned int width)
{
	struct kft_count_entry *e = view->entries;
	unsigned long i, n = 0;

	sort(e, view->nr, sizeof(*e), kft_count_entry_key_cmp, NULL);
	for (i = 0; i < view->nr; i++) {
		if (n && e[i].ip == e[n - 1].ip && e[i].value == e[n - 1].value &&
		    e[i].gone == e[n - 1].gone && e[i].gone_id == e[n - 1].gone_id) {
			e[n - 1].count += e[i].count;
			if (view->counters)
				kft_count_view_add_counters(view, width, &e[n - 1], &e[i]);
			kfree(e[i].gone_name);
			continue;
		}
		e[n++] = e[i];
	}
	view->nr = n;
}

/*
 * Copies one slot's function and sum (with width > 1, each of its
 * counters, and their sum) into the view (0 calls: left out).
 */
static void kft_count_view_add(struct kft_count_table *t, struct kft_count_view *view,
			       unsigned long slot)
{
	/* Pairs with kft_count_slot_value()'s release: the value is the address's. */
	unsigned long ip = smp_load_acquire(&t->ips[slot]);
	struct kft_count_entry *e = &view->entries[view->nr];
	u64 n = 0, *counters = NULL;
	unsigned long b;

	/*
	 * Its first call is still being counted: it belongs to the next read.
	 * (A slot freed again after the first pass cannot be: retiring waits
	 * for the sum's lock.)
	 */
	if (ip == KFT_COUNT_CLAIMING)
		return;

	if (view->counters) {
		counters = view->counters + view->nr * t->width;
		for (b = 0; b < t->width; b++) {
			counters[b] = kft_count_sum_at(t, slot * t->width + b);
			n += counters[b];
		}
	} else {
		n = kft_count_sum(t, slot);
	}
	if (!n)
		return;
	e->counters = counters;
	e->ip = ip & ~KFT_COUNT_RETIRED;
	e->value = t->values ? READ_ONCE(t->values[slot]) : 0;
	e->count = n;
	e->gone = ip & KFT_COUNT_RETIRED;
	e->gone_id = e->gone ? kft_count_gone_of(t, slot) : NULL;
	/* A copy: a reset may free the names while the reader shows its rows. */
	e->gone_name = e->gone_id ? kstrdup(e->gone_id->name, GFP_KERNEL_ACCOUNT | __GFP_NOWARN) :
				    NULL;
	view->calls += n;
	view->nr++;
}

/**
 * kft_count_view_build() - a reader's snapshot: every function counted,
 * most-called first
 * @t:		the table
 * @view:	filled in; kft_count_view_free() it
 *
 * The caller holds t->sum_lock (taken under kft_mutex, with the header's
 * times: the sums and the header are of one run). The slots claimed at the
 * first pass are marked, and exactly those are summed: a function first
 * called while the sums are taken belongs to the next read, and cannot
 * take the place of one called before (summing "the first so many claimed
 * slots" left one out when a slot lower in the table was claimed between
 * the passes).
 *
 * Return: 0 or -ENOMEM.
 */
int kft_count_view_build(struct kft_count_table *t, struct kft_count_view *view)
{
	unsigned long slots = kft_count_table_slots(t), slot, used = 0, done = 0;
	unsigned long *claimed;

	lockdep_assert_held(&t->sum_lock);
	memset(view, 0, sizeof(*view));
	if (!kft_mem_fits(BITS_TO_LONGS(slots) * sizeof(long)))
		return -ENOMEM;
	claimed = bitmap_zalloc(slots, GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!claimed)
		return -ENOMEM;
	for (slot = 0; slot < slots; slot++) {
		if (kft_count_taken(READ_ONCE(t->ips[slot]))) {
			__set_bit(slot, claimed);
			used++;
		}
	}
	if (used && !kft_mem_fits(array_size(used, sizeof(*view->entries)))) {
		bitmap_free(claimed);
		return -ENOMEM;
	}
	if (t->width > 1 && used &&
	    !kft_mem_fits(array3_size(used, t->width, sizeof(*view->counters)))) {
		bitmap_free(claimed);
		return -ENOMEM;
	}
	view->entries = kvmalloc_array(max(used, 1UL), sizeof(*view->entries),
				       GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (t->width > 1)
		view->counters = kvmalloc_array(max(used, 1UL) * t->width,
						sizeof(*view->counters),
						GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL |
						__GFP_NOWARN);
	if (!view->entries || (t->width > 1 && !view->counters)) {
		bitmap_free(claimed);
		kft_count_view_free(view);
		return -ENOMEM;
	}
	view->taken_ns = kft_now();
	for_each_set_bit(slot, claimed, slots) {
		kft_count_view_add(t, view, slot);
		/* Millions of slots, each a read of every CPU's counters. */
		if (!(++done & 1023))
			cond_resched();
	}
	bitmap_free(claimed);
	kft_count_view_merge(view, t->width);
	sort(view->entries, view->nr, sizeof(*view->entries), kft_count_entry_cmp, NULL);
	return 0;
}

void kft_count_view_free(struct kft_count_view *view)
{
	unsigned long i;

	for (i = 0; view->entries && i < view->nr; i++)
		kfree(view->entries[i].gone_name);
	kvfree(view->entries);
	kvfree(view->counters);
	view->entries = NULL;
	view->counters = NULL;
	view->nr = 0;
}

/* Whether the key @ip of a slot is a function of @mod, not yet retired. */
static bool kft_count_of_module(unsigned long ip, struct module *mod, bool init)
{
	return kft_count_taken(ip) && ip != KFT_COUNT_CLAIMING && !(ip & KFT_COUNT_RETIRED) &&
	       (init ? within_module_init(ip, mod) : within_module(ip, mod));
}

/* A retired slot, by its function's start: the slots of one function share a name. */
struct kft_count_retiring {
	unsigned long start;
	unsigned long slot;
	unsigned long first;	/* the first slot its key probed, while live */
};

static int kft_count_retiring_cmp(const void *a, const void *b)
{
	const struct kft_count_retiring *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * The name of the function at @start, of a module going away, kept for
 * the slots it had: its own length (KSYM_SYMBOL_LEN is far longer than a
 * name). NULL without memory.
 */
static struct kft_count_gone *kft_count_gone_new(struct kft_count_table *t, unsigned long start)
{
	char name[KSYM_SYMBOL_LEN];
	struct kft_count_gone *g;
	size_t len;

	sprint_symbol_no_offset(name, start);
	len = strlen(name) + 1;
	g = kmalloc(struct_size(g, name, len), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (g) {
		memcpy(g->name, name, len);
		g->slots = 0;
		list_add(&g->list, &t->gone);
		t->gone_bytes += struct_size(g, name, len);
	}
	return g;
}

/*
 * The names of the @nr slots retired in @r, one a function: sorted by
 * start, each function's slots take the name of the first.
 */
static void kft_count_gone_name_all(struct kft_count_table *t, struct kft_count_retiring *r,
				    unsigned long nr)
{
	struct kft_count_gone *g = NULL;
	unsigned long i;

	sort(r, nr, sizeof(*r), kft_count_retiring_cmp, NULL);
	for (i = 0; i < nr; i++) {
		if (!i || r[i].start != r[i - 1].start)
			g = kft_count_gone_new(t, r[i].start);
		t->gone_of[r[i].slot] = g;
		if (g)
			g->slots++;
	}
}

/* Room for the names of @nr slots retired now (by slot, and sorted by function). */
static struct kft_count_retiring *kft_count_retiring_alloc(struct kft_count_table *t,
							   unsigned long nr)
{
	unsigned long slots = kft_count_table_slots(t);

	if (!t->gone_of && kft_mem_fits(array_size(slots, sizeof(*t->gone_of)))) {
		t->gone_of = kvcalloc(slots, sizeof(*t->gone_of), KFT_COUNT_GFP);
		if (t->gone_of)
			t->gone_bytes += array_size(slots, sizeof(*t->gone_of));
	}
	if (!t->gone_of || !kft_mem_fits(array_size(nr, sizeof(struct kft_count_retiring))))
		return NULL;
	return kvmalloc_array(nr, sizeof(struct kft_count_retiring), KFT_COUNT_GFP);
}

/* Counter @i (slot * width + b) of CPU @cpu. */
static u64 *kft_count_counter(const struct kft_count_table *t, unsigned long i, int cpu)
{
	return &per_cpu_ptr(t->chunks[i >> KFT_COUNT_CHUNK_SHIFT], cpu)[i & (KFT_COUNT_CHUNK - 1)];
}

/*
 * An older retired slot of the same function as the retired slot @slot
 * (same start, value and name) in the probes of its key, that began at
 * @first; -1: none. A slot keeps to the probes it was claimed in, and no
 * slot between their start and it is ever free again until a reset.
 */
static long kft_count_older_retired(const struct kft_count_table *t, unsigned long slot,
				    unsigned long first)
{
	const struct kft_count_gone *g = kft_count_gone_of(t, slot), *og;
	unsigned long mask = kft_count_table_slots(t) - 1, key = t->ips[slot], i = first, cur;
	unsigned int n;

	for (n = 0; g && n < KFT_COUNT_MAX_PROBES; n++, i = (i + 1) & mask) {
		/* (Other CPUs claim free slots meanwhile, not retired ones.) */
		cur = READ_ONCE(t->ips[i]);
		if (!cur)
			break;
		if (i == slot || cur != key)
			continue;
		if (t->values && t->values[i] != t->values[slot])
			continue;
		og = kft_count_gone_of(t, i);
		if (og && (og == g || !strcmp(og->name, g->name)))
			return i;
	}
	return -1;
}

/* A name no slot has any more: its memory back. */
static void kft_count_gone_put(struct kft_count_table *t, struct kft_count_gone *g)
{
	if (--g->slots)
		return;
	list_del(&g->list);
	t->gone_bytes -= struct_size(g, name, strlen(g->name) + 1);
	kfree(g);
}

/*
 * Retired slot @from's counts added to slot @to's, of the same function;
 * @from is free again. No CPU counts in either: a call matches neither
 * key, and one that matched @from's before its retirement ended within
 * the grace period the caller waited for.
 */
static void kft_count_fold(struct kft_count_table *t, unsigned long from, unsigned long to)
{
	unsigned long b;
	int cpu;

	for_each_possible_cpu(cpu) {
		for (b = 0; b < t->width; b++) {
			u64 *src = kft_count_counter(t, from * t->width + b, cpu);

			*kft_count_counter(t, to * t->width + b, cpu) += *src;
			*src = 0;
		}
	}
	kft_count_gone_put(t, t->gone_of[from]);
	t->gone_of[from] = NULL;
	/* Its counters empty before any CPU can claim it and count. */
	smp_store_release(&t->ips[from], KFT_COUNT_REUSABLE);
}

/*
 * The @nr slots retired in @r that have an older retired slot of their
 * function (the module was here before, at the same addresses): their
 * counts go there, and they are free again. Each of a module's functions
 * keeps one slot however often the module comes and goes.
 */
static void kft_count_fold_all(struct kft_count_table *t, const struct kft_count_retiring *r,
			       unsigned long nr)
{
	unsigned long i;
	bool waited = false;
	long to;

	for (i = 0; i < nr; i++) {
		if (!(i & 1023))
			cond_resched();
		to = kft_count_older_retired(t, r[i].slot, r[i].first);
		if (to < 0)
			continue;
		/* The calls that found the slot before it retired end first. */
		if (!waited) {
			synchronize_rcu();
			waited = true;
		}
		kft_count_fold(t, r[i].slot, to);
	}
}

/**
 * kft_count_retire_module() - the slots of a module's code that goes away
 * @t:		the table
 * @mod:	the module, in its GOING notifier, or in its LIVE one for @init
 * @init:	only its init code's slots (freed once the module is live)
 *
 * They keep their counts and their function's start (its key made odd: no
 * call matches it, and a new function at the same address gets a slot of
 * its own), and the name of their function, taken now, while the module's
 * symbols are there: one a function, whatever its slots (per-arg has one
 * a value). Without memory for the names, the rows show none. A slot whose
 * function has an older retired slot gives it its counts
 * (kft_count_fold_all()).
 */
void kft_count_retire_module(struct kft_count_table *t, struct module *mod, bool init)
{
	unsigned long slots = kft_count_table_slots(t), slot, ip, off, nr = 0, i = 0;
	struct kft_count_retiring *r;

	mutex_lock(&t->sum_lock);
	for (slot = 0; slot < slots; slot++) {
		if (!(slot & 4095))
			cond_resched();
		nr += kft_count_of_module(READ_ONCE(t->ips[slot]), mod, init);
	}
	r = nr ? kft_count_retiring_alloc(t, nr) : NULL;
	for (slot = 0; nr && slot < slots; slot++) {
		if (!(slot & 4095))
			cond_resched();
		ip = READ_ONCE(t->ips[slot]);
		if (!kft_count_of_module(ip, mod, init))
			continue;
		off = 0;
		kft_symbol_offset(ip, &off);
		WRITE_ONCE(t->ips[slot], (ip - off) | KFT_COUNT_RETIRED);
		/* (A slot claimed since the count goes without a name.) */
		if (r && i < nr)
			r[i++] = (struct kft_count_retiring){
				.start = ip - off, .slot = slot,
				.first = t->values ? kft_count_value_hash(t, ip, t->values[slot]) :
					 kft_count_hash(t, ip),
			};
	}
	if (r) {
		kft_count_gone_name_all(t, r, i);
		kft_count_fold_all(t, r, i);
	}
	kvfree(r);
	mutex_unlock(&t->sum_lock);
}
