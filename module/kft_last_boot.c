// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/kft_last_boot: what the kft region (kft_region.h) held when the
 * module loaded, checked: the calls a persistent ring kept before the boot
 * ended (a crash, a hang and its reset, a reboot), each CPU's, in the log's
 * format (Documentation/kft.rst, "Across a reboot").
 *
 * Nothing of the region is trusted: a copy is taken at the load, before a
 * boot's run can take the region, and only from a header that is kft's
 * (magic, checksum, layout version), of this kernel release, with a layout
 * that fits the region. A sealed ring's CPUs (an oops or a panic froze it)
 * are checked by their checksums, and every call by its tag: the
 * reservation it was written for, and whole. Writing "forget" drops the
 * copy and empties the region.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/kref.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pgtable.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/swab.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>

#include "kft_arch.h"
#include "kft_comm.h"
#include "kft_current.h"
#include "kft_data.h"
#include "kft_last_boot.h"
#include "kft_log_ring.h"
#include "kft_mem.h"
#include "kft_mode.h"
#include "kft_output.h"
#include "kft_region.h"
#include "kft_run.h"

enum kft_lb_check {
	KFT_LB_UNSEALED,	/* no checksum: each call checked alone */
	KFT_LB_RIGHT,
	KFT_LB_WRONG,		/* none of its calls kept */
};

enum kft_lb_addrs {
	KFT_LB_ADDRS_SAME,	/* the kernel is where it was */
	KFT_LB_ADDRS_MOVED,	/* the kernel's moved onto this boot's */
	KFT_LB_ADDRS_RAW,	/* as they were: not known which are the kernel's */
};

/* The copy taken at the load; readers hold a reference. */
struct kft_last_boot {
	struct kref ref;
	char verdict[192];		/* why no calls, or "" */
	struct kft_region_header h;
	u8 *check;			/* each CPU's enum kft_lb_check */
	unsigned long *calls;		/* each CPU's calls kept */
	struct kft_record *recs;	/* CPU after CPU, oldest first */
	unsigned long nr;
	struct kft_run_times times;
	enum kft_lb_addrs addrs;
	long delta;
	struct kft_comms comms;		/* none: the dead boot's names are gone */
};

static DEFINE_MUTEX(kft_lb_lock);
static struct kft_last_boot *kft_lb;	/* under kft_lb_lock */

static void kft_lb_release(struct kref *ref)
{
	struct kft_last_boot *lb = container_of(ref, struct kft_last_boot, ref);

	kvfree(lb->recs);
	kfree(lb->check);
	kfree(lb->calls);
	kft_comms_free(&lb->comms);
	kfree(lb);
}

static bool kft_lb_all_zero(const void *p, size_t n)
{
	return !memchr_inv(p, 0, n);
}

/* The header, if it is kft's, whole and this kernel's; else why not. */
static bool kft_lb_check_header(struct kft_last_boot *lb, const void *base, size_t size)
{
	struct kft_region_header *h = &lb->h;
	struct kft_region_layout l;

	if (size < sizeof(*h)) {
		snprintf(lb->verdict, sizeof(lb->verdict),
			 "the region is %zu bytes: too small for kft's header", size);
		return false;
	}
	memcpy(h, base, sizeof(*h));
	h->release[sizeof(h->release) - 1] = '\0';
	if (h->magic == swab64(KFT_REGION_MAGIC)) {
		strscpy(lb->verdict, "written by a kernel of the other byte order: not read",
			sizeof(lb->verdict));
		return false;
	}
	if (h->magic != KFT_REGION_MAGIC) {
		strscpy(lb->verdict, kft_lb_all_zero(base, min_t(size_t, size, KFT_REGION_HEADER_BYTES)) ?
			"empty: no persistent run wrote it" :
			"it holds no kft data (not written by kft, or written over)",
			sizeof(lb->verdict));
		return false;
	}
	if (kft_region_header_crc(h) != h->crc) {
		strscpy(lb->verdict, "its header is damaged (checksum wrong): nothing in it is trusted",
			sizeof(lb->verdict));
		return false;
	}
	if (h->version != KFT_REGION_VERSION || h->record_bytes != sizeof(struct kft_record)) {
		snprintf(lb->verdict, sizeof(lb->verdict),
			 "written by a kft of another layout (version %u, %u-byte calls; this one reads %u, %zu-byte): not read",
			 h->version, h->record_bytes, KFT_REGION_VERSION, sizeof(struct kft_record));
		return false;
	}
	/* (Another architecture of one release: an armhf and an arm64 kernel.) */
	if (h->word_bytes != sizeof(long)) {
		snprintf(lb->verdict, sizeof(lb->verdict),
			 "written by a %u-bit kernel, not this %zu-bit one: not read",
			 h->word_bytes * 8U, sizeof(long) * 8);
		return false;
	}
	if (strcmp(h->release, init_utsname()->release)) {
		/* (Escaped: a line break in it would forge lines of the file.) */
		snprintf(lb->verdict, sizeof(lb->verdict),
			 "written by kernel %*pE, not this one: not read",
			 (int)strlen(h->release), h->release);
		return false;
	}
	kft_region_layout(h->nr_cpus, min_t(u32, h->shift, KFT_REGION_MAX_SHIFT), &l);
	if (!h->nr_cpus || h->nr_cpus > KFT_MAX_CPU + 1 || h->shift > KFT_REGION_MAX_SHIFT ||
	    l.end > size || h->bytes != l.end) {
		strscpy(lb->verdict, "its layout does not fit the region: damaged, not read",
			sizeof(lb->verdict));
		return false;
	}
	return true;
}

