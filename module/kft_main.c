// SPDX-License-Identifier: GPL-2.0
/*
 * kft: Kernel Function Trace.
 *
 * Module entry points and the /proc files:
 *   /proc/kft         (0600) the run's configuration and state; commands
 *   /proc/kft_data    (0400) the trace log (kft_data.c)
 *   /proc/kft_stream  (0400) a log stream's calls as binary rows (kft_stream.c)
 *   /proc/kft_last_boot (0600) the last boot's calls (kft_last_boot.c)
 * All are root-only by mode; writes also require CAP_SYS_ADMIN of the task
 * that opened the file (as the kernel's own interfaces check it: a file
 * handed to a less privileged process keeps what its opener could do),
 * because a run attaches hooks to arbitrary kernel functions. Under kernel
 * lockdown (confidentiality) none opens, as tracefs does not. Raw
 * kernel addresses are shown only to an opener that may see them in
 * /proc/kallsyms (see kft_output_may_show_addrs()).
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
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "kft_current.h"
#include "kft_flight.h"
#include "kft_ftrace.h"
#include "kft_hibernate.h"
#include "kft_data.h"
#include "kft_last_boot.h"
#include "kft_region.h"
#include "kft_run.h"
#include "kft_static.h"
#include "kft_status.h"
#include "kft_stream.h"

#define KFT_PROC_CTL	"kft"
#define KFT_PROC_DATA	"kft_data"
#define KFT_PROC_LAST_BOOT	"kft_last_boot"
#define KFT_PROC_STREAM	"kft_stream"

/*
 * What one open /proc/kft has been sent and not yet applied. Its own lock:
 * write() on one file from two threads is not serialized by the VFS for
 * every caller (pwrite, io_uring take no f_pos lock).
 */
struct kft_writer {
	struct mutex lock;
	char *buf;		/* KFT_CONFIG_MAX_BYTES + 1 */
	size_t len;
	size_t word_start;	/* where the text's last word begins */
	bool applied;		/* a text of this file took effect */
};

/* CAP_SYS_ADMIN of the task that opened the file, not of the caller. */
static bool kft_may_write(const struct file *file)
{
	return file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN);
}

static int kft_command_error(enum kft_parse_err code, int ret)
{
	struct kft_parse_error err = { .code = code, .pos = { 1, 1 } };

	kft_report(&err);
	return ret;
}

/* A command's failure: the error it set, or one for its errno. */
static int kft_command_failed(int ret, struct kft_parse_error *err,
			      enum kft_parse_err otherwise)
{
	if (!ret)
		return 0;
	if (err->code != KFT_ERR_NONE) {
		kft_report(err);
		return ret;
	}
	return kft_command_error(ret == -ENOMEM ? KFT_ERR_NO_MEMORY : otherwise, ret);
}

