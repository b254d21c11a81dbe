/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbols from a System.map or a copy of /proc/kallsyms:
 *	ADDRESS TYPE NAME [MODULE]
 * loaded once, then looked up by address (binary search) or by name.
 */
#ifndef KFT_KSYMS_H
#define KFT_KSYMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "strtab.h"

/*
 * Bounds on what a map may hold, far above any kernel's (about 200,000
 * symbols, 10 MiB of names with every module loaded): a file past them is
 * no symbol table, and is refused before it takes the machine's memory.
 */
#define KSYMS_MAX_SYMS		(4 << 20)
#define KSYMS_MAX_NAME_BYTES	(256 << 20)
#define KSYMS_LINE_MAX		1024	/* a longer line is skipped */
/*
 * A buffer that holds any text of ksyms__format(): the name and its module
 * come from one line of at most KSYMS_LINE_MAX bytes, then "+0x" and 16
 * hex digits at most. (kallsyms' names have up to 511 bytes since 6.1.)
 */
#define KSYMS_FORMAT_MAX	(KSYMS_LINE_MAX + 20)

struct ksym {
	uint64_t addr;
	const char *name;
	const char *module;	/* NULL for vmlinux */
};

struct ksyms {
	struct ksym *syms;	/* by address */
	size_t nr;
	struct ksym **by_name;	/* by name, module, address: ksyms__find_all() */
	struct strtab names;	/* the names and module names */
	/*
	 * Lines that are no symbol: malformed, or too long. Blank lines and
	 * the symbols kft has no use for (absolute and undefined ones, ARM's
	 * and RISC-V's mapping symbols) are left out without a count:
	 * /proc/kallsyms has them.
	 */
	size_t skipped;
};

/*
 * Loads a map file, a line at a time; NULL with errno set on failure:
 * EFBIG past the bounds above, ENODATA when no line is a symbol.
 */
struct ksyms *ksyms__load(const char *path);
struct ksyms *ksyms__read(FILE *in);
/* Parses map text in memory (tests, fuzzers); text is not kept. */
struct ksyms *ksyms__parse(const char *text, size_t len);
/* A message for ksyms__load's errno: its own cases, else strerror(). */
const char *ksyms__strerror(int errnum);
/*
 * "PROG: warning: N lines of PATH skipped (...)" to @out when the map
 * had lines that are no symbol; nothing when it had none.
 */
void ksyms__say_skipped(const struct ksyms *ks, const char *prog, const char *path, FILE *out);
void ksyms__free(struct ksyms *ks);
/*
 * Whether every address of the map is 0: /proc/kallsyms as a reader
 * without CAP_SYSLOG (or any reader under kernel.kptr_restrict 2) sees
 * it. Such a map names no address.
 */
int ksyms__hidden(const struct ksyms *ks);
/*
 * "PROG: PATH: every address in it is 0 (...): it names no address" to
 * @out, for a map ksyms__hidden() says is one.
 */
void ksyms__say_hidden(const char *prog, const char *path, FILE *out);
/*
 * The symbol containing addr: the last at or below it; NULL if none, if
 * it is 1 MiB or more below addr (addr is in a gap between symbols, or
 * past the end of the text), for address 0 (no function is there: a
 * hidden address reads as 0), or when the map is hidden.
 */
const struct ksym *ksyms__map_addr(const struct ksyms *ks, uint64_t addr);
/*
 * A symbol by name ("name" or "module:name"); NULL if none. Static
 * functions of different files may share a name: this is the first of
 * them (vmlinux's before modules', then by address).
 */
const struct ksym *ksyms__find_name(const struct ksyms *ks, const char *name);
/*
 * Every symbol of a name: "name" in vmlinux and in every module,
 * "module:name" in that module. Returns how many, and sets *first when
 * there are some: they are ks->by_name[*first] on, in ksyms__find_name()'s
 * order. A line the map lists twice is one symbol.
 */
size_t ksyms__find_all(const struct ksyms *ks, const char *name, size_t *first);
/*
 * "name" or "name+0xoff", as "module:name..." in a module (one word, so log
 * columns still split on white space, and the config language reads it).
 */
char *ksyms__format(const struct ksym *sym, uint64_t addr, char *buf, size_t size);

#endif
