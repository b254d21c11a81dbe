// SPDX-License-Identifier: GPL-2.0
/*
 * A run's life: created from a parsed configuration (memory, hooks), primed,
 * started and stopped by commands and triggers, destroyed by `clear`, by
 * the next configuration or by rmmod. All of it under kft_mutex, except the
 * transitions in kft_state.c, which happen in any context. What the run
 * collects and shows is its mode's (kft_mode.h); how it hooks exits, its
 * exit mechanism's (kft_exit.h).
 *
 * Time triggers use one hrtimer: while primed it waits for the start time
 * (absolute, since boot), while running for the stop time (relative to the
 * start). Starts and stops that happen in hooks queue an irq_work, which
 * (re)arms or cancels the timer from a context where that is safe.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kft_ftrace.h"
#include "kft_mode.h"
#include "kft_module.h"
#include "kft_region.h"
#include "kft_run.h"
#include "kft_symbol.h"
#include "kft_task.h"

/* The modes, by the language's enum kft_run_mode. */
static const struct kft_mode *const kft_modes[] = {
	[KFT_MODE_TRACE] = &kft_mode_trace,
	[KFT_MODE_COUNT] = &kft_mode_count,
	[KFT_MODE_STACKS] = &kft_mode_stacks,
	[KFT_MODE_PROFILE] = &kft_mode_profile,
	[KFT_MODE_HISTOGRAM] = &kft_mode_histogram,
};
static_assert(ARRAY_SIZE(kft_modes) == KFT_MODE_HISTOGRAM + 1);

static void kft_run_release(struct kref *ref)
{
	struct kft_run *run = container_of(ref, struct kft_run, ref);

	run->mode->free(run);
	free_percpu(run->counters);
	kvfree(run->cfg.funcs);
	kvfree(run->text);
	kfree(run);
}

/* Detaches complete runs; drained at module exit. */
static struct workqueue_struct *kft_wq;

/*
 * An idle hook still costs every call of the hooked functions; attaching
 * again at prime costs time (every function on 6.12: about 0.6 s of guest
 * time under emulation). Whoever primes an every-function run again and
 * again may prefer to keep the hooks.
 */
static bool detach_complete = true;
module_param(detach_complete, bool, 0644);
MODULE_PARM_DESC(detach_complete,
		 "take a complete run's hooks off until it is primed again (default: yes)");

/* Every run's generations, from one count (kft_run.h: unique across runs). */
static atomic_t kft_generations = ATOMIC_INIT(0);

/* A new generation of @run, after every one any run has had. */
static void kft_run_next_gen(struct kft_run *run)
{
	WRITE_ONCE(run->gen, (u32)atomic_inc_return(&kft_generations));
}

/*
 * The exit hooks of a trace run whose configuration says no "hooks": the
 * kernel's (safe: stack traces see through them, rmmod works during a run) unless
 * the machine's owner chose kft's own (fast) for every run
 * (Documentation/kft.rst, "hooks"). A stack watch always gets safe ones;
 * where the kernel has none (KFT_HAVE_SAFE_HOOKS), every run gets fast ones,
 * and a watch is refused.
 */
static char *hooks = "safe";
module_param(hooks, charp, 0444);
MODULE_PARM_DESC(hooks, "exit hooks of a trace run that names none: safe or fast (default: safe)");

/**
 * kft_run_hooks_of() - the exit hooks a configuration's run gets
 * @cfg:	the configuration
 *
 * Return: its own word's, or the default (module parameter hooks).
 */
enum kft_hooks kft_run_hooks_of(const struct kft_config *cfg)
{
	if (cfg->hooks != KFT_HOOKS_DEFAULT)
		return cfg->hooks;
	/* Where there are no safe ones, fast ones (a watch is then refused). */
	if (!KFT_HAVE_SAFE_HOOKS && cfg->watch == KFT_WATCH_NONE)
		return KFT_HOOKS_FAST;
	if (cfg->watch != KFT_WATCH_NONE || strcmp(hooks, "fast"))
		return KFT_HOOKS_SAFE;
	if (!KFT_HAVE_FAST_HOOKS) {
		pr_warn_once("hooks=fast: no fast hooks on this kernel, safe ones instead\n");
		return KFT_HOOKS_SAFE;
	}
	return KFT_HOOKS_FAST;
}

/*
 * Whether this kernel and architecture have the exit hooks @hooks: fast
 * ones need kft's trampoline, ftrace's DYNAMIC_FTRACE_WITH_ARGS (on
 * 32-bit ARM DYNAMIC_FTRACE_WITH_REGS and 5.18) and the function graph
 * tracer (KFT_HAVE_FAST_HOOKS), safe ones fprobe or a kretprobe at the
 * function's start (KFT_HAVE_SAFE_HOOKS). The error is
 * at the hooks statement, or at the watch that asked for safe ones.
 */
static int kft_hooks_here(const struct kft_config *cfg, enum kft_hooks hooks,
			  struct kft_parse_error *err)
{
	bool written = cfg->hooks != KFT_HOOKS_DEFAULT;

	if (hooks == KFT_HOOKS_FAST && !KFT_HAVE_FAST_HOOKS)
		err->code = !KFT_FAST_HOOKS_ARCH ? KFT_ERR_FAST_NOT_HERE :
			    !KFT_FAST_FTRACE_PASSES_REGS ?
			    (IS_ENABLED(CONFIG_ARM) ? KFT_ERR_FAST_NEEDS_REGS : KFT_ERR_FAST_NEEDS_ARGS) :
			    KFT_ERR_FAST_NEEDS_GRAPH;
	else if (hooks == KFT_HOOKS_SAFE && !KFT_HAVE_SAFE_HOOKS)
		err->code = KFT_ERR_SAFE_NOT_HERE;
	else
		return 0;
	err->pos = written ? cfg->hooks_pos : cfg->watch_pos;
	strscpy(err->token, written ? "hooks" : "watch", sizeof(err->token));
	return -EINVAL;
}

