/* SPDX-License-Identifier: GPL-2.0 */
/*
 * log ring: each CPU keeps its last calls in its own part of the log,
 * overwriting its oldest, until something freezes the run (a stop, an
 * oops, a panic). Nothing waits and nothing locks:
 *
 * - A writer takes the next reservation of its CPU (a per-CPU counter,
 *   with preemption off), which names a slot of the CPU's part, and claims
 *   the slot's tag with a compare-and-swap: the tag holds the reservation's
 *   number and "writing". It fills the record, then releases the tag with
 *   "writing" cleared.
 * - A record reserved at a call's entry is closed at its exit, on any
 *   CPU: the closer claims the tag with "closing" only if the tag still
 *   holds its reservation and the record its entry time. If the slot was
 *   overwritten since, the call is written anew as a whole record at the
 *   exit (a long call stays among the last).
 * - A writer that finds its slot being written or closed (its CPU went
 *   round the whole ring meanwhile), or holding a later reservation's
 *   call (an interrupt went round it between the reservation and the
 *   claim), skips it; the call is counted as lost.
 * - A reader copies a slot, and keeps the copy only if the tag held the
 *   reservation it expected, not being written, before and after.
 *
 * Tags count reservations modulo 2^29: a slot's tag repeats only after
 * 2^29 / slots rounds of its CPU, and a closer also checks the entry time.
 *
 * log stream: the same parts, drained by a reader, never overwritten. A
 * writer reserves only while its CPU's part has room (head - tail below
 * its slots: a compare-and-swap of the head, which only interrupts on the
 * same CPU contend), else the call is lost and counted. Its slot's last
 * call was taken by the reader, and the next can only be reserved once
 * this one is: the slot is the writer's alone, and its tag is only
 * written once the call is whole (a slot's tag never holds its CPU's
 * later reservations' before then: a part has far fewer than 2^29
 * slots). The reader takes each CPU's calls in order up to the first not
 * yet published, then moves the tail past them. Streams take whole calls
 * only (at their exit).
 */
#ifndef KFT_LOG_RING_H
#define KFT_LOG_RING_H

#include <linux/atomic.h>
#include <linux/lockdep.h>
#include <asm/local.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/smp.h>

#include "kft_compat.h"
#include "kft_log.h"

#define KFT_RING_WRITING	1U
#define KFT_RING_CLOSING	2U
#define KFT_RING_USED		4U
#define KFT_RING_LAP_SHIFT	3

static __always_inline u32 kft_ring_tag(unsigned long n)
{
	return ((u32)n << KFT_RING_LAP_SHIFT) | KFT_RING_USED;
}

/*
 * @old, a published tag (neither writing nor closing), holds a reservation
 * at or after @tag's (within half the 2^29 they count modulo): an
 * interrupt on the writer's CPU went round the whole part between the
 * writer's reservation and its claim. An unused slot's 0 holds none,
 * whatever the head (a region's part may start anywhere).
 */
static __always_inline bool kft_ring_tag_newer(u32 old, u32 tag)
{
	return (old & KFT_RING_USED) && (s32)(old - tag) >= 0;
}

/* The slot of reservation @n of @cpu. */
static __always_inline unsigned long kft_ring_slot(const struct kft_ring *ring,
						   unsigned int cpu, unsigned long n)
{
	return ((unsigned long)cpu << ring->shift) | (n & ring->mask);
}

/**
 * kft_ring_held() - how many of a CPU's last reservations its part holds
 * @tags:	the ring's tags
 * @shift:	its parts' size: 1 << @shift slots
 * @cpu:	the CPU
 * @head:	its head, as read
 *
 * The last 1 << @shift, or every one while it has made fewer. A 32-bit
 * kernel's head wraps after 2^32 reservations on a CPU: then below the
 * slots again, it is not a part that has made few, which a used tag at
 * its slot tells (each slot has been written since the ring was emptied).
 * A reservation of that slot under way can make the answer too large:
 * the reader's check of each slot's tag then drops what is not there.
 *
 * Return: the count, so that the part's oldest is @head less it.
 */
static inline unsigned long kft_ring_held(const u32 *tags, unsigned int shift, unsigned int cpu,
					  unsigned long head)
{
	unsigned long slots = 1UL << shift;

	if (head >= slots || !READ_ONCE(tags[((unsigned long)cpu << shift) | head]))
		return min(head, slots);
	return slots;
}

/**
 * kft_ring_reserve_on() - the next slot of a CPU's part, claimed for writing
 * @log:	a ring log
 * @cpu:	the CPU this runs on, with preemption off (a hook's entry
 *		knows it already)
 * @s:		the slot, to fill and then kft_ring_publish()
 *
 * Return: false when the slot is still being written or closed (the
 * caller counts the call lost).
 */
static __always_inline bool kft_ring_reserve_on(struct kft_log *log, unsigned int cpu,
						struct kft_log_slot *s)
{
	struct kft_ring *ring = &log->ring;
	unsigned long n;
	u32 old;

