// SPDX-License-Identifier: GPL-2.0
/*
 * The kft region (kft_region.h): found and mapped once, at the module's
 * load (before a boot's run), kept mapped until its unload; held by at most
 * one run's log at a time; its header written when a run takes it and when
 * an oops or a panic seals it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/crc32.h>
#include <linux/io.h>
#include <linux/ioport.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/of.h>
#include <linux/of_reserved_mem.h>
#include <linux/string.h>
#include <linux/utsname.h>

#include "kft_compat.h"
#include "kft_region.h"

static char *region;
module_param(region, charp, 0444);
MODULE_PARM_DESC(region,
		 "SIZE@ADDR: memory kept from the kernel (memmap=SIZE$ADDR) for log persistent");

struct kft_region kft_region = {
	.copy_lock = __MUTEX_INITIALIZER(kft_region.copy_lock),
};

static u64 kft_region_align(u64 x)
{
	return ALIGN(x, 64);
}

void kft_region_layout(u32 nr_cpus, u32 shift, struct kft_region_layout *l)
{
	u64 slots = (u64)nr_cpus << shift;

	l->cpus = KFT_REGION_HEADER_BYTES;
	l->crcs = kft_region_align(l->cpus + (u64)nr_cpus * sizeof(struct kft_ring_cpu));
	l->tags = kft_region_align(l->crcs + (u64)nr_cpus * sizeof(u32));
	l->records = kft_region_align(l->tags + slots * sizeof(u32));
	l->end = l->records + slots * sizeof(struct kft_record);
}

/* CPU @cpu's checksum: its counts, its tags and its records. */
u32 kft_region_cpu_crc(const void *base, const struct kft_region_layout *l, u32 shift,
		       u32 cpu)
{
	u64 first = (u64)cpu << shift, slots = 1ULL << shift;
	u32 crc;

	crc = crc32_le(~0U, base + l->cpus + cpu * sizeof(struct kft_ring_cpu),
		       sizeof(struct kft_ring_cpu));
	crc = crc32_le(crc, base + l->tags + first * sizeof(u32), slots * sizeof(u32));
	return ~crc32_le(crc, base + l->records + first * sizeof(struct kft_record),
			 slots * sizeof(struct kft_record));
}

u32 kft_region_header_crc(const struct kft_region_header *h)
{
	struct kft_region_header copy = *h;

	copy.crc = 0;
	return ~crc32_le(~0U, (const void *)&copy, sizeof(copy));
}

/* The most slots a CPU this region holds: a shift, or -1 if too small. */
unsigned int kft_region_max_shift(void)
{
	struct kft_region_layout l;
	int shift;

	for (shift = KFT_REGION_MAX_SHIFT; shift >= 0; shift--) {
		kft_region_layout(nr_cpu_ids, shift, &l);
		if (l.end <= kft_region.size)
			return shift;
	}
	return -1U;
}

/* The region's header from kft's copy, its checksum set; the magic says it is kft's. */
static void kft_region_header_write(void)
{
	struct kft_region_header *copy = &kft_region.header;

	copy->magic = KFT_REGION_MAGIC;
	copy->version = KFT_REGION_VERSION;
	copy->crc = kft_region_header_crc(copy);
	memcpy(kft_region.base, copy, sizeof(*copy));
}

/*
 * One writer of the header at a time: an oops' seal may meet a prime's
 * (another CPU), and two writers of the copy would leave a header whose
 * checksum is of neither. Held only for the copy's few fields and the
 * header's write, with interrupts off; from a dying context, no lock that
 * sleeps: a writer interrupted on its own CPU (an NMI, an oops inside)
 * is not waited for, and another only so long.
 */
static atomic_t kft_region_writer = ATOMIC_INIT(-1);

#define KFT_REGION_WRITER_SPINS	(1U << 20)