static void kft_run_detach(struct kft_run *run);

static void kft_timer_arm(struct kft_run *run)
{
	unsigned long flags;
	u64 deadline, now;
	int state;

	raw_spin_lock_irqsave(&run->timer_lock, flags);
	state = READ_ONCE(run->state);
	deadline = atomic64_read(&run->stop_deadline_ns);
	if (state == KFT_RUNNING && deadline) {
		now = kft_now();
		hrtimer_start(&run->timer, ns_to_ktime(deadline > now ? deadline - now : 0),
			      HRTIMER_MODE_REL);
	} else if (state == KFT_PRIMED && run->cfg.start.kind == KFT_TRIGGER_TIME) {
		hrtimer_start(&run->timer,
			      ns_to_ktime(run->cfg.start.time_us * NSEC_PER_USEC),
			      HRTIMER_MODE_ABS);
	} else {
		hrtimer_try_to_cancel(&run->timer);
	}
	raw_spin_unlock_irqrestore(&run->timer_lock, flags);
}

/*
 * After a stop: (re)arm the timer, and have a complete run's hooks taken
 * off from process context. The work holds a reference to the run.
 */
static void kft_timer_work(struct irq_work *work)
{
	struct kft_run *run = container_of(work, struct kft_run, timer_work);

	kft_timer_arm(run);
	if (READ_ONCE(run->state) != KFT_COMPLETE || READ_ONCE(run->detached) ||
	    !READ_ONCE(detach_complete))
		return;
	kref_get(&run->ref);
	if (!queue_work(kft_wq, &run->detach_work))
		kref_put(&run->ref, kft_run_release);
}

/* Under kft_mutex: a complete run's hooks off (again on the next prime). */
static void kft_run_detach_complete(struct kft_run *run)
{
	lockdep_assert_held(&kft_mutex);
	if (READ_ONCE(run->state) != KFT_COMPLETE || run->detached ||
	    !READ_ONCE(detach_complete))
		return;
	kft_run_detach(run);
	run->detached = true;
}

static void kft_run_detach_work(struct work_struct *work)
{
	struct kft_run *run = container_of(work, struct kft_run, detach_work);

	mutex_lock(&kft_mutex);
	kft_run_detach_complete(run);
	mutex_unlock(&kft_mutex);
	kft_run_put(run);
}

/*
 * The timer may have been armed for another round than the one it finds
 * (an exit's deadline check stopped a round, and a start trigger began the
 * next before the timer came): it acts only when its time has come, and
 * otherwise has itself armed again for the run as it is now.
 */
static enum hrtimer_restart kft_timer_fn(struct hrtimer *timer)
{
	struct kft_run *run = container_of(timer, struct kft_run, timer);
	u64 deadline;

	switch (READ_ONCE(run->state)) {
	case KFT_PRIMED:
		if (run->cfg.start.kind != KFT_TRIGGER_TIME)
			break;
		if (ktime_get_ns() < run->cfg.start.time_us * NSEC_PER_USEC)
			irq_work_queue(&run->timer_work);
		else
			kft_run_start(run, KFT_REASON_TIME);
		break;
	case KFT_RUNNING:
		deadline = atomic64_read(&run->stop_deadline_ns);
		if (!deadline)
			break;
		if (kft_now() < deadline)
			irq_work_queue(&run->timer_work);
		else
			kft_run_stop(run, KFT_REASON_TIME);
		break;
	}
	return HRTIMER_NORESTART;
}

void kft_run_put(struct kft_run *run)
{
	kref_put(&run->ref, kft_run_release);
}

/*
 * The trigger functions are checked before anything attaches, so that the
 * first mistake of a block is the one reported (triggers come first in
 * every sample of the language).
 */
static int kft_run_check_trigger(const struct kft_trigger *t,
				 struct kft_parse_error *err)
{
	struct ftrace_ops scratch = {};
	unsigned long addr;
	int ret;

	if (t->kind != KFT_TRIGGER_ENTRY && t->kind != KFT_TRIGGER_EXIT)
		return 0;
	ret = kft_ftrace_filter_add(&scratch, &t->func, &addr, err);
	ftrace_free_filter(&scratch);
	return ret;
}

/*
 * The function a filter arg statement names, into its test: where it
 * starts and how far in its ftrace call site may be (the call sites lie
 * at most KFT_FTRACE_SITE_MAX_OFFSET in, and never past its end, where
 * the next function's may), if ftrace can trace it; else an error at its
 * name.
 */
static int kft_run_argf_function(struct ftrace_ops *scratch, const struct kft_func_ref *f,
				 struct kft_argf_test *t, struct kft_parse_error *err)
{
	unsigned long addr = kft_lookup_symbol(f->text), off, size;
	int ret;

	if (!addr || kft_symbol_bounds(addr, &off, &size) || !size)
		return kft_func_error(err, KFT_ERR_UNKNOWN_FUNCTION, f);
	t->func = addr - off;
	t->func_sites = min_t(unsigned long, size - 1, KFT_FTRACE_SITE_MAX_OFFSET);
	ret = kft_ftrace_set_filter_ip(scratch, t->func, false);
	if (ret == -ENOMEM)
		return ret;
	return ret ? kft_func_error(err, KFT_ERR_UNKNOWN_FUNCTION, f) : 0;
}

