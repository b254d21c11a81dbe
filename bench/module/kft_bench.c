// SPDX-License-Identifier: GPL-2.0
/*
 * kft_bench: the cost of one call of a traced function, for the overhead
 * benchmark (bench/guest.sh, Documentation/performance.md).
 *
 *	echo "run K R" >/proc/kft_bench		R rounds of K calls
 *	cat /proc/kft_bench
 *	rounds R calls K ns/call min MIN median MED max MAX hits H
 *
 * calls kft_bench_target() K times per round with interrupts off (nothing
 * else runs inside a round) and reports the guest nanoseconds per call of
 * the rounds, in thousandths. Under QEMU with -icount shift=0 guest time is
 * the count of executed instructions, so these are instructions per call.
 * A first round, not counted, warms up what the tracer does once.
 *
 *	echo "clock K R" >/proc/kft_bench
 *
 * times trace_clock_local() the same way: kft reads it twice per call.
 *
 *	echo "str K R" >/proc/kft_bench
 *
 * calls kft_bench_str_target() instead, with a kernel string of 11 bytes:
 * what a run that copies the string an argument points to (args string)
 * costs a call.
 *
 *	echo "yield K R" >/proc/kft_bench
 *
 * the same calls with interrupts on, offering the CPU (cond_resched())
 * every KFT_BENCH_YIELD_EVERY calls: what else runs meanwhile, a tracer's
 * reader woken by its timer, runs inside the round and adds its
 * instructions to the calls' (the streaming rows: a reader's cost per
 * call, which rounds with interrupts off leave out).
 *
 * The floors of what kft is built on, switched on and off here:
 *	echo "ops on|off"  >/proc/kft_bench	a no-op ftrace_ops on the target
 *	echo "exit on|off" >/proc/kft_bench	a no-op fprobe (kernels with
 *						CONFIG_FPROBE) or kretprobe
 * H counts the callbacks these ran since the last "run", so the script can
 * tell a hook that costs little from one that never fired.
 *
 *	echo "spin N" >/proc/kft_bench
 *
 * turns a loop N times in kft_bench_spin() with interrupts on (preemption
 * off: nothing but interrupts runs inside it) and appends "spin_ns S" to
 * what /proc/kft_bench shows: the guest ns it took. A sampling profiler
 * adds its cost per sample to S; the samples that hit the loop show
 * kft_bench_spin in their stacks.
 *
 * kft_bench_other() is never called here: it is what kft traces when the
 * benchmark measures a function outside kft's traced set.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>
#include <linux/trace_clock.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#ifdef CONFIG_FPROBE
#include <linux/fprobe.h>
#endif

/* Kernel-version differences, as kft has them (ftrace_ops on 5.10). */
#include "kft_bench_figures.h"
#include "kft_compat.h"

#define KFT_BENCH_MAX_ROUNDS 1000
#define KFT_BENCH_YIELD_EVERY 64

enum kft_bench_loop { KFT_BENCH_CALLS, KFT_BENCH_CLOCK, KFT_BENCH_YIELD, KFT_BENCH_STR };

#ifdef CONFIG_ARM
/*
 * 32-bit ARM: function_graph hooks a function that saves no link register
 * (a leaf) and records none of its calls (its unwind of the frame fails),
 * so there the target saves it: it calls this, untraced, and returns after.
 */
static noinline notrace __attribute__((__noipa__)) int kft_bench_inner(int x)
{
	return x + 1;
}

/* Traced, never inlined or cloned: every iteration is one real call. */
static noinline __attribute__((__noipa__)) int kft_bench_target(int x)
{
	int y = kft_bench_inner(x);

	/* (Not a tail call: the call returns here.) */
	barrier();
	return y;
}
#else
/* Traced, never inlined or cloned: every iteration is one real call. */
static noinline __attribute__((__noipa__)) int kft_bench_target(int x)
{
	return x + 1;
}
#endif

