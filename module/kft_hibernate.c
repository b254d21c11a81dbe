// SPDX-License-Identifier: GPL-2.0
/*
 * Hibernation, for kft's hooks. The task that hibernates calls
 * swsusp_save() (from swsusp_arch_suspend()), which copies memory into
 * the image. In the kernel resumed from that image, control comes back at
 * swsusp_arch_suspend()'s return: the calls the task was inside when the
 * copy was made never return. A return hooked among them leaves a frame
 * that nothing pops: the fast hooks' next exit of that task finds the
 * wrong frame on top and panics; kretprobes and rethook run the orphan's
 * exit as if it had returned there, a call logged that never ended.
 *
 * function_graph, which has the same problem, pauses itself for the task
 * from PM_HIBERNATION_PREPARE to PM_POST_HIBERNATION, but only while it
 * is registered. kft pauses the task the same way, whoever else traces:
 * its hooks hook no call of a paused task (kft_graph_paused()). The two
 * notifications come from one task, under the PM core's lock, except with
 * the snapshot device (/dev/snapshot): opened by one task and closed
 * later, perhaps after kft was unloaded or before it was loaded. So kft
 * undoes only a pause of its own, on the task it paused, and undoes it
 * too when it is unloaded first.
 *
 * A task forked in between (by the snapshot device's user) copies the
 * pause count, kft's pause among it (and function_graph's own, where it
 * runs: it pauses the task too), which nobody would undo: its calls, and
 * its children's, would never be hooked. A probe on sched_process_fork,
 * while a pause of kft's lasts, clears the child's count before it first
 * runs: the pauses were its parent's, for the hibernation it prepares.
 */
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/suspend.h>
#include <linux/tracepoint.h>

#include "kft_compat.h"
#include "kft_ftrace.h"
#include "kft_hibernate.h"

#if defined(CONFIG_HIBERNATION) && KFT_HAVE_GRAPH_PAUSE

/* The task kft paused, held; written by the notifier (one at a time). */
static struct task_struct *kft_hibernating;
static struct tracepoint *kft_hibernate_fork_tp;
static bool kft_hibernate_fork_on;

/* A child of the task kft paused: its parent's pauses are not its. */
static notrace void kft_hibernate_fork(void *data, struct task_struct *parent,
				       struct task_struct *child)
{
	if (parent == READ_ONCE(kft_hibernating))
		kft_graph_unpause_new(child);
}

/* The fork probe on; without it (no such tracepoint), children keep the pause. */
static void kft_hibernate_fork_watch(void)
{
	if (!kft_hibernate_fork_tp)
		kft_hibernate_fork_tp = kft_tracepoint("sched_process_fork");
	kft_hibernate_fork_on = kft_hibernate_fork_tp &&
		!tracepoint_probe_register(kft_hibernate_fork_tp, kft_hibernate_fork, NULL);
}

static void kft_hibernate_fork_unwatch(void)
{
	if (!kft_hibernate_fork_on)
		return;
	tracepoint_probe_unregister(kft_hibernate_fork_tp, kft_hibernate_fork, NULL);
	tracepoint_synchronize_unregister();
	kft_hibernate_fork_on = false;
}

static void kft_hibernate_unpause(void)
{
	struct task_struct *t = kft_hibernating;

	if (!t)
		return;
	/*
	 * The probe stops clearing children's pauses first: a child forked
	 * after the unpause copies none of kft's. (One forked between the two,
	 * by the paused task while another closes the snapshot device, keeps
	 * it.)
	 */
	WRITE_ONCE(kft_hibernating, NULL);
	kft_graph_unpause(t);
	kft_hibernate_fork_unwatch();
	put_task_struct(t);
}

static int kft_hibernate_notify(struct notifier_block *nb, unsigned long action,
				void *data)
{
	switch (action) {
	case PM_HIBERNATION_PREPARE:
		if (!kft_hibernating) {
			WRITE_ONCE(kft_hibernating, get_task_struct(current));
			kft_graph_pause(current);
			kft_hibernate_fork_watch();
		}
		break;
	case PM_POST_HIBERNATION:
		kft_hibernate_unpause();
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block kft_hibernate_nb = {
	.notifier_call = kft_hibernate_notify,
};

int kft_hibernate_init(void)
{
	return register_pm_notifier(&kft_hibernate_nb);
}

/* After the unregister no notification runs: the pause left is kft's to undo. */
void kft_hibernate_exit(void)
{
	unregister_pm_notifier(&kft_hibernate_nb);
	kft_hibernate_unpause();
}

#else

int kft_hibernate_init(void)
{
	return 0;
}

void kft_hibernate_exit(void)
{
}

#endif
