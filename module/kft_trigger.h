/* SPDX-License-Identifier: GPL-2.0 */
/* Entry triggers (kft_trigger.c): an ftrace_ops or a kprobe on one function. */
#ifndef KFT_TRIGGER_H
#define KFT_TRIGGER_H

#include <linux/ftrace.h>
#include <linux/kprobes.h>

#include "kft_config.h"

struct kft_run;

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
int kft_warn_trigger_attach(struct kft_entry_trigger *t, struct kft_run *run);

#endif
