// SPDX-License-Identifier: GPL-2.0
/*
 * The trace log's memory and its sorted view for readers. Writers (the hooks
 * in kft_hook_path.h) reserve a slot with one atomic increment and fill it; the
 * function address is stored last, with release order, so a reader that
 * sees it sees the whole record.
 *
 * Records are reserved at exit (or at entry when no time filter is set), so
 * the array is not in entry order: a reader sorts indexes by entry time.
 *
 * Memory: the log and each reader's view (4 bytes a record) are taken as
 * kft_mem.h says.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "kft_log.h"
#include "kft_log_ring.h"
#include "kft_mem.h"

static void kft_log_buf_free(struct kft_log_buf *buf)
{
	if (!buf->ring.in_region)
		vfree(buf->records);
	vfree(buf->sched);
	vfree(buf->args);
	vfree(buf->strs);
	kft_comms_free(&buf->comms);
	kft_ring_free(&buf->ring);
	kfree(buf);
}

static void kft_log_buf_free_rcu(struct rcu_head *rcu)
{
	kft_log_buf_free(container_of(rcu, struct kft_log_buf, rcu));
}

/*
 * A buffer a prime moved the run off, let go of by its last reader: after
 * a grace period, as the oops and panic notifiers read the run's buffer
 * under RCU alone (kft_trace_print_last()). (vfree() and free_percpu()
 * may run in the callback's softirq.)
 */
static void kft_log_buf_release(struct kref *ref)
{
	call_rcu(&container_of(ref, struct kft_log_buf, ref)->rcu, kft_log_buf_free_rcu);
}

/*
 * The run's own buffer, let go of last at its teardown: at once. The
 * notifiers stopped reading the run a grace period before its teardown
 * (kft_current.c), and a new run's memory check must not find it still
 * taken.
 */
static void kft_log_buf_release_now(struct kref *ref)
{
	kft_log_buf_free(container_of(ref, struct kft_log_buf, ref));
}

/* At module exit, after the last run: the buffers' frees done. */
void kft_log_exit(void)
{
	rcu_barrier();
}

/* The slots of a log of @entries (a ring or stream: each CPU's entries). */
static unsigned long kft_log_slots(unsigned long entries, enum kft_log_fill fill)
{
	return fill != KFT_LOG_LINEAR ? (unsigned long)nr_cpu_ids << kft_ring_shift(entries) :
					entries;
}

/* A side array of @capacity elements of @size bytes, zeroed. */
static void *kft_log_side_alloc(unsigned long capacity, size_t size)
{
	return __vmalloc(array_size(capacity, size), KFT_BIG_GFP | __GFP_ZERO);
}

/*
 * A log of @capacity records (a ring or stream: 1 << @shift for each
 * CPU), with the side arrays @sides asks for; in @mem's records and ring
 * if given (the kft region's: a persistent ring, whose side arrays are
 * this boot's memory only).
 */
static struct kft_log_buf *kft_log_buf_alloc(unsigned long capacity, struct kft_log_sides sides,
					     enum kft_log_fill fill, unsigned int shift,
					     const struct kft_log_mem *mem)
{
	bool ring = fill != KFT_LOG_LINEAR;
	struct kft_log_buf *buf;

	if (!kft_mem_fits(array_size(capacity, (mem ? 0 : sizeof(struct kft_record) +
							(ring ? sizeof(u32) : 0)) +
					       (sides.sched ? sizeof(struct kft_rec_sched) : 0) +
					       (sides.args ? sizeof(struct kft_rec_args) : 0) +
					       (sides.str ? sizeof(struct kft_rec_str) : 0))))
		return NULL;
	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return NULL;
	if (mem) {
		buf->records = mem->records;
		buf->ring = mem->ring;
	} else {
		buf->records = __vmalloc(array_size(capacity, sizeof(struct kft_record)),
					 KFT_BIG_GFP | __GFP_ZERO);
	}
	if (sides.sched)
		buf->sched = kft_log_side_alloc(capacity, sizeof(struct kft_rec_sched));
	if (sides.args)
		buf->args = kft_log_side_alloc(capacity, sizeof(struct kft_rec_args));
	if (sides.str)
		buf->strs = kft_log_side_alloc(capacity, sizeof(struct kft_rec_str));
	if (!buf->records || (sides.sched && !buf->sched) || (sides.args && !buf->args) ||
	    (sides.str && !buf->strs) ||
	    (ring && !mem && kft_ring_alloc(&buf->ring, capacity, shift, fill == KFT_LOG_STREAM)) ||
	    kft_comms_alloc(&buf->comms, capacity)) {
		if (!mem)
			vfree(buf->records);
		vfree(buf->sched);
		vfree(buf->args);
		vfree(buf->strs);
		kft_ring_free(&buf->ring);
		kfree(buf);
		return NULL;
	}
	kref_init(&buf->ref);
	mutex_init(&buf->stream_lock);
	buf->capacity = capacity;
	return buf;
}

