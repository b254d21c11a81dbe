// SPDX-License-Identifier: GPL-2.0
/*
 * The filter sentinel: kft's only function that ftrace can hook (module/Kbuild
 * builds every other file without ftrace's call sites). Never called. Every
 * funclist's filter holds it: removing a going module's functions can then
 * never leave a filter empty, which to ftrace means every function.
 */
#include <linux/compiler.h>

#include "kft_ftrace.h"

noinline void kft_filter_sentinel(void)
{
	barrier();
}
