// SPDX-License-Identifier: GPL-2.0
/*
 * kft_test_klp: a live patch of kft_test_leaf, for livepatch_fast.tc (a
 * live patch and kft's fast hooks on one function). Its replacement counts
 * its calls in the read-only parameter "calls"
 * (/sys/module/kft_test_klp/parameters/calls), so that a test sees that
 * the patched code runs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/livepatch.h>
#include <linux/module.h>

static int calls;
module_param(calls, int, 0444);
MODULE_PARM_DESC(calls, "calls of the replacement of kft_test_leaf");

static noinline void kft_test_klp_leaf(void)
{
	WRITE_ONCE(calls, READ_ONCE(calls) + 1);
}

static struct klp_func kft_test_klp_funcs[] = {
	{ .old_name = "kft_test_leaf", .new_func = kft_test_klp_leaf },
	{ }
};

static struct klp_object kft_test_klp_objs[] = {
	{ .name = "kft_test", .funcs = kft_test_klp_funcs },
	{ }
};

static struct klp_patch kft_test_klp_patch = {
	.mod = THIS_MODULE,
	.objs = kft_test_klp_objs,
};

static int __init kft_test_klp_init(void)
{
	return klp_enable_patch(&kft_test_klp_patch);
}

static void __exit kft_test_klp_exit(void)
{
}

module_init(kft_test_klp_init);
module_exit(kft_test_klp_exit);
MODULE_DESCRIPTION("A live patch of kft_test_leaf, for kft's tests");
MODULE_LICENSE("GPL");
MODULE_INFO(livepatch, "Y");