/* args string's target: its first argument points to a string. */
static noinline __attribute__((__noipa__)) int kft_bench_str_target(const char *s, int x)
{
	return x + s[0];
}

static const char kft_bench_text[] = "/etc/passwd";

static noinline __used __attribute__((__noipa__)) int kft_bench_other(int x)
{
	return x - 1;
}

/* A fixed number of instructions, interruptible: 3 per turn. */
static noinline __attribute__((__noipa__)) void kft_bench_spin(unsigned long turns)
{
	unsigned long i;

	for (i = 0; i < turns; i++)
		barrier();
}

static DEFINE_MUTEX(kft_bench_mutex);
static atomic_long_t kft_bench_hits;
static unsigned int kft_bench_calls, kft_bench_rounds;
static struct kft_bench_figures kft_bench_figures;	/* 1/1000 ns per call */
static u64 kft_bench_spin_ns;
static int kft_bench_sink;

/* One round: K calls, interrupts off (on for KFT_BENCH_YIELD); guest ns. */
static notrace u64 kft_bench_round(unsigned int calls, enum kft_bench_loop loop)
{
	unsigned long flags;
	unsigned int i;
	u64 t0, t1;
	int acc = 0;

	if (loop == KFT_BENCH_YIELD) {
		t0 = ktime_get_ns();
		for (i = 0; i < calls; i++) {
			acc = kft_bench_target(acc);
			if (!(i % KFT_BENCH_YIELD_EVERY))
				cond_resched();
		}
		t1 = ktime_get_ns();
		WRITE_ONCE(kft_bench_sink, acc);
		return t1 - t0;
	}
	local_irq_save(flags);
	t0 = ktime_get_ns();
	if (loop == KFT_BENCH_CLOCK) {
		for (i = 0; i < calls; i++)
			acc += (int)trace_clock_local();
	} else if (loop == KFT_BENCH_STR) {
		for (i = 0; i < calls; i++)
			acc = kft_bench_str_target(kft_bench_text, acc);
	} else {
		for (i = 0; i < calls; i++)
			acc = kft_bench_target(acc);
	}
	t1 = ktime_get_ns();
	local_irq_restore(flags);
	WRITE_ONCE(kft_bench_sink, acc);
	return t1 - t0;
}

/* noinline: the benchmark's root call of filter roots (its calls of the target inside). */
static noinline int kft_bench_run(unsigned int calls, unsigned int rounds,
				  enum kft_bench_loop loop)
{
	u64 *ns;
	unsigned int r;

	if (!calls || !rounds || rounds > KFT_BENCH_MAX_ROUNDS)
		return -EINVAL;
	ns = kcalloc(rounds, sizeof(*ns), GFP_KERNEL);
	if (!ns)
		return -ENOMEM;
	atomic_long_set(&kft_bench_hits, 0);
	kft_bench_round(calls, loop);
	for (r = 0; r < rounds; r++) {
		ns[r] = div_u64(kft_bench_round(calls, loop) * 1000, calls);
		cond_resched();
	}
	kft_bench_figures_of(ns, rounds, &kft_bench_figures);
	kft_bench_calls = calls;
	kft_bench_rounds = rounds;
	kfree(ns);
	return 0;
}

static int kft_bench_spin_run(unsigned long turns)
{
	u64 t0;

	if (!turns)
		return -EINVAL;
	preempt_disable();
	t0 = ktime_get_ns();
	kft_bench_spin(turns);
	kft_bench_spin_ns = ktime_get_ns() - t0;
	preempt_enable();
	return 0;
}

/* The floor of entry-only work: a callback that does nothing but count. */
static notrace void kft_bench_ops_fn(unsigned long ip, unsigned long parent_ip,
				     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic_long_inc(&kft_bench_hits);
}

static struct ftrace_ops kft_bench_ops = {
	.func = kft_bench_ops_fn,
	.flags = KFT_FTRACE_OPS_FL_OWN_RECURSION,
};