/* The functions of the filter arg statements that name one, looked up. */
static int kft_run_resolve_argf(struct kft_run *run, struct kft_parse_error *err)
{
	const struct kft_config *cfg = &run->cfg;
	struct ftrace_ops scratch = {};
	unsigned int i;
	int ret = 0;

	for (i = 0; i < cfg->nr_argf && !ret; i++)
		if (cfg->argf[i].has_func)
			ret = kft_run_argf_function(&scratch, &cfg->argf[i].func,
						    &run->argf.tests[i], err);
	ftrace_free_filter(&scratch);
	return ret;
}

/* The exit triggers' hooks (none for other triggers). */
static int kft_run_attach_exit_triggers(struct kft_run *run, struct kft_parse_error *err)
{
	struct kft_config *cfg = &run->cfg;
	int ret;

	if (cfg->start.kind == KFT_TRIGGER_EXIT) {
		ret = kft_fhook_attach(&run->start_exit, run, KFT_HOOK_START_EXIT,
				       cfg->hooks == KFT_HOOKS_FAST, false, &cfg->start.func, 1, err);
		if (ret)
			return ret;
	}
	if (cfg->stop.kind == KFT_TRIGGER_EXIT) {
		ret = kft_fhook_attach(&run->stop_exit, run, KFT_HOOK_STOP_EXIT,
				       cfg->hooks == KFT_HOOKS_FAST, false, &cfg->stop.func, 1, err);
		if (ret) {
			kft_fhook_detach(&run->start_exit);
			return ret;
		}
	}
	return 0;
}

static void kft_run_detach_exit_triggers(struct kft_run *run)
{
	kft_fhook_detach(&run->stop_exit);
	kft_fhook_detach(&run->start_exit);
}

/*
 * What the hooks need before they attach: the triggers' functions checked,
 * the argument filters' functions and the roots found (each attach: a
 * module may have come back elsewhere).
 */
static int kft_run_resolve(struct kft_run *run, struct kft_parse_error *err)
{
	struct kft_config *cfg = &run->cfg;

	return kft_run_check_trigger(&cfg->start, err) ?:
	       kft_run_check_trigger(&cfg->stop, err) ?:
	       kft_run_resolve_argf(run, err) ?:
	       (cfg->nr_roots ? kft_hold_roots_find(&run->hold, cfg->roots, cfg->nr_roots, err) : 0);
}

/*
 * Hooks in the order that makes triggers run first at a shared entry, and
 * last at a shared exit (a traced stop function is logged before the stop).
 * Where the exit hooks call exits in the order of the entries
 * (KFT_FHOOK_EXITS_IN_ENTRY_ORDER: the newest hook first), the exit
 * triggers go before the collector; elsewhere exits run in reverse, and
 * they go after it.
 */
static int kft_run_attach(struct kft_run *run, struct kft_parse_error *err)
{
	struct kft_config *cfg = &run->cfg;
	int ret;

	ret = kft_run_resolve(run, err);
	if (ret)
		return ret;
	/* Fast hooks' frames pop in reverse order of their entries, always. */
	if (KFT_FHOOK_EXITS_IN_ENTRY_ORDER && cfg->hooks != KFT_HOOKS_FAST)
		ret = kft_run_attach_exit_triggers(run, err) ?:
		      run->mode->attach(run, err);
	else
		ret = run->mode->attach(run, err) ?:
		      kft_run_attach_exit_triggers(run, err);
	if (ret)
		goto err_detach_hooks;
	/* ftrace calls the newest ops first: entry triggers go last. */
	if (cfg->start.kind == KFT_TRIGGER_ENTRY) {
		ret = kft_entry_trigger_attach(&run->start_entry, run, true,
					       &cfg->start.func, err);
		if (ret)
			goto err_detach_hooks;
	}
	if (cfg->stop.kind == KFT_TRIGGER_ENTRY) {
		ret = kft_entry_trigger_attach(&run->stop_entry, run, false,
					       &cfg->stop.func, err);
		if (ret)
			goto err_detach_start_entry;
	}
	/* Best effort: /proc/kft says whether a warning freezes the ring. */
	if (cfg->log == KFT_LOG_RING)
		kft_warn_trigger_attach(&run->warn_entry, run);
	return 0;

err_detach_start_entry:
	kft_entry_trigger_detach(&run->start_entry);
err_detach_hooks:
	/* Each detach leaves alone what is not attached. */
	kft_run_detach_exit_triggers(run);
	run->mode->detach(run);
	return ret;
}

static void kft_run_detach(struct kft_run *run)
{
	if (run->mode->quiesce)
		run->mode->quiesce(run);
	kft_entry_trigger_detach(&run->warn_entry);
	kft_entry_trigger_detach(&run->stop_entry);
	kft_entry_trigger_detach(&run->start_entry);
	kft_fhook_detach(&run->stop_exit);
	kft_fhook_detach(&run->start_exit);
	run->mode->detach(run);
}

static void kft_error_at(struct kft_parse_error *err, enum kft_parse_err code)
{
	err->code = code;
	err->pos = (struct kft_pos){ 1, 1 };
	err->at_eof = false;
	err->token[0] = '\0';
}

/*
 * Why a run's memory could not be had: the mode's words, offcpu's table's,
 * or the kft region's.
 */
static void kft_alloc_error(const struct kft_run *run, int ret, struct kft_parse_error *err)
{
	unsigned int shift;

	switch (ret) {
	case -ENODEV:
		kft_error_at(err, KFT_ERR_REGION_NONE);
		break;
	case -EBUSY:
		kft_error_at(err, KFT_ERR_REGION_BUSY);
		break;
	case -ENOSPC:
		kft_error_at(err, KFT_ERR_REGION_SMALL);
		shift = kft_region_max_shift();
		if (shift == -1U)
			strscpy(err->token, "0", sizeof(err->token));
		else
			snprintf(err->token, sizeof(err->token), "%lu", 1UL << shift);
		break;
	default:
		kft_error_at(err, run->sched.no_memory ? KFT_ERR_SCHED_NO_MEMORY :
				  run->mode->no_memory);
		return;
	}
	err->pos = run->cfg.log_pos;
}

