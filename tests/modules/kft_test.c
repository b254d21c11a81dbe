// SPDX-License-Identifier: GPL-2.0
/*
 * kft_test: functions of known shape and duration for kft's in-guest tests.
 *
 *	echo "NAME [COUNT]" >/proc/kft_test
 *
 * calls NAME COUNT times (default 1) from the writing task, or, for NAME
 * irq_leaf, irq_busy_20us and irq_notrace_leaf, from hard interrupt
 * context (irq_work).
 * Names:
 *	leaf		returns at once
 *	notrace_leaf	kft_test_notrace_leaf, notrace: returns at once
 *	kprobe		COUNT 1: a kprobe of this module's own on
 *			kft_test_notrace_leaf, counting its hits; COUNT 0:
 *			taken off, its hits written to the kernel log
 *			("kft_test: kprobe hits N"): a second kprobe beside
 *			kft's (notrace_context)
 *	busy_20us	spins 20 us
 *	busy_2ms	spins 2 ms
 *	busy_us		COUNT is microseconds (1..1000000) spun in one call of
 *			kft_test_busy_us: durations a test chooses (a
 *			histogram's buckets)
 *	slow_root	COUNT is microseconds (0..100000): kft_test_slow_root
 *			calls leaf, busy_us with COUNT (not for 0), and leaf
 *			again: a call slow or fast as a test chooses, with a
 *			subtree (filter roots)
 *	outer		calls middle twice; middle calls leaf 3 times and busy_20us
 *	start_marker, stop_marker	return at once; for triggers
 *	nokprobe_marker	returns at once; traceable, but kprobes refuse it
 *			(NOKPROBE_SYMBOL): a trigger there is an ftrace_ops
 *	recurse		COUNT is a depth (1..10): kft_test_recurse calls itself
 *			that deep, each frame holding a 1 KiB array, and the
 *			innermost calls leaf (for stack watches)
 *	irq_recurse	the same from hard interrupt context (2..8 deep)
 *	nap		COUNT is milliseconds asleep in one call of kft_test_nap
 *	naps		one call of kft_test_naps: 200 ms asleep, then COUNT
 *			sleeps of 1 ms
 *	spin_nap	in one call of kft_test_spin_nap: COUNT milliseconds
 *			spun, yielding the CPU at each turn (runnable, never
 *			blocked), then 3 * COUNT milliseconds asleep
 *	spin_poked	kft_test_spin_poked: spun (as spin_nap) until "poke"
 *			is written (at most 60 s), then asleep until the next
 *			"poke" (at most COUNT milliseconds)
 *	poll_poked	kft_test_poll_poked: polls until "poke" (at most 60 s),
 *			giving the CPU up only when the scheduler asks for it,
 *			never blocked nor yielding (as an io_uring SQPOLL
 *			thread polls: a task RCU tasks waits for)
 *	nap_poked	kft_test_nap_poked: asleep until "poke" is written
 *			(at most COUNT milliseconds)
 *	doze_poked	kft_test_doze_poked: until "poke" (at most 60 s), by
 *			turns spun and asleep for COUNT milliseconds each
 *	poke		ends the spin of spin_poked or poll_poked, and the sleep
 *			of nap_poked
 *	hot_ms		COUNT is milliseconds spun in kft_test_hot_loop, which
 *			reads the clock only every 65536 turns (a profile sees
 *			this function, not the clock: under emulation a clock
 *			read costs as much host time as thousands of turns);
 *			a process killed ends it at once (a spinner killed
 *			waited for its write to end: 8 s of make check)
 *	err_chain	COUNT is an error number N (0..4095): kft_test_err_outer
 *			(long) calls kft_test_err_middle (int), which calls
 *			kft_test_err_inner (int), which returns -N; each
 *			returns what it got (0 for N 0): an error's origin two
 *			calls down
 *	ret_errptr	kft_test_ret_errptr returns ERR_PTR(-COUNT)
 *	ret_ptr		kft_test_ret_ptr returns kft_test_leaf's address (a
 *			kernel address the test finds in /proc/kallsyms: a
 *			function's, since a module's data is there only with
 *			CONFIG_KALLSYMS_ALL, which 32-bit ARM's lacks)
 *	ret_u32		kft_test_ret_u32 returns the unsigned int
 *			0xffffffff - COUNT (0xffffffff reads as -1)
 *	seq		kft_test_seq_loop makes COUNT calls of kft_test_seq, the
 *			i-th returning i (which calls a log ring kept), and
 *			returns COUNT (a call that outlives its entry's record
 *			in a small ring)
 *	oops		a kernel thread (kft_test_oops) calls kft_test_oops_outer,
 *			which calls kft_test_oops_inner, which writes through a
 *			NULL pointer: an oops on purpose (the thread dies; the
 *			kernel goes on unless panic_on_oops), for log ring's freeze
 *	oops_exiting	the same oops in a kernel thread's exit, past the end of
 *			its namespaces (its task work): the thread is left dead
 *			for good ("Fixing recursive fault"); once a load
 *	warn		kft_test_warn_outer calls kft_test_warn_inner, which
 *			warns (WARN_ON_ONCE: once a load) and returns
 *	panic		kft_test_panic_outer calls kft_test_panic_inner, which
 *			panics: the end of the guest, on purpose (where there is
 *			no /proc/sysrq-trigger to crash it)
 *	hang		kft_test_hang_outer calls kft_test_hang_inner, which
 *			spins with preemption off for good: the soft-lockup
 *			watchdog's to find (a hang on purpose, last_boot.tc)
 *	lock_root	kft_test_lock_root: leaf, then takes and lets go of
 *			kft_test_mutex (free: at once), then leaf
 *	lock_wait	COUNT is milliseconds: a kernel thread (kft_test_holder)
 *			takes kft_test_mutex, sleeps COUNT ms once the writer
 *			waits for the mutex, and lets it go
 *			from kft_test_lock_release; meanwhile the writer calls
 *			kft_test_lock_root, which blocks on the mutex until the
 *			holder wakes it (wakers)
 *	bh_lock		COUNT is milliseconds (1..1000): a kernel thread on
 *			the first CPU takes kft_test_bh_spin (a spinlock_t),
 *			a timer on the second calls kft_test_bh_locked, which
 *			takes the lock too, and the thread lets it go COUNT ms
 *			after the callback came to it: a call in softirq
 *			context that spins on the lock, or, under PREEMPT_RT
 *			(softirqs run in a task, the lock sleeps, and a
 *			real-time thread keeps the holder off its CPU), blocks
 *
 *	echo "kprobe_at SYMBOL" >/proc/kft_test
 *
 * registers a kprobe at SYMBOL (any module's too) and takes it off again:
 * the write fails with register_kprobe()'s error (kprobes' blacklist),
 * where kprobe_events would refuse any function ftrace cannot trace first.
 *
 *	echo ucopy >/proc/kft_test
 *
 * calls copy_from_user_nofault() on the writer's text, as kft's user string
 * reads do: a call of it that is not kft's own.
 * Durations are spun on the clocksource (ktime_get_mono_fast_ns()), which
 * advances also with interrupts off on this CPU; interrupts may only make
 * a call longer.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/io.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/timer.h>
#include <linux/string.h>
#include <linux/task_work.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>

/*
 * 5.10 has no IRQ_WORK_INIT_HARD(): an irq_work runs in hard interrupt
 * context there but on PREEMPT_RT, which the flag asks for too.
 */
