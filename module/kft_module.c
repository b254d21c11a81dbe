// SPDX-License-Identifier: GPL-2.0
/*
 * A module that goes away or comes: which functions of it a run's
 * references name.
 *
 * Modules export no way to walk their symbols; struct module's symbol
 * table (mod->kallsyms, in <linux/module.h>) is what /proc/kallsyms reads,
 * and it is there while the COMING and the GOING notifiers run (at COMING
 * with the init code's symbols). Only its function symbols ('t', 'T') are
 * looked at.
 */
#include <linux/glob.h>
#include <linux/module.h>
#include <linux/string.h>

#include "kft_arch.h"
#include "kft_module.h"

/* Does the function @name at @addr of @mod match @ref, as ftrace or kprobes matched it? */
static bool kft_ref_matches(const struct kft_func_ref *ref, const struct module *mod,
			    const char *name, unsigned long addr)
{
	const char *colon;

	if (ref->is_addr)
		return ref->addr == addr;
	colon = strchr(ref->text, ':');
	if (colon)
		return strlen(mod->name) == colon - ref->text &&
		       !strncmp(ref->text, mod->name, colon - ref->text) &&
		       !strcmp(colon + 1, name);
	if (ref->is_glob)
		return glob_match(ref->text, name);
	return !strcmp(ref->text, name);
}

static bool kft_is_function_symbol(char type)
{
	return type == 't' || type == 'T';
}

/**
 * kft_module_functions() - how many function symbols @mod has
 * @mod:	a coming, live or going module
 */
unsigned int kft_module_functions(struct module *mod)
{
	struct mod_kallsyms *ks;
	unsigned int i, n = 0;

	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 0; ks && i < ks->num_symtab; i++)
		n += kft_is_function_symbol(ks->typetab[i]);
	preempt_enable();
	return n;
}

/**
 * kft_module_collect() - the functions of @mod that references name
 * @mod:	the module
 * @refs:	the references
 * @nr_refs:	how many
 * @addrs:	filled with the functions' addresses
 * @max:	room in @addrs (kft_module_functions() is always enough)
 *
 * Return: how many addresses were written.
 */
unsigned int kft_module_collect(struct module *mod, const struct kft_func_ref *refs,
				unsigned int nr_refs, unsigned long *addrs,
				unsigned int max)
{
	struct mod_kallsyms *ks;
	unsigned int i, r, n = 0;
	const Elf_Sym *sym;

	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 0; ks && i < ks->num_symtab && n < max; i++) {
		if (!kft_is_function_symbol(ks->typetab[i]))
			continue;
		sym = &ks->symtab[i];
		for (r = 0; r < nr_refs; r++) {
			if (kft_ref_matches(&refs[r], mod, ks->strtab + sym->st_name,
					    kft_code_start(sym->st_value))) {
				addrs[n++] = kft_code_start(sym->st_value);
				break;
			}
		}
	}
	preempt_enable();
	return n;
}
