// SPDX-License-Identifier: GPL-2.0
/*
 * The --srcline option, the same in kd and the kft commands: its files
 * taken while the options are parsed (nothing read, so that the parse
 * stays without side effects; a build without libdw refuses the option
 * there, before anything runs), then their DWARF read into one set.
 */
#include <limits.h>
#include <stdio.h>

#include "srcline.h"

int srcline_files__add(struct srcline_files *f, const char *tool, const char *path,
		       char *err, size_t errlen)
{
	if (!srcline__available()) {
		snprintf(err, errlen, "--srcline: this %s was built without libdw (elfutils' "
			 "DWARF reader): build %s where libdw-dev is installed", tool, tool);
		return -1;
	}
	if (f->nr == SRCLINE_MAX_FILES) {
		snprintf(err, errlen, "--srcline: at most %d files", SRCLINE_MAX_FILES);
		return -1;
	}
	f->paths[f->nr++] = path;
	return 0;
}

struct srcline *srcline_files__open(const struct srcline_files *f, char *err, size_t errlen)
{
	struct srcline *sl = srcline__new();
	char why[PATH_MAX + 256];
	int i;

	if (!sl) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (i = 0; i < f->nr; i++) {
		if (srcline__add(sl, f->paths[i], why, sizeof(why))) {
			snprintf(err, errlen, "--srcline %s", why);
			srcline__free(sl);
			return NULL;
		}
	}
	return sl;
}