#ifndef IRQ_WORK_INIT_HARD
#define IRQ_WORK_INIT_HARD(_func)					\
	((struct irq_work){ .flags = ATOMIC_INIT(IRQ_WORK_HARD_IRQ), .func = (_func) })
#endif

static noinline void kft_test_spin_ns(u64 ns)
{
	u64 start = ktime_get_mono_fast_ns();

	while (ktime_get_mono_fast_ns() - start < ns)
		cpu_relax();
}

static noinline void kft_test_leaf(void)
{
	barrier();
}

/*
 * Without ftrace's call site: hooks safe reach it by a kprobe, which,
 * unoptimized, fires through its breakpoint.
 */
static noinline notrace void kft_test_notrace_leaf(void)
{
	barrier();
}

#ifdef CONFIG_KPROBES
static atomic_t kft_test_kprobe_hits;

static int kft_test_kprobe_pre(struct kprobe *p, struct pt_regs *regs)
{
	atomic_inc(&kft_test_kprobe_hits);
	return 0;
}

static struct kprobe kft_test_kprobe = {
	.addr = (kprobe_opcode_t *)kft_test_notrace_leaf,
	.pre_handler = kft_test_kprobe_pre,
};
static bool kft_test_kprobe_on;
/* Writers of /proc/kft_test at once register it once, and take it off once. */
static DEFINE_MUTEX(kft_test_kprobe_mutex);

/* kprobe 1 or 0: the second kprobe on kft_test_notrace_leaf, on or off. */
static int kft_test_kprobe_set(unsigned int on)
{
	int err = 0;

	mutex_lock(&kft_test_kprobe_mutex);
	if (on > 1 || on == kft_test_kprobe_on) {
		err = -EINVAL;
	} else if (!on) {
		unregister_kprobe(&kft_test_kprobe);
		kft_test_kprobe_on = false;
		pr_info("kft_test: kprobe hits %d\n", atomic_read(&kft_test_kprobe_hits));
	} else {
		/* A kprobe cannot be registered twice without being reset. */
		kft_test_kprobe.flags = 0;
		kft_test_kprobe.addr = (kprobe_opcode_t *)kft_test_notrace_leaf;
		atomic_set(&kft_test_kprobe_hits, 0);
		err = register_kprobe(&kft_test_kprobe);
		kft_test_kprobe_on = !err;
	}
	mutex_unlock(&kft_test_kprobe_mutex);
	return err;
}

