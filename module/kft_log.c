// SPDX-License-Identifier: GPL-2.0
/*
 * The trace log's memory and its sorted view for readers. Writers (the hooks
 * in kft_hooks.c) reserve a slot with one atomic increment and fill it; the
 * function address is stored last, with release order, so a reader that
 * sees it sees the whole record.
 *
 * Records are reserved at exit (or at entry when no time filter is set), so
 * the array is not in entry order: a reader sorts indexes by entry time.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/vmalloc.h>

#include "kft_log.h"

int kft_log_alloc(struct kft_log *log, unsigned long capacity)
{
	log->records = vzalloc(array_size(capacity, sizeof(*log->records)));
	if (!log->records)
		return -ENOMEM;
	log->capacity = capacity;
	atomic_long_set(&log->reserved, 0);
	return 0;
}

void kft_log_free(struct kft_log *log)
{
	vfree(log->records);
	log->records = NULL;
	log->capacity = 0;
}

/* Empties the log; only while no hook can write (the run is not running). */
void kft_log_reset(struct kft_log *log)
{
	unsigned long used = min_t(unsigned long, kft_log_stored(log), log->capacity);

	memset(log->records, 0, used * sizeof(*log->records));
	atomic_long_set(&log->reserved, 0);
}

unsigned long kft_log_stored(const struct kft_log *log)
{
	return min_t(unsigned long, atomic_long_read(&log->reserved), log->capacity);
}

unsigned long kft_log_lost(const struct kft_log *log)
{
	long reserved = atomic_long_read(&log->reserved);

	return reserved > log->capacity ? reserved - log->capacity : 0;
}

static int kft_log_cmp_entry(const void *a, const void *b, const void *priv)
{
	const struct kft_record *recs = priv;
	const struct kft_record *ra = &recs[*(const u32 *)a];
	const struct kft_record *rb = &recs[*(const u32 *)b];

	if (ra->entry_ns != rb->entry_ns)
		return ra->entry_ns < rb->entry_ns ? -1 : 1;
	/* Same time: keep reservation order, which is call order on one CPU. */
	return *(const u32 *)a < *(const u32 *)b ? -1 : 1;
}

/**
 * kft_log_view_build() - the complete records, in entry-time order
 * @log:	the log, possibly still being written
 * @view:	filled; free with kft_log_view_free()
 *
 * A record still being written (no function address yet) is left out.
 */
int kft_log_view_build(const struct kft_log *log, struct kft_log_view *view)
{
	unsigned long stored = kft_log_stored(log), i;

	view->nr = 0;
	view->order = kvmalloc_array(max(stored, 1UL), sizeof(u32), GFP_KERNEL);
	if (!view->order)
		return -ENOMEM;
	for (i = 0; i < stored; i++) {
		/* Pairs with smp_store_release() in kft_record_fill(). */
		if (smp_load_acquire(&log->records[i].func))
			view->order[view->nr++] = i;
	}
	sort_r(view->order, view->nr, sizeof(u32), kft_log_cmp_entry, NULL,
	       log->records);
	return 0;
}

void kft_log_view_free(struct kft_log_view *view)
{
	kvfree(view->order);
	view->order = NULL;
	view->nr = 0;
}
