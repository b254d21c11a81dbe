// SPDX-License-Identifier: GPL-2.0
/*
 * filter roots' holding space and its root functions (kft_hold.h): taken
 * when the run is created, emptied at each prime, let go with the run.
 * The records are taken as the log's are (kft_mem.h): refused when larger
 * than half of the available memory, never by the OOM killer. And the
 * return of a root call, which puts its subtree into the log or drops it.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sort.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "kft_ftrace.h"
#include "kft_hold.h"
#include "kft_hook_path.h"
#include "kft_mem.h"
#include "kft_symbol.h"

/* The open stack of args string: as deep as a slot has records, at most what a call can say. */
static unsigned int kft_hold_open_max(unsigned long entries)
{
	return min_t(unsigned long, entries, U16_MAX);
}

/* Each slot's part of the arrays. */
static void kft_hold_slots_set(struct kft_hold *h)
{
	unsigned long i;

	for (i = 0; i < h->tasks; i++) {
		h->slots[i].recs = &h->records[i * h->entries];
		h->slots[i].sched = h->sched ? &h->sched[i * h->entries] : NULL;
		h->slots[i].args = h->args ? &h->args[i * h->entries] : NULL;
		h->slots[i].strs = h->strs ? &h->strs[i * h->entries] : NULL;
		h->slots[i].open = h->open ? &h->open[i * h->open_max] : NULL;
	}
}

/*
 * What one task's slot takes: @entries records and what is kept beside
 * them, and the open stack of args string. (holdentries is small enough
 * that this cannot overflow.)
 */
static size_t kft_hold_task_bytes(unsigned long entries, struct kft_hold_sides sides)
{
	size_t each = sizeof(struct kft_record) +
		      (sides.sched ? sizeof(struct kft_rec_sched) : 0) +
		      (sides.args ? sizeof(struct kft_rec_args) : 0) +
		      (sides.str ? sizeof(struct kft_rec_str) : 0);
	size_t open = sides.str ? kft_hold_open_max(entries) * sizeof(struct kft_rec_str) : 0;

	return entries * each + open;
}

/**
 * kft_hold_alloc() - the holding space of a run with roots
 * @h:		the run's, zeroed
 * @tasks:	tasks inside root calls at once (holdtasks)
 * @entries:	records each (holdentries, at least 2)
 * @sides:	what it keeps beside them: offcpu's times, the argument
 *		registers, args string's copies (which need the registers)
 *
 * Return: 0, or -ENOMEM.
 */
int kft_hold_alloc(struct kft_hold *h, unsigned long tasks, unsigned long entries,
		   struct kft_hold_sides sides)
{
	unsigned int open_max = sides.str ? kft_hold_open_max(entries) : 0;

	if (!kft_mem_fits(array_size(tasks, kft_hold_task_bytes(entries, sides))))
		return -ENOMEM;
	h->last = alloc_percpu(struct kft_hold_slot *);
	h->slots = kvcalloc(tasks, sizeof(*h->slots), KFT_BIG_GFP);
	h->records = __vmalloc(array3_size(tasks, entries, sizeof(*h->records)), KFT_BIG_GFP);
	if (sides.sched)
		h->sched = __vmalloc(array3_size(tasks, entries, sizeof(*h->sched)), KFT_BIG_GFP);
	if (sides.args)
		h->args = __vmalloc(array3_size(tasks, entries, sizeof(*h->args)), KFT_BIG_GFP);
	if (sides.str) {
		h->strs = __vmalloc(array3_size(tasks, entries, sizeof(*h->strs)), KFT_BIG_GFP);
		h->open = __vmalloc(array3_size(tasks, open_max, sizeof(*h->open)), KFT_BIG_GFP);
	}
	if (!h->last || !h->slots || !h->records || (sides.sched && !h->sched) ||
	    (sides.args && !h->args) || (sides.str && (!h->strs || !h->open))) {
		kft_hold_free(h);
		return -ENOMEM;
	}
	h->sides = sides.sched || sides.args;
	h->tasks = tasks;
	h->entries = entries;
	h->open_max = open_max;
	kft_hold_slots_set(h);
	return 0;
}

