/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The task filters of every mode: filter pid (the process, tgid), tid (the
 * thread), cpu and comm (the task's name). They look at current whatever
 * the context: a call in an interrupt counts for the task it interrupted
 * (filter noints drops those).
 */
#ifndef KFT_TASK_H
#define KFT_TASK_H

#include <linux/compiler.h>
#include <linux/sched.h>
#include <linux/smp.h>

#include "kft_config.h"

/* Whether a configuration filters by task at all. */
static inline bool kft_task_filtered(const struct kft_config *cfg)
{
	return cfg->filter_pid || cfg->filter_tid || cfg->filter_cpu >= 0 ||
	       cfg->filter_comm[0];
}

/*
 * The comm another task may be renaming (a write to /proc/PID/comm) is read
 * as perf reads it: racily, a byte at a time, never past KFT_COMM_LEN.
 */
static __always_inline bool kft_task_comm_is(const char *want)
{
	const char *comm = current->comm;
	int i;

	for (i = 0; i < KFT_COMM_LEN; i++) {
		/* A rename may be under way: a torn name only fails to match. */
		char c = data_race(comm[i]);

		if (c != want[i])
			return false;
		if (!c)
			return true;
	}
	return true;
}

/* Whether current passes the configuration's task filters. */
static __always_inline bool kft_task_wanted(const struct kft_config *cfg)
{
	if (cfg->filter_pid && current->tgid != cfg->filter_pid)
		return false;
	if (cfg->filter_tid && current->pid != cfg->filter_tid)
		return false;
	if (cfg->filter_cpu >= 0 && raw_smp_processor_id() != cfg->filter_cpu)
		return false;
	return !cfg->filter_comm[0] || kft_task_comm_is(cfg->filter_comm);
}

#endif
