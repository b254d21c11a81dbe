// SPDX-License-Identifier: GPL-2.0
/*
 * kft: Kernel Function Trace.
 *
 * Module entry points and the two /proc files:
 *   /proc/kft       (0600) the run's configuration and state; commands
 *   /proc/kft_data  (0400) the trace log
 * Both are root-only by mode; writes also require CAP_SYS_ADMIN, because a
 * run attaches hooks to arbitrary kernel functions.
 *
 * A configuration may arrive in several write() calls (a shell writing line
 * by line, a pipe): each open file collects its text and parses all of it
 * after every write. A command or a block that is complete takes effect at
 * once. Text that only lacks its end waits for more; so does text that does
 * not end a line and fails in its last word (the next write may finish the
 * word). Any other error fails that write, with the whole input dropped. What is still
 * waiting when the file is closed is judged then: close() cannot return the
 * error, so it shows in /proc/kft and in the kernel log.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "kft_run.h"

#define KFT_PROC_CTL	"kft"
#define KFT_PROC_DATA	"kft_data"

/* All under kft_mutex. */
static struct kft_run *kft_current;
static unsigned int kft_next_id = 1;
static struct kft_parse_error kft_last_error;

/* What one open /proc/kft has been sent and not yet applied. */
struct kft_writer {
	char *buf;		/* KFT_CONFIG_MAX_BYTES + 1 */
	size_t len;
};

static void kft_report(const struct kft_parse_error *err)
{
	lockdep_assert_held(&kft_mutex);
	kft_last_error = *err;
	pr_err("line %u, column %u: %s%s%s%s\n", err->pos.line, err->pos.col,
	       kft_parse_strerror(err->code), err->token[0] ? " '" : "",
	       err->token, err->token[0] ? "'" : "");
}

static int kft_command_error(enum kft_parse_err code, int ret)
{
	struct kft_parse_error err = { .code = code, .pos = { 1, 1 } };

	kft_report(&err);
	return ret;
}

static int kft_apply_command(enum kft_command cmd)
{
	int ret;

	if (cmd == KFT_CMD_CLEAR) {
		if (kft_current)
			kft_run_destroy(kft_current);
		kft_current = NULL;
		return 0;
	}
	if (!kft_current)
		return kft_command_error(KFT_ERR_NO_RUN, -ENOENT);
	switch (cmd) {
	case KFT_CMD_PRIME:
		ret = kft_run_prime(kft_current);
		return ret ? kft_command_error(KFT_ERR_BUSY, ret) : 0;
	case KFT_CMD_START:
		ret = kft_run_force_start(kft_current);
		return ret ? kft_command_error(KFT_ERR_BUSY, ret) : 0;
	case KFT_CMD_STOP:
		ret = kft_run_force_stop(kft_current);
		return ret ? kft_command_error(KFT_ERR_NOT_ACTIVE, ret) : 0;
	default:
		return -EINVAL;
	}
}

/* How far a parse error is final while more text may come. */
enum kft_wait {
	KFT_WAIT_NONE,		/* the file is being closed: every error counts */
	KFT_WAIT_INCOMPLETE,	/* whole lines: only a missing end waits */
	KFT_WAIT_LAST_WORD,	/* a line in progress: so does an error in its last word */
};

/*
 * Parses text (a private copy, which a new run keeps) and applies it.
 * Return: 0, -EAGAIN when the text should wait for more, or an error.
 */
