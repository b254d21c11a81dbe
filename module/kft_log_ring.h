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
 *   round the whole ring meanwhile) skips it; the call is counted as lost.
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
 * this one is: the slot is the writer's alone. The reader takes each
 * CPU's calls in order up to the first still being written, then moves
 * the tail past them. Streams take whole calls only (at their exit).
 */
#ifndef KFT_LOG_RING_H
#define KFT_LOG_RING_H

#include <linux/atomic.h>
#include <asm/local.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/smp.h>

#include "kft_log.h"

#define KFT_RING_WRITING	1U
#define KFT_RING_CLOSING	2U
#define KFT_RING_USED		4U
#define KFT_RING_LAP_SHIFT	3

static __always_inline u32 kft_ring_tag(unsigned long n)
{
	return ((u32)n << KFT_RING_LAP_SHIFT) | KFT_RING_USED;
}

/* The slot of reservation @n of @cpu. */
static __always_inline unsigned long kft_ring_slot(const struct kft_ring *ring,
						   unsigned int cpu, unsigned long n)
{
	return ((unsigned long)cpu << ring->shift) | (n & ((1UL << ring->shift) - 1));
}

/**
 * kft_ring_reserve() - the next slot of this CPU's part, claimed for writing
 * @log:	a ring log
 *
 * Return: the record to fill and then kft_ring_publish(), or NULL when the
 * slot is still being written or closed (the caller counts the call lost).
 */
static __always_inline struct kft_record *kft_ring_reserve(struct kft_log *log)
{
	struct kft_ring *ring = &log->ring;
	unsigned long n, slot;
	unsigned int cpu;
	u32 old;

	preempt_disable_notrace();
	cpu = smp_processor_id();
	n = local_inc_return(&ring->cpus[cpu].head) - 1;
	preempt_enable_notrace();
	slot = kft_ring_slot(ring, cpu, n);
	old = READ_ONCE(ring->tags[slot]);
	if (unlikely(old & (KFT_RING_WRITING | KFT_RING_CLOSING)) ||
	    cmpxchg(&ring->tags[slot], old, kft_ring_tag(n) | KFT_RING_WRITING) != old)
		return NULL;
	return &log->records[slot];
}

/**
 * kft_stream_reserve() - the next slot of this CPU's part, if it has room
 * @log:	a stream log
 *
 * Return: the record to fill and then kft_ring_publish(), or NULL when the
 * reader has not taken enough of this CPU's calls (the caller counts the
 * call lost).
 */
static __always_inline struct kft_record *kft_stream_reserve(struct kft_log *log)
{
	struct kft_ring *ring = &log->ring;
	struct kft_ring_cpu *c;
	unsigned long n, old, slot;
	unsigned int cpu;

	preempt_disable_notrace();
	cpu = smp_processor_id();
	c = &ring->cpus[cpu];
	n = local_read(&c->head);
	for (;;) {
		/* Acquire: the reader copied the slots below its tail. */
		if (n - smp_load_acquire(&c->tail) >= 1UL << ring->shift) {
			preempt_enable_notrace();
			return NULL;
		}
		old = local_cmpxchg(&c->head, n, n + 1);
		if (old == n)
			break;
		n = old;
	}
	preempt_enable_notrace();
	slot = kft_ring_slot(ring, cpu, n);
	WRITE_ONCE(ring->tags[slot], kft_ring_tag(n) | KFT_RING_WRITING);
	return &log->records[slot];
}

/* A record filled after kft_ring_reserve() or kft_stream_reserve(): readers may keep it now. */
static __always_inline void kft_ring_publish(struct kft_log *log, const struct kft_record *rec)
{
	u32 *tag = &log->ring.tags[rec - log->records];

	/* Pairs with smp_load_acquire() in kft_ring_copy(). */
	smp_store_release(tag, READ_ONCE(*tag) & ~KFT_RING_WRITING);
}

/**
 * kft_ring_close_begin() - claim a record reserved at a call's entry
 * @log:	a ring log
 * @rec:	the record the entry filled
 * @entry_ns:	the call's entry time, which the record holds if still its
 *
 * Return: true when the record is still the call's, now marked closing
 * (close it, then kft_ring_close_end()); false when it was overwritten.
 */
static __always_inline bool kft_ring_close_begin(struct kft_log *log, struct kft_record *rec,
						 u64 entry_ns)
{
	u32 *tag = &log->ring.tags[rec - log->records];
	/* Acquire: the entry time read below is the tag's writer's. */
	u32 t = smp_load_acquire(tag);

	if (t & (KFT_RING_WRITING | KFT_RING_CLOSING) || READ_ONCE(rec->entry_ns) != entry_ns)
		return false;
	/* A writer that took the slot since changed the tag: this fails. */
	return cmpxchg(tag, t, t | KFT_RING_CLOSING) == t;
}

static __always_inline void kft_ring_close_end(struct kft_log *log, const struct kft_record *rec)
{
	u32 *tag = &log->ring.tags[rec - log->records];

	/* Only this closer changes a closing tag; the close is seen with it. */
	smp_store_release(tag, READ_ONCE(*tag) & ~KFT_RING_CLOSING);
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
