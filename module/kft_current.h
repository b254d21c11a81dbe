/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The installed run and the last error, which /proc/kft, /proc/kft_data,
 * the module notifier and the boot's static run share (kft_current.c),
 * and the run a `clear` left to a worker to tear down. All under kft_mutex.
 */
#ifndef KFT_CURRENT_H
#define KFT_CURRENT_H

#include <linux/compiler_types.h>

#include "kft_config.h"

struct kft_run;

extern struct kft_run *kft_current;
/* kft_current if it is a ring, under RCU (kft_flight.c). */
extern struct kft_run __rcu *kft_flight_run;
/* The last configuration or command error, shown in /proc/kft. */
extern struct kft_parse_error kft_last_error;

void kft_report(const struct kft_parse_error *err);
struct kft_run *kft_install_run(char *text, const struct kft_config *cfg);
void kft_clear_run(void);
void kft_retire_run(void);
int kft_lock_settled(void);
void kft_retire_wait(void);
void kft_retire_flush(void);
unsigned int kft_retiring_id(void);

#endif
