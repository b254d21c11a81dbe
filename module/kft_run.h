/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A logging run: its configuration, state machine, hooks, counters and log.
 *
 * States (run->state):
 *	CONFIGURED --prime--> PRIMED --start trigger--> RUNNING --stop--> COMPLETE
 *	`start` goes to RUNNING from CONFIGURED or PRIMED; with autorepeat a stop
 *	trigger (not log full, not the `stop` command) goes back to PRIMED.
 * Every change of state goes through kft_state_move() (a compare-and-swap),
 * from any context; the ones into PRIMED and COMPLETE by command also hold
 * kft_mutex. KFT_DEAD is final: it is set by kft_run_destroy() with an
 * exchange and is the "from" of no transition, so a stop or start already
 * under way can never bring a dying run back.
 *
 * Generations: each prime starts a new generation (run->gen). A call
 * remembers the generation it entered in; its exit does nothing in another
 * one. A task asleep in a traced function across a prime therefore never
 * writes into the new log (its record slot may belong to another call by
 * then). Generations are unique across runs, not only within one: a run
 * may be allocated where a freed one was, and fprobe on fgraph hands the
 * exit of a call that entered under the freed run's fprobe to whatever
 * fprobe is registered at the same address then.
 */
#ifndef KFT_RUN_H
#define KFT_RUN_H

#include <linux/atomic.h>
#include <linux/ftrace.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kref.h>
#include <asm/local64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>

#include "kft_arch.h"
#include "kft_argf.h"
#include "kft_argstr.h"
#include "kft_clock.h"
#include "kft_compat.h"
#include "kft_config.h"
#include "kft_count_table.h"
#include "kft_exit.h"
#include "kft_exited.h"
#include "kft_hold.h"
#include "kft_sched.h"
#include "kft_log.h"
#include "kft_own.h"
#include "kft_snoop.h"
#include "kft_stack.h"
#include "kft_task.h"
#include "kft_trigger.h"
#include "kft_watch.h"

struct kft_mode;

/*
 * Histogram mode's buckets a function: bucket b counts the calls that took
 * 2^b to 2^(b+1) - 1 units (bucket 0: 0 and 1), the last one every longer
 * call (2^39 ns: 9 minutes), as libbpf-tools' funclatency counts them.
 */
#define KFT_HIST_BUCKETS	40

enum kft_state {
	KFT_CONFIGURED,
	KFT_PRIMED,
	KFT_RUNNING,
	KFT_STOPPING,		/* transient: a stop is being recorded */
	KFT_COMPLETE,
	KFT_DEAD,		/* being torn down: hooks do nothing */
};

enum kft_reason {
	KFT_REASON_NONE,
	KFT_REASON_USER,	/* the start or stop command */
	KFT_REASON_TIME,
	KFT_REASON_ENTRY,
	KFT_REASON_EXIT,
	KFT_REASON_LOG_FULL,
	KFT_REASON_BOOT,	/* the static run, started by kft's initcall */
	KFT_REASON_OOPS,	/* log ring: frozen at an oops (kft_flight.c) */
	KFT_REASON_PANIC,	/* log ring: frozen at a panic */
	KFT_REASON_WARN,	/* log ring: frozen at a warning (kft_warn_trigger_attach()) */
};

/*
 * Per-CPU, summed when read (kft_run_sum_counters(): unsigned longs, then
 * the 64-bit counts after them).
 */
struct kft_counters {
	unsigned long filtered_time;	/* failed mintime/maxtime */
	unsigned long filtered_ints;	/* failed noints/onlyints */
	unsigned long filtered_task;	/* failed filter pid/tid/cpu/comm */
	unsigned long filtered_retval;	/* failed filter errors */
	unsigned long filtered_args;	/* failed filter arg */
	unsigned long argf_reads;	/* filter arg: strings copied to be compared */
	unsigned long not_found;	/* exits whose entry was before the start */
	unsigned long table_full;	/* count, stacks, profile: no slot left */
	unsigned long stack_busy;	/* a capture already under way here */
	unsigned long stacks_truncated;	/* deeper than KFT_STACK_MAX_DEPTH */
	unsigned long idle_skipped;	/* profile: samples of the idle task */
	unsigned long snoop_lost;	/* stacks with snoop: ring full */
	unsigned long watch_skipped;	/* watch: on an NMI or exception stack */
	unsigned long watch_snapshots;
	unsigned long slow_unwinds;	/* stacks: no entry registers from ftrace */
	unsigned long roots_kept;	/* filter roots: subtrees logged */
	unsigned long hold_cut;		/* their calls that did not fit the holding */
	unsigned long hold_missed;	/* root calls not held: no free slot */
	unsigned long sched_missed;	/* offcpu: calls of a task with no free slot */
	unsigned long wakes_held;	/* wakers: wakeups written into held trees */
	/*
	 * log ring: a slot still being written or closed; stream: no room.
	 * 64 bits on every kernel: a stream's losses are told whole, and a
	 * long stream on a 32-bit board can lose 2^32 calls.
	 */
	local64_t ring_skipped;
};

