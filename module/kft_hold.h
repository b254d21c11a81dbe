/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filter roots: the calls a task makes inside a root call are held, per
 * task, until the root returns; then the whole subtree goes into the log
 * if the run's filters (mintime, maxtime, errors) keep the root call, and
 * is dropped if not. Only the outermost root call of a task decides: a
 * root called inside another is one more call of its subtree.
 *
 * The holding space is a table of slots, each {owner task, records held,
 * calls cut, records[holdentries]}. A task holds a slot
 * from the entry of its outermost root call to its return, found by a
 * hash of the task pointer (kft_tasktab.h), as fast hooks find their
 * shadow stacks. Entry claims the first free probed slot (a
 * compare-and-swap of the owner) when the task owns none, and only then
 * looks whether the call is a root's: a task that owns a slot is inside
 * its outermost root call, whose own call alone gives the slot back.
 *
 * A held record is what the log's would be but for the task's pid, and for
 * its times, in cycles where the run times its calls in cycles: the flush
 * of a kept subtree, in the task as its root returns, writes the pid it
 * returns with (a thread that execs inside its root has its leader's
 * since, as a logged call's exit would write) and puts the times in ns,
 * so that a call dropped with its root never pays for either.
 *
 * Only the owner writes its slot once it is claimed: calls made in
 * interrupts belong to no task's root call, and are not hooked at all in
 * such a run. But an interrupt's first and last calls (irq_enter_rcu(),
 * handle_softirqs() on the way out) run before it counts itself in
 * preempt_count, so they are seen as the task's own, held in its slot as
 * function_graph shows them inside the call they interrupted, and written
 * from the interrupt. So a record's index is taken in one step that an
 * interrupt on the same CPU cannot split (kft_hold_room()); the rest needs
 * no lock: a preempted owner finishes its own write when it runs again, on
 * whatever CPU.
 *
 * Once the root has returned, its exit reads the slot to flush it: a call
 * of an interrupt that comes meanwhile is not held (kft_hold_put()). It
 * lies outside the root's time, which the flush leaves out anyway, and a
 * full slot's ring would give it a record the flush has counted or is
 * copying.
 *
 * A root call that finds no free slot is not held (counted as missed); a
 * subtree larger than the slot is kept cut (kft_hold_room()), its root's
 * record marked and the calls left out counted.
 *
 * args string and args struct copy what a call's argument points to at
 * its entry, but a held call has its place among the slot's records only
 * at its exit. So the copy waits meanwhile in the slot's open stack, at
 * the call's depth among the held calls still open, and moves beside its
 * record at the exit, where a cut slot overwrites the two together. A
 * stack as deep as the slot has records loses nothing: a call that many
 * held calls deep returns before every one of them, and so is among the
 * calls a cut slot overwrites.
 */
#ifndef KFT_HOLD_H
#define KFT_HOLD_H

#include <linux/atomic.h>
#include <linux/irqflags.h>
#include <linux/math64.h>
#include <linux/sched.h>

#include "kft_config.h"
#include "kft_log.h"
#include "kft_tasktab.h"

/* A root function: where it lies, [start, end). */
struct kft_root_range {
	unsigned long start;
	unsigned long end;
};

struct kft_hold_slot {
	struct task_struct *owner;	/* NULL: free */
	unsigned int nr;		/* records held */
	unsigned int cut;		/* calls that did not fit: overwritten */
	unsigned int oldest;		/* full: the record to overwrite next */
	struct kft_record *recs;	/* holdentries of them */
	struct kft_rec_sched *sched;	/* offcpu: their times, else NULL */
	struct kft_rec_args *args;	/* args: their registers, else NULL */
	struct kft_rec_str *strs;	/* args string: their copies, else NULL */
	struct kft_rec_str *open;	/* args string: the open calls' copies, by depth */
	unsigned int depth;		/* args string: held calls open now */
	bool closing;			/* the root returned: its flush reads the slot */
} ____cacheline_aligned;

struct kft_hold {
	struct kft_hold_slot *slots;	/* NULL: the run has no roots */
	struct kft_record *records;	/* tasks * entries */
	struct kft_rec_sched *sched;	/* offcpu: tasks * entries, else NULL */
	struct kft_rec_args *args;	/* args: tasks * entries, else NULL */
	struct kft_rec_str *strs;	/* args string: tasks * entries, else NULL */
	struct kft_rec_str *open;	/* args string: tasks * open_max, else NULL */
	unsigned int open_max;		/* args string: the open stack's depth */
	bool sides;			/* sched or args: records have more beside them */
	unsigned int tasks;
	unsigned int entries;
	atomic_t owned;			/* slots owned: 0, no call can be inside a root */
	/*
	 * Per CPU, the slot last found or claimed there: a hint, checked
	 * against its owner, that saves the hash and the probes when the
	 * same task goes on calling (it usually does).
	 */
	struct kft_hold_slot * __percpu *last;
	struct kft_root_range *roots;	/* sorted by start */
	unsigned int nr_roots;
	unsigned long span_start;	/* the first root's start ... */
	unsigned long span_end;		/* ... to the highest end */
};

struct kft_call;
struct module;
struct kft_parse_error;
struct kft_func_ref;
struct kft_record;
struct kft_run;

/* What a holding space keeps beside its records. */
struct kft_hold_sides {
	bool sched;	/* offcpu's times */
	bool args;	/* the argument registers */
	bool str;	/* args string's or args struct's copies */
};

int kft_hold_alloc(struct kft_hold *h, unsigned long tasks, unsigned long entries,
		   struct kft_hold_sides sides);
