/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/kft_stream's rows: one call of a log stream each, as the kernel
 * writes them, in its byte order. Shared with the userspace tools (kft
 * record writes them into its file, kft report and kd read them), so
 * only <linux/types.h> types. Documentation/kft.rst, "Streaming", says
 * what each field holds.
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

#define KFT_STREAM_COMM_LEN	16

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

#endif