/* CPU @cpu's counts in the region. */
static const struct kft_ring_cpu *kft_lb_cpu(const void *base, const struct kft_region_layout *l,
					     u32 cpu)
{
	return base + l->cpus + cpu * sizeof(struct kft_ring_cpu);
}

/*
 * CPU @cpu's calls, oldest first: each slot of its last reservations that
 * holds the one it should (its tag), whole (not being written) and a
 * function's; no more than the copy has room for.
 */
static void kft_lb_take_cpu(struct kft_last_boot *lb, const void *base,
			    const struct kft_region_layout *l, u32 cpu, unsigned long room)
{
	const u32 *tags = base + l->tags;
	const struct kft_record *recs = base + l->records;
	unsigned long head = local_read(&kft_lb_cpu(base, l, cpu)->head);
	unsigned long slots = 1UL << lb->h.shift, n, slot;
	u32 t;

	for (n = head - kft_ring_held(tags, lb->h.shift, cpu, head); n != head && lb->nr < room;
	     n++) {
		slot = ((unsigned long)cpu << lb->h.shift) | (n & (slots - 1));
		t = READ_ONCE(tags[slot]);
		if ((t & ~KFT_RING_CLOSING) != kft_ring_tag(n) || !recs[slot].func)
			continue;
		lb->recs[lb->nr++] = recs[slot];
		lb->calls[cpu]++;
	}
}

/*
 * Each CPU's check (a sealed ring's checksum), and the most calls the CPUs
 * that pass it can hold: what their counts say, never more than their
 * rings' slots. A ring that kept a few calls is copied in a few records,
 * not in its size.
 */
static unsigned long kft_lb_check_cpus(struct kft_last_boot *lb, const void *base,
				       const struct kft_region_layout *l)
{
	const u32 *crcs = base + l->crcs, *tags = base + l->tags;
	unsigned long most = 0;
	u32 cpu;

	for (cpu = 0; cpu < lb->h.nr_cpus; cpu++) {
		if (lb->h.state == KFT_REGION_SEALED)
			lb->check[cpu] = kft_region_cpu_crc(base, l, lb->h.shift, cpu) == crcs[cpu] ?
					 KFT_LB_RIGHT : KFT_LB_WRONG;
		if (lb->check[cpu] != KFT_LB_WRONG)
			most += kft_ring_held(tags, lb->h.shift, cpu,
					      local_read(&kft_lb_cpu(base, l, cpu)->head));
		cond_resched();
	}
	return most;
}

