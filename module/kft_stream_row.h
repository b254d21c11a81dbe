/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/kft_stream's rows: one call of a log stream each, as the kernel
 * writes them, in its byte order. Shared with the userspace tools (kft
 * record writes them into its file, kft report and kd read them), so
 * only <linux/types.h> types. Documentation/kft.rst, "Streaming", says
 * what each field holds.
 *
 * A row is a struct kft_stream_row, then what its flags say follows it,
 * in this order: offcpu's times (struct kft_stream_sched), the arguments
 * (struct kft_stream_args) and args string's copy (struct
 * kft_stream_str). A run's rows all have the same
 * extensions, but a reader needs only each row's own flags to find the
 * next row.
 */
#ifndef KFT_STREAM_ROW_H
#define KFT_STREAM_ROW_H

#include <linux/types.h>

/* The return value is an error: retval holds it, sign-extended. */
#define KFT_STREAM_ROW_ERROR	0x1
/* The return value was hidden from the reader (retval 0). */
#define KFT_STREAM_ROW_HIDDEN	0x2
/* The call's exit was not seen (dur_ns 0). */
#define KFT_STREAM_ROW_OPEN	0x4
/* A struct kft_stream_sched follows the row (a run with offcpu). */
#define KFT_STREAM_ROW_SCHED	0x8
/* A struct kft_stream_args follows (a run with args), after the times. */
#define KFT_STREAM_ROW_ARGS	0x10
/* A struct kft_stream_str follows (args string or struct), after the arguments. */
#define KFT_STREAM_ROW_STR	0x20
/* Every flag a row may have: a reader refuses a row with another. */
#define KFT_STREAM_ROW_FLAGS	0x3f

#define KFT_STREAM_COMM_LEN	16
/* Argument registers a row has room for: the most of any architecture. */
#define KFT_STREAM_ARGS_MAX	8

struct kft_stream_row {
	__u64 entry_ns;		/* since the run's first start */
	__u64 dur_ns;
	__u64 func;		/* the function's start; 0 hidden from the reader */
	__u64 caller;		/* the return address; 0 unknown or hidden */
	__u64 retval;
	__s32 pid;		/* -1 in interrupt context */
	__u16 cpu;
	__u16 flags;		/* KFT_STREAM_ROW_* */
	char comm[KFT_STREAM_COMM_LEN];	/* NUL-padded; "" in interrupt context */
};

/*
 * offcpu: the call's time on the CPU, runnable and blocked. On the CPU is
 * the rest of the duration, as /proc/kft_data shows it (0 when the other
 * two exceed it). Zeros in a row with KFT_STREAM_ROW_OPEN.
 */
struct kft_stream_sched {
	__u64 oncpu_ns;
	__u64 runnable_ns;
	__u64 blocked_ns;
};

/*
 * args: the architecture's argument registers at the call's entry, nr of
 * them, each as /proc/kft_data shows a value: an error sign-extended (its
 * bit in error set), a value hidden from the reader 0 (its bit in hidden
 * set). The registers past nr are 0.
 */
struct kft_stream_args {
	__u64 a[KFT_STREAM_ARGS_MAX];
	__u8 nr;
	__u8 error;		/* bit i: a[i] is an error */
	__u8 hidden;		/* bit i: a[i] was hidden from the reader */
	__u8 pad[5];		/* 0 */
};

/* What a row's copy holds (struct kft_stream_str's state). */
#define KFT_STREAM_STR_NONE	0	/* no copy was made (the copy's own call) */
#define KFT_STREAM_STR_WHOLE	1	/* the whole string */
#define KFT_STREAM_STR_CUT	2	/* the string's first 62 bytes of more */
#define KFT_STREAM_STR_FAULT	3	/* the pointer could not be read */
#define KFT_STREAM_STR_MEM	4	/* args struct: len bytes of memory */
#define KFT_STREAM_STR_HIDDEN	5	/* hidden from the reader (no CAP_SYSLOG) */
#define KFT_STREAM_STR_LEN	64

/*
 * args string N, ustring N or struct N LEN: what argument N pointed to,
 * as /proc/kft_data's strN= or memN= word shows it to the reader. s holds
 * a string of state WHOLE or CUT, NUL-terminated; len bytes of state MEM;
 * nothing else: its other bytes, and pad, are 0.
 */
struct kft_stream_str {
	__u8 state;		/* KFT_STREAM_STR_* */
	__u8 arg;		/* N, 1 on */
	__u8 len;		/* args struct: LEN; 0 for a string */
	__u8 pad[5];		/* 0 */
	char s[KFT_STREAM_STR_LEN];
};

#endif
