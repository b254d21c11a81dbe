/* SPDX-License-Identifier: GPL-2.0 */
/* kft's clock, for every layer. */
#ifndef KFT_CLOCK_H
#define KFT_CLOCK_H

#include <linux/irqflags.h>
#include <linux/timekeeping.h>
#include <linux/trace_clock.h>

/*
 * kft's clock, ns: the one ftrace's "local" clock uses. Not local_clock(),
 * which is itself traceable on some kernels: calling it from a hook would
 * re-enter ftrace on every record.
 */
static inline u64 kft_now(void)
{
	return trace_clock_local();
}

/*
 * CLOCK_MONOTONIC - kft_now(), ns: what turns kft's times into the time
 * triggers' clock and /proc/uptime's. Process context only. An interrupt
 * or a stalled (emulated) CPU between the two clocks' reads puts the
 * offset off by its length: 9 ms once on the debug kernel, seen as a
 * "Logging started at" 9 ms before the start timer fired. So each try
 * reads kft_now() on both sides of ktime_get_ns() with interrupts off,
 * and the narrowest of a few tries wins.
 */
static inline s64 kft_clock_mono_offset(void)
{
	u64 narrowest = U64_MAX;
	s64 offset = 0;
	int try;

	for (try = 0; try < 4; try++) {
		unsigned long flags;
		u64 before, mono, after;

		local_irq_save(flags);
		before = kft_now();
		mono = ktime_get_ns();
		after = kft_now();
		local_irq_restore(flags);
		if (after - before < narrowest) {
			narrowest = after - before;
			offset = (s64)(mono - (before + narrowest / 2));
		}
	}
	return offset;
}

#endif
