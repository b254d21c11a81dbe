/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two run modes that count stacks: mode stacks (an ftrace_ops on the
 * traced functions: the stack at each entry) and mode profile (a per-CPU
 * hrtimer: the stack each tick interrupts).
 */
#ifndef KFT_STACKS_H
#define KFT_STACKS_H

#include <linux/ftrace.h>
#include <linux/hrtimer.h>

#include "kft_config.h"

struct kft_run;
struct module;

/* The entry hook of a stacks-mode run (inside its struct kft_run). */
struct kft_stacker {
	struct ftrace_ops ops;
	bool attached;
};

struct kft_profile_cpu {
	struct hrtimer timer;
	struct kft_run *run;
};

/*
 * The timers of a profile-mode run: one pinned to each online CPU (or to
 * the CPU of filter cpu), following CPUs as they go and come (an instance
 * of kft's CPU hotplug state).
 */
struct kft_profiler {
	struct kft_profile_cpu __percpu *cpus;
	struct hlist_node cpuhp;	/* in the hotplug state's instances */
	u64 period_ns;
	bool attached;
};

int kft_stacker_attach(struct kft_stacker *st, struct kft_run *run,
		       const struct kft_func_ref *funcs, unsigned int nr_funcs,
		       struct kft_parse_error *err);
void kft_stacker_detach(struct kft_stacker *st);
unsigned int kft_stacker_drop_module(struct kft_stacker *st,
				     const unsigned long *addrs, unsigned int nr);
int kft_profiler_attach(struct kft_profiler *p, struct kft_run *run,
			struct kft_parse_error *err);
void kft_profiler_detach(struct kft_profiler *p);
void kft_profiler_cleanup(void);

#endif
