/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace log: one array of fixed-size binary records, filled without
 * locks and formatted only when read. How it fills is the run's choice
 * (log linear, ring, stream): linear hands out slots with one atomic
 * increment and stops when full; a ring gives each CPU its own part of the
 * array, which keeps that CPU's last calls; a stream's parts are drained
 * by a reader and never overwritten (kft_log_ring.h).
 *
 * The array lives in a reference-counted buffer: a reader of /proc/kft_data
 * holds the buffer it opened, so priming the run again while a reader has
 * it open gives the run a fresh buffer instead of emptying the reader's.
 */
#ifndef KFT_LOG_H
#define KFT_LOG_H

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/err.h>
#include <linux/kref.h>
#include <linux/log2.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <asm/local.h>

#include "kft_arch.h"
#include "kft_argstr.h"
#include "kft_comm.h"
#include "kft_config.h"

/*
 * One call, 40 bytes. info packs the duration (ns, 47 bits: 39 hours), the
 * CPU the call entered on (13 bits: NR_CPUS is at most 8192) and flags; retval is the return
 * register, whole: what kft cannot know is the function's type, so it
 * keeps all of it and decides only when shown (kft_retval_error()).
 */
struct kft_record {
	u64 entry_ns;		/* kft_now() at entry */
	unsigned long func;	/* as the hook saw it; 0 while being written */
#if BITS_PER_LONG == 32
	u32 func_pad;		/* 40 bytes as on 64-bit, with no padding to guess */
#endif
	s32 caller_off;		/* return address - func */
	s32 pid;		/* -1 in interrupt context */
	u64 info;
	u64 retval;		/* the return register; 0 until the exit */
};
static_assert(sizeof(struct kft_record) == 40);

#define KFT_REC_DUR_BITS	47
#define KFT_REC_DUR_MASK	((1ULL << KFT_REC_DUR_BITS) - 1)
#define KFT_REC_DUR_OPEN	KFT_REC_DUR_MASK	/* no exit seen: delta -1 */
#define KFT_REC_CPU_SHIFT	KFT_REC_DUR_BITS
#define KFT_REC_CPU_MASK	((1ULL << 13) - 1)
#define KFT_REC_CALLER_UNKNOWN	S32_MIN

/* Where @ret_ip is from @func, or KFT_REC_CALLER_UNKNOWN when over 2 GiB away. */
static inline s32 kft_rec_caller_off(unsigned long ret_ip, unsigned long func)
{
	long off = (long)(ret_ip - func);

	return off == (s32)off ? (s32)off : KFT_REC_CALLER_UNKNOWN;
}

static inline u64 kft_rec_info(u64 dur_ns, unsigned int cpu)
{
	if (dur_ns >= KFT_REC_DUR_OPEN)
		dur_ns = KFT_REC_DUR_OPEN - 1;
	/* 32-bit: a closed call's low word is never the open mark (see below). */
	if (BITS_PER_LONG == 32 && (u32)dur_ns == U32_MAX)
		dur_ns--;
	return dur_ns | ((u64)(cpu & KFT_REC_CPU_MASK) << KFT_REC_CPU_SHIFT);
}

/*
 * wakers: a row of who woke a sleep (delta -3), a frame of the waking
 * task's stack each; the first row's duration bits hold the sleep's.
 */
#define KFT_REC_WAKE		(1ULL << 60)
/* A stack watch's row (delta -2): the duration bits hold the bytes left. */
#define KFT_REC_STACK		(1ULL << 61)
/* The first row of a stack watch's snapshot, or of a wakeup's rows. */
#define KFT_REC_FIRST		(1ULL << 62)

static inline u64 kft_rec_info_stack(unsigned long left, unsigned int cpu, bool first)
{
	return kft_rec_info(left, cpu) | KFT_REC_STACK | (first ? KFT_REC_FIRST : 0);
}

/*
 * filter roots: a kept root call whose subtree did not fit the holding
 * space (the calls left out are counted in the header).
 */
#define KFT_REC_CUT		(1ULL << 63)

/* A call whose exit has not been seen: delta -1. */
static inline u64 kft_rec_info_open(unsigned int cpu)
{
	return KFT_REC_DUR_OPEN | ((u64)(cpu & KFT_REC_CPU_MASK) << KFT_REC_CPU_SHIFT);
}

