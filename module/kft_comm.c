// SPDX-License-Identifier: GPL-2.0
/*
 * The task names of a trace log: a table of (pid, name) pairs written by
 * the hooks without a lock (kft_comm.h says how a row finds its name).
 */
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/threads.h>
#include <linux/vmalloc.h>

#include "kft_comm.h"
#include "kft_compat.h"
#include "kft_log.h"

#define KFT_COMM_PROBES		32
#define KFT_COMM_MIN_SLOTS	256
#define KFT_COMM_MAX_SLOTS	16384	/* 512 KiB */

static_assert(sizeof(((struct kft_comm_slot *)0)->name) == KFT_COMM_LEN);
static_assert(sizeof(((struct task_struct *)0)->comm) == KFT_COMM_LEN);
/* A key, pid + 1, leaves KFT_COMM_SUPERSEDED's bit free. */
static_assert(PID_MAX_LIMIT + 1 < KFT_COMM_SUPERSEDED, "a key never has the bit");

/**
 * kft_comms_alloc() - the name table of a log
 * @c:		the table
 * @records:	the log's capacity: an eighth of it in slots, within limits
 *
 * Return: 0 or -ENOMEM.
 */
int kft_comms_alloc(struct kft_comms *c, unsigned long records)
{
	unsigned long slots = roundup_pow_of_two(clamp(records / 8, (unsigned long)KFT_COMM_MIN_SLOTS,
						       (unsigned long)KFT_COMM_MAX_SLOTS));

	c->slots = vzalloc(array_size(slots, sizeof(*c->slots)));
	c->cpus = alloc_percpu(struct kft_comm_cpu);
	if (!c->slots || !c->cpus) {
		kft_comms_free(c);
		return -ENOMEM;
	}
	c->mask = slots - 1;
	atomic_long_set(&c->changes, 0);
	return 0;
}

void kft_comms_free(struct kft_comms *c)
{
	vfree(c->slots);
	free_percpu(c->cpus);
	c->slots = NULL;
	c->cpus = NULL;
}

/* Empty again; only while no hook can write to it. */
void kft_comms_reset(struct kft_comms *c)
{
	int cpu;

	memset(c->slots, 0, kft_comms_bytes(c));
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(c->cpus, cpu), 0, sizeof(struct kft_comm_cpu));
	/* (Grows: a reader's memo of the old table is not taken for the new.) */
	atomic_long_inc(&c->changes);
}

static __always_inline bool kft_comm_slot_is(const struct kft_comm_slot *s, u32 key,
					     u64 n0, u64 n1)
{
	/* Acquire: ready is released after the name (kft_comm_slot_claim()). */
	return READ_ONCE(s->key) == key && smp_load_acquire(&s->ready) &&
	       s->name[0] == n0 && s->name[1] == n1;
}

/* A record may start before the first one noted (an outer call, at exit). */
static __always_inline void kft_comm_slot_seen_at(struct kft_comm_slot *s, u64 entry_ns)
{
	u64 old = READ_ONCE(s->first_ns);

	while (entry_ns < old && !try_cmpxchg64(&s->first_ns, &old, entry_ns))
		;
}

/* A free slot claimed for the pair, ready; false when it is not free. */
static __always_inline bool kft_comm_slot_claim(struct kft_comms *c, struct kft_comm_slot *s,
						u32 key, u64 n0, u64 n1, u64 entry_ns)
{
	if (READ_ONCE(s->key) || cmpxchg(&s->key, 0, key))
		return false;
	s->name[0] = n0;
	s->name[1] = n1;
	s->first_ns = entry_ns;
	/* Release: a reader that sees ready sees the name. */
	smp_store_release(&s->ready, 1);
	/* After ready: a memo taken before this pair was seen fails. */
	atomic_long_inc(&c->changes);
	return true;
}

/*
 * The pair's slot: the pid's current one if it has this name, else a new
 * one, claimed, which supersedes it; NULL when the probes run out. Only
 * the pid's own task writes its pairs (the task of an interrupt's early
 * calls too, on its own CPU), and a pid's later pairs lie after its
 * earlier ones in the probe order (slots are never freed): the first free
 * slot comes after all of them.
 */
static notrace struct kft_comm_slot *kft_comm_slot_get(struct kft_comms *c, u32 key,
						       u64 n0, u64 n1, u64 entry_ns)
{
	struct kft_comm_slot *current_pair = NULL;
	u32 h = hash_32(key, 32);
	unsigned int i;

	for (i = 0; i < KFT_COMM_PROBES; i++) {
		struct kft_comm_slot *s = &c->slots[(h + i) & c->mask];

		if (kft_comm_slot_claim(c, s, key, n0, n1, entry_ns)) {
			if (current_pair)
				WRITE_ONCE(current_pair->key, key | KFT_COMM_SUPERSEDED);
			return s;
		}
		if (READ_ONCE(s->key) != key)
			continue;
		if (kft_comm_slot_is(s, key, n0, n1))
			return s;
		current_pair = s;
	}
	return NULL;
}
NOKPROBE_SYMBOL(kft_comm_slot_get);

