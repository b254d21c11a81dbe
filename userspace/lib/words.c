// SPDX-License-Identifier: GPL-2.0
/* Words of a line: see words.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "words.h"

int word_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

size_t words_split(const char *line, size_t len, struct word *w, size_t n)
{
	size_t i = 0, nr = 0;

	while (nr < n) {
		while (i < len && word_blank(line[i]))
			i++;
		if (i == len)
			break;
		w[nr].s = line + i;
		while (i < len && !word_blank(line[i]))
			i++;
		w[nr].len = (size_t)(line + i - w[nr].s);
		nr++;
	}
	return nr;
}

int word_ll(const struct word *w, long long *v)
{
	char buf[32], *end;

	if (w->len == 0 || w->len >= sizeof(buf))
		return -1;
	memcpy(buf, w->s, w->len);
	buf[w->len] = '\0';
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return errno || *end ? -1 : 0;
}

int word_is(const struct word *w, const char *s)
{
	return w->len == strlen(s) && !memcmp(w->s, s, w->len);
}