static int kft_test_kprobe_pre_nop(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

/* kprobe_at SYMBOL: what register_kprobe() says of a kprobe there. */
static int kft_test_kprobe_at(const char *buf)
{
	struct kprobe probe = { .pre_handler = kft_test_kprobe_pre_nop };
	char symbol[128];
	int err;

	if (sscanf(buf, "%127s", symbol) != 1)
		return -EINVAL;
	probe.symbol_name = symbol;
	err = register_kprobe(&probe);
	if (err)
		return err;
	unregister_kprobe(&probe);
	return 0;
}
#else
static int kft_test_kprobe_set(unsigned int on)
{
	return -EOPNOTSUPP;
}

static int kft_test_kprobe_at(const char *buf)
{
	return -EOPNOTSUPP;
}
#endif

/*
 * ucopy: the kernel's copy_from_user_nofault() of the writer's first
 * byte, as a string read of kft's makes it: a call of the traced code's.
 */
static int kft_test_ucopy(const char __user *ubuf)
{
	char c;

	return copy_from_user_nofault(&c, ubuf, 1) ? -EFAULT : 0;
}

static noinline void kft_test_busy_20us(void)
{
	kft_test_spin_ns(20 * NSEC_PER_USEC);
}

static noinline void kft_test_busy_2ms(void)
{
	kft_test_spin_ns(2 * NSEC_PER_MSEC);
}

static noinline void kft_test_busy_us(unsigned int us)
{
	kft_test_spin_ns((u64)us * NSEC_PER_USEC);
}

/* Asleep inside a traced function: a call that outlives a run. */
static noinline void kft_test_sleep(void)
{
	msleep(1500);
}

/* Asleep inside one call for @ms (a task held there, as long as wanted). */
static noinline void kft_test_nap(unsigned int ms)
{
	msleep(ms);
}

/*
 * Asleep 200 ms, then @n times 1 ms, in one call: the first sleep is the
 * longest, each later one ends in a wakeup that cannot replace it.
 */
static noinline void kft_test_naps(unsigned int n)
{
	unsigned int i;

	msleep(200);
	for (i = 0; i < n; i++)
		usleep_range(1000, 1100);
}

/*
 * Runnable for @ms, then blocked for 3 * @ms, in one call. schedule() in
 * state TASK_RUNNING, not cond_resched(): a task that only gets preempted
 * holds up an RCU tasks grace period (ftrace waits for one when a hook is
 * removed); one that schedules of its own accord passes it, and stays
 * runnable.
 */
static noinline void kft_test_spin_nap(unsigned int ms)
{
	u64 start = ktime_get_mono_fast_ns();

	while (ktime_get_mono_fast_ns() - start < (u64)ms * NSEC_PER_MSEC)
		schedule();
	msleep(3 * ms);
}

/*
 * Spun as kft_test_spin_nap does, until "poke" is written (or 60 s), then
 * asleep (blocked, D state, as in msleep()) until the next "poke" (or
 * @ms): a test that needs the task running in the call while it looks
 * ends the spin when it is done, not at a time its own slowness could pass
 * (fast_unpin_blocked on the debug kernel once saw the 2 s spin of
 * spin_nap end before its check), and the sleep once it has looked at
 * that (a sleep of a fixed time was waited out: 3 to 4 s a test).
 * @pokes: the count of pokes before the call.
 */
static bool kft_test_poked;
static unsigned int kft_test_pokes;
static DECLARE_WAIT_QUEUE_HEAD(kft_test_poke_wait);

static noinline void kft_test_spin_poked(unsigned int ms, unsigned int pokes)
{
	u64 start = ktime_get_mono_fast_ns();

	while (!READ_ONCE(kft_test_poked) &&
	       ktime_get_mono_fast_ns() - start < 60ULL * NSEC_PER_SEC)
		schedule();
	wait_event_timeout(kft_test_poke_wait, READ_ONCE(kft_test_pokes) - pokes >= 2,
			   msecs_to_jiffies(ms));
}

/*
 * Until "poke" (or 60 s), by turns spun for @ms (runnable) and asleep for
 * @ms (blocked): two tasks in it are each blocked at some of a test's
 * looks and not at others.
 */
static noinline void kft_test_doze_poked(unsigned int ms)
{
	u64 start = ktime_get_mono_fast_ns(), turn;

	while (!READ_ONCE(kft_test_poked) &&
	       ktime_get_mono_fast_ns() - start < 60ULL * NSEC_PER_SEC) {
		turn = ktime_get_mono_fast_ns();
		while (!READ_ONCE(kft_test_poked) &&
		       ktime_get_mono_fast_ns() - turn < (u64)ms * NSEC_PER_MSEC)
			schedule();
		wait_event_timeout(kft_test_poke_wait, READ_ONCE(kft_test_poked),
				   msecs_to_jiffies(ms));
	}
}

/*
 * Polled until "poke" (or 60 s). schedule() would be a voluntary switch,
 * which RCU tasks counts as a quiescent state; cond_resched() switches
 * only when the scheduler preempts the task, which RCU tasks does not.
 */
static noinline void kft_test_poll_poked(void)
{
	u64 start = ktime_get_mono_fast_ns();

	while (!READ_ONCE(kft_test_poked) &&
	       ktime_get_mono_fast_ns() - start < 60ULL * NSEC_PER_SEC) {
		cond_resched();
		cpu_relax();
	}
}

/*
 * Asleep until "poke" is written (or @ms): a test that looks at a task
 * asleep in a call ends the call once it has looked, not at a time its
 * own slowness could pass.
 */
static noinline void kft_test_nap_poked(unsigned int ms)
{
	wait_event_timeout(kft_test_poke_wait, READ_ONCE(kft_test_poked),
			   msecs_to_jiffies(ms));
}

static noinline void kft_test_middle(void)
{
	kft_test_leaf();
	kft_test_leaf();
	kft_test_leaf();
	kft_test_busy_20us();
}

static noinline void kft_test_outer(void)
{
	kft_test_middle();
	kft_test_middle();
}

static noinline void kft_test_slow_root(unsigned int us)
{
	kft_test_leaf();
	if (us)
		kft_test_busy_us(us);
	kft_test_leaf();
}

static DEFINE_MUTEX(kft_test_mutex);
static DECLARE_COMPLETION(kft_test_mutex_taken);
/* kft_test_lock_root is about to take the mutex (set by it, read by the holder). */
static bool kft_test_locking;

/* (5.14 named it; a task's state field was ->state before) */
#ifndef task_is_running
#define task_is_running(t) (READ_ONCE((t)->state) == TASK_RUNNING)
#endif

/*
 * The holder lets the mutex go from a function of its own, a frame a test
 * finds in the waker's stack (the barrier keeps the call from being a
 * tail call, which would leave no frame of it).
 */
static noinline void kft_test_lock_release(void)
{
	mutex_unlock(&kft_test_mutex);
	barrier();
}

struct kft_test_hold {
	struct task_struct *writer;
	unsigned int ms;
};

/*
 * The holder sleeps its time only once the writer sleeps on the mutex:
 * a host that stalls the writer's vCPU between the completion and the
 * mutex would otherwise spend the sleep, and the writer block for less.
 * The writer is running when it says it is about to lock (it said so),
 * so a state other than running after that is its sleep on the mutex.
 */
static int kft_test_holder(void *arg)
{
	struct kft_test_hold *hold = arg;

	mutex_lock(&kft_test_mutex);
	complete(&kft_test_mutex_taken);
	while (!READ_ONCE(kft_test_locking) || task_is_running(hold->writer))
		usleep_range(1000, 2000);
	msleep(hold->ms);
	kft_test_lock_release();
	return 0;
}

static noinline void kft_test_lock_root(void)
{
	kft_test_leaf();
	WRITE_ONCE(kft_test_locking, true);
	mutex_lock(&kft_test_mutex);
	kft_test_leaf();
	mutex_unlock(&kft_test_mutex);
	kft_test_leaf();
}

/*
 * kft_test_lock_root blocked for about @ms by kft_test_holder. The thread
 * is waited for: the module's code stays until it has returned.
 */
static int kft_test_lock_wait(unsigned int ms)
{
	struct kft_test_hold hold = { .writer = current, .ms = ms };
	struct task_struct *t;

	reinit_completion(&kft_test_mutex_taken);
	WRITE_ONCE(kft_test_locking, false);
	t = kthread_create(kft_test_holder, &hold, "kft_test_holder");
	if (IS_ERR(t))
		return PTR_ERR(t);
	get_task_struct(t);
	wake_up_process(t);
	wait_for_completion(&kft_test_mutex_taken);
	kft_test_lock_root();
	kthread_stop(t);
	put_task_struct(t);
	return 0;
}

static DEFINE_SPINLOCK(kft_test_bh_spin);
/* One bh_lock at a time: they share the timer and the flag. */
static DEFINE_MUTEX(kft_test_bh_mutex);
static struct timer_list kft_test_bh_timer;
/* kft_test_bh_locked is about to take the lock (set by it, read by the holder and the hog). */
static bool kft_test_bh_locking;

static noinline __attribute__((__noipa__)) void kft_test_bh_locked(void)
{
	WRITE_ONCE(kft_test_bh_locking, true);
	spin_lock(&kft_test_bh_spin);
	spin_unlock(&kft_test_bh_spin);
}

static void kft_test_bh_fn(struct timer_list *timer)
{
	kft_test_bh_locked();
}

/*
 * Spins until @ms after kft_test_bh_locked came to the lock (a callback
 * late on a stalled host still waits the whole time), or 5 s without it.
 */
static void kft_test_bh_spin_out(unsigned int ms)
{
	u64 start = ktime_get_mono_fast_ns(), came = 0, now;

	for (;;) {
		now = ktime_get_mono_fast_ns();
		if (!came && READ_ONCE(kft_test_bh_locking))
			came = now;
		if (came ? now - came >= (u64)ms * NSEC_PER_MSEC : now - start >= 5ULL * NSEC_PER_SEC)
			return;
		cpu_relax();
	}
}

struct kft_test_bh {
	unsigned int ms;
	unsigned int other;		/* the timer's CPU */
	struct completion taken;
};

/*
 * Takes the lock, arms the timer on the other CPU, and holds the lock
 * until the callback has waited for it @ms (armed here, not by the
 * writer: without PREEMPT_RT the holder keeps its CPU, where the writer
 * may be).
 */
static int kft_test_bh_holder(void *arg)
{
	struct kft_test_bh *bh = arg;

	/* Bottom halves off: a lock the timer's callback takes too. */
	spin_lock_bh(&kft_test_bh_spin);
	kft_test_bh_timer.expires = jiffies;
	add_timer_on(&kft_test_bh_timer, bh->other);
	/* The writer and the hog wait for it. */
	complete_all(&bh->taken);
	kft_test_bh_spin_out(bh->ms);
	spin_unlock_bh(&kft_test_bh_spin);
	return 0;
}

/*
 * Under PREEMPT_RT: once the lock is taken, keeps the holder off its CPU
 * (a real-time task, above the callback's thread that boosts the holder),
 * so that the callback sleeps on the lock: a waiter spins while the owner
 * runs.
 */
static int kft_test_bh_hog(void *arg)
{
	struct kft_test_bh *bh = arg;

	wait_for_completion(&bh->taken);
	kft_test_bh_spin_out(bh->ms);
	return 0;
}

/* A kernel thread on @cpu, started; NULL if none could be made. */
static struct task_struct *kft_test_bh_thread(int (*fn)(void *), struct kft_test_bh *bh,
					      unsigned int cpu, bool fifo)
{
	struct task_struct *t = kthread_create(fn, bh, "kft_test_bh");

	if (IS_ERR(t))
		return NULL;
	get_task_struct(t);
	kthread_bind(t, cpu);
	if (fifo)
		sched_set_fifo(t);
	wake_up_process(t);
	return t;
}

static void kft_test_bh_join(struct task_struct *t)
{
	kthread_stop(t);
	put_task_struct(t);
}

/*
 * A holder on the first CPU takes the lock (under PREEMPT_RT a hog there
 * waits for that), and a timer on the second calls kft_test_bh_locked.
 * The threads and the timer are waited for: the module's code stays until
 * they are done.
 */
static int kft_test_bh_lock(unsigned int ms)
{
	unsigned int cpu = cpumask_first(cpu_online_mask);
	struct kft_test_bh bh = { .ms = ms, .other = cpumask_next(cpu, cpu_online_mask) };
	struct task_struct *holder, *hog = NULL;

	if (bh.other >= nr_cpu_ids)
		return -ENODEV;
	init_completion(&bh.taken);
	WRITE_ONCE(kft_test_bh_locking, false);
	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		hog = kft_test_bh_thread(kft_test_bh_hog, &bh, cpu, true);
		if (!hog)
			return -ENOMEM;
	}
	holder = kft_test_bh_thread(kft_test_bh_holder, &bh, cpu, false);
	if (!holder) {
		if (hog) {
			/* The hog's wait ends. */
			complete_all(&bh.taken);
			kft_test_bh_join(hog);
		}
		return -ENOMEM;
	}
	/* A thread stopped before it first ran would never run its function. */
	wait_for_completion(&bh.taken);
	if (hog)
		kft_test_bh_join(hog);
	kft_test_bh_join(holder);
	timer_delete_sync(&kft_test_bh_timer);
	return 0;
}