static void kft_log_use(struct kft_log *log, struct kft_log_buf *buf)
{
	/* Once: a stream's reader compares it with its own (kft_stream_read()). */
	WRITE_ONCE(log->buf, buf);
	log->records = buf->records;
	log->sched = buf->sched;
	log->args = buf->args;
	log->strs = buf->strs;
	log->capacity = buf->capacity;
	log->ring = buf->ring;
	atomic_long_set(&log->reserved, 0);
}

/**
 * kft_log_alloc() - the run's log
 * @log:	the log
 * @entries:	its calls (a ring or stream: each CPU's, rounded up to a power
 *		of two)
 * @sides:	what it keeps beside its records
 * @fill:	how it fills
 * @mem:	a ring's records and tags, or NULL to allocate them
 *
 * Return: 0, or -ENOMEM.
 */
int kft_log_alloc(struct kft_log *log, unsigned long entries, struct kft_log_sides sides,
		  enum kft_log_fill fill, const struct kft_log_mem *mem)
{
	struct kft_log_buf *buf = kft_log_buf_alloc(kft_log_slots(entries, fill), sides, fill,
						    kft_ring_shift(entries), mem);

	if (!buf)
		return -ENOMEM;
	kft_log_use(log, buf);
	return 0;
}

void kft_log_free(struct kft_log *log)
{
	if (log->buf)
		kref_put(&log->buf->ref, kft_log_buf_release_now);
	WRITE_ONCE(log->buf, NULL);
	log->records = NULL;
	log->sched = NULL;
	log->args = NULL;
	log->strs = NULL;
	log->ring = (struct kft_ring){};
	log->capacity = 0;
}

/**
 * kft_log_reset() - empty the log; only while no hook can write to it
 * @log:	the log
 *
 * A buffer that a reader still holds is left to the reader: the log moves
 * to a new one.
 *
 * Return: 0, or -ENOMEM when a new buffer was needed and could not be had
 * (the log is then unchanged).
 */
int kft_log_reset(struct kft_log *log)
{
	struct kft_log_mem same = { .records = log->records, .ring = log->ring };
	struct kft_log_sides sides = { .sched = log->sched != NULL, .args = log->args != NULL,
				       .str = log->strs != NULL };
	unsigned long used = kft_log_stored(log);
	struct kft_log_buf *buf, *old;

	if (kref_read(&log->buf->ref) > 1) {
		/*
		 * The kft region's memory stays the log's: emptied, its reader
		 * copies no more of it (kft_ring_copy() checks each tag).
		 */
		buf = kft_log_buf_alloc(log->capacity, sides, kft_log_fill_of(log),
					log->ring.shift, log->ring.in_region ? &same : NULL);
		if (!buf)
			return -ENOMEM;
		/*
		 * The new buffer in place before the old one's reference goes:
		 * a header read or the oops notifier, which take no lock, never
		 * find the log without one.
		 */
		old = log->buf;
		kft_log_use(log, buf);
		kref_put(&old->ref, kft_log_buf_release);
		if (log->ring.in_region)
			kft_ring_reset(&log->ring, log->capacity);
		return 0;
	}
	/* A ring's records are read only through their tags, which it clears. */
	if (log->ring.tags) {
		kft_ring_reset(&log->ring, log->capacity);
		log->buf->stream_read = 0;
		log->buf->stream_next_cpu = 0;
	} else {
		memset(log->records, 0, used * sizeof(*log->records));
		if (log->sched)
			memset(log->sched, 0, used * sizeof(*log->sched));
		if (log->args)
			memset(log->args, 0, used * sizeof(*log->args));
		if (log->strs)
			memset(log->strs, 0, used * sizeof(*log->strs));
	}
	kft_comms_reset(&log->buf->comms);
	log->buf->first_start_ns = 0;
	atomic_long_set(&log->reserved, 0);
	return 0;
}

enum kft_log_fill kft_log_fill_of(const struct kft_log *log)
{
	return !log->ring.tags ? KFT_LOG_LINEAR : log->ring.stream ? KFT_LOG_STREAM : KFT_LOG_RING;
}

/* The calls the log holds (a ring or stream: every CPU's part, unread). */
unsigned long kft_log_stored(const struct kft_log *log)
{
	unsigned long sum = 0;
	unsigned int cpu;

	if (!log->ring.tags)
		return min_t(unsigned long, atomic_long_read(&log->reserved), log->capacity);
	for_each_possible_cpu(cpu)
		sum += kft_ring_stored(&log->ring, cpu);
	return sum;
}

