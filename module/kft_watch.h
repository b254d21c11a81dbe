/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stack watches (trace mode): at the entry of a traced function, when less
 * stack is left than the threshold, the whole call chain goes into the log
 * as rows with delta -2. "worst-stack" lowers the threshold to each hit,
 * so the log holds the successive deepest stacks.
 */
#ifndef KFT_WATCH_H
#define KFT_WATCH_H

#include <linux/types.h>

struct kft_run;
struct kft_call;
struct pt_regs;

/* The lowest stack a watch saw; its fields are set by the hit that set left. */
struct kft_watch_low {
	unsigned long left;		/* ULONG_MAX: none yet */
	unsigned long func;
	s32 pid;
	u32 cpu;
	int kind;			/* enum kft_stack_kind */
};

struct kft_watch {
	unsigned long threshold;	/* bytes; lowered by worst-stack hits */
	struct kft_watch_low low;
};

void kft_watch_reset(struct kft_watch *w, unsigned long threshold);
void kft_watch_entry(struct kft_run *run, unsigned long ip, unsigned long ret_ip,
		     struct pt_regs *regs, u64 now, s32 pid);

#endif
