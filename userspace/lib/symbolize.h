/* SPDX-License-Identifier: GPL-2.0 */
/* Turning the addresses of a text line into symbols (addr2sym, kd -m). */
#ifndef KFT_SYMBOLIZE_H
#define KFT_SYMBOLIZE_H

#include <stddef.h>
#include <stdio.h>
#include "ksyms.h"

/*
 * Copies line to out (at most size bytes), with every kernel address in
 * it replaced by its symbol ("name", "name+0xoff", "module:name+0xoff").
 * An address is a word of hex digits with 0x/0X (1 to 16 digits), or
 * without it, of exactly 8 or 16 digits, in any case. The replacement is
 * padded to the address's width so columns stay aligned; an address outside
 * every symbol stays as it is. Returns the number of addresses replaced.
 */
int symbolize_line(const struct ksyms *ks, const char *line, char *out, size_t size);
/* The same, written to out, never cut. */
int symbolize_fputs(const struct ksyms *ks, const char *line, FILE *out);

/* The symbol for one address word, or NULL: "0xffffffff81000000" -> name. */
const char *symbolize_word(const struct ksyms *ks, const char *word, char *buf, size_t size);

#endif