/*
 * A record reserved at entry is closed at the exit by its info, which a
 * reader loads first: what was written before it is then there too. A
 * 64-bit store and load do it at once. A 32-bit CPU stores the high word,
 * then releases the low one, whose all-ones value is the open mark (a
 * closed call's low word never is: kft_rec_info()); a reader that sees the
 * mark reads an open call, whatever the high word holds by then.
 */
#ifdef __LITTLE_ENDIAN
#define KFT_INFO_LO	0
#else
#define KFT_INFO_LO	1
#endif
#define KFT_INFO_HI	(1 - KFT_INFO_LO)

static __always_inline void kft_rec_close_info(struct kft_record *rec, u64 info)
{
#if BITS_PER_LONG == 64
	/* What was written before (caller, value) is seen with it. */
	smp_store_release(&rec->info, info);
#else
	u32 *half = (u32 *)&rec->info;

	WRITE_ONCE(half[KFT_INFO_HI], info >> 32);
	/* The open mark goes last, with all written before it. */
	smp_store_release(&half[KFT_INFO_LO], (u32)info);
#endif
}

static __always_inline u64 kft_rec_load_info(const struct kft_record *rec)
{
#if BITS_PER_LONG == 64
	/* Pairs with kft_rec_close_info()'s release. */
	return smp_load_acquire(&rec->info);
#else
	const u32 *half = (const u32 *)&rec->info;
	/* Pairs with kft_rec_close_info()'s release of the low word. */
	u32 lo = smp_load_acquire(&half[KFT_INFO_LO]);
	u64 info = ((u64)READ_ONCE(half[KFT_INFO_HI]) << 32) | lo;

	return lo == U32_MAX ? info | KFT_REC_DUR_MASK : info;
#endif
}

static inline u64 kft_rec_dur(const struct kft_record *r)
{
	return r->info & KFT_REC_DUR_MASK;
}

static inline bool kft_rec_is_stack(const struct kft_record *r)
{
	return r->info & KFT_REC_STACK;
}

static inline bool kft_rec_is_wake(const struct kft_record *r)
{
	return r->info & KFT_REC_WAKE;
}

static inline bool kft_rec_is_cut(const struct kft_record *r)
{
	return r->info & KFT_REC_CUT;
}

static inline unsigned int kft_rec_cpu(const struct kft_record *r)
{
	return (r->info >> KFT_REC_CPU_SHIFT) & KFT_REC_CPU_MASK;
}

/**
 * kft_retval_error() - the error a return value holds, or 0
 * @v:	the return register
 *
 * As function_graph's funcgraph-retval reads it (print_graph_retval()),
 * without the function's type: -4095..-1 as a long (a long error, an
 * ERR_PTR), or as an int in the lower half with the upper half zero (an
 * int error: a 32-bit move zeroes the upper half of its register). A
 * 32-bit unsigned value from 0xfffff001 up reads as an error too, as there.
 */
static inline long kft_retval_error(u64 v)
{
	long e = (v >> 32) == 0 ? (long)(s32)v : (long)v;

	return e < 0 && e >= -MAX_ERRNO ? e : 0;
}

/*
 * offcpu: what a call spent off the CPU, runnable and blocked (ns), kept
 * beside its record (the same index in a parallel array): a run without
 * offcpu has no such array, and its records stay 40 bytes. Beside a
 * wakeup's first row (wakers, which takes offcpu's table), the waking
 * task's name.
 */
struct kft_rec_sched {
	union {
		struct {
			u64 runnable_ns;
			u64 blocked_ns;
		};
		u64 waker_comm[2];
	};
};

/*
 * args: a call's first argument registers, read at its entry, kept beside
 * its record as offcpu's times are (a run without args has no such array).
 */
struct kft_rec_args {
	unsigned long a[KFT_ARGS_MAX];
};

/* args string: struct kft_rec_str (kft_argstr.h), beside the registers. */

/*
 * log ring and log stream: CPU c's slots are records[c << shift] on, 1 <<
 * shift of them; a tag beside each record says which of the CPU's
 * reservations wrote it and whether it is being written or closed
 * (kft_log_ring.h). A stream's reader has taken each CPU's first tail.
 */

/*
 * A CPU's counts, a cache line from the next CPU's: in an array, not a
 * per-CPU allocation, so that a persistent ring's are in the kft region
 * with its records. Only its CPU adds to head (with preemption off), so a
 * local_t's interrupt-safe add suffices.
 */
