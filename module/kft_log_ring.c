// SPDX-License-Identifier: GPL-2.0
/*
 * log ring's and log stream's memory and what readers take of it
 * (kft_log_ring.h): the tags beside the records, each CPU's count of
 * reservations (and a stream's of the calls read), the calls a CPU's part
 * holds and has overwritten, and a reader's checked copies (a stream's
 * reader takes them out).
 */
#include <linux/cpumask.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "kft_log_ring.h"
#include "kft_mem.h"

int kft_ring_alloc(struct kft_ring *ring, unsigned long capacity, unsigned int shift,
		   bool stream)
{
	/* A reader's view orders the records by 32-bit index (kft_log_sort()). */
	if ((u64)capacity - 1 > U32_MAX)
		return -ENOMEM;
	ring->shift = shift;
	ring->mask = (1UL << shift) - 1;
	ring->stream = stream;
	ring->tags = __vmalloc(array_size(capacity, sizeof(*ring->tags)),
			       KFT_BIG_GFP | __GFP_ZERO);
	ring->cpus = kvcalloc(nr_cpu_ids, sizeof(*ring->cpus), GFP_KERNEL_ACCOUNT);
	if (ring->tags && ring->cpus)
		return 0;
	kft_ring_free(ring);
	return -ENOMEM;
}

/* A ring in the kft region leaves its memory to the region. */
void kft_ring_free(struct kft_ring *ring)
{
	if (!ring->in_region) {
		vfree(ring->tags);
		kvfree(ring->cpus);
	}
	ring->tags = NULL;
	ring->cpus = NULL;
}

/* Empty, while no hook can write. */
void kft_ring_reset(struct kft_ring *ring, unsigned long capacity)
{
	unsigned int cpu;

	memset(ring->tags, 0, array_size(capacity, sizeof(*ring->tags)));
	for_each_possible_cpu(cpu) {
		local_set(&ring->cpus[cpu].head, 0);
		ring->cpus[cpu].tail = 0;
	}
}

unsigned long kft_ring_head(const struct kft_ring *ring, unsigned int cpu)
{
	return local_read(&ring->cpus[cpu].head);
}

static unsigned long kft_ring_tail(const struct kft_ring *ring, unsigned int cpu)
{
	return READ_ONCE(ring->cpus[cpu].tail);
}

/*
 * kft_ring_held() of a running ring, and the head it counts back from.
 * A writer takes its reservation before it claims the slot's tag: a tag
 * in use at the head's slot while the head has not moved is a wrap, not
 * a reservation under way (which would read as every slot held, and as
 * calls overwritten that never were). A head that keeps moving gets the
 * count without the wrap's check.
 */
static unsigned long kft_ring_held_now(const struct kft_ring *ring, unsigned int cpu,
				       unsigned long *head)
{
	unsigned long held;
	int tries;

	for (tries = 0; tries < 3; tries++) {
		*head = kft_ring_head(ring, cpu);
		held = kft_ring_held(ring->tags, ring->shift, cpu, *head);
		/* The tag read before the head again: pairs with the claim's cmpxchg. */
		smp_rmb();
		if (kft_ring_head(ring, cpu) == *head)
			return held;
	}
	return min(*head, 1UL << ring->shift);
}

/*
 * The calls @cpu's part holds: its reservations, at most its slots; a
 * stream's, those not read yet.
 */
unsigned long kft_ring_stored(const struct kft_ring *ring, unsigned int cpu)
{
	unsigned long head, tail;

	if (ring->stream) {
		/*
		 * The tail first: a reader moves it only up to a head it saw,
		 * so a head read after it is never below it.
		 */
		tail = smp_load_acquire(&ring->cpus[cpu].tail);
		return kft_ring_head(ring, cpu) - tail;
	}
	return kft_ring_held_now(ring, cpu, &head);
}

/*
 * The calls the CPUs' parts no longer hold: written over by newer ones.
 * Counted modulo the width of a long, as the heads are, so that a head
 * that wrapped still counts what came before its wrap.
 */
unsigned long kft_ring_overwritten(const struct kft_ring *ring)
{
	unsigned long sum = 0, head, held;
	unsigned int cpu;

	if (ring->stream)
		return 0;
	for_each_possible_cpu(cpu) {
		held = kft_ring_held_now(ring, cpu, &head);
		sum += head - held;
	}
	return sum;
}

