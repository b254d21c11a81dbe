/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A saved console (a serial capture, dmesg's or journalctl -k's output)
 * with kft's last calls. At an oops or a panic a ring run (log ring)
 * prints each CPU's last calls to the kernel log:
 *
 *	kft: === last calls before an oops: run 1, each CPU's last 16, oldest first ===
 *	kft: | LINE
 *	kft: === end of last calls ===
 *
 * each LINE one of /proc/kft_data's header and rows ("kft: |" alone: a
 * blank one), a row ending with its function's name ("%pS"), the rows CPU
 * after CPU, each CPU's oldest first. Whatever the console put before
 * "kft: " is not looked at (a printk time "[    3.485252] ", a level
 * "<0>", journalctl's date and host), and other lines (the oops's) may
 * come between these.
 *
 * kftcon reads any input a line at a time, a kft log or such a console:
 * as a log until a line begins a dump, then as a console, of which one
 * dump (the last, or the one asked for) is read as a log and the rest
 * only counted. A dump's rows are then sorted by entry time (equal ones
 * kept in their order), the order kd's readers need, as are a log's that
 * are not in it (a kft record file: entry order within each read only,
 * kftlog__sort()); a raw function
 * address whose row ends with its name is replaced by the name
 * ("module:name", as addr2sym writes it): the crashed kernel's own
 * symbols, with KASLR the only ones.
 */
#ifndef KFT_KFTCON_H
#define KFT_KFTCON_H

#include <stddef.h>
#include <stdio.h>

#include "kftlog.h"

/* What follows "kft: " on a dump's lines. */
#define KFTCON_START_TEXT	"=== last calls before "
#define KFTCON_END_TEXT	"=== end of last calls ==="
#define KFTCON_ROW_TEXT	"|"

enum kftcon_line {
	KFTCON_OTHER,	/* not a dump's */
	KFTCON_START,	/* a dump begins */
	KFTCON_TEXT,	/* a line of the dump's log */
	KFTCON_END,	/* a dump ends */
	KFTCON_BAD,	/* "kft: |" or "kft: ===" followed by something else */
};

/*
 * What a console's line (len bytes) is; for KFTCON_TEXT, *text and
 * *text_len are its log line (after "kft: | ", its newline kept), for
 * KFTCON_START the marker after KFTCON_START ("an oops: run 1, ...").
 */
enum kftcon_line kftcon_line(const char *line, size_t len, const char **text,
			     size_t *text_len);

struct kftcon_info {
	int console;		/* the input is a console: it has a dump */
	unsigned int dumps;	/* how many */
	unsigned int chosen;	/* the one read: 1 to dumps */
	unsigned int start_line, end_line;	/* its marker lines; end_line 0: none */
	char why[32];		/* what it is before: "an oops", "a panic" */
	unsigned int stray, stray_line;	/* "kft: |" lines outside any dump, the first */
};

struct kftcon;

/*
 * A reader of at most max_rows rows (as kftlog__new()), which reads the
 * dump-th dump of a console (0: the last). *cut_said (NULL: none), when
 * set by the end, says that the input's own reader warned of it cut short
 * (kftrec__text_of()): the log's rows fewer than its header counts are
 * then not warned of again.
 */
struct kftcon *kftcon__new(size_t max_rows, unsigned int dump, const int *cut_said);
/* The next line (NULL: over KFTLOG_LINE_MAX); -1 with errno to stop. */
int kftcon__feed(struct kftcon *c, const char *line, size_t len, const char *name);
/*
 * The log read, its warnings (held until now: only the log read has them)
 * on warn, and what the input was in info. NULL with errno: ENOENT when
 * the console has no dump-th dump (info->dumps says how many it has), or
 * ENOMEM. c is freed.
 */
struct kftlog *kftcon__end(struct kftcon *c, const char *name, FILE *warn,
			   struct kftcon_info *info);
void kftcon__free(struct kftcon *c);
/* kftcon__new(), each line of in, kftcon__end(); NULL with errno. */
struct kftlog *kftcon__read(FILE *in, const char *name, FILE *warn, size_t max_rows,
			    unsigned int dump, const int *cut_said, struct kftcon_info *info);

#endif
