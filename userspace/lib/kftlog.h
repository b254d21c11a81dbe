/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kft log (/proc/kft_data, the original KFT format) as records. Rows
 * follow the first line starting with "--------":
 *	ENTRY DELTA PID[.CPU] FUNCTION CALLER
 * FUNCTION and CALLER are hex addresses, or symbols (after addr2sym).
 */
#ifndef KFT_KFTLOG_H
#define KFT_KFTLOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define KFTLOG_DELTA_OPEN	(-1)	/* no exit seen */
#define KFTLOG_DELTA_STACK	(-2)	/* a stack watch row */

struct kftlog_row {
	long long entry;	/* us since the start */
	long long delta;	/* us, or KFTLOG_DELTA_* */
	int pid;		/* -1: interrupt context */
	int cpu;		/* -1: not in the log */
	const char *func;	/* as written (symbol or address) */
	const char *caller;
	unsigned int line;	/* in the file */
};

struct kftlog {
	struct kftlog_row *rows;
	size_t nr;
	char *strings;		/* the text the row strings point into */
	size_t warnings;	/* malformed lines skipped */
};

/*
 * Reads a log; malformed rows are skipped with a warning on warn (NULL:
 * silent) naming the line. NULL with errno set on failure.
 */
struct kftlog *kftlog__read(FILE *in, const char *name, FILE *warn);
struct kftlog *kftlog__parse(const char *text, size_t len, const char *name, FILE *warn);
void kftlog__free(struct kftlog *log);

#endif