/* Each CPU's check, then its calls. */
static int kft_lb_take_calls(struct kft_last_boot *lb, const void *base)
{
	struct kft_region_layout l;
	unsigned long room;
	u32 cpu;

	kft_region_layout(lb->h.nr_cpus, lb->h.shift, &l);
	lb->check = kcalloc(lb->h.nr_cpus, sizeof(*lb->check), GFP_KERNEL);
	lb->calls = kcalloc(lb->h.nr_cpus, sizeof(*lb->calls), GFP_KERNEL);
	if (!lb->check || !lb->calls)
		return -ENOMEM;
	room = max(kft_lb_check_cpus(lb, base, &l), 1UL);
	if (!kft_mem_fits(array_size(room, sizeof(*lb->recs))))
		return -ENOMEM;
	lb->recs = kvmalloc_array(room, sizeof(*lb->recs), KFT_BIG_GFP);
	if (!lb->recs)
		return -ENOMEM;
	for (cpu = 0; cpu < lb->h.nr_cpus; cpu++) {
		if (lb->check[cpu] != KFT_LB_WRONG)
			kft_lb_take_cpu(lb, base, &l, cpu, room);
		cond_resched();
	}
	return 0;
}

/*
 * A record's function and caller, each by @delta where it lies in the
 * kernel's image: a module's were wherever that boot loaded it, and a
 * call crosses between the two (a driver's callback called by the
 * kernel, the kernel called by a module). The caller is kept as an
 * offset from the function: taken apart, moved, and put back.
 */
static void kft_lb_move(struct kft_record *rec, unsigned long delta)
{
	unsigned long func = rec->func, caller = func + rec->caller_off;
	bool known = rec->caller_off != KFT_REC_CALLER_UNKNOWN;

	if (kft_arch_in_image(func))
		func += delta;
	if (known && kft_arch_in_image(caller))
		caller += delta;
	rec->func = func;
	if (known)
		rec->caller_off = kft_rec_caller_off(caller, func);
}

/*
 * Where the rows' times count from (the run's first start, which a seal
 * keeps; else the earliest call), and how the dead boot's addresses become
 * this boot's: the same kernel, moved by KASLR as a whole.
 */
static void kft_lb_settle(struct kft_last_boot *lb)
{
	unsigned long i;
	u64 first = U64_MAX;

	for (i = 0; i < lb->nr; i++)
		first = min(first, lb->recs[i].entry_ns);
	lb->times.first_start_ns = lb->h.state == KFT_REGION_SEALED && lb->h.first_start_ns ?
				   lb->h.first_start_ns : (lb->nr ? first : 0);
	lb->times.units_ns = lb->h.units_ns;
	lb->delta = (unsigned long)schedule - (unsigned long)lb->h.anchor;
	lb->addrs = !lb->delta ? KFT_LB_ADDRS_SAME :
		    KFT_ARCH_IMAGE_KNOWN ? KFT_LB_ADDRS_MOVED : KFT_LB_ADDRS_RAW;
	if (lb->addrs != KFT_LB_ADDRS_MOVED)
		return;
	for (i = 0; i < lb->nr; i++)
		kft_lb_move(&lb->recs[i], lb->delta);
}

/* Why a copy taken after the load has no calls: a run of this boot. */
static const char kft_lb_held[] = "forgotten: a run of this boot holds the region now";
static const char kft_lb_taken[] =
	"not copied at the load (no memory), and a run of this boot has written over them since";

/*
 * A copy of what the region holds now, checked; NULL without memory. Not
 * of a region a run of this boot has written (@gone: why not, under
 * kft_mutex): that is no last boot's.
 */
static struct kft_last_boot *kft_lb_take(const char *gone)
{
	struct kft_last_boot *lb = kzalloc(sizeof(*lb), GFP_KERNEL);

	if (!lb)
		return NULL;
	kref_init(&lb->ref);
	if (kft_comms_alloc(&lb->comms, 1))
		goto err;
	if (!kft_region.base)
		return lb;
	if (gone) {
		strscpy(lb->verdict, gone, sizeof(lb->verdict));
		return lb;
	}
	if (kft_lb_check_header(lb, kft_region.base, kft_region.size)) {
		if (kft_lb_take_calls(lb, kft_region.base))
			goto err;
		kft_lb_settle(lb);
	}
	return lb;
err:
	kref_put(&lb->ref, kft_lb_release);
	return NULL;
}

static const char *const kft_lb_reason[] = {
	[KFT_REASON_OOPS] = "an oops",
	[KFT_REASON_PANIC] = "a panic",
};

/*
 * @show_addrs: false for a reader who could not see /proc/kallsyms'
 * addresses; the distance KASLR moved the kernel by tells where this
 * boot's kernel lies from a dead boot's address.
 */
