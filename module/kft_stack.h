/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel stacks: capturing the current one from a hook or a timer, and a
 * table that counts identical stacks (mode stacks and mode profile).
 *
 * The table is an open-addressing hash of stacks shared by all CPUs. A new
 * stack claims a free slot with one compare-and-swap of its hash, copies
 * its frames into a frame pool (space taken with one atomic add) and then
 * publishes the slot; from then on the slot is only read and its count
 * incremented. The traced path takes no lock, allocates nothing and never
 * waits: a slot another CPU (or an interrupted context of this CPU) is
 * still publishing is passed over, so the same stack can get two slots;
 * a reader merges them. The table is bounded: a stack that finds no slot
 * or no room for its frames is counted as lost to a full table.
 */
#ifndef KFT_STACK_H
#define KFT_STACK_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/types.h>

#define KFT_STACK_MAX_DEPTH	127	/* perf's and bpf's limit */
#define KFT_STACK_POOL_AVG	48	/* frames reserved per distinct stack */
#define KFT_STACK_PROBES	64	/* slots looked at before giving up */
#define KFT_STACK_NONE		U32_MAX	/* an event whose stack was not kept */
/* A capture's buffer: the deepest stack kept, and kft's and ftrace's frames. */
#define KFT_STACK_BUF		(KFT_STACK_MAX_DEPTH + 9)

/* One distinct stack (and process, when keyed by process). */
struct kft_stack_slot {
	unsigned long hash;		/* 0: free; odd when claimed */
	atomic_long_t count;
	u32 first;			/* its frames: pool[first .. first + nr) */
	u16 nr;
	u8 ready;			/* published: the fields above are set */
	u8 broken;			/* claimed, but no room for its frames */
	pid_t tgid;			/* keyed by process; else -1 */
	char comm[TASK_COMM_LEN];
};

struct kft_stack_table {
	struct kft_stack_slot *slots;
	unsigned int bits;		/* 1 << bits slots */
	unsigned long max_stacks;	/* distinct stacks it may hold */
	atomic_long_t nr_stacks;	/* claimed slots */
	unsigned long *pool;		/* frames */
	unsigned long pool_size;
	atomic_long_t pool_used;
	/* Held while a reader copies and while the table is emptied. */
	struct mutex lock;
};

/* What the traced path found: a stack to count, with its key. */
struct kft_stack_key {
	const unsigned long *frames;
	unsigned int nr;
	pid_t tgid;			/* -1: not keyed by process */
	const char *comm;		/* with tgid */
};

/* One stack in a reader's snapshot. */
struct kft_stack_entry {
	unsigned long hash;
	unsigned long count;
	unsigned long *frames;		/* into the view's copy */
	unsigned int nr;
	pid_t tgid;
	char comm[TASK_COMM_LEN];
	bool keyed;
};

/* Where a slot's frames are in a view. */
struct kft_stack_ref {
	u32 first;
	u32 nr;				/* 0: not in the view */
};

/* A reader's copy: most counted first. */
struct kft_stack_view {
	struct kft_stack_entry *entries;
	unsigned long nr;
	unsigned long events;
	unsigned long *frames;		/* the copied frames */
	struct kft_stack_ref *slot_frames; /* by slot (for snoop events) */
	u64 taken_ns;
};

int kft_stack_table_alloc(struct kft_stack_table *t, unsigned long max_stacks);
void kft_stack_table_free(struct kft_stack_table *t);
void kft_stack_table_reset(struct kft_stack_table *t);
size_t kft_stack_table_bytes(const struct kft_stack_table *t);
u32 kft_stack_count(struct kft_stack_table *t, const struct kft_stack_key *key);
int kft_stack_view_build(struct kft_stack_table *t, struct kft_stack_view *view);
void kft_stack_view_free(struct kft_stack_view *view);
void kft_stack_totals(struct kft_stack_table *t, unsigned long *stacks,
		      unsigned long *events);

int kft_stack_init(void);
void kft_stack_exit(void);
unsigned long *kft_stack_scratch_get(unsigned int *level);
void kft_stack_scratch_put(unsigned int level);
unsigned int kft_stack_capture(unsigned long *buf, unsigned int max,
			       unsigned long from, unsigned long first,
			       bool *truncated);

#endif
