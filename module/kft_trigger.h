/* SPDX-License-Identifier: GPL-2.0 */
/* Entry triggers (kft_trigger.c): an ftrace_ops or a kprobe on one function. */
#ifndef KFT_TRIGGER_H
#define KFT_TRIGGER_H

#include <linux/ftrace.h>
#include <linux/kprobes.h>

#include "kft_config.h"

struct kft_run;

/* What became of a trigger on functions of a module that was unloaded. */
enum kft_trigger_drop {
	KFT_TRIGGER_KEPT,		/* not hooked on any of them */
	KFT_TRIGGER_NARROWED,		/* a glob's: it keeps the rest of the kernel's */
	KFT_TRIGGER_REMOVED,
};

/* As the status and the kernel log say it. */
static inline const char *kft_trigger_drop_name(enum kft_trigger_drop d)
{
	return d == KFT_TRIGGER_REMOVED ? "yes" : d == KFT_TRIGGER_NARROWED ? "narrowed" : "no";
}

/* An entry trigger: an ftrace_ops or a kprobe on one function (inside its struct kft_run). */
struct kft_entry_trigger {
	struct ftrace_ops ops;
	struct kprobe kp;		/* instead, when as_kprobe */
	struct kft_run *run;
	int why;			/* a stop's enum kft_reason */
	bool is_start;
	bool as_kprobe;			/* a kprobe: kft_entry_trigger_as_kprobe() */
	bool attached;
};

int kft_entry_trigger_attach(struct kft_entry_trigger *t, struct kft_run *run,
			     bool is_start, const struct kft_func_ref *func,
			     struct kft_parse_error *err);
void kft_entry_trigger_detach(struct kft_entry_trigger *t);
enum kft_trigger_drop kft_entry_trigger_drop_module(struct kft_entry_trigger *t,
						    const struct kft_func_ref *func,
						    const unsigned long *addrs, unsigned int nr);
int kft_warn_trigger_attach(struct kft_entry_trigger *t, struct kft_run *run);

#endif
