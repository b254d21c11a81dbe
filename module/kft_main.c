// SPDX-License-Identifier: GPL-2.0
/*
 * kft: Kernel Function Trace.
 *
 * Module entry points and the two /proc files:
 *   /proc/kft       (0600) the run's configuration and state; commands
 *   /proc/kft_data  (0400) the trace log
 * Both are root-only by mode; writes additionally require CAP_SYS_ADMIN,
 * because a run attaches hooks to arbitrary kernel functions.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>

#define KFT_PROC_CTL	"kft"
#define KFT_PROC_DATA	"kft_data"

static int kft_ctl_show(struct seq_file *m, void *v)
{
	seq_puts(m, "No logging run registered\n");
	return 0;
}

static int kft_ctl_open(struct inode *inode, struct file *file)
{
	return single_open(file, kft_ctl_show, NULL);
}

static ssize_t kft_ctl_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	/* The configuration language arrives with the core (issue 3). */
	return -EOPNOTSUPP;
}

static const struct proc_ops kft_ctl_ops = {
	.proc_open	= kft_ctl_open,
	.proc_read	= seq_read,
	.proc_write	= kft_ctl_write,
	.proc_lseek	= seq_lseek,
	.proc_release	= single_release,
};

static int kft_data_show(struct seq_file *m, void *v)
{
	return 0;
}

static int kft_data_open(struct inode *inode, struct file *file)
{
	return single_open(file, kft_data_show, NULL);
}

static const struct proc_ops kft_data_ops = {
	.proc_open	= kft_data_open,
	.proc_read	= seq_read,
	.proc_lseek	= seq_lseek,
	.proc_release	= single_release,
};

static int __init kft_init(void)
{
	if (!proc_create(KFT_PROC_CTL, 0600, NULL, &kft_ctl_ops))
		goto err;
	if (!proc_create(KFT_PROC_DATA, 0400, NULL, &kft_data_ops))
		goto err_remove_ctl;
	pr_info("loaded\n");
	return 0;

err_remove_ctl:
	remove_proc_entry(KFT_PROC_CTL, NULL);
err:
	return -ENOMEM;
}

static void __exit kft_exit(void)
{
	remove_proc_entry(KFT_PROC_DATA, NULL);
	remove_proc_entry(KFT_PROC_CTL, NULL);
	pr_info("unloaded\n");
}

module_init(kft_init);
module_exit(kft_exit);

MODULE_DESCRIPTION("Kernel Function Trace: function durations, triggers and filters");
MODULE_AUTHOR("kft developers");
MODULE_LICENSE("GPL");