/**
 * kft_ring_copy() - a copy of reservation @n of @cpu, if whole
 * @buf:	the ring's buffer
 * @cpu:	the CPU
 * @n:		its reservation's number
 * @rec:	the copy
 * @sched:	offcpu's times beside it (ignored without offcpu)
 * @args:	its arguments beside it (ignored without args)
 * @str:	its string beside it (ignored without args string)
 *
 * Return: false when the slot holds another reservation, or is being
 * written, or was written while copied. No lock: from any context (a
 * panic's too).
 */
bool kft_ring_copy(const struct kft_log_buf *buf, unsigned int cpu, unsigned long n,
		   struct kft_record *rec, struct kft_rec_sched *sched, struct kft_rec_args *args,
		   struct kft_rec_str *str)
{
	unsigned long slot = kft_ring_slot(&buf->ring, cpu, n);
	const u32 *tag = &buf->ring.tags[slot];
	const struct kft_record *src = &buf->records[slot];
	/* Pairs with smp_store_release() in kft_ring_publish(). */
	u32 t = smp_load_acquire(tag);

	if ((t & ~KFT_RING_CLOSING) != kft_ring_tag(n))
		return false;
	/* A close that is under way: its value goes with its info (kft_log.h). */
	rec->info = kft_rec_load_info(src);
	rec->entry_ns = src->entry_ns;
	rec->func = src->func;
	rec->caller_off = src->caller_off;
	rec->pid = src->pid;
	rec->retval = src->retval;
	if (buf->sched)
		*sched = buf->sched[slot];
	if (buf->args)
		*args = buf->args[slot];
	if (buf->strs)
		*str = buf->strs[slot];
	/* The copy is whole if the slot was not taken meanwhile. */
	smp_rmb();
	return (READ_ONCE(*tag) & ~KFT_RING_CLOSING) == kft_ring_tag(n) && rec->func;
}

/*
 * The copies' room: every slot a CPU's part holds now, its head into
 * @heads[cpu] (the view takes no later call of that CPU: a CPU that made
 * calls meanwhile would take the room of the CPUs after it).
 */
static unsigned long kft_ring_view_room(const struct kft_ring *ring, unsigned long *heads)
{
	unsigned long nr = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		nr += kft_ring_held_now(ring, cpu, &heads[cpu]);
	return nr;
}

static int kft_ring_view_alloc(struct kft_log_view *view, unsigned long room)
{
	const struct kft_log_buf *buf = view->buf;
	size_t each = sizeof(struct kft_record) + sizeof(u32) +
		      (buf->sched ? sizeof(struct kft_rec_sched) : 0) +
		      (buf->args ? sizeof(struct kft_rec_args) : 0) +
		      (buf->strs ? sizeof(struct kft_rec_str) : 0);

	room = max(room, 1UL);
	if (!kft_mem_fits(array_size(room, each)))
		return -ENOMEM;
	view->copies = kvmalloc_array(room, sizeof(*view->copies), KFT_BIG_GFP);
	view->order = kvmalloc_array(room, sizeof(*view->order), KFT_BIG_GFP);
	if (buf->sched)
		view->sched_copies = kvmalloc_array(room, sizeof(*view->sched_copies),
						    KFT_BIG_GFP);
	if (buf->args)
		view->args_copies = kvmalloc_array(room, sizeof(*view->args_copies), KFT_BIG_GFP);
	if (buf->strs)
		view->str_copies = kvmalloc_array(room, sizeof(*view->str_copies), KFT_BIG_GFP);
	if (!view->copies || !view->order || (buf->sched && !view->sched_copies) ||
	    (buf->args && !view->args_copies) || (buf->strs && !view->str_copies))
		return -ENOMEM;
	view->recs = view->copies;
	view->sched = view->sched_copies;
	view->args = view->args_copies;
	view->strs = view->str_copies;
	return 0;
}

/*
 * Each CPU's part from its oldest reservation on, up to its head when the
 * room was counted (@heads), into the view's copies (at most @room): in
 * reservation order, which sorting by entry time keeps for calls that
 * entered at the same time. (The calls from the oldest held now to that
 * head are at most what the part held then: the room holds them all.)
 */