static noinline void kft_test_start_marker(void)
{
	barrier();
}

static noinline void kft_test_stop_marker(void)
{
	barrier();
}

static noinline void kft_test_nokprobe_marker(void)
{
	barrier();
}
NOKPROBE_SYMBOL(kft_test_nokprobe_marker);

/* Each level holds 1 KiB of stack, so that depths are easy to see. */
static noinline void kft_test_recurse(unsigned int depth)
{
	char frame[1024];

	/* The frame is used before and after the call: it stays on the stack. */
	memset(frame, depth, sizeof(frame));
	barrier_data(frame);
	if (depth > 1)
		kft_test_recurse(depth - 1);
	else
		kft_test_leaf();
	barrier_data(frame);
}

static noinline void kft_test_hot_loop(u64 ns)
{
	u64 start = ktime_get_mono_fast_ns();
	unsigned long spin = 0;

	do {
		while (++spin & 65535)
			barrier();
	} while (ktime_get_mono_fast_ns() - start < ns &&
		 !fatal_signal_pending(current));
}

struct kft_test_irq {
	struct irq_work work;
	struct completion done;
	void (*fn)(void);
	unsigned int depth;		/* fn NULL: kft_test_recurse(depth) */
};

static void kft_test_irq_fn(struct irq_work *work)
{
	struct kft_test_irq *t = container_of(work, struct kft_test_irq, work);

	if (t->fn)
		t->fn();
	else
		kft_test_recurse(t->depth);
	complete(&t->done);
}

