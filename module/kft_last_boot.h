/* SPDX-License-Identifier: GPL-2.0 */
/* /proc/kft_last_boot (kft_last_boot.c), registered by kft_main.c. */
#ifndef KFT_LAST_BOOT_H
#define KFT_LAST_BOOT_H

#include <linux/proc_fs.h>

extern const struct proc_ops kft_last_boot_ops;

void kft_last_boot_init(void);
void kft_last_boot_exit(void);

#endif
