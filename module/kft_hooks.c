// SPDX-License-Identifier: GPL-2.0
/*
 * The traced path: what runs inside every traced function's entry and exit,
 * and the start/stop transitions that triggers cause from any context.
 *
 * Everything here is notrace and unprobeable, takes no lock, never sleeps
 * and never prints. Recursion is stopped before us by ftrace and fprobe
 * (ftrace_test_recursion_trylock) or kprobes, which count what they drop.
 *
 * Recording a call:
 *   entry: state RUNNING? context filter (noints/onlyints), take the time,
 *          pid and CPU into the per-call storage. With no time filter the
 *          record is reserved now (delta -1 until the exit fills it in), so
 *          calls still open at the stop show as -1.
 *   exit:  duration = now - entry; time filter; reserve a record and fill
 *          it. A rejected call costs no slot.
 * A slot is reserved with one atomic increment of the log's counter; when it
 * passes the capacity the run stops with "log full", and the counter goes on
 * counting what was lost.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "kft_run.h"
#include "kft_task.h"
#include "kft_symbol.h"

static notrace struct kft_record *kft_log_reserve(struct kft_run *run)
{
	long slot = atomic_long_inc_return(&run->log.reserved) - 1;

	if (unlikely(slot >= run->log.capacity)) {
		kft_run_stop(run, KFT_REASON_LOG_FULL);
		return NULL;
	}
	return &run->log.records[slot];
}
NOKPROBE_SYMBOL(kft_log_reserve);

/* Fills a reserved record; the function address goes last (see kft_log.c). */
static notrace void kft_record_fill(struct kft_record *rec, unsigned long func,
				   unsigned long ret_ip,
				   const struct kft_call *call, u64 info)
{
	long off = (long)(ret_ip - func);

	rec->entry_ns = call->entry_ns;
	rec->caller_off = off == (s32)off ? (s32)off : KFT_REC_CALLER_UNKNOWN;
	rec->pid = call->pid;
	rec->info = info;
	/* Pairs with smp_load_acquire() in kft_log_view_build(). */
	smp_store_release(&rec->func, func);
}
NOKPROBE_SYMBOL(kft_record_fill);

/* A record of a task (not of an interrupt): its name into the log's table. */
static notrace void kft_record_comm(struct kft_run *run, const struct kft_call *call)
{
	if (call->pid >= 0)
		kft_comms_note(&run->log.buf->comms, call->pid, call->entry_ns);
}
NOKPROBE_SYMBOL(kft_record_comm);

/*
 * Completes a record reserved at entry. The return address seen at entry can
 * be the exit hook's trampoline (a tail call from a hooked caller); the one
 * seen at exit is real.
 */
static notrace void kft_record_close(struct kft_record *rec, unsigned long func,
				    unsigned long ret_ip, u64 dur, unsigned int cpu)
{
	long off = (long)(ret_ip - func);

	WRITE_ONCE(rec->caller_off, off == (s32)off ? (s32)off : KFT_REC_CALLER_UNKNOWN);
	WRITE_ONCE(rec->info, kft_rec_info(dur, cpu));
}
NOKPROBE_SYMBOL(kft_record_close);

/**
 * kft_hook_entry() - a hooked function was entered
 * @hook:	the hook (its role says what for)
 * @ip:		the function, as the mechanism reports it
 * @ret_ip:	where it will return to
 * @call:	per-call storage, handed to kft_hook_exit()
 *
 * Return: 0 to see the exit, non-zero to skip it.
 */