static int kft_apply(char *text, size_t len, enum kft_wait wait)
{
	unsigned int max = kft_config_max_funcs(len);
	struct kft_parse_error err;
	struct kft_func_ref *funcs;
	enum kft_command cmd;
	struct kft_config cfg;
	struct kft_run *run;
	int ret;

	funcs = kvcalloc(max, sizeof(*funcs), GFP_KERNEL);
	if (!funcs) {
		kvfree(text);
		return -ENOMEM;
	}
	mutex_lock(&kft_mutex);
	if (kft_config_parse(text, len, &cmd, &cfg, funcs, max, &err)) {
		ret = -EINVAL;
		if ((wait == KFT_WAIT_LAST_WORD && kft_parse_may_continue(&err)) ||
		    (wait == KFT_WAIT_INCOMPLETE && kft_parse_incomplete(&err)))
			ret = -EAGAIN;
		else
			kft_report(&err);
		goto out_free;
	}
	if (cmd != KFT_CMD_CONFIG) {
		ret = kft_apply_command(cmd);
		goto out_free;
	}
	/* The run owns text and funcs from here, whatever happens. */
	run = kft_run_create(text, &cfg, kft_next_id, &err);
	if (IS_ERR(run)) {
		kft_report(&err);
		mutex_unlock(&kft_mutex);
		return PTR_ERR(run);
	}
	kft_next_id++;
	if (kft_current)
		kft_run_destroy(kft_current);
	kft_current = run;
	kft_last_error.code = KFT_ERR_NONE;
	mutex_unlock(&kft_mutex);
	return 0;

out_free:
	if (!ret)
		kft_last_error.code = KFT_ERR_NONE;
	mutex_unlock(&kft_mutex);
	kvfree(funcs);
	kvfree(text);
	return ret;
}

/* Applies what the writer has collected; drops it unless it must wait. */
static int kft_writer_flush(struct kft_writer *w, bool closing)
{
	enum kft_wait wait = KFT_WAIT_NONE;
	char *text;
	int ret;

	if (!closing)
		wait = w->buf[w->len - 1] == '\n' ? KFT_WAIT_INCOMPLETE : KFT_WAIT_LAST_WORD;
	text = kvmalloc(w->len + 1, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	memcpy(text, w->buf, w->len);
	text[w->len] = '\0';
	ret = kft_apply(text, w->len, wait);
	if (ret != -EAGAIN)
		w->len = 0;
	return ret == -EAGAIN ? 0 : ret;
}

static ssize_t kft_ctl_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct kft_writer *w = ((struct seq_file *)file->private_data)->private;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (count > KFT_CONFIG_MAX_BYTES - w->len) {
		struct kft_parse_error err = { .code = KFT_ERR_TOO_LONG, .pos = { 1, 1 } };

		w->len = 0;
		mutex_lock(&kft_mutex);
		kft_report(&err);
		mutex_unlock(&kft_mutex);
		return -EINVAL;
	}
	if (copy_from_user(w->buf + w->len, ubuf, count))
		return -EFAULT;
	w->len += count;
	if (!w->len)
		return 0;
	ret = kft_writer_flush(w, false);
	return ret ? ret : count;
}

static void kft_output_error(struct seq_file *m)
{
	const struct kft_parse_error *err = &kft_last_error;

	if (err->code == KFT_ERR_NONE)
		return;
	seq_printf(m, "error: line %u, column %u: %s", err->pos.line, err->pos.col,
		   kft_parse_strerror(err->code));
	if (err->token[0])
		seq_printf(m, " '%s'", err->token);
	seq_putc(m, '\n');
}

static int kft_ctl_show(struct seq_file *m, void *v)
{
	mutex_lock(&kft_mutex);
	if (kft_current)
		kft_output_status(m, kft_current);
	else
		seq_puts(m, "No logging run registered\n");
	kft_output_error(m);
	mutex_unlock(&kft_mutex);
	return 0;
}

static int kft_ctl_open(struct inode *inode, struct file *file)
{
	struct kft_writer *w = NULL;
	int ret;

	if (file->f_mode & FMODE_WRITE) {
		w = kzalloc(sizeof(*w), GFP_KERNEL);
		if (w)
			w->buf = kvmalloc(KFT_CONFIG_MAX_BYTES + 1, GFP_KERNEL);
		if (!w || !w->buf) {
			kfree(w);
			return -ENOMEM;
		}
	}
	ret = single_open(file, kft_ctl_show, w);
	if (ret && w) {
		kvfree(w->buf);
		kfree(w);
	}
	return ret;
}

