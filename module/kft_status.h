/* SPDX-License-Identifier: GPL-2.0 */
/* The text of /proc/kft (kft_status.c). */
#ifndef KFT_STATUS_H
#define KFT_STATUS_H

struct kft_run;
struct seq_file;

void kft_output_status(struct seq_file *m, struct kft_run *run);

#endif