notrace int kft_hook_entry(struct kft_fhook *hook, unsigned long ip,
			   unsigned long ret_ip, struct kft_call *call)
{
	struct kft_run *run = hook->run;
	/* Acquire: a new state comes with its generation (kft_run_prime()). */
	int state = smp_load_acquire(&run->state);
	struct kft_record *rec;
	bool irq;

	if (hook->role != KFT_HOOK_TRACE)
		return state != KFT_PRIMED && state != KFT_RUNNING;
	call->gen = READ_ONCE(run->gen);
	if (state != KFT_RUNNING) {
		/* Entered before the start: its exit counts as "not found". */
		call->entry_ns = 0;
		return state != KFT_PRIMED;
	}
	irq = !in_task();
	if (irq ? run->cfg.noints : run->cfg.onlyints) {
		this_cpu_inc(run->counters->filtered_ints);
		return 1;
	}
	if (run->task_filter && !kft_task_wanted(&run->cfg)) {
		this_cpu_inc(run->counters->filtered_task);
		return 1;
	}
	call->entry_ns = kft_now();
	call->pid = irq ? -1 : current->pid;
	call->cpu = raw_smp_processor_id();
	if (run->cfg.watch)
		kft_watch_entry(run, ip, ret_ip, call->entry_ns, call->pid);
	call->rec = NULL;
	if (run->log_at_entry) {
		rec = kft_log_reserve(run);
		if (!rec)
			return 1;
		kft_record_fill(rec, ip, ret_ip, call,
				kft_rec_info_open(call->cpu));
		kft_record_comm(run, call);
		call->rec = rec;
	}
	return 0;
}
NOKPROBE_SYMBOL(kft_hook_entry);

/**
 * kft_hook_exit() - a hooked function returned
 * @hook:	the hook
 * @ip:		the function
 * @ret_ip:	the return address
 * @call:	what kft_hook_entry() stored
 */
notrace void kft_hook_exit(struct kft_fhook *hook, unsigned long ip,
			   unsigned long ret_ip, struct kft_call *call)
{
	struct kft_run *run = hook->run;
	struct kft_record *rec;
	u64 now, dur, deadline;

	if (hook->role == KFT_HOOK_START_EXIT) {
		kft_run_start(run, KFT_REASON_EXIT);
		return;
	}
	if (hook->role == KFT_HOOK_STOP_EXIT) {
		kft_run_stop(run, KFT_REASON_EXIT);
		return;
	}
	/* Acquire: the generation read below is the state's (kft_run_prime()). */
	if (smp_load_acquire(&run->state) != KFT_RUNNING)
		return;
	/* Entered before the start, or in an earlier generation (its record
	 * slot, if it had one, may now be another call's).
	 */
	if (!call->entry_ns || call->gen != READ_ONCE(run->gen)) {
		this_cpu_inc(run->counters->not_found);
		return;
	}
	now = kft_now();
	dur = now - call->entry_ns;
	if (call->rec) {
		kft_record_close(call->rec, ip, ret_ip, dur, call->cpu);
	} else {
		if ((run->mintime_ns && dur < run->mintime_ns) ||
		    (run->maxtime_ns && dur > run->maxtime_ns)) {
			this_cpu_inc(run->counters->filtered_time);
			return;
		}
		rec = kft_log_reserve(run);
		if (!rec)
			return;
		kft_record_fill(rec, ip, ret_ip, call, kft_rec_info(dur, call->cpu));
		kft_record_comm(run, call);
	}
	/* The hrtimer stops the run too; this makes the stop exact. */
	deadline = READ_ONCE(run->stop_deadline_ns);
	if (deadline && now >= deadline)
		kft_run_stop(run, KFT_REASON_TIME);
}
NOKPROBE_SYMBOL(kft_hook_exit);

/**
 * kft_run_start() - PRIMED -> RUNNING, from any context
 * @run:	the run
 * @why:	the reason shown in the log header
 */
notrace void kft_run_start(struct kft_run *run, enum kft_reason why)
{
	u64 now = kft_now();

	if (!kft_state_move(run, KFT_PRIMED, KFT_RUNNING))
		return;
	run->times.start_ns = now;
	run->times.start_reason = why;
	run->starts++;
	if (!run->times.first_start_ns)
		run->times.first_start_ns = now;
	if (run->cfg.stop.kind == KFT_TRIGGER_TIME) {
		WRITE_ONCE(run->stop_deadline_ns,
			   now + run->cfg.stop.time_us * NSEC_PER_USEC);
		/* Arming an hrtimer takes locks: leave it to irq_work. */
		irq_work_queue(&run->timer_work);
	}
}
NOKPROBE_SYMBOL(kft_run_start);