/* What each mode keeps in its run (kft_mode_*.c): */

/* count: the entry hook */
struct kft_counter {
	struct ftrace_ops ops;
	bool attached;
};

/* stacks: the entry hook */
struct kft_stacker {
	struct ftrace_ops ops;
	bool attached;
};

/* profile: a timer per CPU */
struct kft_profile_cpu {
	struct hrtimer timer;
	struct kft_run *run;
};

struct kft_profiler {
	struct kft_profile_cpu __percpu *cpus;
	struct hlist_node cpuhp;	/* in the hotplug state's instances */
	u64 period_ns;
	bool attached;
};

/* What the log header shows, copied when a reader opens /proc/kft_data. */
struct kft_run_times {
	s64 mono_offset_ns;		/* CLOCK_MONOTONIC - kft_now(), at prime */
	u64 first_start_ns;		/* row times are relative to this */
	u64 start_ns;
	u64 stop_ns;
	int start_reason;		/* enum kft_reason */
	int stop_reason;
	bool running;
	bool units_ns;			/* rows in ns (units ns), else us */
};

/* What a run dropped because a module it hooked was unloaded. */
struct kft_dropped {
	char module[MODULE_NAME_LEN];	/* the last such module */
	unsigned int functions;		/* traced functions no longer traced */
	enum kft_trigger_drop start_trigger;	/* the worst since the configuration */
	enum kft_trigger_drop stop_trigger;
	unsigned int argf;		/* filter arg statements whose function went */
};

/*
 * What a run's traced path does beyond recording into a linear log
 * (kft_hook_path.h): a ring's or a stream's log and nothing else (trace
 * mode), or more: filter arg (a test at entry), filter roots or offcpu
 * (per-task slots at entry and exit), args, with any log, a
 * histogram's per-arg (the registers kept from the entry to the exit),
 * or a stack watch (its snapshot's unwinding is kft's own, left out).
 */
enum kft_extras {
	KFT_EXTRAS_NONE,
	KFT_EXTRAS_RING,
	KFT_EXTRAS_STREAM,
	KFT_EXTRAS_MORE,
};

struct kft_run {
	struct kref ref;
	unsigned int id;
	const struct kft_mode *mode;	/* kft_mode.h: chosen at create */
	int state;			/* enum kft_state */
	u32 frozen;			/* the oops or panic that froze it, until a prime */
	u32 gen;			/* generation: a new one at every prime */
	u32 first_gen;			/* the run's first: earlier runs' are below it */

	/* The configuration; its strings point into text. */
	struct kft_config cfg;
	char *text;
	u64 mintime_ns;
	u64 maxtime_ns;
	bool log_at_entry;		/* no time filter: reserve at entry, show -1 */
	/*
	 * A time filter judges in kft_cycles() (kft_arch.h) when this is
	 * not 0: the calls' entries hold cycles, converted to ns when kept.
	 */
	u32 cycles_khz;
	u64 mintime_cycles;
	u64 maxtime_cycles;
	bool ctx_filter;		/* noints, onlyints or a task filter */
	bool task_filter;		/* filter pid, tid, cpu or comm (kft_task.h) */
	bool entry_quick;		/* cycles, no filter at entry: kft_hook_entry_quick() */
	bool histogram;			/* histogram mode: trace's hooks, counts in table */
	/*
	 * enum kft_extras: one test on each side for a run with none of
	 * them, and a path of its own for a ring's or a stream's log alone.
	 */
	u8 extras;
	/* extras but args: what an exit that a filter rejects must still see */
	bool exit_extras;
	/*
	 * Each call keeps its argument registers from its entry to its exit:
	 * args (for its record), or a histogram per-arg (for its slot's key).
	 */
	bool keep_args;
	/* log persistent: the run holds the kft region (kft_region_let_go()). */
	bool holds_region;
	/*
	 * Its hooks or probes do work that calls functions it may trace
	 * (kft_own.h): string reads at entries (args string or struct,
	 * filter arg's tests), wakers' unwinding.
	 */
	bool own_calls;

	/* Timeline, kft_now() ns. */
	struct kft_run_times times;
	/*
	 * 0: no time stop pending. Whole at every read: a 32-bit kernel's
	 * half-written deadline would read as one long past.
	 */
	atomic64_t stop_deadline_ns;
	unsigned int starts;		/* how many times it started (autorepeat) */

