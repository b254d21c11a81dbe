// SPDX-License-Identifier: GPL-2.0
/*
 * The text of /proc/kft: a run's state and configuration, in the original
 * KFT's format (Documentation/kft.rst), then what its mode shows
 * (struct kft_mode's status()) and what a module unload took from it.
 */
#include <linux/kernel.h>
#include <linux/seq_file.h>

#include "kft_mode.h"
#include "kft_run.h"
#include "kft_status.h"

static const char *kft_not(bool yes)
{
	return yes ? "" : "not ";
}

static void kft_output_trigger(struct seq_file *m, const char *which,
			       const struct kft_trigger *t)
{
	switch (t->kind) {
	case KFT_TRIGGER_ENTRY:
	case KFT_TRIGGER_EXIT:
		seq_printf(m, "  trigger %s %s %s\n", which,
			   t->kind == KFT_TRIGGER_ENTRY ? "entry" : t->on_error ? "error" : "exit",
			   t->func.text);
		break;
	case KFT_TRIGGER_TIME:
		seq_printf(m, "  trigger %s time %llu\n", which, t->time_us);
		break;
	default:
		seq_printf(m, "  trigger %s not set\n", which);
	}
}

/* The statements of the modes after KFT's, when given. */
static void kft_output_stacks_config(struct seq_file *m, const struct kft_config *cfg)
{
	if (cfg->watch)
		seq_printf(m, "  watch %s %lu\n",
			   cfg->watch == KFT_WATCH_WORST ? "worst-stack" : "stack",
			   cfg->watch_bytes);
	if (kft_mode_takes(cfg->mode, KFT_STMT_SAMPLE))
		seq_printf(m, "  sample %u\n", cfg->sample_hz);
	if (cfg->include_idle)
		seq_puts(m, "  include idle\n");
	if (cfg->per_process)
		seq_puts(m, "  per-process\n");
	if (cfg->filter_pid)
		seq_printf(m, "  filter pid %d\n", cfg->filter_pid);
	if (cfg->filter_tid)
		seq_printf(m, "  filter tid %d\n", cfg->filter_tid);
	if (cfg->filter_cpu >= 0)
		seq_printf(m, "  filter cpu %d\n", cfg->filter_cpu);
	if (cfg->filter_comm[0])
		seq_printf(m, "  filter comm %s\n", cfg->filter_comm);
	if (cfg->snoop)
		seq_printf(m, "  snoop %lu\n", cfg->snoop);
}

/* A filter arg statement as it is written: a string's text quoted, escaped. */
static void kft_output_argf(struct seq_file *m, const struct kft_argf *f)
{
	char quoted[KFT_ARGF_QUOTED_MAX];
	const char *value = f->text;

	if (f->type == KFT_ARGF_STRING || f->type == KFT_ARGF_USTRING) {
		kft_argf_quote(quoted, f->text);
		value = quoted;
	}
	seq_printf(m, "  filter arg %s%s%u %s %s %s\n", f->has_func ? f->func.text : "",
		   f->has_func ? " " : "", f->index + 1, kft_argf_type_word(f->type),
		   kft_argf_op_word(f->op), value);
}

