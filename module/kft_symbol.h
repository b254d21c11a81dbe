/* SPDX-License-Identifier: GPL-2.0 */
/* Where an address lies in the kernel's symbols (kft_symbol.c). */
#ifndef KFT_SYMBOL_H
#define KFT_SYMBOL_H

int kft_symbol_offset(unsigned long addr, unsigned long *off);
int kft_symbol_bounds(unsigned long addr, unsigned long *off, unsigned long *size);

#endif
