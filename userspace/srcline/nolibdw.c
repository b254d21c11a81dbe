// SPDX-License-Identifier: GPL-2.0
/*
 * srcline.h in a build without elfutils' libdw (the guests' static
 * tools, cross builds): nothing reads DWARF, and every file added is
 * refused with the reason.
 */
#include <stdio.h>
#include <stdlib.h>

#include "srcline.h"

struct srcline {
	int unused;
};

int srcline__available(void)
{
	return 0;
}

struct srcline *srcline__new(void)
{
	return calloc(1, sizeof(struct srcline));
}

int srcline__add(struct srcline *sl, const char *path, char *err, size_t errlen)
{
	(void)sl;
	snprintf(err, errlen, "%s: this program was built without libdw (elfutils), which "
		 "reads DWARF: build it where libdw-dev is installed", path);
	return -1;
}

int srcline__lookup(struct srcline *sl, const struct ksyms *ks, const char *word,
		    int is_return, struct srcline_frame *frames, int max)
{
	(void)sl, (void)ks, (void)word, (void)is_return, (void)frames, (void)max;
	return 0;
}

void srcline__free(struct srcline *sl)
{
	free(sl);
}