/*
 * What the traced path does beyond a linear log's (enum kft_extras). The
 * hooks of histogram mode have no log: a ring's path would find none.
 */
static u8 kft_run_extras(const struct kft_config *cfg)
{
	if (cfg->nr_argf || cfg->nr_roots || cfg->offcpu || cfg->args || cfg->per_arg ||
	    cfg->watch_bytes)
		return KFT_EXTRAS_MORE;
	if (cfg->mode != KFT_MODE_TRACE || cfg->log == KFT_LOG_LINEAR)
		return KFT_EXTRAS_NONE;
	return cfg->log == KFT_LOG_STREAM ? KFT_EXTRAS_STREAM : KFT_EXTRAS_RING;
}

/*
 * Time filters in cycles (kft_run.h), unless the run also needs ns at entry:
 * a stack watch (its snapshot's time), or no time filter at all (the
 * record is made at entry, -1 until the exit).
 */
static void kft_run_cycles_setup(struct kft_run *run)
{
	u32 khz = kft_cycles_khz();

	if (!khz || run->log_at_entry || run->cfg.watch)
		return;
	run->cycles_khz = khz;
	/*
	 * mintime rounded up, maxtime down: a kept call's duration, converted
	 * back to ns (rounded down), is within both bounds.
	 */
	run->mintime_cycles = mul_u64_u32_div(run->mintime_ns, khz, NSEC_PER_MSEC);
	if (mul_u64_u32_div(run->mintime_cycles, NSEC_PER_MSEC, khz) < run->mintime_ns)
		run->mintime_cycles++;
	run->maxtime_cycles = mul_u64_u32_div(run->maxtime_ns, khz, NSEC_PER_MSEC);
	/* (A maxtime that rounds to 0 cycles must still filter.) */
	if (run->maxtime_ns && !run->maxtime_cycles)
		run->maxtime_cycles = 1;
}

/* Hooks over every function or a glob: a filter of thousands of functions. */
static bool kft_run_wide(const struct kft_run *run)
{
	unsigned int i;

	for (i = 0; i < run->nr_traced; i++)
		if (run->cfg.funcs[i].is_glob)
			return true;
	return !run->nr_traced;
}

/*
 * Every function @run names, looked up as its attach will look them up,
 * before a run it replaces gives its hooks up for it: a name that matches
 * nothing must leave the old run as it was, not cost it the calls it was
 * inside of.
 */
static int kft_run_check_names(struct kft_run *run, struct kft_parse_error *err)
{
	const struct kft_config *cfg = &run->cfg;
	struct ftrace_ops scratch = {};
	unsigned long addr;
	unsigned int i;
	int ret;

	ret = kft_run_resolve(run, err);
	for (i = 0; i < run->nr_traced && !ret; i++)
		ret = kft_ftrace_filter_add(&scratch, &cfg->funcs[i], &addr, err);
	ftrace_free_filter(&scratch);
	return ret;
}

/*
 * Attaches @run's hooks in place of those of @old, the run it replaces,
 * which stays whole if this fails. Where both are wide, @old's hooks come
 * off first: taken off after, each of the thousands of frees of its filter
 * would run under the new hooks, and on a debug kernel each unwinds a
 * stack through hooked functions (seconds without a reschedule). The new
 * run's names are checked before; if its hooks then fail all the same (no
 * memory, a hook's own limits), @old gets its own back, and the calls in
 * between are not recorded. A run that cannot have them back is stopped,
 * and takes them again at its next prime.
 */
static int kft_run_attach_replacing(struct kft_run *run, struct kft_run *old,
				    struct kft_parse_error *err)
{
	struct kft_parse_error again = { .code = KFT_ERR_NONE };
	bool old_off;
	int ret;

	old_off = old && !old->detached && kft_run_wide(old) && kft_run_wide(run);
	if (old_off) {
		ret = kft_run_check_names(run, err);
		if (ret)
			return ret;
		kft_run_detach(old);
		old->detached = true;
	}
	ret = kft_run_attach(run, err);
	if (!ret || !old_off)
		return ret;
	/*
	 * The calls inside @old's functions when its hooks came off lost
	 * their exits: a root call's or an offcpu call's slot would stay
	 * its task's for good. As at a prime, every slot is freed and those
	 * calls are made an earlier generation's, whose exits leave the
	 * slots alone (fast hooks' still come, and are counted not found).
	 * The generation first, as at a prime: an exit checks it alone
	 * before it writes into its slot, and one past the check ends
	 * within the grace period, before the reset clears the slots.
	 */
	if (old->hold.slots || old->sched.slots) {
		kft_run_next_gen(old);
		synchronize_rcu();
		kft_hold_reset(&old->hold);
		kft_sched_reset(&old->sched);
	}
	if (!kft_run_attach(old, &again)) {
		old->detached = false;
		return ret;
	}
	pr_warn("run %u lost its hooks to a replacement that failed: stopped\n", old->id);
	kft_run_force_stop(old);
	return ret;
}

/*
 * What the trace hooks: the funclist and the roots, next to each other in
 * the one array the parser filled (the roots from its end), each without
 * repeats; or every function, roots included, without a funclist.
 */
