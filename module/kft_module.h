/* SPDX-License-Identifier: GPL-2.0 */
/* Which functions of a module a run's references name (kft_module.c). */
#ifndef KFT_MODULE_H
#define KFT_MODULE_H

#include "kft_config.h"

struct module;

unsigned int kft_module_functions(struct module *mod);
unsigned int kft_module_collect(struct module *mod, const struct kft_func_ref *refs,
				unsigned int nr_refs, unsigned long *addrs,
				unsigned int max);

#endif