size_t kft_hold_bytes(const struct kft_hold *h);
void kft_hold_free(struct kft_hold *h);
void kft_hold_reset(struct kft_hold *h);
void kft_hold_forget(struct kft_hold *h, struct task_struct *t);
int kft_hold_roots_alloc(struct kft_hold *h, unsigned int nr);
int kft_hold_roots_find(struct kft_hold *h, const struct kft_func_ref *roots, unsigned int nr,
			struct kft_parse_error *err);
unsigned int kft_hold_drop_module(struct kft_hold *h, const struct module *mod);
void kft_hold_root_return(struct kft_run *run, struct kft_hold_slot *s, struct kft_record *rec,
			  const struct kft_call *call, u64 dur, unsigned long retval);

/*
 * @t of a run's clock in ns: cycles at @cycles_khz where the run times its
 * calls in cycles (run->cycles_khz), else ns already.
 */
static __always_inline u64 kft_hold_ns(u32 cycles_khz, u64 t)
{
	return cycles_khz ? mul_u64_u32_div(t, NSEC_PER_MSEC, cycles_khz) : t;
}

/*
 * Whether @ip lies in a root function: most calls lie outside the span of
 * all roots, and cost two compares; the others a binary search.
 */
static __always_inline bool kft_hold_is_root(const struct kft_hold *h, unsigned long ip)
{
	unsigned int lo = 0, hi = h->nr_roots;

	if (ip < h->span_start || ip >= h->span_end)
		return false;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (ip < h->roots[mid].start)
			hi = mid;
		else if (ip >= READ_ONCE(h->roots[mid].end))
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

/*
 * Whether current owns @s. By the task alone: its pid changes when a
 * thread execs (de_thread() gives it the leader's) inside its root call,
 * whose calls after that are still the root's; and a task's slot is given
 * back before its task_struct can be another task's (kft_exited.h).
 */
static __always_inline bool kft_hold_owns(const struct kft_hold_slot *s)
{
	return READ_ONCE(s->owner) == current;
}

/* The slot current owns, or NULL. */
static __always_inline struct kft_hold_slot *kft_hold_find(struct kft_hold *h)
{
	unsigned int i, n = kft_tasktab_probes(h->tasks);
	struct kft_hold_slot *s;
	unsigned int idx;

	if (!atomic_read(&h->owned))
		return NULL;
	/* (Read with preemption on: the hint of another CPU is checked the same.) */
	s = raw_cpu_read(*h->last);
	if (s && kft_hold_owns(s))
		return s;
	idx = kft_tasktab_first(current, h->tasks);
	for (i = 0; i < n; i++, idx = kft_tasktab_next(idx, h->tasks)) {
		s = &h->slots[idx];
		if (kft_hold_owns(s)) {
			raw_cpu_write(*h->last, s);
			return s;
		}
	}
	return NULL;
}

/* A free slot claimed for current, emptied, or NULL when its probes are full. */
static __always_inline struct kft_hold_slot *kft_hold_claim(struct kft_hold *h)
{
	unsigned int i, n = kft_tasktab_probes(h->tasks);
	unsigned int idx = kft_tasktab_first(current, h->tasks);

	for (i = 0; i < n; i++, idx = kft_tasktab_next(idx, h->tasks)) {
		struct kft_hold_slot *s = &h->slots[idx];

		if (!READ_ONCE(s->owner) && !cmpxchg(&s->owner, NULL, current)) {
			s->nr = 0;
			s->cut = 0;
			s->oldest = 0;
			s->depth = 0;
			s->closing = false;
			atomic_inc(&h->owned);
			raw_cpu_write(*h->last, s);
			return s;
		}
	}
	return NULL;
}

/*
 * The outermost root returned: the slot is free again. A root entered
 * before a prime can return while the prime empties the table, its exit
 * past the generation check: the prime freed the slot and counted it free
 * already, and another task may own it by now. Only the owner gives it
 * back, or the count of owned slots would go below the slots held, and a
 * task inside its root would find none of its own (kft_hold_find()).
 */
static __always_inline void kft_hold_release(struct kft_hold *h, struct kft_hold_slot *s)
{
	/* Release: what the owner wrote comes before another task's claim. */
	if (cmpxchg_release(&s->owner, current, NULL) == current)
		atomic_dec(&h->owned);
}

/* A full slot's room: the oldest record, taken with interrupts off (a full slot is rare). */
static __always_inline struct kft_record *kft_hold_room_full(const struct kft_hold *h,
							     struct kft_hold_slot *s)
{
	unsigned long flags;
	unsigned int i;

	raw_local_irq_save(flags);
	i = s->oldest;
	s->oldest = i + 1 == h->entries ? 0 : i + 1;
	s->cut++;
	raw_local_irq_restore(flags);
	return &s->recs[i];
}

/*
 * Room for one more call, its index taken by a compare-and-swap local to
 * the CPU, so that an interrupt's call held in between takes another. A
 * full slot is a ring: the call that returned first gives way (counted as
 * cut), so that what a cut tree keeps is the calls that returned last,
 * among them every call still open when it overflowed: the root's, and
 * the path down to where its time went.
 */
static __always_inline struct kft_record *kft_hold_room(const struct kft_hold *h,
							struct kft_hold_slot *s)
{
	unsigned int i = READ_ONCE(s->nr), seen;

	while (i < h->entries) {
		seen = cmpxchg_local(&s->nr, i, i + 1);
		if (likely(seen == i))
			return &s->recs[i];
		i = seen;
	}
	return kft_hold_room_full(h, s);
}

#endif