static void kft_run_traced_set(struct kft_run *run)
{
	struct kft_config *cfg = &run->cfg;

	kft_funcs_drop_repeats(cfg->funcs, &cfg->nr_funcs);
	if (cfg->nr_roots) {
		memmove(&cfg->funcs[cfg->nr_funcs], cfg->roots,
			cfg->nr_roots * sizeof(*cfg->roots));
		cfg->roots = &cfg->funcs[cfg->nr_funcs];
		kft_funcs_drop_repeats(cfg->roots, &cfg->nr_roots);
	}
	run->nr_traced = cfg->has_funclist ? cfg->nr_funcs + cfg->nr_roots : 0;
}

/* filter roots: the roots (found again at each attach), and the space to hold their calls. */
static int kft_run_hold_setup(struct kft_run *run, struct kft_parse_error *err)
{
	const struct kft_config *cfg = &run->cfg;
	struct kft_hold_sides sides = { .sched = cfg->offcpu, .args = cfg->args,
					.str = cfg->str_arg != 0 };
	int ret;

	if (!cfg->nr_roots)
		return 0;
	ret = kft_hold_roots_alloc(&run->hold, cfg->nr_roots);
	if (ret) {
		kft_error_at(err, KFT_ERR_HOLD_NO_MEMORY);
		return ret;
	}
	/*
	 * Found now too, not only at attach: a root that names nothing is
	 * refused before a replaced run lets go of its hooks.
	 */
	ret = kft_hold_roots_find(&run->hold, cfg->roots, cfg->nr_roots, err);
	if (ret)
		return ret;
	ret = kft_hold_alloc(&run->hold, cfg->holdtasks, cfg->holdentries, sides);
	if (ret)
		kft_error_at(err, cfg->str_arg ? KFT_ERR_HOLD_STR_NO_MEMORY : KFT_ERR_HOLD_NO_MEMORY);
	return ret;
}

/**
 * kft_run_create() - a configured run, hooks attached but idle
 * @old:	the run it replaces, or NULL; see kft_run_attach_replacing()
 * @text:	the configuration text the config's strings point into; the
 *		run owns it (and cfg->funcs) from now on, also on failure
 * @cfg:	the parsed configuration
 * @id:		the run id
 * @err:	where it failed
 *
 * Return: the run, or an ERR_PTR.
 */
struct kft_run *kft_run_create(struct kft_run *old, char *text, const struct kft_config *cfg,
			       unsigned int id, struct kft_parse_error *err)
{
	struct kft_run *run;
	int ret = -ENOMEM;

	lockdep_assert_held(&kft_mutex);
	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run)
		goto err_free_text;
	kref_init(&run->ref);
	kft_run_next_gen(run);
	run->first_gen = run->gen;
	run->id = id;
	run->mode = kft_modes[cfg->mode];
	run->state = KFT_CONFIGURED;
	run->text = text;
	run->cfg = *cfg;
	kft_run_traced_set(run);
	run->cfg.hooks = kft_run_hooks_of(cfg);
	ret = kft_hooks_here(cfg, run->cfg.hooks, err);
	if (ret) {
		kfree(run);
		goto err_free_text;
	}
	run->mintime_ns = cfg->mintime_us * NSEC_PER_USEC;
	run->maxtime_ns = cfg->maxtime_us * NSEC_PER_USEC;
	/* (A filter at the exit: the record is made there, if kept.) */
	run->histogram = cfg->mode == KFT_MODE_HISTOGRAM;
	/* (A stream hands out whole calls: its reader may take one at once.) */
	run->log_at_entry = !run->histogram && !cfg->mintime_us && !cfg->maxtime_us &&
			    !cfg->errors && !cfg->nr_roots && cfg->log != KFT_LOG_STREAM;
	/*
	 * (filter oncpu judges the time on the CPU, which is offcpu's, in ns;
	 * filter roots judges a root in ns, its subtree's times put in ns
	 * first, and can time its calls in cycles whatever it judges.)
	 */
	if (cfg->nr_roots || !cfg->filter_oncpu)
		kft_run_cycles_setup(run);
	run->task_filter = kft_task_filtered(cfg);
	run->ctx_filter = cfg->noints || cfg->onlyints || run->task_filter;
	/* (cycles_khz: no record at entry, no watch; offcpu's slot taken at entry.) */
	run->entry_quick = run->cycles_khz && !run->ctx_filter && !cfg->offcpu && !cfg->args &&
			   !cfg->nr_argf && !cfg->nr_roots && !cfg->per_arg;
	/*
	 * (A ring's and a stream's records, and args, too: a linear log's
	 * path has none of their code.)
	 */
	run->exit_extras = cfg->nr_roots || cfg->offcpu || cfg->log != KFT_LOG_LINEAR;
	run->extras = kft_run_extras(cfg);
	/* (Count mode's per-arg reads the register at the entry it counts.) */
	run->keep_args = cfg->args || (run->histogram && cfg->per_arg);
	kft_argf_compile(&run->argf, cfg->argf, cfg->nr_argf);
	run->own_calls = cfg->str_arg || kft_argf_reads_strings(&run->argf) || cfg->wakers ||
			 cfg->watch_bytes;
	kft_watch_reset(&run->watch, cfg->watch_bytes);
	INIT_WORK(&run->detach_work, kft_run_detach_work);
	kft_hrtimer_setup(&run->timer, kft_timer_fn, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	init_irq_work(&run->timer_work, kft_timer_work);
	raw_spin_lock_init(&run->timer_lock);

	run->counters = alloc_percpu(struct kft_counters);
	ret = run->counters ? run->mode->alloc(run) : -ENOMEM;
	if (ret) {
		kft_alloc_error(run, ret, err);
		goto err_put_run;
	}
	run->argf.reads = &run->counters->argf_reads;
	ret = kft_run_hold_setup(run, err) ?: kft_run_attach_replacing(run, old, err);
	if (ret)
		goto err_put_run;
	if (run->mode->commit)
		run->mode->commit(run);
	return run;

err_put_run:
	kft_run_put(run);
	return ERR_PTR(ret);
err_free_text:
	kvfree(cfg->funcs);
	kvfree(text);
	return ERR_PTR(ret);
}

