// SPDX-License-Identifier: GPL-2.0
/* Bounded line reading: see linereader.h. */
#include <errno.h>

#include "linereader.h"

enum line_status line_read(FILE *in, char *buf, size_t size, size_t *len)
{
	size_t n = 0;
	int c = EOF;

	/* getc_unlocked: one caller per stream, and a call per byte is cheap. */
	while (n + 1 < size && c != '\n' && (c = getc_unlocked(in)) != EOF)
		buf[n++] = (char)c;
	buf[n] = '\0';
	*len = n;
	if (c == EOF && ferror(in)) {
		if (!errno)
			errno = EIO;
		return LINE_ERROR;
	}
	if (c == EOF && n == 0)
		return LINE_EOF;
	return n + 1 == size && c != '\n' ? LINE_PART : LINE_WHOLE;
}

int line_each(FILE *in, char *buf, size_t size,
	      int (*fn)(void *arg, const char *line, size_t len), void *arg)
{
	enum line_status st;
	int too_long = 0, ret;
	size_t len;

	while ((st = line_read(in, buf, size, &len)) == LINE_WHOLE || st == LINE_PART) {
		/* A long line's parts are dropped; its last one counts it. */
		if (st == LINE_PART) {
			too_long = 1;
			continue;
		}
		ret = too_long ? fn(arg, NULL, 0) : fn(arg, buf, len);
		if (ret)
			return ret;
		too_long = 0;
	}
	if (st == LINE_ERROR)
		return -1;
	return too_long ? fn(arg, NULL, 0) : 0;
}
