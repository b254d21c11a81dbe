// SPDX-License-Identifier: GPL-2.0
/*
 * The flight recorder's end (Documentation/kft.rst, "log ring"): a ring
 * run freezes at an oops (the die notifier) or a panic (the panic
 * notifier), so that its log keeps the calls that led there, and prints
 * each CPU's last panic_calls calls to the kernel log, which a serial
 * console keeps when nothing else is left.
 *
 * Both notifiers run in the dying context: on any CPU, with interrupts
 * perhaps off, other CPUs stopped (a panic) or running (an oops), kft_mutex
 * perhaps held by the task that oopsed. So: no lock, no allocation, no
 * sleep. The run is the one installed, read under RCU (kft_flight_run);
 * one CPU prints, the first. A persistent ring (log persistent) is sealed
 * first: its checksums set for the boot after.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kdebug.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>

#include "kft_compat.h"
#include "kft_current.h"
#include "kft_flight.h"
#include "kft_mode.h"
#include "kft_region.h"
#include "kft_run.h"

/*
 * At most KFT_PANIC_CALLS_MAX a CPU, and KFT_PANIC_ROWS_MAX in all: a
 * serial console at 115200 baud prints about a hundred rows a second,
 * the oops's CPU prints them with interrupts off, a panic=N reboot waits
 * for the printing to end, and the rows (about 160 bytes each) must leave
 * the oops's own report in a kernel log of 128 KiB.
 */
#define KFT_PANIC_CALLS_MAX	512
#define KFT_PANIC_ROWS_MAX	512

static unsigned int panic_calls = 16;

static int kft_panic_calls_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	if (n > KFT_PANIC_CALLS_MAX)
		return -ERANGE;
	WRITE_ONCE(*(unsigned int *)kp->arg, n);
	return 0;
}

static const struct kernel_param_ops kft_panic_calls_ops = {
	.set = kft_panic_calls_set,
	.get = param_get_uint,
};
module_param_cb(panic_calls, &kft_panic_calls_ops, &panic_calls, 0644);
__MODULE_PARM_TYPE(panic_calls, "uint");
MODULE_PARM_DESC(panic_calls,
		 "each CPU's last calls a ring run prints to the kernel log at an oops or a panic (0: none, at most 512)");

/* One row or header at a time; rows are short, the header's lines too. */
static char kft_flight_buf[1024];
static struct seq_file kft_flight_seq = {
	.buf = kft_flight_buf,
	.size = sizeof(kft_flight_buf),
};
static atomic_t kft_flight_printing = ATOMIC_INIT(0);

static const char *const kft_flight_why[] = {
	[KFT_REASON_OOPS] = "an oops",
	[KFT_REASON_PANIC] = "a panic",
};

/*
 * A persistent ring sealed with what stopped the run first (an oops, then
 * the panic it led to; a run a prime is emptying has no stop yet). A
 * prime on another CPU may be between the unseal in its reset and its
 * move to PRIMED, which the freeze missed: after the seal (and a full
 * barrier), a run primed or running again is frozen and sealed once more.
 * The prime looks at the seal after its move (kft_run_prime()): one of
 * the two sees the other.
 */
static void kft_flight_seal(struct kft_run *run, enum kft_reason why)
{
	u32 reason = READ_ONCE(run->times.stop_reason);
	int state;

	kft_region_seal(reason != KFT_REASON_NONE ? reason : why,
			READ_ONCE(run->times.first_start_ns));
	/* The seal before the look at the state: pairs with the prime's cmpxchg. */
	smp_mb();
	state = READ_ONCE(run->state);
	if (state != KFT_PRIMED && state != KFT_RUNNING)
		return;
	kft_run_freeze(run, why);
	kft_region_seal(why, READ_ONCE(run->times.first_start_ns));
}

/* The ring run, if any: frozen for @why, and printed (once a boot). */
static void kft_flight_freeze(enum kft_reason why)
{
	unsigned int calls = READ_ONCE(panic_calls);
	struct kft_run *run;

	rcu_read_lock();
	run = rcu_dereference(kft_flight_run);
	if (!run)
		goto out;
	kft_run_freeze(run, why);
	if (run->cfg.persistent)
		kft_flight_seal(run, why);
	if (!calls || atomic_xchg(&kft_flight_printing, 1))
		goto out;
	pr_emerg("=== last calls before %s: run %u, each CPU's last %u, at most %u in all, oldest first ===\n",
		 kft_flight_why[why], run->id, calls, KFT_PANIC_ROWS_MAX);
	kft_trace_print_last(run, calls, KFT_PANIC_ROWS_MAX, &kft_flight_seq);
	pr_emerg("=== end of last calls ===\n");
out:
	rcu_read_unlock();
}

static int kft_flight_die(struct notifier_block *nb, unsigned long val, void *data)
{
	if (val == DIE_OOPS)
		kft_flight_freeze(KFT_REASON_OOPS);
	return NOTIFY_DONE;
}

static int kft_flight_panic(struct notifier_block *nb, unsigned long val, void *data)
{
	kft_flight_freeze(KFT_REASON_PANIC);
	return NOTIFY_DONE;
}

static struct notifier_block kft_flight_die_nb = {
	.notifier_call = kft_flight_die,
};

/*
 * Before the other panic notifiers: a reboot may come after them. A loaded
 * kdump kernel is entered before any of them, unless the kernel was booted
 * with crash_kexec_post_notifiers: a panic no oops led to then freezes
 * nothing (an oops' die notifier has run first).
 */
static struct notifier_block kft_flight_panic_nb = {
	.notifier_call = kft_flight_panic,
	.priority = INT_MAX,
};

int kft_flight_init(void)
{
	int ret = register_die_notifier(&kft_flight_die_nb);

	if (ret)
		return ret;
	atomic_notifier_chain_register(&panic_notifier_list, &kft_flight_panic_nb);
	return 0;
}

void kft_flight_exit(void)
{
	atomic_notifier_chain_unregister(&panic_notifier_list, &kft_flight_panic_nb);
	unregister_die_notifier(&kft_flight_die_nb);
}
