/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The blocks of a kft log in stacks or profile mode (Documentation/
 * stacks.rst, "/proc/kft_data in these modes"), after its header:
 *
 *	stack COUNT pid PID comm COMM		a stack counted COUNT times
 *	  ADDRESS SYMBOL [MODULE]		its frames, innermost first
 *	(a blank line)
 *	event TIME_US cpu CPU pid PID comm COMM [args=V,...]
 *						with snoop: one event, its stack
 *						(args: its call's registers)
 *	  ADDRESS SYMBOL [MODULE]
 *
 * The words "pid", "cpu" and "comm" before their fields may be left out.
 * SYMBOL is as the kernel's %pS prints it (name+0xOFF/0xSIZE), MODULE is
 * "[name]" for a module's function. PID -1 and COMM "-": not keyed by
 * process. A block without frames is a sample taken in user space. Lines
 * before the first block are the header's; after it, a line that is none of
 * these is malformed.
 */
#ifndef KFT_KFTSTACKS_H
#define KFT_KFTSTACKS_H

#include <stddef.h>

#include "strtab.h"

struct kftstacks_frame {
	const char *sym;	/* as written: "vfs_write+0xcb/0x3c0" */
	const char *module;	/* without brackets; NULL: the kernel's */
};

struct kftstacks_block {
	int event;		/* an "event" block (snoop), not a "stack" */
	long long count;	/* stack: how often it was counted; event: 1 */
	long long time;		/* event: us since boot; stack: -1 */
	int pid;		/* -1: not keyed by process */
	int cpu;		/* event: its CPU; stack: -1 */
	const char *comm;	/* the rest of the line; "-": not keyed */
	size_t first, nr;	/* its frames: frames[first .. first + nr) */
};

struct kftstacks {
	struct kftstacks_block *blocks;
	size_t nr, cap;
	struct kftstacks_frame *frames;
	size_t nr_frames, cap_frames;
	int started;		/* a block has been seen: no more header */
	int in_block;		/* frame lines go on the last block */
};

enum kftstacks_line {
	KFTSTACKS_TEXT,		/* the header, or a blank line */
	KFTSTACKS_BLOCK,	/* a "stack" or "event" line */
	KFTSTACKS_FRAME,
	KFTSTACKS_MALFORMED,
};

/*
 * Takes the next line of the log (len bytes; NULL: too long for any of
 * these lines), its strings kept in names: an enum kftstacks_line, or -1
 * with errno set (EFBIG: more than max_items blocks and frames, or names
 * over their limit; ENOMEM).
 */
int kftstacks__line(struct kftstacks *st, struct strtab *names, const char *line, size_t len,
		    size_t max_items);
void kftstacks__free(struct kftstacks *st);

#endif