static void kft_lb_show_cpus(struct seq_file *m, const struct kft_last_boot *lb, bool show_addrs)
{
	static const char *const check[] = {
		[KFT_LB_UNSEALED] = "no checksum: each call checked alone",
		[KFT_LB_RIGHT] = "checksum right",
		[KFT_LB_WRONG] = "checksum wrong: its calls are not shown",
	};
	u32 cpu;

	for (cpu = 0; cpu < lb->h.nr_cpus; cpu++)
		seq_printf(m, "CPU %u: %lu calls, %s\n", cpu, lb->calls[cpu], check[lb->check[cpu]]);
	if (lb->addrs == KFT_LB_ADDRS_MOVED && show_addrs)
		seq_printf(m, "Addresses: the kernel's moved by %ld onto this boot's (KASLR); a module's are the dead boot's\n",
			   lb->delta);
	else if (lb->addrs == KFT_LB_ADDRS_MOVED)
		seq_puts(m, "Addresses: the kernel's moved onto this boot's (KASLR); a module's are the dead boot's\n");
	else if (lb->addrs == KFT_LB_ADDRS_RAW)
		seq_puts(m, "Addresses: the dead boot's (its kernel was elsewhere: KASLR), not this boot's\n");
}

/*
 * The lines before the rows: the region, its state, then a log's header.
 * The region's physical address as its other addresses (@show_addrs).
 */
static void kft_lb_show_header(struct seq_file *m, const struct kft_last_boot *lb,
			       bool show_addrs)
{
	const struct kft_region_header *h = &lb->h;
	phys_addr_t hidden = 0;

	if (!kft_region.base) {
		seq_puts(m, "kft region: none in this boot (Documentation/kft.rst, \"Across a reboot\")\n");
		return;
	}
	seq_printf(m, "kft region: %s, %zu bytes at %pa%s\n", kft_region.source, kft_region.size,
		   show_addrs ? &kft_region.phys : &hidden, kft_region.held ? ", a run's now" : "");
	if (lb->verdict[0]) {
		seq_printf(m, "Last boot: no calls: %s\n", lb->verdict);
		return;
	}
	seq_printf(m, "Last boot: run %u of kernel %s, ", h->run_id, h->release);
	if (h->state == KFT_REGION_SEALED && h->reason < ARRAY_SIZE(kft_lb_reason) &&
	    kft_lb_reason[h->reason])
		seq_printf(m, "frozen by %s\n", kft_lb_reason[h->reason]);
	else if (h->state == KFT_REGION_SEALED)
		seq_puts(m, "sealed at an oops or a panic, stopped before it\n");
	else
		seq_puts(m, "not frozen: the boot ended otherwise (a reset, a hang, a reboot)\n");
	seq_printf(m, "Log persistent = %lu entries a CPU, %u CPUs\n", 1UL << h->shift, h->nr_cpus);
	kft_lb_show_cpus(m, lb, show_addrs);
	seq_printf(m, "\nKernel Instrumentation Run ID %u\nKernel: %s\n", h->run_id, h->release);
	seq_printf(m, "\nNumber of entries after filters = %lu\n\n", lb->nr);
	if (lb->times.units_ns)
		seq_puts(m, "Units: ns\n\n");
	kft_trace_show_columns(m);
}

struct kft_lb_reader {
	struct kft_last_boot *lb;
	bool show_addrs;
};

static void *kft_lb_start(struct seq_file *m, loff_t *pos)
{
	struct kft_lb_reader *r = m->private;

	return *pos <= (loff_t)r->lb->nr ? pos : NULL;
}

static void *kft_lb_next(struct seq_file *m, void *v, loff_t *pos)
{
	return kft_data_next_row(pos) ?: kft_lb_start(m, pos);
}

static void kft_lb_stop(struct seq_file *m, void *v)
{
}

static int kft_lb_show(struct seq_file *m, void *v)
{
	struct kft_lb_reader *r = m->private;
	loff_t i = *(loff_t *)v;

	if (!i)
		kft_lb_show_header(m, r->lb, r->show_addrs);
	else
		kft_trace_show_row(m, &r->lb->times, &r->lb->comms, &r->lb->recs[i - 1],
				   r->show_addrs);
	return 0;
}