static int kft_apply_command(enum kft_command cmd)
{
	struct kft_parse_error err = { .code = KFT_ERR_NONE };

	if (cmd == KFT_CMD_CLEAR) {
		kft_retire_run();
		return 0;
	}
	if (!kft_current)
		return kft_command_error(KFT_ERR_NO_RUN, -ENOENT);
	switch (cmd) {
	case KFT_CMD_PRIME:
		return kft_command_failed(kft_run_prime(kft_current, &err), &err, KFT_ERR_BUSY);
	case KFT_CMD_START:
		return kft_command_failed(kft_run_force_start(kft_current, &err), &err,
					  KFT_ERR_BUSY);
	case KFT_CMD_STOP:
		return kft_command_failed(kft_run_force_stop(kft_current), &err,
					  KFT_ERR_NOT_ACTIVE);
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
	enum kft_command cmd = KFT_CMD_CONFIG;
	struct kft_func_ref *funcs;
	struct kft_config *cfg;
	struct kft_run *run;
	int ret;

	/* (Not on the stack: its filter arg statements make it large.) */
	cfg = kmalloc(sizeof(*cfg), GFP_KERNEL);
	funcs = kvcalloc(max, sizeof(*funcs), GFP_KERNEL);
	ret = funcs && cfg ? kft_lock_settled() : -ENOMEM;
	if (ret) {
		kfree(cfg);
		kvfree(funcs);
		kvfree(text);
		return ret;
	}
	if (kft_config_parse(text, len, &cmd, cfg, funcs, max, &err)) {
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
	run = kft_install_run(text, cfg);
	kfree(cfg);
	if (IS_ERR(run)) {
		mutex_unlock(&kft_mutex);
		return PTR_ERR(run);
	}
	kft_last_error.code = KFT_ERR_NONE;
	mutex_unlock(&kft_mutex);
	/* The replaced run's teardown, as for a clear. */
	kft_retire_wait();
	return 0;

out_free:
	if (!ret)
		kft_last_error.code = KFT_ERR_NONE;
	mutex_unlock(&kft_mutex);
	kfree(cfg);
	kvfree(funcs);
	kvfree(text);
	/* The cleared run's teardown, outside the lock: the worker takes it. */
	if (!ret && cmd == KFT_CMD_CLEAR)
		kft_retire_wait();
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
	if (!text) {
		/* As any error: the text is dropped (a retry would double it). */
		w->len = 0;
		return -ENOMEM;
	}
	memcpy(text, w->buf, w->len);
	text[w->len] = '\0';
	ret = kft_apply(text, w->len, wait);
	if (ret != -EAGAIN)
		w->len = 0;
	if (!ret)
		w->applied = true;
	return ret == -EAGAIN ? 0 : ret;
}

static ssize_t kft_ctl_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	struct kft_writer *w = ((struct seq_file *)file->private_data)->private;
	ssize_t ret;

	if (!kft_may_write(file))
		return -EPERM;
	if (mutex_lock_killable(&w->lock))
		return -EINTR;
	if (count > KFT_CONFIG_MAX_BYTES - w->len) {
		struct kft_parse_error err = { .code = KFT_ERR_TOO_LONG, .pos = { 1, 1 } };

		w->len = 0;
		ret = -EINTR;
		/* (A teardown can hold kft_mutex for long: killable.) */
		if (mutex_lock_killable(&kft_mutex))
			goto out_unlock;
		kft_report(&err);
		mutex_unlock(&kft_mutex);
		ret = -EINVAL;
		goto out_unlock;
	}
	ret = -EFAULT;
	if (copy_from_user(w->buf + w->len, ubuf, count))
		goto out_unlock;
	w->len += count;
	ret = 0;
	/* Small pieces of one word: no parse each time (quadratic). */
	if (count && kft_config_must_reparse(w->buf, w->len, count, &w->word_start))
		ret = kft_writer_flush(w, false);
	if (!ret)
		ret = count;
out_unlock:
	mutex_unlock(&w->lock);
	return ret;
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
	unsigned int retiring;

	if (mutex_lock_killable(&kft_mutex))
		return -EINTR;
	if (kft_current)
		kft_output_status(m, kft_current);
	else
		seq_puts(m, "No logging run registered\n");
	retiring = kft_retiring_id();
	if (retiring)
		seq_printf(m, "detaching: run %u\n", retiring);
	kft_output_error(m);
	mutex_unlock(&kft_mutex);
	/* Last, so that the first line stays the run's status. */
	seq_puts(m, "version: " KFT_VERSION "\n");
	return 0;
}

static int kft_ctl_open(struct inode *inode, struct file *file)
{
	struct kft_writer *w = NULL;
	int ret;

	if (security_locked_down(LOCKDOWN_TRACEFS))
		return -EPERM;
	if (file->f_mode & FMODE_WRITE) {
		/* (Charged to the opener: any number of opens may hold one.) */
		w = kzalloc(sizeof(*w), GFP_KERNEL_ACCOUNT);
		if (w)
			w->buf = kvmalloc(KFT_CONFIG_MAX_BYTES + 1, GFP_KERNEL_ACCOUNT);
		if (!w || !w->buf) {
			kfree(w);
			return -ENOMEM;
		}
		mutex_init(&w->lock);
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

	if (w) {
		/*
		 * What is left is judged now; close() cannot report it. White
		 * space alone is an empty configuration, reported as such,
		 * unless it came after a text that took effect: a file written
		 * a line at a time that ends in a blank line or a comment.
		 */
		if (w->len && kft_may_write(file) &&
		    !(w->applied && kft_config_blank(w->buf, w->len)))
			kft_writer_flush(w, true);
		mutex_destroy(&w->lock);
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

/*
 * A module going away takes its functions with it: the run drops what it
 * hooked there, so that a module loaded later at the same addresses is not
 * traced, nor fires a trigger, by a run configured for the old one. What
 * kft learned of the code at those addresses goes when a new module comes
 * (kft_arch_module_coming()), and so do the names it found the kernel had
 * (kft_ftrace_module_coming()); a run of every function hooks the new
 * module's functions too.
 */
static int kft_module_notify(struct notifier_block *nb, unsigned long action,
			     void *data)
{
	if (action == MODULE_STATE_COMING) {
		kft_arch_module_coming();
		kft_ftrace_module_coming();
	}
	if (action != MODULE_STATE_GOING && action != MODULE_STATE_COMING &&
	    action != MODULE_STATE_LIVE)
		return NOTIFY_DONE;
	mutex_lock(&kft_mutex);
	if (kft_current && action == MODULE_STATE_COMING)
		kft_run_module_coming(kft_current, data);
	else if (kft_current && action == MODULE_STATE_LIVE)
		kft_run_module_live(kft_current, data);
	else if (kft_current)
		kft_run_module_going(kft_current, data);
	mutex_unlock(&kft_mutex);
	return NOTIFY_OK;
}

static struct notifier_block kft_module_nb = {
	.notifier_call = kft_module_notify,
};

static int __init kft_init(void)
{
	int ret;

	ret = kft_region_init();
	if (ret)
		return ret;
	/* What the region holds, before the boot's run may take it. */
	kft_last_boot_init();
	ret = kft_run_init();
	if (ret)
		goto err_region_exit;
	ret = register_module_notifier(&kft_module_nb);
	if (ret)
		goto err_run_exit;
	ret = kft_hibernate_init();
	if (ret)
		goto err_unregister_notifier;
	ret = kft_flight_init();
	if (ret)
		goto err_hibernate_exit;
	ret = -ENOMEM;
	if (!proc_create(KFT_PROC_DATA, 0400, NULL, &kft_data_ops))
		goto err_flight_exit;
	if (!proc_create(KFT_PROC_STREAM, 0400, NULL, &kft_stream_ops))
		goto err_remove_data;
	if (!proc_create(KFT_PROC_LAST_BOOT, 0600, NULL, &kft_last_boot_ops))
		goto err_remove_stream;
	/*
	 * The control file last: a writer can make a run as soon as it is
	 * there, and no step after it fails (a failed load would leave the
	 * run's hooks in freed code).
	 */
	if (!proc_create(KFT_PROC_CTL, 0600, NULL, &kft_ctl_ops))
		goto err_remove_last_boot;
	if (KFT_HAVE_SAFE_HOOKS)
		pr_info("loaded, function exits through %s (hooks safe)%s\n",
			KFT_HAVE_FPROBE ? "fprobe" : "kretprobes",
			KFT_HAVE_FAST_HOOKS ? " or kft's trampoline (hooks fast)" : "; no hooks fast here");
	else
		pr_info("loaded, function exits through kft's trampoline (hooks fast) only: no fprobe, no kprobes at ftrace's call sites\n");
	kft_static_start();
	return 0;

err_remove_last_boot:
	remove_proc_entry(KFT_PROC_LAST_BOOT, NULL);
err_remove_stream:
	remove_proc_entry(KFT_PROC_STREAM, NULL);
err_remove_data:
	remove_proc_entry(KFT_PROC_DATA, NULL);
err_flight_exit:
	kft_flight_exit();
err_hibernate_exit:
	kft_hibernate_exit();
err_unregister_notifier:
	unregister_module_notifier(&kft_module_nb);
err_run_exit:
	kft_run_exit();
err_region_exit:
	kft_last_boot_exit();
	kft_region_exit();
	return ret;
}

static void __exit kft_exit(void)
{
	/* Closes every open file first (their release runs now). */
	remove_proc_entry(KFT_PROC_LAST_BOOT, NULL);
	remove_proc_entry(KFT_PROC_STREAM, NULL);
	remove_proc_entry(KFT_PROC_DATA, NULL);
	remove_proc_entry(KFT_PROC_CTL, NULL);
	unregister_module_notifier(&kft_module_nb);
	kft_retire_flush();
	mutex_lock(&kft_mutex);
	kft_clear_run();
	mutex_unlock(&kft_mutex);
	kft_flight_exit();
	kft_hibernate_exit();
	kft_run_exit();
	kft_log_exit();
	kft_last_boot_exit();
	kft_region_exit();
	pr_info("unloaded\n");
}

kft_initcall(kft_init);
module_exit(kft_exit);

MODULE_DESCRIPTION("Kernel Function Trace: function durations, triggers and filters");
MODULE_AUTHOR("kft developers");
MODULE_LICENSE("GPL");
MODULE_VERSION(KFT_VERSION);
