// SPDX-License-Identifier: GPL-2.0
/*
 * The text of a log's word's source lines, one form for every command
 * that prints calls (kd -c, --json and the summary; kft errtrace,
 * slowtrace and trace -T), so that a call reads the same in each. A
 * function is shown at the line of its entry address, in the function
 * itself: its outermost frame, since an entry can lie in code inlined
 * into it. A caller is shown at the line of the call, with the inlined
 * calls it lies in, innermost first, as eu-addr2line -i and addr2line -i
 * print them.
 */
#include <stdio.h>

#include "srcline.h"

/* "file:line", or "??" for a frame without one: the length written. */
static size_t srcline_where(char *buf, size_t size, const struct srcline_frame *f)
{
	int n = f->file ? snprintf(buf, size, "%s:%d", f->file, f->line) :
			  snprintf(buf, size, "??");

	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* A caller's frames, each named, innermost first, joined by " <- ". */
static void srcline_caller_text(char *buf, size_t size, const struct srcline_frame *frames,
				int n)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && len + 1 < size; i++) {
		int w = snprintf(buf + len, size - len, "%s%s ", i ? " <- " : "",
				 frames[i].function ? frames[i].function : "?");

		len += w < 0 ? 0 : (size_t)w < size - len ? (size_t)w : size - len - 1;
		len += srcline_where(buf + len, size - len, &frames[i]);
	}
}

int srcline__text(struct srcline *sl, const struct ksyms *ks, const char *word,
		  enum srcline_at at, char *buf, size_t size)
{
	struct srcline_frame frames[SRCLINE_MAX_FRAMES];
	int n = srcline__lookup(sl, ks, word, at == SRCLINE_RETURN, frames, SRCLINE_MAX_FRAMES);

	if (n < 0)
		return -1;
	if (!n)
		snprintf(buf, size, "??");
	else if (at == SRCLINE_ENTRY)
		srcline_where(buf, size, &frames[n - 1]);
	else
		srcline_caller_text(buf, size, frames, n);
	return 0;
}