/**
 * kft_comms_note_slow() - kft_comms_note() for another pair than the CPU's last
 * @c:		the log's table
 * @key:	current's pid + 1
 * @n0:		its name's first 8 bytes
 * @n1:		and the next 8
 * @entry_ns:	the record's entry time
 */
notrace void kft_comms_note_slow(struct kft_comms *c, u32 key, u64 n0, u64 n1, u64 entry_ns)
{
	struct kft_comm_cpu *pc;
	struct kft_comm_slot *s;

	/* The CPU's notes are written whole: no other task's between. */
	preempt_disable_notrace();
	pc = this_cpu_ptr(c->cpus);
	s = pc->last;
	if (!s || !kft_comm_slot_is(s, key, n0, n1)) {
		if (pc->lost_key == key && pc->lost_name[0] == n0 && pc->lost_name[1] == n1) {
			pc->lost++;
			goto out;
		}
		s = kft_comm_slot_get(c, key, n0, n1, entry_ns);
		if (!s) {
			pc->lost_key = key;
			pc->lost_name[0] = n0;
			pc->lost_name[1] = n1;
			pc->lost++;
			goto out;
		}
		pc->last = s;
	}
	kft_comm_slot_seen_at(s, entry_ns);
out:
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kft_comms_note_slow);

/*
 * kft_comms_find(), which also says in @pairs how many pairs @pid has (the
 * ready ones seen).
 */
static const char *kft_comms_name(const struct kft_comms *c, s32 pid, u64 entry_ns,
				  char name[KFT_COMM_LEN], unsigned int *pairs)
{
	const struct kft_comm_slot *best = NULL, *first = NULL;
	u32 key = (u32)pid + 1, h = hash_32(key, 32);
	u64 best_ns = 0, first_ns = 0;
	unsigned int i;
	size_t len;

	*pairs = 0;
	for (i = 0; i < KFT_COMM_PROBES; i++) {
		const struct kft_comm_slot *s = &c->slots[(h + i) & c->mask];
		u32 k = READ_ONCE(s->key);
		u64 t;

		if (!k)
			break;
		/* Acquire: pairs with the release in kft_comm_slot_claim(). */
		if ((k & ~KFT_COMM_SUPERSEDED) != key || !smp_load_acquire(&s->ready))
			continue;
		(*pairs)++;
		/*
		 * Each slot's time read once: its task may be lowering it, and
		 * a 32-bit kernel's second read could be torn.
		 */
		t = READ_ONCE(s->first_ns);
		if (t <= entry_ns && (!best || t > best_ns)) {
			best = s;
			best_ns = t;
		}
		if (!first || t < first_ns) {
			first = s;
			first_ns = t;
		}
	}
	best = best ?: first;
	if (!best)
		return "?";
	memcpy(name, best->name, KFT_COMM_LEN);
	/*
	 * NUL-padded: a task renamed shorter keeps the old name's last bytes
	 * past its NUL where the kernel's rename does not pad (5.10).
	 */
	len = strnlen(name, KFT_COMM_LEN - 1);
	memset(name + len, 0, KFT_COMM_LEN - len);
	return name;
}

/**
 * kft_comms_find() - the name of @pid for a row that entered at @entry_ns
 * @c:		the log's table
 * @pid:	the row's pid (not -1)
 * @entry_ns:	the row's entry time
 * @name:	room for the name
 *
 * Return: @name, or "?" when the pair was lost.
 */
const char *kft_comms_find(const struct kft_comms *c, s32 pid, u64 entry_ns,
			   char name[KFT_COMM_LEN])
{
	unsigned int pairs;

	return kft_comms_name(c, pid, entry_ns, name, &pairs);
}

/**
 * kft_comms_find_memo_slow() - kft_comms_find_memo() when @m does not know @pid
 * @c:		the log's table
 * @m:		the reader's memo, taken now if @pid has a single pair
 * @pid:	the row's pid (not -1)
 * @entry_ns:	the row's entry time
 * @name:	room for the name
 *
 * Return: @name, or "?" when the pair was lost.
 */
const char *kft_comms_find_memo_slow(const struct kft_comms *c, struct kft_comm_memo *m,
				     s32 pid, u64 entry_ns, char name[KFT_COMM_LEN])
{
	/* Acquire: before the lookup, which then sees every pair counted. */
	long changes = atomic_long_read_acquire(&c->changes);
	unsigned int pairs;
	const char *found = kft_comms_name(c, pid, entry_ns, name, &pairs);

	if (pairs == 1) {
		m->changes = changes;
		m->pid = pid;
		memcpy(m->name, name, KFT_COMM_LEN);
	}
	return found;
}

/* Records whose pair found no slot, on every CPU (a running log's: racy). */
unsigned long kft_comms_lost(const struct kft_comms *c)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(c->cpus, cpu)->lost);
	return sum;
}

unsigned long kft_comms_bytes(const struct kft_comms *c)
{
	return (c->mask + 1UL) * sizeof(*c->slots);
}