static void kft_output_config(struct seq_file *m, const struct kft_config *cfg)
{
	unsigned int i;
	int mode = 0;

	if (cfg->start.kind == KFT_TRIGGER_TIME || cfg->stop.kind == KFT_TRIGGER_TIME)
		mode |= 1;
	if (cfg->autorepeat)
		mode |= 2;
	seq_printf(m, "config:\n  mode %d\n", mode);
	kft_output_trigger(m, "start", &cfg->start);
	kft_output_trigger(m, "stop", &cfg->stop);
	if (kft_mode_takes(cfg->mode, KFT_STMT_MINTIME))
		seq_printf(m, "  filter mintime %llu\n  filter maxtime %llu\n",
			   cfg->mintime_us, cfg->maxtime_us);
	if (cfg->noints)
		seq_puts(m, "  filter noints\n");
	if (cfg->onlyints)
		seq_puts(m, "  filter onlyints\n");
	if (cfg->filter_oncpu)
		seq_puts(m, "  filter oncpu\n");
	if (cfg->errors)
		seq_puts(m, "  filter errors\n");
	for (i = 0; i < cfg->nr_argf; i++)
		kft_output_argf(m, &cfg->argf[i]);
	if (cfg->per_arg)
		seq_printf(m, "  per-arg %u\n", cfg->per_arg);
	if (cfg->has_funclist) {
		seq_puts(m, "  filter funclist");
		for (i = 0; i < cfg->nr_funcs; i++)
			seq_printf(m, " %s", cfg->funcs[i].text);
		seq_puts(m, " fend\n");
	}
	if (cfg->nr_roots) {
		seq_puts(m, "  filter roots");
		for (i = 0; i < cfg->nr_roots; i++)
			seq_printf(m, " %s", cfg->roots[i].text);
		seq_printf(m, " fend\n  holdentries %lu\n  holdtasks %lu\n", cfg->holdentries,
			   cfg->holdtasks);
	}
	if (cfg->wakers)
		seq_puts(m, "  wakers\n");
	else if (cfg->offcpu && !cfg->filter_oncpu)
		seq_puts(m, "  offcpu\n");
	if (cfg->mem_len)
		seq_printf(m, "  args struct %u %u\n", cfg->str_arg, cfg->mem_len);
	else if (cfg->str_arg)
		seq_printf(m, "  args %s %u\n", cfg->str_user ? "ustring" : "string", cfg->str_arg);
	else if (cfg->args)
		seq_puts(m, "  args\n");
	if (kft_mode_takes(cfg->mode, KFT_STMT_LOGENTRIES))
		seq_printf(m, "  logentries %lu\n", cfg->logentries);
	/* (The default, linear, is not shown.) */
	if (cfg->persistent)
		seq_puts(m, "  log persistent\n");
	else if (cfg->log == KFT_LOG_RING)
		seq_puts(m, "  log ring\n");
	else if (cfg->log == KFT_LOG_STREAM)
		seq_puts(m, "  log stream\n");
	if (cfg->autorepeat)
		seq_puts(m, "  autorepeat\n");
	/* (A trace's default, us, is not shown; a histogram's is ns.) */
	if (cfg->units_ns)
		seq_puts(m, "  units ns\n");
	else if (cfg->units_ms)
		seq_puts(m, "  units ms\n");
	else if (cfg->mode == KFT_MODE_HISTOGRAM)
		seq_puts(m, "  units us\n");
	kft_output_stacks_config(m, cfg);
}

/* What the run lost to a module unload, if anything. */
static void kft_output_dropped(struct seq_file *m, const struct kft_dropped *d)
{
	if (!d->module[0])
		return;
	seq_printf(m, "dropped: module %s unloaded: traced functions %u, start trigger %s, stop trigger %s",
		   d->module, d->functions, kft_trigger_drop_name(d->start_trigger),
		   kft_trigger_drop_name(d->stop_trigger));
	if (d->argf)
		seq_printf(m, ", filter arg statements %u", d->argf);
	seq_putc(m, '\n');
}

/**
 * kft_output_status() - /proc/kft for a run
 * @m:		the seq_file
 * @run:	the run (kft_mutex held)
 */
void kft_output_status(struct seq_file *m, struct kft_run *run)
{
	int state = READ_ONCE(run->state);
	bool primed = state != KFT_CONFIGURED;
	bool running = state == KFT_RUNNING || state == KFT_STOPPING;
	bool complete = state == KFT_COMPLETE;
	struct kft_counters c;

	seq_printf(m, "status: run id %u, %sprimed, %striggered, %scomplete\n\n",
		   run->id, kft_not(primed),
		   kft_not(running || (complete && run->starts)), kft_not(complete));
	kft_output_config(m, &run->cfg);

	kft_run_sum_counters(run, &c);
	run->mode->status(m, run, &c);
	kft_output_dropped(m, &run->dropped);
}