/* Runs fn (or a recursion depth deep) in hard interrupt context, waits. */
static void kft_test_in_irq(void (*fn)(void), unsigned int depth)
{
	struct kft_test_irq t = { .fn = fn, .depth = depth };

	init_completion(&t.done);
	t.work = IRQ_WORK_INIT_HARD(kft_test_irq_fn);
	irq_work_queue(&t.work);
	wait_for_completion(&t.done);
	irq_work_sync(&t.work);
}

static noinline void kft_test_warn_inner(void)
{
	WARN_ON_ONCE(1);
}

static noinline void kft_test_warn_outer(void)
{
	kft_test_leaf();
	kft_test_warn_inner();
}

static noinline void kft_test_panic_inner(void)
{
	panic("kft_test: a panic on purpose");
}

static noinline void kft_test_panic_outer(void)
{
	kft_test_leaf();
	kft_test_panic_inner();
}

/*
 * Interrupts stay on: the soft-lockup watchdog's timer on this CPU finds
 * it (QEMU's TCG has no PMU for the hard-lockup one, which would find a
 * CPU spinning with interrupts off).
 */
static noinline void kft_test_hang_inner(void)
{
	preempt_disable();
	for (;;)
		cpu_relax();
}

static noinline void kft_test_hang_outer(void)
{
	kft_test_leaf();
	kft_test_hang_inner();
}

static const struct {
	const char *name;
	void (*fn)(void);
	bool in_irq;
} kft_test_calls[] = {
	{ "leaf", kft_test_leaf, false },
	{ "busy_20us", kft_test_busy_20us, false },
	{ "busy_2ms", kft_test_busy_2ms, false },
	{ "outer", kft_test_outer, false },
	{ "start_marker", kft_test_start_marker, false },
	{ "stop_marker", kft_test_stop_marker, false },
	{ "nokprobe_marker", kft_test_nokprobe_marker, false },
	{ "sleep", kft_test_sleep, false },
	{ "lock_root", kft_test_lock_root, false },
	{ "panic", kft_test_panic_outer, false },
	{ "hang", kft_test_hang_outer, false },
	{ "warn", kft_test_warn_outer, false },
	{ "irq_leaf", kft_test_leaf, true },
	{ "irq_busy_20us", kft_test_busy_20us, true },
	{ "notrace_leaf", kft_test_notrace_leaf, false },
	{ "irq_notrace_leaf", kft_test_notrace_leaf, true },
};

/*
 * Return values of known types: each function keeps its signature and its
 * name (noipa: without it GCC made kft_test_ret_u32.isra.0, a clone that
 * returns nothing, since the caller drops the value), and the caller keeps
 * the value (kft_test_sink). An int is returned in the lower half of the
 * return register (a 32-bit move zeroes the upper half), a long sign-
 * extended. The pointers point to a type (not void), so that ksnoop, which
 * shows a value by its BTF type, shows them (peer_retval).
 */
static unsigned long kft_test_sink;

static noinline __attribute__((__noipa__)) int kft_test_err_inner(int err)
{
	barrier();
	return err;
}

static noinline __attribute__((__noipa__)) int kft_test_err_middle(int err)
{
	int ret = kft_test_err_inner(err);

	barrier();
	return ret;
}

static noinline __attribute__((__noipa__)) long kft_test_err_outer(int err)
{
	long ret = kft_test_err_middle(err);

	barrier();
	return ret;
}

static noinline __attribute__((__noipa__)) unsigned long *kft_test_ret_errptr(int err)
{
	barrier();
	return ERR_PTR(err);
}

static noinline __attribute__((__noipa__)) unsigned int kft_test_ret_u32(unsigned int below)
{
	barrier();
	return 0xffffffffU - below;
}

static noinline __attribute__((__noipa__)) const unsigned long *kft_test_ret_ptr(void)
{
	const unsigned long *p = (const unsigned long *)kft_test_leaf;

	OPTIMIZER_HIDE_VAR(p);
	return p;
}

static noinline __attribute__((__noipa__)) unsigned int kft_test_seq(unsigned int i)
{
	barrier();
	return i;
}

static noinline __attribute__((__noipa__)) unsigned int kft_test_seq_loop(unsigned int n)
{
	unsigned int i;

	for (i = 1; i <= n; i++) {
		WRITE_ONCE(kft_test_sink, kft_test_seq(i));
		if (!(i & 1023))
			cond_resched();
	}
	return n;
}

/*
 * args: eight arguments the caller chooses, more than any architecture
 * passes in registers (x86-64 and arm64 six and eight, 32-bit ARM four,
 * riscv64 eight), so that a test can check the first ones kft keeps.
 */
static noinline __attribute__((__noipa__)) unsigned long
kft_test_args(unsigned long a, unsigned long b, unsigned long c, unsigned long d,
	      unsigned long e, unsigned long f, unsigned long g, unsigned long h)
{
	barrier();
	return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h;
}

/* "args A B C D E F G H" (hex): one call of kft_test_args() with them. */
static int kft_test_args_cmd(const char *text)
{
	unsigned long v[8];

	if (sscanf(text, "%lx %lx %lx %lx %lx %lx %lx %lx", &v[0], &v[1], &v[2], &v[3], &v[4],
		   &v[5], &v[6], &v[7]) != 8)
		return -EINVAL;
	WRITE_ONCE(kft_test_sink, kft_test_args(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]));
	return 0;
}

/*
 * args string: a kernel string, the same string in the writer's memory and
 * a NULL pointer, so that a test can compare kft's copy of each with the
 * kernel's own kprobe events' fetch of it.
 */
static noinline __attribute__((__noipa__)) size_t
kft_test_str(const char *kstr, const char __user *ustr, const char *none)
{
	barrier();
	return strlen(kstr) + !ustr + !none;
}

/*
 * "str TEXT" and a NUL, written at once (the NUL ends the writer's copy:
 * kft_test_str() is given it as a user string).
 */
static int kft_test_str_cmd(const char *buf, const char __user *ubuf, size_t count)
{
	if (count < 5 || buf[count - 1] != '\0')
		return -EINVAL;
	WRITE_ONCE(kft_test_sink, kft_test_str(buf + 4, ubuf + 4, NULL));
	return 0;
}

