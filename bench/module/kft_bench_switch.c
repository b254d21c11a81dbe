// SPDX-License-Identifier: GPL-2.0
/*
 * kft_bench_switch: the cost of a context switch, for the benchmark's
 * scheduler rows (bench/guest.sh, Documentation/performance.md).
 *
 *	echo "TURNS ROUNDS" >/proc/kft_bench_switch
 *	cat /proc/kft_bench_switch
 *	rounds R turns N ns/switch min MIN median MED max MAX out O
 *
 * Each round, the writer and a kernel thread (kft_bench_pong), bound to
 * the writer's CPU, hand a turn back and forth N times through two
 * completions: the writer in kft_bench_ping(), the thread in
 * kft_bench_pong(), two calls that last the whole round, so that a tracer
 * timing them follows both tasks at every switch. Both run SCHED_FIFO at
 * one priority, so that a task woken never preempts its waker: a turn is
 * two switches, each task blocking once, and every turn takes the same
 * path. In the fair class whether the woken task preempted its waker
 * changed from turn to turn, and so did what a switch cost. No fair task
 * runs in a round either.
 *
 * The rounds are timed in guest ns, as /proc/kft_bench's, and reported per
 * switch in thousandths (instructions under -icount). O counts the
 * writer's switches out in the timed rounds: R * N when nothing else ran
 * on the CPU. Pin the writer to one CPU (taskset), or it may move away
 * from the thread.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "kft_bench_figures.h"

#define KFT_BENCH_SWITCH_MAX_ROUNDS 1000

struct kft_bench_pingpong {
	struct completion ready;	/* the thread is inside kft_bench_pong() */
	struct completion ping;		/* the thread's turn */
	struct completion pong;		/* the writer's turn */
	unsigned int turns, rounds;	/* the rounds with the warm-up */
};

/* The thread's side of a round: a call that lasts the round. */
static noinline __attribute__((__noipa__)) void kft_bench_pong(struct kft_bench_pingpong *pp)
{
	unsigned int i;

	complete(&pp->ready);
	for (i = 0; i < pp->turns; i++) {
		wait_for_completion(&pp->ping);
		complete(&pp->pong);
	}
}

static int kft_bench_pong_thread(void *arg)
{
	struct kft_bench_pingpong *pp = arg;
	unsigned int r;

	for (r = 0; r < pp->rounds; r++)
		kft_bench_pong(pp);
	return 0;
}

/* The writer's side of a round: a call that lasts the round. */
static noinline __attribute__((__noipa__)) void kft_bench_ping(struct kft_bench_pingpong *pp)
{
	unsigned int i;

	for (i = 0; i < pp->turns; i++) {
		complete(&pp->ping);
		wait_for_completion(&pp->pong);
	}
}

static unsigned long kft_bench_switches_out(void)
{
	return current->nvcsw + current->nivcsw;
}

/*
 * Until the next timer tick. A round started anywhere holds one tick more
 * or less by the ticks' phase alone, which a whole row of rounds can share;
 * started just after a tick, rounds of about the same length hold as many.
 */
static void kft_bench_switch_tick_wait(void)
{
	unsigned long j = READ_ONCE(jiffies);

	while (READ_ONCE(jiffies) == j)
		cpu_relax();
}

/* One round, once the thread is in it: its guest ns; the writer's switches out added to @out. */
static u64 kft_bench_switch_round(struct kft_bench_pingpong *pp, unsigned long *out)
{
	unsigned long out0;
	u64 t0, ns;

	wait_for_completion(&pp->ready);
	kft_bench_switch_tick_wait();
	out0 = kft_bench_switches_out();
	t0 = ktime_get_ns();
	kft_bench_ping(pp);
	ns = ktime_get_ns() - t0;
	*out += kft_bench_switches_out() - out0;
	return ns;
}

static DEFINE_MUTEX(kft_bench_switch_mutex);
static unsigned int kft_bench_switch_turns, kft_bench_switch_rounds;
static struct kft_bench_figures kft_bench_switch_figures;
static unsigned long kft_bench_switch_out;

/* The thread, SCHED_FIFO and bound to the writer's CPU, started. */
static struct task_struct *kft_bench_pong_start(struct kft_bench_pingpong *pp)
{
	struct task_struct *t;

