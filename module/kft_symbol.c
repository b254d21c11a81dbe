// SPDX-License-Identifier: GPL-2.0
/*
 * Where an address lies in the kernel's symbols, by the exported
 * sprint_symbol(): used to check that an address written in a configuration
 * is a function's start, and to print a function's start in the log.
 */
#include <linux/kallsyms.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "kft_symbol.h"

/**
 * kft_symbol_bounds() - how far @addr lies into its symbol, and its size
 * @addr:	a kernel address
 * @off:	set to the offset
 * @size:	set to the symbol's size
 *
 * Return: 0, or -ENOENT when @addr is in no symbol.
 */
int kft_symbol_bounds(unsigned long addr, unsigned long *off, unsigned long *size)
{
	char sym[KSYM_SYMBOL_LEN];
	char *plus, *slash, *end;

	sprint_symbol(sym, addr);
	plus = strchr(sym, '+');
	slash = plus ? strchr(plus, '/') : NULL;
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	/* A module's symbol ends with " [module]". */
	end = strchr(slash + 1, ' ');
	if (end)
		*end = '\0';
	if (kstrtoul(plus + 1, 16, off) || kstrtoul(slash + 1, 16, size))
		return -ENOENT;
	return 0;
}

/**
 * kft_symbol_offset() - how far @addr lies into its symbol
 * @addr:	a kernel address
 * @off:	set to the offset
 *
 * Return: 0, or -ENOENT when @addr is in no symbol.
 */
int kft_symbol_offset(unsigned long addr, unsigned long *off)
{
	unsigned long size;

	return kft_symbol_bounds(addr, off, &size);
}
