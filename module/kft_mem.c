// SPDX-License-Identifier: GPL-2.0
/*
 * How much memory kft may take at once (kft_mem.h): a log (up to 512 MiB),
 * a table, a reader's copy is refused when it would take more than half of
 * the memory the kernel reports available, and allocated so that failing
 * is an error for the writer or reader (__GFP_RETRY_MAYFAIL: no OOM
 * killer), charged to its memory cgroup.
 */
#include <linux/kernel.h>
#include <linux/mm.h>

#include "kft_mem.h"

/**
 * kft_mem_fits() - may kft take this much memory now?
 * @bytes:	the size of one allocation
 *
 * Return: true when @bytes is at most half of the available memory.
 */
bool kft_mem_fits(size_t bytes)
{
	long avail_pages = si_mem_available();

	/*
	 * Whole pages, counted without rounding up: SIZE_MAX, which
	 * array_size() gives for a size that overflowed, would wrap to 0.
	 */
	return avail_pages > 0 && bytes / PAGE_SIZE + !!(bytes % PAGE_SIZE) <=
	       (unsigned long)avail_pages / 2;
}