/**
 * kft_run_kill() - the run records nothing more, for good
 * @run:	a run no longer installed
 *
 * Its state is final: no stop or start under way can revive it.
 */
void kft_run_kill(struct kft_run *run)
{
	xchg(&run->state, KFT_DEAD);
}

/*
 * Detaches everything and drops the creator's reference.
 *
 * Why this order is enough: DEAD is final (no transition starts from it),
 * so once it is set no hook, timer or irq_work can start or stop the run,
 * and only a successful transition queues the irq_work. Hooks and the timer
 * callback run with preemption off: after the grace period, every
 * transition that began before DEAD has finished, its irq_work queued.
 * irq_work_sync() then waits for that work, which sees DEAD and arms
 * nothing; hrtimer_cancel() last removes a timer that work may have armed
 * before, and waits for a callback in progress, which queues nothing.
 */
void kft_run_destroy(struct kft_run *run)
{
	lockdep_assert_held(&kft_mutex);
	kft_run_kill(run);
	kft_run_detach(run);
	synchronize_rcu();
	/* Pairs with the acquire in kft_stream_read(). */
	smp_store_release(&run->quiet, true);
	irq_work_sync(&run->timer_work);
	hrtimer_cancel(&run->timer);
	/* (Not at its last reference: kft_region_let_go().) */
	kft_region_let_go(&run->holds_region);
	kft_run_put(run);
}

static int kft_run_reset(struct kft_run *run)
{
	int cpu, ret;

	ret = run->mode->reset(run);
	if (ret)
		return ret;
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(run->counters, cpu), 0, sizeof(struct kft_counters));
	memset(&run->times, 0, sizeof(run->times));
	/* (A start that lost the race with a stop may have left one.) */
	atomic64_set(&run->stop_deadline_ns, 0);
	run->starts = 0;
	kft_fhook_missed_reset(&run->trace);
	kft_fhook_missed_reset(&run->start_exit);
	kft_fhook_missed_reset(&run->stop_exit);
	return 0;
}

/*
 * An oops on another CPU during the prime found the run neither primed nor
 * running and froze nothing: it marked the run (after the mark's clear at
 * the prime's start), or sealed the persistent ring after the reset
 * unsealed it. The run ends as the oops would have ended it, and the ring
 * is sealed again over any call a start wrote meanwhile, once its hook is
 * done. The move to PRIMED (a full barrier) comes before these looks, as
 * the mark comes before the freeze's look at the state and the seal
 * before the oops' second look (kft_flight_seal()): one of the two sees
 * the other.
 * Return: true when the run was frozen.
 */
static bool kft_run_frozen_meanwhile(struct kft_run *run)
{
	u32 why = READ_ONCE(run->frozen), sealed;

	if (!why && run->cfg.persistent && kft_region_sealed(&sealed))
		why = sealed == KFT_REASON_PANIC ? KFT_REASON_PANIC : KFT_REASON_OOPS;
	if (!why)
		return false;
	kft_run_freeze(run, why);
	if (run->cfg.persistent) {
		/* A start's hook may still be writing a call: its end first. */
		synchronize_rcu();
		kft_region_seal(why, READ_ONCE(run->times.first_start_ns));
	}
	return true;
}

/**
 * kft_run_prime() - wait for the start trigger
 * @run:	a configured or complete run; a complete one starts afresh
 *
 * @err:	set when the hooks of a complete run cannot be taken again
 *
 * Return: 0, -EBUSY while primed or running, -ENOMEM when readers hold the
 * log and there is no memory for a new one, or the error of attaching.
 */
int kft_run_prime(struct kft_run *run, struct kft_parse_error *err)
{
	int state = READ_ONCE(run->state), ret;
	u32 frozen;

	lockdep_assert_held(&kft_mutex);
	if (state != KFT_CONFIGURED && state != KFT_COMPLETE)
		return -EBUSY;
	/*
	 * A prime after an oops that did not kill the machine goes on (a
	 * panic's mark stays: the machine is dying).
	 */
	frozen = READ_ONCE(run->frozen);
	if (frozen != KFT_REASON_PANIC)
		cmpxchg(&run->frozen, frozen, 0);
	/* The mark cleared before the reset's unseal, and the look after. */
	smp_mb();
	if (run->detached) {
		ret = kft_run_attach(run, err);
		if (ret)
			return ret;
		run->detached = false;
		/* Every function the run names was found where it is now. */
		memset(&run->dropped, 0, sizeof(run->dropped));
	}
	/*
	 * The hooks write nothing outside PRIMED/RUNNING, but one may be past
	 * its state check still: they run with preemption off, so after a
	 * grace period none is. A root's exit writes into its task's held
	 * slot after a check of its generation alone: a new one first, so
	 * that an exit that begins after the grace period, while the reset
	 * clears the slots, finds its call of an old generation. An entry
	 * past its state check may still take that one and a slot: it ends
	 * within the grace period, and the generation after the reset
	 * leaves its call behind too.
	 */
	if (state == KFT_COMPLETE) {
		kft_run_next_gen(run);
		synchronize_rcu();
	}
	ret = kft_run_reset(run);
	if (ret) {
		/* Still complete: let go of the hooks just taken again. */
		kft_run_detach_complete(run);
		return ret;
	}
	/*
	 * The header shows times on CLOCK_MONOTONIC, the base of time triggers
	 * (and /proc/uptime's until a suspend); kft_now() is sched_clock, off
	 * by a per-boot offset.
	 */
	run->times.mono_offset_ns = kft_clock_mono_offset();
	/* Calls still inside a traced function belong to the old generation. */
	kft_run_next_gen(run);
	/* The emptied log, counters and generation come before the state. */
	if (!kft_state_move(run, state, KFT_PRIMED))
		return -EBUSY;
	if (kft_run_frozen_meanwhile(run))
		return 0;
	kft_timer_arm(run);
	return 0;
}