	struct kft_argf_set argf;	/* trace, histogram: filter arg's tests */
	struct kft_log log;		/* trace mode */
	struct kft_hold hold;		/* trace with filter roots */
	struct kft_sched sched;		/* trace with offcpu */
	struct kft_exited exited;	/* either: slots of freed tasks given back */
	/* What the trace hooks: cfg.funcs, then cfg.roots; 0: every function. */
	unsigned int nr_traced;
	struct kft_count_table table;	/* count mode; histogram: KFT_HIST_BUCKETS a slot */
	struct kft_stack_table stacks;	/* stacks, profile */
	struct kft_snoop snoop;		/* stacks with snoop */
	struct kft_watch watch;		/* trace with a watch */
	struct kft_counters __percpu *counters;

	/* Hooks, attached at install, active while primed or running. */
	struct kft_fhook trace;		/* trace mode */
	struct kft_counter counter;	/* count mode */
	struct kft_stacker stacker;	/* stacks mode */
	struct kft_profiler profiler;	/* profile mode */
	struct kft_fhook start_exit;
	struct kft_fhook stop_exit;
	struct kft_entry_trigger start_entry;
	struct kft_entry_trigger stop_entry;
	struct kft_entry_trigger warn_entry;	/* log ring: a warning freezes it */

	/*
	 * Time triggers: the hrtimer is armed from process or irq_work
	 * context, one arming at a time (timer_lock): each decides from the
	 * state it reads, and a state change queues an arming after it, so
	 * the last one to take the lock has read the newest state.
	 */
	struct hrtimer timer;
	struct irq_work timer_work;
	raw_spinlock_t timer_lock;

	struct kft_dropped dropped;

	/*
	 * A complete run lets go of its hooks (an idle hook still costs every
	 * call of every hooked function) and takes them again at prime.
	 */
	bool detached;
	struct work_struct detach_work;

	/*
	 * Dead, and no hook can write any more (set after the grace period
	 * that follows the detach): a /proc/kft_stream reader that saw it
	 * before taking has taken every call the log will ever have.
	 */
	bool quiet;
};

/**
 * kft_state_move() - the one way a run changes state
 * @run:	the run
 * @from:	the state it must be in
 * @to:	the new state
 *
 * Return: true if the run was in @from and is now in @to.
 */
static __always_inline bool kft_state_move(struct kft_run *run, int from, int to)
{
	return cmpxchg(&run->state, from, to) == from;
}

/*
 * The context and task filters, for a call made in an interrupt (@irq) or
 * in a task. Return: true to leave the call (counted).
 */
static __always_inline bool kft_run_context_refused(struct kft_run *run, bool irq)
{
	if (irq ? run->cfg.noints : run->cfg.onlyints) {
		this_cpu_inc(run->counters->filtered_ints);
		return true;
	}
	if (run->task_filter && !kft_task_wanted(&run->cfg)) {
		this_cpu_inc(run->counters->filtered_task);
		return true;
	}
	return false;
}

/* kft_state.c: the configuration's lock, and what runs in any context. */
extern struct mutex kft_mutex;
void kft_run_start(struct kft_run *run, enum kft_reason why);
bool kft_run_stop(struct kft_run *run, enum kft_reason why);
void kft_run_freeze(struct kft_run *run, enum kft_reason why);
void kft_run_sum_counters(struct kft_run *run, struct kft_counters *sum);

/* The calls a ring or stream lost (kft_counters' ring_skipped), read whole. */
static inline u64 kft_counters_skipped(const struct kft_counters *c)
{
	return (u64)local64_read(&c->ring_skipped);
}

/* kft_run.c: lifecycle, under kft_mutex. */
struct kft_run *kft_run_create(struct kft_run *old, char *text, const struct kft_config *cfg,
			       unsigned int id, struct kft_parse_error *err);
void kft_run_destroy(struct kft_run *run);
void kft_run_put(struct kft_run *run);
int kft_run_prime(struct kft_run *run, struct kft_parse_error *err);
int kft_run_force_start(struct kft_run *run, struct kft_parse_error *err);
int kft_run_force_stop(struct kft_run *run);
void kft_run_kill(struct kft_run *run);
enum kft_hooks kft_run_hooks_of(const struct kft_config *cfg);
int kft_run_init(void);
void kft_run_exit(void);
void kft_run_module_coming(struct kft_run *run, struct module *mod);
void kft_run_module_going(struct kft_run *run, struct module *mod);
void kft_run_module_live(struct kft_run *run, struct module *mod);

/*
 * A call that kft's own work for @run makes (kft_own.h: a string read, a
 * waker's unwinding): not the traced code's, so every mode leaves it
 * alone, neither judged nor counted. A filter arg statement that names
 * its function judges no other, and would let it through.
 */
static __always_inline bool kft_run_own_call(const struct kft_run *run)
{
	return unlikely(run->own_calls) && kft_own_now();
}

#endif
