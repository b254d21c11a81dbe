/* SPDX-License-Identifier: GPL-2.0 */
/* /proc/kft_stream (kft_stream.c), registered by kft_main.c. */
#ifndef KFT_STREAM_H
#define KFT_STREAM_H

#include <linux/proc_fs.h>

extern const struct proc_ops kft_stream_ops;

#endif