/* The bytes of a holding space's slots (holdtasks of them), for the status. */
size_t kft_hold_bytes(const struct kft_hold *h)
{
	struct kft_hold_sides sides = { .sched = h->sched, .args = h->args, .str = h->strs };

	return array_size(h->tasks, kft_hold_task_bytes(h->entries, sides));
}

void kft_hold_free(struct kft_hold *h)
{
	free_percpu(h->last);
	kvfree(h->slots);
	vfree(h->records);
	vfree(h->sched);
	vfree(h->args);
	vfree(h->strs);
	vfree(h->open);
	kfree(h->roots);
	h->last = NULL;
	h->slots = NULL;
	h->records = NULL;
	h->sched = NULL;
	h->args = NULL;
	h->strs = NULL;
	h->open = NULL;
	h->open_max = 0;
	h->sides = false;
	h->roots = NULL;
	h->nr_roots = 0;
}

/*
 * At prime, while nothing records: a task still inside a root call of the
 * last generation no longer writes its slot (its exits see the new
 * generation), so every slot is free.
 */
void kft_hold_reset(struct kft_hold *h)
{
	kft_tasktab_reset(h->slots, h->tasks, &h->owned);
}

/* @t will never run again: as its own kft_hold_release() would have. */
notrace void kft_hold_forget(struct kft_hold *h, struct task_struct *t)
{
	kft_tasktab_forget(h->slots, h->tasks, &h->owned, t);
}