static const struct seq_operations kft_lb_seq_ops = {
	.start	= kft_lb_start,
	.next	= kft_lb_next,
	.stop	= kft_lb_stop,
	.show	= kft_lb_show,
};

static int kft_lb_open(struct inode *inode, struct file *file)
{
	struct kft_lb_reader *r;

	if (security_locked_down(LOCKDOWN_TRACEFS))
		return -EPERM;
	/*
	 * A writer ("forget") gets no seq_file, which seq_lseek() would
	 * take from file->private_data: its offset means nothing.
	 */
	if (!(file->f_mode & FMODE_READ))
		return nonseekable_open(inode, file);
	r = __seq_open_private(file, &kft_lb_seq_ops, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->show_addrs = kft_output_may_show_addrs(file);
	if (mutex_lock_killable(&kft_lb_lock)) {
		seq_release_private(inode, file);
		return -EINTR;
	}
	/*
	 * (No copy: the load's could not be had. What the region holds is
	 * still the last boot's until a run of this boot takes it. The lock
	 * order: this, then kft_mutex.)
	 */
	if (!kft_lb) {
		/* (Killable: a run's detach may hold kft_mutex for long.) */
		if (mutex_lock_killable(&kft_mutex)) {
			mutex_unlock(&kft_lb_lock);
			seq_release_private(inode, file);
			return -EINTR;
		}
		kft_lb = kft_lb_take(kft_region.held ? kft_lb_held :
				     kft_region.taken ? kft_lb_taken : NULL);
		mutex_unlock(&kft_mutex);
	}
	if (kft_lb)
		kref_get(&kft_lb->ref);
	r->lb = kft_lb;
	mutex_unlock(&kft_lb_lock);
	if (!r->lb) {
		seq_release_private(inode, file);
		return -ENOMEM;
	}
	return 0;
}

static int kft_lb_release_file(struct inode *inode, struct file *file)
{
	struct kft_lb_reader *r;

	if (!(file->f_mode & FMODE_READ))
		return 0;
	r = ((struct seq_file *)file->private_data)->private;
	kref_put(&r->lb->ref, kft_lb_release);
	return seq_release_private(inode, file);
}

/*
 * "forget": the copy is dropped and the region emptied (not while a run
 * holds it: that run emptied it when it took it, and the new copy says
 * so).
 */
static ssize_t kft_lb_write(struct file *file, const char __user *ubuf, size_t len,
			    loff_t *ppos)
{
	char word[16] = "";
	struct kft_last_boot *old;

	/*
	 * forget erases what the last boot left, as a write of /proc/kft
	 * changes a run: it needs CAP_SYS_ADMIN of the task that opened the
	 * file (a uid 0 without it, or a task handed the file, may not).
	 */
	if (!file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	if (len >= sizeof(word) || copy_from_user(word, ubuf, len))
		return -EINVAL;
	strim(word);
	if (strcmp(word, "forget"))
		return -EINVAL;
	if (mutex_lock_killable(&kft_lb_lock))
		return -EINTR;
	if (kft_lock_settled()) {
		mutex_unlock(&kft_lb_lock);
		return -EINTR;
	}
	if (kft_region.base && !kft_region.held)
		memset(kft_region.base, 0, min_t(size_t, kft_region.size, KFT_REGION_HEADER_BYTES));
	old = kft_lb;
	kft_lb = kft_lb_take(kft_region.held ? kft_lb_held : NULL);
	mutex_unlock(&kft_mutex);
	mutex_unlock(&kft_lb_lock);
	if (old)
		kref_put(&old->ref, kft_lb_release);
	return len;
}

const struct proc_ops kft_last_boot_ops = {
	.proc_open	= kft_lb_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_write	= kft_lb_write,
	.proc_release	= kft_lb_release_file,
};

/* The copy, at the load: before the boot's run may take the region. */
void kft_last_boot_init(void)
{
	mutex_lock(&kft_lb_lock);
	kft_lb = kft_lb_take(NULL);
	mutex_unlock(&kft_lb_lock);
	if (!kft_lb)
		pr_warn("no memory to copy what the kft region holds: /proc/kft_last_boot tries again until a run takes the region\n");
}

void kft_last_boot_exit(void)
{
	if (kft_lb)
		kref_put(&kft_lb->ref, kft_lb_release);
	kft_lb = NULL;
}
