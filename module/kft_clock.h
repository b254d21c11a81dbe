/* SPDX-License-Identifier: GPL-2.0 */
/* kft's clock, for every layer. */
#ifndef KFT_CLOCK_H
#define KFT_CLOCK_H

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

#endif
