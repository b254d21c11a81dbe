/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kft built into the kernel: every difference from the loadable module is
 * here (as kernel-version differences are in kft_compat.h).
 *
 * Built in, kft_init() is an early initcall: it runs before SMP bring-up and
 * before every initcall of do_initcalls() (pure_initcall to late_initcall),
 * when ftrace, kprobes' lookup, workqueues, hrtimers and /proc already work.
 * With CONFIG_KFT_STATIC_RUN it ends by starting the boot's run
 * (kft_static.c). As a module nothing changes: module_init, no static run.
 */
#ifndef KFT_STATIC_H
#define KFT_STATIC_H

#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/module.h>

#ifdef MODULE
#define kft_initcall(fn)	module_init(fn)
#else
#define kft_initcall(fn)	early_initcall(fn)
#endif

/*
 * Built in, kft can ask kallsyms whether the kernel (or a loaded module)
 * has a symbol, and where; a module cannot (kallsyms_lookup_name() is not
 * exported): for it, kft_kallsyms_has() says yes to any name, and
 * kft_kallsyms_addr() is never called (KFT_BUILT_IN).
 */
#ifdef MODULE
#define KFT_BUILT_IN	0
static inline bool kft_kallsyms_has(const char *name)
{
	return true;
}

static inline unsigned long kft_kallsyms_addr(const char *name)
{
	return 0;
}
#else
#define KFT_BUILT_IN	1
static inline bool kft_kallsyms_has(const char *name)
{
	return kallsyms_lookup_name(name) != 0;
}

/* A name or module:name (module_kallsyms_lookup_name() takes both). */
static inline unsigned long kft_kallsyms_addr(const char *name)
{
	return kallsyms_lookup_name(name);
}
#endif

#if IS_ENABLED(CONFIG_KFT_STATIC_RUN)
void kft_static_start(void);
#else
static inline void kft_static_start(void)
{
}
#endif

#endif
