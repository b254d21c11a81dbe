/* SPDX-License-Identifier: GPL-2.0 */
/* /proc/kft_data (kft_data.c), registered by kft_main.c. */
#ifndef KFT_DATA_H
#define KFT_DATA_H

#include <linux/fs.h>
#include <linux/proc_fs.h>

extern const struct proc_ops kft_data_ops;

void *kft_data_next_row(loff_t *pos);

#endif
