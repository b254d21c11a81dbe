/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The task names of a trace log. A record (32 bytes) has no room for the
 * task's name: the log keeps a table of the (pid, name) pairs its records
 * were written under, with the earliest entry time of each, and the output
 * gives a row the name its pid had by then (the last pair of that pid that
 * started at or before the row's entry; a task that execs changes name).
 * A pid has one current pair: a task that takes a name it had before gets
 * a new pair (the old one's start would name the rows after it by the
 * name between), and its old pair is marked superseded in its key.
 *
 * Writers are the hooks, in any task context: a per-CPU note of the last
 * pair written makes a run of records from one task cost a compare; a new
 * pair claims a slot with one cmpxchg. Nothing is ever removed while the
 * log lives, so a reader needs no lock. A pair that finds no slot within
 * KFT_COMM_PROBES never will until the log is emptied: its records are
 * counted as lost and its rows show "?"; the CPU notes it, so that its
 * next records cost a compare, not the probes again.
 */
#ifndef KFT_COMM_H
#define KFT_COMM_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/types.h>

#include "kft_config.h"

/* In a slot's key: a later pair of the pid was claimed. */
#define KFT_COMM_SUPERSEDED	0x80000000U

struct kft_comm_slot {
	u32 key;		/* pid + 1, | KFT_COMM_SUPERSEDED; 0: free */
	u32 ready;		/* name and first_ns written (release) */
	u64 first_ns;		/* the earliest entry of its records */
	u64 name[2];		/* the task's comm, KFT_COMM_LEN bytes */
};

/* A CPU's notes: the last pair it wrote, the last that found no slot. */
struct kft_comm_cpu {
	struct kft_comm_slot *last;
	u32 lost_key;			/* 0: none */
	u64 lost_name[2];
	unsigned long lost;		/* records whose pair found no slot */
};

struct kft_comms {
	struct kft_comm_slot *slots;
	unsigned int mask;
	struct kft_comm_cpu __percpu *cpus;
	/* Grows after each new pair is ready, and at a reset: a memo's check. */
	atomic_long_t changes;
};

/*
 * A reader's memo of the last task it named (kft_comms_find_memo()): a pid
 * that had one pair when the table had @changes has that name at every
 * entry time, until the table changes. A stream's rows come task after
 * task, and a row's lookup was most of what naming it cost.
 */
struct kft_comm_memo {
	long changes;		/* the table's, when taken; -1: none yet */
	s32 pid;
	char name[KFT_COMM_LEN];
};

int kft_comms_alloc(struct kft_comms *c, unsigned long records);
void kft_comms_free(struct kft_comms *c);
void kft_comms_reset(struct kft_comms *c);
void kft_comms_note_slow(struct kft_comms *c, u32 key, u64 n0, u64 n1, u64 entry_ns);

/**
 * kft_comms_note() - a record of current, which entered at @entry_ns
 * @c:		the log's table
 * @pid:	current's pid, as the record has it
 * @entry_ns:	the record's entry time
 *
 * From a hook, in task context. Inline for the common case, the CPU's
 * last pair again (about 40 instructions a record as a call; a few
 * compares here): a slot noted as a CPU's last is ready, and its pair
 * stays while the log lives (a superseded one fails the key's compare).
 * That last pair is a hint whose contents are
 * checked: a caller preempted and moved between the read and the write
 * uses another CPU's, as right, so raw_cpu_*() (no preemption needed).
 */
static __always_inline void kft_comms_note(struct kft_comms *c, s32 pid, u64 entry_ns)
{
	const struct kft_comm_slot *s = raw_cpu_read(c->cpus->last);
	const char *comm = current->comm;
	u32 key = (u32)pid + 1;
	u64 n0, n1;

	/* Two loads (the name can change under us: racy, as perf reads it). */
	memcpy(&n0, comm, sizeof(n0));
	memcpy(&n1, comm + sizeof(n0), sizeof(n1));
	if (likely(s && s->key == key && s->name[0] == n0 && s->name[1] == n1 &&
		   READ_ONCE(s->first_ns) <= entry_ns))
		return;
	kft_comms_note_slow(c, key, n0, n1, entry_ns);
}
const char *kft_comms_find(const struct kft_comms *c, s32 pid, u64 entry_ns,
			   char name[KFT_COMM_LEN]);
const char *kft_comms_find_memo_slow(const struct kft_comms *c, struct kft_comm_memo *m,
				     s32 pid, u64 entry_ns, char name[KFT_COMM_LEN]);

/**
 * kft_comms_find_memo() - kft_comms_find(), the last task's name from @m
 * @c:		the log's table
 * @m:		the reader's memo (changes -1 before its first row)
 * @pid:	the row's pid (not -1)
 * @entry_ns:	the row's entry time
 * @name:	room for the name
 *
 * Return: @name, or "?" when the pair was lost.
 */
static inline const char *kft_comms_find_memo(const struct kft_comms *c,
					      struct kft_comm_memo *m, s32 pid, u64 entry_ns,
					      char name[KFT_COMM_LEN])
{
	/* Acquire: a change seen here comes after its pair is ready. */
	if (m->pid == pid && m->changes == atomic_long_read_acquire(&c->changes)) {
		memcpy(name, m->name, KFT_COMM_LEN);
		return name;
	}
	return kft_comms_find_memo_slow(c, m, pid, entry_ns, name);
}
unsigned long kft_comms_lost(const struct kft_comms *c);
unsigned long kft_comms_bytes(const struct kft_comms *c);

#endif
