/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Snoop: every event of a stacks-mode run, kept in a ring that readers of
 * /proc/kft_data consume (kft stacksnoop prints them as they come).
 *
 * Writers reserve an event with a compare-and-swap of the head, refused
 * (and counted as lost) when the ring holds as many events as it has room
 * for; they fill the event and publish it with its sequence number. One
 * reader at a time (a mutex) copies the published events in order and
 * then moves the tail past them, which frees their room. With args, each
 * event's call keeps its argument registers beside it, in a parallel array
 * that only such a run allocates.
 *
 * An event's place is its count modulo the size. The counts go back to 0
 * at the largest multiple of the size below 2^32 (wrap), on every kernel,
 * not where an unsigned long does: at 2^32 (a 32-bit kernel, a long snoop)
 * the place would jump there, and an event not yet read be overwritten by
 * the next one, which stopped every read at the lost one for good. Below
 * 2^32, a count plus 1 is its sequence number, never 0 and never another's.
 */
#ifndef KFT_SNOOP_H
#define KFT_SNOOP_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "kft_log.h"

struct ftrace_regs;

struct kft_snoop_event {
	u64 time_ns;			/* kft_now() */
	u32 seq;			/* its index + 1: published */
	u32 slot;			/* its stack in the table, or KFT_STACK_NONE */
	s32 pid;
	u32 cpu;
	char comm[TASK_COMM_LEN];
};

struct kft_snoop {
	struct kft_snoop_event *events;
	struct kft_rec_args *args;	/* args: each event's registers, else NULL */
	unsigned long size;		/* 0: the run does not snoop */
	unsigned long wrap;		/* head and tail go back to 0 there */
	atomic_long_t head;		/* events reserved */
	unsigned long tail;		/* events consumed */
	struct mutex lock;		/* one consumer at a time */
};

/* What one reader consumed. */
struct kft_snoop_view {
	struct kft_snoop_event *events;
	struct kft_rec_args *args;	/* the events' registers (args), else NULL */
	unsigned long nr;
};

int kft_snoop_alloc(struct kft_snoop *sn, unsigned long size, bool args);
void kft_snoop_free(struct kft_snoop *sn);
void kft_snoop_reset(struct kft_snoop *sn);
bool kft_snoop_add(struct kft_snoop *sn, u64 time_ns, u32 slot, struct ftrace_regs *fregs);
int kft_snoop_consume(struct kft_snoop *sn, struct kft_snoop_view *view,
		      int (*keep)(void *ctx), void *ctx);
void kft_snoop_view_free(struct kft_snoop_view *view);

#endif
