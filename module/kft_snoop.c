// SPDX-License-Identifier: GPL-2.0
/*
 * The snoop ring (see kft_snoop.h).
 *
 * Why a reserved event can be written without a lock: a writer takes count
 * h only while h - tail < size (across the wrap), and the tail moves past
 * an event only after the reader has copied it, so the event that used the
 * same place before (h - size) has been copied. Sequence numbers say which
 * events are complete: the reader stops at the first that is not (its
 * writer is still at it, with preemption off, so the next read gets it).
 */
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

#include "kft_arch.h"
#include "kft_mem.h"
#include "kft_snoop.h"

/*
 * A ring's counts start this many events before they go back to 0, at
 * each prime: for tests of the wrap, which no test can reach by counting.
 */
static unsigned long snoop_wrap_after;
module_param(snoop_wrap_after, ulong, 0644);
MODULE_PARM_DESC(snoop_wrap_after,
		 "events before a snoop ring's counts go back to 0, for tests (default 0: from 0)");

/* The count after @n. */
static __always_inline unsigned long kft_snoop_next(const struct kft_snoop *sn, unsigned long n)
{
	return n + 1 == sn->wrap ? 0 : n + 1;
}

/* The events between @tail and @head, across the wrap. */
static __always_inline unsigned long kft_snoop_held(const struct kft_snoop *sn,
						    unsigned long head, unsigned long tail)
{
	return head >= tail ? head - tail : head + (sn->wrap - tail);
}

/*
 * The sequence number that publishes the event of count @n: never 0, the
 * number of an event never written, and never another count's (counts
 * stay below the wrap, under 2^32).
 */
static __always_inline u32 kft_snoop_seq(unsigned long n)
{
	return n + 1;
}

/* Both counts where the ring starts: 0, or snoop_wrap_after before the wrap. */
static void kft_snoop_origin(struct kft_snoop *sn)
{
	unsigned long before = min(READ_ONCE(snoop_wrap_after), sn->wrap);
	unsigned long start = before ? sn->wrap - before : 0;

	atomic_long_set(&sn->head, start);
	sn->tail = start;
}

int kft_snoop_alloc(struct kft_snoop *sn, unsigned long size, bool args)
{
	size_t each = sizeof(*sn->events) + (args ? sizeof(*sn->args) : 0);

	mutex_init(&sn->lock);
	sn->size = size;
	if (!size)
		return 0;
	sn->wrap = U32_MAX / size * size;
	kft_snoop_origin(sn);
	if (!kft_mem_fits(array_size(size, each)))
		return -ENOMEM;
	sn->events = kvcalloc(size, sizeof(*sn->events), KFT_BIG_GFP);
	if (args)
		sn->args = kvcalloc(size, sizeof(*sn->args), KFT_BIG_GFP);
	return sn->events && (!args || sn->args) ? 0 : -ENOMEM;
}

void kft_snoop_free(struct kft_snoop *sn)
{
	kvfree(sn->events);
	kvfree(sn->args);
	sn->events = NULL;
	sn->args = NULL;
}

/* No writer may be at work (the run is not primed). */
void kft_snoop_reset(struct kft_snoop *sn)
{
	if (!sn->size)
		return;
	mutex_lock(&sn->lock);
	memset(sn->events, 0, array_size(sn->size, sizeof(*sn->events)));
	if (sn->args)
		memset(sn->args, 0, array_size(sn->size, sizeof(*sn->args)));
	kft_snoop_origin(sn);
	mutex_unlock(&sn->lock);
}

/* args: the registers of the call the event was taken at, zeros without them. */
static notrace void kft_snoop_args(struct kft_rec_args *keep, struct ftrace_regs *fregs)
{
	unsigned int i;

	for (i = 0; i < KFT_ARGS_MAX; i++)
		keep->a[i] = fregs ? kft_fregs_argument(fregs, i) : 0;
}
NOKPROBE_SYMBOL(kft_snoop_args);

