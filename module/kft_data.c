// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/kft_data (0400): the current run's log, counts or stacks, in the
 * text of its mode (struct kft_mode's data_*()). Under kernel lockdown
 * (confidentiality) it does not open, as tracefs does not. Raw kernel
 * addresses are shown only to an opener that may see them in
 * /proc/kallsyms (see kft_output_may_show_addrs()).
 */
#include <linux/capability.h>
#include <linux/proc_fs.h>
#include <linux/sched/signal.h>
#include <linux/security.h>
#include <linux/seq_file.h>

#include "kft_current.h"
#include "kft_data.h"
#include "kft_mode.h"
#include "kft_output.h"
#include "kft_run.h"

/*
 * /proc/kft_data: one reader's snapshot, taken when it opens the file: the
 * header's times and counters, and a sorted view of the records complete
 * then, in the log buffer of that moment (which the reader holds: a run
 * primed again meanwhile writes into a new one), or of the counts or the
 * stacks (struct kft_reader, kft_mode.h).
 */

/* Rows after the header (its mode's). */
static unsigned long kft_reader_rows(const struct kft_reader *r)
{
	return r->run->mode->data_rows(r);
}

static void *kft_data_start(struct seq_file *m, loff_t *pos)
{
	struct kft_reader *r = m->private;

	if (!r->run)
		return *pos == 0 ? SEQ_START_TOKEN : NULL;
	return *pos <= kft_reader_rows(r) ? (void *)(uintptr_t)(*pos + 1) : NULL;
}

/**
 * kft_data_next_row() - a seq_file's next row, for kft's files with many
 * @pos:	the row's position, advanced
 *
 * A seek or pread far into the file shows each row before it in one call
 * (seq_file's traverse()): millions of rows, each symbolized. Every 1024
 * rows the task lets others run, and a task killed meanwhile stops there
 * (a later read goes on from the position reached).
 *
 * Return: NULL to go on as the file's start() says, or ERR_PTR(-EINTR).
 */
void *kft_data_next_row(loff_t *pos)
{
	++*pos;
	if (*pos & 1023)
		return NULL;
	cond_resched();
	return fatal_signal_pending(current) ? ERR_PTR(-EINTR) : NULL;
}

static void *kft_data_next(struct seq_file *m, void *v, loff_t *pos)
{
	return kft_data_next_row(pos) ?: kft_data_start(m, pos);
}

static void kft_data_stop(struct seq_file *m, void *v)
{
}

static int kft_data_show(struct seq_file *m, void *v)
{
	struct kft_reader *r = m->private;
	unsigned long i = (uintptr_t)v - 1;

	if (!r->run) {
		seq_puts(m, "No logging run registered\n");
		return 0;
	}
	r->run->mode->data_show(m, r, i);
	return 0;
}

static const struct seq_operations kft_data_seq_ops = {
	.start	= kft_data_start,
	.next	= kft_data_next,
	.stop	= kft_data_stop,
	.show	= kft_data_show,
};

/*
 * Under kft_mutex: what the header shows, and the mode's hold on what the
 * rows are of (records, counts, stacks).
 */
static void kft_reader_take(struct kft_reader *r, struct kft_run *run)
{
	lockdep_assert_held(&kft_mutex);
	kref_get(&run->ref);
	r->run = run;
	r->times = run->times;
	r->times.running = READ_ONCE(run->state) == KFT_RUNNING;
	r->times.units_ns = run->cfg.units_ns;
	kft_run_sum_counters(run, &r->counters);
	run->mode->data_take(r);
}

static int kft_data_release(struct inode *inode, struct file *file)
{
	struct kft_reader *r = ((struct seq_file *)file->private_data)->private;

	if (r->run) {
		r->run->mode->data_free(r);
		kft_run_put(r->run);
	}
	return seq_release_private(inode, file);
}

static int kft_data_open(struct inode *inode, struct file *file)
{
	struct kft_reader *r;
	int ret;

	if (security_locked_down(LOCKDOWN_TRACEFS))
		return -EPERM;
	r = __seq_open_private(file, &kft_data_seq_ops, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->show_addrs = kft_output_may_show_addrs(file);
	if (mutex_lock_killable(&kft_mutex)) {
		seq_release_private(inode, file);
		return -EINTR;
	}
	if (kft_current)
		kft_reader_take(r, kft_current);
	mutex_unlock(&kft_mutex);
	/* Sorting takes seconds for a large log: not under the lock. */
	if (r->run) {
		ret = r->run->mode->data_build(r);
		if (ret) {
			kft_data_release(inode, file);
			return ret;
		}
	}
	return 0;
}

const struct proc_ops kft_data_ops = {
	.proc_open	= kft_data_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= kft_data_release,
};
