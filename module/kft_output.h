/* SPDX-License-Identifier: GPL-2.0 */
/* What the modes' texts in /proc/kft_data share (kft_output.c). */
#ifndef KFT_OUTPUT_H
#define KFT_OUTPUT_H

#include <linux/types.h>

struct file;
struct kft_counters;
struct kft_rec_args;
struct kft_run;
struct kft_run_times;
struct seq_file;

void kft_output_header_common(struct seq_file *m, const struct kft_run *run,
			      const struct kft_run_times *times,
			      const struct kft_counters *c);
void kft_output_argf_reads(struct seq_file *m, const struct kft_run *run,
			    const struct kft_counters *c);
u64 kft_output_since_boot_us(const struct kft_run_times *times, u64 t);
unsigned long kft_output_func_start(unsigned long ip);
void kft_output_name(struct seq_file *m, const char *name, size_t len);
bool kft_output_may_show_addrs(const struct file *file);
void kft_output_addr(struct seq_file *m, unsigned long addr, bool show_addrs);
void kft_output_symbol(struct seq_file *m, unsigned long ip, bool offset, bool show_addrs);
void kft_output_value(struct seq_file *m, u64 v, bool show_addrs);
void kft_output_args(struct seq_file *m, const struct kft_rec_args *args, bool show_addrs);

#endif