/**
 * kft_snoop_add() - keep one event of the current task
 * @sn:		the ring
 * @time_ns:	when
 * @slot:	its stack's slot in the table
 * @fregs:	the registers at the traced function's entry (ftrace's), or
 *		NULL; read only with args
 *
 * Return: false when the ring was full (the event is lost).
 */
notrace bool kft_snoop_add(struct kft_snoop *sn, u64 time_ns, u32 slot, struct ftrace_regs *fregs)
{
	struct kft_snoop_event *e;
	unsigned long held, tail;
	long head;

	for (;;) {
		/*
		 * The tail first, then the head: a head read before it could
		 * be newer than the tail (the loads may pass each other), and
		 * a stale tail would count a full ring as more than full.
		 * Pairs with smp_store_release() in kft_snoop_consume().
		 */
		tail = smp_load_acquire(&sn->tail);
		head = atomic_long_read(&sn->head);
		held = kft_snoop_held(sn, head, tail);
		if (held == sn->size)
			return false;
		/*
		 * More than its size: the reader moved on and writers
		 * filled the room after the tail was read. Read both again.
		 */
		if (held > sn->size)
			continue;
		if (atomic_long_try_cmpxchg(&sn->head, &head, kft_snoop_next(sn, head)))
			break;
	}
	e = &sn->events[(unsigned long)head % sn->size];
	e->time_ns = time_ns;
	e->slot = slot;
	e->pid = current->pid;
	e->cpu = raw_smp_processor_id();
	memcpy(e->comm, current->comm, TASK_COMM_LEN);
	if (sn->args)
		kft_snoop_args(&sn->args[(unsigned long)head % sn->size], fregs);
	/* Pairs with smp_load_acquire() in kft_snoop_consume(). */
	smp_store_release(&e->seq, kft_snoop_seq(head));
	return true;
}
NOKPROBE_SYMBOL(kft_snoop_add);

/**
 * kft_snoop_consume() - take every complete event out of the ring
 * @sn:		the ring
 * @view:	the events, oldest first; kft_snoop_view_free() it
 * @keep:	called with @ctx once they are copied, before their room is
 *		given back (no other reader takes events meanwhile): its
 *		error leaves them in the ring, for the next reader
 * @ctx:	@keep's
 *
 * Return: 0, -ENOMEM or @keep's error (the events stay in the ring).
 */
int kft_snoop_consume(struct kft_snoop *sn, struct kft_snoop_view *view,
		      int (*keep)(void *ctx), void *ctx)
{
	unsigned long tail, head, n;
	struct kft_snoop_event *e;
	int ret;

	memset(view, 0, sizeof(*view));
	if (!sn->size)
		return keep(ctx);
	mutex_lock(&sn->lock);
	tail = sn->tail;
	head = atomic_long_read(&sn->head);
	n = min(kft_snoop_held(sn, head, tail), sn->size);
	view->events = kvmalloc_array(max(n, 1UL), sizeof(*e), KFT_BIG_GFP);
	if (sn->args)
		view->args = kvmalloc_array(max(n, 1UL), sizeof(*view->args), KFT_BIG_GFP);
	if (!view->events || (sn->args && !view->args)) {
		mutex_unlock(&sn->lock);
		kft_snoop_view_free(view);
		return -ENOMEM;
	}
	for (; view->nr < n; tail = kft_snoop_next(sn, tail)) {
		e = &sn->events[tail % sn->size];
		/* Pairs with smp_store_release() in kft_snoop_add(). */
		if (smp_load_acquire(&e->seq) != kft_snoop_seq(tail))
			break;
		if (sn->args)
			view->args[view->nr] = sn->args[tail % sn->size];
		view->events[view->nr++] = *e;
	}
	ret = keep(ctx);
	if (!ret) {
		/* The copies are made before their room is given back. */
		smp_store_release(&sn->tail, tail);
	}
	mutex_unlock(&sn->lock);
	if (ret)
		kft_snoop_view_free(view);
	return ret;
}

void kft_snoop_view_free(struct kft_snoop_view *view)
{
	kvfree(view->events);
	kvfree(view->args);
	memset(view, 0, sizeof(*view));
}