static bool kft_region_write_begin(unsigned long *flags)
{
	unsigned int spins;
	int cpu, holder;

	local_irq_save(*flags);
	cpu = raw_smp_processor_id();
	for (spins = 0; spins < KFT_REGION_WRITER_SPINS; spins++) {
		holder = atomic_cmpxchg(&kft_region_writer, -1, cpu);
		if (holder == -1)
			return true;
		if (holder == cpu)
			return false;
		cpu_relax();
	}
	return false;
}

static void kft_region_write_end(bool took, unsigned long flags)
{
	if (took)
		atomic_set_release(&kft_region_writer, -1);
	local_irq_restore(flags);
}

/**
 * kft_region_hold() - the region's memory for a ring of 1 << @shift slots a CPU
 * @ring:	set to the region's tags and counts
 * @records:	set to its records
 * @shift:	the ring's size
 *
 * Reserved for the run being configured, not yet written: the calls the
 * region holds (this boot's last persistent run's, for the next boot)
 * stay until kft_region_claim(), once nothing can fail the configuration
 * any more, so that a write that fails changes nothing of them. The
 * caller holds kft_mutex.
 *
 * Return: 0; -ENODEV without a region, -EBUSY when a run holds it, -ENOSPC
 * when it is too small.
 */
int kft_region_hold(struct kft_ring *ring, struct kft_record **records, unsigned int shift)
{
	struct kft_region_layout l;

	if (!kft_region.base)
		return -ENODEV;
	if (kft_region.held)
		return -EBUSY;
	kft_region_layout(nr_cpu_ids, shift, &l);
	if (shift > KFT_REGION_MAX_SHIFT || l.end > kft_region.size)
		return -ENOSPC;
	ring->tags = kft_region.base + l.tags;
	ring->cpus = kft_region.base + l.cpus;
	ring->shift = shift;
	ring->mask = (1UL << shift) - 1;
	ring->stream = false;
	ring->in_region = true;
	*records = kft_region.base + l.records;
	kft_region.shift = shift;
	kft_region.held = true;
	return 0;
}

/**
 * kft_region_claim() - the held region becomes its run's, its ring emptied
 * @run_id:	the run, for the header
 * @units_ns:	its rows' unit
 *
 * The caller holds kft_mutex; the run records nothing yet (it is not
 * primed). What the region held is gone: the boot read it at the
 * module's load (kft_last_boot.c).
 */
void kft_region_claim(u32 run_id, bool units_ns)
{
	struct kft_region_header *h = kft_region.base, *copy = &kft_region.header;
	unsigned int shift = kft_region.shift;
	struct kft_region_layout l;

	kft_region_layout(nr_cpu_ids, shift, &l);
	kft_region_renew_begin();
	/* Not a run's until the header is whole again. */
	WRITE_ONCE(h->magic, 0);
	memset(kft_region.base + l.cpus, 0, l.records - l.cpus);
	memset(h, 0, sizeof(*h));
	memset(copy, 0, sizeof(*copy));
	strscpy(copy->release, init_utsname()->release, sizeof(copy->release));
	copy->state = KFT_REGION_RUNNING;
	copy->units_ns = units_ns;
	copy->word_bytes = sizeof(long);
	copy->run_id = run_id;
	copy->nr_cpus = nr_cpu_ids;
	copy->shift = shift;
	copy->record_bytes = sizeof(struct kft_record);
	copy->anchor = (unsigned long)schedule;
	copy->bytes = l.end;
	kft_region_header_write();
	kft_region.taken = true;
	kft_region_renew_end(true);
}

/**
 * kft_region_let_go() - the kft region free for another run
 * @held:	the flag of the run that holds it: cleared, and the region
 *		let go, once (nothing when already clear)
 *
 * When the run writes there no more: at its destroy (under kft_mutex),
 * not at its last reference, which a reader of /proc/kft_data that stays
 * open holds (its rows were copied at its open). A new run that takes the
 * region empties it for its ring; a reader that copies after that copies
 * none of the old calls. Else at its free: a run never made live.
 */