	init_completion(&pp->ready);
	init_completion(&pp->ping);
	init_completion(&pp->pong);
	t = kthread_create(kft_bench_pong_thread, pp, "kft_bench_pong");
	if (IS_ERR(t))
		return t;
	kthread_bind(t, raw_smp_processor_id());
	sched_set_fifo_low(t);
	get_task_struct(t);
	wake_up_process(t);
	return t;
}

/* The rounds' figures (@ns: per switch, 1/1000 ns), sorted, kept for reading. */
static void kft_bench_switch_keep(u64 *ns, unsigned int turns, unsigned int rounds,
				  unsigned long out)
{
	kft_bench_figures_of(ns, rounds, &kft_bench_switch_figures);
	kft_bench_switch_turns = turns;
	kft_bench_switch_rounds = rounds;
	kft_bench_switch_out = out;
}

/*
 * @rounds rounds of @turns after one not counted, which warms up the
 * tracer, all with one thread: nothing is made or freed between rounds.
 * The writer is SCHED_FIFO meanwhile, as the thread, and SCHED_NORMAL
 * again after: a writer of another policy is refused, which it would lose.
 */
static int kft_bench_switch_run(unsigned int turns, unsigned int rounds)
{
	struct kft_bench_pingpong pp = { .turns = turns, .rounds = rounds + 1 };
	int nice = task_nice(current);
	struct task_struct *t;
	unsigned long out = 0;
	unsigned int r;
	u64 *ns;

	if (!turns || !rounds || rounds > KFT_BENCH_SWITCH_MAX_ROUNDS)
		return -EINVAL;
	if (current->policy != SCHED_NORMAL)
		return -EPERM;
	ns = kcalloc(rounds, sizeof(*ns), GFP_KERNEL);
	if (!ns)
		return -ENOMEM;
	sched_set_fifo_low(current);
	t = kft_bench_pong_start(&pp);
	if (!IS_ERR(t)) {
		kft_bench_switch_round(&pp, &out);
		out = 0;
		for (r = 0; r < rounds; r++)
			ns[r] = div_u64(kft_bench_switch_round(&pp, &out) * 1000, 2 * turns);
		kthread_stop(t);
		put_task_struct(t);
		kft_bench_switch_keep(ns, turns, rounds, out);
	}
	sched_set_normal(current, nice);
	kfree(ns);
	return PTR_ERR_OR_ZERO(t);
}

static ssize_t kft_bench_switch_write(struct file *file, const char __user *ubuf,
				      size_t count, loff_t *ppos)
{
	unsigned int turns, rounds;
	char line[32];
	int ret;

	if (count >= sizeof(line))
		return -EINVAL;
	if (copy_from_user(line, ubuf, count))
		return -EFAULT;
	line[count] = '\0';
	if (sscanf(line, "%u %u", &turns, &rounds) != 2)
		return -EINVAL;
	mutex_lock(&kft_bench_switch_mutex);
	ret = kft_bench_switch_run(turns, rounds);
	mutex_unlock(&kft_bench_switch_mutex);
	return ret ? ret : count;
}

static int kft_bench_switch_show(struct seq_file *m, void *v)
{
	mutex_lock(&kft_bench_switch_mutex);
	seq_printf(m, "rounds %u turns %u ns/switch", kft_bench_switch_rounds,
		   kft_bench_switch_turns);
	kft_bench_figures_show(m, &kft_bench_switch_figures);
	seq_printf(m, " out %lu\n", kft_bench_switch_out);
	mutex_unlock(&kft_bench_switch_mutex);
	return 0;
}

static int kft_bench_switch_open(struct inode *inode, struct file *file)
{
	return single_open(file, kft_bench_switch_show, NULL);
}

static const struct proc_ops kft_bench_switch_proc_ops = {
	.proc_open = kft_bench_switch_open,
	.proc_read = seq_read,
	.proc_write = kft_bench_switch_write,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
};

static int __init kft_bench_switch_init(void)
{
	if (!proc_create("kft_bench_switch", 0600, NULL, &kft_bench_switch_proc_ops))
		return -ENOMEM;
	return 0;
}

static void __exit kft_bench_switch_exit(void)
{
	remove_proc_entry("kft_bench_switch", NULL);
}

module_init(kft_bench_switch_init);
module_exit(kft_bench_switch_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kft overhead benchmark: context switches between two followed tasks");
