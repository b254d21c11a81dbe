/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kft's large allocations (the log, the tables, the readers' copies): how
 * much may be taken (kft_mem.c) and how.
 */
#ifndef KFT_MEM_H
#define KFT_MEM_H

#include <linux/gfp.h>
#include <linux/types.h>

/* Large buffers: charged to the memcg, may fail, never call the OOM killer. */
#define KFT_BIG_GFP	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

bool kft_mem_fits(size_t bytes);

#endif