unsigned long kft_log_lost(const struct kft_log *log)
{
	long reserved = atomic_long_read(&log->reserved);

	return reserved > log->capacity ? reserved - log->capacity : 0;
}

/* Entry time, then reservation order (call order on one CPU). */
static bool kft_log_before(const struct kft_record *recs, u32 a, u32 b)
{
	if (recs[a].entry_ns != recs[b].entry_ns)
		return recs[a].entry_ns < recs[b].entry_ns;
	return a < b;
}

static void kft_log_sift_down(const struct kft_record *recs, u32 *order,
			      unsigned long root, unsigned long n)
{
	unsigned long child;
	u32 tmp;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && kft_log_before(recs, order[child], order[child + 1]))
			child++;
		if (!kft_log_before(recs, order[root], order[child]))
			return;
		tmp = order[root];
		order[root] = order[child];
		order[child] = tmp;
		root = child;
	}
}

/*
 * Heapsort, like the kernel's sort(), but with a scheduling point every few
 * thousand steps and a way out for a reader that is killed: the largest log
 * takes seconds to sort.
 */
static int kft_log_sort(const struct kft_record *recs, u32 *order, unsigned long n)
{
	unsigned long i, steps = 0;
	u32 tmp;

	for (i = n / 2; i-- > 0; steps++) {
		kft_log_sift_down(recs, order, i, n);
		if (!(steps & 4095) && (cond_resched(), fatal_signal_pending(current)))
			return -EINTR;
	}
	for (i = n; i-- > 1; steps++) {
		tmp = order[0];
		order[0] = order[i];
		order[i] = tmp;
		kft_log_sift_down(recs, order, 0, i);
		if (!(steps & 4095) && (cond_resched(), fatal_signal_pending(current)))
			return -EINTR;
	}
	return 0;
}

/**
 * kft_log_view_init() - take a reference on the log's current buffer
 * @view:	the view
 * @log:	the log (its owner's lock held, so the buffer stays)
 */
void kft_log_view_init(struct kft_log_view *view, struct kft_log *log)
{
	kref_get(&log->buf->ref);
	view->buf = log->buf;
	view->recs = log->buf->records;
	view->sched = log->buf->sched;
	view->args = log->buf->args;
	view->strs = log->buf->strs;
	view->copies = NULL;
	view->sched_copies = NULL;
	view->args_copies = NULL;
	view->str_copies = NULL;
	view->order = NULL;
	view->nr = 0;
}

/**
 * kft_log_view_collect() - the complete records, in slot order
 * @view:	initialized with kft_log_view_init(); free with kft_log_view_free()
 * @stored:	how many slots were handed out when the view was taken
 *
 * A record still being written (no function address yet) is left out; a
 * ring's are copied as they are now (@stored is not used).
 * Needs no lock: the view holds its buffer.
 */
int kft_log_view_collect(struct kft_log_view *view, unsigned long stored)
{
	const struct kft_record *recs = view->buf->records;
	size_t bytes = array_size(max(stored, 1UL), sizeof(u32));
	unsigned long i;

	if (view->buf->ring.tags)
		return kft_ring_view_build(view);
	if (!kft_mem_fits(bytes))
		return -ENOMEM;
	view->order = kvmalloc(bytes, KFT_BIG_GFP);
	if (!view->order)
		return -ENOMEM;
	for (i = 0; i < stored; i++) {
		/* Pairs with smp_store_release() in kft_record_fill(). */
		if (smp_load_acquire(&recs[i].func))
			view->order[view->nr++] = i;
	}
	return 0;
}

/**
 * kft_log_view_sort() - a collected view put in entry-time order
 * @view:	after kft_log_view_collect()
 *
 * A ring's view sorts its own copies, not the ring.
 */
int kft_log_view_sort(struct kft_log_view *view)
{
	const struct kft_record *recs = view->buf->ring.tags ? view->recs : view->buf->records;

	return kft_log_sort(recs, view->order, view->nr);
}

/* kft_log_view_collect(), then kft_log_view_sort(). */
int kft_log_view_build(struct kft_log_view *view, unsigned long stored)
{
	return kft_log_view_collect(view, stored) ?: kft_log_view_sort(view);
}

void kft_log_view_free(struct kft_log_view *view)
{
	kvfree(view->order);
	kvfree(view->copies);
	kvfree(view->sched_copies);
	kvfree(view->args_copies);
	kvfree(view->str_copies);
	view->order = NULL;
	view->copies = NULL;
	view->sched_copies = NULL;
	view->args_copies = NULL;
	view->str_copies = NULL;
	view->nr = 0;
	if (view->buf)
		kref_put(&view->buf->ref, kft_log_buf_release);
	view->buf = NULL;
}
