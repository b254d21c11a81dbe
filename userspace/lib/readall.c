// SPDX-License-Identifier: GPL-2.0
/* Reading a whole stream: see readall.h. */
#include <errno.h>
#include <stdlib.h>

#include "readall.h"

char *read_all(FILE *in, size_t *len)
{
	size_t cap = 1 << 16, n;
	char *text = malloc(cap), *more;

	*len = 0;
	while (text && (n = fread(text + *len, 1, cap - *len - 1, in)) > 0) {
		*len += n;
		if (*len + 1 == cap) {
			more = realloc(text, cap * 2);
			if (!more)
				break;
			text = more;
			cap *= 2;
		}
	}
	if (!text || ferror(in) || *len + 1 == cap) {
		int err = text && ferror(in) ? EIO : ENOMEM;

		free(text);
		errno = err;
		return NULL;
	}
	text[*len] = '\0';
	return text;
}
