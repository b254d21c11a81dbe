/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kft log (/proc/kft_data, the original KFT format) as records. Rows
 * follow the first line starting with "--------":
 *	ENTRY DELTA PID[.CPU] FUNCTION CALLER [COMM [RETURN]]
 * FUNCTION and CALLER are hex addresses, or symbols (after addr2sym). COMM
 * is the task's name, RETURN the call's return value: an error in decimal
 * (-4095..-1), another value in hex, "-" when its exit was not seen,
 * "hidden" for a value hidden from the reader (Documentation/kft.rst). A
 * stack watch snapshot is consecutive rows with DELTA -2, innermost frame
 * first; its first row has a column "left=N" after COMM, the bytes of stack
 * left (Documentation/stacks.rst, "Stack watches"). After a call's RETURN,
 * with offcpu, "oncpu=N runnable=N blocked=N": its time on the CPU,
 * runnable and blocked (the log's unit); with args, "args=V,V,..." the
 * call's first argument registers, each as a RETURN is written (an error
 * in decimal, "hidden", else hex); and "cut" ends the row of a root call
 * whose tree did not fit its holding space (filter roots). Other words
 * there (and a RETURN that is none of those) are ignored.
 *
 * A wake set (wakers) is consecutive rows with DELTA -3: who woke a task
 * that slept inside a root call. ENTRY is when the task was switched out,
 * PID its pid, CPU the one the wakeup ran on; FUNCTION is a frame of the
 * waker's stack at the wakeup, innermost first, CALLER zeros, and COMM is
 * the sleeper's name, always there. The first row goes on
 * "waker=PID wcomm=NAME slept=N": the waking task (-1 and "-" for an
 * interrupt), its name escaped as COMM is, and the time the task was
 * blocked (the log's unit); the next rows, up to seven, have nothing after
 * COMM. A -3 row whose seventh word starts with "waker=" but that does not
 * have the three is malformed; a continuation row without its first
 * belongs to no set (the readers drop it).
 *
 * A log in stacks or profile mode has blocks of counted stacks instead of
 * rows (kftstacks.h); one in count mode has counts, which are not read.
 *
 * Logs are read as streams, a line at a time: only the parsed rows are
 * kept, each name once, and at most max_rows of them.
 */
#ifndef KFT_KFTLOG_H
#define KFT_KFTLOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kftstacks.h"
#include "strtab.h"

#define KFTLOG_DELTA_OPEN	(-1)	/* no exit seen */
#define KFTLOG_DELTA_STACK	(-2)	/* a stack watch row */
#define KFTLOG_DELTA_WAKE	(-3)	/* a wake set's row (wakers) */

/* kd's default row limit: the largest log the module keeps (logentries). */
#define KFTLOG_MAX_ROWS		16777216
/* A longer line is no row (a row is two names of at most ~600 bytes). */
#define KFTLOG_LINE_MAX		4096
/* The distinct names a log may hold, in bytes per row of the limit. */
#define KFTLOG_NAME_BYTES_PER_ROW 64

/* A row's return value (its RETURN column). */
enum kftlog_ret {
	KFTLOG_RET_NONE,	/* no column (older logs, stack rows), or "-" */
	KFTLOG_RET_ERROR,	/* an error, ret_error */
	KFTLOG_RET_VALUE,	/* any other value, ret_value */
	KFTLOG_RET_HIDDEN,	/* "hidden": a value hidden from the reader */
};

/* The largest error number (the kernel's MAX_ERRNO). */
#define KFTLOG_MAX_ERRNO	4095

struct kftlog_row {
	long long entry;	/* us since the start */
	long long delta;	/* us, or KFTLOG_DELTA_* */
	int pid;		/* -1: interrupt context */
	int cpu;		/* -1: not in the log */
	const char *func;	/* as written (symbol or address) */
	const char *caller;
	const char *comm;	/* the task's name; "" in logs before the column */
	long long left;		/* -2 rows: left=N, bytes of stack left; -1: none */
	enum kftlog_ret ret;	/* what the return column says */
	int waker_pid;		/* a wake set's first row: waker=N (-1: an interrupt) */
	long long ret_error;	/* KFTLOG_RET_ERROR: -4095..-1 */
	unsigned long long ret_value; /* KFTLOG_RET_VALUE */
	int cut;		/* "cut": a root call whose tree was cut (filter roots) */
	int has_sched;		/* offcpu's words: */
	long long oncpu, runnable, blocked;	/* the log's unit, as delta */
	const char *waker_comm;	/* a wake set's first row: wcomm=NAME; "" on others */
	long long slept;	/* a wake set's first row: slept=N; -1 on others */
	const char *args;	/* args=...'s values as written ("0x1,-22,hidden"); "" without */
	/*
	 * args string: strN=...'s value as written ("\"/etc/passwd\"",
	 * "\"abc\"..." cut, "(fault)", "hidden"), "" without; str_arg is N, 0 without.
	 * args struct's memN=... sets str_mem, its value two hex digits a byte.
	 */
	const char *str;
	int str_arg;
	int str_mem;
};

/* Whether a row is the first of a stack watch snapshot (it has left=N). */
static inline int kftlog_row_starts_snapshot(const struct kftlog_row *r)
{
	return r->delta == KFTLOG_DELTA_STACK && r->left >= 0;
}

/* Whether a row is the first of a wake set (it has slept=N). */
static inline int kftlog_row_starts_wake(const struct kftlog_row *r)
{
	return r->delta == KFTLOG_DELTA_WAKE && r->slept >= 0;
}

/*
 * Whether row r goes on the snapshot or wake set that row first begins,
 * when it comes right after that set's rows: a row of the same kind that
 * begins none, with the same time, pid and CPU.
 */
static inline int kftlog_row_continues(const struct kftlog_row *first,
				       const struct kftlog_row *r)
{
	return r->delta == first->delta && !kftlog_row_starts_snapshot(r) &&
	       !kftlog_row_starts_wake(r) && r->entry == first->entry &&
	       r->pid == first->pid && r->cpu == first->cpu;
}

/* The words of a row's names, pointing into the line. */
struct kftlog_names {
	const char *func, *caller, *comm, *waker_comm, *args, *str;
	size_t func_len, caller_len, comm_len, waker_comm_len, args_len, str_len;
};

/* A kernel release's longest (the kernel's __NEW_UTS_LEN). */
#define KFTLOG_RELEASE_MAX	64

/* What a stream of lines has been so far. */
struct kftlog_scan {
	unsigned int lineno;
	int in_rows;		/* past the "--------" line */
	size_t rows;		/* well-formed rows */
	size_t malformed;	/* lines after "--------" that are no row */
	size_t text_lines;	/* lines that are not blank */
	int count_mode;		/* a count-mode log: its rows are counts, not calls */
	int stacks_mode;	/* a stacks- or profile-mode log: blocks, no rows */
	int units_ns;		/* "Units: ns" in the header: times in ns, not us */
	int has_header_rows;	/* the header counts the rows: */
	long long header_rows;	/* "Number of entries after filters = N" */
	unsigned int bad_rows_line; /* the first such line whose N is no number; 0: none */
	int cut_said;		/* the input's reader said it was cut: fewer rows unsaid */
	int unterminated;	/* the last line had no newline */
	/*
	 * "Kernel: RELEASE", the kernel that wrote the log; "": not said (older
	 * logs). kft writes one such line: the first is the log's, and a
	 * second one's line is kept for symbolize_check_kernel() to say.
	 */
	char kernel[KFTLOG_RELEASE_MAX + 1];
	unsigned int kernel_line, kernel_again_line;	/* 0: none */
	/*
	 * The kernel's word in bytes, 4 or 8, from the width of the first
	 * address a row writes as a number (kft writes them with all their
	 * digits: 8 or 16); 0 while none has.
	 */
	unsigned int word_bytes;
};

enum kftlog_line {
	KFTLOG_TEXT,		/* the header, or a blank line */
	KFTLOG_ROW,		/* a row: in row and names */
	KFTLOG_MALFORMED,	/* after the header, but no row */
};

/*
 * Classifies the next line (len bytes, with or without its newline; NULL: a
 * line too long to be a row), parsing a row into row and names.
 */
enum kftlog_line kftlog_scan_line(struct kftlog_scan *s, const char *line, size_t len,
				  struct kftlog_row *row, struct kftlog_names *names);
/*
 * Whether the lines scanned make a kft log of calls: some row, or a header
 * and no malformed row (a run that logged nothing). Binary data or a
 * symbol table given as a log is none, nor is an empty file (a log has a
 * header at least), nor a count-mode or stacks-mode log (their own flags
 * say so).
 */
int kftlog_scan_is_log(const struct kftlog_scan *s);
/*
 * For an error about input that is no log: "is empty" or "has only blank
 * lines" when the lines scanned have no text at all, else NULL.
 */
const char *kftlog_scan_empty(const struct kftlog_scan *s);

/* The header line only a count-mode log (mode count) has. */
#define KFTLOG_COUNT_MODE_LINE	"Number of calls counted"
/* A trace log whose entry and delta columns are nanoseconds (units ns). */
#define KFTLOG_UNITS_NS_LINE	"Units: ns"
/* The header line only a stacks- or profile-mode log has. */
#define KFTLOG_STACKS_MODE_LINE	"Number of stacks counted"
/* A trace log's count of its rows, in its header. */
#define KFTLOG_ROWS_LINE	"Number of entries after filters = "
/*
 * Whether a header line (len bytes, NULL: a line too long) is that count:
 * 0 if not, 1 with *rows the count, -1 if its count is no whole number.
 */
int kftlog_rows_line(const char *line, size_t len, long long *rows);
/* kft's header line naming the kernel that wrote the log (uname -r). */
#define KFTLOG_KERNEL_LINE	"Kernel: "

/*
 * Whether the rows end as the header says: 0, or -1 after a warning on
 * warn with the numbers (a log cut short, at a line's end or inside one,
 * or with more rows than its header counts; fewer rows without one when
 * cut_said), or with the line of a header count that is no number (then
 * the rows are not checked against it).
 */
int kftlog_scan_check_end(const struct kftlog_scan *s, const char *name, FILE *warn);

struct kftlog {
	struct kftlog_row *rows;
	size_t nr, cap;
	struct strtab names;	/* the row strings */
	struct kftlog_scan scan;
	struct kftstacks stacks;	/* a stacks-mode log's blocks */
	size_t max_rows;
};

/*
 * Reads a log; malformed rows are skipped with a warning on warn (NULL:
 * silent) naming the line, the first few of them, then a count. NULL with
 * errno set on failure: EFBIG past max_rows rows (in a stacks-mode log:
 * blocks and frames) or their names' share (KFTLOG_NAME_BYTES_PER_ROW a row).
 */
struct kftlog *kftlog__read(FILE *in, const char *name, FILE *warn, size_t max_rows);
/*
 * kftlog__read() a line at a time, for a reader that looks at the lines
 * first: a new log, each line (len bytes; NULL: a line too long to be a
 * row, over KFTLOG_LINE_MAX) fed to it (-1 with errno when the log cannot
 * go on), then the end (the count of malformed rows, if over the few named;
 * kftlog_scan_check_end()'s warning).
 */
struct kftlog *kftlog__new(size_t max_rows);
int kftlog__feed(struct kftlog *log, const char *line, size_t len, const char *name, FILE *warn);
void kftlog__end(struct kftlog *log, const char *name, FILE *warn);
/*
 * kftlog__feed() of line lineno of the input (its warnings name that
 * line), for a reader that feeds only some of its lines (kftcon.h).
 */
int kftlog__feed_at(struct kftlog *log, unsigned int lineno, const char *line, size_t len,
		    const char *name, FILE *warn);
/*
 * The rows in entry order, equal entries kept in the order read (a merge
 * sort of their indexes: 16 bytes a row besides the rows), when they are
 * not in it already: a saved console's dump (CPU after CPU) or a kft
 * record file (entry order within each read only). 0, or -1 (ENOMEM).
 */
int kftlog__sort(struct kftlog *log);
/* The same on text in memory (tests, fuzzers), with the default limit. */
struct kftlog *kftlog__parse(const char *text, size_t len, const char *name, FILE *warn);
void kftlog__free(struct kftlog *log);

#endif