struct kft_ring_cpu {
	local_t head;			/* reservations so far */
	unsigned long tail;		/* log stream: the calls its reader took */
} ____cacheline_aligned_in_smp;
struct kft_ring {
	u32 *tags;
	struct kft_ring_cpu *cpus;	/* nr_cpu_ids of them */
	unsigned int shift;
	unsigned long mask;		/* (1 << shift) - 1: a slot's place in its part */
	bool stream;			/* log stream, else log ring */
	bool in_region;			/* the kft region's memory (kft_region.h) */
};

/*
 * A slot reserved in the log (kft_hook_path.h, kft_log_ring.h): its index
 * in the log's arrays; a ring's or a stream's, with the tag that
 * publishes it.
 */
struct kft_log_slot {
	unsigned long i;
	u32 tag;
};

/* The records' memory, shared by the run and its readers. */
struct kft_log_buf {
	struct kref ref;
	struct rcu_head rcu;		/* its free, after the notifiers' readers */
	unsigned long capacity;
	struct kft_record *records;
	struct kft_rec_sched *sched;	/* offcpu, else NULL */
	struct kft_rec_args *args;	/* args, else NULL */
	struct kft_rec_str *strs;	/* args string, else NULL */
	struct kft_comms comms;		/* the records' task names */
	u64 first_start_ns;		/* the run's first start into it, or 0 */
	struct kft_ring ring;		/* log ring or stream, else tags NULL */
	struct mutex stream_lock;	/* a stream's readers: one at a time */
	unsigned long stream_read;	/* the calls they took, under it */
	unsigned int stream_next_cpu;	/* where the next binary read starts, under it */
};

struct kft_log {
	struct kft_record *records;	/* buf->records, for the traced path */
	struct kft_rec_sched *sched;	/* buf->sched */
	struct kft_rec_args *args;	/* buf->args */
	struct kft_rec_str *strs;	/* buf->strs */
	unsigned long capacity;
	/* Slots handed out; past capacity it keeps counting what was lost. */
	atomic_long_t reserved;
	struct kft_ring ring;		/* buf->ring */
	struct kft_log_buf *buf;
};

/*
 * A sorted view of one buffer for one reader. A ring's records are copied
 * (a running ring overwrites them), a linear log's are read in place.
 */
struct kft_log_view {
	struct kft_log_buf *buf;	/* a reference held by the view */
	const struct kft_record *recs;	/* buf->records, or the copies */
	const struct kft_rec_sched *sched; /* beside them, or NULL */
	const struct kft_rec_args *args; /* likewise */
	const struct kft_rec_str *strs;	/* likewise */
	struct kft_record *copies;	/* a ring's */
	struct kft_rec_sched *sched_copies;
	struct kft_rec_args *args_copies;
	struct kft_rec_str *str_copies;
	u32 *order;			/* record indexes in entry-time order */
	unsigned long nr;
};

/* log ring: each CPU's part holds at least @entries, a power of two. */
static inline unsigned int kft_ring_shift(unsigned long entries)
{
	return entries > 1 ? ilog2(entries - 1) + 1 : 0;
}

/* Memory a log is given rather than allocates: the kft region's. */
struct kft_log_mem {
	struct kft_record *records;
	struct kft_ring ring;
};

/* What a log keeps beside its records. */
struct kft_log_sides {
	bool sched;			/* offcpu's times */
	bool args;			/* the calls' argument registers */
	bool str;			/* a string an argument points to */
};

int kft_log_alloc(struct kft_log *log, unsigned long entries, struct kft_log_sides sides,
		  enum kft_log_fill fill, const struct kft_log_mem *mem);
void kft_log_free(struct kft_log *log);
void kft_log_exit(void);
int kft_log_reset(struct kft_log *log);
enum kft_log_fill kft_log_fill_of(const struct kft_log *log);
unsigned long kft_log_stored(const struct kft_log *log);
unsigned long kft_log_lost(const struct kft_log *log);
void kft_log_view_init(struct kft_log_view *view, struct kft_log *log);
int kft_log_view_collect(struct kft_log_view *view, unsigned long stored);
int kft_log_view_sort(struct kft_log_view *view);
int kft_log_view_build(struct kft_log_view *view, unsigned long stored);
void kft_log_view_free(struct kft_log_view *view);

#endif