void kft_region_let_go(bool *held)
{
	if (!*held)
		return;
	*held = false;
	kft_region.held = false;
}

/**
 * kft_region_renew_begin() - wait for the copies of the ring's calls
 *
 * Before what the region holds is emptied for new calls. The caller holds
 * kft_mutex, under which readers take the ring (and its gen).
 */
void kft_region_renew_begin(void)
{
	mutex_lock(&kft_region.copy_lock);
}

/**
 * kft_region_renew_end() - the ring's calls emptied, or not
 * @emptied:	whether they were: a reader of them then copies none
 */
void kft_region_renew_end(bool emptied)
{
	if (emptied)
		kft_region.gen++;
	mutex_unlock(&kft_region.copy_lock);
}

/**
 * kft_region_copy_begin() - a reader's copy of the calls of ring @gen
 * @gen:	the region's gen when the reader took the ring
 *
 * Return: true, with the copy lock held until kft_region_copy_end(), when
 * the region still holds that ring's calls; false when a prime emptied
 * it or a new run took the region since.
 */
bool kft_region_copy_begin(unsigned long gen)
{
	mutex_lock(&kft_region.copy_lock);
	if (gen == kft_region.gen)
		return true;
	mutex_unlock(&kft_region.copy_lock);
	return false;
}

void kft_region_copy_end(void)
{
	mutex_unlock(&kft_region.copy_lock);
}

/**
 * kft_region_seal() - each CPU's checksum, at an oops or a panic
 * @reason:	what froze the run
 * @first_start_ns: its first start, where its rows' times count from
 *
 * From the dying context: no lock, no allocation. A call still in a hook
 * on another CPU (an oops stops no CPU) may change its record after this:
 * the next boot then finds that CPU's checksum wrong, and says so. The
 * ring is written back from the caches to the RAM last.
 */
void kft_region_seal(u32 reason, u64 first_start_ns)
{
	struct kft_region_header *copy = &kft_region.header;
	unsigned int shift = kft_region.shift;
	struct kft_region_layout l;
	unsigned long flags;
	u32 *crcs, cpu;
	bool took;

	/*
	 * The layout is the holding run's (kft_region.shift), the header
	 * its claim's copy: a fault bad enough to oops may have written over
	 * the region's header, which would then be sealed with a right
	 * checksum, and a layout taken from it would reach past the region.
	 */
	if (!kft_region.base || !kft_region.held || copy->magic != KFT_REGION_MAGIC)
		return;
	kft_region_layout(nr_cpu_ids, shift, &l);
	crcs = kft_region.base + l.crcs;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		crcs[cpu] = kft_region_cpu_crc(kft_region.base, &l, shift, cpu);
	took = kft_region_write_begin(&flags);
	copy->nr_cpus = nr_cpu_ids;
	copy->shift = shift;
	copy->bytes = l.end;
	copy->state = KFT_REGION_SEALED;
	copy->reason = reason;
	copy->first_start_ns = first_start_ns;
	kft_region_header_write();
	kft_region_write_end(took, flags);
	/* The reset that follows may drop what the caches hold. */
	kft_write_back(kft_region.base, kft_region.phys, l.end);
}

/**
 * kft_region_sealed() - whether an oops or a panic sealed the holding run's ring
 * @reason:	set to the reason the seal wrote, when it did
 *
 * Return: true when the region is sealed.
 */
bool kft_region_sealed(u32 *reason)
{
	const struct kft_region_header *copy = &kft_region.header;

	if (!kft_region.base || !kft_region.held || READ_ONCE(copy->state) != KFT_REGION_SEALED)
		return false;
	*reason = READ_ONCE(copy->reason);
	return true;
}

/**
 * kft_region_unseal() - the holding run's ring emptied to run again
 *
 * After a seal the run went on living (an oops that did not panic) and is
 * primed again: its new calls are a running ring's, not the sealed ones,
 * whose checksums they would fail. The caller holds kft_mutex.
 */