int kft_run_force_start(struct kft_run *run, struct kft_parse_error *err)
{
	int ret = 0;

	lockdep_assert_held(&kft_mutex);
	if (READ_ONCE(run->state) != KFT_PRIMED)
		ret = kft_run_prime(run, err);
	if (!ret)
		kft_run_start(run, KFT_REASON_USER);
	return ret;
}

/*
 * The stop command: a run primed or running ends. A stop trigger's stop
 * may be under way meanwhile (STOPPING, back to PRIMED with autorepeat):
 * the command waits it out and ends the run where it lands, rather than
 * answer "not active" or leave the next round running.
 */
int kft_run_force_stop(struct kft_run *run)
{
	lockdep_assert_held(&kft_mutex);
	for (;;) {
		if (kft_state_move(run, KFT_PRIMED, KFT_COMPLETE)) {
			run->times.stop_reason = KFT_REASON_USER;
			run->times.stop_ns = kft_now();
			hrtimer_cancel(&run->timer);
			break;
		}
		if (kft_run_stop(run, KFT_REASON_USER))
			break;
		if (READ_ONCE(run->state) != KFT_STOPPING)
			return -EINVAL;
		/* A stopper preempted (a soft hrtimer's thread on RT): let it run. */
		usleep_range(50, 200);
	}
	kft_run_detach_complete(run);
	return 0;
}

int kft_run_init(void)
{
	int ret;

	if (strcmp(hooks, "safe") && strcmp(hooks, "fast")) {
		pr_err("hooks=%s: expected safe or fast\n", hooks);
		return -EINVAL;
	}
	ret = kft_stack_init();
	if (ret)
		return ret;
	ret = kft_irq_stacks_find();
	if (ret) {
		kft_stack_exit();
		return ret;
	}
	kft_arch_init();
	kft_wq = alloc_workqueue("kft", KFT_WQ_PERCPU, 0);
	if (!kft_wq) {
		kft_irq_stacks_exit();
		kft_stack_exit();
		return -ENOMEM;
	}
	return 0;
}

/*
 * After the last run is destroyed: waits for pending detach work, and for
 * the tasks still inside calls timed by fast hooks.
 */
void kft_run_exit(void)
{
	destroy_workqueue(kft_wq);
	kft_fhook_cleanup();
	kft_mode_stacks_cleanup();
	kft_irq_stacks_exit();
	kft_stack_exit();
}

/*
 * A trigger on functions of @mod: a name's is detached; a glob's hooks
 * keep the functions of the rest of the kernel (their filters hold the
 * sentinel, so that they never become empty: every function, to ftrace),
 * and a glob not hooked now is matched again in whole at its next attach.
 */
static enum kft_trigger_drop kft_run_drop_trigger(struct kft_run *run, const struct kft_trigger *t,
						  struct module *mod, unsigned long *addrs,
						  unsigned int room)
{
	bool is_start = t == &run->cfg.start;
	struct kft_fhook *exit = is_start ? &run->start_exit : &run->stop_exit;
	unsigned int n;

	/* Hooks let go of: the next prime looks the trigger up again. */
	if ((t->kind != KFT_TRIGGER_ENTRY && t->kind != KFT_TRIGGER_EXIT) || run->detached)
		return KFT_TRIGGER_KEPT;
	n = kft_module_collect(mod, &t->func, 1, addrs, room);
	if (!n)
		return KFT_TRIGGER_KEPT;
	if (t->kind == KFT_TRIGGER_ENTRY)
		return kft_entry_trigger_drop_module(is_start ? &run->start_entry :
						     &run->stop_entry, &t->func, addrs, n);
	if (!t->func.is_glob) {
		kft_fhook_detach(exit);
		return KFT_TRIGGER_REMOVED;
	}
	if (!exit->attached)
		return KFT_TRIGGER_KEPT;
	kft_fhook_drop_module(exit, mod, addrs, n);
	return KFT_TRIGGER_NARROWED;
}

/*
 * The filter arg statements whose function went with an earlier load of
 * a module (KFT_ARGF_FUNC_GONE) judge the function of that name again
 * if @mod, coming, has it.
 */
static void kft_run_argf_coming(struct kft_run *run, struct module *mod)
{
	const struct kft_config *cfg = &run->cfg;
	struct ftrace_ops scratch = {};
	struct kft_parse_error err;
	struct kft_argf_test found;
	unsigned int i;

	for (i = 0; i < cfg->nr_argf; i++) {
		struct kft_argf_test *t = &run->argf.tests[i];

		if (!cfg->argf[i].has_func || t->func != KFT_ARGF_FUNC_GONE)
			continue;
		found = *t;
		if (kft_run_argf_function(&scratch, &cfg->argf[i].func, &found, &err) ||
		    !within_module(found.func, mod))
			continue;
		/*
		 * The hooks read both unlocked: one that reads the function
		 * with the span of none (0) judges a call site at its very
		 * start only, for that moment.
		 */
		WRITE_ONCE(t->func_sites, found.func_sites);
		WRITE_ONCE(t->func, found.func);
	}
	ftrace_free_filter(&scratch);
}