static int kft_root_range_cmp(const void *a, const void *b)
{
	const struct kft_root_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Where the function @f names lies; an error at @f when it names none. */
static int kft_hold_root_range(const struct kft_func_ref *f, struct kft_root_range *r,
			       struct kft_parse_error *err)
{
	unsigned long addr, off, size;
	int ret;

	if (f->is_addr) {
		ret = kft_check_function_start(f, err);
		if (ret)
			return ret;
		addr = f->addr;
	} else {
		addr = kft_lookup_symbol(f->text);
	}
	if (!addr || kft_symbol_bounds(addr, &off, &size) || !size)
		return kft_func_error(err, KFT_ERR_UNKNOWN_FUNCTION, f);
	r->start = addr - off;
	r->end = r->start + size;
	return 0;
}

/* Room for @nr roots' ranges, found at each attach (kft_hold_roots_find()). */
int kft_hold_roots_alloc(struct kft_hold *h, unsigned int nr)
{
	h->roots = kcalloc(nr, sizeof(*h->roots), GFP_KERNEL);
	return h->roots ? 0 : -ENOMEM;
}

/**
 * kft_hold_roots_find() - the root functions, found and sorted
 * @h:		the run's holding space, its hooks not attached
 * @roots:	the roots as written (names, module:names, addresses)
 * @nr:		how many (kft_hold_roots_alloc()'s)
 * @err:	set at a root that names no function
 *
 * A hook sees a call at ftrace's call site, some bytes into the function
 * on some architectures: a root is the whole range of its function. Found
 * again at every attach: a module unloaded and loaded again since the
 * last has its functions elsewhere.
 *
 * Return: 0, or -EINVAL with @err set.
 */
int kft_hold_roots_find(struct kft_hold *h, const struct kft_func_ref *roots, unsigned int nr,
			struct kft_parse_error *err)
{
	unsigned int i;
	int ret;

	for (i = 0; i < nr; i++) {
		ret = kft_hold_root_range(&roots[i], &h->roots[i], err);
		if (ret)
			return ret;
	}
	sort(h->roots, nr, sizeof(*h->roots), kft_root_range_cmp, NULL);
	h->nr_roots = nr;
	h->span_start = h->roots[0].start;
	h->span_end = 0;
	for (i = 0; i < nr; i++)
		h->span_end = max(h->span_end, h->roots[i].end);
	return 0;
}

/**
 * kft_hold_drop_module() - a going module's roots match nothing any more
 * @h:		the run's holding space (kft_mutex held)
 * @mod:	the module, in its GOING notifier
 *
 * A module loaded later may lie where this one's roots were, and a run of
 * every function hooks its functions: none of them is a root. Each range
 * is emptied where it lies (its end moved to its start), so that the
 * ranges stay sorted for the lookups running meanwhile. The next attach
 * finds the roots again by name.
 *
 * Return: how many roots were the module's.
 */
unsigned int kft_hold_drop_module(struct kft_hold *h, const struct module *mod)
{
	unsigned int i, dropped = 0;

	for (i = 0; i < h->nr_roots; i++) {
		struct kft_root_range *r = &h->roots[i];

		if (r->end == r->start || !within_module(r->start, mod))
			continue;
		WRITE_ONCE(r->end, r->start);
		dropped++;
	}
	return dropped;
}

/*
 * Where the run times its calls in cycles: its cycle clock and the ns
 * clock at one moment, *@cycles and *@ns, the narrowest of a few tries,
 * so that an interrupt between the two reads (or an emulator translating
 * the code) does not shift a kept subtree's times.
 */
static __always_inline void kft_hold_clocks(u64 *cycles, u64 *ns)
{
	u64 c0, c1, n, narrowest = U64_MAX;
	int try;

	for (try = 0; try < 3; try++) {
		c0 = kft_cycles();
		n = kft_now();
		c1 = kft_cycles();
		if (c1 - c0 < narrowest) {
			narrowest = c1 - c0;
			*cycles = c0 + narrowest / 2;
			*ns = n;
		}
	}
}

/*
 * A held record as the log has it: the task's pid (@pid), and
 * where the run times its calls in cycles, its entry and duration in ns,
 * @now of the cycle clock being @now_ns. A wakeup's rows have their times
 * from the scheduler's probes, in ns already.
 */
static __always_inline void kft_hold_rec_log(const struct kft_run *run, struct kft_record *rec,
					     s32 pid, u64 now, u64 now_ns)
{
	u32 khz = run->cycles_khz;

	rec->pid = pid;
	if (!khz || kft_rec_is_wake(rec))
		return;
	rec->entry_ns = now_ns - kft_hold_ns(khz, now > rec->entry_ns ? now - rec->entry_ns : 0);
	rec->info = (rec->info & ~KFT_REC_DUR_MASK) |
		    kft_rec_info(kft_hold_ns(khz, rec->info & KFT_REC_DUR_MASK), 0);
}

/* A held record's copy into the log: its function last, as a record is written. */
static __always_inline void kft_hold_rec_copy(struct kft_record *dst,
					      const struct kft_record *src)
{
	dst->entry_ns = src->entry_ns;
	dst->caller_off = src->caller_off;
	dst->pid = src->pid;
	dst->info = src->info;
	dst->retval = src->retval;
	/* Pairs with smp_load_acquire() in kft_log_view_build(). */
	smp_store_release(&dst->func, src->func);
}

/*
 * Whether a held record lies inside its root call, entered at
 * @root_entry for @root_dur (the run's clock). An interrupt that comes
 * while the root's hooks run, its slot owned but the root not yet timed
 * or timed already, holds its first calls there (irq_enter(), before
 * the interrupt counts as one) outside the root's time: they are no part
 * of its subtree. A wakeup's rows, timed by the scheduler's probes, are.
 */
static __always_inline bool kft_hold_in_root(const struct kft_record *rec, u64 root_entry,
					     u64 root_dur)
{
	return kft_rec_is_wake(rec) || rec->entry_ns - root_entry <= root_dur;
}

/*
 * A kept root's subtree into its run's log, in one reservation, oldest
 * first (a cut slot's ring from its oldest: a wakeup's rows stay in
 * order): what does not fit is lost, and the run stops as a full log stops
 * it. @root_entry, @root_dur: when the root was entered and for how long,
 * on the run's clock. In the root's task: its rows have its pid now.
 */
static __always_inline void kft_hold_flush(struct kft_run *run, struct kft_hold_slot *s,
					   u64 root_entry, u64 root_dur)
{
	/*
	 * The count and the ring's start read once: an interrupt's first call
	 * (kft_hold.h) can be held while this copies.
	 */
	unsigned long n = READ_ONCE(s->nr), oldest = READ_ONCE(s->oldest);
	s32 pid = current->pid;
	unsigned long kept = 0, first, fit, i, j, k;
	u64 now = 0, now_ns = 0, entry_ns = root_entry;
	struct kft_record rec;

	if (run->cycles_khz) {
		kft_hold_clocks(&now, &now_ns);
		entry_ns = now_ns - kft_hold_ns(run->cycles_khz,
						now > root_entry ? now - root_entry : 0);
	}
	for (i = 0; i < n; i++)
		kept += kft_hold_in_root(&s->recs[i], root_entry, root_dur);
	first = atomic_long_add_return(kept, &run->log.reserved) - kept;
	fit = first >= run->log.capacity ? 0 : min(kept, run->log.capacity - first);
	for (i = 0, k = 0; i < n && k < fit; i++) {
		j = oldest + i < n ? oldest + i : oldest + i - n;
		if (!kft_hold_in_root(&s->recs[j], root_entry, root_dur))
			continue;
		if (run->log.sched)
			run->log.sched[first + k] = s->sched[j];
		if (run->log.args)
			run->log.args[first + k] = s->args[j];
		if (run->log.strs)
			run->log.strs[first + k] = s->strs[j];
		rec = s->recs[j];
		kft_hold_rec_log(run, &rec, pid, now, now_ns);
		kft_hold_rec_copy(&run->log.records[first + k], &rec);
		k++;
	}
	if (fit < kept)
		kft_run_stop(run, KFT_REASON_LOG_FULL);
	kft_comms_note(&run->log.buf->comms, pid, entry_ns);
	this_cpu_inc(run->counters->roots_kept);
	if (s->cut)
		this_cpu_add(run->counters->hold_cut, s->cut);
}

/* Whether the run's filters keep a root call that took @dur ns and returned @retval. */
static __always_inline bool kft_hold_keeps(struct kft_run *run, const struct kft_call *call,
					   u64 dur, unsigned long retval)
{
	if (kft_time_filtered(kft_call_judged(run, call, dur), run->mintime_ns, run->maxtime_ns)) {
		this_cpu_inc(run->counters->filtered_time);
		return false;
	}
	return !run->cfg.errors || !kft_retval_filtered(run, retval);
}

/**
 * kft_hold_root_return() - the outermost root call of current returned
 * @run:	the run
 * @s:		current's slot
 * @rec:	the root's own record, held last
 * @call:	the root's call
 * @dur:	how long it took, on the run's clock (cycles or ns)
 * @retval:	what it returned
 *
 * Its subtree into the log if the run's filters keep the root, else
 * dropped; the slot free again, whatever the run's state. From the root's
 * exit hook, in its task.
 */
notrace void kft_hold_root_return(struct kft_run *run, struct kft_hold_slot *s,
				  struct kft_record *rec, const struct kft_call *call, u64 dur,
				  unsigned long retval)
{
	/* The slot is read from now on: an interrupt's calls are not held. */
	WRITE_ONCE(s->closing, true);
	barrier();
	/* Acquire: the log and generation belong to this state (kft_run_prime()). */
	if (smp_load_acquire(&run->state) == KFT_RUNNING &&
	    kft_hold_keeps(run, call, kft_hold_ns(run->cycles_khz, dur), retval)) {
		if (s->cut)
			rec->info |= KFT_REC_CUT;
		kft_hold_flush(run, s, call->entry_ns, dur);
	}
	kft_hold_release(&run->hold, s);
	kft_deadline_check(run, 0);
}
NOKPROBE_SYMBOL(kft_hold_root_return);
