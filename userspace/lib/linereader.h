/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading text line by line in bounded memory: a line longer than the
 * caller's buffer comes in parts, so no input (a 5 GB file without a
 * newline) makes a reader grow without end.
 */
#ifndef KFT_LINEREADER_H
#define KFT_LINEREADER_H

#include <stddef.h>
#include <stdio.h>

enum line_status {
	LINE_EOF,	/* nothing more */
	LINE_ERROR,	/* a read error; errno set */
	LINE_WHOLE,	/* the line, or the last part of a long one */
	LINE_PART,	/* size - 1 bytes of a line that goes on */
};

/*
 * Reads up to and including the next newline into buf, at most size - 1
 * bytes, NUL-terminated (a NUL byte in the input stays in buf: len counts
 * it). A WHOLE line ends with its newline, unless the input ended without
 * one. size must be at least 2. A PART may be followed by EOF.
 */
enum line_status line_read(FILE *in, char *buf, size_t size, size_t *len);

/*
 * fn on each line of in, read into buf as line_read() reads (with its
 * newline, if any); a line longer than size - 1 bytes once, as NULL and
 * 0, its parts dropped. Stops at the first fn that does not return 0 and
 * returns that; -1 with errno on a read error; 0 at the end.
 */
int line_each(FILE *in, char *buf, size_t size,
	      int (*fn)(void *arg, const char *line, size_t len), void *arg);

#endif