/**
 * kft_run_module_coming() - hook a coming module's functions where the run traces every function
 * @run:	the run (kft_mutex held)
 * @mod:	the module, in its COMING notifier
 *
 * Count mode and fast hooks take them in already (an empty ftrace filter);
 * the kernel's mechanism may need them added. The module loads either way:
 * the kernel log says when its functions could not be. A filter arg
 * statement whose function went with the module's earlier load judges
 * the new one.
 */
void kft_run_module_coming(struct kft_run *run, struct module *mod)
{
	int ret;

	lockdep_assert_held(&kft_mutex);
	kft_run_argf_coming(run, mod);
	ret = kft_fhook_module_coming(&run->trace, mod);
	if (ret)
		pr_warn("run %u: module %s loaded: its functions are not traced (error %d)\n",
			run->id, mod->name, ret);
}

/*
 * The filter arg statements that name a function of @mod (of its init
 * code, with @init) judge no function from now on (KFT_ARGF_FUNC_GONE):
 * code loaded there later is another's. Return: how many.
 */
static unsigned int kft_run_drop_argf(struct kft_run *run, struct module *mod, bool init)
{
	unsigned int i, n = 0;

	for (i = 0; i < run->argf.nr; i++) {
		struct kft_argf_test *t = &run->argf.tests[i];

		if (t->func == 0 || t->func == KFT_ARGF_FUNC_GONE ||
		    !(init ? within_module_init(t->func, mod) : within_module(t->func, mod)))
			continue;
		/* The hooks read both unlocked: either order judges the old function at most. */
		WRITE_ONCE(t->func_sites, 0);
		WRITE_ONCE(t->func, KFT_ARGF_FUNC_GONE);
		n++;
	}
	return n;
}

/* A module's loss of @argf filter arg statements' functions, in the status. */
static void kft_run_dropped_argf(struct kft_run *run, struct module *mod, unsigned int argf)
{
	if (!argf)
		return;
	strscpy(run->dropped.module, mod->name, sizeof(run->dropped.module));
	run->dropped.argf += argf;
	pr_info("run %u: module %s: dropped %u filter arg statements' functions\n",
		run->id, mod->name, argf);
}

/**
 * kft_run_module_live() - a module's init code is about to be freed
 * @run:	the run (kft_mutex held)
 * @mod:	the module, in its LIVE notifier
 *
 * The kernel frees the module's init code once it is live, and may load
 * other code there later: counts of its init functions (a count or
 * histogram run of every function) are retired as a going module's are,
 * named while its init symbols are still there; a filter arg statement
 * that names one judges no function from then on.
 */
void kft_run_module_live(struct kft_run *run, struct module *mod)
{
	lockdep_assert_held(&kft_mutex);
	kft_run_dropped_argf(run, mod, kft_run_drop_argf(run, mod, true));
	if (run->table.ips)
		kft_count_retire_module(&run->table, mod, true);
}

/**
 * kft_run_module_going() - drop what the run hooked in a module going away
 * @run:	the run (kft_mutex held)
 * @mod:	the module, in its GOING notifier
 *
 * Traced functions of the module leave the traced set, and its roots match
 * nothing; a trigger on one of its functions is removed, or narrowed to
 * the rest of the kernel's if a glob. The status says what was dropped
 * (a run of every function: its roots). A run that traces every function
 * keeps doing so, the module's functions included.
 */
void kft_run_module_going(struct kft_run *run, struct module *mod)
{
	unsigned int room = kft_module_functions(mod), n, dropped = 0, roots;
	enum kft_trigger_drop start, stop;
	unsigned long *addrs;

	lockdep_assert_held(&kft_mutex);
	kft_run_dropped_argf(run, mod, kft_run_drop_argf(run, mod, false));
	if (!room)
		return;
	roots = run->hold.nr_roots ? kft_hold_drop_module(&run->hold, mod) : 0;
	addrs = kvcalloc(room, sizeof(*addrs), GFP_KERNEL);
	if (!addrs) {
		/*
		 * ftrace and fprobe forget the module's functions themselves;
		 * kft's filters keep their addresses, which would take in a
		 * function loaded there later: say so.
		 */
		pr_warn("run %u: module %s unloaded: no memory to drop its functions from the run\n",
			run->id, mod->name);
		/*
		 * What needs no list still goes: the module's slots of a
		 * count table are retired (their names taken now), its own
		 * fprobe freed.
		 */
		run->mode->drop_module(run, mod, NULL, 0);
		return;
	}
	n = run->nr_traced ?
	    kft_module_collect(mod, run->cfg.funcs, run->nr_traced, addrs, room) : 0;
	dropped = run->mode->drop_module(run, mod, addrs, n);
	/* (A run of every function: its roots are no traced functions of its own.) */
	if (!run->nr_traced)
		dropped += roots;
	start = kft_run_drop_trigger(run, &run->cfg.start, mod, addrs, room);
	stop = kft_run_drop_trigger(run, &run->cfg.stop, mod, addrs, room);
	kvfree(addrs);
	if (!dropped && !start && !stop)
		return;
	strscpy(run->dropped.module, mod->name, sizeof(run->dropped.module));
	run->dropped.functions += dropped;
	run->dropped.start_trigger = max(run->dropped.start_trigger, start);
	run->dropped.stop_trigger = max(run->dropped.stop_trigger, stop);
	pr_info("run %u: module %s unloaded: dropped %u traced functions, start trigger %s, stop trigger %s\n",
		run->id, mod->name, dropped, kft_trigger_drop_name(start),
		kft_trigger_drop_name(stop));
}