void kft_region_unseal(void)
{
	struct kft_region_header *copy = &kft_region.header;
	unsigned long flags;
	bool took;

	if (!kft_region.base || !kft_region.held || copy->state != KFT_REGION_SEALED)
		return;
	took = kft_region_write_begin(&flags);
	copy->state = KFT_REGION_RUNNING;
	copy->reason = 0;
	copy->first_start_ns = 0;
	kft_region_header_write();
	kft_region_write_end(took, flags);
}

/*
 * region=SIZE@ADDR: memory the kernel does not use (memmap=SIZE$ADDR keeps
 * it out of the kernel's RAM): never RAM the kernel has, which a mistyped
 * address would scribble over.
 */
static int kft_region_from_param(phys_addr_t *start, size_t *size)
{
	unsigned long long sz, addr;
	char *p = region;

	sz = memparse(p, &p);
	if (*p != '@')
		goto bad;
	addr = memparse(p + 1, &p);
	if (*p || !sz || addr + sz < addr)
		goto bad;
	/* (A 32-bit kernel without LPAE addresses 4 GiB, and maps less.) */
	if (addr + sz - 1 > (phys_addr_t)~0 || sz > SIZE_MAX) {
		pr_err("region=%s: beyond the physical addresses this kernel can map\n", region);
		return -EINVAL;
	}
	if (region_intersects(addr, sz, IORESOURCE_SYSTEM_RAM, IORES_DESC_NONE) !=
	    REGION_DISJOINT) {
		pr_err("region=%s: that is the kernel's RAM; keep it from the kernel first (memmap=%llu$%#llx)\n",
		       region, sz, addr);
		return -EINVAL;
	}
	*start = addr;
	*size = sz;
	return 0;
bad:
	pr_err("region=%s: expected SIZE@ADDR, as 16M@0x30000000\n", region);
	return -EINVAL;
}

/* A device tree's reserved-memory node compatible with "kft,region". */
static int kft_region_from_dt(phys_addr_t *start, size_t *size)
{
#if IS_ENABLED(CONFIG_OF_RESERVED_MEM)
	struct device_node *np = of_find_compatible_node(NULL, NULL, "kft,region");
	struct reserved_mem *rmem;

	if (!np)
		return -ENOENT;
	rmem = of_reserved_mem_lookup(np);
	of_node_put(np);
	if (!rmem || !rmem->size)
		return -ENOENT;
	*start = rmem->base;
	*size = rmem->size;
	return 0;
#else
	return -ENOENT;
#endif
}

/* The region, if the boot has one; none is no error. */
static int kft_region_find(phys_addr_t *start, size_t *size)
{
	phys_addr_t sz;
	int ret;

	if (region && *region) {
		kft_region.source = "region=";
		return kft_region_from_param(start, size);
	}
	if (!kft_reserve_mem_find("kft", start, &sz)) {
		*size = sz;
		kft_region.source = "reserve_mem";
		return 0;
	}
	ret = kft_region_from_dt(start, size);
	if (!ret)
		kft_region.source = "device tree";
	return ret;
}

int kft_region_init(void)
{
	phys_addr_t start;
	size_t size;
	int ret = kft_region_find(&start, &size);

	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	kft_region.base = memremap(start, size, MEMREMAP_WB);
	if (!kft_region.base) {
		pr_err("the kft region (%s, %zu bytes at %pa) does not map%s\n",
		       kft_region.source, size, &start,
		       region && *region ? "" : ": kft goes on without it");
		/* Only what the user named is worth failing the load for. */
		return region && *region ? -ENOMEM : 0;
	}
	kft_region.phys = start;
	kft_region.size = size;
	return 0;
}

void kft_region_exit(void)
{
	if (kft_region.base)
		memunmap(kft_region.base);
	kft_region.base = NULL;
}
