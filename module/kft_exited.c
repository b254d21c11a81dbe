// SPDX-License-Identifier: GPL-2.0
/*
 * The probe that gives back the slots of freed tasks (kft_exited.h).
 */
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>

#include "kft_exited.h"
#include "kft_ftrace.h"
#include "kft_hold.h"
#include "kft_sched.h"

static struct tracepoint *kft_exited_tp;

/* @t will never run again: its slots in the run's tables are free. */
static notrace void kft_exited_free(void *data, struct task_struct *t)
{
	struct kft_exited *ex = data;

	if (ex->hold)
		kft_hold_forget(ex->hold, t);
	if (ex->sched)
		kft_sched_forget(ex->sched, t);
}
NOKPROBE_SYMBOL(kft_exited_free);

/**
 * kft_exited_attach() - the probe, for a run with filter roots or offcpu
 * @ex:		the run's, zeroed
 * @hold:	its holding space (no slots: no roots)
 * @sched:	its offcpu table (no slots: no offcpu)
 *
 * Return: 0 (also when the run has neither), or the tracepoint's error.
 */
int kft_exited_attach(struct kft_exited *ex, struct kft_hold *hold, struct kft_sched *sched)
{
	int ret;

	if (ex->attached)
		return 0;
	ex->hold = hold->slots ? hold : NULL;
	ex->sched = sched->slots ? sched : NULL;
	if (!ex->hold && !ex->sched)
		return 0;
	if (!kft_exited_tp)
		kft_exited_tp = kft_tracepoint("sched_process_free");
	if (!kft_exited_tp)
		return -ENOENT;
	ret = tracepoint_probe_register(kft_exited_tp, kft_exited_free, ex);
	ex->attached = !ret;
	return ret;
}

/* The probe off; when this returns, it runs nowhere. */
void kft_exited_detach(struct kft_exited *ex)
{
	if (!ex->attached)
		return;
	tracepoint_probe_unregister(kft_exited_tp, kft_exited_free, ex);
	tracepoint_synchronize_unregister();
	ex->attached = false;
}
