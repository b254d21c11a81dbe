// SPDX-License-Identifier: GPL-2.0
/*
 * The installed run: at most one, replaced by the next configuration,
 * destroyed by `clear` and at module exit; its id counter; and the last
 * error, which /proc/kft shows (kft_current.h). All under kft_mutex.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "kft_current.h"
#include "kft_run.h"

struct kft_run *kft_current;
/*
 * The installed run if it is a ring (log ring), for the oops and panic
 * notifiers (kft_flight.c), which read it under RCU: a run is torn down
 * only a grace period after it is no longer here.
 */
struct kft_run __rcu *kft_flight_run;
static unsigned int kft_next_id = 1;
struct kft_parse_error kft_last_error;

/* An error of a write or of the boot's run: in the kernel log and /proc/kft. */
void kft_report(const struct kft_parse_error *err)
{
	lockdep_assert_held(&kft_mutex);
	kft_last_error = *err;
	pr_err("line %u, column %u: %s%s%s%s\n", err->pos.line, err->pos.col,
	       kft_parse_strerror(err->code), err->token[0] ? " '" : "",
	       err->token, err->token[0] ? "'" : "");
}

/**
 * kft_install_run() - a configured run becomes the current one
 * @text:	the configuration text; the run owns it and @cfg->funcs from
 *		now on, also on failure
 * @cfg:	the parsed configuration
 *
 * The run it replaces is torn down by a worker (kft_retire_run()): the
 * caller holds kft_mutex from kft_lock_settled(), and waits for that
 * worker after it lets go of the lock (kft_retire_wait()). An error is
 * reported (kft_report()).
 *
 * Return: the run, or an ERR_PTR.
 */
struct kft_run *kft_install_run(char *text, const struct kft_config *cfg)
{
	struct kft_parse_error err = { .code = KFT_ERR_NONE };
	struct kft_run *run;

	lockdep_assert_held(&kft_mutex);
	run = kft_run_create(kft_current, text, cfg, kft_next_id, &err);
	if (IS_ERR(run)) {
		/* A failure that names nothing in the text (no memory, the kernel's refusal). */
		if (err.code == KFT_ERR_NONE) {
			err.code = PTR_ERR(run) == -ENOMEM ? KFT_ERR_NO_MEMORY :
							     KFT_ERR_ATTACH_FAILED;
			err.pos = (struct kft_pos){ 1, 1 };
		}
		kft_report(&err);
		return run;
	}
	kft_next_id++;
	/* The replaced run is torn down as a cleared one is. */
	kft_retire_run();
	kft_current = run;
	if (cfg->mode == KFT_MODE_TRACE && cfg->log == KFT_LOG_RING)
		rcu_assign_pointer(kft_flight_run, run);
	return run;
}

/* No run installed any more (module exit). */
void kft_clear_run(void)
{
	lockdep_assert_held(&kft_mutex);
	if (rcu_access_pointer(kft_flight_run)) {
		RCU_INIT_POINTER(kft_flight_run, NULL);
		synchronize_rcu();
	}
	if (kft_current)
		kft_run_destroy(kft_current);
	kft_current = NULL;
}

/*
 * A cleared or replaced run is torn down by a worker. Detaching waits for
 * ftrace, and
 * ftrace waits for every task to pass a voluntary context switch before it
 * frees a module's ops (synchronize_rcu_tasks()): as long as some task
 * busy-polls in the kernel (an io_uring SQPOLL thread), in an
 * uninterruptible sleep. The writer of `clear` or of the replacement, and
 * the next command, wait for it in a sleep a fatal signal ends
 * (kft_retire_wait(), kft_lock_settled()).
 */
static struct kft_run *kft_retiring;
static bool kft_retiring_flight;	/* it was kft_flight_run */
static DECLARE_WAIT_QUEUE_HEAD(kft_retired);

static void kft_retire_fn(struct work_struct *work)
{
	/* The notifiers that may still read it as kft_flight_run are done. */
	if (READ_ONCE(kft_retiring_flight))
		synchronize_rcu();
	mutex_lock(&kft_mutex);
	kft_run_destroy(kft_retiring);
	WRITE_ONCE(kft_retiring, NULL);
	mutex_unlock(&kft_mutex);
	wake_up_all(&kft_retired);
}
static DECLARE_WORK(kft_retire_work, kft_retire_fn);

/**
 * kft_retire_run() - uninstall the current run, its teardown to a worker
 *
 * The caller holds kft_mutex, from kft_lock_settled(): no other run is
 * being torn down.
 */
void kft_retire_run(void)
{
	lockdep_assert_held(&kft_mutex);
	if (!kft_current)
		return;
	kft_retiring_flight = rcu_access_pointer(kft_flight_run) == kft_current;
	RCU_INIT_POINTER(kft_flight_run, NULL);
	kft_run_kill(kft_current);
	kft_retiring = kft_current;
	kft_current = NULL;
	queue_work(system_long_wq, &kft_retire_work);
}

/**
 * kft_lock_settled() - kft_mutex, once no uninstalled run is being torn down
 *
 * What a command does (a new run's hooks above all) comes after the
 * teardown of the run cleared before it.
 *
 * Return: 0 with kft_mutex held, or -EINTR for a fatal signal.
 */
int kft_lock_settled(void)
{
	for (;;) {
		if (mutex_lock_killable(&kft_mutex))
			return -EINTR;
		if (!kft_retiring)
			return 0;
		mutex_unlock(&kft_mutex);
		if (wait_event_killable(kft_retired, !READ_ONCE(kft_retiring)))
			return -EINTR;
	}
}

/*
 * The writer of `clear` or of a replacement: until the run it uninstalled
 * is torn down, or it is killed (the worker then goes on alone). Without
 * kft_mutex. The command is done either way: a writer killed meanwhile
 * still returns success, as its run is installed or cleared already.
 */
void kft_retire_wait(void)
{
	wait_event_killable(kft_retired, !READ_ONCE(kft_retiring));
}

/* At module exit: the teardown of an uninstalled run is over. */
void kft_retire_flush(void)
{
	flush_work(&kft_retire_work);
}

/* The id of the run being torn down, or 0. Under kft_mutex. */
unsigned int kft_retiring_id(void)
{
	lockdep_assert_held(&kft_mutex);
	return kft_retiring ? kft_retiring->id : 0;
}
