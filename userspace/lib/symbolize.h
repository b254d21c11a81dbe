/* SPDX-License-Identifier: GPL-2.0 */
/* Turning the addresses of a text line into symbols (addr2sym, kd -m). */
#ifndef KFT_SYMBOLIZE_H
#define KFT_SYMBOLIZE_H

#include <stddef.h>
#include <stdio.h>
#include "kftlog.h"
#include "ksyms.h"

/* A longer line is copied as it is, in parts (no symbol is that long). */
#define SYMBOLIZE_LINE_MAX	(64 * 1024)

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

/*
 * Copies in to out a line at a time, each symbolized as symbolize_fputs()
 * does (a line over SYMBOLIZE_LINE_MAX is copied as it is): memory does
 * not grow with the input. The lines are scanned as a kft log until its
 * first row, into scan if not NULL (kftlog_scan_is_log() then tells
 * whether it is one); the rows of a count-mode log and the blocks of a
 * stacks-mode log, which name their functions already, are copied as they
 * are.
 * Returns 0, or -1 on a read error (ferror(in), errno set), a write error
 * (ferror(out)) or no memory for the line (errno ENOMEM).
 */
int symbolize_stream(const struct ksyms *ks, FILE *in, FILE *out, struct kftlog_scan *scan);

/*
 * Whether map (a path) can be of the kernel whose log was scanned: 0, or 1
 * after a warning on warn ("TOOL: warning: ...") that the log's "Kernel:"
 * line names another release than the map's, or that the log has a second
 * "Kernel:" line (the first is the one checked). A map's release is known for
 * /proc/kallsyms (the running kernel's: uname -r) and for a file named
 * System.map-RELEASE (as /boot has them). A copy of kallsyms names no
 * kernel, nor does a log from before the line: then nothing is checked.
 * Equal releases do not prove the map right (another boot of the same
 * kernel has other addresses under KASLR): a different one proves it wrong.
 */
int symbolize_check_kernel(const char *map, const struct kftlog_scan *scan, const char *tool,
			   const char *name, FILE *warn);

/*
 * The symbol for one address word, or NULL: "0xffffffff81000000" -> name.
 * A buf of KSYMS_FORMAT_MAX bytes holds any symbol; a shorter one cuts it.
 */
const char *symbolize_word(const struct ksyms *ks, const char *word, char *buf, size_t size);

#endif
