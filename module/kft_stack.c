// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel stacks: capture, and the table that counts identical ones (see
 * kft_stack.h for the design).
 *
 * A captured stack starts at the interesting frame: the traced function
 * being entered (mode stacks, stack watches), or the instruction a timer
 * interrupted (mode profile). Everything the unwinder reports before it
 * (kft's own frames, ftrace's trampoline, the timer interrupt's path) is
 * cut off by finding the frame the hook knows: the traced function's
 * return address, or the interrupted instruction.
 */
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sort.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/trace_clock.h>

#include "kft_arch.h"
#include "kft_mem.h"
#include "kft_stack.h"

/*
 * Where stacks are captured: per CPU, one buffer per context level (task,
 * softirq, hardirq, NMI), each used by one capture at a time. A second use
 * at the same level (an interrupt that arrived before the context level
 * changed, or a traced function called while capturing) finds it busy and
 * is counted, not captured: this is also the recursion guard.
 */
struct kft_stack_scratch {
	unsigned long frames[4][KFT_STACK_BUF];
	u8 busy[4];
};

static struct kft_stack_scratch __percpu *kft_scratch;

/**
 * kft_stack_scratch_get() - this CPU's buffer for the current context
 * @level:	set, for kft_stack_scratch_put()
 *
 * Preemption must be off. Return: KFT_STACK_BUF frames, or NULL if busy.
 */
notrace unsigned long *kft_stack_scratch_get(unsigned int *level)
{
	struct kft_stack_scratch *s = this_cpu_ptr(kft_scratch);
	unsigned int l = interrupt_context_level();

	if (s->busy[l])
		return NULL;
	s->busy[l] = 1;
	barrier();
	*level = l;
	return s->frames[l];
}
NOKPROBE_SYMBOL(kft_stack_scratch_get);

notrace void kft_stack_scratch_put(unsigned int level)
{
	barrier();
	this_cpu_ptr(kft_scratch)->busy[level] = 0;
}
NOKPROBE_SYMBOL(kft_stack_scratch_put);

int kft_stack_init(void)
{
	kft_scratch = alloc_percpu(struct kft_stack_scratch);
	return kft_scratch ? 0 : -ENOMEM;
}

/* After every hook that captures is gone. */
void kft_stack_exit(void)
{
	free_percpu(kft_scratch);
}

/* The first frame at or after @i equal to @ip, or @n. */
static notrace unsigned int kft_stack_find(const unsigned long *buf,
					   unsigned int i, unsigned int n,
					   unsigned long ip)
{
	for (; i < n; i++) {
		if (buf[i] == ip)
			break;
	}
	return i;
}
NOKPROBE_SYMBOL(kft_stack_find);

/* The first frame within the traced function's first bytes, or @n. */
static notrace unsigned int kft_stack_near(const unsigned long *buf, unsigned int n,
					   unsigned long first)
{
	unsigned int i;

	for (i = 1; i < n && buf[i] - first > 32; i++)
		;
	return i;
}
NOKPROBE_SYMBOL(kft_stack_near);

/*
 * Where the frames above the traced function start.
 *
 * x86-64: at @from, the return address. The traced function itself shows
 * in the unwinder's frames only as the return address into it from
 * ftrace's call (a few bytes in): when @from is not found (the unwinder
 * recovered a return address that a return hook had replaced), the frame
 * after that one is taken instead.
 *
 * arm64 (!KFT_ENTRY_RETURN_ON_STACK): after the traced function's own
 * frame, found first (a recursive function's return address is also its
 * caller's: @from may be further up). From ftrace's call, ftrace_caller's
 * frame records show the function (a few bytes in) and then @from; from a
 * kprobe at its first instruction, the exception's frame shows that
 * instruction and then the caller's caller, since the return address is
 * still in x30: @put_back says to put @from back in between.
 */
static notrace unsigned int kft_stack_above(const unsigned long *buf, unsigned int n,
					    unsigned long from, unsigned long first,
					    bool *put_back)
{
	unsigned int i;

	*put_back = false;
	if (first && !KFT_ENTRY_RETURN_ON_STACK) {
		i = kft_stack_near(buf, n, first);
		if (i < n) {
			*put_back = buf[i] == first;
			return i + 1;
		}
	}
	i = kft_stack_find(buf, 1, n, from);
	if (i == n && first)
		i = kft_stack_near(buf, n, first) + 1;
	return i;
}
NOKPROBE_SYMBOL(kft_stack_above);

/**
 * kft_stack_capture() - the current kernel stack, from a given frame on
 * @buf:	room for @max frames
 * @max:	at least 2
 * @from:	the first frame to keep: a traced function's return address,
 *		or the instruction an interrupt interrupted
 * @first:	0, or a frame to put before @from: the traced function
 * @truncated:	set when the stack had more frames than fit
 *
 * Unwinds from here, and cuts kft's own frames (and the hook's) off at the
 * traced function (kft_stack_above()).
 *
 * Return: the frames in @buf, innermost first.
 */
notrace unsigned int kft_stack_capture(unsigned long *buf, unsigned int max,
				       unsigned long from, unsigned long first,
				       bool *truncated)
{
	unsigned int n, i, skip = first ? 1 : 0;
	bool put_back;

	n = stack_trace_save(buf + 1, max - 1, 0) + 1;
	*truncated = n == max;
	i = kft_stack_above(buf, n, from, first, &put_back);
	if (i >= n) {
		/* Nothing to anchor on: the function and its return address. */
		if (!first) {
			buf[0] = from;
			return 1;
		}
		buf[0] = first;
		buf[1] = from;
		return 2;
	}
	if (put_back)
		buf[--i] = from;
	if (skip)
		buf[--i] = first;
	n -= i;
	memmove(buf, buf + i, n * sizeof(*buf));
	/* The unwinder can report an interrupted instruction twice. */
	if (!first && n > 1 && buf[1] == buf[0])
		memmove(buf + 1, buf + 2, (--n - 1) * sizeof(*buf));
	if (n > KFT_STACK_MAX_DEPTH) {
		n = KFT_STACK_MAX_DEPTH;
		*truncated = true;
	}
	return n;
}
NOKPROBE_SYMBOL(kft_stack_capture);

/* A 64-bit hash of a stack and its key; odd, so never 0 (a free slot). */
static notrace unsigned long kft_stack_hash(const struct kft_stack_key *key)
{
	u64 comm[TASK_COMM_LEN / sizeof(u64)];
	u64 h = 0x9e3779b97f4a7c15ULL ^ key->nr ^ ((u64)(u32)key->tgid << 32);
	unsigned int i;

	for (i = 0; i < key->nr; i++)
		h = (h ^ key->frames[i]) * 0xff51afd7ed558ccdULL;
	if (key->tgid >= 0) {
		memcpy(comm, key->comm, sizeof(comm));
		h = (h ^ comm[0]) * 0xc4ceb9fe1a85ec53ULL;
		h = (h ^ comm[1]) * 0xc4ceb9fe1a85ec53ULL;
	}
	return (unsigned long)(h ^ (h >> 29)) | 1;
}
NOKPROBE_SYMBOL(kft_stack_hash);

static notrace bool kft_stack_slot_is(const struct kft_stack_table *t,
				      const struct kft_stack_slot *s,
				      const struct kft_stack_key *key)
{
	if (s->broken || s->nr != key->nr || s->tgid != key->tgid)
		return false;
	if (key->tgid >= 0 && memcmp(s->comm, key->comm, TASK_COMM_LEN))
		return false;
	return !memcmp(t->pool + s->first, key->frames, key->nr * sizeof(long));
}
NOKPROBE_SYMBOL(kft_stack_slot_is);

/* Fills a slot this CPU claimed, then publishes it. */
static notrace u32 kft_stack_slot_fill(struct kft_stack_table *t,
				       struct kft_stack_slot *s,
				       const struct kft_stack_key *key)
{
	long first = atomic_long_add_return(key->nr, &t->pool_used) - key->nr;

	if (first + key->nr > t->pool_size) {
		s->broken = 1;
		/* Pairs with smp_load_acquire() in kft_stack_count(). */
		smp_store_release(&s->ready, 1);
		return KFT_STACK_NONE;
	}
	memcpy(t->pool + first, key->frames, key->nr * sizeof(long));
	s->first = first;
	s->nr = key->nr;
	s->tgid = key->tgid;
	if (key->tgid >= 0)
		memcpy(s->comm, key->comm, TASK_COMM_LEN);
	atomic_long_set(&s->count, 1);
	/* Pairs with smp_load_acquire() in kft_stack_count(), view build. */
	smp_store_release(&s->ready, 1);
	return s - t->slots;
}
NOKPROBE_SYMBOL(kft_stack_slot_fill);

/**
 * kft_stack_count() - count one event of a stack
 * @t:		the table
 * @key:	the stack (and process)
 *
 * Return: the stack's slot, or KFT_STACK_NONE when the table is full.
 */
notrace u32 kft_stack_count(struct kft_stack_table *t, const struct kft_stack_key *key)
{
	unsigned long hash = kft_stack_hash(key), mask = (1UL << t->bits) - 1, cur;
	unsigned long i, idx = (hash >> 1) & mask;
	struct kft_stack_slot *s;

	for (i = 0; i < KFT_STACK_PROBES; i++, idx = (idx + 1) & mask) {
		s = &t->slots[idx];
		cur = READ_ONCE(s->hash);
		if (!cur) {
			if (atomic_long_read(&t->nr_stacks) >= t->max_stacks ||
			    atomic_long_read(&t->pool_used) + key->nr > t->pool_size)
				return KFT_STACK_NONE;
			cur = cmpxchg(&s->hash, 0, hash);
			if (!cur) {
				atomic_long_inc(&t->nr_stacks);
				return kft_stack_slot_fill(t, s, key);
			}
		}
		/* Pairs with smp_store_release() in kft_stack_slot_fill(). */
		if (cur != hash || !smp_load_acquire(&s->ready))
			continue;
		if (s->broken)
			return KFT_STACK_NONE;	/* this stack had no room */
		if (!kft_stack_slot_is(t, s, key))
			continue;
		atomic_long_inc(&s->count);
		return idx;
	}
	return KFT_STACK_NONE;
}
NOKPROBE_SYMBOL(kft_stack_count);

/* Below: process context. */

/**
 * kft_stack_table_alloc() - a table for @max_stacks distinct stacks
 * @t:		the table (zeroed)
 * @max_stacks:	the configuration's logentries
 *
 * Twice as many slots as stacks (probes stay short); frames for
 * KFT_STACK_POOL_AVG a stack on average.
 *
 * Return: 0 or -ENOMEM.
 */
int kft_stack_table_alloc(struct kft_stack_table *t, unsigned long max_stacks)
{
	unsigned long slots = roundup_pow_of_two(max_stacks * 2);

	mutex_init(&t->lock);
	t->bits = ilog2(slots);
	t->max_stacks = max_stacks;
	t->pool_size = max_stacks * KFT_STACK_POOL_AVG;
	if (!kft_mem_fits(kft_stack_table_bytes(t)))
		return -ENOMEM;
	t->slots = kvcalloc(slots, sizeof(*t->slots), KFT_BIG_GFP);
	t->pool = kvmalloc_array(t->pool_size, sizeof(*t->pool), KFT_BIG_GFP);
	if (!t->slots || !t->pool) {
		kft_stack_table_free(t);
		return -ENOMEM;
	}
	return 0;
}

void kft_stack_table_free(struct kft_stack_table *t)
{
	kvfree(t->slots);
	kvfree(t->pool);
	t->slots = NULL;
	t->pool = NULL;
}

/* Empties the table; no hook may be using it (the run is not primed). */
void kft_stack_table_reset(struct kft_stack_table *t)
{
	if (!t->slots)
		return;
	mutex_lock(&t->lock);
	memset(t->slots, 0, array_size(1UL << t->bits, sizeof(*t->slots)));
	atomic_long_set(&t->nr_stacks, 0);
	atomic_long_set(&t->pool_used, 0);
	mutex_unlock(&t->lock);
}

size_t kft_stack_table_bytes(const struct kft_stack_table *t)
{
	return array_size(1UL << t->bits, sizeof(*t->slots)) +
	       array_size(t->pool_size, sizeof(*t->pool));
}

/* A slot a reader can copy: published, with its frames. */
static bool kft_stack_slot_ready(const struct kft_stack_slot *s)
{
	/* Pairs with smp_store_release() in kft_stack_slot_fill(). */
	return smp_load_acquire(&s->ready) && !s->broken;
}

/**
 * kft_stack_totals() - what /proc/kft shows
 * @t:		the table
 * @stacks:	distinct stacks (slots in use)
 * @events:	events counted
 */
void kft_stack_totals(struct kft_stack_table *t, unsigned long *stacks,
		      unsigned long *events)
{
	unsigned long i;

	*stacks = *events = 0;
	for (i = 0; t->slots && i < (1UL << t->bits); i++) {
		if (!kft_stack_slot_ready(&t->slots[i]))
			continue;
		++*stacks;
		*events += atomic_long_read(&t->slots[i].count);
	}
}

static int kft_stack_cmp_count(const void *a, const void *b)
{
	const struct kft_stack_entry *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	return x->frames < y->frames ? -1 : x->frames > y->frames;
}

static int kft_stack_cmp_hash(const void *a, const void *b)
{
	const struct kft_stack_entry *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->frames < y->frames ? -1 : x->frames > y->frames;
}

static bool kft_stack_entry_same(const struct kft_stack_entry *a,
				 const struct kft_stack_entry *b)
{
	return a->hash == b->hash && a->nr == b->nr && a->tgid == b->tgid &&
	       !memcmp(a->comm, b->comm, TASK_COMM_LEN) &&
	       !memcmp(a->frames, b->frames, a->nr * sizeof(long));
}

/*
 * Two slots of one stack (claimed at once by two CPUs) become one entry:
 * such slots have the same hash, so they are neighbours once sorted by it.
 */
static void kft_stack_view_merge(struct kft_stack_view *v)
{
	unsigned long i, n = 0;

	sort(v->entries, v->nr, sizeof(*v->entries), kft_stack_cmp_hash, NULL);
	for (i = 0; i < v->nr; i++) {
		if (n && kft_stack_entry_same(&v->entries[n - 1], &v->entries[i]))
			v->entries[n - 1].count += v->entries[i].count;
		else
			v->entries[n++] = v->entries[i];
	}
	v->nr = n;
	sort(v->entries, v->nr, sizeof(*v->entries), kft_stack_cmp_count, NULL);
}

/* Copies slot @i into the view. */
static void kft_stack_view_add(struct kft_stack_table *t, struct kft_stack_view *v,
			       unsigned long i, unsigned long *copied)
{
	const struct kft_stack_slot *s = &t->slots[i];
	struct kft_stack_entry *e = &v->entries[v->nr++];

	e->hash = s->hash;
	e->count = atomic_long_read(&s->count);
	e->nr = s->nr;
	e->tgid = s->tgid;
	e->keyed = s->tgid >= 0;
	memcpy(e->comm, s->comm, TASK_COMM_LEN);
	e->frames = v->frames + *copied;
	memcpy(e->frames, t->pool + s->first, s->nr * sizeof(long));
	v->slot_frames[i].first = *copied;
	v->slot_frames[i].nr = s->nr;
	v->events += e->count;
	*copied += s->nr;
}

/* In slot_frames, between the two passes: a slot ready at the first. */
#define KFT_STACK_REF_READY	U32_MAX

/**
 * kft_stack_view_build() - a reader's copy of the table, most counted first
 * @t:		the table, its lock held (it cannot be emptied meanwhile)
 * @view:	filled in; kft_stack_view_free() it
 *
 * Events counted while the copy is made may or may not be in it. Every
 * slot ready at the first pass is copied, and only those: a snoop event
 * consumed before the build names a slot published before the event was
 * (kft_stacks_record()), so its stack is in the copy. (Copying the first
 * so many ready slots instead lost one when another slot, lower in the
 * table, became ready between the passes.)
 *
 * Return: 0 or -ENOMEM.
 */
int kft_stack_view_build(struct kft_stack_table *t, struct kft_stack_view *view)
{
	unsigned long slots = 1UL << t->bits, used = 0, frames, copied = 0, i;
	struct kft_stack_ref *ref;

	lockdep_assert_held(&t->lock);
	memset(view, 0, sizeof(*view));
	view->taken_ns = trace_clock_local();
	if (!kft_mem_fits(array_size(slots, sizeof(*view->slot_frames))))
		return -ENOMEM;
	view->slot_frames = kvcalloc(slots, sizeof(*view->slot_frames), KFT_BIG_GFP);
	if (!view->slot_frames)
		return -ENOMEM;
	for (i = 0; i < slots; i++) {
		if (kft_stack_slot_ready(&t->slots[i])) {
			view->slot_frames[i].first = KFT_STACK_REF_READY;
			used++;
		}
	}
	/* Every slot ready above has its frames below pool_used. */
	frames = min_t(unsigned long, atomic_long_read(&t->pool_used), t->pool_size);
	if (!kft_mem_fits(array_size(used, sizeof(*view->entries)) +
			  array_size(frames, sizeof(long)))) {
		kft_stack_view_free(view);
		return -ENOMEM;
	}
	view->entries = kvcalloc(max(used, 1UL), sizeof(*view->entries), KFT_BIG_GFP);
	view->frames = kvmalloc_array(max(frames, 1UL), sizeof(long), KFT_BIG_GFP);
	if (!view->entries || !view->frames) {
		kft_stack_view_free(view);
		return -ENOMEM;
	}
	for (i = 0; i < slots; i++) {
		if (!(i & 1023))
			cond_resched();
		ref = &view->slot_frames[i];
		if (ref->first != KFT_STACK_REF_READY)
			continue;
		ref->first = 0;
		if (copied + t->slots[i].nr <= frames)
			kft_stack_view_add(t, view, i, &copied);
	}
	kft_stack_view_merge(view);
	return 0;
}

void kft_stack_view_free(struct kft_stack_view *view)
{
	kvfree(view->entries);
	kvfree(view->frames);
	kvfree(view->slot_frames);
	memset(view, 0, sizeof(*view));
}