/**
 * kft_run_stop() - RUNNING -> COMPLETE (or back to PRIMED), from any context
 * @run:	the run
 * @why:	the reason shown in the log header
 *
 * With autorepeat, a stop trigger re-primes the run; a full log and the
 * stop command end it.
 */
notrace void kft_run_stop(struct kft_run *run, enum kft_reason why)
{
	int next = KFT_COMPLETE;

	if (run->cfg.autorepeat && why != KFT_REASON_LOG_FULL && why != KFT_REASON_USER)
		next = KFT_PRIMED;
	if (!kft_state_move(run, KFT_RUNNING, KFT_STOPPING))
		return;
	run->times.stop_ns = kft_now();
	run->times.stop_reason = why;
	WRITE_ONCE(run->stop_deadline_ns, 0);
	/*
	 * The stop time and reason are visible before the new state (a full
	 * barrier). A run made DEAD meanwhile stays DEAD, and queues nothing.
	 */
	if (!kft_state_move(run, KFT_STOPPING, next))
		return;
	/* Cancel the stop timer, or arm the start timer again. */
	irq_work_queue(&run->timer_work);
}
NOKPROBE_SYMBOL(kft_run_stop);

static notrace void kft_entry_trigger_fn(unsigned long ip, unsigned long parent_ip,
					 struct ftrace_ops *op,
					 struct ftrace_regs *fregs)
{
	struct kft_entry_trigger *t = container_of(op, struct kft_entry_trigger, ops);

	if (t->is_start)
		kft_run_start(t->run, KFT_REASON_ENTRY);
	else
		kft_run_stop(t->run, KFT_REASON_ENTRY);
}
NOKPROBE_SYMBOL(kft_entry_trigger_fn);

/* Below: attaching, in process context under kft_mutex. */

/* A configuration error at a function reference (or at 1:1 without one). */
int kft_func_error(struct kft_parse_error *err, enum kft_parse_err code,
		   const struct kft_func_ref *f)
{
	err->code = code;
	err->pos = f ? f->pos : (struct kft_pos){ 1, 1 };
	err->at_eof = false;
	err->token[0] = '\0';
	if (f)
		strscpy(err->token, f->text, sizeof(err->token));
	return -EINVAL;
}

/*
 * Never called, and traceable (not notrace), so it has an ftrace location.
 * Every funclist's filter holds it: removing a going module's functions can
 * then never leave a filter empty, which to ftrace means every function.
 */
static noinline void kft_filter_sentinel(void)
{
	barrier();
}

int kft_ftrace_filter_add_sentinel(struct ftrace_ops *ops)
{
	return ftrace_set_filter_ip(ops, (unsigned long)kft_filter_sentinel, 0, 0);
}

/**
 * kft_check_function_start() - an address must be where a function starts
 * @f:		an address reference
 * @err:	set when it is not
 *
 * ftrace and kprobes accept any address inside a function's patched call
 * site as the function; kft takes only the function's own address.
 */
int kft_check_function_start(const struct kft_func_ref *f, struct kft_parse_error *err)
{
	unsigned long off;

	if (kft_symbol_offset(f->addr, &off) || off)
		return kft_func_error(err, KFT_ERR_NOT_FUNCTION_START, f);
	return 0;
}

/**
 * kft_ftrace_filter_add() - add one function reference to an ops' filter
 * @ops:	the ftrace_ops (not yet registered)
 * @f:		a name, glob, module:name or address
 * @addr:	set to the address for an address or module:name, else 0
 * @err:	set when nothing traceable matches
 *
 * Names and globs go through ftrace's own matching, which knows what is
 * traceable, in vmlinux and in loaded modules.
 */