/*
 * A string at a page's end, for the reads of args string and of a string
 * filter that cross pages: kft_test_str_page() is given the string and
 * leaves its bytes alone (one of them has no NUL).
 */
static noinline __attribute__((__noipa__)) int kft_test_str_page(const char *kstr)
{
	barrier();
	return 0;
}

/*
 * "strpage K TEXT": TEXT and its NUL laid so that their last K bytes are
 * on a second page of a vmalloc() area; K = 0: they end the area's only
 * page, before the guard page vmalloc() leaves unmapped; K = -1: TEXT
 * without its NUL ends that page.
 */
static int kft_test_str_page_cmd(char *text)
{
	int k, off = 0, len, pages;
	char *area, *s;

	if (sscanf(text, "%d %n", &k, &off) != 1 || !off)
		return -EINVAL;
	text += off;
	len = strlen(text) + (k >= 0);
	if (k < -1 || k >= len || len > PAGE_SIZE)
		return -EINVAL;
	pages = k > 0 ? 2 : 1;
	area = vmalloc(pages * PAGE_SIZE);
	if (!area)
		return -ENOMEM;
	s = area + PAGE_SIZE + max(k, 0) - len;
	memcpy(s, text, len);
	WRITE_ONCE(kft_test_sink, kft_test_str_page(s));
	vfree(area);
	return 0;
}

/*
 * filter roots with args string: a root of a string argument whose tree is
 * @n calls of kft_test_str(), each with a string of its own ("TEXT.1",
 * "TEXT.2", ...), so that a test can tell which of them a cut slot kept
 * and whether each kept its own string. It returns @err, for roots judged
 * by filter errors.
 */
static noinline __attribute__((__noipa__)) long
kft_test_str_tree(const char *text, unsigned int n, int err)
{
	char each[80];
	unsigned int i;

	for (i = 1; i <= n; i++) {
		snprintf(each, sizeof(each), "%s.%u", text, i);
		WRITE_ONCE(kft_test_sink, kft_test_str(each, NULL, NULL));
	}
	return err;
}

/* "strtree N ERR TEXT": one call of kft_test_str_tree() with them (TEXT to the line's end). */
static int kft_test_str_tree_cmd(char *text)
{
	unsigned int n;
	int err, off = 0;

	if (sscanf(text, "%u %d %n", &n, &err, &off) != 2 || !off || n > 1000 ||
	    err > 0 || err < -MAX_ERRNO)
		return -EINVAL;
	WRITE_ONCE(kft_test_sink, kft_test_str_tree(strim(text + off), n, err));
	return 0;
}

/*
 * args string read at a call's exit: a call that fills its buffer
 * argument, which holds "empty" at its entry and "filled" when it returns
 * @err, so that a test tells a copy made at the entry from one made at
 * the exit.
 */
#define KFT_TEST_FILL_LEN	8

static noinline __attribute__((__noipa__)) long kft_test_str_fill(char *buf, int err)
{
	strscpy(buf, "filled", KFT_TEST_FILL_LEN);
	return err;
}

/* "strfill ERR": one call of kft_test_str_fill() with a buffer of "empty". */
static int kft_test_str_fill_cmd(const char *text)
{
	char buf[KFT_TEST_FILL_LEN] = "empty";
	int err;

	if (kstrtoint(text, 10, &err) || err > 0 || err < -MAX_ERRNO)
		return -EINVAL;
	WRITE_ONCE(kft_test_sink, kft_test_str_fill(buf, err));
	return 0;
}

/* The colors kft_test_typed() takes: an enumeration, one of them negative. */
enum kft_test_color { KFT_TEST_RED, KFT_TEST_GREEN = 5, KFT_TEST_BLUE = -3 };

/*
 * args struct: a struct of each kind of member a typed reader prints, laid
 * out alike on every architecture kft runs on (24 bytes, 4-aligned), so
 * that a test knows its bytes: 44332211 feff 01 8d fdffffff 07000000
 * 08000000 0100 0200.
 */
struct kft_test_pair {
	u32 id;
	s16 delta;
	bool on;
	u8 small : 3;
	u8 big : 5;
	enum kft_test_color color;
	u32 words[2];
	struct {
		u16 a;
		u16 b;
	} inner;
};

static const struct kft_test_pair kft_test_pair_value = {
	.id = 0x11223344, .delta = -2, .on = true, .small = 5, .big = 17,
	.color = KFT_TEST_BLUE, .words = { 7, 8 }, .inner = { 1, 2 },
};

static noinline __attribute__((__noipa__)) int kft_test_struct(const struct kft_test_pair *p)
{
	barrier();
	return p ? p->small : -EFAULT;
}

/* "struct pair": the struct above; "struct null": a NULL pointer, a fault. */
static int kft_test_struct_cmd(const char *what)
{
	if (sysfs_streq(what, "pair"))
		WRITE_ONCE(kft_test_sink, kft_test_struct(&kft_test_pair_value));
	else if (sysfs_streq(what, "null"))
		WRITE_ONCE(kft_test_sink, kft_test_struct(NULL));
	else
		return -EINVAL;
	return 0;
}

static const char kft_test_typed_name[] = "kft typed";

/*
 * A function of one parameter of each kind kd --types prints (an int, an
 * enumeration, a bool, a string, a pointer) and an int's return value;
 * noipa: its arguments are in the registers the ABI says.
 */
static noinline __attribute__((__noipa__)) int
kft_test_typed(int n, enum kft_test_color color, bool ok, const char *name, void *p)
{
	barrier();
	return ok ? n + 1000 : -EINVAL;
}

/* "typed N COLOR OK": one call of kft_test_typed() with them. */
static int kft_test_typed_cmd(const char *text)
{
	int n, color, ok;

	if (sscanf(text, "%d %d %d", &n, &color, &ok) != 3)
		return -EINVAL;
	WRITE_ONCE(kft_test_sink, kft_test_typed(n, color, ok, kft_test_typed_name,
						 (void *)kft_test_typed_name + 4));
	return 0;
}

/*
 * A 64-bit parameter between two ints, and a 64-bit value returned: on
 * 32-bit ARM (AAPCS) @b takes the pair r2:r3, r1 left unused, @c goes on
 * the stack, and the value returned is r0:r1.
 */
