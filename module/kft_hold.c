// SPDX-License-Identifier: GPL-2.0
/*
 * filter roots' holding space and its root functions (kft_hold.h): taken
 * when the run is created, emptied at each prime, let go with the run.
 * The records are taken as the log's are (kft_mem.h): refused when larger
 * than half of the available memory, never by the OOM killer.
 */
#include <linux/percpu.h>
#include <linux/sort.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "kft_ftrace.h"
#include "kft_hold.h"
#include "kft_mem.h"
#include "kft_symbol.h"

/**
 * kft_hold_alloc() - the holding space of a run with roots
 * @h:		the run's, zeroed
 * @tasks:	tasks inside root calls at once (holdtasks)
 * @entries:	records each (holdentries, at least 2)
 * @sched:	with their offcpu times
 * @args:	with their argument registers
 *
 * Return: 0, or -ENOMEM.
 */
int kft_hold_alloc(struct kft_hold *h, unsigned long tasks, unsigned long entries,
		   bool sched, bool args)
{
	size_t each = sizeof(struct kft_record) + (sched ? sizeof(struct kft_rec_sched) : 0) +
		      (args ? sizeof(struct kft_rec_args) : 0);
	unsigned long i;

	if (!kft_mem_fits(array3_size(tasks, entries, each)))
		return -ENOMEM;
	h->last = alloc_percpu(struct kft_hold_slot *);
	h->slots = kvcalloc(tasks, sizeof(*h->slots), KFT_BIG_GFP);
	h->records = __vmalloc(array3_size(tasks, entries, sizeof(*h->records)), KFT_BIG_GFP);
	if (sched)
		h->sched = __vmalloc(array3_size(tasks, entries, sizeof(*h->sched)), KFT_BIG_GFP);
	if (args)
		h->args = __vmalloc(array3_size(tasks, entries, sizeof(*h->args)), KFT_BIG_GFP);
	if (!h->last || !h->slots || !h->records || (sched && !h->sched) || (args && !h->args)) {
		kft_hold_free(h);
		return -ENOMEM;
	}
	h->tasks = tasks;
	h->entries = entries;
	for (i = 0; i < tasks; i++) {
		h->slots[i].recs = &h->records[i * entries];
		h->slots[i].sched = sched ? &h->sched[i * entries] : NULL;
		h->slots[i].args = args ? &h->args[i * entries] : NULL;
	}
	return 0;
}

void kft_hold_free(struct kft_hold *h)
{
	free_percpu(h->last);
	kvfree(h->slots);
	vfree(h->records);
	vfree(h->sched);
	vfree(h->args);
	kfree(h->roots);
	h->last = NULL;
	h->slots = NULL;
	h->records = NULL;
	h->sched = NULL;
	h->args = NULL;
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
	unsigned int i;

	if (!h->slots)
		return;
	for (i = 0; i < h->tasks; i++)
		h->slots[i].owner = NULL;
	atomic_set(&h->owned, 0);
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

/**
 * kft_hold_roots() - the root functions, found and sorted
 * @h:		the run's holding space
 * @roots:	the roots as written (names, module:names, addresses)
 * @nr:		how many
 * @err:	set at a root that names no function
 *
 * A hook sees a call at ftrace's call site, some bytes into the function
 * on some architectures: a root is the whole range of its function.
 *
 * Return: 0, -EINVAL with @err set, or -ENOMEM.
 */
int kft_hold_roots(struct kft_hold *h, const struct kft_func_ref *roots, unsigned int nr,
		   struct kft_parse_error *err)
{
	unsigned int i;
	int ret;

	h->roots = kcalloc(nr, sizeof(*h->roots), GFP_KERNEL);
	if (!h->roots)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		ret = kft_hold_root_range(&roots[i], &h->roots[i], err);
		if (ret)
			return ret;
	}
	sort(h->roots, nr, sizeof(*h->roots), kft_root_range_cmp, NULL);
	h->nr_roots = nr;
	h->span_start = h->roots[0].start;
	for (i = 0; i < nr; i++)
		h->span_end = max(h->span_end, h->roots[i].end);
	return 0;
}
