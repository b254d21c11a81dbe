/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kft log's calls printed typed, for every program that prints calls
 * (kd -c --types, kft trace -T): the sources of types their options name
 * (--btf, --dwarf, --proto), or the running kernel's BTF, opened once,
 * and each row's call printed by the one formatter (kfttypes.h):
 *
 *	do_sys_openat2(dfd=-100, filename=0x7ffd5c3b1e40, how=0xffffc90000b2fe40) = 3
 *
 * Without --btf the running kernel's /sys/kernel/btf/vmlinux is read, and
 * a module's /sys/kernel/btf/MODULE the first time one of its functions
 * ("module:name") is printed.
 */
#ifndef KFT_TYPEDLOG_H
#define KFT_TYPEDLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kftlog.h"

/* The files of each kind one command may name. */
#define TYPEDLOG_MAX_FILES	64
/* The directory of the running kernel's BTF. */
#define TYPEDLOG_BTF_DIR	"/sys/kernel/btf"

enum typedlog_kind { TYPEDLOG_BTF, TYPEDLOG_DWARF, TYPEDLOG_PROTO, TYPEDLOG_NR_KINDS };

/* What the options asked for; filled by typedlog_files__add, nothing read. */
struct typedlog_files {
	const char *paths[TYPEDLOG_NR_KINDS][TYPEDLOG_MAX_FILES];
	int nr[TYPEDLOG_NR_KINDS];
	bool wanted;		/* --types, or a file of any kind */
};

/* One more file of @kind: 0, or -1 with why in @err (too many). */
int typedlog_files__add(struct typedlog_files *f, enum typedlog_kind kind, const char *path,
			char *err, size_t errlen);

/* The long options that name the files, in each command's getopt table. */
#define TYPEDLOG_LONG_OPTIONS \
	{ "btf", required_argument, NULL, 'B' }, \
	{ "dwarf", required_argument, NULL, 'E' }, \
	{ "proto", required_argument, NULL, 'O' }

/*
 * getopt's @opt, one of TYPEDLOG_LONG_OPTIONS' letters, with its @path: 0,
 * or -1 with why in @err.
 */
int typedlog_files__option(struct typedlog_files *f, int opt, const char *path, char *err,
			   size_t errlen);

struct typedlog;

/*
 * The sources @f names, read: the first --btf is a vmlinux's BTF, each
 * later one a module's (split BTF over the first's); no --btf: @btf_dir's
 * vmlinux, when there is one (and this build reads BTF, or no other
 * source is named: then it says why not). @word_bytes is the word of the
 * kernel that wrote the log (4 or 8; 0: this machine's): the size of a
 * written prototype's longs and pointers, and of an argument no source
 * types. NULL with why in @err: a file missing or of no such kind, a
 * prototype that does not parse (its file, line and column), no source at
 * all.
 */
struct typedlog *typedlog__open(const struct typedlog_files *f, const char *btf_dir,
				unsigned int word_bytes, char *err, size_t errlen);
void typedlog__free(struct typedlog *tl);

/*
 * Row @r's call of @func ("name", "module:name") into buf[0..len),
 * printed as @shown (NULL: @func). The return value: as its type says,
 * none for a void function; of a function no source knows, only an error
 * unless @every_return. The length of the whole text, as snprintf.
 */
size_t typedlog__format(struct typedlog *tl, const char *func, const char *shown,
			const struct kftlog_row *r, bool every_return, char *buf, size_t len);

/*
 * Argument register @reg (from 0) of a call of @func, of value @v (or
 * @hidden by the log), into buf[0..len) as the parameter it passes,
 * "size=64". As snprintf; 0, nothing written, when no source knows the
 * function or no parameter of it is that register's alone.
 */
size_t typedlog__format_register(struct typedlog *tl, const char *func, int reg,
				 unsigned long long v, bool hidden, char *buf, size_t len);

/*
 * Whether the types can be those of the kernel that wrote a log (its
 * "Kernel:" line, @log_kernel; "": not said): 0, or 1 after a warning on
 * @warn ("TOOL: warning: ...") that they are the running kernel's BTF
 * (no --btf) and the log is of another release.
 */
int typedlog__check_kernel(const struct typedlog *tl, const char *log_kernel, const char *tool,
			   const char *name, FILE *warn);

/*
 * Whether this process may see kernel addresses (CAP_SYSLOG, as kft's
 * log asks of its reader): if not, typedlog__format hides them.
 */
bool typedlog__sees_addresses(void);

#endif
