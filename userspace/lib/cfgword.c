// SPDX-License-Identifier: GPL-2.0
/* A kft configuration's words: see cfgword.h. */
#include <string.h>

#include "cfgword.h"

/*
 * The end of the quoted string at text[n] (its opening quote): past its
 * closing quote, a backslash taking the byte after it; at its line's end
 * if it has none.
 */
static size_t cfgword_quoted_end(const char *text, size_t n)
{
	for (n++; text[n] && text[n] != '"' && text[n] != '\n'; n++)
		if (text[n] == '\\' && text[n + 1] && text[n + 1] != '\n')
			n++;
	return text[n] == '"' ? n + 1 : n;
}

size_t cfgword_end(const char *text, size_t start)
{
	size_t n = start;

	if (text[n] == '"')
		n = cfgword_quoted_end(text, n);
	return n + strcspn(text + n, " \t\r\n#");
}

size_t cfgword_next(const char *text, size_t *i, size_t *start)
{
	size_t n = *i;

	for (;;) {
		n += strspn(text + n, " \t\r\n");
		if (text[n] != '#')
			break;
		n += strcspn(text + n, "\n");
	}
	*start = n;
	*i = cfgword_end(text, n);
	return *i - *start;
}