static int kft_ctl_release(struct inode *inode, struct file *file)
{
	struct kft_writer *w = ((struct seq_file *)file->private_data)->private;
	size_t i;

	if (w) {
		/* What is left is judged now; close() cannot report it. */
		for (i = 0; i < w->len && isspace(w->buf[i]); i++)
			;
		if (i < w->len && capable(CAP_SYS_ADMIN))
			kft_writer_flush(w, true);
		kvfree(w->buf);
		kfree(w);
	}
	return single_release(inode, file);
}

static const struct proc_ops kft_ctl_ops = {
	.proc_open	= kft_ctl_open,
	.proc_read	= seq_read,
	.proc_write	= kft_ctl_write,
	.proc_lseek	= seq_lseek,
	.proc_release	= kft_ctl_release,
};

/* /proc/kft_data: one reader's snapshot of the run and its sorted log. */
struct kft_reader {
	struct kft_run *run;
	struct kft_log_view view;
};

static void *kft_data_start(struct seq_file *m, loff_t *pos)
{
	struct kft_reader *r = m->private;

	if (!r->run)
		return *pos == 0 ? SEQ_START_TOKEN : NULL;
	return *pos <= r->view.nr ? (void *)(uintptr_t)(*pos + 1) : NULL;
}

static void *kft_data_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return kft_data_start(m, pos);
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
	if (i == 0)
		kft_output_log_header(m, r->run, r->view.nr);
	else
		kft_output_log_row(m, r->run, &r->run->log.records[r->view.order[i - 1]]);
	return 0;
}

static const struct seq_operations kft_data_seq_ops = {
	.start	= kft_data_start,
	.next	= kft_data_next,
	.stop	= kft_data_stop,
	.show	= kft_data_show,
};

static int kft_data_open(struct inode *inode, struct file *file)
{
	struct kft_reader *r;
	int ret;

	r = __seq_open_private(file, &kft_data_seq_ops, sizeof(*r));
	if (!r)
		return -ENOMEM;
	mutex_lock(&kft_mutex);
	if (kft_current) {
		ret = kft_log_view_build(&kft_current->log, &r->view);
		if (ret) {
			mutex_unlock(&kft_mutex);
			seq_release_private(inode, file);
			return ret;
		}
		kref_get(&kft_current->ref);
		r->run = kft_current;
	}
	mutex_unlock(&kft_mutex);
	return 0;
}

static int kft_data_release(struct inode *inode, struct file *file)
{
	struct kft_reader *r = ((struct seq_file *)file->private_data)->private;

	if (r->run) {
		kft_log_view_free(&r->view);
		kft_run_put(r->run);
	}
	return seq_release_private(inode, file);
}

static const struct proc_ops kft_data_ops = {
	.proc_open	= kft_data_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= kft_data_release,
};

static int __init kft_init(void)
{
	if (!proc_create(KFT_PROC_CTL, 0600, NULL, &kft_ctl_ops))
		goto err;
	if (!proc_create(KFT_PROC_DATA, 0400, NULL, &kft_data_ops))
		goto err_remove_ctl;
	pr_info("loaded, function exits through %s\n",
		KFT_HAVE_FPROBE ? "fprobe" : "kretprobes");
	return 0;

err_remove_ctl:
	remove_proc_entry(KFT_PROC_CTL, NULL);
err:
	return -ENOMEM;
}

static void __exit kft_exit(void)
{
	/* Closes every open file first (their release runs now). */
	remove_proc_entry(KFT_PROC_DATA, NULL);
	remove_proc_entry(KFT_PROC_CTL, NULL);
	mutex_lock(&kft_mutex);
	if (kft_current)
		kft_run_destroy(kft_current);
	kft_current = NULL;
	mutex_unlock(&kft_mutex);
	pr_info("unloaded\n");
}

module_init(kft_init);
module_exit(kft_exit);

MODULE_DESCRIPTION("Kernel Function Trace: function durations, triggers and filters");
MODULE_AUTHOR("kft developers");
MODULE_LICENSE("GPL");