static noinline __attribute__((__noipa__)) u64 kft_test_wide(int a, u64 b, int c)
{
	barrier();
	return b + c;
}

/* "wide A B C" (B in hex): one call of kft_test_wide() with them. */
static int kft_test_wide_cmd(const char *text)
{
	unsigned long long b;
	int a, c;

	if (sscanf(text, "%d %llx %d", &a, &b, &c) != 3)
		return -EINVAL;
	WRITE_ONCE(kft_test_sink, (unsigned long)kft_test_wide(a, b, c));
	return 0;
}

static noinline void kft_test_oops_inner(void)
{
	int *p = NULL;

	OPTIMIZER_HIDE_VAR(p);
	WRITE_ONCE(*p, 1);
}

static noinline void kft_test_oops_outer(void)
{
	kft_test_leaf();
	kft_test_oops_inner();
}

static int kft_test_oops_thread(void *arg)
{
	kft_test_oops_outer();
	return 0;
}

static int kft_test_oops(void)
{
	struct task_struct *t = kthread_run(kft_test_oops_thread, NULL, "kft_test_oops");

	return IS_ERR(t) ? PTR_ERR(t) : 0;
}

/* The oops of oops_exiting, once a load (its work is queued once). */
static struct callback_head kft_test_exiting_work;
static atomic_t kft_test_exiting_used = ATOMIC_INIT(0);

static void kft_test_exiting_oops(struct callback_head *work)
{
	kft_test_oops_outer();
}

/*
 * A kernel thread's task work runs in do_exit(), after the thread has left
 * its namespaces (current->nsproxy is NULL): where a driver's release runs
 * when a process exits with a file open.
 */
static int kft_test_exiting_thread(void *arg)
{
	init_task_work(&kft_test_exiting_work, kft_test_exiting_oops);
	return task_work_add(current, &kft_test_exiting_work, TWA_NONE);
}

static int kft_test_oops_exiting(void)
{
	struct task_struct *t;

	if (atomic_xchg(&kft_test_exiting_used, 1))
		return -EBUSY;
	t = kthread_run(kft_test_exiting_thread, NULL, "kft_test_exiting");
	return IS_ERR(t) ? PTR_ERR(t) : 0;
}

/*
 * Damage to the kft region (log_persistent.tc): "region ADDR OP ARGS", ADDR
 * the region's physical address (/proc/kft_last_boot's first line):
 *   flip OFFSET		a byte inverted
 *   write OFFSET TEXT	TEXT's bytes (no NUL) written there
 *   fill			the header's page overwritten with 0x5a
 *   recrc OFFSET LEN	the first LEN bytes' CRC-32 (the u32 at OFFSET
 *			taken as 0) written at OFFSET, as kft seals a header
 * OFFSET below 1 MiB; fill and recrc within the first page.
 * The test knows kft's layout (Documentation/kft.rst): this module does not.
 */
static int kft_test_region(const char *buf)
{
	unsigned long long addr;
	unsigned int off = 0, len = 0;
	char op[8], text[40] = "";
	u8 *p;
	u32 crc;

	if (sscanf(buf, "region %llx %7s %u %39s", &addr, op, &off, text) < 2)
		return -EINVAL;
	if (off >= SZ_1M)
		return -EINVAL;
	/* The page OFFSET is in; OFFSET from then on is into it. */
	p = memremap(addr + round_down(off, PAGE_SIZE), PAGE_SIZE, MEMREMAP_WB);
	if (!p)
		return -ENOMEM;
	off %= PAGE_SIZE;
	if (!strcmp(op, "flip")) {
		p[off] ^= 0xff;
	} else if (!strcmp(op, "write")) {
		memcpy(p + off, text, min_t(size_t, strlen(text), PAGE_SIZE - off));
	} else if (!strcmp(op, "fill")) {
		memset(p, 0x5a, PAGE_SIZE);
	} else if (!strcmp(op, "recrc") && !kstrtouint(text, 10, &len) && len <= PAGE_SIZE &&
		   len >= 4 && off <= len - 4) {
		crc = 0;
		memcpy(p + off, &crc, sizeof(crc));
		crc = ~crc32_le(~0U, p, len);
		memcpy(p + off, &crc, sizeof(crc));
	} else {
		memunmap(p);
		return -EINVAL;
	}
	memunmap(p);
	return 0;
}