	lockdep_assert_preemption_disabled();
	n = local_inc_return(&ring->cpus[cpu].head) - 1;
	s->i = kft_ring_slot(ring, cpu, n);
	s->tag = kft_ring_tag(n);
	old = READ_ONCE(ring->tags[s->i]);
	/* A newer call in the slot stays: this older one is lost. */
	return likely(!(old & (KFT_RING_WRITING | KFT_RING_CLOSING))) &&
	       likely(!kft_ring_tag_newer(old, s->tag)) &&
	       try_cmpxchg(&ring->tags[s->i], &old, s->tag | KFT_RING_WRITING);
}

/* kft_ring_reserve_on() from any context: this CPU's, whatever preemption's state. */
static __always_inline bool kft_ring_reserve(struct kft_log *log, struct kft_log_slot *s)
{
	bool ok;

	preempt_disable_notrace();
	ok = kft_ring_reserve_on(log, smp_processor_id(), s);
	preempt_enable_notrace();
	return ok;
}

/**
 * kft_stream_reserve() - the next slot of this CPU's part, if it has room
 * @log:	a stream log
 *
 * The slot's tag is left as its last call's until kft_ring_publish(): a
 * stream's readers take calls from the tail on, one reader at a time, and
 * the tail has moved past that call, so that none of them reads the slot
 * while it is written, and none takes it for this call before it is
 * published.
 *
 * Return: false when the reader has not taken enough of this CPU's calls
 * (the caller counts the call lost).
 */
static __always_inline bool kft_stream_reserve(struct kft_log *log, struct kft_log_slot *s)
{
	struct kft_ring *ring = &log->ring;
	struct kft_ring_cpu *c;
	unsigned long n, old;
	unsigned int cpu;

	preempt_disable_notrace();
	cpu = smp_processor_id();
	c = &ring->cpus[cpu];
	n = local_read(&c->head);
	for (;;) {
		/* Acquire: the reader copied the slots below its tail. */
		if (n - smp_load_acquire(&c->tail) > ring->mask) {
			preempt_enable_notrace();
			return false;
		}
		old = local_cmpxchg(&c->head, n, n + 1);
		if (old == n)
			break;
		n = old;
	}
	preempt_enable_notrace();
	s->i = kft_ring_slot(ring, cpu, n);
	s->tag = kft_ring_tag(n);
	return true;
}

/* A slot filled after kft_ring_reserve() or kft_stream_reserve(): readers may take it now. */
static __always_inline void kft_ring_publish(struct kft_log *log, struct kft_log_slot s)
{
	/*
	 * Only the writer changes a tag marked writing, and a stream's slot
	 * is the writer's alone: no need to read the tag again. Pairs with
	 * smp_load_acquire() in kft_ring_copy().
	 */
	smp_store_release(&log->ring.tags[s.i], s.tag);
}

/**
 * kft_ring_close_begin() - claim a record reserved at a call's entry
 * @tag:	its slot's tag
 * @mine:	the tag the entry published
 * @rec:	the record the entry filled
 * @entry_ns:	the call's entry time, which the record holds if still its
 * @t:		the tag it had, for kft_ring_close_end()
 *
 * The tag tells the call's record from a later one in the slot, unless the
 * CPU made 2^29 reservations since; the entry time, unless the clock is
 * coarse (jiffies) and the later call came in the same tick: both must agree.
 *
 * Return: true when the record is still the call's, now marked closing
 * (close it, then kft_ring_close_end()); false when it was overwritten.
 */
static __always_inline bool kft_ring_close_begin(u32 *tag, u32 mine, const struct kft_record *rec,
						 u64 entry_ns, u32 *t)
{
	/* Acquire: the entry time read below is the tag's writer's. */
	*t = smp_load_acquire(tag);
	if (*t != mine || READ_ONCE(rec->entry_ns) != entry_ns)
		return false;
	/* A writer that took the slot since changed the tag: this fails. */
	return try_cmpxchg(tag, t, *t | KFT_RING_CLOSING);
}

/* A record closed: @t, from kft_ring_close_begin(), is its tag again. */
static __always_inline void kft_ring_close_end(u32 *tag, u32 t)
{
	/* Only this closer changes a closing tag; the close is seen with it. */
	smp_store_release(tag, t);
}

int kft_ring_alloc(struct kft_ring *ring, unsigned long capacity, unsigned int shift,
		   bool stream);
unsigned long kft_ring_head(const struct kft_ring *ring, unsigned int cpu);
void kft_ring_free(struct kft_ring *ring);
void kft_ring_reset(struct kft_ring *ring, unsigned long capacity);
unsigned long kft_ring_stored(const struct kft_ring *ring, unsigned int cpu);
unsigned long kft_ring_overwritten(const struct kft_ring *ring);
bool kft_ring_copy(const struct kft_log_buf *buf, unsigned int cpu, unsigned long n,
		   struct kft_record *rec, struct kft_rec_sched *sched, struct kft_rec_args *args,
		   struct kft_rec_str *str);
int kft_ring_view_build(struct kft_log_view *view);

#endif