int kft_ftrace_filter_add(struct ftrace_ops *ops, const struct kft_func_ref *f,
			  unsigned long *addr, struct kft_parse_error *err)
{
	unsigned char *pattern;
	int ret;

	*addr = 0;
	if (!f->is_addr && strchr(f->text, ':')) {
		if (f->is_glob)
			return kft_func_error(err, KFT_ERR_MODULE_GLOB, f);
		*addr = kft_lookup_symbol(f->text);
		if (!*addr)
			return kft_func_error(err, KFT_ERR_UNKNOWN_FUNCTION, f);
	} else if (f->is_addr) {
		ret = kft_check_function_start(f, err);
		if (ret)
			return ret;
		*addr = f->addr;
	}
	if (*addr) {
		ret = ftrace_set_filter_ip(ops, *addr, 0, 0);
	} else {
		/* ftrace may write into the pattern: give it a copy. */
		pattern = kstrdup(f->text, GFP_KERNEL);
		if (!pattern)
			return -ENOMEM;
		ret = ftrace_set_filter(ops, pattern, strlen(pattern), 0);
		kfree(pattern);
	}
	if (ret == -ENOMEM)
		return ret;
	return ret ? kft_func_error(err, KFT_ERR_UNKNOWN_FUNCTION, f) : 0;
}

int kft_entry_trigger_attach(struct kft_entry_trigger *t, struct kft_run *run,
			     bool is_start, const struct kft_func_ref *func,
			     struct kft_parse_error *err)
{
	unsigned long addr;
	int ret;

	t->run = run;
	t->is_start = is_start;
	t->ops.func = kft_entry_trigger_fn;
	ret = kft_ftrace_filter_add(&t->ops, func, &addr, err);
	if (ret)
		goto err_free_filter;
	ret = register_ftrace_function(&t->ops);
	if (ret) {
		kft_func_error(err, KFT_ERR_ATTACH_FAILED, func);
		goto err_free_filter;
	}
	t->attached = true;
	return 0;

err_free_filter:
	ftrace_free_filter(&t->ops);
	return ret;
}

/**
 * kft_ftrace_ops_attach() - an ftrace_ops on a funclist, or every function
 * @ops:	the ops (zeroed, or left so by kft_ftrace_ops_detach())
 * @func:	its callback
 * @funcs:	the funclist; none for every function
 * @nr_funcs:	its length
 * @attached:	its owner's flag, set on success
 * @err:	where a reference matched nothing, or attaching failed
 *
 * Return: 0 or an error, with @err set for a configuration error.
 */
int kft_ftrace_ops_attach(struct ftrace_ops *ops, ftrace_func_t func,
			  const struct kft_func_ref *funcs, unsigned int nr_funcs,
			  bool *attached, struct kft_parse_error *err)
{
	unsigned long addr;
	unsigned int i;
	int ret;

	ops->func = func;
	for (i = 0; i < nr_funcs; i++) {
		ret = kft_ftrace_filter_add(ops, &funcs[i], &addr, err);
		if (ret)
			goto err_free_filter;
	}
	/* Removing a going module's functions must never empty the filter. */
	if (nr_funcs) {
		ret = kft_ftrace_filter_add_sentinel(ops);
		if (ret)
			goto err_free_filter;
	}
	ret = register_ftrace_function(ops);
	if (ret) {
		kft_func_error(err, KFT_ERR_ATTACH_FAILED, nr_funcs ? funcs : NULL);
		goto err_free_filter;
	}
	*attached = true;
	return 0;

err_free_filter:
	ftrace_free_filter(ops);
	return ret;
}

/**
 * kft_ftrace_ops_detach() - take an attached ftrace_ops off
 * @ops:	the ops
 * @attached:	its owner's flag; nothing happens when false
 *
 * Returns once no CPU can be in the ops' callback any more (ftrace waits
 * for that before unregister_ftrace_function() returns, for ops in module
 * memory). The ops is left as new, for a later attach (a complete run
 * primed again).
 */
void kft_ftrace_ops_detach(struct ftrace_ops *ops, bool *attached)
{
	if (!*attached)
		return;
	unregister_ftrace_function(ops);
	ftrace_free_filter(ops);
	memset(ops, 0, sizeof(*ops));
	*attached = false;
}

void kft_entry_trigger_detach(struct kft_entry_trigger *t)
{
	kft_ftrace_ops_detach(&t->ops, &t->attached);
}