static bool kft_bench_ops_on;

/*
 * The target into the ops' filter: by its start, or where ftrace takes
 * only the call site's own address (KFT_FTRACE_FILTER_AT_SITE: 5.10 on
 * arm64 and 32-bit ARM), by the first address inside it that ftrace takes.
 */
static int kft_bench_filter_target(void)
{
	unsigned long ip = (unsigned long)kft_bench_target;
	unsigned int i;
	int ret = ftrace_set_filter_ip(&kft_bench_ops, ip, 0, 0);

	for (i = 1; KFT_FTRACE_FILTER_AT_SITE && ret == -EINVAL && i < 16; i++)
		ret = ftrace_set_filter_ip(&kft_bench_ops, ip + i * MCOUNT_INSN_SIZE, 0, 0);
	return ret;
}

static int kft_bench_ops_set(bool on)
{
	int ret;

	if (on == kft_bench_ops_on)
		return 0;
	if (!on) {
		unregister_ftrace_function(&kft_bench_ops);
		ftrace_free_filter(&kft_bench_ops);
		kft_bench_ops_on = false;
		return 0;
	}
	ret = kft_bench_filter_target();
	if (!ret)
		ret = register_ftrace_function(&kft_bench_ops);
	if (ret) {
		ftrace_free_filter(&kft_bench_ops);
		return ret;
	}
	kft_bench_ops_on = true;
	return 0;
}

/*
 * The floor of entry+exit work: kft's own mechanism (kft_exit_fprobe.c or
 * kft_exit_kretprobe.c) with handlers that only count.
 */
#ifdef CONFIG_FPROBE

/* Handlers take a pt_regs up to 6.13, a ftrace_regs since (kft_exit_fprobe.c). */
#if KERNEL_VERSION(6, 14, 0) <= LINUX_VERSION_CODE
#define kft_bench_fp_regs	ftrace_regs
#else
#define kft_bench_fp_regs	pt_regs
#endif

static notrace int kft_bench_fp_entry(struct fprobe *fp, unsigned long ip,
				      unsigned long ret_ip, struct kft_bench_fp_regs *regs,
				      void *data)
{
	atomic_long_inc(&kft_bench_hits);
	return 0;
}

static notrace void kft_bench_fp_exit(struct fprobe *fp, unsigned long ip,
				      unsigned long ret_ip, struct kft_bench_fp_regs *regs,
				      void *data)
{
	atomic_long_inc(&kft_bench_hits);
}

static struct fprobe kft_bench_fp;

static int kft_bench_exit_attach(void)
{
	unsigned long addr = (unsigned long)kft_bench_target;

	memset(&kft_bench_fp, 0, sizeof(kft_bench_fp));
	kft_bench_fp.entry_handler = kft_bench_fp_entry;
	kft_bench_fp.exit_handler = kft_bench_fp_exit;
	kft_bench_fp.entry_data_size = 32;	/* as kft's per-call storage */
	return register_fprobe_ips(&kft_bench_fp, &addr, 1);
}

static void kft_bench_exit_detach(void)
{
	unregister_fprobe(&kft_bench_fp);
}

#else

static notrace int kft_bench_krp_entry(struct kretprobe_instance *ri,
				       struct pt_regs *regs)
{
	atomic_long_inc(&kft_bench_hits);
	return 0;
}

static notrace int kft_bench_krp_exit(struct kretprobe_instance *ri,
				      struct pt_regs *regs)
{
	atomic_long_inc(&kft_bench_hits);
	return 0;
}

static struct kretprobe kft_bench_krp;

static int kft_bench_exit_attach(void)
{
	memset(&kft_bench_krp, 0, sizeof(kft_bench_krp));
	kft_bench_krp.kp.addr = (kprobe_opcode_t *)kft_bench_target;
	kft_bench_krp.entry_handler = kft_bench_krp_entry;
	kft_bench_krp.handler = kft_bench_krp_exit;
	kft_bench_krp.data_size = 32;
	kft_bench_krp.maxactive = 1152;
	return register_kretprobe(&kft_bench_krp);
}