static void kft_ring_view_fill(struct kft_log_view *view, const unsigned long *heads,
			       unsigned long room)
{
	const struct kft_log_buf *buf = view->buf;
	struct kft_rec_sched unused;
	struct kft_rec_args unused_args;
	struct kft_rec_str unused_str;
	unsigned long head, held, n;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		held = kft_ring_held_now(&buf->ring, cpu, &head);
		n = head - held;
		/* (Modulo a long, as the heads count: none is past the other by half.) */
		if ((long)(heads[cpu] - n) <= 0)
			continue;
		if ((long)(head - heads[cpu]) > 0)
			head = heads[cpu];
		for (; n != head && view->nr < room; n++) {
			if (kft_ring_copy(buf, cpu, n, &view->copies[view->nr],
					  buf->sched ? &view->sched_copies[view->nr] : &unused,
					  buf->args ? &view->args_copies[view->nr] : &unused_args,
					  buf->strs ? &view->str_copies[view->nr] : &unused_str)) {
				view->order[view->nr] = view->nr;
				view->nr++;
			}
			if (!(n & 4095))
				cond_resched();
		}
	}
}

/*
 * A stream's calls, each CPU's in order from its tail up to its head as
 * @heads has it (what it held when the read began: no CPU takes a later
 * reader's room from the CPUs after it) or the first still being written
 * (its writer is at it: the next reader gets it), taken out: the tail
 * moves past what was copied.
 */
static void kft_stream_view_take(struct kft_log_view *view, const unsigned long *heads,
				 unsigned long room)
{
	struct kft_log_buf *buf = view->buf;
	struct kft_rec_sched unused;
	struct kft_rec_args unused_args;
	struct kft_rec_str unused_str;
	unsigned long n;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		n = kft_ring_tail(&buf->ring, cpu);
		for (; n != heads[cpu] && view->nr < room; n++) {
			if (!kft_ring_copy(buf, cpu, n, &view->copies[view->nr],
					   buf->sched ? &view->sched_copies[view->nr] : &unused,
					   buf->args ? &view->args_copies[view->nr] : &unused_args,
					   buf->strs ? &view->str_copies[view->nr] : &unused_str))
				break;
			view->order[view->nr] = view->nr;
			view->nr++;
			if (!(n & 4095))
				cond_resched();
		}
		/* Pairs with the acquire in kft_stream_reserve(): the copies are done. */
		smp_store_release(&buf->ring.cpus[cpu].tail, n);
	}
	buf->stream_read += view->nr;
}

/* A stream's room: each CPU's calls not taken yet, its head kept in @heads. */
static unsigned long kft_stream_view_room(const struct kft_ring *ring, unsigned long *heads)
{
	unsigned long nr = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		heads[cpu] = kft_ring_head(ring, cpu);
		nr += heads[cpu] - kft_ring_tail(ring, cpu);
	}
	return nr;
}

/* A stream's read, under its lock: each CPU's calls held when it began. */
static int kft_stream_view_build(struct kft_log_view *view)
{
	unsigned long *heads = kvmalloc_array(nr_cpu_ids, sizeof(*heads), GFP_KERNEL_ACCOUNT);
	unsigned long room;
	int ret = -ENOMEM;

	if (heads) {
		room = kft_stream_view_room(&view->buf->ring, heads);
		ret = kft_ring_view_alloc(view, room);
		if (!ret)
			kft_stream_view_take(view, heads, room);
	}
	kvfree(heads);
	return ret;
}

/**
 * kft_ring_view_build() - a reader's copies of every CPU's part
 * @view:	initialized on a ring's or stream's buffer; sorted afterwards
 *		as a log's
 *
 * A stream's reader takes the calls out: one reader at a time.
 *
 * Return: 0, -ENOMEM, or -EINTR (a stream's reader killed while waiting).
 */
int kft_ring_view_build(struct kft_log_view *view)
{
	struct kft_log_buf *buf = view->buf;
	unsigned long room, *heads;
	int ret;

	if (buf->ring.stream) {
		if (mutex_lock_killable(&buf->stream_lock))
			return -EINTR;
		ret = kft_stream_view_build(view);
		mutex_unlock(&buf->stream_lock);
		return ret;
	}
	heads = kcalloc(nr_cpu_ids, sizeof(*heads), GFP_KERNEL);
	if (!heads)
		return -ENOMEM;
	room = kft_ring_view_room(&buf->ring, heads);
	ret = kft_ring_view_alloc(view, room);
	if (!ret)
		kft_ring_view_fill(view, heads, room);
	kfree(heads);
	return ret;
}
