/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kft region: memory that the next boot finds again, where a "log ring
 * persistent" run keeps its rings (Documentation/kft.rst, "Across a
 * reboot"), so that the boot after a crash or a reset can show the calls
 * before it (/proc/kft_last_boot). Found, in this order, as the module
 * parameter region=SIZE@ADDR (memory kept from the kernel with memmap=), a
 * reserve_mem=SIZE:ALIGN:kft range (6.11 on), or a device tree's
 * reserved-memory node compatible with "kft,region".
 *
 * Its layout, each part 64-byte aligned:
 *   the header (struct kft_region_header, a page),
 *   each CPU's counts (struct kft_ring_cpu),
 *   each CPU's checksum (u32: of its counts, tags and records),
 *   the ring's tags, then its records (kft_log.h).
 * Only the build that wrote it reads it: the header names the kernel
 * release, its word size and (its magic read) its byte order, and the
 * layout's version.
 */
#ifndef KFT_REGION_H
#define KFT_REGION_H

#include <linux/build_bug.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include "kft_log.h"

#define KFT_REGION_MAGIC	0x315453414c54464bULL	/* "KFTLAST1" */
#define KFT_REGION_VERSION	2
#define KFT_REGION_HEADER_BYTES	4096
#define KFT_REGION_RELEASE_LEN	65			/* __NEW_UTS_LEN + 1 */
#define KFT_REGION_MAX_SHIFT	24

enum kft_region_state {
	KFT_REGION_RUNNING = 1,	/* a run writes; no checksums */
	KFT_REGION_SEALED,	/* frozen at an oops or a panic; checksums set */
};

struct kft_region_header {
	u64 magic;
	u32 version;
	u32 crc;		/* of the header, this field 0 */
	char release[KFT_REGION_RELEASE_LEN];
	u8 state;		/* enum kft_region_state */
	u8 units_ns;
	u8 word_bytes;		/* the writing kernel's sizeof(long) */
	u32 reason;		/* what froze it: enum kft_reason */
	u32 run_id;
	u32 nr_cpus;
	u32 shift;		/* each CPU's 1 << shift slots */
	u32 record_bytes;
	u64 anchor;		/* the writing boot's address of schedule() */
	u64 first_start_ns;	/* the run's first start (rows count from it) */
	u64 bytes;		/* the layout's end */
};
/* The same on every architecture (kft.rst documents its offsets). */
static_assert(sizeof(struct kft_region_header) == 128);

/* Where each part of a region of @nr_cpus CPUs of 1 << @shift slots is. */
struct kft_region_layout {
	u64 cpus;
	u64 crcs;
	u64 tags;
	u64 records;
	u64 end;
};

struct kft_region {
	void *base;		/* NULL: no region */
	phys_addr_t phys;
	size_t size;
	const char *source;	/* how it was found */
	bool held;		/* by a run's log */
	bool taken;		/* by a run of this boot, once: its calls are this boot's */
	/*
	 * The holding run's ring: 1 << shift slots a CPU, nr_cpu_ids CPUs.
	 * What a seal lays out, never the header's copy, which is in memory
	 * that anything may have written over.
	 */
	unsigned int shift;
	/*
	 * The header the holding run's claim wrote, and its seal's state: the
	 * region's is only ever written from it, as a stray write may have
	 * hit the region's at any time (its magic 0: no claim has written it).
	 */
	struct kft_region_header header;
	/*
	 * Which ring the region holds: a new one at each claim and each
	 * emptying (kft_region_renew_begin()). A reader copies a region
	 * ring's calls under copy_lock, and only if the ring is still the
	 * one it took (the same gen): its records then go with the side
	 * arrays and task names of their own run, never of a run before.
	 */
	unsigned long gen;
	struct mutex copy_lock;
};

extern struct kft_region kft_region;

void kft_region_layout(u32 nr_cpus, u32 shift, struct kft_region_layout *l);
u32 kft_region_cpu_crc(const void *base, const struct kft_region_layout *l, u32 shift,
		       u32 cpu);
u32 kft_region_header_crc(const struct kft_region_header *h);
unsigned int kft_region_max_shift(void);
int kft_region_hold(struct kft_ring *ring, struct kft_record **records, unsigned int shift);
void kft_region_claim(u32 run_id, bool units_ns);
void kft_region_let_go(bool *held);
void kft_region_renew_begin(void);
void kft_region_renew_end(bool emptied);
bool kft_region_copy_begin(unsigned long gen);
void kft_region_copy_end(void);
void kft_region_seal(u32 reason, u64 first_start_ns);
bool kft_region_sealed(u32 *reason);
void kft_region_unseal(void);
int kft_region_init(void);
void kft_region_exit(void);

#endif