/* The calls whose COUNT is an argument, not a repeat count. */
static int kft_test_with_arg(const char *name, unsigned int n)
{
	if (!strcmp(name, "hot_ms")) {
		if (n > 60000)
			return -EINVAL;
		kft_test_hot_loop((u64)n * NSEC_PER_MSEC);
		return 0;
	}
	if (!strcmp(name, "naps")) {
		if (n > 1000)
			return -EINVAL;
		kft_test_naps(n);
		return 0;
	}
	if (!strcmp(name, "nap")) {
		if (n > 60000)
			return -EINVAL;
		kft_test_nap(n);
		return 0;
	}
	if (!strcmp(name, "spin_poked")) {
		if (n > 20000)
			return -EINVAL;
		/* Before the call: a poke once it is in there is never lost. */
		WRITE_ONCE(kft_test_poked, false);
		kft_test_spin_poked(n, READ_ONCE(kft_test_pokes));
		return 0;
	}
	if (!strcmp(name, "poll_poked")) {
		WRITE_ONCE(kft_test_poked, false);
		kft_test_poll_poked();
		return 0;
	}
	if (!strcmp(name, "nap_poked")) {
		if (n > 60000)
			return -EINVAL;
		/* Before the call, as for spin_poked. */
		WRITE_ONCE(kft_test_poked, false);
		kft_test_nap_poked(n);
		return 0;
	}
	if (!strcmp(name, "doze_poked")) {
		if (n < 1 || n > 10000)
			return -EINVAL;
		WRITE_ONCE(kft_test_poked, false);
		kft_test_doze_poked(n);
		return 0;
	}
	if (!strcmp(name, "poke")) {
		WRITE_ONCE(kft_test_pokes, kft_test_pokes + 1);
		WRITE_ONCE(kft_test_poked, true);
		wake_up(&kft_test_poke_wait);
		return 0;
	}
	if (!strcmp(name, "spin_nap")) {
		if (n > 20000)
			return -EINVAL;
		kft_test_spin_nap(n);
		return 0;
	}
	if (!strcmp(name, "busy_us")) {
		if (n < 1 || n > 1000000)
			return -EINVAL;
		kft_test_busy_us(n);
		return 0;
	}
	if (!strcmp(name, "slow_root")) {
		if (n > 100000)
			return -EINVAL;
		kft_test_slow_root(n);
		return 0;
	}
	if (!strcmp(name, "lock_wait"))
		return n > 20000 ? -EINVAL : kft_test_lock_wait(n);
	if (!strcmp(name, "bh_lock")) {
		int ret;

		if (n < 1 || n > 1000)
			return -EINVAL;
		mutex_lock(&kft_test_bh_mutex);
		ret = kft_test_bh_lock(n);
		mutex_unlock(&kft_test_bh_mutex);
		return ret;
	}
	if (!strcmp(name, "kprobe"))
		return kft_test_kprobe_set(n);
	if (!strcmp(name, "err_chain") || !strcmp(name, "ret_errptr")) {
		if (n > MAX_ERRNO)
			return -EINVAL;
		if (name[0] == 'e')
			WRITE_ONCE(kft_test_sink, kft_test_err_outer(-(int)n));
		else
			WRITE_ONCE(kft_test_sink, (unsigned long)kft_test_ret_errptr(-(int)n));
		return 0;
	}
	if (!strcmp(name, "seq")) {
		WRITE_ONCE(kft_test_sink, kft_test_seq_loop(n));
		return 0;
	}
	if (!strcmp(name, "oops"))
		return kft_test_oops();
	if (!strcmp(name, "oops_exiting"))
		return kft_test_oops_exiting();
	if (!strcmp(name, "ret_u32")) {
		WRITE_ONCE(kft_test_sink, kft_test_ret_u32(n));
		return 0;
	}
	if (!strcmp(name, "ret_ptr")) {
		WRITE_ONCE(kft_test_sink, (unsigned long)kft_test_ret_ptr());
		return 0;
	}
	if (!strcmp(name, "irq_recurse")) {
		/* The IRQ stack is 16 KiB on x86_64: stay well inside it. */
		if (n < 1 || n > 8)
			return -EINVAL;
		kft_test_in_irq(NULL, n);
		return 0;
	}
	/* 16 KiB of task stack, a few used by the write() that got here. */
	if (n < 1 || n > 10)
		return -EINVAL;
	kft_test_recurse(n);
	return 0;
}

static ssize_t kft_test_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[192], name[32];
	unsigned int n = 1, i, k;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (!strncmp(buf, "region ", 7))
		return kft_test_region(buf) ?: count;
	if (!strncmp(buf, "args ", 5))
		return kft_test_args_cmd(buf + 5) ?: count;
	if (!strncmp(buf, "str ", 4))
		return kft_test_str_cmd(buf, ubuf, count) ?: count;
	if (!strncmp(buf, "strpage ", 8))
		return kft_test_str_page_cmd(buf + 8) ?: count;
	if (!strncmp(buf, "strtree ", 8))
		return kft_test_str_tree_cmd(buf + 8) ?: count;
	if (!strncmp(buf, "strfill ", 8))
		return kft_test_str_fill_cmd(buf + 8) ?: count;
	if (!strncmp(buf, "typed ", 6))
		return kft_test_typed_cmd(buf + 6) ?: count;
	if (!strncmp(buf, "struct ", 7))
		return kft_test_struct_cmd(buf + 7) ?: count;
	if (!strncmp(buf, "wide ", 5))
		return kft_test_wide_cmd(buf + 5) ?: count;
	if (!strncmp(buf, "kprobe_at ", 10))
		return kft_test_kprobe_at(buf + 10) ?: count;
	if (sysfs_streq(buf, "ucopy"))
		return kft_test_ucopy(ubuf) ?: count;
	if (sscanf(buf, "%31s %u", name, &n) < 1 || n > 1000000)
		return -EINVAL;
	if (!strcmp(name, "recurse") || !strcmp(name, "irq_recurse") ||
	    !strcmp(name, "hot_ms") || !strcmp(name, "nap") || !strcmp(name, "spin_nap") ||
	    !strcmp(name, "naps") ||
	    !strcmp(name, "err_chain") || !strcmp(name, "ret_errptr") || !strcmp(name, "ret_u32") ||
	    !strcmp(name, "ret_ptr") || !strcmp(name, "spin_poked") || !strcmp(name, "poke") ||
	    !strcmp(name, "poll_poked") || !strcmp(name, "nap_poked") || !strcmp(name, "doze_poked") ||
	    !strcmp(name, "busy_us") || !strcmp(name, "slow_root") || !strcmp(name, "lock_wait") ||
	    !strcmp(name, "bh_lock") ||
	    !strcmp(name, "seq") || !strcmp(name, "oops") || !strcmp(name, "oops_exiting") ||
	    !strcmp(name, "kprobe"))
		return kft_test_with_arg(name, n) ?: count;
	for (i = 0; i < ARRAY_SIZE(kft_test_calls); i++) {
		if (strcmp(name, kft_test_calls[i].name))
			continue;
		for (k = 0; k < n; k++) {
			if (kft_test_calls[i].in_irq)
				kft_test_in_irq(kft_test_calls[i].fn, 0);
			else
				kft_test_calls[i].fn();
			cond_resched();
		}
		return count;
	}
	return -ENOENT;
}

static const struct proc_ops kft_test_ops = {
	.proc_write = kft_test_write,
};

static int __init kft_test_init(void)
{
	timer_setup(&kft_test_bh_timer, kft_test_bh_fn, 0);
	return proc_create("kft_test", 0200, NULL, &kft_test_ops) ? 0 : -ENOMEM;
}

static void __exit kft_test_exit(void)
{
	remove_proc_entry("kft_test", NULL);
#ifdef CONFIG_KPROBES
	if (kft_test_kprobe_on)
		kft_test_kprobe_set(0);
#endif
}

module_init(kft_test_init);
module_exit(kft_test_exit);

MODULE_DESCRIPTION("Functions of known duration for kft's tests");
MODULE_LICENSE("GPL");
