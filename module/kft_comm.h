/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The task names of a trace log. A record (32 bytes) has no room for the
 * task's name: the log keeps a table of the (pid, name) pairs its records
 * were written under, with the earliest entry time of each, and the output
 * gives a row the name its pid had by then (the last pair of that pid that
 * started at or before the row's entry; a task that execs changes name).
 *
 * Writers are the hooks, in any task context: a per-CPU note of the last
 * pair written makes a run of records from one task cost a compare; a new
 * pair claims a slot with one cmpxchg. Nothing is ever removed while the
 * log lives, so a reader needs no lock. A pair that finds no slot within
 * KFT_COMM_PROBES is counted as lost and its rows show "?".
 */
#ifndef KFT_COMM_H
#define KFT_COMM_H

#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/types.h>

#include "kft_config.h"

struct kft_comm_slot {
	u32 key;		/* pid + 1; 0: free */
	u32 ready;		/* name and first_ns written (release) */
	u64 first_ns;		/* the earliest entry of its records */
	u64 name[2];		/* the task's comm, KFT_COMM_LEN bytes */
};

struct kft_comms {
	struct kft_comm_slot *slots;
	unsigned int mask;
	struct kft_comm_slot * __percpu *last;	/* per CPU: the last pair noted */
	atomic_long_t lost;
};

int kft_comms_alloc(struct kft_comms *c, unsigned long records);
void kft_comms_free(struct kft_comms *c);
void kft_comms_reset(struct kft_comms *c);
void kft_comms_note(struct kft_comms *c, s32 pid, u64 entry_ns);
const char *kft_comms_find(const struct kft_comms *c, s32 pid, u64 entry_ns,
			   char name[KFT_COMM_LEN]);
unsigned long kft_comms_lost(const struct kft_comms *c);
unsigned long kft_comms_bytes(const struct kft_comms *c);

#endif