static void kft_bench_exit_detach(void)
{
	unregister_kretprobe(&kft_bench_krp);
}

#endif

static bool kft_bench_exit_on;

static int kft_bench_exit_set(bool on)
{
	int ret = 0;

	if (on == kft_bench_exit_on)
		return 0;
	if (on)
		ret = kft_bench_exit_attach();
	else
		kft_bench_exit_detach();
	if (!ret)
		kft_bench_exit_on = on;
	return ret;
}

static int kft_bench_onoff(const char *arg, bool *on)
{
	if (!strcmp(arg, "on"))
		*on = true;
	else if (!strcmp(arg, "off"))
		*on = false;
	else
		return -EINVAL;
	return 0;
}

static int kft_bench_command(char *line)
{
	unsigned int calls, rounds;
	char what[8], arg[8];
	unsigned long turns;
	bool on;

	if (sscanf(line, "run %u %u", &calls, &rounds) == 2)
		return kft_bench_run(calls, rounds, KFT_BENCH_CALLS);
	if (sscanf(line, "clock %u %u", &calls, &rounds) == 2)
		return kft_bench_run(calls, rounds, KFT_BENCH_CLOCK);
	if (sscanf(line, "str %u %u", &calls, &rounds) == 2)
		return kft_bench_run(calls, rounds, KFT_BENCH_STR);
	if (sscanf(line, "yield %u %u", &calls, &rounds) == 2)
		return kft_bench_run(calls, rounds, KFT_BENCH_YIELD);
	if (sscanf(line, "spin %lu", &turns) == 1)
		return kft_bench_spin_run(turns);
	if (sscanf(line, "%7s %7s", what, arg) != 2 || kft_bench_onoff(arg, &on))
		return -EINVAL;
	if (!strcmp(what, "ops"))
		return kft_bench_ops_set(on);
	if (!strcmp(what, "exit"))
		return kft_bench_exit_set(on);
	return -EINVAL;
}

static ssize_t kft_bench_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char line[64];
	int ret;

	if (count >= sizeof(line))
		return -EINVAL;
	if (copy_from_user(line, ubuf, count))
		return -EFAULT;
	line[count] = '\0';
	strim(line);
	mutex_lock(&kft_bench_mutex);
	ret = kft_bench_command(line);
	mutex_unlock(&kft_bench_mutex);
	return ret ? ret : count;
}

static int kft_bench_show(struct seq_file *m, void *v)
{
	mutex_lock(&kft_bench_mutex);
	seq_printf(m, "rounds %u calls %u ns/call", kft_bench_rounds, kft_bench_calls);
	kft_bench_figures_show(m, &kft_bench_figures);
	seq_printf(m, " hits %ld spin_ns %llu\n",
		   atomic_long_read(&kft_bench_hits), kft_bench_spin_ns);
	mutex_unlock(&kft_bench_mutex);
	return 0;
}

static int kft_bench_open(struct inode *inode, struct file *file)
{
	return single_open(file, kft_bench_show, NULL);
}

static const struct proc_ops kft_bench_proc_ops = {
	.proc_open = kft_bench_open,
	.proc_read = seq_read,
	.proc_write = kft_bench_write,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
};

static int __init kft_bench_init(void)
{
	if (!proc_create("kft_bench", 0600, NULL, &kft_bench_proc_ops))
		return -ENOMEM;
	return 0;
}

static void __exit kft_bench_exit(void)
{
	remove_proc_entry("kft_bench", NULL);
	kft_bench_ops_set(false);
	kft_bench_exit_set(false);
}

module_init(kft_bench_init);
module_exit(kft_bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kft overhead benchmark: calls of a traced function");
